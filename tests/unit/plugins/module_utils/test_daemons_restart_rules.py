"""The daemon table's restart rules (plugins/module_utils/daemons.py: restart_rules, rule_plan, rule_order, rule_state,
rolled_txid, journal_sync_problems) and their filters (plugins/filter/daemons.py)."""

import pytest
from ansible.errors import AnsibleFilterError

from ansible_collections.bigdata.spark.plugins.filter import daemons as f
from ansible_collections.bigdata.spark.plugins.module_utils import daemons as d

DEFAULTS = f.role_defaults()
RULES = d.restart_rules({}, DEFAULTS)
NN = 'hadoop-hdfs-namenode'
ZKFC = 'hadoop-hdfs-zkfc'
RM = 'hadoop-yarn-resourcemanager'
JN = 'hadoop-hdfs-journalnode'
ZK = 'zookeeper-server'
HOSTS = ['m', 'w1', 'w2']
HA_GROUPS = {'namenode': ['m', 'w1'], 'resourcemanager': ['m', 'w1'], 'zookeeper': HOSTS, 'journalnodes': HOSTS,
             'datanodes': HOSTS, 'nodemanagers': HOSTS}
ALL = {'m': [ZK, JN, NN, ZKFC, RM, 'hadoop-hdfs-datanode', 'hadoop-yarn-nodemanager'],
       'w1': [ZK, JN, NN, ZKFC, RM, 'hadoop-mapred-historyserver', 'hadoop-hdfs-datanode'],
       'w2': [ZK, JN, 'hadoop-hdfs-datanode', 'hadoop-yarn-nodemanager']}
# What the lab's daemons answer (trimmed to what is read).
NN_STATUS = {'beans': [{'name': 'Hadoop:service=NameNode,name=NameNodeStatus', 'State': 'standby',
                        'HostAndPort': 'prod-master:8020'}]}
RM_INFO = {'clusterInfo': {'id': 1, 'haState': 'ACTIVE', 'state': 'STARTED'}}
SRVR = 'Zookeeper version: 3.9.3\nLatency min/avg/max: 0/0.5/3\nMode: leader\nNode count: 40\n'
BEAN = 'Hadoop:service=JournalNode,name=Journal-bigdata'
JOURNAL = {'beans': [{'name': BEAN, 'LastWrittenTxId': 120, 'CurrentLagTxns': 0, 'LastWriterEpoch': 3}]}


def test_the_rules_in_restart_order():
    assert [(r['name'], r['rule']) for r in RULES] == [
        ('zookeeper', 'leader_last'), ('journalnode', 'in_sync'), ('namenode', 'standby_first'),
        ('resourcemanager', 'standby_first')]
    by = dict((r['name'], r) for r in RULES)
    # The failover controller restarts in its NameNode's pass, after it; only the NameNode hands over first.
    assert by['namenode']['units'] == [NN, ZKFC] and by['namenode']['failover_first'] is True
    assert [by[n]['failover_first'] for n in ('zookeeper', 'journalnode', 'resourcemanager')] == [False] * 3
    assert by['zookeeper']['probe'] == 'srvr' and by['zookeeper']['port'] == 2181
    assert by['journalnode']['sync_bean'] == BEAN and by['journalnode']['port'] == 8480
    assert by['journalnode']['probe'].startswith('/jmx?qry=Hadoop:service=JournalNode')
    assert by['namenode']['probe'] == '/jmx?qry=Hadoop:service=NameNode,name=NameNodeStatus'
    assert by['resourcemanager']['probe'] == '/jmx?qry=Hadoop:service=ResourceManager,name=RMInfo'


def test_the_zookeeper_rule_is_its_restart_leader_last_hook():
    for entry in d.DAEMONS:
        assert (entry.get('restart_rule') == 'leader_last') == bool(entry.get('restart_leader_last'))


def test_every_rule_is_known_and_restart_with_names_a_daemon_with_a_rule():
    names = dict((e['name'], e) for e in d.DAEMONS)
    for entry in d.DAEMONS:
        assert entry.get('restart_rule') in (None,) + tuple(d.RESTART_RULES)
        if 'restart_with' in entry:
            assert names[entry['restart_with']].get('restart_rule')
            assert entry['group'] == names[entry['restart_with']]['group']


def test_the_rules_read_the_host_s_variables():
    rules = d.restart_rules({'hdfs_nameservice': 'prod', 'zookeeper_client_port': 2281}, DEFAULTS)
    by = dict((r['name'], r) for r in rules)
    assert by['journalnode']['sync_bean'] == 'Hadoop:service=JournalNode,name=Journal-prod'
    assert by['zookeeper']['port'] == 2281


