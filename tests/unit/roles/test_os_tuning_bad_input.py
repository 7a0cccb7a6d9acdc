# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Bad NIC and IPoIB settings stop the os_tuning role before any change: one ansible-playbook run per mistake.

The role runs on this machine (localhost, local connection, check mode, no become). A mistake in the values stops it
at its argument spec or its checks, before it reads the host; an interface the host lacks stops it right after the
read-only os_tuning_facts, before any package or file. Each case asserts the failure, the words of the message (the
variable and what it allows, or the host and the interface), and changed=0 in the recap.
"""

from __future__ import annotations

import os
import pathlib
import re
import subprocess
import sys

import pytest
import yaml

ROOT = pathlib.Path(__file__).resolve().parents[3]
RECAP = re.compile(r"^localhost\s+:\s+ok=\d+\s+changed=(\d+)\s+unreachable=(\d+)\s+failed=(\d+)", re.M)

# id -> (extra vars, texts the message must hold)
CASES = {
    "ipoib-mode-not-a-choice": ({"os_tuning_nic_interfaces": ["lo"], "os_tuning_ipoib_mode": "cm"},
                                ["os_tuning_ipoib_mode", "datagram", "connected", "cm"]),
    "ipoib-mtu-too-big": ({"os_tuning_nic_interfaces": ["lo"], "os_tuning_ipoib_mtu": 70000},
                          ["os_tuning_ipoib_mtu must be 0 (leave it) or a whole number from 576 to 65520 (got 70000)"]),
    "ipoib-mtu-too-big-for-datagram": ({"os_tuning_nic_interfaces": ["lo"], "os_tuning_ipoib_mode": "datagram",
                                        "os_tuning_ipoib_mtu": 65520},
                                       ["os_tuning_ipoib_mtu 65520 is above 4092, the most datagram mode carries"]),
    "switch-without-an-interface": ({"os_tuning_nic_rings_max": True},
                                    ["os_tuning_nic_rings_max asked for, but no interface is named: set os_tuning_nic_interfaces"]),
    "interface-name-too-long": ({"os_tuning_nic_interfaces": ["a-very-long-interface-name"], "os_tuning_nic_rings_max": True},
                                ["os_tuning_nic_interfaces must be a list of interface names of at most 15 characters"]),
    "ipoib-mtu-twice": ({"os_tuning_mtu": {"ib0": 2044}, "os_tuning_ipoib_mtu": 4092},
                        ["os_tuning_mtu sets ib0 to 2044 but os_tuning_ipoib_mtu to 4092"]),
    "interface-the-host-lacks": ({"os_tuning_nic_interfaces": ["nosuch9"], "os_tuning_nic_irq_affinity": True},
                                 ["os_tuning_nic_interfaces (or os_tuning_mtu) names nosuch9, which localhost does not have"]),
}


@pytest.fixture(scope="module")
def playbook(tmp_path_factory):
    work = tmp_path_factory.mktemp("os_tuning_bad_input")
    inventory = {"all": {"vars": {"ansible_connection": "local", "ansible_python_interpreter": sys.executable},
                         "children": {group: {"hosts": {"localhost": None}}
                                      for group in ("namenode", "resourcemanager", "workers")}}}
    (work / "inventory.yml").write_text(yaml.safe_dump(inventory))
    (work / "play.yml").write_text(yaml.safe_dump([{
        "name": "Tune the operating system", "hosts": "localhost", "gather_facts": False,
        "roles": [{"role": "bigdata.spark.os_tuning"}]}]))
    return work


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_nic_setting_stops_before_any_change(playbook, case, tmp_path):
    extra, words = CASES[case]
    (tmp_path / "extra.yml").write_text(yaml.safe_dump(extra))
    env = dict(os.environ, ANSIBLE_CONFIG=str(ROOT / "ansible.cfg"), ANSIBLE_FORCE_COLOR="0", ANSIBLE_NOCOLOR="1",
               ANSIBLE_LOCAL_TEMP=str(tmp_path / "tmp"))
    run = subprocess.run(
        ["ansible-playbook", "-i", str(playbook / "inventory.yml"), "--check", "-e", "@%s" % (tmp_path / "extra.yml"),
         str(playbook / "play.yml")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False)
    output = run.stdout + run.stderr
    assert run.returncode != 0, output
    flat = " ".join(output.split())
    for text in words:
        assert text in flat, (text, output[-3000:])
    recap = RECAP.search(output)
    assert recap and recap.groups() == ("0", "0", "1"), output[-3000:]
    # Nothing past the checks and the read-only facts ran.
    assert "Install the tools the role calls" not in output and "Write the sysctl drop-in" not in output
