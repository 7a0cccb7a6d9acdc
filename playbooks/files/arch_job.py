"""One Spark job that says where its tasks ran: the sum of squares 1..N, plus each executor's host and CPU.

Usage: arch_job.py N PARTITIONS. Prints one JSON line: {"sum": ..., "executors": [[host, machine], ...]}.
"""

import json
import platform
import socket
import sys
import time

from pyspark.sql import SparkSession


def where(_index, rows):
    # A short pause per partition, so every registered executor gets tasks.
    time.sleep(0.5)
    total = 0
    for x in rows:
        total += x * x
    yield (socket.gethostname(), platform.machine(), total)


def main():
    n, partitions = int(sys.argv[1]), int(sys.argv[2])
    spark = SparkSession.builder.appName("bigdata-arch-check").getOrCreate()
    parts = spark.sparkContext.parallelize(range(1, n + 1), partitions).mapPartitionsWithIndex(where).collect()
    spark.stop()
    print(json.dumps({"sum": sum(p[2] for p in parts), "executors": sorted(set((p[0], p[1]) for p in parts))}))


if __name__ == "__main__":
    main()
