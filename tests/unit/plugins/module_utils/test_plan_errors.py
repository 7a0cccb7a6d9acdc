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
    ('negative cores', dict(hosts=[host(cores=-4)]), r'hosts\[w1\]\.cores: must be from 1 to 8192'),
    ('zero cores', dict(hosts=[host(cores=0)]), r'hosts\[w1\]\.cores: must be from 1 to 8192'),
    ('float cores', dict(hosts=[host(cores=2.5)]), r'hosts\[w1\]\.cores: expected a whole number'),
    ('bool cores', dict(hosts=[host(cores=True)]), r'hosts\[w1\]\.cores: expected a whole number'),
    ('non-numeric memory', dict(hosts=[host(memory_mb='lots')]), r'hosts\[w1\]\.memory_mb: expected a whole number'),
    ('negative memory', dict(hosts=[host(memory_mb=-1)]), r'hosts\[w1\]\.memory_mb: must be from 1024 to 67108864'),
    ('memory too small', dict(hosts=[host(memory_mb=1024)]), r'hosts\[w1\]\.memory_mb: .*too small for one executor'),
    ('negative disks', dict(hosts=[host(disks=-1)]), r'hosts\[w1\]\.disks: must be from 0 to 1024'),
    ('executor_cores above vcores', dict(hosts=[host(cores=4)], executor_cores=8),
     r'executor_cores: 8 is more than the NodeManager vcores of w1 \(3\), the largest; allowed 1\.\.3'),
    ('executor_cores zero', dict(hosts=[host()], executor_cores=0), r'executor_cores: must be from 1 to 8192'),
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
     r'overrides: .*mapreduce.map.java.opts -Xmx 8192 MB leaves less than 10% of the mapreduce.map.memory.mb 2048 MB'),
    ('override not a scalar', dict(hosts=[host()], overrides={'spark.executor.cores': [1]}),
     r'overrides\.spark\.executor\.cores: expected a string or number'),
    ('negative shuffle bytes', dict(hosts=[host()], shuffle_data_bytes=-5), r'shuffle_data_bytes: must be >= 0'),
    ('reserve_am_slot not bool', dict(hosts=[host()], reserve_am_slot='yes'), r'reserve_am_slot: expected true or false'),
    ('bad deploy mode', dict(hosts=[host()], driver_deploy_mode='local'), r"driver_deploy_mode: 'local'; allowed: cluster, client"),
    ('unknown constant', dict(hosts=[host()], constants={'heap_divsor': 1.2}), r"constants: unknown constant 'heap_divsor'"),
    ('bad constant', dict(hosts=[host()], constants={'heap_divisor': 0}), r'constants\.heap_divisor: expected a number in \[1.01, 4\], got 0'),
    ('lab nodes zero', dict(hosts=[host()], lab={'nodes_per_machine': 0}), r'lab\.nodes_per_machine: must be from 1 to 1024'),
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
    # nonsense that used to give a plan
    ('1 PB node', dict(hosts=[host(memory_mb=1024 ** 3)]), r'hosts\[w1\]\.memory_mb: must be from 1024 to 67108864'),
    ('100000 cores', dict(hosts=[host(cores=100000)]), r'hosts\[w1\]\.cores: must be from 1 to 8192'),
    ('huge shuffle', dict(hosts=[host()], shuffle_data_bytes=1e30),
     r"shuffle_data_bytes: .* more than 2147483647 shuffle partitions of 250000000 bytes, Spark's limit; allowed 0\.\."),
    ('shuffle inf', dict(hosts=[host()], shuffle_data_bytes=float('inf')), r'shuffle_data_bytes: expected a whole number'),
    ('disks as a string', dict(hosts=[host(disks='sda,sdb')]), r'hosts\[w1\]\.disks: expected a whole number from 0 to 1024'),
    ('facts disks as a string',
     dict(hosts=[{'name': 'f', 'roles': W, 'facts': {'cpu': {'logical': 4}, 'memory_gib': 16, 'disks': 'sda,sdb'}}]),
     r'hosts\[f\]\.facts\.disks: expected a list of data disks'),
    ('too many disks', dict(hosts=[host(disks=5000)]), r'hosts\[w1\]\.disks: must be from 0 to 1024'),
    ('negative partitions override', dict(hosts=[host()], overrides={'spark.sql.shuffle.partitions': -5}),
     r'overrides\.spark\.sql\.shuffle\.partitions: -5 is not valid\. Allowed: a whole number from 1 to 2147483647'),
    ('dynamic allocation maybe', dict(hosts=[host()], overrides={'spark.dynamicAllocation.enabled': 'maybe'}),
     r"overrides\.spark\.dynamicAllocation\.enabled: 'maybe' is not valid\. Allowed: true or false"),
    ('executor memory lots', dict(hosts=[host()], overrides={'spark.executor.memory': 'lots'}),
     r"overrides\.spark\.executor\.memory: 'lots' is not valid\. Allowed: a size above 0"),
    ('fractional size override', dict(hosts=[host()], overrides={'spark.driver.memory': '1.5g'}),
     r"overrides\.spark\.driver\.memory: '1\.5g' is not valid"),
    ('negative vcores override', dict(hosts=[host()], overrides={'yarn.nodemanager.resource.cpu-vcores': -4}),
     r'overrides\.yarn\.nodemanager\.resource\.cpu-vcores: -4 is not valid\. Allowed: a whole number above 0'),
    ('float count override', dict(hosts=[host()], overrides={'spark.executor.instances': 2.5}),
     r'overrides\.spark\.executor\.instances: 2\.5 is not valid'),
    ('bad -Xmx override', dict(hosts=[host()], overrides={'mapreduce.map.java.opts': '-Xmxlots'}),
     r"overrides\.mapreduce\.map\.java\.opts: '-Xmxlots' is not valid"),
    ('override name not a string', dict(hosts=[host()], overrides={5: 1}), r'overrides: property names must be strings'),
    ('too many executors override', dict(hosts=[host()], overrides={'spark.executor.instances': 50}),
     r'overrides: the overridden plan breaks an invariant: .*do not fit the NodeManagers'),
    ('executor_cores constant 2.5', dict(hosts=[host()], constants={'executor_cores': 2.5}),
     r'constants\.executor_cores: expected a whole number from 1 to 8192, got 2\.5'),
    ('fraction above 1', dict(hosts=[host()], constants={'reserve_fraction': 1.5}),
     r'constants\.reserve_fraction: expected a number in \(0, 1\), got 1\.5'),
    ('constant nan', dict(hosts=[host()], constants={'heap_divisor': float('nan')}),
     r'constants\.heap_divisor: expected a number in \[1\.01, 4\], got nan'),
    ('constant inf', dict(hosts=[host()], constants={'bytes_per_partition': float('inf')}),
     r'constants\.bytes_per_partition: expected a whole number'),
    ('mr heap fraction 1', dict(hosts=[host()], constants={'mr_heap_fraction': 1}),
     r'constants\.mr_heap_fraction: expected a number in \[0\.1, 0\.9\]'),
    ('brackets out of order', dict(hosts=[host()], constants={'driver_brackets_gib': [[16, 4], [64, 8], [0, 1]]}),
     r'constants\.driver_brackets_gib: expected .*descending thresholds'),
    ('brackets without catch-all', dict(hosts=[host()], constants={'map_brackets_gib': [[4, 256]]}),
     r'constants\.map_brackets_gib: .*the 0 threshold must come last'),
    ('bracket not a pair', dict(hosts=[host()], constants={'map_brackets_gib': [[4, 256, 1], [0, 2048]]}),
     r'constants\.map_brackets_gib\[0\]: expected a list of \[threshold GiB, value\] pairs'),
    ('profile not a string', dict(hosts=[host()], profile=['default']), r"profile: unknown profile \['default'\]"),
    ('huge lab machine', dict(hosts=[host()], lab={'nodes_per_machine': 2, 'machine_cores': 10 ** 6}),
     r'lab\.machine_cores: must be from 1 to 8192'),
]


