# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""finalize: hdfs_upgrade.yml finalizes the open rolling upgrade; no file lost."""

from survival_lib import PLAYBOOKS


def test_finalize(lab):
    lab.play("finalize", PLAYBOOKS / "hdfs_upgrade.yml", {"hdfs_upgrade_action": "finalize"})
    found = lab.check("finalize")
    assert found.intact, found
