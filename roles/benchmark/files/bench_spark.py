# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""The Spark workloads of the benchmark role, in one Spark application (one YARN start-up for all of them).

Usage: spark-submit bench_spark.py SPEC.json RESULTS.jsonl PROGRESS.log

SPEC.json: {"hdfs_dir": "/user/spark/benchmark", "workloads": {"terasort": {"records": N, "partitions": P}, ...},
            "tpc": {"tpcds": {"data_dir": HDFS_DIR, "queries": {"q01": "select ..."}}, ...}}
Every workload appends one JSON object to RESULTS.jsonl: name, phases (name -> seconds), input_bytes, duration_s,
validation (checks -> bool, plus the numbers compared). The hot path is the DataFrame API only: generation,
sorting, hashing and the checks run in the JVM; Python only sends plans and reads small aggregates.
"""
import json
import sys
import time

from pyspark.sql import SparkSession
from pyspark.sql import Window
from pyspark.sql import functions as F

from bench_common import Timer, configure, emit, progress  # next to this file on the node

RECORD_BYTES = 100
KEY_BYTES = 10

SPEC = {}


def terasort_records(spark, n, partitions):
    """n records of 100 bytes: a 10-byte pseudo-random key and a 90-byte value that carries the row number."""
    ids = spark.range(0, n, 1, partitions)
    digest = F.sha2(F.concat(F.lit("k"), F.col("id").cast("string")), 256)
    key = F.unhex(F.substring(digest, 1, 2 * KEY_BYTES))
    value = F.unhex(F.concat(F.lpad(F.hex(F.col("id")), 20, "0"),
                             F.sha2(F.col("id").cast("string"), 512),
                             F.substring(digest, 33, 32)))
    return ids.select(key.alias("key"), value.alias("value"))


def checksum(df):
    """Order-independent checksum: count, sum of CRC32 and sum of xxhash64 over the whole 100-byte record."""
    rec = F.concat(F.col("key"), F.col("value"))
    row = df.agg(F.count(F.lit(1)).alias("n"),
                 F.sum(F.crc32(rec)).alias("crc"),
                 F.sum(F.xxhash64(rec).cast("decimal(38,0)")).alias("xx"),
                 F.min(F.length(F.col("key"))).alias("kmin"), F.max(F.length(F.col("key"))).alias("kmax"),
                 F.min(F.length(rec)).alias("rmin"), F.max(F.length(rec)).alias("rmax")).collect()[0]
    return {"records": int(row.n), "crc32_sum": str(row.crc or 0), "xxhash64_sum": str(row.xx or 0),
            "key_bytes": [row.kmin, row.kmax], "record_bytes": [row.rmin, row.rmax]}


def read_in_file_order(spark, path):
    """Read a sorted output directory so that every file is one partition read front to back."""
    df = spark.read.parquet(path)
    return df.select("*", F.input_file_name().alias("file"), F.monotonically_increasing_id().alias("pos"))


def order_check(spark, path, key="key"):
    """Global order of a directory written by a sort: within each file rows ascend (unsigned bytes for
    binary keys), and every file's last key is <= the next file's first key (files in part-number order)."""
    df = read_in_file_order(spark, path)
    w = Window.partitionBy("file").orderBy("pos")
    inside = df.select((F.lag(F.col(key)).over(w) > F.col(key)).alias("bad")).where("bad").count()
    bounds = df.groupBy("file").agg(F.min_by(F.col(key), F.col("pos")).alias("first"),
                                    F.max_by(F.col(key), F.col("pos")).alias("last")).orderBy("file").collect()
    across = sum(1 for a, b in zip(bounds, bounds[1:]) if b["first"] < a["last"])
    return {"misordered_within_files": inside, "misordered_between_files": across, "files": len(bounds)}


def with_file_settings(spark):
    # One file = one partition, never split or packed, so monotonically_increasing_id follows file order.
    spark.conf.set("spark.sql.files.maxPartitionBytes", str(1 << 40))
    spark.conf.set("spark.sql.files.openCostInBytes", str(1 << 40))


def run_terasort(spark, conf):
    n, parts = int(conf["records"]), int(conf["partitions"])
    base = SPEC["hdfs_dir"] + "/terasort"
    t = Timer("terasort")
    t.phase("generate", lambda: terasort_records(spark, n, parts).write.mode("overwrite").parquet(base + "/input"))
    src = spark.read.parquet(base + "/input")
    # TeraSort's total order: range-partition on sampled key bounds into a fixed number of partitions (adaptive
    # execution does not merge them), sort each one.
    t.phase("sort", lambda: src.repartitionByRange(parts, "key").sortWithinPartitions("key")
            .write.mode("overwrite").parquet(base + "/output"))
    with_file_settings(spark)
    sums_in = t.phase("checksum_input", lambda: checksum(spark.read.parquet(base + "/input")))
    sums_out = t.phase("checksum_output", lambda: checksum(spark.read.parquet(base + "/output")))
    order = t.phase("validate_order", lambda: order_check(spark, base + "/output"))
    ok = {
        "records_expected": sums_out["records"] == n,
        "record_bytes_100": sums_in["record_bytes"] == [RECORD_BYTES, RECORD_BYTES] and
        sums_out["record_bytes"] == [RECORD_BYTES, RECORD_BYTES],
        "key_bytes_10": sums_out["key_bytes"] == [KEY_BYTES, KEY_BYTES],
        "checksum_equal": sums_in == sums_out,
        "sorted": order["misordered_within_files"] == 0 and order["misordered_between_files"] == 0,
    }
    emit({"workload": "terasort", "engine": "spark", "input_bytes": n * RECORD_BYTES, "records": n,
          "duration_s": t.phases["sort"], "phases": t.phases, "marks": t.marks,
          "validation": dict(ok, input=sums_in, output=sums_out, order=order, passed=all(ok.values()))})


def kv_records(spark, n, parts, distinct_keys):
    """Key-value pairs like seed 001's SortBy/GroupBy: an int key (distinct_keys values) and a 96-byte value."""
    ids = spark.range(0, n, 1, parts)
    key = F.pmod(F.xxhash64(F.col("id")), F.lit(distinct_keys)).cast("int")
    value = F.unhex(F.concat(F.sha2(F.col("id").cast("string"), 256), F.sha2(F.col("id").cast("string"), 512)))
    return ids.select(key.alias("k"), F.substring(value, 1, 96).alias("v"))


