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

import re

from ansible_collections.bigdata.spark.plugins.module_utils.yarn_fixes import FIXES_JAR

HDFS_FILES = ('core-site.xml', 'hdfs-site.xml', 'hadoop-env.sh', 'log4j.properties')
# Secure mode with HA: the JAAS file with which the failover controllers and ResourceManagers log in to ZooKeeper
# (roles/hadoop_common/templates/zookeeper-client-jaas.conf.j2), in Hadoop's configuration directory.
ZK_CLIENT_JAAS = 'zookeeper-client-jaas.conf'
YARN_FILES = ('core-site.xml', 'hdfs-site.xml', 'yarn-site.xml', 'mapred-site.xml', 'capacity-scheduler.xml',
              'hadoop-env.sh', 'log4j.properties')
MAPRED_FILES = ('core-site.xml', 'hdfs-site.xml', 'yarn-site.xml', 'mapred-site.xml', 'hadoop-env.sh',
                'log4j.properties')

# The HDFS daemons' launcher comment: HDFS_STARTUP_OPTS is unset but for one start.
HDFS_EXEC_COMMENT = (
    'The launcher execs java, so systemd supervises the JVM itself. HDFS_STARTUP_OPTS is unset but for one start',
    '(playbooks/hdfs_upgrade.yml\'s rollback sets it in a runtime drop-in): then it adds the startup options.',
)

# Uniffle's launch scripts put Hadoop's jars and configuration on its servers' classpath (HDFS storage types).
UNIFFLE_HADOOP_CLASSPATH = ('{hadoop_conf_dir}', '{hadoop_home}/share/hadoop/common/*',
                            '{hadoop_home}/share/hadoop/common/lib/*', '{hadoop_home}/share/hadoop/hdfs/*',
                            '{hadoop_home}/share/hadoop/hdfs/lib/*')

# The remote shuffle daemons' log4j2 configuration (roles/hadoop/templates/rss-log4j2.xml.j2) and their log file.
RSS_LOG_PROPS = (('log4j2.configurationFile', 'file:{conf_dir}/log4j2.xml'), ('log.path', '{log_dir}/{unit}.log'))

