# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Pure helpers of the preflight role: parse fio, iperf3, ib_write_bw, ping, /proc/net and java output, judge
thresholds, render the report.

Plain functions over plain values: no Ansible imports, no file or network access.
Invalid input raises PreflightError with a message naming the value and what is allowed.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import re

THRESHOLD_KEYS = ('min_disk_read_mbps', 'min_disk_write_mbps', 'min_disk_randread_iops', 'min_network_gbps',
                  'max_clock_skew_ms', 'min_free_gb')


class PreflightError(ValueError):
    """Output or a setting the preflight helpers cannot use; the message says which and what is allowed."""


def _json_object(text, tool):
    """The JSON object in a tool's output (fio prints warnings before it)."""
    if not isinstance(text, str) or '{' not in text:
        raise PreflightError('%s output: expected JSON (run it with its JSON option), got %r' % (tool, (text or '')[:120]))
    try:
        return json.loads(text[text.index('{'):])
    except ValueError as exc:
        raise PreflightError('%s output: not valid JSON (%s)' % (tool, exc))


def parse_fio(text):
    """Throughput of the jobs of one fio --output-format=json run: MB/s (10^6 bytes) and IOPS per direction."""
    data = _json_object(text, 'fio')
    jobs = data.get('jobs') or []
    if not jobs:
        raise PreflightError('fio output: no jobs in the JSON')
    out = {}
    for job in jobs:
        name = job.get('jobname', '?')
        if job.get('error'):
            raise PreflightError('fio job %s failed with error %s' % (name, job['error']))
        for direction in ('read', 'write'):
            stats = job.get(direction) or {}
            if stats.get('io_bytes'):
                out[name] = {
                    'direction': direction,
                    'mbps': round(stats.get('bw_bytes', stats.get('bw', 0) * 1024) / 1e6, 1),
                    'iops': round(stats.get('iops', 0.0), 1),
                }
    if not out:
        raise PreflightError('fio output: no job moved any data')
    return out


def parse_iperf3(text):
    """Received throughput of one iperf3 -J run in Gbit/s (10^9 bits), with retransmits when TCP reports them."""
    data = _json_object(text, 'iperf3')
    if data.get('error'):
        raise PreflightError('iperf3 failed: %s' % data['error'])
    end = data.get('end') or {}
    received = end.get('sum_received') or end.get('sum') or {}
    if 'bits_per_second' not in received:
        raise PreflightError('iperf3 output: no end.sum_received.bits_per_second')
    return {
        'gbps': round(received['bits_per_second'] / 1e9, 2),
        'retransmits': (end.get('sum_sent') or {}).get('retransmits'),
        'seconds': round(received.get('seconds', 0.0), 1),
    }


def parse_ping(rc, output):
    """Whether a don't-fragment ping at a payload size got through; the kernel's complaint when it did not.

    One reply is enough: a full-size packet that may not be fragmented came back. (On a loaded machine the test
    command's ping once printed its first reply and no summary, its second packet unanswered: the path passed.)"""
    if rc == 0 and re.search(r'\b[1-9]\d* (packets )?received', output or ''):
        return {'ok': True, 'error': None}
    if re.search(r'^\d+ bytes from ', output or '', re.M):
        return {'ok': True, 'error': None}
    match = re.search(r'(message too long, mtu=\d+|Frag needed.*|100% packet loss)', output or '')
    return {'ok': False, 'error': match.group(1) if match else (output or 'no answer').strip()[-200:]}


def rdma_path(devices, tool_present):
    """The RDMA device and port ib_write_bw can test on a host (the first ACTIVE port), or why there is none.

    devices: hardware_facts' rdma list (device, ports with port, link_layer, transport, rate_gbps, state, netdevs).
    """
    if not devices:
        return {'ready': False, 'reason': 'no RDMA device (/sys/class/infiniband is empty or absent)'}
    seen = []
    for dev in devices:
        for port in dev.get('ports') or []:
            seen.append('%s port %s %s' % (dev.get('device'), port.get('port'), port.get('state') or 'state unknown'))
            if port.get('state') == 'ACTIVE':
                if not tool_present:
                    return {'ready': False, 'reason': 'perftest is not installed (no ib_write_bw in PATH)'}
                return {'ready': True, 'device': dev.get('device'), 'port': port.get('port'),
                        'transport': port.get('transport'), 'rate_gbps': port.get('rate_gbps'),
                        'netdevs': port.get('netdevs') or dev.get('netdevs') or []}
    return {'ready': False, 'reason': 'no ACTIVE RDMA port (%s)' % (', '.join(seen) or 'no ports')}


