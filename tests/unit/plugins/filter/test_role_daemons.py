"""Each role's daemons and the preflight ports come from the daemon table (plugins/filter/daemons.py), and the
units rendered from them are the ones the roles wrote before (units/*.service: what ansible-playbook rendered
from the roles' former hand-written daemon lists, for the lab's layout)."""

import pathlib

import jinja2
import pytest
import yaml
from ansible.errors import AnsibleFilterError
from ansible.plugins.filter.core import FilterModule as CoreFilters

from ansible_collections.bigdata.spark.plugins.filter.daemons import daemon_ports, role_daemons
from ansible_collections.bigdata.spark.plugins.module_utils import daemons as d

ROOT = pathlib.Path(__file__).resolve().parents[4]
UNITS = pathlib.Path(__file__).resolve().parent / "units"


def literal_defaults():
    out = {}
    for role in ("hadoop", "hdfs", "yarn", "spark"):
        data = yaml.safe_load((ROOT / "roles" / role / "defaults" / "main.yml").read_text())
        out.update((k, v) for k, v in data.items() if not (isinstance(v, str) and "{{" in v))
    return out


def host(name, groups, **more):
    """The variables a role sees on a host: the roles' literal defaults, the inventory's groups, and more."""
    variables = literal_defaults()
    variables.update(inventory_hostname=name, group_names=groups, yarn_jobhistory_host="master",
                     spark_history_host="master", spark_history_enabled=True,
                     hdfs_secondarynamenode_host="master", hdfs_secondarynamenode_enabled=True,
                     hdfs_ha_enabled=False)
    variables.update(more)
    return variables


MASTER = host("master", ["namenode", "resourcemanager", "jobhistory", "spark_history", "datanodes"])
WORKER = host("worker1", ["datanodes", "nodemanagers", "workers"])


def enabled(daemons):
    return [x["unit"] for x in daemons if x["enabled"]]


def test_each_role_lists_its_daemons_in_start_order():
    assert [x["unit"] for x in role_daemons("hdfs", MASTER)] == [
        "hadoop-kms", "hadoop-hdfs-journalnode", "hadoop-hdfs-namenode", "hadoop-hdfs-secondarynamenode",
        "hadoop-hdfs-zkfc", "hadoop-hdfs-datanode"]
    assert [x["unit"] for x in role_daemons("yarn", MASTER)] == [
        "hadoop-yarn-resourcemanager", "hadoop-yarn-nodemanager", "hadoop-mapred-historyserver"]
    assert [x["unit"] for x in role_daemons("spark", MASTER)] == ["spark-history-server"]
    assert sorted(x["unit"] for r in d.roles() for x in role_daemons(r, MASTER)) == sorted(d.units())


@pytest.mark.parametrize("variables,hdfs,yarn,spark", [
    (MASTER, ["hadoop-hdfs-namenode", "hadoop-hdfs-secondarynamenode", "hadoop-hdfs-datanode"],
     ["hadoop-yarn-resourcemanager", "hadoop-mapred-historyserver"], ["spark-history-server"]),
    (WORKER, ["hadoop-hdfs-datanode"], ["hadoop-yarn-nodemanager"], []),
    # The JobHistory and history servers run on the host their variable names, not on their whole group.
    (dict(MASTER, yarn_jobhistory_host="other", spark_history_host="other", hdfs_secondarynamenode_host="other"),
     ["hadoop-hdfs-namenode", "hadoop-hdfs-datanode"], ["hadoop-yarn-resourcemanager"], []),
    # The SecondaryNameNode on a host of its own (the group secondarynamenode), and off (HA).
    (dict(WORKER, hdfs_secondarynamenode_host="worker1"),
     ["hadoop-hdfs-secondarynamenode", "hadoop-hdfs-datanode"], ["hadoop-yarn-nodemanager"], []),
    (dict(MASTER, hdfs_secondarynamenode_enabled=False), ["hadoop-hdfs-namenode", "hadoop-hdfs-datanode"],
     ["hadoop-yarn-resourcemanager", "hadoop-mapred-historyserver"], ["spark-history-server"]),
    (dict(WORKER, yarn_jobhistory_host="worker1", spark_history_host="worker1"),
     ["hadoop-hdfs-datanode"], ["hadoop-yarn-nodemanager", "hadoop-mapred-historyserver"], ["spark-history-server"]),
    # HA: a JournalNode where the group journalnodes says, a failover controller beside each NameNode.
    (dict(MASTER, hdfs_ha_enabled=True, hdfs_secondarynamenode_enabled=False,
          group_names=MASTER["group_names"] + ["journalnodes"]),
     ["hadoop-hdfs-journalnode", "hadoop-hdfs-namenode", "hadoop-hdfs-zkfc", "hadoop-hdfs-datanode"],
     ["hadoop-yarn-resourcemanager", "hadoop-mapred-historyserver"], ["spark-history-server"]),
    (dict(MASTER, spark_history_enabled=False),
     ["hadoop-hdfs-namenode", "hadoop-hdfs-secondarynamenode", "hadoop-hdfs-datanode"],
     ["hadoop-yarn-resourcemanager", "hadoop-mapred-historyserver"], []),
])
def test_enabled_follows_groups_and_host_variables(variables, hdfs, yarn, spark):
    assert enabled(role_daemons("hdfs", variables)) == hdfs
    assert enabled(role_daemons("yarn", variables)) == yarn
    assert enabled(role_daemons("spark", variables)) == spark


