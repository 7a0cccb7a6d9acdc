# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Pure resource planner: YARN, MapReduce, Spark and daemon-heap settings from hardware.

Plain functions over plain values: no Ansible imports, no file or network access.
Every invalid input raises PlanError with a message naming the field and what is allowed.
The rules are documented in docs/sizing.md.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import math
import re

from ansible_collections.bigdata.spark.plugins.module_utils.native import NativeError, page_size_advice

MIB = 1024 * 1024
GIB = 1024 * MIB

PROFILES = ('default', 'ambari', 'hdp', 'emr', 'cloudera', 'dataproc', 'stock')
WORKLOADS = ('default', 'sql_heavy')
DEPLOY_MODES = ('cluster', 'client')
ROLES = (
    'namenode', 'secondarynamenode', 'journalnode', 'datanode', 'nodemanager',
    'resourcemanager', 'jobhistory', 'spark_history', 'zookeeper', 'client',
)
MASTER_ROLES = ('namenode', 'secondarynamenode', 'resourcemanager', 'jobhistory', 'spark_history')

# Every constant of the default profile; each one can be changed with the `constants` option.
DEFAULT_CONSTANTS = {
    'cores_per_kept_core': 32,
    'reserve_cap_gib': 8,
    'reserve_fraction': 0.25,
    'reserve_floor_fraction': 0.0625,
    'executor_cores': 5,
    'heap_divisor': 1.1,
    'heap_cap_gib': 64,
    'min_overhead_mb': 384,
    'driver_brackets_gib': [[256, 32], [128, 16], [64, 8], [16, 4], [0, 1]],
    'sql_heavy_driver_factor': 2,
    'driver_overhead_fraction': 0.1,
    'max_allocation_multiple_gib': 16,
    'min_allocation_mb': 1024,
    'bytes_per_partition': 250000000,
    'partitions_per_core': 2,
    'parallelism_per_core': 2,
    'map_brackets_gib': [[4, 256], [8, 512], [24, 1024], [0, 2048]],
    'reduce_factor': 2,
    'mr_heap_fraction': 0.8,
    'lab_min_vcores': 2,
    'lab_executor_container_mb': 1024,
    'lab_executors_per_node': 1,
    'lab_memory_granularity_mb': 256,
    'lab_nodemanager_min_mb': 2560,
}

LAB_HEAPS_MB = {
    'HADOOP_HEAPSIZE_MAX': 256,
    'HDFS_NAMENODE_OPTS': 512,
    'HDFS_SECONDARYNAMENODE_OPTS': 256,
    'HDFS_DATANODE_OPTS': 256,
    'YARN_RESOURCEMANAGER_OPTS': 512,
    'YARN_NODEMANAGER_OPTS': 256,
    'MAPRED_HISTORYSERVER_OPTS': 256,
    'SPARK_DAEMON_MEMORY': 256,
}

# Which daemon runs for which role, and the env var that carries its heap.
DAEMON_ENV = (
    ('namenode', 'HDFS_NAMENODE_OPTS'),
    ('secondarynamenode', 'HDFS_SECONDARYNAMENODE_OPTS'),
    ('datanode', 'HDFS_DATANODE_OPTS'),
    ('resourcemanager', 'YARN_RESOURCEMANAGER_OPTS'),
    ('nodemanager', 'YARN_NODEMANAGER_OPTS'),
    ('jobhistory', 'MAPRED_HISTORYSERVER_OPTS'),
    ('spark_history', 'SPARK_DAEMON_MEMORY'),
)

NM_MEMORY = 'yarn.nodemanager.resource.memory-mb'
NM_VCORES = 'yarn.nodemanager.resource.cpu-vcores'


class PlanError(ValueError):
    """Invalid planner input; the message names the field and what is allowed."""


# ---------------------------------------------------------------- small helpers

def fmt_size(mb):
    """Format MiB the way Hadoop/Spark files want it: whole GiB as "18g", else "640m"."""
    mb = int(mb)
    if mb >= 1024 and mb % 1024 == 0:
        return '%dg' % (mb // 1024)
    return '%dm' % mb


_SIZE_RE = re.compile(r'^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?\s*$', re.IGNORECASE)


def parse_size_mb(value, field='value'):
    """Parse "18g", "640m", "2048" (MiB) or a number into MiB."""
    if isinstance(value, bool):
        raise PlanError('%s: expected a size such as 2048, "640m" or "18g", got %r' % (field, value))
    if isinstance(value, (int, float)):
        return int(value)
    match = _SIZE_RE.match(str(value))
    if not match:
        raise PlanError('%s: expected a size such as 2048, "640m" or "18g", got %r' % (field, value))
    number = float(match.group(1))
    unit = match.group(2).lower()
    factor = {'': 1, 'k': 1.0 / 1024, 'm': 1, 'g': 1024, 't': 1024 * 1024}[unit]
    return int(number * factor)


def parse_xmx_mb(opts, field='value'):
    """Return the -Xmx of a JVM options string in MiB."""
    match = re.search(r'-Xmx(\d+)([kKmMgG]?)', str(opts))
    if not match:
        raise PlanError('%s: expected JVM options containing -Xmx<size>, got %r' % (field, opts))
    return parse_size_mb(match.group(1) + match.group(2), field)


def _int(value, field, minimum=0, allow_none=False):
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or value is None:
        raise PlanError('%s: expected a whole number >= %d, got %r' % (field, minimum, value))
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value) or value != int(value):
            raise PlanError('%s: expected a whole number >= %d, got %r' % (field, minimum, value))
        value = int(value)
    if isinstance(value, str):
        text = value.strip()
        if not re.match(r'^-?\d+$', text):
            raise PlanError('%s: expected a whole number >= %d, got %r' % (field, minimum, value))
        value = int(text)
    if not isinstance(value, int):
        raise PlanError('%s: expected a whole number >= %d, got %r' % (field, minimum, value))
    if value < minimum:
        raise PlanError('%s: must be >= %d, got %d' % (field, minimum, value))
    return value


def _round_half_up(x):
    return int(math.floor(x + 0.5))


def mr_xmx(container_mb, fraction):
    """-Xmx for a MapReduce container: fraction x container, to the nearest GiB when >= 1 GiB."""
    heap = container_mb * fraction
    if heap >= 1024:
        return '-Xmx%dg' % _round_half_up(heap / 1024.0)
    return '-Xmx%dm' % int(heap)


def _bracket(value, brackets, descending):
    """Pick from [[threshold, result], ...]; threshold 0 is the catch-all."""
    for threshold, result in brackets:
        if threshold == 0:
            return result
        if descending and value >= threshold:
            return result
        if not descending and value <= threshold:
            return result
    return brackets[-1][1]


# ---------------------------------------------------------------- inputs

