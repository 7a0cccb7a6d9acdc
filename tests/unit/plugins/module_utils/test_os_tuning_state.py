"""tuning_state: parsers, comparisons, the noatime plan, the udev rule and plan_live, against tables."""

import pytest

from ansible_collections.bigdata.spark.plugins.module_utils import tuning_state as T

MOUNTINFO = """\
22 1 8:2 / / rw,relatime shared:1 - ext4 /dev/sda2 rw,errors=remount-ro
25 22 8:17 / /data/disk1 rw,relatime shared:5 - xfs /dev/sdb1 rw,attr2
26 22 8:33 / /data/disk2 rw,noatime shared:6 - xfs /dev/sdc1 rw,attr2
27 22 0:5 / /proc/sys ro,nosuid - proc proc rw
28 22 8:49 / /mnt/with\\040space rw - ext4 /dev/sdd1 rw
"""
FSTAB = """\
# /etc/fstab
UUID=abc / ext4 errors=remount-ro 0 1
/dev/sdb1 /data/disk1 xfs defaults,relatime 0 2
/dev/sdc1 /data/disk2 xfs defaults,noatime 0 2
"""


@pytest.mark.parametrize('key,path', [
    ('net.core.somaxconn', 'net/core/somaxconn'),
    ('vm.swappiness', 'vm/swappiness'),
    ('net/ipv4/conf/eth0.100/rp_filter', 'net/ipv4/conf/eth0.100/rp_filter'),
])
def test_sysctl_path(key, path):
    assert T.sysctl_path(key) == path


@pytest.mark.parametrize('key', ['', '../etc/passwd', 'a..b', 'net core', None, '.x'])
def test_sysctl_path_rejects(key):
    with pytest.raises(T.TuningError, match='sysctl key'):
        T.sysctl_path(key)


@pytest.mark.parametrize('value,out', [
    ('8192 33554432 2147483647', '8192 33554432 2147483647'),
    ('4096\t131072\t33554432\n', '4096 131072 33554432'),
    (1, '1'), (0, '0'), (None, None),
])
def test_normalize_sysctl(value, out):
    assert T.normalize_sysctl(value) == out


def test_normalize_sysctl_rejects_bool():
    with pytest.raises(T.TuningError, match='use a number or a string'):
        T.normalize_sysctl(True)


@pytest.mark.parametrize('text,sel,all_', [
    ('always [madvise] never\n', 'madvise', ['always', 'madvise', 'never']),
    ('[mq-deadline] kyber bfq none', 'mq-deadline', ['mq-deadline', 'kyber', 'bfq', 'none']),
    ('none', 'none', ['none']),
    ('', None, []),
])
def test_selected_and_choices(text, sel, all_):
    assert T.selected(text) == sel
    assert T.choices(text) == all_


def test_parse_mountinfo_and_mount_of():
    mounts = T.parse_mountinfo(MOUNTINFO)
    assert [m['mount_point'] for m in mounts] == ['/', '/data/disk1', '/data/disk2', '/proc/sys', '/mnt/with space']
    assert T.mount_of('/data/disk1/hdfs/dn', mounts)['source'] == '/dev/sdb1'
    assert T.mount_of('/data/disk10', mounts)['mount_point'] == '/'
    assert T.mount_of('/proc/sys', mounts)['options'].startswith('ro')
    with pytest.raises(T.TuningError, match='absolute path'):
        T.mount_of('data', mounts)


def test_parse_fstab_fills_missing_fields():
    entries = T.parse_fstab(FSTAB + '/dev/sde1 /data/disk3 ext4\n')
    assert entries[1] == {'src': '/dev/sdb1', 'path': '/data/disk1', 'fstype': 'xfs', 'opts': 'defaults,relatime',
                          'dump': '0', 'passno': '2'}
    assert entries[3]['opts'] == 'defaults' and entries[3]['passno'] == '0'


@pytest.mark.parametrize('opts,out', [
    ('defaults', 'defaults,noatime'),
    ('defaults,relatime', 'defaults,noatime'),
    ('rw,strictatime,nodev', 'rw,noatime,nodev'),
    ('noatime,defaults', 'noatime,defaults'),
    ('', 'defaults,noatime'),
    ('atime,relatime', 'noatime'),
])
def test_noatime_options(opts, out):
    assert T.noatime_options(opts) == out


