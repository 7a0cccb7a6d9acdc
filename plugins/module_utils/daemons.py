# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""The daemon table: every daemon the collection runs, in one place.

For each daemon: its role and inventory group, its systemd unit (description, user, command or class, the units
it starts after), the ports it binds, whether it is a master (restarted one host at a time) or a worker (restarted
in batches), its place in the restart order, the files it reads when it starts (a newer file makes it stale), and
its HTTP port and health path. The roles build their units from it (role_daemons), preflight checks its ports
(daemon_ports), playbooks/restart.yml (stale detection, restart order, the wait for the port) and the health gates
read it (table), all through the filters in plugins/filter/daemons.py; adding a daemon is one entry here (and its
role's configuration files).

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

# The HDFS daemons' launcher comment: HDFS_STARTUP_OPTS is unset but for one start.
HDFS_EXEC_COMMENT = (
    'The launcher execs java, so systemd supervises the JVM itself. HDFS_STARTUP_OPTS is unset but for one start',
    '(playbooks/hdfs_upgrade.yml\'s rollback sets it in a runtime drop-in): then it adds the startup options.',
)

# One entry per daemon, in the order its role starts them (the restart order is `order`):
#   name, role (the role that writes its unit and starts it), group (the inventory group that runs it), unit,
#   kind (master: restarted one host at a time; worker: in batches), order (restart order);
#   runs on: the hosts of `group`, or with host_var the one host that variable names; with switch_var only
#   when that variable is true;
#   the unit: description, account (the hadoop_users key it runs as), after (units it starts after), and
#   command, log_subdir, exec_args, exec_comment (Hadoop's launcher, roles/hadoop/templates/
#   hadoop-daemon.service.j2) or class, args (spark-class, roles/spark/templates/spark-daemon.service.j2) or,
#   for a daemon that is not Hadoop's or Spark's, java_class, java_args (files in its configuration directory),
#   java_props (system properties; {log_dir}, {conf_dir}, {home}, {unit} are filled in) and the variables of its
#   release root (release_var), configuration and log directories (conf_var, log_var), heap in MB (heap_var) and
#   JVM options (opts_var): `java <opts> -D... -cp <conf_dir>:<release_root>/current/lib/* <java_class> <args>`
#   (roles/zookeeper/templates/java-daemon.service.j2); user_var instead of account: the variable of its user;
#   port_vars: the variables of the ports it listens on (its role waits for each after a start); more_ports:
#   the other ports it binds (variables, or Hadoop's fixed defaults as numbers; preflight finds them free);
#   port_var: its HTTP port, health: the HTTP path that answers when it is up;
#   hadoop_files: the Hadoop configuration files it reads, spark_conf: reads Spark's configuration directory,
#   spark_release: reads Spark's release (the `current` link); with release_var its own release instead of
#   Hadoop's, and conf_files: the files of its configuration directory (conf_var) it reads;
#   probe: a four-letter word and its answer on port_var instead of an HTTP health path;
#   restart_leader_last: an ensemble whose leader restarts after its followers.
# A variable's default is its role's (the name's prefix: hadoop_, hdfs_, yarn_, spark_).
DAEMONS = (
    {'name': 'namenode', 'role': 'hdfs', 'group': 'namenode', 'unit': 'hadoop-hdfs-namenode', 'kind': 'master',
     'order': 10, 'description': 'HDFS NameNode', 'account': 'hdfs', 'after': (),
     'command': 'hdfs namenode', 'log_subdir': 'hdfs', 'exec_args': ' $HDFS_STARTUP_OPTS',
     'exec_comment': HDFS_EXEC_COMMENT,
     'port_vars': ('hadoop_namenode_rpc_port', 'hdfs_namenode_http_port'), 'more_ports': (),
     'port_var': 'hdfs_namenode_http_port', 'health': '/jmx?qry=Hadoop:service=NameNode,name=FSNamesystem*',
     'hadoop_files': HDFS_FILES, 'spark_conf': False, 'spark_release': False},
    # The checkpointer of a cluster without HA (a standby NameNode checkpoints with HA): it merges the NameNode's
    # edits into a new fsimage every dfs.namenode.checkpoint.period and uploads it back.
    {'name': 'secondarynamenode', 'role': 'hdfs', 'group': 'secondarynamenode',
     'host_var': 'hdfs_secondarynamenode_host', 'switch_var': 'hdfs_secondarynamenode_enabled',
     'unit': 'hadoop-hdfs-secondarynamenode', 'kind': 'master', 'order': 15, 'description': 'HDFS SecondaryNameNode',
     'account': 'hdfs', 'after': ('hadoop-hdfs-namenode.service',),
     'command': 'hdfs secondarynamenode', 'log_subdir': 'hdfs',
     'port_vars': ('hdfs_secondarynamenode_http_port',), 'more_ports': (),
     'port_var': 'hdfs_secondarynamenode_http_port',
     'health': '/jmx?qry=Hadoop:service=SecondaryNameNode,name=SecondaryNameNodeInfo',
     'hadoop_files': HDFS_FILES, 'spark_conf': False, 'spark_release': False},
    # 9866: the data transfer port (dfs.datanode.address).
    {'name': 'datanode', 'role': 'hdfs', 'group': 'datanodes', 'unit': 'hadoop-hdfs-datanode', 'kind': 'worker',
     'order': 50, 'description': 'HDFS DataNode', 'account': 'hdfs', 'after': ('hadoop-hdfs-namenode.service',),
     'command': 'hdfs datanode', 'log_subdir': 'hdfs', 'exec_args': ' $HDFS_STARTUP_OPTS',
     'exec_comment': HDFS_EXEC_COMMENT,
     'port_vars': ('hdfs_datanode_http_port',), 'more_ports': (9866, 'hdfs_datanode_ipc_port'),
     'port_var': 'hdfs_datanode_http_port', 'health': '/jmx?qry=Hadoop:service=DataNode,name=DataNodeInfo',
     'hadoop_files': HDFS_FILES, 'spark_conf': False, 'spark_release': False},
    # 8030, 8031, 8033: the scheduler, resource tracker and admin ports.
    {'name': 'resourcemanager', 'role': 'yarn', 'group': 'resourcemanager', 'unit': 'hadoop-yarn-resourcemanager',
     'kind': 'master', 'order': 20, 'description': 'YARN ResourceManager', 'account': 'yarn',
     'after': ('hadoop-hdfs-namenode.service',), 'command': 'yarn resourcemanager', 'log_subdir': 'yarn',
     'port_vars': ('yarn_resourcemanager_port', 'yarn_resourcemanager_webapp_port'), 'more_ports': (8030, 8031, 8033),
     'port_var': 'yarn_resourcemanager_webapp_port', 'health': '/ws/v1/cluster/metrics',
     'hadoop_files': YARN_FILES, 'spark_conf': False, 'spark_release': False},
    # The NodeManager loads Spark's YARN shuffle service from Spark's release. 8040: the localizer port.
    {'name': 'nodemanager', 'role': 'yarn', 'group': 'nodemanagers', 'unit': 'hadoop-yarn-nodemanager',
     'kind': 'worker', 'order': 60, 'description': 'YARN NodeManager', 'account': 'yarn',
     'after': ('hadoop-yarn-resourcemanager.service', 'hadoop-hdfs-datanode.service'),
     'command': 'yarn nodemanager', 'log_subdir': 'yarn',
     'port_vars': ('yarn_nodemanager_port', 'yarn_nodemanager_webapp_port'),
     'more_ports': (8040, 'yarn_spark_shuffle_port'),
     'port_var': 'yarn_nodemanager_webapp_port', 'health': '/ws/v1/node/info',
     'hadoop_files': YARN_FILES, 'spark_conf': False, 'spark_release': True},
    {'name': 'jobhistory', 'role': 'yarn', 'group': 'jobhistory', 'host_var': 'yarn_jobhistory_host',
     'unit': 'hadoop-mapred-historyserver', 'kind': 'master', 'order': 30,
     'description': 'MapReduce JobHistory server', 'account': 'mapred',
     'after': ('hadoop-hdfs-namenode.service', 'hadoop-yarn-resourcemanager.service'),
     'command': 'mapred historyserver', 'log_subdir': 'mapred',
     'port_vars': ('yarn_jobhistory_port', 'yarn_jobhistory_webapp_port'), 'more_ports': (),
     'port_var': 'yarn_jobhistory_webapp_port', 'health': '/ws/v1/history/info',
     'hadoop_files': MAPRED_FILES, 'spark_conf': False, 'spark_release': False},
    {'name': 'spark_history', 'role': 'spark', 'group': 'spark_history', 'host_var': 'spark_history_host',
     'switch_var': 'spark_history_enabled', 'unit': 'spark-history-server', 'kind': 'master', 'order': 40,
     'description': 'Spark History Server', 'account': 'spark', 'after': ('hadoop-hdfs-namenode.service',),
     'class': 'org.apache.spark.deploy.history.HistoryServer', 'args': (),
     'port_vars': ('spark_history_port',), 'more_ports': (),
     'port_var': 'spark_history_port', 'health': '/api/v1/version',
     'hadoop_files': ('core-site.xml', 'hdfs-site.xml'), 'spark_conf': True, 'spark_release': True},
    # The ZooKeeper ensemble (NameNode and ResourceManager HA): restarted before the NameNode (order 5), one host at a
    # time. No HTTP health path: it is up when the client port answers the four-letter word `ruok` with `imok`
    # (probe), and serving when `srvr` reports a Mode. Only the leader binds the quorum port, and a lone server
    # (standalone) no election port, so the role waits for the client port alone. restart_leader_last: a rolling
    # restart must restart the followers first and the leader last, each after the ensemble serves again
    # (playbooks/restart.yml does not do that yet; the zookeeper role restarts its servers itself that way).
    {'name': 'zookeeper', 'role': 'zookeeper', 'group': 'zookeeper', 'unit': 'zookeeper-server', 'kind': 'master',
     'order': 5, 'description': 'Apache ZooKeeper server', 'user_var': 'zookeeper_user', 'after': (),
     'java_class': 'org.apache.zookeeper.server.quorum.QuorumPeerMain', 'java_args': ('zoo.cfg',),
     'java_props': (('zookeeper.log.dir', '{log_dir}'), ('zookeeper.log.file', '{unit}.log'),
                    ('logback.configurationFile', '{conf_dir}/logback.xml')),
     'release_var': 'zookeeper_install_root', 'conf_var': 'zookeeper_conf_dir', 'log_var': 'zookeeper_log_dir',
     'heap_var': 'zookeeper_heap_mb', 'opts_var': 'zookeeper_jvm_opts',
     'port_vars': ('zookeeper_client_port',), 'more_ports': ('zookeeper_quorum_port', 'zookeeper_election_port'),
     'port_var': 'zookeeper_client_port', 'health': None, 'probe': ('ruok', 'imok'), 'restart_leader_last': True,
     'conf_files': ('zoo.cfg', 'logback.xml'), 'hadoop_files': (), 'spark_conf': False, 'spark_release': False},
)

# Where the files live: the variables the restart table reads (their defaults are the roles').
LAYOUT_VARS = ('hadoop_conf_dir', 'hadoop_install_root', 'spark_conf_dir', 'spark_install_root')
# The variables of a daemon that runs java itself (java_class).
JAVA_VARS = ('release_var', 'conf_var', 'log_var', 'heap_var', 'opts_var')


class DaemonError(ValueError):
    """Bad input to a daemon-table function; the message names the value and what is allowed."""


def owner(var):
    """The role whose defaults define a variable (its name's prefix)."""
    return var.split('_', 1)[0]


def variables_read():
    """Every variable the table reads, for loading only those."""
    names = list(LAYOUT_VARS) + ['hadoop_users']
    for d in DAEMONS:
        names += list(d['port_vars']) + [p for p in d['more_ports'] if isinstance(p, str)]
        names += [d[k] for k in ('host_var', 'switch_var', 'user_var') + JAVA_VARS if k in d]
    return tuple(dict.fromkeys(names))


def _value(name, host_vars, fallbacks):
    value = host_vars.get(name) if host_vars is not None else None
    if value is None:
        value = (fallbacks or {}).get(name)
    if value is None:
        raise DaemonError('%s is not set (it is a default of the %s role; set it in the inventory when the play does '
                          'not run that role)' % (name, owner(name)))
    return value


def _port(value, var):
    try:
        port = int(value)
    except (TypeError, ValueError):
        raise DaemonError('%s: a port number is required (1-65535); got %r' % (var, value))
    if isinstance(value, bool) or not 0 < port < 65536:
        raise DaemonError('%s: a port number is required (1-65535); got %r' % (var, value))
    return port


def _ports(names, host_vars, fallbacks):
    return [p if isinstance(p, int) else _port(_value(p, host_vars, fallbacks), p) for p in names]


def _path(key, host_vars, fallbacks):
    value = _value(key, host_vars, fallbacks)
    if not isinstance(value, str) or not value.startswith('/'):
        raise DaemonError('%s: an absolute path is required; got %r' % (key, value))
    return value.rstrip('/') or '/'


def _layout(host_vars, fallbacks):
    return dict((key, _path(key, host_vars, fallbacks)) for key in LAYOUT_VARS)


def _java(d, host_vars, fallbacks):
    """How a daemon that runs java itself starts: its release, directories, heap, options, classpath, arguments and
    system properties, resolved."""
    home = _path(d['release_var'], host_vars, fallbacks) + '/current'
    conf_dir = _path(d['conf_var'], host_vars, fallbacks)
    log_dir = _path(d['log_var'], host_vars, fallbacks)
    heap = _value(d['heap_var'], host_vars, fallbacks)
    try:
        heap_mb = int(heap)
    except (TypeError, ValueError):
        heap_mb = 0
    if isinstance(heap, bool) or heap_mb < 1:
        raise DaemonError('%s: a heap size in MB (a whole number >= 1) is required; got %r' % (d['heap_var'], heap))
    opts = host_vars.get(d['opts_var'])
    if opts is None:
        opts = (fallbacks or {}).get(d['opts_var'], '')
    if not isinstance(opts, str):
        raise DaemonError('%s: JVM options as a string are required; got %r' % (d['opts_var'], opts))
    fill = {'home': home, 'conf_dir': conf_dir, 'log_dir': log_dir, 'unit': d['unit']}
    return {'home': home, 'conf_dir': conf_dir, 'log_dir': log_dir, 'heap_mb': heap_mb, 'opts': opts.strip(),
            'classpath': [conf_dir, home + '/lib/*'], 'args': ['%s/%s' % (conf_dir, a) for a in d['java_args']],
            'props': [[k, v.format(**fill)] for k, v in d['java_props']]}


def _user(d, host_vars, fallbacks):
    if 'user_var' in d:
        user = _value(d['user_var'], host_vars, fallbacks)
        if not isinstance(user, str) or not user:
            raise DaemonError('%s: a user name is required (the %s runs as it); got %r' % (d['user_var'], d['name'], user))
        return user
    users = _value('hadoop_users', host_vars, fallbacks)
    if not hasattr(users, 'get') or not users.get(d['account']):
        raise DaemonError('hadoop_users: a user for %r is required (the %s runs as it); got %r'
                          % (d['account'], d['name'], users))
    return users.get(d['account'])


def table(host_vars=None, fallbacks=None):
    """The daemons in restart order, each with its HTTP port and the absolute paths it reads, resolved from
    host_vars (a host's variables) and else fallbacks (the roles' defaults)."""
    layout = _layout(host_vars, fallbacks)
    out = []
    for d in sorted(DAEMONS, key=lambda d: d['order']):
        entry = _static(d)
        entry['port'] = _ports([d['port_var']], host_vars, fallbacks)[0]
        release = _path(d['release_var'], host_vars, fallbacks) if 'release_var' in d else layout['hadoop_install_root']
        files = ['/etc/systemd/system/%s.service' % d['unit'], release + '/current']
        files += ['%s/%s' % (layout['hadoop_conf_dir'], f) for f in d['hadoop_files']]
        if d.get('conf_files'):
            conf_dir = _path(d['conf_var'], host_vars, fallbacks)
            files += ['%s/%s' % (conf_dir, f) for f in d['conf_files']]
        if d['spark_release']:
            files.append(layout['spark_install_root'] + '/current')
        if d['spark_conf']:
            files.append(layout['spark_conf_dir'])
        entry['files'] = files
        out.append(entry)
    return out


def _static(d):
    """A copy of an entry with lists for tuples (as Ansible hands them on)."""
    return dict((k, list(v) if isinstance(v, tuple) else v) for k, v in d.items())


def roles():
    """The roles that run daemons, in the table's order."""
    return list(dict.fromkeys(d['role'] for d in DAEMONS))


def _runs_here(d, host_vars, fallbacks):
    if 'switch_var' in d and not _value(d['switch_var'], host_vars, fallbacks):
        return False
    if 'host_var' in d:
        return _value('inventory_hostname', host_vars, None) == _value(d['host_var'], host_vars, fallbacks)
    return d['group'] in (host_vars.get('group_names') or [])


def role_daemons(role, host_vars, fallbacks=None, runtime=None):
    """A role's daemons in its start order, ready for its unit template: the table's entry with the unit's
    user, its ports (numbers), its HTTP port and whether it runs on this host (enabled), resolved from host_vars
    (the variables the role sees), plus runtime: daemon name -> fields the role decides at run time."""
    if role not in roles():
        raise DaemonError('role: one of %s is required; got %r' % (', '.join(roles()), role))
    if not hasattr(host_vars, 'get'):
        raise DaemonError('the variables must be a mapping (vars); got %r' % (host_vars,))
    runtime = runtime or {}
    if not isinstance(runtime, dict):
        raise DaemonError('runtime: a mapping of daemon name -> fields is required; got %r' % (runtime,))
    mine = [d for d in DAEMONS if d['role'] == role]
    unknown = sorted(set(runtime) - set(d['name'] for d in mine))
    if unknown:
        raise DaemonError('runtime: %s not daemon(s) of the %s role (%s)'
                          % (', '.join(unknown), role, ', '.join(d['name'] for d in mine)))
    out = []
    for d in mine:
        entry = _static(d)
        entry['user'] = _user(d, host_vars, fallbacks)
        if 'java_class' in d:
            entry['java'] = _java(d, host_vars, fallbacks)
        entry['ports'] = _ports(d['port_vars'], host_vars, fallbacks)
        entry['port'] = _ports([d['port_var']], host_vars, fallbacks)[0]
        entry['enabled'] = bool(_runs_here(d, host_vars, fallbacks))
        entry.update(runtime.get(d['name']) or {})
        out.append(entry)
    return out


def daemon_ports(host_vars=None, fallbacks=None):
    """Each daemon's group, unit and every port it binds (sorted), for the preflight check that they are free."""
    return [{'group': d['group'], 'unit': d['unit'],
             'ports': sorted(set(_ports(d['port_vars'] + d['more_ports'], host_vars, fallbacks)))} for d in DAEMONS]


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
