"""Bad autotune input: every case raises AutotuneError before anything runs, naming the field and what is allowed."""

import pytest

from ansible_collections.bigdata.spark.plugins.module_utils import autotune as A

MASTER = ['namenode', 'resourcemanager', 'jobhistory', 'spark_history']
WORKER = ['datanode', 'nodemanager']
LAB = {'hosts': [
    dict(name='bd-master', roles=MASTER, cores=2, memory_mb=24 * 1024, memory_limit_mb=6 * 1024),
    dict(name='bd-worker1', roles=WORKER, cores=2, memory_mb=24 * 1024, memory_limit_mb=5 * 1024),
    dict(name='bd-worker2', roles=WORKER, cores=2, memory_mb=24 * 1024, memory_limit_mb=5 * 1024),
], 'lab': {'nodes_per_machine': 3}}
GOOD = dict(plan_inputs=LAB, knobs=['adaptive'], workloads=['terasort'], budget_minutes=60, seconds_per_run=60)
ALLOWED = 'executor_cores, memory_per_core_mb, shuffle_partitions, adaptive, compression_codec, map_memory_mb, ' \
          'reduce_memory_mb, parallel_copies'


def v(name):
    return {name: {'values': []}}


CASES = [
    ('unknown knob', dict(knobs=['executor_cores', 'turbo']), "knobs: unknown knob 'turbo'; allowed: " + ALLOWED),
    ('unknown knob in a dict', dict(knobs={'turbo': None}), "knobs: unknown knob 'turbo'; allowed: " + ALLOWED),
    ('no knobs', dict(knobs=[]), 'knobs: empty; give at least one of: ' + ALLOWED),
    ('knobs not a list', dict(knobs='executor_cores'), 'knobs: expected a list of knob names or a dict'),
    ('a knob twice', dict(knobs=['adaptive', 'adaptive']), 'knobs: adaptive is given twice'),
    ('empty candidate list', dict(knobs=v('executor_cores')),
     'knobs.executor_cores.values: empty candidate list; give at least one value'),
    ('candidates not a list', dict(knobs={'executor_cores': {'values': 2}}),
     'knobs.executor_cores.values: expected a list of candidate values, got 2'),
    ('unknown knob option', dict(knobs={'executor_cores': {'steps': 2}}),
     "knobs.executor_cores: expected null or {values: [...]}, got {'steps': 2}"),
    ('codec not a choice', dict(knobs={'compression_codec': {'values': ['zstd', 'gzip']}}),
     "knobs.compression_codec.values[1]: 'gzip' is not a choice; allowed: lz4, zstd, snappy"),
    ('aqe not a choice', dict(knobs={'adaptive': {'values': ['maybe']}}),
     "knobs.adaptive.values[0]: 'maybe' is not a choice; allowed: true, false"),
    ('zero partitions', dict(knobs={'shuffle_partitions': {'values': [0]}}),
     'knobs.shuffle_partitions.values[0]: must be from 1 to 2147483647, got 0'),
    ('text cores', dict(knobs={'executor_cores': {'values': ['four']}}),
     "knobs.executor_cores.values[0]: expected a whole number from 1 to 8192, got 'four'"),
    ('too many copies', dict(knobs={'parallel_copies': {'values': [5000]}}),
     'knobs.parallel_copies.values[0]: must be from 1 to 1000, got 5000'),
    ('cores refused by the planner', dict(knobs={'executor_cores': {'values': [1, 8]}}),
     'knobs.executor_cores: candidate 8 is refused by the planner: executor_cores: 8 is more than the NodeManager '
     'vcores of bd-worker2 (2), the largest; allowed 1..2'),
    ('executor memory refused by the planner', dict(knobs={'memory_per_core_mb': {'values': [4096]}}),
     'knobs.memory_per_core_mb: candidate 4096 is refused by the planner: spark.executor.memory: no executor of '
     '8192 MB (2 cores) fits beside the 1536 MB first container'),
    ('map above reduce refused by the planner', dict(knobs={'map_memory_mb': {'values': [2048]}}),
     'knobs.map_memory_mb: candidate 2048 is refused by the planner: overrides: the overridden plan breaks an '
     'invariant: mapreduce.reduce.memory.mb < mapreduce.map.memory.mb'),
    ('reduce below map refused by the planner', dict(knobs={'reduce_memory_mb': {'values': [256]}}),
     'knobs.reduce_memory_mb: candidate 256 is refused by the planner: overrides: the overridden plan breaks an '
     'invariant: mapreduce.reduce.memory.mb < mapreduce.map.memory.mb'),
    ('zero budget', dict(budget_minutes=0), 'budget_minutes: must be a number of minutes above 0, got 0'),
    ('negative budget', dict(budget_minutes=-5), 'budget_minutes: must be a number of minutes above 0, got -5'),
    ('text budget', dict(budget_minutes='1h'), "budget_minutes: expected a number of minutes above 0, got '1h'"),
    ('nan budget', dict(budget_minutes=float('nan')), 'budget_minutes: expected a number of minutes above 0'),
    ('zero seconds per run', dict(seconds_per_run=0), 'seconds_per_run: must be an estimate of the seconds one run '
                                                      'takes, above 0, got 0'),
    ('one repetition', dict(repetitions=1), 'repetitions: expected a whole number from 2 to 50'),
    ('float repetitions', dict(repetitions=2.5), 'repetitions: expected a whole number from 2 to 50'),
    ('margin below 1', dict(margin=0.97), 'margin: must be a ratio of at least 1, such as 1.03'),
    ('text margin', dict(margin='3%'), "margin: expected a ratio of at least 1, such as 1.03"),
    ('few resamples', dict(resamples=10), 'resamples: expected a whole number from 100 to 100000, got 10'),
    ('confidence as percent', dict(confidence=95), 'confidence: expected a fraction from 0.5 to below 1'),
    ('no workloads', dict(workloads=[]), 'workloads: expected a non-empty list of workload names'),
    ('workload twice', dict(workloads=['sort', 'sort']), 'workloads: a workload is given twice: sort, sort'),
    ('plan inputs not a dict', dict(plan_inputs=['h']), 'plan_inputs: expected a dict of plan() arguments with hosts'),
    ('unknown plan input', dict(plan_inputs=dict(LAB, cores=4)), "plan_inputs: unknown key 'cores'; allowed: hosts"),
    ('plan inputs the planner refuses', dict(plan_inputs=dict(LAB, profile='magic')),
     "plan_inputs: the planner refuses them: profile: unknown profile 'magic'"),
]


