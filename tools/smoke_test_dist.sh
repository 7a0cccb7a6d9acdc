#!/usr/bin/env bash
# Smoke test of the built distributions on this host, loopback only.
#
# Unpacks artifacts/hadoop-*.tar.gz and artifacts/spark-*-bin-hadoop3.tgz into a temporary
# directory, writes a pseudo-distributed configuration (every address on 127.0.0.1, free ports),
# starts NameNode, DataNode, ResourceManager, NodeManager (aux services mapreduce_shuffle and
# spark_shuffle) and the JobHistory server with the distribution's own launchers, then checks:
# an HDFS round trip, dfsadmin -report, yarn node -list, MapReduce pi on YARN, and a PySpark job on
# YARN in client mode (with the external shuffle service and dynamic allocation) and cluster mode.
# Every daemon is stopped and the directory removed on exit, whatever happens.
#
# Usage: tools/smoke_test_dist.sh [--artifacts DIR] [--keep] [--java-home DIR]
#   MR_AM_JAVA_OPTS    extra options for the MapReduce AM (default: the Java 17 minimum below)
#   MR_TASK_JAVA_OPTS  extra options for map and reduce tasks (default: none)
#   HADOOP_JPMS_OPTS   passed on to the launchers (see tools/dist/README.md)
#   SMOKE_TIMEOUT    seconds to wait for each daemon or job state (default 180)

set -euo pipefail

repo_root=$(cd -P -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd -P)
artifacts="${repo_root}/artifacts"
keep=no
java_home=${JAVA_HOME:-}
timeout=${SMOKE_TIMEOUT:-180}
# The only module opening MapReduce 3.3.6 containers need on Java 17: the MRAppMaster web app
# (Guice) defines classes through java.lang.ClassLoader. Map and reduce tasks need none.
mr_am_java_opts=${MR_AM_JAVA_OPTS---add-opens=java.base/java.lang=ALL-UNNAMED}
mr_task_java_opts=${MR_TASK_JAVA_OPTS-}

while [[ $# -gt 0 ]]; do
  case "$1" in
    --artifacts) artifacts=$2; shift 2 ;;
    --keep) keep=yes; shift ;;
    --java-home) java_home=$2; shift 2 ;;
    -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done

if [[ -z "${java_home}" ]]; then
  java_home=$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")
fi
shopt -s nullglob
found=("${artifacts}"/hadoop-*.tar.gz)
hadoop_tgz=${found[0]:-}
found=("${artifacts}"/spark-*-bin-hadoop3.tgz)
spark_tgz=${found[0]:-}
shopt -u nullglob
if [[ -z "${hadoop_tgz}" || -z "${spark_tgz}" ]]; then
  echo "no tarballs in ${artifacts}: run tools/build_dist.py first" >&2
  exit 2
fi

work=$(mktemp -d /tmp/bd-smoke.XXXXXX)
pids=()
passed=0
failed=0
start_all=$(date +%s)

cleanup() {
  local rc=$?
  local pid
  for pid in "${pids[@]}"; do
    kill -TERM "${pid}" 2>/dev/null || true
  done
  for pid in "${pids[@]}"; do
    for _ in $(seq 1 30); do
      kill -0 "${pid}" 2>/dev/null || break
      sleep 1
    done
    kill -KILL "${pid}" 2>/dev/null || true
  done
  if [[ "${keep}" == yes ]]; then
    echo "kept ${work}"
  else
    rm -rf -- "${work}"
  fi
  exit "${rc}"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

say() { printf '[%4ds] %s\n' "$(( $(date +%s) - start_all ))" "$*"; }
pass() { passed=$((passed + 1)); say "PASS $*"; }
fail() { failed=$((failed + 1)); say "FAIL $*"; }

say "unpacking into ${work}"
tar -xzf "${hadoop_tgz}" -C "${work}"
tar -xzf "${spark_tgz}" -C "${work}"
HADOOP_HOME=$(ls -d "${work}"/hadoop-*/)
HADOOP_HOME=${HADOOP_HOME%/}
SPARK_HOME=$(ls -d "${work}"/spark-*-bin-hadoop3/)
SPARK_HOME=${SPARK_HOME%/}
shuffle_jar=$(ls "${SPARK_HOME}"/yarn/spark-*-yarn-shuffle.jar)
conf="${work}/conf"
mkdir -p "${conf}" "${work}/logs" "${work}/nn" "${work}/dn" "${work}/nm-local" "${work}/nm-logs" "${work}/tmp"

# Free loopback ports for every listener.
read -r -a ports <<< "$(python3 - <<'EOF'
import socket
socks = []
for _ in range(20):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    socks.append(s)
print(" ".join(str(s.getsockname()[1]) for s in socks))
EOF
)"
p_nn=${ports[0]} p_nn_http=${ports[1]} p_dn=${ports[2]} p_dn_http=${ports[3]} p_dn_ipc=${ports[4]}
p_rm=${ports[5]} p_rm_sched=${ports[6]} p_rm_track=${ports[7]} p_rm_admin=${ports[8]} p_rm_web=${ports[9]}
p_nm=${ports[10]} p_nm_loc=${ports[11]} p_nm_web=${ports[12]} p_mr_shuffle=${ports[13]}
p_spark_shuffle=${ports[14]} p_jhs=${ports[15]} p_jhs_web=${ports[16]} p_jhs_admin=${ports[17]}
p_snn_http=${ports[18]} p_proxy=${ports[19]}

