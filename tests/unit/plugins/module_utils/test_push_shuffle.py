"""Spark's push-based shuffle: the planner's settings (plugins/module_utils/plan.py) and the settings check."""

import pytest

from ansible_collections.bigdata.spark.plugins.module_utils import plan as P
from ansible_collections.bigdata.spark.plugins.module_utils import validate
from ansible_collections.bigdata.spark.plugins.module_utils.plan_playbook import plan_inputs

GIB = 2 ** 30


def hosts(count):
    return [{"name": "w%d" % i, "roles": ["datanode", "nodemanager"],
             "facts": {"cpu": {"logical": 16}, "memory": {"total_bytes": 64 * GIB}}} for i in range(count)]


@pytest.mark.parametrize("count, mergers", [(1, 1), (3, 1), (4, 2), (10, 5), (40, 5)])
def test_merger_threshold_follows_the_nodemanagers(count, mergers):
    result = P.plan(hosts(count), push_shuffle=True)
    push = dict((k, v) for k, v in result["spark_defaults"].items() if k.startswith("spark.shuffle.push."))
    assert push == {"spark.shuffle.push.enabled": "true", "spark.shuffle.push.mergersMinStaticThreshold": str(mergers),
                    "spark.shuffle.push.minShuffleSizeToWait": "500m"}
    # Push needs a serializer that relocates serialized objects (Java's, the default, does not).
    assert result["spark_defaults"]["spark.serializer"] == "org.apache.spark.serializer.KryoSerializer"
    assert ("half the %d NodeManager(s)" % count) in result["explain"]["spark.shuffle.push.mergersMinStaticThreshold"]


def test_off_by_default_and_lab_mode_always_waits():
    assert not [k for k in P.plan(hosts(3))["spark_defaults"] if k.startswith("spark.shuffle.push.") or k == "spark.serializer"]
    lab = P.plan(hosts(3), push_shuffle=True, lab={"nodes_per_machine": 3})
    assert lab["spark_defaults"]["spark.shuffle.push.minShuffleSizeToWait"] == "0"
    assert lab["explain"]["spark.shuffle.push.minShuffleSizeToWait"].startswith("lab mode")
    # A comparison profile gets the switch too: it is the user's choice, not a sizing rule.
    assert P.plan(hosts(3), profile="emr", push_shuffle=True)["spark_defaults"]["spark.shuffle.push.enabled"] == "true"
    with pytest.raises(P.PlanError, match="push_shuffle: expected true or false, got 'yes'"):
        P.plan(hosts(3), push_shuffle="yes")
    assert plan_inputs([], push_shuffle=True)["push_shuffle"] is True and "push_shuffle" not in plan_inputs([])


def test_push_needs_the_shuffle_service():
    defaults = {"yarn_spark_shuffle_enabled": True, "spark_shuffle_service_enabled": True, "spark_push_shuffle_enabled": False}
    errors = []
    validate._push_shuffle({"spark_push_shuffle_enabled": True}, defaults, errors)
    assert errors == []
    validate._push_shuffle({"spark_push_shuffle_enabled": True, "yarn_spark_shuffle_enabled": False}, defaults, errors)
    assert errors == ["spark_push_shuffle_enabled: true needs the NodeManagers' Spark shuffle service, and "
                      "yarn_spark_shuffle_enabled is false. Allowed: both true, or spark_push_shuffle_enabled false"]
    errors = []
    validate._push_shuffle({"spark_push_shuffle_enabled": "true", "yarn_spark_shuffle_enabled": "false",
                            "spark_shuffle_service_enabled": False}, defaults, errors)
    assert "yarn_spark_shuffle_enabled and spark_shuffle_service_enabled are false" in errors[0]
    errors = []
    validate._push_shuffle({"yarn_spark_shuffle_enabled": False}, defaults, errors)
    assert errors == []