def test_noatime_plan_never_touches_root_and_needs_fstab():
    mounts = T.parse_mountinfo(MOUNTINFO)
    plan = T.noatime_plan(['/data/disk1', '/data/disk2', '/data/disk3', '/mnt/with space', '/data/disk1/x'],
                          mounts, T.parse_fstab(FSTAB))
    by_dir = dict((p['dir'], p) for p in plan)
    assert by_dir['/data/disk1']['action'] == 'apply'
    assert by_dir['/data/disk1']['fstab']['opts'] == 'defaults,noatime'
    assert by_dir['/data/disk1']['remount'] is True
    assert by_dir['/data/disk2']['fstab_changes'] is False and by_dir['/data/disk2']['remount'] is False
    assert 'root filesystem' in by_dir['/data/disk3']['reason']
    assert 'no /etc/fstab entry' in by_dir['/mnt/with space']['reason']
    assert 'shares the mount' in by_dir['/data/disk1/x']['reason']


def test_parse_proc_limits_and_cap():
    text = ('Limit                     Soft Limit           Hard Limit           Units\n'
            'Max processes             20000                20000                processes\n'
            'Max open files            1024                 524288               files\n'
            'Max locked memory         unlimited            unlimited            bytes\n')
    assert T.parse_proc_limits(text) == {'nproc': (20000, 20000), 'nofile': (1024, 524288)}
    assert T.capped_limit(65536, 20000) == 20000
    assert T.capped_limit(65536, None) == 65536
    with pytest.raises(T.TuningError, match='whole number of at least 1'):
        T.capped_limit(0, None)


@pytest.mark.parametrize('arch,size,advice', [
    ('aarch64', 4096, True), ('aarch64', 16384, True), ('aarch64', 65536, False), ('x86_64', 4096, False),
])
def test_page_size_advice(arch, size, advice):
    text = T.page_size_advice(arch, size, 'linux-generic-64k')
    assert (text is not None) == advice
    if advice:
        assert '40% faster TeraSort' in text and '9% faster TPC-DS' in text and 'linux-generic-64k' in text


def test_page_size_advice_rejects():
    with pytest.raises(T.TuningError, match='getconf PAGESIZE'):
        T.page_size_advice('aarch64', 0, '')


def test_udev_rule_exact():
    lines = T.udev_rule(['sdc', 'sdb', 'sdb'], {'scheduler': 'mq-deadline', 'nr_requests': 1024, 'read_ahead_kb': 4096},
                        {'scheduler': 'none', 'nr_requests': 0, 'read_ahead_kb': 1024})
    assert lines == [
        'ACTION=="add|change", SUBSYSTEM=="block", KERNEL=="sdb", ATTR{queue/rotational}=="1", '
        'ATTR{queue/scheduler}="mq-deadline", ATTR{queue/nr_requests}="1024", ATTR{queue/read_ahead_kb}="4096"',
        'ACTION=="add|change", SUBSYSTEM=="block", KERNEL=="sdb", ATTR{queue/rotational}=="0", '
        'ATTR{queue/scheduler}="none", ATTR{queue/read_ahead_kb}="1024"',
        'ACTION=="add|change", SUBSYSTEM=="block", KERNEL=="sdc", ATTR{queue/rotational}=="1", '
        'ATTR{queue/scheduler}="mq-deadline", ATTR{queue/nr_requests}="1024", ATTR{queue/read_ahead_kb}="4096"',
        'ACTION=="add|change", SUBSYSTEM=="block", KERNEL=="sdc", ATTR{queue/rotational}=="0", '
        'ATTR{queue/scheduler}="none", ATTR{queue/read_ahead_kb}="1024"',
    ]


@pytest.mark.parametrize('disks,rot,match', [
    ('sdb', {}, 'use a list'),
    (['/dev/sdb'], {}, 'whole-disk kernel name'),
    (['sdb'], {'scheduler': 'mq deadline'}, 'I/O scheduler'),
    (['sdb'], {'nr_requests': 'many'}, 'nr_requests'),
    (['sdb'], {'read_ahead_kb': True}, 'read_ahead_kb'),
])
def test_udev_rule_rejects(disks, rot, match):
    with pytest.raises(T.TuningError, match=match):
        T.udev_rule(disks, rot, {})


