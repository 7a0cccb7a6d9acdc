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
module: preflight_report
short_description: Turn raw preflight measurements into a report with figures and threshold failures
version_added: "0.1.0"
description:
  - Parses the JSON output of fio (per disk) and iperf3 (per link), the don't-fragment pings, and the clock
    samples; computes MB/s, IOPS, Gbit/s and the clock skew; compares them with the thresholds.
  - Returns the report as a dict and as Markdown, and the failures as messages naming the host, the item
    and the figure. Writes nothing and never reports C(changed); the role writes the files.
author:
  - bigdata.spark developers (!UNKNOWN)
options:
  hosts:
    description:
      - Per host, C(probe) (the M(bigdata.spark.preflight_probe) result), C(fio) (list of C(path), C(dirs),
        C(output) or C(error)), C(tuning) (dict of OS tuning values to show; with C(architecture),
        C(page_size) and C(distribution) or C(os_family) it gives seed 000's 64 KB page advice on aarch64),
        C(nic) (per interface the C(bigdata.spark.os_tuning_nic_state) summary now), C(nic_tuning) (the
        C(os_tuning_nic_state) fact of the os_tuning role, C(before) and C(after), when it ran earlier in the same run),
        C(rdma) (the host's RDMA path, C(ready) with C(device), C(port), C(transport), C(rate_gbps), or the C(reason)).
    type: dict
    required: true
  links:
    description: iperf3 runs, each with C(client), C(server), C(output) (iperf3 -J) or C(error).
    type: list
    elements: dict
    default: []
  rdma_links:
    description: ib_write_bw runs, each with C(client), C(server), C(output) (the client's output, run with
      C(--report_gbits)) or C(error); the device and port are the client's C(rdma) path.
    type: list
    elements: dict
    default: []
  mtu_paths:
    description: Don't-fragment pings, each with C(client), C(server), C(mtu), C(rc), C(output).
    type: list
    elements: dict
    default: []
  clock_samples:
    description: Per host, C(host_time), and C(before) and C(after) taken on the controller around it.
    type: dict
    default: {}
  thresholds:
    description: Any of C(min_disk_read_mbps), C(min_disk_write_mbps), C(min_disk_randread_iops), C(min_network_gbps),
      C(max_clock_skew_ms), C(min_free_gb); 0 turns a check off.
    type: dict
    default: {}
  generated:
    description: Time stamp to print in the report.
    type: str
    default: ""
extends_documentation_fragment:
  - bigdata.spark.read_only
seealso:
  - module: bigdata.spark.preflight_probe
"""

EXAMPLES = r"""
- name: Build the report on the controller
  bigdata.spark.preflight_report:
    hosts: "{{ preflight_hosts }}"
    links: "{{ preflight_links }}"
    thresholds:
      min_disk_read_mbps: 150
      min_network_gbps: 9
  delegate_to: localhost
  run_once: true
  register: report
"""

RETURN = r"""
report:
  description: C(hosts) (per host C(disks) with fio figures, C(space), C(ports_in_use), C(dns), C(java), C(tuning),
    C(advice) (list of sentences), C(nic), C(nic_tuning)), C(links), C(rdma) (C(hosts), each host's path or the reason
    it has none; C(links), each with C(average_gbps), C(peak_gbps), C(rate_gbps) and C(percent_of_rate), or C(error)),
    C(mtu_paths), C(clock).
  returned: always
  type: dict
markdown:
  description: The report as Markdown.
  returned: always
  type: str
failures:
  description: One message per figure past its threshold, naming the host, the item and the figure.
  returned: always
  type: list
  elements: str
"""

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.bigdata.spark.plugins.module_utils.native import NativeError, page_size_advice
from ansible_collections.bigdata.spark.plugins.module_utils.preflight_checks import (
    PreflightError, clock_offsets, failures, parse_fio, parse_iperf3, parse_ping, rdma_link, render_markdown)


def host_advice(tuning):
    """Advice from the host's tuning facts: seed 000's 64 KB page figures on aarch64 with smaller pages."""
    arch, size = tuning.get('architecture'), tuning.get('page_size')
    if not arch or size in (None, ''):
        return []
    try:
        text = page_size_advice(arch, int(size), tuning.get('distribution'), tuning.get('os_family'))
    except (NativeError, ValueError) as exc:
        raise PreflightError('tuning.page_size: %s' % exc)
    return [text] if text else []


def build(params):
    report = {'generated': params['generated'], 'hosts': {}, 'links': [], 'mtu_paths': []}
    for host, data in sorted(params['hosts'].items()):
        probe = data.get('probe') or {}
        disks = []
        for run in data.get('fio') or []:
            disk = {'path': run['path'], 'dirs': run.get('dirs') or [run['path']]}
            try:
                disk['fio'] = parse_fio(run.get('output') or '')
            except PreflightError as exc:
                # fio's own complaint says more than "no JSON".
                disk['error'] = (run.get('error') or '').strip() or str(exc)
            disks.append(disk)
        report['hosts'][host] = {
            'disks': disks, 'space': probe.get('space') or {}, 'ports_in_use': data.get('ports_in_use', probe.get('ports_in_use') or []),
            'dns': probe.get('dns') or {}, 'java': probe.get('java'), 'ntp_synchronized': probe.get('ntp_synchronized'),
            'tuning': data.get('tuning') or {},
            'advice': host_advice(data.get('tuning') or {}),
            'nic': data.get('nic') or {},
            'nic_tuning': data.get('nic_tuning') or {},
        }
        if data.get('rdma'):
            report.setdefault('rdma', {'hosts': {}, 'links': []})['hosts'][host] = data['rdma']
    for link in params.get('rdma_links') or []:
        path = (params['hosts'].get(link['client']) or {}).get('rdma') or {}
        report.setdefault('rdma', {'hosts': {}, 'links': []})['links'].append(
            rdma_link(link['client'], link['server'], path, link.get('output') or '', link.get('error') or ''))
    for link in params['links']:
        entry = {'client': link['client'], 'server': link['server']}
        try:
            entry.update(parse_iperf3(link.get('output') or ''))
        except PreflightError as exc:
            entry['error'] = str(exc) if '{' in (link.get('output') or '') else (link.get('error') or '').strip() or str(exc)
        report['links'].append(entry)
    for path in params['mtu_paths']:
        entry = {'client': path['client'], 'server': path['server'], 'mtu': path['mtu']}
        entry.update(parse_ping(int(path.get('rc', 1)), path.get('output') or ''))
        report['mtu_paths'].append(entry)
    report['clock'] = clock_offsets(params['clock_samples'])
    return report


def main():
    module = AnsibleModule(
        argument_spec=dict(
            hosts=dict(type='dict', required=True),
            links=dict(type='list', elements='dict', default=[]),
            rdma_links=dict(type='list', elements='dict', default=[]),
            mtu_paths=dict(type='list', elements='dict', default=[]),
            clock_samples=dict(type='dict', default={}),
            thresholds=dict(type='dict', default={}),
            generated=dict(type='str', default=''),
        ),
        supports_check_mode=True,
    )
    try:
        report = build(module.params)
        failed = failures(report, module.params['thresholds'])
    except (PreflightError, KeyError, TypeError, ValueError) as exc:
        module.fail_json(msg='preflight_report: %s' % exc)
    module.exit_json(changed=False, report=report, markdown=render_markdown(report, failed), failures=failed)


if __name__ == '__main__':
    main()
