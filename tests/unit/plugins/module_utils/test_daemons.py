"""The daemon table and the health decisions (plugins/module_utils/daemons.py, plugins/filter/daemons.py)."""

import pytest
from ansible.errors import AnsibleFilterError

from ansible_collections.bigdata.spark.plugins.filter.daemons import FilterModule, daemon_table, role_defaults
from ansible_collections.bigdata.spark.plugins.module_utils import daemons as d
from ansible_collections.bigdata.spark.plugins.module_utils import day2
from ansible_collections.bigdata.spark.plugins.module_utils import ha

# The roles' defaults, which fill what a host's variables do not set.
DEFAULTS = role_defaults()

# What /jmx?qry=Hadoop:service=NameNode,name=FSNamesystem* answered on the lab (trimmed to the keys read).
JMX = {"beans": [
    {"name": "Hadoop:service=NameNode,name=FSNamesystemState", "FSState": "Operational", "NumLiveDataNodes": 2,
     "NumDecomLiveDataNodes": 0, "NumDecomDeadDataNodes": 0},
    {"name": "Hadoop:service=NameNode,name=FSNamesystem", "MissingBlocks": 0, "CorruptBlocks": 0},
]}
METRICS = {"clusterMetrics": {"activeNodes": 2, "decommissionedNodes": 0, "decommissioningNodes": 0,
                              "lostNodes": 0, "unhealthyNodes": 0}}


def jmx(**changes):
    beans = [dict(b) for b in JMX["beans"]]
    for key, value in changes.items():
        for b in beans:
            if key in b:
                b[key] = value
    return {"beans": beans}


def test_table_order_groups_and_defaults():
    t = d.table({}, DEFAULTS)
    assert [x["unit"] for x in t] == ["zookeeper-server", "hadoop-kms", "hadoop-hdfs-journalnode", "hadoop-hdfs-namenode", "hadoop-hdfs-zkfc",
                                      "hadoop-hdfs-secondarynamenode",
                                      "hadoop-yarn-resourcemanager", "hadoop-mapred-historyserver",
                                      "spark-history-server", "uniffle-coordinator", "celeborn-master",
                                      "uniffle-shuffle-server", "celeborn-worker", "hadoop-hdfs-datanode",
                                      "hadoop-yarn-nodemanager"]
    assert d.units() == [x["unit"] for x in t]
    assert [x["kind"] for x in t] == ["master"] * 11 + ["worker"] * 4
    assert [x["group"] for x in t] == ["zookeeper", "kms", "journalnodes", "namenode", "namenode", "secondarynamenode", "resourcemanager",
                                       "jobhistory", "spark_history", "uniffle_coordinators", "celeborn_masters",
                                       "uniffle_servers", "celeborn_workers", "datanodes", "nodemanagers"]
    assert [x["port"] for x in t] == [2181, 9600, 8480, 9870, 8019, 9868, 8088, 19888, 18080, 19998, 9098, 19978, 9096, 9864,
                                      8042]


def test_files_each_daemon_reads():
    t = dict((x["name"], x["files"]) for x in d.table({}, DEFAULTS))
    assert t["namenode"] == ["/etc/systemd/system/hadoop-hdfs-namenode.service", "/opt/hadoop/current",
                             "/etc/hadoop/conf/core-site.xml", "/etc/hadoop/conf/hdfs-site.xml",
                             "/etc/hadoop/conf/hadoop-env.sh", "/etc/hadoop/conf/log4j.properties"]
    # yarn-site.xml restarts YARN's daemons, not HDFS's
    assert "/etc/hadoop/conf/yarn-site.xml" in t["nodemanager"]
    assert "/etc/hadoop/conf/yarn-site.xml" not in t["datanode"]
    assert "/etc/hadoop/conf/capacity-scheduler.xml" in t["resourcemanager"]
    assert "/etc/hadoop/conf/capacity-scheduler.xml" not in t["jobhistory"]
    # Spark's release: the history server and the NodeManager (the YARN shuffle service); Spark's
    # configuration directory: the history server only
    assert [n for n in t if "/opt/spark/current" in t[n]] == ["spark_history", "nodemanager"]
    assert [n for n in t if "/etc/spark/conf" in t[n]] == ["spark_history"]


