"""Autotune's glue to the playbook: plan inputs, knobs from the role's variables, throughputs from result.json,
the group_vars a deploy or the proposal writes, each candidate's settings, the runs' table."""

import pytest

from ansible_collections.bigdata.spark.plugins.module_utils import autotune as A
from ansible_collections.bigdata.spark.plugins.module_utils import autotune_run as R

MASTER = ['namenode', 'resourcemanager', 'jobhistory', 'spark_history']
WORKER = ['datanode', 'nodemanager']
LAB = {'hosts': [
    dict(name='bd-master', roles=MASTER, cores=2, memory_mb=24 * 1024, memory_limit_mb=6 * 1024),
    dict(name='bd-worker1', roles=WORKER, cores=2, memory_mb=24 * 1024, memory_limit_mb=5 * 1024),
    dict(name='bd-worker2', roles=WORKER, cores=2, memory_mb=24 * 1024, memory_limit_mb=5 * 1024),
], 'lab': {'nodes_per_machine': 3}}


def result(workloads, passed=True):
    return {'validations_passed': passed,
            'workloads': [{'workload': w, 'throughput_bytes_s': t, 'duration_s': 10.0} for w, t in workloads.items()]}


# ---------------------------------------------------------------- inputs

def test_plan_inputs_drop_nulls_and_read_whole_numbers_given_as_text():
    given = dict(LAB, executor_cores='2', shuffle_data_bytes='1000', profile='default', overrides=None)
    assert R.plan_inputs(given) == dict(LAB, executor_cores=2, shuffle_data_bytes=1000, profile='default')
    assert R.plan_inputs({'hosts': [], 'executor_cores': 'two'})['executor_cores'] == 'two'  # the planner names it
    with pytest.raises(A.AutotuneError, match='plan_inputs: expected bigdata_plan_inputs'):
        R.plan_inputs(['h'])


@pytest.mark.parametrize('knobs, candidates, expected', [
    (['adaptive', 'compression_codec'], {}, ['adaptive', 'compression_codec']),
    (['adaptive', 'compression_codec'], {'compression_codec': ['zstd']},
     {'adaptive': None, 'compression_codec': {'values': ['zstd']}}),
    (['executor_cores'], {'executor_cores': []}, {'executor_cores': {'values': []}}),  # start() refuses it, named
])
def test_knob_spec(knobs, candidates, expected):
    assert R.knob_spec(knobs, candidates) == expected


@pytest.mark.parametrize('knobs, candidates, message', [
    (['adaptive'], {'compression_codec': ['zstd']},
     "candidates: 'compression_codec' is not in knobs (adaptive); candidates are given for searched knobs only"),
    (['adaptive', 'adaptive'], {'adaptive': ['false']}, 'knobs: adaptive is given twice'),
    ('adaptive', {}, 'knobs: expected a list of knob names; allowed: executor_cores, '),
    (['adaptive'], ['false'], "candidates: expected a dict knob -> list of values, got ['false']"),
    ([3], {'adaptive': ['false']}, 'candidates: \'adaptive\' is not in knobs (3)'),
])
def test_knob_spec_errors(knobs, candidates, message):
    with pytest.raises(A.AutotuneError) as err:
        R.knob_spec(knobs, candidates)
    assert message in str(err.value)


def test_given_candidates_reach_the_core_and_its_errors():
    with pytest.raises(A.AutotuneError, match='knobs.executor_cores.values: empty candidate list'):
        A.start(LAB, R.knob_spec(['executor_cores'], {'executor_cores': []}), ['terasort'], 60, 60)
    with pytest.raises(A.AutotuneError, match="knobs: unknown knob 'turbo'"):
        A.start(LAB, R.knob_spec(['turbo'], {}), ['terasort'], 60, 60)
    with pytest.raises(A.AutotuneError, match='knobs.executor_cores: candidate 4 is refused by the planner'):
        A.start(LAB, R.knob_spec(['executor_cores'], {'executor_cores': [4]}), ['terasort'], 60, 60)


# ---------------------------------------------------------------- a run's result

def test_measured_workloads():
    expected = ['terasort', 'testdfsio_write', 'testdfsio_read', 'tpcds']
    assert R.measured_workloads(['terasort', 'testdfsio', 'tpcds']) == expected


@pytest.mark.parametrize('given, expected', [
    (result({'terasort': 2e6, 'tpcds': 5e5}), ({'terasort': 2e6, 'tpcds': 5e5}, None)),
    (result({'terasort': 2e6, 'tpcds': 5e5}, passed=False), (None, 'a validation failed')),
    (result({'terasort': 2e6}), (None, 'no throughput for tpcds')),
    (result({'terasort': 0, 'tpcds': 5e5}), (None, 'no throughput for terasort')),
    (None, (None, 'no result.json with workloads')),
    ({'workloads': 'x'}, (None, 'no result.json with workloads')),
])
def test_throughputs(given, expected):
    assert R.throughputs(given, ['terasort', 'tpcds']) == expected


