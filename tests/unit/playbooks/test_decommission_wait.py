"""playbooks/files/decommission_wait.py: the progress of a decommission, read from the active NameNode."""

import importlib.util
import json
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[3]
_SPEC = importlib.util.spec_from_file_location("decommission_wait", ROOT / "playbooks" / "files" / "decommission_wait.py")
M = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(M)


def info(live, decom=None, dead=None):
    return {"beans": [{"LiveNodes": json.dumps(live), "DecomNodes": json.dumps(decom or {}),
                       "DeadNodes": json.dumps(dead or {})}]}


def status(state):
    return {"beans": [{"State": state}]}


class Cluster:
    """Two NameNodes (nn2 active) whose NameNodeInfo answers follow a script, one per poll."""

    def __init__(self, answers):
        self.answers = list(answers)
        self.now = 0

    def get(self, url):
        if url.endswith(M.STATUS):
            return status("active" if url.startswith("http://nn2") else "standby")
        assert url.startswith("http://nn2"), "NameNodeInfo asked of the standby"
        return self.answers[0] if len(self.answers) == 1 else self.answers.pop(0)

    def sleep(self, seconds):
        self.now += seconds


def run(cluster, want="decommissioned", timeout=60):
    lines = []
    rc = M.wait(["http://nn1:9870", "http://nn2:9870"], ["w3"], want, timeout, 5, get=cluster.get,
                clock=lambda: cluster.now, sleep=cluster.sleep, out=lines.append)
    return rc, lines


def test_progress_until_decommissioned():
    cluster = Cluster([
        info({"w3:9866": {"adminState": "Decommission In Progress"}}, {"w3:9866": {"underReplicatedBlocks": 40,
                                                                                   "decommissionOnlyReplicas": 2}}),
        info({"w3:9866": {"adminState": "Decommission In Progress"}}, {"w3:9866": {"underReplicatedBlocks": 7}}),
        info({"w3:9866": {"adminState": "Decommissioned"}}),
    ])
    rc, lines = run(cluster)
    assert rc == 0
    assert lines == ["+0 s: w3 Decommission In Progress, 42 block(s) left",
                     "+5 s: w3 Decommission In Progress, 7 block(s) left",
                     "+10 s: w3 Decommissioned", "every node decommissioned after 10 s"]


def test_a_dead_decommissioned_node_counts_and_timeouts_are_reported():
    rc, _lines = run(Cluster([info({}, dead={"w3:9866": {"decommissioned": True}})]))
    assert rc == 0
    rc, lines = run(Cluster([info({"w3:9866": {"adminState": "Decommission In Progress"}})]), timeout=20)
    assert rc == 2 and lines[-1] == "timeout after 20 s"


def test_back_in_service():
    rc, lines = run(Cluster([info({}), info({"w3:9866": {"adminState": "In Service"}})]), want="in-service")
    assert rc == 0 and lines[0] == "+0 s: w3 not registered" and lines[-1] == "every node in service after 5 s"


def test_no_active_namenode():
    def down(url):
        raise OSError("connection refused")
    lines = []
    rc = M.wait(["http://nn1:9870", "http://nn2:9870"], ["w3"], "decommissioned", 10, 5, get=down,
                clock=iter(range(0, 100, 5)).__next__, sleep=lambda s: None, out=lines.append)
    assert rc == 1 and lines == ["timeout after 10 s: no NameNode answered as active"]
