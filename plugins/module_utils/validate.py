# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Checks of the inventory's settings that need more than a type: paths, names, groups, properties, sizes.

Pure functions over plain values (no Ansible, no I/O). Each finding is one string that starts with the
variable's name and says what is allowed, so a user can act on it. The validation play
(playbooks/validate.yml) runs them on the controller before any host changes.
"""

from __future__ import annotations

import difflib
import functools
import re

from ansible_collections.bigdata.spark.plugins.module_utils import kerberos, kms, rss, storage
from ansible_collections.bigdata.spark.plugins.module_utils.plan_inputs import override_errors

USER_RE = re.compile(r"^[a-z_][a-z0-9_-]{0,31}$")
VERSION_RE = re.compile(r"^[0-9]+\.[0-9]+\.[0-9]+$")
CLUSTER_ID_RE = re.compile(r"^[A-Za-z0-9_.-]+$")
SERIAL_RE = re.compile(r"^([1-9][0-9]?|100)%$")
MIN_BLOCK_SIZE = 1048576  # dfs.namenode.fs-limits.min-block-size's default
CHECKSUM_CHUNK = 512  # dfs.bytes-per-checksum's default: the block size must be a multiple of it

# Properties the roles set from their own variables: an override would make the files disagree with the
# directories, the format guard and the health gates.
MANAGED = {
    "hdfs_site_overrides": {
        "dfs.namenode.name.dir": "hdfs_name_dirs",
        "dfs.namenode.edits.dir": "hdfs_name_dirs",
        "dfs.datanode.data.dir": "hadoop_data_dirs",
        "dfs.replication": "hdfs_replication",
        "dfs.blocksize": "hdfs_block_size",
    },
    "hadoop_core_site_overrides": {
        "fs.defaultFS": "hadoop_namenode_host and hadoop_namenode_rpc_port",
    },
    "yarn_site_overrides": {
        "yarn.nodemanager.local-dirs": "hadoop_data_dirs",
        "yarn.nodemanager.log-dirs": "hadoop_data_dirs",
        "yarn.nodemanager.recovery.dir": "yarn_nodemanager_recovery_dir",
        "yarn.nodemanager.recovery.enabled": "yarn_nodemanager_recovery",
        "yarn.resourcemanager.recovery.enabled": "yarn_resourcemanager_recovery",
    },
}

# Property names that carry an instance name (a user, an aux service, a nameservice): their prefix is
# checked instead of the whole name.
DYNAMIC_PREFIXES = (
    "hadoop.proxyuser.",
    "hadoop.security.group.mapping.",
    "fs.AbstractFileSystem.",
    "yarn.nodemanager.aux-services.",
    "yarn.scheduler.capacity.",
    "spark.",
    "dfs.ha.namenodes.",
    "dfs.client.failover.proxy.provider.",
)

# Which *_overrides variable fills which file of the known property lists.
OVERRIDE_FILES = {
    "hadoop_core_site_overrides": "core-site",
    "hdfs_site_overrides": "hdfs-site",
    "yarn_site_overrides": "yarn-site",
    "mapred_site_overrides": "mapred-site",
}

ABSOLUTE_VARS = (
    "hadoop_install_root", "hadoop_conf_dir", "hadoop_log_dir", "hadoop_download_dir", "spark_install_root",
    "spark_conf_dir", "spark_log_dir", "spark_download_dir", "yarn_nodemanager_recovery_dir",
    "hdfs_domain_socket_path", "spark_event_log_dir", "yarn_remote_app_log_dir", "spark_yarn_archive_hdfs_dir",
)
ABSOLUTE_LIST_VARS = ("hadoop_data_dirs", "hdfs_name_dirs")

PORT_VARS = (
    "hadoop_namenode_rpc_port", "hdfs_namenode_http_port", "hdfs_datanode_http_port", "hdfs_datanode_ipc_port",
    "yarn_resourcemanager_port",
    "yarn_resourcemanager_webapp_port", "yarn_nodemanager_port", "yarn_nodemanager_webapp_port",
    "yarn_jobhistory_port", "yarn_jobhistory_webapp_port", "yarn_spark_shuffle_port", "spark_history_port",
)

HEAP_KEYS = ("namenode", "datanode", "resourcemanager", "nodemanager", "historyserver", "journalnode", "zkfc")
# Which daemons of hadoop_heap_mb run on a host, by the role names the plan uses.
HEAP_ROLES = {
    "namenode": "namenode", "datanode": "datanode", "resourcemanager": "resourcemanager",
    "nodemanager": "nodemanager", "historyserver": "jobhistory", "journalnode": "journalnode", "zkfc": "zkfc",
}


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _as_int(value):
    """An int from an int or a string of digits; None otherwise (the argument specs report the type)."""
    if _is_int(value):
        return value
    if isinstance(value, str) and re.match(r"^-?[0-9]+$", value.strip()):
        return int(value)
    return None


def property_known(name, known, extra_patterns=()):
    """True when Hadoop declares `name` (or it is a per-instance name of a declared one) or a pattern allows it."""
    if name in known:
        return True
    if any(name.startswith(prefix) for prefix in DYNAMIC_PREFIXES):
        return True
    # Per-nameservice and per-NameNode forms: dfs.namenode.rpc-address.ns1.nn1 extends dfs.namenode.rpc-address.
    parts = name.split(".")
    for cut in range(len(parts) - 1, 1, -1):
        if ".".join(parts[:cut]) in known:
            return True
    return any(re.search(pattern, name) for pattern in extra_patterns)


def unknown_property_errors(var, overrides, known, extra_patterns=()):
    """Findings for override names that the file's Hadoop defaults do not declare."""
    errors = []
    for name in sorted(overrides):
        if not isinstance(name, str) or property_known(name, known, extra_patterns):
            continue
        close = difflib.get_close_matches(name, known, n=1, cutoff=0.8)
        hint = " (did you mean '%s'?)" % close[0] if close else ""
        errors.append(
            "%s: unknown property '%s'%s. Allowed: the names in Hadoop's %s defaults; a property that Hadoop "
            "reads from elsewhere can be allowed with a regular expression in validate_extra_properties."
            % (var, name, hint, OVERRIDE_FILES.get(var, var)))
    return errors


