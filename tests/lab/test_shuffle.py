# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Spark's push-based shuffle on a converged lab whose hosts are in the group lab_prod with spark_push_shuffle_enabled
(inventories/lab/group_vars/lab_prod.yml). docs/shuffle.md.

    BIGDATA_LAB_INVENTORY=inventories/lab-prod pytest -q -p no:cacheprovider tests/lab/test_shuffle.py

The same shuffle-heavy job runs twice on YARN, with the cluster's spark-defaults (push on) and with push turned off
for that application; both answers are the known one, and the event log of the first shows reducers reading merged
blocks (the shuffle service merged what the maps pushed), the second none.
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
pytestmark = pytest.mark.skipif(not INVENTORY or not GROUPS.get("lab_prod") or not SETTINGS.get("spark_push_shuffle_enabled"),
                                reason="set BIGDATA_LAB_INVENTORY to a converged lab with hosts in the group lab_prod")
N = 2000000
KEYS = 997
JOB = """import sys
from pyspark.sql import SparkSession

spark = SparkSession.builder.getOrCreate()
sc = spark.sparkContext
n, keys = int(sys.argv[1]), int(sys.argv[2])
sums = sc.parallelize(range(1, n + 1), 24).map(lambda i: (i % keys, i)).reduceByKey(lambda a, b: a + b, 12)
counts = sums.mapValues(lambda v: 1).reduceByKey(lambda a, b: a + b, 6).count()
total = sums.values().sum()
print("shuffle_job app=%s keys=%d total=%d" % (sc.applicationId, counts, total))
spark.stop()
"""


def _master():
    return sorted(GROUPS["namenode"])[0]


def _shell(host, command, timeout=900):
    return lab_run.shell(INVENTORY, host, command, timeout)


def _run(*conf):
    """Run the job in client mode from the master as the user spark; (application id, keys, total)."""
    _shell(_master(), "cat > /tmp/bigdata-shuffle-job.py <<'EOF'\n%sEOF\nchmod 0644 /tmp/bigdata-shuffle-job.py" % JOB)
    extra = " ".join("--conf %s" % c for c in conf)
    out = _shell(_master(), "cd /tmp && runuser -u spark -- env HADOOP_CONF_DIR=/etc/hadoop/conf SPARK_CONF_DIR=/etc/spark/conf "
                 "/opt/spark/current/bin/spark-submit --master yarn --deploy-mode client --name bigdata-push-shuffle %s "
                 "/tmp/bigdata-shuffle-job.py %d %d 2>/dev/null" % (extra, N, KEYS))
    found = re.search(r"shuffle_job app=(\S+) keys=(\d+) total=(\d+)", out)
    assert found, out[-2000:]
    return found.group(1), int(found.group(2)), int(found.group(3))


def _merged_blocks(app):
    """Merged blocks the reducers read (local and remote), summed over the application's tasks, from its event log."""
    conf = _shell(_master(), "cat /etc/spark/conf/spark-defaults.conf")
    log_dir = re.search(r"^spark\.eventLog\.dir\s+(\S+)", conf, re.M).group(1)
    text = _shell(_master(), "HADOOP_USER_NAME=hdfs HADOOP_CONF_DIR=/etc/hadoop/conf /opt/hadoop/current/bin/hdfs dfs -cat "
                  "%s/%s 2>/dev/null" % (log_dir.rstrip("/"), app))
    merged = tasks = 0
    for line in text.splitlines():
        if '"Event":"SparkListenerTaskEnd"' not in line:
            continue
        event = json.loads(line)
        push = ((event.get("Task Metrics") or {}).get("Shuffle Read Metrics") or {}).get("Push Based Shuffle") or {}
        merged += push.get("Merged Local Blocks Fetched", 0) + push.get("Merged Remote Blocks Fetched", 0)
        tasks += 1
    assert tasks > 0, text[-2000:]
    return merged


def test_spark_defaults_carry_the_planned_push_settings():
    conf = _shell(_master(), "cat /etc/spark/conf/spark-defaults.conf")
    assert re.search(r"^spark\.shuffle\.push\.enabled\s+true$", conf, re.M), conf
    assert re.search(r"^spark\.shuffle\.push\.mergersMinStaticThreshold\s+1$", conf, re.M), conf
    yarn = _shell(sorted(GROUPS["nodemanagers"])[0], "cat /etc/hadoop/conf/yarn-site.xml")
    assert "org.apache.spark.network.shuffle.RemoteBlockPushResolver" in yarn


def test_push_based_shuffle_merges_with_the_same_answer():
    app_push, keys_push, total_push = _run()
    app_plain, keys_plain, total_plain = _run("spark.shuffle.push.enabled=false")
    assert (keys_push, total_push) == (keys_plain, total_plain) == (KEYS, N * (N + 1) // 2)
    assert _merged_blocks(app_push) > 0
    assert _merged_blocks(app_plain) == 0
