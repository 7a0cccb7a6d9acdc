# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Day-2 decisions that read the NameNode's answers: DataNode usage and its spread (playbooks/balance.yml)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json


class Day2Error(ValueError):
    """Bad input to a day-2 function; the message names the value and what is allowed."""


def _live_nodes(jmx):
    """The LiveNodes map of a NameNodeInfo JMX answer (a JSON string inside the bean)."""
    beans = jmx.get('beans') if isinstance(jmx, dict) else None
    if not isinstance(beans, list) or not beans or not isinstance(beans[0], dict) or 'LiveNodes' not in beans[0]:
        raise Day2Error('jmx: the answer of /jmx?qry=Hadoop:service=NameNode,name=NameNodeInfo is required '
                        '(a bean with LiveNodes); got %r' % (str(jmx)[:200],))
    live = beans[0]['LiveNodes']
    if isinstance(live, str):
        try:
            live = json.loads(live)
        except ValueError as exc:
            raise Day2Error('jmx: LiveNodes is not JSON: %s' % exc)
    if not isinstance(live, dict):
        raise Day2Error('jmx: LiveNodes must map DataNodes to their figures; got %r' % (live,))
    return live


def datanode_usage(jmx):
    """Each live DataNode's DFS usage in percent of its capacity (what the balancer evens out), and the spread.

    Returns {'nodes': [{'datanode', 'used_bytes', 'capacity_bytes', 'used_pct', 'admin_state'}] sorted by name,
    'mean_pct' (the cluster's used over its capacity), 'spread_pct' (highest minus lowest node, percentage points)}.
    A node with no capacity counts 0 %."""
    nodes = []
    for name, figures in sorted(_live_nodes(jmx).items()):
        used, capacity = int(figures.get('usedSpace', 0)), int(figures.get('capacity', 0))
        nodes.append({'datanode': name.split(':')[0], 'used_bytes': used, 'capacity_bytes': capacity,
                      'used_pct': round(100.0 * used / capacity, 3) if capacity else 0.0,
                      'admin_state': figures.get('adminState', '')})
    if not nodes:
        return {'nodes': [], 'mean_pct': 0.0, 'spread_pct': 0.0}
    total_used = sum(n['used_bytes'] for n in nodes)
    total_capacity = sum(n['capacity_bytes'] for n in nodes)
    pcts = [n['used_pct'] for n in nodes]
    return {'nodes': nodes, 'mean_pct': round(100.0 * total_used / total_capacity, 3) if total_capacity else 0.0,
            'spread_pct': round(max(pcts) - min(pcts), 3)}


# hdfs balancer's exit codes (org.apache.hadoop.hdfs.server.balancer.ExitStatus) as the shell sees them.
BALANCER_EXIT = {
    0: ('balanced', 'every DataNode is within the threshold of the mean'),
    1: ('in progress', 'the balancer stopped with blocks still to move'),
    255: ('already running', 'another balancer runs against this cluster (its lock file /system/balancer.id)'),
    254: ('no block to move', 'no block can move closer to the mean (small cluster, placement rules)'),
    253: ('no progress', 'no block moved in five iterations'),
    252: ('I/O error', 'see the balancer output'),
    251: ('bad arguments', 'see the balancer output'),
    250: ('interrupted', 'the balancer was stopped'),
    249: ('upgrade not finalized', 'the balancer does not run during an HDFS upgrade; finalize it first'),
}


def balancer_outcome(rc):
    """{'rc', 'outcome', 'why', 'ok'} for the balancer's exit code: ok when the cluster is balanced or no block can
    move closer (nothing left that the balancer could do)."""
    try:
        rc = int(rc)
    except (TypeError, ValueError):
        raise Day2Error('rc: the balancer\'s exit code (a number) is required; got %r' % (rc,))
    outcome, why = BALANCER_EXIT.get(rc, ('failed', 'exit code %d' % rc))
    return {'rc': rc, 'outcome': outcome, 'why': why, 'ok': rc in (0, 254)}