def test_host_variables_move_paths_and_ports():
    t = dict((x["name"], x) for x in d.table({"hadoop_conf_dir": "/srv/conf/", "spark_install_root": "/srv/spark",
                                              "hdfs_namenode_http_port": "50070"}, DEFAULTS))
    assert t["namenode"]["port"] == 50070
    assert "/srv/conf/hdfs-site.xml" in t["namenode"]["files"]
    assert "/srv/spark/current" in t["nodemanager"]["files"]


@pytest.mark.parametrize("host_vars,message", [
    ({"hadoop_conf_dir": "etc/hadoop"}, "hadoop_conf_dir: an absolute path is required"),
    ({"spark_install_root": 5}, "spark_install_root: an absolute path is required"),
    ({"yarn_nodemanager_webapp_port": "http"}, "yarn_nodemanager_webapp_port: a port number is required"),
    ({"spark_history_port": 70000}, "spark_history_port: a port number is required (1-65535); got 70000"),
])
def test_bad_layout_or_port_is_named(host_vars, message):
    with pytest.raises(d.DaemonError, match=message.replace("(", r"\(").replace(")", r"\)")):
        d.table(host_vars, DEFAULTS)
    with pytest.raises(AnsibleFilterError, match="daemon_table: "):
        daemon_table(host_vars)


def test_filter_reads_only_the_table_variables():
    class Lazy(dict):
        """A host's variables: reading an unrelated one would fail (as an undefined template does)."""

        def get(self, key, default=None):
            assert key in ("hadoop_conf_dir", "hadoop_install_root", "spark_conf_dir", "spark_install_root",
                           "zookeeper_install_root", "zookeeper_conf_dir", "uniffle_install_root", "uniffle_conf_dir",
                           "celeborn_install_root", "celeborn_conf_dir", "hadoop_tls_enabled", "hadoop_tls_dir",
                           "hadoop_kerberos_enabled") or \
                key.endswith("_port"), key
            return dict.get(self, key, default)
    assert [x["port"] for x in daemon_table(Lazy(hdfs_datanode_http_port=1022)) if x["name"] == "datanode"] == [1022]
    assert daemon_table(None) == d.table({}, DEFAULTS)
    with pytest.raises(AnsibleFilterError, match="a mapping"):
        daemon_table(["namenode"])
    assert set(FilterModule().filters()) == {"daemon_table", "daemon_url", "tls_transition_problems", "role_daemons", "daemon_ports", "hdfs_problems",
                                             "yarn_problems", "ha_plan", "ha_namenode_actions", "restart_rules",
                                             "rule_plan", "rule_states", "rule_state", "rolled_txid",
                                             "journal_sync_problems", "service_selection", "daemon_status", "uptime",
                                             "status_table", "status_rows", "ui_links", "reset_paths",
                                             "kerberos_host_plan", "kerberos_host_keytabs", "kerberos_daemon_plan", "hadoop_auth_to_local"}


def test_defaults_are_the_roles_own():
    # One source: the literal defaults of the roles that own the variables; templated ones are left to the play.
    assert DEFAULTS["hadoop_conf_dir"] == "/etc/hadoop/conf" and DEFAULTS["spark_install_root"] == "/opt/spark"
    assert DEFAULTS["hadoop_namenode_rpc_port"] == 9000 and DEFAULTS["yarn_nodemanager_port"] == 45454
    assert DEFAULTS["hadoop_users"]["mapred"] == "mapred"
    assert "yarn_jobhistory_host" not in DEFAULTS and "spark_history_host" not in DEFAULTS
    # The table's variables, the HA plan's (plugins/module_utils/ha.py) and reset's paths (day2.py).
    assert set(DEFAULTS) <= set(d.variables_read()) | set(ha.VARIABLES) | set(day2.RESET_VARS)
    assert DEFAULTS["hdfs_name_dirs"] == ["/var/lib/hadoop-hdfs/name"]
    assert sorted(set(d.owner(v) for v in d.variables_read())) == ["celeborn", "hadoop", "hdfs", "spark", "uniffle", "yarn",
                                                                   "zookeeper"]


def test_a_variable_neither_set_nor_defaulted_is_named():
    with pytest.raises(d.DaemonError, match=r"hadoop_conf_dir is not set \(it is a default of the hadoop role"):
        d.table({})
    with pytest.raises(d.DaemonError, match=r"spark_history_port is not set \(it is a default of the spark role"):
        d.table(dict((k, v) for k, v in DEFAULTS.items() if k != "spark_history_port"))