def host_from_facts(name, roles, facts):
    """Turn hardware_facts output (or facts written by hand) into a planner host.

    Accepted facts: cpu.logical (or cores), memory.installed_bytes / memory.total_bytes /
    memory.total_gib (or memory_gib, memory_mb), disks (list) or disk_count,
    memory.cgroup_limit_bytes (or memory_limit_mb).
    """
    field = 'hosts[%s].facts' % name
    if not isinstance(facts, dict):
        raise PlanError('%s: expected a dict of hardware facts (bigdata_hardware), got %r' % (field, facts))
    cpu = facts.get('cpu') or {}
    mem = facts.get('memory') or {}
    if not isinstance(cpu, dict) or not isinstance(mem, dict):
        raise PlanError('%s: cpu and memory must be dicts' % field)
    cores = facts.get('cores', cpu.get('logical'))
    if cores is None:
        raise PlanError('%s.cpu.logical: missing; give the number of logical CPUs' % field)
    memory_mb = None
    if facts.get('memory_mb') is not None:
        memory_mb = _int(facts['memory_mb'], field + '.memory_mb', 1)
    elif facts.get('memory_gib') is not None:
        memory_mb = _int(facts['memory_gib'], field + '.memory_gib', 1) * 1024
    elif mem.get('installed_bytes'):
        memory_mb = _int(mem['installed_bytes'], field + '.memory.installed_bytes', 1) // MIB
    elif mem.get('total_bytes') is not None:
        memory_mb = _int(mem['total_bytes'], field + '.memory.total_bytes', 1) // MIB
    elif mem.get('total_gib') is not None:
        memory_mb = _int(mem['total_gib'], field + '.memory.total_gib', 1) * 1024
    if memory_mb is None:
        raise PlanError('%s.memory.total_bytes: missing; give memory.total_bytes or memory_gib' % field)
    limit_mb = facts.get('memory_limit_mb')
    if limit_mb is None and mem.get('cgroup_limit_bytes'):
        limit_mb = _int(mem['cgroup_limit_bytes'], field + '.memory.cgroup_limit_bytes', 1) // MIB
    disks = facts.get('disk_count')
    if disks is None:
        disk_list = facts.get('disks')
        disks = len(disk_list) if isinstance(disk_list, list) else 0
    return {'name': name, 'roles': roles, 'cores': cores, 'memory_mb': memory_mb,
            'disks': disks, 'memory_limit_mb': limit_mb, 'architecture': cpu.get('architecture'),
            'page_size': mem.get('page_size'), 'distribution': facts.get('distribution')}


def _norm_hosts(hosts):
    if not isinstance(hosts, list) or not hosts:
        raise PlanError('hosts: expected a non-empty list of hosts with name, roles, cores and memory_mb')
    out = []
    seen = set()
    for index, host in enumerate(hosts):
        if not isinstance(host, dict):
            raise PlanError('hosts[%d]: expected a dict, got %r' % (index, host))
        name = host.get('name')
        if not isinstance(name, str) or not name:
            raise PlanError('hosts[%d].name: expected a non-empty string' % index)
        if name in seen:
            raise PlanError('hosts[%s].name: duplicate host name' % name)
        seen.add(name)
        if 'facts' in host and 'cores' not in host:
            host = dict(host_from_facts(name, host.get('roles'), host['facts']),
                        reservations=host.get('reservations'))
        roles = host.get('roles')
        if not isinstance(roles, list) or not roles:
            raise PlanError('hosts[%s].roles: a host needs at least one role; allowed: %s'
                            % (name, ', '.join(ROLES)))
        for role in roles:
            if role not in ROLES:
                raise PlanError('hosts[%s].roles: unknown role %r; allowed: %s' % (name, role, ', '.join(ROLES)))
        cores = _int(host.get('cores'), 'hosts[%s].cores' % name, 1)
        memory_mb = _int(host.get('memory_mb'), 'hosts[%s].memory_mb' % name, 1)
        disks = _int(host.get('disks', 0) or 0, 'hosts[%s].disks' % name, 0)
        limit = _int(host.get('memory_limit_mb'), 'hosts[%s].memory_limit_mb' % name, 1, allow_none=True)
        res = host.get('reservations')
        if res is not None:
            res = _norm_reservations(res, 'hosts[%s].reservations' % name)
        page_size = _int(host.get('page_size'), 'hosts[%s].page_size' % name, 1, allow_none=True)
        out.append({'name': name, 'roles': list(roles), 'cores': cores, 'memory_mb': memory_mb,
                    'disks': disks, 'memory_limit_mb': limit, 'reservations': res,
                    'architecture': host.get('architecture'), 'page_size': page_size,
                    'distribution': host.get('distribution')})
    return out


def _page_size_advice(hosts):
    """{host: seed 000's 64 KB page advice} for aarch64 hosts with smaller pages (facts permitting)."""
    out = {}
    for h in hosts:
        if not h.get('architecture') or not h.get('page_size'):
            continue
        try:
            text = page_size_advice(h['architecture'], h['page_size'], h.get('distribution'))
        except NativeError as exc:
            raise PlanError('hosts[%s]: %s' % (h['name'], exc))
        if text:
            out[h['name']] = text
    return out


def _norm_reservations(res, field):
    if not isinstance(res, dict):
        raise PlanError('%s: expected a dict with memory_mb and/or vcores' % field)
    for key in res:
        if key not in ('memory_mb', 'vcores'):
            raise PlanError('%s: unknown key %r; allowed: memory_mb, vcores' % (field, key))
    return {'memory_mb': _int(res.get('memory_mb'), field + '.memory_mb', 0, allow_none=True),
            'vcores': _int(res.get('vcores'), field + '.vcores', 0, allow_none=True)}


def _norm_services(services):
    if services is None:
        return []
    if not isinstance(services, list):
        raise PlanError('other_services: expected a list of {name, memory_mb, vcores, hosts}')
    out = []
    for index, svc in enumerate(services):
        field = 'other_services[%d]' % index
        if not isinstance(svc, dict) or not isinstance(svc.get('name'), str):
            raise PlanError('%s: expected a dict with a name, memory_mb, vcores and optional hosts' % field)
        for key in svc:
            if key not in ('name', 'memory_mb', 'vcores', 'hosts'):
                raise PlanError('%s: unknown key %r; allowed: name, memory_mb, vcores, hosts' % (field, key))
        hosts = svc.get('hosts')
        if hosts is not None and not isinstance(hosts, list):
            raise PlanError('%s.hosts: expected a list of host names' % field)
        out.append({'name': svc['name'],
                    'memory_mb': _int(svc.get('memory_mb', 0), field + '.memory_mb', 0),
                    'vcores': _int(svc.get('vcores', 0), field + '.vcores', 0),
                    'hosts': hosts})
    return out


