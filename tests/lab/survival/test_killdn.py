# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""killdn: one DataNode's JVM gets SIGKILL and stays down until the NameNode declares it dead and counts blocks
short of replicas; every file is read without it; it comes back and nothing stays under-replicated
(plays/kill_datanode.yml checks each); no file lost."""

from survival_lib import PLAYS


def test_killdn(lab):
    lab.play("killdn", PLAYS / "kill_datanode.yml")
    found = lab.check("killdn")
    assert found.intact, found
