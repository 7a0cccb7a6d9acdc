# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Day-2 decisions that read the NameNode's answers: DataNode usage and its spread (playbooks/balance.yml), whether
named nodes may leave (playbooks/decommission.yml), and what playbooks/reset.yml removes or keeps."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json


class Day2Error(ValueError):
    """Bad input to a day-2 function; the message names the value and what is allowed."""


def _node_map(bean, key):
    """A map of DataNodes inside a NameNodeInfo bean (LiveNodes, DeadNodes: a JSON string in the bean)."""
    nodes = bean.get(key, {})
    if isinstance(nodes, str):
        try:
            nodes = json.loads(nodes)
        except ValueError as exc:
            raise Day2Error('jmx: %s is not JSON: %s' % (key, exc))
    if not isinstance(nodes, dict):
        raise Day2Error('jmx: %s must map DataNodes to their figures; got %r' % (key, nodes))
    return nodes


def _live_nodes(jmx):
    """The LiveNodes map of a NameNodeInfo JMX answer (a JSON string inside the bean)."""
    beans = jmx.get('beans') if isinstance(jmx, dict) else None
    if not isinstance(beans, list) or not beans or not isinstance(beans[0], dict) or 'LiveNodes' not in beans[0]:
        raise Day2Error('jmx: the answer of /jmx?qry=Hadoop:service=NameNode,name=NameNodeInfo is required '
                        '(a bean with LiveNodes); got %r' % (str(jmx)[:200],))
    return _node_map(beans[0], 'LiveNodes')


def datanode_usage(jmx):
    """Each live DataNode's DFS usage in percent of its capacity (what the balancer evens out), and the spread.

    Returns {'nodes': [{'datanode', 'used_bytes', 'capacity_bytes', 'used_pct', 'admin_state'}] sorted by name,
    'mean_pct' (the cluster's used over its capacity), 'spread_pct' (highest minus lowest node, percentage points)}.
    A node with no capacity counts 0 %."""
    nodes = []
    for name, figures in sorted(_live_nodes(jmx).items()):
        used, capacity = int(figures.get('usedSpace', 0)), int(figures.get('capacity', 0))
        nodes.append({'datanode': name.split(':')[0], 'used_bytes': used, 'capacity_bytes': capacity,
                      'used_pct': round(100.0 * used / capacity, 3) if capacity else 0.0,
                      'admin_state': figures.get('adminState', '')})
    if not nodes:
        return {'nodes': [], 'mean_pct': 0.0, 'spread_pct': 0.0}
    total_used = sum(n['used_bytes'] for n in nodes)
    total_capacity = sum(n['capacity_bytes'] for n in nodes)
    pcts = [n['used_pct'] for n in nodes]
    return {'nodes': nodes, 'mean_pct': round(100.0 * total_used / total_capacity, 3) if total_capacity else 0.0,
            'spread_pct': round(max(pcts) - min(pcts), 3)}


# hdfs balancer's exit codes (org.apache.hadoop.hdfs.server.balancer.ExitStatus) as the shell sees them.
BALANCER_EXIT = {
    0: ('balanced', 'every DataNode is within the threshold of the mean'),
    1: ('in progress', 'the balancer stopped with blocks still to move'),
    255: ('already running', 'another balancer runs against this cluster (its lock file /system/balancer.id)'),
    254: ('no block to move', 'no block can move closer to the mean (small cluster, placement rules)'),
    253: ('no progress', 'no block moved in five iterations'),
    252: ('I/O error', 'see the balancer output'),
    251: ('bad arguments', 'see the balancer output'),
    250: ('interrupted', 'the balancer was stopped'),
    249: ('upgrade not finalized', 'the balancer does not run during an HDFS upgrade; finalize it first'),
}


def balancer_outcome(rc):
    """{'rc', 'outcome', 'why', 'ok'} for the balancer's exit code: ok when the cluster is balanced or no block can
    move closer (nothing left that the balancer could do)."""
    try:
        rc = int(rc)
    except (TypeError, ValueError):
        raise Day2Error('rc: the balancer\'s exit code (a number) is required; got %r' % (rc,))
    outcome, why = BALANCER_EXIT.get(rc, ('failed', 'exit code %d' % rc))
    return {'rc': rc, 'outcome': outcome, 'why': why, 'ok': rc in (0, 254)}


# playbooks/decommission.yml's actions.
DECOMMISSION_ACTIONS = ('decommission', 'recommission')
IN_SERVICE = 'In Service'


def _host_part(name):
    return str(name).rsplit(':', 1)[0]


def _is_ipv4(text):
    parts = str(text).split('.')
    return len(parts) == 4 and all(p.isdigit() and int(p) < 256 for p in parts)