def test_hdfs_healthy_and_each_problem():
    assert d.hdfs_problems(JMX, 2) == []
    assert d.hdfs_problems(jmx(FSState="safeMode"), 2) == ["HDFS is in safeMode, not Operational"]
    assert d.hdfs_problems(jmx(NumLiveDataNodes=1), 2) == [
        "1 DataNode(s) live and in service, 2 expected (2 in the inventory, 0 decommissioned)"]
    assert d.hdfs_problems(jmx(MissingBlocks=3, CorruptBlocks=1), 2) == ["3 missing block(s)", "1 corrupt block(s)"]


def test_hdfs_decommissioned_nodes_are_not_expected():
    # a node decommissioned and stopped: 1 live of 2 in the inventory is healthy
    assert d.hdfs_problems(jmx(NumLiveDataNodes=1, NumDecomDeadDataNodes=1), 2) == []
    # decommissioned but still running: it does not count as serving, and is not expected to
    assert d.hdfs_problems(jmx(NumLiveDataNodes=2, NumDecomLiveDataNodes=1), 2) == []
    # a new node not yet in the inventory does not hide a missing one... but more live than expected is fine
    assert d.hdfs_problems(jmx(NumLiveDataNodes=3), 2) == []


def test_hdfs_no_or_partial_answer():
    assert d.hdfs_problems(None, 2) == ["the NameNode gave no JMX answer (is it up?)"]
    assert d.hdfs_problems({"beans": [JMX["beans"][0]]}, 2) == ["the NameNode's JMX lacks MissingBlocks, CorruptBlocks"]
    with pytest.raises(d.DaemonError, match="expected_datanodes: a count >= 0 is required; got -1"):
        d.hdfs_problems(JMX, -1)
    with pytest.raises(d.DaemonError, match="expected_datanodes"):
        d.hdfs_problems(JMX, True)


def test_yarn_healthy_problem_and_decommissioned():
    assert d.yarn_problems(METRICS, 2) == []
    short = {"clusterMetrics": dict(METRICS["clusterMetrics"], activeNodes=1, lostNodes=1)}
    assert d.yarn_problems(short, 2) == [
        "1 NodeManager(s) RUNNING, 2 expected (2 in the inventory, 0 decommissioned or decommissioning; lost 1, "
        "unhealthy 0)"]
    leaving = {"clusterMetrics": dict(METRICS["clusterMetrics"], activeNodes=1, decommissioningNodes=1)}
    assert d.yarn_problems(leaving, 2) == []
    assert d.yarn_problems({}, 2) == ["the ResourceManager gave no cluster metrics (is it up?)"]
    assert d.yarn_problems({"clusterMetrics": {"activeNodes": 2}}, 2) == [
        "the ResourceManager's metrics lack decommissionedNodes, decommissioningNodes"]
    with pytest.raises(AnsibleFilterError, match="yarn_problems: expected_nodemanagers"):
        FilterModule().filters()["yarn_problems"](METRICS, "two")


def ha_jmx(state, **changes):
    """A NameNode's answer with its HA state (the FSNamesystem bean's tag.HAState)."""
    out = jmx(**changes)
    for bean in out["beans"]:
        if bean["name"] == "Hadoop:service=NameNode,name=FSNamesystem":
            bean["tag.HAState"] = state
    return out


def test_hdfs_ha_judges_the_active_namenode():
    # every NameNode's answer: the active one is judged (the standby's counts are its own, late view)
    assert d.hdfs_problems([ha_jmx("standby", NumLiveDataNodes=0), ha_jmx("active")], 2) == []
    assert d.hdfs_problems([ha_jmx("active", MissingBlocks=3), ha_jmx("standby")], 2) == ["3 missing block(s)"]
    assert d.hdfs_problems([ha_jmx("standby"), None], 2) == [
        "0 active NameNode(s), 1 expected (states: standby, no answer)"]
    assert d.hdfs_problems([ha_jmx("active"), ha_jmx("active")], 2) == [
        "2 active NameNode(s), 1 expected (states: active, active)"]
    # one NameNode's answer in the gate's loop: a standby passes with standby_ok, is judged without
    assert d.hdfs_problems(ha_jmx("standby", NumLiveDataNodes=0), 2, True) == []
    assert d.hdfs_problems(ha_jmx("standby", NumLiveDataNodes=0), 2) != []
    assert d.hdfs_problems(ha_jmx("active", NumLiveDataNodes=0), 2, True) != []