def _paths(settings, errors):
    for var in ABSOLUTE_VARS:
        value = settings.get(var)
        if isinstance(value, str) and not value.startswith("/"):
            errors.append("%s: '%s' is not an absolute path. Allowed: a path that starts with '/'." % (var, value))
    for var in ABSOLUTE_LIST_VARS:
        value = settings.get(var)
        if not isinstance(value, list):
            continue
        if not value:
            errors.append("%s: the list is empty. Allowed: one or more absolute paths." % var)
        for item in value:
            if not isinstance(item, str) or not item.startswith("/"):
                errors.append("%s: '%s' is not an absolute path. Allowed: paths that start with '/'." % (var, item))
        normal = [str(item).rstrip("/") for item in value]
        dups = sorted({item for item in normal if normal.count(item) > 1})
        if dups:
            errors.append("%s: %s listed more than once. Allowed: each directory once." % (var, ", ".join(dups)))
    names = settings.get("hdfs_name_dirs")
    disks = settings.get("hadoop_data_dirs")
    if isinstance(names, list) and isinstance(disks, list):
        for name in names:
            for disk in disks:
                if not (isinstance(name, str) and isinstance(disk, str)):
                    continue
                dn = disk.rstrip("/") + "/hdfs/dn"
                if name.rstrip("/") == dn or name.startswith(dn + "/") or dn.startswith(name.rstrip("/") + "/"):
                    errors.append("hdfs_name_dirs: '%s' overlaps the DataNode directory '%s' of hadoop_data_dirs. "
                                  "Allowed: NameNode directories outside <disk>/hdfs/dn." % (name, dn))


