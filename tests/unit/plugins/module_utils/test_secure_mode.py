"""Hadoop's Kerberos secure mode: the keytabs and tickets each host gets from the daemon table, the principal-to-user
rules, and the settings refused before any change."""
import re

import pytest

from ansible_collections.bigdata.spark.plugins.filter.daemons import FilterModule, role_defaults
from ansible_collections.bigdata.spark.plugins.module_utils import daemons as table
from ansible_collections.bigdata.spark.plugins.module_utils import kerberos as krb

DEFAULTS = role_defaults()
FILTERS = FilterModule().filters()
K = "/etc/security/keytabs"


def _host(name, groups, **more):
    """A production-shaped host (HA: no SecondaryNameNode) in secure mode."""
    out = {"inventory_hostname": name, "group_names": ["hadoop"] + groups, "hadoop_kerberos_enabled": True,
           "hdfs_ha_enabled": True, "hdfs_secondarynamenode_enabled": False, "hdfs_secondarynamenode_host": "m",
           "yarn_jobhistory_host": "w1", "spark_history_host": "w1", "hadoop_kms_enabled": True}
    out.update(more)
    return out


MASTER = _host("m", ["namenode", "resourcemanager", "journalnodes", "datanodes", "nodemanagers"])
WORKER1 = _host("w1", ["namenode", "journalnodes", "datanodes", "nodemanagers"])
KMS_HOST = _host("w2", ["kms", "datanodes"])


def _plan(role, host):
    return table.kerberos_daemon_plan(table.role_daemons(role, host, DEFAULTS), host, DEFAULTS)


def test_each_daemon_gets_its_principal_in_its_own_keytab_owned_by_its_user():
    hdfs = _plan("hdfs", MASTER)
    assert [(p["principal"], p["keytab"], p["owner"], p["mode"]) for p in hdfs["principals"]] == [
        ("jn/_HOST", K + "/jn.service.keytab", "hdfs", "0400"),
        ("nn/_HOST", K + "/nn.service.keytab", "hdfs", "0400"),
        ("dn/_HOST", K + "/dn.service.keytab", "hdfs", "0400"),
    ]
    yarn = _plan("yarn", MASTER)
    assert [(p["principal"], p["owner"]) for p in yarn["principals"]] == [("rm/_HOST", "yarn"), ("nm/_HOST", "yarn")]
    # The JobHistory and Spark history servers run on w1 only.
    assert ("jhs/_HOST", "mapred") in [(p["principal"], p["owner"]) for p in _plan("yarn", WORKER1)["principals"]]
    assert [p["principal"] for p in _plan("spark", WORKER1)["principals"]] == ["spark/_HOST"]
    assert _plan("spark", MASTER)["principals"] == []


def test_tickets_one_per_account_and_root_acts_as_the_hdfs_superuser():
    tickets = _plan("hdfs", MASTER)["tickets"]
    assert [t["user"] for t in tickets] == ["hdfs", "root"]
    assert tickets[0]["keytab"] == tickets[1]["keytab"] and tickets[0]["principal"] == tickets[1]["principal"]
    assert [t["user"] for t in _plan("yarn", MASTER)["tickets"]] == ["yarn"]


def test_the_kms_uses_the_spnego_keytab_and_no_keytab_of_its_own():
    hdfs = _plan("hdfs", KMS_HOST)
    assert "HTTP/_HOST" not in [p["principal"] for p in hdfs["principals"]]
    host = table.kerberos_host_plan(KMS_HOST, DEFAULTS)
    spnego = [p for p in host["principals"] if p["principal"] == "HTTP/_HOST"]
    assert spnego == [{"principal": "HTTP/_HOST", "keytab": K + "/spnego.service.keytab", "owner": "root",
                       "group": "hadoop", "mode": "0440"}]


def test_client_accounts_get_a_keytab_and_ticket_on_every_host():
    host = table.kerberos_host_plan(MASTER, DEFAULTS)
    assert host["tickets"] == [{"user": "spark", "keytab": K + "/spark.service.keytab", "principal": "spark/_HOST"}]
    client = dict(MASTER, group_names=["clients"])
    assert [p["principal"] for p in table.kerberos_host_plan(client, DEFAULTS)["principals"]] == ["spark/_HOST"]
    with pytest.raises(table.DaemonError, match="hadoop_kerberos_client_accounts: nobody not key"):
        table.kerberos_host_plan(dict(MASTER, hadoop_kerberos_client_accounts=["nobody"]), DEFAULTS)


def test_the_checks_before_any_change_see_every_keytab_the_roles_place():
    """kerberos_host_keytabs (validate.yml) covers what the first play and the roles place, with no computed default."""
    zk_master = dict(MASTER, group_names=MASTER["group_names"] + ["zookeeper"])
    placed = table.kerberos_host_plan(zk_master, DEFAULTS)["principals"] + [
        entry for role in ("hdfs", "yarn", "spark", "zookeeper") for entry in _plan(role, zk_master)["principals"]]
    bare = {"inventory_hostname": "m", "group_names": zk_master["group_names"], "hadoop_kerberos_enabled": True}
    checked = FILTERS["kerberos_host_keytabs"](bare)
    assert sorted(e["keytab"] for e in checked) == sorted(set(e["keytab"] for e in placed))
    assert {"principal": "zookeeper/_HOST", "owner": "zookeeper", "group": "hadoop", "mode": "0400",
            "keytab": K + "/zookeeper.service.keytab"} in checked
    assert FILTERS["kerberos_host_keytabs"](dict(bare, hadoop_kerberos_enabled=False)) == []


