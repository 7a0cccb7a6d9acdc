# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""HDFS storage tier filters; the logic lives in module_utils/storage.py."""

from __future__ import annotations

from ansible.errors import AnsibleFilterError

from ansible_collections.bigdata.spark.plugins.module_utils import storage
from ansible_collections.bigdata.spark.plugins.module_utils.plan_inputs import memory_bytes


def _call(fn, *args):
    try:
        return fn(*args)
    except storage.StorageError as exc:
        # The message starts with the variable it is about.
        raise AnsibleFilterError(str(exc)) from exc


def hdfs_storage_dirs(data_dirs, host, types=None, disks=None, ram_disk_dir="", ram_disk_size=0, archive_dir="",
                      memory=None):
    """A host's DataNode directories with their storage types (dirs), dfs.datanode.data.dir (data_dir) and the RAM
    disk's size in MB (ram_disk_mb; a share such as "25%" of the node's memory, from memory: bigdata_hardware.memory)."""
    def run():
        size = storage.ram_disk_mb(ram_disk_size, memory_bytes(memory))
        dirs = storage.storage_dirs(host, data_dirs, types, disks, ram_disk_dir, size, archive_dir)
        return {"dirs": dirs, "data_dir": storage.data_dir_value(dirs), "ram_disk_mb": size}
    return _call(run)


def hdfs_ram_disk_services(groups, hostvars):
    """The planner's other_services for the RAM-disk tier of the DataNodes (their memory taken out of YARN)."""
    def run():
        hosts = []
        for name in groups.get("datanodes") or []:
            own = hostvars[name]
            facts = own["bigdata_hardware"] if "bigdata_hardware" in own else {}
            hosts.append({"name": name, "size": own["hdfs_ram_disk_size"] if "hdfs_ram_disk_size" in own else 0,
                          "memory_bytes": memory_bytes((facts or {}).get("memory"))})
        return storage.ram_disk_services(hosts) or None
    return _call(run)


def hdfs_policies(policies, types_by_host=None):
    """hdfs_storage_policies checked ([{path, policy}]); with types_by_host ({host: [storage types]}) a policy whose
    storage types no DataNode has is an error too."""
    def run():
        checked = storage.policy_paths(policies)
        problems = storage.policy_tiers_problems(policies, types_by_host) if types_by_host is not None else []
        if problems:
            raise storage.StorageError("; ".join(problems))
        return [{"path": path, "policy": policy} for path, policy in checked]
    return _call(run)


def hdfs_policy_names(answers, policies):
    """Path -> the policy set on it (none when unspecified or missing), from WebHDFS's GETFILESTATUS and
    GETALLSTORAGEPOLICY answers."""
    return _call(storage.policy_names, answers, policies)


def hdfs_policy_report(policies, actual, fsck_by_path):
    """Whether each path's blocks sit on the storage types of its policy: rows, lines and satisfied (all rows)."""
    def run():
        rows = storage.policy_report(policies, actual or {}, fsck_by_path or {})
        return {"rows": rows, "lines": storage.report_lines(rows), "satisfied": all(r["satisfied"] for r in rows)}
    return _call(run)


class FilterModule:
    """HDFS storage tier filters."""

    def filters(self):
        return {"hdfs_storage_dirs": hdfs_storage_dirs, "hdfs_ram_disk_services": hdfs_ram_disk_services,
                "hdfs_policies": hdfs_policies, "hdfs_policy_names": hdfs_policy_names,
                "hdfs_policy_report": hdfs_policy_report}
