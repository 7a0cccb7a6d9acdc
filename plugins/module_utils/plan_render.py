# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Planner output: the numbers as file properties, what YARN can grant (capacity), invariants, overrides.

Plain functions over plain values: no Ansible imports, no file or network access.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import copy

from ansible_collections.bigdata.spark.plugins.module_utils.plan_default import DAEMON_ENV, beside, overhead_mb
from ansible_collections.bigdata.spark.plugins.module_utils.plan_inputs import (
    NM_MEMORY, NM_VCORES, PlanError, fmt_size, override_errors, parse_size_mb, parse_xmx_mb, roundup)

# zookeeper_env is in the plan only when a host runs ZooKeeper.
SECTIONS = ('yarn_site', 'mapred_site', 'spark_defaults', 'hadoop_env', 'spark_env', 'zookeeper_env')
# Share of a MapReduce container its -Xmx may take at most; the rest is the JVM's non-heap memory.
MR_HEAP_MAX_SHARE = 0.9


def render(numbers):
    nms = numbers['nms']
    ref = nms[numbers['ref']]
    yarn_site = {
        NM_MEMORY: str(ref['nm_mb']),
        NM_VCORES: str(ref['vcores']),
        'yarn.scheduler.minimum-allocation-mb': str(numbers['min_alloc']),
        'yarn.scheduler.maximum-allocation-mb': str(numbers['max_alloc']),
        'yarn.scheduler.minimum-allocation-vcores': '1',
        'yarn.scheduler.maximum-allocation-vcores': str(numbers['max_vcores']),
    }
    mapred_site = {
        'mapreduce.map.memory.mb': str(numbers['map']),
        'mapreduce.map.java.opts': numbers['map_xmx'],
        'mapreduce.map.cpu.vcores': '1',
        'mapreduce.reduce.memory.mb': str(numbers['reduce']),
        'mapreduce.reduce.java.opts': numbers['reduce_xmx'],
        'mapreduce.reduce.cpu.vcores': '1',
        'yarn.app.mapreduce.am.resource.mb': str(numbers['am']),
        'yarn.app.mapreduce.am.command-opts': numbers['am_xmx'],
    }
    spark_defaults = {
        'spark.executor.cores': str(numbers['executor_cores']),
        'spark.executor.memory': fmt_size(numbers['heap']),
        'spark.executor.memoryOverhead': fmt_size(numbers['overhead']),
        'spark.executor.instances': str(numbers['instances']),
        'spark.driver.memory': fmt_size(numbers['driver']),
        'spark.yarn.am.memory': fmt_size(numbers.get('am_memory', 512)),
        'spark.sql.shuffle.partitions': str(numbers['partitions']),
        'spark.default.parallelism': str(numbers['parallelism']),
        'spark.dynamicAllocation.enabled': numbers['dynamic_allocation'],
    }
    nodemanagers = dict((name, {NM_MEMORY: str(nm['nm_mb']), NM_VCORES: str(nm['vcores'])})
                        for name, nm in sorted(nms.items()))
    return yarn_site, mapred_site, spark_defaults, nodemanagers


def _values(result):
    """The numbers a rendered plan (maybe overridden) asks YARN for, in MB."""
    y, m, s = result['yarn_site'], result['mapred_site'], result['spark_defaults']
    v = {
        'min_alloc': int(y['yarn.scheduler.minimum-allocation-mb']),
        'max_alloc': int(y['yarn.scheduler.maximum-allocation-mb']),
        'max_vcores': int(y['yarn.scheduler.maximum-allocation-vcores']),
        'ec': int(s['spark.executor.cores']),
        'heap': parse_size_mb(s['spark.executor.memory'], 'spark.executor.memory'),
        'over': parse_size_mb(s['spark.executor.memoryOverhead'], 'spark.executor.memoryOverhead'),
        'instances': int(s['spark.executor.instances']),
        'driver': parse_size_mb(s['spark.driver.memory'], 'spark.driver.memory'),
        'am': parse_size_mb(s.get('spark.yarn.am.memory', '512m'), 'spark.yarn.am.memory'),
        'nms': [(name, int(nm[NM_MEMORY]), int(nm[NM_VCORES])) for name, nm in sorted(result['nodemanagers'].items())],
    }
    step = max(1, v['min_alloc'])
    v['executor'] = roundup(v['heap'] + v['over'], step)
    v['driver_container'] = roundup(v['driver'] + overhead_mb(v['driver']), step)
    v['am_container'] = roundup(v['am'] + overhead_mb(v['am']), step)
    v['mr_am'] = roundup(int(m['yarn.app.mapreduce.am.resource.mb']), step)
    v['map'] = roundup(int(m['mapreduce.map.memory.mb']), step)
    return v


