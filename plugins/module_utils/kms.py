# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""HDFS transparent encryption: the Hadoop KMS's settings checked, and the encryption zones planned.

settings_problems() lists the mistakes in the KMS and zone variables before any host changes, each message starting
with the variable and saying what is allowed. zone_plan() compares hdfs_encryption_zones with what the cluster has
(`hadoop key list`, `hdfs crypto -listZones`, `hdfs dfs -count` of each path) and returns the keys and zones to
create, or why a zone cannot be made: a path that is a zone under another key, or a directory that holds files. A zone
is never removed or re-keyed, and no file is moved.
Plain functions over plain values: no Ansible import, no I/O.
"""

from __future__ import annotations

import posixpath
import re

# KMS key names: letters, digits, '.', '_' and '-' (they appear in URLs and in `hadoop key` arguments).
KEY_RE = re.compile(r'^[A-Za-z0-9][A-Za-z0-9._-]*$')
MIN_PASSWORD = 6
# `hdfs dfs -count PATH...`: DIR_COUNT FILE_COUNT CONTENT_SIZE PATHNAME per existing path (the zone task prefixes each
# line with "count").
_COUNT_RE = re.compile(r'^count\s+(\d+)\s+(\d+)\s+(\d+)\s+(\S.*?)\s*$')
_ZONE_RE = re.compile(r'^(/\S*)\s+(\S+)\s*$')


class KmsError(ValueError):
    """Bad KMS or zone settings; the message starts with the variable's name and says what is allowed."""


def _on(value):
    return str(value).strip().lower() in ('true', 'yes', 'on', '1')


def _norm(path):
    return posixpath.normpath(path) if path != '/' else path


def zone_problems(zones):
    """The mistakes in hdfs_encryption_zones itself (a list of {path, key, owner, group, mode})."""
    if zones in (None, ''):
        return []
    if not isinstance(zones, (list, tuple)):
        return ['hdfs_encryption_zones: a list of {path, key, owner, group, mode} is required; got %r' % (zones,)]
    out, seen = [], {}
    for index, zone in enumerate(zones):
        where = 'hdfs_encryption_zones[%d]' % index
        if not isinstance(zone, dict):
            out.append('%s: a mapping {path, key, owner, group, mode} is required; got %r' % (where, zone))
            continue
        path, key = zone.get('path'), zone.get('key')
        if not isinstance(path, str) or not path.startswith('/') or _norm(path) == '/':
            out.append("%s.path: an absolute HDFS path other than / is required; got %r" % (where, path))
        elif _norm(path) in seen:
            out.append('%s.path: %s is also hdfs_encryption_zones[%d]. Allowed: one entry per zone'
                       % (where, _norm(path), seen[_norm(path)]))
        else:
            seen[_norm(path)] = index
        if not isinstance(key, str) or not KEY_RE.match(key):
            out.append("%s.key: a KMS key name is required (letters, digits, '.', '_' and '-', starting with a letter "
                       "or digit); got %r" % (where, key))
        unknown = sorted(set(zone) - {'path', 'key', 'owner', 'group', 'mode'})
        if unknown:
            out.append('%s: unknown keys %s. Allowed: path, key, owner, group, mode' % (where, ', '.join(unknown)))
    return out


def settings_problems(value, groups):
    """Every mistake in the KMS and zone settings. value(name, fallback): a variable as the host sees it;
    groups: group name -> number of hosts."""
    out = zone_problems(value('hdfs_encryption_zones', []))
    enabled = _on(value('hadoop_kms_enabled', False))
    if value('hdfs_encryption_zones', []) and not enabled:
        out.append('hdfs_encryption_zones: zones need the key provider, and hadoop_kms_enabled is false. Allowed: '
                   'hadoop_kms_enabled true with one host in the inventory group kms, or no zones')
    if not enabled:
        return out
    hosts = int((groups or {}).get('kms', 0) or 0)
    if hosts != 1:
        out.append("hadoop_kms_enabled: true needs one host in the inventory group 'kms' (the key provider: the KMS "
                   "keeps the keys in its keystore there); the group has %d. Allowed: exactly one host in kms, or "
                   "hadoop_kms_enabled false" % hosts)
    password = value('hadoop_kms_keystore_password', '')
    if not isinstance(password, str) or len(password) < MIN_PASSWORD:
        out.append('hadoop_kms_keystore_password: a password of %d characters or more is required when '
                   'hadoop_kms_enabled is true (keep it in a vault; the KMS keystore is made with it)' % MIN_PASSWORD)
    users = value('hadoop_users', {})
    if isinstance(users, dict) and not users.get('kms'):
        out.append('hadoop_users: the key kms is missing; hadoop_kms_enabled needs the user the KMS runs as. Allowed: '
                   'hadoop_users with kms: <user name> (default kms)')
    elif isinstance(users, dict) and users.get('kms') in [v for k, v in users.items() if k != 'kms']:
        out.append("hadoop_users.kms: %r runs another service too; the KMS's keystore would be that service's to read. "
                   "Allowed: a user of its own (default kms)" % (users.get('kms'),))
    admins = value('hadoop_kms_admins', [])
    if not isinstance(admins, (list, tuple)) or not admins or not all(isinstance(a, str) and a.strip() for a in admins):
        out.append('hadoop_kms_admins: a list of one or more user names is required (they create and roll the keys); '
                   'got %r' % (admins,))
    return out


