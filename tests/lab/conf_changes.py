# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Which properties a `site.yml --check --diff` run would change, per file and host, from its JSON output
(ANSIBLE_STDOUT_CALLBACK=ansible.posix.json):

    conf_changes.py OUTPUT.json   ->   {"spark-defaults.conf": {"bd-worker1": ["spark.io.compression.codec"]}, ...}

Every host on which a file's task ran is listed, with [] when the file would not change. Reads spark-defaults.conf
(`key value` lines) and *-site.xml (property name and value); autotune's lab test compares the result with the
properties its candidates passed.
"""

import importlib.util
import json
import pathlib
import sys

FILES = ("spark-defaults.conf", "mapred-site.xml", "yarn-site.xml")


# The collection's own readers (plugins/module_utils/hadoop_conf.py, no imports beyond the standard library),
# loaded by path: this script runs with the controller's Python, where the collection may not be importable.
_SPEC = importlib.util.spec_from_file_location(
    "hadoop_conf", pathlib.Path(__file__).resolve().parents[2] / "plugins" / "module_utils" / "hadoop_conf.py")
_HC = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(_HC)
spark_conf = _HC.parse_spark_conf


def hadoop_xml(text):
    """A file the diff shows empty (created or removed) has no properties."""
    return _HC.parse_hadoop_xml(text) if (text or "").strip() else {}


def changed_keys(name, before, after):
    parse = spark_conf if name.endswith(".conf") else hadoop_xml
    a, b = parse(before), parse(after)
    return sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))


def _diffs(result):
    diff = result.get("diff") or []
    return diff if isinstance(diff, list) else [diff]


def changes(output):
    """{file: {host: [changed property]}} from the json callback's output (a dict)."""
    found = {}
    for play in output.get("plays", []):
        for task in play.get("tasks", []):
            title = task["task"]["name"]
            name = next((f for f in FILES if title.endswith("Write " + f)), None)
            if not name:
                continue
            for host, result in task.get("hosts", {}).items():
                if result.get("skipped"):
                    continue
                keys = set()
                if result.get("changed"):
                    for diff in _diffs(result):
                        keys.update(changed_keys(name, diff.get("before"), diff.get("after")))
                found.setdefault(name, {})[host] = sorted(keys)
    return found


def main(argv):
    with open(argv[1]) as fh:
        # The timer callback adds a line after the JSON document.
        output, _end = json.JSONDecoder().raw_decode(fh.read())
    json.dump(changes(output), sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
