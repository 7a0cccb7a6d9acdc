# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Day-2 filters (balance, decommission, reset); the logic lives in module_utils/day2.py."""

from __future__ import annotations

from ansible.errors import AnsibleFilterError

from ansible_collections.bigdata.spark.plugins.module_utils import day2


def _call(name, fn, *args):
    try:
        return fn(*args)
    except day2.Day2Error as exc:
        # A message that already starts with the filter's name (it names the variable of the same name) keeps it once.
        text = str(exc)
        raise AnsibleFilterError(text if text.startswith(name + ":") else "%s: %s" % (name, text)) from exc


def datanode_usage(jmx):
    """Each live DataNode's DFS usage and the spread, from the NameNodeInfo JMX answer."""
    return _call("datanode_usage", day2.datanode_usage, jmx)


def balancer_outcome(rc):
    """What the balancer's exit code means."""
    return _call("balancer_outcome", day2.balancer_outcome, rc)


def decommission_plan(jmx, leaving, replication, action="decommission"):
    """Whether the named nodes may leave: their names as the NameNode knows them, the DataNodes that stay, problems."""
    return _call("decommission_plan", day2.decommission_plan, jmx, leaving, replication, action)


def reset_delete_data(value):
    """True when reset_delete_data says the words that allow deleting the data; a named error for any other value."""
    return _call("reset_delete_data", day2.reset_delete_data, value)


class FilterModule:
    """Day-2 filters."""

    def filters(self):
        return {"datanode_usage": datanode_usage, "balancer_outcome": balancer_outcome,
                "decommission_plan": decommission_plan, "reset_delete_data": reset_delete_data}
