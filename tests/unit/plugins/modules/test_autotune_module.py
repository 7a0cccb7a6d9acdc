"""autotune module: the search's steps through the module, bad input as fail_json naming the field, never changed."""

import json

import pytest
from ansible.module_utils import basic
from ansible.module_utils.common.text.converters import to_bytes

from ansible_collections.bigdata.spark.plugins.modules import autotune as M

MASTER = ['namenode', 'resourcemanager', 'jobhistory', 'spark_history']
WORKER = ['datanode', 'nodemanager']
# As resource_plan.yml's bigdata_plan_inputs holds them: hosts with the hardware facts, the lab's share.
FACTS = {'cpu': {'logical': 6}, 'memory': {'total_bytes': 24 * 2 ** 30, 'cgroup_limit_bytes': 6 * 2 ** 30}}
INPUTS = {'hosts': [{'name': 'm', 'roles': MASTER, 'facts': FACTS}, {'name': 'w1', 'roles': WORKER, 'facts': FACTS},
                    {'name': 'w2', 'roles': WORKER, 'facts': FACTS}],
          'profile': 'default', 'workload': 'default', 'lab': {'nodes_per_machine': 3}, 'executor_cores': None}
START = dict(step='start', plan_inputs=INPUTS, knobs=['compression_codec'], candidates={'compression_codec': ['zstd']},
             workloads=['terasort'], budget_minutes='30', seconds_per_run=60, repetitions=2)


def run(monkeypatch, capsys, **args):
    args.setdefault('_ansible_check_mode', False)
    monkeypatch.setattr(basic, '_ANSIBLE_ARGS', to_bytes(json.dumps({'ANSIBLE_MODULE_ARGS': args})))
    monkeypatch.setattr(basic, '_ANSIBLE_PROFILE', 'legacy', raising=False)
    with pytest.raises(SystemExit):
        M.main()
    return json.loads(capsys.readouterr().out)


def result(throughput, passed=True):
    return {'validations_passed': passed,
            'workloads': [{'workload': 'terasort', 'throughput_bytes_s': throughput, 'duration_s': 40.0}]}


def test_a_search_through_the_module(monkeypatch, capsys):
    out = run(monkeypatch, capsys, **START)
    assert out['changed'] is False and out['start_values'] == {'compression_codec': 'lz4'}
    assert out['state']['budget_seconds'] == 1800.0 and out['pending'] == []
    current = {'spark_defaults_overrides': {'spark.eventLog.compress': 'true'}, 'mapred_site_overrides': {}}
    out = run(monkeypatch, capsys, step='next', state=out['state'], current_vars=current)
    assert [r['role'] for r in out['runs']] == ['baseline', 'candidate', 'candidate', 'baseline']
    assert out['progress'].startswith('coarse pass, knob 1/1 compression_codec=zstd against the plan: 4 runs of '
                                      'about 60 s; 30.0 of 30.0 min left')
    assert out['runs'][1]['spark_conf'] == {'spark.io.compression.codec': 'zstd'}
    assert out['runs'][1]['scope'] == 'application' and out['runs'][1]['deploy_vars'] == {}
    assert 'deploy_vars' not in out['state']['block']['runs'][1]  # the state stays the core's
    assert out['pending'] == [1, 2, 3, 4]
    state = out['state']
    for run_ in out['runs']:
        speed = 1.2e6 if run_['role'] == 'candidate' else 1e6
        out = run(monkeypatch, capsys, step='record', state=state, run_id=run_['id'], result=result(speed),
                  seconds=55.5)
        assert out['measured'] == {'terasort': speed} and out['workload_seconds'] == 40.0 and out['why'] == ''
        state = out['state']
    assert out['pending'] == []
    out = run(monkeypatch, capsys, step='next', state=state)
    assert out['runs'] == [] and out['done'] and out['progress'] == ''
    out = run(monkeypatch, capsys, step='report', state=out['state'], current_vars=current, name='t',
              runs=[{'id': 1, 'role': 'baseline', 'knob': 'compression_codec', 'value': 'zstd', 'seconds': 55.5,
                     'workload_seconds': 40.0, 'overhead_seconds': 15.5, 'deploy_seconds': 0.0,
                     'throughput': {'terasort': 1e6}, 'failed': False, 'dir': 'runs/001'}])
    assert out['winner_vars'] == {'spark_defaults_overrides': {'spark.io.compression.codec': 'zstd'}}
    assert out['proposal'] == {'spark_defaults_overrides': {'spark.eventLog.compress': 'true',
                                                            'spark.io.compression.codec': 'zstd'}}
    assert out['verdict']['best'] == {'compression_codec': 'zstd'} and out['verdict']['runs'] == 4
    assert out['plot_data']['points'][0]['verdict'] == 'wins' and out['problems'] == []
    assert out['table'][2].startswith('| coarse | compression_codec | zstd | the plan | 4 | 1.200 |')
    assert out['report'][0] == '# Autotune t' and out['summary'][0].startswith('coarse pass, compression_codec: keeps')
    assert out['candidates'][0]['group_vars'] == out['winner_vars']


