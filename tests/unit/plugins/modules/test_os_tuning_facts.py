"""os_tuning_facts against fake /proc, /sys and /etc trees: a container and a tunable server."""

import os

import pytest

from ansible_collections.bigdata.spark.plugins.modules import os_tuning_facts as F


def write(root, path, text):
    full = os.path.join(str(root), path.lstrip('/'))
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, 'w') as handle:
        handle.write(text)


PARAMS = {'sysctl_keys': ['vm.swappiness', 'net.core.netdev_max_backlog'], 'data_dirs': ['/data/disk1'],
          'io_disks': [], 'interfaces': ['eth0'], 'wanted': None}


@pytest.fixture
def container(tmp_path):
    r = tmp_path
    write(r, '/proc/self/mountinfo', '1 0 0:1 / / rw,relatime - overlay overlay rw\n'
                                     '2 1 0:2 / /proc/sys ro,nosuid - proc proc rw\n'
                                     '3 1 0:3 / /sys ro,nosuid - sysfs sysfs ro\n')
    write(r, '/proc/sys/vm/swappiness', '60\n')
    write(r, '/proc/1/limits', 'Max processes             20000                20000                processes\n'
                               'Max open files            20000                20000                files\n')
    write(r, '/proc/self/status', 'CapEff:\t00000000800405fb\n')
    write(r, '/sys/kernel/mm/transparent_hugepage/enabled', 'always [madvise] never\n')
    write(r, '/sys/class/net/eth0/mtu', '1500\n')
    write(r, '/run/systemd/container', 'podman\n')
    write(r, '/etc/os-release', 'ID=debian\nVERSION_ID="12"\n')
    write(r, '/etc/fstab', '# UNCONFIGURED FSTAB\n')
    return r


def test_container_reads_and_refuses(container):
    state = F.gather(dict(PARAMS, root=str(container)))
    assert state['container'] == 'podman'
    assert state['proc_sys_writable'] is False and state['sys_writable'] is False
    assert state['sysctl']['vm.swappiness'] == {'exists': True, 'value': '60', 'writable': False}
    assert state['sysctl']['net.core.netdev_max_backlog']['exists'] is False
    assert state['thp']['enabled']['value'] == 'madvise' and state['thp']['defrag'] is None
    assert state['cpufreq']['present'] is False
    assert state['limits_pid1'] == {'nproc': [20000, 20000], 'nofile': [20000, 20000]}
    assert state['cap_net_admin'] is False and state['cap_sys_admin'] is False
    assert state['data_dirs']['/data/disk1']['mount_point'] == '/' and state['data_dirs']['/data/disk1']['disk'] is None
    assert state['interfaces']['eth0'] == {'exists': True, 'mtu': 1500, 'manager': None}
    assert state['os'] == {'distribution': 'Debian', 'os_family': 'Debian', 'version': '12'}
    assert state['network_managers'] == []


@pytest.fixture
def server(tmp_path):
    r = tmp_path
    write(r, '/proc/self/mountinfo', '1 0 8:2 / / rw,relatime - ext4 /dev/sda2 rw\n'
                                     '2 1 8:17 / /data/disk1 rw,relatime - xfs /dev/sdb1 rw\n'
                                     '3 1 0:2 / /proc rw - proc proc rw\n4 1 0:3 / /sys rw - sysfs sysfs rw\n')
    write(r, '/proc/sys/vm/swappiness', '60\n')
    write(r, '/proc/self/status', 'CapEff:\t000001ffffffffff\n')
    write(r, '/etc/fstab', '/dev/sdb1 /data/disk1 xfs defaults 0 2\n')
    write(r, '/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor', 'powersave\n')
    write(r, '/sys/devices/system/cpu/cpu0/cpufreq/scaling_available_governors', 'performance powersave\n')
    write(r, '/sys/block/sdb/queue/scheduler', '[mq-deadline] none\n')
    write(r, '/sys/block/sdb/queue/rotational', '1\n')
    write(r, '/sys/block/sdb/queue/nr_requests', '64\n')
    write(r, '/sys/block/sdb/queue/read_ahead_kb', '128\n')
    write(r, '/sys/block/sdb/sdb1/partition', '1\n')
    os.makedirs(os.path.join(str(r), 'sys/class/block'))
    os.symlink('../../block/sdb', os.path.join(str(r), 'sys/class/block/sdb'))
    os.symlink('../../block/sdb/sdb1', os.path.join(str(r), 'sys/class/block/sdb1'))
    write(r, '/dev/sdb1', '')
    write(r, '/sys/class/net/eth0/mtu', '1500\n')
    write(r, '/sys/class/net/eth0/ifindex', '2\n')
    write(r, '/run/systemd/netif/state', 'OPER_STATE=routable\n')
    write(r, '/run/systemd/netif/links/2', 'ADMIN_STATE=configured\n')
    write(r, '/etc/os-release', 'ID=ubuntu\nID_LIKE=debian\nVERSION_ID="24.04"\n')
    return r