def test_nothing_without_secure_mode():
    off = dict(MASTER, hadoop_kerberos_enabled=False)
    assert table.kerberos_host_plan(off, DEFAULTS) == {"principals": [], "tickets": []}
    assert table.kerberos_daemon_plan(table.role_daemons("hdfs", off, DEFAULTS), off, DEFAULTS) == {
        "principals": [], "tickets": []}
    assert FILTERS["kerberos_host_plan"](dict(MASTER, hadoop_kerberos_enabled="false")) == {
        "principals": [], "tickets": []}


def _apply(rules, principal):
    """Hadoop's rule language, enough for these rules: [n:$1@$0](regex)s/from/to/."""
    name, realm = principal.split("@")
    parts = name.split("/")
    for rule in rules.split(" "):
        m = re.match(r"RULE:\[(\d):([^\]]*)\]\(([^)]*)\)s/([^/]*)/([^/]*)/$", rule)
        count, fmt, regex, frm, to = m.groups()
        if int(count) != len(parts):
            continue
        short = fmt.replace("$0", realm).replace("$1", parts[0]).replace("$2", parts[-1])
        if re.fullmatch(regex, short):
            return re.sub(frm, to, short, count=1)
    return None


@pytest.mark.parametrize("principal, user", [
    ("nn/m@BIGDATA.LAB", "hdfs"), ("dn/w2@BIGDATA.LAB", "hdfs"), ("jn/w1@BIGDATA.LAB", "hdfs"),
    ("rm/m@BIGDATA.LAB", "yarn"), ("nm/w2@BIGDATA.LAB", "yarn"), ("jhs/w1@BIGDATA.LAB", "mapred"),
    ("spark/m@BIGDATA.LAB", "spark"), ("alice@BIGDATA.LAB", "alice"),
    # Refused: a two-part principal that is no service's, the HTTP principal, another realm's.
    ("intruder/m@BIGDATA.LAB", None), ("HTTP/m@BIGDATA.LAB", None), ("nn/m@EVIL.ORG", None), ("alice@EVIL.ORG", None),
])
def test_auth_to_local_maps_services_to_their_accounts_and_nothing_else(principal, user):
    rules = FILTERS["hadoop_auth_to_local"](MASTER, "BIGDATA.LAB")
    assert "\n" not in rules
    assert _apply(rules, principal) == user


def _problems(**settings):
    base = {"hadoop_kerberos_enabled": True, "hadoop_tls_enabled": True, "kerberos_kdc_enabled": True,
            "hadoop_kerberos_realm": "BIGDATA.LAB", "hadoop_keytab_dir": K, "hadoop_rpc_protection": "privacy"}
    base.update(settings)
    return krb.secure_mode_problems(lambda name, fallback=None: base.get(name, fallback), {"kdc": 1})


def test_good_secure_mode_settings_pass():
    assert _problems() == []
    assert _problems(hadoop_delegation_token_renew_interval=120) == _problems(hadoop_delegation_token_renew_interval="604800") == []
    assert _problems(hadoop_kerberos_enabled=False, hadoop_tls_enabled=False, hadoop_kerberos_realm="") == []


@pytest.mark.parametrize("settings, words", [
    ({"hadoop_kerberos_realm": "bigdata.lab"}, "hadoop_kerberos_realm: the realm must be uppercase"),
    ({"hadoop_kerberos_realm": ""}, "hadoop_kerberos_realm: a realm name is required"),
    ({"hadoop_tls_enabled": False}, "hadoop_kerberos_enabled: true needs hadoop_tls_enabled: true"),
    ({"hadoop_rpc_protection": "secret"}, "hadoop_rpc_protection: one of authentication, integrity, privacy"),
    ({"hadoop_keytab_dir": "keytabs"}, "hadoop_keytab_dir: an absolute directory"),
    ({"hadoop_delegation_token_renew_interval": 30}, "hadoop_delegation_token_renew_interval: whole seconds from 60 to 604800"),
    ({"hadoop_delegation_token_renew_interval": "1d"}, "hadoop_delegation_token_renew_interval: whole seconds"),
    ({"hadoop_delegation_token_renew_interval": True}, "hadoop_delegation_token_renew_interval: whole seconds"),
    ({"hadoop_delegation_token_renew_interval": 604801}, "hadoop_delegation_token_renew_interval: whole seconds"),
    ({"kerberos_kdc_enabled": False}, "kerberos_kdc_host: the existing KDC is required"),
])
def test_bad_secure_mode_settings_are_named(settings, words):
    assert any(words in p for p in _problems(**settings)), _problems(**settings)


def test_the_lab_kdc_needs_one_host_in_kdc():
    settings = {"hadoop_kerberos_enabled": True, "hadoop_tls_enabled": True, "kerberos_kdc_enabled": True,
                "hadoop_kerberos_realm": "BIGDATA.LAB", "hadoop_keytab_dir": K}
    got = krb.secure_mode_problems(lambda name, fallback=None: settings.get(name, fallback), {"kdc": 0})
    assert any("kerberos_kdc_enabled: true needs one host in the inventory group 'kdc'" in p for p in got)
