"""Day-2 decisions (plugins/module_utils/day2.py): DataNode usage and the balancer's outcome."""

import json

import pytest
from ansible.errors import AnsibleFilterError

from ansible_collections.bigdata.spark.plugins.filter.day2 import FilterModule
from ansible_collections.bigdata.spark.plugins.module_utils import day2

FILTERS = FilterModule().filters()
GIB = 2 ** 30


def jmx(live):
    """A NameNodeInfo answer as the NameNode gives it: LiveNodes is a JSON string inside the bean."""
    return {"beans": [{"name": "Hadoop:service=NameNode,name=NameNodeInfo", "LiveNodes": json.dumps(live)}]}


def test_usage_and_spread():
    usage = day2.datanode_usage(jmx({
        "w2:9866": {"usedSpace": 30 * GIB, "capacity": 100 * GIB, "adminState": "In Service"},
        "w1:9866": {"usedSpace": 10 * GIB, "capacity": 100 * GIB, "adminState": "In Service"},
        "w3:9866": {"usedSpace": 0, "capacity": 0, "adminState": "Decommissioned"},
    }))
    assert [n["datanode"] for n in usage["nodes"]] == ["w1", "w2", "w3"]
    assert [n["used_pct"] for n in usage["nodes"]] == [10.0, 30.0, 0.0]
    assert usage["mean_pct"] == 20.0 and usage["spread_pct"] == 30.0


def test_no_datanode():
    assert day2.datanode_usage(jmx({})) == {"nodes": [], "mean_pct": 0.0, "spread_pct": 0.0}


@pytest.mark.parametrize("answer, message", [
    ({}, "a bean with LiveNodes"),
    ({"beans": [{"name": "x"}]}, "a bean with LiveNodes"),
    ({"beans": [{"LiveNodes": "{not json"}]}, "LiveNodes is not JSON"),
    ({"beans": [{"LiveNodes": "[1]"}]}, "LiveNodes must map DataNodes"),
])
def test_bad_answers_are_named(answer, message):
    with pytest.raises(day2.Day2Error, match=message):
        day2.datanode_usage(answer)
    with pytest.raises(AnsibleFilterError, match="datanode_usage: "):
        FILTERS["datanode_usage"](answer)


@pytest.mark.parametrize("rc, outcome, ok", [(0, "balanced", True), (254, "no block to move", True),
                                             (255, "already running", False), (253, "no progress", False),
                                             (249, "upgrade not finalized", False), (7, "failed", False)])
def test_balancer_outcome(rc, outcome, ok):
    got = day2.balancer_outcome(rc)
    assert (got["outcome"], got["ok"], got["rc"]) == (outcome, ok, rc)


def test_balancer_outcome_needs_a_number():
    with pytest.raises(AnsibleFilterError, match="balancer_outcome: rc: the balancer's exit code"):
        FILTERS["balancer_outcome"]("x")


# --- decommission_plan

def jmx_nodes(live, dead=None):
    bean = {"name": "Hadoop:service=NameNode,name=NameNodeInfo", "LiveNodes": json.dumps(live),
            "DeadNodes": json.dumps(dead or {})}
    return {"beans": [bean]}


def node(ip, used=GIB, remaining=50 * GIB, state="In Service"):
    return {"xferaddr": ip + ":9866", "usedSpace": used, "remaining": remaining, "adminState": state}


FOUR = {"w1:9866": node("10.0.0.11"), "w2:9866": node("10.0.0.12"), "w3:9866": node("10.0.0.13"),
        "m:9866": node("10.0.0.10")}


def test_a_node_found_by_its_address_may_leave():
    plan = day2.decommission_plan(jmx_nodes(FOUR), [{"host": "worker3", "names": ["10.0.0.13"]}], 3)
    assert plan["problems"] == []
    assert plan["nodes"] == [{"host": "worker3", "datanode": "w3", "exclude": "w3", "state": "In Service", "used_bytes": GIB}]
    assert plan["staying"] == ["m", "w1", "w2"]


def test_below_the_replication_factor_is_refused():
    plan = day2.decommission_plan(jmx_nodes(FOUR), [{"host": "w3", "names": []}, {"host": "w2", "names": []}], 3)
    assert len(plan["problems"]) == 1
    assert "would leave 2 DataNode(s) in service (m, w1), fewer than the replication factor 3" in plan["problems"][0]


def test_every_datanode_leaving_is_refused():
    leaving = [{"host": h, "names": []} for h in ("m", "w1", "w2", "w3")]
    plan = day2.decommission_plan(jmx_nodes(FOUR), leaving, 1)
    assert plan["staying"] == [] and "would leave no DataNode in service" in plan["problems"][0]


def test_more_data_than_the_others_hold_is_refused():
    live = dict(FOUR, **{"w3:9866": node("10.0.0.13", used=200 * GIB)})
    plan = day2.decommission_plan(jmx_nodes(live), [{"host": "w3", "names": []}], 2)
    assert plan["problems"] == ["decommission_nodes: w3 hold 214.7 GB of blocks; the DataNodes that stay have 161.1 GB free"]


def test_nodes_already_leaving_do_not_count_as_staying():
    live = dict(FOUR, **{"w1:9866": node("10.0.0.11", state="Decommission In Progress")})
    plan = day2.decommission_plan(jmx_nodes(live), [{"host": "w3", "names": []}], 3)
    assert plan["staying"] == ["m", "w2"] and "fewer than the replication factor 3" in plan["problems"][0]