def parse_ib_write_bw(text):
    """Figures of the result line of perftest's ib_write_bw client: message size, iterations, peak and average
    bandwidth in Gbit/s (the tool runs with --report_gbits) and the message rate in Mpps."""
    lines = (text or '').splitlines()
    for index, line in enumerate(lines):
        if line.strip().startswith('#bytes'):
            header = line
            unit = re.search(r'BW average\[([^\]]+)\]', header)
            if not unit or unit.group(1) != 'Gb/sec':
                raise PreflightError('ib_write_bw output: expected "BW average[Gb/sec]" (run it with --report_gbits), got %r'
                                     % header.strip())
            for row in lines[index + 1:]:
                fields = row.split()
                if len(fields) >= 4 and fields[0].isdigit():
                    try:
                        return {'bytes': int(fields[0]), 'iterations': int(fields[1]), 'peak_gbps': float(fields[2]),
                                'average_gbps': float(fields[3]),
                                'msg_rate_mpps': float(fields[4]) if len(fields) > 4 else None}
                    except ValueError:
                        break
            raise PreflightError('ib_write_bw output: no result line under %r' % header.strip())
    raise PreflightError('ib_write_bw output: no "#bytes" result table in %r' % ((text or '').strip()[-200:],))


def rdma_link(client, server, path, output, error=''):
    """One ib_write_bw run as a report row: the figures against the port's rate, or the error."""
    row = {'client': client, 'server': server, 'device': path.get('device'), 'port': path.get('port'),
           'transport': path.get('transport'), 'rate_gbps': path.get('rate_gbps')}
    try:
        row.update(parse_ib_write_bw(output))
    except PreflightError as exc:
        row['error'] = ' '.join((error or '').split())[-300:] or str(exc)
        return row
    rate = path.get('rate_gbps')
    row['percent_of_rate'] = round(100.0 * row['average_gbps'] / rate, 1) if rate else None
    return row


def listening_ports(texts):
    """TCP ports in LISTEN state in /proc/net/tcp and /proc/net/tcp6 texts."""
    ports = set()
    for text in texts:
        for line in (text or '').splitlines()[1:]:
            fields = line.split()
            if len(fields) > 3 and fields[3] == '0A':
                ports.add(int(fields[1].rsplit(':', 1)[1], 16))
    return ports


def parse_java_version(text):
    """(version, major) from `java -version` output; (None, None) when none is found."""
    match = re.search(r'version "([^"]+)"', text or '')
    if not match:
        return None, None
    version = match.group(1)
    parts = version.split('.')
    major = int(parts[1]) if parts[0] == '1' and len(parts) > 1 else int(re.match(r'\d+', parts[0]).group(0))
    return version, major


def clock_offsets(samples):
    """Offset of each host's clock from the controller's, in ms, and the skew between hosts.

    samples: host -> {'host_time', 'before', 'after'} in epoch seconds, before/after taken on the controller
    around the reading. The offset is measured from the midpoint; its uncertainty is half the interval.
    """
    offsets = {}
    for host, sample in sorted(samples.items()):
        before, after, seen = float(sample['before']), float(sample['after']), float(sample['host_time'])
        if after < before:
            raise PreflightError('clock sample of %s: the controller time after (%s) is before the time before (%s)'
                                 % (host, after, before))
        offsets[host] = {'offset_ms': round((seen - (before + after) / 2) * 1000, 1),
                         'uncertainty_ms': round((after - before) / 2 * 1000, 1)}
    if not offsets:
        return {'hosts': {}, 'skew_ms': 0.0, 'uncertainty_ms': 0.0}
    values = [o['offset_ms'] for o in offsets.values()]
    return {'hosts': offsets, 'skew_ms': round(max(values) - min(values), 1),
            'uncertainty_ms': round(max(o['uncertainty_ms'] for o in offsets.values()) * 2, 1)}


def check_thresholds(thresholds):
    """Validated thresholds: numbers of at least 0, keys from THRESHOLD_KEYS."""
    out = {}
    for key, value in (thresholds or {}).items():
        if key not in THRESHOLD_KEYS:
            raise PreflightError('threshold %r: use one of %s' % (key, ', '.join(THRESHOLD_KEYS)))
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
            raise PreflightError('threshold %s=%r: use a number of at least 0 (0 turns the check off)' % (key, value))
        out[key] = value
    return out