def _norm_constants(constants):
    merged = dict(DEFAULT_CONSTANTS)
    if constants is None:
        return merged
    if not isinstance(constants, dict):
        raise PlanError('constants: expected a dict; allowed keys: %s' % ', '.join(sorted(DEFAULT_CONSTANTS)))
    for key, value in constants.items():
        if key not in DEFAULT_CONSTANTS:
            raise PlanError('constants: unknown constant %r; allowed: %s' % (key, ', '.join(sorted(DEFAULT_CONSTANTS))))
        default = DEFAULT_CONSTANTS[key]
        if isinstance(default, list):
            if not isinstance(value, list) or not value or not all(
                    isinstance(p, (list, tuple)) and len(p) == 2 for p in value):
                raise PlanError('constants.%s: expected a list of [threshold, value] pairs' % key)
        elif isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
            raise PlanError('constants.%s: expected a positive number, got %r' % (key, value))
        merged[key] = value
    return merged


def _norm_lab(lab):
    if lab is None or lab is False:
        return None
    if not isinstance(lab, dict):
        raise PlanError('lab: expected a dict such as {nodes_per_machine: 3}')
    for key in lab:
        if key not in ('nodes_per_machine', 'machine_cores', 'machine_memory_mb'):
            raise PlanError('lab: unknown key %r; allowed: nodes_per_machine, machine_cores, machine_memory_mb' % key)
    return {'nodes_per_machine': _int(lab.get('nodes_per_machine'), 'lab.nodes_per_machine', 1),
            'machine_cores': _int(lab.get('machine_cores'), 'lab.machine_cores', 1, allow_none=True),
            'machine_memory_mb': _int(lab.get('machine_memory_mb'), 'lab.machine_memory_mb', 1, allow_none=True)}


