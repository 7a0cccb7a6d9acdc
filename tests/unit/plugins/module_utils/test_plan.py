"""Tables of real machines with exact expected plans (the seed's first)."""

import pytest

from ansible_collections.bigdata.spark.plugins.module_utils import plan as P

GIB_MB = 1024
MASTER = ['namenode', 'resourcemanager', 'jobhistory', 'spark_history']
WORKER = ['datanode', 'nodemanager']


def cluster(n, cores, mem_gib, disks=4, master_on_first=True, **extra):
    hosts = []
    for i in range(1, n + 1):
        roles = WORKER + (MASTER if (i == 1 and master_on_first) else [])
        hosts.append(dict(name='node%d' % i, roles=roles, cores=cores, memory_mb=mem_gib * GIB_MB,
                          disks=disks, **extra))
    return hosts


SEED = cluster(3, 192, 768)


def test_seed_sql_heavy_exact():
    """The seed 000 table: 3 x 192 cores / 768 GiB, 3e12 bytes of shuffle, sql_heavy, reproduced by profile seed."""
    r = P.plan(SEED, profile='seed', workload='sql_heavy', shuffle_data_bytes=3 * 10 ** 12)
    y, m, s = r['yarn_site'], r['mapred_site'], r['spark_defaults']
    assert y['yarn.nodemanager.resource.cpu-vcores'] == '186'
    assert y['yarn.nodemanager.resource.memory-mb'] == '737280'
    assert y['yarn.scheduler.maximum-allocation-mb'] == '81920'
    assert y['yarn.scheduler.minimum-allocation-mb'] == '1024'
    assert y['yarn.scheduler.maximum-allocation-vcores'] == '186'
    assert s['spark.executor.cores'] == '5'
    assert s['spark.executor.instances'] == '108'
    assert s['spark.executor.memory'] == '18g'
    assert s['spark.executor.memoryOverhead'] == '2g'
    assert s['spark.driver.memory'] == '64g'
    assert s['spark.sql.shuffle.partitions'] == '12000'
    assert s['spark.default.parallelism'] == '1080'
    assert m['mapreduce.map.memory.mb'] == '2048'
    assert m['mapreduce.map.java.opts'] == '-Xmx2g'
    assert m['mapreduce.reduce.memory.mb'] == '4096'
    assert m['mapreduce.reduce.java.opts'] == '-Xmx3g'
    for host in ('node1', 'node2', 'node3'):
        assert r['nodemanagers'][host] == {'yarn.nodemanager.resource.memory-mb': '737280',
                                           'yarn.nodemanager.resource.cpu-vcores': '186'}


def test_seed_default_workload_driver_32g():
    r = P.plan(SEED, profile='seed', shuffle_data_bytes=3 * 10 ** 12)
    assert r['spark_defaults']['spark.driver.memory'] == '32g'
    assert r['yarn_site']['yarn.scheduler.maximum-allocation-mb'] == '49152'
    assert r['spark_defaults']['spark.executor.instances'] == '108'


def test_seed_hadoop_env_and_explain():
    r = P.plan(SEED, profile='seed', workload='sql_heavy', shuffle_data_bytes=3 * 10 ** 12)
    assert r['hadoop_env'] == {
        'HADOOP_HEAPSIZE_MAX': '1g', 'HDFS_NAMENODE_OPTS': '-Xmx12g', 'HDFS_SECONDARYNAMENODE_OPTS': '-Xmx12g',
        'HDFS_DATANODE_OPTS': '-Xmx3g', 'YARN_RESOURCEMANAGER_OPTS': '-Xmx6g', 'YARN_NODEMANAGER_OPTS': '-Xmx3g',
        'MAPRED_HISTORYSERVER_OPTS': '-Xmx2g'}
    assert r['spark_env'] == {'SPARK_DAEMON_MEMORY': '2g'}
    # the same heaps as numbers for the roles (hadoop_heap_mb, spark_daemon_heap_mb)
    assert r['heaps_mb'] == {'hadoop': {'namenode': 12288, 'secondarynamenode': 12288, 'datanode': 3072,
                                        'resourcemanager': 6144,
                                        'nodemanager': 3072, 'historyserver': 2048}, 'spark_history': 2048}
    for section in ('yarn_site', 'mapred_site', 'spark_defaults'):
        for key in r[section]:
            if key.endswith('cpu.vcores') or key == 'yarn.scheduler.minimum-allocation-vcores':
                continue
            assert key in r['explain'], key
    assert '192 CPU(s) less ceil(192 / 32) = 6 kept back' in r['explain']['nodemanagers.node1.yarn.nodemanager.resource.cpu-vcores']
    assert '12000' in r['explain']['spark.sql.shuffle.partitions']
    assert any(w.startswith('mapreduce.map.java.opts: -Xmx2g equals') for w in r['warnings'])


