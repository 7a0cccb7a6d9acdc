# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""rerun: site.yml again loses nothing."""

from survival_lib import SITE


def test_rerun(lab):
    lab.play("rerun", SITE)
    found = lab.check("rerun")
    assert found.intact, found
