# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Planner inputs: units, bounds, the constants and their checks, hosts and options, override values.

Plain functions over plain values: no Ansible imports, no file or network access.
Every invalid input raises PlanError with a message naming the field and what is allowed.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import math
import re

from ansible_collections.bigdata.spark.plugins.module_utils.native import NativeError, page_size_advice

MIB = 1024 * 1024
GIB = 1024 * MIB

PROFILES = ('default', 'seed', 'ambari', 'hdp', 'emr', 'cloudera', 'dataproc', 'stock')
WORKLOADS = ('default', 'sql_heavy')
DEPLOY_MODES = ('cluster', 'client')
ROLES = (
    'namenode', 'secondarynamenode', 'journalnode', 'zkfc', 'datanode', 'nodemanager',
    'resourcemanager', 'jobhistory', 'spark_history', 'zookeeper', 'client',
)
MASTER_ROLES = ('namenode', 'secondarynamenode', 'resourcemanager', 'jobhistory', 'spark_history', 'journalnode',
                'zkfc', 'zookeeper')

# Sane bounds: anything outside is a typo or a unit mistake, not a machine.
MAX_CORES = 8192
MIN_MEMORY_MB = 1024
MAX_MEMORY_MB = 64 * 1024 * 1024  # 64 TiB
MAX_DISKS = 1024
MAX_NODES_PER_MACHINE = 1024
MAX_PARTITIONS = 2 ** 31 - 1  # Spark keeps partition ids in an int
SPARK_MIN_OVERHEAD_MB = 384  # Spark's floor for spark.{executor,driver,yarn.am}.memoryOverhead

# Every constant of the default profile; each one can be changed with the `constants` option.
DEFAULT_CONSTANTS = {
    'cores_per_kept_core': 32,
    'reserve_cap_gib': 8,
    'reserve_fraction': 0.25,
    'reserve_floor_fraction': 0.0625,
    'executor_cores': 5,
    'executor_cores_gain': 0.1,
    'min_executor_mb': 1024,
    'heap_divisor': 1.1,
    'heap_cap_gib': 64,
    'min_overhead_mb': 384,
    'driver_brackets_gib': [[256, 32], [128, 16], [64, 8], [16, 4], [0, 1]],
    'sql_heavy_driver_factor': 2,
    'driver_overhead_fraction': 0.1,
    'driver_max_nm_fraction': 0.5,
    'am_brackets_mb': [[64, 1024], [0, 512]],
    'max_allocation_multiple_gib': 16,
    'min_allocation_mb': 1024,
    'bytes_per_partition': 250000000,
    'partitions_per_core': 2,
    'parallelism_per_core': 2,
    'map_brackets_gib': [[4, 256], [8, 512], [24, 1024], [0, 2048]],
    'reduce_factor': 2,
    'mr_heap_fraction': 0.8,
    'idle_warning_fraction': 0.25,
    'lab_memory_granularity_mb': 256,
    'lab_nodemanager_min_mb': 2560,
}

# The type and range of every constant: (kind, low, high). Fractions are open intervals (low, high);
# brackets are [[threshold, value], ...] ending with the 0 catch-all, values within low..high.
CONSTANT_RULES = {
    'cores_per_kept_core': ('int', 1, MAX_CORES),
    'reserve_cap_gib': ('number', 0, 65536),
    'reserve_fraction': ('fraction', 0, 1),
    'reserve_floor_fraction': ('fraction', 0, 1),
    'executor_cores': ('int', 1, MAX_CORES),
    'executor_cores_gain': ('number', 0, 10),
    'min_executor_mb': ('int', 1024, 65536),
    'heap_divisor': ('number', 1.01, 4),
    'heap_cap_gib': ('int', 1, 4096),
    'min_overhead_mb': ('int', SPARK_MIN_OVERHEAD_MB, 65536),
    'driver_brackets_gib': ('brackets_desc', 1, 4096),
    'sql_heavy_driver_factor': ('number', 1, 16),
    'driver_overhead_fraction': ('fraction', 0.0999, 1),
    'driver_max_nm_fraction': ('fraction', 0, 1),
    'am_brackets_mb': ('brackets_desc', 512, 65536),
    'max_allocation_multiple_gib': ('int', 1, 4096),
    'min_allocation_mb': ('int', 32, 8192),
    'bytes_per_partition': ('int', MIB, 2 ** 40),
    'partitions_per_core': ('number', 0.1, 1000),
    'parallelism_per_core': ('number', 0.1, 1000),
    'map_brackets_gib': ('brackets_asc', 128, 65536),
    'reduce_factor': ('number', 1, 16),
    'mr_heap_fraction': ('number', 0.1, 0.9),
    'idle_warning_fraction': ('fraction', 0, 1),
    'lab_memory_granularity_mb': ('int', 32, 1024),
    'lab_nodemanager_min_mb': ('int', 1024, 65536),
}

