# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""The daemon table and the health decisions; the logic lives in module_utils/daemons.py."""

from __future__ import annotations

from ansible.errors import AnsibleFilterError

from ansible_collections.bigdata.spark.plugins.module_utils import daemons as table


def _call(name, fn, *args):
    try:
        return fn(*args)
    except table.DaemonError as exc:
        raise AnsibleFilterError("%s: %s" % (name, exc)) from exc


def daemon_table(host_vars):
    """The daemons in restart order, with ports and the paths each reads, for a host's variables."""
    if host_vars is None:
        host_vars = {}
    if not hasattr(host_vars, "get"):
        raise AnsibleFilterError("daemon_table: the input must be a host's variables (a mapping); got %r" % (host_vars,))
    # Only the variables the table reads (a host's variables are templated when read).
    wanted = dict((k, host_vars.get(k)) for k in _WANTED)
    return _call("daemon_table", table.table, dict((k, v) for k, v in wanted.items() if v is not None))


def hdfs_problems(jmx, expected_datanodes):
    """What keeps HDFS from being healthy (empty: healthy)."""
    return _call("hdfs_problems", table.hdfs_problems, jmx, expected_datanodes)


def yarn_problems(metrics, expected_nodemanagers):
    """What keeps YARN from being healthy (empty: healthy)."""
    return _call("yarn_problems", table.yarn_problems, metrics, expected_nodemanagers)


# The variables the table reads: the layout and each daemon's port variable (hostvars template on access).
_WANTED = tuple(table.LAYOUT_DEFAULTS) + tuple(d["port_var"] for d in table.DAEMONS)


class FilterModule:
    """Daemon table filters."""

    def filters(self):
        return {"daemon_table": daemon_table, "hdfs_problems": hdfs_problems, "yarn_problems": yarn_problems}
