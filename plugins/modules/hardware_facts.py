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
module: hardware_facts
short_description: Gather the hardware facts the resource planner needs
version_added: "0.1.0"
description:
  - Reads C(/proc) and C(/sys) directly (no C(lscpu), no C(dmidecode)) and reports CPUs, NUMA, memory,
    page size, transparent huge pages, CPU governor, data disks, network interfaces, RDMA devices and
    virtualisation or container.
  - Works inside podman containers with systemd and a read-only C(/sys). A source that cannot be read
    gives C(null) and a reason under RV(bigdata_hardware.missing); the module never fails for a missing source.
  - Returns the facts as C(ansible_facts.bigdata_hardware) and as the plain return value RV(bigdata_hardware).
author:
  - bigdata.spark developers (!UNKNOWN)
options:
  root:
    description:
      - Directory that holds C(proc) and C(sys). Only for tests and for reading a copied tree.
    type: path
    default: /
  min_disk_bytes:
    description:
      - Block devices smaller than this are not reported as data disks.
    type: int
    default: 1073741824
extends_documentation_fragment:
  - bigdata.spark.read_only
notes:
  - Installed memory is the sum of the online memory blocks in C(/sys/devices/system/memory); it is
    closer to the DIMM size than C(MemTotal), which the kernel shrinks by its own reservations.
seealso:
  - module: bigdata.spark.resource_plan
"""

EXAMPLES = r"""
- name: Gather hardware facts
  bigdata.spark.hardware_facts:

- name: Show the logical CPUs and memory
  ansible.builtin.debug:
    msg: "{{ bigdata_hardware.cpu.logical }} CPUs, {{ bigdata_hardware.memory.total_bytes }} bytes"

- name: Read a copied /proc and /sys tree instead of the live one
  bigdata.spark.hardware_facts:
    root: /srv/captures/node1
"""

RETURN = r"""
bigdata_hardware:
  description: The facts; also set as C(ansible_facts.bigdata_hardware).
  returned: always
  type: dict
  contains:
    cpu:
      description: >-
        logical (online CPUs), physical_cores, threads_per_core, sockets, numa_nodes, model,
        architecture, governor, cgroup_quota_cpus (CPU limit of the container, null when none).
      type: dict
      sample: {"logical": 192, "physical_cores": 96, "threads_per_core": 2, "sockets": 2,
               "numa_nodes": 2, "model": "AMD EPYC 9454", "architecture": "x86_64",
               "governor": "performance", "cgroup_quota_cpus": null}
    memory:
      description: >-
        total_bytes (MemTotal), installed_bytes (online memory blocks), page_size,
        thp_enabled, thp_defrag, cgroup_limit_bytes (null when unlimited).
      type: dict
      sample: {"total_bytes": 811748155392, "installed_bytes": 824633720832, "page_size": 4096,
               "thp_enabled": "madvise", "thp_defrag": "madvise", "cgroup_limit_bytes": null}
    disks:
      description: Block devices with device, size_bytes, rotational, type (nvme, ssd or hdd; from the transport and
        rotational), transport (nvme, sata, sas, scsi, usb, virtio, mmc, or null; from the sysfs path of the device)
        and mounts.
      type: list
      elements: dict
      sample: [{"device": "nvme0n1", "size_bytes": 3840755982336, "rotational": false, "type": "nvme", "transport": "nvme",
                "mounts": ["/data/disk1"]}]
    network:
      description: Interfaces (no loopback) with name, speed_mbps (null when unknown), mtu, operstate, link_type (ether,
        infiniband, ...) and, for IPoIB, ipoib_mode (datagram or connected).
      type: list
      elements: dict
      sample: [{"name": "eth0", "speed_mbps": 25000, "mtu": 9000, "operstate": "up", "link_type": "ether"}]
    rdma:
      description: RDMA devices from C(/sys/class/infiniband), each with its network interfaces (netdevs) and ports
        (port, link_layer InfiniBand or Ethernet, transport IB or RoCE, rate, rate_gbps, state, phys_state, netdevs).
      type: list
      elements: dict
      sample: [{"device": "mlx5_0", "netdevs": ["ib0"], "ports": [{"port": 1, "link_layer": "InfiniBand", "transport": "IB",
                "rate": "100 Gb/sec (4X EDR)", "rate_gbps": 100.0, "state": "ACTIVE", "phys_state": "LinkUp", "netdevs": []}]}]
    virtualization:
      description: container (podman, docker, lxc, systemd-nspawn or null), hypervisor (true when the CPU says so), vendor and product.
      type: dict
      sample: {"container": "podman", "hypervisor": true, "vendor": "QEMU", "product": "Standard PC"}
    missing:
      description: For every fact that could not be read, the source tried and why.
      type: dict
      sample: {"cpu.governor": "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor: not present"}
