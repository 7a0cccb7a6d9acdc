# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""The daemon table, each role's daemons, their ports and the health decisions; the logic lives in
module_utils/daemons.py."""

from __future__ import annotations

import functools
import os

import yaml

from ansible.errors import AnsibleFilterError

from ansible_collections.bigdata.spark.plugins.module_utils import daemons as table
from ansible_collections.bigdata.spark.plugins.module_utils import day2
from ansible_collections.bigdata.spark.plugins.module_utils import ha

# The collection's roles, beside plugins/ (in a checkout and in an installed collection alike).
_ROLES_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "roles")


@functools.lru_cache(maxsize=None)
def role_defaults():
    """The literal defaults of the roles that own the table's variables (hadoop, hdfs, yarn, spark).

    A play that does not run a role (playbooks/restart.yml, preflight) does not see its defaults, and
    hostvars never holds role defaults; the table falls back on the roles' own files instead of keeping
    copies. Templated defaults are left out: such a variable must come from the play.
    """
    out = {}
    for role in ["hadoop"] + table.roles():
        path = os.path.join(_ROLES_DIR, role, "defaults", "main.yml")
        with open(path, encoding="utf-8") as f:
            data = yaml.safe_load(f) or {}
        out.update((k, v) for k, v in data.items() if k in _WANTED and not (isinstance(v, str) and "{{" in v))
    return out


def _call(name, fn, *args):
    try:
        return fn(*args)
    except table.DaemonError as exc:
        raise AnsibleFilterError("%s: %s" % (name, exc)) from exc


def _mapping(name, variables):
    if variables is None:
        return {}
    if not hasattr(variables, "get"):
        raise AnsibleFilterError("%s: the input must be a host's variables (a mapping); got %r" % (name, variables))
    return variables


def daemon_table(host_vars):
    """The daemons in restart order, with ports and the paths each reads, for a host's variables."""
    host_vars = _mapping("daemon_table", host_vars)
    return _call("daemon_table", table.table, host_vars, role_defaults())


def daemon_url(host_vars, name, address="127.0.0.1"):
    """A daemon's web address (scheme://address:port; https on its HTTPS port with TLS) for a host's variables."""
    host_vars = _mapping("daemon_url", host_vars)
    return _call("daemon_url", table.url, name, address, host_vars, role_defaults())


def tls_transition_problems(host_vars, listening, host=""):
    """The daemons of a host that serve their UI on the other side of hadoop_tls_enabled (started before it changed)."""
    host_vars = _mapping("tls_transition_problems", host_vars)
    return _call("tls_transition_problems", table.tls_transition_problems, listening, host, host_vars, role_defaults())


def role_daemons(role, variables, runtime=None):
    """A role's daemons for its unit template and service tasks, resolved from the variables it sees (vars)."""
    variables = _mapping("role_daemons", variables)
    return _call("role_daemons", table.role_daemons, role, variables, role_defaults(), runtime)


def kerberos_host_plan(variables):
    """Secure mode on one host before its daemons: the SPNEGO keytab and the client accounts' {principals, tickets}."""
    variables = _mapping("kerberos_host_plan", variables)
    return _call("kerberos_host_plan", table.kerberos_host_plan, variables, role_defaults())


def kerberos_host_keytabs(variables):
    """Secure mode: every keytab of one host (its own and its groups' daemons'), for the checks before any change."""
    variables = _mapping("kerberos_host_keytabs", variables)
    return _call("kerberos_host_keytabs", table.kerberos_host_keytabs, variables, role_defaults())


def kerberos_daemon_plan(entries, variables):
    """Secure mode for a role's daemons on one host (entries: role_daemons): their {principals, tickets}."""
    variables = _mapping("kerberos_daemon_plan", variables)
    return _call("kerberos_daemon_plan", table.kerberos_daemon_plan, entries, variables, role_defaults())


def hadoop_auth_to_local(variables, realm):
    """hadoop.security.auth_to_local for the table's service principals in realm."""
    variables = _mapping("hadoop_auth_to_local", variables)
    return _call("hadoop_auth_to_local", table.auth_to_local, realm, variables, role_defaults())


def daemon_ports(variables):
    """Each daemon's group, unit and the ports it binds, for the preflight check that they are free."""
    variables = _mapping("daemon_ports", variables)
    return _call("daemon_ports", table.daemon_ports, variables, role_defaults())


def hdfs_problems(jmx, expected_datanodes, standby_ok=False):
    """What keeps HDFS from being healthy (empty: healthy); jmx is one NameNode's answer, or with HA the list of
    every NameNode's answer (the active one is judged)."""
    return _call("hdfs_problems", table.hdfs_problems, jmx, expected_datanodes, standby_ok)


def yarn_problems(metrics, expected_nodemanagers, standby_ok=False):
    """What keeps YARN from being healthy (empty: healthy); metrics is one ResourceManager's answer, or with HA the list
    of every ResourceManager's answer (the active one is judged)."""
    return _call("yarn_problems", table.yarn_problems, metrics, expected_nodemanagers, standby_ok)


def ha_plan(groups, variables, journal_addresses=None):
    """The HA shape and settings from the inventory's groups and the HA variables (module_utils/ha.py)."""
    variables = _mapping("ha_plan", variables)
    defaults = role_defaults()
    merged = dict((name, variables.get(name, defaults.get(name))) for name in ha.VARIABLES)
    try:
        return ha.ha_plan(groups, merged, journal_addresses)
    except ha.HaError as exc:
        raise AnsibleFilterError("ha_plan: %s" % exc) from exc