def _users(settings, errors):
    users = settings.get("hadoop_users")
    if isinstance(users, dict):
        missing = sorted({"hdfs", "yarn", "mapred", "spark"} - set(users))
        if missing:
            errors.append("hadoop_users: the keys %s are missing. Allowed: a dict with the keys hdfs, yarn, "
                          "mapred and spark." % ", ".join(missing))
        for key in sorted(users, key=str):
            name = users[key]
            if name == "root" or (isinstance(name, str) and name in ("0",)):
                errors.append("hadoop_users.%s: 'root'. Allowed: a non-root user name; every daemon runs as its "
                              "own unprivileged user." % key)
            elif not isinstance(name, str) or not USER_RE.match(name):
                errors.append("hadoop_users.%s: '%s' is not a valid user name. Allowed: lowercase letters, digits, "
                              "'_' and '-', starting with a letter or '_'." % (key, name))
        values = [v for k, v in users.items() if k in ("hdfs", "yarn", "mapred", "spark")]
        dups = sorted({v for v in values if isinstance(v, str) and values.count(v) > 1})
        if dups:
            errors.append("hadoop_users: %s serve more than one function. Allowed: a distinct user for hdfs, "
                          "yarn, mapred and spark, so each daemon runs as its own user." % ", ".join(dups))
    group = settings.get("hadoop_group")
    if isinstance(group, str) and (group == "root" or not USER_RE.match(group)):
        errors.append("hadoop_group: '%s'. Allowed: a valid, non-root group name." % group)


def _ports(settings, errors, defaults=None):
    seen = {}
    for var in PORT_VARS:
        value = _setting(settings, defaults, var)
        if value is None:
            continue
        port = _as_int(value)
        if port is None:
            continue
        if not 1 <= port <= 65535:
            errors.append("%s: %s is not a port. Allowed: 1 to 65535." % (var, port))
        elif port in seen and not {var, seen[port]} == {"yarn_spark_shuffle_port", "spark_shuffle_service_port"}:
            errors.append("%s: port %s is also %s. Allowed: a port no other daemon uses." % (var, port, seen[port]))
        else:
            seen[port] = var


def _versions(settings, errors):
    for var in ("hadoop_version", "spark_version"):
        value = settings.get(var)
        if value is not None and not (isinstance(value, str) and VERSION_RE.match(value)):
            errors.append("%s: '%s'. Allowed: a release number such as 3.3.6 (a string)." % (var, value))
    cluster_id = settings.get("hdfs_cluster_id")
    if isinstance(cluster_id, str) and cluster_id and not CLUSTER_ID_RE.match(cluster_id):
        errors.append("hdfs_cluster_id: '%s'. Allowed: letters, digits, '.', '_' and '-', or empty." % cluster_id)


def _overrides(settings, known, extra_patterns, errors):
    for var, file_key in sorted(OVERRIDE_FILES.items()):
        overrides = settings.get(var)
        if not isinstance(overrides, dict):
            continue
        for name, owner in sorted(MANAGED.get(var, {}).items()):
            if name in overrides:
                errors.append("%s: sets '%s', which the roles write from %s. Allowed: set %s instead."
                              % (var, name, owner, owner))
        errors.extend(unknown_property_errors(var, overrides, known.get(file_key, []), extra_patterns))
    # Values of the properties the planner computes: the same type and sign checks the planner applies.
    for var in ("yarn_site_overrides", "mapred_site_overrides", "spark_defaults_overrides"):
        overrides = settings.get(var)
        if isinstance(overrides, dict):
            errors.extend("%s: %s" % (var, problem) for problem in override_errors(overrides))
    spark = settings.get("spark_defaults_overrides")
    if isinstance(spark, dict):
        for name in sorted(spark, key=str):
            if not (isinstance(name, str) and name.startswith("spark.")):
                errors.append("spark_defaults_overrides: '%s' is not a Spark property. Allowed: names that start "
                              "with 'spark.'." % name)
    yarn = settings.get("yarn_site_overrides")
    if isinstance(yarn, dict):
        low = _as_int(yarn.get("yarn.scheduler.minimum-allocation-mb"))
        high = _as_int(yarn.get("yarn.scheduler.maximum-allocation-mb"))
        if low is not None and high is not None and low > high:
            errors.append("yarn_site_overrides: yarn.scheduler.minimum-allocation-mb (%s) is above "
                          "yarn.scheduler.maximum-allocation-mb (%s). Allowed: minimum <= maximum." % (low, high))


