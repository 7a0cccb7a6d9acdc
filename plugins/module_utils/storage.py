# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""HDFS storage tiers: the storage type of every DataNode directory, the RAM-disk tier's memory, the storage
policies of HDFS paths, and whether the blocks under a path satisfy its policy (docs/storage.md).

Plain functions over plain values: no Ansible imports, no file or network access. Every invalid input raises
StorageError with a message naming the variable and what is allowed.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import posixpath
import re

from ansible_collections.bigdata.spark.plugins.module_utils.plan_inputs import PlanError, parse_size_mb

# HDFS's storage types, fastest first. RAM_DISK comes only from the RAM-disk tier (hdfs_ram_disk_size) and
# ARCHIVE from the shared file system tier or a tag; a data directory is tagged SSD, DISK or ARCHIVE.
STORAGE_TYPES = ('RAM_DISK', 'SSD', 'DISK', 'ARCHIVE')
TAGS = ('SSD', 'DISK', 'ARCHIVE')
# Hadoop's built-in storage policies: the storage type of the first replica and of the others
# (BlockStoragePolicySuite). LAZY_PERSIST's first replica is written to RAM_DISK and later persisted to DISK.
POLICIES = {
    'HOT': ('DISK', 'DISK'),
    'WARM': ('DISK', 'ARCHIVE'),
    'COLD': ('ARCHIVE', 'ARCHIVE'),
    'ONE_SSD': ('SSD', 'DISK'),
    'ALL_SSD': ('SSD', 'SSD'),
    'LAZY_PERSIST': ('RAM_DISK', 'DISK'),
}
# The disk kinds of bigdata.spark.hardware_facts and the storage type a directory on them gets when a node has
# both kinds (solid-state beside spinning disks).
SOLID_KINDS = ('nvme', 'ssd')
# The RAM disk may take at most this share of a node's memory: the OS, the daemons and YARN need the rest.
RAM_DISK_MAX_SHARE = 0.5


class StorageError(Exception):
    """A storage setting is invalid; the message names the variable and what is allowed."""


def _norm_dir(path, field):
    if not isinstance(path, str) or not path.startswith('/') or path.strip('/') == '':
        raise StorageError('%s: expected an absolute directory other than /, got %r' % (field, path))
    return posixpath.normpath(path)


def _inside(inner, outer):
    return inner == outer or inner.startswith(outer.rstrip('/') + '/')


def ram_disk_mb(size, memory_bytes=None, field='hdfs_ram_disk_size'):
    """The RAM disk's size in MiB (0: no RAM-disk tier): a size ("512m", "8g", MiB as a number) or a share of the
    node's memory ("25%", planned from memory_bytes; without it, such as before the facts, 1 stands for "some")."""
    if size in (None, '', 0, '0'):
        return 0
    text = str(size).strip()
    if text.endswith('%'):
        try:
            share = float(text[:-1])
        except ValueError:
            share = -1.0
        if not 0 < share <= RAM_DISK_MAX_SHARE * 100:
            raise StorageError('%s: %r; allowed: a share of the node\'s memory above 0%% and at most %d%%, or a size '
                               'such as "512m" or "8g"' % (field, size, int(RAM_DISK_MAX_SHARE * 100)))
        return int(memory_bytes * share / 100) // (1 << 20) if memory_bytes else 1
    try:
        mb = parse_size_mb(size, field)
    except PlanError as exc:
        raise StorageError(str(exc) + ', or a share of the node\'s memory such as "25%"')
    if mb < 0:
        raise StorageError('%s: expected 0 (no RAM disk) or a size such as "512m" or "8g", got %r' % (field, size))
    return mb


