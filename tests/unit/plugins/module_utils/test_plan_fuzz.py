"""Junk into every option and host field: plan() answers with a plan or a PlanError, never another exception."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ansible_collections.bigdata.spark.plugins.module_utils import plan as P

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-10 ** 40, 10 ** 40), st.integers(-5, 70000),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12),
    st.sampled_from(['18g', '-5', '0', '1e30', 'nan', 'true', 'maybe', 'sda,sdb', '-Xmx2g', '-Xmx0m', '2.5', ' 7 ']),
)
junk = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                     st.dictionaries(st.text(max_size=8), inner, max_size=3)),
                    max_leaves=6)

HOST_FIELDS = ('name', 'roles', 'cores', 'memory_mb', 'disks', 'memory_limit_mb', 'reservations', 'page_size',
               'architecture', 'facts')
OPTIONS = ('profile', 'executor_cores', 'workload', 'shuffle_data_bytes', 'reserve_am_slot', 'driver_deploy_mode',
           'reservations', 'other_services', 'lab', 'overrides', 'constants')
KNOWN_CONSTANTS = sorted(P.DEFAULT_CONSTANTS)
KNOWN_PROPERTIES = sorted(P.PROPERTY_TYPES)
FACT_KEYS = ('cpu', 'memory', 'cores', 'memory_gib', 'memory_mb', 'disks', 'disk_count', 'memory_limit_mb')

SETTINGS = settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _base():
    return [dict(name='w1', roles=['datanode', 'nodemanager', 'namenode', 'resourcemanager'], cores=16,
                 memory_mb=65536, disks=2),
            dict(name='w2', roles=['datanode', 'nodemanager'], cores=16, memory_mb=65536, disks=2)]


def _plan(hosts, **kwargs):
    try:
        P.plan(hosts, **kwargs)
    except P.PlanError as exc:
        assert str(exc)


@SETTINGS
@given(field=st.sampled_from(HOST_FIELDS), value=junk, profile=st.sampled_from(P.PROFILES))
def test_junk_host_field(field, value, profile):
    hosts = _base()
    if field == 'facts':
        del hosts[1]['cores']
    hosts[1][field] = value
    _plan(hosts, profile=profile)


@SETTINGS
@given(key=st.sampled_from(FACT_KEYS), value=junk, sub=st.sampled_from(['logical', 'total_bytes', 'installed_bytes',
                                                                       'cgroup_limit_bytes', 'page_size']))
def test_junk_facts(key, value, sub):
    facts = {'cpu': {'logical': 8}, 'memory': {'total_bytes': 2 ** 35}, 'disks': [{}]}
    if key in ('cpu', 'memory') and isinstance(value, (int, str, float)) and not isinstance(value, bool):
        facts[key] = dict(facts[key], **{sub: value})
    else:
        facts[key] = value
    _plan([{'name': 'f', 'roles': ['nodemanager', 'namenode'], 'facts': facts}])


@SETTINGS
@given(option=st.sampled_from(OPTIONS), value=junk, profile=st.sampled_from(P.PROFILES))
def test_junk_option(option, value, profile):
    kwargs = {option: value}
    if option != 'profile':
        kwargs['profile'] = profile
    _plan(_base(), **kwargs)


@SETTINGS
@given(name=st.sampled_from(KNOWN_CONSTANTS), value=junk, profile=st.sampled_from(['default', 'default', 'seed']))
def test_junk_constant(name, value, profile):
    _plan(_base(), constants={name: value}, profile=profile)


@SETTINGS
@given(name=st.sampled_from(KNOWN_PROPERTIES), value=junk, profile=st.sampled_from(P.PROFILES))
def test_junk_override(name, value, profile):
    _plan(_base(), overrides={name: value}, profile=profile)


@settings(max_examples=300, deadline=None)
@given(pairs=st.lists(st.tuples(st.floats(-1e6, 1e6), st.integers(-10, 10 ** 6)), max_size=5))
def test_junk_brackets(pairs):
    for name in ('driver_brackets_gib', 'map_brackets_gib', 'am_brackets_mb'):
        _plan(_base(), constants={name: [list(p) for p in pairs]})


def _valid(name):
    kind, low, high = P.CONSTANT_RULES[name]
    if kind == 'int':
        return st.integers(low, high)
    if kind == 'number':
        return st.floats(low, high)
    if kind == 'fraction':
        return st.floats(low, high, exclude_min=True, exclude_max=True)
    return st.just(P.DEFAULT_CONSTANTS[name])


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), names=st.lists(st.sampled_from(KNOWN_CONSTANTS), min_size=1, max_size=4, unique=True),
       cores=st.integers(1, 512), memory_gib=st.integers(3, 4096), lab=st.sampled_from([None, {'nodes_per_machine': 2}]))
def test_any_allowed_constants_give_a_sound_plan_or_a_plan_error(data, names, cores, memory_gib, lab):
    """Constants within their documented ranges: the default plan is sound (checked inside plan()) or refused."""
    constants = dict((name, data.draw(_valid(name))) for name in names)
    hosts = [dict(name='w%d' % i, roles=['datanode', 'nodemanager'] + (['namenode'] if i == 0 else []), cores=cores,
                  memory_mb=memory_gib * 1024) for i in range(2)]
    try:
        r = P.plan(hosts, constants=constants, lab=lab)
    except P.PlanError as exc:
        assert str(exc)
        return
    assert P.check_invariants(r) == []


def test_a_number_with_a_separator_character_is_read_as_the_number():
    # re's \s matches the separators \x1c-\x1f, which int() does not strip: found by test_junk_override.
    name = next(n for n, kind in P.PROPERTY_TYPES.items() if kind == 'count')
    _plan(_base(), overrides={name: '0\x1f'})
    _plan(_base(), overrides={name: '2\x1f'})
