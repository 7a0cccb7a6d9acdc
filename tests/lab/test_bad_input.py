# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Bad input is caught before any host changes: `ansible-playbook playbooks/site.yml` runs that each hold one
mistake, or several mistakes that one stage reports together (see _batches).

Runs against a converged (or fresh) lab whose inventory is given:

    BIGDATA_LAB_INVENTORY=/tmp/ds-inv pytest -q -p no:cacheprovider tests/lab/test_bad_input.py

Each case asserts that the run failed, that the message names the variable, that the play recap shows
changed=0 on every host and that no task of a deploying role ran.

The stages before any change report differently: `validate_argument_spec` lists every mistake of every role in
one run, and so does the settings check (roles/validate: module_utils/validate.py and ha.py); the format guard,
the planner and the heap check stop at their first. So the cases of the first two stages share runs (one
variable never in two cases of a run), the others run alone: 20-odd runs instead of 60, each case still
asserted on its own message. A case put in the wrong stage fails: its message is missing from its run.
"""

from __future__ import annotations

import json
import os
import pathlib
import re
import shutil
import subprocess
import tempfile

import pytest
import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
INVENTORY = os.environ.get("BIGDATA_LAB_INVENTORY", "")
# site.yml by default; rolling_restart.yml imports the same validation.
PLAYBOOK = os.environ.get("BIGDATA_BAD_INPUT_PLAYBOOK", "site.yml")

pytestmark = pytest.mark.skipif(not INVENTORY, reason="set BIGDATA_LAB_INVENTORY to a lab inventory (file or directory)")

USERS = {"hdfs": "hdfs", "yarn": "yarn", "mapred": "mapred", "spark": "spark"}
# Supplied TLS certificates for every host of the lab that all name another host (_wrong_name_certificates).
TLS_WRONG = pathlib.Path(tempfile.gettempdir()) / "bigdata-spark-tls-wrong-names"

# id -> (extra vars, text the message must hold). The text names the variable (or the group).
CASES = {
    # wrong types and unknown choices: the roles' argument specs
    "replication-not-int": ({"hdfs_replication": "two"}, "'hdfs_replication' is of type"),
    "block-size-not-int": ({"hdfs_block_size": "big"}, "'hdfs_block_size' is of type"),
    "format-flag-not-bool": ({"hdfs_namenode_format_if_empty": "maybe"}, "'hdfs_namenode_format_if_empty' is of type"),
    "hadoop-source-choice": ({"hadoop_install_source": "ftp"}, "hadoop_install_source must be one of"),
    "spark-source-choice": ({"spark_install_source": "ftp"}, "spark_install_source must be one of"),
    "java-version-choice": ({"java_version": 8}, "java_version must be one of"),
    "log-level-choice": ({"hadoop_log_level": "LOUD"}, "hadoop_log_level must be one of"),
    "users-not-dict": ({"hadoop_users": "hdfs"}, "'hadoop_users' is of type"),
    "overrides-not-dict": ({"yarn_site_overrides": ["a", "b"]}, "'yarn_site_overrides' is of type"),
    "recovery-not-bool": ({"yarn_nodemanager_recovery_enabled": "perhaps"}, "'yarn_nodemanager_recovery_enabled' is of type"),
    "port-not-int": ({"spark_history_port": "http"}, "'spark_history_port' is of type"),
    "history-flag-not-bool": ({"spark_history_enabled": "sometimes"}, "'spark_history_enabled' is of type"),
    # mistakes a type cannot catch: the validate role
    "replication-above-datanodes": ({"hdfs_replication": 5}, "hdfs_replication: 5 is above the number of DataNodes"),
    "replication-zero": ({"hdfs_replication": 0}, "hdfs_replication: 0. Allowed"),
    "data-dir-relative": ({"hadoop_data_dirs": ["data/disk1"]}, "hadoop_data_dirs: 'data/disk1' is not an absolute path"),
    "name-dir-relative": ({"hdfs_name_dirs": ["name"]}, "hdfs_name_dirs: 'name' is not an absolute path"),
    "data-dir-twice": ({"hadoop_data_dirs": ["/data/disk1", "/data/disk1/"]}, "hadoop_data_dirs: /data/disk1 listed more than once"),
    "name-dir-inside-dn": ({"hdfs_name_dirs": ["/data/disk1/hdfs/dn/name"]}, "hdfs_name_dirs: '/data/disk1/hdfs/dn/name' overlaps"),
    "conf-dir-relative": ({"hadoop_conf_dir": "etc/hadoop"}, "hadoop_conf_dir: 'etc/hadoop' is not an absolute path"),
    "root-service-user": ({"hadoop_users": dict(USERS, hdfs="root")}, "hadoop_users.hdfs: 'root'"),
    "shared-service-user": ({"hadoop_users": dict(USERS, mapred="yarn")}, "hadoop_users: yarn serve more than one function"),
    "users-missing-key": ({"hadoop_users": {"hdfs": "hdfs", "yarn": "yarn", "mapred": "mapred"}}, "hadoop_users: the keys spark are missing"),
    "bad-user-name": ({"hadoop_users": dict(USERS, spark="Spark User")}, "hadoop_users.spark: 'Spark User' is not a valid user name"),
    "root-group": ({"hadoop_group": "root"}, "hadoop_group: 'root'"),
    "port-out-of-range": ({"hdfs_namenode_http_port": 70000}, "hdfs_namenode_http_port: 70000 is not a port"),
    "port-collision": ({"spark_history_port": 8088}, "spark_history_port: port 8088 is also yarn_resourcemanager_webapp_port"),
    "unknown-hdfs-property": ({"hdfs_site_overrides": {"dfs.replicaton": 2}},
                              "hdfs_site_overrides: unknown property 'dfs.replicaton' (did you mean 'dfs.replication'?)"),
    "unknown-yarn-property": ({"yarn_site_overrides": {"yarn.nodemanager.resource.memory_mb": 2048}},
                              "yarn_site_overrides: unknown property 'yarn.nodemanager.resource.memory_mb'"),
    "unknown-mapred-property": ({"mapred_site_overrides": {"mapreduce.map.memory": 512}}, "mapred_site_overrides: unknown property 'mapreduce.map.memory'"),
    "unknown-core-property": ({"hadoop_core_site_overrides": {"io.file.buffersize": 65536}},
                              "hadoop_core_site_overrides: unknown property 'io.file.buffersize'"),
    "yarn-property-in-hdfs-file": ({"hdfs_site_overrides": {"yarn.nodemanager.vmem-check-enabled": False}},
                                   "hdfs_site_overrides: unknown property 'yarn.nodemanager.vmem-check-enabled'"),
    "managed-property-override": ({"hdfs_site_overrides": {"dfs.namenode.name.dir": "file:///tmp/nn"}}, "hdfs_site_overrides: sets 'dfs.namenode.name.dir'"),
    "spark-key-without-prefix": ({"spark_defaults_overrides": {"executor.memory": "1g"}},
                                 "spark_defaults_overrides: 'executor.memory' is not a Spark property"),
    "min-above-max-allocation": ({"yarn_site_overrides": {"yarn.scheduler.minimum-allocation-mb": 4096, "yarn.scheduler.maximum-allocation-mb": 1024}},
                                 "yarn_site_overrides: yarn.scheduler.minimum-allocation-mb (4096) is above"),
    "hadoop-version-format": ({"hadoop_version": "3.3"}, "hadoop_version: '3.3'"),
    "block-size-too-small": ({"hdfs_block_size": 4096}, "hdfs_block_size: 4096. Allowed"),
    "cluster-id-characters": ({"hdfs_cluster_id": "my cluster"}, "hdfs_cluster_id: 'my cluster'"),
    "controller-tarball-missing": ({"hadoop_controller_tarball": "/nonexistent/hadoop-3.3.6.tar.gz"},
                                   "hadoop_controller_tarball: '/nonexistent/hadoop-3.3.6.tar.gz' does not exist"),
    "unknown-heap-key": ({"hadoop_heap_mb": {"namenod": 512}}, "hadoop_heap_mb: unknown daemon(s) namenod"),
    "wait-timeout-zero": ({"hdfs_wait_timeout": 0}, "hdfs_wait_timeout: 0. Allowed"),
    # values the planner knows, by type and range, in the overrides of the files
    "executor-memory-not-a-size": ({"spark_defaults_overrides": {"spark.executor.memory": "lots"}},
                                   "spark_defaults_overrides: spark.executor.memory: 'lots' is not valid"),
    "negative-vcores-override": ({"yarn_site_overrides": {"yarn.nodemanager.resource.cpu-vcores": -4}},
                                 "yarn_site_overrides: yarn.nodemanager.resource.cpu-vcores: -4 is not valid"),
    # the planner's own inputs: nonsense is refused with the planner's error, naming the field
    "plan-constant-not-whole": ({"bigdata_plan_constants": {"executor_cores": 2.5}},
                                "constants.executor_cores: expected a whole number from 1 to 8192, got 2.5"),
    "plan-override-negative-partitions": ({"bigdata_plan_overrides": {"spark.sql.shuffle.partitions": -5}},
                                          "overrides.spark.sql.shuffle.partitions: -5 is not valid"),
    "plan-override-not-boolean": ({"bigdata_plan_overrides": {"spark.dynamicAllocation.enabled": "maybe"}},
                                  "overrides.spark.dynamicAllocation.enabled: 'maybe' is not valid. Allowed: true or false"),
    "plan-shuffle-bytes-absurd": ({"bigdata_plan_shuffle_data_bytes": 10 ** 30},
                                  "shuffle_data_bytes: 1000000000000000000000000000000 bytes would need more than 2147483647"),
    "hardware-cores-absurd": ({"bigdata_hardware": {"cpu": {"logical": 100000}, "memory": {"total_bytes": 5368709120}}},
                              "cores: must be from 1 to 8192, got 100000"),
    "hardware-memory-absurd": ({"bigdata_hardware": {"cpu": {"logical": 2}, "memory": {"total_bytes": 2 ** 50}}},
                               "memory_mb: must be from 1024 to 67108864, got 1073741824"),
    "hardware-disks-a-string": ({"bigdata_hardware": {"cpu": {"logical": 2}, "memory": {"total_bytes": 5368709120}, "disks": "sda,sdb"}},
                                "facts.disks: expected a list of data disks"),
    # the storage tiers and policies (docs/storage.md)
    "storage-type-unknown": ({"hdfs_storage_types": {"/data/disk1": "FLASH"}},
                             "hdfs_storage_types[/data/disk1]: unknown storage type 'FLASH'"),
    "storage-policy-unknown": ({"hdfs_storage_policies": {"/bench": "FAST"}}, "hdfs_storage_policies[/bench]: unknown policy 'FAST'"),
    "storage-policy-outside-hdfs": ({"hdfs_storage_policies": {"file:///tmp/bench": "HOT"}},
                                    "hdfs_storage_policies: 'file:///tmp/bench' is outside HDFS"),
    "storage-two-tiers-one-dir": ({"hdfs_ram_disk_size": "64m", "hdfs_ram_disk_dir": "/data/disk1/ram"},
                                  "hdfs_ram_disk_dir: /data/disk1/ram and hadoop_data_dirs /data/disk1 are one directory tree"),
    "push-shuffle-without-service": ({"spark_push_shuffle_enabled": True, "yarn_spark_shuffle_enabled": False},
                                     "spark_push_shuffle_enabled: true needs the NodeManagers' Spark shuffle service"),
    # Spark's authentication and encryption (docs/security.md)
    "spark-encryption-without-auth": ({"spark_network_encryption": True, "spark_authenticate": False},
                                      "spark_network_encryption: true needs spark_authenticate: true"),
    "spark-io-encryption-with-push": ({"spark_io_encryption": True, "spark_push_shuffle_enabled": True},
                                      "spark_io_encryption: true turns push-based shuffle off"),
    # HDFS transparent encryption (docs/security.md)
    "kms-password-short": ({"hadoop_kms_enabled": True, "hadoop_kms_keystore_password": "abc"},
                           "hadoop_kms_keystore_password: a password of 6 characters or more is required"),
    "zones-without-kms": ({"hadoop_kms_enabled": False, "hdfs_encryption_zones": [{"path": "/secure", "key": "lab-key"}]},
                          "hdfs_encryption_zones: zones need the key provider, and hadoop_kms_enabled is false"),
    "zone-key-name": ({"hdfs_encryption_zones": [{"path": "/secure", "key": "lab key"}]},
                      "hdfs_encryption_zones[0].key: a KMS key name is required"),
    # Kerberos secure mode (docs/security.md)
    "kerberos-realm-lowercase": ({"hadoop_kerberos_enabled": True, "hadoop_tls_enabled": True, "hadoop_kerberos_realm": "bigdata.lab"},
                                 "hadoop_kerberos_realm: the realm must be uppercase"),
    "kerberos-realm-empty": ({"hadoop_kerberos_enabled": True, "hadoop_tls_enabled": True, "hadoop_kerberos_realm": ""},
                             "hadoop_kerberos_realm: a realm name is required"),
    # every keytab a host needs, looked for on the controller before the first play installs anything
    "kerberos-keytab-missing": ({"hadoop_kerberos_enabled": True, "hadoop_tls_enabled": True,
                                 "kerberos_keytab_source": "supplied", "kerberos_supplied_keytab_dir": "/nonexistent/bigdata-keytabs"},
                                "kerberos_supplied_keytab_dir: the supplied keytab /nonexistent/bigdata-keytabs/"),
    # the servers' quorum logins ask for zookeeper/<address in zoo.cfg>: an address that is not the principal's host
    "zookeeper-address-not-its-principal": ({"hadoop_kerberos_enabled": True, "hadoop_tls_enabled": True,
                                             "zookeeper_address": "zk-elsewhere.invalid"},
                                            "zookeeper_quorum_sasl is true: the other servers reach"),
    "kerberos-without-tls": ({"hadoop_kerberos_enabled": True, "hadoop_tls_enabled": False},
                             "hadoop_kerberos_enabled: true needs hadoop_tls_enabled: true"),
    "rpc-protection-unknown": ({"hadoop_kerberos_enabled": True, "hadoop_tls_enabled": True, "hadoop_rpc_protection": "secret"},
                               "hadoop_rpc_protection: one of authentication, integrity, privacy is required"),
    "token-renew-interval-too-short": ({"hadoop_kerberos_enabled": True, "hadoop_tls_enabled": True,
                                        "hadoop_delegation_token_renew_interval": 30},
                                       "hadoop_delegation_token_renew_interval: whole seconds from 60 to 604800"),
    # the remote shuffle services (docs/shuffle.md)
    "rss-without-coordinators": ({"spark_remote_shuffle": "uniffle"},
                                 "spark_remote_shuffle: uniffle needs its coordinators: hosts in the inventory group 'uniffle_coordinators'"),
    "rss-storage-type-unknown": ({"uniffle_storage_type": "DISK"}, "uniffle_storage_type must be one of"),
    "rss-client-version-mismatch": ({"spark_uniffle_client_version": "0.8.0"},
                                    "spark_uniffle_client_version: '0.8.0' does not match uniffle_version '0.9.2'"),
    "rss-heap-below-buffers": ({"uniffle_server_buffer_capacity": "4g"}, "uniffle_server_heap_mb: 1024 MiB cannot hold the buffers"),
    # read-only on the DataNodes, then the planner: a shared mount that cannot work, a RAM disk too big for the node
    "archive-mount-missing-source": ({"hdfs_archive_mount": {"src": "/srv/no-such-share", "path": "/mnt/no-archive", "fstype": "none",
                                                             "opts": "bind"}},
                                     "hdfs_archive_mount: /srv/no-such-share (none) cannot be mounted on /mnt/no-archive"),
    "archive-mount-no-client": ({"hdfs_archive_mount": {"src": "mgs@tcp:/lustre", "path": "/mnt/lustre", "fstype": "lustre"}},
                                "no mount helper mount.lustre and the kernel does not know the file system lustre"),
    "ram-disk-above-memory": ({"hdfs_ram_disk_size": "64g"}, "hdfs_ram_disk_size: 65536 MB on"),
    # read-only on every host: the data network's interface (docs/network.md)
    "data-interface-missing": ({"hadoop_data_interface": "eth9"}, "hadoop_data_interface: 'eth9' is not an interface of this host"),
    # read-only with TLS (docs/security.md): the keystore password, and supplied certificates that name another host
    "tls-keystore-password-missing": ({"hadoop_tls_enabled": True, "hadoop_tls_keystore_password": ""},
                                      "hadoop_tls_keystore_password: a password is required when hadoop_tls_enabled"),
    "tls-certificate-names-another-host": ({"hadoop_tls_enabled": True, "hadoop_tls_keystore_password": "bigdata-bad-input",
                                            "tls_certificate_source": "supplied", "tls_supplied_dir": str(TLS_WRONG),
                                            "tls_supplied_ca_file": str(TLS_WRONG / "ca.crt")},
                                           "names ['not-this-host.example'] but not"),
    # the format guard's verdict on the name directories, before hdfs-site.xml names them
    "name-dir-holds-other-data": ({"hdfs_name_dirs": ["/etc"]}, "hdfs_name_dirs: NameNode format refused: /etc holds"),
    # after the hardware facts: sizes against the node's memory
    "heap-above-node-memory": ({"hadoop_heap_mb": {"namenode": 900000, "datanode": 384, "resourcemanager": 512,
                                                   "nodemanager": 384, "historyserver": 256}},
                               "hadoop_heap_mb.namenode: 900000 MiB on"),
    "nodemanager-memory-above-node": ({"yarn_site_overrides": {"yarn.nodemanager.resource.memory-mb": 900000}},
                                      "yarn.nodemanager.resource.memory-mb is 900000 MiB on"),
}

# id -> (inventory change, text): mistakes in the groups. A plain lab (one NameNode, one ResourceManager) gets a
# second master without the quorum it needs; an HA lab (groups journalnodes and zookeeper) loses or folds a quorum.
PLAIN_GROUP_CASES = {
    "two-namenodes-without-journalnodes": ("second:namenode", "inventory group 'journalnodes': no host, but the group namenode has 2 hosts"),
    "two-resourcemanagers-without-zookeeper": ("second:resourcemanager", "inventory group 'zookeeper': no host, but YARN HA"),
    "scale-out-host-in-no-group": ("orphan:hadoop", "but in no group of a daemon"),
}
# id -> (inventory change, text, extra vars): the group's hosts with settings that only they make wrong.
SERVICE_GROUP_CASES = {
    # A shuffle server whose buffers exceed its node (the planner's check, with the node's memory facts).
    "rss-buffer-above-memory": ("second:uniffle_servers",
                                "uniffle_server_buffer_capacity: the buffers of the Uniffle shuffle server on",
                                {"uniffle_server_buffer_capacity": "64g", "uniffle_server_heap_mb": 90000,
                                 "uniffle_coordinator_quorum": "nowhere:19999"}),
}
PLAIN_GROUP_CASES.update(SERVICE_GROUP_CASES)
HA_GROUP_CASES = {
    "ha-without-journalnodes": ("empty:journalnodes", "inventory group 'journalnodes': no host, but the group namenode has"),
    "ha-without-zookeeper": ("empty:zookeeper", "inventory group 'zookeeper': no host, but HDFS and YARN HA"),
    "even-zookeeper": ("drop:zookeeper", "inventory group 'zookeeper': 2 hosts. Allowed: an odd number"),
    "journalnodes-on-one-host": ("samehost:journalnodes", "inventory group 'journalnodes': its 3 members share 1 address(es)"),
    "scale-out-host-in-no-group": ("orphan:hadoop", "but in no group of a daemon"),
    # The production-shaped lab runs the KMS (lab_prod.yml): without its host there is no key provider.
    "kms-without-its-host": ("empty:kms", "hadoop_kms_enabled: true needs one host in the inventory group 'kms'",
                             {"hadoop_kms_enabled": True, "hadoop_kms_keystore_password": "bigdata-lab-kms"}),
    # The production-shaped lab runs the lab's KDC (lab_prod.yml): without its host there is no KDC to make keytabs.
    "kdc-without-its-host": ("empty:kdc", "kerberos_kdc_enabled: true needs one host in the inventory group 'kdc'",
                             {"hadoop_kerberos_enabled": True, "kerberos_kdc_enabled": True}),
}
HA_GROUP_CASES.update(SERVICE_GROUP_CASES)
# id -> (extra vars, text): HA variables, on an HA lab.
HA_CASES = {
    "ha-without-fencing": ({"hdfs_ha_fencing_methods": []}, "hdfs_ha_fencing_methods: [] with HDFS HA"),
    "nameservice-characters": ({"hdfs_nameservice": "my_ns"}, "hdfs_nameservice: 'my_ns'. Allowed: lowercase letters"),
    "namenode-not-in-nameservice": ({"hdfs_ha_namenodes": ["no-such-host"]}, "hdfs_ha_namenodes: no-such-host is not in the group namenode"),
}


# Cases refused after the settings check (format guard, planner, heaps) or by the inventory: one run each.
ALONE = {"name-dir-holds-other-data", "plan-constant-not-whole", "plan-override-negative-partitions", "plan-override-not-boolean",
         "plan-shuffle-bytes-absurd", "hardware-cores-absurd", "hardware-memory-absurd", "hardware-disks-a-string",
         "heap-above-node-memory", "nodemanager-memory-above-node", "archive-mount-missing-source", "archive-mount-no-client",
         "ram-disk-above-memory", "data-interface-missing", "tls-keystore-password-missing",
         "tls-certificate-names-another-host", "kerberos-keytab-missing", "zookeeper-address-not-its-principal"}


# Checks that read another variable than the one their case sets: a run must not change that one too.
READS = {"name-dir-inside-dn": {"hadoop_data_dirs"}, "storage-type-unknown": {"hadoop_data_dirs"},
         "storage-two-tiers-one-dir": {"hadoop_data_dirs"},
         "port-collision": {"yarn_resourcemanager_webapp_port"}}


def _stage(case):
    """'spec' (an argument spec refuses it), 'settings' (the settings check), or None (a run of its own)."""
    if case in ALONE:
        return None
    text = CASES[case][1]
    return "spec" if ("is of type" in text or "must be one of" in text) else "settings"


def _batches(cases):
    """Case id -> the tuple of cases that share its run: per stage, each case joins the first run that does not
    set any of its variables yet."""
    runs = []  # (stage, set of variables, list of cases)
    for case in sorted(cases):
        stage, keys = _stage(case), set(CASES[case][0]) | READS.get(case, set())
        run = next((r for r in runs if stage and r[0] == stage and not r[1] & keys), None)
        if run is None:
            runs.append((stage, set(keys), [case]))
        else:
            run[1].update(keys)
            run[2].append(case)
    return {case: tuple(run[2]) for run in runs for case in run[2]}


_DONE = {}


def _run_batch(batch):
    """One site.yml run with the extra variables of every case in the batch, run once and kept."""
    if batch not in _DONE:
        if "tls-certificate-names-another-host" in batch:
            _wrong_name_certificates(TLS_WRONG)
        extra = {}
        for case in batch:
            extra.update(CASES[case][0])
        _DONE[batch] = _run(INVENTORY, extra)
    return _DONE[batch]


RECAP = re.compile(r"^(\S+)\s+:\s+ok=\d+\s+changed=(\d+)", re.M)
DEPLOY_TASK = re.compile(r"^TASK \[bigdata\.spark\.(java|hadoop_common|hdfs|yarn|spark) :", re.M)


def _inventory_file(path):
    """The YAML file of an inventory: lab/lab.sh's file, inventories/lab/hosts.yml, or molecule's
    inventory/ansible_inventory.yml."""
    path = pathlib.Path(path)
    if path.is_file():
        return path
    for name in ("hosts.yml", "ansible_inventory.yml"):
        if (path / name).is_file():
            return path / name
    raise FileNotFoundError("no hosts.yml or ansible_inventory.yml in %s" % path)


def _groups(data):
    """Group name -> its mapping, wherever it sits: nested under all.children (the lab's layout) or at the top
    level beside `all` (molecule's layout)."""
    found = {}

    def walk(node):
        for name, group in (node or {}).items():
            if isinstance(group, dict):
                found.setdefault(name, group)
                walk(group.get("children"))

    walk(data)
    return found


def _is_ha(path):
    """Whether the lab inventory has the HA groups (a journal quorum)."""
    try:
        data = yaml.safe_load(_inventory_file(path).read_text()) if path else {}
    except FileNotFoundError:
        return False
    return "journalnodes" in _groups(data)


def _wrong_name_certificates(path):
    """A CA and, for every host of the lab inventory, a key and a certificate of that CA for not-this-host.example
    (TLS_WRONG/<host>/host.crt, host.key): each is a good certificate, for the wrong name."""
    # pylint: disable=import-outside-toplevel
    import datetime
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    def cert(subject, issuer, key, sign_key, ca):
        now = datetime.datetime.now(datetime.timezone.utc)
        builder = (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer).public_key(key.public_key())
                   .serial_number(x509.random_serial_number()).not_valid_before(now)
                   .not_valid_after(now + datetime.timedelta(days=30))
                   .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True))
        if not ca:
            builder = builder.add_extension(x509.SubjectAlternativeName([x509.DNSName("not-this-host.example")]),
                                            critical=False)
        return builder.sign(sign_key, hashes.SHA256())

    def pem(obj):
        if hasattr(obj, "private_bytes"):
            return obj.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                     serialization.NoEncryption())
        return obj.public_bytes(serialization.Encoding.PEM)

    path.mkdir(parents=True, exist_ok=True)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "bad-input test CA")])
    (path / "ca.crt").write_bytes(pem(cert(ca_name, ca_name, ca_key, ca_key, True)))
    data = yaml.safe_load(_inventory_file(INVENTORY).read_text())
    for host in sorted(set(h for g in _groups(data).values() for h in (g.get("hosts") or {}))):
        key = ec.generate_private_key(ec.SECP256R1())
        subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "not-this-host.example")])
        (path / host).mkdir(exist_ok=True)
        (path / host / "host.key").write_bytes(pem(key))
        (path / host / "host.crt").write_bytes(pem(cert(subject, ca_name, key, ca_key, False)))


