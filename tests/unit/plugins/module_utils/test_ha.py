"""The HA shape and settings from the inventory (plugins/module_utils/ha.py, the ha_plan filter)."""

import pytest
from ansible.errors import AnsibleFilterError

from ansible_collections.bigdata.spark.plugins.filter.daemons import FilterModule, role_defaults
from ansible_collections.bigdata.spark.plugins.module_utils import ha
from ansible_collections.bigdata.spark.plugins.module_utils.hadoop_conf import render_hadoop_xml

ha_plan_filter = FilterModule().filters()["ha_plan"]

# The roles' literal defaults of the variables the HA plan reads.
DEFAULTS = dict((k, role_defaults().get(k)) for k in ha.VARIABLES)

# The production-shaped lab with HA: two NameNodes and ResourceManagers, three JournalNodes and ZooKeepers.
HA_GROUPS = {
    "namenode": ["m1", "m2"], "resourcemanager": ["m1", "m2"], "journalnodes": ["m1", "m2", "w1"],
    "zookeeper": ["m1", "m2", "w1"], "datanodes": ["m1", "m2", "w1"],
}
PLAIN_GROUPS = {"namenode": ["m1"], "resourcemanager": ["m1"], "datanodes": ["w1", "w2"]}


def plan(groups=None, addresses=None, **overrides):
    variables = dict(DEFAULTS, **overrides)
    return ha.ha_plan(HA_GROUPS if groups is None else groups, variables, addresses)


def test_every_variable_has_a_role_default():
    assert [k for k in ha.VARIABLES if DEFAULTS[k] is None] == []


def test_plain_inventory_changes_nothing():
    out = plan(PLAIN_GROUPS)
    assert (out["hdfs"], out["yarn"], out["errors"]) == (False, False, [])
    assert out["core_site"] == out["hdfs_site"] == out["yarn_site"] == {}


def test_secure_mode_gives_the_masters_znodes_to_their_principals():
    out = plan(hadoop_kerberos_enabled=True)
    assert out["core_site"]["ha.zookeeper.acl"] == "sasl:nn:rwcda"
    assert out["yarn_site"]["hadoop.zk.acl"] == "sasl:rm:rwcda"
    plain = plan()
    assert "ha.zookeeper.acl" not in plain["core_site"] and "hadoop.zk.acl" not in plain["yarn_site"]


def test_hdfs_ha_settings():
    out = plan()
    assert out["errors"] == []
    assert out["namenodes"] == {"m1": "nn1", "m2": "nn2"}
    assert out["core_site"] == {"fs.defaultFS": "hdfs://bigdata", "ha.zookeeper.quorum": "m1:2181,m2:2181,w1:2181"}
    site = out["hdfs_site"]
    assert site["dfs.nameservices"] == "bigdata"
    assert site["dfs.ha.namenodes.bigdata"] == "nn1,nn2"
    assert site["dfs.namenode.rpc-address.bigdata.nn2"] == "m2:9000"
    assert site["dfs.namenode.http-address.bigdata.nn1"] == "m1:9870"
    assert site["dfs.namenode.http-address"] is None
    assert site["dfs.namenode.shared.edits.dir"] == "qjournal://m1:8485;m2:8485;w1:8485/bigdata"
    assert site["dfs.ha.fencing.methods"] == "shell(/bin/true)"
    assert site["dfs.ha.automatic-failover.enabled"] is True
    assert site["dfs.client.failover.proxy.provider.bigdata"].endswith("ConfiguredFailoverProxyProvider")


def test_yarn_ha_settings():
    site = plan()["yarn_site"]
    assert site["yarn.resourcemanager.ha.rm-ids"] == "rm1,rm2"
    assert site["yarn.resourcemanager.hostname.rm2"] == "m2"
    assert site["yarn.resourcemanager.webapp.address.rm1"] == "m1:8088"
    assert site["hadoop.zk.address"] == "m1:2181,m2:2181,w1:2181"
    assert site["yarn.resourcemanager.store.class"].endswith("ZKRMStateStore")
    assert site["yarn.resourcemanager.work-preserving-recovery.enabled"] is True
    # NodeManagers and clients fail over in seconds, not after 30-s sleeps.
    assert (site["yarn.client.failover-sleep-base-ms"], site["yarn.client.failover-sleep-max-ms"]) == (500, 15000)
    # The single-master keys are removed, not left pointing at one host.
    assert site["yarn.resourcemanager.hostname"] is None and site["yarn.resourcemanager.address"] is None


def test_yarn_ha_alone():
    out = plan(dict(PLAIN_GROUPS, resourcemanager=["m1", "m2"], zookeeper=["z1", "z2", "z3"]))
    assert (out["hdfs"], out["yarn"], out["errors"]) == (False, True, [])
    assert out["hdfs_site"] == {} and out["core_site"] == {}


