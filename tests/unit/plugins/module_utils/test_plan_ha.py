"""High availability's daemons in the plan: the JournalNode, the failover controller (ZKFC) and the ZooKeeper server get
planned, explained heaps; on a NodeManager host their heaps are kept back from YARN; a plan without them is as before."""

import pytest

from ansible_collections.bigdata.spark.plugins.module_utils import plan as P
from ansible_collections.bigdata.spark.plugins.module_utils.plan_playbook import plan_hosts

HA_KEYS = ('HDFS_JOURNALNODE_OPTS', 'HDFS_ZKFC_OPTS', 'ZK_SERVER_HEAP')
MASTERS = ['namenode', 'zkfc', 'journalnode', 'resourcemanager', 'zookeeper']


def prod(memory_gib, cores=8, ha=True):
    """The prod lab's shape: every node stores and computes; the masters on the first two, the quorums on all three."""
    def roles(i):
        out = ['datanode', 'nodemanager']
        if ha:
            out += (MASTERS if i < 2 else ['journalnode', 'zookeeper'])
        elif i == 0:
            out += ['namenode', 'resourcemanager']
        if i == 1:
            out += ['jobhistory', 'spark_history']
        return out
    return [dict(name='n%d' % i, roles=roles(i), cores=cores, memory_mb=memory_gib * 1024) for i in range(3)]


def nm_mb(r, name):
    return int(r['nodemanagers'][name]['yarn.nodemanager.resource.memory-mb'])


@pytest.mark.parametrize('gib, jn, zkfc, zk', [
    (8, 256, 128, 512), (32, 512, 128, 1024), (64, 512, 256, 1024), (128, 1024, 256, 2048), (768, 1024, 256, 2048),
])
def test_heaps_scale_modestly_with_the_smallest_host_running_them(gib, jn, zkfc, zk):
    hosts = prod(gib)
    hosts.append(dict(name='big', roles=['datanode', 'nodemanager', 'journalnode'], cores=8, memory_mb=4 * gib * 1024))
    r = P.plan(hosts)
    assert (r['hadoop_env']['HDFS_JOURNALNODE_OPTS'], r['hadoop_env']['HDFS_ZKFC_OPTS']) == (
        '-Xmx' + P.fmt_size(jn), '-Xmx' + P.fmt_size(zkfc))
    assert r['zookeeper_env'] == {'ZK_SERVER_HEAP': str(zk)}
    assert (r['heaps_mb']['hadoop']['journalnode'], r['heaps_mb']['hadoop']['zkfc'], r['heaps_mb']['zookeeper']) == (
        jn, zkfc, zk)
    # the other daemons' heaps as without HA
    plain = P.plan(prod(gib, ha=False))
    for key, value in plain['hadoop_env'].items():
        assert r['hadoop_env'][key] == value
    assert r['explain']['hadoop_env.HDFS_JOURNALNODE_OPTS'].startswith(
        'n0, the smallest host that runs it, has %d GiB: 256m, 512m from 32 GiB, 1g from 128 GiB.' % gib)
    assert r['explain']['hadoop_env.HDFS_ZKFC_OPTS'].endswith('128m, 256m from 64 GiB.')
    assert r['explain']['hadoop_env.ZK_SERVER_HEAP'].endswith('512m, 1g from 32 GiB, 2g from 128 GiB.')


def test_lab_heaps_are_small_and_fixed():
    r = P.plan(prod(16), lab={'nodes_per_machine': 3})
    assert {k: r['hadoop_env'][k] for k in HA_KEYS[:2]} == {
        'HDFS_JOURNALNODE_OPTS': '-Xmx128m', 'HDFS_ZKFC_OPTS': '-Xmx128m'}
    assert r['zookeeper_env'] == {'ZK_SERVER_HEAP': '256'}
    assert [P.LAB_HEAPS_MB[k] for k in HA_KEYS] == [128, 128, 256]
    for key in HA_KEYS:
        assert r['explain']['hadoop_env.' + key].startswith('Lab mode: a small fixed heap')
    assert 'daemon heaps are 128-512m' in r['explain']['lab']
    assert 'daemon heaps are 256-512m' in P.plan(prod(16, ha=False), lab={'nodes_per_machine': 3})['explain']['lab']


