"""bench_events.py: GC, spill and shuffle per workload from a Spark event log, on a small made-up log."""

from __future__ import annotations

import importlib.util
import json
import pathlib

FILES = pathlib.Path(__file__).resolve().parents[3] / "roles" / "benchmark" / "files"
_spec = importlib.util.spec_from_file_location("bench_events", FILES / "bench_events.py")
be = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(be)


def _task(launch_s, run_ms, gc_ms, spill_mem=0, spill_disk=0, shuffle=0):
    return json.dumps({"Event": "SparkListenerTaskEnd",
                       "Task Info": {"Launch Time": int(launch_s * 1000), "Finish Time": int(launch_s * 1000) + run_ms},
                       "Task Metrics": {"Executor Run Time": run_ms, "JVM GC Time": gc_ms,
                                        "Memory Bytes Spilled": spill_mem, "Disk Bytes Spilled": spill_disk,
                                        "Shuffle Write Metrics": {"Shuffle Bytes Written": shuffle}}})


LOG = [
    json.dumps({"Event": "SparkListenerApplicationStart", "App Name": "bigdata-benchmark"}),
    _task(100.5, 2000, 500, spill_mem=3_000_000, spill_disk=1_000_000, shuffle=5_000_000),  # terasort's sort
    _task(101.0, 2000, 100, shuffle=5_000_000),                                             # terasort's sort
    _task(95.0, 9000, 9000),                                                                # generation: outside
    _task(200.0, 1000, 0),                                                                  # wordcount
    "",
]
RESULT = {"workloads": [
    {"workload": "terasort", "duration_s": 10.0,
     "marks": [{"phase": "generate", "start": 90.0, "end": 99.0}, {"phase": "sort", "start": 100.0, "end": 110.0}]},
    {"workload": "wordcount", "duration_s": 5.0, "marks": [{"phase": "count", "start": 199.0, "end": 204.0}]},
    {"workload": "testdfsio", "duration_s": 3.0, "marks": [{"phase": "write", "start": 300.0, "end": 303.0}]},
]}


def test_summarise_counts_only_the_timed_phase():
    s = be.summarise(be.task_ends(LOG), 100.0, 110.0)
    assert s == {"tasks": 2, "task_s": 4.0, "gc_s": 0.6, "gc_share": 0.15, "spill_memory_mb": 3.0,
                 "spill_disk_mb": 1.0, "shuffle_written_mb": 10.0}


def test_timed_phase_is_the_measured_mark():
    assert be.timed_phase(RESULT["workloads"][0]) == (100.0, 110.0)
    assert be.timed_phase({"duration_s": 1.0, "marks": []}) is None


def test_report_has_a_line_per_workload_with_tasks(tmp_path):
    rows = be.report(LOG, [("r1-default", RESULT)])
    assert rows[0].split()[:3] == ["run", "workload", "tasks"]
    body = [r.split() for r in rows[1:]]
    assert [r[1] for r in body] == ["terasort", "wordcount"]  # testdfsio had no Spark task
    assert body[0][2:6] == ["2", "4.00", "0.60", "15.0"]


def test_main_reads_the_files(tmp_path, capsys):
    log = tmp_path / "app.log"
    log.write_text("\n".join(LOG))
    run = tmp_path / "r1"
    run.mkdir()
    (run / "result.json").write_text(json.dumps(RESULT))
    assert be.main(["bench_events.py", str(log), str(run)]) == 0
    assert "terasort" in capsys.readouterr().out
    assert be.main(["bench_events.py"]) == 2
