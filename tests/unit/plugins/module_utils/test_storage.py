"""HDFS storage tiers (plugins/module_utils/storage.py, its filters and the settings check)."""

import re

import pytest
from ansible.errors import AnsibleFilterError

from ansible_collections.bigdata.spark.plugins.filter.storage import FilterModule
from ansible_collections.bigdata.spark.plugins.module_utils import storage, validate
from ansible_collections.bigdata.spark.plugins.module_utils.plan_playbook import plan_inputs

FILTERS = FilterModule().filters()
GIB = 2 ** 30
DISKS = [
    {"device": "nvme0n1", "type": "nvme", "mounts": ["/data/disk1"]},
    {"device": "sdb", "type": "hdd", "mounts": ["/data/disk2"]},
    {"device": "sda", "type": "ssd", "mounts": ["/"]},
]
# `hdfs fsck /tiers -files -blocks -locations` as Hadoop 3.3.6 prints it (addresses and ids shortened).
FSCK = """Connecting to namenode via http://prod-master:9870/fsck?ugi=hdfs&files=1&blocks=1&locations=1&path=%2Ftiers
FSCK started by hdfs (auth:SIMPLE) from /10.213.26.10 for path /tiers at Thu Dec 03 12:50:01 UTC 2026

/tiers <dir>
/tiers/ssd <dir>
/tiers/ssd/file1 3145728 bytes, replicated: replication=2, 1 block(s):  OK
0. BP-1:blk_1073741900_1076 len=3145728 Live_repl=2  [DatanodeInfoWithStorage[10.213.26.11:9866,DS-a,SSD], DatanodeInfoWithStorage[10.213.26.12:9866,DS-b,SSD]]

/tiers/ssd/file2 300 bytes, replicated: replication=2, 1 block(s):  OK
0. BP-1:blk_1073741901_1077 len=300 Live_repl=2  [DatanodeInfoWithStorage[10.213.26.11:9866,DS-c,DISK], DatanodeInfoWithStorage[10.213.26.12:9866,DS-b,SSD]]

Status: HEALTHY
"""


def test_tags_come_from_the_inventory_then_from_mixed_disks():
    dirs = storage.storage_dirs("w1", ["/data/disk1", "/data/disk2/"], {}, DISKS)
    assert [(d["path"], d["type"]) for d in dirs] == [("/data/disk1/hdfs/dn", "SSD"), ("/data/disk2/hdfs/dn", "DISK")]
    assert "solid-state disk (nvme, mounted at /data/disk1) beside spinning disks" in dirs[0]["why"]
    # One kind of disk: everything DISK, where HOT (the default policy) writes; the value stays untagged.
    same = storage.storage_dirs("w1", ["/data/disk1"], {}, DISKS)
    assert same[0]["type"] == "DISK" and "every data disk of this host is of one kind" in same[0]["why"]
    assert storage.data_dir_value(same) == "file:///data/disk1/hdfs/dn"
    # The inventory wins; no facts at all is DISK.
    tagged = storage.storage_dirs("w1", ["/data/disk1", "/data/disk2"], {"/data/disk1/": "ARCHIVE"}, None)
    assert [d["type"] for d in tagged] == ["ARCHIVE", "DISK"] and tagged[1]["why"].startswith("no disk facts")


def test_ram_disk_and_shared_tier_directories():
    dirs = storage.storage_dirs("w1", ["/data/disk1"], {}, [], "/mnt/hdfs-ramdisk", 128, "/mnt/lustre")
    assert [(d["path"], d["type"]) for d in dirs] == [
        ("/data/disk1/hdfs/dn", "DISK"), ("/mnt/hdfs-ramdisk/hdfs/dn", "RAM_DISK"), ("/mnt/lustre/hdfs/w1/dn", "ARCHIVE")]
    assert storage.data_dir_value(dirs) == ("[DISK]file:///data/disk1/hdfs/dn,[RAM_DISK]file:///mnt/hdfs-ramdisk/hdfs/dn,"
                                            "[ARCHIVE]file:///mnt/lustre/hdfs/w1/dn")
    out = FILTERS["hdfs_storage_dirs"](["/data/disk1"], "w1", {}, [], "/mnt/hdfs-ramdisk", "1g", "")
    assert out["ram_disk_mb"] == 1024 and out["data_dir"].endswith("[RAM_DISK]file:///mnt/hdfs-ramdisk/hdfs/dn")


