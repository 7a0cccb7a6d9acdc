# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Tables for the configuration filters and the pure helpers behind them."""

from __future__ import annotations

import pytest

from ansible.errors import AnsibleFilterError

from ansible_collections.bigdata.spark.plugins.filter.hadoop import FilterModule
from ansible_collections.bigdata.spark.plugins.module_utils import hadoop_conf as hc

FILTERS = FilterModule().filters()

XML_ONE = """<?xml version="1.0" encoding="UTF-8"?>
<!-- Managed by Ansible (bigdata.spark). Local changes are overwritten. -->
<configuration>
  <property>
    <name>dfs.blocksize</name>
    <value>134217728</value>
  </property>
  <property>
    <name>dfs.replication</name>
    <value>2</value>
  </property>
</configuration>
"""


def test_hadoop_xml_sorted_and_stable():
    out = FILTERS["hadoop_xml"]({"dfs.replication": 2, "dfs.blocksize": 134217728})
    assert out == XML_ONE
    assert FILTERS["hadoop_xml"]({"dfs.blocksize": 134217728, "dfs.replication": 2}) == out


@pytest.mark.parametrize(
    "value, rendered",
    [
        (True, "true"),
        (False, "false"),
        (3, "3"),
        (0.5, "0.5"),
        ("a<b>&'\"", "a&lt;b&gt;&amp;&apos;&quot;"),
        (["/data/disk1/hdfs/dn", "/data/disk2/hdfs/dn"], "/data/disk1/hdfs/dn,/data/disk2/hdfs/dn"),
        ("HADOOP_MAPRED_HOME=/opt/hadoop/current", "HADOOP_MAPRED_HOME=/opt/hadoop/current"),
        ("", ""),
    ],
)
def test_hadoop_xml_values(value, rendered):
    out = FILTERS["hadoop_xml"]({"k.v": value})
    assert "    <value>%s</value>\n" % rendered in out


def test_overrides_win_and_none_removes():
    out = FILTERS["hadoop_xml"]({"a": 1, "b": 2, "c": 3}, {"b": "user", "c": None})
    assert "<value>user</value>" in out
    assert "<name>c</name>" not in out
    assert out.index("<name>a</name>") < out.index("<name>b</name>")


def test_computed_none_is_skipped():
    assert "<name>x</name>" not in FILTERS["hadoop_xml"]({"x": None, "y": 1})


@pytest.mark.parametrize(
    "props, message",
    [
        ({"bad name": 1}, "not a valid Hadoop property name"),
        ({"k": {"nested": 1}}, "type dict"),
        ({"k": "two\nlines"}, "line break"),
        ("not a dict", "computed must be a dict"),
    ],
)
def test_hadoop_xml_errors(props, message):
    with pytest.raises(AnsibleFilterError, match=message):
        FILTERS["hadoop_xml"](props)


def test_overrides_must_be_dict():
    with pytest.raises(AnsibleFilterError, match="overrides must be a dict"):
        FILTERS["hadoop_xml"]({}, ["x"])


def test_spark_conf_table():
    out = FILTERS["spark_conf"](
        {
            "spark.master": "yarn",
            "spark.shuffle.service.enabled": True,
            "spark.executor.memory": "512m",
            "spark.yarn.archive": "hdfs:///spark/spark-libs.jar",
        },
        {"spark.executor.memory": "1g"},
    )
    assert out == (
        "# Managed by Ansible (bigdata.spark). Local changes are overwritten.\n"
        "spark.executor.memory 1g\n"
        "spark.master yarn\n"
        "spark.shuffle.service.enabled true\n"
        "spark.yarn.archive hdfs:///spark/spark-libs.jar\n"
    )


@pytest.mark.parametrize("key", ["spark.a b", "spark.a=b", "#spark"])
def test_spark_conf_bad_keys(key):
    with pytest.raises(AnsibleFilterError, match="not a valid Spark property name"):
        FILTERS["spark_conf"]({key: 1})


@pytest.mark.parametrize(
    "perm, octal",
    [
        ("drwxrwxrwt", "1777"),
        ("drwxr-xr-x", "0755"),
        ("drwx------", "0700"),
        ("drwxrwx---", "0770"),
        ("-rw-r--r--", "0644"),
        ("drwxr-x--T", "1750"),
        ("drwsr-sr-x", "6755"),
        ("drwxr-xr-x+", "0755"),
    ],
)
def test_symbolic_to_octal(perm, octal):
    assert hc.symbolic_to_octal(perm) == octal


def test_symbolic_to_octal_error():
    with pytest.raises(hc.HadoopConfError, match="not a permission string"):
        hc.symbolic_to_octal("rwx")


LS = """drwxrwxrwt   - hdfs  hadoop          0 2026-05-09 10:00 /tmp
drwxr-xr-x   - spark spark           0 2026-05-09 10:00 /user/spark
ls: `/app-logs': No such file or directory
drwxrwxrwt   - spark hadoop          0 2026-05-09 10:00 /spark logs
"""


def test_parse_hdfs_ls():
    assert hc.parse_hdfs_ls(LS) == {
        "/tmp": {"owner": "hdfs", "group": "hadoop", "mode": "1777", "dir": True},
        "/user/spark": {"owner": "spark", "group": "spark", "mode": "0755", "dir": True},
        "/spark logs": {"owner": "spark", "group": "hadoop", "mode": "1777", "dir": True},
    }


