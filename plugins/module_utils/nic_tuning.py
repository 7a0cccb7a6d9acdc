# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Pure helpers of the os_tuning role's NIC settings (seed 000: ring buffers, interrupt queues on the NIC's NUMA
node) and IPoIB mode and MTU: parse ethtool, /proc/interrupts and sysfs text, plan the changes, check the settings.

Plain functions over plain values: no Ansible imports, no file or network access.
Invalid input raises NicError with a message naming the value and what is allowed.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re

APPLIED = 'applied'
ALREADY = 'already right'
SKIPPED = 'skipped'

IPOIB_MODES = ('datagram', 'connected')
# IPoIB MTUs: datagram mode carries at most the IB MTU (4096) less the 4-byte IPoIB header; connected mode up
# to 65520 (the kernel's IPOIB_CM_MTU).
IPOIB_DATAGRAM_MAX_MTU = 4092
IPOIB_CONNECTED_MAX_MTU = 65520
MIN_MTU = 576
# ARP hardware type of IPoIB interfaces (/sys/class/net/<if>/type, include/uapi/linux/if_arp.h).
ARPHRD_INFINIBAND = 32
IFNAME_RE = re.compile(r'^[A-Za-z0-9_.:@-]{1,15}$')
SWITCHES = ('os_tuning_nic_rings_max', 'os_tuning_nic_queues_numa', 'os_tuning_nic_irq_affinity')

_SIZE_LINE = re.compile(r'^\s*([A-Za-z][A-Za-z ]*?)\s*:\s*(\S+)\s*$')


class NicError(ValueError):
    """A value the NIC helpers cannot use; the message says which and what is allowed."""


def parse_ethtool_sizes(text):
    """Maximums and current values of `ethtool -g` (rings) or `ethtool -l` (channels) output.

    Both print a "Pre-set maximums:" block then a "Current hardware settings:" block of "Name: value" lines;
    keys come back lower-case ("rx", "rx jumbo", "tx", "combined"), n/a as None. Lines ethtool adds in newer
    versions (RX Buf Len, CQE Size, TX Push...) are kept like the others.
    """
    out = {'max': {}, 'current': {}}
    section = None
    for line in (text or '').splitlines():
        head = line.strip().lower()
        if head.startswith('pre-set maximums'):
            section = 'max'
            continue
        if head.startswith('current hardware settings'):
            section = 'current'
            continue
        match = _SIZE_LINE.match(line)
        if section and match:
            value = match.group(2)
            out[section][match.group(1).strip().lower()] = int(value) if value.isdigit() else None
    if not out['max'] or not out['current']:
        raise NicError('ethtool output: expected "Pre-set maximums:" and "Current hardware settings:" blocks, got %r'
                       % ((text or '')[:120],))
    return out


def parse_cpulist(text):
    """CPU numbers of a kernel CPU list ("0-3,8,10-11" -> [0, 1, 2, 3, 8, 10, 11])."""
    cpus = set()
    for part in (text or '').strip().split(','):
        part = part.strip()
        if not part:
            continue
        match = re.match(r'^(\d+)(?:-(\d+))?(?::(\d+)/\d+)?$', part)
        if not match:
            raise NicError('CPU list %r: expected the kernel format such as 0-3,8-11' % (text,))
        first = int(match.group(1))
        last = int(match.group(2)) if match.group(2) else first
        if last < first:
            raise NicError('CPU list %r: range %s goes down' % (text, part))
        cpus.update(range(first, last + 1))
    return sorted(cpus)


def format_cpulist(cpus):
    """The kernel's CPU list text of CPU numbers ([0, 1, 2, 3, 8] -> "0-3,8")."""
    parts = []
    for cpu in sorted(set(cpus)):
        if parts and cpu == parts[-1][1] + 1:
            parts[-1][1] = cpu
        else:
            parts.append([cpu, cpu])
    return ','.join(str(a) if a == b else '%d-%d' % (a, b) for a, b in parts)


def parse_proc_interrupts(text):
    """IRQ number -> the name of its handler (the last field) in /proc/interrupts; NMI, LOC and the like are left out."""
    out = {}
    lines = (text or '').splitlines()
    if not lines:
        return out
    ncpus = len(lines[0].split())
    for line in lines[1:]:
        label, _sep, rest = line.partition(':')
        if not label.strip().isdigit():
            continue
        fields = rest.split()
        # per-CPU counts, then the chip, the hwirq and trigger, then the action (the handler's name).
        tail = fields[ncpus:]
        out[int(label)] = tail[-1] if tail else ''
    return out