@pytest.mark.parametrize("args, message", [
    ((["/data/disk1"], {"/data/disk3": "SSD"}), "hdfs_storage_types: '/data/disk3' is not one of hadoop_data_dirs"),
    ((["/data/disk1"], {"/data/disk1": "FLASH"}), "hdfs_storage_types[/data/disk1]: unknown storage type 'FLASH'; allowed: SSD, DISK, ARCHIVE"),
    ((["/data/disk1"], {"/data/disk1": "RAM_DISK"}), "RAM_DISK comes from hdfs_ram_disk_size"),
    ((["/data/disk1"], ["SSD"]), "hdfs_storage_types: expected a mapping"),
    ((["/data/disk1"], {}, [], "/data/disk1/ram", 64),
     "hdfs_ram_disk_dir: /data/disk1/ram and hadoop_data_dirs /data/disk1 are one directory tree: two storage tiers cannot share"),
    ((["/data/disk1"], {}, [], "/mnt/ram", 64, "/mnt"), "hdfs_archive_mount.path: /mnt and hdfs_ram_disk_dir /mnt/ram are one"),
    ((["/data/disk1"], {}, [], "ram", 64), "hdfs_ram_disk_dir: expected an absolute directory other than /, got 'ram'"),
    (([],), "hadoop_data_dirs: expected a list of absolute directories"),
])
def test_bad_tiers_are_named(args, message):
    with pytest.raises(storage.StorageError) as err:
        storage.storage_dirs("w1", *args)
    assert message in str(err.value)


def test_ram_disk_memory_goes_to_the_planner():
    hosts = [{"name": "w1", "size": "512m", "memory_bytes": 8 * GIB}, {"name": "w2", "size": "512m", "memory_bytes": 8 * GIB},
             {"name": "w3", "size": 0, "memory_bytes": 8 * GIB}]
    assert storage.ram_disk_services(hosts) == [{"name": "the HDFS RAM disk (hdfs_ram_disk_size 512m)", "memory_mb": 512, "vcores": 0, "hosts": ["w1", "w2"]}]
    with pytest.raises(storage.StorageError, match=r"hdfs_ram_disk_size: 6144 MB on w1 is more than the memory it can spare: "
                                                   r"at most 50% of its 8192 MB \(4096 MB\)"):
        storage.ram_disk_services([{"name": "w1", "size": "6g", "memory_bytes": 8 * GIB}])
    with pytest.raises(storage.StorageError, match="hdfs_ram_disk_size: expected a size"):
        storage.ram_disk_mb("lots")
    # A share of the node's memory, planned per node from its facts (at most half).
    assert storage.ram_disk_mb("25%", 8 * GIB) == 2048 and storage.ram_disk_mb("25%") == 1
    for bad in ("60%", "0%", "x%"):
        with pytest.raises(storage.StorageError, match=r"hdfs_ram_disk_size: '%s'; allowed: a share of the node's memory above 0%% "
                                                       r"and at most 50%%" % re.escape(bad)):
            storage.ram_disk_mb(bad, 8 * GIB)
    assert storage.ram_disk_services([{"name": "w1", "size": "10%", "memory_bytes": 10 * GIB}])[0]["memory_mb"] == 1024
    memory = {"total_bytes": 20 * GIB, "cgroup_limit_bytes": 10 * GIB}
    out = FILTERS["hdfs_storage_dirs"](["/data/disk1"], "w1", {}, [], "/mnt/r", "10%", "", memory)
    assert out["ram_disk_mb"] == 1024
    # The filter reads the DataNodes' variables and facts (the cgroup limit when lower); none: no services.
    hostvars = {"w1": {"hdfs_ram_disk_size": "1g", "bigdata_hardware": {"memory": {"total_bytes": 64 * GIB,
                                                                                   "cgroup_limit_bytes": 4 * GIB}}},
                "w2": {}}
    assert FILTERS["hdfs_ram_disk_services"]({"datanodes": ["w1", "w2"]}, hostvars)[0]["hosts"] == ["w1"]
    assert FILTERS["hdfs_ram_disk_services"]({"datanodes": ["w2"]}, hostvars) is None
    hostvars["w1"]["hdfs_ram_disk_size"] = "3g"
    with pytest.raises(AnsibleFilterError, match="hdfs_ram_disk_size: 3072 MB on w1 .* its 4096 MB"):
        FILTERS["hdfs_ram_disk_services"]({"datanodes": ["w1"]}, hostvars)
    # The planner's inputs carry them (other_services), and only when given.
    inputs = plan_inputs([], other_services=[{"name": "x", "memory_mb": 1, "hosts": ["w1"]}])
    assert inputs["other_services"][0]["memory_mb"] == 1 and "other_services" not in plan_inputs([], other_services=None)


@pytest.mark.parametrize("policies, message", [
    ({"/bench": "FAST"}, "hdfs_storage_policies[/bench]: unknown policy 'FAST'; allowed: ALL_SSD, COLD, HOT, LAZY_PERSIST, "),
    ({"file:///tmp/x": "HOT"}, "hdfs_storage_policies: 'file:///tmp/x' is outside HDFS"),
    ({"s3a://bucket/x": "HOT"}, "hdfs_storage_policies: 's3a://bucket/x' is outside HDFS"),
    ({"hdfs://nn:9000/x": "HOT"}, "give the path without the scheme and authority"),
    ({"bench": "HOT"}, "hdfs_storage_policies: 'bench' is not an absolute HDFS path"),
    (["/bench"], "hdfs_storage_policies: expected a mapping of HDFS path to policy"),
])
def test_bad_policies_are_named(policies, message):
    with pytest.raises(storage.StorageError) as err:
        storage.policy_paths(policies)
    assert message in str(err.value)


