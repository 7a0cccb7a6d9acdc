#!/usr/bin/env bash
# Locates HADOOP_HOME from this file's place and loads the launcher functions.
# Sourced by bin/hadoop, bin/hdfs, bin/yarn and bin/mapred.

HADOOP_LIBEXEC_DIR=$(cd -P -- "$(dirname -- "$(readlink -f -- "${BASH_SOURCE[0]}")")" && pwd -P)
HADOOP_HOME=${HADOOP_HOME:-$(cd -P -- "${HADOOP_LIBEXEC_DIR}/.." && pwd -P)}
export HADOOP_LIBEXEC_DIR HADOOP_HOME

# shellcheck source-path=SCRIPTDIR source=hadoop-functions.sh
. "${HADOOP_LIBEXEC_DIR}/hadoop-functions.sh"
