# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""The default profile: this collection's rules (docs/sizing.md), and the daemon heaps every profile uses.

Arithmetic only: each function returns its numbers and the few facts behind them (a `why`); plan_explain turns
those into the sentences of `explain`. Plain functions over plain values: no Ansible imports, no file or network
access.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import math

from ansible_collections.bigdata.spark.plugins.module_utils.plan_explain import first_container
from ansible_collections.bigdata.spark.plugins.module_utils.plan_inputs import (
    PlanError, SPARK_MIN_OVERHEAD_MB, bracket, effective, fmt_size, lab_machine_cores, roundup)

# Lab mode: small fixed daemon heaps, so the daemons of three nodes fit one small machine.
LAB_HEAPS_MB = {
    'HADOOP_HEAPSIZE_MAX': 256,
    'HDFS_NAMENODE_OPTS': 512,
    'HDFS_SECONDARYNAMENODE_OPTS': 256,
    'HDFS_DATANODE_OPTS': 256,
    'YARN_RESOURCEMANAGER_OPTS': 512,
    'YARN_NODEMANAGER_OPTS': 256,
    'MAPRED_HISTORYSERVER_OPTS': 256,
    'SPARK_DAEMON_MEMORY': 256,
    # HA's daemons (HA_HEAPS), only when a host runs them
    'HDFS_JOURNALNODE_OPTS': 128,
    'HDFS_ZKFC_OPTS': 128,
    'ZK_SERVER_HEAP': 256,
}

# Which daemon runs for which role, and the env var that carries its heap.
DAEMON_ENV = (
    ('namenode', 'HDFS_NAMENODE_OPTS'),
    ('secondarynamenode', 'HDFS_SECONDARYNAMENODE_OPTS'),
    ('journalnode', 'HDFS_JOURNALNODE_OPTS'),
    ('zkfc', 'HDFS_ZKFC_OPTS'),
    ('datanode', 'HDFS_DATANODE_OPTS'),
    ('resourcemanager', 'YARN_RESOURCEMANAGER_OPTS'),
    ('nodemanager', 'YARN_NODEMANAGER_OPTS'),
    ('jobhistory', 'MAPRED_HISTORYSERVER_OPTS'),
    ('spark_history', 'SPARK_DAEMON_MEMORY'),
    ('zookeeper', 'ZK_SERVER_HEAP'),
)

# High availability's small daemons, sized only when a host runs them (a plan without them stays as it was):
# env name -> (role, its name in the NodeManagers' explanations, [(from GiB of the smallest host running it, MB)]).
# The JournalNode buffers the NameNode's edits, the failover controller (ZKFC) only watches its NameNode and holds
# a ZooKeeper session, a ZooKeeper server keeps its znodes (HA's few) in memory. On a NodeManager host their heaps
# are kept back from YARN on top of the rule's reservation (nodemanagers()).
HA_HEAPS = (
    ('HDFS_JOURNALNODE_OPTS', 'journalnode', 'the JournalNode', ((0, 256), (32, 512), (128, 1024))),
    ('HDFS_ZKFC_OPTS', 'zkfc', 'the failover controller (ZKFC)', ((0, 128), (64, 256))),
    ('ZK_SERVER_HEAP', 'zookeeper', 'the ZooKeeper server', ((0, 512), (32, 1024), (128, 2048))),
)
HA_KEYS = tuple(key for key, _role, _name, _steps in HA_HEAPS)

DRIVER_MIN_HEAP_MB = 512  # below this a Spark driver does not start reliably


def overhead_mb(heap_mb, fraction=0.1):
    """Spark's default memory overhead of a driver, AM or executor: max(384 MB, fraction x heap)."""
    return max(SPARK_MIN_OVERHEAD_MB, int(math.ceil(heap_mb * fraction)))


