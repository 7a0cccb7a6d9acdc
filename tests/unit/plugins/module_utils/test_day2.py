"""Day-2 decisions (plugins/module_utils/day2.py): DataNode usage and the balancer's outcome."""

import json

import pytest
from ansible.errors import AnsibleFilterError

from ansible_collections.bigdata.spark.plugins.filter.day2 import FilterModule
from ansible_collections.bigdata.spark.plugins.module_utils import day2

FILTERS = FilterModule().filters()
GIB = 2 ** 30


def jmx(live):
    """A NameNodeInfo answer as the NameNode gives it: LiveNodes is a JSON string inside the bean."""
    return {"beans": [{"name": "Hadoop:service=NameNode,name=NameNodeInfo", "LiveNodes": json.dumps(live)}]}


def test_usage_and_spread():
    usage = day2.datanode_usage(jmx({
        "w2:9866": {"usedSpace": 30 * GIB, "capacity": 100 * GIB, "adminState": "In Service"},
        "w1:9866": {"usedSpace": 10 * GIB, "capacity": 100 * GIB, "adminState": "In Service"},
        "w3:9866": {"usedSpace": 0, "capacity": 0, "adminState": "Decommissioned"},
    }))
    assert [n["datanode"] for n in usage["nodes"]] == ["w1", "w2", "w3"]
    assert [n["used_pct"] for n in usage["nodes"]] == [10.0, 30.0, 0.0]
    assert usage["mean_pct"] == 20.0 and usage["spread_pct"] == 30.0


def test_no_datanode():
    assert day2.datanode_usage(jmx({})) == {"nodes": [], "mean_pct": 0.0, "spread_pct": 0.0}


@pytest.mark.parametrize("answer, message", [
    ({}, "a bean with LiveNodes"),
    ({"beans": [{"name": "x"}]}, "a bean with LiveNodes"),
    ({"beans": [{"LiveNodes": "{not json"}]}, "LiveNodes is not JSON"),
    ({"beans": [{"LiveNodes": "[1]"}]}, "LiveNodes must map DataNodes"),
])
def test_bad_answers_are_named(answer, message):
    with pytest.raises(day2.Day2Error, match=message):
        day2.datanode_usage(answer)
    with pytest.raises(AnsibleFilterError, match="datanode_usage: "):
        FILTERS["datanode_usage"](answer)


@pytest.mark.parametrize("rc, outcome, ok", [(0, "balanced", True), (254, "no block to move", True),
                                             (255, "already running", False), (253, "no progress", False),
                                             (249, "upgrade not finalized", False), (7, "failed", False)])
def test_balancer_outcome(rc, outcome, ok):
    got = day2.balancer_outcome(rc)
    assert (got["outcome"], got["ok"], got["rc"]) == (outcome, ok, rc)


def test_balancer_outcome_needs_a_number():
    with pytest.raises(AnsibleFilterError, match="balancer_outcome: rc: the balancer's exit code"):
        FILTERS["balancer_outcome"]("x")