# One entry per daemon, in the order its role starts them (the restart order is `order`):
#   name, role (the role that writes its unit and starts it), group (the inventory group that runs it), unit,
#   kind (master: restarted one host at a time; worker: in batches), order (restart order);
#   runs on: the hosts of `group`, or with host_var the one host that variable names; with switch_var only
#   when that variable is true;
#   the unit: description, account (the hadoop_users key it runs as), after (units it starts after), and
#   command, log_subdir, exec_args, exec_comment (Hadoop's launcher, roles/hadoop/templates/
#   hadoop-daemon.service.j2) or class, args (spark-class, roles/spark/templates/spark-daemon.service.j2) or,
#   for a daemon that is not Hadoop's or Spark's, java_class, java_args (files in its configuration directory),
#   java_props (system properties; {log_dir}, {conf_dir}, {home}, {unit}, {hadoop_home}, {hadoop_conf_dir} are filled
#   in; java_args and java_classpath too: the classpath defaults to its conf_dir and {home}/lib/*) and the variables of its
#   release root (release_var), configuration and log directories (conf_var, log_var), heap in MB (heap_var) and
#   JVM options (opts_var): `java <opts> -D... -cp <conf_dir>:<release_root>/current/lib/* <java_class> <args>`
#   (roles/hadoop/templates/java-daemon.service.j2); user_var instead of account: the variable of its user;
#   port_vars: the variables of the ports it listens on (its role waits for each after a start); more_ports:
#   the other ports it binds (variables, or Hadoop's fixed defaults as numbers; preflight finds them free);
#   port_var: its HTTP port, health: the HTTP path that answers 200 when it is up (secure_health_codes: the statuses
#   that count in secure mode, where a SPNEGO filter may answer first);
#   hadoop_files: the Hadoop configuration files it reads, spark_conf: reads Spark's configuration directory,
#   spark_release: reads Spark's release (the `current` link); with release_var its own release instead of
#   Hadoop's, and conf_files: the files of its configuration directory (conf_var) it reads; release_files: files in
#   the release (under its `current` link) that the roles may add after the release was unpacked;
#   probe: a four-letter word and its answer on port_var instead of an HTTP health path;
#   restart_leader_last: an ensemble whose leader restarts after its followers.
#   secure_java_props: more system properties in secure mode (hadoop_kerberos_enabled), filled in as java_props.
#   restart_rule: the daemon restarts in a pass of its own over its group, one host at a time, before the masters'
#   and workers' passes (RESTART_RULES says how; restart_rules/rule_plan below): leader_last (followers first, the
#   leader last: its restart_leader_last), in_sync (each in sync before the next: after its restart a new edit
#   segment starts and sync_bean, its JMX bean, must reach it), standby_first (the standby first, the active one
#   last; only with more than one host in the group, i.e. HA); state_probe: how to ask its state (a four-letter
#   word on its port_var, or an HTTP path there); failover_first: the active one hands over gracefully before it
#   restarts (hdfs haadmin -failover); restart_with: the daemon restarts in that daemon's pass, after it.
#   principal: its Kerberos service name in secure mode (hadoop_kerberos_enabled, docs/security.md): the host's
#   `<principal>/<host>@REALM` in <hadoop_keytab_dir>/<principal>.service.keytab, owned by its user
#   (kerberos_daemon_plan below);
#   HTTP is the web servers' SPNEGO principal (one keytab per host, read by every Hadoop account).
# A variable's default is its role's (the name's prefix: hadoop_, hdfs_, yarn_, spark_).
DAEMONS = (
    # Hadoop's KMS (hadoop_kms_enabled, docs/security.md): the key provider of HDFS transparent encryption. The
    # NameNode asks it for each new file's encrypted key, clients to decrypt it; one host (group kms) keeps the
    # keys in its keystore. Its own files (kms-site.xml, kms-acls.xml) sit beside Hadoop's.
    {'name': 'kms', 'principal': 'HTTP', 'role': 'hdfs', 'group': 'kms', 'switch_var': 'hadoop_kms_enabled', 'unit': 'hadoop-kms',
     'kind': 'master', 'order': 7, 'description': 'Hadoop KMS', 'account': 'kms', 'after': (),
     'command': 'hadoop kms', 'log_subdir': 'kms',
     'port_vars': ('hadoop_kms_port',), 'more_ports': (), 'port_var': 'hadoop_kms_port',
     # The JMX servlet answers behind the KMS's authentication filter (simple: the user in the query).
     'health': '/jmx?user.name=kms&qry=Hadoop:service=KMS,name=JvmMetrics',
     'hadoop_files': ('core-site.xml', 'kms-site.xml', 'kms-acls.xml', 'kms-log4j.properties', 'hadoop-env.sh'),
     'spark_conf': False, 'spark_release': False},
    # HDFS HA's quorum journal: the NameNodes write their edits to a majority of the JournalNodes, which must be
    # up before a NameNode starts (or is formatted). Restarted one at a time, each in sync before the next.
    {'name': 'journalnode', 'principal': 'jn', 'role': 'hdfs', 'group': 'journalnodes', 'unit': 'hadoop-hdfs-journalnode',
     'kind': 'master', 'order': 8, 'description': 'HDFS JournalNode', 'account': 'hdfs', 'after': (),
     'command': 'hdfs journalnode', 'log_subdir': 'hdfs',
     'port_vars': ('hdfs_journalnode_rpc_port', 'hdfs_journalnode_http_port'), 'more_ports': (),
     'port_var': 'hdfs_journalnode_http_port', 'health': '/jmx?qry=Hadoop:service=JournalNode,name=JournalNodeInfo',
     'restart_rule': 'in_sync', 'sync_bean': 'Hadoop:service=JournalNode,name=Journal-{nameservice}',
     'hadoop_files': HDFS_FILES, 'spark_conf': False, 'spark_release': False},
    {'name': 'namenode', 'principal': 'nn', 'role': 'hdfs', 'group': 'namenode', 'unit': 'hadoop-hdfs-namenode', 'kind': 'master',
     'order': 10, 'description': 'HDFS NameNode', 'account': 'hdfs', 'after': (),
     'command': 'hdfs namenode', 'log_subdir': 'hdfs', 'exec_args': ' $HDFS_STARTUP_OPTS',
     'exec_comment': HDFS_EXEC_COMMENT,
     'port_vars': ('hadoop_namenode_rpc_port', 'hdfs_namenode_http_port'), 'more_ports': (),
     'port_var': 'hdfs_namenode_http_port', 'health': '/jmx?qry=Hadoop:service=NameNode,name=FSNamesystem*',
     'restart_rule': 'standby_first', 'state_probe': '/jmx?qry=Hadoop:service=NameNode,name=NameNodeStatus',
     'failover_first': True,
     'hadoop_files': HDFS_FILES, 'spark_conf': False, 'spark_release': False},
    # The checkpointer of a cluster without HA (a standby NameNode checkpoints with HA): it merges the NameNode's
    # edits into a new fsimage every dfs.namenode.checkpoint.period and uploads it back.
    {'name': 'secondarynamenode', 'principal': 'nn', 'role': 'hdfs', 'group': 'secondarynamenode',
     'host_var': 'hdfs_secondarynamenode_host', 'switch_var': 'hdfs_secondarynamenode_enabled',
     'unit': 'hadoop-hdfs-secondarynamenode', 'kind': 'master', 'order': 15, 'description': 'HDFS SecondaryNameNode',
     'account': 'hdfs', 'after': ('hadoop-hdfs-namenode.service',),
     'command': 'hdfs secondarynamenode', 'log_subdir': 'hdfs',
     'port_vars': ('hdfs_secondarynamenode_http_port',), 'more_ports': (),
     'port_var': 'hdfs_secondarynamenode_http_port',
     'health': '/jmx?qry=Hadoop:service=SecondaryNameNode,name=SecondaryNameNodeInfo',
     'hadoop_files': HDFS_FILES, 'spark_conf': False, 'spark_release': False},
    # HDFS HA: the failover controller beside each NameNode watches it and holds its lock in ZooKeeper; the
    # NameNode whose controller holds the lock is active. Its port (dfs.ha.zkfc.port) takes graceful failovers.
    {'name': 'zkfc', 'principal': 'nn', 'role': 'hdfs', 'group': 'namenode', 'switch_var': 'hdfs_ha_enabled',
     'unit': 'hadoop-hdfs-zkfc', 'kind': 'master', 'order': 12, 'description': 'HDFS ZooKeeper failover controller',
     'account': 'hdfs', 'after': ('hadoop-hdfs-namenode.service',), 'command': 'hdfs zkfc', 'log_subdir': 'hdfs',
     'port_vars': ('hdfs_zkfc_port',), 'more_ports': (), 'port_var': 'hdfs_zkfc_port', 'health': None,
     'restart_with': 'namenode', 'hadoop_files': HDFS_FILES + (ZK_CLIENT_JAAS,), 'spark_conf': False,
     'spark_release': False},
    # 9866: the data transfer port (dfs.datanode.address).
    {'name': 'datanode', 'principal': 'dn', 'role': 'hdfs', 'group': 'datanodes', 'unit': 'hadoop-hdfs-datanode', 'kind': 'worker',
     'order': 50, 'description': 'HDFS DataNode', 'account': 'hdfs', 'after': ('hadoop-hdfs-namenode.service',),
     'command': 'hdfs datanode', 'log_subdir': 'hdfs', 'exec_args': ' $HDFS_STARTUP_OPTS',
     'exec_comment': HDFS_EXEC_COMMENT,
     'port_vars': ('hdfs_datanode_http_port',), 'more_ports': (9866, 'hdfs_datanode_ipc_port'),
     'port_var': 'hdfs_datanode_http_port', 'health': '/jmx?qry=Hadoop:service=DataNode,name=DataNodeInfo',
     'hadoop_files': HDFS_FILES, 'spark_conf': False, 'spark_release': False},
    # 8030, 8031, 8033: the scheduler, resource tracker and admin ports.
    {'name': 'resourcemanager', 'principal': 'rm', 'role': 'yarn', 'group': 'resourcemanager', 'unit': 'hadoop-yarn-resourcemanager',
     'kind': 'master', 'order': 20, 'description': 'YARN ResourceManager', 'account': 'yarn',
     'after': ('hadoop-hdfs-namenode.service',), 'command': 'yarn resourcemanager', 'log_subdir': 'yarn',
     'port_vars': ('yarn_resourcemanager_port', 'yarn_resourcemanager_webapp_port'), 'more_ports': (8030, 8031, 8033),
     # Its JMX, which secure mode leaves open (the REST API asks for SPNEGO): the RMInfo bean's State (active,
     # standby) and the ClusterMetrics bean's NodeManager counts.
     'port_var': 'yarn_resourcemanager_webapp_port', 'health': '/jmx?qry=Hadoop:service=ResourceManager,name=*',
     'restart_rule': 'standby_first', 'state_probe': '/jmx?qry=Hadoop:service=ResourceManager,name=RMInfo',
     'hadoop_files': YARN_FILES + (ZK_CLIENT_JAAS,), 'spark_conf': False, 'spark_release': False,
     # The token tracker fix the yarn role compiles into a Hadoop 3.3 release that lacks it (module_utils/yarn_fixes.py).
     'release_files': (FIXES_JAR,)},
    # The NodeManager loads Spark's YARN shuffle service from Spark's release. 8040: the localizer port.
    {'name': 'nodemanager', 'principal': 'nm', 'role': 'yarn', 'group': 'nodemanagers', 'unit': 'hadoop-yarn-nodemanager',
     'kind': 'worker', 'order': 60, 'description': 'YARN NodeManager', 'account': 'yarn',
     'after': ('hadoop-yarn-resourcemanager.service', 'hadoop-hdfs-datanode.service'),
     'command': 'yarn nodemanager', 'log_subdir': 'yarn',
     'port_vars': ('yarn_nodemanager_port', 'yarn_nodemanager_webapp_port'),
     'more_ports': (8040, 'yarn_spark_shuffle_port'),
     'port_var': 'yarn_nodemanager_webapp_port', 'health': '/jmx?qry=Hadoop:service=NodeManager,name=NodeManagerMetrics',
     'hadoop_files': YARN_FILES, 'spark_conf': False, 'spark_release': True},
    {'name': 'jobhistory', 'principal': 'jhs', 'role': 'yarn', 'group': 'jobhistory', 'host_var': 'yarn_jobhistory_host',
     'unit': 'hadoop-mapred-historyserver', 'kind': 'master', 'order': 30,
     'description': 'MapReduce JobHistory server', 'account': 'mapred',
     'after': ('hadoop-hdfs-namenode.service', 'hadoop-yarn-resourcemanager.service'),
     'command': 'mapred historyserver', 'log_subdir': 'mapred',
     'port_vars': ('yarn_jobhistory_port', 'yarn_jobhistory_webapp_port'), 'more_ports': (),
     'port_var': 'yarn_jobhistory_webapp_port', 'health': '/jmx?qry=Hadoop:service=JobHistoryServer,name=JvmMetrics',
     'hadoop_files': MAPRED_FILES, 'spark_conf': False, 'spark_release': False},
    {'name': 'spark_history', 'principal': 'spark', 'role': 'spark', 'group': 'spark_history', 'host_var': 'spark_history_host',
     'switch_var': 'spark_history_enabled', 'unit': 'spark-history-server', 'kind': 'master', 'order': 40,
     'description': 'Spark History Server', 'account': 'spark', 'after': ('hadoop-hdfs-namenode.service',),
     'class': 'org.apache.spark.deploy.history.HistoryServer', 'args': (),
     'port_vars': ('spark_history_port',), 'more_ports': (),
     'port_var': 'spark_history_port', 'health': '/api/v1/version',
     # Secure mode puts its UI and REST API behind SPNEGO (roles/spark: Hadoop's authentication filter), which lets
     # no path of Spark's through without a ticket (its whitelist takes one-word servlet paths only): there its answer
     # is 401, Negotiate, which the filter gives only once the server's handlers have started.
     'secure_health_codes': (200, 401),
     'hadoop_files': ('core-site.xml', 'hdfs-site.xml'), 'spark_conf': True, 'spark_release': True},
    # The ZooKeeper ensemble (NameNode and ResourceManager HA): restarted before the NameNode (order 5), one host at a
    # time. No HTTP health path: it is up when the client port answers the four-letter word `ruok` with `imok`
    # (probe), and serving when `srvr` reports a Mode. Only the leader binds the quorum port, and a lone server
    # (standalone) no election port, so the role waits for the client port alone. restart_leader_last: a rolling
    # restart must restart the followers first and the leader last, each after the ensemble serves again
    # (restart_rule leader_last: playbooks/restart.yml's pass over the group; the zookeeper role restarts its servers
    # itself that way). Secure mode: its principal zookeeper/<host>, its JAAS file (Server) and Kerberos SASL for every
    # client (roles/zookeeper/vars/main.yml).
    {'name': 'zookeeper', 'principal': 'zookeeper', 'role': 'zookeeper', 'group': 'zookeeper', 'unit': 'zookeeper-server',
     'kind': 'master',
     'order': 5, 'description': 'Apache ZooKeeper server', 'user_var': 'zookeeper_user', 'after': (),
     'java_class': 'org.apache.zookeeper.server.quorum.QuorumPeerMain', 'java_args': ('{conf_dir}/zoo.cfg',),
     'java_props': (('zookeeper.log.dir', '{log_dir}'), ('zookeeper.log.file', '{unit}.log'),
                    ('logback.configurationFile', '{conf_dir}/logback.xml')),
     'secure_java_props': (('java.security.auth.login.config', '{conf_dir}/jaas.conf'),),
     'release_var': 'zookeeper_install_root', 'conf_var': 'zookeeper_conf_dir', 'log_var': 'zookeeper_log_dir',
     'heap_var': 'zookeeper_heap_mb', 'opts_var': 'zookeeper_jvm_opts',
     'port_vars': ('zookeeper_client_port',), 'more_ports': ('zookeeper_quorum_port', 'zookeeper_election_port'),
     'port_var': 'zookeeper_client_port', 'health': None, 'probe': ('ruok', 'imok'), 'restart_leader_last': True,
     'restart_rule': 'leader_last', 'state_probe': 'srvr',
     'conf_files': ('zoo.cfg', 'logback.xml', 'jaas.conf'), 'hadoop_files': (), 'spark_conf': False,
     'spark_release': False},

    # Remote shuffle services (docs/shuffle.md; module_utils/rss.py): Apache Uniffle's coordinators assign each
    # shuffle to shuffle servers, which buffer the pushed blocks on their heap and flush them to the data disks;
    # Apache Celeborn's masters (Raft HA when more than one) do the same for its workers, which keep the blocks off
    # the heap. Their classpaths are the release's jar directories (java_classpath; Uniffle's servers also read
    # Hadoop's jars and configuration, as its launch scripts give them). Restarted before the NodeManagers: a job
    # running through them retries the blocks of a restarting server.
    {'name': 'uniffle_coordinator', 'role': 'uniffle', 'group': 'uniffle_coordinators',
     'unit': 'uniffle-coordinator', 'kind': 'master', 'order': 44, 'description': 'Apache Uniffle coordinator',
     'user_var': 'uniffle_user', 'after': (),
     'java_class': 'org.apache.uniffle.coordinator.CoordinatorServer',
     'java_args': ('--conf', '{conf_dir}/coordinator.conf'),
     'java_classpath': ('{conf_dir}', '{home}/jars/coordinator/*') + UNIFFLE_HADOOP_CLASSPATH,
     'java_props': RSS_LOG_PROPS,
     'release_var': 'uniffle_install_root', 'conf_var': 'uniffle_conf_dir', 'log_var': 'uniffle_log_dir',
     'heap_var': 'uniffle_coordinator_heap_mb', 'opts_var': 'uniffle_jvm_opts',
     'port_vars': ('uniffle_coordinator_rpc_port', 'uniffle_coordinator_http_port'), 'more_ports': (),
     'port_var': 'uniffle_coordinator_http_port', 'health': '/metrics/server',
     'conf_files': ('coordinator.conf', 'log4j2.xml'), 'hadoop_files': (), 'spark_conf': False,
     'spark_release': False},
    {'name': 'uniffle_server', 'role': 'uniffle', 'group': 'uniffle_servers',
     'unit': 'uniffle-shuffle-server', 'kind': 'worker', 'order': 46, 'description': 'Apache Uniffle shuffle server',
     'user_var': 'uniffle_user', 'after': ('uniffle-coordinator.service',),
     'java_class': 'org.apache.uniffle.server.ShuffleServer',
     'java_args': ('--conf', '{conf_dir}/server.conf'),
     'java_classpath': ('{conf_dir}', '{home}/jars/server/*') + UNIFFLE_HADOOP_CLASSPATH,
     'java_props': RSS_LOG_PROPS,
     'release_var': 'uniffle_install_root', 'conf_var': 'uniffle_conf_dir', 'log_var': 'uniffle_log_dir',
     'heap_var': 'uniffle_server_heap_mb', 'opts_var': 'uniffle_jvm_opts',
     'port_vars': ('uniffle_server_rpc_port', 'uniffle_server_http_port'), 'more_ports': (),
     'port_var': 'uniffle_server_http_port', 'health': '/metrics/server',
     'conf_files': ('server.conf', 'log4j2.xml'), 'hadoop_files': (), 'spark_conf': False, 'spark_release': False},
    {'name': 'celeborn_master', 'role': 'celeborn', 'group': 'celeborn_masters',
     'unit': 'celeborn-master', 'kind': 'master', 'order': 45, 'description': 'Apache Celeborn master',
     'user_var': 'celeborn_user', 'after': (),
     'java_class': 'org.apache.celeborn.service.deploy.master.Master', 'java_args': (),
     'java_classpath': ('{conf_dir}', '{home}/master-jars/*'),
     'java_props': RSS_LOG_PROPS,
     'release_var': 'celeborn_install_root', 'conf_var': 'celeborn_conf_dir', 'log_var': 'celeborn_log_dir',
     'heap_var': 'celeborn_master_heap_mb', 'opts_var': 'celeborn_jvm_opts',
     'port_vars': ('celeborn_master_port', 'celeborn_master_http_port'), 'more_ports': ('celeborn_master_ratis_port',),
     'port_var': 'celeborn_master_http_port', 'health': '/conf',
     'conf_files': ('celeborn-defaults.conf', 'log4j2.xml'), 'hadoop_files': (), 'spark_conf': False,
     'spark_release': False},
    {'name': 'celeborn_worker', 'role': 'celeborn', 'group': 'celeborn_workers',
     'unit': 'celeborn-worker', 'kind': 'worker', 'order': 47, 'description': 'Apache Celeborn worker',
     'user_var': 'celeborn_user', 'after': ('celeborn-master.service',),
     'java_class': 'org.apache.celeborn.service.deploy.worker.Worker', 'java_args': (),
     'java_classpath': ('{conf_dir}', '{home}/worker-jars/*'),
     'java_props': RSS_LOG_PROPS,
     'release_var': 'celeborn_install_root', 'conf_var': 'celeborn_conf_dir', 'log_var': 'celeborn_log_dir',
     'heap_var': 'celeborn_worker_heap_mb', 'opts_var': 'celeborn_worker_jvm_opts',
     'port_vars': ('celeborn_worker_rpc_port', 'celeborn_worker_http_port'),
     'more_ports': ('celeborn_worker_push_port', 'celeborn_worker_fetch_port', 'celeborn_worker_replicate_port'),
     'port_var': 'celeborn_worker_http_port', 'health': '/conf',
     'conf_files': ('celeborn-defaults.conf', 'log4j2.xml'), 'hadoop_files': (), 'spark_conf': False,
     'spark_release': False},
)

