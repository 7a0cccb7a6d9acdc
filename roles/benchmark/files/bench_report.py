# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Controller side of the benchmark role.

  bench_report.py tpcgen KIND SF OUTDIR       TPC-DS/TPC-H data (Parquet), query texts and DuckDB's answers
  bench_report.py build RUNDIR                result.json, hibench.report, report.md and plots/ from RUNDIR/raw
  bench_report.py compare RUN_A RUN_B [PNG]   throughput ratios B/A per workload, and a bar plot of both runs
                                              (default RUN_B/plots/compare-<name of A>.png)
  bench_report.py ab [--plot PNG] RUNDIR...   median per profile and the ratios to the first profile

The pure helpers (rates, hibench lines, answer comparison, medians) are unit-tested in tests/unit/roles.
"""
import json
import os
import statistics
import sys

TPC_TABLES = {
    "tpch": ["customer", "lineitem", "nation", "orders", "part", "partsupp", "region", "supplier"],
    "tpcds": ["call_center", "catalog_page", "catalog_returns", "catalog_sales", "customer", "customer_address",
              "customer_demographics", "date_dim", "household_demographics", "income_band", "inventory", "item",
              "promotion", "reason", "ship_mode", "store", "store_returns", "store_sales", "time_dim",
              "warehouse", "web_page", "web_returns", "web_sales", "web_site"],
}
HIBENCH_NAMES = {
    "terasort": "ScalaSparkTerasort", "sortby": "ScalaSparkSortBy", "groupby": "ScalaSparkGroupBy",
    "wordcount": "ScalaSparkWordcount", "terasort_mr": "HadoopTerasort", "randomwriter": "HadoopRandomWriter",
    "sort": "HadoopSort", "testdfsio_write": "HadoopDfsioeWrite", "testdfsio_read": "HadoopDfsioeRead",
    "tpcds": "SparkSQLTpcds", "tpch": "SparkSQLTpch",
}


class ReportError(Exception):
    pass


# ---------------------------------------------------------------- pure helpers

def spark_sql_text(sql):
    """DuckDB's query texts quote aliases with double quotes; Spark SQL wants backticks. The TPC query texts have
    no double-quoted string literals (strings are single-quoted), so every "name" becomes `name`."""
    out, quote = [], None
    for ch in sql:
        if quote == "'":
            out.append(ch)
            if ch == "'":
                quote = None
        elif ch == "'":
            quote = "'"
            out.append(ch)
        elif ch == '"':
            out.append("`")
        else:
            out.append(ch)
    return "".join(out)


def canonical(value):
    """A cell as text both engines agree on: numbers to 2 decimals, dates ISO, NULL as 'NULL'."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (int, float)) or type(value).__name__ == "Decimal":
        return "%.2f" % float(value)
    text = str(value).rstrip()
    try:
        return "%.2f" % float(text)
    except ValueError:
        return text


def same_cell(a, b):
    if a == b:
        return True
    try:
        x, y = float(a), float(b)
    except ValueError:
        return False
    return abs(x - y) <= max(0.011, 1e-6 * max(abs(x), abs(y)))


def compare_answers(got, want):
    """Compare Spark's rows with DuckDB's as multisets (row order is only defined up to ties). Returns
    (equal, reason)."""
    if len(got) != len(want):
        return False, "%d rows, DuckDB has %d" % (len(got), len(want))
    g, w = sorted(got), sorted(want)
    for i, (rg, rw) in enumerate(zip(g, w)):
        if len(rg) != len(rw) or not all(same_cell(a, b) for a, b in zip(rg, rw)):
            return False, "row %d differs: %s vs DuckDB %s" % (i, rg[:6], rw[:6])
    return True, ""


