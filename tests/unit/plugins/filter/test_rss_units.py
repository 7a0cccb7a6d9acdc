"""The remote shuffle daemons in the daemon table (Uniffle's coordinator and shuffle server, Celeborn's master and
worker): their entries, the units the uniffle and celeborn roles render from them through the shared template
(roles/hadoop/templates/java-daemon.service.j2), and their log configuration."""

import pathlib
import xml.etree.ElementTree as ET

import jinja2
from ansible.plugins.filter.core import FilterModule as CoreFilters

from ansible_collections.bigdata.spark.plugins.filter.daemons import daemon_ports, daemon_table, role_daemons
from ansible_collections.bigdata.spark.plugins.filter.plan import FilterModule as PlanFilters
from ansible_collections.bigdata.spark.plugins.module_utils import daemons as d

ROOT = pathlib.Path(__file__).resolve().parents[4]
JAVA = "/usr/lib/jvm/java-17-openjdk-amd64"
HOST = dict(inventory_hostname="n1", java_home=JAVA,
            group_names=["uniffle_coordinators", "uniffle_servers", "celeborn_masters", "celeborn_workers"])


def _render(name, variables, **template_vars):
    env = jinja2.Environment(undefined=jinja2.StrictUndefined, trim_blocks=True, keep_trailing_newline=True)
    env.filters["bool"] = CoreFilters().filters()["bool"]
    env.filters["bigdata.spark.jvm_options"] = PlanFilters().filters()["jvm_options"]
    text = (ROOT / "roles" / "hadoop" / "templates" / name).read_text()
    return env.from_string(text).render(dict(variables, ansible_managed="managed", **template_vars))


def _exec_start(unit):
    (line,) = [line for line in unit.splitlines() if line.startswith("ExecStart=")]
    return line[len("ExecStart="):].split()


def test_entries_restart_before_the_nodemanagers():
    by_name = {x["name"]: x for x in d.DAEMONS}
    for name in ("uniffle_coordinator", "uniffle_server", "celeborn_master", "celeborn_worker"):
        assert by_name[name]["order"] < by_name["nodemanager"]["order"], name
        assert by_name[name]["role"] in ("uniffle", "celeborn") and "java_class" in by_name[name]
    assert {"uniffle", "celeborn"} <= set(d.roles())


def test_uniffle_units_render():
    coordinator, server = role_daemons("uniffle", HOST)
    assert coordinator["enabled"] and server["enabled"] and server["ports"] == [19979, 19978]
    unit = _render("java-daemon.service.j2", dict(HOST, item=server), __java_unit_group="uniffle",
                   __java_unit_docs="https://uniffle.apache.org/docs/server-guide", __java_unit_nofile=65536)
    assert "User=uniffle\nGroup=uniffle\n" in unit and "After=network-online.target uniffle-coordinator.service" in unit
    argv = _exec_start(unit)
    assert argv[0] == JAVA + "/bin/java" and "-Xmx1024m" in argv and "--add-opens=java.base/java.nio=ALL-UNNAMED" in argv
    assert "-Dlog4j2.configurationFile=file:/etc/uniffle/conf/log4j2.xml" in argv
    assert "-Dlog.path=/var/log/uniffle/uniffle-shuffle-server.log" in argv
    classpath = argv[argv.index("-cp") + 1].split(":")
    assert classpath[:3] == ["/etc/uniffle/conf", "/opt/uniffle/current/jars/server/*", "/etc/hadoop/conf"]
    assert "/opt/hadoop/current/share/hadoop/hdfs/lib/*" in classpath
    assert argv[-3:] == ["org.apache.uniffle.server.ShuffleServer", "--conf", "/etc/uniffle/conf/server.conf"]
    unit = _render("java-daemon.service.j2", dict(HOST, item=coordinator), __java_unit_group="uniffle",
                   __java_unit_docs="x", __java_unit_nofile=1)
    assert _exec_start(unit)[-3:] == ["org.apache.uniffle.coordinator.CoordinatorServer", "--conf",
                                      "/etc/uniffle/conf/coordinator.conf"]


def test_celeborn_units_render():
    master, worker = role_daemons("celeborn", dict(HOST, group_names=["celeborn_workers"]))
    assert not master["enabled"] and worker["enabled"]
    argv = _exec_start(_render("java-daemon.service.j2", dict(HOST, item=worker), __java_unit_group="celeborn",
                               __java_unit_docs="x", __java_unit_nofile=65536))
    assert "-XX:MaxDirectMemorySize=1024m" in argv and "-Xmx1024m" in argv
    assert argv[argv.index("-cp") + 1] == "/etc/celeborn/conf:/opt/celeborn/current/worker-jars/*"
    assert argv[-1] == "org.apache.celeborn.service.deploy.worker.Worker"
    assert master["java"]["classpath"] == ["/etc/celeborn/conf", "/opt/celeborn/current/master-jars/*"]


def test_restart_table_files_and_preflight_ports():
    entries = {x["name"]: x for x in daemon_table({})}
    assert entries["uniffle_server"]["files"] == ["/etc/systemd/system/uniffle-shuffle-server.service",
                                                  "/opt/uniffle/current", "/etc/uniffle/conf/server.conf",
                                                  "/etc/uniffle/conf/log4j2.xml"]
    assert entries["celeborn_worker"]["kind"] == "worker" and entries["celeborn_master"]["kind"] == "master"
    ports = {x["unit"]: x["ports"] for x in daemon_ports({})}
    assert ports["celeborn-worker"] == [9091, 9092, 9093, 9094, 9096]
    assert ports["celeborn-master"] == [9097, 9098, 9872]
    assert ports["uniffle-coordinator"] == [19998, 19999]


def test_log_configuration_is_xml_with_the_level():
    root = ET.fromstring(_render("rss-log4j2.xml.j2", {}, __rss_log_level="WARN"))
    assert root.find("Loggers/Root").get("level") == "WARN"
    assert root.find("Appenders/RollingFile").get("fileName") == "${sys:log.path}"
