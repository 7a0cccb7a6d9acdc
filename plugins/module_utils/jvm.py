# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""JVM options as written into the files: heap flags, the options, then the module openings Java 17 needs.

The one place such a string is made (roles/yarn's mapred-site.xml options, roles/hadoop_common's hadoop-env.sh).
Plain functions over plain values: no Ansible imports, no file or network access.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.bigdata.spark.plugins.module_utils.plan_inputs import PlanError

# Module openings (--add-opens) are needed from this Java release on.
ADD_OPENS_SINCE = 17


def _whole(value, field, minimum):
    if isinstance(value, bool):
        raise PlanError('%s: expected a whole number, got %r' % (field, value))
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if not isinstance(value, int) or value < minimum:
        raise PlanError('%s: expected a whole number of %d or more, got %r' % (field, minimum, value))
    return value


def add_opens(openings, java_major):
    """--add-opens=<opening> for each opening, joined by spaces; empty below Java 17."""
    if _whole(java_major, 'java_major', 1) < ADD_OPENS_SINCE:
        return ''
    if isinstance(openings, str) or not isinstance(openings, (list, tuple)):
        raise PlanError('add_opens: expected a list of openings such as java.base/java.lang=ALL-UNNAMED, got %r'
                        % (openings,))
    return ' '.join('--add-opens=%s' % opening for opening in openings)


def jvm_options(options='', openings=(), java_major=ADD_OPENS_SINCE, heap_mb=None, initial_heap_mb=None):
    """The final JVM options string.

    From Java 17 on, options + ' ' + the openings, stripped; below 17 the options as given. -Xms<initial_heap_mb>m
    and -Xmx<heap_mb>m, when given, go first. (The spacing is that of the files deployed before this function
    existed, so they render byte for byte the same.)
    """
    if options is None:
        options = ''
    if not isinstance(options, str):
        raise PlanError('options: expected JVM options as a string, got %r' % (options,))
    text = options
    if _whole(java_major, 'java_major', 1) >= ADD_OPENS_SINCE:
        text = ('%s %s' % (options, add_opens(openings, java_major))).strip()
    heap = []
    if initial_heap_mb is not None:
        heap.append('-Xms%dm' % _whole(initial_heap_mb, 'initial_heap_mb', 1))
    if heap_mb is not None:
        heap.append('-Xmx%dm' % _whole(heap_mb, 'heap_mb', 1))
    if heap:
        text = ' '.join(heap + ([text] if text else []))
    return text
