"""hardware_facts against fake /proc and /sys trees, and once against this machine."""

import json
import os

import pytest

from ansible_collections.bigdata.spark.plugins.modules import hardware_facts as H

CPUINFO_X86 = ''.join(
    'processor\t: %d\nmodel name\t: Fake EPYC 9454\nphysical id\t: %d\ncore id\t\t: %d\n'
    'flags\t\t: fpu sse hypervisor\n\n' % (i, i // 8, (i % 8) // 2) for i in range(16))


def write(root, path, text):
    full = os.path.join(str(root), path.lstrip('/'))
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, 'w') as handle:
        handle.write(text)


@pytest.fixture
def big(tmp_path):
    """A 16-CPU, 2-socket, 2-NUMA host with 2 NVMe disks, one HDD, a 25G NIC and RDMA."""
    r = tmp_path
    write(r, '/proc/cpuinfo', CPUINFO_X86)
    write(r, '/sys/devices/system/cpu/online', '0-15\n')
    for i in range(16):
        write(r, '/sys/devices/system/cpu/cpu%d/topology/core_id' % i, '%d\n' % ((i % 8) // 2))
        write(r, '/sys/devices/system/cpu/cpu%d/topology/physical_package_id' % i, '%d\n' % (i // 8))
    write(r, '/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor', 'performance\n')
    write(r, '/sys/devices/system/node/node0/cpulist', '0-7\n')
    write(r, '/sys/devices/system/node/node1/cpulist', '8-15\n')
    write(r, '/proc/meminfo', 'MemTotal:       65536000 kB\nMemFree:        1000 kB\n')
    write(r, '/sys/devices/system/memory/block_size_bytes', '8000000\n')  # 128 MiB, hex
    for i in range(512):
        write(r, '/sys/devices/system/memory/memory%d/online' % i, '1\n')
    write(r, '/sys/kernel/mm/transparent_hugepage/enabled', 'always [madvise] never\n')
    write(r, '/sys/kernel/mm/transparent_hugepage/defrag', 'always defer [defer+madvise] madvise never\n')
    write(r, '/sys/fs/cgroup/memory.max', 'max\n')
    write(r, '/sys/fs/cgroup/cpu.max', 'max 100000\n')
    for dev, sectors, rot in (('nvme0n1', 7501476528, 0), ('nvme1n1', 7501476528, 0), ('sda', 3907029168, 1),
                              ('loop0', 1000, 0), ('sdb', 1000, 0)):
        write(r, '/sys/block/%s/size' % dev, '%d\n' % sectors)
        write(r, '/sys/block/%s/queue/rotational' % dev, '%d\n' % rot)
    os.makedirs(str(r / 'sys/class/block/nvme0n1/nvme0n1p1'), exist_ok=True)
    write(r, '/sys/class/block/nvme0n1/nvme0n1p1/partition', '1\n')
    os.symlink(str(r / 'sys/class/block/nvme0n1/nvme0n1p1'), str(r / 'sys/class/block/nvme0n1p1'))
    write(r, '/proc/mounts', '/dev/nvme0n1p1 /data/disk1 xfs rw 0 0\n/dev/nvme1n1 /data/disk2 xfs rw 0 0\n'
                             'proc /proc proc rw 0 0\n')
    for name, speed, mtu in (('lo', '', 65536), ('eth0', '25000', 9000), ('eth1', '-1', 1500)):
        write(r, '/sys/class/net/%s/mtu' % name, '%d\n' % mtu)
        write(r, '/sys/class/net/%s/speed' % name, speed + '\n')
        write(r, '/sys/class/net/%s/operstate' % name, 'up\n')
    os.makedirs(str(r / 'sys/class/infiniband/mlx5_0'))
    write(r, '/sys/class/dmi/id/sys_vendor', 'QEMU\n')
    write(r, '/sys/class/dmi/id/product_name', 'Standard PC (Q35 + ICH9, 2009)\n')
    return str(r)


def test_big_host_exact(big):
    facts = H.gather(big, machine='x86_64', page_size=4096)
    assert facts['cpu'] == {'logical': 16, 'physical_cores': 8, 'threads_per_core': 2, 'sockets': 2,
                            'numa_nodes': 2, 'model': 'Fake EPYC 9454', 'architecture': 'x86_64',
                            'governor': 'performance', 'cgroup_quota_cpus': None}
    assert facts['memory'] == {'total_bytes': 65536000 * 1024, 'installed_bytes': 64 * 2 ** 30, 'page_size': 4096,
                               'thp_enabled': 'madvise', 'thp_defrag': 'defer+madvise', 'cgroup_limit_bytes': None}
    assert facts['disks'] == [
        {'device': 'nvme0n1', 'size_bytes': 7501476528 * 512, 'rotational': False, 'type': 'nvme', 'transport': None,
         'mounts': ['/data/disk1']},
        {'device': 'nvme1n1', 'size_bytes': 7501476528 * 512, 'rotational': False, 'type': 'nvme', 'transport': None,
         'mounts': ['/data/disk2']},
        {'device': 'sda', 'size_bytes': 3907029168 * 512, 'rotational': True, 'type': 'hdd', 'transport': None,
         'mounts': []},
    ]
    assert facts['network'] == [{'name': 'eth0', 'speed_mbps': 25000, 'mtu': 9000, 'operstate': 'up'},
                                {'name': 'eth1', 'speed_mbps': None, 'mtu': 1500, 'operstate': 'up'}]
    assert facts['rdma'] == [{'device': 'mlx5_0', 'netdevs': [], 'ports': []}]
    assert facts['virtualization'] == {'container': None, 'hypervisor': True, 'vendor': 'QEMU',
                                       'product': 'Standard PC (Q35 + ICH9, 2009)'}
    assert facts['missing'] == {}


def test_disk_transport_and_kind_from_the_sysfs_links(tmp_path):
    """As the kernel lays it out: /sys/block/<dev> links into /sys/devices/<bus path>/block/<dev>."""
    r = str(tmp_path)
    paths = {'sda': 'pci0000:00/0000:00:17.0/ata1/host0/target0:0:0/0:0:0:0/block/sda',
             'sdb': 'pci0000:00/0000:00:11.0/host1/port-1:0/end_device-1:0/target1:0:0/1:0:0:0/block/sdb',
             'sdc': 'pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0/host2/target2:0:0/2:0:0:0/block/sdc',
             'vda': 'pci0000:00/0000:00:05.0/virtio2/block/vda',
             'disk0': 'pci0000:00/0000:00:1d.0/0000:3d:00.0/nvme/nvme0/disk0'}
    for dev, rot in (('sda', 0), ('sdb', 1), ('sdc', 1), ('vda', 1), ('disk0', 0)):
        real = os.path.join(r, 'sys/devices', paths[dev])
        write(real, '/size', '%d\n' % (4 * 2 ** 21))
        write(real, '/queue/rotational', '%d\n' % rot)
        os.makedirs(os.path.join(r, 'sys/block'), exist_ok=True)
        os.symlink(real, os.path.join(r, 'sys/block', dev))
    disks = dict((d['device'], (d['transport'], d['type'])) for d in H.gather_disks(r, {}))
    assert disks == {'sda': ('sata', 'ssd'), 'sdb': ('sas', 'hdd'), 'sdc': ('usb', 'hdd'), 'vda': ('virtio', 'hdd'),
                     'disk0': ('nvme', 'nvme')}


def test_rdma_infiniband_roce_and_ipoib(tmp_path):
    """The layout of the kernel's sysfs-class-infiniband and sysfs-class-net documentation: an InfiniBand HCA whose
    port 1 is up at EDR with IPoIB ib0 (connected mode), and a RoCE port (link layer Ethernet) on ens1f0."""
    r = str(tmp_path)
    ib = '/sys/class/infiniband/mlx5_0'
    write(r, ib + '/ports/1/link_layer', 'InfiniBand\n')
    write(r, ib + '/ports/1/rate', '100 Gb/sec (4X EDR)\n')
    write(r, ib + '/ports/1/state', '4: ACTIVE\n')
    write(r, ib + '/ports/1/phys_state', '5: LinkUp\n')
    os.makedirs(os.path.join(r, ib.lstrip('/'), 'device/net/ib0'))
    roce = '/sys/class/infiniband/mlx5_1'
    write(r, roce + '/ports/1/link_layer', 'Ethernet\n')
    write(r, roce + '/ports/1/rate', '25 Gb/sec (1X EDR)\n')
    write(r, roce + '/ports/1/state', '1: DOWN\n')
    write(r, roce + '/ports/1/phys_state', '3: Disabled\n')
    write(r, roce + '/ports/1/gid_attrs/ndevs/0', 'ens1f0\n')
    write(r, roce + '/ports/1/gid_attrs/ndevs/1', 'ens1f0\n')
    write(r, roce + '/ports/1/gid_attrs/ndevs/2', '\n')
    for name, kind, mtu in (('ib0', 32, 65520), ('ens1f0', 1, 9000)):
        write(r, '/sys/class/net/%s/type' % name, '%d\n' % kind)
        write(r, '/sys/class/net/%s/mtu' % name, '%d\n' % mtu)
        write(r, '/sys/class/net/%s/operstate' % name, 'up\n')
    write(r, '/sys/class/net/ib0/mode', 'connected\n')
    missing = {}
    assert H.gather_rdma(r, missing) == [
        {'device': 'mlx5_0', 'netdevs': ['ib0'], 'ports': [
            {'port': 1, 'link_layer': 'InfiniBand', 'transport': 'IB', 'rate': '100 Gb/sec (4X EDR)', 'rate_gbps': 100.0,
             'state': 'ACTIVE', 'phys_state': 'LinkUp', 'netdevs': []}]},
        {'device': 'mlx5_1', 'netdevs': [], 'ports': [
            {'port': 1, 'link_layer': 'Ethernet', 'transport': 'RoCE', 'rate': '25 Gb/sec (1X EDR)', 'rate_gbps': 25.0,
             'state': 'DOWN', 'phys_state': 'Disabled', 'netdevs': ['ens1f0']}]},
    ]
    net = dict((n['name'], n) for n in H.gather_network(r, missing))
    assert net['ib0']['link_type'] == 'infiniband' and net['ib0']['ipoib_mode'] == 'connected' and net['ib0']['mtu'] == 65520
    assert net['ens1f0']['link_type'] == 'ether' and 'ipoib_mode' not in net['ens1f0']


def test_podman_container_with_limits(tmp_path):
    """Lab container: 2 CPUs, no topology, no cpufreq, no DMI, cgroup v2 limits."""
    r = str(tmp_path)
    write(r, '/proc/cpuinfo', 'processor\t: 0\nmodel name\t: X\n\nprocessor\t: 1\nmodel name\t: X\n\n')
    write(r, '/proc/meminfo', 'MemTotal:       25165824 kB\n')
    write(r, '/sys/fs/cgroup/memory.max', '%d\n' % (5 * 2 ** 30))
    write(r, '/sys/fs/cgroup/cpu.max', '150000 100000\n')
    write(r, '/run/.containerenv', '')
    facts = H.gather(r, machine='aarch64', page_size=65536)
    assert facts['cpu']['logical'] == 2
    assert facts['cpu']['physical_cores'] == 2  # from cpuinfo (no core ids: one core per processor)
    assert facts['cpu']['cgroup_quota_cpus'] == 1.5
    assert facts['cpu']['governor'] is None
    assert facts['memory']['cgroup_limit_bytes'] == 5 * 2 ** 30
    assert facts['memory']['installed_bytes'] is None
    assert facts['virtualization']['container'] == 'podman'
    assert facts['disks'] == []
    for key in ('cpu.governor', 'cpu.numa_nodes', 'memory.installed_bytes', 'memory.thp_enabled', 'disks',
                'virtualization.vendor'):
        assert key in facts['missing'], key
    assert 'not present' in facts['missing']['cpu.governor']


def test_cgroup_v1_unlimited_is_null(tmp_path):
    r = str(tmp_path)
    write(r, '/proc/meminfo', 'MemTotal:       1024 kB\n')
    write(r, '/sys/fs/cgroup/memory/memory.limit_in_bytes', '9223372036854771712\n')
    assert H.gather(r)['memory']['cgroup_limit_bytes'] is None


def test_empty_root_never_crashes(tmp_path):
    facts = H.gather(str(tmp_path / 'nothing'))
    assert facts['cpu']['logical'] is None
    assert facts['memory']['total_bytes'] is None
    assert facts['disks'] == [] and facts['network'] == [] and facts['rdma'] == []
    assert 'cpu.logical' in facts['missing'] and 'memory.total_bytes' in facts['missing']


def test_cpu_list_count():
    assert H._cpu_list_count('0-3,8,10-11\n') == 7
    assert H._bracketed('always [madvise] never') == 'madvise'


def test_real_machine():
    facts = H.gather('/')
    assert facts['cpu']['logical'] and facts['cpu']['logical'] >= 1
    assert facts['memory']['total_bytes'] and facts['memory']['total_bytes'] > 0
    json.dumps(facts)
    # what this machine gives the planner
    from ansible_collections.bigdata.spark.plugins.module_utils import plan as P
    host = P.host_from_facts('here', ['nodemanager'], facts)
    assert host['cores'] == facts['cpu']['logical']


def test_module_main_returns_facts(monkeypatch, capsys, big):
    from ansible.module_utils import basic
    from ansible.module_utils.common.text.converters import to_bytes
    args = json.dumps({'ANSIBLE_MODULE_ARGS': {'root': big, '_ansible_check_mode': True}})
    monkeypatch.setattr(basic, '_ANSIBLE_ARGS', to_bytes(args))
    monkeypatch.setattr(basic, '_ANSIBLE_PROFILE', 'legacy', raising=False)
    with pytest.raises(SystemExit):
        H.main()
    out = json.loads(capsys.readouterr().out)
    assert out['changed'] is False
    assert out['ansible_facts']['bigdata_hardware']['cpu']['logical'] == 16
    assert [d['device'] for d in out['bigdata_hardware']['rdma']] == ['mlx5_0']
