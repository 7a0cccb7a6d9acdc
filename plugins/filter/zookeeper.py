# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""The ZooKeeper ensemble, zoo.cfg and the `srvr` answer's mode; the logic lives in module_utils/zookeeper.py."""

from __future__ import annotations

from ansible.errors import AnsibleFilterError

from ansible_collections.bigdata.spark.plugins.module_utils import zookeeper as zk


def _call(name, fn, *args):
    try:
        return fn(*args)
    except zk.ZooKeeperError as exc:
        raise AnsibleFilterError("%s: %s" % (name, exc)) from exc


def _per_host(hosts, hostvars, var):
    out = {}
    if not isinstance(hosts, (list, tuple)):
        return out
    for host in hosts:
        host_vars = hostvars.get(host) if hasattr(hostvars, "get") else None
        out[host] = host_vars.get(var) if hasattr(host_vars, "get") else None
    return out


def zookeeper_ensemble(hosts, hostvars, settings=None):
    """The servers [{id, host, address}] of the group's hosts, checked (odd count, ids, ports)."""
    if not hasattr(hostvars, "get"):
        raise AnsibleFilterError("zookeeper_ensemble: hostvars (a mapping of host -> variables) is required; got %r"
                                 % (hostvars,))
    if settings is not None and not hasattr(settings, "get"):
        raise AnsibleFilterError("zookeeper_ensemble: the settings must be a mapping (vars); got %r" % (settings,))
    wanted = dict((k, (settings or {}).get(k)) for k in zk.PORT_VARS + (zk.ADMIN_PORT_VAR, "zookeeper_admin_server_enabled"))
    return _call("zookeeper_ensemble", zk.ensemble, hosts, _per_host(hosts, hostvars, "zookeeper_id"),
                 _per_host(hosts, hostvars, "zookeeper_address"), wanted)


def zookeeper_cfg(settings, servers, quorum_port, election_port, header=""):
    """zoo.cfg's text from its settings and the ensemble's servers."""
    return _call("zookeeper_cfg", zk.zoo_cfg, settings, servers, quorum_port, election_port, header)


def zookeeper_mode(answer):
    """leader, follower, observer or standalone from a server's `srvr` answer; None when it is not serving."""
    return zk.four_letter_mode(answer)


class FilterModule:
    """ZooKeeper filters."""

    def filters(self):
        return {"zookeeper_ensemble": zookeeper_ensemble, "zookeeper_cfg": zookeeper_cfg,
                "zookeeper_mode": zookeeper_mode}
