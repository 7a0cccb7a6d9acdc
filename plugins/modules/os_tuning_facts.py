#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# GNU General Public License v3.0+ (see LICENSES/GPL-3.0-or-later.txt or https://www.gnu.org/licenses/gpl-3.0.txt)
# Modules run inside ansible-core's GPLv3 AnsibleModule, so they carry its licence; the rest of the
# collection is Apache-2.0 (see LICENSE).

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
---
module: os_tuning_facts
short_description: Read the live OS tuning state and what the host lets change
version_added: "0.1.0"
description:
  - Reads sysctls, transparent huge pages, CPU frequency governors, the page size, the mounts and block
    queues of the data directories, interface MTUs, the network configuration tool in use and the limits
    of PID 1, straight from C(/proc), C(/sys) and C(/etc).
  - For every item it also says whether the value can be changed here (a read-only C(/proc/sys) or C(/sys)
    in a container, a sysctl that is not namespaced, no cpufreq) so the role can skip it with that reason.
  - Only reads; never fails for a missing source.
author:
  - bigdata.spark developers (!UNKNOWN)
options:
  sysctl_keys:
    description: Sysctl keys to read, dotted (C(net.core.somaxconn)).
    type: list
    elements: str
    default: []
  data_dirs:
    description: Data directories whose mount, block device and queue settings to read.
    type: list
    elements: path
    default: []
  io_disks:
    description: Extra whole-disk kernel names (C(sdb), C(nvme0n1)) whose queue settings to read.
    type: list
    elements: str
    default: []
  interfaces:
    description: Network interfaces whose MTU and configuration tool to read.
    type: list
    elements: str
    default: []
  nics:
    description:
      - Network interfaces whose NIC state to read for the ring, queue, IRQ affinity and IPoIB settings; see
        RV(os_tuning.nics).
    type: list
    elements: str
    default: []
  wanted:
    description:
      - The role's wanted settings. When given, RV(os_tuning.plan) lists every live setting as applied (with
        the action to take), already right, or skipped with the reason.
      - Keys C(sysctl) (dict), C(thp) (dict with C(enabled) and C(defrag)), C(governor) (str), C(mtu) (dict
        interface to MTU), C(io) (dict with C(rotational) and C(ssd) profiles), C(noatime) (bool),
        C(data_dirs) (list). A missing key is not managed.
    type: dict
  root:
    description: Directory holding C(proc), C(sys), C(etc) and C(run). Only for tests and copied trees.
    type: path
    default: /
extends_documentation_fragment:
  - bigdata.spark.read_only
seealso:
  - module: bigdata.spark.hardware_facts
"""

EXAMPLES = r"""
- name: Read the tuning state of the data disks and the cluster interface
  bigdata.spark.os_tuning_facts:
    sysctl_keys: [vm.swappiness, net.core.somaxconn]
    data_dirs: [/data/disk1, /data/disk2]
    interfaces: [ens1f0]
  register: tuning

- name: Show which sysctls this host lets change
  ansible.builtin.debug:
    msg: "{{ tuning.os_tuning.sysctl | dict2items | selectattr('value.writable') | map(attribute='key') }}"
