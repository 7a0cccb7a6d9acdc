# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""The plan's explanations: the sentences of `explain`, built from the numbers and facts the arithmetic returns.

plan_default computes; this module only words what it computed (no sizing rule lives here), so a reader takes
the rules and their prose one at a time. Plain functions over plain values: no Ansible imports, no file or
network access.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.bigdata.spark.plugins.module_utils.plan_inputs import fmt_size


# ---------------------------------------------------------------- NodeManagers

def nodemanager_why(f):
    """why_memory and why_vcores of one NodeManager, from the facts nodemanagers() kept in nm['why'] (with the
    constants of the profile's rule, c)."""
    c = f['c']
    why_v = ('%d CPU(s) less ceil(%d / %d) = %d kept back for the OS and the daemons'
             % (f['cores'], f['cores'], c['cores_per_kept_core'], f['keep']))
    if f['lab']:
        why_v = ('lab mode: the %d CPU(s) of the machine, none kept back per node (the nodes share them; the '
                 'executors together take at most that many)' % f['cores'])
    why_m = ('kept back max(min(%s GiB, %s x memory), %s x memory) = %d MB for the OS and the daemons'
             % (c['reserve_cap_gib'], c['reserve_fraction'], c['reserve_floor_fraction'], f['rule_reserved']))
    if f['given_memory_mb'] is not None:
        why_m = 'kept back %d MB (given in reservations)' % f['given_memory_mb']
    if f['given_vcores'] is not None:
        why_v = '%d CPU(s) less %d reserved (given in reservations)' % (f['cores'], f['given_vcores'])
    for name, memory_mb, vcores in f['services']:
        why_m += ', plus %d MB for %s' % (memory_mb, name)
        why_v += ', less %d for %s' % (vcores, name)
    for daemon, memory_mb in f['daemons']:
        why_m += ', plus %d MB for the heap of %s' % (memory_mb, daemon)
    if f['raised']:
        why_v += '; raised to 1, what the node has, so it can run a container'
    why_memory = '%s%d MB of memory, %s: %d MB left for containers, in %s.' % (
        ''.join(n + '; ' for n in f['notes']), f['memory_mb'], why_m, f['nm_mb'],
        'whole GiB' if f['grain'] == 1024 else '%d MB steps' % f['grain'])
    return why_memory, why_v + '.'


# ---------------------------------------------------------------- the default profile's pieces

def first_container(cluster_mode, drv_container, am_container):
    """The container YARN starts first: the driver's (cluster mode) or the ApplicationMaster's (client mode)."""
    return ('the driver\'s %d MB container (cluster mode)' % drv_container if cluster_mode
            else 'the ApplicationMaster\'s %d MB container (client mode)' % am_container)


def driver_why(f, c):
    why = 'node memory %.0f GiB gives %s by the bracket table' % (f['ref_gib'], fmt_size(f['base_gib'] * 1024))
    if f['workload'] == 'sql_heavy':
        why += ', times %s for sql_heavy = %s' % (c['sql_heavy_driver_factor'], fmt_size(f['asked']))
    if f['lowered_to'] is not None:
        why += '; lowered to %s so its container stays within %s of the largest NodeManager (%d MB)' % (
            fmt_size(f['lowered_to']), c['driver_max_nm_fraction'], f['largest_nm'])
    return why


def am_why(f):
    why = ('the client-mode ApplicationMaster only asks YARN for containers: %s for %.0f GiB nodes by the bracket '
           'table (Spark\'s default is 512m)' % (fmt_size(f['asked']), f['ref_gib']))
    if f['small']:
        why += '; 512m on these small nodes'
    return why


def executor_cores_why(f, c):
    if f['source'] == 'given':
        return 'given (executor_cores=%d)' % f['ec']
    if f['source'] == 'lab':
        return ('lab mode: the nodes share the machine\'s %d CPU(s), so the executors together get that many, in '
                'as few executors as possible (%d cores each)' % (f['machine_cores'], f['ec']))
    return ('the default %d unless a smaller size (down to half, or a smaller NodeManager\'s vcores) keeps the '
            'cluster more than %d%% busier' % (int(c['executor_cores']), round(100 * c['executor_cores_gain'])))