def irqs_of(name, msi_irqs, interrupts):
    """IRQs of an interface: its PCI device's MSI vectors when sysfs lists them, else the /proc/interrupts handlers
    named after it (eth0-TxRx-0, i40e-eth0-TxRx-0); and where they came from."""
    if msi_irqs:
        return sorted(int(i) for i in msi_irqs), 'msi_irqs'
    pattern = re.compile(r'(^|[^A-Za-z0-9])%s([^A-Za-z0-9]|$)' % re.escape(name))
    found = sorted(irq for irq, action in (interrupts or {}).items() if pattern.search(action))
    return found, '/proc/interrupts' if found else None


def check_settings(settings):
    """Messages for every NIC or IPoIB setting a user got wrong; empty when all are usable.

    settings: interfaces (os_tuning_nic_interfaces), mtu (os_tuning_mtu), the switches of SWITCHES by their names,
    ipoib_mode, ipoib_mtu.
    """
    problems = []
    names = settings.get('interfaces')
    if not isinstance(names, list) or [n for n in names if not isinstance(n, str) or not IFNAME_RE.match(n)]:
        problems.append('os_tuning_nic_interfaces must be a list of interface names of at most 15 characters '
                        '(letters, digits, _ . : @ -), e.g. [ens1f0np0, ib0]; got %r' % (names,))
        names = []
    mtu = settings.get('mtu') or {}
    for switch in SWITCHES:
        if not isinstance(settings.get(switch), bool):
            problems.append('%s must be true or false (got %r)' % (switch, settings.get(switch)))
    mode = settings.get('ipoib_mode')
    if mode not in ('',) + IPOIB_MODES:
        problems.append("os_tuning_ipoib_mode must be '' (leave it), datagram or connected (got %r)" % (mode,))
    ipoib_mtu = settings.get('ipoib_mtu')
    if isinstance(ipoib_mtu, bool) or not re.match(r'^[0-9]+$', str(ipoib_mtu)):
        problems.append('os_tuning_ipoib_mtu must be 0 (leave it) or a whole number from %d to %d (got %r)'
                        % (MIN_MTU, IPOIB_CONNECTED_MAX_MTU, ipoib_mtu))
        ipoib_mtu = 0
    ipoib_mtu = int(ipoib_mtu)
    if ipoib_mtu and not MIN_MTU <= ipoib_mtu <= IPOIB_CONNECTED_MAX_MTU:
        problems.append('os_tuning_ipoib_mtu must be 0 (leave it) or a whole number from %d to %d (got %d)'
                        % (MIN_MTU, IPOIB_CONNECTED_MAX_MTU, ipoib_mtu))
    elif ipoib_mtu > IPOIB_DATAGRAM_MAX_MTU and mode == 'datagram':
        problems.append('os_tuning_ipoib_mtu %d is above %d, the most datagram mode carries: set os_tuning_ipoib_mode '
                        'to connected or the MTU to %d or less' % (ipoib_mtu, IPOIB_DATAGRAM_MAX_MTU, IPOIB_DATAGRAM_MAX_MTU))
    wanted = [s for s in SWITCHES if settings.get(s) is True] + (['os_tuning_ipoib_mode'] if mode else []) + (
        ['os_tuning_ipoib_mtu'] if ipoib_mtu else [])
    if wanted and not names and not mtu:
        problems.append('%s asked for, but no interface is named: set os_tuning_nic_interfaces (or os_tuning_mtu, '
                        'whose interfaces it defaults to)' % ', '.join(wanted))
    if ipoib_mtu and isinstance(mtu, dict):
        for name in names or sorted(mtu):
            if name in mtu and str(mtu[name]) != str(ipoib_mtu):
                problems.append('os_tuning_mtu sets %s to %s but os_tuning_ipoib_mtu to %d: give the IPoIB MTU in one of them'
                                % (name, mtu[name], ipoib_mtu))
    return problems


def missing_interfaces(host, names, present):
    """The message when the named interfaces are not all on this host; None when they are."""
    missing = [n for n in names if n not in present]
    if not missing:
        return None
    return ('os_tuning_nic_interfaces (or os_tuning_mtu) names %s, which %s does not have; its interfaces: %s. '
            'Set the names per host (host_vars) or remove them.'
            % (', '.join(missing), host, ', '.join(sorted(present)) or 'none'))


