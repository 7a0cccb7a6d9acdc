# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Filters of the os_tuning role; the logic lives in module_utils/tuning_state.py and module_utils/nic_tuning.py."""

from __future__ import annotations

from ansible.errors import AnsibleFilterError

from ansible_collections.bigdata.spark.plugins.module_utils.nic_tuning import (
    NicError, check_settings, missing_interfaces, plan, refusals, state_summary)
from ansible_collections.bigdata.spark.plugins.module_utils.tuning_state import TuningError, boot_report, parse_ports


def os_tuning_boot_report(state, settings, changed):
    """Report entries of the sysctl and limits drop-ins, the boot units and the udev rule."""
    try:
        return boot_report(settings, state, changed)
    except TuningError as exc:
        raise AnsibleFilterError("os_tuning_boot_report: %s" % exc) from exc


def os_tuning_nic_plan(nics, ethtool, wanted):
    """Entries of the NIC settings (rings, queues, IRQ affinity, IPoIB mode and MTU) with the actions to take."""
    try:
        return plan(nics, ethtool, wanted)
    except NicError as exc:
        raise AnsibleFilterError("os_tuning_nic_plan: %s" % exc) from exc


def os_tuning_nic_problems(settings):
    """Messages for the NIC and IPoIB settings a user got wrong; empty when all are usable."""
    if not isinstance(settings, dict):
        raise AnsibleFilterError("os_tuning_nic_problems: settings must be a dict, got %r" % (settings,))
    return check_settings(settings)


def os_tuning_nic_missing(names, host, present):
    """The message naming the interfaces this host lacks, or an empty string."""
    return missing_interfaces(host, list(names or []), list(present or [])) or ""


def os_tuning_nic_refused(results):
    """Skipped entries for the NIC writes the host refused, with the kernel's message."""
    try:
        return refusals(results)
    except NicError as exc:
        raise AnsibleFilterError("os_tuning_nic_refused: %s" % exc) from exc


def os_tuning_nic_state(nics, ethtool):
    """Per interface the NIC state a report shows (rings, queues, IRQs on the NIC's node, IPoIB mode)."""
    try:
        return state_summary(nics, ethtool)
    except NicError as exc:
        raise AnsibleFilterError("os_tuning_nic_state: %s" % exc) from exc


def os_tuning_ports(text):
    """The sorted ports of a kernel port list such as net.ipv4.ip_local_reserved_ports ("2181,8030-8033,45454")."""
    try:
        return sorted(parse_ports(text))
    except TuningError as exc:
        raise AnsibleFilterError("os_tuning_ports: %s" % exc) from exc


class FilterModule:
    """os_tuning filters."""

    def filters(self):
        return {
            "os_tuning_boot_report": os_tuning_boot_report,
            "os_tuning_nic_plan": os_tuning_nic_plan,
            "os_tuning_nic_problems": os_tuning_nic_problems,
            "os_tuning_nic_missing": os_tuning_nic_missing,
            "os_tuning_nic_refused": os_tuning_nic_refused,
            "os_tuning_nic_state": os_tuning_nic_state,
            "os_tuning_ports": os_tuning_ports,
        }
