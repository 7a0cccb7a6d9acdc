"""playbooks/service.yml's logic: which daemons an operation acts on and in what order, the status script's lines,
the rows and the printed table (plugins/module_utils/daemons.py)."""

import pytest
from ansible.errors import AnsibleFilterError

from ansible_collections.bigdata.spark.plugins.filter.daemons import FilterModule, daemon_table
from ansible_collections.bigdata.spark.plugins.module_utils import daemons as d

FILTERS = FilterModule().filters()
START_ORDER = ["zookeeper", "kms", "journalnode", "namenode", "zkfc", "secondarynamenode", "resourcemanager", "jobhistory",
               "spark_history", "uniffle_coordinator", "celeborn_master", "uniffle_server", "celeborn_worker", "datanode",
               "nodemanager"]


def names(selection):
    return [e["name"] for e in selection]


def test_all_starts_in_the_table_order_and_stops_in_reverse():
    assert names(d.service_selection(["all"], "start")) == START_ORDER
    assert names(d.service_selection("all", "status")) == START_ORDER
    assert names(d.service_selection(["all"], "stop")) == list(reversed(START_ORDER))


@pytest.mark.parametrize("given, action, expected", [
    (["hdfs"], "start", ["kms", "journalnode", "namenode", "zkfc", "secondarynamenode", "datanode"]),
    (["yarn"], "stop", ["nodemanager", "jobhistory", "resourcemanager"]),
    ("datanode,nodemanager", "stop", ["nodemanager", "datanode"]),
    (["spark", "zookeeper"], "restart", ["zookeeper", "spark_history"]),
    # a daemon named twice, or inside a service named too, acts once
    (["namenode", "hdfs", "namenode"], "start", ["kms", "journalnode", "namenode", "zkfc", "secondarynamenode",
                                                 "datanode"]),
])
def test_services_and_daemons_resolve(given, action, expected):
    assert names(d.service_selection(given, action)) == expected


def test_entries_carry_the_unit():
    entry = d.service_selection(["namenode"], "status")[0]
    assert entry == {"name": "namenode", "unit": "hadoop-hdfs-namenode", "role": "hdfs", "group": "namenode",
                     "order": 10, "kind": "master"}


@pytest.mark.parametrize("given, action, message", [
    (["all"], "reboot", "service_action: 'reboot'. Allowed: status, start, stop, restart"),
    (["namenod"], "start", "service_daemons: 'namenod' unknown. Allowed: the services all, hdfs, yarn, spark, zookeeper"),
    ([], "start", "service_daemons: []. Allowed: a non-empty list"),
    ("", "status", "service_daemons: []. Allowed: a non-empty list"),
    ([3], "status", "service_daemons: [3]. Allowed"),
])
def test_bad_selection_is_named(given, action, message):
    with pytest.raises(d.DaemonError) as err:
        d.service_selection(given, action)
    assert message in str(err.value)
    with pytest.raises(AnsibleFilterError, match="service_selection: "):
        FILTERS["service_selection"](given, action)


def test_status_lines():
    lines = ["hadoop-hdfs-namenode\tenabled\tactive\t3725\thadoop-3.3.6", "",
             "hadoop-hdfs-secondarynamenode\tdisabled\tinactive\t-\thadoop-3.3.6",
             "spark-history-server\tnot-installed\t-\t-\t-"]
    rows = d.daemon_status(lines)
    assert rows[0] == {"unit": "hadoop-hdfs-namenode", "enabled": "enabled", "state": "active", "uptime_s": 3725,
                       "release": "hadoop-3.3.6"}
    assert [r["uptime_s"] for r in rows] == [3725, None, None]
    with pytest.raises(d.DaemonError, match="has 3 fields; expected 5"):
        d.daemon_status(["a\tb\tc"])


@pytest.mark.parametrize("seconds, text", [(None, "-"), (0, "0s"), (59, "59s"), (61, "1m 01s"), (3725, "1h 02m"),
                                           (90061, "1d 1h")])
def test_uptime(seconds, text):
    assert d.uptime(seconds) == text


# The host's table with the lab's ports (the roles' defaults).
TABLE = daemon_table({"inventory_hostname": "m1"})


def entry(name):
    return next(e for e in TABLE if e["name"] == name)


