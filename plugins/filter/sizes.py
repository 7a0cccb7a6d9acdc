# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Size filters; the parsing lives in module_utils/plan.py so the planner and the playbooks agree."""

from __future__ import annotations

from ansible.errors import AnsibleFilterError

from ansible_collections.bigdata.spark.plugins.module_utils.plan import PlanError, parse_size_mb, parse_xmx_mb


def size_mb(value):
    """A size such as "18g", "640m" or 2048 (MiB) in MiB."""
    try:
        return parse_size_mb(value, "size_mb")
    except PlanError as exc:
        raise AnsibleFilterError(str(exc)) from exc


def xmx_mb(value):
    """The -Xmx of a JVM options string in MiB."""
    try:
        return parse_xmx_mb(value, "xmx_mb")
    except PlanError as exc:
        raise AnsibleFilterError(str(exc)) from exc


class FilterModule:
    """Size filters."""

    def filters(self):
        return {"size_mb": size_mb, "xmx_mb": xmx_mb}
