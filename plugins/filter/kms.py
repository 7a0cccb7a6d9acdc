# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""The filter of the encryption zone tasks (roles/hdfs/tasks/encryption_zones.yml); the logic lives in
module_utils/kms.py."""

from __future__ import annotations

from ansible.errors import AnsibleFilterError

from ansible_collections.bigdata.spark.plugins.module_utils.kms import KmsError, zone_plan


def encryption_zone_plan(zones, keys_text, state_text):
    """The keys and zones to create for hdfs_encryption_zones, or why a zone cannot be made."""
    try:
        return zone_plan(list(zones or []), str(keys_text or ''), str(state_text or ''))
    except KmsError as exc:
        raise AnsibleFilterError('encryption_zone_plan: %s' % exc) from exc


class FilterModule:
    """HDFS transparent encryption filters."""

    def filters(self):
        return {"encryption_zone_plan": encryption_zone_plan}