def _sizes(settings, context, errors):
    datanodes = context.get("datanodes", 0)
    replication = _as_int(settings.get("hdfs_replication"))
    if replication is not None:
        if replication < 1:
            errors.append("hdfs_replication: %s. Allowed: 1 to the number of DataNodes (%s)." % (replication, datanodes))
        elif datanodes and replication > datanodes:
            errors.append("hdfs_replication: %s is above the number of DataNodes (%s in the group 'datanodes'); "
                          "every block would stay under-replicated. Allowed: 1 to %s." % (replication, datanodes, datanodes))
    block = _as_int(settings.get("hdfs_block_size"))
    if block is not None and (block < MIN_BLOCK_SIZE or block % CHECKSUM_CHUNK):
        errors.append("hdfs_block_size: %s. Allowed: at least %s bytes (1 MiB) and a multiple of %s."
                      % (block, MIN_BLOCK_SIZE, CHECKSUM_CHUNK))
    serial = settings.get("rolling_restart_batch")
    if serial is not None:
        as_int = _as_int(serial)
        if not ((as_int is not None and as_int >= 1) or (isinstance(serial, str) and SERIAL_RE.match(serial))):
            errors.append("rolling_restart_batch: '%s'. Allowed: a number of hosts (1 or more) or a percentage "
                          "from 1%% to 100%%." % serial)
    timeout_vars = ("hdfs_wait_timeout", "yarn_wait_timeout")
    for var in timeout_vars:
        value = _as_int(settings.get(var))
        if value is not None and value < 1:
            errors.append("%s: %s. Allowed: 1 second or more." % (var, value))
    heaps = settings.get("hadoop_heap_mb")
    if isinstance(heaps, dict):
        unknown = sorted(set(heaps) - set(HEAP_KEYS), key=str)
        if unknown:
            errors.append("hadoop_heap_mb: unknown daemon(s) %s. Allowed keys: %s."
                          % (", ".join(map(str, unknown)), ", ".join(HEAP_KEYS)))
        for key in HEAP_KEYS:
            if key in heaps and (_as_int(heaps[key]) is None or _as_int(heaps[key]) < 32):
                errors.append("hadoop_heap_mb.%s: '%s'. Allowed: a whole number of MiB, 32 or more." % (key, heaps[key]))


def _groups(context, errors):
    counts = context.get("groups", {})
    for group in ("namenode", "resourcemanager", "datanodes", "nodemanagers"):
        if counts.get(group, 0) == 0:
            errors.append("inventory group '%s': no host. Allowed: at least one host in it (see "
                          "inventories/examples)." % group)
    # More than one NameNode or ResourceManager is HA: the HA plan's findings (plugins/module_utils/ha.py).
    errors.extend(context.get("ha_errors", []))


def _setting(settings, defaults, name, fallback=None):
    """A variable as the host sees it: the inventory's value, else the roles' default, else fallback."""
    return settings.get(name, (defaults or {}).get(name, fallback))


def _storage(settings, defaults, errors):
    """The storage tiers (types, RAM disk, shared tier: docs/storage.md) and the storage policies, without the
    hosts' facts (the RAM disk against each node's memory is the planner's check)."""
    value = functools.partial(_setting, settings, defaults)
    data_dirs = value("hadoop_data_dirs", None)
    if isinstance(data_dirs, list) and data_dirs and all(isinstance(d, str) and d.startswith("/") for d in data_dirs):
        mount = value("hdfs_archive_mount", {})
        try:
            if mount and (not isinstance(mount, dict) or not all(mount.get(k) for k in ("src", "path", "fstype"))):
                raise storage.StorageError("hdfs_archive_mount: expected {} (no shared tier) or a mapping with src, path, "
                                           "fstype and optional opts, got %r" % (mount,))
            storage.storage_dirs("host", data_dirs, value("hdfs_storage_types", {}), [],
                                 value("hdfs_ram_disk_dir", ""),
                                 storage.ram_disk_mb(value("hdfs_ram_disk_size", 0)), (mount or {}).get("path", ""))
        except storage.StorageError as exc:
            errors.append(str(exc))
    try:
        storage.policy_paths(value("hdfs_storage_policies", {}))
    except storage.StorageError as exc:
        errors.append(str(exc))


def _push_shuffle(settings, defaults, errors):
    """Push-based shuffle merges on the NodeManagers' Spark shuffle service: both ends of it must be on."""
    value = functools.partial(_setting, settings, defaults)
    if value("spark_push_shuffle_enabled") is True or str(value("spark_push_shuffle_enabled")).lower() == "true":
        off = [name for name in ("yarn_spark_shuffle_enabled", "spark_shuffle_service_enabled")
               if str(value(name)).lower() in ("false", "no", "0")]
        if off:
            errors.append("spark_push_shuffle_enabled: true needs the NodeManagers' Spark shuffle service, and %s %s "
                          "false. Allowed: both true, or spark_push_shuffle_enabled false" % (
                              " and ".join(off), "is" if len(off) == 1 else "are"))