def _effective(host, lab):
    """Cores and memory a host really has: its share of the machine in lab mode, capped by a cgroup limit."""
    cores = host['cores']
    memory = host['memory_mb']
    notes = []
    if lab:
        n = lab['nodes_per_machine']
        machine_cores = lab['machine_cores'] or cores
        machine_memory = lab['machine_memory_mb'] or memory
        cores = max(1, machine_cores // n)
        memory = machine_memory // n
        notes.append('lab: %d nodes share %d CPUs and %d MB, so this node counts %d CPU(s) and %d MB'
                     % (n, machine_cores, machine_memory, cores, memory))
    if host['memory_limit_mb'] and host['memory_limit_mb'] < memory:
        memory = host['memory_limit_mb']
        notes.append('the container memory limit (%d MB) is below that, so it counts %d MB' % (memory, memory))
    return cores, memory, notes


# ---------------------------------------------------------------- the default profile

def _nodemanagers_default(hosts, c, lab, services, global_res, warnings):
    nms = {}
    for host in hosts:
        if 'nodemanager' not in host['roles']:
            continue
        name = host['name']
        cores, memory, notes = _effective(host, lab)
        keep = max(1, int(math.ceil(cores / float(c['cores_per_kept_core']))))
        vcores = cores - keep
        why_v = '%d CPUs minus ceil(%d / %d) = %d kept back' % (cores, cores, c['cores_per_kept_core'], keep)
        reserved = max(min(c['reserve_cap_gib'] * 1024.0, memory * c['reserve_fraction']),
                       memory * c['reserve_floor_fraction'])
        why_m = ('reserved max(min(%s GiB, %s x memory), %s x memory) = %d MB'
                 % (c['reserve_cap_gib'], c['reserve_fraction'], c['reserve_floor_fraction'], reserved))
        res = host['reservations'] or global_res or {}
        if res.get('memory_mb') is not None:
            reserved = res['memory_mb']
            why_m = 'reserved %d MB (given in reservations)' % reserved
        if res.get('vcores') is not None:
            vcores = cores - res['vcores']
            why_v = '%d CPUs minus %d reserved (given in reservations)' % (cores, res['vcores'])
        for svc in services:
            if svc['hosts'] is None or name in svc['hosts']:
                reserved += svc['memory_mb']
                vcores -= svc['vcores']
                why_m += ', plus %d MB for %s' % (svc['memory_mb'], svc['name'])
                why_v += ', minus %d for %s' % (svc['vcores'], svc['name'])
        if lab:
            if vcores < c['lab_min_vcores']:
                vcores = int(c['lab_min_vcores'])
                why_v += ('; lab mode raises it to %d: vcores oversubscribe the real cores, which is fine '
                          'for functional tests but not for benchmarks' % vcores)
            grain = int(c['lab_memory_granularity_mb'])
        else:
            grain = 1024
        if vcores < 1:
            warnings.append('%s: %d CPU(s) leave no core for the OS and daemons; the NodeManager gets 1 vcore anyway'
                            % (name, cores))
            vcores = 1
            why_v += '; raised to 1 so the node can run a container'
        nm_mb = int((memory - reserved) // grain) * grain
        if nm_mb < 1024:
            raise PlanError('hosts[%s].memory_mb: %d MB leaves %d MB for YARN after %d MB reserved; memory too small '
                            'for one executor: at least 1024 MB of NodeManager memory is needed'
                            % (name, memory, max(nm_mb, 0), reserved))
        if lab and nm_mb < c['lab_nodemanager_min_mb']:
            warnings.append('%s: lab NodeManager memory %d MB is below %d MB; a Spark job with 2 executors and an AM '
                            'may not fit' % (name, nm_mb, c['lab_nodemanager_min_mb']))
        nms[name] = {'cores': cores, 'memory_mb': memory, 'nm_mb': nm_mb, 'vcores': vcores,
                     'reserved_mb': int(reserved),
                     'why_memory': '; '.join(notes + ['%d MB memory, %s; %s left, in %s' % (
                         memory, why_m, nm_mb, 'whole GiB' if grain == 1024 else '%d MB steps' % grain)]),
                     'why_vcores': why_v}
    if not nms:
        raise PlanError('hosts: no host has the nodemanager role; give at least one host roles: [nodemanager, ...]')
    return nms


def _ref(nms):
    name = min(nms, key=lambda n: (nms[n]['nm_mb'], nms[n]['vcores'], n))
    return name, nms[name]


def _heap_split(container_mb, c):
    heap_gib = min(int(container_mb / 1024.0 / c['heap_divisor']), int(c['heap_cap_gib']))
    heap = heap_gib * 1024
    if heap == 0 or container_mb - heap < c['min_overhead_mb']:
        heap = int(min(container_mb / c['heap_divisor'], container_mb - c['min_overhead_mb']))
    return heap, container_mb - heap


def _driver(ref_memory_gib, c, workload, lab):
    base = _bracket(ref_memory_gib, c['driver_brackets_gib'], True)
    gib = base * (c['sql_heavy_driver_factor'] if workload == 'sql_heavy' else 1)
    why = 'node memory %.0f GiB gives %dg by the bracket table' % (ref_memory_gib, base)
    if workload == 'sql_heavy':
        why += ', times %s for sql_heavy' % c['sql_heavy_driver_factor']
    return int(gib * 1024), why


def _plan_default(hosts, opts, c, warnings):
    lab = opts['lab']
    nms = _nodemanagers_default(hosts, c, lab, opts['other_services'], opts['reservations'], warnings)
    ref_name, ref = _ref(nms)
    explain = {}
    # executor cores
    default_ec = 1 if lab else int(c['executor_cores'])
    if opts['executor_cores'] is not None:
        ec = opts['executor_cores']
        if ec > ref['vcores']:
            raise PlanError('executor_cores: %d is more than the NodeManager vcores of %s (%d); allowed 1..%d'
                            % (ec, ref_name, ref['vcores'], ref['vcores']))
        why_ec = 'given (executor_cores=%d)' % ec
    else:
        ec = min(default_ec, ref['vcores'])
        why_ec = 'default %d%s, never more than the smallest NodeManager vcores (%d on %s)' % (
            default_ec, ' in lab mode' if lab else '', ref['vcores'], ref_name)
    ref_gib = ref['memory_mb'] / 1024.0
    if lab:
        container = min(int(c['lab_executor_container_mb']), ref['nm_mb'])
        per_cap = int(c['lab_executors_per_node'])
        why_container = 'lab mode: a fixed %d MB container' % container
    else:
        mpc = max(1, int(ref_gib // ref['cores']))
        nm_gib = ref['nm_mb'] // 1024
        per_node = min(ref['vcores'] // ec, nm_gib // (ec * mpc))
        why_per = ('min(%d vcores // %d, %d GiB // (%d cores x %d GiB per core)) = %d'
                   % (ref['vcores'], ec, nm_gib, ec, mpc, per_node))
        if per_node == 0:
            per_node = 1
            why_per += ', raised to 1 (one executor takes the whole NodeManager)'
        container = (nm_gib // per_node) * 1024
        per_cap = None
        why_container = ('%s on %s: memory per core floor(%.0f GiB / %d CPUs) = %d GiB; executors per node %s; '
                         'container %d GiB // %d = %d GiB' % (
                             'smallest NodeManager' if len(nms) > 1 else 'each node', ref_name, ref_gib,
                             ref['cores'], mpc, why_per, nm_gib, per_node, container // 1024))
    heap, overhead = _heap_split(container, c)
    per_host = {}
    for name, nm in nms.items():
        count = min(nm['vcores'] // ec, nm['nm_mb'] // container)
        if per_cap is not None:
            count = min(count, per_cap)
        per_host[name] = count
    total = sum(per_host.values())
    instances = total - (1 if opts['reserve_am_slot'] else 0)
    why_inst = '%d executors per node summed over %d NodeManager(s) = %d' % (
        max(per_host.values()), len(nms), total)
    if opts['reserve_am_slot']:
        why_inst += ', minus 1 kept for the ApplicationMaster'
    if instances < 1:
        warnings.append('spark.executor.instances: no room left after the AM slot; using 1')
        instances = 1
    # driver and maximum allocation
    driver, why_driver = _driver(ref_gib, c, opts['workload'], lab)
    drv_over = max(int(c['min_overhead_mb']), int(math.ceil(driver * c['driver_overhead_fraction'])))
    cluster_mode = opts['driver_deploy_mode'] == 'cluster'
    largest = max(container, driver + drv_over if cluster_mode else 512 + int(c['min_overhead_mb']))
    step = int(c['max_allocation_multiple_gib'] * 1024)
    max_alloc = min(int(math.ceil(largest / float(step))) * step, ref['nm_mb'])
    why_max = ('largest container: executor %d MB, %s; rounded up to a multiple of %d GiB = %d, never above the '
               'smallest NodeManager (%d MB)' % (
                   container, ('driver %d MB + %d MB overhead (cluster mode)' % (driver, drv_over))
                   if cluster_mode else 'client-mode AM 896 MB', step // 1024,
                   int(math.ceil(largest / float(step))) * step, ref['nm_mb']))
    if cluster_mode and driver + drv_over > max_alloc:
        new = int(min(max_alloc - c['min_overhead_mb'], max_alloc / (1 + c['driver_overhead_fraction'])))
        if new >= 1024:
            new = new // 1024 * 1024
        warnings.append('spark.driver.memory: %s does not fit the largest container (%d MB); lowered to %s'
                        % (fmt_size(driver), max_alloc, fmt_size(new)))
        why_driver += '; lowered to %s to fit the %d MB maximum allocation' % (fmt_size(new), max_alloc)
        driver = new
    # MapReduce
    map_mb = _bracket(ref_gib, c['map_brackets_gib'], False)
    reduce_mb = int(map_mb * c['reduce_factor'])
    why_map = 'node memory %.0f GiB -> %d MB by the bracket table (<= 4/8/24 GiB: 256/512/1024, more: 2048)' % (
        ref_gib, map_mb)
    if reduce_mb > max_alloc:
        reduce_mb = max_alloc
        warnings.append('mapreduce.reduce.memory.mb: capped at the maximum allocation %d MB' % max_alloc)
    min_alloc = min(int(c['min_allocation_mb']), map_mb)
    # Spark parallelism
    total_cores = instances * ec
    parallelism = int(c['parallelism_per_core'] * total_cores)
    floor_parts = int(c['partitions_per_core'] * total_cores)
    if opts['shuffle_data_bytes']:
        by_data = int(math.ceil(opts['shuffle_data_bytes'] / float(c['bytes_per_partition'])))
        partitions = max(by_data, floor_parts)
        why_parts = 'ceil(%d bytes / %d) = %d, never below %s x %d executor cores = %d' % (
            opts['shuffle_data_bytes'], c['bytes_per_partition'], by_data, c['partitions_per_core'],
            total_cores, floor_parts)
    else:
        partitions = floor_parts
        why_parts = 'no shuffle_data_bytes given: %s x %d executor cores' % (c['partitions_per_core'], total_cores)
    numbers = {
        'nms': nms, 'ref': ref_name, 'min_alloc': min_alloc, 'max_alloc': max_alloc,
        'max_vcores': ref['vcores'], 'executor_cores': ec, 'heap': heap, 'overhead': overhead,
        'container': container, 'instances': instances, 'driver': driver, 'partitions': partitions,
        'parallelism': parallelism, 'map': map_mb, 'reduce': reduce_mb, 'am': reduce_mb,
        'map_xmx': mr_xmx(map_mb, c['mr_heap_fraction']), 'reduce_xmx': mr_xmx(reduce_mb, c['mr_heap_fraction']),
        'am_xmx': mr_xmx(reduce_mb, c['mr_heap_fraction']), 'dynamic_allocation': 'false',
    }
    explain.update({
        'yarn.scheduler.minimum-allocation-mb': 'min(%d, map container %d MB) so small map requests are not '
                                                'rounded up' % (c['min_allocation_mb'], map_mb),
        'yarn.scheduler.maximum-allocation-mb': why_max,
        'yarn.scheduler.maximum-allocation-vcores': 'the smallest NodeManager vcores (%s)' % ref_name,
        'spark.executor.cores': why_ec,
        'spark.executor.memory': (
            '%s; heap floor(container / %s) in whole GiB capped at %s GiB (in MB, leaving at least the minimum '
            'overhead, when that gives under 1 GiB) = %s' % (
                why_container, c['heap_divisor'], c['heap_cap_gib'], fmt_size(heap))),
        'spark.executor.memoryOverhead': 'the rest of the %d MB container, at least %d MB = %d MB' % (
            container, c['min_overhead_mb'], overhead),
        'spark.executor.instances': why_inst,
        'spark.driver.memory': why_driver,
        'spark.sql.shuffle.partitions': why_parts,
        'spark.default.parallelism': '%s x %d executor cores (%d executors x %d cores)' % (
            c['parallelism_per_core'], total_cores, instances, ec),
        'spark.dynamicAllocation.enabled': 'false: the plan fixes spark.executor.instances',
        'mapreduce.map.memory.mb': why_map,
        'mapreduce.reduce.memory.mb': '%s x map container' % c['reduce_factor'],
        'yarn.app.mapreduce.am.resource.mb': 'same as the reduce container',
        'mapreduce.map.java.opts': '%s x %d MB, to the nearest GiB when >= 1 GiB' % (c['mr_heap_fraction'], map_mb),
        'mapreduce.reduce.java.opts': '%s x %d MB, to the nearest GiB when >= 1 GiB' % (
            c['mr_heap_fraction'], reduce_mb),
        'yarn.app.mapreduce.am.command-opts': '%s x %d MB' % (c['mr_heap_fraction'], reduce_mb),
    })
    for key, size, xmx in (('mapreduce.map.java.opts', map_mb, numbers['map_xmx']),
                           ('mapreduce.reduce.java.opts', reduce_mb, numbers['reduce_xmx']),
                           ('yarn.app.mapreduce.am.command-opts', reduce_mb, numbers['am_xmx'])):
        if parse_xmx_mb(xmx, key) >= size:
            warnings.append('%s: %s equals the %d MB container (0.8 x container rounded to the nearest GiB, as '
                            'the seed did); a task that fills its heap can exceed the container' % (key, xmx, size))
    return numbers, explain


# ---------------------------------------------------------------- daemon heaps

def _daemon_heaps(hosts, nms, lab, explain, warnings):
    def memory_for(role):
        for host in hosts:
            if role in host['roles']:
                return _effective(host, lab)[1] / 1024.0, host['name']
        name = min(nms, key=lambda n: nms[n]['memory_mb'])
        return nms[name]['memory_mb'] / 1024.0, name

    heaps = {}
    if lab:
        heaps = dict(LAB_HEAPS_MB)
        for key in heaps:
            explain['hadoop_env.' + key] = 'lab mode: small fixed heap %s' % fmt_size(heaps[key])
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
            explain['hadoop_env.' + key] = 'clamp(%s memory %.0f GiB / %d, 1, %d) GiB' % (where, gib, divisor, cap)
        for key, role in (('MAPRED_HISTORYSERVER_OPTS', 'jobhistory'), ('SPARK_DAEMON_MEMORY', 'spark_history')):
            gib, where = memory_for(role)
            heaps[key] = 2048 if gib >= 64 else 1024
            explain['hadoop_env.' + key] = '%s memory %.0f GiB: 2g from 64 GiB, else 1g' % (where, gib)
        heaps['HADOOP_HEAPSIZE_MAX'] = 1024
        explain['hadoop_env.HADOOP_HEAPSIZE_MAX'] = 'client commands (hdfs dfs, yarn): 1g'
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
    return heaps


def _render_env(heaps):
    env = {}
    spark_env = {}
    for key, mb in heaps.items():
        if key == 'SPARK_DAEMON_MEMORY':
            spark_env[key] = fmt_size(mb)
        elif key == 'HADOOP_HEAPSIZE_MAX':
            env[key] = fmt_size(mb)
        else:
            env[key] = '-Xmx%s' % fmt_size(mb)
    return env, spark_env


# ---------------------------------------------------------------- peer profiles

def _peer_nms(hosts, lab, fn):
    nms = {}
    for host in hosts:
        if 'nodemanager' in host['roles']:
            cores, memory, _notes = _effective(host, lab)
            nms[host['name']] = dict(fn(cores, memory, host['disks']), cores=cores, memory_mb=memory,
                                     disks=host['disks'])
    if not nms:
        raise PlanError('hosts: no host has the nodemanager role; give at least one host roles: [nodemanager, ...]')
    return nms


STOCK = {
    'nm_mb': 8192, 'vcores': 8, 'min_alloc': 1024, 'max_alloc': 8192, 'max_vcores': 4,
    'map': 1024, 'reduce': 1024, 'am': 1536, 'map_xmx': '-Xmx819m', 'reduce_xmx': '-Xmx819m',
    'am_xmx': '-Xmx1024m', 'executor_cores': 1, 'heap': 1024, 'overhead': 384, 'instances': 2,
    'driver': 1024, 'partitions': 200,
}


def _stock_spark(numbers):
    numbers.update({'executor_cores': 1, 'heap': 1024, 'overhead': 384, 'instances': 2, 'driver': 1024,
                    'partitions': 200, 'parallelism': 2, 'dynamic_allocation': 'false'})
    numbers['container'] = 1024 + 384
    return numbers


def _plan_stock(hosts, opts, c, warnings):
    nms = _peer_nms(hosts, opts['lab'], lambda cores, mem, disks: {
        'nm_mb': 8192, 'vcores': 8, 'reserved_mb': max(0, mem - 8192)})
    numbers = {'nms': nms, 'ref': _ref(nms)[0], 'min_alloc': 1024, 'max_alloc': 8192, 'max_vcores': 4,
               'map': 1024, 'reduce': 1024, 'am': 1536, 'map_xmx': '-Xmx819m', 'reduce_xmx': '-Xmx819m',
               'am_xmx': '-Xmx1024m'}
    _stock_spark(numbers)
    explain = {'profile': 'stock: what Hadoop 3.3 (yarn-default.xml, mapred-default.xml) and Spark 3.5 do with no '
                          'settings; -Xmx819m is what mapreduce.job.heap.memory-mb.ratio 0.8 derives'}
    for name, nm in nms.items():
        if nm['memory_mb'] < 8192 or nm['cores'] < 8:
            warnings.append('%s: the stock NodeManager advertises 8192 MB and 8 vcores, more than the host has '
                            '(%d MB, %d CPUs)' % (name, nm['memory_mb'], nm['cores']))
    return numbers, explain


def _ambari_bracket(ram_gib):
    brackets = ((4, 1), (8, 2), (16, 2), (24, 4), (48, 6), (64, 8), (72, 8), (96, 12), (128, 24), (256, 32))
    for top, reserve in brackets:
        if ram_gib <= top:
            return reserve
    return 64


def _ambari_min_container(ram_gib):
    if ram_gib <= 4:
        return 256
    if ram_gib <= 8:
        return 512
    if ram_gib <= 24:
        return 1024
    return 2048


def _plan_ambari(hosts, opts, c, warnings):
    nms = _peer_nms(hosts, opts['lab'], lambda cores, mem, disks: {})
    # Ambari sizes every NodeManager from one host summary; use the smallest, as its HDP 2.2+ advisor does.
    ref_name = min(nms, key=lambda n: (nms[n]['memory_mb'], nms[n]['cores'], n))
    ref = nms[ref_name]
    ram = ref['memory_mb'] // 1024
    reserved = _ambari_bracket(ram)
    min_container = _ambari_min_container(ram)
    available = max(512, (ram - reserved) * 1024)
    containers = int(round(max(3, min(2 * ref['cores'], math.ceil(1.8 * ref['disks']),
                                      available / float(min_container)))))
    per = abs(available / float(containers))
    if per > 1024:
        per = int(per / 512) * 512
    per = int(per)
    nm_mb = containers * per
    vcores = max(1, int(ref['cores'] * 0.8))
    for name in nms:
        nms[name].update({'nm_mb': min(nm_mb, nms[name]['memory_mb']), 'vcores': vcores,
                          'reserved_mb': reserved * 1024})
    numbers = {'nms': nms, 'ref': ref_name, 'min_alloc': per, 'max_alloc': nm_mb, 'max_vcores': vcores,
               'map': per, 'reduce': per, 'am': per,
               'map_xmx': '-Xmx%dm' % _round_half_up(0.8 * per), 'reduce_xmx': '-Xmx%dm' % _round_half_up(0.8 * per),
               'am_xmx': '-Xmx%dm' % _round_half_up(0.8 * per)}
    _stock_spark(numbers)
    explain = {'profile': ('ambari (stack_advisor.py, HDP 2.0.6/2.2): %s has %d GiB -> OS reserve %d GiB, minimum '
                           'container %d MB; containers = max(3, min(2 x %d cores, ceil(1.8 x %d disks), %d MB / %d)) '
                           '= %d of %d MB; vcores 80%% of %d CPUs; Spark is left at its stock values (Ambari sets '
                           'no executor sizing)' % (ref_name, ram, reserved, min_container, ref['cores'],
                                                    ref['disks'], available, min_container, containers, per,
                                                    ref['cores']))}
    return numbers, explain


HDP_RESERVED = {4: 1, 8: 2, 16: 2, 24: 4, 48: 6, 64: 8, 72: 8, 96: 12, 128: 24, 256: 32, 512: 64}


def _plan_hdp(hosts, opts, c, warnings):
    nms = _peer_nms(hosts, opts['lab'], lambda cores, mem, disks: {})
    ref_name = min(nms, key=lambda n: (nms[n]['memory_mb'], nms[n]['cores'], n))
    ref = nms[ref_name]
    ram = ref['memory_mb'] // 1024
    # The script looks the memory up as an exact key; other sizes fall to 1 GiB (64 from 512 GiB).
    reserved = HDP_RESERVED.get(ram, 64 if ram >= 512 else 1)
    min_container = _ambari_min_container(ram)
    usable = max(2, ram - reserved) * 1024
    containers = int(max(3, min(2 * ref['cores'], math.ceil(1.8 * ref['disks']), usable // min_container)))
    per = max(min_container, usable // containers)
    if per > 1024:
        per = per // 512 * 512
    nm_mb = containers * per
    for name in nms:
        nms[name].update({'nm_mb': min(nm_mb, nms[name]['memory_mb']), 'vcores': nms[name]['cores'],
                          'reserved_mb': reserved * 1024})
    numbers = {'nms': nms, 'ref': ref_name, 'min_alloc': per, 'max_alloc': nm_mb, 'max_vcores': ref['cores'],
               'map': per, 'reduce': 2 * per, 'am': 2 * per,
               'map_xmx': '-Xmx%dm' % int(0.8 * per), 'reduce_xmx': '-Xmx%dm' % int(0.8 * 2 * per),
               'am_xmx': '-Xmx%dm' % int(0.8 * 2 * per)}
    _stock_spark(numbers)
    explain = {'profile': ('hdp (hdp-configuration-utils.py and the HDP manual-install memory table): %d GiB -> '
                           'reserved %d GiB (exact-size table), minimum container %d MB; containers = min(2 x %d, '
                           'ceil(1.8 x %d), %d / %d) = %d of %d MB; reduce = AM = 2 x map; heaps 0.8; vcores = CPUs; '
                           'Spark left at stock values' % (ram, reserved, min_container, ref['cores'], ref['disks'],
                                                           usable, min_container, containers, per))}
    return numbers, explain


def _plan_emr(hosts, opts, c, warnings):
    def nm(cores, mem, disks):
        reserve = min(8192, mem // 4)
        return {'nm_mb': (mem - reserve) // 32 * 32, 'vcores': cores, 'reserved_mb': reserve}
    nms = _peer_nms(hosts, opts['lab'], nm)
    ref_name, ref = _ref(nms)
    map_mb = ref['nm_mb'] // ref['vcores'] // 32 * 32
    executor_container = ref['nm_mb'] - 1024
    heap = int(executor_container / 1.1875)
    numbers = {'nms': nms, 'ref': ref_name, 'min_alloc': 32, 'max_alloc': ref['nm_mb'], 'max_vcores': ref['vcores'],
               'map': map_mb, 'reduce': 2 * map_mb, 'am': 2 * map_mb,
               'map_xmx': '-Xmx%dm' % int(0.8 * map_mb), 'reduce_xmx': '-Xmx%dm' % int(0.8 * 2 * map_mb),
               'am_xmx': '-Xmx%dm' % int(0.8 * 2 * map_mb),
               'executor_cores': ref['vcores'], 'heap': heap, 'overhead': executor_container - heap,
               'container': executor_container, 'instances': len(nms), 'driver': heap,
               'partitions': 200, 'parallelism': 2 * ref['vcores'] * len(nms), 'dynamic_allocation': 'false'}
    explain = {'profile': ('emr (EMR task configuration tables and maximizeResourceAllocation): NodeManager = memory '
                           '- min(8 GiB, a quarter) = %d MB; map = NM / %d vCPU = %d MB; reduce = AM = 2 x map; heap '
                           '0.8; one executor per node with all %d vcores and NM - 1 GiB (room for the AM) split as '
                           'heap + 0.1875 overhead; driver as large as an executor; default.parallelism 2 x cores'
                           % (ref['nm_mb'], ref['vcores'], map_mb, ref['vcores']))}
    return numbers, explain


def _plan_cloudera(hosts, opts, c, warnings):
    nms = _peer_nms(hosts, opts['lab'], lambda cores, mem, disks: {
        'nm_mb': (mem // 1024 - 1) * 1024, 'vcores': max(1, cores - 1), 'reserved_mb': 1024})
    ref_name, ref = _ref(nms)
    ec = min(5, ref['vcores'])
    if opts['executor_cores'] is not None:
        ec = min(opts['executor_cores'], ref['vcores'])
    per_node = max(1, ref['vcores'] // ec)
    container_gib = max(1, ref['nm_mb'] // 1024 // per_node)
    heap_gib = int(container_gib / 1.07)
    heap = heap_gib * 1024 if heap_gib >= 1 else int(container_gib * 1024 - 384)
    overhead = max(384, int(math.ceil(0.07 * heap)))
    total = sum(max(1, n['vcores'] // ec) for n in nms.values())
    numbers = {'nms': nms, 'ref': ref_name, 'min_alloc': 1024, 'max_alloc': ref['nm_mb'],
               'max_vcores': ref['vcores'], 'map': 1024, 'reduce': 1024, 'am': 1024,
               'map_xmx': '-Xmx768m', 'reduce_xmx': '-Xmx768m', 'am_xmx': '-Xmx768m',
               'executor_cores': ec, 'heap': heap, 'overhead': overhead, 'container': heap + overhead,
               'instances': max(1, total - 1), 'driver': 1024, 'partitions': 200,
               'parallelism': 2 * ec * max(1, total - 1), 'dynamic_allocation': 'false'}
    explain = {'profile': ('cloudera ("How-to: Tune Your Apache Spark Jobs (Part 2)"): keep 1 core and 1 GB per '
                           'node -> %d MB, %d vcores; %d-core executors, %d per node, %d GiB each; heap = '
                           'container / 1.07, overhead max(384 MB, 7%%); one executor slot left for the AM; '
                           'MapReduce from the Cloudera YARN tuning table (1 GB, -Xmx768m)'
                           % (ref['nm_mb'], ref['vcores'], ec, per_node, container_gib))}
    return numbers, explain


def _plan_dataproc(hosts, opts, c, warnings):
    nms = _peer_nms(hosts, opts['lab'], lambda cores, mem, disks: {
        'nm_mb': int(mem * 0.8) // 256 * 256, 'vcores': cores, 'reserved_mb': mem - int(mem * 0.8) // 256 * 256})
    ref_name, ref = _ref(nms)
    ec = max(1, ref['vcores'] // 2)
    container = ref['nm_mb'] // 2
    heap = int(container / 1.1)
    masters = [h for h in hosts if set(h['roles']) & set(('namenode', 'resourcemanager'))]
    master_mb = _effective(masters[0], opts['lab'])[1] if masters else ref['memory_mb']
    driver = master_mb // 4
    numbers = {'nms': nms, 'ref': ref_name, 'min_alloc': 1024, 'max_alloc': ref['nm_mb'], 'max_vcores': ref['vcores'],
               'map': 1024, 'reduce': 1024, 'am': 1536, 'map_xmx': '-Xmx819m', 'reduce_xmx': '-Xmx819m',
               'am_xmx': '-Xmx1024m', 'executor_cores': ec, 'heap': heap, 'overhead': container - heap,
               'container': container, 'instances': 2 * len(nms), 'driver': driver, 'partitions': 200,
               'parallelism': 2 * ec * 2 * len(nms), 'dynamic_allocation': 'false'}
    explain = {'profile': ('dataproc: 80%% of memory to YARN (%d MB); two executors per worker with half the vCPUs '
                           '(%d) and half the NodeManager memory (heap = container / 1.1); driver a quarter of the '
                           'master memory (%d MB); MapReduce left at Hadoop defaults'
                           % (ref['nm_mb'], ec, driver))}
    return numbers, explain


PEERS = {'stock': _plan_stock, 'ambari': _plan_ambari, 'hdp': _plan_hdp, 'emr': _plan_emr,
         'cloudera': _plan_cloudera, 'dataproc': _plan_dataproc}


# ---------------------------------------------------------------- rendering and checks

def _render(numbers):
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
        'spark.sql.shuffle.partitions': str(numbers['partitions']),
        'spark.default.parallelism': str(numbers['parallelism']),
        'spark.dynamicAllocation.enabled': numbers['dynamic_allocation'],
    }
    nodemanagers = dict((name, {NM_MEMORY: str(nm['nm_mb']), NM_VCORES: str(nm['vcores'])})
                        for name, nm in sorted(nms.items()))
    return yarn_site, mapred_site, spark_defaults, nodemanagers


def _roundup(mb, step):
    return int(math.ceil(mb / float(step))) * step


def check_invariants(result):
    """Return the list of broken invariants of a rendered plan (empty when it is sound)."""
    problems = []
    y = result['yarn_site']
    m = result['mapred_site']
    s = result['spark_defaults']
    min_alloc = int(y['yarn.scheduler.minimum-allocation-mb'])
    max_alloc = int(y['yarn.scheduler.maximum-allocation-mb'])
    max_vcores = int(y['yarn.scheduler.maximum-allocation-vcores'])
    ec = int(s['spark.executor.cores'])
    heap = parse_size_mb(s['spark.executor.memory'], 'spark.executor.memory')
    over = parse_size_mb(s['spark.executor.memoryOverhead'], 'spark.executor.memoryOverhead')
    instances = int(s['spark.executor.instances'])
    container = _roundup(heap + over, max(1, min_alloc))
    for key, value in (('minimum-allocation-mb', min_alloc), ('maximum-allocation-mb', max_alloc),
                       ('spark.executor.cores', ec), ('spark.executor.memory', heap),
                       ('spark.executor.instances', instances), ('maximum-allocation-vcores', max_vcores)):
        if value <= 0:
            problems.append('%s must be positive, got %d' % (key, value))
    capacity = 0
    for name, nm in result['nodemanagers'].items():
        mem = int(nm[NM_MEMORY])
        vcores = int(nm[NM_VCORES])
        if mem <= 0 or vcores <= 0:
            problems.append('%s: NodeManager memory and vcores must be positive' % name)
            continue
        capacity += min(mem // container, vcores // ec) if ec else 0
    if instances > capacity:
        problems.append('%d executors of %d MB (rounded to the %d MB minimum allocation) and %d cores do not fit '
                        'the NodeManagers (room for %d)' % (instances, heap + over, min_alloc, ec, capacity))
    if ec > max_vcores:
        problems.append('spark.executor.cores %d > yarn.scheduler.maximum-allocation-vcores %d' % (ec, max_vcores))
    if heap + over > max_alloc:
        problems.append('executor heap + overhead %d MB > yarn.scheduler.maximum-allocation-mb %d'
                        % (heap + over, max_alloc))
    if over < 384:
        problems.append('spark.executor.memoryOverhead %d MB < 384 MB' % over)
    driver = parse_size_mb(s['spark.driver.memory'], 'spark.driver.memory')
    if driver <= 0:
        problems.append('spark.driver.memory must be positive')
    for prefix, key, opts in (('map', 'mapreduce.map.memory.mb', 'mapreduce.map.java.opts'),
                              ('reduce', 'mapreduce.reduce.memory.mb', 'mapreduce.reduce.java.opts'),
                              ('am', 'yarn.app.mapreduce.am.resource.mb', 'yarn.app.mapreduce.am.command-opts')):
        size = int(m[key])
        xmx = parse_xmx_mb(m[opts], opts)
        if size <= 0 or xmx <= 0:
            problems.append('%s and %s must be positive' % (key, opts))
        elif xmx > size:
            problems.append('%s -Xmx %d MB > %s %d' % (opts, xmx, key, size))
        if size > max_alloc:
            problems.append('%s %d > yarn.scheduler.maximum-allocation-mb %d' % (key, size, max_alloc))
    if int(m['mapreduce.reduce.memory.mb']) < int(m['mapreduce.map.memory.mb']):
        problems.append('mapreduce.reduce.memory.mb < mapreduce.map.memory.mb')
    return problems


def _apply_overrides(result, overrides):
    if not overrides:
        return
    if not isinstance(overrides, dict):
        raise PlanError('overrides: expected a dict of property name -> value')
    sections = ('yarn_site', 'mapred_site', 'spark_defaults', 'hadoop_env', 'spark_env')
    for key, value in overrides.items():
        if isinstance(value, (dict, list)) or value is None:
            raise PlanError('overrides.%s: expected a string or number, got %r' % (key, value))
        for section in sections:
            if key in result[section]:
                result[section][key] = str(value).lower() if isinstance(value, bool) else str(value)
                if key in (NM_MEMORY, NM_VCORES):
                    for nm in result['nodemanagers'].values():
                        nm[key] = result[section][key]
                result['explain'][key] = 'overridden by the user (overrides.%s)' % key
                break
        else:
            known = sorted(k for section in sections for k in result[section])
            raise PlanError('overrides: unknown property %r; allowed: %s' % (key, ', '.join(known)))


# ---------------------------------------------------------------- entry point

def plan(hosts, profile='default', executor_cores=None, workload='default', shuffle_data_bytes=None,
         reserve_am_slot=False, driver_deploy_mode='cluster', reservations=None, other_services=None,
         lab=None, overrides=None, constants=None):
    """Compute the whole plan; see docs/sizing.md. Raises PlanError on bad input."""
    if profile not in PROFILES:
        raise PlanError('profile: unknown profile %r; allowed: %s' % (profile, ', '.join(PROFILES)))
    if workload not in WORKLOADS:
        raise PlanError('workload: unknown workload %r; allowed: %s' % (workload, ', '.join(WORKLOADS)))
    if driver_deploy_mode not in DEPLOY_MODES:
        raise PlanError('driver_deploy_mode: %r; allowed: %s' % (driver_deploy_mode, ', '.join(DEPLOY_MODES)))
    if not isinstance(reserve_am_slot, bool):
        raise PlanError('reserve_am_slot: expected true or false, got %r' % (reserve_am_slot,))
    opts = {
        'executor_cores': _int(executor_cores, 'executor_cores', 1, allow_none=True),
        'workload': workload,
        'shuffle_data_bytes': _int(shuffle_data_bytes, 'shuffle_data_bytes', 0, allow_none=True),
        'reserve_am_slot': reserve_am_slot,
        'driver_deploy_mode': driver_deploy_mode,
        'reservations': _norm_reservations(reservations, 'reservations') if reservations is not None else None,
        'other_services': _norm_services(other_services),
        'lab': _norm_lab(lab),
    }
    c = _norm_constants(constants)
    norm = _norm_hosts(hosts)
    known = set(h['name'] for h in norm)
    for svc in opts['other_services']:
        for name in svc['hosts'] or []:
            if name not in known:
                raise PlanError('other_services[%s].hosts: unknown host %r; allowed: %s'
                                % (svc['name'], name, ', '.join(sorted(known))))
    warnings = []
    if profile == 'default':
        numbers, explain = _plan_default(norm, opts, c, warnings)
    else:
        numbers, explain = PEERS[profile](norm, opts, c, warnings)
    heaps = _daemon_heaps(norm, numbers['nms'], opts['lab'], explain, warnings)
    hadoop_env, spark_env = _render_env(heaps)
    if profile == 'stock':
        hadoop_env, spark_env = {}, {}
        explain['hadoop_env'] = 'stock: no heap settings; the JVM picks a quarter of the memory'
    yarn_site, mapred_site, spark_defaults, nodemanagers = _render(numbers)
    for name, nm in numbers['nms'].items():
        if 'why_memory' in nm:
            explain['nodemanagers.%s.%s' % (name, NM_MEMORY)] = nm['why_memory']
            explain['nodemanagers.%s.%s' % (name, NM_VCORES)] = nm['why_vcores']
    ref = numbers['ref']
    explain.setdefault(NM_MEMORY, 'the smallest NodeManager (%s); per-host values are under nodemanagers' % ref)
    explain.setdefault(NM_VCORES, 'the smallest NodeManager (%s); per-host values are under nodemanagers' % ref)
    if opts['lab']:
        explain['lab'] = ('lab mode: %d nodes share one machine, so each counts its share of the CPUs and memory; '
                          'vcores are raised to %d and oversubscribe the real cores; daemon heaps are 256-512m'
                          % (opts['lab']['nodes_per_machine'], c['lab_min_vcores']))
    result = {
        'profile': profile,
        'yarn_site': yarn_site,
        'mapred_site': mapred_site,
        'spark_defaults': spark_defaults,
        'hadoop_env': hadoop_env,
        'spark_env': spark_env,
        'nodemanagers': nodemanagers,
        'explain': explain,
        'warnings': warnings,
        'page_size_advice': _page_size_advice(norm),
    }
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
        _apply_overrides(result, overrides)
        new = [p for p in check_invariants(result) if p not in problems]
        if new:
            raise PlanError('overrides: the overridden plan breaks an invariant: %s' % '; '.join(new))
    return result