def rates(samples):
    """Counter samples of one node -> list of {t, cpu_pct, mem_used_pct, disk_read_mb_s, ...}."""
    out = []
    for a, b in zip(samples, samples[1:]):
        dt = b["t"] - a["t"]
        if dt <= 0:
            continue
        busy_total = b["cpu_total"] - a["cpu_total"]
        row = {"t": b["t"],
               "cpu_pct": 100.0 * (busy_total - (b["cpu_idle"] - a["cpu_idle"])) / busy_total if busy_total else 0.0,
               "mem_used_pct": 100.0 * (1 - float(b["mem_available"]) / b["mem_total"]) if b["mem_total"] else 0.0}
        for key in ("disk_read", "disk_write", "net_rx", "net_tx"):
            row[key + "_mb_s"] = (b[key] - a[key]) / dt / 1e6
        if "energy_uj" in a and "energy_uj" in b and b["energy_uj"] >= a["energy_uj"]:
            row["watts"] = (b["energy_uj"] - a["energy_uj"]) / 1e6 / dt
        elif b.get("watts") is not None:
            row["watts"] = float(b["watts"])
        out.append(row)
    return out


def window(rows, start, end):
    return [r for r in rows if start <= r["t"] <= end + 1e-9]


def mean(values):
    values = [v for v in values if v is not None]
    return sum(values) / len(values) if values else None


def throughput(result, nodes):
    secs = result["duration_s"]
    bps = result["input_bytes"] / secs if secs and result.get("input_bytes") else 0.0
    return bps, bps / nodes if nodes else 0.0


def hibench_line(name, when, input_bytes, seconds, bps, per_node):
    """One line of HiBench's hibench.report."""
    return "%-20s %-10s %-8s %-20d %-20.3f %-20d %-20d" % (HIBENCH_NAMES.get(name, name), when[0], when[1],
                                                           input_bytes, seconds, int(bps), int(per_node))


HIBENCH_HEADER = "%-20s %-10s %-8s %-20s %-20s %-20s %-20s" % (
    "Type", "Date", "Time", "Input_data_size", "Duration(s)", "Throughput(bytes/s)", "Throughput/node")


def ratios(a, b):
    """Workload -> B/A throughput ratio, for the workloads both runs have."""
    ta = {w["workload"]: w["throughput_bytes_s"] for w in a["workloads"]}
    tb = {w["workload"]: w["throughput_bytes_s"] for w in b["workloads"]}
    return {k: (tb[k] / ta[k] if ta[k] else None) for k in sorted(set(ta) & set(tb))}


def throughputs_by_profile(runs):
    """runs: list of result dicts -> {profile: {workload: [throughput of each run]}}."""
    acc = {}
    for run in runs:
        prof = run["profile"]
        for w in run["workloads"]:
            acc.setdefault(prof, {}).setdefault(w["workload"], []).append(w["throughput_bytes_s"])
    return acc


def medians_by_profile(runs):
    """runs: list of result dicts -> {profile: {workload: median throughput}}."""
    return {p: {w: statistics.median(v) for w, v in ws.items()} for p, ws in throughputs_by_profile(runs).items()}


def ratio_spread(base, other):
    """(lowest, highest) ratio other/base over every pair of runs: the spread a median ratio sits in."""
    pairs = [b / a for a in base for b in other if a]
    return (min(pairs), max(pairs)) if pairs else None


# ---------------------------------------------------------------- I/O

def read_jsonl(path):
    with open(path) as fh:
        return [json.loads(line) for line in fh if line.strip()]


def load_result(run_dir):
    path = os.path.join(run_dir, "result.json")
    if not os.path.isfile(path):
        raise ReportError("%s: no result.json (is it a run directory?)" % run_dir)
    with open(path) as fh:
        return json.load(fh)