def ha_namenode_actions(order, namenodes, journals):
    """What each NameNode of the nameservice does before it starts (format, initialize_shared_edits, bootstrap,
    start) and why a run is refused (module_utils/ha.py)."""
    try:
        return ha.namenode_actions(list(order), dict(namenodes), dict(journals))
    except (ha.HaError, TypeError, ValueError) as exc:
        raise AnsibleFilterError("ha_namenode_actions: %s" % exc) from exc


def restart_rules(host_vars):
    """The daemons with a restart rule (ZooKeeper's leader last, the JournalNodes in sync, the standby NameNode and
    ResourceManager first), in restart order, resolved for a host's variables."""
    host_vars = _mapping("restart_rules", host_vars)
    return _call("restart_rules", table.restart_rules, host_vars, role_defaults())


def rule_plan(rules, restart, groups, answers=None):
    """The passes of the daemons with a restart rule, each with its hosts in restart order. answers: the registered
    results of asking the hosts their state, each with item {name, host, probe} and stdout (four-letter word) or
    json (HTTP); an answer without a state counts as none."""
    states = {}
    for result in answers or []:
        item = result.get("item") if isinstance(result, dict) and not result.get("skipped") else None
        if isinstance(item, (list, tuple)) and len(item) == 2 and isinstance(item[0], dict):
            item = {"name": item[0].get("name"), "probe": item[0].get("probe"), "host": item[1]}
        if not isinstance(item, dict):
            continue
        states.setdefault(item.get("name"), {})[item.get("host")] = _state(result, item.get("probe"))
    return _call("rule_plan", table.rule_plan, rules, restart, groups, states)


def _state(result, probe):
    answer = result.get("json") if str(probe or "").startswith("/") else result.get("stdout")
    return table.rule_state(probe, answer)


def rule_states(results, probe):
    """host -> state from the registered results of asking each host (loop item: the host) its probe."""
    out = {}
    for result in results or []:
        if isinstance(result, dict) and not result.get("skipped") and isinstance(result.get("item"), str):
            out[result["item"]] = _state(result, probe)
    return out


def rule_state(answer, probe):
    """A daemon's state from its answer to its probe (leader, follower, standalone, active, standby, up; '')."""
    return table.rule_state(probe, answer)


def rolled_txid(output):
    """The first transaction id of the edit segment `hdfs dfsadmin -rollEdits` started (None when not said)."""
    return table.rolled_txid(output)


def journal_sync_problems(jmx, bean, txid):
    """Why a JournalNode is not yet in sync (empty: it wrote the new segment's first transaction)."""
    return _call("journal_sync_problems", table.journal_sync_problems, jmx, bean, txid)


def service_selection(names, action):
    """The daemons a service operation (playbooks/service.yml) acts on, in its order."""
    return _call("service_selection", table.service_selection, names, action)


def daemon_status(lines):
    """playbooks/files/daemon_status.sh's lines as dicts."""
    return _call("daemon_status", table.daemon_status, lines)


def uptime(seconds):
    """Seconds as 45s, 12m 03s, 5h 02m, 3d 4h."""
    return _call("uptime", table.uptime, seconds)


def status_table(rows, fmt="text"):
    """The service status rows as aligned text lines (or tab-separated ones)."""
    return _call("status_table", table.status_table, rows, fmt)


def status_rows(host, address, status, entries, answers):
    """One host's rows of the service status table."""
    return _call("status_rows", table.status_rows, host, address, status, entries, answers)


def ui_links(entries, active, address):
    """The web UIs of a host's active daemons."""
    return _call("ui_links", table.ui_links, entries, active, address)


def reset_paths(host_vars):
    """What playbooks/reset.yml deletes on a host (remove) and deletes only when told (data)."""
    host_vars = _mapping("reset_paths", host_vars)
    try:
        return day2.reset_paths(host_vars, role_defaults())
    except day2.Day2Error as exc:
        raise AnsibleFilterError("reset_paths: %s" % exc) from exc


# The variables the table, the HA plan and reset read (a host's variables are templated when read, so only these are).
_WANTED = frozenset(table.variables_read() + ha.VARIABLES + day2.RESET_VARS)


class FilterModule:
    """Daemon table filters."""

    def filters(self):
        return {"daemon_table": daemon_table, "daemon_url": daemon_url, "tls_transition_problems": tls_transition_problems,
                "role_daemons": role_daemons, "daemon_ports": daemon_ports,
                "kerberos_host_plan": kerberos_host_plan, "kerberos_host_keytabs": kerberos_host_keytabs,
                "kerberos_daemon_plan": kerberos_daemon_plan, "hadoop_auth_to_local": hadoop_auth_to_local,
                "hdfs_problems": hdfs_problems, "yarn_problems": yarn_problems, "ha_plan": ha_plan,
                "ha_namenode_actions": ha_namenode_actions, "restart_rules": restart_rules, "rule_plan": rule_plan,
                "rule_states": rule_states, "rule_state": rule_state, "rolled_txid": rolled_txid, "journal_sync_problems": journal_sync_problems,
                "service_selection": service_selection, "daemon_status": daemon_status, "uptime": uptime,
                "status_table": status_table, "status_rows": status_rows,
                "ui_links": ui_links, "reset_paths": reset_paths}