def failures(report, thresholds):
    """Messages naming host, item and figure for every measurement past its threshold."""
    limits = check_thresholds(thresholds)
    out = []
    for host, data in sorted(report.get('hosts', {}).items()):
        for disk in data.get('disks', []):
            if disk.get('error'):
                out.append('%s: fio on %s failed: %s' % (host, disk['path'], disk['error']))
            for job, key, unit, attr in (('seqread', 'min_disk_read_mbps', 'MB/s', 'mbps'),
                                         ('seqwrite', 'min_disk_write_mbps', 'MB/s', 'mbps'),
                                         ('randread', 'min_disk_randread_iops', 'IOPS', 'iops')):
                value = (disk.get('fio') or {}).get(job, {}).get(attr)
                if limits.get(key) and value is not None and value < limits[key]:
                    out.append('%s: disk %s %s %s %s, below %s=%s' % (host, disk['path'], job, value, unit, key, limits[key]))
        for path, space in sorted((data.get('space') or {}).items()):
            free_gb = space.get('free_gb')
            if limits.get('min_free_gb') and free_gb is not None and free_gb < limits['min_free_gb']:
                out.append('%s: %s has %s GB free, below min_free_gb=%s' % (host, path, free_gb, limits['min_free_gb']))
        for port in data.get('ports_in_use') or []:
            out.append('%s: port %s that a daemon needs is already in use' % (host, port))
        for name, dns in sorted((data.get('dns') or {}).items()):
            if not dns.get('agree'):
                out.append('%s: DNS for %s does not agree: %s' % (host, name, dns.get('problem')))
    for link in report.get('links', []):
        if link.get('error'):
            out.append('%s -> %s: iperf3 failed: %s' % (link['client'], link['server'], link['error']))
        elif limits.get('min_network_gbps') and link.get('gbps') is not None and link['gbps'] < limits['min_network_gbps']:
            out.append('%s -> %s: %s Gbit/s, below min_network_gbps=%s'
                       % (link['client'], link['server'], link['gbps'], limits['min_network_gbps']))
    for link in (report.get('rdma') or {}).get('links', []):
        if link.get('error'):
            out.append('%s -> %s: ib_write_bw on %s failed: %s' % (link['client'], link['server'], link.get('device'), link['error']))
    for path in report.get('mtu_paths', []):
        if not path.get('ok'):
            out.append('%s -> %s: MTU %s does not pass end to end (%s)'
                       % (path['client'], path['server'], path['mtu'], path.get('error')))
    clock = report.get('clock') or {}
    skew, err = clock.get('skew_ms'), clock.get('uncertainty_ms') or 0
    if limits.get('max_clock_skew_ms') and skew is not None and skew - err > limits['max_clock_skew_ms']:
        out.append('clock skew between hosts %s ms (+/- %s ms), above max_clock_skew_ms=%s'
                   % (skew, err, limits['max_clock_skew_ms']))
    return out