# What the KMS's JVM takes beyond its heap (metaspace, threads, Jetty's buffers), in MB, for the planner.
JVM_OVERHEAD_MB = 128


def services(hosts):
    """The planner's other_services for the KMS: its memory (heap and JVM) taken out of YARN on the host it shares
    with a NodeManager. hosts: [{name, enabled, heap_mb}] of the group kms."""
    out = []
    for host in hosts or []:
        if not _on(host.get('enabled')):
            continue
        heap = host.get('heap_mb')
        if isinstance(heap, bool) or not isinstance(heap, int) or heap < 64:
            raise KmsError('hadoop_kms_heap_mb: a heap of 64 MiB or more is required on %s; got %r' % (host.get('name'), heap))
        out.append({'name': 'Hadoop KMS', 'memory_mb': heap + JVM_OVERHEAD_MB, 'vcores': 0, 'hosts': [host['name']]})
    return out


def key_names(text):
    """The key names in `hadoop key list`'s output (the lines after its "Listing keys for KeyProvider" line)."""
    lines = (text or '').splitlines()
    start = next((i + 1 for i, line in enumerate(lines) if line.startswith('Listing keys for KeyProvider')), None)
    if start is None:
        return []
    return sorted(line.strip() for line in lines[start:] if line.strip() and ' ' not in line.strip())


def zone_state(text):
    """From `hdfs crypto -listZones` then one "count ..." line per wanted path: ({zone path: key}, {path: (dirs,
    files)}) for the paths that exist."""
    zones, counts = {}, {}
    for line in (text or '').splitlines():
        m = _COUNT_RE.match(line)
        if m:
            counts[_norm(m.group(4))] = (int(m.group(1)), int(m.group(2)))
            continue
        m = _ZONE_RE.match(line)
        if m and not line.startswith('count'):
            zones[_norm(m.group(1))] = m.group(2)
    return zones, counts


def zone_plan(zones, keys_text, state_text):
    """{'create_keys': [names], 'create_zones': [{path, key}], 'problems': [messages]} for hdfs_encryption_zones
    against the KMS's keys and the cluster's zones and paths. With a problem nothing is to be created."""
    problems = zone_problems(zones)
    if problems:
        raise KmsError('; '.join(problems))
    keys = set(key_names(keys_text))
    current, counts = zone_state(state_text)
    create_keys, create_zones = [], []
    for zone in zones or []:
        path, key = _norm(zone['path']), zone['key']
        if path in current:
            if current[path] != key:
                problems.append("hdfs_encryption_zones: %s is an encryption zone under the key '%s', not '%s'; a "
                                "zone's key never changes (nothing was changed). Allowed: key '%s' for %s (`hadoop "
                                "key roll %s` gives its new files a new key version)"
                                % (path, current[path], key, current[path], path, current[path]))
            continue
        dirs, files = counts.get(path, (1, 0))
        if dirs > 1 or files > 0:
            problems.append('hdfs_encryption_zones: %s holds %d directories and %d files; only an empty directory '
                            'becomes an encryption zone, and no file is moved for you (nothing was changed). '
                            'Allowed: an empty or new path (copy the files in once it is a zone)'
                            % (path, dirs - 1, files))
            continue
        if key not in keys and key not in create_keys:
            create_keys.append(key)
        create_zones.append({'path': path, 'key': key})
    if problems:
        return {'create_keys': [], 'create_zones': [], 'problems': problems}
    return {'create_keys': create_keys, 'create_zones': create_zones, 'problems': []}
