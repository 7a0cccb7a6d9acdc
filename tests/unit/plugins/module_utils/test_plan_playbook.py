"""plan_hosts and plan_inputs: the host list and the planner's arguments playbooks/resource_plan.yml builds
(bigdata_plan_inputs; roles/autotune and the autotune module read the same dict)."""

import pytest

from ansible_collections.bigdata.spark.plugins.module_utils.plan_inputs import PlanError
from ansible_collections.bigdata.spark.plugins.module_utils.plan_playbook import plan_hosts, plan_inputs

HW = {'cpu': {'logical': 6}, 'memory': {'total_bytes': 24 * 1024 ** 3}}
GROUPS = {
    'all': ['m', 'w1', 'w2', 'edge'], 'hadoop': ['m', 'w1', 'w2'],
    'namenode': ['m'], 'secondarynamenode': ['m'], 'resourcemanager': ['m'], 'jobhistory': ['m'],
    'spark_history': ['m'], 'workers': ['w1', 'w2'], 'datanodes': ['w1', 'w2'], 'nodemanagers': ['w2', 'w1'],
}
HOSTVARS = {'m': {'bigdata_hardware': HW}, 'w1': {'bigdata_hardware': HW}, 'w2': {}, 'edge': {}}


def test_hosts_in_inventory_order_with_their_roles_and_facts():
    assert plan_hosts(GROUPS, HOSTVARS) == [
        {'name': 'm', 'roles': ['namenode', 'secondarynamenode', 'resourcemanager', 'jobhistory', 'spark_history'],
         'facts': HW},
        {'name': 'w1', 'roles': ['datanode', 'nodemanager'], 'facts': HW},
        {'name': 'w2', 'roles': ['datanode', 'nodemanager'], 'facts': {}},  # no facts: the planner says so
    ]


def test_ha_groups_give_their_roles():
    """journalnodes and zookeeper give their roles; zkfc goes to every NameNode once the group has more than one."""
    groups = dict(GROUPS, namenode=['m', 'w1'], journalnodes=['m', 'w1', 'w2'], zookeeper=['w2', 'm', 'w1'])
    del groups['secondarynamenode']  # none with HA
    assert [(h['name'], h['roles']) for h in plan_hosts(groups, HOSTVARS)] == [
        ('m', ['namenode', 'zkfc', 'journalnode', 'resourcemanager', 'jobhistory', 'spark_history', 'zookeeper']),
        ('w1', ['namenode', 'zkfc', 'journalnode', 'datanode', 'nodemanager', 'zookeeper']),
        ('w2', ['journalnode', 'datanode', 'nodemanager', 'zookeeper']),
    ]


def test_a_lone_namenode_has_no_failover_controller():
    groups = dict(GROUPS, journalnodes=['m'], zookeeper=['m'])
    assert plan_hosts(groups, HOSTVARS)[0]['roles'] == [
        'namenode', 'secondarynamenode', 'journalnode', 'resourcemanager', 'jobhistory', 'spark_history', 'zookeeper']


def test_missing_groups_are_empty():
    assert plan_hosts({'hadoop': ['solo']}, {'solo': {}}) == [{'name': 'solo', 'roles': [], 'facts': {}}]
    assert plan_hosts({'all': []}, {}) == []


HOSTS = [{'name': 'a', 'roles': ['nodemanager'], 'facts': HW}, {'name': 'b', 'roles': ['nodemanager'], 'facts': HW}]


@pytest.mark.parametrize('kwargs, extra', [
    ({}, {}),
    # the optional arguments only when given, in the planner's order
    ({'shuffle_data_bytes': 10 ** 12, 'executor_cores': 4, 'overrides': {'spark.executor.cores': '4'},
      'constants': {}, 'driver_deploy_mode': 'client'},
     {'shuffle_data_bytes': 10 ** 12, 'executor_cores': 4, 'overrides': {'spark.executor.cores': '4'},
      'constants': {}, 'driver_deploy_mode': 'client'}),
    ({'shuffle_data_bytes': None, 'executor_cores': None, 'overrides': None}, {}),
    # lab: the inventory's bigdata_lab puts every host on one machine...
    ({'lab_inventory': True}, {'lab': {'nodes_per_machine': 2}}),
    # ... a dict given wins, false plans the nodes as servers
    ({'lab_inventory': True, 'lab': {'nodes_per_machine': 3}}, {'lab': {'nodes_per_machine': 3}}),
    ({'lab_inventory': True, 'lab': False}, {}),
    ({'lab': {'nodes_per_machine': 3}}, {'lab': {'nodes_per_machine': 3}}),
])
def test_inputs(kwargs, extra):
    expected = dict({'hosts': HOSTS, 'profile': 'default', 'workload': 'default'}, **extra)
    out = plan_inputs(HOSTS, **kwargs)
    assert out == expected
    assert list(out) == list(expected)


def test_profile_and_workload_pass_through():
    out = plan_inputs(HOSTS, profile='seed', workload='sql_heavy')
    assert (out['profile'], out['workload']) == ('seed', 'sql_heavy')


@pytest.mark.parametrize('call, words', [
    (lambda: plan_inputs(HOSTS, shuffle=1), r'unknown argument\(s\) shuffle; allowed: shuffle_data_bytes'),
    (lambda: plan_inputs('a,b'), 'hosts: expected the host list'),
    (lambda: plan_hosts(['a'], {}), 'groups: expected the inventory'),
])
def test_bad_input_says_what_is_allowed(call, words):
    with pytest.raises(PlanError, match=words):
        call()
