# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""HDFS storage tiers on a converged lab whose hosts are in the group lab_prod (inventories/lab/group_vars/lab_prod.yml:
/data/disk2 tagged SSD, a RAM disk, the directory lab/lab.sh shares between the nodes bind-mounted as ARCHIVE, and
the policies /tiers/ssd ALL_SSD, /tiers/cold COLD, /tiers/lazy LAZY_PERSIST). docs/storage.md.

    BIGDATA_LAB_INVENTORY=inventories/lab-prod pytest -q -p no:cacheprovider tests/lab/test_storage.py

Each file's blocks are found twice: where the NameNode says they are (fsck: the storage type of every replica) and
where the DataNodes keep them (the block files under each tier's directory, on the node or in the shared directory on
this machine). A Spark job on YARN reads and writes the shared file system at its mount; a policy change moves the
blocks (the mover); a restart of the DataNodes keeps every file.
"""

from __future__ import annotations

import hashlib
import json
import os
import pathlib
import re

import pytest
import yaml

import lab_run

INVENTORY = os.environ.get("BIGDATA_LAB_INVENTORY", "")
GROUPS = lab_run.inventory_groups(INVENTORY) if INVENTORY else {}
TIERED = sorted(GROUPS.get("lab_prod", {}))
pytestmark = pytest.mark.skipif(not INVENTORY or not TIERED,
                                reason="set BIGDATA_LAB_INVENTORY to a converged lab with hosts in the group lab_prod")
ROOT = pathlib.Path(__file__).resolve().parents[2]
TIERS = yaml.safe_load((ROOT / "inventories/lab/group_vars/lab_prod.yml").read_text())
HDFS = "HADOOP_USER_NAME=hdfs HADOOP_CONF_DIR=/etc/hadoop/conf /opt/hadoop/current/bin/hdfs"
STORAGE = re.compile(r"DatanodeInfoWithStorage\[([^,\]]+),(DS-[^,\]]+),(\w+)\]")
BLOCK = re.compile(r"(blk_\d+)_\d+ len=")
SIZE = 3 * 1024 * 1024  # 3 MiB: a whole number of pages, as a RAM-disk replica must be


def _master():
    return sorted(GROUPS["namenode"])[0]


def _shell(host, command, timeout=900):
    return lab_run.shell(INVENTORY, host, command, timeout)


def _put(host, path, replication, seed):
    """Write a file of SIZE made-up bytes from host; its MD5."""
    data = hashlib.sha256(seed.encode()).digest() * (SIZE // 32)
    _shell(host, "python3 -c 'import sys,hashlib; sys.stdout.buffer.write(hashlib.sha256(sys.argv[1].encode()).digest()"
           " * int(sys.argv[2]))' %s %d > /tmp/tier-file && %s dfs -mkdir -p %s && %s dfs -D dfs.replication=%d -put -f /tmp/tier-file %s"
           " && rm -f /tmp/tier-file" % (seed, SIZE // 32, HDFS, path.rsplit("/", 1)[0], HDFS, replication, path))
    return hashlib.md5(data).hexdigest()


def _md5(path):
    out = _shell(_master(), "%s dfs -cat %s | md5sum" % (HDFS, path))
    return out.split()[0]


def _replicas(path):
    """[(block name, storage type, DataNode address)] of every replica of path, from fsck."""
    out = _shell(_master(), "%s fsck %s -files -blocks -locations 2>/dev/null" % (HDFS, path))
    found = []
    for line in out.splitlines():
        block = BLOCK.search(line)
        if block:
            found += [(block.group(1), where[2], where[0]) for where in STORAGE.findall(line)]
    assert found, out[-2000:]
    return found


def _kinds(path):
    """The storage types of every replica of path."""
    return {replica[1] for replica in _replicas(path)}


def _host_of(address):
    ip = address.split(":")[0]
    for members in GROUPS.values():
        for host, hostvars in members.items():
            if (hostvars or {}).get("ansible_host") == ip or host == ip:
                return host
    raise AssertionError("no host of the inventory has the address %s" % address)


def _block_files(host, root, block):
    out = _shell(host, "find %s -name '%s' -type f 2>/dev/null || true" % (root, block))
    return [line for line in out.splitlines() if line.startswith("/")]


def _shared_dir():
    """The directory of this machine lab/lab.sh shares between the nodes (mounted as the ARCHIVE tier)."""
    name = sorted(GROUPS["namenode"])[0].rsplit("-", 1)[0]
    path = ROOT / "lab" / "build" / ("%s-shared" % name)
    assert path.is_dir(), path
    return path


def test_datanodes_report_every_tier():
    # The DataNodes' own view: one volume per tier directory, with its storage type.
    for host in TIERED:
        out = _shell(host, lab_run.curl(lab_run.web_url(INVENTORY, host, "datanode") + "/jmx?qry=Hadoop:service=DataNode,name=DataNodeInfo"))
        volumes = json.loads(json.loads(out[out.index("{"):])["beans"][0]["VolumeInfo"])
        types = sorted(v.get("storageType") for v in volumes.values())
        assert types == ["ARCHIVE", "DISK", "RAM_DISK", "SSD"], (host, volumes)
        mounts = _shell(host, "cat /proc/mounts")
        ram_dir = TIERS.get("hdfs_ram_disk_dir", "/mnt/hdfs-ramdisk")
        assert re.search(r"^tmpfs %s tmpfs .*size=%dk" % (re.escape(ram_dir), 128 * 1024), mounts, re.M), mounts
        assert " %s " % TIERS["hdfs_archive_mount"]["path"] in mounts, mounts


def test_all_ssd_lands_on_the_ssd_directories():
    md5 = _put(_master(), "/tiers/ssd/file1", 2, "ssd")
    replicas = _replicas("/tiers/ssd/file1")
    assert {replica[1] for replica in replicas} == {"SSD"}, replicas
    for block, _kind, address in replicas:
        host = _host_of(address)
        assert _block_files(host, "/data/disk2/hdfs/dn", block), (host, block)
        assert not _block_files(host, "/data/disk1/hdfs/dn", block), (host, block)
    assert _md5("/tiers/ssd/file1") == md5


def test_cold_lands_on_the_shared_file_system():
    md5 = _put(_master(), "/tiers/cold/file1", 2, "cold")
    replicas = _replicas("/tiers/cold/file1")
    assert {replica[1] for replica in replicas} == {"ARCHIVE"}, replicas
    shared = _shared_dir()
    for block, _kind, address in replicas:
        # Each DataNode's ARCHIVE directory is <mount>/hdfs/<host>/dn, in the directory this machine shares.
        host = _host_of(address)
        files = list((shared / "hdfs" / host / "dn").rglob(block))
        assert files and files[0].stat().st_size == SIZE, (host, block)
    assert _md5("/tiers/cold/file1") == md5


SPARK_JOB = """import sys
from pyspark.sql import SparkSession