@pytest.mark.parametrize('text,out', [
    ('ID=debian\nVERSION_ID="12"\n', {'distribution': 'Debian', 'os_family': 'Debian', 'version': '12'}),
    ('ID=ubuntu\nID_LIKE=debian\nVERSION_ID="24.04"\n', {'distribution': 'Ubuntu', 'os_family': 'Debian', 'version': '24.04'}),
    ('ID="rocky"\nID_LIKE="rhel centos fedora"\nVERSION_ID="9.4"\n', {'distribution': 'Rocky', 'os_family': 'RedHat', 'version': '9.4'}),
    ('ID="rhel"\nVERSION_ID="8.10"\n', {'distribution': 'RedHat', 'os_family': 'RedHat', 'version': '8.10'}),
    ('', {'distribution': 'unknown', 'os_family': 'unknown', 'version': ''}),
])
def test_os_identity(text, out):
    assert T.os_identity(text) == out


def container_state(**changes):
    state = {
        'container': 'podman', 'proc_sys_writable': False, 'sys_writable': False, 'cap_net_admin': False,
        'cap_sys_admin': False,
        'sysctl': {'vm.swappiness': {'exists': True, 'value': '60', 'writable': False},
                   'net.ipv4.tcp_sack': {'exists': True, 'value': '1', 'writable': False},
                   'net.core.netdev_max_backlog': {'exists': False, 'value': None, 'writable': False}},
        'thp': {'enabled': {'value': 'madvise', 'choices': ['always', 'madvise', 'never'], 'writable': False},
                'defrag': {'value': 'madvise', 'choices': ['always', 'defer', 'defer+madvise', 'madvise', 'never'],
                           'writable': False}},
        'cpufreq': {'present': False, 'governors': {}, 'available': [], 'writable': False},
        'interfaces': {'eth0': {'exists': True, 'mtu': 1500, 'manager': None}},
        'data_dirs': {'/data/disk1': {'disk': None, 'fstype': 'overlay', 'source': 'overlay'}},
        'disks': {}, 'mounts': T.parse_mountinfo('1 0 0:1 / / rw,relatime - overlay overlay rw\n'), 'fstab': [],
    }
    state.update(changes)
    return state


WANTED = {'sysctl': {'vm.swappiness': 1, 'net.ipv4.tcp_sack': 1, 'net.core.netdev_max_backlog': 25000},
          'thp': {'enabled': 'never', 'defrag': 'never'}, 'governor': 'performance', 'mtu': {'eth0': 9000, 'ib0': 4092},
          'io': {'rotational': {'scheduler': 'mq-deadline'}, 'ssd': {'scheduler': 'none'}}, 'noatime': True,
          'data_dirs': ['/data/disk1']}


def by_item(entries):
    return dict((e['item'], e) for e in entries)


def test_plan_live_in_a_container_skips_with_reasons():
    plan = by_item(T.plan_live(container_state(), WANTED))
    assert plan['sysctl vm.swappiness']['status'] == T.SKIPPED
    assert plan['sysctl vm.swappiness']['detail'] == '/proc/sys is read-only in this container (podman)'
    assert plan['sysctl net.ipv4.tcp_sack']['status'] == T.ALREADY
    assert 'not visible in this container' in plan['sysctl net.core.netdev_max_backlog']['detail']
    assert plan['transparent_hugepage/enabled']['detail'] == '/sys is read-only in this container (podman)'
    assert 'no cpufreq' in plan['cpu governor']['detail']
    assert plan['mtu eth0']['detail'].startswith('no CAP_NET_ADMIN')
    assert plan['mtu ib0']['detail'] == 'no interface ib0 on this host'
    assert plan['io queue /data/disk1']['detail'] == 'on overlay overlay, not a block device'
    assert 'root filesystem' in plan['noatime /data/disk1']['detail']
    assert all(e['kind'] is None for e in plan.values())


