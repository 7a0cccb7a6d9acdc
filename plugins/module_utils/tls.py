# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""TLS for the cluster's web UIs: the names a host's certificate must hold, the role's settings checked.

host_names() lists the names and addresses a host is reached by (the inventory name, the FQDN, its IPv4
addresses): a certificate made by the lab CA holds all of them, and a supplied one must hold the names (clients
verify the name they connected to). name_problems() checks a certificate's subjectAltName entries and dates
against them; problems() lists the mistakes in the role's settings, each message starting with the variable and
saying what is allowed.
Plain functions over plain values: no Ansible import, no I/O (the check for supplied files takes a callable).
"""

from __future__ import annotations

import ipaddress
import posixpath

SOURCES = ('lab_ca', 'supplied')
# A PKCS12 keystore's password: 6 characters or more (the JDK's keytool refuses shorter ones).
MIN_PASSWORD = 6
# The files of a supplied host certificate, under tls_supplied_dir/<inventory_hostname>/.
SUPPLIED_CERT = 'host.crt'
SUPPLIED_KEY = 'host.key'


class TlsError(ValueError):
    """Bad TLS settings; the message starts with the variable's name and says what is allowed."""


def _is_ip(value):
    try:
        ipaddress.ip_address(value)
    except ValueError:
        return False
    return True


def host_names(inventory_hostname, fqdn='', addresses=()):
    """{'dns': [...], 'ip': [...]}: the host's names (inventory name, FQDN, lowercased, in that order, once each;
    an inventory name that is an address goes to 'ip') and its IPv4 addresses."""
    dns, ips = [], []
    for name in [inventory_hostname, fqdn]:
        if not isinstance(name, str) or not name.strip():
            continue
        name = name.strip().lower()
        target = ips if _is_ip(name) else dns
        if name not in target:
            target.append(name)
    for addr in addresses or ():
        if isinstance(addr, str) and _is_ip(addr.strip()) and addr.strip() not in ips:
            ips.append(addr.strip())
    if not dns and not ips:
        raise TlsError('tls_host_names: a host needs an inventory name; got %r' % (inventory_hostname,))
    return {'dns': dns, 'ip': ips}


def subject_alt_names(names):
    """The subjectAltName entries (DNS:..., IP:...) of host_names()' result, for a certificate signing request."""
    return ['DNS:%s' % n for n in names.get('dns', [])] + ['IP:%s' % a for a in names.get('ip', [])]


def _dns_matches(pattern, name):
    pattern, name = pattern.lower().rstrip('.'), name.lower().rstrip('.')
    if pattern.startswith('*.'):
        # A wildcard stands for one whole label (RFC 6125): *.example.com matches a.example.com, not a.b.example.com.
        head, _dot, rest = name.partition('.')
        return bool(head) and rest == pattern[2:]
    return pattern == name


def name_problems(host, required, sans, not_after='', now=''):
    """The messages for a supplied certificate of `host` that lacks a required name or is out of date.

    required: host_names()' result (its DNS names must all be in the certificate; its addresses are not
    required, since clients reach the UIs by name). sans: the certificate's subjectAltName entries as
    community.crypto's x509_certificate_info gives them ('DNS:a', 'IP Address:1.2.3.4' or 'IP:...').
    not_after, now: ASN.1 times (YYYYMMDDHHMMSSZ) compared as strings."""
    dns = [s.split(':', 1)[1].strip() for s in sans or () if s.upper().startswith('DNS:')]
    missing = [n for n in required.get('dns', []) if not any(_dns_matches(p, n) for p in dns)]
    out = []
    if missing:
        out.append('tls_supplied_dir: the certificate of %s names %s but not %s (clients check the name they connect '
                   'to; give it a subjectAltName DNS entry for each)' % (host, dns or 'no DNS name', ', '.join(missing)))
    if not_after and now and str(not_after) <= str(now):
        out.append('tls_supplied_dir: the certificate of %s expired (notAfter %s)' % (host, not_after))
    return out


def _password_problem(var, value):
    if not isinstance(value, str) or not value:
        return ('%s: a password is required when hadoop_tls_enabled (keep it in a vault; it never appears in output)'
                % var)
    if len(value) < MIN_PASSWORD:
        return '%s: at least %d characters are required (PKCS12 stores made by keytool)' % (var, MIN_PASSWORD)
    return None


def problems(settings, host='', isfile=None):
    """The mistakes in the tls role's settings for one host; empty when they are good. isfile(path) checks a
    supplied file on the controller (skipped when None)."""
    out = []
    source = settings.get('tls_certificate_source')
    if source not in SOURCES:
        out.append('tls_certificate_source: one of %s is allowed; got %r' % (', '.join(SOURCES), source))
    msg = _password_problem('hadoop_tls_keystore_password', settings.get('hadoop_tls_keystore_password'))
    if msg:
        out.append(msg)
    tls_dir = settings.get('hadoop_tls_dir')
    if not isinstance(tls_dir, str) or not posixpath.isabs(tls_dir) or posixpath.normpath(tls_dir) == '/':
        out.append('hadoop_tls_dir: an absolute directory other than / is required (the keystores go there); got %r' % (tls_dir,))
    for var in ('tls_ca_days', 'tls_cert_days'):
        value = settings.get(var)
        if isinstance(value, bool) or not isinstance(value, int) and not (isinstance(value, str) and value.isdigit()) \
                or int(value) < 1:
            out.append('%s: a number of days (1 or more) is required; got %r' % (var, value))
    work = settings.get('tls_controller_dir')
    if not isinstance(work, str) or not posixpath.isabs(work):
        out.append('tls_controller_dir: an absolute directory on the controller is required (the keystores are made '
                   'there, and the lab CA and its hosts\' keys kept there); got %r' % (work,))
    if source == 'supplied':
        out += _supplied_problems(settings, host, isfile)
    return out


def _supplied_problems(settings, host, isfile):
    out = []
    sdir, ca = settings.get('tls_supplied_dir'), settings.get('tls_supplied_ca_file')
    if not isinstance(sdir, str) or not sdir.strip():
        out.append('tls_supplied_dir: with tls_certificate_source supplied, a controller directory of '
                   '<inventory_hostname>/%s and %s (PEM) is required' % (SUPPLIED_CERT, SUPPLIED_KEY))
    elif isfile is not None:
        for name in (SUPPLIED_CERT, SUPPLIED_KEY):
            path = posixpath.join(sdir, host, name)
            if not isfile(path):
                out.append('tls_supplied_dir: %s of %s is missing on the controller (%s)' % (name, host, path))
    if not isinstance(ca, str) or not ca.strip():
        out.append('tls_supplied_ca_file: with tls_certificate_source supplied, the PEM file of the CA (and any '
                   'intermediates) that signed the hosts\' certificates is required')
    elif isfile is not None and not isfile(ca):
        out.append('tls_supplied_ca_file: %s is missing on the controller' % ca)
    return out
