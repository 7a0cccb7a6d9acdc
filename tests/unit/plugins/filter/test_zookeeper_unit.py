"""The ZooKeeper server in the daemon table: its entry, its files and ports, and the unit the zookeeper role renders from
it (units/zookeeper-server.service: what ansible-playbook rendered on the zk lab, with `managed` for ansible_managed)."""

import pathlib

import jinja2
import pytest
import yaml
from ansible.errors import AnsibleFilterError
from ansible.plugins.filter.core import FilterModule as CoreFilters

from ansible_collections.bigdata.spark.plugins.filter.daemons import daemon_ports, daemon_table, kerberos_daemon_plan, role_daemons
from ansible_collections.bigdata.spark.plugins.filter.plan import FilterModule as PlanFilters
from ansible_collections.bigdata.spark.plugins.module_utils import daemons as d

ROOT = pathlib.Path(__file__).resolve().parents[4]
UNITS = pathlib.Path(__file__).resolve().parent / "units"
ZK_DEFAULTS = yaml.safe_load((ROOT / "roles" / "zookeeper" / "defaults" / "main.yml").read_text())
SERVER = dict(inventory_hostname="zk1", group_names=["zookeeper"], java_home="/usr/lib/jvm/java-17-openjdk-amd64")


def test_the_entry_restarts_before_the_namenode_one_host_at_a_time():
    (entry,) = [x for x in d.DAEMONS if x["name"] == "zookeeper"]
    (namenode,) = [x for x in d.DAEMONS if x["name"] == "namenode"]
    assert (entry["role"], entry["group"], entry["unit"], entry["kind"]) == (
        "zookeeper", "zookeeper", "zookeeper-server", "master")
    assert entry["order"] < namenode["order"] and d.units()[0] == "zookeeper-server"
    assert entry["restart_leader_last"] is True and entry["probe"] == ("ruok", "imok") and entry["health"] is None
    assert "zookeeper" in d.roles()
    # Its variables are the zookeeper role's, literal in its defaults (restart.yml falls back on them).
    for var in ("zookeeper_user", "zookeeper_install_root", "zookeeper_conf_dir", "zookeeper_log_dir",
                "zookeeper_heap_mb", "zookeeper_jvm_opts", "zookeeper_client_port", "zookeeper_quorum_port",
                "zookeeper_election_port"):
        assert var in d.variables_read() and "{{" not in str(ZK_DEFAULTS[var]), var


def test_role_daemons_resolves_the_java_launch():
    (zk,) = role_daemons("zookeeper", dict(SERVER, zookeeper_heap_mb="512", zookeeper_conf_dir="/srv/zk/conf/"))
    assert zk["enabled"] and zk["user"] == "zookeeper" and zk["ports"] == [2181] and zk["port"] == 2181
    assert zk["java"] == {
        "home": "/opt/zookeeper/current", "conf_dir": "/srv/zk/conf", "log_dir": "/var/log/zookeeper", "heap_mb": 512,
        "opts": "-Djava.net.preferIPv4Stack=true -XX:+ExitOnOutOfMemoryError",
        "classpath": ["/srv/zk/conf", "/opt/zookeeper/current/lib/*"], "args": ["/srv/zk/conf/zoo.cfg"],
        "props": [["zookeeper.log.dir", "/var/log/zookeeper"], ["zookeeper.log.file", "zookeeper-server.log"],
                  ["logback.configurationFile", "/srv/zk/conf/logback.xml"]]}
    (other,) = role_daemons("zookeeper", dict(SERVER, group_names=["namenode"], zookeeper_user="zk"))
    assert not other["enabled"] and other["user"] == "zk"


def test_secure_mode_adds_the_servers_login():
    (zk,) = role_daemons("zookeeper", dict(SERVER, hadoop_kerberos_enabled=True, zookeeper_conf_dir="/srv/zk"))
    assert zk["java"]["props"][-1] == ["java.security.auth.login.config", "/srv/zk/jaas.conf"]
    assert zk["principal"] == "zookeeper"
    keytabs = kerberos_daemon_plan([zk], dict(SERVER, hadoop_kerberos_enabled=True))
    assert keytabs["principals"] == [{"principal": "zookeeper/_HOST", "owner": "zookeeper", "group": "hadoop",
                                      "keytab": "/etc/security/keytabs/zookeeper.service.keytab", "mode": "0400"}]
    (plain,) = role_daemons("zookeeper", SERVER)
    assert "java.security.auth.login.config" not in dict(plain["java"]["props"])


@pytest.mark.parametrize("changes,message", [
    ({"zookeeper_user": ""}, "zookeeper_user: a user name is required (the zookeeper runs as it)"),
    ({"zookeeper_heap_mb": "big"}, "zookeeper_heap_mb: a heap size in MB (a whole number >= 1) is required"),
    ({"zookeeper_heap_mb": 0}, "zookeeper_heap_mb: a heap size in MB"),
    ({"zookeeper_jvm_opts": ["-Xss1m"]}, "zookeeper_jvm_opts: JVM options as a string are required"),
    ({"zookeeper_log_dir": "logs"}, "zookeeper_log_dir: an absolute path is required"),
    ({"zookeeper_client_port": 99999}, "zookeeper_client_port: a port number is required (1-65535)"),
])
def test_bad_input_is_named(changes, message):
    with pytest.raises(AnsibleFilterError, match="role_daemons: " + message.replace("(", r"\(").replace(")", r"\)")):
        role_daemons("zookeeper", dict(SERVER, **changes))


def test_restart_table_files_and_preflight_ports():
    (zk,) = [x for x in daemon_table({"zookeeper_conf_dir": "/srv/zk"}) if x["name"] == "zookeeper"]
    assert zk["files"] == ["/etc/systemd/system/zookeeper-server.service", "/opt/zookeeper/current",
                           "/srv/zk/zoo.cfg", "/srv/zk/logback.xml", "/srv/zk/jaas.conf"]
    assert zk["port"] == 2181 and zk["kind"] == "master"
    (ports,) = [x for x in daemon_ports({"zookeeper_election_port": 3999}) if x["group"] == "zookeeper"]
    assert ports == {"group": "zookeeper", "unit": "zookeeper-server", "ports": [2181, 2888, 3999]}


def _render(item, variables):
    env = jinja2.Environment(undefined=jinja2.StrictUndefined, trim_blocks=True, keep_trailing_newline=True)
    env.filters["bool"] = CoreFilters().filters()["bool"]
    env.filters["bigdata.spark.jvm_options"] = PlanFilters().filters()["jvm_options"]
    text = (ROOT / "roles" / "hadoop" / "templates" / "java-daemon.service.j2").read_text()
    return env.from_string(text).render(dict(variables, item=item, ansible_managed="managed"))


def test_the_unit_renders_as_on_the_lab():
    (item,) = role_daemons("zookeeper", SERVER)
    variables = dict(SERVER, __java_unit_group="zookeeper", __java_unit_nofile=65536,
                     __java_unit_docs="https://zookeeper.apache.org/doc/r3.9.3/zookeeperAdmin.html")
    assert _render(item, variables) == (UNITS / "zookeeper-server.service").read_text()
