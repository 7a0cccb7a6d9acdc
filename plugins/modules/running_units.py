#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# GNU General Public License v3.0+ (see LICENSES/GPL-3.0-or-later.txt or https://www.gnu.org/licenses/gpl-3.0.txt)
# Modules run inside ansible-core's GPLv3 AnsibleModule, so they carry its licence; the rest of the
# collection is Apache-2.0 (see LICENSE).

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
---
module: running_units
short_description: List the systemd services of this collection that are running now
version_added: "0.1.0"
description:
  - One C(systemctl list-units --type=service --state=running) call for the given unit patterns; returns the
    unit names without C(.service).
  - The roles call it before they change anything; their handlers restart only the daemons that were running
    before the play (a daemon started by the play already reads the new files).
  - C(ansible.builtin.service_facts) would list every unit and package service, and took up to a minute on the lab.
author:
  - bigdata.spark developers (!UNKNOWN)
options:
  patterns:
    description: Unit name patterns, as C(systemctl list-units) takes them.
    type: list
    elements: str
    default: ["hadoop-*", "spark-*"]
extends_documentation_fragment:
  - bigdata.spark.read_only
"""

EXAMPLES = r"""
- name: Record which daemons run before this play
  bigdata.spark.running_units:
  register: running_before

- name: Restart the DataNode only if it was running
  ansible.builtin.debug:
    msg: the DataNode would be restarted
  when: "'hadoop-hdfs-datanode' in running_before.units"
"""

RETURN = r"""
units:
  description: The running units matching the patterns, without C(.service), in systemctl's order.
  returned: always
  type: list
  elements: str
  sample: ["hadoop-hdfs-datanode", "hadoop-yarn-nodemanager"]
"""

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.bigdata.spark.plugins.module_utils.hadoop_conf import unit_names


def command(patterns):
    """The systemctl call that lists the running services matching patterns."""
    return ['systemctl', 'list-units', '--type=service', '--state=running', '--no-legend', '--plain'] + list(patterns)


def main():
    module = AnsibleModule(
        argument_spec=dict(patterns=dict(type='list', elements='str', default=['hadoop-*', 'spark-*'])),
        supports_check_mode=True,
    )
    patterns = module.params['patterns']
    if not patterns or any(not p.strip() for p in patterns):
        module.fail_json(msg='patterns: a list of unit name patterns such as hadoop-* is required; got %r' % (patterns,))
    rc, out, err = module.run_command(command(patterns))
    if rc != 0:
        module.fail_json(msg='systemctl list-units failed (rc %d): %s' % (rc, err.strip() or out.strip()))
    module.exit_json(changed=False, units=unit_names(out.splitlines()))


if __name__ == '__main__':
    main()