# TLS (hadoop_tls_enabled, docs/security.md): each web UI's HTTP port variable -> its HTTPS port variable. With TLS
# the UIs serve HTTPS only, so a daemon binds, is waited for and probed on the HTTPS port (scheme https) instead.
TLS_VAR = 'hadoop_tls_enabled'
TLS_PORTS = {
    'hdfs_journalnode_http_port': 'hdfs_journalnode_https_port',
    'hdfs_namenode_http_port': 'hdfs_namenode_https_port',
    'hdfs_secondarynamenode_http_port': 'hdfs_secondarynamenode_https_port',
    'hdfs_datanode_http_port': 'hdfs_datanode_https_port',
    'yarn_resourcemanager_webapp_port': 'yarn_resourcemanager_webapp_https_port',
    'yarn_nodemanager_webapp_port': 'yarn_nodemanager_webapp_https_port',
    'yarn_jobhistory_webapp_port': 'yarn_jobhistory_webapp_https_port',
    # The Spark history server (roles/spark: its own properties file); its HTTP port stays open and redirects.
    'spark_history_port': 'spark_history_https_port',
    # The KMS serves HTTPS on the same port (hadoop_kms_https_port defaults to hadoop_kms_port's 9600).
    'hadoop_kms_port': 'hadoop_kms_https_port',
}
# Where the files live: the variables the restart table reads (their defaults are the roles').
LAYOUT_VARS = ('hadoop_conf_dir', 'hadoop_install_root', 'spark_conf_dir', 'spark_install_root')
# With TLS, what the daemons whose UI turns HTTPS read besides (hadoop_tls_dir; the tls role writes them).
TLS_FILES = ('keystore.p12', 'truststore.p12')
# Secure mode (kerberos_host_plan, kerberos_daemon_plan): the switch, where the keytabs go, the group that reads the SPNEGO keytab, and the
# accounts that get a ticket on every host for the jobs they submit (the smoke jobs run as spark).
KERBEROS_VARS = ('hadoop_kerberos_enabled', 'hadoop_keytab_dir', 'hadoop_group', 'hadoop_kerberos_client_accounts')
SPNEGO = 'HTTP'
# The variables of a daemon that runs java itself (java_class).
JAVA_VARS = ('release_var', 'conf_var', 'log_var', 'heap_var', 'opts_var')


