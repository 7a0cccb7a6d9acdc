# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""idempotence: molecule's idempotence run (site.yml again, after the lab converge wrote the files) lost nothing."""


def test_idempotence(lab):
    found = lab.check("rerun-site.yml-(molecule-idempotence)")
    assert found.intact, found
