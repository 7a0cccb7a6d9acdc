# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Day-2 operations against a converged lab: playbooks/service.yml (status, restart by daemon), playbooks/balance.yml,
playbooks/collect_logs.yml, and the refusals of decommission.yml and reset.yml. service.yml's stop and start of every daemon are the survival test's stop/start
(tests/lab/survival/plays/stop_start.yml), checked there with the cluster's files.

    BIGDATA_LAB_INVENTORY=inventories/lab-prod pytest -q -p no:cacheprovider tests/lab/test_operations.py

Each test leaves the cluster as it found it.
"""

from __future__ import annotations

import json
import os
import re
import tarfile
import time

import pytest

import lab_run

INVENTORY = os.environ.get("BIGDATA_LAB_INVENTORY", "")
pytestmark = pytest.mark.skipif(not INVENTORY, reason="set BIGDATA_LAB_INVENTORY to a converged lab's inventory")
GROUPS = lab_run.inventory_groups(INVENTORY) if INVENTORY else {}
# A made-up value the collected configuration must not carry.
PLANTED = "planted-Secret-4711"


def _status(tmp_path, *args, extra=None):
    """Run service.yml; (its table rows as dicts, the process)."""
    out = tmp_path / ("status-%d.tsv" % time.monotonic_ns())
    proc = lab_run.playbook(INVENTORY, "service.yml", *args, extra=dict(extra or {}, service_status_file=str(out)))
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    lines = out.read_text().splitlines()
    header = lines[0].split("\t")
    assert header == ["host", "daemon", "state", "release", "uptime", "ui", "health"]
    return [dict(zip(header, line.split("\t"))) for line in lines[1:]], proc


def test_status_shows_every_daemon_with_its_health(tmp_path):
    rows, proc = _status(tmp_path)
    assert re.search(r"^\s*host +daemon +state +release +uptime +ui +health", proc.stdout, re.M), proc.stdout[-3000:]
    by = {}
    for row in rows:
        by.setdefault(row["daemon"], []).append(row)
    assert GROUPS["datanodes"] and GROUPS["nodemanagers"], GROUPS
    for worker in GROUPS["datanodes"]:
        assert [r for r in by["datanode"] if r["host"] == worker], "no DataNode row for %s: %s" % (worker, rows)
    for worker in GROUPS["nodemanagers"]:
        assert [r for r in by["nodemanager"] if r["host"] == worker], "no NodeManager row for %s" % worker
    bad = [r for r in rows if r["state"] != "active" or not r["health"].startswith("ok")]
    assert not bad, bad
    assert all(re.match(r"^(hadoop|spark|zookeeper|apache-zookeeper)-", r["release"]) for r in rows), rows
    assert all(r["uptime"] != "-" for r in rows)
    # The UI link comes from the daemon table: https on the HTTPS port with TLS (lab-prod), http on 9870 without.
    nn = sorted(GROUPS["namenode"])[0]
    want = lab_run.web_url(INVENTORY, nn, "namenode", "ADDR")
    assert by["namenode"][0]["ui"].startswith(want.split("ADDR")[0]) and by["namenode"][0]["ui"].endswith(want.split("ADDR")[1] + "/")
    if len(GROUPS.get("namenode", {})) > 1:
        states = sorted(r["health"] for r in by["namenode"])
        assert states == ["ok (active)", "ok (standby)"], states
        assert sorted(r["health"] for r in by["resourcemanager"]) == ["ok (active)", "ok (standby)"]
        zk = sorted(r["health"] for r in by["zookeeper"])
        assert zk.count("ok (leader)") == 1 and zk.count("ok (follower)") == len(zk) - 1, zk


def test_restart_one_daemon_rolling(tmp_path):
    rows, proc = _status(tmp_path, extra={"service_action": "restart", "service_daemons": "spark_history"})
    assert "Restarting the running daemons asked for: spark-history-server" in proc.stdout, proc.stdout[-3000:]
    assert len(rows) == len(GROUPS["spark_history"]) and rows[0]["health"] == "ok"
    # Restarted a moment ago: seconds, or a minute and some.
    assert re.match(r"^(\d+s|[0-2]m \d\ds)$", rows[0]["uptime"]), rows
    assert "hadoop-hdfs-namenode" not in re.sub(r"(?s).*Restarting the running daemons asked for: ([^\n\"]*).*", r"\1", proc.stdout)


_WORKERS = sorted(GROUPS.get("datanodes", {}))


@pytest.mark.parametrize("name, extra, message", [
    ("service.yml", {"service_action": "reboot"}, "service_action: 'reboot'. Allowed: status, start, stop, restart"),
    ("service.yml", {"service_action": "stop", "service_daemons": "namenod"}, "service_daemons: 'namenod' unknown"),
    ("balance.yml", {"balance_threshold": 0}, "balance_threshold: 0. Allowed: a number of percentage points from 1 to 100"),
    ("collect_logs.yml", {"collect_logs_application": "app_1"}, "collect_logs_application: app_1. Allowed: a YARN application id"),
    ("collect_logs.yml", {"collect_logs_thread_dumps": "namenod"}, "service_daemons: 'namenod' unknown"),
    ("decommission.yml", {"decommission_nodes": "nosuchhost"},
     "decommission_nodes: nosuchhost not in the groups datanodes or nodemanagers"),
    ("decommission.yml", {"decommission_nodes": _WORKERS[-1:], "decommission_action": "retire"},
     "decommission_action: retire. Allowed: decommission, recommission"),
    ("reset.yml", {"reset_delete_data": "yes"},
     'reset_delete_data: \'yes\'. Allowed: not set (the data stays), or exactly "yes, delete all HDFS, YARN and ZooKeeper data"'),
])
def test_bad_input_is_refused_before_any_change(name, extra, message):
    """Refused from the variables and the inventory alone, asking no daemon: molecule's lab runs these beside the
    data-survival actions (extensions/molecule/lab/verify.yml)."""
    _refused(name, extra, message)


# Asked of the running NameNode: every DataNode, and (3 DataNodes or fewer, replication min(3, their number)) one of
# them, which would leave fewer than the replication factor.
@pytest.mark.parametrize("extra, message", [
    ({"decommission_nodes": _WORKERS}, "would leave no DataNode in service"),
    ({"decommission_nodes": ",".join(_WORKERS[-1:])}, "would leave %d DataNode(s) in service" % (len(_WORKERS) - 1)),
])
def test_decommission_refuses_to_leave_too_few_datanodes(extra, message):
    _refused("decommission.yml", extra, message)


def _refused(name, extra, message):
    proc = lab_run.playbook(INVENTORY, name, extra=extra)
    out = re.sub(r"\s+", " ", proc.stdout + proc.stderr)
    assert proc.returncode != 0 and message in out, out[-3000:]
    assert not lab_run.changed_hosts(proc)


def test_balance_reports_the_spread():
    proc = lab_run.playbook(INVENTORY, "balance.yml", extra={"balance_threshold": 5, "balance_bandwidth_mb": 50})
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-4000:]
    assert re.search(r"balancer: (balanced|no block to move) \(", out), out[-3000:]
    assert re.search(r"spread before [0-9.]+ points, after [0-9.]+ points \(mean [0-9.]+ %\)", out), out[-3000:]


def _finished_application():
    """The id of an application YARN has finished (the lab's earlier checks ran some), asked on the node of each
    ResourceManager (curl answers SPNEGO with root's ticket in secure mode)."""
    for host in sorted(GROUPS["resourcemanager"]):
        url = lab_run.web_url(INVENTORY, host, "resourcemanager", host) + "/ws/v1/cluster/apps?states=FINISHED"
        proc = lab_run.adhoc(INVENTORY, host, "ansible.builtin.shell", lab_run.curl(url))
        text = proc.stdout.split(">>", 1)[-1]
        if proc.returncode != 0 or "{" not in text:
            continue
        apps = ((json.loads(text[text.index("{"):text.rindex("}") + 1]).get("apps") or {}).get("app")) or []
        if apps:
            return sorted(apps, key=lambda a: a["finishedTime"])[-1]["id"]
    return None


def test_collect_logs_gathers_and_masks(tmp_path):
    master = sorted(GROUPS["namenode"])[0]
    plant = lab_run.adhoc(INVENTORY, master, "ansible.builtin.copy",
                          "dest=/etc/hadoop/conf/ssl-test-collect.xml mode=0600 content='<configuration><property>"
                          "<name>ssl.server.keystore.password</name><value>%s</value></property></configuration>'" % PLANTED)
    assert plant.returncode == 0, plant.stdout[-2000:]
    app = _finished_application()
    assert app, "no finished YARN application on the lab to collect the logs of"
    try:
        proc = lab_run.playbook(INVENTORY, "collect_logs.yml", extra={
            "collect_logs_dest": str(tmp_path), "collect_logs_application": app, "collect_logs_thread_dumps": "namenode",
            "collect_logs_max_mb": 2})
    finally:
        lab_run.adhoc(INVENTORY, master, "ansible.builtin.file", "path=/etc/hadoop/conf/ssl-test-collect.xml state=absent")
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    # The cluster's hosts keep nothing (the controller gets the tarball).
    assert not [h for h in lab_run.changed_hosts(proc) if h != "localhost"], proc.stdout[-2000:]
    tarballs = list(tmp_path.glob("bigdata-diag-*.tar.gz"))
    assert len(tarballs) == 1, list(tmp_path.iterdir())
    out = tmp_path / "x"
    with tarfile.open(tarballs[0]) as outer:
        outer.extractall(out, filter="data")
    hosts = sorted(set(GROUPS.get("hadoop", {})) | set(GROUPS.get("zookeeper", {})))
    for host in hosts:
        inner = list(out.rglob("%s.tar.gz" % host))
        assert inner, "no files of %s in %s" % (host, sorted(p.name for p in out.rglob("*")))
        with tarfile.open(inner[0]) as t:
            t.extractall(out / "hosts", filter="data")
    files = [p for p in (out / "hosts").rglob("*") if p.is_file()]
    text = dict((p, p.read_text(errors="replace")) for p in files)
    assert not [p for p, t in text.items() if PLANTED in t], "the planted secret shipped"
    planted = [p for p in files if p.name == "ssl-test-collect.xml"]
    assert planted and "<value>********</value>" in text[planted[0]]
    assert [p for p in files if p.name.startswith("hadoop-hdfs-namenode") and "/logs/" in str(p)], "no NameNode log"
    assert [p for p in files if p.name == "core-site.xml"]
    assert all(p.stat().st_size <= 2 * 1048576 for p in files if "/logs/" in str(p))
    dumps = [p for p in files if p.name == "hadoop-hdfs-namenode.threads"]
    assert len(dumps) == len(GROUPS["namenode"]) and all("java.lang.Thread.State" in text[p] for p in dumps)
    # With log aggregation on, `yarn logs` wrote <app>.log; with it off (secure mode) the nodes' own container logs
    # are in the hosts' yarn-apps/<app>/<container>/ (as the cluster's yarn-site.xml says).
    yarn_site = lab_run.shell(INVENTORY, master, "cat /etc/hadoop/conf/yarn-site.xml")
    app_logs = list(out.rglob("%s.log" % app))
    local = [p for p in files if "/yarn-apps/%s/container_" % app in str(p)]
    if re.search(r"<name>yarn.log-aggregation-enable</name>\s*<value>false</value>", yarn_site):
        assert not app_logs and local, sorted(str(p) for p in files if "yarn-apps" in str(p))
        assert [p for p in local if p.name in ("stderr", "stdout", "syslog") and p.stat().st_size > 0], local
    else:
        assert app_logs and "Container: container_" in app_logs[0].read_text(errors="replace")
