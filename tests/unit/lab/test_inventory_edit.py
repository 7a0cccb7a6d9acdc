# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""The bad-input test's inventory edits, on the two layouts it meets: the lab's (groups nested under
all.children.hadoop.children) and molecule's (every group at the top level, beside `all`)."""

import importlib.util
import pathlib

import pytest
import yaml

ROOT = pathlib.Path(__file__).resolve().parents[3]

LAB = {"all": {"vars": {"bigdata_lab": True}, "children": {"hadoop": {"children": {
    "namenode": {"hosts": {"m": {"ansible_host": "10.0.0.10"}}},
    "resourcemanager": {"hosts": {"m": None}},
    "workers": {"hosts": {"w1": {"ansible_host": "10.0.0.11"}, "w2": {"ansible_host": "10.0.0.12"}}},
    "datanodes": {"children": {"workers": None}}}}}}}
MOLECULE = {"all": {"hosts": {"m": {"ansible_host": "10.0.0.10"}, "w1": {"ansible_host": "10.0.0.11"}}},
            "namenode": {"hosts": {"m": {"ansible_host": "10.0.0.10"}}},
            "resourcemanager": {"hosts": {"m": {"ansible_host": "10.0.0.10"}}},
            "workers": {"hosts": {"w1": {"ansible_host": "10.0.0.11"}}}}


def _load(monkeypatch, tmp_path, data, name):
    src = tmp_path / "src"
    src.mkdir()
    (src / name).write_text(yaml.safe_dump(data))
    (src / "group_vars").mkdir()
    monkeypatch.setenv("BIGDATA_LAB_INVENTORY", str(src))
    spec = importlib.util.spec_from_file_location("bad_input", ROOT / "tests/lab/test_bad_input.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("data,name", [(LAB, "hosts.yml"), (MOLECULE, "ansible_inventory.yml")], ids=["lab", "molecule"])
def test_empty_group(monkeypatch, tmp_path, data, name):
    module = _load(monkeypatch, tmp_path, data, name)
    inv = module._edited_inventory(tmp_path, "empty:namenode")
    groups = module._groups(yaml.safe_load((inv / "hosts.yml").read_text()))
    assert groups["namenode"]["hosts"] == {}
    assert groups["resourcemanager"]["hosts"]
    assert (inv / "group_vars").is_symlink()


@pytest.mark.parametrize("data,name", [(LAB, "hosts.yml"), (MOLECULE, "ansible_inventory.yml")], ids=["lab", "molecule"])
def test_second_host(monkeypatch, tmp_path, data, name):
    module = _load(monkeypatch, tmp_path, data, name)
    inv = module._edited_inventory(tmp_path, "second:resourcemanager")
    groups = module._groups(yaml.safe_load((inv / "hosts.yml").read_text()))
    assert sorted(groups["resourcemanager"]["hosts"]) == ["m", "w1"]
    # the added host keeps its address (molecule's layout carries it in every group)
    assert groups["resourcemanager"]["hosts"]["w1"]["ansible_host"] == "10.0.0.11"


def test_no_inventory_file(monkeypatch, tmp_path):
    module = _load(monkeypatch, tmp_path, LAB, "other.yml")
    with pytest.raises(FileNotFoundError):
        module._inventory_file(tmp_path / "src")


HA = {"all": {"children": {"hadoop": {"children": {
    "namenode": {"hosts": {"m": {"ansible_host": "10.0.0.10"}, "w1": None}},
    "resourcemanager": {"hosts": {"m": None}},
    "zookeeper": {"hosts": {"m": None, "w1": None, "w2": None}},
    "journalnodes": {"hosts": {"m": None, "w1": None, "w2": None}},
    "workers": {"hosts": {"w1": {"ansible_host": "10.0.0.11"}, "w2": {"ansible_host": "10.0.0.12"}}},
    "datanodes": {"children": {"workers": None}}}}}}}


def test_ha_lab_gets_the_ha_cases(monkeypatch, tmp_path):
    module = _load(monkeypatch, tmp_path, HA, "hosts.yml")
    assert module.HA_LAB and "ha-without-fencing" in module.CASES and "even-zookeeper" in module.GROUP_CASES
    (tmp_path / "plain").mkdir()
    plain = _load(monkeypatch, tmp_path / "plain", LAB, "hosts.yml")
    assert not plain.HA_LAB and "ha-without-fencing" not in plain.CASES


def test_drop_and_samehost(monkeypatch, tmp_path):
    module = _load(monkeypatch, tmp_path, HA, "hosts.yml")
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    dropped = module._groups(yaml.safe_load((module._edited_inventory(tmp_path / "a", "drop:zookeeper") / "hosts.yml").read_text()))
    assert sorted(dropped["zookeeper"]["hosts"]) == ["m", "w1"]
    same = module._groups(yaml.safe_load((module._edited_inventory(tmp_path / "b", "samehost:journalnodes") / "hosts.yml").read_text()))
    # every member, wherever it is listed, at the first member's address
    assert [same["journalnodes"]["hosts"][h]["ansible_host"] for h in ("m", "w1", "w2")] == ["10.0.0.10"] * 3
    assert same["workers"]["hosts"]["w2"]["ansible_host"] == "10.0.0.10"
