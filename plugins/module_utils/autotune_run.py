# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Autotune's glue to the playbook: the knobs as the role's variables give them, throughputs from a benchmark run's
result.json, the group_vars a deploy or the proposal writes, each candidate's settings, the runs' table.

Plain functions over plain values: no Ansible imports, no file or network access. The search is in autotune.py.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import math
import xml.etree.ElementTree as ET

from ansible_collections.bigdata.spark.plugins.module_utils import autotune as A
from ansible_collections.bigdata.spark.plugins.module_utils import autotune_knobs as K
from ansible_collections.bigdata.spark.plugins.module_utils.autotune_knobs import AutotuneError
from ansible_collections.bigdata.spark.plugins.module_utils.hadoop_conf import (
    HadoopConfError, merge_conf, parse_hadoop_xml, parse_spark_conf, to_conf_value)

# The variables a winner or a cluster-scope candidate is written to (autotune_knobs' `writes`).
OVERRIDE_VARS = ('spark_defaults_overrides', 'mapred_site_overrides')
OPTION_VARS = ('bigdata_plan_executor_cores',)
# A benchmark workload that result.json reports under other names (TestDFSIO writes, then reads).
MEASURED = {'testdfsio': ('testdfsio_write', 'testdfsio_read')}


def plan_inputs(inputs):
    """plan()'s arguments from bigdata_plan_inputs (resource_plan.yml's, as the resource_plan module gets them):
    null values left out, whole numbers given as text (`-e bigdata_plan_executor_cores=3`) as numbers, as the
    module's option types make them."""
    if not isinstance(inputs, dict):
        raise AutotuneError('plan_inputs: expected bigdata_plan_inputs, a dict of the planner\'s arguments, got %r'
                            % (inputs,))
    out = {}
    for key, value in inputs.items():
        if value is None:
            continue
        if key in ('executor_cores', 'shuffle_data_bytes') and isinstance(value, str) and value.strip().isdigit():
            value = int(value)
        out[key] = value
    return out


def read_conf(name, text):
    """{property: value} of a deployed spark-defaults.conf (`key value` lines) or *-site.xml."""
    if name.endswith('.xml'):
        try:
            found = parse_hadoop_xml(text)
        except ET.ParseError as exc:
            raise AutotuneError('deployed: %s is not XML: %s' % (name, exc))
        return dict((key, (value or '').strip()) for key, value in found.items())
    return parse_spark_conf(text)


def _is_opts(key):
    return key.endswith(('.java.opts', '.command-opts'))


def _same(key, found, planned):
    """A deployed value is the planned one; JVM options may carry more after it (on Java 17 the yarn role appends
    hadoop_java17_add_opens to the tasks' and the AM's options)."""
    return found == planned or (_is_opts(key) and found.startswith(planned + ' '))


def opts_suffixes(files):
    """{key: what the deployed JVM options carry after the planned ones}: a run's -D of those options must carry
    it too (the --add-opens a Java 17 task needs)."""
    out = {}
    for f in files:
        planned = merge_conf(f.get('computed'), f.get('overrides'))
        found = read_conf(f['name'], f['text'])
        for key, value in planned.items():
            value = to_conf_value(value, key)
            if _is_opts(key) and key in found and found[key].startswith(value + ' '):
                out[key] = found[key][len(value):].strip()
    return out


def with_suffixes(conf, suffixes):
    """A run's MapReduce -D settings with the deployed suffix of each JVM option they set."""
    return dict((k, ('%s %s' % (v, suffixes[k])) if k in (suffixes or {}) else v) for k, v in conf.items())


def deployed_differences(files, limit=6):
    """Where the deployed files differ from the plan the search starts from (the roles' computed values with the
    user's overrides): one sentence per file, values that differ first; files: [{name, host, computed, overrides,
    text}]."""
    out = []
    for f in files:
        try:
            planned = merge_conf(f.get('computed'), f.get('overrides'))
            planned = dict((k, to_conf_value(v, k)) for k, v in planned.items())
        except HadoopConfError as exc:
            raise AutotuneError('deployed: %s' % exc)
        found = read_conf(f['name'], f['text'])
        differ = ['%s %s (plan %s)' % (k, found[k], planned[k]) for k in sorted(planned)
                  if k in found and not _same(k, found[k], planned[k])]
        missing = ['%s not set (plan %s)' % (k, planned[k]) for k in sorted(planned) if k not in found]
        items = differ + missing
        if items:
            more = ', and %d more' % (len(items) - limit) if len(items) > limit else ''
            out.append('%s on %s: %s%s' % (f['name'], f['host'], ', '.join(items[:limit]), more))
    return out


