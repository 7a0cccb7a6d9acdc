# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Pure helpers of the os_tuning role: parse /proc and /etc text, compare wanted with live values.

Plain functions over plain values: no Ansible imports, no file or network access.
Invalid input raises TuningError with a message naming the value and what is allowed.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re

# Statuses of one tuning item, as the summary lists them.
APPLIED = 'applied'
ALREADY = 'already right'
SKIPPED = 'skipped'
STATUSES = (APPLIED, ALREADY, SKIPPED)

# The seed's numbers for Arm servers with a 64 KB page kernel (seed 000, "64 KB pages").
PAGE_SIZE_ADVICE = (
    'This aarch64 host runs a kernel with {size} byte pages. Seed 000 measured about 40% faster '
    'TeraSort and 9% faster TPC-DS with a 64 KB page kernel ({package}). Set '
    'os_tuning_arm64_64k_kernel: true (and os_tuning_reboot_ok: true to let the role reboot) to switch.'
)

# The sysctl that keeps ports out of the kernel's ephemeral range (outgoing connections' local ports): the role reserves
# the ports of the host's daemons there, so a client socket cannot take one before its daemon binds it.
RESERVED_PORTS = 'net.ipv4.ip_local_reserved_ports'

_SCHEDULER_RE = re.compile(r'\[([^\]]+)\]')
_LIMIT_RE = re.compile(r'^(Max [a-z ]+?)\s{2,}(\S+)\s+(\S+)', re.M)


class TuningError(ValueError):
    """A value the tuning helpers cannot use; the message says which and what is allowed."""


def sysctl_path(key):
    """Path under /proc/sys of a sysctl key (dots separate levels unless the key uses slashes)."""
    if not isinstance(key, str) or not re.match(r'^[A-Za-z0-9_][A-Za-z0-9_./-]*$', key) or '..' in key:
        raise TuningError('sysctl key %r: use dotted names such as net.core.somaxconn' % (key,))
    if '/' in key:
        return key.strip('/')
    return key.replace('.', '/')


def os_identity(os_release):
    """Distribution and family from /etc/os-release text, as Ansible names them (Debian, Ubuntu, RedHat...)."""
    fields = {}
    for line in (os_release or '').splitlines():
        if '=' in line:
            key, value = line.split('=', 1)
            fields[key.strip()] = value.strip().strip('"')
    ids = [fields.get('ID', '').lower()] + fields.get('ID_LIKE', '').lower().split()
    names = {'debian': 'Debian', 'ubuntu': 'Ubuntu', 'rhel': 'RedHat', 'centos': 'CentOS', 'rocky': 'Rocky',
             'almalinux': 'AlmaLinux', 'fedora': 'Fedora', 'ol': 'OracleLinux', 'sles': 'SLES', 'suse': 'Suse'}
    distribution = names.get(ids[0], fields.get('NAME', 'unknown').split()[0] if fields.get('NAME') else 'unknown')
    family = 'unknown'
    for ident in ids:
        if ident in ('debian', 'ubuntu'):
            family = 'Debian'
            break
        if ident in ('rhel', 'centos', 'fedora', 'rocky', 'almalinux', 'ol'):
            family = 'RedHat'
            break
        if ident in ('suse', 'sles', 'opensuse'):
            family = 'Suse'
            break
    return {'distribution': distribution, 'os_family': family, 'version': fields.get('VERSION_ID', '')}


