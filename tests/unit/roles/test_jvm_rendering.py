"""hadoop-env.sh (roles/hadoop_common) and the MapReduce JVM options of mapred-site.xml (roles/yarn/vars) render
the bytes deployed clusters already hold: a rerun must change no file. Rendered by ansible-playbook on two
made-up hosts that are never contacted, one on Java 17 and one on Java 11, with the roles' defaults."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import pytest
import yaml

ROOT = pathlib.Path(__file__).resolve().parents[3]
OPENINGS = yaml.safe_load((ROOT / "roles" / "hadoop" / "defaults" / "main.yml").read_text())["hadoop_java17_add_opens"]
OPENS = " ".join("--add-opens=" + opening for opening in OPENINGS)

PLAY = """
- name: Render the JVM options as the roles do
  hosts: all
  gather_facts: false
  tasks:
    - name: Load the roles' variables
      ansible.builtin.include_vars:
        file: "{{ item }}"
      loop: "{{ role_vars_files }}"
    - name: Render hadoop-env.sh
      ansible.builtin.template:
        src: "{{ root }}/roles/hadoop_common/templates/hadoop-env.sh.j2"
        dest: "{{ out }}/{{ inventory_hostname }}-hadoop-env.sh"
        mode: "0644"
      vars:
        ansible_managed: managed
        java_home: /usr/lib/jvm/java
    - name: Write the MapReduce JVM options
      ansible.builtin.copy:
        dest: "{{ out }}/{{ inventory_hostname }}-mapred.json"
        content: "{{ __yarn_mapred_site | to_json }}"
        mode: "0644"
"""

ENV_TAIL = """# The bigdata.spark launchers add their own --add-opens list on Java 9+; the list above replaces it.
export HADOOP_JPMS_OPTS=""

export HDFS_NAMENODE_OPTS="-Xms512m -Xmx512m"
export HDFS_SECONDARYNAMENODE_OPTS="-Xmx512m"
export HDFS_DATANODE_OPTS="-Xmx384m"
export YARN_RESOURCEMANAGER_OPTS="-Xmx512m"
export YARN_NODEMANAGER_OPTS="-Xmx384m"
export MAPRED_HISTORYSERVER_OPTS="-Xmx256m"
"""
ENV_HEAD = """# managed
# Read by the hadoop, hdfs, yarn and mapred launchers for every daemon and client command.
export JAVA_HOME=/usr/lib/jvm/java
export HADOOP_HOME=/opt/hadoop/current
export HADOOP_COMMON_HOME=/opt/hadoop/current
export HADOOP_HDFS_HOME=/opt/hadoop/current
export HADOOP_YARN_HOME=/opt/hadoop/current
export HADOOP_MAPRED_HOME=/opt/hadoop/current
export HADOOP_CONF_DIR="${HADOOP_CONF_DIR:-/etc/hadoop/conf}"
export HADOOP_LOG_DIR="${HADOOP_LOG_DIR:-/var/log/hadoop}"
export HADOOP_LOGLEVEL="${HADOOP_LOGLEVEL:-INFO}"

"""


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("jvm")
    host = {"ansible_connection": "local", "ansible_python_interpreter": sys.executable}
    inventory = {"all": {"hosts": {"j17": dict(host, java_major_version=17), "j11": dict(host, java_major_version=11)},
                         "children": {"jobhistory": {"hosts": {"j17": None}}, "resourcemanager": {"hosts": {"j17": None}}}}}
    (tmp / "hosts.yml").write_text(yaml.safe_dump(inventory))
    (tmp / "play.yml").write_text(PLAY)
    files = [str(ROOT / "roles" / role / kind / "main.yml")
             for role, kind in (("hadoop", "defaults"), ("yarn", "defaults"), ("hadoop_common", "vars"), ("yarn", "vars"))]
    extra = {"root": str(ROOT), "out": str(tmp), "role_vars_files": files}
    proc = subprocess.run(
        [str(pathlib.Path(sys.executable).parent / "ansible-playbook"), "-i", str(tmp / "hosts.yml"), str(tmp / "play.yml"),
         "-e", json.dumps(extra)],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=False,
        env=dict(os.environ, ANSIBLE_CONFIG=str(ROOT / "ansible.cfg"), ANSIBLE_NOCOLOR="1"))
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    return tmp


def test_hadoop_env_on_java_17(rendered):
    assert (rendered / "j17-hadoop-env.sh").read_text() == (
        ENV_HEAD + "# Java 17: Hadoop reflects into JDK internals that are closed since Java 17.\n"
        + 'export HADOOP_OPTS="${HADOOP_OPTS:-} -Djava.net.preferIPv4Stack=true ' + OPENS + '"\n' + ENV_TAIL)


def test_hadoop_env_on_java_11_keeps_its_trailing_space(rendered):
    assert (rendered / "j11-hadoop-env.sh").read_text() == (
        ENV_HEAD + 'export HADOOP_OPTS="${HADOOP_OPTS:-} -Djava.net.preferIPv4Stack=true "\n' + ENV_TAIL)


@pytest.mark.parametrize("host, expected", [
    ("j17", {"mapreduce.map.java.opts": "-Xmx384m " + OPENS, "mapreduce.reduce.java.opts": "-Xmx576m " + OPENS,
             "yarn.app.mapreduce.am.command-opts": "-Xmx384m " + OPENS}),
    ("j11", {"mapreduce.map.java.opts": "-Xmx384m", "mapreduce.reduce.java.opts": "-Xmx576m",
             "yarn.app.mapreduce.am.command-opts": "-Xmx384m"}),
])
def test_mapreduce_jvm_options(rendered, host, expected):
    site = json.loads((rendered / (host + "-mapred.json")).read_text())
    assert {key: site[key] for key in expected} == expected
    assert site["mapreduce.map.memory.mb"] == 512  # the other values pass through untouched
