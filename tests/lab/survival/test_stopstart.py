# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""stopstart: every daemon stopped and started with playbooks/service.yml (stop in the daemon table's reverse order,
start in its order: ZooKeeper, the JournalNodes, the NameNodes, the rest); no file lost."""

from survival_lib import PLAYS


def test_stopstart(lab):
    lab.play("stopstart", PLAYS / "stop_start.yml")
    found = lab.check("stopstart")
    assert found.intact, found