def test_seed_profile_warns_what_the_seed_gets_wrong():
    """The driver's 72704 MB container leaves room for 104 of the 108 executors: a warning, not an error."""
    r = P.plan(SEED, profile='seed', workload='sql_heavy', shuffle_data_bytes=3 * 10 ** 12)
    assert r['capacity']['cluster'] == 104 and r['capacity']['driver_mb'] == 72704
    assert 'seed profile: spark.executor.instances 108 > the 104 executors YARN can grant beside the driver ' \
        '(cluster mode)' in r['warnings']
    assert any(w.startswith('seed profile: mapreduce.map.java.opts -Xmx 2048 MB') for w in r['warnings'])
    assert r['explain']['profile'].startswith('seed')


def test_default_on_the_seed_shape_exact():
    """The default departs from the seed: every executor it asks for is granted beside the 64g driver."""
    r = P.plan(SEED, workload='sql_heavy', shuffle_data_bytes=3 * 10 ** 12)
    y, m, s = r['yarn_site'], r['mapred_site'], r['spark_defaults']
    assert (y['yarn.nodemanager.resource.memory-mb'], y['yarn.nodemanager.resource.cpu-vcores'],
            y['yarn.scheduler.minimum-allocation-mb'], y['yarn.scheduler.maximum-allocation-mb'],
            y['yarn.scheduler.maximum-allocation-vcores']) == ('737280', '186', '1024', '81920', '186')
    assert s == {'spark.executor.cores': '5', 'spark.executor.memory': '16g', 'spark.executor.memoryOverhead': '2g',
                 'spark.executor.instances': '111', 'spark.driver.memory': '64g', 'spark.yarn.am.memory': '1g',
                 'spark.sql.shuffle.partitions': '12000', 'spark.default.parallelism': '1110',
                 'spark.dynamicAllocation.enabled': 'false'}
    assert m == {'mapreduce.map.memory.mb': '2048', 'mapreduce.map.java.opts': '-Xmx1638m',
                 'mapreduce.map.cpu.vcores': '1', 'mapreduce.reduce.memory.mb': '4096',
                 'mapreduce.reduce.java.opts': '-Xmx3276m', 'mapreduce.reduce.cpu.vcores': '1',
                 'yarn.app.mapreduce.am.resource.mb': '4096', 'yarn.app.mapreduce.am.command-opts': '-Xmx3276m'}
    assert r['capacity'] == {'cluster': 116, 'client': 119, 'executor_mb': 18432, 'driver_mb': 72704, 'am_mb': 2048,
                             'mapreduce': {'am_mb': 4096, 'map_mb': 2048, 'maps': 1078}}
    assert r['hadoop_env'] == P.plan(SEED, profile='seed')['hadoop_env']
    assert r['warnings'] == []
    node2 = r['hosts']['node2']
    assert {k: v for k, v in node2.items() if k not in ('yarn_site', 'mapred_site', 'spark_defaults')} == {
        'cores': 192, 'memory_mb': 786432, 'nm_mb': 737280, 'vcores': 186, 'executors': 37, 'maps': 186,
        'daemon_heaps_mb': {'HDFS_DATANODE_OPTS': 3072, 'YARN_NODEMANAGER_OPTS': 3072},
        'heaps_mb': {'hadoop': {'namenode': 12288, 'secondarynamenode': 12288, 'datanode': 3072,
                                'resourcemanager': 6144, 'nodemanager': 3072,
                                'historyserver': 2048}, 'spark_history': 2048}}
    assert (node2['yarn_site'], node2['mapred_site'], node2['spark_defaults']) == (y, m, s)
    assert 'every executor asked for is granted' in r['explain']['spark.executor.instances']


