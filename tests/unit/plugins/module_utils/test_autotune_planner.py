"""Autotune candidates go through the planner: the lab and the seed's shape, exact candidates, sound plans."""

import pytest
from hypothesis import given, settings, strategies as st

from ansible_collections.bigdata.spark.plugins.module_utils import autotune as A
from ansible_collections.bigdata.spark.plugins.module_utils import autotune_knobs as K
from ansible_collections.bigdata.spark.plugins.module_utils import plan as P

MASTER = ['namenode', 'resourcemanager', 'jobhistory', 'spark_history']
WORKER = ['datanode', 'nodemanager']
SEED = {'hosts': [dict(name='node%d' % i, roles=WORKER + (MASTER if i == 1 else []), cores=192,
                       memory_mb=768 * 1024, disks=4) for i in (1, 2, 3)]}
LAB = {'hosts': [
    dict(name='bd-master', roles=MASTER, cores=2, memory_mb=24 * 1024, memory_limit_mb=6 * 1024),
    dict(name='bd-worker1', roles=WORKER, cores=2, memory_mb=24 * 1024, memory_limit_mb=5 * 1024),
    dict(name='bd-worker2', roles=WORKER, cores=2, memory_mb=24 * 1024, memory_limit_mb=5 * 1024),
], 'lab': {'nodes_per_machine': 3}}


def queues(inputs, refine):
    """{knob: candidates} around the plan, as the search makes them (refused ones skipped)."""
    state = A.start(inputs, list(A.KNOB_ORDER), ['t'], 600, 60)
    state['pass'] = 1 if refine else 0
    out = {}
    for index, name in enumerate(A.KNOB_ORDER):
        state['knob_index'] = index
        A._fill_queue(state)
        out[name] = state['queue']
    return out, state['log']


START = [
    ('lab', LAB, {'executor_cores': 2, 'memory_per_core_mb': 1920, 'shuffle_partitions': 4, 'adaptive': 'true',
                  'compression_codec': 'lz4', 'map_memory_mb': 512, 'reduce_memory_mb': 1024, 'parallel_copies': 5}),
    ('seed', SEED, {'executor_cores': 5, 'memory_per_core_mb': 3891, 'shuffle_partitions': 1100, 'adaptive': 'true',
                    'compression_codec': 'lz4', 'map_memory_mb': 2048, 'reduce_memory_mb': 4096,
                    'parallel_copies': 5}),
]


@pytest.mark.parametrize('name, inputs, values', START, ids=[s[0] for s in START])
def test_start_values_are_the_plans(name, inputs, values):
    assert A.start(inputs, list(A.KNOB_ORDER), ['t'], 600, 60)['start_values'] == values


CANDIDATES = [
    ('lab', LAB, False, {
        'executor_cores': [1], 'memory_per_core_mb': [896], 'shuffle_partitions': [2, 8], 'adaptive': ['false'],
        'compression_codec': ['zstd', 'snappy'], 'map_memory_mb': [256, 1024], 'reduce_memory_mb': [512, 2048],
        'parallel_copies': [2, 10]}),
    ('lab', LAB, True, {
        'executor_cores': [1], 'memory_per_core_mb': [1280], 'shuffle_partitions': [3, 6], 'adaptive': [],
        'compression_codec': [], 'map_memory_mb': [256], 'reduce_memory_mb': [512, 1280], 'parallel_copies': [4, 7]}),
    ('seed', SEED, False, {
        'executor_cores': [2, 10], 'memory_per_core_mb': [1920, 7680], 'shuffle_partitions': [550, 2200],
        'adaptive': ['false'], 'compression_codec': ['zstd', 'snappy'], 'map_memory_mb': [1024, 4096],
        'reduce_memory_mb': [2048, 8192], 'parallel_copies': [2, 10]}),
    ('seed', SEED, True, {
        'executor_cores': [4, 6], 'memory_per_core_mb': [2688, 5376], 'shuffle_partitions': [778, 1556],
        'adaptive': [], 'compression_codec': [], 'map_memory_mb': [1024], 'reduce_memory_mb': [2048, 5120],
        'parallel_copies': [4, 7]}),
]


@pytest.mark.parametrize('name, inputs, refine, expected', CANDIDATES,
                         ids=['%s-%s' % (c[0], 'refine' if c[2] else 'coarse') for c in CANDIDATES])
def test_candidates_around_the_plan(name, inputs, refine, expected):
    got, _log = queues(inputs, refine)
    assert got == expected


def test_lab_candidates_the_planner_refuses_are_skipped_and_said():
    _got, log = queues(LAB, False)
    assert log == [
        'skipped: knobs.executor_cores: candidate 4 is refused by the planner: executor_cores: 4 is more than the '
        'NodeManager vcores of bd-worker2 (2), the largest; allowed 1..2',
        'skipped: knobs.memory_per_core_mb: candidate 3840 is refused by the planner: spark.executor.memory: no '
        'executor of 7680 MB (2 cores) fits beside the 1536 MB first container',
    ]


