# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""Spark job of the data-survival test: the MD5 of every file under an HDFS directory, read by executors.

    spark-submit survival_job.py /survival   ->  "<md5>  <file name>" per line on stdout
"""

import hashlib
import posixpath
import sys

from pyspark.sql import SparkSession


def main():
    spark = SparkSession.builder.appName("bigdata-survival").getOrCreate()
    pairs = spark.sparkContext.binaryFiles(sys.argv[1]).map(
        lambda kv: (posixpath.basename(kv[0]), hashlib.md5(kv[1]).hexdigest())).collect()
    for name, digest in sorted(pairs):
        print("%s  %s" % (digest, name))
    spark.stop()


if __name__ == "__main__":
    main()