def test_recommission_has_no_capacity_check_and_finds_dead_nodes():
    dead = {"w3:9866": {"xferaddr": "10.0.0.13:9866", "decommissioned": True}}
    live = {k: v for k, v in FOUR.items() if k != "w3:9866"}
    plan = day2.decommission_plan(jmx_nodes(live, dead), [{"host": "worker3", "names": ["10.0.0.13"]}], 9,
                                  "recommission")
    assert plan["problems"] == []
    assert plan["nodes"][0]["datanode"] == "w3" and plan["nodes"][0]["state"] == "dead (decommissioned)"


def test_a_node_the_namenode_never_saw_keeps_its_inventory_name():
    plan = day2.decommission_plan(jmx_nodes(FOUR), [{"host": "w9", "names": ["10.0.0.19"]}], 3)
    assert plan["nodes"][0] == {"host": "w9", "datanode": "w9", "exclude": "w9", "state": "unknown", "used_bytes": 0}


def test_a_datanode_on_a_data_network_is_excluded_by_its_rpc_address():
    # dfs.datanode.hostname = its data address: LiveNodes' key is that, xferaddr the address its RPC came from.
    live = dict(FOUR, **{"10.1.0.13:9866": node("10.0.0.13")})
    del live["w3:9866"]
    plan = day2.decommission_plan(jmx_nodes(live), [{"host": "worker3", "names": ["10.0.0.13", "10.1.0.13"]}], 3)
    assert plan["problems"] == []
    assert plan["nodes"][0]["datanode"] == "10.1.0.13" and plan["nodes"][0]["exclude"] == "10.0.0.13"


@pytest.mark.parametrize("leaving, replication, action, message", [
    ([{"host": "w3"}], 3, "retire", "decommission_action: 'retire'. Allowed: decommission, recommission"),
    ([], 3, "decommission", "leaving: a list of {host, names} is required"),
    ([{"names": []}], 3, "decommission", "leaving: a list of {host, names} is required"),
    ([{"host": "w3"}], "three", "decommission", "replication: a whole number >= 1 is required"),
    ([{"host": "w3"}], 0, "decommission", "replication: a whole number >= 1 is required"),
])
def test_decommission_bad_input(leaving, replication, action, message):
    with pytest.raises(day2.Day2Error, match=message.replace("(", r"\(").replace(")", r"\)").replace("{", r"\{").replace("}", r"\}")):
        day2.decommission_plan(jmx_nodes(FOUR), leaving, replication, action)


def test_decommission_filter_names_itself():
    with pytest.raises(AnsibleFilterError, match="^decommission_plan: replication"):
        FILTERS["decommission_plan"](jmx_nodes(FOUR), [{"host": "w3"}], "x")


# --- reset

@pytest.mark.parametrize("value", [None, False, "", "false", "no", " No "])
def test_reset_keeps_the_data_unless_told(value):
    assert day2.reset_delete_data(value) is False


def test_reset_deletes_the_data_with_the_words():
    assert day2.reset_delete_data("yes, delete all HDFS, YARN and ZooKeeper data") is True


@pytest.mark.parametrize("value", ["yes", True, "true", "yes, delete all HDFS data", 1])
def test_reset_refuses_any_other_value(value):
    with pytest.raises(day2.Day2Error, match='^reset_delete_data: .*Allowed: not set .*or exactly "yes, delete all HDFS, '
                                             'YARN and ZooKeeper data"'):
        day2.reset_delete_data(value)


def defaults():
    import yaml
    import pathlib
    root = pathlib.Path(__file__).resolve().parents[4] / "roles"
    out = {}
    for role in ("hadoop", "hdfs", "yarn", "spark", "zookeeper"):
        out.update(yaml.safe_load((root / role / "defaults" / "main.yml").read_text()))
    return out


def test_reset_paths_from_the_roles_defaults():
    paths = day2.reset_paths({}, defaults())
    assert "/opt/hadoop" in paths["remove"] and "/etc/hadoop/conf" in paths["remove"]
    assert "/etc/profile.d/spark.sh" in paths["remove"]
    # The KMS's password file goes with the configuration; its keystore (the zones' keys) is never deleted.
    assert "/etc/default/hadoop-kms" in paths["remove"]
    assert not [p for p in paths["remove"] + paths["data"] if p.startswith("/var/lib/hadoop-kms")]
    assert "/var/lib/hadoop-hdfs/name" in paths["data"] and "/var/lib/zookeeper/data" in paths["data"]
    # Only the directories the roles made on a data disk, never the mount point.
    assert "/data/disk1/hdfs" in paths["data"] and "/data/disk1/yarn" in paths["data"] and "/data/disk1" not in paths["data"]
    assert not set(paths["remove"]) & set(paths["data"])


def test_reset_paths_follow_the_hosts_variables():
    paths = day2.reset_paths({"hadoop_data_dirs": ["/mnt/a/"], "hdfs_name_dirs": ["/srv/nn1", "/srv/nn2"]}, defaults())
    assert "/mnt/a/hdfs" in paths["data"] and "/srv/nn2" in paths["data"] and "/data/disk1/hdfs" not in paths["data"]


@pytest.mark.parametrize("host_vars, message", [
    ({"hadoop_install_root": "/opt"}, "hadoop_install_root: /opt is a system directory"),
    ({"hdfs_name_dirs": ["relative/nn"]}, "hdfs_name_dirs: an absolute path is required"),
    ({"spark_conf_dir": "/etc/../etc"}, "spark_conf_dir: an absolute path is required"),
    ({"hadoop_data_dirs": "/data/disk1"}, "hadoop_data_dirs: a list of absolute paths is required"),
    ({"zookeeper_data_dir": "/var/lib/"}, "zookeeper_data_dir: /var/lib is a system directory"),
])
def test_reset_paths_bad_input(host_vars, message):
    with pytest.raises(day2.Day2Error, match="^" + message):
        day2.reset_paths(host_vars, defaults())
