# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Bad autotune input stops playbooks/autotune.yml before any run and any change: one run per mistake.

Against a deployed lab (the hosts' facts are read, nothing is written):

    BIGDATA_LAB_INVENTORY=inventories/lab pytest -q -p no:cacheprovider tests/lab/test_autotune_bad_input.py

Without BIGDATA_LAB_INVENTORY the cases run on a made-up inventory whose hosts do not exist (their hardware given
by hand): a run that tried to reach one would fail as unreachable, which the test refuses too.

Each case asserts that the run failed, that the message names the variable or knob and what is allowed, that the
recap shows changed=0 and nothing unreachable on every host, that no benchmark ran (only the benchmark role's
checks) and that no results folder was made.
"""

from __future__ import annotations

import json
import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest
import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
INVENTORY = os.environ.get("BIGDATA_LAB_INVENTORY", "")
RECAP = re.compile(r"^(\S+)\s+:\s+ok=\d+\s+changed=(\d+)\s+unreachable=(\d+)", re.M)
BENCHMARK_TASK = re.compile(r"^TASK \[bigdata\.spark\.benchmark : ([^\]]+)\]", re.M)
# The benchmark role's checks (preflight.yml) may run; nothing else of it.
BENCHMARK_CHECKS = {"Check the workloads and the scale", "Check that the controller can generate the TPC data",
                    "Require duckdb 1.5.5 on the controller for tpcds and tpch"}
ALLOWED = ("executor_cores, memory_per_core_mb, shuffle_partitions, adaptive, compression_codec, map_memory_mb, "
           "reduce_memory_mb, parallel_copies")

# id -> (extra vars, text the message must hold)
CASES = {
    "unknown-knob": ({"autotune_knobs": ["executor_cores", "turbo"]}, "knobs: unknown knob 'turbo'; allowed: " + ALLOWED),
    "no-knobs": ({"autotune_knobs": []}, "knobs: empty; give at least one of: " + ALLOWED),
    "empty-candidate-list": ({"autotune_knobs": ["executor_cores"], "autotune_candidates": {"executor_cores": []}},
                             "knobs.executor_cores.values: empty candidate list; give at least one value"),
    "candidate-of-an-unsearched-knob": ({"autotune_knobs": ["adaptive"], "autotune_candidates": {"compression_codec": ["zstd"]}},
                                        "candidates: 'compression_codec' is not in knobs (adaptive)"),
    "codec-not-a-choice": ({"autotune_knobs": ["compression_codec"], "autotune_candidates": {"compression_codec": ["gzip"]}},
                           "knobs.compression_codec.values[0]: 'gzip' is not a choice; allowed: lz4, zstd, snappy"),
    "budget-zero": ({"autotune_budget_minutes": 0}, "budget_minutes: must be a number of minutes above 0, got 0"),
    "planner-refuses-the-candidate": ({"autotune_knobs": ["executor_cores"], "autotune_candidates": {"executor_cores": [64]}},
                                      "knobs.executor_cores: candidate 64 is refused by the planner: executor_cores: 64 is "
                                      "more than the NodeManager vcores"),
    "one-repetition": ({"autotune_repetitions": 1}, "repetitions: expected a whole number from 2 to 50"),
    "unknown-workload": ({"autotune_workloads": ["terasort", "nosuchjob"]}, "benchmark_workloads must be a non-empty list of"),
    "unknown-scale": ({"autotune_scale": "enormous"}, "autotune_scale must be one of"),
}


def _made_up_inventory(tmp_path):
    hardware = {"cpu": {"logical": 6}, "memory": {"total_bytes": 24 * 2 ** 30, "cgroup_limit_bytes": 6 * 2 ** 30}}
    hosts = {name: {"ansible_host": "192.0.2.%d" % (10 + i), "bigdata_hardware": hardware}
             for i, name in enumerate(("bd-master", "bd-worker1", "bd-worker2"))}
    data = {"all": {"vars": {"bigdata_lab": True, "ansible_python_interpreter": sys.executable},
                    "children": {"hadoop": {"children": {
                        "namenode": {"hosts": {"bd-master": hosts["bd-master"]}},
                        "resourcemanager": {"hosts": {"bd-master": None}}, "jobhistory": {"hosts": {"bd-master": None}},
                        "spark_history": {"hosts": {"bd-master": None}},
                        "workers": {"hosts": {"bd-worker1": hosts["bd-worker1"], "bd-worker2": hosts["bd-worker2"]}},
                        "datanodes": {"children": {"workers": None}}, "nodemanagers": {"children": {"workers": None}}}}}}}
    inv = tmp_path / "inv"
    (inv / "group_vars").mkdir(parents=True)
    (inv / "hosts.yml").write_text(yaml.safe_dump(data))
    return inv


def _inventory_copy(tmp_path):
    """A copy of the lab inventory (its file and group_vars), or the made-up one; ours to add files to."""
    if not INVENTORY:
        return _made_up_inventory(tmp_path)
    source = pathlib.Path(INVENTORY)
    if source.is_dir():
        source = next(p for p in (source / "hosts.yml", source / "ansible_inventory.yml") if p.is_file())
    inv = tmp_path / "inv"
    inv.mkdir()
    shutil.copy(source, inv / source.name)
    if (source.parent / "group_vars").is_dir():
        shutil.copytree(source.parent / "group_vars", inv / "group_vars")
    else:
        (inv / "group_vars").mkdir()
    return inv


def _run(inventory, extra, tmp_path):
    extra = dict({"autotune_results_dir": str(tmp_path / "results"), "autotune_name": "bad"}, **extra)
    env = dict(os.environ, ANSIBLE_CONFIG=str(ROOT / "ansible.cfg"), ANSIBLE_NOCOLOR="1", ANSIBLE_FORCE_COLOR="0")
    argv = [shutil.which("ansible-playbook") or "ansible-playbook", "-i", str(inventory),
            str(ROOT / "playbooks" / "autotune.yml"), "-e", json.dumps(extra)]
    return subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=900, check=False)


def _assert_refused(proc, expected, tmp_path):
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0, "the run did not fail:\n" + out[-3000:]
    flat = re.sub(r"\s+", " ", out.replace("''", "'"))
    assert expected in flat, "the message does not say %r:\n%s" % (expected, out[-4000:])
    recap = RECAP.findall(proc.stdout)
    assert recap, "no play recap:\n" + out[-3000:]
    assert not [h for h, changed, unreachable in recap if int(changed) or int(unreachable)], recap
    ran = set(BENCHMARK_TASK.findall(proc.stdout)) - BENCHMARK_CHECKS
    assert not ran, "benchmark tasks ran: %s" % sorted(ran)
    assert not (tmp_path / "results").exists(), "a results folder was made"


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_input_is_refused_before_any_run(case, tmp_path):
    extra, expected = CASES[case]
    _assert_refused(_run(INVENTORY or _made_up_inventory(tmp_path), extra, tmp_path), expected, tmp_path)


def test_apply_refuses_to_hide_a_group_vars_file(tmp_path):
    inv = _inventory_copy(tmp_path)
    (inv / "group_vars" / "hadoop.yml").write_text("---\nspark_defaults_overrides: {}\n")
    proc = _run(inv, {"autotune_apply": True, "autotune_knobs": ["adaptive"]}, tmp_path)
    _assert_refused(proc, "autotune_apply: %s is a file, and Ansible reads only the directory group_vars/hadoop/"
                    % (inv / "group_vars" / "hadoop.yml"), tmp_path)
    assert not (inv / "group_vars" / "hadoop").exists()


def test_cases_are_distinct():
    texts = [v[1] for v in CASES.values()]
    assert len(texts) == len(set(texts))
