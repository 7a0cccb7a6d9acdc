# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Kerberos principals and keytabs from the inventory, the role's settings checked, `klist -kt` read.

principal() turns a pattern such as ``nn/_HOST`` into ``nn/worker1.example.com@REALM`` (``_HOST`` is the host's
name, lowercased, as Hadoop's SecurityUtil does). keytabs() groups a host's principals by keytab file, with the
owner, group and (for supplied keytabs) the controller file of each. problems() lists the mistakes in the role's
settings, each message starting with the variable and saying what is allowed. klist_principals() reads the
principals held by a keytab from ``klist -kt``'s output, so a keytab that already holds them is left alone (an
extraction re-keys the principal with kadmin and would invalidate every copy).
Plain functions over plain values: no Ansible import, no I/O (the check for supplied files takes a callable).
"""

from __future__ import annotations

import posixpath
import re

SOURCES = ('kadmin', 'supplied')
HOST_TOKEN = '_HOST'
_REALM_RE = re.compile(r'^[A-Z0-9][A-Z0-9._-]*$')
_NAME_RE = re.compile(r'^[A-Za-z0-9._-]+$')
_USER_RE = re.compile(r'^[a-z_][a-z0-9_-]*\$?$')
# klist -kt: "KVNO Timestamp Principal", a dashes line, then "   2 12/03/2026 20:10:11 nn/host@REALM" (the date
# format follows the locale; the principal is always the last field).
_KLIST_ENTRY_RE = re.compile(r'^\s*\d+\s+.*\s(\S+@\S+)\s*$')


class KerberosError(ValueError):
    """Bad Kerberos settings; the message starts with the variable's name and says what is allowed."""


def realm_problem(realm):
    """The message for a realm that is empty, lowercase or holds other characters; None when it is good."""
    if not isinstance(realm, str) or not realm.strip():
        return 'kerberos_realm: a realm name is required (uppercase, such as BIGDATA.LAB); got %r' % (realm,)
    if realm != realm.upper():
        return ('kerberos_realm: the realm must be uppercase (Kerberos realms are case-sensitive and Hadoop, AD and '
                'MIT tools expect the uppercase name); got %r, use %r' % (realm, realm.upper()))
    if not _REALM_RE.match(realm):
        return 'kerberos_realm: only A-Z, 0-9, ".", "_" and "-" are allowed, starting with a letter or digit; got %r' % (realm,)
    return None


RPC_PROTECTIONS = ('authentication', 'integrity', 'privacy')


def secure_mode_problems(value, groups):
    """Every mistake in Hadoop's secure-mode settings (hadoop_kerberos_enabled). value(name, fallback): a variable as
    the host sees it; groups: group name -> number of hosts."""
    def on(name):
        return str(value(name, False)).strip().lower() in ('true', 'yes', 'on', '1')

    if not on('hadoop_kerberos_enabled'):
        return []
    out = []
    problem = realm_problem(value('hadoop_kerberos_realm', ''))
    if problem:
        out.append(problem.replace('kerberos_realm', 'hadoop_kerberos_realm', 1))
    if not on('hadoop_tls_enabled'):
        out.append('hadoop_kerberos_enabled: true needs hadoop_tls_enabled: true (DataNodes on unprivileged ports protect '
                   'their block transfers with SASL, which Hadoop allows only with HTTPS-only web servers). Allowed: '
                   'hadoop_tls_enabled true, or hadoop_kerberos_enabled false')
    protection = value('hadoop_rpc_protection', 'authentication')
    if protection not in RPC_PROTECTIONS:
        out.append('hadoop_rpc_protection: one of %s is required; got %r' % (', '.join(RPC_PROTECTIONS), protection))
    renew = value('hadoop_delegation_token_renew_interval', 86400)
    if isinstance(renew, bool) or not str(renew).strip().isdigit() or not 60 <= int(str(renew).strip()) <= 7 * 86400:
        out.append('hadoop_delegation_token_renew_interval: whole seconds from 60 to 604800 (7 days, the tokens\' '
                   'longest life) are allowed; got %r' % (renew,))
    keytab_dir = value('hadoop_keytab_dir', '')
    if not isinstance(keytab_dir, str) or not posixpath.isabs(keytab_dir):
        out.append('hadoop_keytab_dir: an absolute directory such as /etc/security/keytabs is required; got %r'
                   % (keytab_dir,))
    source = value('kerberos_keytab_source', 'kadmin')
    lab_kdc = on('kerberos_kdc_enabled')
    if lab_kdc and int((groups or {}).get('kdc', 0) or 0) != 1:
        out.append("kerberos_kdc_enabled: true needs one host in the inventory group 'kdc' (the lab's KDC); the group "
                   "has %d. Allowed: exactly one host in kdc, or kerberos_kdc_enabled false with an existing KDC"
                   % int((groups or {}).get('kdc', 0) or 0))
    if source == 'kadmin' and not lab_kdc and not value('kerberos_kdc_host', ''):
        out.append('kerberos_kdc_host: the existing KDC is required when hadoop_kerberos_enabled is true without the '
                   "lab's KDC (kerberos_kdc_enabled false); or supply the keytabs (kerberos_keytab_source: supplied)")
    return out


