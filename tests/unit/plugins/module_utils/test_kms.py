# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""HDFS transparent encryption (plugins/module_utils/kms.py): the KMS and zone settings checked before any change,
and the zone plan from the cluster's answers."""

import pytest
from ansible.errors import AnsibleFilterError

from ansible_collections.bigdata.spark.plugins.filter.kms import FilterModule
from ansible_collections.bigdata.spark.plugins.module_utils import kms

PLAN = FilterModule().filters()["encryption_zone_plan"]
GOOD = {"hadoop_kms_enabled": True, "hadoop_kms_keystore_password": "secret-kms", "hadoop_users": {"hdfs": "hdfs", "kms": "kms"},
        "hadoop_kms_admins": ["hdfs"], "hdfs_encryption_zones": [{"path": "/secure", "key": "lab-key"}]}
KEYS = "Listing keys for KeyProvider: org.apache.hadoop.crypto.key.kms.LoadBalancingKMSClientProvider@3f0ee7cb\nlab-key\nother\n"
ZONES = "/secure  lab-key \n/old     other   \n"


def problems(changes=None, groups=None, drop=()):
    settings = dict(GOOD, **(changes or {}))
    for name in drop:
        settings.pop(name)
    return kms.settings_problems(lambda name, fallback=None: settings.get(name, fallback),
                                 {"kms": 1} if groups is None else groups)


def test_good_settings_have_no_problem():
    assert problems() == []
    assert problems({"hadoop_kms_enabled": False, "hdfs_encryption_zones": []}, {}) == []


@pytest.mark.parametrize("changes, groups, message", [
    ({}, {}, "hadoop_kms_enabled: true needs one host in the inventory group 'kms'"),
    ({}, {"kms": 2}, "the group has 2. Allowed: exactly one host in kms"),
    ({"hadoop_kms_keystore_password": ""}, None, "hadoop_kms_keystore_password: a password of 6 characters or more is required"),
    ({"hadoop_kms_keystore_password": "abc"}, None, "hadoop_kms_keystore_password: a password of 6 characters"),
    ({"hadoop_users": {"hdfs": "hdfs"}}, None, "hadoop_users: the key kms is missing"),
    ({"hadoop_users": {"hdfs": "hdfs", "kms": "hdfs"}}, None, "hadoop_users.kms: 'hdfs' runs another service too"),
    ({"hadoop_kms_admins": []}, None, "hadoop_kms_admins: a list of one or more user names is required"),
    ({"hadoop_kms_enabled": False}, {}, "hdfs_encryption_zones: zones need the key provider, and hadoop_kms_enabled is false"),
    ({"hdfs_encryption_zones": [{"path": "secure", "key": "k"}]}, None, "hdfs_encryption_zones[0].path: an absolute HDFS path"),
    ({"hdfs_encryption_zones": [{"path": "/", "key": "k"}]}, None, "hdfs_encryption_zones[0].path: an absolute HDFS path other than /"),
    ({"hdfs_encryption_zones": [{"path": "/a", "key": "k"}, {"path": "/a/", "key": "k"}]}, None,
     "hdfs_encryption_zones[1].path: /a is also hdfs_encryption_zones[0]"),
    ({"hdfs_encryption_zones": [{"path": "/a", "key": "bad key"}]}, None, "hdfs_encryption_zones[0].key: a KMS key name is required"),
    ({"hdfs_encryption_zones": [{"path": "/a"}]}, None, "hdfs_encryption_zones[0].key: a KMS key name is required"),
    ({"hdfs_encryption_zones": [{"path": "/a", "key": "k", "keyname": "k"}]}, None, "hdfs_encryption_zones[0]: unknown keys keyname"),
    ({"hdfs_encryption_zones": "/a"}, None, "hdfs_encryption_zones: a list of {path, key, owner, group, mode} is required"),
])
def test_each_mistake_is_named(changes, groups, message):
    found = problems(changes, groups)
    assert [p for p in found if message in p], found