def test_users_ports_and_runtime_fields_are_resolved():
    variables = dict(MASTER, hadoop_users={"hdfs": "hdfs2", "yarn": "yarn2", "mapred": "mr2", "spark": "sp2"},
                     hdfs_namenode_http_port="50070")
    hdfs = dict((x["name"], x) for x in role_daemons("hdfs", variables))
    assert hdfs["namenode"]["user"] == "hdfs2"
    assert hdfs["namenode"]["ports"] == [9000, 50070] and hdfs["namenode"]["port"] == 50070
    assert hdfs["datanode"]["ports"] == [9864]
    assert (hdfs["secondarynamenode"]["user"], hdfs["secondarynamenode"]["ports"]) == ("hdfs2", [9868])
    yarn = dict((x["name"], x) for x in role_daemons("yarn", variables, {"nodemanager": {"kill_mode_process": True}}))
    assert [yarn[n]["user"] for n in ("resourcemanager", "nodemanager", "jobhistory")] == ["yarn2", "yarn2", "mr2"]
    assert yarn["resourcemanager"]["ports"] == [8032, 8088]
    assert yarn["nodemanager"]["ports"] == [45454, 8042] and yarn["nodemanager"]["kill_mode_process"] is True
    assert "kill_mode_process" not in yarn["resourcemanager"]
    assert yarn["jobhistory"]["ports"] == [10020, 19888]
    (history,) = role_daemons("spark", variables)
    assert (history["user"], history["port"], history["class"], history["args"]) == (
        "sp2", 18080, "org.apache.spark.deploy.history.HistoryServer", [])


@pytest.mark.parametrize("args,message", [
    (("hbase", MASTER), "role_daemons: role: one of hdfs, yarn, spark, zookeeper, uniffle, celeborn is required; got 'hbase'"),
    (("hdfs", ["namenode"]), "role_daemons: the input must be a host's variables (a mapping)"),
    (("yarn", MASTER, {"datanode": {}}), "role_daemons: runtime: datanode not daemon(s) of the yarn role"),
    (("yarn", MASTER, ["nodemanager"]), "role_daemons: runtime: a mapping of daemon name -> fields is required"),
    (("hdfs", dict(MASTER, hadoop_users={"yarn": "yarn"})), "hadoop_users: a user for 'hdfs' is required"),
    (("yarn", dict(MASTER, yarn_nodemanager_port="any")), "yarn_nodemanager_port: a port number is required"),
    (("spark", dict((k, v) for k, v in MASTER.items() if k != "spark_history_host")),
     "spark_history_host is not set (it is a default of the spark role"),
])
def test_bad_input_is_named(args, message):
    with pytest.raises(AnsibleFilterError, match=message.replace("(", r"\(").replace(")", r"\)")):
        role_daemons(*args)


