# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""TLS names and settings checks; the logic lives in module_utils/tls.py."""

from __future__ import annotations

import os.path

from ansible.errors import AnsibleFilterError

from ansible_collections.bigdata.spark.plugins.module_utils import tls


def tls_host_names(inventory_hostname, fqdn="", addresses=()):
    """{'dns': [...], 'ip': [...]}: the names and IPv4 addresses a host's certificate is for."""
    try:
        return tls.host_names(inventory_hostname, fqdn, addresses)
    except tls.TlsError as exc:
        raise AnsibleFilterError("tls_host_names: %s" % exc) from exc


def tls_subject_alt_names(names):
    """The subjectAltName entries (DNS:..., IP:...) of tls_host_names' result."""
    if not hasattr(names, "get"):
        raise AnsibleFilterError("tls_subject_alt_names: the result of tls_host_names is required; got %r" % (names,))
    return tls.subject_alt_names(names)


def tls_problems(settings, host=""):
    """The mistakes in the tls role's settings for one host (supplied files looked for on the controller)."""
    if not hasattr(settings, "get"):
        raise AnsibleFilterError("tls_problems: the settings must be a mapping (vars); got %r" % (settings,))
    return tls.problems(settings, host, os.path.isfile)


def tls_name_problems(info, host, required, now=""):
    """The messages for a supplied certificate (x509_certificate_info's result) that lacks a required name or expired."""
    if not hasattr(info, "get") or not hasattr(required, "get"):
        raise AnsibleFilterError("tls_name_problems: x509_certificate_info's result and tls_host_names' are required")
    return tls.name_problems(host, required, info.get("subject_alt_name") or [], info.get("not_after", ""), now)


class FilterModule:
    """TLS filters."""

    def filters(self):
        return {"tls_host_names": tls_host_names, "tls_subject_alt_names": tls_subject_alt_names,
                "tls_problems": tls_problems, "tls_name_problems": tls_name_problems}