def run_sortby(spark, conf):
    n, parts = int(conf["records"]), int(conf["partitions"])
    base = SPEC["hdfs_dir"] + "/sortby"
    t = Timer("sortby")
    t.phase("generate", lambda: kv_records(spark, n, parts, 1 << 30).write.mode("overwrite").parquet(base + "/input"))
    src = spark.read.parquet(base + "/input")
    t.phase("sort", lambda: src.repartitionByRange(parts, "k").sortWithinPartitions("k")
            .write.mode("overwrite").parquet(base + "/output"))
    with_file_settings(spark)

    def sums(path):
        row = spark.read.parquet(path).agg(F.count(F.lit(1)).alias("n"),
                                           F.sum(F.xxhash64("k", "v").cast("decimal(38,0)")).alias("h")).collect()[0]
        return {"records": int(row.n), "xxhash64_sum": str(row.h)}
    s_in, s_out = t.phase("checksums", lambda: (sums(base + "/input"), sums(base + "/output")))
    order = t.phase("validate_order", lambda: order_check(spark, base + "/output", key="k"))
    ok = {"records_expected": s_out["records"] == n, "checksum_equal": s_in == s_out,
          "sorted": order["misordered_within_files"] == 0 and order["misordered_between_files"] == 0}
    emit({"workload": "sortby", "engine": "spark", "input_bytes": n * RECORD_BYTES, "records": n,
          "duration_s": t.phases["sort"], "phases": t.phases, "marks": t.marks,
          "validation": dict(ok, input=s_in, output=s_out, order=order, passed=all(ok.values()))})