def _find(nodes, names):
    """The entry of a LiveNodes or DeadNodes map registered under one of names (hostnames or IP addresses)."""
    for key, figures in sorted(nodes.items()):
        ip = _host_part(figures.get('xferaddr', '')) if isinstance(figures, dict) else ''
        if _host_part(key) in names or (ip and ip in names):
            return key, figures
    return None, None


def _dead_nodes(jmx):
    """The DeadNodes map of a NameNodeInfo answer; none when the NameNode gives no readable one."""
    try:
        return _node_map(jmx['beans'][0], 'DeadNodes')
    except Day2Error:
        return {}


def _gb(n):
    return '%.1f GB' % (n / 1e9)


def decommission_plan(jmx, leaving, replication, action='decommission'):
    """Whether the named nodes may leave (or come back), from the NameNodeInfo JMX answer, before any change.

    leaving: [{'host': inventory name, 'names': [the names and addresses the node may have registered under]}].
    replication: the cluster's replication factor (dfs.replication).
    Returns {'nodes': [{'host', 'datanode' (the name the NameNode knows it by, written to yarn.exclude: a NodeManager
    registers under the same name), 'exclude' (the address dfs.exclude must name: the one its RPC came from, xferaddr),
    'state', 'used_bytes'}], 'staying': [DataNodes that stay in service], 'problems': [...]}. Problems (decommission only):
    no DataNode would stay; fewer would stay than the replication factor (the decommission could never end); the
    leaving nodes hold more than the staying ones have free."""
    if action not in DECOMMISSION_ACTIONS:
        raise Day2Error('decommission_action: %r. Allowed: %s' % (action, ', '.join(DECOMMISSION_ACTIONS)))
    if not isinstance(leaving, list) or not leaving or not all(isinstance(n, dict) and n.get('host') for n in leaving):
        raise Day2Error('leaving: a list of {host, names} is required; got %r' % (leaving,))
    try:
        replication = int(replication)
    except (TypeError, ValueError):
        raise Day2Error('replication: a whole number >= 1 is required; got %r' % (replication,))
    if replication < 1:
        raise Day2Error('replication: a whole number >= 1 is required; got %r' % (replication,))
    live = _live_nodes(jmx)
    dead = _dead_nodes(jmx)
    nodes, keys = [], set()
    for node in leaving:
        names = set(str(n) for n in [node['host']] + list(node.get('names') or []) if n)
        key, figures = _find(live, names)
        state = (figures or {}).get('adminState', '')
        if key is None:
            key, figures = _find(dead, names)
            state = 'dead' + (' (decommissioned)' if (figures or {}).get('decommissioned') else '') if key else 'unknown'
        if key is not None:
            keys.add(key)
        # The NameNode matches dfs.exclude against the address the DataNode's RPC came from (xferaddr). A DataNode
        # registered under another address (a data network: dfs.datanode.hostname) is named by that one.
        exclude = _host_part(key) if key else node['host']
        rpc_ip = _host_part((figures or {}).get('xferaddr', ''))
        if rpc_ip and _is_ipv4(exclude) and exclude != rpc_ip:
            exclude = rpc_ip
        nodes.append({'host': node['host'], 'datanode': _host_part(key) if key else node['host'], 'exclude': exclude,
                      'state': state, 'used_bytes': int((figures or {}).get('usedSpace', 0) or 0)})
    staying = [(k, f) for k, f in sorted(live.items()) if k not in keys and f.get('adminState', IN_SERVICE) == IN_SERVICE]
    problems = []
    if action == 'decommission':
        names = ', '.join(n['host'] for n in nodes)
        if not staying:
            problems.append('decommission_nodes: %s would leave no DataNode in service; at least %d must stay (the '
                            'replication factor)' % (names, replication))
        elif len(staying) < replication:
            problems.append('decommission_nodes: %s would leave %d DataNode(s) in service (%s), fewer than the '
                            'replication factor %d (dfs.replication): no block could keep %d copies and the '
                            'decommission would never end. Add DataNodes first (scale-out) or lower hdfs_replication'
                            % (names, len(staying), ', '.join(_host_part(k) for k in dict(staying)), replication,
                               replication))
        used = sum(n['used_bytes'] for n in nodes)
        free = sum(int(f.get('remaining', 0) or 0) for f in dict(staying).values())
        if staying and used > free:
            problems.append('decommission_nodes: %s hold %s of blocks; the DataNodes that stay have %s free'
                            % (names, _gb(used), _gb(free)))
    return {'nodes': nodes, 'staying': [_host_part(k) for k in dict(staying)], 'problems': problems}