def test_workload_seconds():
    assert R.workload_seconds(result({'terasort': 1, 'tpcds': 1})) == 20.0
    assert R.workload_seconds(None) == 0.0


# ---------------------------------------------------------------- what is written

def test_merged_vars_keep_the_users_other_overrides():
    current = {'spark_defaults_overrides': {'spark.eventLog.compress': 'true', 'spark.io.compression.codec': 'lz4'},
               'mapred_site_overrides': {}}
    winners = {'bigdata_plan_executor_cores': 3, 'spark_defaults_overrides': {'spark.io.compression.codec': 'zstd'}}
    assert R.merged_vars(current, winners) == {
        'bigdata_plan_executor_cores': 3,
        'spark_defaults_overrides': {'spark.eventLog.compress': 'true', 'spark.io.compression.codec': 'zstd'}}
    assert R.merged_vars(current, {}) == {}
    assert R.merged_vars({}, {'mapred_site_overrides': {'a': '1'}}) == {'mapred_site_overrides': {'a': '1'}}
    with pytest.raises(A.AutotuneError, match="changes: 'yarn_site_overrides' is not a variable autotune writes"):
        R.merged_vars(current, {'yarn_site_overrides': {}})


def searched():
    """A finished search on the lab: zstd wins, 8 partitions do not."""
    state = A.start(LAB, {'shuffle_partitions': {'values': [8]}, 'compression_codec': {'values': ['zstd']}},
                    ['terasort'], 60, 60, repetitions=2)
    while True:
        state, runs = A.next_runs(state)
        if not runs:
            return state
        for run in runs:
            speed = 120.0 if run['values']['compression_codec'] == 'zstd' else 100.0
            state = A.record(state, run['id'], {'terasort': speed - run['id'] * 0.01}, seconds=30 + run['id'])


def test_candidates_say_what_their_runs_passed_and_what_would_deploy_them():
    found = R.candidates(searched())
    assert [(c['label'], c['verdict']) for c in found] == [('coarse shuffle_partitions=8', 'baseline stays'),
                                                           ('coarse compression_codec=zstd', 'wins')]
    assert found[0]['spark_conf'] == {'spark.sql.shuffle.partitions': '8'} and found[0]['mr_conf'] == {}
    assert found[0]['group_vars'] == {'spark_defaults_overrides': {'spark.sql.shuffle.partitions': '8'}}
    assert found[1]['spark_conf'] == {'spark.io.compression.codec': 'zstd'} and found[1]['cluster_files'] == []
    assert found[1]['against'] == 'the plan' and found[1]['low'] > 1.03


def test_runs_table_and_report():
    runs = [{'id': 1, 'role': 'baseline', 'knob': 'adaptive', 'value': 'false', 'seconds': 70.0,
             'workload_seconds': 50.0, 'overhead_seconds': 20.0, 'deploy_seconds': 0.0,
             'throughput': {'terasort': 2e6}, 'failed': False, 'dir': 'runs/001-baseline-adaptive-false'},
            {'id': 2, 'role': 'candidate', 'knob': 'adaptive', 'value': 'false', 'seconds': 30.0,
             'workload_seconds': 0.0, 'overhead_seconds': 30.0, 'deploy_seconds': 0.0, 'throughput': None,
             'failed': True, 'why': 'a validation failed'},
            {'id': 3, 'role': 'candidate', 'knob': 'adaptive', 'value': 'false', 'seconds': 66.0,
             'workload_seconds': 50.0, 'overhead_seconds': 16.0, 'deploy_seconds': 0.0,
             'throughput': {'terasort': 2.1e6}, 'failed': False, 'dir': 'runs/003-candidate-adaptive-false'}]
    lines = R.runs_table(runs)
    assert lines[2] == '| 1 | baseline | adaptive=false | 70.0 | 50.0 | 20.0 | 0.0 | terasort 2.00 | ' \
                       'runs/001-baseline-adaptive-false |'
    assert lines[3].endswith('| - | failed: a validation failed |')
    assert lines[-1].startswith('Overhead per run') and 'median 18.0 s, 16.0-20.0 s over 2 runs' in lines[-1]
    assert R.runs_table([])[-1] == 'Overhead per run: no run finished.'
    report = R.report_lines(searched(), runs, 'tiny')
    assert report[0] == '# Autotune tiny'
    assert 'Best: compression_codec=zstd.' in report
    assert any(line.startswith('Winners: coarse pass compression_codec=zstd (ratio 1.2') for line in report)
    assert '![ratios](ratios.png)' in report and '## Runs' in report and '## Log' in report


def test_report_says_when_no_knob_won():
    state = A.start(LAB, ['adaptive'], ['terasort'], 60, 60, repetitions=2)
    while True:
        state, runs = A.next_runs(state)
        if not runs:
            break
        for run in runs:
            state = A.record(state, run['id'], {'terasort': 100.0 + run['id']})
    report = R.report_lines(state, [], 'flat')
    assert 'No knob beat the plan by more than the margin (1.03): the proposal is empty.' in report
    assert R.summary_lines(state) == [
        'coarse pass, adaptive: keeps the baseline (no candidate cleared the margin)',
        'Best: the plan (searched every knob, coarse then refine).']


