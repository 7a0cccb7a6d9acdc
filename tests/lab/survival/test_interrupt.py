# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""interrupt: site.yml with another tuning value is killed (SIGKILL) while it writes hdfs-site.xml, then run again;
no file lost. About 10 minutes, so no scenario's verify runs it: run it by hand."""

from survival_lib import SITE, tuning


def test_interrupt(lab):
    other = tuning(8, 60)
    lab.play_killed("interrupt-killed", SITE, "bigdata.spark.hdfs : Write hdfs-site.xml", other)
    lab.play("interrupt", SITE, other)
    found = lab.check("interrupt")
    assert found.intact, found