def test_policies_need_their_storage_types():
    checked = FILTERS["hdfs_policies"]({"/b/": "ALL_SSD", "/a": "HOT"})
    assert checked == [{"path": "/a", "policy": "HOT"}, {"path": "/b", "policy": "ALL_SSD"}]
    types = {"w1": ["DISK", "SSD"], "w2": ["DISK"]}
    assert FILTERS["hdfs_policies"]({"/b": "ONE_SSD"}, types)[0]["policy"] == "ONE_SSD"
    with pytest.raises(AnsibleFilterError, match=r"hdfs_storage_policies\[/c\]: COLD needs ARCHIVE storage, and no DataNode "
                                                 r"has any \(storage types of the cluster: SSD, DISK\)"):
        FILTERS["hdfs_policies"]({"/c": "COLD"}, types)


def test_fsck_and_the_policy_report():
    files = storage.parse_fsck(FSCK)
    assert [f["path"] for f in files] == ["/tiers/ssd/file1", "/tiers/ssd/file2"]
    assert files[0]["blocks"][0]["storages"] == [("10.213.26.11:9866", "DS-a", "SSD"), ("10.213.26.12:9866", "DS-b", "SSD")]
    known = [{"id": 12, "name": "ALL_SSD"}, {"id": 2, "name": "COLD"}, {"id": 7, "name": "HOT"}]
    names = FILTERS["hdfs_policy_names"]({"/tiers/ssd": {"FileStatus": {"storagePolicy": 12, "type": "DIRECTORY"}},
                                          "/tiers/new": {"FileStatus": {"storagePolicy": 0, "type": "DIRECTORY"}},
                                          "/gone": {"RemoteException": {"exception": "FileNotFoundException"}}, "/x": None}, known)
    assert names == {"/tiers/ssd": "ALL_SSD", "/tiers/new": None, "/gone": None, "/x": None}
    out = FILTERS["hdfs_policy_report"]({"/tiers/ssd": "ALL_SSD", "/tiers/new": "COLD"}, names, {"/tiers/ssd": FSCK})
    rows = dict((r["path"], r) for r in out["rows"])
    assert rows["/tiers/ssd"]["blocks"] == 2 and rows["/tiers/ssd"]["blocks_ok"] == 1 and not rows["/tiers/ssd"]["satisfied"]
    assert rows["/tiers/ssd"]["replicas"] == {"SSD": 3, "DISK": 1}
    assert rows["/tiers/new"]["files"] == 0 and rows["/tiers/new"]["actual"] is None and not out["satisfied"]
    assert out["lines"][1].split() == ["/tiers/new", "COLD", "0", "0", "of", "0", "-", "no", "(policy", "is", "unspecified)"]
    assert out["lines"][2].split() == ["/tiers/ssd", "ALL_SSD", "2", "1", "of", "2", "SSD:3", "DISK:1", "no"]


def test_which_replicas_satisfy_a_policy():
    assert storage.expected_types("WARM", 3) == ["ARCHIVE", "ARCHIVE", "DISK"]
    assert storage.block_satisfies("ONE_SSD", 2, ["DISK", "SSD"])
    assert not storage.block_satisfies("ALL_SSD", 2, ["SSD"])  # under-replicated
    assert storage.block_satisfies("LAZY_PERSIST", 1, ["RAM_DISK"]) and storage.block_satisfies("LAZY_PERSIST", 1, ["DISK"])
    assert not storage.block_satisfies("LAZY_PERSIST", 1, ["SSD"])


def test_the_settings_check_names_storage_mistakes():
    defaults = {"hadoop_data_dirs": ["/data/disk1"], "hdfs_ram_disk_dir": "/mnt/hdfs-ramdisk"}
    errors = []
    validate._storage({"hdfs_storage_policies": {"/x": "FAST"}, "hdfs_storage_types": {"/data/disk1": "NVME"}}, defaults, errors)
    assert len(errors) == 2 and errors[0].startswith("hdfs_storage_types[/data/disk1]: unknown storage type 'NVME'")
    assert errors[1].startswith("hdfs_storage_policies[/x]: unknown policy 'FAST'")
    errors = []
    validate._storage({"hdfs_archive_mount": {"path": "/mnt/x"}}, defaults, errors)
    assert errors == ["hdfs_archive_mount: expected {} (no shared tier) or a mapping with src, path, fstype and optional opts, "
                      "got {'path': '/mnt/x'}"]
    errors = []
    validate._storage({"hdfs_ram_disk_size": "1g", "hdfs_ram_disk_dir": "/data"}, defaults, errors)
    assert "two storage tiers cannot share a directory" in errors[0]
    # A relative data directory is the paths check's to name, not this one's.
    errors = []
    validate._storage({"hadoop_data_dirs": ["data"], "hdfs_ram_disk_size": "1g"}, defaults, errors)
    assert errors == []
    found = validate.settings_errors({"hdfs_storage_policies": {"/x": "FAST"}},
                                     {"groups": {"namenode": 1, "resourcemanager": 1, "datanodes": 1, "nodemanagers": 1}},
                                     defaults=defaults)
    assert found == ["hdfs_storage_policies[/x]: unknown policy 'FAST'; allowed: ALL_SSD, COLD, HOT, LAZY_PERSIST, ONE_SSD, WARM"]
