"""nic_tuning: ethtool, /proc/interrupts and cpulist parsing, the NIC plan and the settings' messages, against tables.

The fixtures follow the layouts ethtool(8) prints for -g and -l (the "Pre-set maximums" and "Current hardware
settings" blocks; newer versions add RX Buf Len, CQE Size, TX Push and print n/a), proc(5)'s /proc/interrupts
(one count column per CPU, then chip, hwirq, trigger, action) and the kernel's cpulist format.
"""

import pytest

from ansible_collections.bigdata.spark.plugins.module_utils import nic_tuning as N

RINGS_OLD = """Ring parameters for ens1f0:
Pre-set maximums:
RX:\t\t4096
RX Mini:\t0
RX Jumbo:\t0
TX:\t\t4096
Current hardware settings:
RX:\t\t512
RX Mini:\t0
RX Jumbo:\t0
TX:\t\t512

"""
RINGS_NEW = """Ring parameters for ens1f0np0:
Pre-set maximums:
RX:\t\t\t8192
RX Mini:\t\tn/a
RX Jumbo:\t\tn/a
TX:\t\t\t8192
TX push buff len:\tn/a
Current hardware settings:
RX:\t\t\t8192
RX Mini:\t\tn/a
RX Jumbo:\t\tn/a
TX:\t\t\t1024
RX Buf Len:\t\tn/a
CQE Size:\t\tn/a
TX Push:\t\toff
RX Push:\t\toff
TX push buff len:\tn/a
TCP data split:\t\toff
"""
CHANNELS = """Channel parameters for ens1f0np0:
Pre-set maximums:
RX:\t\tn/a
TX:\t\tn/a
Other:\t\tn/a
Combined:\t63
Current hardware settings:
RX:\t\tn/a
TX:\t\tn/a
Other:\t\tn/a
Combined:\t8
"""
INTERRUPTS = """           CPU0       CPU1       CPU2       CPU3
  0:         36          0          0          0   IO-APIC   2-edge      timer
 24:          0          0          0          0   PCI-MSI 524288-edge      eth0
 25:       1200         30          0          0   PCI-MSI 524289-edge      eth0-TxRx-0
 26:         10       4000          0          0   PCI-MSI 524290-edge      eth0-TxRx-1
 27:          1          0          0          0   PCI-MSI 524291-edge      eth10-TxRx-0
NMI:          0          0          0          0   Non-maskable interrupts
LOC:     123456     234567     345678     456789   Local timer interrupts
"""
OK = {'rc': 0, 'stdout': RINGS_OLD, 'stderr': ''}
VETH = {'rc': 76, 'stdout': '', 'stderr': 'netlink error: Operation not supported'}
NIC = {'exists': True, 'virtual': False, 'driver': 'ixgbe', 'type': 1, 'mtu': 9000, 'ipoib_mode': None,
       'numa_node': 1, 'node_cpulist': '4-7', 'online_cpulist': '0-7',
       'irqs': {'25': '0-7', '26': '5', '24': '0-7'}, 'irq_source': 'msi_irqs'}
IB = {'exists': True, 'virtual': False, 'driver': 'mlx5_core', 'type': 32, 'mtu': 2044, 'ipoib_mode': 'datagram',
      'numa_node': 0, 'node_cpulist': '0-3', 'online_cpulist': '0-7', 'irqs': {}, 'irq_source': None}


def test_parse_rings_old_and_new_layouts():
    assert N.parse_ethtool_sizes(RINGS_OLD) == {
        'max': {'rx': 4096, 'rx mini': 0, 'rx jumbo': 0, 'tx': 4096},
        'current': {'rx': 512, 'rx mini': 0, 'rx jumbo': 0, 'tx': 512}}
    new = N.parse_ethtool_sizes(RINGS_NEW)
    assert new['max']['rx'] == 8192 and new['max']['rx mini'] is None
    assert new['current']['tx'] == 1024 and new['current']['tcp data split'] is None


def test_parse_channels():
    assert N.parse_ethtool_sizes(CHANNELS) == {
        'max': {'rx': None, 'tx': None, 'other': None, 'combined': 63},
        'current': {'rx': None, 'tx': None, 'other': None, 'combined': 8}}


def test_parse_refuses_other_output():
    with pytest.raises(N.NicError, match='expected "Pre-set maximums:"'):
        N.parse_ethtool_sizes('netlink error: Operation not supported')


@pytest.mark.parametrize('text, cpus, back', [
    ('0-3,8-11', [0, 1, 2, 3, 8, 9, 10, 11], '0-3,8-11'),
    ('5\n', [5], '5'),
    ('0,2,4', [0, 2, 4], '0,2,4'),
    ('', [], ''),
])
def test_cpulist(text, cpus, back):
    assert N.parse_cpulist(text) == cpus
    assert N.format_cpulist(cpus) == back


