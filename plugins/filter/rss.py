# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Remote shuffle service filters (Uniffle, Celeborn); the logic lives in module_utils/rss.py."""

from __future__ import annotations

import functools
import os

import yaml
from ansible.errors import AnsibleFilterError

from ansible_collections.bigdata.spark.plugins.module_utils import rss
from ansible_collections.bigdata.spark.plugins.module_utils.plan_inputs import memory_bytes


def _call(fn):
    try:
        return fn()
    except rss.RssError as exc:
        # The message starts with the variable it is about.
        raise AnsibleFilterError(str(exc)) from exc


_ROLES_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "roles")


@functools.lru_cache(maxsize=None)
def role_defaults():
    """The literal defaults of the uniffle and celeborn roles: the spark role (the client settings), the planner and
    the validate role read the services' variables in plays that do not run those roles."""
    out = {}
    for role in rss.KINDS:
        with open(os.path.join(_ROLES_DIR, role, "defaults", "main.yml"), encoding="utf-8") as f:
            data = yaml.safe_load(f) or {}
        out.update((k, v) for k, v in data.items() if not (isinstance(v, str) and "{{" in v))
    return out


def _reader(variables):
    """A variable as the host sees it, else the services' roles' default."""
    variables = variables or {}
    defaults = role_defaults()
    return lambda name: variables[name] if name in variables else defaults.get(name)


def rss_services(groups, hostvars):
    """The planner's other_services for the shuffle servers of the inventory (uniffle_servers, celeborn_workers):
    their memory taken out of YARN on the nodes they share with NodeManagers."""
    def run():
        hosts = []
        names = list(role_defaults())
        for kind, group in (("uniffle", "uniffle_servers"), ("celeborn", "celeborn_workers")):
            for name in groups.get(group) or []:
                own = hostvars[name]
                facts = own["bigdata_hardware"] if "bigdata_hardware" in own else {}
                hosts.append({"name": name, "kind": kind, "value": _reader({k: own[k] for k in names if k in own}),
                              "memory_bytes": memory_bytes((facts or {}).get("memory"))})
        return rss.services(hosts) or None
    return _call(run)


def rss_files(kind, variables, masters, data_dirs, java_home="", hadoop_home="", hadoop_conf_dir="", header=""):
    """A service's configuration files as {file name: content}: Uniffle's coordinator.conf, server.conf and
    rss-env.sh, Celeborn's celeborn-defaults.conf and celeborn-env.sh."""
    def run():
        value = _reader(variables)
        if kind == "uniffle":
            return rss.uniffle_files(value, list(masters or []), value("uniffle_coordinator_quorum"),
                                     list(data_dirs or []), java_home, hadoop_home, hadoop_conf_dir, header)
        if kind == "celeborn":
            return rss.celeborn_files(value, list(masters or []), value("celeborn_master_endpoints"),
                                      list(data_dirs or []), header)
        raise rss.RssError("rss_files: %r; allowed: uniffle, celeborn" % (kind,))
    return _call(run)


def rss_spark_conf(kind, variables, masters, jar_dir, dynamic_allocation=False, explain=False):
    """Spark's settings for the remote shuffle service `kind` ('' gives none); explain: {key: reason} instead."""
    def run():
        settings = rss.client_settings(kind or "", _reader(variables), list(masters or []), jar_dir, dynamic_allocation)
        return {k: v[1 if explain else 0] for k, v in settings.items()}
    return _call(run)


def rss_problems(variables, groups):
    """Findings (strings naming the variable) for the remote shuffle settings (spark_remote_shuffle, the uniffle
    and celeborn roles' variables) in an inventory's groups."""
    counts = {k: len(v or []) for k, v in (groups or {}).items()}
    return rss.settings_problems(_reader(variables), counts)


def rss_client_jar(kind, version, scala="2.12"):
    """A service's Spark client on Maven: {group, artifact, version, file}; version may map each service to its
    version."""
    if isinstance(version, dict):
        version = version.get(kind)
    return _call(lambda: rss.client_jar(kind, version, scala))


class FilterModule:
    def filters(self):
        return {"rss_services": rss_services, "rss_files": rss_files, "rss_spark_conf": rss_spark_conf,
                "rss_client_jar": rss_client_jar, "rss_problems": rss_problems}