site() {
  local file=$1
  shift
  {
    echo '<?xml version="1.0" encoding="UTF-8"?>'
    echo '<configuration>'
    while [[ $# -gt 0 ]]; do
      printf '  <property><name>%s</name><value>%s</value></property>\n' "$1" "$2"
      shift 2
    done
    echo '</configuration>'
  } > "${conf}/${file}"
}

cp "${HADOOP_HOME}/etc/hadoop/log4j.properties" "${HADOOP_HOME}/etc/hadoop/capacity-scheduler.xml" "${conf}/"
sed -i 's|<value>0.1</value>|<value>0.5</value>|' "${conf}/capacity-scheduler.xml"
site core-site.xml \
  fs.defaultFS "hdfs://127.0.0.1:${p_nn}" \
  hadoop.tmp.dir "${work}/tmp"
site hdfs-site.xml \
  dfs.replication 1 \
  dfs.namenode.name.dir "${work}/nn" \
  dfs.datanode.data.dir "${work}/dn" \
  dfs.namenode.http-address "127.0.0.1:${p_nn_http}" \
  dfs.namenode.secondary.http-address "127.0.0.1:${p_snn_http}" \
  dfs.datanode.address "127.0.0.1:${p_dn}" \
  dfs.datanode.http.address "127.0.0.1:${p_dn_http}" \
  dfs.datanode.ipc.address "127.0.0.1:${p_dn_ipc}" \
  dfs.datanode.hostname 127.0.0.1
site yarn-site.xml \
  yarn.resourcemanager.hostname 127.0.0.1 \
  yarn.resourcemanager.address "127.0.0.1:${p_rm}" \
  yarn.resourcemanager.scheduler.address "127.0.0.1:${p_rm_sched}" \
  yarn.resourcemanager.resource-tracker.address "127.0.0.1:${p_rm_track}" \
  yarn.resourcemanager.admin.address "127.0.0.1:${p_rm_admin}" \
  yarn.resourcemanager.webapp.address "127.0.0.1:${p_rm_web}" \
  yarn.web-proxy.address "127.0.0.1:${p_proxy}" \
  yarn.nodemanager.hostname 127.0.0.1 \
  yarn.nodemanager.address "127.0.0.1:${p_nm}" \
  yarn.nodemanager.localizer.address "127.0.0.1:${p_nm_loc}" \
  yarn.nodemanager.webapp.address "127.0.0.1:${p_nm_web}" \
  yarn.nodemanager.local-dirs "${work}/nm-local" \
  yarn.nodemanager.log-dirs "${work}/nm-logs" \
  yarn.nodemanager.resource.memory-mb 5120 \
  yarn.nodemanager.resource.cpu-vcores 4 \
  yarn.scheduler.minimum-allocation-mb 256 \
  yarn.scheduler.maximum-allocation-mb 2048 \
  yarn.nodemanager.vmem-check-enabled false \
  yarn.nodemanager.aux-services mapreduce_shuffle,spark_shuffle \
  yarn.nodemanager.aux-services.mapreduce_shuffle.class org.apache.hadoop.mapred.ShuffleHandler \
  yarn.nodemanager.aux-services.spark_shuffle.class org.apache.spark.network.yarn.YarnShuffleService \
  mapreduce.shuffle.port "${p_mr_shuffle}" \
  spark.shuffle.service.port "${p_spark_shuffle}" \
  yarn.nodemanager.env-whitelist JAVA_HOME,HADOOP_COMMON_HOME,HADOOP_HDFS_HOME,HADOOP_CONF_DIR,CLASSPATH_PREPEND_DISTCACHE,HADOOP_YARN_HOME,HADOOP_HOME,HADOOP_MAPRED_HOME,PATH,LANG,TZ \
  yarn.log-aggregation-enable true \
  yarn.nodemanager.remote-app-log-dir /tmp/app-logs \
  yarn.log.server.url "http://127.0.0.1:${p_jhs_web}/jobhistory/logs"
site mapred-site.xml \
  mapreduce.framework.name yarn \
  mapreduce.jobhistory.address "127.0.0.1:${p_jhs}" \
  mapreduce.jobhistory.webapp.address "127.0.0.1:${p_jhs_web}" \
  mapreduce.jobhistory.admin.address "127.0.0.1:${p_jhs_admin}" \
  yarn.app.mapreduce.am.env "HADOOP_MAPRED_HOME=${HADOOP_HOME}" \
  mapreduce.map.env "HADOOP_MAPRED_HOME=${HADOOP_HOME}" \
  mapreduce.reduce.env "HADOOP_MAPRED_HOME=${HADOOP_HOME}" \
  yarn.app.mapreduce.am.resource.mb 512 \
  yarn.app.mapreduce.am.command-opts "-Xmx400m ${mr_am_java_opts}" \
  mapreduce.map.memory.mb 384 \
  mapreduce.map.java.opts "-Xmx300m ${mr_task_java_opts}" \
  mapreduce.reduce.memory.mb 384 \
  mapreduce.reduce.java.opts "-Xmx300m ${mr_task_java_opts}"
cat > "${conf}/hadoop-env.sh" <<EOF
export JAVA_HOME=${java_home}
export HADOOP_LOG_DIR=${work}/logs
export HADOOP_HEAPSIZE_MAX=\${HADOOP_HEAPSIZE_MAX:-384m}
EOF

export HADOOP_CONF_DIR="${conf}" JAVA_HOME="${java_home}"
unset HADOOP_HOME_WARN_SUPPRESS HADOOP_CLASSPATH HADOOP_OPTS
H="${HADOOP_HOME}/bin"

start_daemon() {
  local name=$1
  shift
  "$@" > "${work}/logs/${name}.out" 2>&1 &
  pids+=("$!")
  say "started ${name} (pid $!)"
}

# Wait until "$@" succeeds, at most $timeout seconds.
wait_for() {
  local what=$1
  shift
  local t0
  t0=$(date +%s)
  until "$@" > /dev/null 2>&1; do
    if (( $(date +%s) - t0 > timeout )); then
      fail "${what}: not ready after ${timeout}s"
      return 1
    fi
    sleep 2
  done
  pass "${what} ($(( $(date +%s) - t0 ))s)"
}

jmx() {
  curl -sf "http://127.0.0.1:$1/jmx?qry=$2"
}

live_datanodes() {
  jmx "${p_nn_http}" 'Hadoop:service=NameNode,name=FSNamesystemState' | grep -q '"NumLiveDataNodes" : 1'
}

running_nodemanagers() {
  curl -sf "http://127.0.0.1:${p_rm_web}/ws/v1/cluster/metrics" | grep -q '"activeNodes":1'
}

dump_logs() {
  local f
  for f in "${work}"/logs/*.out "${work}"/logs/*.log; do
    [[ -f "${f}" ]] || continue
    echo "----- ${f} (tail)"
    tail -n 25 "${f}"
  done
}

say "java: $("${java_home}/bin/java" -version 2>&1 | head -n 1)"
t0=$(date +%s)
if "${H}/hdfs" namenode -format -nonInteractive > "${work}/logs/format.out" 2>&1; then
  pass "hdfs namenode -format ($(( $(date +%s) - t0 ))s)"
else
  fail "hdfs namenode -format"; tail -n 30 "${work}/logs/format.out"; exit 1
fi

start_daemon namenode "${H}/hdfs" namenode
start_daemon datanode "${H}/hdfs" datanode
start_daemon resourcemanager "${H}/yarn" resourcemanager
# The NodeManager alone gets the Spark shuffle jar on its classpath.
start_daemon nodemanager env HADOOP_CLASSPATH="${shuffle_jar}" "${H}/yarn" nodemanager
start_daemon historyserver "${H}/mapred" historyserver

wait_for "NameNode web UI answers" curl -sf "http://127.0.0.1:${p_nn_http}/dfshealth.html" || { dump_logs; exit 1; }
wait_for "DataNode registered" live_datanodes || { dump_logs; exit 1; }
wait_for "safe mode off" "${H}/hdfs" dfsadmin -safemode wait || { dump_logs; exit 1; }
wait_for "ResourceManager web UI answers" curl -sf "http://127.0.0.1:${p_rm_web}/cluster" || { dump_logs; exit 1; }
wait_for "NodeManager registered" running_nodemanagers || { dump_logs; exit 1; }
wait_for "JobHistory web UI answers" curl -sf "http://127.0.0.1:${p_jhs_web}/ws/v1/history/info" || { dump_logs; exit 1; }

if grep -q 'Started YARN shuffle service' "${work}"/logs/hadoop-*-nodemanager-*.log; then
  pass "NodeManager started the spark_shuffle aux service: $(grep -o 'Started YARN shuffle service[^.]*' "${work}"/logs/hadoop-*-nodemanager-*.log | head -n 1)"
else
  fail "NodeManager did not log the start of the spark_shuffle aux service"
fi

# HDFS round trip.
head -c 3000000 /dev/urandom > "${work}/sample.bin"
"${H}/hdfs" dfs -mkdir -p /tmp /user/"$(id -un)" /tmp/app-logs /spark-history
"${H}/hdfs" dfs -chmod 1777 /tmp /tmp/app-logs
"${H}/hdfs" dfs -put -f "${work}/sample.bin" /tmp/sample.bin
if [[ "$("${H}/hdfs" dfs -cat /tmp/sample.bin | sha256sum)" == "$(sha256sum < "${work}/sample.bin")" ]]; then
  pass "hdfs dfs -put/-cat round trip (3 MB, same sha256)"
else
  fail "hdfs dfs -cat returned different bytes"
fi
report=$("${H}/hdfs" dfsadmin -report 2>/dev/null)
if grep -q 'Live datanodes (1)' <<< "${report}"; then
  pass "hdfs dfsadmin -report: $(grep -m1 'Live datanodes' <<< "${report}")"
else
  fail "hdfs dfsadmin -report"; echo "${report}"
fi
nodes=$("${H}/yarn" node -list 2>/dev/null)
if grep -q 'RUNNING' <<< "${nodes}"; then
  pass "yarn node -list: $(grep -m1 'Total Nodes' <<< "${nodes}")"
else
  fail "yarn node -list"; echo "${nodes}"
fi
if [[ "$("${H}/hdfs" getconf -confKey fs.defaultFS 2>/dev/null)" == "hdfs://127.0.0.1:${p_nn}" ]]; then
  pass "hdfs getconf -confKey fs.defaultFS"
else
  fail "hdfs getconf"
fi

# MapReduce on YARN.
t0=$(date +%s)
if "${H}/hadoop" jar "${HADOOP_HOME}"/share/hadoop/mapreduce/hadoop-mapreduce-examples-*.jar pi 2 10 \
    > "${work}/logs/pi.out" 2>&1 && grep -q 'Estimated value of Pi is 3.8' "${work}/logs/pi.out"; then
  pass "MapReduce pi 2 10 on YARN: $(grep 'Estimated value' "${work}/logs/pi.out") ($(( $(date +%s) - t0 ))s)"
else
  fail "MapReduce pi 2 10"; tail -n 40 "${work}/logs/pi.out"
fi
if curl -sf "http://127.0.0.1:${p_jhs_web}/ws/v1/history/mapreduce/jobs" | grep -q '"state":"SUCCEEDED"'; then
  pass "JobHistory server lists the pi job as SUCCEEDED"
else
  fail "JobHistory server does not list the pi job"
fi
mr_app=$(grep -o 'application_[0-9]*_[0-9]*' "${work}/logs/pi.out" | head -n 1 || true)
sleep 3
if [[ -n "${mr_app}" ]] && "${H}/yarn" logs -applicationId "${mr_app}" 2>/dev/null \
    | grep -q 'INFO \[main\] org.apache.hadoop.mapreduce.v2.app.MRAppMaster'; then
  pass "yarn logs shows the MapReduce AM's syslog (container log4j works)"
else
  fail "no MRAppMaster syslog in yarn logs for ${mr_app:-the pi job}"
fi

# PySpark on YARN.
cat > "${work}/pi_check.py" <<'EOF'
from pyspark.sql import SparkSession
spark = SparkSession.builder.appName("smoke-dist").getOrCreate()
sc = spark.sparkContext
total = sc.parallelize(range(1, 100001), 4).sum()
# A shuffle, served by the external shuffle service when it is enabled.
groups = dict(sc.parallelize(range(1000), 4).map(lambda x: (x % 3, 1)).reduceByKey(lambda a, b: a + b).collect())
print("SMOKE RESULT sum=%d groups=%s" % (total, sorted(groups.items())))
spark.stop()
EOF
expected='SMOKE RESULT sum=5000050000 groups=[(0, 334), (1, 333), (2, 333)]'
python3 - "${SPARK_HOME}/jars" "${work}/spark-libs.zip" <<'EOF'
import os, sys, zipfile
src, dest = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(dest, "w", zipfile.ZIP_STORED, strict_timestamps=False) as z:
    for name in sorted(os.listdir(src)):
        z.write(os.path.join(src, name), name)
EOF
"${H}/hdfs" dfs -mkdir -p /apps/spark
"${H}/hdfs" dfs -put -f "${work}/spark-libs.zip" /apps/spark/spark-libs.zip
py=$(command -v python3)
[[ -x /usr/bin/python3 ]] && py=/usr/bin/python3
spark_common=(
  --master yarn
  --conf spark.yarn.archive="hdfs://127.0.0.1:${p_nn}/apps/spark/spark-libs.zip"
  --conf spark.pyspark.python="${py}"
  --conf spark.driver.memory=512m
  --conf spark.executor.memory=512m
  --conf spark.executor.memoryOverhead=256m
  --conf spark.yarn.am.memory=512m
  --conf spark.yarn.am.memoryOverhead=256m
  --conf spark.driver.memoryOverhead=256m
  --conf spark.executor.cores=1
  --conf spark.eventLog.enabled=true
  --conf spark.eventLog.dir="hdfs://127.0.0.1:${p_nn}/spark-history"
)
t0=$(date +%s)
if "${SPARK_HOME}/bin/spark-submit" "${spark_common[@]}" --deploy-mode client \
    --conf spark.shuffle.service.enabled=true --conf spark.shuffle.service.port="${p_spark_shuffle}" \
    --conf spark.dynamicAllocation.enabled=true --conf spark.dynamicAllocation.maxExecutors=2 \
    "${work}/pi_check.py" > "${work}/logs/spark-client.out" 2>&1 \
    && grep -qF "${expected}" "${work}/logs/spark-client.out"; then
  pass "spark-submit --master yarn --deploy-mode client (dynamic allocation + external shuffle service) ($(( $(date +%s) - t0 ))s)"
else
  fail "spark-submit client mode"; tail -n 40 "${work}/logs/spark-client.out"
fi
if grep -q 'Registered executor' "${work}"/logs/hadoop-*-nodemanager-*.log; then
  pass "executors registered with the NodeManager's spark_shuffle service"
else
  fail "no executor registered with the spark_shuffle service"
fi

t0=$(date +%s)
if "${SPARK_HOME}/bin/spark-submit" "${spark_common[@]}" --deploy-mode cluster \
    "${work}/pi_check.py" > "${work}/logs/spark-cluster.out" 2>&1; then
  app=$(grep -o 'application_[0-9]*_[0-9]*' "${work}/logs/spark-cluster.out" | tail -n 1)
  sleep 3
  if "${H}/yarn" logs -applicationId "${app}" -log_files stdout 2>/dev/null | grep -qF "${expected}"; then
    pass "spark-submit --master yarn --deploy-mode cluster, result read with yarn logs ($(( $(date +%s) - t0 ))s)"
  else
    fail "cluster mode: ${app} result not found in yarn logs"
  fi
else
  fail "spark-submit cluster mode"; tail -n 40 "${work}/logs/spark-cluster.out"
fi

if [[ "${failed}" -gt 0 ]]; then
  dump_logs
fi
say "stopping daemons"
printf '%d passed, %d failed\n' "${passed}" "${failed}"
[[ "${failed}" -eq 0 ]]