def normalize_sysctl(value):
    """Compare sysctl values as the kernel prints them: fields separated by single spaces."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise TuningError('sysctl value %r: use a number or a string such as "4096 87380 6291456"' % (value,))
    return ' '.join(str(value).split())


def parse_ports(value, what=RESERVED_PORTS):
    """The set of ports in a port list: numbers, or text as the kernel writes it ("8030-8033,45454"); empty for none."""
    items = value if isinstance(value, (list, tuple, set)) else str(value if value is not None else '').split(',')
    ports = set()
    for item in items:
        text = str(item).strip()
        if not text:
            continue
        match = re.match(r'^(\d+)(?:-(\d+))?$', text)
        low, high = (int(match.group(1)), int(match.group(2) or match.group(1))) if match else (0, -1)
        if isinstance(item, bool) or not match or not 1 <= low <= high <= 65535:
            raise TuningError('%s: %r is not a port (1-65535) or a range such as 8030-8033' % (what, item))
        ports.update(range(low, high + 1))
    return ports


def port_ranges(ports):
    """A set of ports as the kernel prints a port bitmap: sorted, runs of two or more as low-high, comma separated."""
    runs = []
    for port in sorted(ports):
        if runs and port == runs[-1][1] + 1:
            runs[-1][1] = port
        else:
            runs.append([port, port])
    return ','.join(str(low) if low == high else '%d-%d' % (low, high) for low, high in runs)


def selected(text):
    """The bracketed choice of a sysfs multiple-choice file ("always [madvise] never" -> "madvise")."""
    if text is None:
        return None
    match = _SCHEDULER_RE.search(text)
    if match:
        return match.group(1)
    text = text.strip()
    return text or None


def choices(text):
    """All choices of a sysfs multiple-choice file ("[mq-deadline] none" -> ["mq-deadline", "none"])."""
    if not text:
        return []
    return [word.strip('[]') for word in text.split()]


def parse_mountinfo(text):
    """Mounts from /proc/self/mountinfo as dicts: mount_point, source, fstype, options."""
    mounts = []
    for line in text.splitlines():
        if ' - ' not in line:
            continue
        left, right = line.split(' - ', 1)
        lfields = left.split()
        rfields = right.split()
        if len(lfields) < 6 or len(rfields) < 2:
            continue
        mounts.append({
            'mount_point': _unescape(lfields[4]),
            'options': lfields[5],
            'fstype': rfields[0],
            'source': _unescape(rfields[1]),
            'super_options': rfields[2] if len(rfields) > 2 else '',
        })
    return mounts


def parse_fstab(text):
    """Entries of /etc/fstab as dicts: src, path, fstype, opts, dump, passno (comments dropped)."""
    entries = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith('#'):
            continue
        fields = line.split()
        if len(fields) < 3:
            continue
        fields += ['defaults', '0', '0'][len(fields) - 3:]
        entries.append({
            'src': _unescape(fields[0]), 'path': _unescape(fields[1]), 'fstype': fields[2],
            'opts': fields[3], 'dump': fields[4], 'passno': fields[5],
        })
    return entries


def _unescape(text):
    """Undo the octal escapes of mountinfo and fstab (\\040 for a space)."""
    return re.sub(r'\\([0-7]{3})', lambda m: chr(int(m.group(1), 8)), text)


def mount_of(path, mounts):
    """The mount holding path: the last-mounted entry whose mount point is the longest prefix."""
    if not path.startswith('/'):
        raise TuningError('data directory %r: use an absolute path' % (path,))
    norm = '/' + path.strip('/') if path.strip('/') else '/'
    best = None
    for mount in mounts:
        point = mount['mount_point']
        if norm == point or point == '/' or norm.startswith(point.rstrip('/') + '/'):
            if best is None or len(point) >= len(best['mount_point']):
                best = mount
    return best


def noatime_options(opts):
    """fstab options with noatime in place of any other atime option; the order is kept."""
    words = [w for w in (opts or 'defaults').split(',') if w]
    out = []
    for word in words:
        if word in ('atime', 'relatime', 'strictatime', 'norelatime', 'nostrictatime', 'noatime'):
            if 'noatime' not in out:
                out.append('noatime')
        else:
            out.append(word)
    if 'noatime' not in out:
        out.append('noatime')
    return ','.join(out)


def noatime_plan(data_dirs, mounts, fstab):
    """Per data directory: the mount, whether fstab and the live mount need noatime, or why to skip.

    Never plans a change to the root filesystem: a wrong option there stops the host from booting.
    """
    plan = []
    seen = set()
    for path in data_dirs:
        mount = mount_of(path, mounts)
        item = {'dir': path, 'mount_point': mount['mount_point'] if mount else None}
        if mount is None:
            item.update(action='skip', reason='no mount holds %s' % path)
        elif mount['mount_point'] == '/':
            item.update(action='skip', reason='%s is on the root filesystem, which the role never touches' % path)
        elif mount['mount_point'] in seen:
            item.update(action='skip', reason='%s shares the mount %s with an earlier data directory'
                        % (path, mount['mount_point']))
        else:
            seen.add(mount['mount_point'])
            entry = next((e for e in fstab if e['path'].rstrip('/') == mount['mount_point'].rstrip('/')), None)
            live_ok = 'noatime' in mount['options'].split(',')
            if entry is None:
                item.update(action='skip', reason='%s is mounted but has no /etc/fstab entry' % mount['mount_point'])
            else:
                new_opts = noatime_options(entry['opts'])
                item.update(action='apply', fstab=dict(entry, opts=new_opts), fstab_changes=new_opts != entry['opts'],
                            remount=not live_ok)
        plan.append(item)
    return plan


def parse_proc_limits(text):
    """Soft and hard limits of /proc/<pid>/limits: {'nofile': (soft, hard), 'nproc': ...}; None is unlimited."""
    names = {'Max open files': 'nofile', 'Max processes': 'nproc'}
    out = {}
    for match in _LIMIT_RE.finditer(text):
        name = names.get(match.group(1).strip())
        if name:
            out[name] = tuple(None if v == 'unlimited' else int(v) for v in (match.group(2), match.group(3)))
    return out


def capped_limit(wanted, hard_of_pid1):
    """The limit a login may get: the wanted one, capped at PID 1's hard limit when that is lower.

    pam_limits aborts the session (su, sudo, ssh) when it cannot raise a limit, and in a container
    nothing can go above the limits the container started with.
    """
    if not isinstance(wanted, int) or isinstance(wanted, bool) or wanted < 1:
        raise TuningError('limit %r: use a whole number of at least 1' % (wanted,))
    if hard_of_pid1 is None:
        return wanted
    return min(wanted, hard_of_pid1)


def compare(wanted, live, writable, why_not=None):
    """Status of one live setting: already right, to apply, or skipped with the reason."""
    if live is not None and normalize_sysctl(live) == normalize_sysctl(wanted):
        return ALREADY, None
    if not writable:
        return SKIPPED, why_not or 'the host does not let the value change'
    return APPLIED, None


def page_size_advice(architecture, page_size, package):
    """The seed's advice when an aarch64 host runs 4 KB (or 16 KB) pages; None when it does not apply."""
    if architecture not in ('aarch64', 'arm64'):
        return None
    if not isinstance(page_size, int) or page_size <= 0:
        raise TuningError('page size %r: use the byte count getconf PAGESIZE prints' % (page_size,))
    if page_size >= 65536:
        return None
    return PAGE_SIZE_ADVICE.format(size=page_size, package=package or 'no 64 KB kernel package known for this OS')


