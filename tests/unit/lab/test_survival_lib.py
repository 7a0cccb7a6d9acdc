# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""The data-survival tests' pure helpers: extra vars, the command line, which files were lost, the table."""

import importlib.util
import json
import os
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
SPEC = importlib.util.spec_from_file_location("survival_lib", ROOT / "tests/lab/survival/survival_lib.py")
S = importlib.util.module_from_spec(SPEC)
# dataclasses looks the module up while it builds Found.
sys.modules["survival_lib"] = S
SPEC.loader.exec_module(S)

A, B, C = "0" * 32, "1" * 32, "2" * 32
EXPECTED = "%s  file-1\n%s  file-2\n%s  file-3\n" % (A, B, C)
SPARK_ALL = ["some Spark line", "%s  file-1" % A, "%s  file-2" % B, "%s  file-3" % C]
HDFS_ALL = ["ok file-1", "ok file-2", "ok file-3"]


def test_tuning_keeps_the_lab_overrides():
    assert S.tuning(7, 30) == {
        "hdfs_site_overrides": {"dfs.namenode.heartbeat.recheck-interval": 10000, "dfs.namenode.safemode.extension": 3000,
                                "dfs.datanode.handler.count": 7},
        "yarn_site_overrides": {"yarn.nodemanager.delete.debug-delay-sec": 30}}


def test_live_conf_asks_each_daemon_for_its_tuning_value():
    assert S.live_conf(S.tuning(7, 30)) == {"survival_live_conf": [
        {"daemon": "datanode", "property": "dfs.datanode.handler.count", "value": 7},
        {"daemon": "nodemanager", "property": "yarn.nodemanager.delete.debug-delay-sec", "value": 30}]}


def test_argv_puts_the_vars_file_before_the_run_extra_vars():
    cmd = S.argv("inv", "/c/site.yml", {"hadoop_version": "3.3.6", "b": True}, ["--tags", "x"], "/s/install.yml")
    assert cmd[1:] == ["-i", "inv", "-e", "@/s/install.yml", "/c/site.yml", "-e", '{"b": true, "hadoop_version": "3.3.6"}',
                       "--tags", "x"]
    assert json.loads(cmd[7])["hadoop_version"] == "3.3.6"


def test_argv_without_extra_vars():
    assert S.argv("inv", "p.yml")[1:] == ["-i", "inv", "p.yml"]


@pytest.mark.parametrize("hdfs, spark, lost", [
    (HDFS_ALL, SPARK_ALL, []),
    # HDFS could not read one file
    (["ok file-1", "lost file-2", "ok file-3"], SPARK_ALL, ["file-2"]),
    # Spark read another MD5, or missed a file
    (HDFS_ALL, ["%s  file-1" % A, "%s  file-2" % C, "%s  file-3" % C], ["file-2"]),
    (HDFS_ALL, ["%s  file-1" % A], ["file-2", "file-3"]),
    # lost both ways counts once
    (["lost file-1", "ok file-2", "ok file-3"], SPARK_ALL[2:], ["file-1"]),
    # the Spark job printed nothing at all
    (HDFS_ALL, [], ["file-1", "file-2", "file-3"]),
])
def test_lost_files(hdfs, spark, lost):
    assert S.lost_files(EXPECTED, hdfs, spark) == lost


def test_found_from_a_report():
    report = {"files": 3, "expected": EXPECTED, "hdfs": HDFS_ALL, "spark": SPARK_ALL, "marker": False}
    found = S.Found.from_report("rolling", report)
    assert found.intact and found.row() == ("rolling", 3, 0)
    assert str(found) == "step rolling: 3 files checked through HDFS and Spark, 0 lost"


@pytest.mark.parametrize("change", [
    {"files": 4},  # a file fewer than written: expected.md5 lost a line
    {"expected": ""},  # no checksums at all
    {"hdfs": ["lost file-3"]},
])
def test_found_not_intact(change):
    report = dict({"files": 3, "expected": EXPECTED, "hdfs": HDFS_ALL, "spark": SPARK_ALL, "marker": True}, **change)
    found = S.Found.from_report("killdn", report)
    assert not found.intact
    assert str(found).startswith("step killdn: ") and repr(found) == str(found)
    assert found.marker


def test_table_and_rows(tmp_path):
    results = tmp_path / "results.tsv"
    assert S.read_rows(results) == []
    results.write_text("rolling\t4\t0\nkilldn\t4\t1\n")
    assert S.table(S.read_rows(results)) == [
        "| step | files checked | files lost |", "| --- | --- | --- |", "| rolling | 4 | 0 |", "| killdn | 4 | 1 |"]


def test_every_action_has_its_file():
    assert sorted(p.stem[len("test_"):] for p in S.HERE.glob("test_*.py")) == sorted(S.ORDER)