def test_a_failed_validation_fails_the_run(monkeypatch, capsys):
    state = run(monkeypatch, capsys, **START)['state']
    out = run(monkeypatch, capsys, step='next', state=state)
    out = run(monkeypatch, capsys, step='record', state=out['state'], run_id=1, result=result(1e6, passed=False))
    assert out['measured'] is None and out['why'] == 'a validation failed' and out['pending'] == []
    assert out['state']['comparisons'][0]['verdict'] == 'failed'


@pytest.mark.parametrize('change, message', [
    (dict(knobs=['compression_codec', 'turbo'], candidates={}),
     "autotune: knobs: unknown knob 'turbo'; allowed: executor_cores, memory_per_core_mb,"),
    (dict(candidates={'compression_codec': []}), 'autotune: knobs.compression_codec.values: empty candidate list'),
    (dict(knobs=[], candidates={}), 'autotune: knobs: empty; give at least one of:'),
    (dict(budget_minutes='0'), 'autotune: budget_minutes: must be a number of minutes above 0, got 0'),
    (dict(budget_minutes=0.0), 'autotune: budget_minutes: must be a number of minutes above 0, got 0.0'),
    (dict(knobs=['executor_cores'], candidates={'executor_cores': [2, 8]}),
     'autotune: knobs.executor_cores: candidate 8 is refused by the planner: executor_cores: 8 is more than the '
     'NodeManager vcores'),
    (dict(candidates={'adaptive': ['false']}), "autotune: candidates: 'adaptive' is not in knobs (compression_codec)"),
    (dict(repetitions='1'), 'autotune: repetitions: expected a whole number from 2 to 50'),
    (dict(margin='0.9'), 'autotune: margin: must be a ratio of at least 1'),
    (dict(workloads=[]), 'autotune: workloads: expected a non-empty list'),
    (dict(plan_inputs=dict(INPUTS, profile='magic')), "autotune: plan_inputs: the planner refuses them: profile:"),
    (dict(plan_inputs=None), 'autotune: plan_inputs: step start needs it'),
])
def test_bad_input_fails_before_anything_runs(monkeypatch, capsys, change, message):
    out = run(monkeypatch, capsys, **dict(START, **change))
    assert out['failed'] and message in out['msg'], out['msg']
    assert out.get('changed', False) is False


def test_steps_need_their_state(monkeypatch, capsys):
    out = run(monkeypatch, capsys, step='next')
    assert out['failed'] and out['msg'] == 'autotune: state: step next needs it'
    state = run(monkeypatch, capsys, **START)['state']
    out = run(monkeypatch, capsys, step='record', state=state, run_id=7, result=result(1.0))
    assert out['failed'] and out['msg'] == 'autotune: run_id: 7 is not pending; call next_runs first'


def test_check_deployed(monkeypatch, capsys):
    state = run(monkeypatch, capsys, **START)['state']
    good = {'name': 'spark-defaults.conf', 'host': 'm', 'text': 'spark.executor.cores 2\n',
            'computed': {'spark.executor.cores': '2'}, 'overrides': {}}
    out = run(monkeypatch, capsys, step='check_deployed', state=state, deployed=[good])
    assert out['changed'] is False and out['state'] == state
    out = run(monkeypatch, capsys, step='check_deployed', state=state, deployed=[dict(good, computed={
        'spark.executor.cores': '1'})])
    assert out['failed'] and out['msg'].startswith('autotune: deployed: the cluster does not run the plan this search '
                                                   'starts from (spark-defaults.conf on m: spark.executor.cores 2 '
                                                   '(plan 1));')


def test_runs_carry_the_deployed_jvm_option_suffix(monkeypatch, capsys):
    args = dict(START)
    args.update(knobs=['map_memory_mb'], candidates={'map_memory_mb': [256]})
    state = run(monkeypatch, capsys, **args)['state']
    xml = ('<configuration><property><name>mapreduce.map.java.opts</name><value>-Xmx409m --add-opens=x</value>'
           '</property></configuration>')
    mapred = {'name': 'mapred-site.xml', 'host': 'm', 'text': xml, 'overrides': {},
              'computed': {'mapreduce.map.java.opts': '-Xmx409m'}}
    out = run(monkeypatch, capsys, step='check_deployed', state=state, deployed=[mapred])
    assert out['opts_suffixes'] == {'mapreduce.map.java.opts': '--add-opens=x'}
    out = run(monkeypatch, capsys, step='next', state=state, opts_suffixes=out['opts_suffixes'])
    assert out['runs'][1]['mr_conf'] == {'mapreduce.map.memory.mb': '256', 'mapreduce.map.java.opts': '-Xmx204m --add-opens=x'}
    assert out['runs'][0]['mr_conf'] == {}
    out = run(monkeypatch, capsys, step='check_deployed', state=state, compare=False,
              deployed=[dict(mapred, computed={'mapreduce.map.java.opts': '-Xmx1m'})])
    assert not out.get('failed') and out['opts_suffixes'] == {}
