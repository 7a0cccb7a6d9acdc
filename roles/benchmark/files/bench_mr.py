# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Hadoop's own benchmark jobs on YARN, timed and validated: TeraGen/TeraSort/TeraValidate, RandomWriter + Sort
(+ SortValidator), TestDFSIO write and read.

Usage: bench_mr.py SPEC.json RESULTS.jsonl PROGRESS.log
SPEC.json: {"hadoop_home": ..., "hdfs_dir": ..., "jobconf": {"k": "v"},
            "workloads": {"terasort_mr": {"records": N, "maps": M, "reduces": R},
                          "randomwriter": {"bytes": B, "maps": M}, "sort": {"reduces": R},
                          "testdfsio": {"files": F, "file_mb": S}}}
Every workload appends one JSON object to RESULTS.jsonl (as bench_spark.py does).
"""
import glob
import json
import os
import re
import subprocess
import sys

from bench_common import Timer, configure, emit  # next to this file on the node

SPEC = {}


def bin_(name):
    return os.path.join(SPEC["hadoop_home"], "bin", name)


def jar(pattern):
    found = sorted(glob.glob(os.path.join(SPEC["hadoop_home"], "share/hadoop/mapreduce", pattern)))
    if not found:
        raise SystemExit("bench_mr: no %s in %s/share/hadoop/mapreduce" % (pattern, SPEC["hadoop_home"]))
    return found[0]


def run(args):
    """Run a command; its combined output, raising with the tail of the output on failure."""
    proc = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True, check=False)
    if proc.returncode != 0:
        raise SystemExit("bench_mr: %s failed (rc %d):\n%s" % (" ".join(args[:4]), proc.returncode, proc.stdout[-3000:]))
    return proc.stdout


def hadoop_jar(jarfile, tool, *args):
    conf = []
    for k, v in sorted(SPEC.get("jobconf", {}).items()):
        conf += ["-D", "%s=%s" % (k, v)]
    return run([bin_("hadoop"), "jar", jarfile, tool] + conf + list(args))


def rm(path):
    run([bin_("hdfs"), "dfs", "-rm", "-r", "-f", "-skipTrash", path])


def cat(path_glob):
    return run([bin_("hdfs"), "dfs", "-cat", path_glob])


def du(path):
    return int(run([bin_("hdfs"), "dfs", "-du", "-s", path]).split()[0])


def du_parts(path):
    """Bytes of a job's part-* files in path (TeraSort also leaves _partition.lst there)."""
    total = 0
    for line in run([bin_("hdfs"), "dfs", "-du", path]).splitlines():
        fields = line.split()
        if len(fields) >= 3 and fields[-1].rsplit("/", 1)[-1].startswith("part-"):
            total += int(fields[0])
    return total


def counter(output, name):
    found = re.findall(r"\b%s=(-?\d+)" % re.escape(name), output)
    return int(found[-1]) if found else None


def run_terasort_mr(conf):
    ex = jar("hadoop-mapreduce-examples-*.jar")
    base = SPEC["hdfs_dir"] + "/terasort_mr"
    n = int(conf["records"])
    rm(base)
    t = Timer("terasort_mr")
    gen = t.phase("teragen", hadoop_jar, ex, "teragen", "-D", "mapreduce.job.maps=%d" % conf["maps"],
                  str(n), base + "/input")
    t.phase("terasort", hadoop_jar, ex, "terasort", "-D", "mapreduce.job.reduces=%d" % conf["reduces"],
            base + "/input", base + "/output")
    t.phase("teravalidate", hadoop_jar, ex, "teravalidate", base + "/output", base + "/validate")
    report = cat(base + "/validate/part-r-*")
    errors = [ln for ln in report.splitlines() if ln and not ln.startswith("checksum")]
    sums = re.findall(r"^checksum\s+([0-9a-fA-F]+)", report, re.M)
    out_sum = int(sums[0], 16) % (1 << 64) if sums else None
    in_sum = counter(gen, "CHECKSUM")
    in_sum = in_sum % (1 << 64) if in_sum is not None else None
    written = du_parts(base + "/output")
    ok = {"records_expected": counter(gen, "Map output records") == n,
          "checksum_equal": in_sum is not None and in_sum == out_sum,
          "sorted": not errors, "output_bytes": written == 100 * n}
    emit({"workload": "terasort_mr", "engine": "mapreduce", "input_bytes": 100 * n, "records": n,
          "duration_s": t.phases["terasort"], "phases": t.phases, "marks": t.marks,
          "validation": dict(ok, teragen_checksum="%x" % in_sum if in_sum is not None else None,
                             teravalidate_checksum="%x" % out_sum if out_sum is not None else None,
                             errors=errors[:10], passed=all(ok.values()))})