def principal_problem(pattern):
    """The message for a principal pattern that is not service[/instance][@REALM]; None when it is good."""
    if not isinstance(pattern, str) or not pattern.strip():
        return 'kerberos_principals: each principal needs a pattern service/instance such as nn/_HOST; got %r' % (pattern,)
    name, _sep, realm = pattern.partition('@')
    service, slash, instance = name.partition('/')
    if not service or service == HOST_TOKEN or not _NAME_RE.match(service):
        return ('kerberos_principals: %r has no service part; a principal is service/instance (nn/_HOST, HTTP/_HOST) '
                'or a service alone (hdfs), with A-Z, a-z, 0-9, ".", "_" and "-" in the service' % (pattern,))
    if slash and (not instance or not _NAME_RE.match(instance)):
        return 'kerberos_principals: %r has an empty or invalid instance after "/"; use _HOST or a host name' % (pattern,)
    if '@' in pattern and realm_problem(realm):
        return 'kerberos_principals: %r names a bad realm after "@" (uppercase, such as BIGDATA.LAB)' % (pattern,)
    return None


def principal(pattern, host, realm):
    """The principal of a pattern on one host: _HOST replaced by the host's lowercased name, @REALM added."""
    problem = principal_problem(pattern) or realm_problem(realm)
    if problem:
        raise KerberosError(problem)
    if not isinstance(host, str) or not host.strip():
        raise KerberosError('kerberos_host_name: the host name that replaces _HOST is required; got %r' % (host,))
    name = pattern.replace(HOST_TOKEN, host.strip().lower())
    return name if '@' in name else '%s@%s' % (name, realm)


def _entry_problems(index, entry):
    where = 'kerberos_principals[%d]' % index
    if not isinstance(entry, dict):
        return ['%s: a mapping {principal, keytab, owner, group} is required; got %r' % (where, entry)]
    out = []
    problem = principal_problem(entry.get('principal'))
    if problem:
        out.append(problem.replace('kerberos_principals', where, 1))
    keytab = entry.get('keytab')
    if not isinstance(keytab, str) or not posixpath.isabs(keytab) or keytab.endswith('/'):
        out.append('%s.keytab: an absolute file path such as /etc/security/keytabs/nn.service.keytab is required; got %r'
                   % (where, keytab))
    for key in ('owner', 'group'):
        value = entry.get(key)
        if key == 'group' and value in (None, ''):
            continue
        if not isinstance(value, str) or not _USER_RE.match(value):
            out.append('%s.%s: a user or group name (the service account that reads the keytab) is required; got %r'
                       % (where, key, value))
    mode = entry.get('mode')
    if mode not in (None, '') and not (isinstance(mode, str) and re.match(r'^0[0-7]{3}$', mode) and int(mode, 8) & 0o037 == 0):
        out.append("%s.mode: a keytab's mode such as '0400' or '0440' (never writable by its group, nothing for others) "
                   "is required; got %r" % (where, mode))
    src = entry.get('src')
    if src not in (None, '') and not isinstance(src, str):
        out.append('%s.src: a file path on the controller is required; got %r' % (where, src))
    return out


def keytabs(principals, host, realm, supplied_dir=''):
    """The host's keytabs: [{path, owner, group, principals, src, mode}] sorted by path, principals sorted (mode: the
    entry's, empty for kerberos_keytab_mode).

    src (supplied keytabs) is the entry's own src, else <supplied_dir>/<host>/<file name of the keytab>."""
    if principals in (None, ''):
        principals = []
    if not isinstance(principals, (list, tuple)):
        raise KerberosError('kerberos_principals: a list of {principal, keytab, owner, group} is required; got %r'
                            % (principals,))
    problems = [p for i, e in enumerate(principals) for p in _entry_problems(i, e)]
    if problems:
        raise KerberosError('; '.join(problems))
    out = {}
    for index, entry in enumerate(principals):
        path = entry['keytab']
        owner, group = entry['owner'], entry.get('group') or entry['owner']
        src = entry.get('src') or (posixpath.join(supplied_dir, host, posixpath.basename(path)) if supplied_dir else '')
        tab = out.setdefault(path, {'path': path, 'owner': owner, 'group': group, 'principals': [], 'src': src,
                                    'mode': entry.get('mode') or ''})
        if (tab['owner'], tab['group']) != (owner, group):
            raise KerberosError('kerberos_principals[%d]: keytab %s is already owned by %s:%s in an earlier entry; one '
                                'keytab has one owner and group (got %s:%s)' % (index, path, tab['owner'], tab['group'], owner, group))
        if entry.get('src') and tab['src'] != entry['src']:
            raise KerberosError('kerberos_principals[%d].src: keytab %s comes from %s in an earlier entry; one keytab has '
                                'one source file (got %s)' % (index, path, tab['src'], entry['src']))
        name = principal(entry['principal'], host, realm)
        if name not in tab['principals']:
            tab['principals'].append(name)
    for tab in out.values():
        tab['principals'].sort()
    return [out[path] for path in sorted(out)]


