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
module: autotune
short_description: One step of autotune's budgeted search over the planner's knobs
version_added: "0.2.0"
description:
  - Wraps the pure search in C(plugins/module_utils/autotune.py), a coordinate descent over named knobs, each
    candidate built through the planner and compared with the current best in interleaved (ABBA) benchmark runs,
    kept only when the lower end of the bootstrap interval of its throughput ratio clears a margin.
  - The search's state is plain JSON that the caller keeps (the C(bigdata.spark.autotune) role writes it to a file
    between steps). Each call takes a state and returns the next one; the module reads nothing and changes nothing,
    so C(changed) is always C(false) and check mode gives the same result.
  - The method, the knobs and the outputs are described in C(docs/autotune.md) of the collection.
author:
  - bigdata.spark developers (!UNKNOWN)
options:
  step:
    description:
      - C(start) checks every input and every given candidate (through the planner) and returns the first state;
        nothing has run yet. Bad input fails here with a message naming the field.
      - C(check_deployed) fails unless the O(deployed) files hold the plan the search starts from (the runs pass
        only what differs from it).
      - C(next) returns the runs of the current or the next candidate (RV(runs)), or none when the search is over.
      - C(record) records one run's result (O(run_id), O(result), O(seconds)).
      - C(report) returns the table, the plot data, the verdict, the winner's group_vars and the proposal.
    type: str
    required: true
    choices: [start, check_deployed, next, record, report]
  state:
    description: The state returned by the previous step; required except for O(step=start).
    type: dict
  plan_inputs:
    description:
      - The planner's arguments the cluster was deployed with, for O(step=start), that is C(bigdata_plan_inputs), which
        C(playbooks/resource_plan.yml) gives M(bigdata.spark.resource_plan) and hands to every host (C(hosts),
        C(profile), C(workload), C(lab), C(overrides), ...). Null values are left out; whole numbers given as text
        become numbers.
    type: dict
  knobs:
    description:
      - The knobs to search, in order, from C(executor_cores), C(memory_per_core_mb), C(shuffle_partitions),
        C(adaptive), C(compression_codec), C(map_memory_mb), C(reduce_memory_mb), C(parallel_copies).
        For O(step=start).
    type: list
    elements: raw
  candidates:
    description:
      - Knob name to the list of values to try instead of the generated ones (tried in the coarse pass only).
        An empty list, a value of the wrong type, or a value the planner refuses is an error.
    type: dict
    default: {}
  workloads:
    description: The benchmark workloads each run measures (as C(benchmark_workloads)). For O(step=start).
    type: list
    elements: str
  budget_minutes:
    description: The search stops with the best so far before a candidate that would not fit in what is left.
    type: raw
  seconds_per_run:
    description: An estimate of one run's wall time, used until two runs have measured theirs.
    type: raw
    default: 120
  repetitions:
    description: Runs of the baseline and of each candidate in one comparison, interleaved ABBA (2 to 50).
    type: raw
    default: 3
  margin:
    description: A candidate wins when the lower end of its interval is above this ratio (1.03 is 3% faster).
    type: raw
    default: 1.03
  confidence:
    description: Confidence of the bootstrap interval.
    type: raw
    default: 0.95
  resamples:
    description: Bootstrap resamples (100 to 100000).
    type: raw
    default: 2000
  seed:
    description: Seed of the bootstrap; the same data give the same interval.
    type: raw
    default: 0
  deployed:
    description:
      - For O(step=check_deployed), the deployed files to compare with the plan, each with C(name)
        (C(spark-defaults.conf) or a C(*-site.xml)), C(host), C(text) (the file's content), C(computed) (the plan's
        values for it) and C(overrides) (the user's); a property of the plan with another value fails the step.
    type: list
    elements: dict
  compare:
    description:
      - For O(step=check_deployed), whether to fail on a difference (a resumed search may have left a candidate
        deployed); the JVM options' suffixes (RV(opts_suffixes)) are returned either way.
    type: bool
    default: true
  opts_suffixes:
    description:
      - For O(step=next), RV(opts_suffixes) of O(step=check_deployed); each run's C(mr_conf) JVM options get them.
    type: dict
    default: {}
  run_id:
    description: The run recorded by O(step=record).
    type: int
  result:
    description:
      - The run's C(result.json) from the benchmark role (C(benchmark_result)). Omitted or null for a run that
        failed, and a run whose validations failed counts as failed; a failed run fails its candidate.
    type: dict
  seconds:
    description: The run's wall time, with any redeploy before it (charged to the budget).
    type: float
  current_vars:
    description:
      - The inventory's current C(spark_defaults_overrides) and C(mapred_site_overrides). For O(step=report), the
        proposal merges the winners into them; for O(step=next), each run's C(deploy_vars) merges its
        C(cluster_vars) into them.
    type: dict
    default: {}
  runs:
    description: For O(step=report), the runs the role recorded (wall and workload seconds), for the report.
    type: list
    elements: dict
    default: []
  name:
    description: For O(step=report), the search's name, the report's title.
    type: str
    default: autotune
attributes:
  check_mode:
    support: full
    description: The module computes only; check mode gives the same result.
  diff_mode:
    support: none
    description: Nothing changes, so there is no diff.
seealso:
  - module: bigdata.spark.resource_plan
"""

EXAMPLES = r"""
- name: Start a search over two knobs with given candidates
  bigdata.spark.autotune:
    step: start
    plan_inputs: "{{ bigdata_plan_inputs }}"
    knobs: [compression_codec, shuffle_partitions]
    candidates:
      compression_codec: [zstd]
      shuffle_partitions: [8]
    workloads: [terasort]
    budget_minutes: 30
    repetitions: 2
  delegate_to: localhost
  register: start

- name: Ask for the next candidate's runs
  bigdata.spark.autotune:
    step: next
    state: "{{ start.state }}"
  delegate_to: localhost
  register: step

- name: Record a run's result
  bigdata.spark.autotune:
    step: record
    state: "{{ step.state }}"
    run_id: "{{ step.runs[0].id }}"
    result: "{{ benchmark_result }}"
    seconds: 61.5
  delegate_to: localhost
  register: recorded

- name: Report the search
  bigdata.spark.autotune:
    step: report
    state: "{{ recorded.state }}"
    current_vars:
      spark_defaults_overrides: "{{ spark_defaults_overrides | default({}) }}"
  delegate_to: localhost
  register: report
"""

RETURN = r"""
state:
  description: The new state, plain JSON; pass it to the next step (and keep it in a file to resume).
  returned: always
  type: dict
runs:
  description:
    - For O(step=next), the runs still to do, each with C(id), C(role) (C(baseline) or C(candidate)), C(knob), C(value),
      C(pass), C(point), C(values), C(scope), C(spark_conf) (pass as C(benchmark_spark_conf)), C(mr_conf) (pass as
      C(benchmark_mr_conf); JVM options with O(opts_suffixes)), C(cluster_files), C(cluster_vars) (deploy with site.yml first when C(scope) is
      C(cluster)), C(deploy_vars) (those merged into O(current_vars), the extra vars of that site.yml run),
      C(progress). Empty when the search is over.
  returned: always
  type: list
  elements: dict
  sample: [{"id": 1, "role": "baseline", "knob": "compression_codec", "value": "zstd", "scope": "application",
            "spark_conf": {}, "mr_conf": {}, "cluster_vars": {}}]
progress:
  description: The progress line of the candidate whose runs are returned, with the time left.
  returned: always
  type: str
  sample: "coarse pass, knob 1/2 compression_codec=zstd against the plan: 4 runs of about 60 s; 10.0 of 10.0 min left"
done:
  description: Whether the search is over.
  returned: always
  type: bool
stop:
  description: Why the search stopped (the budget, or every knob searched); empty while it runs.
  returned: always
  type: str
pending:
  description: Ids of the runs still to record for the current candidate (after a failed run, none).
  returned: always
  type: list
  elements: int
measured:
  description: For O(step=record), the throughput per workload taken from the result, or null for a failed run.
  returned: always
  type: dict
why:
  description: For O(step=record), why a run counts as failed; empty otherwise.
  returned: always
  type: str
opts_suffixes:
  description:
    - For O(step=check_deployed), what the deployed JVM options (C(mapreduce.map.java.opts), ...) carry after the
      planned ones, such as the C(--add-opens) the yarn role adds on Java 17; a run that sets those options as C(-D)
      carries them too.
  returned: always
  type: dict
  sample: {"mapreduce.map.java.opts": "--add-opens=java.base/java.lang=ALL-UNNAMED"}
workload_seconds:
  description: For O(step=record), the seconds the run's workloads took by their own timers (0 without a result).
  returned: always
  type: float
start_values:
  description: Each searched knob's value in the plan.
  returned: always
  type: dict
  sample: {"compression_codec": "lz4", "shuffle_partitions": 4}
table:
  description: For O(step=report), the candidates' Markdown table, one row per comparison, then the margin and best.
  returned: when step is report
  type: list
  elements: str
report:
  description: For O(step=report), the lines of the results folder's report.md (candidates, runs, overhead, log).
  returned: when step is report
  type: list
  elements: str
plot_data:
  description: For O(step=report), C(margin) and one point per candidate (C(label), C(ratio), C(low), C(high), C(verdict)).
  returned: when step is report
  type: dict
verdict:
  description: For O(step=report), C(done), C(stop), C(runs), C(minutes), C(best), C(per_knob), C(winner_vars).
  returned: when step is report
  type: dict
winner_vars:
  description: For O(step=report), the group_vars of the winners only (empty when no knob beat the plan).
  returned: when step is report
  type: dict
  sample: {"spark_defaults_overrides": {"spark.io.compression.codec": "zstd"}}
proposal:
  description:
    - For O(step=report), the group_vars file to write, that is the winners merged into O(current_vars) (an override dict
      holds the user's other overrides too). Empty when no knob won.
  returned: when step is report
  type: dict
candidates:
  description:
    - For O(step=report), every compared candidate with its C(verdict), C(ratio), C(low), C(high), the C(spark_conf)
      and C(mr_conf) its runs passed, and C(group_vars), what would deploy it.
  returned: when step is report
  type: list
  elements: dict
summary:
  description: For O(step=report), one line per knob decision, then the best point and why the search stopped.
  returned: when step is report
  type: list
  elements: str
  sample: ["coarse pass, compression_codec: keeps compression_codec=zstd (ratio 1.252)",
           "Best: compression_codec=zstd (searched every knob, coarse then refine)."]
problems:
  description: For O(step=report), verdicts that do not follow from their interval and the margin (always empty).
  returned: when step is report
  type: list
  elements: str
"""

from ansible.module_utils.basic import AnsibleModule

from ansible_collections.bigdata.spark.plugins.module_utils import autotune as A
from ansible_collections.bigdata.spark.plugins.module_utils import autotune_run as R
from ansible_collections.bigdata.spark.plugins.module_utils.autotune_knobs import AutotuneError

NEEDS = {'start': ('plan_inputs', 'knobs', 'workloads', 'budget_minutes'), 'next': ('state',),
         'record': ('state', 'run_id'), 'report': ('state',), 'check_deployed': ('state', 'deployed')}


def _number(value):
    """Numbers given as text by Jinja (`-e autotune_budget_minutes=30`) as numbers; anything else as it is, for the
    core to name."""
    if isinstance(value, str):
        for kind in (int, float):
            try:
                return kind(value)
            except ValueError:
                continue
    return value


def _pending(state):
    block = state.get('block')
    if not block:
        return []
    return [r['id'] for r in block['runs'] if r['id'] not in block['recorded']]


def step(p):
    """The module's result for its parameters; raises AutotuneError."""
    missing = [name for name in NEEDS[p['step']] if p.get(name) is None]
    if missing:
        raise AutotuneError('%s: step %s needs it' % (', '.join(missing), p['step']))
    out = {'runs': [], 'progress': '', 'measured': None, 'why': '', 'workload_seconds': 0.0, 'opts_suffixes': {}}
    if p['step'] == 'start':
        knobs = R.knob_spec(p['knobs'], p['candidates'])
        state = A.start(R.plan_inputs(p['plan_inputs']), knobs, R.measured_workloads(p['workloads']),
                        _number(p['budget_minutes']), _number(p['seconds_per_run']), _number(p['repetitions']),
                        _number(p['margin']), _number(p['seed']), _number(p['resamples']), _number(p['confidence']))
    elif p['step'] == 'next':
        state, runs = A.next_runs(p['state'])
        out['runs'] = [dict(run, deploy_vars=R.merged_vars(p['current_vars'], run['cluster_vars']),
                            mr_conf=R.with_suffixes(run['mr_conf'], p['opts_suffixes'])) for run in runs]
        out['progress'] = out['runs'][0]['progress'] if out['runs'] else ''
    elif p['step'] == 'check_deployed':
        state = p['state']
        if p['compare']:
            R.check_deployed(p['deployed'])
        out['opts_suffixes'] = R.opts_suffixes(p['deployed'])
    elif p['step'] == 'record':
        state = p['state']
        measured, why = R.throughputs(p['result'], state['workloads'])
        state = A.record(state, p['run_id'], measured, p['seconds'])
        out['measured'], out['why'] = measured, why or ''
        out['workload_seconds'] = R.workload_seconds(p['result'])
    else:
        state = p['state']
        winners = A.winner_vars(state)
        plot = A.plot_data(state)
        out.update(table=A.table(state), report=R.report_lines(state, p['runs'], p['name']), plot_data=plot,
                   verdict=A.verdict(state), winner_vars=winners, proposal=R.merged_vars(p['current_vars'], winners),
                   candidates=R.candidates(state), problems=R.consistent(plot), summary=R.summary_lines(state))
    out.update(state=state, done=state['done'], stop=state['stop'], pending=_pending(state),
               start_values=state['start_values'])
    return out


def main():
    module = AnsibleModule(
        argument_spec=dict(
            step=dict(type='str', required=True, choices=['start', 'check_deployed', 'next', 'record', 'report']),
            state=dict(type='dict'),
            plan_inputs=dict(type='dict'),
            knobs=dict(type='list', elements='raw'),
            candidates=dict(type='dict', default={}),
            workloads=dict(type='list', elements='str'),
            budget_minutes=dict(type='raw'),
            seconds_per_run=dict(type='raw', default=120),
            repetitions=dict(type='raw', default=3),
            margin=dict(type='raw', default=1.03),
            confidence=dict(type='raw', default=0.95),
            resamples=dict(type='raw', default=2000),
            seed=dict(type='raw', default=0),
            deployed=dict(type='list', elements='dict'),
            compare=dict(type='bool', default=True),
            opts_suffixes=dict(type='dict', default={}),
            run_id=dict(type='int'),
            result=dict(type='dict'),
            seconds=dict(type='float'),
            current_vars=dict(type='dict', default={}),
            runs=dict(type='list', elements='dict', default=[]),
            name=dict(type='str', default='autotune'),
        ),
        supports_check_mode=True,
    )
    try:
        result = step(module.params)
    except AutotuneError as exc:
        module.fail_json(msg='autotune: %s' % exc)
    module.exit_json(changed=False, **result)


if __name__ == '__main__':
    main()