NM_MEMORY = 'yarn.nodemanager.resource.memory-mb'
NM_VCORES = 'yarn.nodemanager.resource.cpu-vcores'


class PlanError(ValueError):
    """Invalid planner input; the message names the field and what is allowed."""


# ---------------------------------------------------------------- units

def fmt_size(mb):
    """Format MiB the way Hadoop/Spark files want it: whole GiB as "18g", else "640m"."""
    mb = int(mb)
    if mb >= 1024 and mb % 1024 == 0:
        return '%dg' % (mb // 1024)
    return '%dm' % mb


_SIZE_RE = re.compile(r'^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?\s*$', re.IGNORECASE)
# What Spark's JavaUtils.byteStringAs accepts: a whole number and an optional unit.
_SPARK_SIZE_RE = re.compile(r'^\s*(\d+)\s*(k|kb|m|mb|g|gb|t|tb)?\s*$', re.IGNORECASE)
_UNIT_MB = {'': 1, 'k': 1.0 / 1024, 'm': 1, 'g': 1024, 't': 1024 * 1024}


def memory_bytes(memory):
    """A node's memory from bigdata_hardware.memory: its cgroup's limit when lower than the total (None unknown)."""
    memory = memory or {}
    limits = [m for m in (memory.get('cgroup_limit_bytes'), memory.get('total_bytes')) if m]
    return min(limits) if limits else None


def parse_size_mb(value, field='value'):
    """Parse "18g", "640m", "2048" (MiB) or a number into MiB."""
    if isinstance(value, bool):
        raise PlanError('%s: expected a size such as 2048, "640m" or "18g", got %r' % (field, value))
    if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
        raise PlanError('%s: expected a size such as 2048, "640m" or "18g", got %r' % (field, value))
    if isinstance(value, (int, float)):
        return int(value)
    match = _SIZE_RE.match(str(value))
    if not match:
        raise PlanError('%s: expected a size such as 2048, "640m" or "18g", got %r' % (field, value))
    number = float(match.group(1))
    if math.isinf(number):
        raise PlanError('%s: expected a size such as 2048, "640m" or "18g", got %r' % (field, value))
    return int(number * _UNIT_MB[match.group(2).lower()])


def parse_xmx_mb(opts, field='value'):
    """Return the -Xmx of a JVM options string in MiB."""
    match = re.search(r'-Xmx(\d+)([kKmMgG]?)(?![\w.])', str(opts))
    if not match:
        raise PlanError('%s: expected JVM options containing -Xmx<size>, got %r' % (field, opts))
    return parse_size_mb(match.group(1) + match.group(2), field)


def roundup(mb, step):
    """mb rounded up to a multiple of step, as the ResourceManager rounds a container request."""
    step = max(1, int(step))
    return -(-int(mb) // step) * step


def _int(value, field, minimum=0, allow_none=False, maximum=None):
    """A whole number within minimum..maximum from an int, an integral float or a string of digits."""
    if value is None and allow_none:
        return None
    allowed = ('a whole number from %d to %d' % (minimum, maximum) if maximum is not None
               else 'a whole number >= %d' % minimum)
    if isinstance(value, bool) or value is None:
        raise PlanError('%s: expected %s, got %r' % (field, allowed, value))
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value) or value != int(value):
            raise PlanError('%s: expected %s, got %r' % (field, allowed, value))
        value = int(value)
    if isinstance(value, str):
        text = value.strip()
        if not re.match(r'^-?\d{1,30}$', text):
            raise PlanError('%s: expected %s, got %r' % (field, allowed, value))
        value = int(text)
    if not isinstance(value, int):
        raise PlanError('%s: expected %s, got %r' % (field, allowed, value))
    if value < minimum:
        if maximum is not None:
            raise PlanError('%s: must be from %d to %d, got %d' % (field, minimum, maximum, value))
        raise PlanError('%s: must be >= %d, got %d' % (field, minimum, value))
    if maximum is not None and value > maximum:
        raise PlanError('%s: must be from %d to %d, got %d' % (field, minimum, maximum, value))
    return value


def bracket(value, brackets, descending):
    """Pick from [[threshold, result], ...]; threshold 0 is the catch-all."""
    for threshold, result in brackets:
        if threshold == 0:
            return result
        if descending and value >= threshold:
            return result
        if not descending and value <= threshold:
            return result
    return brackets[-1][1]


# ---------------------------------------------------------------- hosts

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
        memory_mb = _int(facts['memory_gib'], field + '.memory_gib', 1, maximum=MAX_MEMORY_MB // 1024) * 1024
    elif mem.get('installed_bytes'):  # 0 or null: unknown, as hardware_facts reports it
        memory_mb = _int(mem['installed_bytes'], field + '.memory.installed_bytes', 1) // MIB
    elif mem.get('total_bytes') is not None:
        memory_mb = _int(mem['total_bytes'], field + '.memory.total_bytes', 1) // MIB
    elif mem.get('total_gib') is not None:
        memory_mb = _int(mem['total_gib'], field + '.memory.total_gib', 1, maximum=MAX_MEMORY_MB // 1024) * 1024
    if memory_mb is None:
        raise PlanError('%s.memory.total_bytes: missing; give memory.total_bytes or memory_gib' % field)
    limit_mb = facts.get('memory_limit_mb')
    if limit_mb is None and mem.get('cgroup_limit_bytes'):  # null when unlimited
        limit_mb = _int(mem['cgroup_limit_bytes'], field + '.memory.cgroup_limit_bytes', 1) // MIB
    disks = facts.get('disk_count')
    if disks is None:
        disk_list = facts.get('disks')
        if disk_list is None:
            disks = 0
        elif isinstance(disk_list, list):
            disks = len(disk_list)
        else:
            raise PlanError('%s.disks: expected a list of data disks (as hardware_facts returns) or disk_count, '
                            'got %r' % (field, disk_list))
    return {'name': name, 'roles': roles, 'cores': cores, 'memory_mb': memory_mb,
            'disks': disks, 'memory_limit_mb': limit_mb, 'architecture': cpu.get('architecture'),
            'page_size': mem.get('page_size'), 'distribution': facts.get('distribution')}


def _memory(value, field, allow_none=False):
    return _int(value, field, MIN_MEMORY_MB, allow_none=allow_none, maximum=MAX_MEMORY_MB)


def _text(value):
    return value if isinstance(value, str) else None


def norm_hosts(hosts):
    """Check and normalise the hosts list (bounds: 1..8192 CPUs, 1 GiB..64 TiB, 0..1024 disks)."""
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
            if not isinstance(role, str) or role not in ROLES:
                raise PlanError('hosts[%s].roles: unknown role %r; allowed: %s' % (name, role, ', '.join(ROLES)))
        cores = _int(host.get('cores'), 'hosts[%s].cores' % name, 1, maximum=MAX_CORES)
        memory_mb = _memory(host.get('memory_mb'), 'hosts[%s].memory_mb' % name)
        disks = host.get('disks')
        disks = _int(0 if disks is None else disks, 'hosts[%s].disks' % name, 0, maximum=MAX_DISKS)
        limit = _memory(host.get('memory_limit_mb'), 'hosts[%s].memory_limit_mb' % name, allow_none=True)
        res = host.get('reservations')
        if res is not None:
            res = norm_reservations(res, 'hosts[%s].reservations' % name)
        page_size = _int(host.get('page_size'), 'hosts[%s].page_size' % name, 1, allow_none=True,
                         maximum=2 ** 30)
        out.append({'name': name, 'roles': list(roles), 'cores': cores, 'memory_mb': memory_mb,
                    'disks': disks, 'memory_limit_mb': limit, 'reservations': res,
                    'architecture': _text(host.get('architecture')), 'page_size': page_size,
                    'distribution': _text(host.get('distribution'))})
    return out


def page_size_advices(hosts):
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


def norm_reservations(res, field):
    if not isinstance(res, dict):
        raise PlanError('%s: expected a dict with memory_mb and/or vcores' % field)
    for key in res:
        if key not in ('memory_mb', 'vcores'):
            raise PlanError('%s: unknown key %r; allowed: memory_mb, vcores' % (field, key))
    return {'memory_mb': _int(res.get('memory_mb'), field + '.memory_mb', 0, allow_none=True, maximum=MAX_MEMORY_MB),
            'vcores': _int(res.get('vcores'), field + '.vcores', 0, allow_none=True, maximum=MAX_CORES)}


def norm_services(services):
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
        if hosts is not None and (not isinstance(hosts, list) or not all(isinstance(h, str) for h in hosts)):
            raise PlanError('%s.hosts: expected a list of host names' % field)
        out.append({'name': svc['name'],
                    'memory_mb': _int(svc.get('memory_mb', 0), field + '.memory_mb', 0, maximum=MAX_MEMORY_MB),
                    'vcores': _int(svc.get('vcores', 0), field + '.vcores', 0, maximum=MAX_CORES),
                    'hosts': hosts})
    return out


# ---------------------------------------------------------------- constants

def _number(value, field, low, high, open_low=False, open_high=False):
    lo = '(' if open_low else '['
    hi = ')' if open_high else ']'
    allowed = 'a number in %s%s, %s%s' % (lo, low, high, hi)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise PlanError('%s: expected %s, got %r' % (field, allowed, value))
    if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
        raise PlanError('%s: expected %s, got %r' % (field, allowed, value))
    if value < low or value > high or (open_low and value == low) or (open_high and value == high):
        raise PlanError('%s: expected %s, got %r' % (field, allowed, value))
    return value


def _brackets(value, field, low, high, descending):
    order = 'descending' if descending else 'ascending'
    allowed = ('a list of [threshold GiB, value] pairs with %s thresholds above 0, ending with the [0, value] '
               'catch-all; values from %d to %d' % (order, low, high))
    if not isinstance(value, list) or not value:
        raise PlanError('constants.%s: expected %s, got %r' % (field, allowed, value))
    out = []
    for index, pair in enumerate(value):
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            raise PlanError('constants.%s[%d]: expected %s, got %r' % (field, index, allowed, pair))
        threshold = _number(pair[0], 'constants.%s[%d] threshold' % (field, index), 0, MAX_MEMORY_MB // 1024)
        result = _int(pair[1], 'constants.%s[%d] value' % (field, index), low, maximum=high)
        last = index == len(value) - 1
        if (threshold == 0) != last:
            raise PlanError('constants.%s: expected %s; the 0 threshold must come last, and only there, got %r'
                            % (field, allowed, value))
        wrong_order = out and ((descending and threshold >= out[-1][0]) or (not descending and threshold <= out[-1][0]))
        if wrong_order and not last:
            raise PlanError('constants.%s: expected %s, got %r' % (field, allowed, value))
        out.append([threshold, result])
    return out


def norm_constants(constants):
    merged = dict(DEFAULT_CONSTANTS)
    if constants is None:
        return merged
    if not isinstance(constants, dict):
        raise PlanError('constants: expected a dict; allowed keys: %s' % ', '.join(sorted(DEFAULT_CONSTANTS)))
    for key, value in constants.items():
        if key not in DEFAULT_CONSTANTS:
            raise PlanError('constants: unknown constant %r; allowed: %s' % (key, ', '.join(sorted(DEFAULT_CONSTANTS))))
        kind, low, high = CONSTANT_RULES[key]
        field = 'constants.%s' % key
        if kind == 'int':
            merged[key] = _int(value, field, low, maximum=high)
        elif kind == 'number':
            merged[key] = _number(value, field, low, high)
        elif kind == 'fraction':
            merged[key] = _number(value, field, low, high, open_low=True, open_high=True)
        else:
            merged[key] = _brackets(value, key, low, high, kind == 'brackets_desc')
    return merged


def norm_lab(lab):
    if lab is None or lab is False:
        return None
    if not isinstance(lab, dict):
        raise PlanError('lab: expected a dict such as {nodes_per_machine: 3}')
    for key in lab:
        if key not in ('nodes_per_machine', 'machine_cores', 'machine_memory_mb'):
            raise PlanError('lab: unknown key %r; allowed: nodes_per_machine, machine_cores, machine_memory_mb' % (key,))
    return {'nodes_per_machine': _int(lab.get('nodes_per_machine'), 'lab.nodes_per_machine', 1,
                                      maximum=MAX_NODES_PER_MACHINE),
            'machine_cores': _int(lab.get('machine_cores'), 'lab.machine_cores', 1, allow_none=True, maximum=MAX_CORES),
            'machine_memory_mb': _memory(lab.get('machine_memory_mb'), 'lab.machine_memory_mb', allow_none=True)}


def effective(host, lab):
    """Cores and memory a host really has. In lab mode the nodes are containers on one machine: each can use
    all of the machine's CPUs (no CPU quota; lab_executor_cores caps what the executors take together) and its
    share of the machine's memory, capped by its container's memory limit."""
    cores = host['cores']
    memory = host['memory_mb']
    notes = []
    if lab:
        n = lab['nodes_per_machine']
        cores = lab['machine_cores'] or cores
        machine_memory = lab['machine_memory_mb'] or memory
        memory = machine_memory // n
        notes.append('lab mode: %d nodes share %d CPUs and %d MB; each container can use all %d CPUs, and counts '
                     '%d MB' % (n, cores, machine_memory, cores, memory))
    if host['memory_limit_mb'] and host['memory_limit_mb'] < memory:
        memory = host['memory_limit_mb']
        notes.append('its container memory limit (%d MB) is lower, so it counts %d MB' % (memory, memory))
    return cores, memory, notes


def lab_machine_cores(hosts, lab):
    """The CPUs of the lab's machine, which every node's executors share (None outside lab mode)."""
    if not lab:
        return None
    return lab['machine_cores'] or min(h['cores'] for h in hosts)


# ---------------------------------------------------------------- override values

# The type of every property the planner writes; override_errors checks values against it.
PROPERTY_TYPES = {
    NM_MEMORY: 'mb', NM_VCORES: 'count',
    'yarn.scheduler.minimum-allocation-mb': 'mb', 'yarn.scheduler.maximum-allocation-mb': 'mb',
    'yarn.scheduler.minimum-allocation-vcores': 'count', 'yarn.scheduler.maximum-allocation-vcores': 'count',
    'mapreduce.map.memory.mb': 'mb', 'mapreduce.reduce.memory.mb': 'mb', 'yarn.app.mapreduce.am.resource.mb': 'mb',
    'mapreduce.map.cpu.vcores': 'count', 'mapreduce.reduce.cpu.vcores': 'count',
    'mapreduce.map.java.opts': 'jvm', 'mapreduce.reduce.java.opts': 'jvm', 'yarn.app.mapreduce.am.command-opts': 'jvm',
    'spark.executor.cores': 'count', 'spark.executor.memory': 'size', 'spark.executor.memoryOverhead': 'size',
    'spark.executor.instances': 'count', 'spark.driver.memory': 'size', 'spark.yarn.am.memory': 'size',
    'spark.sql.shuffle.partitions': 'partitions', 'spark.default.parallelism': 'partitions',
    'spark.dynamicAllocation.enabled': 'bool',
    'HADOOP_HEAPSIZE_MAX': 'size', 'HDFS_NAMENODE_OPTS': 'heap_opts', 'HDFS_SECONDARYNAMENODE_OPTS': 'heap_opts',
    'HDFS_DATANODE_OPTS': 'heap_opts', 'YARN_RESOURCEMANAGER_OPTS': 'heap_opts',
    'YARN_NODEMANAGER_OPTS': 'heap_opts', 'MAPRED_HISTORYSERVER_OPTS': 'heap_opts', 'SPARK_DAEMON_MEMORY': 'size',
    # HA's daemons: in the plan only when a host runs them; ZooKeeper's heap is a number of MB, as in its zkEnv.sh.
    'HDFS_JOURNALNODE_OPTS': 'heap_opts', 'HDFS_ZKFC_OPTS': 'heap_opts', 'ZK_SERVER_HEAP': 'mb',
}

_ALLOWED = {
    'mb': 'a whole number of MiB above 0, such as 4096',
    'count': 'a whole number above 0',
    'partitions': 'a whole number from 1 to %d' % MAX_PARTITIONS,
    'size': 'a size above 0 such as 2048 (MiB), "640m" or "18g" (a whole number and k, m, g or t)',
    'bool': 'true or false',
    'jvm': 'JVM options as a string; a -Xmx in them must be a size above 0, such as -Xmx1638m',
    'heap_opts': 'JVM options as a string holding -Xmx<size> above 0, such as -Xmx4g',
}


def _xmx_text_ok(text, required):
    sizes = re.findall(r'-Xmx(\S*)', text)
    if not sizes:
        return not required
    for size in sizes:
        match = re.match(r'^(\d{1,12})[kKmMgG]?$', size)
        if not match or int(match.group(1)) == 0:
            return False
    return True


def override_value_error(name, value):
    """The problem with one override value of a property the planner knows (None when it is fine or unknown)."""
    kind = PROPERTY_TYPES.get(name) if isinstance(name, str) else None
    if kind is None:
        return None
    ok = False
    if kind in ('mb', 'count', 'partitions'):
        number = None
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        elif isinstance(value, str) and re.match(r'^\s*-?\d{1,30}\s*$', value):
            # The digits alone: re's \s matches separators (\x1c-\x1f) that int() does not strip.
            number = int(re.search(r'-?\d+', value).group(0))
        ok = number is not None and number >= 1 and (kind != 'partitions' or number <= MAX_PARTITIONS)
    elif kind == 'size':
        if isinstance(value, int) and not isinstance(value, bool):
            ok = value >= 1
        elif isinstance(value, str):
            match = _SPARK_SIZE_RE.match(value)
            ok = bool(match) and int(match.group(1)) >= 1
    elif kind == 'bool':
        ok = isinstance(value, bool) or (isinstance(value, str) and value.strip().lower() in ('true', 'false'))
    elif isinstance(value, str):
        ok = _xmx_text_ok(value, kind == 'heap_opts')
    if ok:
        return None
    return '%s: %r is not valid. Allowed: %s.' % (name, value, _ALLOWED[kind])


def override_errors(overrides):
    """Messages for override values of planner-managed properties with the wrong type or sign.

    Names the planner does not manage are left alone (the callers check names their own way).
    """
    if not isinstance(overrides, dict):
        return ['expected a dict of property name -> value, got %r' % (overrides,)]
    errors = []
    for name in sorted(overrides, key=str):
        problem = override_value_error(name, overrides[name])
        if problem:
            errors.append(problem)
    return errors