@pytest.mark.parametrize('label, kwargs, message', CASES, ids=[c[0] for c in CASES])
def test_bad_input(label, kwargs, message):
    hosts = kwargs.pop('hosts')
    with pytest.raises(P.PlanError, match=message):
        P.plan(hosts, **kwargs)


def test_at_least_fifty_cases():
    assert len(CASES) >= 50


@pytest.mark.parametrize('overrides, found', [
    ({'spark.executor.memory': 'lots', 'yarn.nodemanager.resource.cpu-vcores': -4, 'some.other.key': 'x'},
     ["spark.executor.memory: 'lots' is not valid. Allowed: a size above 0 such as 2048 (MiB), \"640m\" or \"18g\" "
      "(a whole number and k, m, g or t).",
      'yarn.nodemanager.resource.cpu-vcores: -4 is not valid. Allowed: a whole number above 0.']),
    ({'spark.executor.memory': '18g', 'spark.executor.instances': '108', 'spark.dynamicAllocation.enabled': True,
      'mapreduce.map.java.opts': '-Xmx1638m -XX:+UseParallelGC', 'HDFS_NAMENODE_OPTS': '-Xmx12g',
      'yarn.app.mapreduce.am.command-opts': '-XX:+UseG1GC'}, []),
    ({'HDFS_NAMENODE_OPTS': '-XX:+UseG1GC'},
     ["HDFS_NAMENODE_OPTS: '-XX:+UseG1GC' is not valid. Allowed: JVM options as a string holding -Xmx<size> above 0, "
      "such as -Xmx4g."]),
    ({'spark.executor.cores': True}, ['spark.executor.cores: True is not valid. Allowed: a whole number above 0.']),
    ('not a dict', ["expected a dict of property name -> value, got 'not a dict'"]),
])
def test_override_errors(overrides, found):
    assert P.override_errors(overrides) == found


@pytest.mark.parametrize('value', ['12x', '', 'g', True, '-Xmx'])
def test_parse_size_rejects(value):
    with pytest.raises(P.PlanError, match='expected a size'):
        P.parse_size_mb(value, 'field')
