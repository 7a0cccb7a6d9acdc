"""The settings checks and the NameNode format guard (module_utils/validate.py)."""

import pytest

from ansible_collections.bigdata.spark.plugins.module_utils import validate as V

GOOD_CONTEXT = {"groups": {"namenode": 1, "resourcemanager": 1, "datanodes": 2, "nodemanagers": 2}, "datanodes": 2}
KNOWN = {"hdfs-site": ["dfs.replication", "dfs.namenode.rpc-address", "dfs.blocksize"], "yarn-site": [],
         "mapred-site": [], "core-site": ["io.file.buffer.size"]}


def errors(settings, context=None, extra=()):
    return V.settings_errors(settings, context or GOOD_CONTEXT, KNOWN, extra)


def test_good_settings_have_no_findings():
    assert errors({"hadoop_data_dirs": ["/data/disk1", "/data/disk2"], "hdfs_name_dirs": ["/var/lib/nn"],
                   "hdfs_replication": 2, "hdfs_block_size": 134217728,
                   "hadoop_users": {"hdfs": "hdfs", "yarn": "yarn", "mapred": "mapred", "spark": "spark"},
                   "hdfs_site_overrides": {"dfs.namenode.rpc-address.ns1.nn1": "x:8020"},
                   "spark_defaults_overrides": {"spark.executor.memory": "1g"},
                   "rolling_restart_batch": "20%"}) == []


@pytest.mark.parametrize("settings, expected", [
    ({"hdfs_replication": 3}, "hdfs_replication: 3 is above the number of DataNodes"),
    ({"hdfs_replication": "0"}, "hdfs_replication: 0. Allowed"),
    ({"hadoop_data_dirs": ["rel"]}, "hadoop_data_dirs: 'rel' is not an absolute path"),
    ({"hadoop_data_dirs": []}, "hadoop_data_dirs: the list is empty"),
    ({"hdfs_name_dirs": ["/d/hdfs/dn"], "hadoop_data_dirs": ["/d"]}, "overlaps the DataNode directory"),
    ({"hadoop_users": {"hdfs": "root", "yarn": "y", "mapred": "m", "spark": "s"}}, "hadoop_users.hdfs: 'root'"),
    ({"hadoop_users": {"hdfs": "a", "yarn": "a", "mapred": "m", "spark": "s"}}, "hadoop_users: a serve more"),
    ({"hdfs_site_overrides": {"dfs.replicaton": 1}}, "(did you mean 'dfs.replication'?)"),
    ({"hdfs_site_overrides": {"dfs.datanode.data.dir": "/x"}}, "sets 'dfs.datanode.data.dir'"),
    ({"spark_defaults_overrides": {"executor.cores": 1}}, "'executor.cores' is not a Spark property"),
    ({"hdfs_block_size": 1048577}, "hdfs_block_size: 1048577. Allowed"),
    ({"hdfs_namenode_http_port": 0}, "hdfs_namenode_http_port: 0 is not a port"),
    ({"hadoop_version": "3.3.6-SNAPSHOT"}, "hadoop_version: '3.3.6-SNAPSHOT'"),
    ({"rolling_restart_batch": "150%"}, "rolling_restart_batch: '150%'"),
    ({"rolling_restart_batch": 0}, "rolling_restart_batch: '0'"),
])
def test_each_mistake_names_its_variable(settings, expected):
    found = errors(settings)
    assert any(expected in e for e in found), found


@pytest.mark.parametrize("settings, expected", [
    ({"spark_defaults_overrides": {"spark.executor.memory": "lots"}},
     "spark_defaults_overrides: spark.executor.memory: 'lots' is not valid. Allowed: a size above 0"),
    ({"yarn_site_overrides": {"yarn.nodemanager.resource.cpu-vcores": -4}},
     "yarn_site_overrides: yarn.nodemanager.resource.cpu-vcores: -4 is not valid. Allowed: a whole number above 0."),
    ({"mapred_site_overrides": {"mapreduce.map.memory.mb": "2g"}},
     "mapred_site_overrides: mapreduce.map.memory.mb: '2g' is not valid. Allowed: a whole number of MiB above 0"),
    ({"spark_defaults_overrides": {"spark.dynamicAllocation.enabled": "maybe"}},
     "spark_defaults_overrides: spark.dynamicAllocation.enabled: 'maybe' is not valid. Allowed: true or false."),
    ({"spark_defaults_overrides": {"spark.sql.shuffle.partitions": 0}},
     "spark_defaults_overrides: spark.sql.shuffle.partitions: 0 is not valid. Allowed: a whole number from 1"),
    ({"mapred_site_overrides": {"mapreduce.reduce.java.opts": "-Xmx0m"}},
     "mapred_site_overrides: mapreduce.reduce.java.opts: '-Xmx0m' is not valid"),
])
def test_planned_property_values_are_checked(settings, expected):
    found = V.settings_errors(settings, GOOD_CONTEXT, {"yarn-site": ["yarn.nodemanager.resource.cpu-vcores"],
                                                       "mapred-site": ["mapreduce.map.memory.mb",
                                                                       "mapreduce.reduce.java.opts"]})
    assert any(e.startswith(expected) for e in found), found