HA_LAB = _is_ha(INVENTORY)
GROUP_CASES = HA_GROUP_CASES if HA_LAB else PLAIN_GROUP_CASES
if HA_LAB:
    CASES.update(HA_CASES)
BATCHES = _batches(CASES)


def _address(groups, host):
    """A host's ansible_host, wherever the inventory sets it."""
    for group in groups.values():
        found = ((group.get("hosts") or {}).get(host) or {}).get("ansible_host")
        if found:
            return found
    return host


def _edited_inventory(tmp_path, change):
    """A copy of the lab inventory (with its group_vars) where one group is emptied or gets a second host."""
    what, group = change.split(":")
    source = _inventory_file(INVENTORY)
    data = yaml.safe_load(source.read_text())
    groups = _groups(data)
    workers = groups["workers"]["hosts"]
    if what == "empty":
        groups[group].pop("children", None)
        groups[group]["hosts"] = {}
    elif what == "drop":
        hosts = groups[group]["hosts"]
        hosts.pop(sorted(hosts)[-1])
    elif what == "orphan":
        # A new host in the group only (a scale-out whose host was not put in workers); never contacted.
        hosts = groups[group].setdefault("hosts", {}) or {}
        hosts["bd-added-node"] = {"ansible_host": "127.0.0.1", "ansible_port": 1}
        groups[group]["hosts"] = hosts
    elif what == "samehost":
        # Every member at the first one's address, wherever the inventory lists it (validation refuses it before
        # connecting).
        members = set(groups[group]["hosts"])
        address = _address(groups, sorted(members)[0])
        for other in groups.values():
            for host in set(other.get("hosts") or {}) & members:
                other["hosts"][host] = dict(other["hosts"][host] or {}, ansible_host=address)
    else:
        # A worker that is not in the group yet (in the production shape the master is a worker too); a group the
        # inventory does not have (uniffle_servers) is made at the top level (a group of its own).
        if group not in groups:
            groups[group] = data[group] = {"hosts": {}}
        first = sorted(set(workers) - set(groups[group].get("hosts") or {}))[0]
        hosts = groups[group].setdefault("hosts", {}) or {}
        hosts[first] = workers[first]
        groups[group]["hosts"] = hosts
    inv = tmp_path / "inv"
    inv.mkdir()
    (inv / "hosts.yml").write_text(yaml.safe_dump(data))
    group_vars = source.parent / "group_vars"
    if group_vars.exists():
        (inv / "group_vars").symlink_to(group_vars.resolve())
    return inv