def test_an_unknown_rule_is_refused(monkeypatch):
    bad = tuple(dict(e, restart_rule='random') if e['name'] == 'journalnode' else e for e in d.DAEMONS)
    monkeypatch.setattr(d, 'DAEMONS', bad)
    with pytest.raises(d.DaemonError, match='journalnode: restart_rule must be one of'):
        d.restart_rules({}, DEFAULTS)
    with pytest.raises(d.DaemonError, match='rule: one of'):
        d.rule_order('random', ['a'], {})


@pytest.mark.parametrize('rule,states,order', [
    ('leader_last', {'m': 'leader', 'w1': 'follower', 'w2': 'follower'}, ['w1', 'w2', 'm']),
    ('leader_last', {'m': 'follower', 'w1': 'follower', 'w2': 'leader'}, ['m', 'w1', 'w2']),
    ('leader_last', {}, HOSTS),
    ('standby_first', {'m': 'active', 'w1': 'standby'}, ['w1', 'w2', 'm']),
    ('standby_first', {'m': 'standby', 'w1': 'active'}, ['m', 'w2', 'w1']),
    # No answer (down, or not yet elected): not the active one, so it goes first.
    ('standby_first', {'m': '', 'w1': 'active'}, ['m', 'w2', 'w1']),
    ('in_sync', {'m': 'up', 'w1': 'up', 'w2': 'up'}, HOSTS),
])
def test_rule_order(rule, states, order):
    assert d.rule_order(rule, HOSTS, states) == order


def test_rule_plan_ha_orders_each_pass_by_its_own_leader():
    states = {'zookeeper': {'m': 'follower', 'w1': 'follower', 'w2': 'leader'},
              'journalnode': {'m': 'up', 'w1': 'up', 'w2': 'up'},
              'namenode': {'m': 'active', 'w1': 'standby'},
              'resourcemanager': {'m': 'active', 'w1': 'standby'}}
    plan = d.rule_plan(RULES, ALL, HA_GROUPS, states)
    assert [(p['name'], p['hosts']) for p in plan] == [
        ('zookeeper', ['m', 'w1', 'w2']), ('journalnode', ['m', 'w1', 'w2']), ('namenode', ['w1', 'm']),
        ('resourcemanager', ['w1', 'm'])]
    assert plan[2]['states'] == {'m': 'active', 'w1': 'standby'} and plan[2]['units'] == [NN, ZKFC]


def test_rule_plan_takes_only_hosts_that_restart_a_unit_of_the_pass():
    # Only the failover controller on the active NameNode's host changed: it still hands over first.
    restart = {'m': [ZKFC], 'w1': ['hadoop-hdfs-datanode'], 'w2': []}
    plan = d.rule_plan(RULES, restart, HA_GROUPS, {'namenode': {'m': 'active', 'w1': 'standby'}})
    assert [(p['name'], p['hosts']) for p in plan] == [('namenode', ['m'])]
    assert d.rule_plan(RULES, {'m': [], 'w1': [], 'w2': []}, HA_GROUPS) == []


def test_rule_plan_without_ha_has_no_pass():
    """One NameNode and ResourceManager, no ZooKeeper, no JournalNodes: the masters' and workers' plays restart
    everything as before."""
    groups = {'namenode': ['m'], 'resourcemanager': ['m'], 'datanodes': ['w1', 'w2'], 'nodemanagers': ['w1', 'w2']}
    restart = {'m': [NN, RM, 'hadoop-hdfs-secondarynamenode'], 'w1': ['hadoop-hdfs-datanode'], 'w2': []}
    assert d.rule_plan(RULES, restart, groups, {}) == []
    # ZooKeeper alone (no HA) keeps its rule: its leader still restarts last.
    groups['zookeeper'] = ['m', 'w1', 'w2']
    restart['w1'] = [ZK]
    restart['w2'] = [ZK]
    plan = d.rule_plan(RULES, restart, groups, {'zookeeper': {'w1': 'leader', 'w2': 'follower'}})
    assert [(p['name'], p['hosts']) for p in plan] == [('zookeeper', ['w2', 'w1'])]


def test_rule_plan_ignores_states_of_hosts_outside_the_group_and_refuses_bad_input():
    plan = d.rule_plan(RULES, {'m': [NN], 'w1': [NN]}, HA_GROUPS, {'namenode': {'x': 'active', 'm': 'active'}})
    assert plan[0]['states'] == {'m': 'active'} and plan[0]['hosts'] == ['w1', 'm']
    with pytest.raises(d.DaemonError, match='must be mappings'):
        d.rule_plan(RULES, ['m'], HA_GROUPS)


