"""preflight_probe: the path and name helpers it uses before probing a host."""

import os

from ansible_collections.bigdata.spark.plugins.modules import preflight_probe as PP


def test_nearest_existing_parent(tmp_path):
    assert PP.nearest(str(tmp_path / 'a' / 'b')) == str(tmp_path)
    (tmp_path / 'a').mkdir()
    assert PP.nearest(str(tmp_path / 'a' / 'b')) == str(tmp_path / 'a')


def test_short_host_name():
    assert PP.short('Node1.Example.com') == 'node1'


def test_mount_point_of_a_path(tmp_path):
    assert os.path.ismount(PP.mount_point(str(tmp_path)))