def test_good_planned_property_values_pass():
    settings = {"spark_defaults_overrides": {"spark.executor.memory": "18g", "spark.executor.instances": 108,
                                             "spark.dynamicAllocation.enabled": False},
                "yarn_site_overrides": {"yarn.nodemanager.resource.cpu-vcores": "186"},
                "mapred_site_overrides": {"mapreduce.map.java.opts": "-Xmx1638m -XX:+UseParallelGC"}}
    known = {"yarn-site": ["yarn.nodemanager.resource.cpu-vcores"], "mapred-site": ["mapreduce.map.java.opts"]}
    assert V.settings_errors(settings, GOOD_CONTEXT, known) == []


def test_extra_patterns_allow_a_property():
    overrides = {"hdfs_site_overrides": {"dfs.plugin.thing": 1}}
    assert errors(overrides)
    assert errors(overrides, extra=[r"^dfs\.plugin\."]) == []


@pytest.mark.parametrize("counts, expected", [
    ({"namenode": 0, "resourcemanager": 1, "datanodes": 1, "nodemanagers": 1}, "group 'namenode': no host"),
    ({"namenode": 1, "resourcemanager": 1, "datanodes": 0, "nodemanagers": 1}, "group 'datanodes': no host"),
])
def test_groups(counts, expected):
    assert any(expected in e for e in errors({}, {"groups": counts, "datanodes": counts["datanodes"]}))


def test_ha_findings_are_reported():
    counts = {"namenode": 2, "resourcemanager": 1, "datanodes": 1, "nodemanagers": 1}
    found = errors({}, {"groups": counts, "datanodes": 1, "ha_errors": ["inventory group 'journalnodes': no host"]})
    assert found == ["inventory group 'journalnodes': no host"]


def test_memory():
    gib = 1 << 30
    assert V.memory_errors("m", 6 * gib, {"namenode": 512}, ["namenode"]) == []
    assert "hadoop_heap_mb.namenode: 8192 MiB on m" in V.memory_errors("m", 6 * gib, {"namenode": 8192}, ["namenode"])[0]
    assert "add up to" in V.memory_errors("m", 6 * gib, {"namenode": 3100, "resourcemanager": 3100},
                                          ["namenode", "resourcemanager"])[0]
    assert "yarn_site_overrides: yarn.nodemanager.resource.memory-mb is 7000" in V.memory_errors(
        "w", 6 * gib, {}, [], nodemanager_mb=7000)[0]
    # The message names where the value comes from; none when it fits or is not checked here.
    assert V.memory_errors("w", 5 * gib, {}, [], nodemanager_mb=8192, nodemanager_source="bigdata_plan_profile=stock")[0] \
        .startswith("bigdata_plan_profile=stock: yarn.nodemanager.resource.memory-mb is 8192 MiB on w, which has 5120 MiB")
    assert V.memory_errors("w", 5 * gib, {}, [], nodemanager_mb=None) == []
    assert V.memory_errors("w", 5 * gib, {}, [], nodemanager_mb=4096) == []


@pytest.mark.parametrize("paths, action, says", [
    ([], "format", "fresh install"),
    (["/nn/lost+found"], "refuse", "/nn holds other"),
    (["/nn/current", "/nn/current/VERSION", "/nn/current/fsimage_1"], "skip", "current/VERSION"),
    (["/nn/current", "/nn/current/fsimage_0000000000000000000"], "refuse", "/nn holds fsimage"),
    (["/nn/current", "/nn/current/edits_0000000000000000001-0000000000000000002"], "refuse", "/nn holds edits"),
    (["/nn/notes.txt"], "refuse", "/nn holds other"),
    (["/nn/current"], "refuse", "/nn holds other"),
    (["/nn/current", "/nn/current/fsimage_1"], "refuse", "/nn holds fsimage, without"),
    (["/nn/current/VERSION", "/nn2/stray"], "refuse", "/nn2 holds other"),
])
def test_format_guard(paths, action, says):
    got = V.format_guard(["/nn", "/nn2/"], paths)
    assert got["action"] == action
    assert says in got["reason"]
    if action != "format":
        assert "refused" in got["reason"] and got["todo"]


@pytest.mark.parametrize("settings, found", [
    ({"fs.s3a.secret.key": "x", "fs.s3a.access.key": "y", "dfs.replication": 2}, ["fs.s3a.access.key", "fs.s3a.secret.key"]),
    ({"ssl.server.keystore.password": "p", "spark.ssl.keyPassword": "k"}, ["spark.ssl.keyPassword", "ssl.server.keystore.password"]),
    ({"AWS_SECRET_ACCESS_KEY": "z"}, ["AWS_SECRET_ACCESS_KEY"]),
    ({"dfs.blocksize": 1, "yarn.nodemanager.keytab": None, "mapreduce.map.memory.mb": 1}, []),
    ({}, []),
])
def test_secret_names(settings, found):
    assert V.secret_names(settings) == found