def _spark_security(settings, defaults, errors):
    """Spark's authentication and encryption (docs/security.md): what each switch needs, and what Spark would turn
    off under it without a word."""
    value = functools.partial(_setting, settings, defaults)

    def on(name):
        return str(value(name, False)).strip().lower() in ("true", "yes", "on", "1")

    for name in ("spark_network_encryption", "spark_io_encryption"):
        if on(name) and not on("spark_authenticate"):
            errors.append("%s: true needs spark_authenticate: true (Spark encrypts with the application's secret). "
                          "Allowed: spark_authenticate true, or %s false" % (name, name))
    if on("spark_io_encryption") and on("spark_push_shuffle_enabled"):
        errors.append("spark_io_encryption: true turns push-based shuffle off in every application (Spark pushes no "
                      "encrypted blocks), and spark_push_shuffle_enabled is true. Allowed: one of the two")
    if on("spark_authenticate") and on("spark_standalone_enabled"):
        errors.append("spark_authenticate: true needs a secret YARN makes per application; the standalone cluster "
                      "(spark_standalone_enabled) would need one shared secret, which this collection does not "
                      "manage. Allowed: spark_authenticate false, or spark_standalone_enabled false")


def _kms(settings, defaults, context, errors):
    """HDFS transparent encryption (module_utils/kms.py): the KMS's host, password and user, and the zones."""
    errors.extend(kms.settings_problems(functools.partial(_setting, settings, defaults), context.get("groups", {})))


def _secure_mode(settings, defaults, context, errors):
    """Kerberos secure mode (module_utils/kerberos.py): the realm, TLS under it, the RPC protection, the KDC."""
    errors.extend(kerberos.secure_mode_problems(functools.partial(_setting, settings, defaults), context.get("groups", {})))


def _remote_shuffle(settings, defaults, context, errors):
    """The remote shuffle services (module_utils/rss.py): the service Spark uses, its hosts, sizes and versions."""
    errors.extend(rss.settings_problems(functools.partial(_setting, settings, defaults), context.get("groups", {})))


def settings_errors(settings, context, known=None, extra_patterns=(), defaults=None):
    """Every finding for one host's settings (a dict of variable -> value) in the cluster `context`.

    defaults: the roles' defaults; only the ports are read from them (to find clashes with a default port).

    context: groups (group -> number of hosts), datanodes (number), ha_errors (the HA plan's findings),
    missing_files (controller paths that do not exist, as {variable: path}).
    """
    errors = []
    _groups(context, errors)
    _paths(settings, errors)
    _users(settings, errors)
    _ports(settings, errors, defaults)
    _versions(settings, errors)
    _overrides(settings, known or {}, extra_patterns or (), errors)
    _sizes(settings, context, errors)
    _storage(settings, defaults, errors)
    _push_shuffle(settings, defaults, errors)
    _spark_security(settings, defaults, errors)
    _kms(settings, defaults, context, errors)
    _secure_mode(settings, defaults, context, errors)
    _remote_shuffle(settings, defaults, context, errors)
    for var, path in sorted(context.get("missing_files", {}).items()):
        errors.append("%s: '%s' does not exist on the controller. Allowed: the path of a release tarball with "
                      "its .sha512 next to it." % (var, path))
    return errors