def tpcgen(kind, sf, out_dir):
    """Generate TPC data with DuckDB (Parquet per table), the query texts for Spark and DuckDB's answers."""
    import duckdb  # only the controller needs it
    if kind not in TPC_TABLES:
        raise ReportError("kind must be tpcds or tpch, got %r" % kind)
    import importlib
    try:
        package = importlib.import_module("duckdb_extension_%s" % kind)
    except ImportError:
        raise ReportError("%s needs the duckdb-extension-%s==1.5.5 wheel on the controller" % (kind, kind))
    ext = os.path.join(os.path.dirname(package.__file__), "extensions", "v" + duckdb.__version__,
                       "%s.duckdb_extension" % kind)
    if not os.path.isfile(ext):
        raise ReportError("%s: no extension for duckdb %s at %s (the wheels must have the same version)"
                          % (kind, duckdb.__version__, ext))
    con = duckdb.connect(config={"allow_unsigned_extensions": "true"})
    con.execute("LOAD '%s'" % ext)
    con.execute("CALL %s(sf=%s)" % ("dsdgen" if kind == "tpcds" else "dbgen", float(sf)))
    size = 0
    for table in TPC_TABLES[kind]:
        os.makedirs(os.path.join(out_dir, "data", table), exist_ok=True)
        target = os.path.join(out_dir, "data", table, "part-00000.parquet")
        con.execute("COPY %s TO '%s' (FORMAT PARQUET)" % (table, target))
        size += os.path.getsize(target)
    func = "tpcds_queries" if kind == "tpcds" else "tpch_queries"
    queries, answers = {}, {}
    for nr, sql in con.execute("SELECT query_nr, query FROM %s()" % func).fetchall():
        qid = "q%02d" % nr
        queries[qid] = spark_sql_text(sql)
        rows = []
        for statement in [s for s in sql.split(";") if s.strip()]:
            rows = con.execute(statement).fetchall()
        answers[qid] = [[canonical(v) for v in r] for r in rows]
    with open(os.path.join(out_dir, "queries.json"), "w") as fh:
        json.dump(queries, fh, indent=1, sort_keys=True)
    with open(os.path.join(out_dir, "answers.json"), "w") as fh:
        json.dump(answers, fh, sort_keys=True)
    with open(os.path.join(out_dir, "meta.json"), "w") as fh:
        json.dump({"kind": kind, "scale_factor": float(sf), "parquet_bytes": size, "tables": TPC_TABLES[kind],
                   "duckdb": duckdb.__version__}, fh, sort_keys=True)


def build(run_dir):
    raw = os.path.join(run_dir, "raw")
    with open(os.path.join(raw, "meta.json")) as fh:
        meta = json.load(fh)
    results = read_jsonl(os.path.join(raw, "results.jsonl"))
    workers = max(1, int(meta.get("worker_count", 1)))
    node_rates, power = {}, {}
    for host in meta.get("hosts", []):
        path = os.path.join(raw, "samples-%s.jsonl" % host)
        if not os.path.isfile(path):
            continue
        lines = read_jsonl(path)
        head = lines[0] if lines and "power_source" in lines[0] else {}
        power[host] = {"source": head.get("power_source"), "reason": head.get("power_reason")}
        node_rates[host] = rates([s for s in lines if "t" in s])
    power_available = bool(power) and all(p["source"] for p in power.values())
    workloads = []
    for res in results:
        bps, per_node = throughput(res, workers)
        start = min(m["start"] for m in res["marks"]) if res.get("marks") else None
        end = max(m["end"] for m in res["marks"]) if res.get("marks") else None
        usage = {}
        for host, rows in node_rates.items():
            part = window(rows, start, end) if start else []
            usage[host] = {k: mean([r.get(k) for r in part]) for k in
                           ("cpu_pct", "mem_used_pct", "disk_read_mb_s", "disk_write_mb_s", "net_rx_mb_s",
                            "net_tx_mb_s", "watts")}
        entry = dict(res, throughput_bytes_s=bps, throughput_per_node_bytes_s=per_node, usage=usage)
        if power_available:
            watts = sum(u["watts"] or 0 for u in usage.values())
            entry["perf_per_watt"] = {"mb_s_per_watt": bps / 1e6 / watts if watts else None, "watts": watts}
        else:
            entry["perf_per_watt"] = {"mb_s_per_watt": None, "not_available": "; ".join(
                "%s: %s" % (h, p["reason"]) for h, p in sorted(power.items()) if not p["source"]) or "no samples"}
        if res.get("queries") is not None:
            entry["tpc_check"] = tpc_check(raw, res)
        workloads.append(entry)
    result = {"run": os.path.basename(os.path.abspath(run_dir)), "started": meta.get("started"),
              "profile": meta.get("profile"), "scale": meta.get("scale"), "cluster": meta.get("cluster"),
              "plan": meta.get("plan"), "versions": meta.get("versions"), "worker_count": workers,
              "power": power, "workloads": workloads,
              "validations_passed": all(w.get("validation", {}).get("passed", True) and
                                        w.get("tpc_check", {}).get("passed", True) for w in workloads)}
    with open(os.path.join(run_dir, "result.json"), "w") as fh:
        json.dump(result, fh, indent=1, sort_keys=True)
    when = (meta.get("started") or "0000-00-00T00:00:00").replace("T", " ").split()[:2]
    with open(os.path.join(run_dir, "hibench.report"), "w") as fh:
        fh.write(HIBENCH_HEADER + "\n")
        for w in workloads:
            fh.write(hibench_line(w["workload"], when, w["input_bytes"], w["duration_s"],
                                  w["throughput_bytes_s"], w["throughput_per_node_bytes_s"]) + "\n")
    plots = make_plots(run_dir, workloads, node_rates)
    write_markdown(run_dir, result, plots)
    return result


