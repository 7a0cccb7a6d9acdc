# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""The benchmark role's run sizes and workload specifications (the JSON files bench_spark.py and bench_mr.py read).

Pure functions over plain values (no Ansible, no I/O); the filters in plugins/filter/benchmark.py call them.
"""

from __future__ import annotations

import math

APP_NAME = "bigdata-benchmark"
# Rows of TeraSort's input: 100 bytes each.
RECORD_BYTES = 100
MIB = 1048576
# The MapReduce workloads, in the order bench_mr.py runs them whatever the order of benchmark_workloads.
MR_WORKLOADS = ("terasort_mr", "randomwriter", "sort", "testdfsio")


class BenchmarkSpecError(ValueError):
    """An input the specifications cannot be made from; the message names the variable."""


def _int(value, name):
    if isinstance(value, bool):
        raise BenchmarkSpecError("%s must be a whole number (got %r)" % (name, value))
    try:
        return int(value)
    except (TypeError, ValueError):
        try:
            return int(float(value))
        except (TypeError, ValueError):
            raise BenchmarkSpecError("%s must be a whole number (got %r)" % (name, value)) from None


def _float(value, name):
    if isinstance(value, bool):
        raise BenchmarkSpecError("%s must be a number (got %r)" % (name, value))
    try:
        return float(value)
    except (TypeError, ValueError):
        raise BenchmarkSpecError("%s must be a number (got %r)" % (name, value)) from None


def run_sizes(scale, size_bytes, tpc_scale_factor, nodemanagers, scale_bytes, scale_tpc_sf, split_bytes):
    """Input bytes, TPC scale factor, worker count and partitions of one run.

    An explicit size_bytes or tpc_scale_factor (non-zero) wins over the scale's profile. The TPC scale factor
    keeps its type (a profile's 1 names the data set sf1, an explicit 1.0 names it sf1.0).
    """
    size = _int(size_bytes, "benchmark_size_bytes")
    sf = _float(tpc_scale_factor, "benchmark_tpc_scale_factor")
    split = _int(split_bytes, "__benchmark_split_bytes")
    if size < 0:
        raise BenchmarkSpecError("benchmark_size_bytes must be >= 0 (got %r)" % (size_bytes,))
    if sf < 0:
        raise BenchmarkSpecError("benchmark_tpc_scale_factor must be >= 0 (got %r)" % (tpc_scale_factor,))
    if split <= 0:
        raise BenchmarkSpecError("__benchmark_split_bytes must be > 0 (got %r)" % (split_bytes,))
    for name, table, own in (("__benchmark_scale_bytes", scale_bytes, size), ("__benchmark_scale_tpc_sf", scale_tpc_sf, sf)):
        if not own and scale not in (table or {}):
            raise BenchmarkSpecError("benchmark_scale must be one of %s (got %r; %s has no such profile)"
                                     % (", ".join(sorted(table or {})) or "nothing", scale, name))
    total = size or _int(scale_bytes[scale], "__benchmark_scale_bytes[%s]" % scale)
    workers = max(_int(nodemanagers, "the nodemanagers group's size"), 1)
    parts = max(workers * 2, int(math.ceil(total / split)))
    return {"bytes": total, "tpc_sf": sf or scale_tpc_sf[scale], "workers": workers, "parts": parts}


def spark_workloads(workloads, sizes, known):
    """{name: {records, bytes, partitions}} for the Spark workloads of the run, in the order asked."""
    total, parts = sizes["bytes"], sizes["parts"]
    return {name: {"records": max(total // RECORD_BYTES, 1), "bytes": total, "partitions": parts}
            for name in workloads if name in known}


def mr_workloads(workloads, sizes):
    """{name: options} for the MapReduce workloads of the run, in bench_mr.py's order."""
    total, parts, workers = sizes["bytes"], sizes["parts"], sizes["workers"]
    options = {
        "terasort_mr": {"records": max(total // RECORD_BYTES, 1), "maps": parts, "reduces": workers},
        "randomwriter": {"bytes": total, "maps": parts},
        "sort": {"reduces": workers},
        "testdfsio": {"files": parts, "file_mb": max(int(math.ceil(total / MIB / parts)), 1)},
    }
    return {name: options[name] for name in MR_WORKLOADS if name in workloads}


def benchmark_specs(workloads, scale, size_bytes, tpc_scale_factor, nodemanagers, scale_bytes, scale_tpc_sf,
                    split_bytes, spark_known, hdfs_dir, hadoop_home, mr_conf):
    """The run's sizes plus the Spark and MapReduce specifications (without the TPC parts, added per kind)."""
    if not isinstance(workloads, (list, tuple)):
        raise BenchmarkSpecError("benchmark_workloads must be a list of workload names (got %r)" % (workloads,))
    sizes = run_sizes(scale, size_bytes, tpc_scale_factor, nodemanagers, scale_bytes, scale_tpc_sf, split_bytes)
    spark = {"app_name": APP_NAME, "hdfs_dir": hdfs_dir,
             "workloads": spark_workloads(workloads, sizes, list(spark_known or []))}
    mr = {"hadoop_home": hadoop_home, "hdfs_dir": hdfs_dir, "jobconf": dict(mr_conf or {}),
          "workloads": mr_workloads(workloads, sizes)}
    return dict(sizes, spark=spark, mr=mr)


def with_tpc(spec, kind, data_dir, meta, queries, only=None):
    """A copy of the Spark specification with one TPC kind's data set and queries (only the ids in `only`, if any)."""
    if not isinstance(spec, dict):
        raise BenchmarkSpecError("the Spark specification must be a dict (got %r)" % (spec,))
    missing = [k for k in ("tables", "scale_factor", "parquet_bytes") if k not in (meta or {})]
    if missing:
        raise BenchmarkSpecError("the %s meta.json lacks %s" % (kind, ", ".join(missing)))
    if not isinstance(queries, dict):
        raise BenchmarkSpecError("the %s queries.json must map query ids to SQL (got %r)" % (kind, type(queries).__name__))
    only = list(only or [])
    chosen = {k: v for k, v in queries.items() if k in only} if only else dict(queries)
    out = dict(spec)
    tpc = dict(out.get("tpc") or {})
    tpc[kind] = dict(tpc.get(kind) or {}, data_dir=data_dir, tables=meta["tables"], scale_factor=meta["scale_factor"],
                     input_bytes=meta["parquet_bytes"], keep_rows=5000, queries=chosen)
    out["tpc"] = tpc
    return out
