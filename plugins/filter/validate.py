# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Filters of the validation play; the checks live in module_utils/validate.py."""

from __future__ import annotations

from ansible_collections.bigdata.spark.plugins.module_utils.validate import format_guard, memory_errors, secret_names, settings_errors


def settings_problems(settings, context, known=None, extra_patterns=None, defaults=None):
    """Findings (strings naming the variable) for one host's settings; defaults are the roles' defaults."""
    return settings_errors(dict(settings or {}), dict(context or {}), dict(known or {}), list(extra_patterns or []),
                           dict(defaults or {}))


def memory_problems(memory_bytes, host, heaps, daemons, nodemanager_mb=None, spark_daemon_mb=None,
                    nodemanager_source="yarn_site_overrides"):
    """Findings when the daemons' heaps on a host do not fit its memory."""
    return memory_errors(host, memory_bytes, heaps, list(daemons or []), nodemanager_mb, spark_daemon_mb,
                         nodemanager_source)


def namenode_format_guard(paths, name_dirs):
    """Format, skip or refuse, from the paths found under the NameNode directories."""
    return format_guard(list(name_dirs or []), list(paths or []))


def has_secrets(*dicts):
    """True when a name in the dicts looks like it holds a secret: the task that writes them runs with no_log."""
    return any(secret_names(d) for d in dicts if isinstance(d, dict))


def _strip(spec):
    out = {}
    for name, option in spec.items():
        option = {k: v for k, v in dict(option).items() if k not in ("default", "required")}
        if isinstance(option.get("options"), dict):
            option["options"] = _strip(option["options"])
        out[name] = option
    return out


def spec_for_inventory(spec):
    """A role's argument spec without defaults and required flags, to check only the values the inventory sets."""
    return _strip(dict(spec or {}))


class FilterModule:
    """Validation filters."""

    def filters(self):
        return {
            "settings_problems": settings_problems,
            "memory_problems": memory_problems,
            "spec_for_inventory": spec_for_inventory,
            "namenode_format_guard": namenode_format_guard,
            "has_secrets": has_secrets,
        }
