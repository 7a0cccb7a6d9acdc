# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""High availability from the inventory: which masters fail over, the settings that say so, and what is wrong.

HDFS HA is on when the group `namenode` has more than one host: a nameservice whose NameNodes share their edits
through the JournalNodes (group `journalnodes`, the quorum journal) and fail over through their ZooKeeper failover
controllers (group `zookeeper`). YARN HA is on when the group `resourcemanager` has more than one host: the
ResourceManagers elect their leader in ZooKeeper and keep their state there, so running applications survive a
failover. One function, `ha_plan`, turns the groups and the variables into the core-site, hdfs-site and yarn-site
values (None removes a key the single-master layout sets) and the list of mistakes; the validate role refuses a run
with mistakes before any host changes, the roles write the values.
Plain functions over plain values: no Ansible import, no I/O.
"""

from __future__ import annotations

import re

from ansible_collections.bigdata.spark.plugins.module_utils.daemons import kerberos_on, tls_on

# The variables ha_plan reads, each with the role that defines its default (its name's prefix says which).
VARIABLES = (
    'hdfs_nameservice', 'hdfs_ha_namenodes', 'hdfs_ha_fencing_methods', 'hadoop_namenode_rpc_port',
    'hdfs_namenode_http_port', 'hdfs_journalnode_rpc_port', 'hdfs_journalnode_http_port',
    'hdfs_journalnode_edits_dir', 'hdfs_zkfc_port', 'hadoop_zookeeper_client_port', 'yarn_cluster_id',
    'yarn_resourcemanager_port', 'yarn_resourcemanager_webapp_port',
    # TLS (docs/security.md): the HTTPS addresses as well.
    'hadoop_tls_enabled', 'hdfs_namenode_https_port', 'hdfs_journalnode_https_port',
    'yarn_resourcemanager_webapp_https_port',
    # Secure mode: the masters' znodes open to their own principals alone (SASL).
    'hadoop_kerberos_enabled',
)

# The nameservice is the host part of hdfs:// URIs and a segment of property names: no dots, no underscores.
NAME = re.compile(r'^[a-z][a-z0-9-]{0,31}$')
FENCING = re.compile(r'^(shell\(.+\)|sshfence(\([^()]*\))?)$')
MAX_NAMENODES = 5
PROXY_PROVIDER = 'org.apache.hadoop.hdfs.server.namenode.ha.ConfiguredFailoverProxyProvider'
ZK_STATE_STORE = 'org.apache.hadoop.yarn.server.resourcemanager.recovery.ZKRMStateStore'


class HaError(ValueError):
    """Input of the wrong type (not an inventory mistake: those are returned as `errors`)."""


def _hosts(groups, name):
    hosts = groups.get(name) or []
    if not isinstance(hosts, (list, tuple)):
        raise HaError('groups.%s: a list of host names is required; got %r' % (name, hosts))
    return list(hosts)


def _port(variables, name, errors):
    value = variables.get(name)
    try:
        port = int(value)
    except (TypeError, ValueError):
        port = None
    if isinstance(value, bool) or port is None or not 0 < port < 65536:
        errors.append('%s: %r is not a port. Allowed: 1-65535.' % (name, value))
        return 0
    return port


def _odd_error(group, count):
    return ("inventory group '%s': %d hosts. Allowed: an odd number (3 or 5): a quorum of %d survives no more "
            "failures than one of %d, and a split into halves stops both." % (group, count, count, count - 1))


def _shared_address_error(group, hosts, addresses):
    """Members of a quorum that share a machine: losing it loses them all."""
    distinct = sorted(set(a or h for h, a in zip(hosts, addresses)))
    if len(distinct) < len(hosts):
        return ["inventory group '%s': its %d members share %d address(es) (%s). Allowed: each on its own host, so "
                "that losing one machine loses one member." % (group, len(hosts), len(distinct), ', '.join(distinct))]
    return []


def ha_plan(groups, variables, journal_addresses=None):
    """The HA shape and settings. groups: the inventory's groups (name -> hosts); variables: the VARIABLES (the
    play's, else the roles' defaults); journal_addresses: each JournalNode's address (ansible_host, '' when unset),
    in the group's order.

    Returns hdfs (bool), yarn (bool), namenodes ({host: id}, in the nameservice's order), resourcemanagers
    ({host: id}), core_site, hdfs_site, yarn_site (property -> value; None removes the key), zookeeper_quorum
    (host:port,...) and errors (each names the variable or group and what is allowed)."""
    if not hasattr(groups, 'get'):
        raise HaError('groups: a mapping of group -> hosts is required; got %r' % (groups,))
    if not hasattr(variables, 'get'):
        raise HaError('variables: a mapping is required; got %r' % (variables,))
    errors = []
    namenode_group = _hosts(groups, 'namenode')
    rm_group = _hosts(groups, 'resourcemanager')
    journalnodes = _hosts(groups, 'journalnodes')
    zookeeper = _hosts(groups, 'zookeeper')
    hdfs = len(namenode_group) > 1
    yarn = len(rm_group) > 1
    out = {'hdfs': hdfs, 'yarn': yarn, 'namenodes': {}, 'resourcemanagers': {}, 'core_site': {}, 'hdfs_site': {},
           'yarn_site': {}, 'zookeeper_quorum': '', 'errors': errors}

    if zookeeper and len(zookeeper) % 2 == 0:
        errors.append(_odd_error('zookeeper', len(zookeeper)))
    zk_port = _port(variables, 'hadoop_zookeeper_client_port', errors) if (hdfs or yarn) else 0
    quorum = ','.join('%s:%d' % (h, zk_port) for h in zookeeper)
    secure = kerberos_on(variables)
    if (hdfs or yarn) and not zookeeper:
        errors.append("inventory group 'zookeeper': no host, but %s HA elects its active master in ZooKeeper. "
                      "Allowed: 3 or 5 hosts (an odd number) in it."
                      % ' and '.join(n for n, on in (('HDFS', hdfs), ('YARN', yarn)) if on))

    if hdfs:
        out['zookeeper_quorum'] = quorum
        _hdfs(out, namenode_group, journalnodes, journal_addresses, variables, errors)
        out['core_site']['ha.zookeeper.quorum'] = quorum
        # Secure mode: the failover controllers log in to ZooKeeper as nn/<host> (SASL, which ZooKeeper then knows
        # as nn: kerberos.removeHostFromPrincipal, removeRealmFromPrincipal), and their znodes are theirs alone.
        if secure:
            out['core_site']['ha.zookeeper.acl'] = 'sasl:nn:rwcda'
    if yarn:
        out['zookeeper_quorum'] = quorum
        _yarn(out, rm_group, variables, quorum, errors)
    return out


def _hdfs(out, group, journalnodes, journal_addresses, variables, errors):
    ns = variables.get('hdfs_nameservice')
    if not isinstance(ns, str) or not NAME.match(ns):
        errors.append("hdfs_nameservice: %r. Allowed: lowercase letters, digits and '-', starting with a letter, at "
                      "most 32 characters (it is the host part of hdfs:// paths and a part of HDFS's HA property "
                      "names)." % (ns,))
        ns = 'invalid'
    listed = variables.get('hdfs_ha_namenodes') or []
    if not isinstance(listed, (list, tuple)) or not all(isinstance(h, str) for h in listed):
        errors.append('hdfs_ha_namenodes: %r. Allowed: a list of host names of the group namenode (empty: the '
                      'group\'s order).' % (listed,))
        listed = []
    order = list(listed) or list(group)
    for host in group:
        if host not in order:
            errors.append("hdfs_ha_namenodes: %s (in the group namenode) is not in the nameservice's list %s. "
                          "Allowed: every host of the group namenode, each once." % (host, ', '.join(order)))
    for host in order:
        if host not in group:
            errors.append("hdfs_ha_namenodes: %s is not in the group namenode (%s). Allowed: hosts of that group."
                          % (host, ', '.join(group)))
    if len(set(order)) != len(order):
        errors.append('hdfs_ha_namenodes: a host is listed twice (%s). Allowed: each NameNode once.' % ', '.join(order))
    if len(group) > MAX_NAMENODES:
        errors.append("inventory group 'namenode': %d hosts. Allowed: 2 to %d NameNodes in one nameservice."
                      % (len(group), MAX_NAMENODES))
    addresses = list(journal_addresses or [])
    if addresses and len(addresses) != len(journalnodes):
        raise HaError('journal_addresses: one address per JournalNode is required (%d hosts, %d addresses)'
                      % (len(journalnodes), len(addresses)))
    if not journalnodes:
        errors.append("inventory group 'journalnodes': no host, but the group namenode has %d hosts (HDFS HA: the "
                      "NameNodes share their edits through the quorum journal). Allowed: 3 or 5 JournalNodes "
                      "(an odd number), each on its own host." % len(group))
    else:
        if len(journalnodes) < 3:
            errors.append("inventory group 'journalnodes': %d host(s). Allowed: 3 or 5 (an odd number, each on its "
                          "own host): the journal needs a majority, and fewer than three survive no failure."
                          % len(journalnodes))
        elif len(journalnodes) % 2 == 0:
            errors.append(_odd_error('journalnodes', len(journalnodes)))
        errors.extend(_shared_address_error('journalnodes', journalnodes, addresses or [''] * len(journalnodes)))
    fencing = variables.get('hdfs_ha_fencing_methods')
    if not isinstance(fencing, (list, tuple)) or not fencing:
        errors.append("hdfs_ha_fencing_methods: %r with HDFS HA. Allowed: a list of one or more fencing methods, "
                      "tried in order: shell(COMMAND) (shell(/bin/true) trusts the quorum journal to refuse the "
                      "old NameNode's writes) or sshfence[(user:port)] (needs SSH keys between the NameNodes)."
                      % (fencing,))
        fencing = []
    for method in fencing:
        if not isinstance(method, str) or not FENCING.match(method.strip()):
            errors.append("hdfs_ha_fencing_methods: %r. Allowed: shell(COMMAND) or sshfence, sshfence(user), "
                          "sshfence(user:port)." % (method,))
    rpc = _port(variables, 'hadoop_namenode_rpc_port', errors)
    http = _port(variables, 'hdfs_namenode_http_port', errors)
    jn_rpc = _port(variables, 'hdfs_journalnode_rpc_port', errors)
    jn_http = _port(variables, 'hdfs_journalnode_http_port', errors)
    zkfc = _port(variables, 'hdfs_zkfc_port', errors)
    edits = variables.get('hdfs_journalnode_edits_dir')
    if not isinstance(edits, str) or not edits.startswith('/'):
        errors.append('hdfs_journalnode_edits_dir: %r is not an absolute path. Allowed: an absolute path.' % (edits,))

    ids = dict((host, 'nn%d' % (i + 1)) for i, host in enumerate(order))
    out['namenodes'] = ids
    out['nameservice'] = ns
    out['core_site']['fs.defaultFS'] = 'hdfs://%s' % ns
    site = out['hdfs_site']
    site['dfs.nameservices'] = ns
    site['dfs.ha.namenodes.%s' % ns] = ','.join(ids[h] for h in order)
    for host in order:
        site['dfs.namenode.rpc-address.%s.%s' % (ns, ids[host])] = '%s:%d' % (host, rpc)
        site['dfs.namenode.http-address.%s.%s' % (ns, ids[host])] = '%s:%d' % (host, http)
    # The single NameNode's address key would point every client at one of them.
    site['dfs.namenode.http-address'] = None
    site['dfs.namenode.shared.edits.dir'] = 'qjournal://%s/%s' % (
        ';'.join('%s:%d' % (h, jn_rpc) for h in journalnodes), ns)
    site['dfs.journalnode.edits.dir'] = edits
    site['dfs.journalnode.rpc-address'] = '0.0.0.0:%d' % jn_rpc
    site['dfs.journalnode.http-address'] = '0.0.0.0:%d' % jn_http
    site['dfs.client.failover.proxy.provider.%s' % ns] = PROXY_PROVIDER
    site['dfs.ha.fencing.methods'] = '\n'.join(m.strip() for m in fencing if isinstance(m, str))
    site['dfs.ha.automatic-failover.enabled'] = True
    site['dfs.ha.zkfc.port'] = zkfc
    if tls_on(variables):
        https = _port(variables, 'hdfs_namenode_https_port', errors)
        for host in order:
            site['dfs.namenode.https-address.%s.%s' % (ns, ids[host])] = '%s:%d' % (host, https)
        site['dfs.namenode.https-address'] = None
        site['dfs.journalnode.https-address'] = '0.0.0.0:%d' % _port(variables, 'hdfs_journalnode_https_port', errors)


def _yarn(out, group, variables, quorum, errors):
    cluster = variables.get('yarn_cluster_id')
    if not isinstance(cluster, str) or not NAME.match(cluster):
        errors.append("yarn_cluster_id: %r. Allowed: lowercase letters, digits and '-', starting with a letter, at "
                      "most 32 characters." % (cluster,))
    if len(group) > 3:
        errors.append("inventory group 'resourcemanager': %d hosts. Allowed: 1 (no HA), 2 or 3." % len(group))
    port = _port(variables, 'yarn_resourcemanager_port', errors)
    webapp = _port(variables, 'yarn_resourcemanager_webapp_port', errors)
    ids = dict((host, 'rm%d' % (i + 1)) for i, host in enumerate(group))
    out['resourcemanagers'] = ids
    site = out['yarn_site']
    site['yarn.resourcemanager.ha.enabled'] = True
    site['yarn.resourcemanager.ha.automatic-failover.enabled'] = True
    site['yarn.resourcemanager.cluster-id'] = cluster
    site['yarn.resourcemanager.ha.rm-ids'] = ','.join(ids[h] for h in group)
    for host in group:
        rid = ids[host]
        site['yarn.resourcemanager.hostname.%s' % rid] = host
        site['yarn.resourcemanager.address.%s' % rid] = '%s:%d' % (host, port)
        site['yarn.resourcemanager.webapp.address.%s' % rid] = '%s:%d' % (host, webapp)
        if tls_on(variables):
            site['yarn.resourcemanager.webapp.https.address.%s' % rid] = '%s:%d' % (
                host, _port(variables, 'yarn_resourcemanager_webapp_https_port', errors))
    if tls_on(variables):
        site['yarn.resourcemanager.webapp.https.address'] = None
    # The single ResourceManager's keys would pin every client and NodeManager to one of them.
    for key in ('yarn.resourcemanager.hostname', 'yarn.resourcemanager.address', 'yarn.resourcemanager.webapp.address',
                'yarn.resourcemanager.fs.state-store.uri'):
        site[key] = None
    # Work-preserving recovery from the state in ZooKeeper: applications survive a failover.
    site['hadoop.zk.address'] = quorum
    # Secure mode: the ResourceManagers log in to ZooKeeper as rm/<host> (ZooKeeper knows them as rm); the state store
    # and the election znodes are theirs alone (the store's root adds the active one's fencing ACL itself).
    if kerberos_on(variables):
        site['hadoop.zk.acl'] = 'sasl:rm:rwcda'
    site['yarn.resourcemanager.recovery.enabled'] = True
    site['yarn.resourcemanager.work-preserving-recovery.enabled'] = True
    site['yarn.resourcemanager.store.class'] = ZK_STATE_STORE
    # NodeManagers and clients find the new active ResourceManager within seconds of a failover. Unset, every try
    # after the first failover waits yarn.resourcemanager.connect.retry-interval.ms (30 s): measured on lab-prod, a
    # NodeManager tried the restarted one (a standby: connection refused), slept 30 s and registered with the new
    # active one 75 s after the restart. With these the sleeps grow 0.5, 1, 2 ... s up to 15 s (the values
    # yarn-default.xml suggests); the number of tries is connect.max-wait.ms (15 min) / 500 ms, so a NodeManager
    # waits longer than before for a ResourceManager to come back, not shorter.
    site['yarn.client.failover-sleep-base-ms'] = 500
    site['yarn.client.failover-sleep-max-ms'] = 15000


def _limited_actions(order, namenodes, journals, left_out):
    """namenode_actions for a run that leaves some NameNodes or JournalNodes out."""
    actions = dict((h, 'start') for h in order)
    in_run = [h for h in order if namenodes[h] != 'unknown']
    if not in_run:
        return {'actions': actions, 'refuse': ''}
    empty = [h for h in in_run if namenodes[h] == 'empty']
    if empty or not any(found is True for found in journals.values()):
        why = ('%s %s empty' % (', '.join(empty), 'is' if len(empty) == 1 else 'are') if empty
               else 'no JournalNode of the run holds the journal')
        return {'actions': actions, 'refuse': (
            '%s, and the run leaves out %s (--limit), whose disks decide what the NameNodes do first (format, '
            'bootstrap or a conversion to HA). Run without --limit, or with every host of the groups namenode and '
            'journalnodes' % (why, ', '.join(left_out)))}
    return {'actions': actions, 'refuse': ''}


def namenode_actions(order, namenodes, journals):
    """What each NameNode of the nameservice does before it starts, from what its disks and the journal hold.

    order: the nameservice's NameNodes (ha_plan's namenodes, in order); namenodes: host -> 'empty' (every name
    directory empty) or 'formatted' (current/VERSION found); journals: JournalNode host -> True when its journal
    directory holds this nameservice's journal (current/VERSION).

    Returns {'actions': {host: action}, 'refuse': reason or ''}. Actions:
      format                  the first NameNode of a fresh nameservice (it formats the JournalNodes too)
      initialize_shared_edits a NameNode converted from a single-NameNode cluster: its edits are copied into the
                              new journal (every file kept), with the NameNode stopped
      bootstrap               an empty NameNode of a running nameservice: it copies the namespace from a formatted one
      start                   nothing to prepare
    Never a format where anything exists: a journal without any NameNode metadata is refused (a lost name directory
    is restored from a backup, docs/backup.md), as are two formatted NameNodes over an empty journal (which one is
    current cannot be told).

    A run limited to some hosts (--limit) does not know the disks of the others: their NameNodes are 'unknown' and
    their journals 'unknown'. Then the NameNodes of the run only start, which is right when each of them is
    formatted and a journal of the run exists; anything else (an empty NameNode, no journal seen) needs the hosts
    left out and is refused, naming them. A run with no NameNode has nothing to decide."""
    for host in order:
        if namenodes.get(host) not in ('empty', 'formatted', 'unknown'):
            raise HaError('namenodes: %s is %r; expected empty, formatted or unknown' % (host, namenodes.get(host)))
    for host, found in journals.items():
        if found not in (True, False, 'unknown'):
            raise HaError('journals: %s is %r; expected true, false or unknown' % (host, found))
    left_out = sorted(set([h for h in order if namenodes[h] == 'unknown'] + [h for h, f in journals.items() if f == 'unknown']))
    if left_out:
        return _limited_actions(order, namenodes, journals, left_out)
    formatted = [h for h in order if namenodes[h] == 'formatted']
    empty = [h for h in order if namenodes[h] == 'empty']
    with_journal = sorted(h for h, found in journals.items() if found)
    actions = dict((h, 'start') for h in order)
    if not formatted:
        if with_journal:
            return {'actions': actions, 'refuse': (
                'the JournalNodes %s hold a journal of this nameservice but every NameNode directory is empty: a '
                'format would destroy the namespace. Restore a NameNode\'s name directories (docs/backup.md), or, '
                'to start over deliberately, empty the journal directories yourself' % ', '.join(with_journal))}
        actions[order[0]] = 'format'
        for host in order[1:]:
            actions[host] = 'bootstrap'
        return {'actions': actions, 'refuse': ''}
    if not with_journal:
        if len(formatted) > 1:
            return {'actions': actions, 'refuse': (
                'the NameNodes %s all hold metadata but the journal is empty: which namespace is current cannot be '
                'told. Keep the name directories of the current NameNode, move the others\' aside, and rerun'
                % ', '.join(formatted))}
        actions[formatted[0]] = 'initialize_shared_edits'
    for host in empty:
        actions[host] = 'bootstrap'
    return {'actions': actions, 'refuse': ''}