def ethtool_runs(results):
    """Per interface the `ethtool -g` (rings) and `ethtool -l` (channels) runs of a registered loop over
    [interface, option] items; skipped runs are left out."""
    out = {}
    for run in results or []:
        if not isinstance(run, dict) or run.get('skipped') or not isinstance(run.get('item'), (list, tuple)):
            continue
        name, option = run['item'][0], run['item'][1]
        key = {'-g': 'rings', '-l': 'channels'}.get(option)
        if key is None:
            raise NicError('ethtool run %r: expected the option -g or -l' % (option,))
        out.setdefault(name, {})[key] = {'rc': run.get('rc'), 'stdout': run.get('stdout'), 'stderr': run.get('stderr')}
    return out


def _entry(item, status, detail, kind=None, **extra):
    entry = {'item': item, 'status': status, 'detail': detail, 'kind': kind}
    entry.update(extra)
    return entry


def _ethtool_result(result, option, name):
    """(sizes, None) from a registered `ethtool -g/-l` run, or (None, the reason to skip)."""
    if not result:
        return None, 'ethtool is not installed'
    if result.get('rc', 0) != 0:
        error = ' '.join((result.get('stderr') or result.get('stdout') or '').split())
        if 'not supported' in error.lower():
            return None, 'not supported by the driver (ethtool %s %s: %s)' % (option, name, error)
        return None, 'ethtool %s %s failed: %s' % (option, name, error or 'rc %s' % result.get('rc'))
    try:
        return parse_ethtool_sizes(result.get('stdout')), None
    except NicError as exc:
        return None, str(exc)


def node_cpus(nic):
    """(CPUs, words) of the NIC's NUMA node: its node's cpulist, or every online CPU when it reports no node."""
    node = nic.get('numa_node')
    if node is not None and node >= 0 and nic.get('node_cpulist'):
        return parse_cpulist(nic['node_cpulist']), 'node %d (CPUs %s)' % (node, nic['node_cpulist'].strip())
    online = nic.get('online_cpulist') or ''
    return parse_cpulist(online), 'no NUMA node reported: all online CPUs (%s)' % online.strip()


def rings_entry(name, nic, result):
    """RX and TX rings raised to the maximum the NIC reports."""
    item = 'nic rings ' + name
    if nic.get('virtual'):
        return _entry(item, SKIPPED, 'not supported: %s is a virtual interface (%s) without rings' % (name, nic.get('driver') or 'no device'))
    sizes, why = _ethtool_result(result, '-g', name)
    if sizes is None:
        return _entry(item, SKIPPED, why)
    target, before = {}, {}
    for ring in ('rx', 'tx'):
        top, now = sizes['max'].get(ring), sizes['current'].get(ring)
        if top:
            target[ring], before[ring] = top, now
    if not target:
        return _entry(item, SKIPPED, 'not supported: the driver reports no RX or TX ring maximum')
    text = ', '.join('%s %s' % (r, target[r]) for r in sorted(target))
    change = dict((r, v) for r, v in target.items() if before.get(r) != v)
    if not change:
        return _entry(item, ALREADY, text + ' (the maximum)', before=before, after=target)
    argv = ['ethtool', '-G', name]
    for ring in sorted(change):
        argv += [ring, str(change[ring])]
    return _entry(item, APPLIED, ', '.join('%s %s -> %s' % (r, before.get(r), change[r]) for r in sorted(change))
                  + ' (the maximum; the link resets briefly)', 'ethtool', argv=argv, before=before, after=target)


def queues_entry(name, nic, result):
    """Interrupt queues (channels) set to the number of CPUs of the NIC's NUMA node, at most the NIC's maximum."""
    item = 'nic queues ' + name
    if nic.get('virtual'):
        return _entry(item, SKIPPED, 'not supported: %s is a virtual interface (%s)' % (name, nic.get('driver') or 'no device'))
    sizes, why = _ethtool_result(result, '-l', name)
    if sizes is None:
        return _entry(item, SKIPPED, why)
    cpus, where = node_cpus(nic)
    if not cpus:
        return _entry(item, SKIPPED, 'no CPU list for the NIC (%s)' % where)
    kinds = ['combined'] if sizes['max'].get('combined') else [k for k in ('rx', 'tx') if sizes['max'].get(k)]
    if not kinds:
        return _entry(item, SKIPPED, 'not supported: the driver reports no queue maximum')
    target = dict((k, min(sizes['max'][k], len(cpus))) for k in kinds)
    before = dict((k, sizes['current'].get(k)) for k in kinds)
    text = ', '.join('%s %s' % (k, target[k]) for k in kinds)
    if before == target:
        return _entry(item, ALREADY, '%s for %s' % (text, where), before=before, after=target)
    argv = ['ethtool', '-L', name]
    for kind in kinds:
        argv += [kind, str(target[kind])]
    return _entry(item, APPLIED, '%s -> %s for %s' % (', '.join('%s %s' % (k, before[k]) for k in kinds), text, where),
                  'ethtool', argv=argv, before=before, after=target)