# playbooks/reset.yml deletes the data only when reset_delete_data says these words.
RESET_WORDS = 'yes, delete all HDFS, YARN and ZooKeeper data'


def reset_delete_data(value):
    """True when reset_delete_data is exactly RESET_WORDS, False when it is not set (None, empty, false); anything
    else is refused, so a typo never deletes and never passes silently."""
    if value is None or value is False or (isinstance(value, str) and value.strip().lower() in ('', 'false', 'no')):
        return False
    if isinstance(value, str) and value.strip() == RESET_WORDS:
        return True
    raise Day2Error('reset_delete_data: %r. Allowed: not set (the data stays), or exactly "%s" to delete the name, '
                    'data, journal and ZooKeeper directories' % (value, RESET_WORDS))


# What playbooks/reset.yml removes (the releases, configuration and download cache) and what it keeps unless told
# (state: name, data, journal and ZooKeeper directories, the ResourceManager's and NodeManagers' recovery state,
# logs). Each entry: a variable of the roles and, for hadoop_data_dirs, the subdirectories the roles made on each
# data disk (the mount point itself is the user's).
RESET_REMOVE_VARS = ('hadoop_install_root', 'spark_install_root', 'zookeeper_install_root', 'hadoop_conf_dir',
                     'spark_conf_dir', 'zookeeper_conf_dir', 'hadoop_download_dir', 'spark_download_dir',
                     'zookeeper_download_dir')
RESET_DATA_VARS = ('hdfs_name_dirs', 'hdfs_checkpoint_dirs', 'hdfs_journalnode_edits_dir', 'zookeeper_data_dir',
                   'zookeeper_data_log_dir', 'yarn_resourcemanager_state_dir', 'yarn_nodemanager_recovery_dir',
                   'hadoop_log_dir', 'spark_log_dir', 'zookeeper_log_dir')
RESET_DISK_SUBDIRS = ('hdfs', 'yarn')
# (/etc/default/hadoop-kms: the KMS keystore's password; the keystore itself, hadoop_kms_keystore_dir, stays.)
RESET_FILES = ('/etc/profile.d/hadoop.sh', '/etc/profile.d/spark.sh', '/etc/default/hadoop-kms')
RESET_VARS = RESET_REMOVE_VARS + RESET_DATA_VARS + ('hadoop_data_dirs',)
# Paths reset never deletes, whatever a variable says.
_NEVER = ('/', '/bin', '/boot', '/dev', '/etc', '/home', '/lib', '/opt', '/proc', '/root', '/sbin', '/sys', '/tmp',
          '/usr', '/var', '/var/lib', '/var/log', '/var/cache', '/data')


def _reset_path(name, value):
    if not isinstance(value, str) or not value.startswith('/') or '..' in value.split('/'):
        raise Day2Error('%s: an absolute path is required (reset.yml deletes it); got %r' % (name, value))
    path = value.rstrip('/') or '/'
    if path in _NEVER:
        raise Day2Error('%s: %s is a system directory; reset.yml deletes only what the collection made there. Set '
                        '%s to the directory the collection uses' % (name, path, name))
    return path


def _reset_value(name, host_vars, fallbacks):
    value = host_vars.get(name) if host_vars else None
    if value is None:
        value = (fallbacks or {}).get(name)
    if value is None:
        raise Day2Error('%s is not set (a default of the %s role; set it in the inventory)' % (name, name.split('_')[0]))
    return value


def reset_paths(host_vars, fallbacks=None):
    """{'remove': [...], 'data': [...]}: the absolute paths reset.yml deletes on a host, and those it deletes only with
    reset_delete_data, resolved from the host's variables and else the roles' defaults."""
    remove = [_reset_path(n, _reset_value(n, host_vars, fallbacks)) for n in RESET_REMOVE_VARS]
    data = []
    for name in RESET_DATA_VARS:
        value = _reset_value(name, host_vars, fallbacks)
        for one in (value if isinstance(value, list) else [value]):
            data.append(_reset_path(name, one))
    disks = _reset_value('hadoop_data_dirs', host_vars, fallbacks)
    if not isinstance(disks, list):
        raise Day2Error('hadoop_data_dirs: a list of absolute paths is required; got %r' % (disks,))
    for disk in disks:
        disk = (disk.rstrip('/') if isinstance(disk, str) else disk) or disk
        for sub in RESET_DISK_SUBDIRS:
            data.append(_reset_path('hadoop_data_dirs', '%s/%s' % (disk, sub) if isinstance(disk, str) else disk))
    return {'remove': list(dict.fromkeys(remove + list(RESET_FILES))), 'data': list(dict.fromkeys(data))}
