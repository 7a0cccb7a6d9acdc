# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Where a molecule scenario's minutes went, from its log with a time stamp on every line.

Usage: step_times.py LOG [--min-task-seconds N]

tests/run-all.sh writes each scenario's log as "HH:MM:SS <line>" (bash's printf %(%T)T, no fork per
line) and calls this at the end: one line per molecule step (create, converge, idempotence, verify, ...)
with its seconds, and under each step the tasks that took at least N seconds (default 30), so the test
budget shows what to cut. A task's time runs from its "TASK [...]" line to the next one (or the step's end).
"""
import argparse
import re
import sys

STAMP = re.compile(r'^(\d\d):(\d\d):(\d\d) (.*)$')
STEP = re.compile(r'^INFO\s+\[(?P<scenario>[^\]>]+?) > (?P<step>[^\]]+)\] (?P<what>Executing|Executed)')
TASK = re.compile(r'^TASK \[(?P<name>.*)\] \**$')


def parse(lines):
    """Steps of a time-stamped molecule log: [{'scenario', 'step', 'seconds', 'tasks': [(name, seconds)]}].
    Times wrap at midnight (a run is shorter than a day)."""
    steps = []
    current = None
    task = None
    day = 0
    last = None
    for raw in lines:
        m = STAMP.match(raw.rstrip('\n'))
        if not m:
            continue
        secs = int(m.group(1)) * 3600 + int(m.group(2)) * 60 + int(m.group(3))
        if last is not None and secs + day < last:
            day += 86400
        secs += day
        last = secs
        text = m.group(4)
        s = STEP.match(text)
        if s and s.group('what') == 'Executing':
            current = {'scenario': s.group('scenario').strip(), 'step': s.group('step').strip(), 'start': secs,
                       'seconds': None, 'tasks': []}
            steps.append(current)
            task = None
            continue
        if s and current is not None and s.group('step').strip() == current['step']:
            if task:
                current['tasks'].append((task[0], secs - task[1]))
            current['seconds'] = secs - current['start']
            current = None
            task = None
            continue
        t = TASK.match(text)
        if t and current is not None:
            if task:
                current['tasks'].append((task[0], secs - task[1]))
            task = (t.group('name'), secs)
    for step in steps:
        del step['start']
    return steps


def report(steps, min_task_seconds=30):
    out = []
    for step in steps:
        took = 'unfinished' if step['seconds'] is None else '%d s' % step['seconds']
        out.append('%s %-12s %s' % (step['scenario'], step['step'], took))
        for name, secs in step['tasks']:
            if secs >= min_task_seconds:
                out.append('    %5d s  %s' % (secs, name))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('log')
    ap.add_argument('--min-task-seconds', type=int, default=30)
    args = ap.parse_args(argv)
    with open(args.log, errors='replace') as fh:
        steps = parse(fh)
    if not steps:
        print('step_times: no time-stamped molecule steps in %s' % args.log, file=sys.stderr)
        return 1
    print('\n'.join(report(steps, args.min_task_seconds)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
