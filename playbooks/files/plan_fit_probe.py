# -*- coding: utf-8 -*-
# Copyright: bigdata.spark developers
# Apache License 2.0 (see LICENSE)
"""The fit check's Spark application: it starts, holds the executors YARN grants, and sleeps.

Usage: spark-submit ... plan_fit_probe.py SECONDS   (plan_fit.py kills it as soon as it has counted)
"""

import sys
import time

from pyspark.sql import SparkSession

spark = SparkSession.builder.getOrCreate()
time.sleep(int(sys.argv[1]))
spark.stop()
