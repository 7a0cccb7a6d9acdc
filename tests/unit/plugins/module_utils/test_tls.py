"""TLS: the names of a host's certificate, the settings checks (plugins/module_utils/tls.py, plugins/filter/tls.py), and
the daemon table's HTTPS ports and schemes (plugins/module_utils/daemons.py)."""

import pytest
from ansible.errors import AnsibleFilterError

from ansible_collections.bigdata.spark.plugins.filter.daemons import FilterModule as DaemonFilters, role_defaults
from ansible_collections.bigdata.spark.plugins.filter.tls import FilterModule
from ansible_collections.bigdata.spark.plugins.module_utils import daemons as d
from ansible_collections.bigdata.spark.plugins.module_utils import tls

FILTERS = FilterModule().filters()
DAEMON_FILTERS = DaemonFilters().filters()
DEFAULTS = role_defaults()
GOOD = {"tls_certificate_source": "lab_ca", "hadoop_tls_keystore_password": "s3cret-pw", "hadoop_tls_dir": "/etc/security/tls",
        "tls_ca_days": 3650, "tls_cert_days": 825, "tls_controller_dir": "/root/.bigdata-spark/tls"}


@pytest.mark.parametrize("inventory, fqdn, addresses, expected", [
    ("t-lab-master", "t-lab-master", ["10.213.186.10", "10.214.186.10"],
     {"dns": ["t-lab-master"], "ip": ["10.213.186.10", "10.214.186.10"]}),
    ("Worker1", "worker1.example.com", [], {"dns": ["worker1", "worker1.example.com"], "ip": []}),
    # An inventory name that is an address goes with the addresses, once.
    ("192.0.2.7", "node7.example.com", ["192.0.2.7"], {"dns": ["node7.example.com"], "ip": ["192.0.2.7"]}),
    ("w2", "", ["not-an-ip", "198.51.100.2"], {"dns": ["w2"], "ip": ["198.51.100.2"]}),
])
def test_host_names(inventory, fqdn, addresses, expected):
    assert tls.host_names(inventory, fqdn, addresses) == expected
    assert FILTERS["tls_host_names"](inventory, fqdn, addresses) == expected


def test_subject_alt_names():
    names = tls.host_names("w1", "w1.example.com", ["192.0.2.1"])
    assert FILTERS["tls_subject_alt_names"](names) == ["DNS:w1", "DNS:w1.example.com", "IP:192.0.2.1"]


def test_no_name_is_refused():
    with pytest.raises(AnsibleFilterError, match="tls_host_names: a host needs an inventory name"):
        FILTERS["tls_host_names"]("", "", [])


@pytest.mark.parametrize("sans, required, messages", [
    (["DNS:w1", "DNS:w1.example.com", "IP Address:192.0.2.1"], {"dns": ["w1", "w1.example.com"]}, []),
    # A wildcard stands for one label.
    (["DNS:*.example.com", "DNS:w1"], {"dns": ["w1", "w1.example.com"]}, []),
    (["DNS:*.example.com"], {"dns": ["w1.rack1.example.com"]},
     ["tls_supplied_dir: the certificate of w1 names ['*.example.com'] but not w1.rack1.example.com"]),
    (["DNS:w2.example.com"], {"dns": ["w1", "w1.example.com"]},
     ["tls_supplied_dir: the certificate of w1 names ['w2.example.com'] but not w1, w1.example.com"]),
    ([], {"dns": ["w1"]}, ["tls_supplied_dir: the certificate of w1 names no DNS name but not w1"]),
])
def test_name_problems(sans, required, messages):
    out = FILTERS["tls_name_problems"]({"subject_alt_name": sans, "not_after": "20301231000000Z"}, "w1", required,
                                       "20261204000000Z")
    assert [m.split(" (clients")[0] for m in out] == messages


