# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Every role's defaults and meta/argument_specs.yml agree, and shared variables have one default."""

from __future__ import annotations

import pathlib
import re

import pytest
import yaml

ROLES_DIR = pathlib.Path(__file__).resolve().parents[3] / "roles"
ROLES = sorted(p.name for p in ROLES_DIR.iterdir() if (p / "meta" / "argument_specs.yml").is_file())
TYPES = {"str": str, "int": int, "float": float, "bool": bool, "list": list, "dict": dict}


def _load(role, *parts):
    path = ROLES_DIR.joinpath(role, *parts)
    return yaml.safe_load(path.read_text()) if path.is_file() else None


def _defaults(role):
    return _load(role, "defaults", "main.yml") or {}


def _options(role):
    return _load(role, "meta", "argument_specs.yml")["argument_specs"]["main"]["options"]


def test_roles_found():
    assert {"java", "hadoop_common", "hdfs", "yarn", "spark"} <= set(ROLES)


@pytest.mark.parametrize("role", ROLES)
def test_spec_covers_exactly_the_defaults(role):
    defaults, options = _defaults(role), _options(role)
    assert sorted(set(defaults) - set(options)) == [], "defaults without a spec"
    assert sorted(set(options) - set(defaults)) == [], "spec options without a default"


@pytest.mark.parametrize("role", ROLES)
def test_spec_defaults_equal_role_defaults(role):
    defaults, options = _defaults(role), _options(role)
    for name, option in options.items():
        assert option.get("default") == defaults[name], name


@pytest.mark.parametrize("role", ROLES)
def test_spec_types_and_descriptions(role):
    for name, option in _options(role).items():
        assert option.get("description"), "%s has no description" % name
        kind = option.get("type")
        assert kind in TYPES, "%s has type %r" % (name, kind)
        value = option.get("default")
        if isinstance(value, str) and "{{" in value:
            continue  # templated; checked by Ansible at run time
        assert isinstance(value, TYPES[kind]), "%s: default %r is not %s" % (name, value, kind)
        if kind == "int":
            assert not isinstance(value, bool), name
        if "choices" in option:
            if kind == "list":
                assert set(value) <= set(option["choices"]), name
            else:
                assert value in option["choices"], name


@pytest.mark.parametrize("role", ROLES)
def test_public_names_have_a_known_prefix(role):
    prefixes = ("hadoop_", "hdfs_", "yarn_", "mapred_", "spark_", "java_", role + "_")
    for name in _defaults(role):
        assert name.startswith(prefixes), name


# Not Hadoop's, but read by several roles: defined once in the hadoop role with Hadoop's settings.
SHARED = {"spark_version", "spark_install_root", "spark_event_log_dir", "yarn_remote_app_log_dir",
          # High availability: the hdfs, yarn and hadoop_common roles read the HA shape (hadoop_ha_plan).
          "hdfs_nameservice", "hdfs_ha_namenodes", "hdfs_ha_fencing_methods", "hdfs_journalnode_rpc_port",
          "hdfs_journalnode_http_port", "hdfs_journalnode_https_port", "hdfs_journalnode_edits_dir", "hdfs_zkfc_port",
          "yarn_cluster_id",
          "hdfs_ha_enabled", "yarn_ha_enabled",
          # Push-based shuffle: the yarn role (the shuffle service's merge manager), the spark role and the planner.
          "spark_push_shuffle_enabled",
          # Spark's authentication and encryption: the spark role (spark-defaults) and the yarn role (the shuffle service).
          "spark_authenticate", "spark_network_encryption", "spark_io_encryption"}


def test_hadoop_variables_have_one_home():
    """Hadoop's settings are defined once, by the hadoop role (the dependency of the roles that read them)."""
    assert [name for name in _defaults("hadoop") if not name.startswith("hadoop_") and name not in SHARED] == []
    for role in ROLES:
        if role != "hadoop":
            assert [name for name in _defaults(role) if name.startswith("hadoop_") and not name.startswith(role + "_")] == [], role


def test_every_variable_is_declared_by_one_role():
    """No default is declared twice: a variable several roles read lives in the hadoop role."""
    seen = {}
    for role in ROLES:
        for name in _defaults(role):
            seen.setdefault(name, []).append(role)
    assert {name: roles for name, roles in seen.items() if len(roles) > 1} == {}


@pytest.mark.parametrize("role", ROLES)
def test_meta_main_depends_only_on_the_hadoop_role(role):
    meta = _load(role, "meta", "main.yml")
    readers = {"hadoop_common", "hdfs", "yarn", "spark", "os_tuning", "preflight", "uniffle", "celeborn", "tls", "zookeeper"}
    assert meta["dependencies"] == ([{"role": "bigdata.spark.hadoop"}] if role in readers else [])
    assert meta["galaxy_info"]["role_name"] == role


def test_no_role_reads_a_hadoop_variable_it_does_not_get():
    """A role that uses a hadoop_* setting in its tasks, templates, vars or handlers without a fallback
    (`| default(...)`) depends on the hadoop role."""
    for role in ROLES:
        if role == "hadoop":
            continue
        used = set()
        for sub in ("tasks", "templates", "vars", "handlers"):
            for f in ROLES_DIR.joinpath(role, sub).rglob("*"):
                if f.is_file():
                    # code only: no comment lines, no names in quotes (a dict key, a message)
                    text = "\n".join(line for line in f.read_text().splitlines() if not line.lstrip().startswith("#"))
                    used |= {n for n in _defaults("hadoop") if re.search(r"(?<!['\"])\b%s\b(?!\s*\|\s*default\()" % n, text)}
        deps = _load(role, "meta", "main.yml")["dependencies"]
        if used - set(_defaults(role)):
            assert {"role": "bigdata.spark.hadoop"} in deps, (role, sorted(used))