def test_yarn_ha_judges_the_answer_with_metrics():
    # every ResourceManager's answer: a standby's notice is not JSON (None), the active one's metrics are judged
    assert d.yarn_problems([None, METRICS], 2) == []
    assert d.yarn_problems([None, METRICS], 3)[0].startswith("2 NodeManager(s) RUNNING, 3 expected")
    assert d.yarn_problems([None, None], 2) == [
        "no ResourceManager answered active with cluster metrics (2 asked; states: no answer, no answer)"]


def _rm_jmx(state, active, decommissioned=0):
    return {"beans": [{"name": "Hadoop:service=ResourceManager,name=RMInfo", "State": state},
                      {"name": "Hadoop:service=ResourceManager,name=ClusterMetrics", "NumActiveNMs": active,
                       "NumDecommissionedNMs": decommissioned, "NumDecommissioningNMs": 0, "NumLostNMs": 0,
                       "NumUnhealthyNMs": 0},
                      {"name": "Hadoop:service=ResourceManager,name=JvmMetrics"}]}


def test_yarn_health_from_the_resourcemanagers_jmx():
    # The JMX answer (open in secure mode): a standby's bean counts no NodeManager; the active one's is judged.
    assert d.yarn_problems(_rm_jmx("active", 3), 3) == []
    assert d.yarn_problems(_rm_jmx("active", 2, decommissioned=1), 3) == []
    assert d.yarn_problems(_rm_jmx("active", 2), 3)[0].startswith("2 NodeManager(s) RUNNING, 3 expected")
    assert d.yarn_problems([_rm_jmx("standby", 0), _rm_jmx("active", 3)], 3) == []
    assert d.yarn_problems([_rm_jmx("standby", 0), _rm_jmx("standby", 0)], 3) == [
        "no ResourceManager answered active with cluster metrics (2 asked; states: standby, standby)"]
    # The gate waits on each ResourceManager in turn: a standby's own answer passes only with standby_ok.
    assert d.yarn_problems(_rm_jmx("standby", 0), 3, True) == []
    assert d.yarn_problems(_rm_jmx("standby", 0), 3)[0].startswith("0 NodeManager(s) RUNNING")
    assert d.rule_state("/jmx?qry=Hadoop:service=ResourceManager,name=RMInfo", _rm_jmx("standby", 0)) == "standby"


def test_in_secure_mode_the_spark_history_servers_401_counts_as_its_health():
    # Without Kerberos its REST API must answer 200; in secure mode SPNEGO answers a client without a ticket first, and
    # 401 counts too, for the table, its role's entries and the status table. The other daemons keep 200 alone.
    plain = dict(spark_history_host="m", inventory_hostname="m", spark_history_enabled=True)
    secure = dict(plain, hadoop_kerberos_enabled=True)
    for host_vars, codes in ((plain, [200]), (secure, [200, 401])):
        assert [e["health_codes"] for e in d.table(host_vars, DEFAULTS) if e["name"] == "spark_history"] == [codes]
        assert [e["health_codes"] for e in d.role_daemons("spark", host_vars, DEFAULTS)
                if e["name"] == "spark_history"] == [codes]
        assert set(e["health"] for e in d.table(host_vars, DEFAULTS) if e["name"] == "spark_history") == {"/api/v1/version"}
    assert [e["health_codes"] for e in d.table(secure, DEFAULTS) if e["name"] == "namenode"] == [[200]]
    entries = [e for e in d.table(secure, DEFAULTS) if e["name"] in ("spark_history", "namenode")]
    status = [{"unit": e["unit"], "state": "active", "release": "3.3.6", "uptime_s": 60} for e in entries]
    answers = {"health": [{"item": e, "status": 401} for e in entries]}
    rows = d.status_rows("m", "m", status, entries, answers)
    assert dict((r["daemon"], r["health"]) for r in rows) == {"spark_history": "ok", "namenode": "HTTP 401"}
