# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Autotune: a budgeted coordinate-descent search over named knobs, with ABBA runs and bootstrap intervals.

Plain functions over plain values: no Ansible imports, no file or network access. A playbook drives it one
candidate at a time and keeps the state (a JSON-serialisable dict) in a file between runs:

    state = start(plan_inputs, knobs, workloads, budget_minutes, seconds_per_run, repetitions, margin)
    state, runs = next_runs(state)          # [] when the search is over
    state = record(state, run_id, {workload: throughput}, seconds)
    verdict(state), table(state), plot_data(state), winner_vars(state)

Invalid input raises AutotuneError naming the field and what is allowed. The method is in docs/autotune.md.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import copy
import math
import random

from ansible_collections.bigdata.spark.plugins.module_utils import autotune_knobs as K
from ansible_collections.bigdata.spark.plugins.module_utils.autotune_knobs import (  # noqa: F401 pylint: disable=unused-import
    KNOB_ORDER, KNOBS, AutotuneError)

VERSION = 1
PASSES = ('coarse', 'refine')
MAX_REPETITIONS = 50
MAX_RESAMPLES = 100000
MAX_MOVES = 4  # moves of one knob in one pass (each a win over the last)


# ---------------------------------------------------------------- statistics

def median(values):
    ordered = sorted(values)
    n = len(ordered)
    if not n:
        raise AutotuneError('median: no values')
    mid = n // 2
    return ordered[mid] if n % 2 else (ordered[mid - 1] + ordered[mid]) / 2.0


def ratio_of_medians(baseline, candidate, workloads):
    """Geometric mean over workloads of median(candidate) / median(baseline); runs are {workload: throughput}."""
    logs = [math.log(median([r[w] for r in candidate]) / median([r[w] for r in baseline])) for w in workloads]
    return math.exp(sum(logs) / len(logs))


def abba(repetitions):
    """The order of a comparison's runs: B C C B B C C B ... (repetitions of each)."""
    order = []
    for i in range(repetitions):
        order.extend(('baseline', 'candidate') if i % 2 == 0 else ('candidate', 'baseline'))
    return order


def bootstrap(baseline, candidate, workloads, seed=0, resamples=2000, confidence=0.95):
    """Percentile bootstrap interval of ratio_of_medians; runs are resampled whole, each side on its own.

    Deterministic for a seed. Returns {ratio, low, high, by_workload, spread}; spread is the lowest and highest
    ratio over every pair of runs, per workload (what bench_report.py ab prints).
    """
    rng = random.Random(seed)
    stats = []
    nb, nc = len(baseline), len(candidate)
    for _i in range(resamples):
        b = [baseline[rng.randrange(nb)] for _j in range(nb)]
        c = [candidate[rng.randrange(nc)] for _j in range(nc)]
        stats.append(ratio_of_medians(b, c, workloads))
    stats.sort()
    tail = (1 - confidence) / 2.0
    low = stats[int(math.floor(tail * (resamples - 1)))]
    high = stats[int(math.ceil((1 - tail) * (resamples - 1)))]
    by_workload = {}
    spread = {}
    for w in workloads:
        by_workload[w] = median([r[w] for r in candidate]) / median([r[w] for r in baseline])
        pairs = [c[w] / b[w] for b in baseline for c in candidate]
        spread[w] = [min(pairs), max(pairs)]
    return {'ratio': ratio_of_medians(baseline, candidate, workloads), 'low': low, 'high': high,
            'by_workload': by_workload, 'spread': spread}


# ---------------------------------------------------------------- checking the inputs

def _number(value, field, low, allowed):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value) or math.isinf(value):
        raise AutotuneError('%s: expected %s, got %r' % (field, allowed, value))
    if value < low:
        raise AutotuneError('%s: must be %s, got %r' % (field, allowed, value))
    return value