def partitions_why(f, c):
    if f['shuffle_data_bytes']:
        return ('Partitions = ceil(%d bytes of shuffle / %d bytes per partition) = %d, never below %s x %d executor '
                'cores = %d' % (f['shuffle_data_bytes'], c['bytes_per_partition'], f['by_data'],
                                c['partitions_per_core'], f['total_cores'], f['floor_parts']))
    return 'No shuffle_data_bytes given: %s x %d executor cores' % (c['partitions_per_core'], f['total_cores'])


def explain_default(w, c):
    """The default profile's explain, from what plan_default() returned as its `why`."""
    lab = w['lab']
    map_mb, reduce_mb, container, ec = w['map_mb'], w['reduce_mb'], w['container'], w['ec']
    frac = c['mr_heap_fraction']
    first_what = first_container(w['cluster_mode'], w['drv_container'], w['am_container'])
    per_host = w['per_host']
    return {
        'yarn.scheduler.minimum-allocation-mb': (
            'The smallest container YARN grants, and the step every request is rounded up to: min(%d, the %d MB map '
            'container%s), so small maps are not rounded up.' % (
                c['min_allocation_mb'], map_mb, ', the lab\'s %d MB steps' % c['lab_memory_granularity_mb']
                if lab else '')),
        'yarn.scheduler.maximum-allocation-mb': (
            'The largest container the plan asks for (executor %d MB, driver %d MB, client AM %d MB, reduce %d MB) '
            'rounded up to a multiple of %d GiB, never above the largest NodeManager (%s, %d MB).' % (
                container, w['drv_container'], w['am_container'], reduce_mb, w['step'] // 1024, w['largest_name'],
                w['largest_nm'])),
        'yarn.scheduler.maximum-allocation-vcores': 'The most vcores of any NodeManager, so an executor of %d cores '
                                                    'is accepted.' % ec,
        'spark.executor.cores': 'Cores per executor: %s; %d chosen.' % (executor_cores_why(w['ec_facts'], c), ec),
        'spark.executor.memory': (
            'Executor containers of %d MB: of the candidate shapes (containers of %d MB to %d GiB in %d MB steps), '
            'the one that keeps the cluster busiest, i.e. the most (executor cores granted) x (executor memory '
            'granted), counting only executors that fit beside %s. The heap is the container less an overhead of '
            'about a tenth of the heap (at least %d MB), rounded down = %s.' % (
                container, max(int(c['min_executor_mb']), w['min_alloc']), int(c['heap_cap_gib'] * c['heap_divisor']),
                w['min_alloc'], first_what, c['min_overhead_mb'], fmt_size(w['heap']))),
        'spark.executor.memoryOverhead': 'The rest of the %d MB container: %d MB (at least %d MB, Spark\'s floor).' % (
            container, w['overhead'], c['min_overhead_mb']),
        'spark.executor.instances': (
            'By cores and memory, %d executors fit the NodeManagers (%s); YARN can grant %d beside %s, placed on the '
            'node where it costs the most; the plan asks for %d, so every executor asked for is granted.' % (
                w['planned'], ', '.join('%s %d' % (n, per_host[n]) for n in sorted(per_host)),
                w['beside'], first_what, w['instances'])),
        'spark.driver.memory': 'Driver heap: %s (sized on %s); its container is %d MB with %d MB of overhead.' % (
            driver_why(w['driver_facts'], c), w['where'], w['drv_container'], w['drv_over']),
        'spark.yarn.am.memory': 'Client-mode ApplicationMaster heap: %s; its container is %d MB with %d MB of '
                                'overhead.' % (am_why(w['am_facts']), w['am_container'], w['am_over']),
        'spark.sql.shuffle.partitions': partitions_why(w['parts_facts'], c) + '.',
        'spark.default.parallelism': 'Parallelism = %s x %d executor cores (%d executors x %d cores).' % (
            c['parallelism_per_core'], w['total_cores'], w['instances'], ec),
        'spark.dynamicAllocation.enabled': 'Off (false): the plan fixes spark.executor.instances.',
        'mapreduce.map.memory.mb': ('Map container by the node memory of %s (%.0f GiB): <= 4/8/24 GiB gives '
                                    '256/512/1024 MB, more gives 2048 MB.' % (w['where'], w['ref_gib'])),
        'mapreduce.reduce.memory.mb': 'Reduces get %s x the map container.' % c['reduce_factor'],
        'yarn.app.mapreduce.am.resource.mb': 'The MapReduce ApplicationMaster gets a reduce-sized container.',
        'mapreduce.map.java.opts': ('The heap (-Xmx) is %s x the %d MB container, in MB, leaving the rest for the '
                                    'JVM\'s non-heap memory so the physical-memory check does not kill the task.'
                                    % (frac, map_mb)),
        'mapreduce.reduce.java.opts': 'The heap (-Xmx) is %s x the %d MB container, in MB.' % (frac, reduce_mb),
        'yarn.app.mapreduce.am.command-opts': 'The heap (-Xmx) is %s x the %d MB container, in MB.' % (frac, reduce_mb),
    }