def _run(inventory, extra):
    env = dict(os.environ, ANSIBLE_CONFIG=str(ROOT / "ansible.cfg"), ANSIBLE_NOCOLOR="1", ANSIBLE_FORCE_COLOR="0")
    argv = [shutil.which("ansible-playbook") or "ansible-playbook", "-i", str(inventory), str(ROOT / "playbooks" / PLAYBOOK)]
    if extra:
        argv += ["-e", json.dumps(extra)]
    return subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False)


def _assert_refused(proc, expected):
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0, "the run did not fail:\n" + out[-3000:]
    flat = re.sub(r"\s+", " ", out.replace("''", "'"))
    assert expected in flat, "the message does not say %r:\n%s" % (expected, out[-4000:])
    recap = RECAP.findall(proc.stdout)
    assert recap, "no play recap:\n" + out[-3000:]
    changed = {host: int(n) for host, n in recap if int(n)}
    assert not changed, "hosts changed: %s" % changed
    ran = DEPLOY_TASK.findall(proc.stdout)
    assert not ran, "deploying roles ran: %s" % sorted(set(ran))


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_variable_is_refused(case):
    _assert_refused(_run_batch(BATCHES[case]), CASES[case][1])


@pytest.mark.parametrize("case", sorted(GROUP_CASES))
def test_bad_inventory_is_refused(case, tmp_path):
    change, expected, extra = (GROUP_CASES[case] + ({},))[:3]
    _assert_refused(_run(_edited_inventory(tmp_path, change), extra), expected)


def test_cases_are_distinct():
    """Each case is its own mistake: no two share a message."""
    texts = [v[1] for v in CASES.values()] + [v[1] for v in GROUP_CASES.values()]
    assert len(texts) == len(set(texts)) and len(texts) >= 30


def test_batches_never_set_a_variable_twice():
    """The runs that share cases: no variable set or read by two cases (one would hide the other), and fewer
    runs than cases (the point of sharing)."""
    for batch in set(BATCHES.values()):
        keys = [key for case in batch for key in set(CASES[case][0]) | READS.get(case, set())]
        assert len(keys) == len(set(keys)), batch
        assert len({_stage(case) for case in batch}) == 1, batch
    assert len(set(BATCHES.values())) < len(CASES) / 2
