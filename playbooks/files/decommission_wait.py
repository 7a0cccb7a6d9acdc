# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Waits until named DataNodes are decommissioned (or back in service), printing the progress, for
playbooks/decommission.yml.

Usage: python3 decommission_wait.py --namenodes URL[,URL] --nodes NAME[,NAME] [--want decommissioned|in-service]
                                    [--timeout SECONDS] [--interval SECONDS]

Asks each NameNode's JMX (URL is its web address, http://HOST:PORT or https:// with TLS) which one is active, and reads the active one's
NameNodeInfo: each node's admin state, and while it is being decommissioned the blocks still short of copies
elsewhere (DecomNodes: underReplicatedBlocks, decommissionOnlyReplicas, underReplicateInOpenFiles). Prints one line
per change and at least one a minute: elapsed seconds, each node's state, blocks left. Exit 0 when every node is in
the wanted state (a dead node that was decommissioned counts as decommissioned), 2 at the timeout, 1 when no
NameNode answers as active for the whole time.
"""

import argparse
import json
import sys
import time
import urllib.request

STATUS = "/jmx?qry=Hadoop:service=NameNode,name=NameNodeStatus"
INFO = "/jmx?qry=Hadoop:service=NameNode,name=NameNodeInfo"
BLOCKS_LEFT = ("underReplicatedBlocks", "decommissionOnlyReplicas", "underReplicateInOpenFiles")
WANT = {"decommissioned": "Decommissioned", "in-service": "In Service"}


def fetch(url):
    with urllib.request.urlopen(url, timeout=10) as answer:
        return json.loads(answer.read().decode("utf-8"))


def _bean(doc):
    beans = doc.get("beans") if isinstance(doc, dict) else None
    return beans[0] if isinstance(beans, list) and beans and isinstance(beans[0], dict) else {}


def _map(bean, key):
    value = bean.get(key, {})
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            value = {}
    return value if isinstance(value, dict) else {}


def active_info(namenodes, get=fetch):
    """The NameNodeInfo bean of the active NameNode (the only one with one NameNode), or None."""
    for base in namenodes:
        try:
            state = _bean(get(base + STATUS)).get("State", "")
            if state == "active" or len(namenodes) == 1:
                return _bean(get(base + INFO))
        except (OSError, ValueError):
            continue
    return None


def states(info, nodes):
    """{node: (state, blocks left)} for each named node, from a NameNodeInfo bean; unknown nodes: ('not registered', 0)."""
    live, dead, decom = _map(info, "LiveNodes"), _map(info, "DeadNodes"), _map(info, "DecomNodes")
    out = {}
    for node in nodes:
        state, left = "not registered", 0
        for key, figures in live.items():
            if key.rsplit(":", 1)[0] == node:
                state = figures.get("adminState", "")
        for key, figures in dead.items():
            if key.rsplit(":", 1)[0] == node and state == "not registered":
                state = "Decommissioned" if figures.get("decommissioned") else "dead"
        for key, figures in decom.items():
            if key.rsplit(":", 1)[0] == node:
                left = sum(int(figures.get(k, 0) or 0) for k in BLOCKS_LEFT)
        out[node] = (state, left)
    return out


def line(elapsed, found):
    return "+%d s: %s" % (elapsed, "; ".join("%s %s%s" % (n, s, ", %d block(s) left" % left if left else "")
                                             for n, (s, left) in sorted(found.items())))


def wait(namenodes, nodes, want, timeout, interval, get=fetch, clock=time.monotonic, sleep=time.sleep, out=print):
    """Polls until every node is in the wanted state; returns the exit code."""
    start = clock()
    last, last_time, answered = None, None, False
    while True:
        elapsed = clock() - start
        info = active_info(namenodes, get)
        if info is not None:
            answered = True
            found = states(info, nodes)
            text = line(elapsed, found)
            if text.split(": ", 1)[1] != last or elapsed - last_time >= 60:
                out(text)
                last, last_time = text.split(": ", 1)[1], elapsed
            if all(state == WANT[want] for state, _left in found.values()):
                out("every node %s after %d s" % (WANT[want].lower(), elapsed))
                return 0
        if elapsed >= timeout:
            out("timeout after %d s%s" % (elapsed, "" if answered else ": no NameNode answered as active"))
            return 2 if answered else 1
        sleep(interval)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n", maxsplit=1)[0])
    parser.add_argument("--namenodes", required=True)
    parser.add_argument("--nodes", required=True)
    parser.add_argument("--want", choices=sorted(WANT), default="decommissioned")
    parser.add_argument("--timeout", type=int, default=3600)
    parser.add_argument("--interval", type=int, default=5)
    args = parser.parse_args(argv)
    namenodes = [u.rstrip("/") for u in args.namenodes.split(",") if u]
    nodes = [n for n in args.nodes.split(",") if n]
    return wait(namenodes, nodes, args.want, args.timeout, args.interval)


if __name__ == "__main__":
    sys.exit(main())
