# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Kerberos principals, keytabs and settings checks; the logic lives in module_utils/kerberos.py."""

from __future__ import annotations

import os.path

from ansible.errors import AnsibleFilterError

from ansible_collections.bigdata.spark.plugins.module_utils import kerberos as krb


def _call(name, fn, *args):
    try:
        return fn(*args)
    except krb.KerberosError as exc:
        raise AnsibleFilterError("%s: %s" % (name, exc)) from exc


def kerberos_principal(pattern, host, realm):
    """A principal pattern (nn/_HOST) made the host's principal (nn/host@REALM)."""
    return _call("kerberos_principal", krb.principal, pattern, host, realm)


def kerberos_keytabs(principals, host, realm, supplied_dir=""):
    """The host's keytabs [{path, owner, group, principals, src}] from kerberos_principals."""
    return _call("kerberos_keytabs", krb.keytabs, principals, host, realm, supplied_dir)


def kerberos_problems(settings, host=""):
    """The mistakes in the kerberos role's settings for one host (supplied keytabs looked for on the controller)."""
    if not hasattr(settings, "get"):
        raise AnsibleFilterError("kerberos_problems: the settings must be a mapping (vars); got %r" % (settings,))
    return krb.problems(settings, host, os.path.isfile)


def kerberos_keytab_todo(results):
    """The keytabs that lack principals (with `missing`), from the results of `klist -kt` looped over the keytabs."""
    if not isinstance(results, (list, tuple)) or not all(hasattr(r, "get") for r in results):
        raise AnsibleFilterError("kerberos_keytab_todo: the results of a loop of klist -kt over the keytabs are required; got %r"
                                 % (results,))
    return krb.keytabs_todo(results)


class FilterModule:
    """Kerberos filters."""

    def filters(self):
        return {"kerberos_principal": kerberos_principal, "kerberos_keytabs": kerberos_keytabs,
                "kerberos_problems": kerberos_problems, "kerberos_keytab_todo": kerberos_keytab_todo}
