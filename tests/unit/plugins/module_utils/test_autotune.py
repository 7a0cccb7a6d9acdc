"""Autotune core: bootstrap intervals, ABBA order, coordinate descent on a synthetic cluster, budget, outputs."""

import json
import math
import random

import pytest

from ansible_collections.bigdata.spark.plugins.module_utils import autotune as A
from ansible_collections.bigdata.spark.plugins.module_utils import autotune_knobs as K

MASTER = ['namenode', 'resourcemanager', 'jobhistory', 'spark_history']
WORKER = ['datanode', 'nodemanager']
SEED = [dict(name='node%d' % i, roles=WORKER + (MASTER if i == 1 else []), cores=192, memory_mb=768 * 1024, disks=4)
        for i in (1, 2, 3)]
LAB_HOSTS = [
    dict(name='bd-master', roles=MASTER, cores=2, memory_mb=24 * 1024, memory_limit_mb=6 * 1024),
    dict(name='bd-worker1', roles=WORKER, cores=2, memory_mb=24 * 1024, memory_limit_mb=5 * 1024),
    dict(name='bd-worker2', roles=WORKER, cores=2, memory_mb=24 * 1024, memory_limit_mb=5 * 1024),
]
LAB = {'hosts': LAB_HOSTS, 'lab': {'nodes_per_machine': 3}}


def runs_of(rng, level, noise, n, workloads=('terasort',)):
    return [dict((w, level * math.exp(rng.gauss(0, noise))) for w in workloads) for _i in range(n)]


# ---------------------------------------------------------------- statistics

def test_bootstrap_clear_win():
    rng = random.Random(1)
    base, cand = runs_of(rng, 100.0, 0.01, 5), runs_of(rng, 120.0, 0.01, 5)
    ci = A.bootstrap(base, cand, ['terasort'], seed=7)
    assert 1.15 < ci['low'] <= ci['ratio'] <= ci['high'] < 1.25
    assert ci['low'] > 1.03


def test_bootstrap_small_difference_in_noise_does_not_win():
    rng = random.Random(2)
    base, cand = runs_of(rng, 100.0, 0.10, 5), runs_of(rng, 102.0, 0.10, 5)
    ci = A.bootstrap(base, cand, ['terasort'], seed=7)
    assert ci['low'] < 1.03 and ci['low'] <= ci['ratio'] <= ci['high']
    assert ci['high'] - ci['low'] > 0.1  # the interval shows the noise


def test_bootstrap_false_wins_are_rare():
    """A 95% interval's lower end lies above the true ratio about 2.5% of the time, a little more with 5 runs
    (measured 3-5% for a true 1.02 against a 1.03 margin); 40 data sets give at most 3 false wins."""
    wins = 0
    for data_seed in range(40):
        rng = random.Random(100 + data_seed)
        base, cand = runs_of(rng, 100.0, 0.10, 5), runs_of(rng, 102.0, 0.10, 5)
        wins += A.bootstrap(base, cand, ['terasort'], seed=7, resamples=500)['low'] > 1.03
    assert wins <= 3


def test_bootstrap_is_deterministic_for_a_seed():
    rng = random.Random(3)
    base, cand = runs_of(rng, 100.0, 0.05, 4, ('a', 'b')), runs_of(rng, 105.0, 0.05, 4, ('a', 'b'))
    one = A.bootstrap(base, cand, ['a', 'b'], seed=11)
    assert one == A.bootstrap(base, cand, ['a', 'b'], seed=11)
    assert sorted(one['by_workload']) == ['a', 'b'] and sorted(one['spread']) == ['a', 'b']
    assert one['spread']['a'][0] <= one['by_workload']['a'] <= one['spread']['a'][1]


def test_ratio_is_the_geometric_mean_over_workloads():
    base = [{'a': 100.0, 'b': 100.0}]
    cand = [{'a': 200.0, 'b': 50.0}]
    assert A.ratio_of_medians(base, cand, ['a', 'b']) == pytest.approx(1.0)


