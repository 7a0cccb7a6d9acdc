#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# GNU General Public License v3.0+ (see LICENSES/GPL-3.0-or-later.txt or https://www.gnu.org/licenses/gpl-3.0.txt)
# Modules run inside ansible-core's GPLv3 AnsibleModule, so they carry its licence; the rest of the
# collection is Apache-2.0 (see LICENSE).

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
---
module: native_facts
short_description: Report which native libraries a Hadoop release can load on this host's architecture
version_added: "0.1.0"
description:
  - Runs C(hadoop checknative) (libhadoop, zlib, zstd, bzip2, openssl, ISA-L, PMDK) when asked.
  - Looks inside the release's jars for the JNI libraries Hadoop loads from them, and checks each
    library's ELF header against the host's CPU; C(leveldbjni-all) (NodeManager recovery, the timeline
    store), C(snappy-java) and C(lz4-java).
  - Reports which compression codecs work and how (native, JNI or the Java fallback).
  - Only reads; returns the facts as C(ansible_facts.hadoop_native).
author:
  - bigdata.spark developers (!UNKNOWN)
options:
  hadoop_home:
    description: Directory of the Hadoop release (the one holding C(bin/hadoop) and C(share/hadoop)).
    type: path
    required: true
  checknative:
    description: Run C(hadoop checknative) (starts a JVM, a few seconds; much longer under emulation).
    type: bool
    default: true
  architecture:
    description: CPU to check for; the default is the host's (C(uname -m)). Names like C(arm64) and C(amd64) are accepted.
    type: str
  environment:
    description: Extra environment for C(hadoop checknative), such as C(HADOOP_CONF_DIR) and C(JAVA_HOME).
    type: dict
    default: {}
extends_documentation_fragment:
  - bigdata.spark.read_only
seealso:
  - module: bigdata.spark.hardware_facts
"""

EXAMPLES = r"""
- name: Report the native libraries
  bigdata.spark.native_facts:
    hadoop_home: /opt/hadoop/current
    environment:
      HADOOP_CONF_DIR: /etc/hadoop/conf

- name: Turn NodeManager recovery off where leveldbjni has no library for this CPU
  ansible.builtin.set_fact:
    nm_recovery: "{{ hadoop_native.jni.leveldbjni.available }}"
"""

RETURN = r"""
hadoop_native:
  description: What loads on this host.
  returned: always
  type: dict
  contains:
    architecture:
      description: The CPU checked for (x86_64, aarch64, or as uname says).
      type: str
      sample: aarch64
    checknative:
      description: C(hadoop checknative)'s table (library -> available, detail); empty when not run or when it failed.
      type: dict
      sample: {"hadoop": {"available": false, "detail": ""}, "zstd": {"available": false, "detail": ""}}
    checknative_rc:
      description: Exit code of C(hadoop checknative) (1 whenever libhadoop is missing); null when not run.
      type: int
    checknative_error:
      description: When C(hadoop checknative) ran but its table has no C(hadoop) row (it failed to start), its
        standard error; empty otherwise.
      type: str
      sample: "ERROR: JAVA_HOME is not set and could not be found."
    jni:
      description: Per JNI library (leveldbjni, snappy, lz4) the jar, whether it has this CPU's library, the
        architectures it carries and a sentence.
      type: dict
      sample: {"leveldbjni": {"available": false, "jar": "/opt/hadoop/current/share/hadoop/hdfs/lib/leveldbjni-all-1.8.jar",
               "architectures": ["i386", "x86_64"], "path": null,
               "detail": "leveldbjni: the jar has no aarch64 Linux library (it carries: i386, x86_64)"}}
    codecs:
      description: Per codec (snappy, lz4, zstd, zlib, bzip2) whether it works and how.
      type: dict
      sample: {"snappy": {"available": true, "how": "snappy-java JNI"}}
"""

import os
import platform
import re
import zipfile

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.bigdata.spark.plugins.module_utils.native import (
    JAR_PATTERNS, NativeError, checknative_error, codec_report, jni_status, normalise_arch, parse_checknative)


def find_jars(hadoop_home, pattern):
    """Every jar under share/hadoop whose name matches pattern, sorted by path."""
    found = []
    for d, _dirs, files in os.walk(os.path.join(hadoop_home, 'share', 'hadoop')):
        found.extend(os.path.join(d, f) for f in files if re.match(pattern, f))
    return sorted(found)


def so_headers(jar):
    """{entry: first 20 bytes} for every .so entry of a jar."""
    out = {}
    with zipfile.ZipFile(jar) as z:
        for info in z.infolist():
            if info.filename.endswith('.so') and not info.is_dir():
                with z.open(info) as f:
                    out[info.filename] = f.read(20)
    return out


def gather(hadoop_home, architecture, run_checknative=None):
    arch = normalise_arch(architecture or platform.machine() or '', 'architecture')
    jni = {}
    for library, pattern in sorted(JAR_PATTERNS.items()):
        jars = find_jars(hadoop_home, pattern)
        if not jars:
            jni[library] = {'available': False, 'jar': None, 'path': None, 'architectures': [],
                            'detail': '%s: no jar matching %s under %s/share/hadoop' % (library, pattern, hadoop_home)}
            continue
        # Every copy on the classpath must carry the library: the class loader may pick any of them.
        for jar in jars:
            try:
                status = jni_status(library, arch, so_headers(jar))
            except (IOError, OSError, zipfile.BadZipfile) as exc:
                status = {'available': False, 'path': None, 'architectures': [],
                          'detail': '%s: cannot read %s: %s' % (library, jar, exc)}
            status['jar'] = jar
            if not status['available']:
                break
        jni[library] = status
    checknative, rc, error = {}, None, ''
    if run_checknative is not None:
        rc, out, err = run_checknative()
        checknative = parse_checknative(out + '\n' + err)
        error = checknative_error(checknative, err)
    return {'architecture': arch, 'checknative': checknative, 'checknative_rc': rc, 'checknative_error': error,
            'jni': jni, 'codecs': codec_report(checknative, jni)}


def main():
    module = AnsibleModule(
        argument_spec=dict(
            hadoop_home=dict(type='path', required=True),
            checknative=dict(type='bool', default=True),
            architecture=dict(type='str'),
            environment=dict(type='dict', default={}),
        ),
        supports_check_mode=True,
    )
    home = module.params['hadoop_home']
    if not os.path.isdir(os.path.join(home, 'share', 'hadoop')):
        module.fail_json(msg='hadoop_home: %s has no share/hadoop; give the directory of an installed Hadoop release' % home)

    def run_checknative():
        env = dict(os.environ)
        env.update(dict((str(k), str(v)) for k, v in module.params['environment'].items()))
        return module.run_command([os.path.join(home, 'bin', 'hadoop'), 'checknative'], environ_update=env)

    try:
        facts = gather(home, module.params['architecture'], run_checknative if module.params['checknative'] else None)
    except NativeError as exc:
        module.fail_json(msg=str(exc))
    module.exit_json(changed=False, hadoop_native=facts, ansible_facts={'hadoop_native': facts})


if __name__ == '__main__':
    main()