class DaemonError(ValueError):
    """Bad input to a daemon-table function; the message names the value and what is allowed."""


def owner(var):
    """The role whose defaults define a variable (its name's prefix)."""
    return var.split('_', 1)[0]


def variables_read():
    """Every variable the table reads, for loading only those."""
    names = list(LAYOUT_VARS) + ['hadoop_users', TLS_VAR, 'hadoop_tls_dir'] + list(KERBEROS_VARS)
    for d in DAEMONS:
        names += list(d['port_vars']) + [p for p in d['more_ports'] if isinstance(p, str)]
        names += [TLS_PORTS[p] for p in d['port_vars'] if p in TLS_PORTS]
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


def _on(value):
    """A switch's value as a boolean ('true', 'yes', 'on', '1' in any case are true, as Ansible's bool filter reads)."""
    return value.strip().lower() in ('true', 'yes', 'on', '1') if isinstance(value, str) else bool(value)


def _switch(var, host_vars=None, fallbacks=None):
    """A switch variable of a host (off when unset anywhere)."""
    value = host_vars.get(var) if host_vars is not None else None
    if value is None:
        value = (fallbacks or {}).get(var, False)
    return _on(value)


def tls_on(host_vars=None, fallbacks=None):
    """Whether the web UIs serve HTTPS only (hadoop_tls_enabled; off when unset)."""
    return _switch(TLS_VAR, host_vars, fallbacks)


def kerberos_on(host_vars=None, fallbacks=None):
    """Whether the cluster runs in secure mode (hadoop_kerberos_enabled; off when unset)."""
    return _switch('hadoop_kerberos_enabled', host_vars, fallbacks)


def _ports(names, host_vars, fallbacks):
    tls = tls_on(host_vars, fallbacks)
    names = [TLS_PORTS.get(p, p) if tls and isinstance(p, str) else p for p in names]
    return [p if isinstance(p, int) else _port(_value(p, host_vars, fallbacks), p) for p in names]


def _scheme(d, host_vars, fallbacks):
    """How a daemon's port_var answers: https when TLS swaps it for its HTTPS port, else http."""
    return 'https' if d['port_var'] in TLS_PORTS and tls_on(host_vars, fallbacks) else 'http'


def _health_codes(d, host_vars, fallbacks):
    """The HTTP statuses of a daemon's health path that mean it is up: 200, or in secure mode its secure_health_codes
    when it has them (a SPNEGO filter's 401 to a client without a ticket)."""
    if d.get('secure_health_codes') and _switch('hadoop_kerberos_enabled', host_vars, fallbacks):
        return list(d['secure_health_codes'])
    return [200]


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
    layout = _layout(host_vars, fallbacks)
    fill = {'home': home, 'conf_dir': conf_dir, 'log_dir': log_dir, 'unit': d['unit'],
            'hadoop_home': layout['hadoop_install_root'] + '/current', 'hadoop_conf_dir': layout['hadoop_conf_dir']}
    classpath = d.get('java_classpath', ('{conf_dir}', '{home}/lib/*'))
    secure = d.get('secure_java_props', ()) if kerberos_on(host_vars, fallbacks) else ()
    return {'home': home, 'conf_dir': conf_dir, 'log_dir': log_dir, 'heap_mb': heap_mb, 'opts': opts.strip(),
            'classpath': [c.format(**fill) for c in classpath], 'args': [a.format(**fill) for a in d['java_args']],
            'props': [[k, v.format(**fill)] for k, v in d['java_props'] + secure]}


