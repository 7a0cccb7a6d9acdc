# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Running the collection's playbooks and ad-hoc modules against a lab inventory, for the lab tests."""

from __future__ import annotations

import json
import os
import pathlib
import re
import shutil
import subprocess

import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
RECAP = re.compile(r"^(\S+)\s+:\s+ok=\d+\s+changed=(\d+)", re.M)


def env():
    return dict(os.environ, ANSIBLE_CONFIG=str(ROOT / "ansible.cfg"), ANSIBLE_NOCOLOR="1", ANSIBLE_FORCE_COLOR="0")


def playbook(inventory, name, *args, extra=None, timeout=1200):
    """ansible-playbook -i INVENTORY playbooks/NAME ARGS [-e JSON]; the CompletedProcess (output captured)."""
    argv = [shutil.which("ansible-playbook") or "ansible-playbook", "-i", str(inventory), str(ROOT / "playbooks" / name)]
    argv += list(args)
    if extra:
        argv += ["-e", json.dumps(extra)]
    return subprocess.run(argv, cwd=ROOT, env=env(), capture_output=True, text=True, timeout=timeout, check=False)


def adhoc(inventory, pattern, module, module_args, timeout=300):
    """ansible PATTERN -b -m MODULE -a ARGS; the CompletedProcess."""
    argv = [shutil.which("ansible") or "ansible", "-i", str(inventory), pattern, "-b", "-m", module, "-a", module_args]
    return subprocess.run(argv, cwd=ROOT, env=env(), capture_output=True, text=True, timeout=timeout, check=False)


def shell(inventory, host, command, timeout=900):
    """Run a shell command on a lab node as root; its stdout. The run must succeed (an AssertionError with the output
    when it does not)."""
    proc = adhoc(inventory, host, "ansible.builtin.shell", command, timeout=timeout)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-1000:]
    return proc.stdout.split(">>", 1)[-1]


def changed_hosts(proc):
    """host -> changed count, for the hosts of the play recap that changed something."""
    return dict((host, int(n)) for host, n in RECAP.findall(proc.stdout) if int(n))


def inventory_groups(inventory):
    """group -> {host: its variables}, from the lab's hosts.yml or molecule's inventory (children flattened)."""
    path = pathlib.Path(inventory)
    if path.is_dir():
        path = next(p for p in (path / "hosts.yml", path / "ansible_inventory.yml") if p.is_file())
    data = yaml.safe_load(path.read_text())
    groups, hostvars, children = {}, {}, {}

    def walk(name, node):
        node = node or {}
        members = dict(node.get("hosts") or {})
        for host, hv in members.items():
            hostvars.setdefault(host, {}).update(hv or {})
        for child, sub in (node.get("children") or {}).items():
            children.setdefault(name, set()).add(child)
            members.update(walk(child, sub))
        groups.setdefault(name, {}).update(members)
        return members

    for name, node in (data or {}).items():
        walk(name, node)

    # A child named with no body (`datanodes: {children: {workers: }}`) is the group of that name defined elsewhere.
    def members_of(name, seen=()):
        out = set(groups.get(name, {}))
        for child in children.get(name, ()):
            if child not in seen:
                out |= members_of(child, seen + (name,))
        return out

    return dict((g, dict((h, hostvars.get(h, {})) for h in sorted(members_of(g)))) for g in groups)