@pytest.mark.parametrize('text', ['0-x', '3-1', 'all'])
def test_cpulist_refuses(text):
    with pytest.raises(N.NicError, match='CPU list'):
        N.parse_cpulist(text)


def test_proc_interrupts_and_irqs_of():
    parsed = N.parse_proc_interrupts(INTERRUPTS)
    assert parsed == {0: 'timer', 24: 'eth0', 25: 'eth0-TxRx-0', 26: 'eth0-TxRx-1', 27: 'eth10-TxRx-0'}
    # eth10 is not eth0.
    assert N.irqs_of('eth0', [], parsed) == ([24, 25, 26], '/proc/interrupts')
    assert N.irqs_of('eth0', ['98', '97'], parsed) == ([97, 98], 'msi_irqs')
    assert N.irqs_of('veth1', [], parsed) == ([], None)


def test_rings_raised_to_the_maximum_then_already_right():
    entry = N.rings_entry('ens1f0', NIC, OK)
    assert entry['status'] == 'applied' and entry['kind'] == 'ethtool'
    assert entry['argv'] == ['ethtool', '-G', 'ens1f0', 'rx', '4096', 'tx', '4096']
    assert entry['before'] == {'rx': 512, 'tx': 512} and entry['after'] == {'rx': 4096, 'tx': 4096}
    assert entry['detail'] == 'rx 512 -> 4096, tx 512 -> 4096 (the maximum; the link resets briefly)'
    # Only the ring below its maximum is in the command.
    entry = N.rings_entry('ens1f0np0', NIC, {'rc': 0, 'stdout': RINGS_NEW})
    assert entry['argv'] == ['ethtool', '-G', 'ens1f0np0', 'tx', '8192']
    done = N.rings_entry('ens1f0', NIC, {'rc': 0, 'stdout': RINGS_OLD.replace('512', '4096')})
    assert (done['status'], done['detail'], done['kind']) == ('already right', 'rx 4096, tx 4096 (the maximum)', None)


@pytest.mark.parametrize('nic, run, detail', [
    (dict(NIC, virtual=True, driver='veth'), OK, 'not supported: ens1f0 is a virtual interface (veth) without rings'),
    (NIC, VETH, 'not supported by the driver (ethtool -g ens1f0: netlink error: Operation not supported)'),
    (NIC, None, 'ethtool is not installed'),
    (NIC, {'rc': 1, 'stderr': 'Cannot get device ring settings: No such device'},
     'ethtool -g ens1f0 failed: Cannot get device ring settings: No such device'),
    (NIC, {'rc': 0, 'stdout': RINGS_OLD.replace('4096', '0')}, 'not supported: the driver reports no RX or TX ring maximum'),
])
def test_rings_skipped_with_the_reason(nic, run, detail):
    assert N.rings_entry('ens1f0', nic, run) == {'item': 'nic rings ens1f0', 'status': 'skipped', 'detail': detail, 'kind': None}


def test_queues_follow_the_cpus_of_the_numa_node():
    entry = N.queues_entry('ens1f0np0', NIC, {'rc': 0, 'stdout': CHANNELS})
    # node 1 has 4 CPUs: 4 combined queues (the NIC allows 63).
    assert entry['argv'] == ['ethtool', '-L', 'ens1f0np0', 'combined', '4']
    assert entry['detail'] == 'combined 8 -> combined 4 for node 1 (CPUs 4-7)'
    # The seed's server: 96 CPUs on the NIC's node, the NIC's maximum of 63 wins.
    big = dict(NIC, numa_node=0, node_cpulist='0-95')
    assert N.queues_entry('x', big, {'rc': 0, 'stdout': CHANNELS})['after'] == {'combined': 63}
    done = N.queues_entry('x', big, {'rc': 0, 'stdout': CHANNELS.replace('Combined:\t8', 'Combined:\t63')})
    assert done['status'] == 'already right'
    # No NUMA node: every online CPU (8 here, as many queues as now).
    flat = dict(NIC, numa_node=-1, node_cpulist=None)
    entry = N.queues_entry('x', flat, {'rc': 0, 'stdout': CHANNELS})
    assert (entry['status'], entry['detail']) == ('already right', 'combined 8 for no NUMA node reported: all online CPUs (0-7)')