def _profile_attrs(profile):
    """(attribute, value) pairs of one queue profile, scheduler first; empty or 0 values are left alone."""
    attrs = []
    for name in ('scheduler', 'nr_requests', 'read_ahead_kb'):
        value = (profile or {}).get(name)
        if value in (None, '', 0, '0'):
            continue
        if name == 'scheduler':
            if not re.match(r'^[a-z][a-z0-9-]*$', str(value)):
                raise TuningError('I/O scheduler %r: use a kernel scheduler name such as mq-deadline, none, bfq, kyber'
                                  % (value,))
            attrs.append((name, str(value)))
        else:
            if isinstance(value, bool) or not str(value).isdigit():
                raise TuningError('%s %r: use a whole number (0 leaves the kernel default)' % (name, value))
            attrs.append((name, str(int(value))))
    return attrs


def udev_rule(disks, rotational, ssd):
    """Lines of a udev rule setting the queue of the named whole disks at every add/change event."""
    if not isinstance(disks, list):
        raise TuningError('disks %r: use a list of kernel disk names such as [sdb, nvme0n1]' % (disks,))
    lines = []
    for disk in sorted(set(disks)):
        if not re.match(r'^[a-z][a-z0-9-]*$', str(disk)):
            raise TuningError('disk %r: use a whole-disk kernel name such as sdb or nvme0n1 (no /dev/, no partition)'
                              % (disk,))
        for flag, profile in (('1', rotational), ('0', ssd)):
            attrs = _profile_attrs(profile)
            if attrs:
                lines.append('ACTION=="add|change", SUBSYSTEM=="block", KERNEL=="%s", ATTR{queue/rotational}=="%s", %s'
                             % (disk, flag, ', '.join('ATTR{queue/%s}="%s"' % a for a in attrs)))
    return lines


