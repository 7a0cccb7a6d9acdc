"""resource_plan module: options in, plan out, errors as fail_json, never changed."""

import json

import pytest
from ansible.module_utils import basic
from ansible.module_utils.common.text.converters import to_bytes

from ansible_collections.bigdata.spark.plugins.modules import resource_plan as M

SEED_HOSTS = [
    {'name': 'node%d' % i, 'roles': ['datanode', 'nodemanager'] + (['namenode', 'resourcemanager'] if i == 1 else []),
     'facts': {'cpu': {'logical': 192}, 'memory_gib': 768, 'disk_count': 4}} for i in (1, 2, 3)]


def run(monkeypatch, capsys, **args):
    args.setdefault('_ansible_check_mode', False)
    monkeypatch.setattr(basic, '_ANSIBLE_ARGS', to_bytes(json.dumps({'ANSIBLE_MODULE_ARGS': args})))
    monkeypatch.setattr(basic, '_ANSIBLE_PROFILE', 'legacy', raising=False)
    with pytest.raises(SystemExit):
        M.main()
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize('check_mode', [False, True])
def test_seed(monkeypatch, capsys, check_mode):
    out = run(monkeypatch, capsys, hosts=SEED_HOSTS, workload='sql_heavy', shuffle_data_bytes=3 * 10 ** 12,
              _ansible_check_mode=check_mode)
    assert out['changed'] is False
    assert out['yarn_site']['yarn.nodemanager.resource.memory-mb'] == '737280'
    assert out['yarn_site']['yarn.scheduler.maximum-allocation-mb'] == '81920'
    assert out['spark_defaults']['spark.executor.instances'] == '111'
    assert out['spark_defaults']['spark.driver.memory'] == '64g'
    assert out['nodemanagers']['node3']['yarn.nodemanager.resource.cpu-vcores'] == '186'
    assert out['hadoop_env']['HDFS_NAMENODE_OPTS'] == '-Xmx12g'
    assert out['capacity']['cluster'] == 116 and out['hosts']['node3']['executors'] == 37
    assert 'spark.executor.memory' in out['explain']
    assert out['plan_warnings'] == []


def test_seed_profile_and_its_warnings(monkeypatch, capsys):
    out = run(monkeypatch, capsys, hosts=SEED_HOSTS, profile='seed', workload='sql_heavy',
              shuffle_data_bytes=3 * 10 ** 12)
    assert out['spark_defaults']['spark.executor.instances'] == '108'
    assert out['mapred_site']['mapreduce.map.java.opts'] == '-Xmx2g'
    assert out['capacity']['cluster'] == 104
    assert out['plan_warnings']  # also sent through module.warn()
    assert any('108 > the 104 executors' in w for w in out['plan_warnings'])


def test_reserve_am_slot_still_accepted(monkeypatch, capsys):
    out = run(monkeypatch, capsys, hosts=SEED_HOSTS, reserve_am_slot=True)
    assert out['changed'] is False
    assert any(w.startswith('reserve_am_slot: deprecated') for w in out['plan_warnings'])


def test_hosts_given_directly_and_lab(monkeypatch, capsys):
    hosts = [{'name': 'w%d' % i, 'roles': ['nodemanager', 'datanode'], 'cores': 2, 'memory_mb': 24576,
              'memory_limit_mb': 5120} for i in (1, 2)]
    hosts.append({'name': 'm', 'roles': ['namenode', 'resourcemanager'], 'cores': 2, 'memory_mb': 24576})
    out = run(monkeypatch, capsys, hosts=hosts, lab={'nodes_per_machine': 3})
    assert out['nodemanagers']['w1'] == {'yarn.nodemanager.resource.memory-mb': '3840',
                                         'yarn.nodemanager.resource.cpu-vcores': '2'}
    assert out['spark_defaults']['spark.executor.memory'] == '3456m'
    assert out['capacity']['cluster'] == 1 and out['capacity']['client'] == 1


@pytest.mark.parametrize('args, message', [
    ({'profile': 'magic'}, 'value of profile must be one of'),
    ({'executor_cores': 500}, 'executor_cores: 500 is more than the NodeManager vcores'),
    ({'overrides': {'no.such.key': 1}}, "overrides: unknown property 'no.such.key'"),
    ({'lab': {'nodes_per_machine': 0}}, 'lab.nodes_per_machine: must be from 1 to 1024'),
    ({'overrides': {'spark.executor.memory': 'lots'}}, "overrides.spark.executor.memory: 'lots' is not valid"),
    ({'constants': {'executor_cores': 2.5}}, 'constants.executor_cores: expected a whole number from 1 to 8192'),
])
def test_errors_are_fail_json(monkeypatch, capsys, args, message):
    out = run(monkeypatch, capsys, hosts=SEED_HOSTS, **args)
    assert out['failed'] is True
    assert message in out['msg']


def test_host_without_roles(monkeypatch, capsys):
    out = run(monkeypatch, capsys, hosts=[{'name': 'x', 'roles': [], 'cores': 4, 'memory_mb': 8192}])
    assert out['failed'] is True
    assert 'hosts[x].roles: a host needs at least one role' in out['msg']


def test_ha_daemons(monkeypatch, capsys):
    """JournalNodes, failover controllers and ZooKeeper: their heaps in hadoop_env, zookeeper_env and heaps_mb."""
    hosts = [dict(h, roles=h['roles'] + ['journalnode', 'zookeeper'] + (['zkfc'] if h['name'] != 'node3' else []))
             for h in SEED_HOSTS]
    out = run(monkeypatch, capsys, hosts=hosts)
    assert (out['hadoop_env']['HDFS_JOURNALNODE_OPTS'], out['hadoop_env']['HDFS_ZKFC_OPTS']) == ('-Xmx1g', '-Xmx256m')
    assert out['zookeeper_env'] == {'ZK_SERVER_HEAP': '2048'}
    assert out['hosts']['node3']['heaps_mb']['zookeeper'] == 2048
    assert out['hosts']['node3']['heaps_mb']['hadoop']['journalnode'] == 1024
    # 8 GiB kept back, plus the JournalNode's 1 GiB and ZooKeeper's 2 GiB
    assert out['nodemanagers']['node3']['yarn.nodemanager.resource.memory-mb'] == str(737280 - 3072)
    assert 'zookeeper_env' not in run(monkeypatch, capsys, hosts=SEED_HOSTS)
