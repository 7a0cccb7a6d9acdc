# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""The benchmark role's controller side: query translation, answer comparison, rates, report files, ratios."""

from __future__ import annotations

import decimal
import importlib.util
import io
import json
import pathlib

import pytest

FILES = pathlib.Path(__file__).resolve().parents[3] / "roles" / "benchmark" / "files"
_spec = importlib.util.spec_from_file_location("bench_report", FILES / "bench_report.py")
br = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(br)


@pytest.mark.parametrize("sql, want", [
    ('select a as "x y" from t', "select a as `x y` from t"),
    ("select 'say \"hi\"' as \"q\" from t", "select 'say \"hi\"' as `q` from t"),
    ("select 'it''s' from t", "select 'it''s' from t"),
    ("select 1", "select 1"),
])
def test_spark_sql_text_turns_double_quoted_names_into_backticks(sql, want):
    assert br.spark_sql_text(sql) == want


@pytest.mark.parametrize("value, want", [
    (None, "NULL"), (True, "true"), (3, "3.00"), (2.345678, "2.35"), (decimal.Decimal("10.5"), "10.50"),
    ("abc  ", "abc"), ("1998-01-02", "1998-01-02"), ("12.5", "12.50"),
])
def test_canonical(value, want):
    assert br.canonical(value) == want


def test_compare_answers_ignores_row_order_and_last_digit_rounding():
    assert br.compare_answers([["b", "2.00"], ["a", "1.01"]], [["a", "1.00"], ["b", "2.00"]]) == (True, "")


@pytest.mark.parametrize("got, want, reason", [
    ([["a"]], [["a"], ["b"]], "1 rows, DuckDB has 2"),
    ([["a", "1.00"]], [["a", "1.50"]], "row 0 differs"),
    ([["a"]], [["b"]], "row 0 differs"),
])
def test_compare_answers_reports_differences(got, want, reason):
    same, why = br.compare_answers(got, want)
    assert not same and why.startswith(reason)


def _sample(t, busy, idle, rd=0, wr=0, rx=0, tx=0, energy=None):
    s = {"t": t, "cpu_total": busy + idle, "cpu_idle": idle, "mem_total": 1000, "mem_available": 250,
         "disk_read": rd, "disk_write": wr, "net_rx": rx, "net_tx": tx}
    if energy is not None:
        s["energy_uj"] = energy
    return s


def test_rates_from_counters():
    rows = br.rates([_sample(0, 0, 0, energy=0), _sample(2, 75, 25, 4e6, 2e6, 1e6, 3e6, energy=100e6)])
    assert rows == [{"t": 2, "cpu_pct": 75.0, "mem_used_pct": 75.0, "disk_read_mb_s": 2.0, "disk_write_mb_s": 1.0,
                     "net_rx_mb_s": 0.5, "net_tx_mb_s": 1.5, "watts": 50.0}]


def test_rates_skip_non_increasing_time_and_have_no_watts_without_power():
    rows = br.rates([_sample(1, 0, 0), _sample(1, 5, 5), _sample(2, 10, 10)])
    assert len(rows) == 1 and "watts" not in rows[0]


def test_hibench_line_has_the_seven_columns():
    line = br.hibench_line("terasort", ("2026-12-01", "03:00:00"), 3200000, 12.5, 256000.0, 128000.0)
    assert line.split() == ["ScalaSparkTerasort", "2026-12-01", "03:00:00", "3200000", "12.500", "256000", "128000"]
    assert br.HIBENCH_HEADER.split() == ["Type", "Date", "Time", "Input_data_size", "Duration(s)",
                                         "Throughput(bytes/s)", "Throughput/node"]


def _run(profile, **tput):
    return {"profile": profile, "workloads": [{"workload": k, "throughput_bytes_s": v} for k, v in tput.items()]}


def test_ratios_only_for_shared_workloads():
    assert br.ratios(_run("a", terasort=100.0, sortby=0.0), _run("b", terasort=150.0, wordcount=1.0)) == \
        {"terasort": 1.5}


def test_medians_by_profile():
    runs = [_run("default", terasort=10.0), _run("stock", terasort=5.0), _run("default", terasort=30.0),
            _run("stock", terasort=7.0), _run("default", terasort=20.0)]
    assert br.medians_by_profile(runs) == {"default": {"terasort": 20.0}, "stock": {"terasort": 6.0}}