def check_deployed(files):
    """AutotuneError when the cluster does not run the plan the search starts from."""
    found = deployed_differences(files)
    if found:
        raise AutotuneError('deployed: the cluster does not run the plan this search starts from (%s); deploy it with '
                            'playbooks/site.yml and the same bigdata_plan_* variables first, or give autotune those the '
                            'cluster was deployed with' % '; '.join(found))


def knob_spec(knobs, candidates):
    """The core's knobs argument from autotune_knobs (names, in order) and autotune_candidates (name -> values)."""
    if not isinstance(knobs, list):
        raise AutotuneError('knobs: expected a list of knob names; allowed: %s' % ', '.join(K.KNOB_ORDER))
    candidates = candidates or {}
    if not isinstance(candidates, dict):
        raise AutotuneError('candidates: expected a dict knob -> list of values, got %r' % (candidates,))
    for name in candidates:
        if name not in knobs:
            raise AutotuneError('candidates: %r is not in knobs (%s); candidates are given for searched knobs only'
                                % (name, ', '.join(str(k) for k in knobs) or 'none'))
    if not candidates:
        return list(knobs)
    out = {}
    for name in knobs:
        if not isinstance(name, str):
            raise AutotuneError('knobs: unknown knob %r; allowed: %s' % (name, ', '.join(K.KNOB_ORDER)))
        if name in out:
            raise AutotuneError('knobs: %s is given twice' % name)
        out[name] = {'values': candidates[name]} if name in candidates else None
    return out


def measured_workloads(workloads):
    """The names result.json reports for the benchmark workloads (testdfsio: its write and its read)."""
    out = []
    for name in workloads:
        out.extend(MEASURED.get(name, (name,)))
    return out


def throughputs(result, workloads):
    """({workload: throughput_bytes_s}, None) from a run's result.json, or (None, why) for a failed run."""
    if not isinstance(result, dict) or not isinstance(result.get('workloads'), list):
        return None, 'no result.json with workloads'
    if not result.get('validations_passed', False):
        return None, 'a validation failed'
    found = dict((w.get('workload'), w.get('throughput_bytes_s')) for w in result['workloads'] if isinstance(w, dict))
    out = {}
    for name in workloads:
        value = found.get(name)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
            return None, 'no throughput for %s' % name
        out[name] = float(value)
    return out, None


def workload_seconds(result):
    """Seconds the workloads themselves took (their timers' sum), 0 without a result."""
    if not isinstance(result, dict):
        return 0.0
    return float(sum(w.get('duration_s') or 0 for w in result.get('workloads') or [] if isinstance(w, dict)))


def merged_vars(current, changes):
    """The group_vars to deploy: changes' overrides merged into the current ones (a group's variable replaces an
    `all` one, so the user's other overrides are carried along); options as changes give them."""
    current = current or {}
    out = {}
    for name, value in sorted((changes or {}).items()):
        if name in OVERRIDE_VARS:
            merged = dict(current.get(name) or {})
            merged.update(value)
            out[name] = merged
        elif name in OPTION_VARS:
            out[name] = value
        else:
            raise AutotuneError('changes: %r is not a variable autotune writes; allowed: %s'
                                % (name, ', '.join(OPTION_VARS + OVERRIDE_VARS)))
    return out


def candidates(state):
    """Every compared candidate: label, verdict, ratio and interval, and how it differs from the start (the
    Spark --conf and MapReduce -D the runs passed, the cluster files) and the group_vars that would deploy it."""
    inputs = state['plan_inputs']
    start = K.build(inputs, {})
    out = []
    for c in state['comparisons']:
        built = K.build(inputs, c['point'])
        diff = K.differences(start, built)
        out.append({
            'label': '%s %s=%s' % (c['pass'], c['knob'], c['value']), 'knob': c['knob'], 'value': c['value'],
            'against': K.describe(c['baseline_point']), 'point': c['point'], 'verdict': c['verdict'],
            'ratio': c['ratio'], 'low': c['low'], 'high': c['high'], 'runs': c['runs'],
            'spark_conf': diff['spark_conf'], 'mr_conf': diff['mr_conf'], 'cluster_files': diff['cluster_files'],
            'group_vars': K.group_vars(inputs, c['point'], built),
        })
    return out


