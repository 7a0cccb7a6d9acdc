# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Filters of the benchmark role; the sizes and specifications live in module_utils/benchmark_spec.py."""

from __future__ import annotations

from ansible.errors import AnsibleFilterError

from ansible_collections.bigdata.spark.plugins.module_utils.benchmark_spec import (
    BenchmarkSpecError,
    benchmark_specs as _benchmark_specs,
    with_tpc,
)


def benchmark_specs(workloads, scale, size_bytes=0, tpc_scale_factor=0.0, nodemanagers=0, scale_bytes=None,
                    scale_tpc_sf=None, split_bytes=134217728, spark_workloads=None, hdfs_dir="", hadoop_home="",
                    mr_conf=None):
    """The run's sizes and its Spark and MapReduce workload specifications."""
    try:
        return _benchmark_specs(workloads, scale, size_bytes, tpc_scale_factor, nodemanagers, dict(scale_bytes or {}),
                                dict(scale_tpc_sf or {}), split_bytes, spark_workloads, hdfs_dir, hadoop_home, mr_conf)
    except BenchmarkSpecError as exc:
        raise AnsibleFilterError("benchmark_specs: %s" % exc) from exc


def benchmark_tpc_spec(spec, kind, data_dir, meta, queries, only=None):
    """The Spark specification with one TPC kind's data set and queries added."""
    try:
        return with_tpc(spec, kind, data_dir, meta, queries, only)
    except BenchmarkSpecError as exc:
        raise AnsibleFilterError("benchmark_tpc_spec: %s" % exc) from exc


class FilterModule:
    """Benchmark specification filters."""

    def filters(self):
        return {"benchmark_specs": benchmark_specs, "benchmark_tpc_spec": benchmark_tpc_spec}