def test_expired_certificate():
    out = tls.name_problems("w1", {"dns": ["w1"]}, ["DNS:w1"], "20251231000000Z", "20261204000000Z")
    assert out == ["tls_supplied_dir: the certificate of w1 expired (notAfter 20251231000000Z)"]


def test_good_settings():
    assert FILTERS["tls_problems"](GOOD, "w1") == []


@pytest.mark.parametrize("change, message", [
    ({"tls_certificate_source": "acme"}, "tls_certificate_source: one of lab_ca, supplied is allowed; got 'acme'"),
    ({"hadoop_tls_keystore_password": ""}, "hadoop_tls_keystore_password: a password is required when hadoop_tls_enabled"),
    ({"hadoop_tls_keystore_password": "abc"}, "hadoop_tls_keystore_password: at least 6 characters are required"),
    ({"hadoop_tls_dir": "etc/tls"}, "hadoop_tls_dir: an absolute directory other than / is required"),
    ({"hadoop_tls_dir": "/"}, "hadoop_tls_dir: an absolute directory other than / is required"),
    ({"tls_cert_days": 0}, "tls_cert_days: a number of days (1 or more) is required; got 0"),
    ({"tls_ca_days": True}, "tls_ca_days: a number of days (1 or more) is required; got True"),
    ({"tls_controller_dir": "tls"}, "tls_controller_dir: an absolute directory on the controller is required"),
    ({"tls_certificate_source": "supplied"}, "tls_supplied_dir: with tls_certificate_source supplied, a controller directory"),
    ({"tls_certificate_source": "supplied", "tls_supplied_dir": "/nowhere"},
     "tls_supplied_dir: host.crt of w1 is missing on the controller (/nowhere/w1/host.crt)"),
    ({"tls_certificate_source": "supplied", "tls_supplied_dir": "/nowhere"},
     "tls_supplied_ca_file: with tls_certificate_source supplied, the PEM file of the CA"),
    ({"tls_certificate_source": "supplied", "tls_supplied_ca_file": "/nowhere/ca.pem"},
     "tls_supplied_ca_file: /nowhere/ca.pem is missing on the controller"),
])
def test_bad_settings_are_named(change, message):
    out = FILTERS["tls_problems"](dict(GOOD, **change), "w1")
    assert any(m.startswith(message) for m in out), out


def test_no_message_quotes_the_password():
    out = tls.problems(dict(GOOD, hadoop_tls_keystore_password="abc"), "w1")
    assert out and not any("abc" in m for m in out)


def test_supplied_files_found():
    files = {"/certs/w1/host.crt", "/certs/w1/host.key", "/certs/ca.pem"}
    settings = dict(GOOD, tls_certificate_source="supplied", tls_supplied_dir="/certs", tls_supplied_ca_file="/certs/ca.pem")
    assert tls.problems(settings, "w1", files.__contains__) == []
    assert tls.problems(settings, "w2", files.__contains__) == [
        "tls_supplied_dir: host.crt of w2 is missing on the controller (/certs/w2/host.crt)",
        "tls_supplied_dir: host.key of w2 is missing on the controller (/certs/w2/host.key)"]


def _by_name(rows):
    return dict((r["name"], r) for r in rows)


def test_daemon_table_without_tls_is_http():
    rows = _by_name(d.table({}, DEFAULTS))
    assert (rows["namenode"]["scheme"], rows["namenode"]["port"]) == ("http", 9870)
    assert not any(f.endswith("keystore.p12") for f in rows["namenode"]["files"])


@pytest.mark.parametrize("name, port", [
    ("namenode", 9871), ("datanode", 9865), ("journalnode", 8481), ("secondarynamenode", 9869),
    ("resourcemanager", 8090), ("nodemanager", 8044), ("jobhistory", 19890), ("spark_history", 18480),
])
def test_daemon_table_with_tls_is_https(name, port):
    rows = _by_name(d.table({"hadoop_tls_enabled": True}, DEFAULTS))
    assert (rows[name]["scheme"], rows[name]["port"]) == ("https", port)
    # A daemon started before its keystore or ssl-server.xml changed is stale.
    assert {"/etc/security/tls/keystore.p12", "/etc/security/tls/truststore.p12", "/etc/hadoop/conf/ssl-server.xml"} \
        <= set(rows[name]["files"])