def _knobs(knobs):
    """[{'name', 'values'}] from ['executor_cores', ...] or {'executor_cores': {'values': [...]}, ...}."""
    allowed = ', '.join(KNOB_ORDER)
    if isinstance(knobs, dict):
        items = sorted(knobs.items(), key=lambda kv: KNOB_ORDER.index(kv[0]) if kv[0] in KNOBS else -1)
    elif isinstance(knobs, list):
        items = [(k, None) for k in knobs]
    else:
        raise AutotuneError('knobs: expected a list of knob names or a dict name -> {values: [...]}; allowed: %s'
                            % allowed)
    if not items:
        raise AutotuneError('knobs: empty; give at least one of: %s' % allowed)
    out = []
    for name, spec in items:
        if not isinstance(name, str) or name not in KNOBS:
            raise AutotuneError('knobs: unknown knob %r; allowed: %s' % (name, allowed))
        if name in [k['name'] for k in out]:
            raise AutotuneError('knobs: %s is given twice' % name)
        values = None
        if spec is not None:
            if not isinstance(spec, dict) or set(spec) - set(['values']):
                raise AutotuneError('knobs.%s: expected null or {values: [...]}, got %r' % (name, spec))
            values = spec.get('values')
            if values is not None:
                if not isinstance(values, list):
                    raise AutotuneError('knobs.%s.values: expected a list of candidate values, got %r' % (name, values))
                if not values:
                    raise AutotuneError('knobs.%s.values: empty candidate list; give at least one value, or leave '
                                        'values out to generate them around the plan' % name)
                values = [K.check_value(name, v, 'knobs.%s.values[%d]' % (name, i)) for i, v in enumerate(values)]
        out.append({'name': name, 'values': values})
    return out


def _workloads(workloads):
    if not isinstance(workloads, list) or not workloads:
        raise AutotuneError('workloads: expected a non-empty list of workload names (as benchmark_workloads)')
    for w in workloads:
        if not isinstance(w, str) or not w:
            raise AutotuneError('workloads: expected workload names as strings, got %r' % (w,))
    if len(set(workloads)) != len(workloads):
        raise AutotuneError('workloads: a workload is given twice: %s' % ', '.join(workloads))
    return list(workloads)


def _plan_inputs(plan_inputs):
    if not isinstance(plan_inputs, dict) or 'hosts' not in plan_inputs:
        raise AutotuneError('plan_inputs: expected a dict of plan() arguments with hosts; allowed keys: %s'
                            % ', '.join(K.PLAN_INPUTS))
    for key in plan_inputs:
        if key not in K.PLAN_INPUTS:
            raise AutotuneError('plan_inputs: unknown key %r; allowed: %s' % (key, ', '.join(K.PLAN_INPUTS)))
    return copy.deepcopy(plan_inputs)


# ---------------------------------------------------------------- the state machine

def start(plan_inputs, knobs, workloads, budget_minutes, seconds_per_run, repetitions=3, margin=1.03, seed=0,
          resamples=2000, confidence=0.95):
    """Check every input and every given candidate (through the planner) before anything runs; the new state."""
    inputs = _plan_inputs(plan_inputs)
    knob_list = _knobs(knobs)
    names = _workloads(workloads)
    budget = _number(budget_minutes, 'budget_minutes', 0, 'a number of minutes above 0')
    if budget <= 0:
        raise AutotuneError('budget_minutes: must be a number of minutes above 0, got %r' % (budget_minutes,))
    per_run = _number(seconds_per_run, 'seconds_per_run', 0, 'an estimate of the seconds one run takes, above 0')
    if per_run <= 0:
        raise AutotuneError('seconds_per_run: must be an estimate of the seconds one run takes, above 0, got %r'
                            % (seconds_per_run,))
    if isinstance(repetitions, bool) or not isinstance(repetitions, int) or not 2 <= repetitions <= MAX_REPETITIONS:
        raise AutotuneError('repetitions: expected a whole number from 2 to %d (runs of the baseline and of each '
                            'candidate, interleaved ABBA), got %r' % (MAX_REPETITIONS, repetitions))
    _number(margin, 'margin', 1, 'a ratio of at least 1, such as 1.03 (a candidate must be 3% faster)')
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise AutotuneError('seed: expected a whole number, got %r' % (seed,))
    if isinstance(resamples, bool) or not isinstance(resamples, int) or not 100 <= resamples <= MAX_RESAMPLES:
        raise AutotuneError('resamples: expected a whole number from 100 to %d, got %r' % (MAX_RESAMPLES, resamples))
    if isinstance(confidence, bool) or not isinstance(confidence, float) or not 0.5 <= confidence < 1:
        raise AutotuneError('confidence: expected a fraction from 0.5 to below 1, such as 0.95, got %r' % (confidence,))
    base = K.build(inputs, {})
    for knob in knob_list:
        for value in knob['values'] or []:
            K.build(inputs, {knob['name']: value}, knob=knob['name'])
    return {
        'version': VERSION,
        'plan_inputs': inputs, 'knobs': knob_list, 'workloads': names,
        'budget_seconds': float(budget) * 60, 'seconds_per_run': float(per_run), 'repetitions': repetitions,
        'margin': float(margin), 'seed': seed, 'resamples': resamples, 'confidence': confidence,
        'start_values': dict((k['name'], K.current_value(k['name'], base)) for k in knob_list),
        'best': {}, 'pass': 0, 'knob_index': 0, 'moves': 0, 'queue': None, 'pending': [],
        'block': None, 'comparisons': [], 'decisions': [], 'tried': [],
        'spent_seconds': 0.0, 'durations': [], 'next_id': 1, 'done': False, 'stop': '', 'log': [],
    }