def test_default_on_the_seed_shape_default_workload():
    r = P.plan(SEED, shuffle_data_bytes=3 * 10 ** 12)
    s = r['spark_defaults']
    assert (s['spark.executor.instances'], s['spark.executor.memory'], s['spark.driver.memory']) == ('110', '17g', '32g')
    assert r['yarn_site']['yarn.scheduler.maximum-allocation-mb'] == '49152'
    assert (r['capacity']['cluster'], r['capacity']['client']) == (110, 111)


@pytest.mark.parametrize('shape, kwargs, expected', [
    # 16 cores / 64 GiB, 6 nodes (the Cloudera post's cluster): 3 executors of 16g + 2g per node, one fewer
    # on the node that holds the 8g driver
    ((6, 16, 64), {}, {'nm': '57344', 'vcores': '15', 'ec': '5', 'inst': '17', 'mem': '16g',
                       'over': '2g', 'driver': '8g', 'maxalloc': '32768', 'map': '2048', 'mapx': '-Xmx1638m',
                       'red': '4096', 'redx': '-Xmx3276m', 'parts': '170', 'cap': (17, 18, 166)}),
    # small VM: 4 cores / 16 GiB, 3 nodes
    ((3, 4, 16), {}, {'nm': '12288', 'vcores': '3', 'ec': '3', 'inst': '3', 'mem': '6400m',
                      'over': '768m', 'driver': '4g', 'maxalloc': '12288', 'map': '1024', 'mapx': '-Xmx819m',
                      'red': '2048', 'redx': '-Xmx1638m', 'parts': '18', 'cap': (3, 3, 34)}),
    # 2 cores / 4 GiB single node: the driver and one executor share the 3072 MB NodeManager
    ((1, 2, 4), {}, {'nm': '3072', 'vcores': '1', 'ec': '1', 'inst': '1', 'mem': '1152m',
                     'over': '384m', 'driver': '1g', 'maxalloc': '3072', 'map': '256', 'mapx': '-Xmx204m',
                     'red': '512', 'redx': '-Xmx409m', 'parts': '2', 'cap': (1, 1, 10)}),
    # 8 cores / 32 GiB single node: two 3-core executors beat one 5-core executor by more than 10%
    ((1, 8, 32), {}, {'nm': '24576', 'vcores': '7', 'ec': '3', 'inst': '2', 'mem': '8g',
                      'over': '1g', 'driver': '4g', 'maxalloc': '16384', 'map': '2048', 'mapx': '-Xmx1638m',
                      'red': '4096', 'redx': '-Xmx3276m', 'parts': '12', 'cap': (2, 2, 10)}),
    # 64 cores / 256 GiB, 4 nodes; reserve_am_slot is ignored now (the driver is planned)
    ((4, 64, 256), {'reserve_am_slot': True}, {
        'nm': '245760', 'vcores': '62', 'ec': '5', 'inst': '46', 'mem': '18g', 'over': '2g', 'driver': '32g',
        'maxalloc': '49152', 'map': '2048', 'mapx': '-Xmx1638m', 'red': '4096', 'redx': '-Xmx3276m', 'parts': '460',
        'cap': (46, 47, 478)}),
    # 96 cores / 384 GiB with executor_cores 4
    ((2, 96, 384), {'executor_cores': 4}, {
        'nm': '368640', 'vcores': '93', 'ec': '4', 'inst': '45', 'mem': '13952m', 'over': '1408m', 'driver': '32g',
        'maxalloc': '49152', 'map': '2048', 'mapx': '-Xmx1638m', 'red': '4096', 'redx': '-Xmx3276m', 'parts': '360',
        'cap': (45, 47, 358)}),
    # the seed's shape in client mode: no driver container, so 37 executors on every node
    ((3, 192, 768), {'driver_deploy_mode': 'client'}, {
        'nm': '737280', 'vcores': '186', 'ec': '5', 'inst': '111', 'mem': '17g', 'over': '2g', 'driver': '32g',
        'maxalloc': '49152', 'map': '2048', 'mapx': '-Xmx1638m', 'red': '4096', 'redx': '-Xmx3276m', 'parts': '1110',
        'cap': (110, 111, 1078)}),
])
def test_machine_table(shape, kwargs, expected):
    r = P.plan(cluster(*shape), **kwargs)
    y, m, s = r['yarn_site'], r['mapred_site'], r['spark_defaults']
    got = {'nm': y['yarn.nodemanager.resource.memory-mb'], 'vcores': y['yarn.nodemanager.resource.cpu-vcores'],
           'ec': s['spark.executor.cores'], 'inst': s['spark.executor.instances'],
           'mem': s['spark.executor.memory'], 'over': s['spark.executor.memoryOverhead'],
           'driver': s['spark.driver.memory'], 'maxalloc': y['yarn.scheduler.maximum-allocation-mb'],
           'map': m['mapreduce.map.memory.mb'], 'mapx': m['mapreduce.map.java.opts'],
           'red': m['mapreduce.reduce.memory.mb'], 'redx': m['mapreduce.reduce.java.opts'],
           'parts': s['spark.sql.shuffle.partitions'],
           'cap': (r['capacity']['cluster'], r['capacity']['client'], r['capacity']['mapreduce']['maps'])}
    assert got == expected
    assert P.check_invariants(r) == []