def test_consistent_finds_verdicts_that_do_not_follow():
    plot = A.plot_data(searched())
    assert R.consistent(plot) == []
    plot['points'][0]['verdict'] = 'wins'
    plot['points'][1]['ratio'] = 5.0
    problems = R.consistent(plot)
    assert len(problems) == 2
    assert problems[0].startswith('coarse shuffle_partitions=8: verdict wins with low')
    assert 'ratio 5.0 outside' in problems[1]


# ---------------------------------------------------------------- the cluster runs the plan

CONF = '# Managed by Ansible\nspark.executor.cores 2\nspark.executor.memory 1g\nspark.sql.adaptive.enabled true\n'
XML = ('<?xml version="1.0" encoding="UTF-8"?>\n<configuration>\n  <property>\n    <name>mapreduce.map.memory.mb</name>\n'
       '    <value>512</value>\n  </property>\n</configuration>\n')


def test_read_conf():
    assert R.read_conf('spark-defaults.conf', CONF) == {'spark.executor.cores': '2', 'spark.executor.memory': '1g',
                                                        'spark.sql.adaptive.enabled': 'true'}
    assert R.read_conf('mapred-site.xml', XML) == {'mapreduce.map.memory.mb': '512'}
    with pytest.raises(A.AutotuneError, match='deployed: mapred-site.xml is not XML'):
        R.read_conf('mapred-site.xml', '<configuration>')


def test_deployed_files_that_hold_the_plan_pass():
    files = [{'name': 'spark-defaults.conf', 'host': 'm', 'text': CONF,
              'computed': {'spark.executor.cores': '2', 'spark.executor.memory': '2g'},
              'overrides': {'spark.executor.memory': '1g', 'spark.sql.adaptive.enabled': True}},
             {'name': 'mapred-site.xml', 'host': 'm', 'text': XML, 'computed': {'mapreduce.map.memory.mb': 512},
              'overrides': {}}]
    assert R.deployed_differences(files) == []
    R.check_deployed(files)


def test_deployed_files_of_another_plan_are_named():
    files = [{'name': 'spark-defaults.conf', 'host': 'bd-master', 'text': CONF,
              'computed': {'spark.executor.cores': '4', 'spark.executor.memory': '1g', 'spark.executor.instances': '3'},
              'overrides': {}}]
    assert R.deployed_differences(files) == [
        'spark-defaults.conf on bd-master: spark.executor.cores 2 (plan 4), spark.executor.instances not set (plan 3)']
    with pytest.raises(A.AutotuneError) as err:
        R.check_deployed(files)
    assert str(err.value).startswith('deployed: the cluster does not run the plan this search starts from '
                                     '(spark-defaults.conf on bd-master: spark.executor.cores 2 (plan 4), ')
    assert 'deploy it with playbooks/site.yml and the same bigdata_plan_* variables first' in str(err.value)
    many = [dict(files[0], computed=dict(('k%d' % i, 'v') for i in range(9)))]
    assert R.deployed_differences(many)[0].endswith('k5 not set (plan v), and 3 more')


OPENS = '--add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED'
MAPRED = ('<?xml version="1.0"?>\n<configuration>\n'
          '  <property>\n    <name>mapreduce.map.java.opts</name>\n    <value>-Xmx409m %s</value>\n  </property>\n'
          '  <property>\n    <name>mapreduce.map.memory.mb</name>\n    <value>512</value>\n  </property>\n'
          '</configuration>\n' % OPENS)


def test_jvm_options_on_java17_carry_the_add_opens():
    """The yarn role appends hadoop_java17_add_opens to the tasks' JVM options on Java 17: the deployed options
    start with the planned ones, and a run's -D of them gets the same tail."""
    files = [{'name': 'mapred-site.xml', 'host': 'm', 'text': MAPRED, 'overrides': {},
              'computed': {'mapreduce.map.java.opts': '-Xmx409m', 'mapreduce.map.memory.mb': '512'}}]
    assert R.deployed_differences(files) == []
    suffixes = R.opts_suffixes(files)
    assert suffixes == {'mapreduce.map.java.opts': OPENS}
    assert R.with_suffixes({'mapreduce.map.java.opts': '-Xmx819m', 'mapreduce.map.memory.mb': '1024'}, suffixes) == {
        'mapreduce.map.java.opts': '-Xmx819m ' + OPENS, 'mapreduce.map.memory.mb': '1024'}
    assert R.with_suffixes({'a': '1'}, {}) == {'a': '1'}
    # another heap is a difference; so is the same prefix without a space (-Xmx4096m is not -Xmx409m)
    files[0]['computed']['mapreduce.map.java.opts'] = '-Xmx40'
    assert R.deployed_differences(files)[0].startswith('mapred-site.xml on m: mapreduce.map.java.opts -Xmx409m')
