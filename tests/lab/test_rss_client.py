# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""The Spark clients of the remote shuffle services (Uniffle, Celeborn) on a converged lab whose hosts are in the group
lab_prod with spark_rss_clients (inventories/lab/group_vars/lab_prod.yml). docs/shuffle.md.

    BIGDATA_LAB_INVENTORY=inventories/lab-prod pytest -q -p no:cacheprovider tests/lab/test_rss_client.py

Maven Central has the clients but not the servers, so the lab runs no Uniffle coordinator and no Celeborn master. What
runs here: the client jars on every Spark host, and jobs switched to each service with the settings the spark role
writes for it (plugins/module_utils/rss.py, client_settings) pointed at a coordinator or master address where nothing
listens. Without fallback a job must fail within a minute and say why; with spark_rss_fallback it must fall back to
Spark's own shuffle and give the right answer. The Celeborn job that falls back keeps Celeborn's shuffle manager on
the executors, so it also proves the jar is on their classpath.

The servers themselves run when their releases are on the controller (BIGDATA_UNIFFLE_TARBALL,
BIGDATA_CELEBORN_TARBALL); without them that test says it skipped them and why.
"""

from __future__ import annotations

import concurrent.futures
import importlib.util
import os
import pathlib
import re
import time

import pytest
import yaml

import lab_run

ROOT = pathlib.Path(__file__).resolve().parents[2]
# The collection importable as Ansible imports it (the unit tests' conftest builds the same link tree).
_spec = importlib.util.spec_from_file_location("bigdata_unit_conftest", ROOT / "tests" / "unit" / "conftest.py")
_spec.loader.exec_module(importlib.util.module_from_spec(_spec))
from ansible_collections.bigdata.spark.plugins.filter.rss import role_defaults  # noqa: E402
from ansible_collections.bigdata.spark.plugins.module_utils import rss  # noqa: E402

INVENTORY = os.environ.get("BIGDATA_LAB_INVENTORY", "")
GROUPS = lab_run.inventory_groups(INVENTORY) if INVENTORY else {}
SETTINGS = yaml.safe_load((ROOT / "inventories/lab/group_vars/lab_prod.yml").read_text())
SPARK_DEFAULTS = yaml.safe_load((ROOT / "roles/spark/defaults/main.yml").read_text())
ROLE_DEFAULTS = role_defaults()
pytestmark = pytest.mark.skipif(not INVENTORY or not GROUPS.get("lab_prod") or not SETTINGS.get("spark_rss_clients"),
                                reason="set BIGDATA_LAB_INVENTORY to a converged lab with hosts in the group lab_prod")
JAR_DIR = SPARK_DEFAULTS["spark_rss_client_dir"]
N = 100000
JOB = """import os
import sys
from pyspark.sql import SparkSession

