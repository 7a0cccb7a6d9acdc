"""playbooks/files/yarn_app_logs.py: collect_logs.yml copies one application's container logs kept on a node, and
says whether the node's YARN aggregates logs."""

import importlib.util
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[3]
_SPEC = importlib.util.spec_from_file_location("yarn_app_logs", ROOT / "playbooks" / "files" / "yarn_app_logs.py")
M = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(M)

APP = "application_1700000000000_0007"


def _site(tmp_path, aggregation, log_dirs):
    path = tmp_path / "yarn-site.xml"
    path.write_text("<?xml version=\"1.0\"?>\n<configuration>\n"
                    "  <property><name>yarn.log-aggregation-enable</name><value>%s</value></property>\n"
                    "  <property>\n    <name>yarn.nodemanager.log-dirs</name>\n    <value>%s</value>\n  </property>\n"
                    "</configuration>\n" % (aggregation, log_dirs))
    return path


def test_the_containers_of_the_application_are_copied_from_every_log_dir(tmp_path, capsys):
    disks = [tmp_path / "d1", tmp_path / "d2"]
    (disks[0] / APP / "container_1_0001_01_000001").mkdir(parents=True)
    (disks[0] / APP / "container_1_0001_01_000001" / "stderr").write_text("driver said hello\n")
    (disks[1] / APP / "container_1_0001_01_000002").mkdir(parents=True)
    (disks[1] / APP / "container_1_0001_01_000002" / "stdout").write_text("x" * 100)
    # Another application's logs stay behind.
    (disks[1] / "application_1700000000000_0008" / "container_2").mkdir(parents=True)
    (disks[1] / "application_1700000000000_0008" / "container_2" / "stderr").write_text("not this one")
    site = _site(tmp_path, "false", ",".join("file://%s" % d for d in disks))
    dest = tmp_path / "out"
    assert M.main(str(site), APP, str(dest), 10) == 0
    assert capsys.readouterr().out.splitlines() == ["aggregation: off", "container files: 2"]
    assert (dest / APP / "container_1_0001_01_000001" / "stderr").read_text() == "driver said hello\n"[-10:]
    assert (dest / APP / "container_1_0001_01_000002" / "stdout").read_text() == "x" * 10
    assert sorted(p.name for p in dest.rglob("*") if p.is_file()) == ["stderr", "stdout"]


def test_aggregation_on_and_no_logs_here(tmp_path, capsys):
    site = _site(tmp_path, "true", str(tmp_path / "none"))
    assert M.main(str(site), APP, str(tmp_path / "out"), 10) == 0
    assert capsys.readouterr().out.splitlines() == ["aggregation: on", "container files: 0"]
    assert not (tmp_path / "out").exists()


def test_a_host_without_yarn(tmp_path, capsys):
    assert M.main(str(tmp_path / "yarn-site.xml"), APP, str(tmp_path / "out"), 10) == 0
    assert capsys.readouterr().out.splitlines() == ["aggregation: none"]