def _granted(sizes, unit, first, max_alloc):
    if unit > max_alloc or first > max_alloc:
        return 0  # the ResourceManager rejects a request above the maximum allocation
    return beside(sizes, unit, first)


def capacity(result):
    """What YARN can grant, the way the ResourceManager counts (memory only, requests rounded up).

    cluster: executors beside the driver's container; client: beside the client-mode AM's container;
    mapreduce: map containers beside the MapReduce AM. The first container sits where it costs the most.
    """
    v = _values(result)
    sizes = [mb for _name, mb, _vcores in v['nms']]
    return {
        'cluster': _granted(sizes, v['executor'], v['driver_container'], v['max_alloc']),
        'client': _granted(sizes, v['executor'], v['am_container'], v['max_alloc']),
        'mapreduce': {'am_mb': v['mr_am'], 'map_mb': v['map'],
                      'maps': _granted(sizes, v['map'], v['mr_am'], v['max_alloc'])},
        'executor_mb': v['executor'], 'driver_mb': v['driver_container'], 'am_mb': v['am_container'],
    }


# The roles' heap variables (hadoop_heap_mb's keys; spark_daemon_heap_mb) and the hadoop-env/spark-env keys
# they come from.
ROLE_HEAPS = (('namenode', 'HDFS_NAMENODE_OPTS'), ('secondarynamenode', 'HDFS_SECONDARYNAMENODE_OPTS'),
              ('datanode', 'HDFS_DATANODE_OPTS'),
              ('resourcemanager', 'YARN_RESOURCEMANAGER_OPTS'), ('nodemanager', 'YARN_NODEMANAGER_OPTS'),
              ('historyserver', 'MAPRED_HISTORYSERVER_OPTS'),
              ('journalnode', 'HDFS_JOURNALNODE_OPTS'), ('zkfc', 'HDFS_ZKFC_OPTS'))


def _heap_mb(key, value):
    """MB of one heap value of hadoop_env (-Xmx in JVM options), spark_env (a size) or zookeeper_env (MB)."""
    if key in ('SPARK_DAEMON_MEMORY', 'ZK_SERVER_HEAP'):
        return parse_size_mb(value, key)
    return parse_xmx_mb(value, key)


def heaps_mb(result):
    """The daemon heaps as numbers (MB) for the roles, read once here from the final hadoop_env and spark_env
    (after overrides): {'hadoop': {namenode, secondarynamenode, datanode, resourcemanager, nodemanager, historyserver},
    'spark_history': MB}. Empty when the profile sets no heaps (stock): the roles' defaults stay. HA's daemons when
    a host runs them: journalnode and zkfc in 'hadoop', 'zookeeper' (zookeeper_heap_mb) from zookeeper_env."""
    env, spark_env = result['hadoop_env'], result['spark_env']
    if not env:
        return {}
    out = {'hadoop': dict((name, parse_xmx_mb(env[key], key)) for name, key in ROLE_HEAPS if key in env)}
    if 'SPARK_DAEMON_MEMORY' in spark_env:
        out['spark_history'] = parse_size_mb(spark_env['SPARK_DAEMON_MEMORY'], 'SPARK_DAEMON_MEMORY')
    zookeeper_env = result.get('zookeeper_env', {})
    if 'ZK_SERVER_HEAP' in zookeeper_env:
        out['zookeeper'] = _heap_mb('ZK_SERVER_HEAP', zookeeper_env['ZK_SERVER_HEAP'])
    return out