"""

RETURN = r"""
os_tuning:
  description: The live state; also set as C(ansible_facts.os_tuning_state).
  returned: always
  type: dict
  contains:
    container:
      description: Container manager name (C(podman), C(docker), C(lxc)...) or null on a machine or VM.
      type: str
    architecture:
      description: Machine architecture (C(x86_64), C(aarch64)).
      type: str
    page_size:
      description: Kernel page size in bytes.
      type: int
    proc_sys_writable:
      description: Whether C(/proc/sys) is mounted read-write.
      type: bool
    sys_writable:
      description: Whether C(/sys) is mounted read-write.
      type: bool
    udev_running:
      description: Whether udevd runs (its control socket exists).
      type: bool
    sysctl:
      description: Per key, C(exists), C(value) (as the kernel prints it, fields separated by one space) and C(writable).
      type: dict
      sample: {"vm.swappiness": {"exists": true, "value": "60", "writable": false}}
    thp:
      description: C(enabled) and C(defrag), each with C(value) (the selected choice), C(choices) and C(writable); null when absent.
      type: dict
    cpufreq:
      description: C(present), C(governors) (selected governor per CPU), C(available) (of cpu0), C(writable).
      type: dict
    limits_pid1:
      description: Soft and hard C(nofile) and C(nproc) of PID 1 (null is unlimited).
      type: dict
      sample: {"nofile": [1024, 524288], "nproc": [63304, 63304]}
    mounts:
      description: The parsed C(/proc/self/mountinfo), for the data directories' planning.
      type: list
      elements: dict
    fstab:
      description: The parsed C(/etc/fstab).
      type: list
      elements: dict
    data_dirs:
      description: >-
        Per data directory: C(exists), C(mount_point), C(source), C(fstype), C(options), C(disk) (whole-disk
        kernel name or null when not on a block device).
      type: dict
    disks:
      description: >-
        Per disk: C(exists), C(rotational), C(scheduler), C(schedulers), C(nr_requests), C(read_ahead_kb), C(writable).
      type: dict
    interfaces:
      description: >-
        Per interface: C(exists), C(mtu), C(manager) (C(netplan), C(networkmanager), C(networkd), C(ifupdown) or null).
      type: dict
    nics:
      description: >-
        Per interface of O(nics): C(exists), C(virtual) (no PCI device behind it: veth, bridge, bond), C(driver),
        C(type) (ARP type, 32 for IPoIB), C(mtu), C(ipoib_mode), C(numa_node) (-1 when the device reports none),
        C(node_cpulist) (the node's CPUs), C(online_cpulist), C(irqs) (IRQ number to its C(smp_affinity_list)) and
        C(irq_source) (C(msi_irqs), C(/proc/interrupts) or null).
      type: dict
      sample: {"ens1f0np0": {"exists": true, "virtual": false, "driver": "mlx5_core", "type": 1, "mtu": 9000,
               "ipoib_mode": null, "numa_node": 0, "node_cpulist": "0-95", "online_cpulist": "0-191",
               "irqs": {"96": "0-95", "97": "1"}, "irq_source": "msi_irqs"}}
    interface_names:
      description: Every interface in C(/sys/class/net).
      type: list
      elements: str
    irqbalance:
      description: Whether an irqbalance systemd unit is installed (it would move the IRQs the role places).
      type: bool
    systemd_running:
      description: Whether systemd is the running init (C(/run/systemd/system) exists).
      type: bool
    network_managers:
      description: The network configuration tools found on the host.
      type: list
      elements: str
    os:
      description: C(distribution), C(os_family) (as Ansible names them) and C(version), from C(/etc/os-release).
      type: dict
      sample: {"distribution": "Debian", "os_family": "Debian", "version": "12"}
    commands:
      description: Whether C(sysctl), C(ip), C(udevadm) and C(ethtool) are installed.
      type: dict
    udev_rules_dir:
      description: Whether C(/etc/udev/rules.d) exists (udev is installed).
      type: bool
    cap_net_admin:
      description: Whether this process may change interfaces (CAP_NET_ADMIN in its effective set).
      type: bool
    cap_sys_admin:
      description: Whether this process may remount file systems (CAP_SYS_ADMIN in its effective set).
      type: bool
    plan:
      description: >-
        With O(wanted): one entry per live setting with C(item), C(status) (C(applied), C(already right),
        C(skipped)), C(detail) (the change or the reason), C(kind) of action for applied entries (C(sysctl),
        C(sysfs), C(mtu), C(fstab), C(remount)) and its C(name), C(path) and C(value).
      type: list
      elements: dict
      sample: [{"item": "sysctl vm.swappiness", "status": "skipped", "kind": null,
                "detail": "/proc/sys is read-only in this container (podman)"}]
    udev_rule:
      description: With O(wanted), the lines of the udev rule that sets the queue of every disk in RV(os_tuning.disks).
      type: list
      elements: str
"""

import glob
import os

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.bigdata.spark.plugins.module_utils.nic_tuning import irqs_of, parse_proc_interrupts
from ansible_collections.bigdata.spark.plugins.module_utils.tuning_state import (
    TuningError, choices, disk_of, mount_of, normalize_sysctl, parse_fstab, parse_mountinfo,
    os_identity, parse_proc_limits, plan_live, selected, sysctl_path, udev_rule)

CAP_NET_ADMIN = 12
CAP_SYS_ADMIN = 21


class Reader(object):
    """Reads files under a root; missing files give None."""

    def __init__(self, root):
        self.root = root

    def path(self, path):
        return os.path.join(self.root, path.lstrip('/'))

    def read(self, path):
        try:
            with open(self.path(path)) as handle:
                return handle.read()
        except (IOError, OSError):
            return None

    def exists(self, path):
        return os.path.exists(self.path(path))

    def writable(self, path):
        return os.access(self.path(path), os.W_OK)


def mount_writable(mounts, point):
    """Whether the mount at point (or holding it) is read-write."""
    mount = mount_of(point, mounts) if mounts else None
    return mount is not None and 'rw' in mount['options'].split(',')


def container_name(reader):
    text = reader.read('/run/systemd/container')
    if text and text.strip():
        return text.strip()
    if reader.exists('/run/.containerenv'):
        return 'podman'
    if reader.exists('/.dockerenv'):
        return 'docker'
    return None


def read_sysctls(reader, keys, proc_sys_rw):
    out = {}
    for key in keys:
        path = '/proc/sys/' + sysctl_path(key)
        value = reader.read(path)
        out[key] = {
            'exists': value is not None,
            'value': normalize_sysctl(value) if value is not None else None,
            'writable': bool(value is not None and proc_sys_rw and reader.writable(path)),
        }
    return out


def read_thp(reader, sys_rw):
    out = {}
    for name in ('enabled', 'defrag'):
        path = '/sys/kernel/mm/transparent_hugepage/' + name
        text = reader.read(path)
        out[name] = None if text is None else {
            'value': selected(text), 'choices': choices(text), 'writable': bool(sys_rw and reader.writable(path))}
    return out


def read_cpufreq(reader, sys_rw):
    governors = {}
    writable = True
    for path in sorted(glob.glob(reader.path('/sys/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_governor'))):
        cpu = path.split('/')[-3]
        with open(path) as handle:
            governors[cpu] = handle.read().strip()
        writable = writable and os.access(path, os.W_OK)
    available = (reader.read('/sys/devices/system/cpu/cpu0/cpufreq/scaling_available_governors') or '').split()
    return {'present': bool(governors), 'governors': governors, 'available': available,
            'writable': bool(governors) and writable and sys_rw}


def block_parents(reader):
    """Partition name -> whole-disk name, from /sys/class/block."""
    parents = {}
    for path in glob.glob(reader.path('/sys/class/block/*')):
        name = os.path.basename(path)
        if os.path.exists(os.path.join(path, 'partition')):
            parents[name] = os.path.basename(os.path.dirname(os.path.realpath(path)))
    return parents


def device_name(reader, source):
    """Kernel name of a mount source (/dev/sdb1 -> sdb1, /dev/mapper/x -> dm-0); None when not a block device."""
    if not source.startswith('/dev/'):
        return None
    real = os.path.realpath(reader.path(source))
    name = os.path.basename(real)
    return name if reader.exists('/sys/class/block/' + name) else None


def read_disk(reader, disk, sys_rw):
    base = '/sys/class/block/%s/queue/' % disk
    if not reader.exists(base):
        return {'exists': False}
    sched_text = reader.read(base + 'scheduler')
    out = {'exists': True, 'rotational': (reader.read(base + 'rotational') or '').strip() == '1',
           'scheduler': selected(sched_text), 'schedulers': choices(sched_text)}
    for name in ('nr_requests', 'read_ahead_kb'):
        text = reader.read(base + name)
        out[name] = int(text) if text and text.strip().isdigit() else None
    out['writable'] = bool(sys_rw and reader.writable(base + 'read_ahead_kb'))
    return out


def network_managers(reader):
    found = []
    if glob.glob(reader.path('/etc/netplan/*.yaml')) or glob.glob(reader.path('/etc/netplan/*.yml')):
        found.append('netplan')
    if reader.exists('/run/NetworkManager') and reader.exists('/usr/bin/nmcli'):
        found.append('networkmanager')
    # networkd writes its state file only while it runs; tmpfiles create the directories anyway.
    if reader.exists('/run/systemd/netif/state'):
        found.append('networkd')
    if reader.exists('/etc/network/interfaces') and (reader.exists('/sbin/ifup') or reader.exists('/usr/sbin/ifup')):
        found.append('ifupdown')
    return found


def interface_manager(reader, name, managers):
    """The tool that brings the interface up, in the order netplan (which renders for the others) first."""
    if 'netplan' in managers:
        for path in glob.glob(reader.path('/etc/netplan/*.y*ml')):
            with open(path) as handle:
                if name in handle.read():
                    return 'netplan'
    if 'networkmanager' in managers:
        state = reader.read('/run/NetworkManager/devices/%s' % (reader.read('/sys/class/net/%s/ifindex' % name) or '').strip())
        if 'managed=false' not in (state or ''):
            return 'networkmanager'
    if 'networkd' in managers:
        index = (reader.read('/sys/class/net/%s/ifindex' % name) or '').strip()
        state = reader.read('/run/systemd/netif/links/%s' % index) if index else None
        if state and 'ADMIN_STATE=configured' in state:
            return 'networkd'
    if 'ifupdown' in managers:
        text = reader.read('/etc/network/interfaces') or ''
        for extra in glob.glob(reader.path('/etc/network/interfaces.d/*')):
            with open(extra) as handle:
                text += handle.read()
        if any(line.split()[:2] == ['iface', name] for line in text.splitlines() if line.strip()):
            return 'ifupdown'
    return None


def _int(text, default=None):
    try:
        return int((text or '').strip())
    except ValueError:
        return default


def read_nic(reader, name, interrupts):
    """What the NIC settings need of one interface: its device, NUMA node and CPUs, IRQs and their affinity."""
    base = '/sys/class/net/%s' % name
    if not reader.exists(base):
        return {'exists': False}
    device = base + '/device'
    driver = os.path.basename(os.path.realpath(reader.path(device + '/driver'))) if reader.exists(device + '/driver') else None
    node = _int(reader.read(device + '/numa_node'), -1)
    msi = sorted(os.listdir(reader.path(device + '/msi_irqs'))) if reader.exists(device + '/msi_irqs') else []
    virtual = not reader.exists(device)
    # A veth in a container shares the host's /proc/interrupts, whose eth0 lines are the host's NIC.
    irqs, source = ([], None) if virtual else irqs_of(name, [i for i in msi if i.isdigit()], interrupts)
    mode = reader.read(base + '/mode')
    return {
        'exists': True,
        'virtual': virtual,
        'driver': driver,
        'type': _int(reader.read(base + '/type')),
        'mtu': _int(reader.read(base + '/mtu')),
        'ipoib_mode': mode.strip() if mode else None,
        'numa_node': node,
        'node_cpulist': (reader.read('/sys/devices/system/node/node%d/cpulist' % node) or '').strip() or None if node >= 0 else None,
        'online_cpulist': (reader.read('/sys/devices/system/cpu/online') or '').strip() or None,
        'irqs': dict((str(irq), (reader.read('/proc/irq/%d/smp_affinity_list' % irq) or '').strip() or None) for irq in irqs),
        'irq_source': source,
    }


def gather(params):
    reader = Reader(params['root'])
    mounts = parse_mountinfo(reader.read('/proc/self/mountinfo') or '')
    fstab = parse_fstab(reader.read('/etc/fstab') or '')
    proc_sys_rw = mount_writable(mounts, '/proc/sys') if mounts else reader.writable('/proc/sys')
    sys_rw = mount_writable(mounts, '/sys') if mounts else reader.writable('/sys')
    parents = block_parents(reader)
    data_dirs = {}
    disks = dict((d, None) for d in params['io_disks'])
    for path in params['data_dirs']:
        mount = mount_of(path, mounts) if mounts else None
        dev = device_name(reader, mount['source']) if mount else None
        disk = disk_of(dev, parents) if dev else None
        data_dirs[path] = {
            'exists': reader.exists(path),
            'mount_point': mount['mount_point'] if mount else None,
            'source': mount['source'] if mount else None,
            'fstype': mount['fstype'] if mount else None,
            'options': mount['options'] if mount else None,
            'disk': disk,
        }
        if disk:
            disks.setdefault(disk, None)
    managers = network_managers(reader)
    interfaces = {}
    for name in params['interfaces']:
        mtu = reader.read('/sys/class/net/%s/mtu' % name)
        interfaces[name] = {'exists': mtu is not None, 'mtu': int(mtu) if mtu and mtu.strip().isdigit() else None,
                            'manager': interface_manager(reader, name, managers) if mtu is not None else None}
    try:
        page_size = os.sysconf('SC_PAGE_SIZE') if params['root'] == '/' else int(reader.read('/page_size') or 4096)
    except (ValueError, OSError):
        page_size = None
    nics = {}
    if params.get('nics'):
        interrupts = parse_proc_interrupts(reader.read('/proc/interrupts') or '')
        nics = dict((name, read_nic(reader, name, interrupts)) for name in params['nics'])
    net_dir = reader.path('/sys/class/net')
    limits = parse_proc_limits(reader.read('/proc/1/limits') or '')
    caps = 0
    for line in (reader.read('/proc/self/status') or '').splitlines():
        if line.startswith('CapEff:'):
            caps = int(line.split()[1], 16)
    return {
        'container': container_name(reader),
        'architecture': os.uname()[4] if params['root'] == '/' else (reader.read('/architecture') or 'x86_64').strip(),
        'page_size': page_size,
        'proc_sys_writable': proc_sys_rw,
        'sys_writable': sys_rw,
        'udev_running': reader.exists('/run/udev/control'),
        'sysctl': read_sysctls(reader, params['sysctl_keys'], proc_sys_rw),
        'thp': read_thp(reader, sys_rw),
        'cpufreq': read_cpufreq(reader, sys_rw),
        'limits_pid1': dict((k, list(v)) for k, v in limits.items()),
        'mounts': mounts,
        'fstab': fstab,
        'data_dirs': data_dirs,
        'disks': dict((d, read_disk(reader, d, sys_rw)) for d in disks),
        'interfaces': interfaces,
        'nics': nics,
        'interface_names': sorted(os.listdir(net_dir)) if os.path.isdir(net_dir) else [],
        'irqbalance': any(reader.exists(d + 'irqbalance.service') for d in
                          ('/etc/systemd/system/', '/usr/lib/systemd/system/', '/lib/systemd/system/')),
        'systemd_running': reader.exists('/run/systemd/system'),
        'network_managers': managers,
        'os': os_identity(reader.read('/etc/os-release') or reader.read('/usr/lib/os-release')),
        'commands': dict((c, any(reader.exists(d + c) for d in ('/usr/sbin/', '/sbin/', '/usr/bin/', '/bin/')))
                         for c in ('sysctl', 'ip', 'udevadm', 'ethtool')),
        'udev_rules_dir': reader.exists('/etc/udev/rules.d'),
        'cap_net_admin': bool(caps >> CAP_NET_ADMIN & 1),
        'cap_sys_admin': bool(caps >> CAP_SYS_ADMIN & 1),
    }


def main():
    module = AnsibleModule(
        argument_spec=dict(
            sysctl_keys=dict(type='list', elements='str', default=[], no_log=False),
            data_dirs=dict(type='list', elements='path', default=[]),
            io_disks=dict(type='list', elements='str', default=[]),
            interfaces=dict(type='list', elements='str', default=[]),
            nics=dict(type='list', elements='str', default=[]),
            wanted=dict(type='dict'),
            root=dict(type='path', default='/'),
        ),
        supports_check_mode=True,
    )
    try:
        state = gather(module.params)
        if module.params['wanted'] is not None:
            wanted = module.params['wanted']
            state['plan'] = plan_live(state, wanted)
            io = wanted.get('io') or {}
            state['udev_rule'] = udev_rule(sorted(state['disks']), io.get('rotational'), io.get('ssd')) if io else []
    except TuningError as exc:
        module.fail_json(msg=str(exc))
    module.exit_json(changed=False, os_tuning=state, ansible_facts={'os_tuning_state': state})


if __name__ == '__main__':
    main()
