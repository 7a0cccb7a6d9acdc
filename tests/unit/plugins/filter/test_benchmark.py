"""Tables for the benchmark role's specification filters (roles/benchmark/tasks/prepare.yml and tpc.yml)."""

import pytest
from ansible.errors import AnsibleFilterError

from ansible_collections.bigdata.spark.plugins.filter.benchmark import FilterModule, benchmark_specs, benchmark_tpc_spec

# roles/benchmark/vars/main.yml
SCALE_BYTES = {"tiny": 3200000, "small": 320000000, "large": 3200000000, "huge": 32000000000,
               "gigantic": 320000000000, "bigdata": 3000000000000}
SCALE_TPC_SF = {"tiny": 0.01, "small": 1, "large": 10, "huge": 100, "gigantic": 1000, "bigdata": 3000}
SPARK = ["terasort", "sortby", "groupby", "wordcount"]
ALL = ["terasort", "terasort_mr", "randomwriter", "sort", "testdfsio", "sortby", "groupby", "wordcount", "tpcds", "tpch"]


def specs(workloads, scale="tiny", **kw):
    args = dict(scale=scale, scale_bytes=SCALE_BYTES, scale_tpc_sf=SCALE_TPC_SF, spark_workloads=SPARK,
                hdfs_dir="/benchmarks/bigdata", hadoop_home="/opt/hadoop/current")
    args.update(kw)
    return benchmark_specs(workloads, **args)


# scale, size_bytes, tpc_scale_factor, nodemanagers -> bytes, tpc_sf, workers, parts
@pytest.mark.parametrize("scale, size, sf, nms, expected", [
    ("tiny", 0, 0.0, 0, (3200000, 0.01, 1, 2)),
    ("tiny", 0, 0.0, 3, (3200000, 0.01, 3, 6)),
    ("small", 0, 0.0, 1, (320000000, 1, 1, 3)),            # ceil(320e6 / 128 MiB) = 3
    ("large", 0, 0.0, 7, (3200000000, 10, 7, 24)),         # 24 splits beat 14
    ("bigdata", 0, 0.0, 186, (3000000000000, 3000, 186, 22352)),
    ("tiny", 50, 1.0, 0, (50, 1.0, 1, 2)),                 # explicit values win and keep their type
    ("huge", "123456789", "2.5", 2, (123456789, 2.5, 2, 4)),
    ("unknown", 7000000001, 0.5, 1, (7000000001, 0.5, 1, 53)),  # the profile is not needed
])
def test_run_sizes(scale, size, sf, nms, expected):
    out = specs(ALL, scale, size_bytes=size, tpc_scale_factor=sf, nodemanagers=nms)
    assert (out["bytes"], out["tpc_sf"], out["workers"], out["parts"]) == expected
    assert type(out["tpc_sf"]) is type(expected[1])


def test_all_workloads_at_tiny_on_three_workers():
    out = specs(ALL, nodemanagers=3, mr_conf={"mapreduce.job.maps": 4})
    assert out["spark"] == {
        "app_name": "bigdata-benchmark", "hdfs_dir": "/benchmarks/bigdata",
        "workloads": {name: {"records": 32000, "bytes": 3200000, "partitions": 6} for name in SPARK}}
    assert out["mr"] == {
        "hadoop_home": "/opt/hadoop/current", "hdfs_dir": "/benchmarks/bigdata", "jobconf": {"mapreduce.job.maps": 4},
        "workloads": {"terasort_mr": {"records": 32000, "maps": 6, "reduces": 3},
                      "randomwriter": {"bytes": 3200000, "maps": 6},
                      "sort": {"reduces": 3},
                      "testdfsio": {"files": 6, "file_mb": 1}}}


def test_spark_keeps_the_asked_order_and_mr_its_own():
    out = specs(["wordcount", "testdfsio", "terasort", "sort", "randomwriter", "wordcount", "tpch"])
    assert list(out["spark"]["workloads"]) == ["wordcount", "terasort"]
    assert list(out["mr"]["workloads"]) == ["randomwriter", "sort", "testdfsio"]


