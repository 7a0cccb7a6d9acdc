# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""No secret in the output: a -vvv --check --diff run of site.yml that would write secrets.

    BIGDATA_LAB_INVENTORY=/tmp/ds-inv pytest -q -p no:cacheprovider tests/lab/test_no_log.py

One run (each -vvv run of a secure lab-prod takes minutes): it puts a marker under a harmless name of hdfs-site.xml and
finds it in the diff, so the channel that would leak is really exercised; in the same run it writes a secret into
core-site.xml, changes the TLS keystore password and (with a host in the group kms) the KMS keystore password, none of
which may show.
"""

from __future__ import annotations

import json
import os
import pathlib
import shutil
import subprocess

import pytest

import lab_run

ROOT = pathlib.Path(__file__).resolve().parents[2]
INVENTORY = os.environ.get("BIGDATA_LAB_INVENTORY", "")
MARKER = "bigdata-visible-7f3a"
SECRET = "S3cr3t-bigdata-9c1e"

pytestmark = pytest.mark.skipif(not INVENTORY, reason="set BIGDATA_LAB_INVENTORY to a converged lab's inventory")


def _leak(out, secret):
    return out[max(0, out.find(secret) - 500):out.find(secret) + 200]


@pytest.fixture(scope="module")
def secrets_run():
    """The run: core-site.xml gets an S3 secret and access key (its task must be censored), hdfs-site.xml a marker
    (dfs.client.context, a client cache's name: the control, the diff must show it) beside the lab's own overrides, the
    TLS keystore password changes (ssl-server.xml) and, where the inventory has a KMS host, the KMS keystore password
    (/etc/default/hadoop-kms). On an inventory without TLS or KMS the run turns them on for the check alone."""
    groups = lab_run.inventory_groups(INVENTORY)
    first = sorted(groups["namenode"])[0]
    hdfs_site = dict(lab_run.host_vars(INVENTORY, first).get("hdfs_site_overrides") or {}, **{"dfs.client.context": MARKER})
    extra = {"hadoop_tls_enabled": True, "hadoop_tls_keystore_password": "Ks-bigdata-5e21d0",
             "hadoop_core_site_overrides": {"fs.s3a.secret.key": SECRET, "fs.s3a.access.key": SECRET + "-id"},
             "hdfs_site_overrides": hdfs_site}
    limit = "namenode"
    if groups.get("kms"):
        limit += ":kms"
        extra.update(hadoop_kms_enabled=True, hadoop_kms_keystore_password="Kms-bigdata-3b9f41")
    env = dict(os.environ, ANSIBLE_CONFIG=str(ROOT / "ansible.cfg"), ANSIBLE_NOCOLOR="1")
    argv = [shutil.which("ansible-playbook") or "ansible-playbook", "-i", INVENTORY, str(ROOT / "playbooks/site.yml"),
            "--check", "--diff", "-vvv", "--tags", "hadoop_common_configure,hdfs_configure", "--limit", limit,
            "-e", json.dumps(extra)]
    proc = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=900, check=False)
    return proc.returncode, proc.stdout + proc.stderr, extra


def test_control_value_shows_in_the_diff(secrets_run):
    rc, out, _extra = secrets_run
    assert rc == 0, out[-3000:]
    assert MARKER in out, "the diff does not show a harmless value: the test would prove nothing"


def test_secret_never_shows(secrets_run):
    rc, out, _extra = secrets_run
    assert rc == 0, out[-3000:]
    assert SECRET not in out, "the secret leaked: " + _leak(out, SECRET)
    assert "no_log: true" in out, "the core-site.xml task was not censored"


def test_keystore_passwords_never_show(secrets_run):
    # With TLS (lab-prod): a new keystore password would change ssl-server.xml; with the KMS a new keystore password
    # would change the KMS's password file. The run writes them (check mode, --diff, -vvv) and must show neither.
    rc, out, extra = secrets_run
    assert rc == 0, out[-3000:]
    assert "Write ssl-server.xml" in out, "the ssl-server.xml task did not run: the test would prove nothing"
    assert extra["hadoop_tls_keystore_password"] not in out, "the TLS password leaked: " + _leak(out, extra["hadoop_tls_keystore_password"])
    if "hadoop_kms_keystore_password" in extra:
        assert "Write the file that gives the KMS its keystore's password" in out, "the KMS password task did not run"
        assert extra["hadoop_kms_keystore_password"] not in out, "the KMS password leaked: " + _leak(out, extra["hadoop_kms_keystore_password"])