@pytest.mark.parametrize('repetitions, order', [
    (2, 'BCCB'), (3, 'BCCBBC'), (4, 'BCCBBCCB'),
])
def test_abba_order(repetitions, order):
    assert ''.join('B' if r == 'baseline' else 'C' for r in A.abba(repetitions)) == order


# ---------------------------------------------------------------- the search on a synthetic cluster

def drive(state, cluster, seconds=None, json_roundtrip=True):
    """Run the state machine the way the playbook will, with cluster(values) -> {workload: throughput}."""
    while True:
        state, runs = A.next_runs(state)
        if not runs:
            return state
        for run in runs:
            if json_roundtrip:
                state = json.loads(json.dumps(state))  # the playbook keeps it in a file
            state = A.record(state, run['id'], cluster(run), seconds)


def surface(start_partitions, noise_seed=5, noise=0.02):
    """A fake cluster: best at 3 executor cores, 4x the plan's partitions and zstd; 2% noise."""
    rng = random.Random(noise_seed)

    def cluster(run):
        v = run['values']
        speed = math.exp(-((v['executor_cores'] - 3) / 3.0) ** 2)
        speed *= math.exp(-math.log(v['shuffle_partitions'] / (4.0 * start_partitions), 2) ** 2 / 4)
        speed *= 1.1 if v['compression_codec'] == 'zstd' else 1.0
        return {'terasort': 1000 * speed * math.exp(rng.gauss(0, noise)),
                'wordcount': 500 * speed * math.exp(rng.gauss(0, noise))}
    return cluster


def test_coordinate_descent_reaches_the_optimum_within_budget():
    inputs = {'hosts': SEED}
    state = A.start(inputs, ['executor_cores', 'shuffle_partitions', 'compression_codec'], ['terasort', 'wordcount'],
                    budget_minutes=600, seconds_per_run=60, repetitions=3, margin=1.03)
    parts = state['start_values']['shuffle_partitions']
    assert state['start_values'] == {'executor_cores': 5, 'shuffle_partitions': parts, 'compression_codec': 'lz4'}
    state = drive(state, surface(parts))
    assert state['done'] and state['stop'].startswith('searched every knob')
    best = state['best']
    assert best['executor_cores'] == 3 and best['compression_codec'] == 'zstd'
    # partitions move around the plan of the best executor size (1060 at 2 cores): 2x, 4x; the optimum is within
    # the refine step (a factor of 1.41)
    assert abs(math.log(best['shuffle_partitions'] / (4.0 * parts), 2)) < 0.5
    # The order: each knob in turn in the coarse pass (a knob that wins is tried again around its new value),
    # then the refine pass with smaller steps.
    seen = [(c['pass'], c['knob'], c['value']) for c in state['comparisons']]
    coarse = [s for s in seen if s[0] == 'coarse']
    assert [s[1] for s in coarse] == sorted([s[1] for s in coarse], key=A.KNOB_ORDER.index)
    assert coarse[:2] == [('coarse', 'executor_cores', 2), ('coarse', 'executor_cores', 10)]
    moves = [s[2] for s in coarse if s[1] == 'shuffle_partitions']
    assert moves[:4] == [530, 2120, 1060 * 4, 1060 * 8]  # down and up, then on from the winner (not back)
    refine = [s for s in seen if s[0] == 'refine']
    assert seen == coarse + refine
    assert ('refine', 'executor_cores', 3) in refine  # the smaller step finds 3 beside 2
    assert not any(s[1] == 'compression_codec' for s in refine)  # every choice was tried in the coarse pass
    assert all(c['runs'] == 6 for c in state['comparisons'])
    assert state['spent_seconds'] <= state['budget_seconds']


