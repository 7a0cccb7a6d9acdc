# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Running the collection's playbooks and ad-hoc modules against a lab inventory, for the lab tests."""

from __future__ import annotations

import functools
import importlib.util
import json
import os
import pathlib
import re
import shutil
import ssl
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


def adhoc(inventory, pattern, module, module_args, timeout=300, flags=()):
    """ansible PATTERN -b [FLAGS] -m MODULE -a ARGS; the CompletedProcess."""
    argv = [shutil.which("ansible") or "ansible", "-i", str(inventory), pattern, "-b"] + list(flags) + ["-m", module, "-a", module_args]
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


@functools.lru_cache(maxsize=None)
def host_vars(inventory, host):
    """A host's inventory variables (its group_vars merged, templates left as they are), from ansible-inventory."""
    argv = [shutil.which("ansible-inventory") or "ansible-inventory", "-i", str(inventory), "--host", host]
    proc = subprocess.run(argv, cwd=ROOT, env=env(), capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    return json.loads(proc.stdout)


@functools.lru_cache(maxsize=None)
def _daemon_filters():
    # The collection's code as Ansible imports it (tests/unit/conftest.py links the checkout).
    spec = importlib.util.spec_from_file_location("bigdata_unit_conftest", ROOT / "tests" / "unit" / "conftest.py")
    spec.loader.exec_module(importlib.util.module_from_spec(spec))
    from ansible_collections.bigdata.spark.plugins.filter import daemons  # pylint: disable=import-outside-toplevel
    return daemons


def role_default(name):
    """A variable's literal default in its role (the daemon table's fallback)."""
    return _daemon_filters().role_defaults().get(name)


def web_url(inventory, host, daemon, address="127.0.0.1"):
    """A daemon's web address on a host, scheme://address:port: https on its HTTPS port when the inventory turns TLS on
    (hadoop_tls_enabled), from the daemon table itself."""
    filters = _daemon_filters()
    return filters.daemon_url(host_vars(inventory, host), daemon, address)


def curl(url):
    """A curl command line for a URL of the lab (on a node: the loopback address is not in the certificates, so an
    https URL on 127.0.0.1 is not checked; a host name is, against the node's system trust). --negotiate answers
    SPNEGO with root's Kerberos ticket in secure mode (and does nothing without it)."""
    insecure = "-k " if url.startswith("https://127.0.0.1") else ""
    return "curl -sf --negotiate -u : %s'%s'" % (insecure, url)


def ssl_context(inventory, host):
    """An SSL context for the controller that trusts the lab CA (tls_controller_dir), or None without TLS."""
    hv = host_vars(inventory, host)
    if not _daemon_filters().table.tls_on(hv):
        return None
    ca_dir = hv.get("tls_controller_dir") or os.path.expanduser("~/.bigdata-spark/tls")
    return ssl.create_default_context(cafile=os.path.join(ca_dir, "ca", "ca.crt"))
