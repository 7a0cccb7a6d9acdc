# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""The ZooKeeper ensemble from the inventory, checked, and zoo.cfg rendered from it.

ensemble() turns the hosts of the inventory group `zookeeper` (with their optional `zookeeper_id` and
`zookeeper_address` host variables) and the port variables into the servers of zoo.cfg, or refuses with a message
that names the variable: an even number of servers (a quorum of 2 of 2 or 3 of 4 survives no more failures than
one server fewer; one server is allowed for a lab), ids that repeat or are not 1-255, ports that are not 1-65535 or
that two of the server's listeners share. zoo_cfg() writes the file: the settings sorted by name, then one
server.N line per server in id order, so the same inputs give the same bytes.
Plain functions over plain values: no Ansible import, no I/O.
"""

from __future__ import annotations

import re

# The ports a server listens on, by the variable that sets each; `zookeeper_admin_server_port` only when the
# AdminServer is on.
PORT_VARS = ('zookeeper_client_port', 'zookeeper_quorum_port', 'zookeeper_election_port')
ADMIN_PORT_VAR = 'zookeeper_admin_server_port'
MAX_ID = 255
_KEY_RE = re.compile(r'^[A-Za-z0-9][A-Za-z0-9_.-]*$')


class ZooKeeperError(ValueError):
    """Bad ZooKeeper settings; the message starts with the variable's name and says what is allowed."""


def _whole(value, var, low, high):
    number = None
    if not isinstance(value, bool) and isinstance(value, (int, str)) and str(value).strip().isdigit():
        number = int(value)
    if number is None or not low <= number <= high:
        raise ZooKeeperError('%s: a whole number %d-%d is required; got %r' % (var, low, high, value))
    return number


def ports(settings):
    """The server's listening ports by variable, checked: each 1-65535, no two alike."""
    wanted = list(PORT_VARS)
    if settings.get('zookeeper_admin_server_enabled'):
        wanted.append(ADMIN_PORT_VAR)
    out = {}
    for var in wanted:
        out[var] = _whole(settings.get(var), var, 1, 65535)
    seen = {}
    for var, port in out.items():
        if port in seen:
            raise ZooKeeperError('%s: port %d is %s\'s too; each listener of a server needs its own port'
                                 % (var, port, seen[port]))
        seen[port] = var
    return out


def ensemble(hosts, host_ids=None, host_addresses=None, settings=None):
    """The servers of the ensemble, in id order: [{'id', 'host', 'address'}].

    hosts: the inventory group `zookeeper`, in inventory order; host_ids: host -> its `zookeeper_id` (None or absent:
    its place in the group, from 1); host_addresses: host -> its `zookeeper_address` (None or absent: the host's
    inventory name); settings: the port variables (ports() checks them).
    """
    if isinstance(hosts, str) or not isinstance(hosts, (list, tuple)):
        raise ZooKeeperError('groups[\'zookeeper\']: a list of hosts is required; got %r' % (hosts,))
    hosts = list(hosts)
    if not hosts:
        raise ZooKeeperError('groups[\'zookeeper\']: at least one host is required (3 or 5 for an ensemble)')
    if len(set(hosts)) != len(hosts):
        raise ZooKeeperError('groups[\'zookeeper\']: a host is listed twice: %r' % (hosts,))
    if len(hosts) % 2 == 0:
        raise ZooKeeperError(
            'groups[\'zookeeper\']: an odd number of servers is required (1 for a lab, 3 or 5 recommended); got %d '
            '(%s). %d servers survive no more failures than %d: a quorum needs %d of them'
            % (len(hosts), ', '.join(hosts), len(hosts), len(hosts) - 1, len(hosts) // 2 + 1))
    ports(settings or {})
    host_ids = host_ids or {}
    host_addresses = host_addresses or {}
    servers = []
    by_id = {}
    for index, host in enumerate(hosts, start=1):
        given = host_ids.get(host)
        server_id = index if given is None else _whole(given, 'zookeeper_id (host %s)' % host, 1, MAX_ID)
        if server_id in by_id:
            raise ZooKeeperError('zookeeper_id: %d is the id of %s and of %s; each server needs its own id (1-%d)'
                                 % (server_id, by_id[server_id], host, MAX_ID))
        by_id[server_id] = host
        address = host_addresses.get(host)
        if address is None or address == '':
            address = host
        if not isinstance(address, str) or not re.match(r'^[A-Za-z0-9][A-Za-z0-9_.:-]*$', address):
            raise ZooKeeperError('zookeeper_address (host %s): a host name or IP address is required; got %r'
                                 % (host, address))
        servers.append({'id': server_id, 'host': host, 'address': address})
    return sorted(servers, key=lambda s: s['id'])


def _cfg_value(key, value):
    if isinstance(value, bool):
        return 'true' if value else 'false'
    text = str(value)
    if '\n' in text or '\r' in text:
        raise ZooKeeperError('zookeeper_extra_config: %s: a one-line value is required; got %r' % (key, value))
    return text


def zoo_cfg(settings, servers, quorum_port, election_port, header=''):
    """zoo.cfg's text: `key=value` for each setting (sorted; None leaves it out), then server.N=address:quorum:election
    for each server in id order. Keys that zoo.cfg derives from the ensemble (server.N) are refused in settings."""
    if not hasattr(settings, 'items'):
        raise ZooKeeperError('zookeeper_extra_config: a mapping of zoo.cfg keys to values is required; got %r'
                             % (settings,))
    lines = [header.rstrip('\n')] if header else []
    for key in sorted(settings):
        if not isinstance(key, str) or not _KEY_RE.match(key):
            raise ZooKeeperError('zookeeper_extra_config: %r is not a zoo.cfg key' % (key,))
        if re.match(r'^(server|group|weight)\.[0-9]+$', key):
            raise ZooKeeperError('zookeeper_extra_config: %s comes from the inventory group zookeeper '
                                 '(zookeeper_id, zookeeper_address), not from a setting' % key)
        if settings[key] is None:
            continue
        lines.append('%s=%s' % (key, _cfg_value(key, settings[key])))
    quorum = _whole(quorum_port, 'zookeeper_quorum_port', 1, 65535)
    election = _whole(election_port, 'zookeeper_election_port', 1, 65535)
    for server in sorted(servers, key=lambda s: s['id']):
        lines.append('server.%d=%s:%d:%d' % (server['id'], server['address'], quorum, election))
    return '\n'.join(lines) + '\n'


def four_letter_mode(answer):
    """The server's role from its answer to `srvr` (leader, follower, observer, standalone), or None when it is not
    serving (no quorum: 'This ZooKeeper instance is not currently serving requests')."""
    match = re.search(r'^Mode: (\w+)\s*$', answer or '', re.MULTILINE)
    return match.group(1) if match else None
