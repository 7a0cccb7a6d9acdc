"""Bad input: every case raises PlanError naming the field and what is allowed."""

import pytest

from ansible_collections.bigdata.spark.plugins.module_utils import plan as P

W = ['datanode', 'nodemanager']


def host(**kw):
    base = dict(name='w1', roles=W, cores=16, memory_mb=65536, disks=2)
    base.update(kw)
    return base


CASES = [
    ('non-numeric cores', dict(hosts=[host(cores='many')]), r'hosts\[w1\]\.cores: expected a whole number'),
    ('negative cores', dict(hosts=[host(cores=-4)]), r'hosts\[w1\]\.cores: must be >= 1'),
    ('zero cores', dict(hosts=[host(cores=0)]), r'hosts\[w1\]\.cores: must be >= 1'),
    ('float cores', dict(hosts=[host(cores=2.5)]), r'hosts\[w1\]\.cores: expected a whole number'),
    ('bool cores', dict(hosts=[host(cores=True)]), r'hosts\[w1\]\.cores: expected a whole number'),
    ('non-numeric memory', dict(hosts=[host(memory_mb='lots')]), r'hosts\[w1\]\.memory_mb: expected a whole number'),
    ('negative memory', dict(hosts=[host(memory_mb=-1)]), r'hosts\[w1\]\.memory_mb: must be >= 1'),
    ('memory too small', dict(hosts=[host(memory_mb=1024)]), r'hosts\[w1\]\.memory_mb: .*too small for one executor'),
    ('negative disks', dict(hosts=[host(disks=-1)]), r'hosts\[w1\]\.disks: must be >= 0'),
    ('executor_cores above vcores', dict(hosts=[host(cores=4)], executor_cores=8),
     r'executor_cores: 8 is more than the NodeManager vcores of w1 \(3\); allowed 1\.\.3'),
    ('executor_cores zero', dict(hosts=[host()], executor_cores=0), r'executor_cores: must be >= 1'),
    ('executor_cores text', dict(hosts=[host()], executor_cores='five'), r'executor_cores: expected a whole number'),
    ('unknown profile', dict(hosts=[host()], profile='magic'), r"profile: unknown profile 'magic'; allowed: default"),
    ('unknown workload', dict(hosts=[host()], workload='ml'), r"workload: unknown workload 'ml'; allowed: default, sql_heavy"),
    ('host with no roles', dict(hosts=[host(roles=[])]), r'hosts\[w1\]\.roles: a host needs at least one role'),
    ('unknown role', dict(hosts=[host(roles=['nodemanager', 'hbase'])]), r"hosts\[w1\]\.roles: unknown role 'hbase'"),
    ('no nodemanager', dict(hosts=[host(roles=['namenode'])]), r'hosts: no host has the nodemanager role'),
    ('empty hosts', dict(hosts=[]), r'hosts: expected a non-empty list'),
    ('host not a dict', dict(hosts=['w1']), r'hosts\[0\]: expected a dict'),
    ('host without name', dict(hosts=[host(name='')]), r'hosts\[0\]\.name: expected a non-empty string'),
    ('duplicate host', dict(hosts=[host(), host()]), r'hosts\[w1\]\.name: duplicate host name'),
    ('unknown override', dict(hosts=[host()], overrides={'spark.executor.memroy': '4g'}),
     r"overrides: unknown property 'spark.executor.memroy'; allowed: .*spark.executor.memory"),
    ('override breaks fit', dict(hosts=[host()], overrides={'spark.executor.memory': '200g'}),
     r'overrides: the overridden plan breaks an invariant: .*maximum-allocation-mb'),
    ('override breaks reduce >= map', dict(hosts=[host()], overrides={'mapreduce.reduce.memory.mb': 512}),
     r'overrides: the overridden plan breaks an invariant: .*reduce.memory.mb < mapreduce.map.memory.mb'),
    ('override heap above container', dict(hosts=[host()], overrides={'mapreduce.map.java.opts': '-Xmx8g'}),
     r'overrides: .*mapreduce.map.java.opts -Xmx 8192 MB > mapreduce.map.memory.mb 2048'),
    ('override not a scalar', dict(hosts=[host()], overrides={'spark.executor.cores': [1]}),
     r'overrides\.spark\.executor\.cores: expected a string or number'),
    ('negative shuffle bytes', dict(hosts=[host()], shuffle_data_bytes=-5), r'shuffle_data_bytes: must be >= 0'),
    ('reserve_am_slot not bool', dict(hosts=[host()], reserve_am_slot='yes'), r'reserve_am_slot: expected true or false'),
    ('bad deploy mode', dict(hosts=[host()], driver_deploy_mode='local'), r"driver_deploy_mode: 'local'; allowed: cluster, client"),
    ('unknown constant', dict(hosts=[host()], constants={'heap_divsor': 1.2}), r"constants: unknown constant 'heap_divsor'"),
    ('bad constant', dict(hosts=[host()], constants={'heap_divisor': 0}), r'constants\.heap_divisor: expected a positive number'),
    ('lab nodes zero', dict(hosts=[host()], lab={'nodes_per_machine': 0}), r'lab\.nodes_per_machine: must be >= 1'),
    ('lab unknown key', dict(hosts=[host()], lab={'nodes': 3}), r"lab: unknown key 'nodes'"),
    ('reservations unknown key', dict(hosts=[host()], reservations={'cpu': 1}), r"reservations: unknown key 'cpu'; allowed: memory_mb, vcores"),
    ('reservation too large', dict(hosts=[host()], reservations={'memory_mb': 65000}), r'hosts\[w1\]\.memory_mb: .*too small'),
    ('other service unknown host', dict(hosts=[host()], other_services=[{'name': 'hbase', 'memory_mb': 1, 'hosts': ['x']}]),
     r"other_services\[hbase\]\.hosts: unknown host 'x'"),
    ('other service not a list', dict(hosts=[host()], other_services={'name': 'hbase'}), r'other_services: expected a list'),
    ('facts without cpu', dict(hosts=[{'name': 'f', 'roles': W, 'facts': {'memory': {'total_bytes': 2 ** 34}}}]),
     r'hosts\[f\]\.facts\.cpu\.logical: missing'),
    ('facts without memory', dict(hosts=[{'name': 'f', 'roles': W, 'facts': {'cpu': {'logical': 4}}}]),
     r'hosts\[f\]\.facts\.memory\.total_bytes: missing'),
]


@pytest.mark.parametrize('label, kwargs, message', CASES, ids=[c[0] for c in CASES])
def test_bad_input(label, kwargs, message):
    hosts = kwargs.pop('hosts')
    with pytest.raises(P.PlanError, match=message):
        P.plan(hosts, **kwargs)


def test_at_least_twenty_cases():
    assert len(CASES) >= 20


@pytest.mark.parametrize('value', ['12x', '', 'g', True, '-Xmx'])
def test_parse_size_rejects(value):
    with pytest.raises(P.PlanError, match='expected a size'):
        P.parse_size_mb(value, 'field')