def affinity_entry(name, nic):
    """One IRQ per CPU of the NIC's NUMA node, round robin, written to /proc/irq/<n>/smp_affinity_list."""
    item = 'nic irq affinity ' + name
    irqs = nic.get('irqs') or {}
    if not irqs:
        return _entry(item, SKIPPED, 'not supported: no IRQ of %s found (no device/msi_irqs, no named line in '
                      '/proc/interrupts)%s' % (name, '; a virtual interface' if nic.get('virtual') else ''))
    cpus, where = node_cpus(nic)
    if not cpus:
        return _entry(item, SKIPPED, 'no CPU list for the NIC (%s)' % where)
    writes, before, after = [], {}, {}
    for index, irq in enumerate(sorted(irqs, key=int)):
        want = str(cpus[index % len(cpus)])
        live = irqs[irq]
        before[str(irq)], after[str(irq)] = live, want
        if live is None or parse_cpulist(live) != [int(want)]:
            writes.append({'path': '/proc/irq/%s/smp_affinity_list' % irq, 'value': want})
    summary = '%d IRQs (from %s) spread over %s' % (len(irqs), nic.get('irq_source') or 'sysfs', where)
    if not writes:
        return _entry(item, ALREADY, summary, before=before, after=after)
    return _entry(item, APPLIED, '%d of %s' % (len(writes), summary), 'irq_affinity', writes=writes,
                  before=before, after=after)


def ipoib_entries(name, nic, mode, mtu):
    """IPoIB mode (/sys/class/net/<if>/mode) then MTU; a non-IPoIB interface is skipped."""
    out = []
    if not mode and not mtu:
        return out
    if nic.get('type') != ARPHRD_INFINIBAND:
        for what, wanted in (('mode', mode), ('mtu', mtu)):
            if wanted:
                out.append(_entry('ipoib %s %s' % (what, name), SKIPPED, '%s is not an IPoIB interface' % name))
        return out
    mode_changes = False
    if mode:
        live = nic.get('ipoib_mode')
        if live == mode:
            out.append(_entry('ipoib mode ' + name, ALREADY, mode, before=live, after=mode))
        elif live is None:
            out.append(_entry('ipoib mode ' + name, SKIPPED, 'no /sys/class/net/%s/mode' % name))
        else:
            mode_changes = True
            out.append(_entry('ipoib mode ' + name, APPLIED, '%s -> %s' % (live, mode), 'sysfs',
                              path='/sys/class/net/%s/mode' % name, value=mode, before=live, after=mode))
    if mtu:
        live_mtu = nic.get('mtu')
        effective = mode or nic.get('ipoib_mode')
        if effective == 'datagram' and int(mtu) > IPOIB_DATAGRAM_MAX_MTU:
            out.append(_entry('ipoib mtu ' + name, SKIPPED, '%s is in datagram mode, which carries at most %d'
                              % (name, IPOIB_DATAGRAM_MAX_MTU)))
        elif live_mtu == int(mtu) and not mode_changes:
            out.append(_entry('ipoib mtu ' + name, ALREADY, str(mtu), before=live_mtu, after=int(mtu)))
        else:
            # A mode change resets the MTU (connected: 65520, datagram: the multicast group's), so it is set after.
            out.append(_entry('ipoib mtu ' + name, APPLIED, '%s -> %s%s' % (live_mtu, mtu, ' (after the mode change)' if mode_changes else ''),
                              'mtu', name=name, value=int(mtu), before=live_mtu, after=int(mtu)))
    return out