def test_key_names_and_zone_state_are_read():
    assert kms.key_names(KEYS) == ["lab-key", "other"]
    assert kms.key_names("") == []
    zones, counts = kms.zone_state(ZONES + "count            1            0                  0 /secure\ncount \n")
    assert zones == {"/secure": "lab-key", "/old": "other"}
    assert counts == {"/secure": (1, 0)}


def test_converged_zones_plan_nothing():
    plan = PLAN([{"path": "/secure/", "key": "lab-key"}], KEYS, ZONES)
    assert plan == {"create_keys": [], "create_zones": [], "problems": []}


def test_new_zone_on_an_empty_or_missing_path_creates_its_key_once():
    wanted = [{"path": "/new", "key": "fresh"}, {"path": "/empty", "key": "fresh"}, {"path": "/third", "key": "lab-key"}]
    state = ZONES + "count            1            0                  0 /empty\ncount \n"
    plan = PLAN(wanted, KEYS, state)
    assert plan == {"create_keys": ["fresh"],
                    "create_zones": [{"path": "/new", "key": "fresh"}, {"path": "/empty", "key": "fresh"},
                                     {"path": "/third", "key": "lab-key"}], "problems": []}


def test_a_zone_is_never_rekeyed_and_a_full_directory_never_becomes_one():
    wanted = [{"path": "/secure", "key": "other"}, {"path": "/data", "key": "k2"}, {"path": "/new", "key": "k3"}]
    state = ZONES + "count            3            5               1024 /data\n"
    plan = PLAN(wanted, KEYS, state)
    assert plan["create_keys"] == [] and plan["create_zones"] == []
    assert any("/secure is an encryption zone under the key 'lab-key', not 'other'" in p for p in plan["problems"])
    assert any("/data holds 2 directories and 5 files; only an empty directory becomes an encryption zone" in p
               for p in plan["problems"])


def test_bad_zone_list_is_a_named_filter_error():
    with pytest.raises(AnsibleFilterError, match=r"encryption_zone_plan: hdfs_encryption_zones\[0\].key"):
        PLAN([{"path": "/a", "key": ""}], KEYS, ZONES)


def test_the_kms_memory_is_a_planner_service_on_its_host():
    services = FilterModule().filters()["kms_services"]
    assert services({"kms": ["w2"]}, {"w2": {"hadoop_kms_enabled": True}}) == [
        {"name": "Hadoop KMS", "memory_mb": 256 + kms.JVM_OVERHEAD_MB, "vcores": 0, "hosts": ["w2"]}]
    assert services({"kms": ["w2"]}, {"w2": {"hadoop_kms_enabled": True, "hadoop_kms_heap_mb": 1024}})[0]["memory_mb"] == 1152
    # Off by default, and no group: nothing kept back.
    assert services({"kms": ["w2"]}, {"w2": {}}) is None
    assert services({}, {}) is None
    with pytest.raises(AnsibleFilterError, match="kms_services: hadoop_kms_heap_mb: a heap of 64 MiB or more is required on w2"):
        services({"kms": ["w2"]}, {"w2": {"hadoop_kms_enabled": True, "hadoop_kms_heap_mb": 0}})


def test_the_plan_keeps_the_kms_memory_from_yarn_on_its_host():
    from ansible_collections.bigdata.spark.plugins.module_utils import plan as P
    hosts = [{"name": n, "roles": ["datanode", "nodemanager"], "cores": 16, "memory_mb": 65536} for n in ("w1", "w2")]
    svc = FilterModule().filters()["kms_services"]({"kms": ["w2"]}, {"w2": {"hadoop_kms_enabled": True}})
    with_kms, without = P.plan(hosts, other_services=svc), P.plan(hosts)
    assert with_kms["nodemanagers"]["w1"] == without["nodemanagers"]["w1"]
    mb = "yarn.nodemanager.resource.memory-mb"
    assert int(with_kms["nodemanagers"]["w2"][mb]) == int(without["nodemanagers"]["w2"][mb]) - 1024