def beside(nm_sizes, unit_mb, first_mb):
    """Containers of unit_mb that YARN can grant once a first_mb container (AM, driver) runs.

    Memory only, as the DefaultResourceCalculator schedules; the first container is placed on the
    NodeManager where it costs the most units, since YARN may start it on any node that fits it.
    """
    if unit_mb <= 0:
        return 0
    total = sum(nm // unit_mb for nm in nm_sizes)
    losses = [nm // unit_mb - (nm - first_mb) // unit_mb for nm in nm_sizes if nm >= first_mb]
    if not losses:
        return 0
    return total - max(losses)


def executor_split(container_mb, c):
    """Heap and overhead of an executor container: overhead about a tenth of the heap, at least 384 MB."""
    overhead = max(int(c['min_overhead_mb']), int(math.ceil(container_mb - container_mb / c['heap_divisor'])))
    heap = container_mb - overhead
    # whole GiB reads best; 128 MB steps when whole GiB would leave more than 15% of the heap as overhead
    whole = heap // 1024 * 1024
    if whole and container_mb - whole <= max(c['min_overhead_mb'], 0.15 * whole):
        return whole, container_mb - whole
    heap = heap // 128 * 128
    return heap, container_mb - heap


# ---------------------------------------------------------------- NodeManagers

def ha_heaps(hosts, lab):
    """The heaps (MB, by env name) of HA's daemons that some host runs (HA_HEAPS), and the facts behind each: in
    lab mode LAB_HEAPS_MB's, else by the memory of the smallest host that runs the daemon."""
    heaps, why = {}, {}
    for key, role, _name, steps in HA_HEAPS:
        runs = [host for host in hosts if role in host['roles']]
        if not runs:
            continue
        if lab:
            heaps[key] = LAB_HEAPS_MB[key]
            why[key] = {'rule': 'lab'}
            continue
        gib, where = min((effective(host, lab)[1] / 1024.0, host['name']) for host in runs)
        heaps[key] = [mb for least, mb in steps if gib >= least][-1]
        why[key] = {'rule': 'steps', 'where': where, 'gib': gib, 'steps': steps}
    return heaps, why


def nodemanagers(hosts, c, lab, services, global_res, warnings):
    """Each NodeManager's memory and vcores (the default's and the seed's rule), with the facts behind them in
    nm['why'] (plan_explain.nodemanager_why words them)."""
    nms = {}
    ha, _why = ha_heaps(hosts, lab)
    for host in hosts:
        if 'nodemanager' not in host['roles']:
            continue
        name = host['name']
        cores, memory, notes = effective(host, lab)
        keep = max(1, int(math.ceil(cores / float(c['cores_per_kept_core']))))
        vcores = cores - keep
        if lab:
            # Every node's daemons already share these CPUs: a core kept back per node would keep back more than
            # the machine has. The executors of all nodes together are capped at the machine's CPUs instead.
            vcores = cores
        reserved = max(min(c['reserve_cap_gib'] * 1024.0, memory * c['reserve_fraction']),
                       memory * c['reserve_floor_fraction'])
        why = {'c': c, 'cores': cores, 'keep': keep, 'lab': bool(lab), 'rule_reserved': reserved, 'notes': notes,
               'memory_mb': memory, 'given_memory_mb': None, 'given_vcores': None, 'services': [], 'daemons': [],
               'raised': False}
        res = host['reservations'] or global_res or {}
        if res.get('memory_mb') is not None:
            reserved = res['memory_mb']
            why['given_memory_mb'] = reserved
        if res.get('vcores') is not None:
            vcores = cores - res['vcores']
            why['given_vcores'] = res['vcores']
        for svc in services:
            if svc['hosts'] is None or name in svc['hosts']:
                reserved += svc['memory_mb']
                vcores -= svc['vcores']
                why['services'].append((svc['name'], svc['memory_mb'], svc['vcores']))
        # HA's daemons on this host: their heaps on top of what the rule (or reservations) keeps back.
        for key, role, daemon, _steps in HA_HEAPS:
            if key in ha and role in host['roles']:
                reserved += ha[key]
                why['daemons'].append((daemon, ha[key]))
        grain = int(c['lab_memory_granularity_mb']) if lab else 1024
        if vcores < 1:
            if not lab:
                warnings.append('%s: %d CPU(s) leave no core for the OS and daemons; the NodeManager gets 1 vcore '
                                'anyway' % (name, cores))
            vcores = 1
            why['raised'] = True
        nm_mb = int((memory - reserved) // grain) * grain
        if nm_mb < 1024:
            raise PlanError('hosts[%s].memory_mb: %d MB leaves %d MB for YARN after %d MB kept back; memory too small '
                            'for one executor: at least 1024 MB of NodeManager memory is needed'
                            % (name, memory, max(nm_mb, 0), reserved))
        if lab and nm_mb < c['lab_nodemanager_min_mb']:
            warnings.append('%s: lab NodeManager memory %d MB is below %d MB; a Spark job with 2 executors and a '
                            'driver may not fit' % (name, nm_mb, c['lab_nodemanager_min_mb']))
        why.update(nm_mb=nm_mb, grain=grain)
        nms[name] = {'cores': cores, 'memory_mb': memory, 'nm_mb': nm_mb, 'vcores': vcores,
                     'reserved_mb': int(reserved), 'why': why}
    if not nms:
        raise PlanError('hosts: no host has the nodemanager role; give at least one host roles: [nodemanager, ...]')
    return nms


def _typical(nms):
    """The NodeManager holding the median vcore: where most tasks run, so it sizes drivers and maps."""
    order = sorted(nms, key=lambda n: (nms[n]['nm_mb'], nms[n]['vcores'], n))
    half = sum(nm['vcores'] for nm in nms.values()) / 2.0
    seen = 0
    for name in order:
        seen += nms[name]['vcores']
        if seen >= half:
            return name
    return order[-1]


# ---------------------------------------------------------------- driver and ApplicationMaster

def _driver(ref_gib, largest_nm, min_alloc, c, workload, warnings):
    base = bracket(ref_gib, c['driver_brackets_gib'], True)
    heap = int(base * 1024 * (c['sql_heavy_driver_factor'] if workload == 'sql_heavy' else 1))
    why = {'ref_gib': ref_gib, 'base_gib': base, 'workload': workload, 'asked': heap, 'lowered_to': None,
           'largest_nm': largest_nm}
    cap = int(largest_nm * c['driver_max_nm_fraction']) // min_alloc * min_alloc
    container = roundup(heap + overhead_mb(heap, c['driver_overhead_fraction']), min_alloc)
    if container > cap:
        new = int(min(cap - SPARK_MIN_OVERHEAD_MB, cap / (1 + c['driver_overhead_fraction'])))
        new = new // 1024 * 1024 if new >= 2048 else new // 128 * 128
        if new < DRIVER_MIN_HEAP_MB:
            raise PlanError('hosts: the largest NodeManager has %d MB; a Spark driver of at least %d MB and one '
                            'executor do not fit. Allowed: NodeManagers of at least 2048 MB (memory_mb from about '
                            '3 GiB)' % (largest_nm, DRIVER_MIN_HEAP_MB))
        warnings.append('spark.driver.memory: %s would take more than %s of the largest NodeManager (%d MB); '
                        'lowered to %s' % (fmt_size(heap), c['driver_max_nm_fraction'], largest_nm, fmt_size(new)))
        why['lowered_to'] = new
        heap = new
    over = overhead_mb(heap, c['driver_overhead_fraction'])
    return heap, over, roundup(heap + over, min_alloc), why


def _am(ref_gib, largest_nm, min_alloc, c):
    heap = int(bracket(ref_gib, c['am_brackets_mb'], True))
    why = {'ref_gib': ref_gib, 'asked': heap, 'small': False}
    cap = int(largest_nm * c['driver_max_nm_fraction'])
    if roundup(heap + overhead_mb(heap), min_alloc) > cap and heap > 512:
        heap = 512
        why['small'] = True
    over = overhead_mb(heap)
    return heap, over, roundup(heap + over, min_alloc), why


# ---------------------------------------------------------------- executor shape

def _shapes(nms, ec_choices, first, step, c, total_cores=None):
    """Every (score, executor cores, container, per-host count, instances) the cluster can run; with total_cores
    (lab mode) the executors together take at most that many cores."""
    sizes = [nm['nm_mb'] for nm in nms.values()]
    largest = max(sizes)
    cap_mb = int(c['heap_cap_gib'] * 1024 * c['heap_divisor']) // 1024 * 1024
    low = roundup(max(int(c['min_executor_mb']), step), step)
    high = min(cap_mb, largest) // step * step
    # at most about 400 candidate sizes: a finer search changes nothing a user would notice
    stride = step * max(1, -(-(high - low) // (step * 400)))
    out = []
    for ec in ec_choices:
        for container in range(low, high + 1, stride):
            per_host = dict((name, min(nm['vcores'] // ec, nm['nm_mb'] // container)) for name, nm in nms.items())
            planned = sum(per_host.values())
            if total_cores:
                planned = min(planned, max(1, total_cores // ec))
            instances = min(planned, beside(sizes, container, first))
            if instances < 1:
                continue
            score = (ec * instances) * (container * instances)
            out.append(((score, ec * instances, ec, container), ec, container, per_host, instances))
    return out


def _executor_cores(nms, opts, c):
    most = max(nms, key=lambda n: (nms[n]['vcores'], n))
    if opts['executor_cores'] is not None:
        ec = opts['executor_cores']
        if ec > nms[most]['vcores']:
            raise PlanError('executor_cores: %d is more than the NodeManager vcores of %s (%d), the largest; '
                            'allowed 1..%d' % (ec, most, nms[most]['vcores'], nms[most]['vcores']))
        return [ec], 'given'
    default = min(int(c['executor_cores']), nms[most]['vcores'])
    choices = set(range(max(1, (default + 1) // 2, default - 7), default + 1))
    choices.update(nm['vcores'] for nm in nms.values() if nm['vcores'] < default)
    return sorted(choices, reverse=True), 'default'


def _pick_shape(shapes, default, c):
    """The busiest shape; another executor size must beat the default size by executor_cores_gain."""
    best = max(shapes, key=lambda s: s[0])
    at_default = [s for s in shapes if s[1] == default]
    if at_default:
        best_default = max(at_default, key=lambda s: s[0])
        if best[0][0] <= best_default[0][0] * (1 + c['executor_cores_gain']):
            return best_default
    return best


def _idle_warnings(nms, ec, container, per_host, first, c, warnings):
    for name in sorted(nms):
        nm = nms[name]
        count = per_host[name]
        if count == 0:
            if nm['vcores'] < ec:
                why = 'it has %d vcore(s), an executor needs %d' % (nm['vcores'], ec)
            else:
                why = 'its %d MB are below one %d MB executor container' % (nm['nm_mb'], container)
            warnings.append('%s: gets no Spark executor (%s), so its %d vcore(s) and %d MB stay idle for Spark (MapReduce '
                            'can still use them). Move it out of the nodemanagers group, give it reservations, or '
                            'plan it as a separate cluster' % (name, why, nm['vcores'], nm['nm_mb']))
            continue
        idle_v = nm['vcores'] - count * ec
        idle_m = max(0, nm['nm_mb'] - count * container - first)
        limit = c['idle_warning_fraction']
        if idle_v > limit * nm['vcores'] or idle_m > limit * nm['nm_mb']:
            warnings.append('%s: its %d executor(s) of %d cores and %d MB leave %d of %d vcores and %d of %d MB idle '
                            'for Spark (the executor size suits the other NodeManagers). Give it reservations, or '
                            'plan it as a separate cluster' % (
                                name, count, ec, container, idle_v, nm['vcores'], idle_m, nm['nm_mb']))


def plan_default(hosts, opts, c, warnings):
    """This collection's rules; see docs/sizing.md. Returns the numbers and their `why` (the facts
    plan_explain.explain_default words)."""
    lab = opts['lab']
    nms = nodemanagers(hosts, c, lab, opts['other_services'], opts['reservations'], warnings)
    ref_name = _typical(nms)
    ref = nms[ref_name]
    ref_gib = ref['memory_mb'] / 1024.0
    largest_name = max(nms, key=lambda n: (nms[n]['nm_mb'], n))
    largest_nm = nms[largest_name]['nm_mb']
    sizes = [nm['nm_mb'] for nm in nms.values()]
    mixed = len(set((nm['nm_mb'], nm['vcores']) for nm in nms.values())) > 1
    where = ('%s, the NodeManager holding the median vcore' % ref_name) if mixed else 'the nodes'
    # MapReduce and the minimum allocation
    map_mb = int(bracket(ref_gib, c['map_brackets_gib'], False))
    min_alloc = min(int(c['min_allocation_mb']), map_mb)
    if lab:
        min_alloc = min(min_alloc, int(c['lab_memory_granularity_mb']))
    reduce_mb = roundup(map_mb * c['reduce_factor'], min_alloc)
    if reduce_mb > largest_nm:
        reduce_mb = largest_nm // min_alloc * min_alloc
        warnings.append('mapreduce.reduce.memory.mb: capped at the largest NodeManager, %d MB' % reduce_mb)
    frac = c['mr_heap_fraction']
    # The driver (cluster mode) and the client-mode AM
    driver, drv_over, drv_container, why_driver = _driver(ref_gib, largest_nm, min_alloc, c, opts['workload'], warnings)
    am, am_over, am_container, why_am = _am(ref_gib, largest_nm, min_alloc, c)
    cluster_mode = opts['driver_deploy_mode'] == 'cluster'
    first = drv_container if cluster_mode else am_container
    # Executor shape: the one that keeps the most of the cluster busy
    ec_choices, ec_source = _executor_cores(nms, opts, c)
    machine_cores = lab_machine_cores(hosts, lab)
    if machine_cores and opts['executor_cores'] is None:
        # One machine's CPUs for every node's executors: as few executors as use them all (one JVM, its
        # shuffle local, measured fastest in the lab: docs/sizing.md).
        ec_choices = [min(machine_cores, max(nm['vcores'] for nm in nms.values()))]
        ec_source = 'lab'
    shapes = _shapes(nms, ec_choices, first, min_alloc, c, total_cores=machine_cores)
    if not shapes:
        raise PlanError('hosts: the NodeManagers (largest %d MB) cannot hold %s and one executor of at least %d MB. '
                        'Allowed: more memory, fewer reservations, or more NodeManagers'
                        % (largest_nm, first_container(cluster_mode, drv_container, am_container),
                           int(c['min_executor_mb'])))
    default_ec = ec_choices[0] if opts['executor_cores'] is None else opts['executor_cores']
    _score, ec, container, per_host, instances = _pick_shape(shapes, default_ec, c)
    heap, overhead = executor_split(container, c)
    planned = sum(per_host.values())
    _idle_warnings(nms, ec, container, per_host, first, c, warnings)
    largest_container = max(container, drv_container, am_container, reduce_mb)
    step = int(c['max_allocation_multiple_gib']) * 1024
    max_alloc = min(roundup(largest_container, step), largest_nm)
    # Spark parallelism
    total_cores = instances * ec
    parallelism = max(1, int(c['parallelism_per_core'] * total_cores))
    floor_parts = max(1, int(c['partitions_per_core'] * total_cores))
    by_data = None
    if opts['shuffle_data_bytes']:
        by_data = -(-opts['shuffle_data_bytes'] // int(c['bytes_per_partition']))
        partitions = max(by_data, floor_parts)
    else:
        partitions = floor_parts
    numbers = {
        'nms': nms, 'ref': min(nms, key=lambda n: (nms[n]['nm_mb'], nms[n]['vcores'], n)),
        'min_alloc': min_alloc, 'max_alloc': max_alloc,
        'max_vcores': max(nm['vcores'] for nm in nms.values()), 'executor_cores': ec, 'heap': heap,
        'overhead': overhead, 'container': container, 'instances': instances, 'driver': driver,
        'am_memory': am, 'partitions': partitions, 'parallelism': parallelism, 'map': map_mb, 'reduce': reduce_mb,
        'am': reduce_mb, 'map_xmx': '-Xmx%dm' % int(map_mb * frac), 'reduce_xmx': '-Xmx%dm' % int(reduce_mb * frac),
        'am_xmx': '-Xmx%dm' % int(reduce_mb * frac), 'dynamic_allocation': 'false', 'per_host': per_host,
    }
    # The facts behind the numbers, for plan_explain.explain_default.
    why = {
        'lab': bool(lab), 'where': where, 'ref_gib': ref_gib, 'largest_name': largest_name, 'largest_nm': largest_nm,
        'map_mb': map_mb, 'reduce_mb': reduce_mb, 'min_alloc': min_alloc, 'step': step, 'cluster_mode': cluster_mode,
        'ec': ec, 'container': container, 'heap': heap, 'overhead': overhead, 'planned': planned,
        'per_host': per_host, 'instances': instances, 'beside': beside(sizes, container, first),
        'total_cores': total_cores, 'drv_container': drv_container, 'drv_over': drv_over,
        'am_container': am_container, 'am_over': am_over, 'driver_facts': why_driver, 'am_facts': why_am,
        'ec_facts': {'source': ec_source, 'ec': ec_choices[0], 'machine_cores': machine_cores},
        'parts_facts': {'shuffle_data_bytes': opts['shuffle_data_bytes'], 'by_data': by_data,
                        'floor_parts': floor_parts, 'total_cores': total_cores},
    }
    return numbers, why


# ---------------------------------------------------------------- daemon heaps

def daemon_heaps(hosts, nms, lab, warnings):
    """The daemon heaps (MB, by env name) and, by the same names in the order sized, the facts behind each
    (plan_explain.explain_heaps words them)."""
    def memory_for(role):
        for host in hosts:
            if role in host['roles']:
                return effective(host, lab)[1] / 1024.0, host['name']
        name = min(nms, key=lambda n: nms[n]['memory_mb'])
        return nms[name]['memory_mb'] / 1024.0, name

    heaps = {}
    why = {}
    if lab:
        # HA's daemons below (ha_heaps), only when a host runs them
        heaps = dict((key, mb) for key, mb in LAB_HEAPS_MB.items() if key not in HA_KEYS)
        for key in heaps:
            why[key] = {'rule': 'lab'}
    else:
        rules = {
            'HDFS_NAMENODE_OPTS': ('namenode', 64, 16),
            'HDFS_SECONDARYNAMENODE_OPTS': ('secondarynamenode', 64, 16),
            'YARN_RESOURCEMANAGER_OPTS': ('resourcemanager', 128, 8),
            'HDFS_DATANODE_OPTS': ('datanode', 256, 4),
            'YARN_NODEMANAGER_OPTS': ('nodemanager', 256, 4),
        }
        for key, (role, divisor, cap) in rules.items():
            gib, where = memory_for(role)
            heaps[key] = int(min(max(1, gib // divisor), cap)) * 1024
            why[key] = {'rule': 'share', 'where': where, 'gib': gib, 'divisor': divisor, 'cap': cap}
        for key, role in (('MAPRED_HISTORYSERVER_OPTS', 'jobhistory'), ('SPARK_DAEMON_MEMORY', 'spark_history')):
            gib, where = memory_for(role)
            heaps[key] = 2048 if gib >= 64 else 1024
            why[key] = {'rule': 'history', 'where': where, 'gib': gib}
        heaps['HADOOP_HEAPSIZE_MAX'] = 1024
        why['HADOOP_HEAPSIZE_MAX'] = {'rule': 'client'}
    ha, why_ha = ha_heaps(hosts, lab)
    heaps.update(ha)
    why.update(why_ha)
    # The heaps on a NodeManager host come out of its reservation; say so when they do not fit.
    for host in hosts:
        if host['name'] not in nms:
            continue
        total = sum(heaps[key] for role, key in DAEMON_ENV if role in host['roles'])
        reserved = nms[host['name']]['reserved_mb']
        if total > reserved:
            warnings.append('%s: daemon heaps (%d MB) exceed the memory kept back from YARN (%d MB); raise '
                            'reservations.memory_mb or move master daemons off this host'
                            % (host['name'], total, reserved))
    return heaps, why


def render_env(heaps):
    """hadoop_env, spark_env and zookeeper_env from the heaps (MB by env name); zookeeper_env is empty unless a host
    runs ZooKeeper (its ZK_SERVER_HEAP is a number of MB, as ZooKeeper's zkEnv.sh reads it)."""
    env = {}
    spark_env = {}
    zookeeper_env = {}
    for key, mb in heaps.items():
        if key == 'SPARK_DAEMON_MEMORY':
            spark_env[key] = fmt_size(mb)
        elif key == 'ZK_SERVER_HEAP':
            zookeeper_env[key] = str(int(mb))
        elif key == 'HADOOP_HEAPSIZE_MAX':
            env[key] = fmt_size(mb)
        else:
            env[key] = '-Xmx%s' % fmt_size(mb)
    return env, spark_env, zookeeper_env
