# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""No secret in the output: a -vvv --check --diff run of site.yml that would write a secret into core-site.xml.

    BIGDATA_LAB_INVENTORY=/tmp/ds-inv pytest -q -p no:cacheprovider tests/lab/test_no_log.py

The control run puts a marker under a harmless name and finds it in the diff, so the channel that
would leak is really exercised; the secret run must not show the secret anywhere.
"""

from __future__ import annotations

import json
import os
import pathlib
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
INVENTORY = os.environ.get("BIGDATA_LAB_INVENTORY", "")

pytestmark = pytest.mark.skipif(not INVENTORY, reason="set BIGDATA_LAB_INVENTORY to a converged lab's inventory")


def _run(overrides, extra=None):
    env = dict(os.environ, ANSIBLE_CONFIG=str(ROOT / "ansible.cfg"), ANSIBLE_NOCOLOR="1")
    argv = [shutil.which("ansible-playbook") or "ansible-playbook", "-i", INVENTORY, str(ROOT / "playbooks/site.yml"),
            "--check", "--diff", "-vvv", "--tags", "hadoop_common_configure", "--limit", "namenode",
            "-e", json.dumps(dict(extra or {}, hadoop_core_site_overrides=overrides))]
    proc = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=900, check=False)
    return proc.returncode, proc.stdout + proc.stderr


def test_control_value_shows_in_the_diff():
    marker = "bigdata-visible-7f3a"
    rc, out = _run({"fs.s3a.endpoint": marker})
    assert rc == 0, out[-3000:]
    assert marker in out, "the diff does not show a harmless value: the test would prove nothing"


def test_secret_never_shows():
    secret = "S3cr3t-bigdata-9c1e"
    rc, out = _run({"fs.s3a.secret.key": secret, "fs.s3a.access.key": secret + "-id"})
    assert rc == 0, out[-3000:]
    assert secret not in out, "the secret leaked: " + out[max(0, out.find(secret) - 500):out.find(secret) + 200]
    assert "no_log: true" in out, "the core-site.xml task was not censored"


def test_keystore_password_never_shows():
    # With TLS (lab-prod): a new keystore password would change ssl-server.xml; the run writes it (check mode, --diff,
    # -vvv) and must not show it. On an inventory without TLS the run turns TLS on for the check alone.
    secret = "Ks-bigdata-5e21d0"
    rc, out = _run({}, {"hadoop_tls_enabled": True, "hadoop_tls_keystore_password": secret})
    assert rc == 0, out[-3000:]
    assert "Write ssl-server.xml" in out, "the ssl-server.xml task did not run: the test would prove nothing"
    assert secret not in out, "the keystore password leaked: " + out[max(0, out.find(secret) - 500):out.find(secret) + 200]