def test_irq_affinity_round_robin_over_the_node():
    entry = N.affinity_entry('ens1f0', NIC)
    assert entry['status'] == 'applied' and entry['kind'] == 'irq_affinity'
    # IRQs 24, 25, 26 -> CPUs 4, 5, 6; 26 is on 5 now and must move to 6.
    assert entry['writes'] == [{'path': '/proc/irq/24/smp_affinity_list', 'value': '4'},
                               {'path': '/proc/irq/25/smp_affinity_list', 'value': '5'},
                               {'path': '/proc/irq/26/smp_affinity_list', 'value': '6'}]
    assert entry['detail'] == '3 of 3 IRQs (from msi_irqs) spread over node 1 (CPUs 4-7)'
    placed = dict(NIC, irqs={'24': '4', '25': '5', '26': '6'})
    assert N.affinity_entry('ens1f0', placed)['status'] == 'already right'
    none = N.affinity_entry('veth0', dict(NIC, irqs={}, virtual=True))
    assert none['status'] == 'skipped' and none['detail'].startswith('not supported: no IRQ of veth0 found')


def test_ipoib_mode_then_mtu():
    entries = N.ipoib_entries('ib0', IB, 'connected', 65520)
    assert [(e['item'], e['status'], e['kind']) for e in entries] == [
        ('ipoib mode ib0', 'applied', 'sysfs'), ('ipoib mtu ib0', 'applied', 'mtu')]
    assert entries[0]['path'] == '/sys/class/net/ib0/mode' and entries[0]['value'] == 'connected'
    assert entries[1]['detail'] == '2044 -> 65520 (after the mode change)'
    # Already there: nothing to do, even the MTU.
    there = dict(IB, ipoib_mode='connected', mtu=65520)
    assert [e['status'] for e in N.ipoib_entries('ib0', there, 'connected', 65520)] == ['already right'] * 2
    # Datagram mode cannot carry 65520; an Ethernet NIC is no IPoIB interface.
    assert N.ipoib_entries('ib0', IB, '', 65520)[0]['detail'] == 'ib0 is in datagram mode, which carries at most 4092'
    assert N.ipoib_entries('eth0', NIC, 'connected', 0) == [
        {'item': 'ipoib mode eth0', 'status': 'skipped', 'detail': 'eth0 is not an IPoIB interface', 'kind': None}]


def test_plan_orders_and_skips_missing():
    wanted = {'rings_max': True, 'queues_numa': True, 'irq_affinity': True, 'ipoib_mode': 'connected', 'ipoib_mtu': 0}
    entries = N.plan({'ens1f0': NIC, 'ib0': IB, 'gone0': {'exists': False}},
                     {'ens1f0': {'rings': OK, 'channels': {'rc': 0, 'stdout': CHANNELS}}}, wanted)
    assert [(e['item'], e['status']) for e in entries] == [
        ('nic rings ens1f0', 'applied'), ('nic queues ens1f0', 'applied'), ('nic irq affinity ens1f0', 'applied'),
        ('ipoib mode ens1f0', 'skipped'),
        ('nic gone0', 'skipped'),
        ('nic rings ib0', 'skipped'), ('nic queues ib0', 'skipped'), ('nic irq affinity ib0', 'skipped'),
        ('ipoib mode ib0', 'applied')]
    assert N.plan({'ens1f0': NIC}, {}, {}) == []
    with pytest.raises(N.NicError, match='must be dicts'):
        N.plan([], {}, {})


def test_state_summary():
    state = N.state_summary({'ens1f0': NIC, 'ib0': dict(IB, irqs={'90': '1'}, irq_source='msi_irqs'), 'gone': {'exists': False}},
                            {'ens1f0': {'rings': OK, 'channels': {'rc': 0, 'stdout': CHANNELS}}, 'ib0': {'rings': VETH}})
    assert state['ens1f0'] == {'present': True, 'mtu': 9000, 'driver': 'ixgbe', 'rings': 'rx 512/4096, tx 512/4096',
                               'queues': 'combined 8/63', 'irqs_on_node': '1/3 on node 1'}
    assert state['ib0']['rings'].startswith('not supported by the driver')
    assert state['ib0']['queues'] == 'ethtool is not installed'
    assert state['ib0']['irqs_on_node'] == '1/1 on node 0' and state['ib0']['ipoib_mode'] == 'datagram'
    assert state['gone'] == {'present': False}


GOOD = {'interfaces': [], 'mtu': {}, 'os_tuning_nic_rings_max': False, 'os_tuning_nic_queues_numa': False,
        'os_tuning_nic_irq_affinity': False, 'ipoib_mode': '', 'ipoib_mtu': 0}