def test_rows_from_the_answers():
    status = d.daemon_status([
        "zookeeper-server\tenabled\tactive\t100\tzookeeper-3.9.3",
        "hadoop-hdfs-namenode\tenabled\tactive\t7200\thadoop-3.3.6",
        "hadoop-hdfs-zkfc\tenabled\tactive\t7100\thadoop-3.3.6",
        "hadoop-yarn-resourcemanager\tenabled\tactive\t50\thadoop-3.3.6",
        "hadoop-hdfs-datanode\tenabled\tfailed\t-\thadoop-3.3.6",
        "hadoop-yarn-nodemanager\tenabled\tactive\t40\thadoop-3.3.6+spark-3.5.7",
    ])
    zk, nn, zkfc, rm, nm = entry("zookeeper"), entry("namenode"), entry("zkfc"), entry("resourcemanager"), entry("nodemanager")
    answers = {
        "health": [{"item": nn, "status": 200}, {"item": rm, "status": -1}, {"item": nm, "status": 500}],
        "state": [{"item": nn, "json": {"beans": [{"name": "Hadoop:service=NameNode,name=NameNodeStatus", "State": "standby"}]}},
                  {"item": rm, "skipped": True}],
        "words": [{"item": [zk, "ruok"], "stdout": "imok"}, {"item": [zk, "srvr"], "stdout": "Zookeeper version: 3.9.3\nMode: leader\n"}],
        "ports": [{"item": zkfc, "rc": 1}],
    }
    rows = d.status_rows("m1", "10.0.0.1", status, TABLE, answers)
    by = dict((r["daemon"], r) for r in rows)
    assert by["zookeeper"]["health"] == "ok (leader)" and by["zookeeper"]["ui"] == "10.0.0.1:2181"
    assert by["namenode"] == {"host": "m1", "daemon": "namenode", "state": "active", "release": "hadoop-3.3.6",
                              "uptime": "2h 00m", "ui": "http://10.0.0.1:9870/", "health": "ok (standby)"}
    assert by["zkfc"]["health"] == "port 8019 closed"
    assert by["resourcemanager"]["health"] == "no answer"
    assert by["datanode"]["health"] == "-" and by["datanode"]["uptime"] == "-"
    assert by["nodemanager"]["health"] == "HTTP 500" and by["nodemanager"]["release"] == "hadoop-3.3.6+spark-3.5.7"
    with pytest.raises(d.DaemonError, match="no-such is not in the daemon table"):
        d.status_rows("m1", "a", [{"unit": "no-such", "state": "active", "release": "-", "uptime_s": None}], TABLE, {})


def test_table_is_aligned_and_ordered():
    rows = [{"host": "w1", "daemon": "nodemanager", "state": "active", "release": "r", "uptime": "1s", "ui": "u",
             "health": "ok"},
            {"host": "m1", "daemon": "zookeeper", "state": "active", "release": "zookeeper-3.9.3", "uptime": "1s",
             "ui": "u", "health": "ok (leader)"}]
    lines = d.status_table(rows)
    assert lines[0].split() == ["host", "daemon", "state", "release", "uptime", "ui", "health"]
    assert lines[1].startswith("m1    zookeeper") and lines[2].startswith("w1    nodemanager")
    assert len({line.index("state") if i == 0 else line.index("active") for i, line in enumerate(lines)}) == 1
    with pytest.raises(d.DaemonError, match="a list of rows"):
        d.status_table("x")


def test_ui_links_of_the_active_daemons():
    active = ["active" if e["name"] in ("namenode", "zookeeper", "zkfc", "datanode") else "inactive" for e in TABLE]
    assert d.ui_links(TABLE, active, "10.0.0.1") == ["HDFS NameNode: http://10.0.0.1:9870/", "HDFS DataNode: http://10.0.0.1:9864/"]
    with pytest.raises(d.DaemonError, match="one `systemctl is-active` line per unit"):
        d.ui_links(TABLE, ["active"], "a")


def test_table_as_tsv():
    lines = d.status_table([{"host": "m1", "daemon": "namenode", "state": "active", "release": "hadoop-3.3.6",
                             "uptime": "1m 02s", "ui": "http://a:9870/", "health": "ok (active)"}], "tsv")
    assert lines == ["host\tdaemon\tstate\trelease\tuptime\tui\thealth",
                     "m1\tnamenode\tactive\thadoop-3.3.6\t1m 02s\thttp://a:9870/\tok (active)"]
    with pytest.raises(d.DaemonError, match="fmt 'csv'. Allowed: text, tsv"):
        d.status_table([], "csv")
