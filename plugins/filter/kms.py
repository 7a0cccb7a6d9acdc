# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""The filter of the encryption zone tasks (roles/hdfs/tasks/encryption_zones.yml); the logic lives in
module_utils/kms.py."""

from __future__ import annotations

import os

import yaml
from ansible.errors import AnsibleFilterError

from ansible_collections.bigdata.spark.plugins.module_utils.kms import KmsError, services, zone_plan

_HADOOP_DEFAULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "roles", "hadoop", "defaults",
                                "main.yml")


def encryption_zone_plan(zones, keys_text, state_text):
    """The keys and zones to create for hdfs_encryption_zones, or why a zone cannot be made."""
    try:
        return zone_plan(list(zones or []), str(keys_text or ''), str(state_text or ''))
    except KmsError as exc:
        raise AnsibleFilterError('encryption_zone_plan: %s' % exc) from exc


def kms_services(groups, hostvars):
    """The planner's other_services for the KMS of the inventory (the group kms): its memory taken out of YARN on the
    host it shares with a NodeManager. The play that plans runs no role, so the hadoop role's defaults fill in."""
    with open(_HADOOP_DEFAULTS, encoding="utf-8") as f:
        defaults = yaml.safe_load(f) or {}
    hosts = []
    for name in (groups or {}).get("kms") or []:
        own = hostvars[name]
        hosts.append({"name": name,
                      "enabled": own["hadoop_kms_enabled"] if "hadoop_kms_enabled" in own else defaults["hadoop_kms_enabled"],
                      "heap_mb": own["hadoop_kms_heap_mb"] if "hadoop_kms_heap_mb" in own else defaults["hadoop_kms_heap_mb"]})
    try:
        return services(hosts) or None
    except KmsError as exc:
        raise AnsibleFilterError("kms_services: %s" % exc) from exc


class FilterModule:
    """HDFS transparent encryption filters."""

    def filters(self):
        return {"encryption_zone_plan": encryption_zone_plan, "kms_services": kms_services}