def test_testdfsio_file_size_and_tiny_inputs():
    out = specs(["testdfsio", "terasort"], "gigantic", nodemanagers=4)
    # 320 GB in 2385 splits of 128 MiB: ceil(305175.78 MiB / 2385) = 128 MiB per file
    assert out["parts"] == 2385
    assert out["mr"]["workloads"]["testdfsio"] == {"files": 2385, "file_mb": 128}
    small = specs(["testdfsio", "terasort"], size_bytes=50)
    assert small["mr"]["workloads"]["testdfsio"] == {"files": 2, "file_mb": 1}
    assert small["spark"]["workloads"]["terasort"]["records"] == 1


def test_only_tpc_leaves_empty_workloads():
    out = specs(["tpcds"])
    assert out["spark"]["workloads"] == {} and out["mr"]["workloads"] == {} and out["mr"]["jobconf"] == {}


@pytest.mark.parametrize("kw, words", [
    ({"scale": "medium"}, "benchmark_scale must be one of bigdata, gigantic, huge, large, small, tiny .got 'medium'"),
    ({"size_bytes": -1}, "benchmark_size_bytes must be >= 0"),
    ({"size_bytes": "lots"}, "benchmark_size_bytes must be a whole number"),
    ({"size_bytes": True}, "benchmark_size_bytes must be a whole number"),
    ({"tpc_scale_factor": "x"}, "benchmark_tpc_scale_factor must be a number"),
    ({"tpc_scale_factor": -0.5}, "benchmark_tpc_scale_factor must be >= 0"),
    ({"split_bytes": 0}, "__benchmark_split_bytes must be > 0"),
    ({"workloads": "terasort"}, "benchmark_workloads must be a list"),
])
def test_bad_inputs_name_the_variable(kw, words):
    workloads = kw.pop("workloads", ["terasort"])
    with pytest.raises(AnsibleFilterError, match="benchmark_specs: " + words):
        specs(workloads, **kw)


META = {"tables": ["lineitem", "orders"], "scale_factor": 0.01, "parquet_bytes": 123456}
QUERIES = {"q01": "select 1", "q02": "select 2", "q03": "select 3"}


def test_tpc_parts_are_added_per_kind():
    spec = specs(["terasort", "tpcds", "tpch"])["spark"]
    one = benchmark_tpc_spec(spec, "tpch", "/b/tpc/tpch-sf0.01", META, QUERIES)
    two = benchmark_tpc_spec(one, "tpcds", "/b/tpc/tpcds-sf0.01", META, QUERIES, ["q03", "q01", "q99"])
    assert "tpc" not in spec  # the input is left alone
    assert one["tpc"] == {"tpch": {"data_dir": "/b/tpc/tpch-sf0.01", "tables": ["lineitem", "orders"],
                                   "scale_factor": 0.01, "input_bytes": 123456, "keep_rows": 5000, "queries": QUERIES}}
    assert list(two["tpc"]) == ["tpch", "tpcds"]
    # the queries keep queries.json's order
    assert two["tpc"]["tpcds"]["queries"] == {"q01": "select 1", "q03": "select 3"}
    assert list(two["tpc"]["tpcds"]["queries"]) == ["q01", "q03"]
    assert two["workloads"] == spec["workloads"]


@pytest.mark.parametrize("spec, meta, queries, words", [
    ({}, {"tables": []}, QUERIES, "the tpch meta.json lacks scale_factor, parquet_bytes"),
    ({}, META, ["q01"], "the tpch queries.json must map query ids to SQL"),
    ("spec", META, QUERIES, "the Spark specification must be a dict"),
])
def test_bad_tpc_inputs(spec, meta, queries, words):
    with pytest.raises(AnsibleFilterError, match="benchmark_tpc_spec: " + words):
        benchmark_tpc_spec(spec, "tpch", "/b", meta, queries)


def test_filters_are_registered():
    assert set(FilterModule().filters()) == {"benchmark_specs", "benchmark_tpc_spec"}
