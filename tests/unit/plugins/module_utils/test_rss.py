# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""The remote shuffle services (module_utils/rss.py): the files the uniffle and celeborn roles write, Spark's client
settings, the servers' memory the planner keeps from YARN, and every bad input named."""

from __future__ import annotations

import pathlib

import pytest
import yaml

from ansible_collections.bigdata.spark.plugins.module_utils import rss

ROOT = pathlib.Path(__file__).resolve().parents[4]
DEFAULTS = {}
for _role in ("uniffle", "celeborn", "spark"):
    DEFAULTS.update(yaml.safe_load((ROOT / "roles" / _role / "defaults" / "main.yml").read_text()))


def reader(**changes):
    values = dict(DEFAULTS, **changes)
    return values.get


def conf(text):
    """A `key value` file as a dict, comments left out."""
    return dict(line.split(" ", 1) for line in text.splitlines() if line and not line.startswith("#"))


def test_uniffle_files_from_the_settings():
    files = rss.uniffle_files(reader(uniffle_server_buffer_capacity="2g"), ["m1", "m2"], "", ["/data/disk1", "/data/disk2/"],
                              "/usr/lib/jvm/java-17", "/opt/hadoop/current", "/etc/hadoop/conf", "# managed\n")
    coordinator, server = conf(files["coordinator.conf"]), conf(files["server.conf"])
    assert files["coordinator.conf"].startswith("# managed\n")
    assert coordinator == {"rss.rpc.server.port": "19999", "rss.jetty.http.port": "19998",
                           "rss.coordinator.server.heartbeat.timeout": "30000", "rss.coordinator.app.expired": "60000",
                           "rss.coordinator.exclude.nodes.file.path": "/etc/uniffle/conf/exclude_nodes"}
    assert server == {
        "rss.rpc.server.port": "19979", "rss.jetty.http.port": "19978", "rss.coordinator.quorum": "m1:19999,m2:19999",
        "rss.storage.type": "MEMORY_LOCALFILE", "rss.storage.basePath": "/data/disk1/uniffle,/data/disk2/uniffle",
        "rss.server.buffer.capacity": "2048m", "rss.server.read.buffer.capacity": "256m",
        "rss.server.heartbeat.interval": "10000", "rss.server.flush.localfile.threadPool.size": "4"}
    assert 'export SHUFFLE_SERVER_XMX_SIZE="1024m"\n' in files["rss-env.sh"]
    assert 'export HADOOP_CONF_DIR="/etc/hadoop/conf"\n' in files["rss-env.sh"]


def test_uniffle_quorum_given_and_extra_config_wins():
    files = rss.uniffle_files(reader(uniffle_storage_type="MEMORY_HDFS",
                                     uniffle_extra_config={"server.conf": {"rss.server.heartbeat.interval": 5000,
                                                                           "rss.jetty.http.port": None}}),
                              [], "c1:1,c2:2", ["/data/disk1"], "", "", "", "")
    server = conf(files["server.conf"])
    assert server["rss.coordinator.quorum"] == "c1:1,c2:2"
    assert server["rss.server.heartbeat.interval"] == "5000" and "rss.jetty.http.port" not in server
    # No local files with HDFS storage: no base path on the data disks.
    assert "rss.storage.basePath" not in server


def test_celeborn_files_single_master_and_raft_ha():
    single = conf(rss.celeborn_files(reader(), ["m1"], "", ["/data/disk1", "/data/disk2"], "")["celeborn-defaults.conf"])
    assert single["celeborn.master.endpoints"] == "m1:9097"
    assert single["celeborn.worker.storage.dirs"] == "/data/disk1/celeborn:disktype=HDD,/data/disk2/celeborn:disktype=HDD"
    ports = [single["celeborn.worker.%s.port" % p] for p in ("rpc", "push", "fetch", "replicate")]
    assert ports == ["9091", "9092", "9093", "9094"]
    assert "celeborn.master.ha.enabled" not in single
    files = rss.celeborn_files(reader(celeborn_worker_disk_type="SSD"), ["m1", "m2", "m3"], "", ["/d1"], "# x\n")
    ha = conf(files["celeborn-defaults.conf"])
    assert ha["celeborn.master.ha.enabled"] == "true" and ha["celeborn.master.endpoints"] == "m1:9097,m2:9097,m3:9097"
    assert [ha["celeborn.master.ha.node.%d.host" % i] for i in (1, 2, 3)] == ["m1", "m2", "m3"]
    assert ha["celeborn.master.ha.node.2.ratis.port"] == "9872"
    assert ha["celeborn.worker.storage.dirs"] == "/d1/celeborn:disktype=SSD"
    assert 'export CELEBORN_WORKER_OFFHEAP_MEMORY="1024m"\n' in files["celeborn-env.sh"]