def test_nameservice_order_decides_the_ids():
    out = plan(hdfs_ha_namenodes=["m2", "m1"])
    assert out["namenodes"] == {"m2": "nn1", "m1": "nn2"}


def test_fencing_methods_one_per_line_in_the_file():
    out = plan(hdfs_ha_fencing_methods=["sshfence(hdfs:22)", "shell(/bin/true)"])
    assert out["errors"] == []
    xml = render_hadoop_xml({"dfs.ha.fencing.methods": out["hdfs_site"]["dfs.ha.fencing.methods"]})
    assert "<value>sshfence(hdfs:22)\nshell(/bin/true)</value>" in xml


# (groups change or variables, addresses, the text the one error must hold)
BAD = {
    "two-namenodes-without-journalnodes": (
        {"journalnodes": []}, {}, None, "inventory group 'journalnodes': no host, but the group namenode has 2 hosts"),
    "one-journalnode": ({"journalnodes": ["m1"]}, {}, None, "inventory group 'journalnodes': 1 host(s). Allowed: 3 or 5"),
    "four-journalnodes": ({"journalnodes": ["a", "b", "c", "d"]}, {}, None,
                          "inventory group 'journalnodes': 4 hosts. Allowed: an odd number"),
    "journalnodes-on-one-host": ({}, {}, ["10.0.0.5", "10.0.0.5", "10.0.0.5"],
                                 "inventory group 'journalnodes': its 3 members share 1 address(es) (10.0.0.5)"),
    "even-zookeeper": ({"zookeeper": ["m1", "m2"]}, {}, None, "inventory group 'zookeeper': 2 hosts. Allowed: an odd"),
    "ha-without-zookeeper": ({"zookeeper": []}, {}, None,
                             "inventory group 'zookeeper': no host, but HDFS and YARN HA elects"),
    "ha-without-fencing": ({}, {"hdfs_ha_fencing_methods": []}, None,
                           "hdfs_ha_fencing_methods: [] with HDFS HA. Allowed: a list of one or more fencing methods"),
    "bad-fencing-method": ({}, {"hdfs_ha_fencing_methods": ["kill -9"]}, None,
                           "hdfs_ha_fencing_methods: 'kill -9'. Allowed: shell(COMMAND) or sshfence"),
    "nameservice-characters": ({}, {"hdfs_nameservice": "my_ns.prod"}, None,
                               "hdfs_nameservice: 'my_ns.prod'. Allowed: lowercase letters, digits and '-'"),
    "namenode-not-in-list": ({}, {"hdfs_ha_namenodes": ["m1", "m3"]}, None, "hdfs_ha_namenodes: m2 (in the group namenode)"),
    "rm-cluster-id": ({}, {"yarn_cluster_id": "Prod Cluster"}, None, "yarn_cluster_id: 'Prod Cluster'"),
    "journal-dir-relative": ({}, {"hdfs_journalnode_edits_dir": "journal"}, None,
                             "hdfs_journalnode_edits_dir: 'journal' is not an absolute path"),
    "zkfc-port": ({}, {"hdfs_zkfc_port": 99999}, None, "hdfs_zkfc_port: 99999 is not a port"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_input_is_named(case):
    groups, variables, addresses, text = BAD[case]
    out = plan(dict(HA_GROUPS, **groups), addresses, **variables)
    assert any(text in e for e in out["errors"]), out["errors"]


def test_namenode_listed_but_not_in_group():
    out = plan(hdfs_ha_namenodes=["m1", "m2", "m9"])
    assert out["errors"] == ["hdfs_ha_namenodes: m9 is not in the group namenode (m1, m2). Allowed: hosts of that group."]


def test_even_zookeeper_refused_without_ha_too():
    out = plan(dict(PLAIN_GROUPS, zookeeper=["a", "b", "c", "d"]))
    assert len(out["errors"]) == 1 and "'zookeeper': 4 hosts" in out["errors"][0]


def test_distinct_addresses_pass():
    assert plan(addresses=["10.0.0.1", "10.0.0.2", ""])["errors"] == []


def test_filter_falls_back_on_role_defaults():
    out = ha_plan_filter(HA_GROUPS, {"hdfs_nameservice": "prod"})
    assert out["core_site"]["fs.defaultFS"] == "hdfs://prod" and out["errors"] == []


def test_filter_refuses_wrong_types():
    with pytest.raises(AnsibleFilterError, match="ha_plan: groups: a mapping"):
        ha_plan_filter(["m1"], {})
    with pytest.raises(AnsibleFilterError, match="journal_addresses: one address per JournalNode"):
        ha_plan_filter(HA_GROUPS, {}, ["10.0.0.1"])


ORDER = ["m1", "m2"]
JN_EMPTY = {"m1": False, "m2": False, "w1": False}
JN_FULL = {"m1": True, "m2": True, "w1": True}


@pytest.mark.parametrize("namenodes, journals, actions, refuse", [
    # a fresh nameservice: the first NameNode formats (the JournalNodes too), the others copy it
    ({"m1": "empty", "m2": "empty"}, JN_EMPTY, {"m1": "format", "m2": "bootstrap"}, ""),
    # a rerun: nothing to prepare
    ({"m1": "formatted", "m2": "formatted"}, JN_FULL, {"m1": "start", "m2": "start"}, ""),
    # a replaced standby: its disks are empty, the other holds the namespace
    ({"m1": "formatted", "m2": "empty"}, JN_FULL, {"m1": "start", "m2": "bootstrap"}, ""),
    ({"m1": "empty", "m2": "formatted"}, JN_FULL, {"m1": "bootstrap", "m2": "start"}, ""),
    # conversion of a single-NameNode cluster: its edits go into the new journal, the new NameNode copies it
    ({"m1": "formatted", "m2": "empty"}, JN_EMPTY, {"m1": "initialize_shared_edits", "m2": "bootstrap"}, ""),
    # one JournalNode replaced (empty): the others hold the journal; nothing is formatted
    ({"m1": "formatted", "m2": "formatted"}, dict(JN_FULL, w1=False), {"m1": "start", "m2": "start"}, ""),
    # never a format over an existing journal
    ({"m1": "empty", "m2": "empty"}, dict(JN_EMPTY, w1=True), {"m1": "start", "m2": "start"},
     "the JournalNodes w1 hold a journal of this nameservice but every NameNode directory is empty"),
    ({"m1": "formatted", "m2": "formatted"}, JN_EMPTY, {"m1": "start", "m2": "start"},
     "the NameNodes m1, m2 all hold metadata but the journal is empty"),
    # a run limited to some hosts (--limit): the left-out hosts' disks are unknown
    ({"m1": "formatted", "m2": "unknown"}, dict(JN_FULL, m2="unknown", w1="unknown"), {"m1": "start", "m2": "start"}, ""),
    ({"m1": "unknown", "m2": "unknown"}, {"m1": "unknown", "m2": "unknown", "w1": False}, {"m1": "start", "m2": "start"}, ""),
    ({"m1": "formatted", "m2": "empty"}, dict(JN_FULL, w1="unknown"), {"m1": "start", "m2": "start"},
     "m2 is empty, and the run leaves out w1 (--limit)"),
    ({"m1": "formatted", "m2": "unknown"}, {"m1": False, "m2": "unknown", "w1": "unknown"}, {"m1": "start", "m2": "start"},
     "no JournalNode of the run holds the journal, and the run leaves out m2, w1 (--limit)"),
])
def test_namenode_actions(namenodes, journals, actions, refuse):
    out = ha.namenode_actions(ORDER, namenodes, journals)
    assert out["actions"] == actions
    assert out["refuse"].startswith(refuse) and bool(out["refuse"]) == bool(refuse)


def test_namenode_actions_refuse_unknown_state():
    with pytest.raises(ha.HaError, match="namenodes: m2 is None"):
        ha.namenode_actions(ORDER, {"m1": "empty"}, {})
    with pytest.raises(ha.HaError, match="journals: w1 is 'yes'"):
        ha.namenode_actions(ORDER, {"m1": "empty", "m2": "empty"}, {"w1": "yes"})


def test_tls_adds_the_https_addresses():
    site = plan(hadoop_tls_enabled=True)
    hdfs, yarn = site["hdfs_site"], site["yarn_site"]
    assert site["errors"] == []
    assert hdfs["dfs.namenode.https-address.bigdata.nn1"] == "m1:9871"
    assert hdfs["dfs.namenode.https-address.bigdata.nn2"] == "m2:9871"
    assert hdfs["dfs.namenode.https-address"] is None
    assert hdfs["dfs.journalnode.https-address"] == "0.0.0.0:8481"
    assert yarn["yarn.resourcemanager.webapp.https.address.rm2"] == "m2:8090"
    assert yarn["yarn.resourcemanager.webapp.https.address"] is None
    # Without TLS none of them is written.
    plain = plan()
    assert [k for k in list(plain["hdfs_site"]) + list(plain["yarn_site"]) if "https" in k] == []


def test_tls_bad_https_port_is_named():
    assert "hdfs_namenode_https_port: 'x' is not a port. Allowed: 1-65535." in plan(
        hadoop_tls_enabled=True, hdfs_namenode_https_port="x")["errors"]