def render_markdown(report, failed):
    """The Markdown report: one table per measurement, then the failures."""
    lines = ['# Preflight report', '', 'Generated %s for %d hosts.' % (report.get('generated', '?'), len(report.get('hosts', {}))), '']
    lines += ['## Disks (fio)', '', '| host | data dir | tested path | seq read MB/s | seq write MB/s | rand 4k read IOPS |',
              '| --- | --- | --- | ---: | ---: | ---: |']
    for host, data in sorted(report.get('hosts', {}).items()):
        for disk in data.get('disks', []):
            fio = disk.get('fio') or {}
            lines.append('| %s | %s | %s | %s | %s | %s |' % (
                host, ', '.join(disk.get('dirs', [disk['path']])), disk['path'],
                fio.get('seqread', {}).get('mbps', disk.get('error', '-')),
                fio.get('seqwrite', {}).get('mbps', '-'), fio.get('randread', {}).get('iops', '-')))
    lines += ['', '## Network (iperf3)', '', '| client | server | Gbit/s | retransmits | error |', '| --- | --- | ---: | ---: | --- |']
    for link in report.get('links', []):
        lines.append('| %s | %s | %s | %s | %s |' % (
            link['client'], link['server'], link.get('gbps', '-'), link.get('retransmits', '-'), link.get('error') or ''))
    lines += ['', '## End-to-end MTU (ping, do not fragment, MTU - 28 bytes)', '', '| client | server | MTU | passes |',
              '| --- | --- | ---: | --- |']
    for path in report.get('mtu_paths', []):
        lines.append('| %s | %s | %s | %s |' % (
            path['client'], path['server'], path['mtu'], 'yes' if path.get('ok') else 'no: %s' % path.get('error')))
    rdma = report.get('rdma') or {}
    if rdma.get('hosts'):
        lines += ['', '## RDMA (perftest ib_write_bw)', '']
        if rdma.get('links'):
            lines += ['| client | server | device | transport | Gbit/s average | Gbit/s peak | port rate Gbit/s | % of rate | error |',
                      '| --- | --- | --- | --- | ---: | ---: | ---: | ---: | --- |']
        else:
            lines.append('No pair of hosts has an RDMA path on both ends.')
        for link in rdma.get('links', []):
            lines.append('| %s | %s | %s | %s | %s | %s | %s | %s | %s |' % (
                link['client'], link['server'], '%s/%s' % (link.get('device'), link.get('port')), link.get('transport') or '-',
                link.get('average_gbps', '-'), link.get('peak_gbps', '-'), link.get('rate_gbps') or '-',
                link.get('percent_of_rate') if link.get('percent_of_rate') is not None else '-', link.get('error') or ''))
        skipped = [(h, p['reason']) for h, p in sorted(rdma['hosts'].items()) if not p.get('ready')]
        if skipped:
            lines += ['', 'Not tested: ' + '; '.join('%s: %s' % hr for hr in skipped) + '.']
    nics = [(host, name, row) for host, data in sorted(report.get('hosts', {}).items())
            for name, row in sorted((data.get('nic') or {}).items()) if row.get('present')]
    if nics:
        lines += ['', '## NICs (now)', '', '| host | interface | driver | MTU | rings now/max | queues now/max | IRQs on the NIC\'s node '
                  '| IPoIB mode |', '| --- | --- | --- | ---: | --- | --- | --- | --- |']
        for host, name, row in nics:
            lines.append('| %s | %s | %s | %s | %s | %s | %s | %s |' % (
                host, name, row.get('driver') or '-', row.get('mtu'), row.get('rings'), row.get('queues'),
                row.get('irqs_on_node'), row.get('ipoib_mode') or '-'))
    tuned = [(host, data['nic_tuning']) for host, data in sorted(report.get('hosts', {}).items()) if data.get('nic_tuning')]
    if tuned:
        lines += ['', '## NIC tuning by os_tuning (before -> after)', '', '| host | interface | setting | before | after |',
                  '| --- | --- | --- | --- | --- |']
        for host, tuning in tuned:
            after = tuning.get('after') or {}
            for name, before in sorted((tuning.get('before') or {}).items()):
                now = after.get(name) or {}
                for key in [k for k in ('mtu', 'rings', 'queues', 'irqs_on_node', 'ipoib_mode') if k in before or k in now]:
                    lines.append('| %s | %s | %s | %s | %s |' % (host, name, key, before.get(key, '-'), now.get(key, '-')))
            if tuning.get('check_mode'):
                lines.append('| %s | | | (check mode: nothing was changed) | |' % host)
    clock = report.get('clock') or {}
    lines += ['', '## Clocks', '', 'Skew between hosts: %s ms (+/- %s ms, measured from the controller).'
              % (clock.get('skew_ms'), clock.get('uncertainty_ms')), '', '| host | offset ms | NTP synchronised |',
              '| --- | ---: | --- |']
    for host, data in sorted(report.get('hosts', {}).items()):
        offset = (clock.get('hosts') or {}).get(host, {}).get('offset_ms', '-')
        lines.append('| %s | %s | %s |' % (host, offset, data.get('ntp_synchronized', '-')))
    lines += ['', '## Hosts', '', '| host | Java | free GB per data dir | ports in use | DNS | OS tuning |',
              '| --- | --- | --- | --- | --- | --- |']
    for host, data in sorted(report.get('hosts', {}).items()):
        space = ', '.join('%s %s' % (p, s.get('free_gb')) for p, s in sorted((data.get('space') or {}).items()))
        dns = 'ok' if all(d.get('agree') for d in (data.get('dns') or {}).values()) else 'MISMATCH'
        tuning = ', '.join('%s=%s' % (k, v) for k, v in sorted((data.get('tuning') or {}).items()))
        ports = ', '.join(str(p) for p in data.get('ports_in_use') or []) or 'none'
        lines.append('| %s | %s | %s | %s | %s | %s |' % (host, data.get('java') or 'not installed', space, ports, dns, tuning))
    advice = [(host, text) for host, data in sorted(report.get('hosts', {}).items()) for text in data.get('advice') or []]
    if advice:
        lines += ['', '## Advice', '']
        lines += ['- %s: %s' % (host, text) for host, text in advice]
    lines += ['', '## Result', '']
    lines += ['- FAIL: %s' % f for f in failed] if failed else ['All thresholds met.']
    return '\n'.join(lines) + '\n'