def test_preflight_ports_are_every_port_each_daemon_binds():
    assert daemon_ports({}) == [
        {"group": "kms", "unit": "hadoop-kms", "ports": [9600]},
        {"group": "journalnodes", "unit": "hadoop-hdfs-journalnode", "ports": [8480, 8485]},
        {"group": "namenode", "unit": "hadoop-hdfs-namenode", "ports": [9000, 9870]},
        {"group": "secondarynamenode", "unit": "hadoop-hdfs-secondarynamenode", "ports": [9868]},
        {"group": "namenode", "unit": "hadoop-hdfs-zkfc", "ports": [8019]},
        {"group": "datanodes", "unit": "hadoop-hdfs-datanode", "ports": [9864, 9866, 9867]},
        {"group": "resourcemanager", "unit": "hadoop-yarn-resourcemanager", "ports": [8030, 8031, 8032, 8033, 8088]},
        {"group": "nodemanagers", "unit": "hadoop-yarn-nodemanager", "ports": [7337, 8040, 8042, 45454]},
        {"group": "jobhistory", "unit": "hadoop-mapred-historyserver", "ports": [10020, 19888]},
        {"group": "spark_history", "unit": "spark-history-server", "ports": [18080]},
        {"group": "zookeeper", "unit": "zookeeper-server", "ports": [2181, 2888, 3888]},
        {"group": "uniffle_coordinators", "unit": "uniffle-coordinator", "ports": [19998, 19999]},
        {"group": "uniffle_servers", "unit": "uniffle-shuffle-server", "ports": [19978, 19979]},
        {"group": "celeborn_masters", "unit": "celeborn-master", "ports": [9097, 9098, 9872]},
        {"group": "celeborn_workers", "unit": "celeborn-worker", "ports": [9091, 9092, 9093, 9094, 9096]},
    ]
    moved = dict((x["unit"], x["ports"]) for x in daemon_ports({"yarn_spark_shuffle_port": 7447, "hdfs_datanode_ipc_port": None}))
    assert moved["hadoop-yarn-nodemanager"] == [7447, 8040, 8042, 45454]
    assert moved["hadoop-hdfs-datanode"] == [9864, 9866, 9867]
    with pytest.raises(AnsibleFilterError, match="daemon_ports: spark_history_port: a port number is required"):
        daemon_ports({"spark_history_port": 0})


def _render(template, item, variables):
    env = jinja2.Environment(undefined=jinja2.ChainableUndefined, trim_blocks=True, keep_trailing_newline=True)
    env.filters["bool"] = CoreFilters().filters()["bool"]
    text = (ROOT / template).read_text()
    return env.from_string(text).render(dict(variables, item=item, ansible_managed="managed"))


@pytest.mark.parametrize("role,variables,runtime", [
    ("hdfs", MASTER, None),
    ("yarn", MASTER, None),
    ("yarn", WORKER, {"nodemanager": {"kill_mode_process": True}}),
])
def test_hadoop_units_render_as_before(role, variables, runtime):
    for item in role_daemons(role, variables, runtime):
        if item["enabled"]:
            assert _render("roles/hadoop/templates/hadoop-daemon.service.j2", item, variables) == \
                (UNITS / (item["unit"] + ".service")).read_text(), item["unit"]


def test_nodemanager_without_recovery_keeps_the_default_kill_mode():
    (nm,) = [x for x in role_daemons("yarn", WORKER, {"nodemanager": {"kill_mode_process": False}}) if x["enabled"]]
    text = _render("roles/hadoop/templates/hadoop-daemon.service.j2", nm, WORKER)
    pinned = (UNITS / "hadoop-yarn-nodemanager.service").read_text().splitlines(keepends=True)
    kill_mode = [i for i, line in enumerate(pinned) if line.startswith("# NodeManager recovery")][0]
    assert text == "".join(pinned[:kill_mode] + pinned[kill_mode + 4:])
    assert "KillMode" not in text


def test_spark_history_unit_renders_as_before():
    (item,) = role_daemons("spark", MASTER)
    variables = dict(MASTER, __spark_home=MASTER["spark_install_root"] + "/current")
    assert _render("roles/spark/templates/spark-daemon.service.j2", item, variables) == \
        (UNITS / "spark-history-server.service").read_text()