def memory_errors(host, memory_bytes, heaps, daemons, nodemanager_mb=None, spark_daemon_mb=None,
                  nodemanager_source="yarn_site_overrides"):
    """Findings when the heaps of the daemons on a host (or the NodeManager's share) exceed its memory.

    heaps: hadoop_heap_mb; daemons: the keys of hadoop_heap_mb that run on this host; nodemanager_mb: None when
    the NodeManager's share is not to be refused (a comparison profile's plan, which the planner warns about);
    nodemanager_source: the variable it comes from, for the message.
    """
    errors = []
    if not memory_bytes:
        return errors
    total_mb = memory_bytes // 1048576
    used = 0
    for key in daemons:
        value = _as_int((heaps or {}).get(key))
        if value is None:
            continue
        used += value
        if value >= total_mb:
            errors.append("hadoop_heap_mb.%s: %s MiB on %s, which has %s MiB of memory. Allowed: less than the "
                          "node's memory (leave room for the OS and the containers)." % (key, value, host, total_mb))
    if used and used < total_mb and spark_daemon_mb is not None:
        used += spark_daemon_mb
    if used >= total_mb and not errors:
        errors.append("hadoop_heap_mb: the heaps of %s on %s add up to %s MiB; the node has %s MiB. Allowed: a "
                      "sum below the node's memory." % (", ".join(daemons), host, used, total_mb))
    nm = _as_int(nodemanager_mb)
    if nm is not None and nm >= total_mb:
        errors.append("%s: yarn.nodemanager.resource.memory-mb is %s MiB on %s, which has %s MiB of memory. "
                      "Allowed: less than the node's memory." % (nodemanager_source, nm, host, total_mb))
    return errors


SECRET_RE = re.compile(r"(password|passwd|secret|credential|token|keystore|truststore|(^|[._-])key$|access[._-]?key)",
                       re.I)


def secret_names(settings):
    """Names in a dict (or its nested dicts) that look like they hold a secret (passwords, keys, tokens)."""
    found = []
    for name, value in (settings or {}).items():
        if isinstance(name, str) and SECRET_RE.search(name):
            found.append(name)
        if isinstance(value, dict):
            found.extend(secret_names(value))
    return sorted(found)


def _kind(relative):
    base = relative.rsplit("/", 1)[-1]
    if relative == "current/VERSION":
        return "VERSION"
    if base.startswith("fsimage"):
        return "fsimage"
    if base.startswith("edits") or base == "seen_txid":
        return "edits"
    return "other"


def format_guard(name_dirs, paths):
    """Whether `hdfs namenode -format` may run, from the paths found under the name directories.

    Returns a dict: action (format, skip or refuse), reason and todo (sentences for the user), and
    found (directory -> kinds of content: VERSION, fsimage, edits, other).
    Anything counts, a lost+found too: `hdfs namenode -format -nonInteractive` refuses such a directory
    itself, so a mount point must be used through a subdirectory.
    """
    dirs = [d.rstrip("/") or "/" for d in name_dirs]
    found = {d: set() for d in dirs}
    paths = [p.rstrip("/") for p in paths]
    parents = {p.rsplit("/", 1)[0] for p in paths}
    for path in paths:
        if path in parents:
            continue  # a directory with entries: its entries say what it holds
        for d in dirs:
            if path.startswith(d + "/"):
                found[d].add(_kind(path[len(d) + 1:]))
                break
    nonempty = {d: kinds for d, kinds in found.items() if kinds}
    summary = {d: sorted(kinds) for d, kinds in found.items()}
    if not nonempty:
        return {"action": "format", "found": summary,
                "reason": "every name directory is empty (%s): a fresh install" % ", ".join(dirs), "todo": ""}
    without_version = sorted(d for d, kinds in nonempty.items() if "VERSION" not in kinds)
    if not without_version:
        return {"action": "skip", "found": summary,
                "reason": "NameNode format refused: %s already hold(s) a formatted namespace (current/VERSION)"
                          % ", ".join(sorted(nonempty)),
                "todo": "Nothing to do on a rerun: existing metadata is never overwritten. Formatting erases HDFS; "
                        "if that is really wanted, back the directories up and empty every one of hdfs_name_dirs by "
                        "hand."}
    details = "; ".join("%s holds %s" % (d, ", ".join(sorted(nonempty[d]))) for d in without_version)
    return {"action": "refuse", "found": summary,
            "reason": "NameNode format refused: %s, without current/VERSION. This is not a fresh install, and a "
                      "NameNode started on such a directory would clear it" % details,
            "todo": "If these are NameNode metadata, restore current/VERSION (and the rest of current/) from a "
                    "backup or from another name directory of the same NameNode; if the files do not belong to "
                    "HDFS, move them out of the directory; if the directory is a mount point holding only "
                    "lost+found, use a subdirectory of it in hdfs_name_dirs. Then rerun. Nothing was formatted, started or deleted."}