def test_budget_stops_with_the_best_so_far():
    inputs = {'hosts': SEED}
    state = A.start(inputs, ['compression_codec', 'executor_cores'], ['terasort'], budget_minutes=10,
                    seconds_per_run=60, repetitions=2, margin=1.03)

    def cluster(run):
        return {'terasort': 120.0 if run['values']['compression_codec'] == 'zstd' else 100.0}
    lines = []
    while True:
        state, runs = A.next_runs(state)
        if not runs:
            break
        lines.append(runs[0]['progress'])
        for run in runs:
            state = A.record(state, run['id'], cluster(run))
    # 4 runs of 60 s per candidate: zstd and snappy fit in 10 minutes, the third candidate does not
    assert [c['value'] for c in state['comparisons']] == ['zstd', 'snappy']
    assert state['stop'] == 'budget: the next candidate needs about 240 s, 120 s are left'
    assert state['best'] == {'compression_codec': 'zstd'}
    assert lines == [
        'coarse pass, knob 1/2 compression_codec=zstd against the plan: 4 runs of about 60 s; 10.0 of 10.0 min left',
        'coarse pass, knob 1/2 compression_codec=snappy against the plan: 4 runs of about 60 s; 6.0 of 10.0 min left',
    ]
    assert A.verdict(state)['runs'] == 8 and A.verdict(state)['minutes'] == 8.0


def test_measured_seconds_replace_the_estimate():
    state = A.start({'hosts': SEED}, ['adaptive'], ['t'], budget_minutes=60, seconds_per_run=10, repetitions=2)
    state, runs = A.next_runs(state)
    for run in runs:
        state = A.record(state, run['id'], {'t': 1.0}, seconds=30)
    assert A.estimate_seconds(state) == 30 and state['spent_seconds'] == 120


def test_a_failed_run_fails_the_candidate_and_the_baseline_stays():
    state = A.start({'hosts': SEED}, ['adaptive'], ['t'], budget_minutes=60, seconds_per_run=10, repetitions=2)
    state, runs = A.next_runs(state)
    state = A.record(state, runs[0]['id'], {'t': 1.0})
    state = A.record(state, runs[1]['id'], None)
    state, more = A.next_runs(state)
    assert more == [] and state['done']
    assert state['comparisons'][0]['verdict'] == 'failed' and state['best'] == {}
    assert A.winner_vars(state) == {}


# ---------------------------------------------------------------- outputs

def test_winner_vars_hold_only_the_winners():
    state = A.start({'hosts': SEED}, ['executor_cores', 'adaptive', 'compression_codec', 'parallel_copies'],
                    ['t'], budget_minutes=600, seconds_per_run=60, repetitions=2)

    def cluster(run):
        v = run['values']
        codec = 1.2 if v['compression_codec'] == 'snappy' else 1
        return {'t': 100.0 * codec * (1.1 if v['parallel_copies'] == 10 else 1)}
    state = drive(state, cluster)
    assert state['best'] == {'compression_codec': 'snappy', 'parallel_copies': 10}
    assert A.winner_vars(state) == {'spark_defaults_overrides': {'spark.io.compression.codec': 'snappy'},
                                    'mapred_site_overrides': {'mapreduce.reduce.shuffle.parallelcopies': '10'}}
    verdict = A.verdict(state)
    assert verdict['winner_vars'] == A.winner_vars(state)
    assert [k['knob'] for k in verdict['per_knob'] if k['winner'] is not None] == ['compression_codec',
                                                                                   'parallel_copies']
    lines = A.table(state)
    assert lines[0].startswith('| pass | knob | candidate | against | runs | ratio | 95% interval |')
    assert any('| coarse | compression_codec | snappy | the plan | 4 | 1.200 |' in line and line.endswith('| wins |')
               for line in lines)
    assert lines[-1] == 'Margin 1.03; searched every knob, coarse then refine; best: compression_codec=snappy, ' \
                        'parallel_copies=10.'
    plot = A.plot_data(state)
    assert plot['margin'] == 1.03 and len(plot['points']) == len(state['comparisons'])
    assert set(plot['points'][0]) == set(['label', 'ratio', 'low', 'high', 'verdict'])