def _raw_run(tmp_path, name, seconds, passed=True, q03_answer="b"):
    run = tmp_path / name
    raw = run / "raw"
    raw.mkdir(parents=True)
    meta = {"started": "2026-12-01T03:00:00", "profile": "default", "scale": "tiny", "worker_count": 2,
            "hosts": ["m", "w1"], "cluster": {}, "plan": {}, "versions": {"spark": "3.5.7"}}
    (raw / "meta.json").write_text(json.dumps(meta))
    results = [
        {"workload": "terasort", "engine": "spark", "input_bytes": 3200000, "records": 32000, "duration_s": seconds,
         "phases": {"sort": seconds}, "marks": [{"phase": "sort", "start": 100.0, "end": 100.0 + seconds}],
         "validation": {"sorted": passed, "passed": passed}},
        {"workload": "tpch", "engine": "spark-sql", "input_bytes": 1000, "duration_s": 2.0, "phases": {},
         "marks": [{"phase": "queries", "start": 100.0, "end": 102.0}],
         "queries": {"q01": {"status": "ok", "seconds": 1.0, "rows": [["a", "1.00"]], "row_count": 1},
                     "q02": {"status": "error", "seconds": 1.0, "reason": "AnalysisException: x"},
                     "q03": {"status": "ok", "seconds": 1.0, "rows": [["b"]], "row_count": 1}}},
    ]
    (raw / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in results))
    (raw / "tpch-answers.json").write_text(json.dumps({"q01": [["a", "1.00"]], "q02": [], "q03": [[q03_answer]],
                                                       "q04": [["d"]]}))
    samples = [{"power_source": None, "power_reason": "no RAPL counters in /sys/class/powercap"}]
    samples += [_sample(99.0 + i, 10 * i, 10 * i, 1e6 * i, 0, 0, 0) for i in range(8)]
    for host in ("m", "w1"):
        (raw / ("samples-%s.jsonl" % host)).write_text("".join(json.dumps(s) + "\n" for s in samples))
    return run


def test_build_writes_every_report_file(tmp_path):
    run = _raw_run(tmp_path, "r1", 4.0)
    result = br.build(str(run))
    assert json.loads((run / "result.json").read_text()) == result
    tera = result["workloads"][0]
    assert tera["throughput_bytes_s"] == 800000.0 and tera["throughput_per_node_bytes_s"] == 400000.0
    assert tera["usage"]["w1"]["cpu_pct"] == 50.0
    assert tera["perf_per_watt"]["mb_s_per_watt"] is None
    assert "no RAPL counters" in tera["perf_per_watt"]["not_available"]
    check = result["workloads"][1]["tpc_check"]
    # q02 failed on Spark (listed with its error), q04 was not selected: listed, and the check passes.
    assert check["equal"] == 2 and sorted(check["listed"]) == ["q02", "q04"] and check["passed"]
    assert check["queries"] == 4 and check["wrong"] == []
    assert "did not run on Spark: AnalysisException" in check["listed"]["q02"]
    assert "not selected" in check["listed"]["q04"]
    report = (run / "hibench.report").read_text().splitlines()
    assert report[0].split()[0] == "Type" and len(report) == 3 and report[1].split()[0] == "ScalaSparkTerasort"
    md = (run / "report.md").read_text()
    assert "| terasort | spark |" in md and "not available" in md and "| q02 |" in md
    for png in ("throughput.png", "tpch_queries.png", "terasort_usage.png"):
        assert (run / "plots" / png).read_bytes()[:4] == b"\x89PNG"
    assert result["validations_passed"]


def test_build_flags_a_failed_validation(tmp_path):
    assert not br.build(str(_raw_run(tmp_path, "bad", 4.0, passed=False)))["validations_passed"]


def test_a_wrong_tpc_answer_fails_the_run(tmp_path):
    result = br.build(str(_raw_run(tmp_path, "wrong", 4.0, q03_answer="c")))
    check = result["workloads"][1]["tpc_check"]
    assert check["wrong"] == ["q03"] and not check["passed"] and not result["validations_passed"]
    assert "answer differs from DuckDB" in check["listed"]["q03"]


def test_an_answer_too_long_to_compare_fails_the_check(tmp_path):
    run = _raw_run(tmp_path, "long", 4.0)
    results = [json.loads(line) for line in (run / "raw" / "results.jsonl").read_text().splitlines()]
    results[1]["queries"]["q01"]["row_count"] = 7000
    (run / "raw" / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in results))
    check = br.build(str(run))["workloads"][1]["tpc_check"]
    assert check["wrong"] == ["q01"] and not check["passed"]
    assert "not compared: 7000 rows, only 1 kept" in check["listed"]["q01"]


