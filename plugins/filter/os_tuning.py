# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Filters of the os_tuning role; the logic lives in module_utils/tuning_state.py."""

from __future__ import annotations

from ansible.errors import AnsibleFilterError

from ansible_collections.bigdata.spark.plugins.module_utils.tuning_state import TuningError, boot_report


def os_tuning_boot_report(state, settings, changed):
    """Report entries of the sysctl and limits drop-ins, the boot units and the udev rule."""
    try:
        return boot_report(settings, state, changed)
    except TuningError as exc:
        raise AnsibleFilterError("os_tuning_boot_report: %s" % exc) from exc


class FilterModule:
    """os_tuning filters."""

    def filters(self):
        return {"os_tuning_boot_report": os_tuning_boot_report}
