"""os_tuning_boot_report: the report entries of roles/os_tuning/tasks/configure.yml, against tables."""

import copy

import pytest
from ansible.errors import AnsibleFilterError

from ansible_collections.bigdata.spark.plugins.filter.os_tuning import FilterModule, os_tuning_boot_report, os_tuning_ports

SETTINGS = {
    "sysctl": {"enabled": True, "file": "/etc/sysctl.d/90-bigdata-spark.conf", "keys": 21},
    "limits": {"enabled": True, "file": "/etc/security/limits.d/90-bigdata-spark.conf", "nofile": 1048576,
               "nproc": 65536, "wanted_nofile": 1048576, "wanted_nproc": 65536,
               "users": ["yarn", "hdfs", "spark", "mapred"]},
    "thp": {"enabled": True, "unit": "bigdata-thp.service", "mode": "never", "defrag": "never"},
    "governor": {"enabled": True, "unit": "bigdata-cpu-governor.service", "governor": "performance"},
    "io": {"enabled": True, "file": "/etc/udev/rules.d/60-bigdata-spark-io.rules"},
}
# A bare-metal server: /sys writable, cpufreq, two data disks, udev running, PID 1 without hard limits.
METAL = {"limits_pid1": {"nofile": [1024, None], "nproc": [None, None]}, "sys_writable": True,
         "cpufreq": {"present": True}, "disks": {"sdc": {}, "sdb": {}}, "udev_rules_dir": True, "udev_running": True}
# A lab container: /sys read-only, no cpufreq, no block device under the data dirs, PID 1 capped.
CONTAINER = {"limits_pid1": {"nofile": [524288, 524288], "nproc": [None, 4096]}, "sys_writable": False,
             "cpufreq": {"present": False}, "disks": {}, "udev_rules_dir": False, "udev_running": False}
ALL_CHANGED = dict.fromkeys(("sysctl", "limits", "thp", "governor", "io"), True)
NONE_CHANGED = dict.fromkeys(("sysctl", "limits", "thp", "governor", "io"), False)


def test_first_run_on_metal():
    assert os_tuning_boot_report(METAL, SETTINGS, ALL_CHANGED) == [
        {"item": "sysctl drop-in /etc/sysctl.d/90-bigdata-spark.conf", "status": "applied",
         "detail": "21 keys; applied at boot by systemd-sysctl"},
        {"item": "limits drop-in /etc/security/limits.d/90-bigdata-spark.conf", "status": "applied",
         "detail": "nofile 1048576, nproc 65536 for hdfs, mapred, spark, yarn"},
        {"item": "boot unit bigdata-thp.service", "status": "applied", "detail": "enabled=never, defrag=never at every boot"},
        {"item": "boot unit bigdata-cpu-governor.service", "status": "applied", "detail": "performance at every boot"},
        {"item": "udev rule /etc/udev/rules.d/60-bigdata-spark-io.rules", "status": "applied", "detail": "disks sdb, sdc"},
    ]


def test_rerun_on_metal_is_already_right():
    report = os_tuning_boot_report(METAL, SETTINGS, NONE_CHANGED)
    assert [e["status"] for e in report] == ["already right"] * 5


def test_container():
    settings = copy.deepcopy(SETTINGS)
    settings["limits"].update(nofile=524288, nproc=4096)
    report = os_tuning_boot_report(CONTAINER, settings, {"sysctl": True, "limits": False, "thp": True})
    assert [(e["status"], e["detail"]) for e in report] == [
        ("applied", "21 keys; applied at boot by systemd-sysctl"),
        ("already right", "nofile 524288, nproc 4096 for hdfs, mapred, spark, yarn (capped at the hard limits of PID 1, "
                          "524288/4096, instead of 1048576/65536)"),
        ("applied", "enabled=never, defrag=never at every boot (the unit skips itself while /sys is read-only)"),
        ("skipped", "no cpufreq on this host (container, VM, or frequency set by the firmware); no unit installed"),
        ("skipped", "no data directory is on a block device and os_tuning_io_disks is empty"),
    ]


