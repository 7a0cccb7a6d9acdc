# shellcheck shell=bash
# Environment for bin/hadoop, bin/hdfs, bin/yarn and bin/mapred; sourced on every command.
# The bigdata.spark roles render their own copy into HADOOP_CONF_DIR. Values set in the
# environment before a command runs are overridden by assignments here, so use the
# ${VAR:-default} form for anything a caller should be able to change.

# Required: the JDK to run (the launchers stop with an error when it is not set).
# export JAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64

# Heap for every daemon and client, in MB when no unit is given (-Xmx / -Xms).
# A -Xmx in a per-daemon variable below wins over these.
# export HADOOP_HEAPSIZE_MAX=1g
# export HADOOP_HEAPSIZE_MIN=

# JVM options for every command, and for client commands only (dfs, dfsadmin, jar, ...).
# export HADOOP_OPTS="${HADOOP_OPTS:-}"
# export HADOOP_CLIENT_OPTS=""

# Per-daemon options, appended after HADOOP_OPTS. Any subcommand has one: <PROGRAM>_<SUBCOMMAND>_OPTS.
# export HDFS_NAMENODE_OPTS="-Xmx1g -XX:+UseG1GC"
# export HDFS_DATANODE_OPTS=""
# export HDFS_SECONDARYNAMENODE_OPTS=""
# export HDFS_JOURNALNODE_OPTS=""
# export YARN_RESOURCEMANAGER_OPTS=""
# export YARN_NODEMANAGER_OPTS=""
# export YARN_PROXYSERVER_OPTS=""
# export YARN_TIMELINESERVER_OPTS=""
# export MAPRED_HISTORYSERVER_OPTS=""

# On Java 9+ the launchers add the --add-opens options Hadoop 3.3 needs (see tools/dist/README.md).
# Replace the list, or set it to "" to add none:
# export HADOOP_JPMS_OPTS="--add-opens=java.base/java.lang=ALL-UNNAMED"

# Extra classpath entries, and whether they go before Hadoop's own jars.
# export HADOOP_CLASSPATH=""
# export HADOOP_USER_CLASSPATH_FIRST=""

# Where daemons write their log files (created when missing), and the name used in them.
# export HADOOP_LOG_DIR=${HADOOP_HOME}/logs
# export HADOOP_IDENT_STRING=$USER

# log4j root logger for clients and for daemons.
# export HADOOP_ROOT_LOGGER=INFO,console
# export HADOOP_DAEMON_ROOT_LOGGER=INFO,RFA
# export HADOOP_SECURITY_LOGGER=INFO,NullAppender
# export HDFS_AUDIT_LOGGER=INFO,NullAppender
