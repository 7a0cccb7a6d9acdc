# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""The autotune role's machinery, offline: playbooks/autotune.yml on a made-up 3-node inventory whose hosts are
never contacted (hardware given by hand), with a stand-in for the benchmark role (tests/unit/roles/stand_in/benchmark:
zstd 25% faster, other shuffle partitions 10% slower). The search, its files, the proposal, apply, a failed run
and resuming; the real run is tests/lab/autotune_tiny.yml."""

from __future__ import annotations

import json
import os
import pathlib
import re
import subprocess
import sys

import pytest
import yaml

ROOT = pathlib.Path(__file__).resolve().parents[3]
FAKE_ROLE = pathlib.Path(__file__).resolve().parent / "stand_in" / "benchmark"
GIB = 1024 ** 3
RECAP = re.compile(r"^(\S+)\s+:\s+ok=\d+\s+changed=(\d+)", re.M)


def inventory(tmp_path, group_vars=None):
    """A lab-like inventory: the master and two workers, 2 cores and 6 GiB each, run locally (never connected to:
    every task of the search runs on the controller or in the stand-in role)."""
    hardware = {"cpu": {"logical": 6}, "memory": {"total_bytes": 24 * GIB, "cgroup_limit_bytes": 6 * GIB}}
    host = {"bigdata_hardware": hardware}
    data = {"all": {"vars": {"ansible_connection": "local", "ansible_python_interpreter": sys.executable,
                             "ansible_become": False, "bigdata_lab": True},
                    "children": {"hadoop": {"children": {
                        "namenode": {"hosts": {"m": host}}, "resourcemanager": {"hosts": {"m": None}},
                        "jobhistory": {"hosts": {"m": None}}, "spark_history": {"hosts": {"m": None}},
                        "workers": {"hosts": {"w1": host, "w2": host}},
                        "datanodes": {"children": {"workers": None}},
                        "nodemanagers": {"children": {"workers": None}}}}}}}
    inv = tmp_path / "inv"
    (inv / "group_vars").mkdir(parents=True)
    (inv / "hosts.yml").write_text(yaml.safe_dump(data))
    (inv / "group_vars" / "all.yml").write_text(yaml.safe_dump(group_vars or {
        "spark_defaults_overrides": {"spark.eventLog.compress": "true"}}))
    return inv


def run(tmp_path, extra, env=None, inv=None):
    extra = dict({"autotune_results_dir": str(tmp_path / "results"), "autotune_name": "offline",
                  "autotune_workloads": ["terasort"], "autotune_scale": "tiny", "autotune_repetitions": 2,
                  "autotune_budget_minutes": 30, "autotune_seconds_per_run": 10,
                  "__autotune_benchmark_role": str(FAKE_ROLE)}, **extra)
    argv = [str(pathlib.Path(sys.executable).parent / "ansible-playbook"), "-i", str(inv or inventory(tmp_path)),
            str(ROOT / "playbooks" / "autotune.yml"), "-e", json.dumps(extra)]
    # (A guard against a hang, not a speed check: in make test the lane runs beside both labs at a low CPU share, and
    # one search took over 600 s there.)
    proc = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=1800, check=False,
                          env=dict(os.environ, ANSIBLE_CONFIG=str(ROOT / "ansible.cfg"), ANSIBLE_NOCOLOR="1",
                                   ANSIBLE_FORCE_COLOR="0", **(env or {})))
    return proc, tmp_path / "results" / "offline"


def partitions_x2():
    """Twice the planner's shuffle partitions, whatever the plan (templated after the plan is computed)."""
    return ["{{ (bigdata_plan.spark_defaults['spark.sql.shuffle.partitions'] | int) * 2 }}"]


ONE = {"autotune_knobs": ["compression_codec"], "autotune_candidates": {"compression_codec": ["zstd"]}}
TWO = {"autotune_knobs": ["compression_codec", "shuffle_partitions"],
       "autotune_candidates": {"compression_codec": ["zstd"], "shuffle_partitions": partitions_x2()}}