def estimate_seconds(state):
    """Seconds per run: the median of the measured runs once two are measured, else the estimate given."""
    if len(state['durations']) >= 2:
        return median(state['durations'])
    return state['seconds_per_run']


def seconds_left(state):
    return state['budget_seconds'] - state['spent_seconds']


def _values(state, built):
    return dict((k['name'], K.current_value(k['name'], built)) for k in state['knobs'])


def _run(state, role, knob, value, point, built, start_built):
    diff = K.differences(start_built, built)
    run = {
        'id': state['next_id'], 'role': role, 'knob': knob, 'value': value, 'pass': PASSES[state['pass']],
        'point': point, 'values': _values(state, built),
        'scope': 'cluster' if diff['cluster_files'] else 'application',
        'spark_conf': diff['spark_conf'], 'mr_conf': diff['mr_conf'], 'cluster_files': diff['cluster_files'],
        'cluster_vars': K.group_vars(state['plan_inputs'], point, built) if diff['cluster_files'] else {},
    }
    state['next_id'] += 1
    return run


def _key(point):
    return K.describe(point)


def _fill_queue(state):
    """The candidates of the current knob around the current best (generated ones the planner refuses are
    skipped and logged; given ones were checked by start)."""
    knob = state['knobs'][state['knob_index']]
    name = knob['name']
    inputs = state['plan_inputs']
    built = K.build(inputs, state['best'])
    if knob['values'] is not None:
        values = [] if state['pass'] else list(knob['values'])
        values = [v for v in values if v != K.current_value(name, built)]
    else:
        values = []
        for value in K.generated(name, built, state['pass'] == 1):
            point = dict(state['best'], **{name: value})
            try:
                K.build(inputs, point, knob=name)
            except AutotuneError as exc:
                state['log'].append('skipped: %s' % exc)
                continue
            values.append(value)
    tried = [t[2] for t in state['tried'] if t[0] == _key(state['best']) and t[1] == name]
    # Values this knob moved away from in this pass lost to where it is now: not tried again.
    left = [d['from'] for d in state['decisions'] if d['pass'] == PASSES[state['pass']] and d['knob'] == name]
    state['queue'] = [v for v in values if v not in tried and v not in left]


def _decide_knob(state):
    """The knob's best candidate that cleared the margin becomes the new best; else the baseline stays."""
    knob = state['knobs'][state['knob_index']]['name']
    done = [c for c in state['comparisons'] if c['pass'] == PASSES[state['pass']] and c['knob'] == knob
            and c['baseline_point'] == state['best']]
    winners = [c for c in done if c['verdict'] == 'wins']
    if not done:
        return False
    decision = {'pass': PASSES[state['pass']], 'knob': knob, 'baseline_point': dict(state['best']),
                'from': K.current_value(knob, K.build(state['plan_inputs'], state['best'])),
                'tried': [c['value'] for c in done], 'winner': None}
    if winners:
        top = max(winners, key=lambda c: (c['ratio'], c['low']))
        decision['winner'] = top['value']
        decision['ratio'] = top['ratio']
        state['best'] = dict(top['point'])
        start_value = state['start_values'][knob]
        if top['value'] == start_value and knob != 'memory_per_core_mb':
            state['best'].pop(knob)  # back to the planner's own value
    state['decisions'].append(decision)
    state['log'].append('%s pass, %s: keeps %s' % (decision['pass'], knob, top_line(decision)))
    return decision['winner'] is not None


def top_line(decision):
    if decision['winner'] is None:
        return 'the baseline (no candidate cleared the margin)'
    return '%s=%s (ratio %.3f)' % (decision['knob'], decision['winner'], decision['ratio'])