def _user(d, host_vars, fallbacks):
    if 'user_var' in d:
        user = _value(d['user_var'], host_vars, fallbacks)
        if not isinstance(user, str) or not user:
            raise DaemonError('%s: a user name is required (the %s runs as it); got %r' % (d['user_var'], d['name'], user))
        return user
    users = _value('hadoop_users', host_vars, fallbacks)
    if hasattr(users, 'get') and not users.get(d['account']) and 'switch_var' in d \
            and not _value(d['switch_var'], host_vars, fallbacks):
        # A daemon switched off needs no account: hadoop_users written before it existed stays valid.
        return d['account']
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
        entry['scheme'] = _scheme(d, host_vars, fallbacks)
        entry['health_codes'] = _health_codes(d, host_vars, fallbacks)
        release = _path(d['release_var'], host_vars, fallbacks) if 'release_var' in d else layout['hadoop_install_root']
        files = ['/etc/systemd/system/%s.service' % d['unit'], release + '/current']
        files += ['%s/current/%s' % (release, f) for f in d.get('release_files', ())]
        files += ['%s/%s' % (layout['hadoop_conf_dir'], f) for f in d['hadoop_files']]
        if d.get('conf_files'):
            conf_dir = _path(d['conf_var'], host_vars, fallbacks)
            files += ['%s/%s' % (conf_dir, f) for f in d['conf_files']]
        if d['spark_release']:
            files.append(layout['spark_install_root'] + '/current')
        if d['spark_conf']:
            files.append(layout['spark_conf_dir'])
        if entry['scheme'] == 'https':
            files += ['%s/ssl-server.xml' % layout['hadoop_conf_dir']]
            files += ['%s/%s' % (_path('hadoop_tls_dir', host_vars, fallbacks), f) for f in TLS_FILES]
        entry['files'] = files
        out.append(entry)
    return out


def url(name, address='127.0.0.1', host_vars=None, fallbacks=None):
    """A daemon's web address, scheme://address:port (https on its HTTPS port with TLS), for a host's variables."""
    by_name = dict((d['name'], d) for d in DAEMONS)
    if name not in by_name:
        raise DaemonError('daemon: one of %s is required; got %r' % (', '.join(sorted(by_name)), name))
    d = by_name[name]
    if not isinstance(address, str) or not address:
        raise DaemonError('address: a host name or address is required; got %r' % (address,))
    return '%s://%s:%d' % (_scheme(d, host_vars, fallbacks), address, _ports([d['port_var']], host_vars, fallbacks)[0])


class _Override:
    """A host's variables with hadoop_tls_enabled set (read one by one: Ansible's vars template lazily)."""

    def __init__(self, host_vars, tls):
        self._vars, self._tls = host_vars, tls

    def get(self, key, default=None):
        if key == TLS_VAR:
            return self._tls
        return self._vars.get(key, default) if self._vars is not None else default


def tls_transition_problems(listening, host='', host_vars=None, fallbacks=None):
    """The daemons of a host that serve their UI on the other side of hadoop_tls_enabled than it asks (one started
    before TLS was turned on or off: its port is the old one), from the ports the host listens on; empty when none."""
    if not isinstance(listening, (list, tuple, set)):
        raise DaemonError('listening: the ports this host listens on (a list of numbers) are required; got %r' % (listening,))
    ports = set()
    for p in listening:
        try:
            ports.add(int(p))
        except (TypeError, ValueError):
            raise DaemonError('listening: port numbers are required; got %r' % (p,))
    tls = tls_on(host_vars, fallbacks)
    out = []
    for d in DAEMONS:
        if d['port_var'] not in TLS_PORTS:
            continue
        http = _ports([d['port_var']], _Override(host_vars, False), fallbacks)[0]
        https = _ports([d['port_var']], _Override(host_vars, True), fallbacks)[0]
        old, new = (http, https) if tls else (https, http)
        if old in ports and new not in ports:
            out.append('hadoop_tls_enabled: %s, but the %s on %s still serves %s on port %d (it started before TLS was '
                       'turned %s), so the health checks would wait for port %d in vain. Stop the cluster\'s daemons first '
                       '(ansible-playbook playbooks/service.yml -e service_action=stop), then run site.yml again: it '
                       'starts them with the new setting.'
                       % ('true' if tls else 'false', d['description'], host or 'this host', 'plain HTTP' if tls else 'HTTPS',
                          old, 'on' if tls else 'off', new))
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
        entry['scheme'] = _scheme(d, host_vars, fallbacks)
        entry['health_codes'] = _health_codes(d, host_vars, fallbacks)
        entry['enabled'] = bool(_runs_here(d, host_vars, fallbacks))
        entry.update(runtime.get(d['name']) or {})
        out.append(entry)
    return out


def _client_accounts(host_vars, fallbacks):
    clients = _value('hadoop_kerberos_client_accounts', host_vars, fallbacks)
    if not isinstance(clients, (list, tuple)) or not all(isinstance(c, str) for c in clients):
        raise DaemonError('hadoop_kerberos_client_accounts: a list of hadoop_users keys (spark) is required; got %r'
                          % (clients,))
    users = _value('hadoop_users', host_vars, fallbacks)
    unknown = [c for c in clients if not hasattr(users, 'get') or not users.get(c)]
    if unknown:
        raise DaemonError('hadoop_kerberos_client_accounts: %s not key(s) of hadoop_users (%s)'
                          % (', '.join(unknown), ', '.join(sorted(users)) if hasattr(users, 'keys') else users))
    return [(c, users[c]) for c in clients]


def _keytab(name, user, host_vars, fallbacks, mode='0400', file_name=None):
    """A kerberos_principals entry: <name>/_HOST in <hadoop_keytab_dir>/<file_name or <name>.service.keytab>."""
    return {'principal': name + '/_HOST', 'owner': user, 'group': _value('hadoop_group', host_vars, fallbacks),
            'keytab': '%s/%s' % (_path('hadoop_keytab_dir', host_vars, fallbacks), file_name or name + '.service.keytab'),
            'mode': mode}


def kerberos_host_plan(host_vars, fallbacks=None):
    """Secure mode's keytabs of a host before its daemons' (the first play, for the kerberos role): on a host of the
    group hadoop the web servers' HTTP/_HOST in spnego.service.keytab, root:<hadoop_group> 0440 (every Hadoop account
    reads it); each account of hadoop_kerberos_client_accounts its <account>/_HOST in <account>.service.keytab, 0400,
    with a ticket kept from it (the jobs it submits: the smoke jobs run as spark). {principals, tickets}; empty when
    hadoop_kerberos_enabled is off."""
    if not _switch('hadoop_kerberos_enabled', host_vars, fallbacks):
        return {'principals': [], 'tickets': []}
    principals, tickets = [], []
    for account, user in _client_accounts(host_vars, fallbacks):
        entry = _keytab(account, user, host_vars, fallbacks)
        principals.append(entry)
        tickets.append({'user': user, 'keytab': entry['keytab'], 'principal': entry['principal']})
    if 'hadoop' in (host_vars.get('group_names') or []):
        principals.append(_keytab(SPNEGO, 'root', host_vars, fallbacks, '0440', 'spnego.service.keytab'))
    return {'principals': principals, 'tickets': tickets}


def kerberos_host_keytabs(host_vars, fallbacks=None):
    """Every keytab a host of secure mode holds, for the checks before any change (playbooks/validate.yml): its own
    (kerberos_host_plan) and those of the daemons of its inventory groups. Switches and one-host daemons are read by
    group, without the roles' computed defaults (that play runs none of those roles): a host of a daemon's group is
    asked for its keytab. [] when hadoop_kerberos_enabled is off."""
    principals = list(kerberos_host_plan(host_vars, fallbacks)['principals'])
    if not principals:
        return principals
    groups = host_vars.get('group_names') or []
    for d in sorted(DAEMONS, key=lambda d: d['order']):
        if d['group'] in groups and d.get('principal') not in (None, SPNEGO):
            entry = _keytab(d['principal'], _user(d, host_vars, fallbacks), host_vars, fallbacks)
            if entry not in principals:
                principals.append(entry)
    return principals