def test_winner_vars_rebuild_the_best_plan_and_change_nothing_else():
    """site.yml with the winner's group_vars deploys the best point: the plan with those options, then the
    overrides merged as the roles merge them; every other property is the plan's own."""
    inputs = {'hosts': SEED, 'workload': 'sql_heavy'}
    point = {'executor_cores': 4, 'memory_per_core_mb': 3072, 'map_memory_mb': 1024, 'adaptive': 'false'}
    built = K.build(inputs, point)
    gv = K.group_vars(inputs, point, built)
    assert gv['bigdata_plan_executor_cores'] == 4
    assert sorted(gv) == ['bigdata_plan_executor_cores', 'mapred_site_overrides', 'spark_defaults_overrides']
    deployed = K.P.plan(SEED, workload='sql_heavy', executor_cores=gv['bigdata_plan_executor_cores'])
    spark = dict(deployed['spark_defaults'], **gv['spark_defaults_overrides'])
    mapred = dict(deployed['mapred_site'], **gv['mapred_site_overrides'])
    assert spark == dict(built['plan']['spark_defaults'], **{'spark.sql.adaptive.enabled': 'false'})
    assert mapred == built['plan']['mapred_site']
    assert deployed['yarn_site'] == built['plan']['yarn_site']
    assert set(gv['mapred_site_overrides']) == set(['mapreduce.map.memory.mb', 'mapreduce.map.java.opts'])


def test_state_is_json():
    state = A.start(LAB, list(A.KNOB_ORDER), ['terasort', 'wordcount'], 30, 60)
    state, runs = A.next_runs(state)
    assert json.loads(json.dumps(state)) == state
    assert json.loads(json.dumps(runs)) == runs


def test_functions_return_new_states_and_resume_pending_runs():
    state = A.start(LAB, ['compression_codec'], ['t'], 60, 60, repetitions=2)
    before = json.dumps(state, sort_keys=True)
    after, runs = A.next_runs(state)
    assert json.dumps(state, sort_keys=True) == before  # the caller's state is left alone
    after = A.record(after, runs[0]['id'], {'t': 1.0})
    again, pending = A.next_runs(after)
    assert [r['id'] for r in pending] == [r['id'] for r in runs[1:]]  # after a restart: the runs still to do
    assert again['log'] == after['log']


def test_progress_and_log_say_each_step():
    state = A.start(LAB, ['compression_codec'], ['t'], 60, 60, repetitions=2)
    state = drive(state, lambda run: {'t': 110.0 if run['values']['compression_codec'] == 'zstd' else 100.0})
    assert state['log'] == [
        'coarse pass, knob 1/1 compression_codec=zstd against the plan: 4 runs of about 60 s; 60.0 of 60.0 min left',
        'compression_codec=zstd: ratio 1.100, 95% interval 1.100-1.100, margin 1.03: wins',
        'coarse pass, knob 1/1 compression_codec=snappy against the plan: 4 runs of about 60 s; 56.0 of 60.0 min left',
        'compression_codec=snappy: ratio 1.000, 95% interval 1.000-1.000, margin 1.03: baseline stays',
        'coarse pass, compression_codec: keeps compression_codec=zstd (ratio 1.100)',
        'coarse pass, knob 1/1 compression_codec=snappy against compression_codec=zstd: 4 runs of about 60 s; '
        '52.0 of 60.0 min left',
        'compression_codec=snappy: ratio 0.909, 95% interval 0.909-0.909, margin 1.03: baseline stays',
        'coarse pass, compression_codec: keeps the baseline (no candidate cleared the margin)',
        'done: searched every knob, coarse then refine; best: compression_codec=zstd',
    ]
    assert A.verdict(state)['per_knob'] == [
        {'pass': 'coarse', 'knob': 'compression_codec', 'tried': ['zstd', 'snappy'], 'winner': 'zstd',
         'verdict': 'compression_codec=zstd (ratio 1.100)'},
        {'pass': 'coarse', 'knob': 'compression_codec', 'tried': ['snappy'], 'winner': None,
         'verdict': 'the baseline (no candidate cleared the margin)'},
    ]