def _advance(state):
    state['queue'] = None
    state['moves'] = 0
    state['knob_index'] += 1
    if state['knob_index'] >= len(state['knobs']):
        state['knob_index'] = 0
        state['pass'] += 1
        if state['pass'] >= len(PASSES):
            state['pass'] = len(PASSES) - 1
            _finish(state, 'searched every knob, coarse then refine')


def _finish(state, why):
    state['done'] = True
    state['stop'] = why
    state['log'].append('done: %s; best: %s' % (why, K.describe(state['best'])))


def next_runs(state):
    """(state, runs): the runs still to do for the current candidate, or those of the next one; [] when done.

    A run: id, role (baseline or candidate), knob, value, pass, point, values (every knob's value), scope
    ('application': pass spark_conf as --conf and mr_conf as -D; 'cluster': deploy cluster_vars with site.yml
    first), spark_conf, mr_conf, cluster_files, cluster_vars, progress.
    """
    state = copy.deepcopy(state)
    if state['done']:
        return state, []
    if state['block'] is not None:
        recorded = set(state['block']['recorded'])
        return state, [r for r in state['block']['runs'] if r['id'] not in recorded]
    while True:
        if state['queue'] is None:
            _fill_queue(state)
        if state['queue']:
            break
        if _decide_knob(state) and state['moves'] + 1 < MAX_MOVES:
            # A line search: the knob that moved is tried again around its new value before the next knob.
            state['moves'] += 1
            state['queue'] = None
            continue
        _advance(state)
        if state['done']:
            return state, []
    cost = 2 * state['repetitions'] * estimate_seconds(state)
    if cost > seconds_left(state):
        _decide_knob(state)
        _finish(state, 'budget: the next candidate needs about %.0f s, %.0f s are left' % (cost, seconds_left(state)))
        return state, []
    name = state['knobs'][state['knob_index']]['name']
    value = state['queue'].pop(0)
    inputs = state['plan_inputs']
    start_built = K.build(inputs, {})
    base_point = dict(state['best'])
    cand_point = dict(base_point, **{name: value})
    base_built = K.build(inputs, base_point)
    cand_built = K.build(inputs, cand_point, knob=name)
    runs = []
    for role in abba(state['repetitions']):
        if role == 'baseline':
            runs.append(_run(state, role, name, value, base_point, base_built, start_built))
        else:
            runs.append(_run(state, role, name, value, cand_point, cand_built, start_built))
    total = len(state['knobs'])
    line = ('%s pass, knob %d/%d %s=%s against %s: %d runs of about %.0f s; %.1f of %.1f min left'
            % (PASSES[state['pass']], state['knob_index'] + 1, total, name, value, K.describe(base_point),
               len(runs), estimate_seconds(state), seconds_left(state) / 60.0, state['budget_seconds'] / 60.0))
    for run in runs:
        run['progress'] = line
    state['log'].append(line)
    state['tried'].append([_key(base_point), name, value])
    state['block'] = {'knob': name, 'value': value, 'baseline_point': base_point, 'point': cand_point,
                      'runs': runs, 'recorded': [], 'results': {}}
    return state, runs


def _throughputs(state, value, field):
    if value is None:
        return None
    if not isinstance(value, dict):
        raise AutotuneError('%s: expected a dict workload -> throughput (or null for a failed run), got %r'
                            % (field, value))
    out = {}
    for w in state['workloads']:
        if w not in value:
            raise AutotuneError('%s: no throughput for workload %s; every run needs: %s'
                                % (field, w, ', '.join(state['workloads'])))
        out[w] = _number(value[w], '%s.%s' % (field, w), 0, 'a throughput above 0')
        if out[w] <= 0:
            raise AutotuneError('%s.%s: must be a throughput above 0, got %r' % (field, w, value[w]))
    return out


def record(state, run_id, throughput_by_workload, seconds=None):
    """The state with one run's result; None as the throughput marks a failed run (the candidate fails).

    seconds: how long the run took (its wall time, with any redeploy); the estimate is charged when not given.
    """
    state = copy.deepcopy(state)
    block = state['block']
    if block is None:
        raise AutotuneError('run_id: %r is not pending; call next_runs first' % (run_id,))
    ids = [r['id'] for r in block['runs']]
    if run_id not in ids or run_id in block['recorded']:
        raise AutotuneError('run_id: %r is not pending; pending: %s' % (
            run_id, ', '.join(str(i) for i in ids if i not in block['recorded']) or 'none'))
    result = _throughputs(state, throughput_by_workload, 'throughput_by_workload')
    if seconds is not None:
        seconds = _number(seconds, 'seconds', 0, 'the seconds the run took, 0 or more')
        state['durations'].append(float(seconds))
    state['spent_seconds'] += float(seconds if seconds is not None else estimate_seconds(state))
    block['recorded'].append(run_id)
    block['results'][str(run_id)] = result
    if result is None or len(block['recorded']) == len(block['runs']):
        _close(state)
    return state