def test_reserve_am_slot_is_deprecated_and_ignored():
    on = P.plan(cluster(4, 64, 256), reserve_am_slot=True)
    off = P.plan(cluster(4, 64, 256))
    assert on['spark_defaults'] == off['spark_defaults']
    assert any(w.startswith('reserve_am_slot: deprecated and ignored') for w in on['warnings'])
    assert not any('reserve_am_slot' in w for w in off['warnings'])


def test_heterogeneous_cluster_per_host_values():
    hosts = cluster(2, 192, 768) + [dict(name='small', roles=WORKER, cores=32, memory_mb=128 * 1024, disks=2)]
    r = P.plan(hosts)
    assert r['nodemanagers']['small'] == {'yarn.nodemanager.resource.memory-mb': '122880',
                                          'yarn.nodemanager.resource.cpu-vcores': '31'}
    assert r['nodemanagers']['node1']['yarn.nodemanager.resource.memory-mb'] == '737280'
    # one executor size for the cluster, counted per host: 37 + 37 on the big nodes, 6 on the small one,
    # less the two the 32g driver's container takes on a big node
    assert r['spark_defaults']['spark.executor.memory'] == '17g'
    assert [r['hosts'][h]['executors'] for h in ('node1', 'node2', 'small')] == [37, 37, 6]
    assert r['spark_defaults']['spark.executor.instances'] == '78'
    assert r['capacity']['cluster'] == 78
    assert r['yarn_site']['yarn.nodemanager.resource.memory-mb'] == '122880'
    assert r['yarn_site']['yarn.scheduler.maximum-allocation-mb'] == '49152'
    assert r['warnings'] == []
    # each host's yarn_site carries its own NodeManager share, the rest is the cluster's
    for name in ('node1', 'node2', 'small'):
        assert r['hosts'][name]['yarn_site'] == dict(r['yarn_site'], **r['nodemanagers'][name])
    assert r['hosts']['node1']['yarn_site']['yarn.nodemanager.resource.memory-mb'] == '737280'
    assert r['hosts']['small']['yarn_site']['yarn.nodemanager.resource.memory-mb'] == '122880'
    assert [r['hosts'][h]['maps'] for h in ('node1', 'node2', 'small')] == [186, 186, 31]


def test_mixed_tiny_node_does_not_shrink_the_cluster():
    """A 2-core/4 GiB node beside a 192-core/768 GiB node: sized for the big node, the small one named."""
    hosts = cluster(1, 192, 768) + [dict(name='small', roles=WORKER, cores=2, memory_mb=4096)]
    r = P.plan(hosts)
    y, m, s = r['yarn_site'], r['mapred_site'], r['spark_defaults']
    assert y['yarn.scheduler.maximum-allocation-mb'] == '49152'
    assert (m['mapreduce.map.memory.mb'], s['spark.driver.memory'], s['spark.executor.memory']) == ('2048', '32g', '16g')
    assert (s['spark.executor.cores'], s['spark.executor.instances']) == ('5', '37')
    assert r['nodemanagers']['small'] == {'yarn.nodemanager.resource.memory-mb': '3072',
                                          'yarn.nodemanager.resource.cpu-vcores': '1'}
    idle = [w for w in r['warnings'] if w.startswith('small: gets no Spark executor')]
    assert len(idle) == 1
    assert '1 vcore(s) and 3072 MB stay idle' in idle[0] and 'nodemanagers group' in idle[0]