def plan(nics, ethtool, wanted):
    """Entries for the NIC settings of every named interface, in the order they must run: rings and queues (ethtool),
    IRQ affinity (after a queue change re-creates the IRQs), IPoIB mode then MTU.

    nics: per interface what os_tuning_facts read (exists, virtual, driver, type, mtu, ipoib_mode, numa_node,
    node_cpulist, online_cpulist, irqs {irq: smp_affinity_list}, irq_source); ethtool: per interface the registered
    `ethtool -g` (rings) and `ethtool -l` (channels) runs; wanted: rings_max, queues_numa, irq_affinity (bools),
    ipoib_mode, ipoib_mtu.
    """
    if isinstance(ethtool, list):
        ethtool = ethtool_runs(ethtool)
    if not isinstance(nics, dict) or not isinstance(ethtool, dict) or not isinstance(wanted, dict):
        raise NicError('nics, ethtool and wanted must be dicts (got %s, %s, %s)'
                       % (type(nics).__name__, type(ethtool).__name__, type(wanted).__name__))
    entries = []
    for name in sorted(nics):
        nic = nics[name]
        if not nic.get('exists'):
            entries.append(_entry('nic ' + name, SKIPPED, 'no interface %s on this host' % name))
            continue
        runs = ethtool.get(name) or {}
        if wanted.get('rings_max'):
            entries.append(rings_entry(name, nic, runs.get('rings')))
        if wanted.get('queues_numa'):
            entries.append(queues_entry(name, nic, runs.get('channels')))
        if wanted.get('irq_affinity'):
            entries.append(affinity_entry(name, nic))
        entries.extend(ipoib_entries(name, nic, wanted.get('ipoib_mode') or '', int(wanted.get('ipoib_mtu') or 0)))
    return entries


def refusals(results):
    """Skipped entries for the writes the host refused, from registered loops over plan entries (or, for the IRQ
    writes, over [entry, write] pairs): one per entry, with the kernel's message and how many writes it refused."""
    out = {}
    for run in results or []:
        if not isinstance(run, dict) or 'rc' not in run or run.get('rc') == 0:
            continue
        item = run.get('item')
        entry = item[0] if isinstance(item, (list, tuple)) else item
        if not isinstance(entry, dict) or 'item' not in entry:
            raise NicError('result %r: expected the loop item to be a plan entry or [entry, write]' % (item,))
        message = ' '.join((run.get('stderr') or run.get('msg') or 'rc %s' % run['rc']).split())
        known = out.setdefault(entry['item'], {'item': entry['item'], 'status': SKIPPED, 'kind': None, 'count': 0,
                                               'message': message})
        known['count'] += 1
    return [{'item': e['item'], 'status': SKIPPED, 'kind': None,
             'detail': 'the host refused it%s: %s' % (' (%d writes)' % e['count'] if e['count'] > 1 else '', e['message'])}
            for e in sorted(out.values(), key=lambda e: e['item'])]


def state_summary(nics, ethtool):
    """Per interface the NIC state a report shows: rings and queues (current/maximum), IRQs on the NIC's node,
    IPoIB mode and MTU. Unknowns are said in words, never guessed."""
    if isinstance(ethtool, list):
        ethtool = ethtool_runs(ethtool)
    out = {}
    for name in sorted(nics or {}):
        nic = nics[name]
        if not nic.get('exists'):
            out[name] = {'present': False}
            continue
        runs = (ethtool or {}).get(name) or {}
        row = {'present': True, 'mtu': nic.get('mtu'), 'driver': nic.get('driver')}
        if nic.get('virtual'):
            row.update(rings='not supported: a virtual interface', queues='not supported: a virtual interface',
                       irqs_on_node='no IRQs (a virtual interface)')
            out[name] = row
            continue
        for key, option in (('rings', '-g'), ('queues', '-l')):
            sizes, why = _ethtool_result(runs.get(key if key == 'rings' else 'channels'), option, name)
            if sizes is None:
                row[key] = why
            else:
                names = ['rx', 'tx'] if key == 'rings' else [k for k in ('combined', 'rx', 'tx') if sizes['max'].get(k)]
                row[key] = ', '.join('%s %s/%s' % (k, sizes['current'].get(k), sizes['max'].get(k))
                                     for k in names if sizes['max'].get(k)) or 'not supported'
        irqs = nic.get('irqs') or {}
        if irqs:
            cpus = set(node_cpus(nic)[0])
            on_node = sum(1 for v in irqs.values() if v and set(parse_cpulist(v)) <= cpus)
            node = nic.get('numa_node')
            row['irqs_on_node'] = '%d/%d on %s' % (on_node, len(irqs), 'node %s' % node if node is not None and node >= 0
                                                   else 'any CPU (no NUMA node)')
        else:
            row['irqs_on_node'] = 'no IRQs found'
        if nic.get('type') == ARPHRD_INFINIBAND:
            row['ipoib_mode'] = nic.get('ipoib_mode')
        out[name] = row
    return out
