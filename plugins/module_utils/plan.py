# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Pure resource planner: YARN, MapReduce, Spark and daemon-heap settings from hardware.

Plain functions over plain values: no Ansible imports, no file or network access.
Every invalid input raises PlanError with a message naming the field and what is allowed.
The rules are documented in docs/sizing.md. The work is split by concern:
plan_inputs (units, bounds, inputs, override values), plan_default (this collection's rules: numbers and the
facts behind them), plan_explain (the sentences of explain, from those facts), plan_peers (the seed's rules and
other tools' rules, for comparison), plan_render (files, capacity, invariants, overrides). This module keeps
plan() and re-exports what callers import.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

# Re-exported: callers and tests import these from plan.
from ansible_collections.bigdata.spark.plugins.module_utils.plan_inputs import (  # noqa: F401 pylint: disable=unused-import
    CONSTANT_RULES, DEFAULT_CONSTANTS, DEPLOY_MODES, GIB, MASTER_ROLES, MAX_CORES, MAX_DISKS, MAX_MEMORY_MB,
    MAX_PARTITIONS, MIB, MIN_MEMORY_MB, NM_MEMORY, NM_VCORES, PROFILES, PROPERTY_TYPES, ROLES, WORKLOADS, PlanError,
    fmt_size, host_from_facts, override_errors, parse_size_mb, parse_xmx_mb, roundup)
from ansible_collections.bigdata.spark.plugins.module_utils.plan_inputs import (
    _int, norm_constants, norm_hosts, norm_lab, norm_reservations, norm_services, page_size_advices)
from ansible_collections.bigdata.spark.plugins.module_utils.plan_default import (  # noqa: F401 pylint: disable=unused-import
    DAEMON_ENV, HA_HEAPS, LAB_HEAPS_MB, beside, daemon_heaps, executor_split, plan_default, render_env)
from ansible_collections.bigdata.spark.plugins.module_utils.plan_explain import (
    explain_capacity, explain_default, explain_heaps, explain_lab, nodemanager_why)
from ansible_collections.bigdata.spark.plugins.module_utils.plan_peers import (  # noqa: F401 pylint: disable=unused-import
    PEERS, SEED_CONSTANTS, plan_seed)
from ansible_collections.bigdata.spark.plugins.module_utils.plan_render import (  # noqa: F401 pylint: disable=unused-import
    apply_overrides, capacity, check_invariants, heaps_mb, hosts_summary, render)

_roundup = roundup  # older name, kept for callers


def _options(executor_cores, workload, shuffle_data_bytes, reserve_am_slot, driver_deploy_mode, reservations,
             other_services, lab, c):
    if not isinstance(workload, str) or workload not in WORKLOADS:
        raise PlanError('workload: unknown workload %r; allowed: %s' % (workload, ', '.join(WORKLOADS)))
    if not isinstance(driver_deploy_mode, str) or driver_deploy_mode not in DEPLOY_MODES:
        raise PlanError('driver_deploy_mode: %r; allowed: %s' % (driver_deploy_mode, ', '.join(DEPLOY_MODES)))
    if not isinstance(reserve_am_slot, bool):
        raise PlanError('reserve_am_slot: expected true or false, got %r' % (reserve_am_slot,))
    most = MAX_PARTITIONS * int(c['bytes_per_partition'])
    shuffle = _int(shuffle_data_bytes, 'shuffle_data_bytes', 0, allow_none=True)
    if shuffle is not None and shuffle > most:
        raise PlanError('shuffle_data_bytes: %d bytes would need more than %d shuffle partitions of %d bytes, Spark\'s '
                        'limit; allowed 0..%d' % (shuffle, MAX_PARTITIONS, c['bytes_per_partition'], most))
    return {
        'executor_cores': _int(executor_cores, 'executor_cores', 1, allow_none=True, maximum=MAX_CORES),
        'workload': workload,
        'shuffle_data_bytes': shuffle,
        'reserve_am_slot': reserve_am_slot,
        'driver_deploy_mode': driver_deploy_mode,
        'reservations': norm_reservations(reservations, 'reservations') if reservations is not None else None,
        'other_services': norm_services(other_services),
        'lab': norm_lab(lab),
    }


# Spark's default for spark.shuffle.push.mergersMinStaticThreshold: a stage pushes its blocks only when this many
# hosts (or the ratio's share of the executors' hosts) can merge them.
PUSH_MERGERS_DEFAULT = 5


PUSH_WAIT_DEFAULT = '500m'
# Spark pushes only with a serializer that can relocate serialized objects (Utils.isPushBasedShuffleEnabled): Kryo
# can, Java's (Spark's default) cannot, and push would silently stay off.
KRYO = 'org.apache.spark.serializer.KryoSerializer'


def push_shuffle_settings(nodemanagers, lab=False):
    """Spark's push-based shuffle (merged on the NodeManagers' shuffle service): its spark-defaults and why."""
    mergers = max(1, min(PUSH_MERGERS_DEFAULT, nodemanagers // 2))
    wait = '0' if lab else PUSH_WAIT_DEFAULT
    settings = {'spark.shuffle.push.enabled': 'true',
                'spark.shuffle.push.mergersMinStaticThreshold': str(mergers),
                'spark.shuffle.push.minShuffleSizeToWait': wait,
                'spark.serializer': KRYO}
    why = {
        'spark.shuffle.push.enabled': 'push_shuffle: map tasks push their blocks to the NodeManagers\' shuffle service, '
                                      'which merges them per reducer (the YARN role sets its merge manager); reducers '
                                      'then read a few large merged blocks instead of many small ones.',
        'spark.shuffle.push.mergersMinStaticThreshold': (
            'A stage pushes only when this many hosts can merge: Spark\'s %d, or half the %d NodeManager(s) when '
            'that is fewer (at least 1), so a small cluster pushes at all: %d.'
            % (PUSH_MERGERS_DEFAULT, nodemanagers, mergers)),
        'spark.serializer': ('push_shuffle: Spark pushes only with a serializer that can relocate serialized objects; '
                             'Kryo can, Java\'s (Spark\'s default) cannot, and push would stay off without a word.'),
        'spark.shuffle.push.minShuffleSizeToWait': (
            'lab mode: the lab\'s shuffles are megabytes, and below this size the driver does not wait for the merges '
            'to finish (the reducers would read few merged blocks): 0, always wait (at most '
            'spark.shuffle.push.finalize.timeout, 10 s).' if lab else
            'Spark\'s %s: below it waiting for the merges costs more than the merged reads save.' % PUSH_WAIT_DEFAULT),
    }
    return settings, why


def plan(hosts, profile='default', executor_cores=None, workload='default', shuffle_data_bytes=None,
         reserve_am_slot=False, driver_deploy_mode='cluster', reservations=None, other_services=None,
         lab=None, overrides=None, constants=None, push_shuffle=False):
    """Compute the whole plan; see docs/sizing.md. Raises PlanError on bad input, and only PlanError."""
    if not isinstance(profile, str) or profile not in PROFILES:
        raise PlanError('profile: unknown profile %r; allowed: %s' % (profile, ', '.join(PROFILES)))
    if not isinstance(push_shuffle, bool):
        raise PlanError('push_shuffle: expected true or false, got %r' % (push_shuffle,))
    c = norm_constants(constants)
    opts = _options(executor_cores, workload, shuffle_data_bytes, reserve_am_slot, driver_deploy_mode,
                    reservations, other_services, lab, c)
    norm = norm_hosts(hosts)
    known = set(h['name'] for h in norm)
    for svc in opts['other_services']:
        for name in svc['hosts'] or []:
            if name not in known:
                raise PlanError('other_services[%s].hosts: unknown host %r; allowed: %s'
                                % (svc['name'], name, ', '.join(sorted(known))))
    warnings = []
    if reserve_am_slot:
        warnings.append('reserve_am_slot: deprecated and ignored; the plan now keeps room for the driver or the '
                        'ApplicationMaster itself (see capacity)')
    if profile == 'default':
        numbers, why = plan_default(norm, opts, c, warnings)
        explain = explain_default(why, c)
    elif profile == 'seed':
        numbers, explain = plan_seed(norm, opts, c, warnings)
    else:
        numbers, explain = PEERS[profile](norm, opts, c, warnings)
    heaps, why_heaps = daemon_heaps(norm, numbers['nms'], opts['lab'], warnings)
    explain.update(explain_heaps(heaps, why_heaps))
    hadoop_env, spark_env, zookeeper_env = render_env(heaps)
    if profile == 'stock':
        hadoop_env, spark_env, zookeeper_env = {}, {}, {}
        explain['hadoop_env'] = 'stock: no heap settings; the JVM picks a quarter of the memory'
    yarn_site, mapred_site, spark_defaults, nodemanagers = render(numbers)
    if push_shuffle:
        settings, why_push = push_shuffle_settings(len(numbers['nms']), bool(opts['lab']))
        spark_defaults.update(settings)
        explain.update(why_push)
    for name, nm in numbers['nms'].items():
        if 'why' in nm:
            why_memory, why_vcores = nodemanager_why(nm['why'])
            explain['nodemanagers.%s.%s' % (name, NM_MEMORY)] = why_memory
            explain['nodemanagers.%s.%s' % (name, NM_VCORES)] = why_vcores
    ref = numbers['ref']
    explain.setdefault(NM_MEMORY, 'The smallest NodeManager (%s); per-host values are under nodemanagers.' % ref)
    explain.setdefault(NM_VCORES, 'The smallest NodeManager (%s); per-host values are under nodemanagers.' % ref)
    explain.setdefault('spark.yarn.am.memory', 'Spark\'s default client-mode ApplicationMaster heap, 512m.')
    if opts['lab']:
        explain['lab'] = explain_lab(opts['lab'], c, heaps)
    result = {
        'profile': profile,
        'driver_deploy_mode': opts['driver_deploy_mode'],
        'yarn_site': yarn_site,
        'mapred_site': mapred_site,
        'spark_defaults': spark_defaults,
        'hadoop_env': hadoop_env,
        'spark_env': spark_env,
    }
    if zookeeper_env:  # only when a host runs ZooKeeper: a plan without it keeps its keys
        result['zookeeper_env'] = zookeeper_env
    result.update({
        'nodemanagers': nodemanagers,
        'explain': explain,
        'warnings': warnings,
        'page_size_advice': page_size_advices(norm),
    })
    advice_hosts = {}
    for name, text in sorted(result['page_size_advice'].items()):
        advice_hosts.setdefault(text, []).append(name)
    for text, names in sorted(advice_hosts.items(), key=lambda kv: kv[1]):
        warnings.append('%s: %s' % (', '.join(names), text))
    problems = check_invariants(result)
    if problems and profile == 'default':
        raise PlanError('plan: the inputs give an unsound plan: %s' % '; '.join(problems))
    for problem in problems:
        warnings.append('%s profile: %s' % (profile, problem))
    if overrides:
        apply_overrides(result, overrides)
        new = [p for p in check_invariants(result) if p not in problems]
        if new:
            raise PlanError('overrides: the overridden plan breaks an invariant: %s' % '; '.join(new))
    result['capacity'] = capacity(result)
    result['heaps_mb'] = heaps_mb(result)
    result['hosts'] = hosts_summary(result, norm)
    explain['capacity'] = explain_capacity(result)
    return result