@pytest.mark.parametrize('lab', [None, {'nodes_per_machine': 3, 'machine_cores': 8, 'machine_memory_mb': 48 * 1024}])
def test_their_heaps_are_kept_back_from_yarn_on_a_nodemanager_host(lab):
    ha, plain = P.plan(prod(16), lab=lab), P.plan(prod(16, ha=False), lab=lab)
    grain = 256 if lab else 1024
    jn = P.parse_xmx_mb(ha['hadoop_env']['HDFS_JOURNALNODE_OPTS'])
    zkfc = P.parse_xmx_mb(ha['hadoop_env']['HDFS_ZKFC_OPTS'])
    zk = int(ha['zookeeper_env']['ZK_SERVER_HEAP'])
    for name, extra in (('n0', jn + zkfc + zk), ('n1', jn + zkfc + zk), ('n2', jn + zk)):
        # the same memory less the daemons' heaps, rounded down to the step
        assert nm_mb(plain, name) - nm_mb(ha, name) == -(-extra // grain) * grain, name
        why = ha['explain']['nodemanagers.%s.yarn.nodemanager.resource.memory-mb' % name]
        assert ', plus %d MB for the heap of the JournalNode' % jn in why
        assert ', plus %d MB for the heap of the ZooKeeper server' % zk in why
        assert ('failover controller' in why) == (name != 'n2')
        assert ha['hosts'][name]['nm_mb'] == nm_mb(ha, name)
    assert ha['hosts']['n0']['daemon_heaps_mb'] == {
        'HDFS_NAMENODE_OPTS': P.parse_xmx_mb(ha['hadoop_env']['HDFS_NAMENODE_OPTS']), 'HDFS_JOURNALNODE_OPTS': jn,
        'HDFS_ZKFC_OPTS': zkfc, 'HDFS_DATANODE_OPTS': P.parse_xmx_mb(ha['hadoop_env']['HDFS_DATANODE_OPTS']),
        'YARN_RESOURCEMANAGER_OPTS': P.parse_xmx_mb(ha['hadoop_env']['YARN_RESOURCEMANAGER_OPTS']),
        'YARN_NODEMANAGER_OPTS': P.parse_xmx_mb(ha['hadoop_env']['YARN_NODEMANAGER_OPTS']), 'ZK_SERVER_HEAP': zk}
    assert set(ha['hosts']['n2']['daemon_heaps_mb']) == {
        'HDFS_JOURNALNODE_OPTS', 'HDFS_DATANODE_OPTS', 'YARN_NODEMANAGER_OPTS', 'ZK_SERVER_HEAP'}


def test_kept_back_on_top_of_given_reservations_and_services():
    hosts = prod(64)
    hosts[2]['reservations'] = {'memory_mb': 4096}
    r = P.plan(hosts, other_services=[{'name': 'hbase', 'memory_mb': 2048, 'vcores': 0, 'hosts': ['n2']}])
    assert nm_mb(r, 'n2') == (64 * 1024 - 4096 - 2048 - 512 - 1024) // 1024 * 1024
    assert r['explain']['nodemanagers.n2.yarn.nodemanager.resource.memory-mb'].startswith(
        '65536 MB of memory, kept back 4096 MB (given in reservations), plus 2048 MB for hbase, plus 512 MB for the '
        'heap of the JournalNode, plus 1024 MB for the heap of the ZooKeeper server: ')


def test_the_heap_warning_counts_them():
    """The warning compares every heap on the host with what is kept back: theirs are on both sides."""
    hosts = prod(64)
    hosts[2]['reservations'] = {'memory_mb': 1024}
    r = P.plan(hosts)
    # 512 (JN) + 1024 (ZK) + 1024 (DN) + 1024 (NM) = 3584 MB against 1024 + 512 + 1024 kept back
    assert 'n2: daemon heaps (3584 MB) exceed the memory kept back from YARN (2560 MB); raise reservations.memory_mb ' \
           'or move master daemons off this host' in r['warnings']
    hosts[2]['reservations'] = {'memory_mb': 2048}
    assert not [w for w in P.plan(hosts)['warnings'] if w.startswith('n2:')]


def test_a_master_host_without_a_nodemanager():
    hosts = [dict(name='m%d' % i, roles=MASTERS, cores=4, memory_mb=16384) for i in range(2)]
    hosts.append(dict(name='q', roles=['journalnode', 'zookeeper'], cores=2, memory_mb=4096))
    hosts += [dict(name='w%d' % i, roles=['datanode', 'nodemanager'], cores=16, memory_mb=65536) for i in range(2)]
    r = P.plan(hosts)
    assert (r['heaps_mb']['hadoop']['journalnode'], r['heaps_mb']['zookeeper']) == (256, 512)  # q, 4 GiB
    assert r['explain']['hadoop_env.ZK_SERVER_HEAP'].startswith('q, the smallest host that runs it, has 4 GiB')
    assert nm_mb(r, 'w0') == nm_mb(P.plan(hosts[:2] + hosts[3:]), 'w0') == 57344  # the workers keep their share
    assert r['hosts']['q']['daemon_heaps_mb'] == {'HDFS_JOURNALNODE_OPTS': 256, 'ZK_SERVER_HEAP': 512}


def test_each_daemon_only_when_a_host_runs_it():
    hosts = prod(64, ha=False)
    hosts[0]['roles'].append('journalnode')
    r = P.plan(hosts)
    assert 'HDFS_JOURNALNODE_OPTS' in r['hadoop_env'] and 'HDFS_ZKFC_OPTS' not in r['hadoop_env']
    assert 'zookeeper_env' not in r and 'zookeeper' not in r['heaps_mb'] and 'zkfc' not in r['heaps_mb']['hadoop']
    plain = P.plan(prod(64, ha=False))
    assert 'zookeeper_env' not in plain
    assert not set(HA_KEYS) & set(plain['hadoop_env']) and not set(HA_KEYS) & set(plain['explain'])
    assert list(plain) == list(P.plan(prod(64)))[:5] + [k for k in list(P.plan(prod(64)))[5:] if k != 'zookeeper_env']


def test_stock_sets_no_heaps_and_other_profiles_plan_them():
    r = P.plan(prod(64), profile='stock')
    assert r['hadoop_env'] == {} and r['heaps_mb'] == {} and 'zookeeper_env' not in r
    for profile in ('seed', 'ambari', 'hdp', 'emr', 'cloudera', 'dataproc'):
        r = P.plan(prod(64), profile=profile)
        assert r['heaps_mb']['zookeeper'] == 1024 and r['heaps_mb']['hadoop']['zkfc'] == 256, profile


def test_overrides_reach_heaps_mb():
    r = P.plan(prod(64), overrides={'HDFS_JOURNALNODE_OPTS': '-Xmx2g', 'ZK_SERVER_HEAP': 3072, 'HDFS_ZKFC_OPTS': '-Xmx300m'})
    assert r['heaps_mb']['hadoop']['journalnode'] == 2048 and r['heaps_mb']['hadoop']['zkfc'] == 300
    assert r['zookeeper_env'] == {'ZK_SERVER_HEAP': '3072'} and r['heaps_mb']['zookeeper'] == 3072
    assert r['hosts']['n2']['heaps_mb']['zookeeper'] == 3072
    assert r['hosts']['n2']['daemon_heaps_mb']['ZK_SERVER_HEAP'] == 3072
    assert r['explain']['ZK_SERVER_HEAP'] == 'Overridden by the user (overrides.ZK_SERVER_HEAP).'


@pytest.mark.parametrize('overrides, words', [
    ({'ZK_SERVER_HEAP': '1g'}, r"overrides.ZK_SERVER_HEAP: '1g' is not valid. Allowed: a whole number of MiB"),
    ({'HDFS_ZKFC_OPTS': '-Xms1g'}, r'overrides.HDFS_ZKFC_OPTS: .* holding -Xmx'),
])
def test_bad_overrides(overrides, words):
    with pytest.raises(P.PlanError, match=words):
        P.plan(prod(64), overrides=overrides)


def test_overriding_a_daemon_no_host_runs_is_an_unknown_property():
    with pytest.raises(P.PlanError, match="overrides: unknown property 'ZK_SERVER_HEAP'"):
        P.plan(prod(64, ha=False), overrides={'ZK_SERVER_HEAP': 1024})


def test_invariants_hold_and_every_heap_is_explained():
    for kwargs in ({}, {'lab': {'nodes_per_machine': 3}}):
        r = P.plan(prod(24), **kwargs)
        assert P.check_invariants(r) == []
        for key in list(r['hadoop_env']) + list(r['zookeeper_env']):
            assert r['explain']['hadoop_env.' + key].endswith('.'), key


def test_from_the_inventory_groups():
    """plan_hosts gives the roles from the HA groups; the planner plans them (the prod lab's inventory)."""
    groups = {'hadoop': ['m', 'w1', 'w2'], 'namenode': ['m', 'w1'], 'resourcemanager': ['m', 'w1'],
              'journalnodes': ['m', 'w1', 'w2'], 'zookeeper': ['m', 'w1', 'w2'], 'jobhistory': ['w1'],
              'spark_history': ['w1'], 'datanodes': ['m', 'w1', 'w2'], 'nodemanagers': ['m', 'w1', 'w2']}
    hw = {'cpu': {'logical': 2}, 'memory': {'total_bytes': 16 * 1024 ** 3}}
    hosts = plan_hosts(groups, dict((h, {'bigdata_hardware': hw}) for h in groups['hadoop']))
    r = P.plan(hosts, lab={'nodes_per_machine': 3})
    assert r['hosts']['w2']['heaps_mb'] == r['heaps_mb']
    assert r['heaps_mb']['hadoop']['journalnode'] == 128 and r['heaps_mb']['zookeeper'] == 256
    assert set(r['hosts']['m']['daemon_heaps_mb']) >= set(HA_KEYS)
