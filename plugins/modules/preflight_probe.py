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
module: preflight_probe
short_description: Read-only checks of one host before a Hadoop and Spark deployment
version_added: "0.1.0"
description:
  - Resolves the cluster's host names forward and back, finds the interface and MTU towards each, reads
    the free space of the data directories and which file system each is on, lists the daemon ports
    already taken, reads the Java version, the clock and whether NTP has synchronised it.
  - Changes nothing. The fio and iperf3 runs and the thresholds are in the C(preflight) role and the
    M(bigdata.spark.preflight_report) module.
author:
  - bigdata.spark developers (!UNKNOWN)
options:
  data_dirs:
    description: Data directories; a missing one is measured on its nearest existing parent.
    type: list
    elements: path
    default: []
  ports:
    description: TCP ports the daemons will listen on.
    type: list
    elements: int
    default: []
  names:
    description: Host names of the cluster to resolve forward and back.
    type: list
    elements: str
    default: []
  java:
    description: Java command whose version to read.
    type: str
    default: java
  units:
    description: systemd units whose running state to report.
    type: list
    elements: str
    default: []
extends_documentation_fragment:
  - bigdata.spark.read_only
seealso:
  - module: bigdata.spark.preflight_report
"""

EXAMPLES = r"""
- name: Probe the host
  bigdata.spark.preflight_probe:
    data_dirs: [/data/disk1, /data/disk2]
    ports: [9000, 9870, 8088]
    names: "{{ groups['hadoop'] }}"
  register: probe
"""

RETURN = r"""
probe:
  description: What the host reported.
  returned: always
  type: dict
  contains:
    time:
      description: The host's clock (epoch seconds) when the module ran.
      type: float
    ntp_synchronized:
      description: C(yes) or C(no) from timedatectl; null without it.
      type: str
    java:
      description: Java version string, null when no Java runs.
      type: str
    java_major:
      description: Java major version, null when no Java runs.
      type: int
    space:
      description: Per data directory, C(path_checked) (itself or its nearest existing parent), C(free_gb), C(total_gb).
      type: dict
    fio_targets:
      description: One entry per file system holding data directories, C(path) (where fio writes its scratch files) and C(dirs).
      type: list
      elements: dict
    ports_in_use:
      description: The requested ports something already listens on.
      type: list
      elements: int
    units_active:
      description: The units of O(units) that run.
      type: list
      elements: str
    tools:
      description: Whether C(fio), C(iperf3) and C(ping) are installed.
      type: dict
    optional_tools:
      description: Whether perftest's C(ib_write_bw) and C(ethtool) are installed (used when present, never installed).
      type: dict
    dns:
      description: >-
        Per name, C(addresses) (forward), C(reverse) (name of the first address), C(agree), C(problem), and
        the C(dev) and C(mtu) of the route to it.
      type: dict
"""

import os
import socket
import time

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.bigdata.spark.plugins.module_utils.preflight_checks import listening_ports, parse_java_version


def read(path):
    try:
        with open(path) as handle:
            return handle.read()
    except (IOError, OSError):
        return None


def nearest(path):
    while not os.path.exists(path) and path not in ('/', ''):
        path = os.path.dirname(path)
    return path or '/'


def mount_point(path):
    path = os.path.realpath(path)
    while not os.path.ismount(path):
        path = os.path.dirname(path)
    return path


def short(name):
    return (name or '').split('.')[0].lower()


def resolve(module, name):
    out = {'addresses': [], 'reverse': None, 'agree': False, 'problem': None, 'dev': None, 'mtu': None}
    try:
        out['addresses'] = sorted(set(socket.gethostbyname_ex(name)[2]))
    except (socket.error, UnicodeError) as exc:
        out['problem'] = 'no address for %s (%s)' % (name, exc)
        return out
    first = out['addresses'][0]
    try:
        rname, aliases, dummy = socket.gethostbyaddr(first)
        out['reverse'] = rname
        names = [short(n) for n in [rname] + aliases]
        out['agree'] = short(name) in names
        if not out['agree']:
            out['problem'] = '%s -> %s -> %s' % (name, first, rname)
    except (socket.error, UnicodeError) as exc:
        out['problem'] = 'no name for %s (%s)' % (first, exc)
    rc, stdout, dummy = module.run_command(['ip', '-o', 'route', 'get', first])
    words = stdout.split()
    if rc == 0 and 'dev' in words:
        out['dev'] = words[words.index('dev') + 1]
        mtu = read('/sys/class/net/%s/mtu' % out['dev'])
        out['mtu'] = int(mtu) if mtu and mtu.strip().isdigit() else None
    return out


def main():
    module = AnsibleModule(
        argument_spec=dict(
            data_dirs=dict(type='list', elements='path', default=[]),
            ports=dict(type='list', elements='int', default=[]),
            names=dict(type='list', elements='str', default=[]),
            java=dict(type='str', default='java'),
            units=dict(type='list', elements='str', default=[]),
        ),
        supports_check_mode=True,
    )
    p = module.params
    probe = {'time': time.time()}
    rc, out, dummy = module.run_command(['timedatectl', 'show', '-p', 'NTPSynchronized', '--value'])
    probe['ntp_synchronized'] = out.strip() if rc == 0 and out.strip() else None
    java = module.get_bin_path(p['java']) if not os.path.isabs(p['java']) else p['java']
    probe['java'] = probe['java_major'] = None
    if java and os.path.exists(java):
        rc, out, err = module.run_command([java, '-version'], cwd='/')
        probe['java'], probe['java_major'] = parse_java_version(err + out)
    probe['space'] = {}
    targets = {}
    for path in p['data_dirs']:
        checked = nearest(path)
        st = os.statvfs(checked)
        probe['space'][path] = {'path_checked': checked, 'free_gb': round(st.f_bavail * st.f_frsize / 1e9, 1),
                                'total_gb': round(st.f_blocks * st.f_frsize / 1e9, 1)}
        point = mount_point(checked)
        target = targets.setdefault(point, {'path': path if os.path.isdir(path) else checked, 'mount_point': point, 'dirs': []})
        target['dirs'].append(path)
    probe['fio_targets'] = [targets[k] for k in sorted(targets)]
    listening = listening_ports([read('/proc/net/tcp'), read('/proc/net/tcp6')])
    probe['ports_in_use'] = sorted(port for port in set(p['ports']) if port in listening)
    probe['dns'] = dict((name, resolve(module, name)) for name in p['names'])
    probe['units_active'] = []
    for unit in p['units']:
        rc, dummy, dummy = module.run_command(['systemctl', 'is-active', '--quiet', unit])
        if rc == 0:
            probe['units_active'].append(unit)
    probe['tools'] = dict((tool, module.get_bin_path(tool) is not None) for tool in ('fio', 'iperf3', 'ping'))
    # Used when present, never installed: perftest belongs to the fabric's own stack, and an offline host may lack ethtool.
    probe['optional_tools'] = dict((tool, module.get_bin_path(tool) is not None) for tool in ('ib_write_bw', 'ethtool'))
    module.exit_json(changed=False, probe=probe)


if __name__ == '__main__':
    main()