@pytest.mark.parametrize('probe,answer,state', [
    ('srvr', SRVR, 'leader'),
    ('srvr', SRVR.replace('leader', 'follower'), 'follower'),
    ('srvr', 'This ZooKeeper instance is not currently serving requests\n', ''),
    ('srvr', None, ''),
    ('/jmx?qry=Hadoop:service=NameNode,name=NameNodeStatus', NN_STATUS, 'standby'),
    ('/ws/v1/cluster/info', RM_INFO, 'active'),
    ('/ws/v1/cluster/info', {'clusterInfo': {'haState': 'INITIALIZING'}}, 'initializing'),
    ('/jmx?qry=Hadoop:service=JournalNode,name=JournalNodeInfo', {'beans': [{'name': 'x'}]}, 'up'),
    ('/jmx?qry=Hadoop:service=JournalNode,name=JournalNodeInfo', {'beans': []}, ''),
    ('/ws/v1/cluster/info', None, ''),
    ('/ws/v1/cluster/info', 'text', ''),
    (None, SRVR, ''),
])
def test_rule_state(probe, answer, state):
    assert d.rule_state(probe, answer) == state
    assert f.rule_state(answer, probe) == state


@pytest.mark.parametrize('output,txid', [
    ('Successfully rolled edit logs.\nNew segment starts at txid 1234\n', 1234),
    ('rollEdits: Operation category JOURNAL is not supported in state standby', None),
    (None, None),
])
def test_rolled_txid(output, txid):
    assert d.rolled_txid(output) == txid == f.rolled_txid(output)


def test_journal_sync():
    assert d.journal_sync_problems(JOURNAL, BEAN, 120) == []
    assert d.journal_sync_problems(JOURNAL, BEAN, 100) == []
    assert d.journal_sync_problems(JOURNAL, BEAN, 121) == ['last written transaction 120, the new segment starts at 121']
    lagging = {'beans': [dict(JOURNAL['beans'][0], CurrentLagTxns=4)]}
    assert d.journal_sync_problems(lagging, BEAN, 120) == ['4 transaction(s) behind the writer']
    assert 'no such bean yet' in d.journal_sync_problems({'beans': []}, BEAN, 1)[0]
    assert 'no such bean yet' in d.journal_sync_problems(None, BEAN, 1)[0]
    assert 'no LastWrittenTxId' in d.journal_sync_problems({'beans': [{'name': BEAN}]}, BEAN, 1)[0]
    assert 'did not say' in d.journal_sync_problems(JOURNAL, BEAN, None)[0]
    assert f.journal_sync_problems(JOURNAL, BEAN, 120) == []


def test_the_filters_read_registered_results():
    rules = f.restart_rules({})
    passes = f.rule_plan(rules, ALL, HA_GROUPS)
    assert [p['hosts'] for p in passes] == [HOSTS, HOSTS, ['m', 'w1'], ['m', 'w1']]
    zk = passes[0]
    nn = passes[2]
    answers = [
        {'item': [zk, 'm'], 'stdout': SRVR, 'changed': False},
        {'item': [zk, 'w1'], 'stdout': SRVR.replace('leader', 'follower')},
        {'item': [zk, 'w2'], 'skipped': True},
        {'item': [nn, 'm'], 'json': dict(NN_STATUS, beans=[dict(NN_STATUS['beans'][0], State='active')])},
        {'item': [nn, 'w1'], 'json': NN_STATUS},
        {'item': [nn, 'w1'], 'skipped': True},
        # A daemon that did not answer (uri failed): no json.
        {'item': [passes[3], 'm'], 'msg': 'Connection refused', 'status': -1},
        'junk',
    ]
    plan = f.rule_plan(rules, ALL, HA_GROUPS, answers)
    assert [(p['name'], p['hosts']) for p in plan] == [
        ('zookeeper', ['w1', 'w2', 'm']), ('journalnode', HOSTS), ('namenode', ['w1', 'm']),
        ('resourcemanager', ['m', 'w1'])]
    assert plan[0]['states'] == {'m': 'leader', 'w1': 'follower'}
    assert plan[3]['states'] == {'m': ''}
    probe = nn['probe']
    states = f.rule_states([{'item': 'w1', 'json': NN_STATUS}, {'item': 'm', 'skipped': True}, {'item': 'x'}], probe)
    assert states == {'w1': 'standby', 'x': ''}
    with pytest.raises(AnsibleFilterError, match='restart_rules'):
        f.restart_rules(['not', 'vars'])
    with pytest.raises(AnsibleFilterError, match='rule_plan'):
        f.rule_plan(rules, None, HA_GROUPS)