def _fmt(value, pattern='%.1f'):
    return '-' if value is None else pattern % value


def runs_table(runs):
    """Lines of a Markdown table of the runs (wall time, the workloads' own time, the overhead between them) and a
    line with the median overhead."""
    lines = ['| run | role | comparison | wall s | workloads s | overhead s | deploy s | throughput (MB/s) | result |',
             '| --- | --- | --- | --- | --- | --- | --- | --- | --- |']
    overheads = []
    for r in runs:
        tp = r.get('throughput') or {}
        shown = ', '.join('%s %.2f' % (w, v / 1e6) for w, v in sorted(tp.items())) or '-'
        if r.get('overhead_seconds') is not None and not r.get('failed'):
            overheads.append(r['overhead_seconds'])
        lines.append('| %s | %s | %s=%s | %s | %s | %s | %s | %s | %s |' % (
            r.get('id'), r.get('role'), r.get('knob'), r.get('value'), _fmt(r.get('seconds')),
            _fmt(r.get('workload_seconds')), _fmt(r.get('overhead_seconds')), _fmt(r.get('deploy_seconds')), shown,
            'failed: %s' % r.get('why') if r.get('failed') else r.get('dir', '')))
    lines.append('')
    if overheads:
        lines.append('Overhead per run (wall time outside the workloads\' timers: Ansible\'s tasks, the samplers, '
                     'spark-submit and YARN start-up, the report): median %.1f s, %.1f-%.1f s over %d runs.'
                     % (A.median(overheads), min(overheads), max(overheads), len(overheads)))
    else:
        lines.append('Overhead per run: no run finished.')
    return lines


def report_lines(state, runs, name):
    """The results folder's report.md: the search's verdict, the candidates' table, the runs' table."""
    verdict = A.verdict(state)
    won = [d for d in verdict['per_knob'] if d['winner'] is not None]
    lines = ['# Autotune %s' % name, '',
             'Workloads %s; %d runs in %.1f min; %s.' % (', '.join(state['workloads']), verdict['runs'],
                                                         verdict['minutes'], state['stop'] or 'not finished'),
             '', 'Start: the plan (%s).' % ', '.join('%s=%s' % (k, v) for k, v in sorted(state['start_values'].items())),
             'Best: %s.' % verdict['best_text'], '']
    if won:
        lines.append('Winners: %s.' % '; '.join('%s pass %s' % (d['pass'], d['verdict']) for d in won))
    else:
        lines.append('No knob beat the plan by more than the margin (%.2f): the proposal is empty.' % state['margin'])
    lines += ['', '## Candidates', ''] + A.table(state) + ['', '![ratios](ratios.png)', '', '## Runs', '']
    lines += runs_table(runs)
    lines += ['', '## Log', ''] + ['- %s' % line for line in state['log']]
    return lines


def summary_lines(state):
    """One line per knob decision ('coarse pass, compression_codec: keeps ...'), then the best point."""
    lines = ['%s pass, %s: keeps %s' % (d['pass'], d['knob'], d['verdict']) for d in A.verdict(state)['per_knob']]
    lines.append('Best: %s (%s).' % (K.describe(state['best']), state['stop'] or 'not finished'))
    return lines


def consistent(plot):
    """Problems in plot_data: a verdict that does not follow from the interval and margin (for tests)."""
    problems = []
    for p in plot['points']:
        if p['verdict'] == 'failed':
            continue
        if not (p['low'] <= p['ratio'] <= p['high']) or any(math.isnan(p[k]) for k in ('low', 'ratio', 'high')):
            problems.append('%s: ratio %r outside %r-%r' % (p['label'], p['ratio'], p['low'], p['high']))
        wins = p['low'] > plot['margin']
        if wins != (p['verdict'] == 'wins'):
            problems.append('%s: verdict %s with low %.3f and margin %.2f'
                            % (p['label'], p['verdict'], p['low'], plot['margin']))
    return problems