# A stand-in for ansible-playbook: check.yml writes its report where -e survival_report says; slow.yml reaches a
# task and then runs on; fail.yml fails.
FAKE = '''#!%s
import json, sys, time
args = sys.argv[1:]
extra = {}
for flag, value in zip(args, args[1:]):
    if flag == "-e" and value.startswith("{"):
        extra.update(json.loads(value))
play = next(a for a in args if a.endswith(".yml") and not a.startswith("@"))
print("PLAY", " ".join(args), flush=True)
if play.endswith("check.yml"):
    with open(extra["survival_report"], "w") as out:
        json.dump({"files": 3, "expected": %r, "hdfs": ["ok file-1", "lost file-2", "ok file-3"], "spark": [],
                   "marker": False}, out)
elif play.endswith("slow.yml"):
    print("TASK [one]", flush=True)
    time.sleep(1)
    print("TASK [bigdata.spark.hdfs : Write hdfs-site.xml]", flush=True)
    time.sleep(60)
elif play.endswith("fail.yml"):
    print("fatal: [m]: FAILED!")
    sys.exit(2)
'''


@pytest.fixture
def lab(tmp_path, monkeypatch):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "ansible-playbook"
    fake.write_text(FAKE % (sys.executable, EXPECTED))
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", "%s:%s" % (bin_dir, os.environ["PATH"]))
    run = S.Lab("inv", tmp_path / "out" / "results.tsv", tmp_path / "logs", extra_vars_file="/s/install.yml")
    run.start()
    return run


def test_lab_runs_checks_and_keeps_the_table(lab):
    out = lab.play("rerun", "site.yml", {"x": 1})
    assert '-e @/s/install.yml site.yml -e {"x": 1}' in out
    found = lab.check("rerun")
    assert (found.checked, found.lost, found.marker) == (3, ["file-1", "file-2", "file-3"], False)
    assert S.read_rows(lab.results) == [("rerun", "3", "3")]
    assert [name for name, _secs in lab.times] == ["rerun", "check-rerun"]
    assert lab.summary()[-3:] == ["| step | files checked | files lost |", "| --- | --- | --- |", "| rerun | 3 | 3 |"]


def test_lab_gives_its_pinned_vars_to_every_later_run_under_the_runs_own(lab):
    lab.pinned["hadoop_version"] = "3.3.6"
    assert '-e @/s/install.yml p.yml -e {"hadoop_version": "3.3.6"}' in lab.play("plain", "p.yml")
    out = lab.play("own", "p.yml", {"hadoop_version": "3.3.5", "x": 1})
    assert '-e {"hadoop_version": "3.3.5", "x": 1}' in out


def test_lab_failure_shows_the_log(lab):
    with pytest.raises(S.PlayFailed, match=r"(?s)bad failed \(exit 2\).*fatal: \[m\]: FAILED!"):
        lab.play("bad", "fail.yml")


def test_lab_kills_a_run_at_a_task(lab):
    assert lab.play_killed("killed", "slow.yml", "bigdata.spark.hdfs : Write hdfs-site.xml", timeout=30) == \
        "TASK [bigdata.spark.hdfs : Write hdfs-site.xml]"
    with pytest.raises(S.PlayFailed, match="ended before it could be interrupted"):
        lab.play_killed("ended", "fail.yml", "never", timeout=30)


def test_next_worker_and_its_inventory():
    groups = {
        "all": {"t-lab-master": {}, "t-lab-worker1": {}, "t-lab-worker2": {}},
        "hadoop": {"t-lab-master": {}, "t-lab-worker1": {}, "t-lab-worker2": {}},
        "workers": {"t-lab-master": {"ansible_host": "10.0.0.10"}, "t-lab-worker1": {"ansible_host": "10.0.0.11"},
                    "t-lab-worker2": {"ansible_host": "10.0.0.12", "ansible_user": "root", "bigdata_lab_ip": "10.0.0.12"}},
        "datanodes": {"t-lab-worker1": {}, "t-lab-worker2": {}},
        "nodemanagers": {"t-lab-worker1": {}, "t-lab-worker2": {}},
        "zookeeper": {"t-lab-worker2": {}},
        "kms": {"t-lab-worker2": {}},
        "lab_prod": {"t-lab-master": {}, "t-lab-worker1": {}, "t-lab-worker2": {}},
        "lab_test": {"t-lab-master": {}, "t-lab-worker1": {}, "t-lab-worker2": {}},
    }
    assert S.next_worker(groups) == ("t-lab", "t-lab-worker3")
    inv = S.scaleout_inventory(groups, "t-lab-worker3", "10.0.0.13")
    children = inv["all"]["children"]
    # The workers' groups and the settings groups (the shape's, the test command's JVMs): not the quorums and masters
    # the last worker is also in.
    assert sorted(children) == ["datanodes", "hadoop", "lab_prod", "lab_test", "nodemanagers", "workers"]
    assert children["lab_prod"]["hosts"] == {"t-lab-worker3": None}
    assert children["workers"]["hosts"]["t-lab-worker3"] == {"ansible_host": "10.0.0.13", "ansible_user": "root",
                                                             "bigdata_lab_ip": "10.0.0.13"}
    assert children["datanodes"]["hosts"] == {"t-lab-worker3": None}
    # A plain lab made by hand has neither group: the new worker is in none either.
    del groups["lab_prod"], groups["lab_test"]
    assert not {"lab_prod", "lab_test"} & set(S.scaleout_inventory(groups, "t-lab-worker3", "10.0.0.13")["all"]["children"])


def test_next_worker_needs_a_lab_inventory():
    with pytest.raises(ValueError, match="no NAME-master host"):
        S.next_worker({"all": {"node1": {}}})
