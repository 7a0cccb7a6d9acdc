# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Autotune knobs: the named settings the search moves, how a value becomes planner input, its candidates.

Plain functions over plain values: no Ansible imports, no file or network access.
A point is a dict {knob: value} of the knobs moved away from the plan; a knob not in it is the planner's choice.
Every point is built through plan() so the planner's invariants hold. The method is in docs/autotune.md.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import math

from ansible_collections.bigdata.spark.plugins.module_utils import plan as P
from ansible_collections.bigdata.spark.plugins.module_utils.plan_inputs import lab_machine_cores


class AutotuneError(ValueError):
    """Invalid autotune input; the message names the field and what is allowed."""


SPARK_AQE = 'spark.sql.adaptive.enabled'
SPARK_CODEC = 'spark.io.compression.codec'
MR_COPIES = 'mapreduce.reduce.shuffle.parallelcopies'

# The plan() keyword arguments a search starts from (what playbooks/resource_plan.yml passes).
PLAN_INPUTS = ('hosts', 'profile', 'executor_cores', 'workload', 'shuffle_data_bytes', 'driver_deploy_mode',
               'reservations', 'other_services', 'lab', 'overrides', 'constants', 'push_shuffle')

# Every knob: how it reaches the planner (option, overrides, or extra: a property the planner does not know),
# where a winner is written, how candidates are made (steps 'mul': x/f and x*f; 'add': x-d and x+d; 'choice': the
# other choices), the coarse and refine step, and bounds. Scope: every knob here is set per application during the
# search (Spark --conf, MapReduce -D); a candidate whose plan changes a cluster file (yarn-site, the env files) is
# a cluster-wide run instead (the run says so: scope 'cluster').
KNOBS = {
    'executor_cores': {
        'how': 'option', 'scope': 'application', 'steps': 'mul', 'coarse': 2.0, 'refine': 1, 'low': 1,
        'high': P.MAX_CORES, 'writes': 'bigdata_plan_executor_cores',
        'doc': 'spark.executor.cores, through plan(executor_cores=N): the planner resizes executors around it',
    },
    'memory_per_core_mb': {
        'how': 'overrides', 'scope': 'application', 'steps': 'mul', 'coarse': 2.0, 'refine': math.sqrt(2), 'low': 256,
        'writes': 'spark_defaults_overrides',
        'doc': 'executor container MB per core (so executors per node): spark.executor.memory, memoryOverhead, '
               'instances and default.parallelism as plan() overrides',
    },
    'shuffle_partitions': {
        'how': 'overrides', 'scope': 'application', 'steps': 'mul', 'coarse': 2.0, 'refine': math.sqrt(2), 'low': 1,
        'high': P.MAX_PARTITIONS, 'property': 'spark.sql.shuffle.partitions', 'writes': 'spark_defaults_overrides',
        'doc': 'spark.sql.shuffle.partitions as a plan() override',
    },
    'adaptive': {
        'how': 'extra', 'scope': 'application', 'steps': 'choice', 'choices': ('true', 'false'), 'default': 'true',
        'property': SPARK_AQE, 'writes': 'spark_defaults_overrides',
        'doc': 'Spark SQL adaptive query execution (AQE), on by default since Spark 3.2',
    },
    'compression_codec': {
        'how': 'extra', 'scope': 'application', 'steps': 'choice', 'choices': ('lz4', 'zstd', 'snappy'),
        'default': 'lz4', 'property': SPARK_CODEC, 'writes': 'spark_defaults_overrides',
        'doc': 'spark.io.compression.codec (shuffle, broadcast, spills); lz4 by default',
    },
    'map_memory_mb': {
        'how': 'overrides', 'scope': 'application', 'steps': 'mul', 'coarse': 2.0, 'refine': math.sqrt(2), 'low': 256,
        'writes': 'mapred_site_overrides',
        'doc': 'mapreduce.map.memory.mb and its -Xmx (mr_heap_fraction of it) as plan() overrides',
    },
    'reduce_memory_mb': {
        'how': 'overrides', 'scope': 'application', 'steps': 'mul', 'coarse': 2.0, 'refine': math.sqrt(2), 'low': 256,
        'writes': 'mapred_site_overrides',
        'doc': 'mapreduce.reduce.memory.mb and its -Xmx as plan() overrides',
    },
    'parallel_copies': {
        'how': 'extra', 'scope': 'application', 'steps': 'mul', 'coarse': 2.0, 'refine': math.sqrt(2), 'low': 1,
        'high': 1000, 'default': 5, 'property': MR_COPIES, 'writes': 'mapred_site_overrides',
        'doc': 'mapreduce.reduce.shuffle.parallelcopies (Hadoop\'s default 5)',
    },
}
MEMORY_PER_CORE_STEP_MB = 128
KNOB_ORDER = ('executor_cores', 'memory_per_core_mb', 'shuffle_partitions', 'adaptive', 'compression_codec',
              'map_memory_mb', 'reduce_memory_mb', 'parallel_copies')