def hosts_summary(result, hosts):
    """Per host, what the roles get and its numbers; read after the overrides, capacity and heaps_mb.

    yarn_site (the cluster's values with the host's own NodeManager memory and vcores), mapred_site,
    spark_defaults, heaps_mb (the roles' hadoop_heap_mb and spark_daemon_heap_mb: hadoop-env.sh lists every
    daemon's heap on every host); cores and memory_mb; for NodeManagers nm_mb, vcores and the executors and
    map containers that fit; daemon_heaps_mb, the heaps (MB) of the daemons the host runs, by env name.
    """
    v = _values(result)
    m = result['mapred_site']
    map_vcores = max(1, int(m.get('mapreduce.map.cpu.vcores', '1')))
    env = dict(result['hadoop_env'])
    env.update(result['spark_env'])
    env.update(result.get('zookeeper_env', {}))
    out = {}
    for host in hosts:
        name = host['name']
        nm = result['nodemanagers'].get(name)
        yarn_site = dict(result['yarn_site'])
        yarn_site.update(nm or {})
        entry = {'cores': host['cores'], 'memory_mb': host['memory_mb'], 'yarn_site': yarn_site,
                 'mapred_site': dict(m), 'spark_defaults': dict(result['spark_defaults']),
                 'heaps_mb': copy.deepcopy(result['heaps_mb']), 'daemon_heaps_mb': {}}
        if nm:
            nm_mb, vcores = int(nm[NM_MEMORY]), int(nm[NM_VCORES])
            entry.update({'nm_mb': nm_mb, 'vcores': vcores,
                          'executors': min(vcores // max(1, v['ec']), nm_mb // max(1, v['executor'])),
                          'maps': min(vcores // map_vcores, nm_mb // max(1, v['map']))})
        for role, key in DAEMON_ENV:
            if role in host['roles'] and key in env:
                entry['daemon_heaps_mb'][key] = _heap_mb(key, env[key])
        out[name] = entry
    return out


def check_invariants(result):
    """Return the list of broken invariants of a rendered plan (empty when it is sound)."""
    problems = []
    m = result['mapred_site']
    v = _values(result)
    mode = result.get('driver_deploy_mode', 'cluster')
    min_alloc, max_alloc, ec = v['min_alloc'], v['max_alloc'], v['ec']
    heap, over, instances = v['heap'], v['over'], v['instances']
    for key, value in (('minimum-allocation-mb', min_alloc), ('maximum-allocation-mb', max_alloc),
                       ('spark.executor.cores', ec), ('spark.executor.memory', heap),
                       ('spark.executor.instances', instances), ('maximum-allocation-vcores', v['max_vcores']),
                       ('spark.driver.memory', v['driver']), ('spark.yarn.am.memory', v['am'])):
        if value <= 0:
            problems.append('%s must be positive, got %d' % (key, value))
    if problems:
        return problems
    largest = 0
    for name, mem, vcores in v['nms']:
        if mem <= 0 or vcores <= 0:
            problems.append('%s: NodeManager memory and vcores must be positive' % name)
        largest = max(largest, mem)
    if min_alloc > max_alloc:
        problems.append('yarn.scheduler.minimum-allocation-mb %d > maximum-allocation-mb %d' % (min_alloc, max_alloc))
    if max_alloc > largest:
        problems.append('yarn.scheduler.maximum-allocation-mb %d is above the largest NodeManager (%d MB)'
                        % (max_alloc, largest))
    if ec > v['max_vcores']:
        problems.append('spark.executor.cores %d > yarn.scheduler.maximum-allocation-vcores %d' % (ec, v['max_vcores']))
    if heap + over > max_alloc:
        problems.append('executor heap + overhead %d MB > yarn.scheduler.maximum-allocation-mb %d'
                        % (heap + over, max_alloc))
    if over < 384:
        problems.append('spark.executor.memoryOverhead %d MB < 384 MB, Spark\'s floor' % over)
    if v['driver_container'] > max_alloc and mode == 'cluster':
        problems.append('the driver\'s container (%d MB heap + %d MB overhead) > yarn.scheduler.maximum-allocation-mb '
                        '%d' % (v['driver'], overhead_mb(v['driver']), max_alloc))
    if v['am_container'] > max_alloc:
        problems.append('the client-mode AM\'s container (%d MB heap + %d MB overhead) > '
                        'yarn.scheduler.maximum-allocation-mb %d' % (v['am'], overhead_mb(v['am']), max_alloc))
    cap = capacity(result)
    by_cores = sum(min(mem // v['executor'], vcores // ec) for _name, mem, vcores in v['nms'])
    if instances > by_cores:
        problems.append('%d executors of %d MB (rounded up to the %d MB minimum allocation) and %d cores do not fit '
                        'the NodeManagers (room for %d)' % (instances, heap + over, min_alloc, ec, by_cores))
    if instances > cap[mode]:
        problems.append('spark.executor.instances %d > the %d executors YARN can grant beside the %s (%s mode)'
                        % (instances, cap[mode], 'driver' if mode == 'cluster' else 'ApplicationMaster', mode))
    if cap['mapreduce']['maps'] < 1:
        problems.append('no map container fits beside the MapReduce ApplicationMaster')
    for key, opts in (('mapreduce.map.memory.mb', 'mapreduce.map.java.opts'),
                      ('mapreduce.reduce.memory.mb', 'mapreduce.reduce.java.opts'),
                      ('yarn.app.mapreduce.am.resource.mb', 'yarn.app.mapreduce.am.command-opts')):
        size = int(m[key])
        if '-Xmx' in m[opts]:
            xmx = parse_xmx_mb(m[opts], opts)
        else:
            xmx = int(size * 0.8)  # Hadoop derives it with mapreduce.job.heap.memory-mb.ratio
        if size <= 0 or xmx <= 0:
            problems.append('%s and %s must be positive' % (key, opts))
        elif xmx > size * MR_HEAP_MAX_SHARE:
            problems.append('%s -Xmx %d MB leaves less than %d%% of the %s %d MB container for the JVM\'s '
                            'non-heap memory' % (opts, xmx, round(100 * (1 - MR_HEAP_MAX_SHARE)), key, size))
        if size > max_alloc:
            problems.append('%s %d > yarn.scheduler.maximum-allocation-mb %d' % (key, size, max_alloc))
    if int(m['mapreduce.reduce.memory.mb']) < int(m['mapreduce.map.memory.mb']):
        problems.append('mapreduce.reduce.memory.mb < mapreduce.map.memory.mb')
    return problems


def apply_overrides(result, overrides):
    if not overrides:
        return
    if not isinstance(overrides, dict):
        raise PlanError('overrides: expected a dict of property name -> value')
    for key, value in overrides.items():
        if not isinstance(key, str):
            raise PlanError('overrides: property names must be strings, got %r' % (key,))
        if isinstance(value, (dict, list)) or value is None or not isinstance(value, (str, int, float, bool)):
            raise PlanError('overrides.%s: expected a string or number, got %r' % (key, value))
    errors = override_errors(overrides)
    if errors:
        raise PlanError('overrides.%s' % '; overrides.'.join(errors))
    for key, value in overrides.items():
        for section in SECTIONS:
            if key in result.get(section, {}):
                result[section][key] = str(value).lower() if isinstance(value, bool) else str(value).strip()
                if key in (NM_MEMORY, NM_VCORES):
                    for nm in result['nodemanagers'].values():
                        nm[key] = result[section][key]
                result['explain'][key] = 'Overridden by the user (overrides.%s).' % key
                break
        else:
            known = sorted(k for section in SECTIONS for k in result.get(section, {}))
            raise PlanError('overrides: unknown property %r; allowed: %s' % (key, ', '.join(known)))