def test_uniffle_client_settings_strict_and_with_fallback():
    strict = {k: v for k, (v, why) in rss.client_settings("uniffle", reader(), ["m1"], "/opt/rss", False).items()}
    jar = "/opt/rss/rss-client-spark3-shaded-0.9.2.jar"
    assert strict == {
        "spark.driver.extraClassPath": jar, "spark.executor.extraClassPath": jar,
        "spark.shuffle.service.enabled": "false", "spark.serializer": "org.apache.spark.serializer.KryoSerializer",
        "spark.shuffle.manager": "org.apache.spark.shuffle.RssShuffleManager", "spark.rss.coordinator.quorum": "m1:19999",
        "spark.rss.storage.type": "MEMORY_LOCALFILE", "spark.rss.client.assignment.retry.times": "3",
        "spark.rss.client.assignment.retry.interval": "5000"}
    loose = rss.client_settings("uniffle", reader(spark_rss_fallback=True), ["m1"], "/opt/rss", True)
    assert loose["spark.shuffle.manager"][0] == "org.apache.spark.shuffle.DelegationRssShuffleManager"
    assert loose["spark.rss.access.id"][0] == "bigdata-spark"
    assert loose["spark.shuffle.sort.io.plugin.class"][0] == "org.apache.spark.shuffle.RssShuffleDataIo"
    assert loose["spark.dynamicAllocation.shuffleTracking.enabled"][0] == "false"
    assert all(why for _value, why in loose.values())
    assert rss.client_settings("", reader(), [], "/opt/rss", False) == {}


def test_celeborn_client_settings():
    out = {k: v for k, (v, why) in rss.client_settings("celeborn", reader(celeborn_master_endpoints="a:1,b:1"), [],
                                                       "/opt/rss", False).items()}
    assert out["spark.shuffle.manager"] == "org.apache.spark.shuffle.celeborn.SparkShuffleManager"
    assert out["spark.celeborn.master.endpoints"] == "a:1,b:1"
    assert out["spark.celeborn.client.spark.shuffle.fallback.policy"] == "NEVER"
    assert out["spark.driver.extraClassPath"] == "/opt/rss/celeborn-client-spark-3-shaded_2.12-0.5.4.jar"
    assert out["spark.sql.adaptive.localShuffleReader.enabled"] == "false"
    fallback = rss.client_settings("celeborn", reader(spark_rss_fallback=True), ["m"], "/opt/rss", False)
    assert fallback["spark.celeborn.client.spark.shuffle.fallback.policy"][0] == "AUTO"


def test_client_jar_coordinates():
    assert rss.client_jar("celeborn", "0.5.4", "2.13") == {
        "group": "org.apache.celeborn", "artifact": "celeborn-client-spark-3-shaded_2.13", "version": "0.5.4",
        "file": "celeborn-client-spark-3-shaded_2.13-0.5.4.jar"}
    assert rss.client_jar("uniffle", "0.9.2")["artifact"] == "rss-client-spark3-shaded"


def test_servers_memory_reserved_per_host():
    services = rss.services([
        {"name": "w1", "kind": "uniffle", "value": reader(), "memory_bytes": 8 << 30},
        {"name": "w2", "kind": "uniffle", "value": reader(), "memory_bytes": None},
        {"name": "w1", "kind": "celeborn", "value": reader(celeborn_worker_offheap_mb=2048), "memory_bytes": 8 << 30}])
    assert [(s["memory_mb"], s["hosts"], s["vcores"]) for s in services] == [(3072, ["w1"], 0), (1024, ["w1", "w2"], 0)]
    assert "celeborn_worker_heap_mb 1024 + celeborn_worker_offheap_mb 2048" in services[0]["name"]