@pytest.mark.parametrize('change, message', [
    ({'ipoib_mode': 'cm', 'interfaces': ['ib0']}, "os_tuning_ipoib_mode must be '' (leave it), datagram or connected (got 'cm')"),
    ({'ipoib_mtu': 70000, 'interfaces': ['ib0']}, 'os_tuning_ipoib_mtu must be 0 (leave it) or a whole number from 576 to 65520 (got 70000)'),
    ({'ipoib_mtu': '9k', 'interfaces': ['ib0']}, "os_tuning_ipoib_mtu must be 0 (leave it) or a whole number from 576 to 65520 (got '9k')"),
    ({'ipoib_mtu': 65520, 'ipoib_mode': 'datagram', 'interfaces': ['ib0']},
     'os_tuning_ipoib_mtu 65520 is above 4092, the most datagram mode carries'),
    ({'interfaces': 'eth0'}, "os_tuning_nic_interfaces must be a list of interface names of at most 15 characters"),
    ({'interfaces': ['a-very-long-interface-name']}, "got ['a-very-long-interface-name']"),
    ({'os_tuning_nic_rings_max': 'yes', 'interfaces': ['eth0']}, "os_tuning_nic_rings_max must be true or false (got 'yes')"),
    ({'os_tuning_nic_irq_affinity': True}, 'os_tuning_nic_irq_affinity asked for, but no interface is named'),
    ({'ipoib_mtu': 4092, 'mtu': {'ib0': 2044}}, 'os_tuning_mtu sets ib0 to 2044 but os_tuning_ipoib_mtu to 4092'),
])
def test_bad_settings_are_named(change, message):
    problems = N.check_settings(dict(GOOD, **change))
    assert len(problems) == 1 and message in problems[0], problems


def test_good_settings_have_no_problems():
    assert N.check_settings(GOOD) == []
    assert N.check_settings(dict(GOOD, interfaces=['ib0'], ipoib_mode='connected', ipoib_mtu=65520,
                                 os_tuning_nic_rings_max=True, os_tuning_nic_irq_affinity=True)) == []
    # The interfaces of os_tuning_mtu stand in for an empty list.
    assert N.check_settings(dict(GOOD, mtu={'eth0': 9000}, os_tuning_nic_rings_max=True)) == []


def test_missing_interfaces_names_the_host():
    assert N.missing_interfaces('bd-worker1', ['eth0'], ['eth0', 'lo']) is None
    assert N.missing_interfaces('bd-worker1', ['ib0', 'eth0'], ['eth0', 'lo']) == (
        'os_tuning_nic_interfaces (or os_tuning_mtu) names ib0, which bd-worker1 does not have; its interfaces: eth0, lo. '
        'Set the names per host (host_vars) or remove them.')


def test_ethtool_runs_from_a_registered_loop():
    results = [{'item': ['ens1f0', '-g'], 'rc': 0, 'stdout': RINGS_OLD, 'stderr': ''},
               {'item': ['ens1f0', '-l'], 'rc': 0, 'stdout': CHANNELS, 'stderr': ''},
               {'item': ['veth0', '-g'], 'skipped': True}]
    runs = N.ethtool_runs(results)
    assert sorted(runs) == ['ens1f0'] and sorted(runs['ens1f0']) == ['channels', 'rings']
    assert N.plan({'ens1f0': NIC}, results, {'rings_max': True})[0]['argv'][:3] == ['ethtool', '-G', 'ens1f0']
    with pytest.raises(N.NicError, match='expected the option -g or -l'):
        N.ethtool_runs([{'item': ['ens1f0', '-k'], 'rc': 0}])


def test_refusals_name_the_entry_and_the_kernel_message():
    affinity = N.affinity_entry('ens1f0', NIC)
    rings = N.rings_entry('ens1f0', NIC, OK)
    results = [{'item': [affinity, affinity['writes'][0]], 'rc': 1, 'stderr': '/bin/sh: 1: cannot create /proc/irq/24/'
                'smp_affinity_list: Input/output error'},
               {'item': [affinity, affinity['writes'][1]], 'rc': 1, 'stderr': 'Input/output error'},
               {'item': [affinity, affinity['writes'][2]], 'rc': 0},
               {'item': rings, 'rc': 80, 'stderr': 'netlink error: Operation not permitted\n'},
               {'item': rings, 'skipped': True}]
    assert N.refusals(results) == [
        {'item': 'nic irq affinity ens1f0', 'status': 'skipped', 'kind': None,
         'detail': 'the host refused it (2 writes): /bin/sh: 1: cannot create /proc/irq/24/smp_affinity_list: Input/output error'},
        {'item': 'nic rings ens1f0', 'status': 'skipped', 'kind': None,
         'detail': 'the host refused it: netlink error: Operation not permitted'}]
    with pytest.raises(N.NicError, match='expected the loop item'):
        N.refusals([{'item': 'ens1f0', 'rc': 1}])


def test_state_summary_of_a_virtual_interface():
    assert N.state_summary({'veth0': {'exists': True, 'virtual': True, 'mtu': 1500, 'driver': None}}, {}) == {
        'veth0': {'present': True, 'mtu': 1500, 'driver': None, 'rings': 'not supported: a virtual interface',
                  'queues': 'not supported: a virtual interface', 'irqs_on_node': 'no IRQs (a virtual interface)'}}
