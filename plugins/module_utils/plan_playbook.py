# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""What playbooks/resource_plan.yml hands the planner: the host list from the inventory's groups, and the
planner's arguments (bigdata_plan_inputs, also read by roles/autotune and the autotune module).

Plain functions over plain values: no Ansible imports, no file or network access.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.bigdata.spark.plugins.module_utils.plan_inputs import PlanError

# Inventory group -> the planner's role, in the order the roles are listed for a host.
ROLE_GROUPS = (
    ('namenode', 'namenode'),
    ('namenode', 'zkfc'),  # only when the group has more than one host: ROLE_MIN_HOSTS
    ('secondarynamenode', 'secondarynamenode'),
    ('journalnodes', 'journalnode'),
    ('resourcemanager', 'resourcemanager'),
    ('jobhistory', 'jobhistory'),
    ('spark_history', 'spark_history'),
    ('datanodes', 'datanode'),
    ('nodemanagers', 'nodemanager'),
    ('zookeeper', 'zookeeper'),
)
# A role its group gives only when the group has at least this many hosts: with more than one NameNode (HDFS HA)
# a failover controller (ZKFC) runs beside each, beside a lone NameNode none. The other roles: one host is enough.
ROLE_MIN_HOSTS = {'zkfc': 2}
# The planner's optional arguments, in the order they are added to the inputs.
OPTIONAL_INPUTS = ('shuffle_data_bytes', 'executor_cores', 'lab', 'overrides', 'constants', 'driver_deploy_mode',
                   'other_services', 'push_shuffle')


def plan_hosts(groups, hostvars, group='hadoop'):
    """The planner's host list: every host of `group`, in inventory order, with its roles (from ROLE_GROUPS and
    ROLE_MIN_HOSTS) and its `bigdata_hardware` facts ({} when it has none)."""
    if not hasattr(groups, 'get'):
        raise PlanError('groups: expected the inventory\'s groups (a dict of group -> host names), got %r'
                        % (groups,))
    out = []
    for name in groups.get(group) or []:
        roles = [role for grp, role in ROLE_GROUPS
                 if name in (groups.get(grp) or []) and len(groups.get(grp)) >= ROLE_MIN_HOSTS.get(role, 1)]
        own = hostvars[name]
        facts = own['bigdata_hardware'] if 'bigdata_hardware' in own else {}
        out.append({'name': name, 'roles': roles, 'facts': facts})
    return out


def plan_inputs(hosts, profile='default', workload='default', lab=None, lab_inventory=False, **optional):
    """The planner's arguments: hosts, profile and workload always; the optional ones only when given (not None).

    lab: a dict is lab mode as given; anything else given (false) plans the nodes as servers. Without it,
    lab_inventory (the inventory's bigdata_lab) puts every host on one machine: nodes_per_machine = the hosts.
    """
    unknown = sorted(set(optional) - set(OPTIONAL_INPUTS))
    if unknown:
        raise PlanError('unknown argument(s) %s; allowed: %s' % (', '.join(unknown), ', '.join(OPTIONAL_INPUTS)))
    if not isinstance(hosts, list):
        raise PlanError('hosts: expected the host list (plan_hosts), got %r' % (hosts,))
    if lab is None and lab_inventory:
        lab = {'nodes_per_machine': len(hosts)}
    out = {'hosts': hosts, 'profile': profile, 'workload': workload}
    for key in OPTIONAL_INPUTS:
        value = lab if key == 'lab' else optional.get(key)
        if key == 'lab' and not hasattr(value, 'keys'):
            continue
        if value is not None:
            out[key] = value
    return out