def _close(state):
    block = state['block']
    runs = dict((r['id'], r) for r in block['runs'])
    base, cand = [], []
    failed = False
    for run_id in block['recorded']:
        result = block['results'][str(run_id)]
        if result is None:
            failed = True
            continue
        (base if runs[run_id]['role'] == 'baseline' else cand).append(result)
    entry = {'pass': PASSES[state['pass']], 'knob': block['knob'], 'value': block['value'],
             'baseline_point': block['baseline_point'], 'point': block['point'],
             'baseline': base, 'candidate': cand, 'runs': len(block['recorded'])}
    if failed or not base or not cand:
        entry.update({'verdict': 'failed', 'ratio': None, 'low': None, 'high': None, 'spread': {}})
    else:
        stats = bootstrap(base, cand, state['workloads'], state['seed'], state['resamples'], state['confidence'])
        entry.update(stats)
        entry['verdict'] = 'wins' if stats['low'] > state['margin'] else 'baseline stays'
    state['comparisons'].append(entry)
    state['block'] = None
    if entry['ratio'] is None:
        state['log'].append('%s=%s: a run failed; the baseline stays' % (block['knob'], block['value']))
    else:
        state['log'].append('%s=%s: ratio %.3f, %d%% interval %.3f-%.3f, margin %.2f: %s' % (
            block['knob'], block['value'], entry['ratio'], round(100 * state['confidence']), entry['low'],
            entry['high'], state['margin'], entry['verdict']))


# ---------------------------------------------------------------- outputs

def winner_vars(state):
    """group_vars for the winners only: bigdata_plan_executor_cores, spark_defaults_overrides,
    mapred_site_overrides (a rerun of site.yml with them changes only what won)."""
    best = state['best']
    return K.group_vars(state['plan_inputs'], best, K.build(state['plan_inputs'], best))


def verdict(state):
    """The search's outcome: done, why it stopped, runs and minutes spent, the best point, each knob's verdict."""
    per_knob = []
    for d in state['decisions']:
        per_knob.append({'pass': d['pass'], 'knob': d['knob'], 'tried': d['tried'], 'winner': d['winner'],
                         'verdict': top_line(d)})
    return {
        'done': state['done'], 'stop': state['stop'],
        'runs': sum(c['runs'] for c in state['comparisons']),
        'minutes': round(state['spent_seconds'] / 60.0, 2),
        'start': K.describe({}), 'best': dict(state['best']), 'best_text': K.describe(state['best']),
        'per_knob': per_knob, 'winner_vars': winner_vars(state),
    }


def table(state):
    """Lines of a Markdown table: one per candidate compared, with its runs, spread and verdict."""
    lines = ['| pass | knob | candidate | against | runs | ratio | %d%% interval | spread (per workload) | verdict |'
             % round(100 * state['confidence']),
             '| --- | --- | --- | --- | --- | --- | --- | --- | --- |']
    for c in state['comparisons']:
        if c['ratio'] is None:
            ratio = interval = spread = '-'
        else:
            ratio = '%.3f' % c['ratio']
            interval = '%.3f-%.3f' % (c['low'], c['high'])
            spread = ', '.join('%s %.2f-%.2f' % (w, s[0], s[1]) for w, s in sorted(c['spread'].items()))
        lines.append('| %s | %s | %s | %s | %d | %s | %s | %s | %s |' % (
            c['pass'], c['knob'], c['value'], K.describe(c['baseline_point']), c['runs'], ratio, interval, spread,
            c['verdict']))
    lines.append('')
    lines.append('Margin %.2f; %s; best: %s.'
                 % (state['margin'], state['stop'] or 'not finished', K.describe(state['best'])))
    return lines


def plot_data(state):
    """One point per candidate: label, ratio and interval (the margin is the line to clear)."""
    return {'margin': state['margin'], 'points': [
        {'label': '%s %s=%s' % (c['pass'], c['knob'], c['value']), 'ratio': c['ratio'], 'low': c['low'],
         'high': c['high'], 'verdict': c['verdict']} for c in state['comparisons']]}