def ram_disk_problems(host, size_mb, memory_bytes):
    """Why a RAM disk of size_mb does not fit the node (memory_bytes: its memory, or its cgroup's limit)."""
    if not size_mb or not memory_bytes:
        return []
    most = int(memory_bytes * RAM_DISK_MAX_SHARE) // (1 << 20)
    if size_mb > most:
        return ['hdfs_ram_disk_size: %d MB on %s is more than the memory it can spare: at most %d%% of its %d MB '
                '(%d MB); the OS, the daemons and YARN need the rest' % (
                    size_mb, host, int(RAM_DISK_MAX_SHARE * 100), memory_bytes // (1 << 20), most)]
    return []


def _disk_kind(path, disks):
    """(kind, mount) of the disk whose mount holds path (the longest mount that is a prefix), or (None, None)."""
    best = (None, None)
    for disk in disks or []:
        for mount in disk.get('mounts') or []:
            if _inside(path, mount) and (best[1] is None or len(mount) > len(best[1])):
                best = (disk.get('type'), mount)
    return best


def storage_dirs(host, data_dirs, types=None, disks=None, ram_disk_dir='', ram_size_mb=0, archive_dir=''):
    """Every DataNode directory of a host with its storage type and why.

    data_dirs: hadoop_data_dirs; types: hdfs_storage_types ({data dir: SSD|DISK|ARCHIVE}); disks:
    bigdata_hardware.disks; ram_disk_dir and ram_size_mb: the RAM-disk tier (0: none); archive_dir: the mount of the
    shared file system tier ('' for none). Returns [{'root', 'path', 'type', 'why'}], the DataNode directory
    being <root>/hdfs/dn (on the shared tier <mount>/hdfs/<host>/dn: every node shares the file system).
    """
    if not isinstance(data_dirs, list) or not data_dirs:
        raise StorageError('hadoop_data_dirs: expected a list of absolute directories, got %r' % (data_dirs,))
    roots = [_norm_dir(d, 'hadoop_data_dirs') for d in data_dirs]
    types = types or {}
    if not isinstance(types, dict):
        raise StorageError('hdfs_storage_types: expected a mapping of data directory to %s, got %r'
                           % ('|'.join(TAGS), types))
    tagged = {}
    for key, value in types.items():
        root = _norm_dir(key, 'hdfs_storage_types')
        if root not in roots:
            raise StorageError('hdfs_storage_types: %r is not one of hadoop_data_dirs (%s)' % (key, ', '.join(roots)))
        if value not in TAGS:
            raise StorageError('hdfs_storage_types[%s]: unknown storage type %r; allowed: %s (RAM_DISK comes from '
                               'hdfs_ram_disk_size)' % (key, value, ', '.join(TAGS)))
        tagged[root] = value
    kinds = dict((root, _disk_kind(root, disks)) for root in roots)
    mixed = (any(k[0] in SOLID_KINDS for k in kinds.values()) and any(k[0] == 'hdd' for k in kinds.values()))
    out = []
    for root in roots:
        kind, mount = kinds[root]
        if root in tagged:
            kind_type, why = tagged[root], 'hdfs_storage_types tags it %s' % tagged[root]
        elif mixed and kind in SOLID_KINDS:
            kind_type = 'SSD'
            why = ('on a solid-state disk (%s, mounted at %s) beside spinning disks on this host: SSD, for the '
                   'ALL_SSD and ONE_SSD policies' % (kind, mount))
        elif kind:
            kind_type = 'DISK'
            why = ('on a %s disk (mounted at %s)%s: DISK, where the default policy (HOT) writes' % (
                kind, mount, '' if mixed else ', and every data disk of this host is of one kind'))
        else:
            kind_type = 'DISK'
            why = 'no disk facts for its mount: DISK, where the default policy (HOT) writes'
        out.append({'root': root, 'path': root + '/hdfs/dn', 'type': kind_type, 'why': why})
    extra = []
    if ram_size_mb:
        extra.append(('hdfs_ram_disk_dir', _norm_dir(ram_disk_dir, 'hdfs_ram_disk_dir'), 'RAM_DISK',
                      'a tmpfs of %d MB (hdfs_ram_disk_size): the first replica of LAZY_PERSIST files' % ram_size_mb))
    if archive_dir:
        extra.append(('hdfs_archive_mount.path', _norm_dir(archive_dir, 'hdfs_archive_mount.path'), 'ARCHIVE',
                      'the shared file system (hdfs_archive_mount): COLD and WARM files'))
    names = [('hadoop_data_dirs', root) for root in roots]
    for field, path, kind_type, why in extra:
        for other_field, other in names:
            if _inside(path, other) or _inside(other, path):
                raise StorageError('%s: %s and %s %s are one directory tree: two storage tiers cannot share a '
                                   'directory; give each its own' % (field, path, other_field, other))
        names.append((field, path))
        sub = '/hdfs/%s/dn' % host if kind_type == 'ARCHIVE' else '/hdfs/dn'
        out.append({'root': path, 'path': path + sub, 'type': kind_type, 'why': why})
    return out


def data_dir_value(dirs):
    """dfs.datanode.data.dir: the directories as file:// URIs, each with its [TYPE] when any is not DISK (an
    untiered cluster keeps the untagged value it always had)."""
    tiered = any(d['type'] != 'DISK' for d in dirs)
    return ','.join(('[%s]' % d['type'] if tiered else '') + 'file://' + d['path'] for d in dirs)


def ram_disk_services(hosts):
    """The planner's other_services for the RAM-disk tier: hosts is [{name, size, memory_bytes}]. One entry per
    size, its memory taken out of YARN on those hosts. Raises StorageError for a bad size or one too big."""
    by_size = {}
    problems = []
    for host in hosts:
        mb = ram_disk_mb(host.get('size'), host.get('memory_bytes'))
        problems.extend(ram_disk_problems(host['name'], mb, host.get('memory_bytes')))
        if mb:
            by_size.setdefault(mb, []).append(host['name'])
    if problems:
        raise StorageError('; '.join(problems))
    return [{'name': 'the HDFS RAM disk (hdfs_ram_disk_size %dm)' % mb, 'memory_mb': mb, 'vcores': 0, 'hosts': names}
            for mb, names in sorted(by_size.items())]


def policy_paths(policies):
    """hdfs_storage_policies checked: [(path, policy)] sorted by path. A path must be an absolute HDFS path."""
    if policies in (None, ''):
        return []
    if not isinstance(policies, dict):
        raise StorageError('hdfs_storage_policies: expected a mapping of HDFS path to policy (%s), got %r'
                           % ('|'.join(sorted(POLICIES)), policies))
    out = []
    for path, policy in policies.items():
        if not isinstance(path, str) or re.match(r'^[A-Za-z][A-Za-z0-9+.-]*:', path) and not path.startswith('hdfs:'):
            raise StorageError('hdfs_storage_policies: %r is outside HDFS; allowed: absolute HDFS paths such as '
                               '/bench' % (path,))
        if path.startswith('hdfs:'):
            raise StorageError('hdfs_storage_policies: %r: give the path without the scheme and authority '
                               '(such as /bench); the policy is set on the cluster\'s default file system' % path)
        if not path.startswith('/'):
            raise StorageError('hdfs_storage_policies: %r is not an absolute HDFS path (such as /bench)' % path)
        if policy not in POLICIES:
            raise StorageError('hdfs_storage_policies[%s]: unknown policy %r; allowed: %s'
                               % (path, policy, ', '.join(sorted(POLICIES))))
        out.append((posixpath.normpath(path), policy))
    return sorted(out)


def policy_tiers_problems(policies, types_by_host):
    """The policies whose storage types no DataNode has (types_by_host: {host: [types]}): their files would be
    written elsewhere (the fallbacks) or not at all."""
    have = set(t for types in types_by_host.values() for t in types)
    problems = []
    for path, policy in policy_paths(policies):
        missing = sorted(set(POLICIES[policy]) - have, key=STORAGE_TYPES.index)
        if missing:
            problems.append('hdfs_storage_policies[%s]: %s needs %s storage, and no DataNode has any (storage types '
                            'of the cluster: %s)' % (path, policy, ' and '.join(missing),
                                                     ', '.join(sorted(have, key=STORAGE_TYPES.index)) or 'none'))
    return problems


def policy_names(answers, policies):
    """Path -> the name of the policy set on it, None when none is set or the path is missing. answers: path ->
    WebHDFS's GETFILESTATUS answer ({'FileStatus': {'storagePolicy': a policy id, 0 when unspecified, ...}}; a missing
    path's has a RemoteException instead) or None; policies: GETALLSTORAGEPOLICY's BlockStoragePolicy list
    ({id, name, ...})."""
    names = dict((p['id'], p['name']) for p in policies or [])
    return dict((path, names.get(((answer or {}).get('FileStatus') or {}).get('storagePolicy') or 0))
                for path, answer in (answers or {}).items())


_FILE_RE = re.compile(r'^(/\S*) (\d+) bytes, replicated: replication=(\d+)')
_BLOCK_RE = re.compile(r'^\d+\. (\S+) len=(\d+)')
_STORAGE_RE = re.compile(r'DatanodeInfoWithStorage\[([^,\]]+),(DS-[^,\]]+),(\w+)\]')


def parse_fsck(text):
    """Files and their blocks from `hdfs fsck PATH -files -blocks -locations`:
    [{'path', 'replication', 'blocks': [{'block', 'storages': [(address, storage id, type)]}]}]."""
    files = []
    for line in (text or '').splitlines():
        line = line.strip()
        match = _FILE_RE.match(line)
        if match:
            files.append({'path': match.group(1), 'replication': int(match.group(3)), 'blocks': []})
            continue
        match = _BLOCK_RE.match(line)
        if match and files:
            files[-1]['blocks'].append({'block': match.group(1), 'storages': _STORAGE_RE.findall(line)})
    return files


def expected_types(policy, replication):
    """The storage types a block of `replication` replicas has under policy, sorted."""
    first, others = POLICIES[policy]
    return sorted([first] + [others] * (max(int(replication), 1) - 1))


def block_satisfies(policy, replication, types):
    if policy == 'LAZY_PERSIST':
        # Its first replica moves from RAM_DISK to DISK once persisted (or is written to DISK when the RAM disk is
        # full or the DataNode cannot lock memory): both satisfy it.
        return len(types) == replication and all(t in ('RAM_DISK', 'DISK') for t in types)
    return sorted(types) == expected_types(policy, replication)


def policy_report(policies, actual, fsck_by_path):
    """One row per path: its wanted and actual policy, files, blocks, blocks whose replicas sit on the storage
    types the policy asks for, the storage types seen, and whether the path satisfies its policy."""
    rows = []
    for path, policy in policy_paths(policies):
        files = parse_fsck(fsck_by_path.get(path, ''))
        blocks = ok = 0
        seen = {}
        for entry in files:
            for block in entry['blocks']:
                types = [s[2] for s in block['storages']]
                blocks += 1
                ok += 1 if block_satisfies(policy, entry['replication'], types) else 0
                for kind in types:
                    seen[kind] = seen.get(kind, 0) + 1
        rows.append({'path': path, 'policy': policy, 'actual': actual.get(path), 'files': len(files),
                     'blocks': blocks, 'blocks_ok': ok, 'replicas': seen,
                     'satisfied': actual.get(path) == policy and ok == blocks})
    return rows


def report_lines(rows):
    """The report as lines: path, policy, files, blocks on their policy's storage, replicas per type, verdict."""
    lines = ['%-24s %-12s %6s %12s  %-28s %s' % ('path', 'policy', 'files', 'blocks ok', 'replicas', 'satisfied')]
    for row in rows:
        replicas = ' '.join('%s:%d' % (k, row['replicas'][k])
                            for k in sorted(row['replicas'], key=lambda t: STORAGE_TYPES.index(t)
                                            if t in STORAGE_TYPES else 9)) or '-'
        verdict = 'yes' if row['satisfied'] else ('no (policy is %s)' % (row['actual'] or 'unspecified')
                                                  if row['actual'] != row['policy'] else 'no')
        values = (row['path'], row['policy'], row['files'], row['blocks_ok'], row['blocks'], replicas, verdict)
        lines.append('%-24s %-12s %6d %5d of %-4d  %-28s %s' % values)
    return lines