def test_search_writes_the_folder_and_applies_the_winner(tmp_path):
    inv = inventory(tmp_path)
    proc, folder = run(tmp_path, dict(TWO, autotune_apply=True), inv=inv)
    assert proc.returncode == 0, proc.stdout[-5000:] + proc.stderr[-2000:]
    runs = json.loads((folder / "runs.json").read_text())
    assert [r["id"] for r in runs] == list(range(1, 9))
    assert [r["role"] for r in runs[:4]] == ["baseline", "candidate", "candidate", "baseline"]
    for r in runs:
        assert (folder / r["dir"] / "result.json").is_file()
        assert not r["failed"] and r["throughput"]["terasort"] > 0
        # The fake deploy's time is measured apart (not bounded: under a loaded CI lane it took 1.4 s once).
        assert r["workload_seconds"] == 2.5 and r["seconds"] > 0 and 0 <= r["deploy_seconds"] < r["seconds"]
        assert abs(r["seconds"] - r["deploy_seconds"] - r["overhead_seconds"] - 2.5) < 0.3
    # the knobs in the table's order (shuffle_partitions before compression_codec), each against the plan
    assert runs[0]["spark_conf"] == {} and list(runs[1]["spark_conf"]) == ["spark.sql.shuffle.partitions"]
    assert runs[4]["spark_conf"] == {} and runs[5]["spark_conf"] == {"spark.io.compression.codec": "zstd"}
    verdict = json.loads((folder / "verdict.json").read_text())
    assert verdict["done"] and verdict["runs"] == 8 and verdict["best"] == {"compression_codec": "zstd"}
    plot = json.loads((folder / "plot.json").read_text())
    assert [p["verdict"] for p in plot["points"]] == ["baseline stays", "wins"]
    assert plot["points"][0]["high"] < 1.0 and plot["points"][1]["low"] > 1.2
    proposal = yaml.safe_load((folder / "proposal.yml").read_text())
    # the winner merged into the inventory's own overrides (a group's variable replaces an `all` one)
    assert proposal == {"spark_defaults_overrides": {"spark.eventLog.compress": "true",
                                                     "spark.io.compression.codec": "zstd"}}
    table = (folder / "table.md").read_text()
    assert "| coarse | compression_codec | zstd | the plan | 4 |" in table and "| wins |" in table
    report = (folder / "report.md").read_text()
    assert "Overhead per run" in report and "## Runs" in report and "Best: compression_codec=zstd." in report
    assert json.loads((folder / "state.json").read_text())["done"]
    assert [c["verdict"] for c in json.loads((folder / "candidates.json").read_text())] == ["baseline stays", "wins"]
    # autotune_apply: the proposal in the inventory's group_vars/hadoop/
    assert (inv / "group_vars" / "hadoop" / "autotune.yml").read_text() == (folder / "proposal.yml").read_text()
    assert not (folder / "deployed.json").exists()  # every run was per application: nothing deployed
    # a progress line per candidate with the time left, a line per run, the verdict per knob
    flat = re.sub(r"\s+", " ", proc.stdout)
    assert re.search(r"coarse pass, knob 2/2 compression_codec=zstd against the plan: 4 runs of about \d+ s; "
                     r"[\d.]+ of 30\.0 min left", flat)
    assert len(re.findall(r"run \d+ (baseline|candidate) \(", flat)) == 8
    assert "coarse pass, compression_codec: keeps compression_codec=zstd" in flat
    pytest.importorskip("matplotlib")
    assert (folder / "ratios.png").stat().st_size > 1000


def test_a_failed_run_fails_its_candidate_and_nothing_is_proposed(tmp_path):
    proc, folder = run(tmp_path, dict(ONE, autotune_apply=True), env={"FAKE_BENCH_FAIL": "^002-"})
    assert proc.returncode == 0, proc.stdout[-5000:]
    runs = json.loads((folder / "runs.json").read_text())
    # run 2 failed: its candidate's runs 3 and 4 are dropped, and the search is over
    assert [r["id"] for r in runs] == [1, 2]
    assert runs[1]["failed"] and "fails as asked" in runs[1]["why"]
    assert [p["verdict"] for p in json.loads((folder / "plot.json").read_text())["points"]] == ["failed"]
    assert yaml.safe_load((folder / "proposal.yml").read_text()) == {}
    assert "No knob beat the plan" in (folder / "report.md").read_text()
    assert not (tmp_path / "inv" / "group_vars" / "hadoop").exists()  # nothing to apply


def test_resume_goes_on_with_the_pending_runs(tmp_path):
    inv = inventory(tmp_path)
    proc, folder = run(tmp_path, ONE, env={"FAKE_BENCH_STOP": "^003-"}, inv=inv)
    assert proc.returncode == 0, proc.stdout[-5000:]
    assert [r["id"] for r in json.loads((folder / "runs.json").read_text())] == [1, 2]
    assert not (folder / "verdict.json").exists()
    proc, folder = run(tmp_path, dict(ONE, autotune_resume=True), inv=inv)
    assert proc.returncode == 0, proc.stdout[-5000:]
    assert [r["id"] for r in json.loads((folder / "runs.json").read_text())] == [1, 2, 3, 4]
    assert json.loads((folder / "verdict.json").read_text())["best"] == {"compression_codec": "zstd"}
    assert not re.search(r"TASK \[bigdata.spark.autotune : Deploy the settings with site.yml\]\n(ok|changed)", proc.stdout)


def test_a_cluster_on_another_plan_is_refused(tmp_path):
    conf = tmp_path / "conf"
    conf.mkdir()
    (conf / "spark-defaults.conf").write_text("# deployed with another profile\nspark.executor.cores 99\n")
    proc, folder = run(tmp_path, dict(ONE, spark_conf_dir=str(conf)))
    assert proc.returncode != 0
    flat = re.sub(r"\s+", " ", proc.stdout)
    assert "autotune: deployed: the cluster does not run the plan this search starts from (spark-defaults.conf on m: " \
           "spark.executor.cores 99 (plan " in flat, proc.stdout[-3000:]
    assert not folder.exists() and "Run the benchmark role" not in proc.stdout
