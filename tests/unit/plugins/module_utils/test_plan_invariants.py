"""Invariants over thousands of random cluster shapes (hypothesis), mixed clusters and lab mode included."""

import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ansible_collections.bigdata.spark.plugins.module_utils import plan as P

ROLESETS = [['datanode', 'nodemanager'], ['datanode', 'nodemanager', 'namenode', 'resourcemanager'],
            ['nodemanager'], ['datanode', 'nodemanager', 'jobhistory', 'spark_history']]

node = st.fixed_dictionaries({
    'cores': st.one_of(st.integers(1, 512), st.integers(1, P.MAX_CORES)),
    # from 3 GiB: a NodeManager of 2048 MB holds a driver and one executor
    'memory_mb': st.one_of(st.integers(3 * 1024, 4 * 1024 * 1024), st.integers(3 * 1024, P.MAX_MEMORY_MB)),
    'disks': st.integers(0, 24),
    'roles': st.sampled_from(ROLESETS),
})

options = st.fixed_dictionaries({
    'workload': st.sampled_from(P.WORKLOADS),
    'shuffle_data_bytes': st.one_of(st.none(), st.integers(0, 10 ** 14)),
    'reserve_am_slot': st.booleans(),
    'driver_deploy_mode': st.sampled_from(P.DEPLOY_MODES),
})

SETTINGS = settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _hosts(nodes):
    return [dict(n, name='h%d' % i) for i, n in enumerate(nodes)]


def _overhead(heap):
    return max(384, int(math.ceil(0.1 * heap)))


def _check(r, mode):
    """Every JVM below its container, every container within the allocation limits, every executor granted."""
    y, m, s = r['yarn_site'], r['mapred_site'], r['spark_defaults']
    min_alloc = int(y['yarn.scheduler.minimum-allocation-mb'])
    max_alloc = int(y['yarn.scheduler.maximum-allocation-mb'])
    nms = [(int(nm['yarn.nodemanager.resource.memory-mb']), int(nm['yarn.nodemanager.resource.cpu-vcores']))
           for nm in r['nodemanagers'].values()]
    largest = max(mb for mb, _v in nms)
    ec = int(s['spark.executor.cores'])
    heap = P.parse_size_mb(s['spark.executor.memory'])
    over = P.parse_size_mb(s['spark.executor.memoryOverhead'])
    container = P.roundup(heap + over, min_alloc)
    instances = int(s['spark.executor.instances'])
    assert 0 < heap < heap + over and over >= 384
    assert over <= max(384, 0.15 * heap) + min_alloc  # about a tenth of the heap, never a huge overhead
    room = sum(min(mb // container, vcores // ec) for mb, vcores in nms)
    assert 1 <= instances <= room
    assert instances <= r['capacity'][mode]
    assert 1 <= ec <= int(y['yarn.scheduler.maximum-allocation-vcores'])
    assert 0 < min_alloc <= max_alloc <= largest
    assert heap + over <= max_alloc
    driver = P.parse_size_mb(s['spark.driver.memory'])
    assert driver > 0 and P.roundup(driver + _overhead(driver), min_alloc) <= max_alloc
    am = P.parse_size_mb(s['spark.yarn.am.memory'])
    assert P.roundup(am + _overhead(am), min_alloc) <= max_alloc
    for size, opts in (('mapreduce.map.memory.mb', 'mapreduce.map.java.opts'),
                       ('mapreduce.reduce.memory.mb', 'mapreduce.reduce.java.opts'),
                       ('yarn.app.mapreduce.am.resource.mb', 'yarn.app.mapreduce.am.command-opts')):
        xmx = P.parse_xmx_mb(m[opts])
        assert 0 < xmx <= 0.8 * int(m[size]) < int(m[size]) <= max_alloc
    assert int(m['mapreduce.reduce.memory.mb']) >= int(m['mapreduce.map.memory.mb'])
    assert r['capacity']['mapreduce']['maps'] >= 1
    for mb, vcores in nms:
        assert mb >= 1024 and vcores >= 1
    assert int(s['spark.sql.shuffle.partitions']) >= 2 * instances * ec
    assert int(s['spark.sql.shuffle.partitions']) <= P.MAX_PARTITIONS
    # a NodeManager without executors is named in a warning
    for name, host in r['hosts'].items():
        if host.get('executors') == 0:
            assert any(w.startswith('%s: gets no Spark executor' % name) for w in r['warnings'])
    assert P.check_invariants(r) == []


@SETTINGS
@given(nodes=st.lists(node, min_size=1, max_size=6), opts=options)
def test_default_profile_invariants(nodes, opts):
    nodes[0] = dict(nodes[0], roles=ROLESETS[0] if 'nodemanager' not in nodes[0]['roles'] else nodes[0]['roles'])
    r = P.plan(_hosts(nodes), **opts)
    _check(r, opts['driver_deploy_mode'])


@settings(max_examples=1000, deadline=None)
@given(nodes=st.lists(node, min_size=1, max_size=4), n=st.integers(1, 4),
       limit=st.one_of(st.none(), st.integers(3 * 1024, 64 * 1024)), mode=st.sampled_from(P.DEPLOY_MODES))
def test_lab_mode_invariants(nodes, n, limit, mode):
    hosts = _hosts([dict(x, memory_mb=max(x['memory_mb'], 8 * 1024 * n), memory_limit_mb=limit) for x in nodes])
    r = P.plan(hosts, lab={'nodes_per_machine': n}, driver_deploy_mode=mode)
    _check(r, mode)
    for host in hosts:
        if host['name'] in r['nodemanagers']:
            vcores = int(r['nodemanagers'][host['name']]['yarn.nodemanager.resource.cpu-vcores'])
            assert vcores <= host['cores']  # never more vcores than the CPUs the container can use
    # the executors of every node share one machine: together they never take more than its CPUs
    s = r['spark_defaults']
    assert int(s['spark.executor.instances']) * int(s['spark.executor.cores']) <= min(h['cores'] for h in hosts)


@settings(max_examples=500, deadline=None)
@given(nodes=st.lists(node, min_size=1, max_size=4), profile=st.sampled_from(P.PROFILES),
       lab=st.sampled_from([None, {'nodes_per_machine': 2}]))
def test_every_profile_plans_without_traceback(nodes, profile, lab):
    nodes[0] = dict(nodes[0], roles=ROLESETS[0])
    if lab:
        nodes = [dict(x, memory_mb=max(x['memory_mb'], 16 * 1024)) for x in nodes]
    r = P.plan(_hosts(nodes), profile=profile, lab=lab)
    for section in ('yarn_site', 'mapred_site', 'spark_defaults'):
        for key, value in r[section].items():
            assert isinstance(value, str) and value, key
    assert isinstance(r['warnings'], list)
    if profile != 'default':
        # comparison profiles: what breaks is reported, never raised
        assert all('%s profile: %s' % (profile, p) in r['warnings'] for p in P.check_invariants(r))
    assert set(r['capacity']) >= set(['cluster', 'client', 'mapreduce'])


def test_seed_profile_keeps_the_seeds_mapreduce_heap_with_a_warning():
    hosts = [dict(name='a', roles=ROLESETS[1], cores=192, memory_mb=768 * 1024)]
    r = P.plan(hosts, profile='seed')
    assert r['mapred_site']['mapreduce.map.java.opts'] == '-Xmx2g'
    assert any('mapreduce.map.java.opts -Xmx 2048 MB' in w for w in r['warnings'])
    assert P.plan(hosts)['mapred_site']['mapreduce.map.java.opts'] == '-Xmx1638m'