# ---------------------------------------------------------------- values

def _plain_int(value, field, low, high):
    if isinstance(value, bool) or not isinstance(value, int):
        raise AutotuneError('%s: expected a whole number from %d to %d, got %r' % (field, low, high, value))
    if value < low or value > high:
        raise AutotuneError('%s: must be from %d to %d, got %d' % (field, low, high, value))
    return value


def check_value(name, value, field):
    """A candidate value of knob name in its own type and bounds (the planner checks the rest)."""
    knob = KNOBS[name]
    if knob['steps'] == 'choice':
        text = str(value).lower() if isinstance(value, bool) else value
        if text not in knob['choices']:
            raise AutotuneError('%s: %r is not a choice; allowed: %s' % (field, value, ', '.join(knob['choices'])))
        return text
    return _plain_int(value, field, knob['low'], knob.get('high', P.MAX_MEMORY_MB))


def _mr_heap_fraction(plan_inputs):
    return P.norm_constants(plan_inputs.get('constants'))['mr_heap_fraction']


def _memory_overrides(plan_inputs, result, mb_per_core):
    """spark.executor.* for containers of mb_per_core per core, counted the way the planner counts them."""
    c = P.norm_constants(plan_inputs.get('constants'))
    s = result['spark_defaults']
    ec = int(s['spark.executor.cores'])
    step = int(result['yarn_site']['yarn.scheduler.minimum-allocation-mb'])
    container = P.roundup(mb_per_core * ec, step)
    heap, overhead = P.executor_split(container, c)
    nms = [(int(nm[P.NM_MEMORY]), int(nm[P.NM_VCORES])) for _n, nm in sorted(result['nodemanagers'].items())]
    cap = result['capacity']
    first = cap['driver_mb'] if result['driver_deploy_mode'] == 'cluster' else cap['am_mb']
    fit = sum(min(vcores // ec, mb // container) for mb, vcores in nms)
    instances = min(fit, P.beside([mb for mb, _v in nms], container, first))
    machine = lab_machine_cores(P.norm_hosts(plan_inputs['hosts']), P.norm_lab(plan_inputs.get('lab')))
    if machine:
        instances = min(instances, max(1, machine // ec))
    if instances < 1 or heap < 1:
        raise P.PlanError('spark.executor.memory: no executor of %d MB (%d cores) fits beside the %d MB first '
                          'container' % (container, ec, first))
    return {
        'spark.executor.memory': P.fmt_size(heap),
        'spark.executor.memoryOverhead': P.fmt_size(overhead),
        'spark.executor.instances': str(instances),
        'spark.default.parallelism': str(max(1, int(c['parallelism_per_core'] * instances * ec))),
    }


def knob_overrides(name, value, plan_inputs, result):
    """The plan() overrides that put knob name at value, from the plan without them."""
    if name == 'memory_per_core_mb':
        return _memory_overrides(plan_inputs, result, value)
    if name == 'shuffle_partitions':
        return {'spark.sql.shuffle.partitions': str(value)}
    frac = _mr_heap_fraction(plan_inputs)
    if name == 'map_memory_mb':
        return {'mapreduce.map.memory.mb': str(value), 'mapreduce.map.java.opts': '-Xmx%dm' % int(value * frac)}
    if name == 'reduce_memory_mb':
        return {'mapreduce.reduce.memory.mb': str(value), 'mapreduce.reduce.java.opts': '-Xmx%dm' % int(value * frac)}
    return {}


def _order(point):
    return [k for k in KNOB_ORDER if k in point]


def build(plan_inputs, point, knob=None):
    """{'plan': plan() of the point, 'extras': {property: value}, 'overrides': {property: value}}.

    knob names the candidate being built, so a refusal names it; the planner's message is quoted.
    """
    kwargs = dict(plan_inputs)
    try:
        if 'executor_cores' in point:
            kwargs['executor_cores'] = point['executor_cores']
        result = P.plan(**kwargs)
        overrides = {}
        for name in _order(point):
            if KNOBS[name]['how'] == 'overrides':
                overrides.update(knob_overrides(name, point[name], plan_inputs, result))
        if overrides:
            merged = dict(plan_inputs.get('overrides') or {})
            merged.update(overrides)
            kwargs['overrides'] = merged
            result = P.plan(**kwargs)
    except P.PlanError as exc:
        if knob is None:
            raise AutotuneError('plan_inputs: the planner refuses them: %s' % exc)
        raise AutotuneError('knobs.%s: candidate %r is refused by the planner: %s' % (knob, point.get(knob), exc))
    extras = {}
    for name in _order(point):
        if KNOBS[name]['how'] == 'extra':
            extras[KNOBS[name]['property']] = str(point[name])
    return {'plan': result, 'extras': extras, 'overrides': overrides}


def current_value(name, built):
    """The value knob name has in a built point (the planner's choice unless the point moves it)."""
    plan = built['plan']
    knob = KNOBS[name]
    if knob['how'] == 'extra':
        value = built['extras'].get(knob['property'], knob['default'])
        return int(value) if knob['steps'] != 'choice' else value
    if name == 'executor_cores':
        return int(plan['spark_defaults']['spark.executor.cores'])
    if name == 'memory_per_core_mb':
        return plan['capacity']['executor_mb'] // int(plan['spark_defaults']['spark.executor.cores'])
    if name == 'shuffle_partitions':
        return int(plan['spark_defaults']['spark.sql.shuffle.partitions'])
    if name == 'map_memory_mb':
        return int(plan['mapred_site']['mapreduce.map.memory.mb'])
    return int(plan['mapred_site']['mapreduce.reduce.memory.mb'])


def _granule(name, built):
    """Candidates of memory knobs move in steps of the minimum allocation (128 MB per core for executors, whose
    containers are then rounded up to the minimum allocation)."""
    step = int(built['plan']['yarn_site']['yarn.scheduler.minimum-allocation-mb'])
    if name == 'memory_per_core_mb':
        return MEMORY_PER_CORE_STEP_MB
    if name in ('map_memory_mb', 'reduce_memory_mb'):
        return step
    return 1


def generated(name, built, refine):
    """Candidate values around the knob's current value: coarse steps first pass, smaller steps when refining."""
    knob = KNOBS[name]
    cur = current_value(name, built)
    if knob['steps'] == 'choice':
        return [] if refine else [v for v in knob['choices'] if v != cur]
    step = knob['refine'] if refine else knob['coarse']
    if knob['steps'] == 'add' or (name == 'executor_cores' and refine):
        raw = [cur - step, cur + step]
    else:
        raw = [int(round(cur / step)), int(round(cur * step))]
    grain = _granule(name, built)
    high = knob.get('high', P.MAX_MEMORY_MB)
    out = []
    for value in raw:
        value = max(grain, value // grain * grain) if grain > 1 else value
        if knob['low'] <= value <= high and value != cur and value not in out:
            out.append(value)
    return out


def describe(point):
    """'executor_cores=4, adaptive=false', or 'the plan' for the empty point."""
    return ', '.join('%s=%s' % (k, point[k]) for k in _order(point)) or 'the plan'


# ---------------------------------------------------------------- how a built point differs from the plan

def differences(start, built):
    """What a run at built changes from the deployed start: Spark --conf, MapReduce -D, cluster files."""
    a, b = start['plan'], built['plan']
    spark = dict((k, v) for k, v in sorted(b['spark_defaults'].items()) if a['spark_defaults'].get(k) != v)
    mr = dict((k, v) for k, v in sorted(b['mapred_site'].items()) if a['mapred_site'].get(k) != v)
    for prop, value in sorted(built['extras'].items()):
        (spark if prop.startswith('spark.') else mr)[prop] = value
    cluster = []
    for section in ('yarn_site', 'hadoop_env', 'spark_env', 'nodemanagers'):
        if a[section] != b[section]:
            cluster.append(section)
    return {'spark_conf': spark, 'mr_conf': mr, 'cluster_files': cluster}


def group_vars(plan_inputs, point, built):
    """The group_vars that make site.yml deploy point: options, and the overrides of the moved knobs only."""
    out = {}
    for name in _order(point):
        knob = KNOBS[name]
        if knob['how'] == 'option':
            out[knob['writes']] = point[name]
            continue
        if knob['how'] == 'extra':
            props = {knob['property']: str(point[name])}
        else:
            props = knob_overrides(name, point[name], plan_inputs, _before_overrides(plan_inputs, point))
        out.setdefault(knob['writes'], {}).update(props)
    return out


def _before_overrides(plan_inputs, point):
    """The plan of point before the knobs' overrides (what build computed them from)."""
    kwargs = dict(plan_inputs)
    if 'executor_cores' in point:
        kwargs['executor_cores'] = point['executor_cores']
    return P.plan(**kwargs)
