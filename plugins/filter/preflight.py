# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Filters of the preflight role; the logic lives in module_utils/preflight_checks.py."""

from __future__ import annotations

from ansible.errors import AnsibleFilterError

from ansible_collections.bigdata.spark.plugins.module_utils.preflight_checks import rdma_path


def preflight_rdma_path(devices, tool_present):
    """The RDMA device and port ib_write_bw can test on a host, or the reason there is none."""
    if devices is not None and not isinstance(devices, list):
        raise AnsibleFilterError("preflight_rdma_path: devices must be hardware_facts' rdma list, got %r" % (devices,))
    return rdma_path(devices or [], bool(tool_present))


class FilterModule:
    """preflight filters."""

    def filters(self):
        return {"preflight_rdma_path": preflight_rdma_path}
