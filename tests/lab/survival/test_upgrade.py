# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""upgrade: site.yml with hadoop_version=SURVIVAL_UPGRADE_TO upgrades HDFS from the release running now and
must leave its rolling upgrade open; no file lost."""

import re

from survival_lib import SITE


def test_upgrade(lab, releases):
    new = releases[1]
    out = lab.play("upgrade", SITE, {"hadoop_version": new})
    assert re.search(r"HDFS rolling upgrade from Hadoop .* is open", out), "site.yml did not leave an open HDFS rolling upgrade"
    found = lab.check("upgrade-to-" + new)
    assert found.intact, found
