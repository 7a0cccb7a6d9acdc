"""A small Spark job with a shuffle whose answer is known: the sum of i*i for i in 1..n.

Usage: spark-submit smoke_job.py N OUTPUT_DIR
The answer is written to OUTPUT_DIR on HDFS, so it can be read back in client and cluster mode alike.
"""
import sys

from pyspark.sql import SparkSession


def main():
    n = int(sys.argv[1])
    out = sys.argv[2]
    spark = SparkSession.builder.getOrCreate()
    sc = spark.sparkContext
    # Keyed by residue so the sum goes through a shuffle (and the shuffle service when it is on).
    by_key = sc.parallelize(range(1, n + 1), 8).map(lambda i: (i % 10, i * i)).reduceByKey(lambda a, b: a + b, 4)
    total = by_key.values().sum()
    sc.parallelize([str(total)], 1).saveAsTextFile(out)
    print("smoke_job total=%d" % total)
    spark.stop()


if __name__ == "__main__":
    main()