def tpc_check(raw, res):
    """Spark's answers against DuckDB's. Every query DuckDB answered is equal, or listed with its reason. Passes
    when no answer differs and none was too long to compare: a query that did not run on Spark (its error is
    the reason) or was not selected is listed and does not fail the check; a wrong answer does."""
    path = os.path.join(raw, "%s-answers.json" % res["workload"])
    with open(path) as fh:
        answers = json.load(fh)
    listed, wrong = {}, []
    equal = 0
    for qid, q in sorted(res["queries"].items()):
        if q["status"] != "ok":
            listed[qid] = "did not run on Spark: %s" % q.get("reason")
            continue
        if q["row_count"] > len(q["rows"]):
            listed[qid] = "not compared: %d rows, only %d kept" % (q["row_count"], len(q["rows"]))
            wrong.append(qid)
            continue
        same, why = compare_answers(q["rows"], answers.get(qid, []))
        if same:
            equal += 1
        else:
            listed[qid] = "answer differs from DuckDB: %s" % why
            wrong.append(qid)
    for qid in sorted(set(answers) - set(res["queries"])):
        listed[qid] = "not selected (benchmark_tpc_queries)"
    return {"queries": len(answers), "equal": equal, "listed": listed, "wrong": wrong,
            "passed": not wrong and equal + len(listed) == len(answers)}


def make_plots(run_dir, workloads, node_rates):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:
        return {"error": "matplotlib is not installed on the controller: %s" % exc}
    pdir = os.path.join(run_dir, "plots")
    os.makedirs(pdir, exist_ok=True)
    made = {}
    plain = [w for w in workloads if w.get("queries") is None]
    if plain:
        fig, ax = plt.subplots(figsize=(8, 4))
        ax.bar([w["workload"] for w in plain], [w["throughput_bytes_s"] / 1e6 for w in plain], color="#3b6ea5")
        ax.set_ylabel("MB/s")
        ax.set_title("Throughput per workload")
        ax.tick_params(axis="x", rotation=30)
        fig.tight_layout()
        fig.savefig(os.path.join(pdir, "throughput.png"), dpi=90)
        plt.close(fig)
        made["throughput"] = "plots/throughput.png"
    for w in workloads:
        if w.get("queries"):
            qs = sorted(w["queries"])
            fig, ax = plt.subplots(figsize=(max(8, len(qs) * 0.15), 4))
            ax.bar(qs, [w["queries"][q]["seconds"] if w["queries"][q]["status"] == "ok" else 0 for q in qs],
                   color="#a5573b")
            ax.set_ylabel("seconds")
            ax.set_title("%s per-query time" % w["workload"])
            ax.tick_params(axis="x", rotation=90, labelsize=6)
            fig.tight_layout()
            name = "%s_queries.png" % w["workload"]
            fig.savefig(os.path.join(pdir, name), dpi=90)
            plt.close(fig)
            made[w["workload"] + "_queries"] = "plots/" + name
        if node_rates and w.get("marks"):
            start = min(m["start"] for m in w["marks"])
            end = max(m["end"] for m in w["marks"])
            fig, axes = plt.subplots(1, 4, figsize=(14, 3))
            for host, rows in sorted(node_rates.items()):
                part = window(rows, start - 2, end + 2)
                ts = [r["t"] - start for r in part]
                axes[0].plot(ts, [r["cpu_pct"] for r in part], label=host)
                axes[1].plot(ts, [r["mem_used_pct"] for r in part], label=host)
                axes[2].plot(ts, [r["disk_read_mb_s"] + r["disk_write_mb_s"] for r in part], label=host)
                axes[3].plot(ts, [r["net_rx_mb_s"] + r["net_tx_mb_s"] for r in part], label=host)
            for ax, title in zip(axes, ("CPU %", "memory used %", "disk MB/s (r+w)", "network MB/s (rx+tx)")):
                ax.set_title(title, fontsize=9)
                ax.set_xlabel("s", fontsize=8)
            axes[0].legend(fontsize=6)
            fig.suptitle("%s: resource use per node" % w["workload"], fontsize=10)
            fig.tight_layout()
            name = "%s_usage.png" % w["workload"]
            fig.savefig(os.path.join(pdir, name), dpi=80)
            plt.close(fig)
            made[w["workload"] + "_usage"] = "plots/" + name
    return made