def test_server_plans_the_changes(server):
    wanted = {'sysctl': {'vm.swappiness': 1}, 'governor': 'performance', 'mtu': {'eth0': 9000},
              'io': {'rotational': {'scheduler': 'mq-deadline', 'nr_requests': 1024}, 'ssd': {}},
              'noatime': True, 'data_dirs': ['/data/disk1']}
    state = F.gather(dict(PARAMS, root=str(server)))
    assert state['container'] is None and state['cap_net_admin'] is True
    assert state['data_dirs']['/data/disk1']['disk'] == 'sdb'
    assert state['disks']['sdb']['scheduler'] == 'mq-deadline' and state['disks']['sdb']['nr_requests'] == 64
    assert state['interfaces']['eth0']['manager'] == 'networkd'
    plan = dict((e['item'], e) for e in F.plan_live(state, wanted))
    assert plan['cpu governor cpu0']['kind'] == 'sysfs'
    assert plan['io queue sdb scheduler']['status'] == 'already right'
    assert plan['io queue sdb nr_requests']['value'] == '1024'
    assert plan['mtu eth0']['kind'] == 'mtu'
    assert plan['noatime /data/disk1 (fstab)']['opts'] == 'defaults,noatime'


def test_nics_from_sysfs(tmp_path):
    """The kernel's layout: /sys/class/net/<if>/device (the PCI device, with driver, numa_node and msi_irqs),
    /sys/devices/system/node/node<N>/cpulist, /proc/irq/<n>/smp_affinity_list; a veth has no device."""
    r = tmp_path
    write(r, '/sys/class/net/ens1f0/mtu', '9000\n')
    write(r, '/sys/class/net/ens1f0/type', '1\n')
    write(r, '/sys/class/net/ens1f0/device/numa_node', '1\n')
    write(r, '/sys/class/net/ens1f0/device/msi_irqs/97', 'msix\n')
    write(r, '/sys/class/net/ens1f0/device/msi_irqs/96', 'msix\n')
    write(r, '/sys/bus/pci/drivers/ixgbe/bind', '')
    os.symlink(str(r / 'sys/bus/pci/drivers/ixgbe'), str(r / 'sys/class/net/ens1f0/device/driver'))
    write(r, '/sys/devices/system/node/node1/cpulist', '4-7\n')
    write(r, '/sys/devices/system/cpu/online', '0-7\n')
    write(r, '/proc/irq/96/smp_affinity_list', '0-7\n')
    write(r, '/proc/irq/97/smp_affinity_list', '5\n')
    write(r, '/sys/class/net/ib0/mtu', '2044\n')
    write(r, '/sys/class/net/ib0/type', '32\n')
    write(r, '/sys/class/net/ib0/mode', 'datagram\n')
    write(r, '/sys/class/net/ib0/device/numa_node', '0\n')
    write(r, '/sys/class/net/veth0/mtu', '1500\n')
    write(r, '/proc/interrupts', '           CPU0\n 30:          5   PCI-MSI 1-edge      ib0\n')
    write(r, '/lib/systemd/system/irqbalance.service', '[Unit]\n')
    state = F.gather(dict(PARAMS, root=str(r), interfaces=[], nics=['ens1f0', 'ib0', 'veth0', 'gone0']))
    assert state['nics']['ens1f0'] == {
        'exists': True, 'virtual': False, 'driver': 'ixgbe', 'type': 1, 'mtu': 9000, 'ipoib_mode': None, 'numa_node': 1,
        'node_cpulist': '4-7', 'online_cpulist': '0-7', 'irqs': {'96': '0-7', '97': '5'}, 'irq_source': 'msi_irqs'}
    ib0 = state['nics']['ib0']
    assert (ib0['type'], ib0['ipoib_mode'], ib0['virtual'], ib0['irqs'], ib0['irq_source']) == (
        32, 'datagram', False, {'30': None}, '/proc/interrupts')
    assert state['nics']['veth0']['virtual'] is True and state['nics']['veth0']['irqs'] == {}
    assert state['nics']['gone0'] == {'exists': False}
    assert state['interface_names'] == ['ens1f0', 'ib0', 'veth0']
    assert state['irqbalance'] is True