def disk_of(partition, parents):
    """Whole-disk name of a block device: parents maps a partition name to its disk (from /sys/class/block)."""
    name = partition.rsplit('/', 1)[-1]
    return parents.get(name, name)


def summarize(entries):
    """Entries (item, status, detail) grouped per status, in the order applied, already right, skipped."""
    out = dict((status, []) for status in STATUSES)
    for entry in entries:
        status = entry.get('status')
        if status not in out:
            raise TuningError('summary entry %r: status must be one of %s' % (entry, ', '.join(STATUSES)))
        text = entry['item'] if not entry.get('detail') else '%s: %s' % (entry['item'], entry['detail'])
        out[status].append(text)
    return out


def _entry(item, status, detail='', kind=None, **action):
    entry = {'item': item, 'status': status, 'detail': detail, 'kind': kind}
    entry.update(action)
    return entry


def _host_reason(state, what):
    """Why a live value cannot change here, in words a user can act on."""
    if state.get('container'):
        return '%s is read-only in this container (%s)' % (what, state['container'])
    return '%s is read-only on this host' % what


def plan_live(state, wanted):
    """Entries for every wanted live setting: applied (with the action to take), already right, or skipped.

    state is what the os_tuning_facts module read; wanted holds the role's settings, a missing or None
    section is not managed. Applied entries carry kind (sysctl, sysfs, mtu, fstab, remount) and the
    path/value to write, so the role only executes them.
    """
    entries = []
    for key, want in sorted((wanted.get('sysctl') or {}).items()):
        live = state['sysctl'].get(key, {'exists': False})
        want_text = normalize_sysctl(want)
        if key == RESERVED_PORTS and live.get('exists'):
            # Add to what the host reserves already, never take a reservation away: another service may own it.
            want_text = port_ranges(parse_ports(want_text) | parse_ports(live.get('value')))
        if not live.get('exists'):
            reason = ('not visible in this container (a sysctl the kernel does not namespace)'
                      if state.get('container') else 'not in this kernel')
            entries.append(_entry('sysctl ' + key, SKIPPED, reason + '; left out of the drop-in'))
            continue
        status, why = compare(want_text, live.get('value'), live.get('writable'),
                              _host_reason(state, '/proc/sys') if not state.get('proc_sys_writable')
                              else '/proc/sys/%s is not writable here (not namespaced)' % sysctl_path(key))
        detail = why or ('%s -> %s' % (live.get('value'), want_text) if status == APPLIED else want_text)
        entries.append(_entry('sysctl ' + key, status, detail, 'sysctl' if status == APPLIED else None,
                              name=key, value=want_text))

    for name, want in sorted((wanted.get('thp') or {}).items()):
        live = (state.get('thp') or {}).get(name)
        item = 'transparent_hugepage/' + name
        path = '/sys/kernel/mm/transparent_hugepage/' + name
        if live is None:
            entries.append(_entry(item, SKIPPED, 'no %s (kernel without transparent huge pages)' % path))
        elif want not in live['choices']:
            entries.append(_entry(item, SKIPPED, 'the kernel offers %s, not %s' % (', '.join(live['choices']), want)))
        else:
            status, why = compare(want, live['value'], live['writable'], _host_reason(state, '/sys'))
            detail = why or ('%s -> %s' % (live['value'], want) if status == APPLIED else want)
            entries.append(_entry(item, status, detail, 'sysfs' if status == APPLIED else None, path=path, value=want))

    governor = wanted.get('governor')
    if governor:
        freq = state.get('cpufreq') or {}
        if not freq.get('present'):
            entries.append(_entry('cpu governor', SKIPPED, 'no cpufreq on this host (container, VM, or frequency '
                                  'set by the firmware)'))
        elif freq.get('available') and governor not in freq['available']:
            entries.append(_entry('cpu governor', SKIPPED, 'cpufreq offers %s, not %s'
                                  % (', '.join(freq['available']), governor)))
        else:
            wrong = sorted(cpu for cpu, gov in freq['governors'].items() if gov != governor)
            if not wrong:
                entries.append(_entry('cpu governor', ALREADY, '%s on %d CPUs' % (governor, len(freq['governors']))))
            elif not freq.get('writable'):
                entries.append(_entry('cpu governor', SKIPPED, _host_reason(state, '/sys')))
            else:
                for cpu in wrong:
                    entries.append(_entry('cpu governor ' + cpu, APPLIED, '%s -> %s' % (freq['governors'][cpu], governor),
                                          'sysfs', path='/sys/devices/system/cpu/%s/cpufreq/scaling_governor' % cpu,
                                          value=governor))

    for name, mtu in sorted((wanted.get('mtu') or {}).items()):
        live = state['interfaces'].get(name, {'exists': False})
        item = 'mtu ' + name
        if not live.get('exists'):
            entries.append(_entry(item, SKIPPED, 'no interface %s on this host' % name))
        elif live.get('mtu') == int(mtu):
            entries.append(_entry(item, ALREADY, str(mtu)))
        elif not state.get('cap_net_admin'):
            entries.append(_entry(item, SKIPPED, 'no CAP_NET_ADMIN here%s: the live MTU stays %s'
                                  % (' (container: %s)' % state['container'] if state.get('container') else '',
                                     live.get('mtu'))))
        else:
            entries.append(_entry(item, APPLIED, '%s -> %s' % (live.get('mtu'), mtu), 'mtu', name=name, value=int(mtu)))

    io = wanted.get('io')
    if io is not None:
        for path, info in sorted(state.get('data_dirs', {}).items()):
            if not info.get('disk'):
                entries.append(_entry('io queue ' + path, SKIPPED, 'on %s %s, not a block device'
                                      % (info.get('fstype') or 'no mount', info.get('source') or '')))
        for disk, info in sorted(state.get('disks', {}).items()):
            if not info.get('exists'):
                entries.append(_entry('io queue ' + disk, SKIPPED, 'no /sys/class/block/%s on this host; the udev rule '
                                      'applies when it appears' % disk))
                continue
            profile = io.get('rotational') if info.get('rotational') else io.get('ssd')
            for attr, want in _profile_attrs(profile):
                item = 'io queue %s %s' % (disk, attr)
                live = info.get(attr)
                if attr == 'scheduler' and info.get('schedulers') and want not in info['schedulers']:
                    entries.append(_entry(item, SKIPPED, 'the disk offers %s' % ', '.join(info['schedulers'])))
                    continue
                status, why = compare(want, None if live is None else str(live), info.get('writable'),
                                      _host_reason(state, '/sys'))
                entries.append(_entry(item, status, why or want, 'sysfs' if status == APPLIED else None,
                                      path='/sys/class/block/%s/queue/%s' % (disk, attr), value=want))

    if wanted.get('noatime'):
        for step in noatime_plan(wanted.get('data_dirs') or [], state.get('mounts') or [], state.get('fstab') or []):
            item = 'noatime ' + step['dir']
            if step['action'] == 'skip':
                entries.append(_entry(item, SKIPPED, step['reason']))
                continue
            if step['fstab_changes']:
                entries.append(_entry(item + ' (fstab)', APPLIED, step['fstab']['opts'], 'fstab', **step['fstab']))
            else:
                entries.append(_entry(item + ' (fstab)', ALREADY, step['fstab']['opts']))
            if not step['remount']:
                entries.append(_entry(item + ' (live)', ALREADY, step['mount_point']))
            elif not state.get('cap_sys_admin'):
                entries.append(_entry(item + ' (live)', SKIPPED, 'no CAP_SYS_ADMIN to remount %s; applies at the next '
                                      'mount' % step['mount_point']))
            else:
                entries.append(_entry(item + ' (live)', APPLIED, 'remount ' + step['mount_point'], 'remount',
                                      path=step['mount_point']))
    return entries