def run_groupby(spark, conf):
    n, parts = int(conf["records"]), int(conf["partitions"])
    groups = max(1, n // 100)
    base = SPEC["hdfs_dir"] + "/groupby"
    t = Timer("groupby")
    t.phase("generate", lambda: kv_records(spark, n, parts, groups).write.mode("overwrite").parquet(base + "/input"))
    src = spark.read.parquet(base + "/input")
    t.phase("group", lambda: src.groupBy("k").agg(F.count(F.lit(1)).alias("n"), F.sum(F.crc32("v")).alias("crc"))
            .write.mode("overwrite").parquet(base + "/output"))
    out = spark.read.parquet(base + "/output")
    got = t.phase("validate", lambda: out.agg(F.sum("n").alias("n"), F.sum("crc").alias("crc"),
                                              F.count(F.lit(1)).alias("g"),
                                              F.countDistinct("k").alias("dk")).collect()[0])
    want = t.phase("reference", lambda: src.agg(F.count(F.lit(1)).alias("n"), F.sum(F.crc32("v")).alias("crc"),
                                                F.countDistinct("k").alias("dk")).collect()[0])
    ok = {"records_expected": int(got.n) == n, "crc_equal": int(got.crc) == int(want.crc),
          "one_row_per_key": int(got.g) == int(got.dk) == int(want.dk)}
    emit({"workload": "groupby", "engine": "spark", "input_bytes": n * RECORD_BYTES, "records": n,
          "duration_s": t.phases["group"], "phases": t.phases, "marks": t.marks,
          "validation": dict(ok, groups=int(got.g), passed=all(ok.values()))})


WORDS = ("spark yarn hdfs hadoop tuning cluster node core memory disk network shuffle sort group count "
         "byte record block replica executor driver container queue plan profile").split()


def run_wordcount(spark, conf):
    total_bytes, parts = int(conf["bytes"]), int(conf["partitions"])
    words_per_line = 10
    lines = max(1, total_bytes // 80)
    base = SPEC["hdfs_dir"] + "/wordcount"
    vocab = F.array(*[F.lit(w) for w in WORDS])
    t = Timer("wordcount")
    ids = spark.range(0, lines, 1, parts)
    line = F.concat_ws(" ", *[F.element_at(vocab, (F.pmod(F.xxhash64(F.col("id"), F.lit(i)), F.lit(len(WORDS))) + 1)
                                           .cast("int")) for i in range(words_per_line)])
    t.phase("generate", lambda: ids.select(line.alias("value")).write.mode("overwrite").text(base + "/input"))
    text = spark.read.text(base + "/input")
    input_bytes = t.phase("size", lambda: int(text.agg(F.sum(F.length("value") + 1)).collect()[0][0]))
    t.phase("count", lambda: text.select(F.explode(F.split("value", " ")).alias("word")).groupBy("word").count()
            .write.mode("overwrite").parquet(base + "/output"))
    got = t.phase("validate", lambda: spark.read.parquet(base + "/output").agg(F.sum("count"), F.count(F.lit(1)))
                  .collect()[0])
    ok = {"words_counted": int(got[0]) == lines * words_per_line, "vocabulary": int(got[1]) <= len(WORDS)}
    emit({"workload": "wordcount", "engine": "spark", "input_bytes": input_bytes, "records": lines,
          "duration_s": t.phases["count"], "phases": t.phases, "marks": t.marks,
          "validation": dict(ok, words=int(got[0]), distinct=int(got[1]), passed=all(ok.values()))})


def canonical(value):
    """A cell as text that DuckDB and Spark agree on: numbers rounded to 2 decimals, NULL as 'NULL'."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return str(value).lower()
    try:
        number = float(value)
    except (TypeError, ValueError):
        return str(value).rstrip()
    return "%.2f" % number


def run_tpc(spark, name, conf):
    t = Timer(name)
    data_dir = conf["data_dir"]
    for table in conf["tables"]:
        spark.read.parquet("%s/%s" % (data_dir, table)).createOrReplaceTempView(table)
    per_query = {}
    for qid in sorted(conf["queries"]):
        sql = conf["queries"][qid]
        progress(name, qid, t.start)
        t0 = time.time()
        try:
            rows = []
            for statement in [s for s in sql.split(";") if s.strip()]:
                rows = spark.sql(statement).collect()
            per_query[qid] = {"status": "ok", "seconds": round(time.time() - t0, 3),
                              "rows": [[canonical(v) for v in r] for r in rows[:conf.get("keep_rows", 1000)]],
                              "row_count": len(rows)}
        except Exception as exc:  # a failing query is reported with its reason, the others still run
            per_query[qid] = {"status": "error", "seconds": round(time.time() - t0, 3),
                              "reason": str(exc).splitlines()[0][:500]}
    ok_times = [q["seconds"] for q in per_query.values() if q["status"] == "ok"]
    emit({"workload": name, "engine": "spark-sql", "input_bytes": int(conf.get("input_bytes", 0)),
          "scale_factor": conf.get("scale_factor"), "duration_s": round(sum(ok_times), 3),
          "phases": {"queries": round(time.time() - t.start, 3)},
          "marks": [{"phase": "queries", "start": t.start, "end": time.time()}], "queries": per_query})


def main():
    global SPEC
    with open(sys.argv[1]) as fh:
        SPEC = json.load(fh)
    configure(sys.argv[2], sys.argv[3])
    spark = SparkSession.builder.appName(SPEC.get("app_name", "bigdata-benchmark")).getOrCreate()
    runners = {"terasort": run_terasort, "sortby": run_sortby, "groupby": run_groupby, "wordcount": run_wordcount}
    for name, conf in SPEC.get("workloads", {}).items():
        runners[name](spark, conf)
    for name, conf in SPEC.get("tpc", {}).items():
        run_tpc(spark, name, conf)
    progress("all", "done", time.time())
    spark.stop()


if __name__ == "__main__":
    main()
