# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""HDFS transparent encryption (hadoop_kms_enabled, hdfs_encryption_zones; docs/security.md) on a converged lab with a
host in the group kms: inventories/lab/group_vars/lab_prod.yml runs the Hadoop KMS on worker2 and makes /secure a zone.

    BIGDATA_LAB_INVENTORY=inventories/lab-prod pytest -q -p no:cacheprovider tests/lab/test_kms.py

The KMS answers over HTTPS with the cluster CA and holds the zone's key; the zone is listed; a file written into it
reads back whole for its owner while none of its replicas on the DataNodes' disks holds a byte of its text (the same
text in a file outside the zone is found there, so the search itself works); the HDFS superuser, whom the KMS's ACLs
refuse the files' keys, cannot read it; the keystore and the file that holds its password are the KMS's and root's
alone, and no file others can read holds the password.
"""

from __future__ import annotations

import base64
import os
import pathlib
import re
import secrets

import pytest
import yaml

import lab_run

INVENTORY = os.environ.get("BIGDATA_LAB_INVENTORY", "")
GROUPS = lab_run.inventory_groups(INVENTORY) if INVENTORY else {}
pytestmark = pytest.mark.skipif(not INVENTORY or not GROUPS.get("kms"),
                                reason="set BIGDATA_LAB_INVENTORY to a converged lab with a host in the group kms")
HADOOP = "/opt/hadoop/current/bin"
# The KMS's settings the inventory may leave to the hadoop role.
DEFAULTS = yaml.safe_load((pathlib.Path(__file__).resolve().parents[2] / "roles/hadoop/defaults/main.yml").read_text())


def _settings():
    hv = lab_run.host_vars(INVENTORY, _kms_host())
    if not hv.get("hadoop_kms_enabled") or not hv.get("hdfs_encryption_zones"):
        pytest.skip("hadoop_kms_enabled or hdfs_encryption_zones is not set in this inventory")
    return hv


def _kms_host():
    return sorted(GROUPS["kms"])[0]


def _master():
    return sorted(GROUPS["namenode"])[0]


def _as(user, command):
    """A Hadoop command line run as a user on a node (simple authentication: the OS user is the Hadoop user)."""
    return "runuser -u %s -- env HADOOP_CONF_DIR=/etc/hadoop/conf %s/%s" % (user, HADOOP, command)


def _script(host, script):
    """Run a bash script on a node as root (base64 on the command line: ansible's argument splitting leaves it whole)."""
    return lab_run.shell(INVENTORY, host, "echo %s | base64 -d > /tmp/bigdata-kms-test.sh && bash /tmp/bigdata-kms-test.sh"
                         % base64.b64encode(script.encode()).decode())


@pytest.fixture(scope="module")
def files():
    """A file of a made-up text in the zone and the same text outside it, written as the zone's owner; removed after."""
    zone = _settings()["hdfs_encryption_zones"][0]
    marker = "bigdata-kms-plaintext-%s" % secrets.token_hex(8)
    tag = secrets.token_hex(4)
    inside, outside = "%s/kms-test-%s.txt" % (zone["path"], tag), "/tmp/kms-test-%s.txt" % tag
    local = "/tmp/kms-test-%s.txt" % tag
    lab_run.shell(INVENTORY, _master(), "for i in $(seq 1 20000); do echo %s-$i; done > %s && chmod 0644 %s && %s && %s"
                  % (marker, local, local, _as(zone["owner"], "hdfs dfs -put -f %s %s" % (local, inside)),
                     _as(zone["owner"], "hdfs dfs -put -f %s %s" % (local, outside))))
    try:
        yield {"zone": zone, "marker": marker, "inside": inside, "outside": outside, "local": local}
    finally:
        remove = _as("hdfs", "hdfs dfs -rm -f -skipTrash %s %s" % (inside, outside))
        lab_run.shell(INVENTORY, _master(), "%s; rm -f %s; true" % (remove, local))


def test_the_kms_serves_https_and_holds_the_zone_key():
    hv = _settings()
    zone = hv["hdfs_encryption_zones"][0]
    kms = _kms_host()
    port = hv.get("hadoop_kms_https_port") or DEFAULTS["hadoop_kms_https_port"]
    # In secure mode the KMS asks for SPNEGO: curl answers with root's ticket (the hdfs account's); under simple
    # authentication it has the user name in the query.
    out = lab_run.shell(INVENTORY, _master(), "%s 2>&1; echo; %s 2>&1; echo; curl -s --negotiate -u : 'https://%s:%s/kms/v1/keys/names"
                        "?user.name=hdfs'; echo curl_rc=$?; curl -s --max-time 10 'http://%s:%s/kms/v1/keys/names"
                        "?user.name=hdfs'; echo plain_rc=$?"
                        % (_as("hdfs", "hadoop key list -metadata"), _as("hdfs", "hdfs crypto -listZones"), kms, port,
                           kms, port))
    # The key, with Hadoop's cipher; the zone under it; the KMS's REST answer over HTTPS, checked against the system
    # trust (the lab CA); and no answer to plain HTTP on that port.
    assert re.search(r"^%s : cipher: AES/CTR/NoPadding" % re.escape(zone["key"]), out, re.M), out[-3000:]
    assert re.search(r"^%s\s+%s\s*$" % (re.escape(zone["path"]), re.escape(zone["key"])), out, re.M), out[-3000:]
    assert re.search(r'\[[^\]]*"%s"[^\]]*\]curl_rc=0' % re.escape(zone["key"]), out), out[-2000:]
    plain = out[out.index("curl_rc="):].split("\n", 1)[1]
    assert "plain_rc=0" not in plain and zone["key"] not in plain, plain[-1000:]


def test_a_file_in_the_zone_is_ciphertext_on_every_datanode_disk(files):
    # The owner reads it back whole.
    out = lab_run.shell(INVENTORY, _master(), "%s | md5sum; md5sum < %s" % (_as(files["zone"]["owner"], "hdfs dfs -cat %s"
                                                                            % files["inside"]), files["local"]))
    sums = re.findall(r"^([0-9a-f]{32})", out, re.M)
    assert len(sums) == 2 and sums[0] == sums[1], out[-2000:]
    # The blocks of both files, and every replica of them on the DataNodes' directories (dfs.datanode.data.dir, each
    # tier's), with the number of lines of the text each holds.
    blocks = {}
    for name in ("inside", "outside"):
        fsck = lab_run.shell(INVENTORY, _master(), _as("hdfs", "hdfs fsck %s -files -blocks" % files[name]) + " 2>&1")
        blocks[name] = sorted(set(re.findall(r"\bblk_(\d+)_\d+", fsck)))
        assert blocks[name], fsck[-2000:]
    found = {"inside": [], "outside": []}
    # A data directory is "[SSD]file:///data/disk2/hdfs/dn" or a plain path.
    script = ("for d in $(%s | tr , ' '); do d=${d#\\[*\\]}; d=${d#file://}; for b in %s; do\n"
              "  find \"$d\" -name \"blk_$b\" -type f | while read -r f; do echo \"replica $f $(grep -c %s \"$f\")\"; done\n"
              "done; done\n" % (_as("hdfs", "hdfs getconf -confKey dfs.datanode.data.dir 2>/dev/null"),
                                " ".join(blocks["inside"] + blocks["outside"]), files["marker"]))
    for host in sorted(GROUPS["datanodes"]):
        for line in _script(host, script).splitlines():
            m = re.match(r"^replica (\S+/blk_(\d+)) (\d+)$", line.strip())
            if m:
                found["inside" if m.group(2) in blocks["inside"] else "outside"].append((host, m.group(1), int(m.group(3))))
    assert found["outside"] and all(n == 20000 for _h, _p, n in found["outside"]), found["outside"]
    assert found["inside"], "no replica of %s found on the DataNodes" % files["inside"]
    assert [r for r in found["inside"] if r[2] != 0] == [], found["inside"]


def test_the_hdfs_superuser_cannot_read_a_zone_file(files):
    out = lab_run.shell(INVENTORY, _master(), "out=$(%s 2>&1); rc=$?; echo \"$out\" | tail -5; echo rc=$rc"
                        % _as("hdfs", "hdfs dfs -cat %s" % files["inside"]))
    assert files["marker"] not in out and "rc=0" not in out, out[-2000:]
    assert "DECRYPT_EEK" in out, out[-2000:]


def test_the_keystore_and_its_password_are_the_kms_and_roots_alone():
    hv = _settings()
    password = hv["hadoop_kms_keystore_password"]
    keystore_dir = hv.get("hadoop_kms_keystore_dir") or DEFAULTS["hadoop_kms_keystore_dir"]
    out = lab_run.shell(INVENTORY, _kms_host(), "stat -c '%%n %%a %%U %%G' %s %s/kms.keystore /etc/default/hadoop-kms"
                        % (keystore_dir, keystore_dir))
    modes = dict((line.split()[0], line.split()[1:]) for line in out.strip().splitlines() if line.startswith("/"))
    assert modes[keystore_dir][:2] == ["700", "kms"], modes
    assert modes["%s/kms.keystore" % keystore_dir][1] == "kms", modes
    assert modes["/etc/default/hadoop-kms"] == ["600", "root", "root"], modes
    for host in sorted(set(GROUPS["kms"]) | set(GROUPS["namenode"])):
        found = lab_run.shell(INVENTORY, host, "grep -rlF -e '%s' /etc/hadoop /etc/spark /etc/security /etc/default "
                              "/opt/spark/conf /var/log/hadoop 2>/dev/null | xargs -r stat -c '%%n %%a'; true" % password)
        readable = [line for line in found.strip().splitlines() if line.startswith("/") and int(line.split()[-1][-1]) & 4]
        assert readable == [], (host, readable)