spark = SparkSession.builder.getOrCreate()
sc = spark.sparkContext
n = int(sys.argv[1])
total = sc.parallelize(range(1, n + 1), 8).map(lambda i: (i % 97, i)).reduceByKey(lambda a, b: a + b, 4).values().sum()
# One write of a whole line, newlines around it: the JVM log shares the pipe (2>&1) and could split a print.
os.write(1, (chr(10) + "rss_job app=%s manager=%s total=%d" % (sc.applicationId, sc.getConf().get("spark.shuffle.manager"), total) + chr(10)).encode())
spark.stop()
"""
# A port nothing on the master listens on stands for the service's address.
DEAD_PORT = {"uniffle": ROLE_DEFAULTS["uniffle_coordinator_rpc_port"], "celeborn": ROLE_DEFAULTS["celeborn_master_port"]}


def _master():
    return sorted(GROUPS["namenode"])[0]


def _shell(host, command, timeout=900):
    return lab_run.shell(INVENTORY, host, command, timeout)


def _settings(kind, fallback):
    """What the spark role writes into spark-defaults for spark_remote_shuffle=kind, with the service's address on
    the master where nothing listens."""
    variables = dict(ROLE_DEFAULTS, **{k: v for k, v in SPARK_DEFAULTS.items() if k.startswith("spark_")})
    variables.update(spark_rss_fallback=fallback,
                     uniffle_coordinator_quorum="%s:%d" % (_master(), DEAD_PORT["uniffle"]),
                     celeborn_master_endpoints="%s:%d" % (_master(), DEAD_PORT["celeborn"]))
    settings = rss.client_settings(kind, variables.get, [], JAR_DIR, False)
    # lab-prod's own spark-defaults have push-based shuffle on, which a remote shuffle service replaces.
    return dict({k: v[0] for k, v in settings.items()}, **{"spark.shuffle.push.enabled": "false"})


def _submit(kind, fallback):
    """Run the job in client mode from the master as the user spark: (exit code, seconds, output)."""
    conf = " ".join("--conf %s=%s" % item for item in sorted(_settings(kind, fallback).items()))
    name = "bigdata-rss-%s-%s" % (kind, "fallback" if fallback else "strict")
    start = time.monotonic()
    out = _shell(_master(), "cd /tmp && runuser -u spark -- env HADOOP_CONF_DIR=/etc/hadoop/conf SPARK_CONF_DIR=/etc/spark/conf "
                 "/opt/spark/current/bin/spark-submit --master yarn --deploy-mode client --name %s %s "
                 "/tmp/bigdata-rss-job.py %d 2>&1; echo rss_exit=$?" % (name, conf, N))
    code = int(re.search(r"rss_exit=(\d+)\s*$", out).group(1))
    return code, time.monotonic() - start, out


def _write_job():
    _shell(_master(), "cat > /tmp/bigdata-rss-job.py <<'EOF'\n%sEOF\nchmod 0644 /tmp/bigdata-rss-job.py" % JOB)


@pytest.fixture(scope="module")
def runs():
    """The four jobs, two at a time (each waits mostly on retries): {(kind, fallback): (code, seconds, output)}."""
    _write_job()
    for kind, port in DEAD_PORT.items():
        listening = _shell(_master(), "ss -Hltn 'sport = :%d' | wc -l" % port).strip()
        assert listening == "0", "something listens on %s:%d; the test needs a dead %s address" % (_master(), port, kind)
    cases = [("uniffle", False), ("celeborn", True), ("celeborn", False), ("uniffle", True)]
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        futures = {case: pool.submit(_submit, *case) for case in cases}
    return {case: future.result() for case, future in futures.items()}


def test_client_jars_on_every_spark_host():
    hosts = sorted(set(GROUPS["nodemanagers"]) | {_master()})
    for kind in SETTINGS["spark_rss_clients"]:
        jar = rss.client_jar(kind, SPARK_DEFAULTS["spark_%s_client_version" % kind], SPARK_DEFAULTS["spark_scala_version"])
        manager = rss.MANAGERS[kind].replace(".", "/") + ".class"
        for host in hosts:
            out = _shell(host, "stat -c '%%U %%a' %s/%s && python3 -c \"import sys, zipfile; "
                         "print(sys.argv[2] in zipfile.ZipFile(sys.argv[1]).namelist())\" %s/%s %s"
                         % (JAR_DIR, jar["file"], JAR_DIR, jar["file"], manager))
            assert out.split() == ["root", "644", "True"], (host, kind, out)


def test_uniffle_without_a_coordinator_fails_fast_and_says_so(runs):
    code, seconds, out = runs[("uniffle", False)]
    assert code != 0, out[-3000:]
    assert "getShuffleAssignments" in out and "to coordinator" in out, out[-3000:]
    # Uniffle's own retries (3 x 65 s) held such a job 2 min 10 s; the planned ones fail it in about 10 s.
    assert seconds < 90, seconds


def test_uniffle_falls_back_to_spark_shuffle_when_asked(runs):
    code, _seconds, out = runs[("uniffle", True)]
    assert code == 0, out[-3000:]
    assert "Fail to access cluster" in out and "Use SortShuffleManager" in out, out[-3000:]
    assert re.search(r"rss_job app=\S+ manager=sort total=%d\b" % (N * (N + 1) // 2), out), out[-3000:]


def test_celeborn_without_a_master_fails_fast_and_says_so(runs):
    code, seconds, out = runs[("celeborn", False)]
    assert code != 0, out[-3000:]
    assert "Fallback to spark built-in shuffle implementation is prohibited" in out, out[-3000:]
    assert "Master Addresses(%s:%d)" % (_master(), DEAD_PORT["celeborn"]) in out, out[-3000:]
    assert seconds < 120, seconds


def test_celeborn_falls_back_to_spark_shuffle_when_asked(runs):
    code, _seconds, out = runs[("celeborn", True)]
    assert code == 0, out[-3000:]
    assert "Fallback to vanilla Spark SortShuffleManager" in out, out[-3000:]
    # The executors ran Celeborn's shuffle manager (it delegates to Spark's): its class loaded from the client jar.
    assert re.search(r"rss_job app=\S+ manager=%s total=%d\b" % (re.escape(rss.MANAGERS["celeborn"]), N * (N + 1) // 2),
                     out), out[-3000:]


def test_the_servers_run_when_their_release_is_on_the_controller(tmp_path):
    given = {kind: os.environ.get("BIGDATA_%s_TARBALL" % kind.upper(), "") for kind in rss.KINDS}
    present = {kind: path for kind, path in given.items() if path and pathlib.Path(path).is_file()}
    if not present:
        pytest.skip("skipped the Uniffle and Celeborn servers: their releases are not on the controller (Maven Central has "
                    "only their clients). Set BIGDATA_UNIFFLE_TARBALL and/or BIGDATA_CELEBORN_TARBALL to a release "
                    "tarball with its .sha512 next to it to run them")
    # With a release: deploy it on the lab (coordinator/master on the first host, servers/workers on the NodeManagers),
    # then run the job through the service with fallback off: the right answer can only come through it.
    groups = {}
    for kind in present:
        masters, servers = rss.GROUPS[kind]
        groups[masters] = {"hosts": {_master(): None}}
        groups[servers] = {"hosts": dict.fromkeys(sorted(GROUPS["nodemanagers"]))}
    extra_inventory = tmp_path / "rss-groups.yml"
    extra_inventory.write_text(yaml.safe_dump({"all": {"children": groups}}))
    extra = {"%s_install_source" % kind: "controller" for kind in present}
    extra.update({"%s_controller_tarball" % kind: path for kind, path in present.items()})
    # Push-based shuffle and a remote shuffle service exclude each other (the settings check refuses both).
    extra["spark_push_shuffle_enabled"] = False
    proc = lab_run.playbook(INVENTORY, "site.yml", "-i", str(extra_inventory), "--skip-tags", "preflight", extra=extra,
                            timeout=1800)
    assert proc.returncode == 0, proc.stdout[-3000:]
    _write_job()
    for kind in present:
        variables = dict(ROLE_DEFAULTS, **{k: v for k, v in SPARK_DEFAULTS.items() if k.startswith("spark_")})
        conf = {k: v[0] for k, v in rss.client_settings(kind, variables.get, [_master()], JAR_DIR, False).items()}
        conf["spark.shuffle.push.enabled"] = "false"
        args = " ".join("--conf %s=%s" % item for item in sorted(conf.items()))
        out = _shell(_master(), "cd /tmp && runuser -u spark -- env HADOOP_CONF_DIR=/etc/hadoop/conf "
                     "SPARK_CONF_DIR=/etc/spark/conf /opt/spark/current/bin/spark-submit --master yarn --deploy-mode "
                     "client %s /tmp/bigdata-rss-job.py %d 2>&1" % (args, N))
        assert re.search(r"rss_job app=\S+ manager=\S+ total=%d\b" % (N * (N + 1) // 2), out), out[-3000:]
