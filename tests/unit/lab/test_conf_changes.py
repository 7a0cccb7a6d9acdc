# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""autotune's lab test reads a site.yml --check --diff run's JSON output: which properties each file would change."""

import importlib.util
import json
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[3]
SPEC = importlib.util.spec_from_file_location("conf_changes", ROOT / "tests/lab/conf_changes.py")
C = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(C)

CONF_BEFORE = "# managed\nspark.executor.cores 2\nspark.sql.shuffle.partitions 4\nspark.yarn.archive hdfs:///a.zip\n"
CONF_AFTER = "# managed\nspark.executor.cores 2\nspark.io.compression.codec zstd\nspark.sql.shuffle.partitions 8\n" \
             "spark.yarn.archive hdfs:///a.zip\n"
XML = ('<?xml version="1.0"?>\n<configuration>\n  <property>\n    <name>mapreduce.map.memory.mb</name>\n'
       '    <value>%s</value>\n  </property>\n</configuration>\n')


def output():
    def task(name, hosts):
        return {"task": {"name": name}, "hosts": hosts}
    return {"plays": [{"tasks": [
        task("bigdata.spark.spark : Write spark-defaults.conf", {
            "w1": {"changed": True, "diff": [{"before": CONF_BEFORE, "after": CONF_AFTER}]},
            "m": {"changed": False}}),
        task("bigdata.spark.yarn : Write mapred-site.xml", {
            "w1": {"changed": True, "diff": {"before": XML % 512, "after": XML % 1024}},
            "w2": {"changed": False}, "c": {"skipped": True}}),
        task("bigdata.spark.spark : Write spark-env.sh", {"w1": {"changed": True}}),
    ]}]}


def test_changes_per_file_and_host():
    assert C.changes(output()) == {
        "spark-defaults.conf": {"w1": ["spark.io.compression.codec", "spark.sql.shuffle.partitions"], "m": []},
        "mapred-site.xml": {"w1": ["mapreduce.map.memory.mb"], "w2": []}}


def test_main_reads_the_json_callbacks_output(tmp_path, capsys):
    src = tmp_path / "out.json"
    src.write_text(json.dumps(output()) + "\n\nPLAYBOOK RECAP\nPlaybook run took 0 days\n")
    assert C.main(["conf_changes.py", str(src)]) == 0
    assert json.loads(capsys.readouterr().out)["mapred-site.xml"]["w2"] == []


def test_parsers():
    assert C.spark_conf(CONF_AFTER)["spark.io.compression.codec"] == "zstd"
    assert C.hadoop_xml(XML % 7) == {"mapreduce.map.memory.mb": "7"} and C.hadoop_xml("") == {}
    assert C.changed_keys("spark-defaults.conf", None, "a 1\n") == ["a"]
