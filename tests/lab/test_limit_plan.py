# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""A run limited to one worker (how a node is added) plans from the whole inventory.

    BIGDATA_LAB_INVENTORY=/tmp/ds-inv pytest -q -p no:cacheprovider tests/lab/test_limit_plan.py

Against a converged lab: `site.yml --limit WORKER --tags yarn_configure,spark_configure --check --diff` must
change nothing on that worker. A run that fell back to the roles' defaults (no plan: the plan play skipped
by the limit) would rewrite yarn-site.xml and spark-defaults.conf with other numbers, and the recap would
show changes. The facts of the hosts outside the limit are gathered by delegation.
"""

from __future__ import annotations

import os
import pathlib
import re
import shutil
import subprocess

import pytest
import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
INVENTORY = os.environ.get("BIGDATA_LAB_INVENTORY", "")
RECAP = re.compile(r"^(\S+)\s+:\s+ok=\d+\s+changed=(\d+)", re.M)

pytestmark = pytest.mark.skipif(not INVENTORY, reason="set BIGDATA_LAB_INVENTORY to a converged lab's inventory")


def _workers():
    path = pathlib.Path(INVENTORY)
    if path.is_dir():
        path = next(p for p in (path / "hosts.yml", path / "ansible_inventory.yml") if p.is_file())
    found = []

    def walk(node):
        for name, group in (node or {}).items():
            if isinstance(group, dict):
                if name == "workers":
                    found.extend(sorted(group.get("hosts") or {}))
                walk(group.get("children"))

    walk(yaml.safe_load(path.read_text()))
    return found


def test_limited_run_keeps_the_whole_inventory_plan():
    workers = _workers()
    assert len(workers) >= 2, "the lab inventory has fewer than two workers: %s" % workers
    limit = workers[-1]
    env = dict(os.environ, ANSIBLE_CONFIG=str(ROOT / "ansible.cfg"), ANSIBLE_NOCOLOR="1", ANSIBLE_FORCE_COLOR="0")
    argv = [shutil.which("ansible-playbook") or "ansible-playbook", "-i", INVENTORY, str(ROOT / "playbooks/site.yml"),
            "--limit", limit, "--tags", "yarn_configure,spark_configure", "--check", "--diff"]
    proc = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=900, check=False)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-4000:]
    # The plan ran (not skipped by the limit) with the facts of the hosts outside it.
    assert re.search(r"TASK \[Compute the plan\][^\n]*\n(ok|changed): \[%s -> localhost\]" % re.escape(limit), out), out[-4000:]
    others = [w for w in workers if w != limit]
    assert all(re.search(r"-> %s[ (]" % re.escape(o), out) for o in others), "facts outside the limit were not gathered"
    # The XML files the plan feeds were rendered for the limited worker and found unchanged.
    for name in ("yarn-site.xml", "mapred-site.xml"):
        assert re.search(r"TASK \[bigdata\.spark\.yarn : Write %s\][^\n]*\nok: \[%s\]" % (re.escape(name), re.escape(limit)),
                         out), "%s would change (or was not rendered) on %s:\n%s" % (name, limit, out[-4000:])
    # spark-defaults.conf: no planned value differs. (Only spark.yarn.archive may: in check mode a host that never
    # packed the jars archive, which one host packs, cannot compute its checksum.)
    block = re.search(r"TASK \[bigdata\.spark\.spark : Write spark-defaults\.conf\].*?\n(ok|changed): \[%s\]" % re.escape(limit),
                      out, re.S)
    assert block, "spark-defaults.conf was not rendered for %s:\n%s" % (limit, out[-4000:])
    changed = [ln for ln in block.group(0).splitlines()
               if ln[:1] in ("+", "-") and not ln.startswith(("+++", "---")) and "spark.yarn.archive" not in ln]
    assert not changed, "the limited run would change planned values on %s: %s" % (limit, changed)