@pytest.mark.parametrize('name, change, message', CASES, ids=[c[0] for c in CASES])
def test_bad_input(name, change, message):
    args = dict(GOOD, **change)
    with pytest.raises(A.AutotuneError) as err:
        A.start(**args)
    assert message in str(err.value)


def test_good_input_starts():
    state = A.start(**GOOD)
    assert state['start_values'] == {'adaptive': 'true'} and not state['done']


@pytest.fixture
def pending():
    inputs = dict(GOOD)
    inputs['workloads'] = ['terasort', 'sort']
    state = A.start(**inputs)
    state, runs = A.next_runs(state)
    return state, runs


RECORD_CASES = [
    ('unknown run', lambda runs: (999, {'terasort': 1, 'sort': 1}), 'run_id: 999 is not pending; pending: 1, 2, 3, '),
    ('missing workload', lambda runs: (runs[0]['id'], {'terasort': 1.0}),
     'throughput_by_workload: no throughput for workload sort; every run needs: terasort, sort'),
    ('zero throughput', lambda runs: (runs[0]['id'], {'terasort': 0, 'sort': 1}),
     'throughput_by_workload.terasort: must be a throughput above 0, got 0'),
    ('text throughput', lambda runs: (runs[0]['id'], {'terasort': 'fast', 'sort': 1}),
     "throughput_by_workload.terasort: expected a throughput above 0, got 'fast'"),
    ('not a dict', lambda runs: (runs[0]['id'], [1, 2]), 'throughput_by_workload: expected a dict workload -> '),
]


@pytest.mark.parametrize('name, make, message', RECORD_CASES, ids=[c[0] for c in RECORD_CASES])
def test_bad_record(pending, name, make, message):
    state, runs = pending
    run_id, value = make(runs)
    with pytest.raises(A.AutotuneError) as err:
        A.record(state, run_id, value)
    assert message in str(err.value)


def test_a_run_is_recorded_once(pending):
    state, runs = pending
    state = A.record(state, runs[0]['id'], {'terasort': 1, 'sort': 1})
    with pytest.raises(A.AutotuneError) as err:
        A.record(state, runs[0]['id'], {'terasort': 1, 'sort': 1})
    assert 'run_id: 1 is not pending; pending: 2, 3, 4, 5, 6' in str(err.value)


def test_record_before_next_runs():
    with pytest.raises(A.AutotuneError) as err:
        A.record(A.start(**GOOD), 1, {'terasort': 1})
    assert 'run_id: 1 is not pending; call next_runs first' in str(err.value)
