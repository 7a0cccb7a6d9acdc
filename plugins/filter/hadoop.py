# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Filters that render Hadoop and Spark configuration files; the logic lives in module_utils/hadoop_conf.py."""

from __future__ import annotations

from ansible.errors import AnsibleFilterError

from ansible_collections.bigdata.spark.plugins.module_utils.hadoop_conf import (
    HadoopConfError,
    hdfs_dir_actions,
    home_dir_entries,
    merge_conf,
    parse_hdfs_ls,
    render_hadoop_xml,
    render_spark_conf,
    unit_names as _unit_names,
)


def _wrap(func):
    def call(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except HadoopConfError as exc:
            raise AnsibleFilterError("%s: %s" % (func.__name__, exc)) from exc

    call.__name__ = func.__name__
    call.__doc__ = func.__doc__
    return call


def hadoop_xml(properties, overrides=None):
    """Render (properties merged with overrides) as Hadoop XML."""
    return render_hadoop_xml(merge_conf(properties, overrides))


def spark_conf(properties, overrides=None):
    """Render (properties merged with overrides) as spark-defaults.conf."""
    return render_spark_conf(merge_conf(properties, overrides))


def hdfs_ls_parse(text):
    """Parse `hdfs dfs -ls -d` output."""
    return parse_hdfs_ls(text)


def hdfs_dir_plan(wanted, ls_text):
    """What to mkdir/chown/chmod so the HDFS directories match `wanted`."""
    return hdfs_dir_actions(wanted, parse_hdfs_ls(ls_text))


def hdfs_home_dirs(names, group, mode="0755"):
    """HDFS home directory entries (/user/<name>) owned by each name."""
    return home_dir_entries(names, group, mode)


def unit_names(lines):
    """Unit names from systemctl's listing lines."""
    return _unit_names(lines)


class FilterModule:
    """Hadoop and Spark configuration filters."""

    def filters(self):
        return {
            "hadoop_xml": _wrap(hadoop_xml),
            "spark_conf": _wrap(spark_conf),
            "hdfs_ls_parse": _wrap(hdfs_ls_parse),
            "hdfs_dir_plan": _wrap(hdfs_dir_plan),
            "hdfs_home_dirs": _wrap(hdfs_home_dirs),
            "unit_names": _wrap(unit_names),
        }