def test_mixed_fat_node_with_few_cores_is_named():
    """A 4-core/512 GiB node among 64-core/256 GiB nodes cannot hold a 5-core executor: the warning says the cost."""
    hosts = cluster(4, 64, 256) + [dict(name='fat', roles=WORKER, cores=4, memory_mb=512 * 1024)]
    r = P.plan(hosts)
    assert r['spark_defaults']['spark.executor.instances'] == '48'
    assert r['hosts']['fat']['executors'] == 0
    idle = [w for w in r['warnings'] if w.startswith('fat:')]
    assert idle == ['fat: gets no Spark executor (it has 3 vcore(s), an executor needs 5), so its 3 vcore(s) and '
                    '491520 MB stay idle for Spark (MapReduce can still use them). Move it out of the nodemanagers '
                    'group, give it reservations, or plan it as a separate cluster']
    assert int(r['yarn_site']['yarn.scheduler.maximum-allocation-mb']) <= 491520


def test_very_large_node_gets_more_executors_not_a_huge_overhead():
    r = P.plan([dict(name='big', roles=WORKER + MASTER, cores=8192, memory_mb=64 * 1024 * 1024)])
    s = r['spark_defaults']
    heap = P.parse_size_mb(s['spark.executor.memory'])
    over = P.parse_size_mb(s['spark.executor.memoryOverhead'])
    assert heap <= 64 * 1024 and over <= max(384, 0.15 * heap)
    assert int(s['spark.executor.instances']) > 1000
    assert P.check_invariants(r) == []


LAB_HOSTS = [
    dict(name='bd-master', roles=MASTER, cores=2, memory_mb=24 * 1024, memory_limit_mb=6 * 1024),
    dict(name='bd-worker1', roles=WORKER, cores=2, memory_mb=24 * 1024, memory_limit_mb=5 * 1024),
    dict(name='bd-worker2', roles=WORKER, cores=2, memory_mb=24 * 1024, memory_limit_mb=5 * 1024),
]


def test_lab_mode_two_workers_exact():
    """The podman lab: 2 CPUs and 24 GiB for 3 containers, workers limited to 5 GiB."""
    r = P.plan(LAB_HOSTS, lab={'nodes_per_machine': 3})
    # Each container can use both CPUs; the executors of the whole lab together get the machine's 2 CPUs, in one
    # executor (one JVM, shuffle local): 1.3-1.5x faster than two 1-core executors when measured (docs/sizing.md).
    for nm in r['nodemanagers'].values():
        assert nm == {'yarn.nodemanager.resource.memory-mb': '3840', 'yarn.nodemanager.resource.cpu-vcores': '2'}
    assert r['yarn_site'] == {
        'yarn.nodemanager.resource.memory-mb': '3840', 'yarn.nodemanager.resource.cpu-vcores': '2',
        'yarn.scheduler.minimum-allocation-mb': '256', 'yarn.scheduler.maximum-allocation-mb': '3840',
        'yarn.scheduler.minimum-allocation-vcores': '1', 'yarn.scheduler.maximum-allocation-vcores': '2'}
    assert r['spark_defaults'] == {
        'spark.executor.cores': '2', 'spark.executor.memory': '3456m', 'spark.executor.memoryOverhead': '384m',
        'spark.executor.instances': '1', 'spark.driver.memory': '1g', 'spark.yarn.am.memory': '512m',
        'spark.sql.shuffle.partitions': '4', 'spark.default.parallelism': '4',
        'spark.dynamicAllocation.enabled': 'false'}
    assert r['mapred_site'] == {
        'mapreduce.map.memory.mb': '512', 'mapreduce.map.java.opts': '-Xmx409m', 'mapreduce.map.cpu.vcores': '1',
        'mapreduce.reduce.memory.mb': '1024', 'mapreduce.reduce.java.opts': '-Xmx819m',
        'mapreduce.reduce.cpu.vcores': '1', 'yarn.app.mapreduce.am.resource.mb': '1024',
        'yarn.app.mapreduce.am.command-opts': '-Xmx819m'}
    assert r['hadoop_env'] == {
        'HADOOP_HEAPSIZE_MAX': '256m', 'HDFS_NAMENODE_OPTS': '-Xmx512m', 'HDFS_SECONDARYNAMENODE_OPTS': '-Xmx256m',
        'HDFS_DATANODE_OPTS': '-Xmx256m', 'YARN_RESOURCEMANAGER_OPTS': '-Xmx512m', 'YARN_NODEMANAGER_OPTS': '-Xmx256m',
        'MAPRED_HISTORYSERVER_OPTS': '-Xmx256m'}
    assert r['capacity'] == {'cluster': 1, 'client': 1, 'executor_mb': 3840, 'driver_mb': 1536, 'am_mb': 1024,
                             'mapreduce': {'am_mb': 1024, 'map_mb': 512, 'maps': 12}}
    assert r['warnings'] == []
    assert "never exceed the machine's CPUs" in r['explain']['lab']
    assert P.check_invariants(r) == []