def kerberos_daemon_plan(entries, host_vars, fallbacks=None):
    """Secure mode's keytabs for a role's daemons on a host (entries: role_daemons): each enabled daemon's
    <principal>/_HOST in <principal>.service.keytab owned by its user, 0400 (the KMS's HTTP principal is the SPNEGO
    keytab's, kerberos_host_plan), and a ticket for each of their accounts from its first keytab, so the roles, the
    day-2 playbooks and the tests run Hadoop's commands as that account. root gets the hdfs account's ticket: it runs
    the roles' HDFS commands as the HDFS superuser (HADOOP_USER_NAME under simple authentication). {principals,
    tickets}; empty when hadoop_kerberos_enabled is off."""
    if not _switch('hadoop_kerberos_enabled', host_vars, fallbacks):
        return {'principals': [], 'tickets': []}
    if not isinstance(entries, (list, tuple)) or not all(hasattr(e, 'get') for e in entries):
        raise DaemonError('the daemons must be role_daemons entries (a list of mappings); got %r' % (entries,))
    principals, tickets = [], {}
    for d in entries:
        if not d.get('enabled') or not d.get('principal') or d['principal'] == SPNEGO:
            continue
        entry = _keytab(d['principal'], d['user'], host_vars, fallbacks)
        if entry not in principals:
            principals.append(entry)
        tickets.setdefault(d['user'], {'user': d['user'], 'keytab': entry['keytab'], 'principal': entry['principal']})
    hdfs = _value('hadoop_users', host_vars, fallbacks).get('hdfs')
    if hdfs in tickets:
        tickets['root'] = dict(tickets[hdfs], user='root')
    return {'principals': principals, 'tickets': [tickets[u] for u in sorted(tickets)]}


def auth_to_local(realm, host_vars, fallbacks=None):
    """hadoop.security.auth_to_local: each service principal of the table (nn/<host>@REALM) becomes its daemon's user,
    a one-part principal of the realm (alice@REALM) its own name; any other principal (a two-part one that is no
    service's, another realm's) matches no rule and is refused. One line, the rules apart by spaces."""
    services = [(d['principal'], _user(d, host_vars, fallbacks)) for d in sorted(DAEMONS, key=lambda d: d['order'])
                if d.get('principal') not in (None, SPNEGO)]
    rules = []
    for name, user in services + _client_accounts(host_vars, fallbacks):
        rule = 'RULE:[2:$1@$0](%s@%s)s/.*/%s/' % (name, re.escape(realm), user)
        if rule not in rules:
            rules.append(rule)
    rules.append('RULE:[1:$1@$0](.*@%s)s/@.*//' % re.escape(realm))
    return ' '.join(rules)


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


def _fsnamesystem(jmx):
    merged = {}
    for bean in jmx['beans']:
        if isinstance(bean, dict) and str(bean.get('name', '')).startswith('Hadoop:service=NameNode,name=FSNamesystem'):
            merged.update(bean)
    return merged


def _ha_state(jmx):
    """A NameNode's HA state from its FSNamesystem bean (tag.HAState: active, standby, ...; '' without an answer)."""
    if not isinstance(jmx, dict) or not isinstance(jmx.get('beans'), list):
        return ''
    return str(_fsnamesystem(jmx).get('tag.HAState', ''))


def hdfs_problems(jmx, expected_datanodes, standby_ok=False):
    """What keeps HDFS from being healthy, from the NameNode's answer to /jmx?qry=...name=FSNamesystem*:
    safe mode, missing or corrupt blocks, fewer live DataNodes than the inventory's less those the NameNode
    counts as decommissioned. An empty list: healthy.

    With HA, jmx is the list of every NameNode's answer: the active one is judged, and none active is a problem.
    standby_ok: a standby NameNode's own answer counts as healthy (the gate waits on each NameNode in turn and
    judges the active one)."""
    if isinstance(jmx, list):
        states = [_ha_state(one) for one in jmx]
        active = [one for one, state in zip(jmx, states) if state == 'active']
        if len(active) != 1:
            return ['%d active NameNode(s), 1 expected (states: %s)'
                    % (len(active), ', '.join(s or 'no answer' for s in states))]
        jmx = active[0]
    elif standby_ok and _ha_state(jmx) == 'standby':
        return []
    expected = _count(expected_datanodes, 'expected_datanodes')
    if not isinstance(jmx, dict) or not isinstance(jmx.get('beans'), list):
        return ['the NameNode gave no JMX answer (is it up?)']
    merged = _fsnamesystem(jmx)
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


def _rm_view(answer):
    """(HA state, cluster metrics) from a ResourceManager's answer: its JMX (/jmx?qry=Hadoop:service=ResourceManager,
    name=*: the RMInfo bean's State and the ClusterMetrics bean, which /jmx serves without a ticket in secure mode) or
    its REST /ws/v1/cluster/metrics (clusterMetrics; a standby answers with a notice). Metrics as activeNodes,
    decommissionedNodes, decommissioningNodes, lostNodes, unhealthyNodes; None when the answer has none."""
    if not isinstance(answer, dict):
        return '', None
    if isinstance(answer.get('clusterMetrics'), dict):
        return '', answer['clusterMetrics']
    beans = answer.get('beans')
    if not isinstance(beans, list):
        return '', None
    state, metrics = '', None
    for bean in beans:
        if not isinstance(bean, dict):
            continue
        name = str(bean.get('name', ''))
        if name.endswith('name=RMInfo'):
            state = str(bean.get('State', '')).lower()
        elif name.endswith('name=ClusterMetrics'):
            metrics = dict((key, bean[jmx]) for key, jmx in (
                ('activeNodes', 'NumActiveNMs'), ('decommissionedNodes', 'NumDecommissionedNMs'),
                ('decommissioningNodes', 'NumDecommissioningNMs'), ('lostNodes', 'NumLostNMs'),
                ('unhealthyNodes', 'NumUnhealthyNMs')) if jmx in bean)
    return state, metrics


def yarn_problems(metrics, expected_nodemanagers, standby_ok=False):
    """What keeps YARN from being healthy, from the ResourceManager's answer (_rm_view: its JMX, or its REST
    /ws/v1/cluster/metrics): fewer active NodeManagers than the inventory's less those the ResourceManager counts as
    decommissioned (or being decommissioned). An empty list: healthy. With HA, metrics is the list of every
    ResourceManager's answer: the active one's is judged. standby_ok: a standby's own answer counts as healthy (the
    gate waits on each ResourceManager in turn)."""
    if isinstance(metrics, list):
        views = [_rm_view(one) for one in metrics]
        # The active one: by its JMX state; over REST only the active one serves metrics.
        serving = [m for state, m in views if isinstance(m, dict) and state in ('', 'active')]
        if not serving:
            return ['no ResourceManager answered active with cluster metrics (%d asked; states: %s)'
                    % (len(metrics), ', '.join(state or 'no answer' for state, _m in views))]
        m = serving[0]
    else:
        state, m = _rm_view(metrics)
        if standby_ok and state == 'standby':
            return []
    expected = _count(expected_nodemanagers, 'expected_nodemanagers')
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