# ---------------------------------------------------------------- daemon heaps

def explain_heaps(heaps, why):
    """hadoop_env.* explanations, in the order daemon_heaps() sized them; why maps env name -> its rule's facts."""
    explain = {}
    for key, f in why.items():
        if f['rule'] == 'lab':
            text = 'Lab mode: a small fixed heap of %s.' % fmt_size(heaps[key])
        elif f['rule'] == 'share':
            text = '%s has %.0f GiB: %.0f / %d GiB, kept between 1 and %d GiB.' % (
                f['where'], f['gib'], f['gib'], f['divisor'], f['cap'])
        elif f['rule'] == 'history':
            text = '%s has %.0f GiB: 2g from 64 GiB, else 1g.' % (f['where'], f['gib'])
        elif f['rule'] == 'steps':
            first, more = f['steps'][0], f['steps'][1:]
            text = '%s, the smallest host that runs it, has %.0f GiB: %s%s.' % (
                f['where'], f['gib'], fmt_size(first[1]),
                ''.join(', %s from %d GiB' % (fmt_size(mb), least) for least, mb in more))
        else:
            text = 'Client commands (hdfs dfs, yarn) get 1g.'
        explain['hadoop_env.' + key] = text
    return explain


# ---------------------------------------------------------------- every profile

def explain_lab(lab, c, heaps):
    return ('Lab mode: %d nodes share one machine. Each container can use all of its CPUs and counts its share of '
            'the memory (capped by its container limit); the executors of all nodes together never exceed the '
            'machine\'s CPUs, in as few executors as possible (one JVM with its shuffle local was the fastest '
            'measured, docs/sizing.md); memory moves in %d MB steps; daemon heaps are %d-%dm. The rest are the '
            'rules of any small cluster.' % (lab['nodes_per_machine'], c['lab_memory_granularity_mb'],
                                             min(heaps.values()), max(heaps.values())))


def explain_capacity(result):
    cap = result['capacity']
    return (
        'What YARN can grant, counted as the ResourceManager does (memory only, every request rounded up to the '
        '%s MB minimum allocation, the first container on the node where it costs the most): %d executors beside '
        'the driver\'s %d MB container (cluster mode), %d beside the %d MB client-mode ApplicationMaster, %d maps '
        'of %d MB beside a %d MB MapReduce ApplicationMaster.' % (
            result['yarn_site']['yarn.scheduler.minimum-allocation-mb'], cap['cluster'], cap['driver_mb'],
            cap['client'], cap['am_mb'], cap['mapreduce']['maps'], cap['mapreduce']['map_mb'],
            cap['mapreduce']['am_mb']))
