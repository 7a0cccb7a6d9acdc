# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""write: new files, several blocks each, their MD5s kept (the lab scenario's converge writes them itself)."""

from survival_lib import PLAYS


def test_write(lab):
    lab.play("write", PLAYS / "write.yml", {"survival_rewrite": True})