# How a daemon with a restart_rule restarts (playbooks/restart.yml, one play per such daemon, one host at a time):
RESTART_RULES = {
    'leader_last': 'the followers first, the leader last, each serving again before the next',
    'in_sync': 'one at a time, each in sync with the writer (it reached a new edit segment) before the next',
    'standby_first': 'the standby first, the active one last (handing over first with failover_first)',
}
# The states of a daemon that serves: ZooKeeper's modes, the HA states, and `up` (it answers its health path).
SERVING = ('leader', 'follower', 'standalone', 'observer', 'active', 'standby', 'up')
# The state that restarts last under each rule.
_LAST = {'leader_last': 'leader', 'standby_first': 'active', 'in_sync': None}


def restart_rules(host_vars=None, fallbacks=None):
    """The daemons with a restart rule, in restart order: name, group, unit, rule, units (its unit, then those of the
    daemons that restart with it, in restart order), probe (state_probe, else its health path), port (port_var),
    failover_first, and sync_bean with the nameservice filled in."""
    ordered = sorted(DAEMONS, key=lambda d: d['order'])
    out = []
    for d in ordered:
        rule = d.get('restart_rule')
        if rule is None:
            continue
        if rule not in RESTART_RULES:
            raise DaemonError('%s: restart_rule must be one of %s; got %r'
                              % (d['name'], ', '.join(sorted(RESTART_RULES)), rule))
        entry = {'name': d['name'], 'group': d['group'], 'unit': d['unit'], 'rule': rule,
                 'units': [d['unit']] + [w['unit'] for w in ordered if w.get('restart_with') == d['name']],
                 'probe': d.get('state_probe') or d.get('health'),
                 'port': _ports([d['port_var']], host_vars, fallbacks)[0],
                 'scheme': _scheme(d, host_vars, fallbacks),
                 'failover_first': bool(d.get('failover_first'))}
        if d.get('sync_bean'):
            entry['sync_bean'] = d['sync_bean'].format(nameservice=_value('hdfs_nameservice', host_vars, fallbacks))
        out.append(entry)
    return out


def rule_state(probe, answer):
    """A daemon's state from its answer to its probe: a four-letter word's text (ZooKeeper's srvr: leader, follower,
    standalone, observer), or an HTTP answer as parsed JSON: a NameNode's NameNodeStatus bean (State: active,
    standby) or a ResourceManager's RMInfo bean (State: active, standby), a ResourceManager's /ws/v1/cluster/info
    (haState: ACTIVE, STANDBY), else `up` for any JMX answer
    with a bean. '' when there is no (serving) answer."""
    if not probe:
        return ''
    if not str(probe).startswith('/'):
        match = re.search(r'^Mode: (\w+)\s*$', answer if isinstance(answer, str) else '', re.MULTILINE)
        return match.group(1) if match else ''
    if not isinstance(answer, dict):
        return ''
    info = answer.get('clusterInfo')
    if isinstance(info, dict):
        return str(info.get('haState') or '').lower()
    beans = answer.get('beans')
    if isinstance(beans, list) and beans:
        for bean in beans:
            if isinstance(bean, dict) and 'State' in bean and str(bean.get('name', '')).endswith(('NameNodeStatus', 'RMInfo')):
                return str(bean['State']).lower()
        return 'up'
    return ''


def rule_order(rule, hosts, states):
    """The hosts of a rule's pass in the order they restart: those whose state restarts last under the rule (the
    ZooKeeper leader, the active NameNode or ResourceManager) after the others; otherwise the given order."""
    if rule not in RESTART_RULES:
        raise DaemonError('rule: one of %s is required; got %r' % (', '.join(sorted(RESTART_RULES)), rule))
    states = states or {}
    last = _LAST[rule]
    return [h for h in hosts if states.get(h) != last or last is None] + \
        [h for h in hosts if last is not None and states.get(h) == last]


def rule_plan(rules, restart, groups, states=None):
    """The passes of the daemons with a restart rule. rules: restart_rules(); restart: host -> the units it restarts
    (the play's hosts); groups: the inventory's groups; states: daemon name -> host -> state (rule_state).

    A pass exists for a daemon when a host of its group restarts one of its units; standby_first only with more
    than one host in the group (HA; a lone NameNode or ResourceManager restarts with the masters, as without the
    rule). Returns [{name, rule, group, units, hosts (in restart order), states, failover_first, sync_bean}]."""
    if not hasattr(restart, 'get') or not hasattr(groups, 'get'):
        raise DaemonError('restart and groups must be mappings (host -> units, group -> hosts); got %r, %r'
                          % (restart, groups))
    states = states or {}
    out = []
    for r in rules:
        group = list(groups.get(r['group']) or [])
        if r['rule'] == 'standby_first' and len(group) < 2:
            continue
        hosts = [h for h in group if set(r['units']) & set(restart.get(h) or ())]
        if not hosts:
            continue
        mine = dict((h, s) for h, s in (states.get(r['name']) or {}).items() if h in group)
        step = dict(r)
        step.update({'hosts': rule_order(r['rule'], hosts, mine), 'states': mine})
        out.append(step)
    return out


def rolled_txid(output):
    """The first transaction id of the new edit segment from `hdfs dfsadmin -rollEdits` ('New segment starts at
    txid N'); None when the output does not say."""
    match = re.search(r'New segment starts at txid (\d+)', output if isinstance(output, str) else '')
    return int(match.group(1)) if match else None


def journal_sync_problems(jmx, bean, txid):
    """Why a JournalNode is not yet in sync with the writer, from its answer to /jmx?qry=<bean>: no bean yet (it has
    not heard from the writer since it started), its last written transaction before txid (the first of the segment
    started after its restart), or transactions it lags. An empty list: in sync."""
    if txid is None or isinstance(txid, bool):
        return ['no new edit segment to wait for (dfsadmin -rollEdits did not say where it starts)']
    beans = jmx.get('beans') if isinstance(jmx, dict) else None
    found = [b for b in beans or [] if isinstance(b, dict) and b.get('name') == bean]
    if not found:
        return ['%s: no such bean yet (the JournalNode has not written since it started)' % bean]
    b = found[0]
    problems = []
    try:
        last = int(b.get('LastWrittenTxId'))
    except (TypeError, ValueError):
        return ['%s: no LastWrittenTxId' % bean]
    if last < int(txid):
        problems.append('last written transaction %d, the new segment starts at %d' % (last, int(txid)))
    lag = b.get('CurrentLagTxns')
    if lag not in (None, '') and int(lag) > 0:
        problems.append('%d transaction(s) behind the writer' % int(lag))
    return problems


# playbooks/service.yml: what it does, and the names it takes besides the daemons' own (a service is the daemons of
# its role: hdfs, yarn, spark, zookeeper).
SERVICE_ACTIONS = ('status', 'start', 'stop', 'restart')


