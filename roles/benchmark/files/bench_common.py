# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""What bench_spark.py and bench_mr.py share: the progress log, the results file and the phase timer.

Copied next to them on the submitting node; they import it from their own directory.
"""
import json
import time

PATHS = {"results": None, "progress": None}


def configure(results, progress_log):
    """Name the results file (one JSON object a workload) and the progress log."""
    PATHS["results"], PATHS["progress"] = results, progress_log


def progress(workload, phase, started):
    """One line 'HH:MM:SS workload=W phase=P elapsed=Ns' to the progress log and standard output."""
    line = "%s workload=%s phase=%s elapsed=%.1fs" % (time.strftime("%H:%M:%S"), workload, phase,
                                                      time.time() - started)
    if PATHS["progress"]:
        with open(PATHS["progress"], "a") as fh:
            fh.write(line + "\n")
    print(line, flush=True)


def emit(result):
    """Append one workload's result to the results file."""
    with open(PATHS["results"], "a") as fh:
        fh.write(json.dumps(result, sort_keys=True) + "\n")


class Timer(object):
    """Times the named phases of one workload and reports each phase's start as progress."""

    def __init__(self, workload):
        self.workload = workload
        self.start = time.time()
        self.phases = {}
        self.marks = []

    def phase(self, name, func, *args):
        progress(self.workload, name, self.start)
        t0 = time.time()
        value = func(*args)
        self.phases[name] = round(time.time() - t0, 3)
        self.marks.append({"phase": name, "start": t0, "end": time.time()})
        return value