"""

import os
import platform

from ansible.module_utils.basic import AnsibleModule


def _read(root, path, missing, key):
    """Read a small text file under root; on failure record why under missing[key] and return None."""
    full = os.path.join(root, path.lstrip('/'))
    try:
        with open(full, 'r') as handle:
            return handle.read()
    except (IOError, OSError) as exc:
        reason = 'not present' if not os.path.exists(full) else (exc.strerror or str(exc))
        if key:
            missing[key] = '%s: %s' % (path, reason)
        return None


def _listdir(root, path):
    try:
        return sorted(os.listdir(os.path.join(root, path.lstrip('/'))))
    except (IOError, OSError):
        return []


def _int_or_none(text):
    try:
        return int(text.strip())
    except (AttributeError, ValueError):
        return None


def _bracketed(text):
    """'always [madvise] never' -> 'madvise'."""
    if text is None:
        return None
    for word in text.split():
        if word.startswith('[') and word.endswith(']'):
            return word[1:-1]
    return text.strip() or None


def _cpu_list_count(text):
    """Count CPUs in a list such as '0-3,8,10-11'."""
    count = 0
    for part in text.strip().split(','):
        if not part:
            continue
        if '-' in part:
            low, high = part.split('-', 1)
            count += int(high) - int(low) + 1
        else:
            count += 1
    return count


def gather_cpu(root, missing, machine=None):
    cpu = {'logical': None, 'physical_cores': None, 'threads_per_core': None, 'sockets': None,
           'numa_nodes': None, 'model': None, 'architecture': machine or platform.machine() or None,
           'governor': None, 'cgroup_quota_cpus': None}
    online = _read(root, '/sys/devices/system/cpu/online', missing, None)
    info = _read(root, '/proc/cpuinfo', missing, 'cpu.model')
    processors = 0
    cores = set()
    packages = set()
    if info:
        block = {}
        for line in info.splitlines() + ['']:
            if not line.strip():
                if 'processor' in block:
                    processors += 1
                    package = block.get('physical id', '0')
                    packages.add(package)
                    cores.add((package, block.get('core id', block['processor'])))
                block = {}
                continue
            if ':' in line:
                key, value = line.split(':', 1)
                block[key.strip()] = value.strip()
                if key.strip() in ('model name', 'Model', 'cpu model', 'Hardware') and not cpu['model']:
                    cpu['model'] = value.strip()
    if online:
        try:
            cpu['logical'] = _cpu_list_count(online)
        except ValueError:
            cpu['logical'] = None
    if cpu['logical'] is None and processors:
        cpu['logical'] = processors
    if cpu['logical'] is None:
        missing['cpu.logical'] = '/sys/devices/system/cpu/online and /proc/cpuinfo: unreadable'
    # Topology from sysfs is the most reliable (arm64 cpuinfo has no core ids).
    topo_cores = set()
    topo_packages = set()
    for name in _listdir(root, '/sys/devices/system/cpu'):
        if not (name.startswith('cpu') and name[3:].isdigit()):
            continue
        base = '/sys/devices/system/cpu/%s/topology/' % name
        core = _int_or_none(_read(root, base + 'core_id', missing, None))
        package = _int_or_none(_read(root, base + 'physical_package_id', missing, None))
        if core is not None and package is not None:
            topo_cores.add((package, core))
            topo_packages.add(package)
    if topo_cores:
        cpu['physical_cores'] = len(topo_cores)
        cpu['sockets'] = len(topo_packages)
    elif cores and processors:
        cpu['physical_cores'] = len(cores)
        cpu['sockets'] = len(packages)
    else:
        missing['cpu.physical_cores'] = '/sys/devices/system/cpu/cpu*/topology: not present'
    if cpu['logical'] and cpu['physical_cores']:
        cpu['threads_per_core'] = max(1, cpu['logical'] // cpu['physical_cores'])
    nodes = [n for n in _listdir(root, '/sys/devices/system/node') if n.startswith('node') and n[4:].isdigit()]
    if nodes:
        cpu['numa_nodes'] = len(nodes)
    else:
        missing['cpu.numa_nodes'] = '/sys/devices/system/node: not present'
    governor = _read(root, '/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor', missing, 'cpu.governor')
    cpu['governor'] = governor.strip() if governor else None
    quota = _read(root, '/sys/fs/cgroup/cpu.max', missing, None)
    if quota and not quota.startswith('max'):
        parts = quota.split()
        if len(parts) == 2 and parts[0].isdigit() and parts[1].isdigit() and int(parts[1]):
            cpu['cgroup_quota_cpus'] = round(int(parts[0]) / float(parts[1]), 2)
    return cpu


def gather_memory(root, missing, page_size=None):
    mem = {'total_bytes': None, 'installed_bytes': None, 'page_size': page_size, 'thp_enabled': None,
           'thp_defrag': None, 'cgroup_limit_bytes': None}
    info = _read(root, '/proc/meminfo', missing, 'memory.total_bytes')
    if info:
        for line in info.splitlines():
            if line.startswith('MemTotal:'):
                parts = line.split()
                mem['total_bytes'] = int(parts[1]) * 1024
        if mem['total_bytes'] is None:
            missing['memory.total_bytes'] = '/proc/meminfo: no MemTotal line'
    block = _read(root, '/sys/devices/system/memory/block_size_bytes', missing, 'memory.installed_bytes')
    if block:
        size = int(block.strip(), 16)
        online = 0
        for name in _listdir(root, '/sys/devices/system/memory'):
            if name.startswith('memory') and name[6:].isdigit():
                state = _read(root, '/sys/devices/system/memory/%s/online' % name, missing, None)
                if state is None or state.strip() == '1':
                    online += 1
        mem['installed_bytes'] = size * online if online else None
        if not online:
            missing['memory.installed_bytes'] = '/sys/devices/system/memory: no memory blocks listed'
    mem['thp_enabled'] = _bracketed(_read(root, '/sys/kernel/mm/transparent_hugepage/enabled', missing,
                                          'memory.thp_enabled'))
    mem['thp_defrag'] = _bracketed(_read(root, '/sys/kernel/mm/transparent_hugepage/defrag', missing,
                                         'memory.thp_defrag'))
    limit = None
    text = _read(root, '/sys/fs/cgroup/memory.max', missing, None)
    if text is None:
        text = _read(root, '/sys/fs/cgroup/memory/memory.limit_in_bytes', missing, None)
    if text and text.strip().isdigit():
        limit = int(text.strip())
        # cgroup v1 reports "unlimited" as a huge number near 2**63
        if limit >= 2 ** 60 or (mem['total_bytes'] and limit >= mem['total_bytes']):
            limit = None
    mem['cgroup_limit_bytes'] = limit
    if page_size is None:
        missing['memory.page_size'] = 'sysconf(SC_PAGE_SIZE): unavailable'
    return mem


def _parent_device(root, name):
    """Map a partition (sda1, nvme0n1p2) to its disk through /sys/class/block/<name>/partition."""
    if os.path.exists(os.path.join(root, 'sys/class/block', name, 'partition')):
        target = os.path.realpath(os.path.join(root, 'sys/class/block', name))
        return os.path.basename(os.path.dirname(target))
    return name


# The bus of a disk, from the sysfs path /sys/block/<dev> links to (as lsblk's TRAN column finds it), most specific
# first.
TRANSPORTS = (('/nvme', 'nvme'), ('/usb', 'usb'), ('/end_device-', 'sas'), ('/ata', 'sata'), ('/virtio', 'virtio'),
              ('/mmc', 'mmc'), ('/host', 'scsi'))


def _transport(root, dev):
    link = os.path.join(root, 'sys/block', dev)
    if not os.path.islink(link):
        return None
    target = os.path.realpath(link)
    for marker, name in TRANSPORTS:
        if marker in target:
            return name
    return None


def gather_disks(root, missing, min_bytes=1 << 30):
    devices = _listdir(root, '/sys/block')
    if not devices:
        missing['disks'] = '/sys/block: not present or empty'
        return []
    mounts = {}
    text = _read(root, '/proc/mounts', missing, 'disks.mounts')
    for line in (text or '').splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[0].startswith('/dev/'):
            dev = _parent_device(root, os.path.basename(parts[0]))
            mounts.setdefault(dev, []).append(parts[1])
    disks = []
    for dev in devices:
        if dev.startswith(('loop', 'ram', 'zram', 'sr', 'fd', 'dm-', 'md', 'nbd')):
            continue
        sectors = _int_or_none(_read(root, '/sys/block/%s/size' % dev, missing, None))
        size = sectors * 512 if sectors is not None else None
        if size is not None and size < min_bytes:
            continue
        rot = _int_or_none(_read(root, '/sys/block/%s/queue/rotational' % dev, missing, None))
        transport = _transport(root, dev)
        if dev.startswith('nvme') or transport == 'nvme':
            kind = 'nvme'
        elif rot == 1:
            kind = 'hdd'
        elif rot == 0:
            kind = 'ssd'
        else:
            kind = None
        disks.append({'device': dev, 'size_bytes': size, 'rotational': None if rot is None else bool(rot),
                      'type': kind, 'transport': transport, 'mounts': sorted(mounts.get(dev, []))})
    return disks


# /sys/class/net/<if>/type: the ARP hardware type (include/uapi/linux/if_arp.h).
LINK_TYPES = {1: 'ether', 32: 'infiniband', 772: 'loopback'}


def gather_network(root, missing):
    """Interfaces with speed, MTU, state, link type, and for IPoIB (type infiniband) its mode (datagram or
    connected, /sys/class/net/<if>/mode)."""
    names = _listdir(root, '/sys/class/net')
    if not names:
        missing['network'] = '/sys/class/net: not present or empty'
    out = []
    for name in names:
        if name == 'lo':
            continue
        speed = _int_or_none(_read(root, '/sys/class/net/%s/speed' % name, missing, None))
        if speed is not None and speed <= 0:
            speed = None
        mtu = _int_or_none(_read(root, '/sys/class/net/%s/mtu' % name, missing, None))
        state = _read(root, '/sys/class/net/%s/operstate' % name, missing, None)
        entry = {'name': name, 'speed_mbps': speed, 'mtu': mtu, 'operstate': state.strip() if state else None}
        kind = _int_or_none(_read(root, '/sys/class/net/%s/type' % name, missing, None))
        if kind is not None:
            entry['link_type'] = LINK_TYPES.get(kind, str(kind))
        if kind == 32:
            mode = _read(root, '/sys/class/net/%s/mode' % name, missing, None)
            entry['ipoib_mode'] = mode.strip() if mode else None
        out.append(entry)
    return out


def _numbered(text):
    """'4: ACTIVE' -> 'ACTIVE' (the state files of an RDMA port)."""
    if text is None:
        return None
    return text.strip().split(':', 1)[-1].strip() or None


def _rate_gbps(text):
    """'100 Gb/sec (4X EDR)' -> 100.0; '2.5 Gb/sec (1X SDR)' -> 2.5."""
    if not text:
        return None
    parts = text.split()
    try:
        return float(parts[0])
    except (ValueError, IndexError):
        return None


def gather_rdma(root, missing):
    """RDMA devices (/sys/class/infiniband, the kernel's sysfs-class-infiniband layout): each port's link layer
    (InfiniBand, or Ethernet for RoCE), rate, state and physical state, and the network interfaces of the device
    (device/net) and of each port (gid_attrs/ndevs, RoCE)."""
    out = []
    for dev in _listdir(root, '/sys/class/infiniband'):
        base = '/sys/class/infiniband/%s' % dev
        ports = []
        for port in sorted(_listdir(root, base + '/ports'), key=lambda p: int(p) if p.isdigit() else 0):
            pbase = '%s/ports/%s' % (base, port)
            layer = _read(root, pbase + '/link_layer', missing, None)
            layer = layer.strip() if layer else None
            rate = _read(root, pbase + '/rate', missing, None)
            netdevs = set()
            for index in _listdir(root, pbase + '/gid_attrs/ndevs'):
                name = _read(root, '%s/gid_attrs/ndevs/%s' % (pbase, index), missing, None)
                if name and name.strip():
                    netdevs.add(name.strip())
            ports.append({'port': int(port) if port.isdigit() else port, 'link_layer': layer,
                          'transport': {'InfiniBand': 'IB', 'Ethernet': 'RoCE'}.get(layer),
                          'rate': rate.strip() if rate else None, 'rate_gbps': _rate_gbps(rate),
                          'state': _numbered(_read(root, pbase + '/state', missing, None)),
                          'phys_state': _numbered(_read(root, pbase + '/phys_state', missing, None)),
                          'netdevs': sorted(netdevs)})
        out.append({'device': dev, 'netdevs': _listdir(root, base + '/device/net'), 'ports': ports})
    return out


def gather_virtualization(root, missing):
    virt = {'container': None, 'hypervisor': None, 'vendor': None, 'product': None}
    if os.path.exists(os.path.join(root, 'run/.containerenv')):
        virt['container'] = 'podman'
    elif os.path.exists(os.path.join(root, '.dockerenv')):
        virt['container'] = 'docker'
    else:
        text = _read(root, '/run/systemd/container', missing, None)
        if text is None:
            environ = _read(root, '/proc/1/environ', missing, None)
            if environ:
                for item in environ.split('\0'):
                    if item.startswith('container='):
                        text = item.split('=', 1)[1]
        virt['container'] = text.strip() if text and text.strip() else None
    info = _read(root, '/proc/cpuinfo', missing, None)
    if info is not None:
        virt['hypervisor'] = any(line.startswith('flags') and ' hypervisor' in line for line in info.splitlines())
    vendor = _read(root, '/sys/class/dmi/id/sys_vendor', missing, 'virtualization.vendor')
    product = _read(root, '/sys/class/dmi/id/product_name', missing, 'virtualization.product')
    virt['vendor'] = vendor.strip() if vendor else None
    virt['product'] = product.strip() if product else None
    return virt


def gather(root='/', min_disk_bytes=1 << 30, machine=None, page_size=None):
    """Gather every fact under root; never raises for a missing source."""
    missing = {}
    facts = {
        'cpu': gather_cpu(root, missing, machine),
        'memory': gather_memory(root, missing, page_size),
        'disks': gather_disks(root, missing, min_disk_bytes),
        'network': gather_network(root, missing),
        'rdma': gather_rdma(root, missing),
        'virtualization': gather_virtualization(root, missing),
    }
    facts['missing'] = missing
    return facts


def main():
    module = AnsibleModule(
        argument_spec=dict(
            root=dict(type='path', default='/'),
            min_disk_bytes=dict(type='int', default=1 << 30),
        ),
        supports_check_mode=True,
    )
    try:
        page_size = os.sysconf('SC_PAGE_SIZE')
    except (ValueError, OSError, AttributeError):
        page_size = None
    facts = gather(module.params['root'], module.params['min_disk_bytes'], platform.machine() or None, page_size)
    module.exit_json(changed=False, bigdata_hardware=facts, ansible_facts={'bigdata_hardware': facts})


if __name__ == '__main__':
    main()