@pytest.mark.parametrize("host,message", [
    ({"kind": "uniffle", "value": reader(uniffle_server_buffer_capacity="9g")},
     "uniffle_server_buffer_capacity: the buffers of the Uniffle shuffle server on w1 (9472 MiB"),
    ({"kind": "uniffle", "value": reader(uniffle_server_heap_mb=9000)},
     "uniffle_server_heap_mb: the uniffle shuffle server on w1 needs 9000 MiB"),
    ({"kind": "celeborn", "value": reader(celeborn_worker_offheap_mb=8000)},
     "celeborn_worker_offheap_mb: the celeborn shuffle server on w1 needs 9024 MiB"),
])
def test_a_server_bigger_than_its_node_is_named(host, message):
    with pytest.raises(rss.RssError, match="^" + message.replace("(", r"\(")):
        rss.services([dict(host, name="w1", memory_bytes=8 << 30)])


@pytest.mark.parametrize("changes,groups,message", [
    ({"spark_remote_shuffle": "magnet"}, {}, "spark_remote_shuffle: 'magnet'. Allowed: ''"),
    ({"spark_rss_clients": ["uniffle", "riffle"]}, {}, "spark_rss_clients: ['uniffle', 'riffle']. Allowed"),
    ({"uniffle_storage_type": "DISK"}, {}, "uniffle_storage_type: 'DISK'. Allowed: MEMORY_LOCALFILE"),
    ({"celeborn_worker_disk_type": "NVME"}, {}, "celeborn_worker_disk_type: 'NVME'. Allowed: HDD, SSD"),
    ({"uniffle_server_buffer_capacity": "lots"}, {}, "uniffle_server_buffer_capacity: expected a size"),
    ({"celeborn_worker_heap_mb": 0}, {}, "celeborn_worker_heap_mb: 0. Allowed: a whole number of MiB"),
    ({"uniffle_server_buffer_capacity": "2g"}, {}, "uniffle_server_heap_mb: 1024 MiB cannot hold the buffers"),
    ({"spark_remote_shuffle": "uniffle"}, {"uniffle_servers": 2},
     "spark_remote_shuffle: uniffle needs its coordinators: hosts in the inventory group 'uniffle_coordinators'"),
    ({"spark_remote_shuffle": "celeborn"}, {"celeborn_masters": 1},
     "spark_remote_shuffle: celeborn needs shuffle servers: hosts in the inventory group 'celeborn_workers'"),
    ({"spark_remote_shuffle": "uniffle", "spark_uniffle_client_version": "0.8.0"},
     {"uniffle_coordinators": 1, "uniffle_servers": 1},
     "spark_uniffle_client_version: '0.8.0' does not match uniffle_version '0.9.2'"),
    ({"spark_rss_clients": ["celeborn"], "celeborn_version": "0.6.0"}, {},
     "spark_celeborn_client_version: '0.5.4' does not match celeborn_version '0.6.0'"),
    ({"spark_remote_shuffle": "celeborn", "spark_push_shuffle_enabled": True},
     {"celeborn_masters": 1, "celeborn_workers": 1}, "spark_push_shuffle_enabled: true merges on the NodeManagers'"),
    ({}, {"celeborn_masters": 2}, "inventory group 'celeborn_masters': 2 hosts. Allowed: an odd number"),
])
def test_bad_settings_are_named(changes, groups, message):
    problems = rss.settings_problems(reader(**changes), groups)
    assert any(p.startswith(message) for p in problems), problems


def test_sound_settings_have_no_problem():
    assert rss.settings_problems(reader(), {}) == []
    assert rss.settings_problems(reader(spark_remote_shuffle="uniffle", uniffle_coordinator_quorum="c:1"), {}) == []
    assert rss.settings_problems(reader(spark_remote_shuffle="celeborn"),
                                 {"celeborn_masters": 3, "celeborn_workers": 2}) == []


def test_the_filter_takes_each_service_its_own_version():
    from ansible_collections.bigdata.spark.plugins.filter.rss import rss_client_jar
    versions = {"uniffle": "0.9.2", "celeborn": "0.5.4"}
    assert [rss_client_jar(k, versions)["file"] for k in ("uniffle", "celeborn")] == [
        "rss-client-spark3-shaded-0.9.2.jar", "celeborn-client-spark-3-shaded_2.12-0.5.4.jar"]
