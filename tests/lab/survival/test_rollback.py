# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""rollback: while the upgrade is open the first file is deleted and a marker written (plays/mark.yml);
hdfs_upgrade.yml rolls back to SURVIVAL_UPGRADE_FROM: the first file must be back with its MD5, the marker gone."""

from survival_lib import PLAYBOOKS, PLAYS


def test_rollback(lab, releases):
    old = releases[0]
    lab.play("mark", PLAYS / "mark.yml")
    lab.play("rollback", PLAYBOOKS / "hdfs_upgrade.yml",
             {"hdfs_upgrade_action": "rollback", "hdfs_upgrade_discard_new_data": True, "hadoop_version": old})
    found = lab.check("rollback-to-" + old)
    assert found.intact, found
    assert not found.marker, "the marker written during the upgrade is still there after the rollback"