def test_compare_prints_ratios(tmp_path):
    a, b = _raw_run(tmp_path, "a", 4.0), _raw_run(tmp_path, "b", 2.0)
    br.build(str(a))
    br.build(str(b))
    out = io.StringIO()
    assert br.compare(str(a), str(b), out=out)["terasort"] == pytest.approx(2.0)
    assert "terasort" in out.getvalue() and "2.000" in out.getvalue()
    assert (b / "plots" / "compare-a.png").read_bytes()[:4] == b"\x89PNG"


def test_ab_prints_medians_and_plots(tmp_path):
    runs = []
    for name, profile, secs in (("r1-default", "default", 4.0), ("r1-stock", "stock", 8.0),
                                ("r2-stock", "stock", 10.0), ("r2-default", "default", 5.0)):
        run = _raw_run(tmp_path, name, secs)
        meta = json.loads((run / "raw" / "meta.json").read_text())
        meta["profile"] = profile
        (run / "raw" / "meta.json").write_text(json.dumps(meta))
        br.build(str(run))
        runs.append(str(run))
    out = io.StringIO()
    png = tmp_path / "ab.png"
    got = br.ab(runs, out=out, png=str(png))
    assert got["profiles"] == ["default", "stock"]
    line = [ln for ln in out.getvalue().splitlines() if ln.startswith("terasort")][0]
    # medians 4.5 s and 9 s -> stock/default 0.500; over every pair of runs the ratio spans 4/10 to 5/8
    assert line.split()[-2:] == ["0.500", "(0.40-0.62)"]
    assert got["ratio_spread"]["stock"]["terasort"] == pytest.approx((0.4, 0.625))
    assert "runs per profile: default 2, stock 2" in out.getvalue()
    assert png.read_bytes()[:4] == b"\x89PNG"
    # The TPC workload's per-query table: every query took 1 s in every run; q02 failed everywhere.
    table = got["queries"]["tpch"]
    assert table["queries"] == ["q01", "q03"] and table["complete"] == ["q01", "q03"]
    assert table["totals"] == {"default": 2.0, "stock": 2.0}
    lines = out.getvalue().splitlines()
    assert "tpch per query: median seconds (min-max), 2 runs per profile" in lines
    assert lines[-1].split() == ["total", "2.0", "2.0", "1.000"]
    assert (tmp_path / "ab-tpch-queries.png").read_bytes()[:4] == b"\x89PNG"


def test_ab_per_query_medians_ratios_and_failed_queries(tmp_path):
    runs = []
    for name, profile, q1, q3 in (("r1-vanilla", "vanilla", 10.0, 4.0), ("r1-push", "push", 8.0, None),
                                  ("r2-push", "push", 6.0, 3.0), ("r2-vanilla", "vanilla", 12.0, 6.0)):
        run = _raw_run(tmp_path, name, 4.0)
        meta = json.loads((run / "raw" / "meta.json").read_text())
        meta["profile"] = profile
        (run / "raw" / "meta.json").write_text(json.dumps(meta))
        results = [json.loads(line) for line in (run / "raw" / "results.jsonl").read_text().splitlines()]
        results[1]["queries"]["q01"]["seconds"] = q1
        if q3 is None:
            results[1]["queries"]["q03"] = {"status": "error", "seconds": 0.5, "reason": "lost executor"}
        else:
            results[1]["queries"]["q03"]["seconds"] = q3
        (run / "raw" / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in results))
        br.build(str(run))
        runs.append(str(run))
    out = io.StringIO()
    table = br.ab(runs, out=out)["queries"]["tpch"]
    # Medians: q01 vanilla 11, push 7; q03 failed in one push run: left out of the total and marked.
    assert table["medians"]["q01"] == {"vanilla": 11.0, "push": 7.0}
    assert table["complete"] == ["q01"] and table["totals"] == {"vanilla": 11.0, "push": 7.0}
    lines = out.getvalue().splitlines()
    assert [ln.split() for ln in lines if ln.startswith("q01")] == [["q01", "11.0", "(10.0-12.0)", "7.0", "(6.0-8.0)", "0.636"]]
    assert [ln.split()[0] for ln in lines if ln.startswith("q03")] == ["q03*"]
    assert lines[-2].split() == ["total", "11.0", "7.0", "0.636"]
    assert lines[-1] == "* failed in some run: left out of the total (q03)"


def test_ratio_spread_is_every_pair():
    assert br.ratio_spread([10.0, 20.0], [15.0, 30.0]) == (0.75, 3.0)
    assert br.ratio_spread([], [1.0]) is None


def test_compare_needs_result_files(tmp_path):
    with pytest.raises(br.ReportError, match="no result.json"):
        br.compare(str(tmp_path), str(tmp_path))


def test_main_rejects_unknown_commands():
    with pytest.raises(br.ReportError, match="usage"):
        br.main(["bench_report.py", "frobnicate"])
