"""playbooks/restart.yml has one play per pass of the daemons with a restart rule (plays cannot loop): as many as
the daemon table has such daemons, each running playbooks/tasks/restart_rule.yml over the hosts its first play
ordered, before the masters' and workers' plays."""

import os

import yaml

from ansible_collections.bigdata.spark.plugins.module_utils import daemons as d

TOP = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..')


def plays():
    with open(os.path.join(TOP, 'playbooks', 'restart.yml'), encoding='utf-8') as fh:
        return yaml.safe_load(fh)


def test_one_pass_play_per_daemon_with_a_rule_before_the_masters():
    all_plays = plays()
    names = [p['name'] for p in all_plays]
    passes = [p for p in all_plays if '__rr_pass' in (p.get('vars') or {})]
    assert [p['vars']['__rr_pass'] for p in passes] == list(range(len(d.restart_rules({}, _defaults()))))
    for p in passes:
        assert p['serial'] == 1 and p['any_errors_fatal'] is True
        assert "__rr_rule_plan" in p['hosts'] and '[%d]' % p['vars']['__rr_pass'] in p['hosts']
        assert p['tasks'][0]['ansible.builtin.include_tasks'] == 'tasks/restart_rule.yml'
    first_pass = names.index(passes[0]['name'])
    assert names.index('Restart the masters one at a time') == first_pass + len(passes)


def _defaults():
    from ansible_collections.bigdata.spark.plugins.filter.daemons import role_defaults
    return role_defaults()
