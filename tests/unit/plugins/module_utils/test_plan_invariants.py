"""Invariants over thousands of random cluster shapes (hypothesis)."""

import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ansible_collections.bigdata.spark.plugins.module_utils import plan as P

ROLESETS = [['datanode', 'nodemanager'], ['datanode', 'nodemanager', 'namenode', 'resourcemanager'],
            ['nodemanager'], ['datanode', 'nodemanager', 'jobhistory', 'spark_history']]

node = st.fixed_dictionaries({
    'cores': st.integers(1, 512),
    'memory_mb': st.integers(2 * 1024, 4 * 1024 * 1024),
    'disks': st.integers(0, 24),
    'roles': st.sampled_from(ROLESETS),
})

options = st.fixed_dictionaries({
    'workload': st.sampled_from(P.WORKLOADS),
    'shuffle_data_bytes': st.one_of(st.none(), st.integers(0, 10 ** 14)),
    'reserve_am_slot': st.booleans(),
    'driver_deploy_mode': st.sampled_from(P.DEPLOY_MODES),
})

SETTINGS = settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _hosts(nodes):
    return [dict(n, name='h%d' % i) for i, n in enumerate(nodes)]


def opts_mode(r):
    return 'client' if 'client-mode' in r['explain']['yarn.scheduler.maximum-allocation-mb'] else 'cluster'


def _check(r):
    y, m, s = r['yarn_site'], r['mapred_site'], r['spark_defaults']
    min_alloc = int(y['yarn.scheduler.minimum-allocation-mb'])
    max_alloc = int(y['yarn.scheduler.maximum-allocation-mb'])
    ec = int(s['spark.executor.cores'])
    heap = P.parse_size_mb(s['spark.executor.memory'])
    over = P.parse_size_mb(s['spark.executor.memoryOverhead'])
    container = int(math.ceil((heap + over) / float(min_alloc))) * min_alloc
    instances = int(s['spark.executor.instances'])
    room = sum(min(int(nm['yarn.nodemanager.resource.memory-mb']) // container,
                   int(nm['yarn.nodemanager.resource.cpu-vcores']) // ec)
               for nm in r['nodemanagers'].values())
    assert 1 <= instances <= room
    assert 1 <= ec <= int(y['yarn.scheduler.maximum-allocation-vcores'])
    assert heap > 0 and heap + over <= max_alloc
    assert over >= 384
    assert min_alloc > 0 and max_alloc >= min_alloc
    for size, opts in (('mapreduce.map.memory.mb', 'mapreduce.map.java.opts'),
                       ('mapreduce.reduce.memory.mb', 'mapreduce.reduce.java.opts'),
                       ('yarn.app.mapreduce.am.resource.mb', 'yarn.app.mapreduce.am.command-opts')):
        xmx = P.parse_xmx_mb(m[opts])
        assert 0 < xmx <= int(m[size]) <= max_alloc
        # strictly below the container, except the seed's own 2048 MB / -Xmx2g map rule (warned about)
        assert xmx < int(m[size]) or (int(m[size]) == 2048 and any(w.startswith(opts) for w in r['warnings']))
    assert int(m['mapreduce.reduce.memory.mb']) >= int(m['mapreduce.map.memory.mb'])
    driver = P.parse_size_mb(s['spark.driver.memory'])
    assert driver > 0
    if opts_mode(r) == 'cluster':
        assert driver + max(384, math.ceil(0.1 * driver)) <= max_alloc
    for nm in r['nodemanagers'].values():
        assert int(nm['yarn.nodemanager.resource.memory-mb']) >= 1024
        assert int(nm['yarn.nodemanager.resource.cpu-vcores']) >= 1
    assert int(s['spark.sql.shuffle.partitions']) >= 2 * instances * ec
    assert P.check_invariants(r) == []


@SETTINGS
@given(nodes=st.lists(node, min_size=1, max_size=6), opts=options)
def test_default_profile_invariants(nodes, opts):
    nodes[0] = dict(nodes[0], roles=ROLESETS[0] if 'nodemanager' not in nodes[0]['roles'] else nodes[0]['roles'])
    r = P.plan(_hosts(nodes), **opts)
    _check(r)


@settings(max_examples=300, deadline=None)
@given(nodes=st.lists(node, min_size=1, max_size=4), n=st.integers(1, 4),
       limit=st.one_of(st.none(), st.integers(3 * 1024, 64 * 1024)))
def test_lab_mode_invariants(nodes, n, limit):
    hosts = _hosts([dict(x, memory_mb=max(x['memory_mb'], 8 * 1024 * n), memory_limit_mb=limit) for x in nodes])
    r = P.plan(hosts, lab={'nodes_per_machine': n})
    _check(r)
    for nm in r['nodemanagers'].values():
        assert int(nm['yarn.nodemanager.resource.cpu-vcores']) >= 2


@settings(max_examples=300, deadline=None)
@given(nodes=st.lists(node, min_size=1, max_size=4), profile=st.sampled_from(P.PROFILES))
def test_every_profile_plans_without_traceback(nodes, profile):
    r = P.plan(_hosts(nodes), profile=profile)
    for section in ('yarn_site', 'mapred_site', 'spark_defaults'):
        for key, value in r[section].items():
            assert isinstance(value, str) and value, key
    assert isinstance(r['warnings'], list)