def write_markdown(run_dir, result, plots):
    lines = ["# Benchmark run %s" % result["run"], "",
             "Profile `%s`, scale `%s`, %d worker node(s), started %s. Validations passed: **%s**." % (
                 result["profile"], result["scale"], result["worker_count"], result["started"],
                 result["validations_passed"]), "",
             "| workload | engine | input | duration (s) | MB/s | MB/s per node | perf/watt | validation |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for w in result["workloads"]:
        ppw = w["perf_per_watt"]
        ppw_text = "%.3f MB/s/W" % ppw["mb_s_per_watt"] if ppw.get("mb_s_per_watt") else "not available"
        check = w.get("tpc_check") or w.get("validation", {})
        passed = check.get("passed")
        lines.append("| %s | %s | %.1f MB | %.2f | %.2f | %.2f | %s | %s |" % (
            w["workload"], w.get("engine"), w["input_bytes"] / 1e6, w["duration_s"], w["throughput_bytes_s"] / 1e6,
            w["throughput_per_node_bytes_s"] / 1e6, ppw_text, "passed" if passed else "FAILED"))
    reasons = {w["perf_per_watt"].get("not_available") for w in result["workloads"]} - {None}
    if reasons:
        lines += ["", "Power: not available (%s)." % "; ".join(sorted(reasons))]
    for w in result["workloads"]:
        if w.get("tpc_check"):
            c = w["tpc_check"]
            lines += ["", "## %s (scale factor %s)" % (w["workload"], w.get("scale_factor")), "",
                      "%d queries, %d with DuckDB's answer, %d listed:" % (c["queries"], c["equal"], len(c["listed"])),
                      "", "| query | seconds | status |", "| --- | --- | --- |"]
            for qid, q in sorted(w["queries"].items()):
                lines.append("| %s | %s | %s |" % (qid, q["seconds"], c["listed"].get(qid, "equal to DuckDB")))
    lines += ["", "## Plots", ""]
    for key, path in sorted(plots.items()):
        lines.append("![%s](%s)" % (key, path) if key != "error" else "Plots: %s" % path)
    with open(os.path.join(run_dir, "report.md"), "w") as fh:
        fh.write("\n".join(lines) + "\n")


def bars_plot(path, title, series, names, errors=None, unit="MB/s"):
    """Grouped bars: series is [(label, {name: value in unit})]; names in order. False without matplotlib."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    width = 0.8 / max(1, len(series))
    fig, ax = plt.subplots(figsize=(max(8, len(names) * 0.9), 4))
    for i, (label, values) in enumerate(series):
        xs = [j + (i - (len(series) - 1) / 2.0) * width for j in range(len(names))]
        heights = [values.get(n) or 0 for n in names]
        yerr = None
        if errors and label in errors:
            lows = [max(0.0, h - errors[label].get(n, (h, h))[0]) for n, h in zip(names, heights)]
            highs = [max(0.0, errors[label].get(n, (h, h))[1] - h) for n, h in zip(names, heights)]
            yerr = [lows, highs]
        ax.bar(xs, heights, width, label=label, yerr=yerr, capsize=3 if yerr else 0)
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names, rotation=30, ha="right")
    ax.set_ylabel(unit)
    ax.set_title(title)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return True


def compare(dir_a, dir_b, out=sys.stdout, png=None):
    a, b = load_result(dir_a), load_result(dir_b)
    out.write("%-16s %14s %14s %8s\n" % ("workload", "A MB/s", "B MB/s", "B/A"))
    ta = {w["workload"]: w for w in a["workloads"]}
    tb = {w["workload"]: w for w in b["workloads"]}
    found = ratios(a, b)
    for name, ratio in found.items():
        shown = "%.3f" % ratio if ratio is not None else "n/a"
        out.write("%-16s %14.3f %14.3f %8s\n" % (name, ta[name]["throughput_bytes_s"] / 1e6, tb[name]["throughput_bytes_s"] / 1e6, shown))
    names = list(found)
    png = png or os.path.join(dir_b, "plots", "compare-%s.png" % os.path.basename(os.path.abspath(dir_a)))
    bars_plot(png, "Run to run: %s (A) and %s (B)" % (a["run"], b["run"]),
              [(a["run"] + " (A)", {n: ta[n]["throughput_bytes_s"] / 1e6 for n in names}),
               (b["run"] + " (B)", {n: tb[n]["throughput_bytes_s"] / 1e6 for n in names})], names)
    return found


def ab(run_dirs, out=sys.stdout, png=None):
    """Median MB/s per profile with each profile's range (min-max over its runs), and the ratio of each profile
    to the first with the range of that ratio over every pair of runs (the spread it must clear)."""
    runs = [load_result(d) for d in run_dirs]
    raw = throughputs_by_profile(runs)
    med = medians_by_profile(runs)
    order = []
    for r in runs:
        if r["profile"] not in order:
            order.append(r["profile"])
    base = order[0]
    names = sorted({w for p in med.values() for w in p})
    out.write("%-16s" % "workload" + "".join("%28s" % ("%s MB/s (min-max)" % p) for p in order) +
              "".join("%26s" % ("%s/%s (range)" % (p, base)) for p in order[1:]) + "\n")
    spreads = {}
    for name in names:
        row = "%-16s" % name
        for p in order:
            vals = raw[p].get(name)
            row += "%28s" % ("%.3f (%.3f-%.3f)" % (med[p][name] / 1e6, min(vals) / 1e6, max(vals) / 1e6) if vals else "-")
        for p in order[1:]:
            b0, v = med[base].get(name), med[p].get(name)
            spread = ratio_spread(raw[base].get(name) or [], raw[p].get(name) or [])
            spreads.setdefault(p, {})[name] = spread
            row += "%26s" % ("%.3f (%.2f-%.2f)" % (v / b0, spread[0], spread[1]) if v is not None and b0 and spread else "-")
        out.write(row + "\n")
    out.write("runs per profile: %s\n" % ", ".join("%s %d" % (p, sum(1 for r in runs if r["profile"] == p)) for p in order))
    if png:
        bars_plot(png, "Median throughput per profile (%d runs; bars: min-max)" % len(runs),
                  [(p, {n: (med[p].get(n) or 0) / 1e6 for n in names}) for p in order], names,
                  errors={p: {n: (min(raw[p][n]) / 1e6, max(raw[p][n]) / 1e6) for n in raw[p]} for p in order})
    queries = {}
    for workload in sorted({w["workload"] for r in runs for w in r["workloads"] if w.get("queries")}):
        queries[workload] = ab_queries(runs, workload, order, out)
        if png:
            table = queries[workload]
            bars_plot(os.path.splitext(png)[0] + "-%s-queries.png" % workload,
                      "%s: median seconds per query and profile" % workload,
                      [(p, {q: table["medians"][q].get(p) or 0 for q in table["queries"]}) for p in order],
                      table["queries"], unit="s")
    return {"profiles": order, "medians": med, "ratio_spread": spreads, "queries": queries}


def query_seconds(runs, workload):
    """{profile: {query: [seconds of each run where it ran]}} for a TPC workload; a query that failed in a run has
    no time from that run."""
    acc = {}
    for run in runs:
        for w in run["workloads"]:
            if w["workload"] != workload:
                continue
            for qid, q in (w.get("queries") or {}).items():
                if q.get("status") == "ok":
                    acc.setdefault(run["profile"], {}).setdefault(qid, []).append(q["seconds"])
    return acc


def ab_queries(runs, workload, order, out=sys.stdout):
    """The per-query table of a TPC workload (as seed 003 shows vanilla against Uniffle): each query's median
    seconds per profile (min-max over its runs), each profile's median over the first's, and a total row over
    the queries that ran in every run of every profile (a query that failed somewhere is left out of the
    total and marked)."""
    secs = query_seconds(runs, workload)
    counts = dict((p, sum(1 for r in runs if r["profile"] == p and any(w["workload"] == workload for w in r["workloads"])))
                  for p in order)
    qids = sorted({q for p in secs for q in secs[p]})
    base = order[0]
    complete = [q for q in qids if all(len(secs.get(p, {}).get(q, [])) == counts[p] for p in order)]
    out.write("\n%s per query: median seconds (min-max), %d runs per profile\n" % (
        workload, min(counts.values()) if counts else 0))
    out.write("%-10s" % "query" + "".join("%24s" % p for p in order) +
              "".join("%14s" % ("%s/%s" % (p, base)) for p in order[1:]) + "\n")
    medians = {}
    for q in qids:
        medians[q] = dict((p, statistics.median(secs[p][q])) for p in order if secs.get(p, {}).get(q))
        row = "%-10s" % (q if q in complete else q + "*")
        for p in order:
            vals = secs.get(p, {}).get(q)
            row += "%24s" % ("%.1f (%.1f-%.1f)" % (medians[q][p], min(vals), max(vals)) if vals else "failed")
        for p in order[1:]:
            b0, v = medians[q].get(base), medians[q].get(p)
            row += "%14s" % ("%.3f" % (v / b0) if v is not None and b0 else "-")
        out.write(row + "\n")
    totals = dict((p, sum(medians[q][p] for q in complete)) for p in order)
    row = "%-10s" % "total" + "".join("%24s" % ("%.1f" % totals[p]) for p in order)
    row += "".join("%14s" % ("%.3f" % (totals[p] / totals[base]) if totals[base] else "-") for p in order[1:])
    out.write(row + "\n")
    if len(complete) < len(qids):
        out.write("* failed in some run: left out of the total (%s)\n" % ", ".join(q for q in qids if q not in complete))
    return {"queries": qids, "complete": complete, "medians": medians, "totals": totals}


def main(argv):
    if len(argv) < 2:
        raise ReportError(__doc__)
    cmd = argv[1]
    if cmd == "tpcgen" and len(argv) == 5:
        tpcgen(argv[2], argv[3], argv[4])
    elif cmd == "build" and len(argv) == 3:
        build(argv[2])
    elif cmd == "compare" and len(argv) in (4, 5):
        compare(argv[2], argv[3], png=argv[4] if len(argv) == 5 else None)
    elif cmd == "ab" and len(argv) >= 5 and argv[2] == "--plot":
        ab(argv[4:], png=argv[3])
    elif cmd == "ab" and len(argv) >= 3:
        ab(argv[2:])
    else:
        raise ReportError("usage:\n" + __doc__.split("\n\n", maxsplit=1)[0])


if __name__ == "__main__":
    try:
        main(sys.argv)
    except ReportError as err:
        sys.stderr.write("bench_report: %s\n" % err)
        sys.exit(2)
