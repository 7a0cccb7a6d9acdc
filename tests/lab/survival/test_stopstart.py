# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""stopstart: every daemon stopped, dependants first, then started tier by tier (ZooKeeper and the JournalNodes,
the NameNodes, the rest); no file lost."""

from survival_lib import PLAYS


def test_stopstart(lab):
    lab.play("stopstart", PLAYS / "stop_start.yml")
    found = lab.check("stopstart")
    assert found.intact, found