def service_selection(names, action):
    """The daemons a service operation acts on, in the order it acts: status and start in the table's order
    (ZooKeeper, JournalNodes, NameNodes ... NodeManagers), stop in the reverse order. names: daemon names (the
    table's `name`) or services (`all` or a role: hdfs, yarn, spark, zookeeper), a list or one comma-separated
    string. Each entry: name, unit, role, group, order, kind. Unknown names and actions raise DaemonError naming
    what is allowed."""
    if action not in SERVICE_ACTIONS:
        raise DaemonError('service_action: %r. Allowed: %s' % (action, ', '.join(SERVICE_ACTIONS)))
    if isinstance(names, str):
        names = [n.strip() for n in names.split(',') if n.strip()]
    if not isinstance(names, (list, tuple)) or not names or not all(isinstance(n, str) for n in names):
        raise DaemonError('service_daemons: %r. Allowed: a non-empty list of daemon or service names' % (names,))
    by_name = dict((d['name'], d) for d in DAEMONS)
    services = ['all'] + roles()
    unknown = [n for n in names if n not in by_name and n not in services]
    if unknown:
        raise DaemonError('service_daemons: %s unknown. Allowed: the services %s, or the daemons %s'
                          % (', '.join(repr(n) for n in unknown), ', '.join(services),
                             ', '.join(d['name'] for d in sorted(DAEMONS, key=lambda d: d['order']))))
    chosen = set()
    for n in names:
        if n == 'all':
            chosen.update(by_name)
        elif n in by_name:
            chosen.add(n)
        else:
            chosen.update(d['name'] for d in DAEMONS if d['role'] == n)
    out = [dict((k, by_name[n][k]) for k in ('name', 'unit', 'role', 'group', 'order', 'kind'))
           for n in sorted(chosen, key=lambda n: by_name[n]['order'])]
    return list(reversed(out)) if action == 'stop' else out


STATUS_FIELDS = ('unit', 'enabled', 'state', 'uptime_s', 'release')
STATUS_COLUMNS = ('host', 'daemon', 'state', 'release', 'uptime', 'ui', 'health')


def daemon_status(lines):
    """playbooks/files/daemon_status.sh's lines (unit, enabled, state, seconds since start, releases; tab-separated)
    as dicts; uptime_s is a number or None."""
    out = []
    for line in lines:
        if not line.strip():
            continue
        fields = line.rstrip('\n').split('\t')
        if len(fields) != len(STATUS_FIELDS):
            raise DaemonError('daemon_status: %r has %d fields; expected %d (%s)'
                              % (line, len(fields), len(STATUS_FIELDS), ', '.join(STATUS_FIELDS)))
        row = dict(zip(STATUS_FIELDS, fields))
        row['uptime_s'] = int(row['uptime_s']) if row['uptime_s'].isdigit() else None
        out.append(row)
    return out


def uptime(seconds):
    """A duration for people: 45s, 12m 03s, 5h 02m, 3d 4h; '-' for None."""
    if seconds is None:
        return '-'
    seconds = int(seconds)
    if seconds < 60:
        return '%ds' % seconds
    if seconds < 3600:
        return '%dm %02ds' % divmod(seconds, 60)
    if seconds < 86400:
        return '%dh %02dm' % (seconds // 3600, seconds % 3600 // 60)
    return '%dd %dh' % (seconds // 86400, seconds % 86400 // 3600)


def status_table(rows, fmt='text'):
    """The status rows (dicts with STATUS_COLUMNS) as lines, a header first, sorted by the table's daemon order then
    host: aligned text (fmt 'text') or tab-separated (fmt 'tsv')."""
    if fmt not in ('text', 'tsv'):
        raise DaemonError("status_table: fmt %r. Allowed: text, tsv" % (fmt,))
    if not isinstance(rows, (list, tuple)) or not all(isinstance(r, dict) for r in rows):
        raise DaemonError('status_table: a list of rows (dicts with %s) is required' % ', '.join(STATUS_COLUMNS))
    order = dict((d['name'], d['order']) for d in DAEMONS)
    rows = sorted(rows, key=lambda r: (order.get(r.get('daemon'), 999), str(r.get('host'))))
    cells = [list(STATUS_COLUMNS)] + [[str(r.get(c, '-')) for c in STATUS_COLUMNS] for r in rows]
    if fmt == 'tsv':
        return ['\t'.join(row) for row in cells]
    widths = [max(len(row[i]) for row in cells) for i in range(len(STATUS_COLUMNS))]
    return ['  '.join(cell.ljust(widths[i]) for i, cell in enumerate(row)).rstrip() for row in cells]


def _answers(results, words=False):
    """unit (or (unit, word)) -> a registered loop result, from the results whose item is a table entry (or an
    [entry, word] pair); skipped results are left out."""
    out = {}
    for r in results or []:
        if not isinstance(r, dict) or r.get('skipped'):
            continue
        item = r.get('item')
        if words:
            if isinstance(item, (list, tuple)) and len(item) == 2 and isinstance(item[0], dict):
                out[(item[0].get('unit'), item[1])] = r
        elif isinstance(item, dict):
            out[item.get('unit')] = r
    return out


def status_rows(host, address, status, entries, answers):
    """The status table's rows of one host (playbooks/service.yml): one per unit of `status` (daemon_status dicts,
    the host's enabled units) with the daemon's name, state, release, uptime, UI link and health.

    entries: the host's daemon_table; answers: the registered loop results of the checks, by kind: `health` (uri of
    each running daemon's health path: its status, -1 for no answer), `state` (uri of its HTTP state_probe: json),
    `words` (ZooKeeper's four-letter words, items [entry, word]: stdout), `ports` (a connection to the port of a
    daemon with neither: rc 0 when open). Health: ok, or what failed; with a state probe the state follows (with HA
    active or standby; ZooKeeper leader or follower, rule_state). A daemon that does not run has no health."""
    if not isinstance(answers, dict):
        raise DaemonError('status_rows: answers must be a mapping of health, state, words, ports -> loop results')
    health_of, state_of = _answers(answers.get('health')), _answers(answers.get('state'))
    words, ports = _answers(answers.get('words'), words=True), _answers(answers.get('ports'))
    by_unit = dict((e['unit'], e) for e in entries)
    rows = []
    for st in status:
        entry = by_unit.get(st['unit'])
        if entry is None:
            raise DaemonError('status_rows: %s is not in the daemon table' % st['unit'])
        unit, health = st['unit'], '-'
        if st['state'] == 'active':
            if entry.get('probe'):
                word, wanted = entry['probe']
                said = str((words.get((unit, word)) or {}).get('stdout', '')).strip()
                health = 'ok' if said == wanted else 'no %s to %s' % (wanted, word)
            elif entry.get('health'):
                code = (health_of.get(unit) or {}).get('status', -1)
                health = ('ok' if code in (entry.get('health_codes') or [200])
                          else ('no answer' if code in (None, -1) else 'HTTP %s' % code))
            else:
                health = 'ok (port open)' if (ports.get(unit) or {}).get('rc') == 0 else 'port %s closed' % entry['port']
            probe = entry.get('state_probe')
            if probe:
                answer = ((state_of.get(unit) or {}).get('json') if str(probe).startswith('/')
                          else (words.get((unit, probe)) or {}).get('stdout', ''))
                state = rule_state(probe, answer)
                if state and state != 'up':
                    health += ' (%s)' % state
        link = '%s:%s' % (address, entry['port'])
        rows.append({'host': host, 'daemon': entry['name'], 'state': st['state'], 'release': st['release'],
                     'uptime': uptime(st['uptime_s']),
                     'ui': ('%s://%s/' % (entry.get('scheme', 'http'), link)) if entry.get('health') else link,
                     'health': health})
    return rows


def ui_links(entries, active, address):
    """'description: scheme://address:port/' for each daemon of a host's table that has a web UI (a health path) and is
    active; active: `systemctl is-active UNIT...`'s lines for the table's units, in the table's order."""
    if not isinstance(active, (list, tuple)) or len(active) != len(entries):
        raise DaemonError('ui_links: one `systemctl is-active` line per unit of the table is required (%d units, %r)'
                          % (len(entries), active))
    return ['%s: %s://%s:%s/' % (e['description'], e.get('scheme', 'http'), address, e['port'])
            for e, state in zip(entries, active) if state == 'active' and e.get('health')]