def run_randomwriter_sort(conf_rw, conf_sort):
    ex = jar("hadoop-mapreduce-examples-*.jar")
    tests = jar("hadoop-mapreduce-client-jobclient-*-tests.jar")
    base = SPEC["hdfs_dir"] + "/randomwriter"
    rm(base)
    total, maps = int(conf_rw["bytes"]), int(conf_rw["maps"])
    t = Timer("randomwriter")
    out = t.phase("randomwriter", hadoop_jar, ex, "randomwriter",
                  "-D", "mapreduce.randomwriter.totalbytes=%d" % total,
                  "-D", "mapreduce.randomwriter.bytespermap=%d" % max(1, total // maps),
                  base + "/input")
    written = counter(out, "BYTES_WRITTEN")
    records = counter(out, "RECORDS_WRITTEN")
    ok = {"bytes_written": written is not None and written >= total, "records_written": bool(records)}
    emit({"workload": "randomwriter", "engine": "mapreduce", "input_bytes": written or 0, "records": records,
          "duration_s": t.phases["randomwriter"], "phases": t.phases, "marks": t.marks,
          "validation": dict(ok, passed=all(ok.values()))})
    if conf_sort is None:
        return
    t = Timer("sort")
    t.phase("sort", hadoop_jar, ex, "sort", "-r", str(conf_sort["reduces"]), base + "/input", base + "/sorted")
    check = t.phase("sortvalidate", hadoop_jar, tests, "testmapredsort",
                    "-sortInput", base + "/input", "-sortOutput", base + "/sorted")
    ok = {"sort_validator": "SUCCESS! Validated the MapReduce framework's 'sort'" in check,
          "output_bytes": du(base + "/sorted") >= total}
    emit({"workload": "sort", "engine": "mapreduce", "input_bytes": written or 0, "records": records,
          "duration_s": t.phases["sort"], "phases": t.phases, "marks": t.marks,
          "validation": dict(ok, passed=all(ok.values()))})


def run_testdfsio(conf):
    tests = jar("hadoop-mapreduce-client-jobclient-*-tests.jar")
    base = SPEC["hdfs_dir"] + "/TestDFSIO"
    files, size_mb = int(conf["files"]), int(conf["file_mb"])
    rm(base)
    t = Timer("testdfsio")
    results = {}
    for mode in ("write", "read"):
        res_file = "/tmp/bigdata-bench/TestDFSIO-%s.log" % mode
        out = t.phase(mode, hadoop_jar, tests, "TestDFSIO", "-D", "test.build.data=%s" % base,
                      "-%s" % mode, "-nrFiles", str(files), "-size", "%dMB" % size_mb, "-resFile", res_file)
        got = {}
        for key, pattern in (("throughput_mb_s", r"Throughput mb/sec:\s*([\d.]+)"),
                             ("average_io_mb_s", r"Average IO rate mb/sec:\s*([\d.]+)"),
                             ("total_mb", r"Total MBytes processed:\s*([\d.]+)"),
                             ("files", r"Number of files:\s*(\d+)")):
            found = re.findall(pattern, out)
            got[key] = float(found[-1]) if found else None
        results[mode] = got
    ok = {"%s_total_mb" % m: results[m]["total_mb"] == float(files * size_mb) for m in results}
    ok.update({"%s_files" % m: results[m]["files"] == float(files) for m in results})
    for mode in ("write", "read"):
        emit({"workload": "testdfsio_%s" % mode, "engine": "mapreduce", "input_bytes": files * size_mb << 20,
              "records": files, "duration_s": t.phases[mode], "phases": {mode: t.phases[mode]},
              "marks": [m for m in t.marks if m["phase"] == mode], "dfsio": results[mode],
              "validation": dict(ok, passed=all(ok.values()))})


def main():
    global SPEC
    with open(sys.argv[1]) as fh:
        SPEC = json.load(fh)
    configure(sys.argv[2], sys.argv[3])
    w = SPEC.get("workloads", {})
    if "terasort_mr" in w:
        run_terasort_mr(w["terasort_mr"])
    if "randomwriter" in w:
        run_randomwriter_sort(w["randomwriter"], w.get("sort"))
    if "testdfsio" in w:
        run_testdfsio(w["testdfsio"])


if __name__ == "__main__":
    main()