def problems(settings, host='', file_exists=None):
    """The mistakes in the role's settings for one host, each naming the variable: [] when there are none.

    settings holds the role's variables; file_exists (a callable, the controller's os.path.isfile) checks the
    supplied keytabs."""
    out = []
    realm = settings.get('kerberos_realm')
    problem = realm_problem(realm)
    if problem:
        out.append(problem)
    source = settings.get('kerberos_keytab_source')
    if source not in SOURCES:
        out.append('kerberos_keytab_source: one of %s is required; got %r' % (', '.join(SOURCES), source))
    if not settings.get('kerberos_kdc_host'):
        out.append("kerberos_kdc_host: the KDC's host name is required (default: the first host of the inventory group "
                   "'kdc'); got %r" % (settings.get('kerberos_kdc_host'),))
    if settings.get('kerberos_kdc_enabled') and not settings.get('kerberos_kdc_master_password'):
        out.append('kerberos_kdc_master_password: required when kerberos_kdc_enabled is true (the KDC database\'s master '
                   'key; keep it in a vault)')
    principals = settings.get('kerberos_principals')
    if principals in (None, ''):
        principals = []
    if not isinstance(principals, (list, tuple)):
        return out + ['kerberos_principals: a list of {principal, keytab, owner, group} is required; got %r' % (principals,)]
    entry_problems = [p for i, e in enumerate(principals) for p in _entry_problems(i, e)]
    out.extend(entry_problems)
    if entry_problems or problem or not principals:
        return out
    kdc_enabled = bool(settings.get('kerberos_kdc_enabled'))
    if source == 'kadmin' and not kdc_enabled:
        secret = settings.get('kerberos_admin_password') or settings.get('kerberos_admin_keytab')
        if not settings.get('kerberos_admin_principal') or not secret:
            out.append('kerberos_admin_principal, kerberos_admin_password or kerberos_admin_keytab: kerberos_keytab_source '
                       'kadmin against an existing KDC (kerberos_kdc_enabled false) needs an admin principal with its '
                       'password or keytab; or use kerberos_keytab_source supplied with keytabs made by the KDC\'s admins')
    try:
        tabs = keytabs(principals, host or 'host', realm, settings.get('kerberos_supplied_keytab_dir') or '')
    except KerberosError as exc:
        return out + [str(exc)]
    if source == 'supplied':
        for tab in tabs:
            if not tab['src']:
                out.append('kerberos_supplied_keytab_dir: keytab %s of %s has no controller file: set '
                           'kerberos_supplied_keytab_dir (files <dir>/<host>/<keytab file name>) or the entry\'s src'
                           % (tab['path'], host))
            elif file_exists is not None and not file_exists(tab['src']):
                out.append('kerberos_supplied_keytab_dir: the supplied keytab %s for %s on %s is missing on the controller'
                           % (tab['src'], tab['path'], host))
    return out


def klist_principals(text):
    """The distinct principals in `klist -kt` output, in order of appearance."""
    out = []
    for line in (text or '').splitlines():
        match = _KLIST_ENTRY_RE.match(line)
        if match and match.group(1) not in out:
            out.append(match.group(1))
    return out


def keytab_missing(text, wanted):
    """The wanted principals that `klist -kt` output does not list (all of them when the output is empty)."""
    held = set(klist_principals(text))
    return [name for name in wanted if name not in held]


def keytabs_todo(results):
    """The keytabs that lack principals, each with `missing`, from [{item: keytab, stdout: its klist -kt output}]."""
    out = []
    for result in results or []:
        tab = result.get('item') or {}
        missing = keytab_missing(result.get('stdout') or '', tab.get('principals') or [])
        if missing:
            out.append(dict(tab, missing=missing))
    return out