def test_tls_keeps_the_other_daemons_on_their_ports():
    rows = _by_name(d.table({"hadoop_tls_enabled": True}, DEFAULTS))
    assert (rows["zookeeper"]["scheme"], rows["zookeeper"]["port"]) == ("http", 2181)


def test_role_daemons_wait_for_the_https_port():
    host = {"hadoop_tls_enabled": "true", "group_names": ["journalnodes"], "inventory_hostname": "m1",
            "hdfs_secondarynamenode_enabled": False, "hdfs_secondarynamenode_host": "m1", "hdfs_ha_enabled": True}
    jn = _by_name(d.role_daemons("hdfs", host, DEFAULTS))["journalnode"]
    assert (jn["scheme"], jn["ports"], jn["port"]) == ("https", [8485, 8481], 8481)
    ports = [p for p in d.daemon_ports({"hadoop_tls_enabled": True}, DEFAULTS) if p["unit"] == "hadoop-hdfs-namenode"]
    assert ports[0]["ports"] == [9000, 9871]


def test_restart_rules_carry_the_scheme():
    rules = _by_name(d.restart_rules({"hadoop_tls_enabled": True}, DEFAULTS))
    assert (rules["namenode"]["scheme"], rules["namenode"]["port"]) == ("https", 9871)
    assert rules["zookeeper"]["scheme"] == "http"


def test_daemon_url():
    assert DAEMON_FILTERS["daemon_url"]({}, "namenode") == "http://127.0.0.1:9870"
    assert DAEMON_FILTERS["daemon_url"]({"hadoop_tls_enabled": True}, "resourcemanager", "m1") == "https://m1:8090"
    assert DAEMON_FILTERS["daemon_url"]({"yarn_resourcemanager_webapp_port": 18088}, "resourcemanager") == "http://127.0.0.1:18088"
    with pytest.raises(AnsibleFilterError, match="daemon_url: daemon: one of .* is required; got 'nn'"):
        DAEMON_FILTERS["daemon_url"]({}, "nn")


def test_ui_links_use_the_scheme():
    rows = [r for r in d.table({"hadoop_tls_enabled": True}, DEFAULTS) if r["name"] == "namenode"]
    assert d.ui_links(rows, ["active"], "192.0.2.1") == ["HDFS NameNode: https://192.0.2.1:9871/"]


@pytest.mark.parametrize("tls, listening, named", [
    # TLS turned on under a NameNode and a DataNode that still serve HTTP.
    (True, [9000, 9870, 9864, 9866], ["HDFS NameNode", "HDFS DataNode"]),
    # Already on HTTPS, or nothing running: nothing to say.
    (True, [9000, 9871, 9865], []),
    (True, [], []),
    (False, [9870, 8088], []),
    # TLS turned off under a ResourceManager on HTTPS.
    (False, [8090, 8032], ["YARN ResourceManager"]),
])
def test_tls_transition_problems(tls, listening, named):
    out = DAEMON_FILTERS["tls_transition_problems"]({"hadoop_tls_enabled": tls}, listening, "m1")
    assert [m.split(" on m1")[0].split("the ", 1)[1] for m in out] == named
    for message in out:
        assert message.startswith("hadoop_tls_enabled: %s, but the " % ("true" if tls else "false"))
        assert "playbooks/service.yml -e service_action=stop" in message


def test_tls_transition_problems_bad_input():
    with pytest.raises(AnsibleFilterError, match="listening: port numbers are required; got 'x'"):
        DAEMON_FILTERS["tls_transition_problems"]({}, ["x"])