def test_lab_mode_without_memory_limit():
    hosts = [dict(h, memory_limit_mb=None) for h in LAB_HOSTS]
    r = P.plan(hosts, lab={'nodes_per_machine': 3})
    assert r['nodemanagers']['bd-worker1']['yarn.nodemanager.resource.memory-mb'] == '6144'
    assert r['spark_defaults']['spark.executor.instances'] == '1'
    assert r['spark_defaults']['spark.executor.cores'] == '2'
    assert P.parse_size_mb(r['spark_defaults']['spark.executor.memory']) > 4096


def _fits(nms, first, unit, wanted):
    """Place first on each node in turn, then fill with unit-sized containers: do wanted fit every time?"""
    for i, nm in enumerate(nms):
        if nm < first:
            continue
        room = sum(n // unit for n in nms[:i] + nms[i + 1:]) + (nm - first) // unit
        if room < wanted:
            return False
    return True


def test_lab_jobs_fit():
    """With the default plan, a Spark app in client mode (AM 512m + 384m) and in cluster mode (the driver) gets
    every executor it asks for; a MapReduce job gets its AM and at least one map on each worker."""
    r = P.plan(LAB_HOSTS, lab={'nodes_per_machine': 3})
    step = int(r['yarn_site']['yarn.scheduler.minimum-allocation-mb'])
    nms = [int(nm['yarn.nodemanager.resource.memory-mb']) for nm in r['nodemanagers'].values()]
    s = r['spark_defaults']
    executor = P.roundup(P.parse_size_mb(s['spark.executor.memory']) + P.parse_size_mb(s['spark.executor.memoryOverhead']), step)
    driver = P.parse_size_mb(s['spark.driver.memory'])
    wanted = int(s['spark.executor.instances'])
    assert wanted == 1 and P.parse_size_mb(s['spark.executor.memory']) >= 3072
    assert _fits(nms, P.roundup(driver + max(384, driver // 10), step), executor, wanted)
    assert _fits(nms, P.roundup(512 + 384, step), executor, wanted)
    mr_am = int(r['mapred_site']['yarn.app.mapreduce.am.resource.mb'])
    map_mb = int(r['mapred_site']['mapreduce.map.memory.mb'])
    for i, nm in enumerate(nms):
        assert (nm - mr_am) // map_mb >= 1
        assert all(other // map_mb >= 1 for other in nms[:i] + nms[i + 1:])


@pytest.mark.parametrize('profile, expected', [
    ('seed', {'nm': '737280', 'vcores': '186', 'minalloc': '1024', 'map': '2048', 'red': '4096'}),
    ('ambari', {'nm': '720896', 'vcores': '153', 'minalloc': '90112', 'map': '90112', 'red': '90112'}),
    ('hdp', {'nm': '720896', 'vcores': '192', 'minalloc': '90112', 'map': '90112', 'red': '180224'}),
    ('emr', {'nm': '778240', 'vcores': '192', 'minalloc': '32', 'map': '4032', 'red': '8064'}),
    ('cloudera', {'nm': '785408', 'vcores': '191', 'minalloc': '1024', 'map': '1024', 'red': '1024'}),
    ('dataproc', {'nm': '628992', 'vcores': '192', 'minalloc': '1024', 'map': '1024', 'red': '1024'}),
    ('stock', {'nm': '8192', 'vcores': '8', 'minalloc': '1024', 'map': '1024', 'red': '1024'}),
])
def test_peer_profiles_on_seed(profile, expected):
    r = P.plan(SEED, profile=profile)
    y, m = r['yarn_site'], r['mapred_site']
    got = {'nm': y['yarn.nodemanager.resource.memory-mb'], 'vcores': y['yarn.nodemanager.resource.cpu-vcores'],
           'minalloc': y['yarn.scheduler.minimum-allocation-mb'], 'map': m['mapreduce.map.memory.mb'],
           'red': m['mapreduce.reduce.memory.mb']}
    assert got == expected
    assert r['explain']['profile'].startswith(profile)


def test_cloudera_profile_reproduces_the_post():
    """6 nodes x 16 cores x 64 GB: 17 executors of 5 cores and 19 GB, as in the Cloudera post."""
    r = P.plan(cluster(6, 16, 64), profile='cloudera')
    s = r['spark_defaults']
    assert (s['spark.executor.instances'], s['spark.executor.cores'], s['spark.executor.memory']) == ('17', '5', '19g')
    assert r['yarn_site']['yarn.nodemanager.resource.memory-mb'] == str(63 * 1024)
    assert r['yarn_site']['yarn.nodemanager.resource.cpu-vcores'] == '15'


def test_emr_profile_matches_published_m5_xlarge():
    """EMR publishes 12288 MB NodeManager, 3072 MB map, -Xmx2458m for m5.xlarge (4 vCPU, 16 GiB)."""
    r = P.plan(cluster(2, 4, 16, master_on_first=False), profile='emr')
    assert r['yarn_site']['yarn.nodemanager.resource.memory-mb'] == '12288'
    assert r['mapred_site']['mapreduce.map.memory.mb'] == '3072'
    assert r['mapred_site']['mapreduce.map.java.opts'] == '-Xmx2457m'
    assert r['mapred_site']['mapreduce.reduce.memory.mb'] == '6144'


def test_ambari_zero_disks_gives_three_containers():
    r = P.plan(cluster(1, 8, 32, disks=0), profile='ambari')
    # 32 GiB: 6 GiB OS reserve -> 26624 MB / 3 containers = 8874 -> 8704 (multiple of 512)
    assert r['yarn_site']['yarn.scheduler.minimum-allocation-mb'] == '8704'
    assert r['yarn_site']['yarn.nodemanager.resource.memory-mb'] == str(3 * 8704)


def test_overrides_win_and_are_explained():
    r = P.plan(SEED, overrides={'spark.executor.instances': 100, 'spark.sql.shuffle.partitions': '6000'})
    assert r['spark_defaults']['spark.executor.instances'] == '100'
    assert r['explain']['spark.sql.shuffle.partitions'].startswith('Overridden')


def test_heap_numbers_follow_overrides_and_stock_has_none():
    r = P.plan(SEED, overrides={'HDFS_NAMENODE_OPTS': '-Xmx20g', 'SPARK_DAEMON_MEMORY': '3g'})
    assert r['hadoop_env']['HDFS_NAMENODE_OPTS'] == '-Xmx20g'
    assert r['heaps_mb']['hadoop']['namenode'] == 20480
    assert r['heaps_mb']['spark_history'] == 3072
    stock = P.plan(SEED, profile='stock')
    assert stock['heaps_mb'] == {} and all(h['heaps_mb'] == {} for h in stock['hosts'].values())


def test_other_services_and_reservations():
    r = P.plan(SEED, other_services=[{'name': 'hbase', 'memory_mb': 32768, 'vcores': 4}])
    assert r['yarn_site']['yarn.nodemanager.resource.memory-mb'] == str(737280 - 32768)
    assert r['yarn_site']['yarn.nodemanager.resource.cpu-vcores'] == '182'
    r = P.plan(SEED, reservations={'memory_mb': 16384, 'vcores': 2})
    assert r['yarn_site']['yarn.nodemanager.resource.memory-mb'] == str(752 * 1024)
    assert r['yarn_site']['yarn.nodemanager.resource.cpu-vcores'] == '190'


def test_host_from_facts_prefers_installed_memory():
    facts = {'cpu': {'logical': 192}, 'memory': {'total_bytes': 790 * 10 ** 9, 'installed_bytes': 768 * 2 ** 30},
             'disks': [{}, {}, {}, {}]}
    host = P.host_from_facts('a', WORKER, facts)
    assert (host['cores'], host['memory_mb'], host['disks']) == (192, 768 * 1024, 4)
    r = P.plan([{'name': 'a', 'roles': WORKER, 'facts': facts}])
    assert r['yarn_site']['yarn.nodemanager.resource.memory-mb'] == '737280'


@pytest.mark.parametrize('mb, text', [(18432, '18g'), (640, '640m'), (1024, '1g'), (1536, '1536m'), (384, '384m')])
def test_fmt_size(mb, text):
    assert P.fmt_size(mb) == text
    assert P.parse_size_mb(text) == mb


def _arm_hosts(page_size, arch='aarch64', distribution=None):
    facts = {'cpu': {'logical': 64, 'architecture': arch},
             'memory': {'total_bytes': 256 * 2 ** 30, 'page_size': page_size}, 'disks': ['a', 'b']}
    if distribution:
        facts['distribution'] = distribution
    return [{'name': 'm', 'roles': ['namenode', 'resourcemanager'], 'facts': dict(facts)},
            {'name': 'w1', 'roles': ['datanode', 'nodemanager'], 'facts': dict(facts)},
            {'name': 'w2', 'roles': ['datanode', 'nodemanager'], 'facts': dict(facts, cpu={'logical': 64, 'architecture': 'x86_64'})}]


def test_page_size_advice_for_aarch64_with_4k_pages():
    r = P.plan(_arm_hosts(4096, distribution='Ubuntu'))
    assert sorted(r['page_size_advice']) == ['m', 'w1']
    assert 'linux-generic-64k' in r['page_size_advice']['w1']
    advice = [w for w in r['warnings'] if '64 KB page kernel' in w]
    assert len(advice) == 1 and advice[0].startswith('m, w1: aarch64 with 4 KB pages')
    assert '40% faster HiBench TeraSort and 9% faster TPC-DS' in advice[0]


def test_page_size_advice_lists_every_distribution_when_unknown():
    text = P.plan(_arm_hosts(4096))['page_size_advice']['w1']
    for hint in ('linux-generic-64k', 'kernel-64k', 'kernel-64kb', 'CONFIG_ARM64_64K_PAGES=y'):
        assert hint in text


@pytest.mark.parametrize('page_size,arch', [(65536, 'aarch64'), (4096, 'x86_64'), (None, 'aarch64')])
def test_no_page_size_advice(page_size, arch):
    r = P.plan(_arm_hosts(page_size, arch=arch))
    assert r['page_size_advice'] == {}
    assert not [w for w in r['warnings'] if '64 KB' in w]


def test_page_size_must_be_positive():
    hosts = [{'name': 'a', 'roles': ['namenode', 'nodemanager'], 'cores': 8, 'memory_mb': 32768, 'page_size': 0,
              'architecture': 'aarch64'}]
    with pytest.raises(P.PlanError, match=r'hosts\[a\].page_size'):
        P.plan(hosts)


def test_dataproc_overhead_keeps_sparks_floor():
    """Half of a small worker's NodeManager split as heap = container / 1.1 left 140m of overhead; Spark's floor is 384m."""
    r = P.plan(cluster(2, 4, 8, master_on_first=False), profile='dataproc')
    assert P.parse_size_mb(r['spark_defaults']['spark.executor.memoryOverhead']) >= 384
    assert not [w for w in r['warnings'] if 'memoryOverhead' in w]


@pytest.mark.parametrize('hosts, kwargs', [
    (SEED, {'workload': 'sql_heavy'}), (LAB_HOSTS, {'lab': {'nodes_per_machine': 3}}),
    (cluster(4, 64, 256) + [dict(name='fat', roles=WORKER, cores=4, memory_mb=512 * 1024)], {}),
])
def test_every_value_is_explained_in_sentences(hosts, kwargs):
    r = P.plan(hosts, **kwargs)
    for section in ('yarn_site', 'mapred_site', 'spark_defaults'):
        for key in r[section]:
            if key.endswith('cpu.vcores') or key == 'yarn.scheduler.minimum-allocation-vcores':
                continue
            assert r['explain'][key][0].isupper() and r['explain'][key].endswith('.'), key
    for key in r['hadoop_env']:
        assert 'hadoop_env.' + key in r['explain']
    for name in r['nodemanagers']:
        assert r['explain']['nodemanagers.%s.yarn.nodemanager.resource.memory-mb' % name].endswith('.')
    assert r['explain']['capacity'].startswith('What YARN can grant')
