# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Filters for the plan and the JVM options; the logic lives in module_utils/plan_playbook.py and module_utils/jvm.py."""

from __future__ import annotations

from ansible.errors import AnsibleFilterError

from ansible_collections.bigdata.spark.plugins.module_utils.jvm import jvm_options as _jvm_options
from ansible_collections.bigdata.spark.plugins.module_utils.plan_inputs import PlanError
from ansible_collections.bigdata.spark.plugins.module_utils.plan_playbook import (
    plan_hosts as _plan_hosts,
    plan_inputs as _plan_inputs,
)


def _call(name, func, *args, **kwargs):
    try:
        return func(*args, **kwargs)
    except PlanError as exc:
        raise AnsibleFilterError("%s: %s" % (name, exc)) from exc


def plan_hosts(groups, hostvars, group="hadoop"):
    """The planner's host list (name, roles, facts) from the inventory's groups."""
    return _call("plan_hosts", _plan_hosts, groups, hostvars, group)


def plan_inputs(hosts, **kwargs):
    """The planner's arguments (bigdata_plan_inputs) from the host list and the play's variables."""
    return _call("plan_inputs", _plan_inputs, hosts, **kwargs)


def jvm_options(options, openings=(), java_major=17, heap_mb=None, initial_heap_mb=None):
    """JVM options with the heap flags first and, from Java 17, the --add-opens after them."""
    return _call("jvm_options", _jvm_options, options, openings, java_major, heap_mb, initial_heap_mb)


class FilterModule:
    """Plan and JVM option filters."""

    def filters(self):
        return {"plan_hosts": plan_hosts, "plan_inputs": plan_inputs, "jvm_options": jvm_options}