def test_hdfs_dir_plan():
    wanted = [
        {"path": "/tmp", "owner": "hdfs", "group": "hadoop", "mode": "1777"},
        {"path": "/user/spark", "owner": "spark", "group": "hadoop", "mode": "0755"},
        {"path": "/app-logs", "owner": "yarn", "group": "hadoop", "mode": "01777"},
        {"path": "/spark logs", "owner": "spark", "group": "hadoop", "mode": "0777"},
    ]
    assert FILTERS["hdfs_dir_plan"](wanted, LS) == {
        "mkdir": ["/app-logs"],
        "chown": [
            {"path": "/user/spark", "owner": "spark", "group": "hadoop"},
            {"path": "/app-logs", "owner": "yarn", "group": "hadoop"},
        ],
        "chmod": [{"path": "/app-logs", "mode": "1777"}, {"path": "/spark logs", "mode": "0777"}],
        "chown_batches": [{"owner": "spark:hadoop", "paths": ["/user/spark"]}, {"owner": "yarn:hadoop", "paths": ["/app-logs"]}],
        "chmod_batches": [{"mode": "1777", "paths": ["/app-logs"]}, {"mode": "0777", "paths": ["/spark logs"]}],
    }


def test_hdfs_dir_plan_batches_one_call_per_owner_and_mode():
    wanted = [{"path": "/a", "owner": "spark", "group": "hadoop", "mode": "0755"},
              {"path": "/b", "owner": "yarn", "mode": "1777"},
              {"path": "/c", "owner": "spark", "group": "hadoop", "mode": "1777"},
              {"path": "/d", "owner": "spark", "mode": "0755"}]
    plan = FILTERS["hdfs_dir_plan"](wanted, "")
    assert plan["chown_batches"] == [{"owner": "spark:hadoop", "paths": ["/a", "/c"]}, {"owner": "yarn", "paths": ["/b"]},
                                     {"owner": "spark", "paths": ["/d"]}]
    assert plan["chmod_batches"] == [{"mode": "0755", "paths": ["/a", "/d"]}, {"mode": "1777", "paths": ["/b", "/c"]}]


def test_hdfs_dir_plan_converged_is_empty():
    wanted = [{"path": "/tmp", "owner": "hdfs", "group": "hadoop", "mode": 0o1777}]
    assert FILTERS["hdfs_dir_plan"](wanted, LS) == {"mkdir": [], "chown": [], "chmod": [], "chown_batches": [],
                                                    "chmod_batches": []}


@pytest.mark.parametrize(
    "mode, expected",
    [("0755", "0755"), ("755", "0755"), ("01777", "1777"), (0o700, "0700"), ("0o1777", "1777")],
)
def test_normalize_mode(mode, expected):
    assert hc.normalize_mode(mode) == expected


@pytest.mark.parametrize("mode", ["rwx", "0999", "123456", "7"])
def test_normalize_mode_errors(mode):
    with pytest.raises(hc.HadoopConfError, match="not an octal mode"):
        hc.normalize_mode(mode)


def test_dir_plan_needs_path():
    with pytest.raises(AnsibleFilterError, match="needs at least a 'path'"):
        FILTERS["hdfs_dir_plan"]([{"owner": "x"}], "")


def test_hdfs_home_dirs():
    assert FILTERS["hdfs_home_dirs"](["spark", "alice"], "hadoop") == [
        {"path": "/user/spark", "owner": "spark", "group": "hadoop", "mode": "0755"},
        {"path": "/user/alice", "owner": "alice", "group": "hadoop", "mode": "0755"},
    ]


@pytest.mark.parametrize(
    "names, message",
    [("spark", "must be a list"), (["a b"], "not a valid user name"), ([1], "not a valid user name")],
)
def test_hdfs_home_dirs_errors(names, message):
    with pytest.raises(AnsibleFilterError, match=message):
        FILTERS["hdfs_home_dirs"](names, "hadoop")


@pytest.mark.parametrize("lines,names", [
    (["hadoop-hdfs-namenode.service loaded active running HDFS NameNode",
      "spark-history-server.service loaded active running Spark History Server"],
     ["hadoop-hdfs-namenode", "spark-history-server"]),
    (["hadoop-hdfs-datanode.service enabled enabled", "", "  "], ["hadoop-hdfs-datanode"]),
    (["hadoop-yarn-nodemanager\t/etc/hadoop/conf/yarn-site.xml"], ["hadoop-yarn-nodemanager"]),
    ([], []),
    (None, []),
])
def test_unit_names(lines, names):
    assert hc.unit_names(lines) == names


def test_parsers_read_back_what_the_renderers_write():
    props = {"dfs.replication": "2", "a.b": "x y"}
    assert hc.parse_hadoop_xml(hc.render_hadoop_xml(props)) == props
    assert hc.parse_spark_conf(hc.render_spark_conf({"spark.executor.cores": "2", "spark.x": "a b"})) == {
        "spark.executor.cores": "2", "spark.x": "a b"}
    assert hc.parse_spark_conf(None) == {}
    assert hc.parse_hadoop_xml("<configuration><property><name>k</name></property></configuration>") == {"k": None}
    with pytest.raises(hc.ET.ParseError):
        hc.parse_hadoop_xml("")
