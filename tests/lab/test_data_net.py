# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""The data network (hadoop_data_interface, docs/network.md) on a converged lab whose hosts are in the group lab_prod:
lab/lab.sh put every node's eth1 on a second podman network, and inventories/lab/group_vars/lab_prod.yml names it.

    BIGDATA_LAB_INVENTORY=inventories/lab-prod pytest -q -p no:cacheprovider tests/lab/test_data_net.py

The DataNodes and NodeManagers register under their eth1 addresses (the NameNode's LiveNodes, the ResourceManager's
nodes, the Spark executors' hosts in an event log), while their RPC to the masters comes from eth0. Then the bytes
each interface moves are read from /sys/class/net/IFACE/statistics on the workers before and after an HDFS write
with three copies and a Spark job with a large shuffle: the blocks and the shuffle go over eth1, eth0 stays small.
"""

from __future__ import annotations

import json
import os
import pathlib
import re

import pytest
import yaml

import lab_run

INVENTORY = os.environ.get("BIGDATA_LAB_INVENTORY", "")
GROUPS = lab_run.inventory_groups(INVENTORY) if INVENTORY else {}
ROOT = pathlib.Path(__file__).resolve().parents[2]
SETTINGS = yaml.safe_load((ROOT / "inventories/lab/group_vars/lab_prod.yml").read_text())
DATA_IF = SETTINGS.get("hadoop_data_interface", "")
pytestmark = pytest.mark.skipif(not INVENTORY or not GROUPS.get("lab_prod") or not DATA_IF,
                                reason="set BIGDATA_LAB_INVENTORY to a converged lab with hosts in the group lab_prod")
FILE_MB = 128
ROWS = 400000
HDFS = "runuser -u hdfs -- env HADOOP_CONF_DIR=/etc/hadoop/conf /opt/hadoop/current/bin/hdfs"
# A shuffle without a map-side combine: every row (160 random bytes, which the shuffle's compression cannot shrink)
# crosses it, between the executors of three nodes.
JOB = """import os
import sys
from pyspark.sql import SparkSession

spark = SparkSession.builder.getOrCreate()
sc = spark.sparkContext
rows = int(sys.argv[1])
pairs = sc.parallelize(range(rows), 12).map(lambda i: (i, os.urandom(160)))
moved = pairs.partitionBy(12).map(lambda kv: len(kv[1])).sum()
print("data_net_job app=%s bytes=%d" % (sc.applicationId, moved))
spark.stop()
"""


def _master():
    return sorted(GROUPS["namenode"])[0]


def _workers():
    """The nodes whose counters are read: every DataNode but the master (Ansible's SSH and the Spark driver are there)."""
    return sorted(set(GROUPS["datanodes"]) - {_master()})


def _shell(host, command, timeout=900):
    return lab_run.shell(INVENTORY, host, command, timeout)


def _per_host(pattern, command):
    """{host: stdout} of a shell command on every host of the pattern."""
    proc = lab_run.adhoc(INVENTORY, pattern, "ansible.builtin.shell", command)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-1000:]
    out = {}
    for block in re.split(r"^(?=\S+ \| \w+ \| rc=\d+ >>$)", proc.stdout, flags=re.M):
        head, _sep, body = block.partition(">>\n")
        if " | " in head:
            out[head.split(" | ", 1)[0]] = body.strip()
    return out


def _addresses():
    """{host: {'eth0': IPv4, DATA_IF: IPv4}} of every DataNode."""
    out = _per_host("datanodes", "for i in eth0 %s; do printf '%%s %%s\\n' $i $(ip -o -4 addr show dev $i | "
                    "awk '{print $4}' | cut -d/ -f1 | head -1); done" % DATA_IF)
    return {h: dict(line.split() for line in text.splitlines()) for h, text in out.items()}


def _counters():
    """{host: {iface: rx + tx bytes}} on the workers."""
    out = _per_host(":".join(_workers()), "for i in eth0 %s; do echo $i $(( $(cat /sys/class/net/$i/statistics/rx_bytes) + "
                    "$(cat /sys/class/net/$i/statistics/tx_bytes) )); done" % DATA_IF)
    return {h: {i: int(n) for i, n in (line.split() for line in text.splitlines())} for h, text in out.items()}


def _moved(before, after):
    """{iface: bytes} moved on the workers between two readings."""
    return {i: sum(after[h][i] - before[h][i] for h in before) for i in ("eth0", DATA_IF)}


def _live_nodes():
    text = _shell(_master(), lab_run.curl(lab_run.web_url(INVENTORY, _master(), "namenode")
                                          + "/jmx?qry=Hadoop:service=NameNode,name=NameNodeInfo"))
    return json.loads(json.loads(text)["beans"][0]["LiveNodes"])


def test_datanodes_and_nodemanagers_register_on_the_data_network():
    addresses = _addresses()
    data_ips = {a[DATA_IF] for a in addresses.values()}
    rpc_ips = {a["eth0"] for a in addresses.values()}
    live = _live_nodes()
    assert {k.rsplit(":", 1)[0] for k in live} == data_ips, live.keys()
    # The NameNode's record of where each DataNode's RPC came from: eth0.
    assert {v["xferaddr"].rsplit(":", 1)[0] for v in live.values()} == rpc_ips, live
    nodes = _shell(_master(), "runuser -u yarn -- env HADOOP_CONF_DIR=/etc/hadoop/conf /opt/hadoop/current/bin/yarn "
                   "node -list -all 2>/dev/null")
    running = set(re.findall(r"^\s*(\S+):\d+\s+RUNNING", nodes, re.M))
    assert running == data_ips, nodes


def test_blocks_and_shuffles_move_over_the_data_network():
    master = _master()
    # The HDFS write: three copies of a file written from the master (a DataNode); the workers receive two.
    _shell(master, "head -c %dM /dev/urandom > /tmp/bigdata-data-net.bin && chmod 0644 /tmp/bigdata-data-net.bin" % FILE_MB)
    before = _counters()
    _shell(master, "%s dfs -D dfs.replication=3 -put -f /tmp/bigdata-data-net.bin /tmp/bigdata-data-net.bin" % HDFS)
    after = _counters()
    write = _moved(before, after)
    size = FILE_MB * 1024 * 1024
    print("HDFS write of %d MB, three copies: eth0 %.1f MB, %s %.1f MB on the workers"
          % (FILE_MB, write["eth0"] / 1e6, DATA_IF, write[DATA_IF] / 1e6))
    assert write[DATA_IF] >= 2 * size, write
    assert write["eth0"] < 0.05 * size, write

    # The Spark job (client mode from the master, executors on every NodeManager).
    _shell(master, "cat > /tmp/bigdata-data-net-job.py <<'EOF'\n%sEOF\nchmod 0644 /tmp/bigdata-data-net-job.py" % JOB)
    before = _counters()
    out = _shell(master, "cd /tmp && runuser -u spark -- env HADOOP_CONF_DIR=/etc/hadoop/conf SPARK_CONF_DIR=/etc/spark/conf "
                 "/opt/spark/current/bin/spark-submit --master yarn --deploy-mode client --name bigdata-data-net "
                 "--conf spark.shuffle.push.enabled=false --conf spark.dynamicAllocation.enabled=false --num-executors 3 "
                 "--executor-cores 1 --executor-memory 512m /tmp/bigdata-data-net-job.py %d 2>/dev/null" % ROWS)
    after = _counters()
    found = re.search(r"data_net_job app=(\S+) bytes=(\d+)", out)
    assert found and int(found.group(2)) == ROWS * 160, out[-2000:]
    remote, hosts = _shuffle_read(found.group(1))
    job = _moved(before, after)
    print("Spark shuffle, %.1f MB read from other nodes: eth0 %.1f MB, %s %.1f MB on the workers"
          % (remote / 1e6, job["eth0"] / 1e6, DATA_IF, job[DATA_IF] / 1e6))
    data_ips = {a[DATA_IF] for a in _addresses().values()}
    assert hosts and hosts <= data_ips, hosts
    # Most of the remote reads have a worker at one end (the master's own reads from the workers count once).
    assert remote > 20e6 and job[DATA_IF] >= 0.5 * remote, (remote, job)
    assert job["eth0"] < 0.25 * job[DATA_IF], job
    _shell(master, "%s dfs -rm -f -skipTrash /tmp/bigdata-data-net.bin >/dev/null; rm -f /tmp/bigdata-data-net.bin "
           "/tmp/bigdata-data-net-job.py" % HDFS)


def _shuffle_read(app):
    """(bytes the reducers read from other nodes, the executors' hosts) from the application's event log."""
    conf = _shell(_master(), "cat /etc/spark/conf/spark-defaults.conf")
    log_dir = re.search(r"^spark\.eventLog\.dir\s+(\S+)", conf, re.M).group(1)
    text = _shell(_master(), "%s dfs -cat %s/%s 2>/dev/null" % (HDFS, log_dir.rstrip("/"), app))
    remote, hosts = 0, set()
    for line in text.splitlines():
        if '"Event":"SparkListenerTaskEnd"' in line:
            read = ((json.loads(line).get("Task Metrics") or {}).get("Shuffle Read Metrics") or {})
            remote += read.get("Remote Bytes Read", 0)
        elif '"Event":"SparkListenerExecutorAdded"' in line:
            hosts.add(json.loads(line)["Executor Info"]["Host"])
    return remote, hosts