def _jinja_int(value):
    """int() the way Jinja's int filter does it: a float string is truncated, anything else is 0."""
    try:
        return int(value)
    except (TypeError, ValueError):
        try:
            return int(float(value))
        except (TypeError, ValueError):
            return 0


def _status(managed, changed):
    if not managed:
        return SKIPPED
    return APPLIED if changed else ALREADY


# What boot_report needs of each part's settings.
_BOOT_REPORT_KEYS = {
    'sysctl': ('enabled', 'file', 'keys'),
    'limits': ('enabled', 'file', 'nofile', 'nproc', 'wanted_nofile', 'wanted_nproc', 'users'),
    'thp': ('enabled', 'unit', 'mode', 'defrag'),
    'governor': ('enabled', 'unit', 'governor'),
    'io': ('enabled', 'file'),
}


def boot_report(settings, state, changed):
    """Report entries (item, status, detail) of the files the host reads at boot, in the order configure.yml writes them.

    settings holds the role's variables per part (sysctl, limits, thp, governor, io), state is what os_tuning_facts
    read, changed says per part whether its files or units changed in this run.
    """
    for name, value in (('settings', settings), ('state', state), ('changed', changed)):
        if not isinstance(value, dict):
            raise TuningError('%s %r: use a dict' % (name, value))
    for part, keys in sorted(_BOOT_REPORT_KEYS.items()):
        given = settings.get(part)
        if not isinstance(given, dict):
            raise TuningError('settings.%s %r: use a dict with %s' % (part, given, ', '.join(keys)))
        missing = [k for k in keys if k not in given]
        if missing:
            raise TuningError('settings.%s lacks %s' % (part, ', '.join(missing)))
    entries = []

    sysctl = settings['sysctl']
    entries.append({
        'item': 'sysctl drop-in %s' % sysctl['file'],
        'status': _status(sysctl['enabled'], changed.get('sysctl')),
        'detail': ('os_tuning_sysctl_enabled is false' if not sysctl['enabled']
                   else '%s keys; applied at boot by systemd-sysctl' % sysctl['keys']),
    })

    limits = settings['limits']
    pid1 = state.get('limits_pid1') or {}
    nofile = (pid1.get('nofile') or [None, None])[-1]
    nproc = (pid1.get('nproc') or [None, None])[-1]
    capped = ((nofile not in (None, '') and _jinja_int(nofile) < _jinja_int(limits['wanted_nofile']))
              or (nproc not in (None, '') and _jinja_int(nproc) < _jinja_int(limits['wanted_nproc'])))
    entries.append({
        'item': 'limits drop-in %s' % limits['file'],
        'status': _status(limits['enabled'], changed.get('limits')),
        'detail': ('os_tuning_limits_enabled is false' if not limits['enabled']
                   else 'nofile %s, nproc %s for %s%s' % (
                       limits['nofile'], limits['nproc'], ', '.join(sorted(limits['users'])),
                       (' (capped at the hard limits of PID 1, %s/%s, instead of %s/%s)'
                        % (nofile, nproc, limits['wanted_nofile'], limits['wanted_nproc'])) if capped else '')),
    })

    thp = settings['thp']
    entries.append({
        'item': 'boot unit %s' % thp['unit'],
        'status': _status(thp['enabled'], changed.get('thp')),
        'detail': ('os_tuning_thp_enabled is false' if not thp['enabled']
                   else 'enabled=%s, defrag=%s at every boot%s' % (
                       thp['mode'], thp['defrag'],
                       '' if state.get('sys_writable') else ' (the unit skips itself while /sys is read-only)')),
    })

    governor = settings['governor']
    cpufreq = bool((state.get('cpufreq') or {}).get('present'))
    entries.append({
        'item': 'boot unit %s' % governor['unit'],
        'status': _status(governor['enabled'] and cpufreq, changed.get('governor')),
        'detail': ('os_tuning_governor_enabled is false' if not governor['enabled']
                   else 'no cpufreq on this host (container, VM, or frequency set by the firmware); no unit installed'
                   if not cpufreq else '%s at every boot' % governor['governor']),
    })

    io = settings['io']
    disks = sorted(state.get('disks') or {})
    if not io['enabled']:
        detail = 'os_tuning_io_enabled is false'
    elif not disks:
        detail = 'no data directory is on a block device and os_tuning_io_disks is empty'
    elif not state.get('udev_rules_dir'):
        detail = 'udev is not installed here (no /etc/udev/rules.d); disks %s' % ', '.join(disks)
    else:
        detail = 'disks %s%s' % (', '.join(disks), '' if state.get('udev_running')
                                 else ' (udev does not run now; the rule applies when it does)')
    entries.append({
        'item': 'udev rule %s' % io['file'],
        'status': _status(io['enabled'] and disks and state.get('udev_rules_dir'), changed.get('io')),
        'detail': detail,
    })
    return entries
