# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Where a Spark workload's time went, from the application's event log: GC, spill and shuffle per workload.

Usage: bench_events.py EVENT_LOG RUN_DIR [RUN_DIR ...]
  EVENT_LOG  the benchmark application's Spark event log (JSON lines, as spark.eventLog.dir keeps it;
             `hdfs dfs -get /spark-logs/<application id>` fetches it)
  RUN_DIR    the benchmark run's folder (its result.json gives each workload's phases and times)

Prints one line per workload of each run whose timed phase overlaps the log's tasks: tasks, task seconds,
JVM GC seconds and share, memory and disk spill, shuffle written. A workload that loses to another profile
while its GC share or spill is high is short of executor memory; one with neither waits on something else.
"""

import json
import os
import sys


def task_ends(lines):
    """(launch s, finish s, metrics) of every finished task in an event log's lines."""
    out = []
    for line in lines:
        line = line.strip()
        if not line or '"SparkListenerTaskEnd"' not in line:
            continue
        event = json.loads(line)
        info = event.get("Task Info") or {}
        metrics = event.get("Task Metrics") or {}
        if not info or not metrics:
            continue
        out.append((info.get("Launch Time", 0) / 1000.0, info.get("Finish Time", 0) / 1000.0, metrics))
    return out


def summarise(tasks, start, end):
    """Sums over the tasks that started within [start, end] (seconds since the epoch)."""
    picked = [m for launch, _finish, m in tasks if start <= launch <= end]
    run_ms = sum(m.get("Executor Run Time", 0) for m in picked)
    gc_ms = sum(m.get("JVM GC Time", 0) for m in picked)
    return {
        "tasks": len(picked),
        "task_s": round(run_ms / 1000.0, 2),
        "gc_s": round(gc_ms / 1000.0, 2),
        "gc_share": round(gc_ms / float(run_ms), 3) if run_ms else None,
        "spill_memory_mb": round(sum(m.get("Memory Bytes Spilled", 0) for m in picked) / 1e6, 1),
        "spill_disk_mb": round(sum(m.get("Disk Bytes Spilled", 0) for m in picked) / 1e6, 1),
        "shuffle_written_mb": round(sum((m.get("Shuffle Write Metrics") or {}).get("Shuffle Bytes Written", 0)
                                        for m in picked) / 1e6, 1),
    }


def timed_phase(workload):
    """(start, end) of the workload's timed phase: the mark of the phase its duration_s measures."""
    marks = workload.get("marks") or []
    if not marks:
        return None
    timed = [m for m in marks if abs((m["end"] - m["start"]) - workload.get("duration_s", -1)) < 0.01]
    mark = timed[0] if timed else marks[0]
    return mark["start"], mark["end"]


def report(event_lines, results):
    """results: [(run name, result dict)] -> lines of the table."""
    tasks = task_ends(event_lines)
    rows = ["%-34s %-10s %6s %8s %7s %6s %10s %10s %10s" % ("run", "workload", "tasks", "task s", "GC s", "GC %",
                                                            "spill mem", "spill disk", "shuffle MB")]
    for run, result in results:
        for w in result.get("workloads", []):
            span = timed_phase(w)
            if span is None:
                continue
            s = summarise(tasks, span[0], span[1])
            if not s["tasks"]:
                continue
            rows.append("%-34s %-10s %6d %8.2f %7.2f %6s %10.1f %10.1f %10.1f" % (
                run, w["workload"], s["tasks"], s["task_s"], s["gc_s"],
                "%.1f" % (100 * s["gc_share"]) if s["gc_share"] is not None else "-",
                s["spill_memory_mb"], s["spill_disk_mb"], s["shuffle_written_mb"]))
    return rows


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    with open(argv[1]) as fh:
        lines = fh.readlines()
    results = []
    for run_dir in argv[2:]:
        with open(os.path.join(run_dir, "result.json")) as fh:
            results.append((os.path.basename(os.path.abspath(run_dir)), json.load(fh)))
    print("\n".join(report(lines, results)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
