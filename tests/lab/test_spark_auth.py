# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Spark's authentication and network encryption on a converged lab whose hosts are in the group lab_prod with
spark_authenticate and spark_network_encryption (inventories/lab/group_vars/lab_prod.yml). docs/security.md.

    BIGDATA_LAB_INVENTORY=inventories/lab-prod pytest -q -p no:cacheprovider tests/lab/test_spark_auth.py

On YARN every application gets its own secret from YARN: its driver, its executors and the NodeManagers' Spark shuffle
service check it. Two jobs run side by side: one with the cluster's spark-defaults, which must give the right answer
with authentication and AES encryption in its recorded settings; one that turns authentication off for itself (an
intruder that knows no secret), whose executors the shuffle service must refuse, so the job fails without an answer.
"""

from __future__ import annotations

import concurrent.futures
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
pytestmark = pytest.mark.skipif(not INVENTORY or not GROUPS.get("lab_prod") or not SETTINGS.get("spark_authenticate"),
                                reason="set BIGDATA_LAB_INVENTORY to a converged lab with hosts in the group lab_prod")
N = 200000
KEYS = 101
JOB = """import os
import sys
from pyspark.sql import SparkSession

spark = SparkSession.builder.getOrCreate()
sc = spark.sparkContext
n, keys = int(sys.argv[1]), int(sys.argv[2])
sums = sc.parallelize(range(1, n + 1), 8).map(lambda i: (i % keys, i)).reduceByKey(lambda a, b: a + b, 4)
# One write of a whole line, newlines around it: the JVM log shares the pipe (2>&1) and could split a print.
os.write(1, (chr(10) + "auth_job app=%s keys=%d total=%d" % (sc.applicationId, sums.count(), sums.values().sum()) + chr(10)).encode())
spark.stop()
"""
ANSWER = re.compile(r"^auth_job app=(\S+) keys=(\d+) total=(\d+)$", re.M)
# Small executors: the two jobs run at once, and the plan's executors are sized to fill a node each.
SMALL = ("spark.executor.memory=768m", "spark.executor.cores=1")
# The intruder's job gives up at its first refused executor instead of YARN's default of a few more tries.
INTRUDER = ("spark.authenticate=false", "spark.network.crypto.enabled=false", "spark.executor.maxNumFailures=1",
            "spark.yarn.max.executor.failures=1", "spark.shuffle.registration.maxAttempts=1",
            "spark.dynamicAllocation.enabled=false", "spark.executor.instances=1")


def _master():
    return sorted(GROUPS["namenode"])[0]


def _shell(host, command, timeout=900):
    return lab_run.shell(INVENTORY, host, command, timeout)


def _submit(name, conf=()):
    """Run the job in client mode from the master as the user spark: (exit code, output). A job the cluster refuses
    must end within 5 minutes."""
    extra = " ".join("--conf %s" % c for c in conf)
    out = _shell(_master(), "cd /tmp && timeout 300 runuser -u spark -- env HADOOP_CONF_DIR=/etc/hadoop/conf "
                 "SPARK_CONF_DIR=/etc/spark/conf /opt/spark/current/bin/spark-submit --master yarn --deploy-mode client "
                 "--name %s %s /tmp/bigdata-auth-job.py %d %d 2>&1; echo auth_exit=$?" % (name, extra, N, KEYS))
    return int(re.search(r"auth_exit=(\d+)\s*$", out).group(1)), out


def _app_id(out):
    found = re.search(r"\b(application_\d+_\d+)\b", out)
    assert found, out[-3000:]
    return found.group(1)


@pytest.fixture(scope="module")
def runs():
    """The two jobs, side by side: {'member': (code, output), 'intruder': (code, output)}."""
    _shell(_master(), "cat > /tmp/bigdata-auth-job.py <<'EOF'\n%sEOF\nchmod 0644 /tmp/bigdata-auth-job.py" % JOB)
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        futures = {"member": pool.submit(_submit, "bigdata-auth-member", SMALL),
                   "intruder": pool.submit(_submit, "bigdata-auth-intruder", SMALL + INTRUDER)}
    return {name: future.result() for name, future in futures.items()}


def test_both_sides_are_configured_and_no_secret_is_written():
    conf = _shell(_master(), "cat /etc/spark/conf/spark-defaults.conf")
    assert re.search(r"^spark\.authenticate\s+true$", conf, re.M), conf
    assert re.search(r"^spark\.network\.crypto\.enabled\s+true$", conf, re.M), conf
    # YARN makes the secret per application: none is kept in a file.
    assert "spark.authenticate.secret" not in conf
    for host in sorted(GROUPS["nodemanagers"]):
        site = _shell(host, "cat /etc/hadoop/conf/yarn-site.xml")
        for key in ("spark.authenticate", "spark.network.crypto.enabled"):
            assert re.search(r"<name>%s</name>\s*<value>true</value>" % re.escape(key), site), (host, key)


def test_a_job_with_the_clusters_settings_runs_authenticated_and_encrypted(runs):
    code, out = runs["member"]
    found = ANSWER.search(out)
    assert code == 0 and found, out[-3000:]
    assert (int(found.group(2)), int(found.group(3))) == (KEYS, N * (N + 1) // 2)
    # The settings the application ran with, from its event log (Spark records them, the secret redacted).
    conf = _shell(_master(), "cat /etc/spark/conf/spark-defaults.conf")
    log_dir = re.search(r"^spark\.eventLog\.dir\s+(\S+)", conf, re.M).group(1)
    text = _shell(_master(), "HADOOP_USER_NAME=hdfs HADOOP_CONF_DIR=/etc/hadoop/conf /opt/hadoop/current/bin/hdfs dfs -cat "
                  "%s/%s 2>/dev/null | grep -m1 SparkListenerEnvironmentUpdate" % (log_dir.rstrip("/"), found.group(1)))
    properties = dict(json.loads(text)["Spark Properties"])
    assert properties.get("spark.authenticate") == "true", properties
    assert properties.get("spark.network.crypto.enabled") == "true", properties


def test_a_job_without_the_secret_is_refused_by_the_shuffle_service(runs):
    code, out = runs["intruder"]
    # (The answer's line itself: a Python traceback quotes the job's print statement.)
    assert code != 0 and not ANSWER.search(out), out[-3000:]
    app = _app_id(out)
    yarn_site = _shell(_master(), "cat /etc/hadoop/conf/yarn-site.xml")
    if re.search(r"<name>yarn.log-aggregation-enable</name>\s*<value>false</value>", yarn_site):
        # Secure mode keeps the containers' logs on the nodes (roles/yarn/vars/main.yml): each NodeManager's
        # yarn.nodemanager.log-dirs, read where they are.
        dirs = re.search(r"<name>yarn.nodemanager.log-dirs</name>\s*<value>([^<]+)</value>", yarn_site).group(1)
        logs = "".join(_shell(host, "grep -rhs -A3 'Unable to register with external shuffle server' %s | head -20; true"
                              % " ".join("%s/%s" % (d, app) for d in dirs.split(",")))
                       for host in sorted(GROUPS["nodemanagers"]))
    else:
        # The executor's own words, from the application's aggregated logs (they land in HDFS once the containers
        # end).
        logs = _shell(_master(), "for i in $(seq 30); do out=$(runuser -u spark -- env HADOOP_CONF_DIR=/etc/hadoop/conf "
                      "/opt/hadoop/current/bin/yarn logs -applicationId %s 2>/dev/null); "
                      "echo \"$out\" | grep -q 'Unable to register with external shuffle server' && break; sleep 2; done; "
                      "echo \"$out\" | grep -A3 'Unable to register with external shuffle server' | head -20" % app)
    assert "Unable to register with external shuffle server" in logs, (out[-3000:], logs)
    # The shuffle service's side: it expected the authentication handshake and got a plain request.
    assert "does not have SASL enabled" in logs, logs
