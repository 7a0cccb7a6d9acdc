# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""The daemon table: every daemon the collection runs, in one place.

For each daemon: its inventory group, its systemd unit, whether it is a master (restarted one host at a time)
or a worker (restarted in batches), its place in the restart order, the files it reads when it starts (a
newer file makes it stale), and its HTTP port and health path. playbooks/restart.yml (stale detection,
restart order, the wait for the port) and the health gates read it through the filters in
plugins/filter/daemons.py; adding a daemon is one entry here (and its role, which writes its unit).

The health decisions (hdfs_problems, yarn_problems) read the NameNode's JMX and the ResourceManager's REST
answer and compare them with the inventory, less the nodes the cluster itself counts as decommissioned.
Plain functions over plain values: no Ansible import, no I/O.
"""

from __future__ import annotations

HDFS_FILES = ('core-site.xml', 'hdfs-site.xml', 'hadoop-env.sh', 'log4j.properties')
YARN_FILES = ('core-site.xml', 'hdfs-site.xml', 'yarn-site.xml', 'mapred-site.xml', 'capacity-scheduler.xml',
              'hadoop-env.sh', 'log4j.properties')
MAPRED_FILES = ('core-site.xml', 'hdfs-site.xml', 'yarn-site.xml', 'mapred-site.xml', 'hadoop-env.sh',
                'log4j.properties')

# name, group, unit, kind, order, Hadoop configuration files read, reads Spark's configuration directory,
# reads Spark's release (the `current` link), HTTP port variable and its default, health path.
DAEMONS = (
    {'name': 'namenode', 'group': 'namenode', 'unit': 'hadoop-hdfs-namenode', 'kind': 'master', 'order': 10,
     'hadoop_files': HDFS_FILES, 'spark_conf': False, 'spark_release': False,
     'port_var': 'hdfs_namenode_http_port', 'port': 9870,
     'health': '/jmx?qry=Hadoop:service=NameNode,name=FSNamesystem*'},
    {'name': 'resourcemanager', 'group': 'resourcemanager', 'unit': 'hadoop-yarn-resourcemanager', 'kind': 'master',
     'order': 20, 'hadoop_files': YARN_FILES, 'spark_conf': False, 'spark_release': False,
     'port_var': 'yarn_resourcemanager_webapp_port', 'port': 8088, 'health': '/ws/v1/cluster/metrics'},
    {'name': 'jobhistory', 'group': 'jobhistory', 'unit': 'hadoop-mapred-historyserver', 'kind': 'master',
     'order': 30, 'hadoop_files': MAPRED_FILES, 'spark_conf': False, 'spark_release': False,
     'port_var': 'yarn_jobhistory_webapp_port', 'port': 19888, 'health': '/ws/v1/history/info'},
    {'name': 'spark_history', 'group': 'spark_history', 'unit': 'spark-history-server', 'kind': 'master',
     'order': 40, 'hadoop_files': ('core-site.xml', 'hdfs-site.xml'), 'spark_conf': True, 'spark_release': True,
     'port_var': 'spark_history_port', 'port': 18080, 'health': '/api/v1/version'},
    {'name': 'datanode', 'group': 'datanodes', 'unit': 'hadoop-hdfs-datanode', 'kind': 'worker', 'order': 50,
     'hadoop_files': HDFS_FILES, 'spark_conf': False, 'spark_release': False,
     'port_var': 'hdfs_datanode_http_port', 'port': 9864,
     'health': '/jmx?qry=Hadoop:service=DataNode,name=DataNodeInfo'},
    # The NodeManager loads Spark's YARN shuffle service from Spark's release.
    {'name': 'nodemanager', 'group': 'nodemanagers', 'unit': 'hadoop-yarn-nodemanager', 'kind': 'worker',
     'order': 60, 'hadoop_files': YARN_FILES, 'spark_conf': False, 'spark_release': True,
     'port_var': 'yarn_nodemanager_webapp_port', 'port': 8042, 'health': '/ws/v1/node/info'},
)

# Where the files live unless the inventory says otherwise (the roles' defaults).
LAYOUT_DEFAULTS = {
    'hadoop_conf_dir': '/etc/hadoop/conf',
    'hadoop_install_root': '/opt/hadoop',
    'spark_conf_dir': '/etc/spark/conf',
    'spark_install_root': '/opt/spark',
}


class DaemonError(ValueError):
    """Bad input to a daemon-table function; the message names the value and what is allowed."""


def _port(value, var):
    try:
        port = int(value)
    except (TypeError, ValueError):
        raise DaemonError('%s: a port number is required (1-65535); got %r' % (var, value))
    if not 0 < port < 65536:
        raise DaemonError('%s: a port number is required (1-65535); got %r' % (var, value))
    return port


def table(host_vars=None):
    """The daemons in restart order, each with its port and the absolute paths it reads resolved from
    host_vars (a host's variables; the layout defaults and the table's ports fill what is not set)."""
    host_vars = host_vars or {}
    layout = {}
    for key, default in LAYOUT_DEFAULTS.items():
        value = host_vars.get(key, default)
        if not isinstance(value, str) or not value.startswith('/'):
            raise DaemonError('%s: an absolute path is required; got %r' % (key, value))
        layout[key] = value.rstrip('/') or '/'
    out = []
    for d in sorted(DAEMONS, key=lambda d: d['order']):
        entry = dict(d)
        entry['hadoop_files'] = list(d['hadoop_files'])
        entry['port'] = _port(host_vars.get(d['port_var'], d['port']), d['port_var'])
        files = ['/etc/systemd/system/%s.service' % d['unit'], layout['hadoop_install_root'] + '/current']
        files += ['%s/%s' % (layout['hadoop_conf_dir'], f) for f in d['hadoop_files']]
        if d['spark_release']:
            files.append(layout['spark_install_root'] + '/current')
        if d['spark_conf']:
            files.append(layout['spark_conf_dir'])
        entry['files'] = files
        out.append(entry)
    return out


def units():
    """Every unit, in restart order."""
    return [d['unit'] for d in sorted(DAEMONS, key=lambda d: d['order'])]


def _count(value, what):
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise DaemonError('%s: a count >= 0 is required; got %r' % (what, value))
    return value


def hdfs_problems(jmx, expected_datanodes):
    """What keeps HDFS from being healthy, from the NameNode's answer to /jmx?qry=...name=FSNamesystem*:
    safe mode, missing or corrupt blocks, fewer live DataNodes than the inventory's less those the NameNode
    counts as decommissioned. An empty list: healthy."""
    expected = _count(expected_datanodes, 'expected_datanodes')
    if not isinstance(jmx, dict) or not isinstance(jmx.get('beans'), list):
        return ['the NameNode gave no JMX answer (is it up?)']
    merged = {}
    for bean in jmx['beans']:
        if isinstance(bean, dict) and str(bean.get('name', '')).startswith('Hadoop:service=NameNode,name=FSNamesystem'):
            merged.update(bean)
    needed = ('FSState', 'NumLiveDataNodes', 'NumDecomLiveDataNodes', 'NumDecomDeadDataNodes', 'MissingBlocks',
              'CorruptBlocks')
    absent = [k for k in needed if k not in merged]
    if absent:
        return ['the NameNode\'s JMX lacks %s' % ', '.join(absent)]
    problems = []
    if merged['FSState'] != 'Operational':
        problems.append('HDFS is in %s, not Operational' % merged['FSState'])
    decommissioned = int(merged['NumDecomLiveDataNodes']) + int(merged['NumDecomDeadDataNodes'])
    serving = int(merged['NumLiveDataNodes']) - int(merged['NumDecomLiveDataNodes'])
    want = max(expected - decommissioned, 0)
    if serving < want:
        problems.append('%d DataNode(s) live and in service, %d expected (%d in the inventory, %d decommissioned)'
                        % (serving, want, expected, decommissioned))
    for key, label in (('MissingBlocks', 'missing'), ('CorruptBlocks', 'corrupt')):
        if int(merged[key]) != 0:
            problems.append('%d %s block(s)' % (int(merged[key]), label))
    return problems


def yarn_problems(metrics, expected_nodemanagers):
    """What keeps YARN from being healthy, from the ResourceManager's /ws/v1/cluster/metrics: fewer active
    NodeManagers than the inventory's less those the ResourceManager counts as decommissioned (or being
    decommissioned). An empty list: healthy."""
    expected = _count(expected_nodemanagers, 'expected_nodemanagers')
    m = metrics.get('clusterMetrics') if isinstance(metrics, dict) else None
    if not isinstance(m, dict):
        return ['the ResourceManager gave no cluster metrics (is it up?)']
    absent = [k for k in ('activeNodes', 'decommissionedNodes', 'decommissioningNodes') if k not in m]
    if absent:
        return ['the ResourceManager\'s metrics lack %s' % ', '.join(absent)]
    leaving = int(m['decommissionedNodes']) + int(m['decommissioningNodes'])
    want = max(expected - leaving, 0)
    if int(m['activeNodes']) < want:
        return ['%d NodeManager(s) RUNNING, %d expected (%d in the inventory, %d decommissioned or decommissioning; '
                'lost %s, unhealthy %s)' % (int(m['activeNodes']), want, expected, leaving, m.get('lostNodes', '?'),
                                            m.get('unhealthyNodes', '?'))]
    return []