spark = SparkSession.builder.getOrCreate()
numbers = spark.sparkContext.textFile(sys.argv[1]).map(int)
spark.sparkContext.parallelize([str(numbers.sum())], 1).saveAsTextFile(sys.argv[2])
spark.stop()
"""


def test_spark_reads_and_writes_the_shared_file_system():
    # Input and the job written on this machine into the shared directory; the executors on every node read it at
    # the mount (file://), the job writes its answer there, and it is read back here.
    shared = _shared_dir() / "spark"
    shared.mkdir(exist_ok=True)
    shared.chmod(0o1777)
    for part in range(4):
        (shared / ("numbers-%d.txt" % part)).write_text("".join("%d\n" % i for i in range(part * 250 + 1, part * 250 + 251)))
    (shared / "sum_job.py").write_text(SPARK_JOB)
    out = shared / "sum"
    _shell(_master(), "rm -rf %s/spark/sum" % TIERS["hdfs_archive_mount"]["path"])
    mount = "file://%s/spark" % TIERS["hdfs_archive_mount"]["path"]
    _shell(_master(), "cd /tmp && runuser -u spark -- env HADOOP_CONF_DIR=/etc/hadoop/conf SPARK_CONF_DIR=/etc/spark/conf "
           "/opt/spark/current/bin/spark-submit --master yarn --deploy-mode cluster --name tiers-shared-fs "
           "--num-executors 2 %s/sum_job.py '%s/numbers-*.txt' %s/sum"
           % (TIERS["hdfs_archive_mount"]["path"] + "/spark", mount, mount))
    assert (out / "_SUCCESS").exists(), sorted(p.name for p in shared.iterdir())
    answer = "".join(p.read_text() for p in sorted(out.glob("part-*"))).strip()
    assert answer == str(sum(range(1, 1001))), answer


def test_lazy_persist_goes_to_the_ram_disk_or_falls_back_to_disk():
    # LAZY_PERSIST writes its first replica to RAM_DISK only when the DataNode can account it as locked memory
    # (dfs.datanode.max.locked.memory > 0), which needs libhadoop and a memlock limit systemd can grant; the lab's
    # containers get 8 MB and no CAP_SYS_RESOURCE from podman here (docs/storage.md). The file is then written to
    # DISK, and the DataNode counts the fallback.
    writer = TIERED[-1]
    conf = _shell(writer, "cat /etc/hadoop/conf/hdfs-site.xml")
    native = "dfs.datanode.max.locked.memory" in conf
    md5 = _put(writer, "/tiers/lazy/file1", 1, "lazy")
    replicas = _replicas("/tiers/lazy/file1")
    assert len(replicas) == len({replica[0] for replica in replicas}), replicas
    kinds = {replica[1] for replica in replicas}
    if native:
        assert kinds <= {"RAM_DISK", "DISK"} and "RAM_DISK" in kinds, replicas
    else:
        assert kinds == {"DISK"}, replicas
        out = _shell(writer, lab_run.curl(lab_run.web_url(INVENTORY, writer, "datanode")
                                          + "/jmx?qry=Hadoop:service=DataNode,name=DataNodeActivity-*"))
        bean = json.loads(out[out.index("{"):])["beans"][0]
        assert bean["RamDiskBlocksWriteFallback"] >= 1, bean
    assert _md5("/tiers/lazy/file1") == md5


def test_a_policy_change_moves_the_blocks_and_a_restart_keeps_every_file():
    # HOT first (a rerun of this test finds /tiers/move ALL_SSD).
    _shell(_master(), "%s dfs -mkdir -p /tiers/move && %s storagepolicies -setStoragePolicy -path /tiers/move -policy HOT" % (HDFS, HDFS))
    md5 = _put(_master(), "/tiers/move/file1", 2, "move")
    assert _kinds("/tiers/move/file1") == {"DISK"}
    policies = dict(TIERS["hdfs_storage_policies"], **{"/tiers/move": "ALL_SSD"})
    proc = lab_run.playbook(INVENTORY, "storage.yml", extra={"hdfs_storage_policies": policies})
    assert proc.returncode == 0, proc.stdout[-4000:]
    assert re.search(r"Move the blocks of the paths whose policy changed\] \**\s+changed:", proc.stdout), \
        proc.stdout[-4000:]
    # The report: every path satisfies its policy, /tiers/move with its 1 block on SSD.
    assert re.search(r"/tiers/move\s+ALL_SSD\s+1\s+1 of 1\s+SSD:2\s+yes", proc.stdout), proc.stdout[-3000:]
    assert re.search(r"/tiers/ssd\s+ALL_SSD\s+\d+\s+(\d+) of \1\s+SSD:\d+\s+yes", proc.stdout), proc.stdout[-3000:]
    assert _kinds("/tiers/move/file1") == {"SSD"}
    again = lab_run.playbook(INVENTORY, "storage.yml", extra={"hdfs_storage_policies": policies})
    assert again.returncode == 0 and not lab_run.changed_hosts(again), again.stdout[-3000:]
    # A restart of every DataNode at once (service.yml's rolling restart is tested by test_operations and the survival
    # steps) keeps every file, each on its tier: each DataNode registered again (a block pool actor RUNNING).
    restart = lab_run.adhoc(INVENTORY, "datanodes", "ansible.builtin.shell",
                            "systemctl restart hadoop-hdfs-datanode && for i in $(seq 90); do "
                            + lab_run.curl(lab_run.web_url(INVENTORY, _master(), "datanode") + "/jmx?qry=Hadoop:service=DataNode,name=DataNodeInfo")
                            + " | grep -Eq 'ActorState[^A-Za-z]{1,8}RUNNING' && exit 0; sleep 2; done; exit 1")
    assert restart.returncode == 0, restart.stdout[-4000:]
    assert _md5("/tiers/move/file1") == md5
    assert _kinds("/tiers/ssd/file1") == {"SSD"}
    assert _kinds("/tiers/cold/file1") == {"ARCHIVE"}
    for path, seed in (("/tiers/ssd/file1", "ssd"), ("/tiers/cold/file1", "cold"), ("/tiers/lazy/file1", "lazy")):
        data = hashlib.sha256(seed.encode()).digest() * (SIZE // 32)
        assert _md5(path) == hashlib.md5(data).hexdigest(), path
