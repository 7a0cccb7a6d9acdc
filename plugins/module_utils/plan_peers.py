# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Comparison profiles: the seed's own rules (`seed`) and other tools' published rules.

Each returns the planner's numbers dict and its explanations; their broken invariants are warnings.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import math

from ansible_collections.bigdata.spark.plugins.module_utils.plan_default import nodemanagers
from ansible_collections.bigdata.spark.plugins.module_utils.plan_inputs import (
    PlanError, bracket, effective, fmt_size, parse_xmx_mb)

# The rules as seed 000 implies them (the planner's default before it departed from the seed); fixed,
# the `constants` option changes the default profile only.
SEED_CONSTANTS = {
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
    'lab_memory_granularity_mb': 256,
    'lab_nodemanager_min_mb': 2560,
}


def _round_half_up(x):
    return int(math.floor(x + 0.5))


def mr_xmx(container_mb, fraction):
    """-Xmx for a MapReduce container: fraction x container, to the nearest GiB when >= 1 GiB."""
    heap = container_mb * fraction
    if heap >= 1024:
        return '-Xmx%dg' % _round_half_up(heap / 1024.0)
    return '-Xmx%dm' % int(heap)


# ---------------------------------------------------------------- the seed profile

def _ref(nms):
    name = min(nms, key=lambda n: (nms[n]['nm_mb'], nms[n]['vcores'], n))
    return name, nms[name]


def _seed_heap_split(container_mb, c):
    heap_gib = min(int(container_mb / 1024.0 / c['heap_divisor']), int(c['heap_cap_gib']))
    heap = heap_gib * 1024
    if heap == 0 or container_mb - heap < c['min_overhead_mb']:
        heap = int(min(container_mb / c['heap_divisor'], container_mb - c['min_overhead_mb']))
    return heap, container_mb - heap


def _seed_driver(ref_memory_gib, c, workload):
    base = bracket(ref_memory_gib, c['driver_brackets_gib'], True)
    gib = base * (c['sql_heavy_driver_factor'] if workload == 'sql_heavy' else 1)
    why = 'node memory %.0f GiB gives %dg by the bracket table' % (ref_memory_gib, base)
    if workload == 'sql_heavy':
        why += ', times %s for sql_heavy' % c['sql_heavy_driver_factor']
    return int(gib * 1024), why


def plan_seed(hosts, opts, _constants, warnings):
    """Seed 000's appendix as rules: what the seed did, including where it is unsafe (warned)."""
    c = SEED_CONSTANTS
    lab = opts['lab']
    # The seed sizes NodeManagers with the same rule as the default (its numbers: 186 vcores, 737280 MB).
    nms = nodemanagers(hosts, c, lab, opts['other_services'], opts['reservations'], warnings)
    ref_name, ref = _ref(nms)
    explain = {}
    # executor cores
    default_ec = int(c['executor_cores'])
    if opts['executor_cores'] is not None:
        ec = opts['executor_cores']
        if ec > ref['vcores']:
            raise PlanError('executor_cores: %d is more than the NodeManager vcores of %s (%d); allowed 1..%d'
                            % (ec, ref_name, ref['vcores'], ref['vcores']))
        why_ec = 'given (executor_cores=%d)' % ec
    else:
        ec = min(default_ec, ref['vcores'])
        why_ec = 'the seed\'s %d, never more than the smallest NodeManager vcores (%d on %s)' % (
            default_ec, ref['vcores'], ref_name)
    ref_gib = ref['memory_mb'] / 1024.0
    mpc = max(1, int(ref_gib // ref['cores']))
    nm_gib = ref['nm_mb'] // 1024
    per_node = min(ref['vcores'] // ec, nm_gib // (ec * mpc))
    why_per = ('min(%d vcores // %d, %d GiB // (%d cores x %d GiB per core)) = %d'
               % (ref['vcores'], ec, nm_gib, ec, mpc, per_node))
    if per_node == 0:
        per_node = 1
        why_per += ', raised to 1 (one executor takes the whole NodeManager)'
    container = max(1, nm_gib // per_node) * 1024 if nm_gib else ref['nm_mb']
    why_container = ('%s on %s: memory per core floor(%.0f GiB / %d CPUs) = %d GiB; executors per node %s; '
                     'container %d GiB // %d = %d MB' % (
                         'smallest NodeManager' if len(nms) > 1 else 'each node', ref_name, ref_gib,
                         ref['cores'], mpc, why_per, nm_gib, per_node, container))
    heap, overhead = _seed_heap_split(container, c)
    per_host = {}
    for name, nm in nms.items():
        per_host[name] = min(nm['vcores'] // ec, nm['nm_mb'] // container)
    total = sum(per_host.values())
    instances = max(1, total)
    why_inst = '%d executors per node summed over %d NodeManager(s) = %d (the seed plans no room for the driver)' % (
        max(per_host.values()), len(nms), total)
    # driver and maximum allocation
    driver, why_driver = _seed_driver(ref_gib, c, opts['workload'])
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
    map_mb = bracket(ref_gib, c['map_brackets_gib'], False)
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
        'profile': ('seed: the rules behind seed 000\'s appendix (3 x 192 cores / 768 GB: 186 vcores, 737280 MB, '
                    '108 executors of 5 cores and 18g + 2g, 32g driver or 64g for TPC-DS, 2048 MB maps with '
                    '-Xmx2g); kept for comparison, with its unsafe spots reported as warnings'),
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


# ---------------------------------------------------------------- peer profiles

def _peer_nms(hosts, lab, fn):
    nms = {}
    for host in hosts:
        if 'nodemanager' in host['roles']:
            cores, memory, _notes = effective(host, lab)
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
    # Spark adds max(384 MB, 10%) of overhead to the heap; on small workers the 10% is below the floor.
    heap = int(min(container / 1.1, container - 384))
    masters = [h for h in hosts if set(h['roles']) & set(('namenode', 'resourcemanager'))]
    master_mb = effective(masters[0], opts['lab'])[1] if masters else ref['memory_mb']
    driver = master_mb // 4
    numbers = {'nms': nms, 'ref': ref_name, 'min_alloc': 1024, 'max_alloc': ref['nm_mb'], 'max_vcores': ref['vcores'],
               'map': 1024, 'reduce': 1024, 'am': 1536, 'map_xmx': '-Xmx819m', 'reduce_xmx': '-Xmx819m',
               'am_xmx': '-Xmx1024m', 'executor_cores': ec, 'heap': heap, 'overhead': container - heap,
               'container': container, 'instances': 2 * len(nms), 'driver': driver, 'partitions': 200,
               'parallelism': 2 * ec * 2 * len(nms), 'dynamic_allocation': 'false'}
    explain = {'profile': ('dataproc: 80%% of memory to YARN (%d MB); two executors per worker with half the vCPUs '
                           '(%d) and half the NodeManager memory (heap = container / 1.1, leaving at least Spark\'s '
                           '384 MB overhead floor); driver a quarter of the '
                           'master memory (%d MB); MapReduce left at Hadoop defaults'
                           % (ref['nm_mb'], ec, driver))}
    return numbers, explain


PEERS = {'seed': plan_seed, 'stock': _plan_stock, 'ambari': _plan_ambari, 'hdp': _plan_hdp, 'emr': _plan_emr,
         'cloudera': _plan_cloudera, 'dataproc': _plan_dataproc}