def test_plan_live_on_a_server_lists_the_actions():
    state = container_state(
        container=None, proc_sys_writable=True, sys_writable=True, cap_net_admin=True, cap_sys_admin=True,
        mounts=T.parse_mountinfo(MOUNTINFO), fstab=T.parse_fstab(FSTAB),
        data_dirs={'/data/disk1': {'disk': 'sdb'}}, cpufreq={'present': True, 'available': ['performance', 'powersave'],
                                                             'governors': {'cpu0': 'powersave', 'cpu1': 'performance'},
                                                             'writable': True},
        disks={'sdb': {'exists': True, 'rotational': True, 'scheduler': 'bfq', 'schedulers': ['mq-deadline', 'bfq', 'none'],
                       'nr_requests': 64, 'read_ahead_kb': 128, 'writable': True}})
    state['sysctl']['vm.swappiness']['writable'] = True
    for name in ('enabled', 'defrag'):
        state['thp'][name]['writable'] = True
    plan = by_item(T.plan_live(state, WANTED))
    assert plan['sysctl vm.swappiness'] == {'item': 'sysctl vm.swappiness', 'status': T.APPLIED, 'detail': '60 -> 1',
                                            'kind': 'sysctl', 'name': 'vm.swappiness', 'value': '1'}
    assert plan['transparent_hugepage/enabled']['path'] == '/sys/kernel/mm/transparent_hugepage/enabled'
    assert plan['cpu governor cpu0']['path'] == '/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor'
    assert 'cpu governor cpu1' not in plan
    assert plan['mtu eth0']['kind'] == 'mtu' and plan['mtu eth0']['value'] == 9000
    assert plan['io queue sdb scheduler']['value'] == 'mq-deadline'
    assert plan['noatime /data/disk1 (fstab)']['opts'] == 'defaults,noatime'
    assert plan['noatime /data/disk1 (live)']['kind'] == 'remount'


def test_plan_live_unmanaged_sections_are_absent():
    assert T.plan_live(container_state(), {}) == []


def test_summarize():
    out = T.summarize([{'item': 'a', 'status': T.APPLIED, 'detail': 'x'}, {'item': 'b', 'status': T.SKIPPED, 'detail': ''}])
    assert out == {T.APPLIED: ['a: x'], T.ALREADY: [], T.SKIPPED: ['b']}
    with pytest.raises(T.TuningError, match='status must be one of'):
        T.summarize([{'item': 'c', 'status': 'done'}])


@pytest.mark.parametrize('value, ports', [
    ('', set()), (None, set()), ('45454', {45454}), ('2181,8030-8033,45454', {2181, 8030, 8031, 8032, 8033, 45454}),
    ([9866, '8030-8031'], {9866, 8030, 8031}), (' 19998 , 19999 ', {19998, 19999}),
])
def test_parse_ports(value, ports):
    assert T.parse_ports(value) == ports


@pytest.mark.parametrize('value', ['0', '65536', '8033-8030', 'http', '80:90', [True]])
def test_parse_ports_rejects(value):
    with pytest.raises(T.TuningError, match=r'net\.ipv4\.ip_local_reserved_ports: .* is not a port'):
        T.parse_ports(value)


def test_port_ranges_writes_the_kernels_form():
    # The kernel printed this for "45454,8030,8031,8032,8033,2181" (written in a private network namespace).
    assert T.port_ranges({45454, 8030, 8031, 8032, 8033, 2181}) == '2181,8030-8033,45454'
    assert T.port_ranges({8030, 8031}) == '8030-8031'
    assert T.port_ranges(set()) == ''


def reserved_state(live, writable):
    state = container_state(container=None, proc_sys_writable=True)
    state['sysctl'] = {T.RESERVED_PORTS: {'exists': True, 'value': live, 'writable': writable}}
    return state


def test_plan_live_adds_the_daemon_ports_to_the_hosts_reservations():
    plan = by_item(T.plan_live(reserved_state('2049,45454', True), {'sysctl': {T.RESERVED_PORTS: '8030,8031,45454'}}))
    entry = plan['sysctl ' + T.RESERVED_PORTS]
    assert (entry['status'], entry['value']) == (T.APPLIED, '2049,8030-8031,45454')
    assert entry['detail'] == '2049,45454 -> 2049,8030-8031,45454'


def test_plan_live_is_content_with_a_host_that_reserves_more():
    plan = by_item(T.plan_live(reserved_state('2049,8030-8040,45454', False), {'sysctl': {T.RESERVED_PORTS: '8030,45454'}}))
    entry = plan['sysctl ' + T.RESERVED_PORTS]
    assert (entry['status'], entry['value']) == (T.ALREADY, '2049,8030-8040,45454')


def test_plan_live_names_a_bad_reserved_port():
    with pytest.raises(T.TuningError, match='70000'):
        T.plan_live(reserved_state('', True), {'sysctl': {T.RESERVED_PORTS: '8030,70000'}})