@pytest.mark.parametrize('name, inputs, refine, expected', CANDIDATES,
                         ids=['%s-%s' % (c[0], 'refine' if c[2] else 'coarse') for c in CANDIDATES])
def test_every_candidate_plan_is_sound(name, inputs, refine, expected):
    start = K.build(inputs, {})
    for knob, values in expected.items():
        for value in values:
            built = K.build(inputs, {knob: value}, knob=knob)
            assert P.check_invariants(built['plan']) == []
            assert K.current_value(knob, built) == value or knob == 'memory_per_core_mb'
            diff = K.differences(start, built)
            # every knob is tried per application: nothing outside spark-defaults.conf and the job's -D changes
            assert diff['cluster_files'] == []
            assert diff['spark_conf'] or diff['mr_conf']


def test_lab_memory_candidate_is_one_executor_of_the_machine():
    built = K.build(LAB, {'memory_per_core_mb': 1280})
    s = built['plan']['spark_defaults']
    assert (s['spark.executor.cores'], s['spark.executor.memory'], s['spark.executor.memoryOverhead'],
            s['spark.executor.instances'], s['spark.default.parallelism']) == ('2', '2176m', '384m', '1', '4')
    assert built['plan']['capacity']['executor_mb'] == 2560


def test_seed_memory_candidate_more_executors_per_node():
    """Smaller executors per core on the seed: 10240 MB containers (1920 x 5 rounded up to 1024 MB), 9 GiB + 1 GiB,
    still as many as the cores allow (the planned 110 beside the driver, 37 per node by cores)."""
    built = K.build(SEED, {'memory_per_core_mb': 1920})
    s = built['plan']['spark_defaults']
    assert (s['spark.executor.memory'], s['spark.executor.memoryOverhead'], s['spark.executor.instances']) == \
        ('9g', '1g', '111')
    bigger = K.build(SEED, {'executor_cores': 2, 'memory_per_core_mb': 7680})['plan']['spark_defaults']
    # 15360 MB containers: 48 per node by memory, 3 fewer beside the driver's container
    assert (bigger['spark.executor.cores'], bigger['spark.executor.instances']) == ('2', '141')


def test_a_run_says_what_to_pass():
    state = A.start(LAB, ['compression_codec', 'map_memory_mb'], ['t'], 600, 60, repetitions=2)
    state, runs = A.next_runs(state)
    assert [(r['role'], r['spark_conf'], r['scope']) for r in runs] == [
        ('baseline', {}, 'application'),
        ('candidate', {'spark.io.compression.codec': 'zstd'}, 'application'),
        ('candidate', {'spark.io.compression.codec': 'zstd'}, 'application'),
        ('baseline', {}, 'application')]
    assert all(r['mr_conf'] == {} and r['cluster_vars'] == {} for r in runs)


@settings(max_examples=60, deadline=None)
@given(cores=st.integers(2, 256), mem_gib=st.integers(8, 1024), nodes=st.integers(1, 6),
       knob=st.sampled_from(A.KNOB_ORDER), refine=st.booleans())
def test_generated_candidates_give_sound_plans(cores, mem_gib, nodes, knob, refine):
    inputs = {'hosts': [dict(name='n%d' % i, roles=WORKER + (MASTER if i == 0 else []), cores=cores,
                             memory_mb=mem_gib * 1024) for i in range(nodes)]}
    try:
        base = K.build(inputs, {})
    except A.AutotuneError:
        return  # a shape the planner refuses is its own test's business
    for value in K.generated(knob, base, refine):
        try:
            built = K.build(inputs, {knob: value}, knob=knob)
        except A.AutotuneError as exc:
            assert str(exc).startswith('knobs.%s: candidate %r is refused by the planner: ' % (knob, value))
            continue
        assert P.check_invariants(built['plan']) == []


def test_a_candidate_that_changes_yarn_site_is_a_cluster_run():
    """3 x 8 cores / 32 GiB: 6-core executors need a larger maximum allocation, so site.yml must deploy them."""
    inputs = {'hosts': [dict(name='n%d' % i, roles=WORKER + (MASTER if i == 0 else []), cores=8, memory_mb=32 * 1024)
                        for i in range(3)]}
    state = A.start(inputs, {'executor_cores': {'values': [6]}}, ['t'], 600, 60, repetitions=2)
    state, runs = A.next_runs(state)
    assert [(r['role'], r['scope'], r['cluster_vars'], r['cluster_files']) for r in runs] == [
        ('baseline', 'application', {}, []),
        ('candidate', 'cluster', {'bigdata_plan_executor_cores': 6}, ['yarn_site']),
        ('candidate', 'cluster', {'bigdata_plan_executor_cores': 6}, ['yarn_site']),
        ('baseline', 'application', {}, [])]
    built = K.build(inputs, {'executor_cores': 6})
    assert built['plan']['yarn_site']['yarn.scheduler.maximum-allocation-mb'] == '24576'
    assert runs[1]['spark_conf']['spark.executor.cores'] == '6'