@pytest.mark.parametrize("state, detail", [
    (dict(METAL, udev_rules_dir=False), "udev is not installed here (no /etc/udev/rules.d); disks sdb, sdc"),
    (dict(METAL, udev_running=False), "disks sdb, sdc (udev does not run now; the rule applies when it does)"),
])
def test_udev_cases(state, detail):
    entry = os_tuning_boot_report(state, SETTINGS, ALL_CHANGED)[-1]
    assert entry["detail"] == detail
    assert entry["status"] == ("skipped" if not state["udev_rules_dir"] else "applied")


@pytest.mark.parametrize("pid1, capped", [
    ({}, None),
    ({"nofile": [1024, 4096]}, "4096/None, instead of 1048576/65536"),  # as the Jinja wrote an unknown limit
    ({"nproc": [10, 100]}, "None/100, instead of 1048576/65536"),
    ({"nofile": [1024, 1048576], "nproc": [None, 65536]}, None),  # equal is not capped
    ({"nofile": [1024, "unlimited"]}, "unlimited/None, instead of 1048576/65536"),  # a string counts as 0, as int did
])
def test_limits_capping(pid1, capped):
    detail = os_tuning_boot_report(dict(METAL, limits_pid1=pid1), SETTINGS, NONE_CHANGED)[1]["detail"]
    if capped:
        assert detail.endswith("(capped at the hard limits of PID 1, %s)" % capped)
    else:
        assert "capped" not in detail


def test_everything_disabled_says_which_variable():
    settings = copy.deepcopy(SETTINGS)
    for part in settings.values():
        part["enabled"] = False
    report = os_tuning_boot_report(METAL, settings, ALL_CHANGED)
    assert [e["status"] for e in report] == ["skipped"] * 5
    assert [e["detail"] for e in report] == ["os_tuning_%s_enabled is false" % p
                                             for p in ("sysctl", "limits", "thp", "governor", "io")]


@pytest.mark.parametrize("state, settings, changed, words", [
    ([], SETTINGS, {}, "state .*use a dict"),
    (METAL, dict(SETTINGS, thp=None), {}, "settings.thp None: use a dict with enabled, unit, mode, defrag"),
    (METAL, dict(SETTINGS, io={"enabled": True}), {}, "settings.io lacks file"),
    (METAL, SETTINGS, None, "changed None: use a dict"),
])
def test_bad_inputs(state, settings, changed, words):
    with pytest.raises(AnsibleFilterError, match="os_tuning_boot_report: " + words):
        os_tuning_boot_report(state, settings, changed)


def test_filters_are_registered():
    assert set(FilterModule().filters()) == {"os_tuning_boot_report", "os_tuning_nic_plan", "os_tuning_nic_problems",
                                             "os_tuning_nic_missing", "os_tuning_nic_refused", "os_tuning_nic_state",
                                             "os_tuning_ports"}


def test_nic_filters_turn_errors_into_filter_errors():
    from ansible_collections.bigdata.spark.plugins.filter.os_tuning import (
        os_tuning_nic_missing, os_tuning_nic_plan, os_tuning_nic_problems, os_tuning_nic_refused)
    with pytest.raises(AnsibleFilterError, match="os_tuning_nic_plan: nics, ethtool and wanted must be dicts"):
        os_tuning_nic_plan([], {}, {})
    with pytest.raises(AnsibleFilterError, match="os_tuning_nic_problems: settings must be a dict"):
        os_tuning_nic_problems("ib0")
    with pytest.raises(AnsibleFilterError, match="os_tuning_nic_refused: result"):
        os_tuning_nic_refused([{"item": "ib0", "rc": 1}])
    assert os_tuning_nic_missing(["eth0"], "bd-master", ["eth0"]) == ""
    assert os_tuning_nic_missing(["ib0"], "bd-master", ["eth0"]).startswith("os_tuning_nic_interfaces (or os_tuning_mtu) names ib0")


def test_os_tuning_ports_reads_the_kernels_list():
    assert os_tuning_ports('2181,8030-8033,45454\n') == [2181, 8030, 8031, 8032, 8033, 45454]
    assert os_tuning_ports('') == []
    with pytest.raises(AnsibleFilterError, match='os_tuning_ports: .*ip_local_reserved_ports.*99999'):
        os_tuning_ports('99999')
