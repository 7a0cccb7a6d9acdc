# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""No secret in the output: a -vvv --check --diff run of site.yml that would write a secret into core-site.xml.

    BIGDATA_LAB_INVENTORY=/tmp/ds-inv pytest -q -p no:cacheprovider tests/lab/test_no_log.py

Two runs: one puts a marker under a harmless name and finds it in the diff, so the channel that would leak is really
exercised, and in the same run changes the TLS keystore password and (with a host in the group kms) the KMS keystore
password, neither of which may show; the other writes a secret into core-site.xml, which must not show anywhere.
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

pytestmark = pytest.mark.skipif(not INVENTORY, reason="set BIGDATA_LAB_INVENTORY to a converged lab's inventory")


def _run(overrides, extra=None, tags="hadoop_common_configure", limit="namenode"):
    env = dict(os.environ, ANSIBLE_CONFIG=str(ROOT / "ansible.cfg"), ANSIBLE_NOCOLOR="1")
    argv = [shutil.which("ansible-playbook") or "ansible-playbook", "-i", INVENTORY, str(ROOT / "playbooks/site.yml"),
            "--check", "--diff", "-vvv", "--tags", tags, "--limit", limit,
            "-e", json.dumps(dict(extra or {}, hadoop_core_site_overrides=overrides))]
    proc = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=900, check=False)
    return proc.returncode, proc.stdout + proc.stderr


def _leak(out, secret):
    return out[max(0, out.find(secret) - 500):out.find(secret) + 200]


@pytest.fixture(scope="module")
def passwords_run():
    """One run that changes a harmless core-site value (the control: the diff must show it), the TLS keystore password
    (ssl-server.xml) and, where the inventory has a KMS host, the KMS keystore password (/etc/default/hadoop-kms). On
    an inventory without TLS or KMS the run turns them on for the check alone."""
    kms = "Kms-bigdata-3b9f41"
    tags, limit, extra = "hadoop_common_configure", "namenode", {"hadoop_tls_enabled": True,
                                                                 "hadoop_tls_keystore_password": "Ks-bigdata-5e21d0"}
    if lab_run.inventory_groups(INVENTORY).get("kms"):
        tags, limit = tags + ",hdfs_configure", limit + ":kms"
        extra.update(hadoop_kms_enabled=True, hadoop_kms_keystore_password=kms)
    rc, out = _run({"fs.s3a.endpoint": "bigdata-visible-7f3a"}, extra, tags, limit)
    return rc, out, extra


def test_control_value_shows_in_the_diff(passwords_run):
    rc, out, _extra = passwords_run
    assert rc == 0, out[-3000:]
    assert "bigdata-visible-7f3a" in out, "the diff does not show a harmless value: the test would prove nothing"


def test_secret_never_shows():
    secret = "S3cr3t-bigdata-9c1e"
    rc, out = _run({"fs.s3a.secret.key": secret, "fs.s3a.access.key": secret + "-id"})
    assert rc == 0, out[-3000:]
    assert secret not in out, "the secret leaked: " + _leak(out, secret)
    assert "no_log: true" in out, "the core-site.xml task was not censored"


def test_keystore_passwords_never_show(passwords_run):
    # With TLS (lab-prod): a new keystore password would change ssl-server.xml; with the KMS a new keystore password
    # would change the KMS's password file. The run writes them (check mode, --diff, -vvv) and must show neither.
    rc, out, extra = passwords_run
    assert rc == 0, out[-3000:]
    assert "Write ssl-server.xml" in out, "the ssl-server.xml task did not run: the test would prove nothing"
    assert extra["hadoop_tls_keystore_password"] not in out, "the TLS password leaked: " + _leak(out, extra["hadoop_tls_keystore_password"])
    if "hadoop_kms_keystore_password" in extra:
        assert "Write the file that gives the KMS its keystore's password" in out, "the KMS password task did not run"
        assert extra["hadoop_kms_keystore_password"] not in out, "the KMS password leaked: " + _leak(out, extra["hadoop_kms_keystore_password"])
