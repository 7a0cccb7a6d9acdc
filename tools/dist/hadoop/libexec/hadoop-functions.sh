#!/usr/bin/env bash
# Shared launcher code for bin/hadoop, bin/hdfs, bin/yarn and bin/mapred.
#
# Written for the bigdata.spark collection (tools/dist/README.md); it is not the Apache
# hadoop-functions.sh. It honours the environment variables the Hadoop 3.x scripts document
# (HADOOP_CONF_DIR, hadoop-env.sh, HADOOP_OPTS, <PROG>_<SUBCMD>_OPTS, HADOOP_HEAPSIZE_MAX, ...)
# and runs every command, daemons included, in the foreground with `exec java`.
#
# A bin script defines <prog>_subcommand (sets HD_CLASS, HD_DAEMON, HD_ARGS_PREFIX and returns 0,
# or returns 1 for an unknown name) and <prog>_usage, then calls: hd_main <prog> "$@".

# Java options that Hadoop 3.3.x needs on Java 9+ (JPMS). Guice (ResourceManager, NodeManager and
# JobHistory web apps) needs java.lang; the others cover reflection done by Hadoop's RPC, metrics and
# Kerberos code. Override with HADOOP_JPMS_OPTS (set it to "" to add nothing).
HD_DEFAULT_JPMS_OPTS="--add-opens=java.base/java.lang=ALL-UNNAMED \
--add-opens=java.base/java.lang.reflect=ALL-UNNAMED \
--add-opens=java.base/java.io=ALL-UNNAMED \
--add-opens=java.base/java.net=ALL-UNNAMED \
--add-opens=java.base/java.nio=ALL-UNNAMED \
--add-opens=java.base/java.util=ALL-UNNAMED \
--add-opens=java.base/java.util.concurrent=ALL-UNNAMED \
--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED \
--add-opens=java.base/java.util.zip=ALL-UNNAMED \
--add-opens=java.base/sun.nio.ch=ALL-UNNAMED \
--add-opens=java.base/sun.security.util=ALL-UNNAMED \
--add-opens=java.base/sun.security.x509=ALL-UNNAMED \
--add-opens=java.security.jgss/sun.security.krb5=ALL-UNNAMED"

hd_err() {
  printf 'ERROR: %s\n' "$*" >&2
}

hd_warn() {
  printf 'WARNING: %s\n' "$*" >&2
}

hd_debug() {
  if [[ -n "${HADOOP_SHELL_SCRIPT_DEBUG:-}" ]]; then
    printf 'DEBUG: %s\n' "$*" >&2
  fi
}

# Turn a heap size into a JVM size: a bare number means megabytes, as in the Apache scripts.
hd_heap_value() {
  if [[ "$1" =~ ^[0-9]+$ ]]; then
    printf '%sm' "$1"
  else
    printf '%s' "$1"
  fi
}

# Print the major version of the JVM in $JAVA_HOME (8, 11, 17, ...), or nothing if unknown.
hd_java_major() {
  local version=""
  if [[ -r "${JAVA_HOME}/release" ]]; then
    version=$(sed -n 's/^JAVA_VERSION="\([^"]*\)".*/\1/p' "${JAVA_HOME}/release")
  fi
  if [[ -z "${version}" ]]; then
    version=$("${HD_JAVA}" -version 2>&1 | sed -n 's/.*version "\([^"]*\)".*/\1/p' | head -n 1)
  fi
  if [[ "${version}" == 1.* ]]; then
    version=${version#1.}
  fi
  printf '%s' "${version%%[._+-]*}"
}

# Old variable names still honoured, as the Apache 3.x scripts do: new name wins, old one warns.
hd_deprecated() {
  local old=$1 new=$2
  if [[ -n "${!old:-}" && -z "${!new:-}" ]]; then
    hd_warn "${old} is deprecated, use ${new}"
    printf -v "${new}" '%s' "${!old}"
  fi
}

hd_add_classpath() {
  if [[ -z "${HD_CLASSPATH}" ]]; then
    HD_CLASSPATH=$1
  else
    HD_CLASSPATH="${HD_CLASSPATH}:$1"
  fi
}

# Add a directory (as DIR or DIR/*) to the classpath when it exists.
hd_add_dir() {
  local dir=$1 wildcard=$2
  if [[ -d "${dir}" ]]; then
    if [[ "${wildcard}" == yes ]]; then
      hd_add_classpath "${dir}/*"
    else
      hd_add_classpath "${dir}"
    fi
  fi
}

hd_build_classpath() {
  local prog=$1 share="${HADOOP_HOME}/share/hadoop"
  HD_CLASSPATH=""
  if [[ -n "${HADOOP_CLASSPATH:-}" && -n "${HADOOP_USER_CLASSPATH_FIRST:-}" ]]; then
    hd_add_classpath "${HADOOP_CLASSPATH}"
  fi
  hd_add_classpath "${HADOOP_CONF_DIR}"
  hd_add_dir "${share}/common/lib" yes
  hd_add_dir "${share}/common" yes
  # share/hadoop/hdfs itself holds webapps/, which the NameNode and DataNode load as resources.
  hd_add_dir "${share}/hdfs" no
  hd_add_dir "${share}/hdfs/lib" yes
  hd_add_dir "${share}/hdfs" yes
  if [[ "${prog}" != hdfs ]]; then
    hd_add_dir "${share}/mapreduce/lib" yes
    hd_add_dir "${share}/mapreduce" yes
    hd_add_dir "${share}/yarn" no
    hd_add_dir "${share}/yarn/lib" yes
    hd_add_dir "${share}/yarn" yes
  fi
  if [[ "${HD_TOOLS:-no}" == yes ]]; then
    hd_add_dir "${share}/tools/lib" yes
  fi
  if [[ -n "${HADOOP_CLASSPATH:-}" && -z "${HADOOP_USER_CLASSPATH_FIRST:-}" ]]; then
    hd_add_classpath "${HADOOP_CLASSPATH}"
  fi
}

hd_print_glob_classpath() {
  local entry file out=""
  local -a entries
  IFS=: read -r -a entries <<< "${HD_CLASSPATH}"
  for entry in "${entries[@]}"; do
    if [[ "${entry}" == */\* ]]; then
      for file in "${entry%\*}"*.jar "${entry%\*}"*.JAR; do
        [[ -e "${file}" ]] && out="${out:+${out}:}${file}"
      done
    else
      out="${out:+${out}:}${entry}"
    fi
  done
  printf '%s\n' "${out}"
}

hd_envvars() {
  local prog=$1
  printf "JAVA_HOME='%s'\n" "${JAVA_HOME:-}"
  case "${prog}" in
    hdfs)
      printf "HADOOP_HDFS_HOME='%s'\n" "${HADOOP_HDFS_HOME}"
      printf "HDFS_DIR='%s'\n" "share/hadoop/hdfs"
      printf "HDFS_LIB_JARS_DIR='%s'\n" "share/hadoop/hdfs/lib"
      ;;
    yarn)
      printf "HADOOP_YARN_HOME='%s'\n" "${HADOOP_YARN_HOME}"
      printf "YARN_DIR='%s'\n" "share/hadoop/yarn"
      printf "YARN_LIB_JARS_DIR='%s'\n" "share/hadoop/yarn/lib"
      ;;
    mapred)
      printf "HADOOP_MAPRED_HOME='%s'\n" "${HADOOP_MAPRED_HOME}"
      printf "MAPRED_DIR='%s'\n" "share/hadoop/mapreduce"
      printf "MAPRED_LIB_JARS_DIR='%s'\n" "share/hadoop/mapreduce/lib"
      ;;
    *)
      printf "HADOOP_COMMON_HOME='%s'\n" "${HADOOP_COMMON_HOME}"
      printf "HADOOP_COMMON_DIR='%s'\n" "share/hadoop/common"
      printf "HADOOP_COMMON_LIB_JARS_DIR='%s'\n" "share/hadoop/common/lib"
      printf "HADOOP_COMMON_LIB_NATIVE_DIR='%s'\n" "lib/native"
      ;;
  esac
  printf "HADOOP_CONF_DIR='%s'\n" "${HADOOP_CONF_DIR}"
  printf "HADOOP_LOG_DIR='%s'\n" "${HADOOP_LOG_DIR}"
  printf "HADOOP_TOOLS_HOME='%s'\n" "${HADOOP_HOME}"
  printf "HADOOP_TOOLS_DIR='%s'\n" "share/hadoop/tools"
  printf "HADOOP_TOOLS_LIB_JARS_DIR='%s'\n" "share/hadoop/tools/lib"
}

hd_source_env() {
  local file=$1
  if [[ -f "${file}" ]]; then
    # shellcheck disable=SC1090
    . "${file}"
  fi
}

hd_usage_common() {
  local prog=$1
  cat <<EOF
Usage: ${prog} [--config confdir] [--loglevel level] [--debug] SUBCOMMAND [args]

  --config DIR     Hadoop configuration directory (default: \$HADOOP_CONF_DIR or \$HADOOP_HOME/etc/hadoop)
  --loglevel LVL   log4j level for this command (DEBUG, INFO, WARN, ...)
  --debug          print the java command line before running it
  --help           this text

Daemons run in the foreground (exec java); supervise them with systemd.

SUBCOMMANDS:
EOF
}

# Generic entry point; "$1" is the program name (hadoop, hdfs, yarn, mapred).
hd_main() {
  local prog=$1
  shift
  local loglevel=""

  while [[ $# -gt 0 ]]; do
    case "$1" in
      --config)
        if [[ -z "${2:-}" ]]; then
          hd_err "--config needs a directory"
          exit 1
        fi
        HADOOP_CONF_DIR=$2
        shift 2
        ;;
      --config=*)
        HADOOP_CONF_DIR=${1#--config=}
        shift
        ;;
      --loglevel)
        loglevel=${2:-}
        shift 2
        ;;
      --debug)
        HADOOP_SHELL_SCRIPT_DEBUG=true
        shift
        ;;
      --daemon|--workers|--hosts|--hostnames|--buildpaths)
        hd_err "${prog}: option $1 is not supported by this distribution: daemons run in the foreground (use systemd)"
        exit 1
        ;;
      -h|--help|help|-help)
        "${prog}_usage"
        exit 0
        ;;
      --)
        shift
        break
        ;;
      -*)
        hd_err "${prog}: unknown option '$1'"
        "${prog}_usage" >&2
        exit 1
        ;;
      *)
        break
        ;;
    esac
  done

  if [[ $# -eq 0 ]]; then
    "${prog}_usage" >&2
    exit 1
  fi

  local subcmd=$1
  shift

  HD_CLASS=""
  HD_DAEMON=false
  HD_TOOLS=no
  HD_ARGS_PREFIX=()
  HD_SPECIAL=""
  if ! "${prog}_subcommand" "${subcmd}"; then
    hd_err "${prog}: unknown subcommand '${subcmd}'"
    "${prog}_usage" >&2
    exit 1
  fi

  # Configuration and environment files.
  HADOOP_CONF_DIR=${HADOOP_CONF_DIR:-${HADOOP_HOME}/etc/hadoop}
  if [[ ! -d "${HADOOP_CONF_DIR}" ]]; then
    hd_err "configuration directory '${HADOOP_CONF_DIR}' does not exist (HADOOP_CONF_DIR / --config)"
    exit 1
  fi
  HADOOP_CONF_DIR=$(cd -P -- "${HADOOP_CONF_DIR}" && pwd -P)
  export HADOOP_CONF_DIR
  hd_source_env "${HADOOP_CONF_DIR}/hadoop-env.sh"
  case "${prog}" in
    yarn) hd_source_env "${HADOOP_CONF_DIR}/yarn-env.sh" ;;
    mapred) hd_source_env "${HADOOP_CONF_DIR}/mapred-env.sh" ;;
  esac

  hd_deprecated HADOOP_HEAPSIZE HADOOP_HEAPSIZE_MAX
  case "${prog}" in
    yarn) hd_deprecated YARN_LOG_DIR HADOOP_LOG_DIR ;;
    mapred) hd_deprecated HADOOP_MAPRED_LOG_DIR HADOOP_LOG_DIR ;;
  esac

  export HADOOP_HOME HADOOP_COMMON_HOME=${HADOOP_COMMON_HOME:-${HADOOP_HOME}}
  export HADOOP_HDFS_HOME=${HADOOP_HDFS_HOME:-${HADOOP_HOME}}
  export HADOOP_YARN_HOME=${HADOOP_YARN_HOME:-${HADOOP_HOME}}
  export HADOOP_MAPRED_HOME=${HADOOP_MAPRED_HOME:-${HADOOP_HOME}}
  export HADOOP_LOG_DIR=${HADOOP_LOG_DIR:-${HADOOP_HOME}/logs}
  export HADOOP_IDENT_STRING=${HADOOP_IDENT_STRING:-${USER:-$(id -un)}}

  if [[ "${HD_SPECIAL}" == envvars ]]; then
    hd_envvars "${prog}"
    exit 0
  fi

  hd_build_classpath "${prog}"
  if [[ "${HD_SPECIAL}" == classpath ]]; then
    if [[ $# -eq 0 ]]; then
      printf '%s\n' "${HD_CLASSPATH}"
      exit 0
    fi
    if [[ $# -eq 1 && ( "$1" == --glob || "$1" == -glob ) ]]; then
      hd_print_glob_classpath
      exit 0
    fi
    HD_CLASS=org.apache.hadoop.util.Classpath
  fi

  if [[ -z "${JAVA_HOME:-}" ]]; then
    hd_err "JAVA_HOME is not set: export it or set it in ${HADOOP_CONF_DIR}/hadoop-env.sh"
    exit 1
  fi
  HD_JAVA="${JAVA_HOME}/bin/java"
  if [[ ! -x "${HD_JAVA}" ]]; then
    hd_err "JAVA_HOME=${JAVA_HOME} has no executable bin/java"
    exit 1
  fi

  local -a opts=()
  local -a words
  set -f
  # Word splitting of the *_OPTS variables is intended, as in the Apache scripts.
  local major
  major=$(hd_java_major)
  if [[ -n "${major}" && "${major}" -ge 9 ]]; then
    read -r -a words <<< "${HADOOP_JPMS_OPTS-${HD_DEFAULT_JPMS_OPTS}}"
    opts+=("${words[@]}")
  fi
  read -r -a words <<< "${HADOOP_OPTS:-}"
  opts+=("${words[@]}")
  if [[ "${prog}" == yarn ]]; then
    read -r -a words <<< "${YARN_OPTS:-}"
    opts+=("${words[@]}")
  fi

  # Per-subcommand options: HDFS_NAMENODE_OPTS, YARN_RESOURCEMANAGER_OPTS, MAPRED_HISTORYSERVER_OPTS ...
  local upper_prog upper_sub sub_var
  upper_prog=$(printf '%s' "${prog}" | tr '[:lower:]' '[:upper:]')
  upper_sub=$(printf '%s' "${subcmd}" | tr '[:lower:]-' '[:upper:]_')
  sub_var="${upper_prog}_${upper_sub}_OPTS"
  if [[ "${sub_var}" =~ ^[A-Z_][A-Z0-9_]*$ ]]; then
    case "${sub_var}" in
      HDFS_NAMENODE_OPTS|HDFS_DATANODE_OPTS|HDFS_SECONDARYNAMENODE_OPTS|HDFS_JOURNALNODE_OPTS|HDFS_ZKFC_OPTS)
        hd_deprecated "HADOOP_${upper_sub}_OPTS" "${sub_var}" ;;
      MAPRED_HISTORYSERVER_OPTS)
        hd_deprecated HADOOP_JOB_HISTORYSERVER_OPTS MAPRED_HISTORYSERVER_OPTS ;;
    esac
    read -r -a words <<< "${!sub_var:-}"
    opts+=("${words[@]}")
  fi
  # Per-daemon heap variables kept by the Apache 3.x scripts for YARN and the JobHistory server.
  local heap_var=""
  case "${sub_var}" in
    YARN_RESOURCEMANAGER_OPTS) heap_var=YARN_RESOURCEMANAGER_HEAPSIZE ;;
    YARN_NODEMANAGER_OPTS) heap_var=YARN_NODEMANAGER_HEAPSIZE ;;
    YARN_PROXYSERVER_OPTS) heap_var=YARN_PROXYSERVER_HEAPSIZE ;;
    YARN_TIMELINESERVER_OPTS) heap_var=YARN_TIMELINE_HEAPSIZE ;;
    MAPRED_HISTORYSERVER_OPTS) heap_var=HADOOP_JOB_HISTORYSERVER_HEAPSIZE ;;
  esac
  if [[ -n "${heap_var}" && -n "${!heap_var:-}" ]]; then
    HADOOP_HEAPSIZE_MAX=${!heap_var}
  fi
  if [[ "${HD_DAEMON}" != true ]]; then
    read -r -a words <<< "${HADOOP_CLIENT_OPTS:-}"
    opts+=("${words[@]}")
  fi
  set +f

  # Heap: only when no -Xmx / -Xms came in through the *_OPTS above (those win).
  if [[ -n "${HADOOP_HEAPSIZE_MAX:-}" && " ${opts[*]} " != *" -Xmx"* ]]; then
    opts+=("-Xmx$(hd_heap_value "${HADOOP_HEAPSIZE_MAX}")")
  fi
  if [[ -n "${HADOOP_HEAPSIZE_MIN:-}" && " ${opts[*]} " != *" -Xms"* ]]; then
    opts+=("-Xms$(hd_heap_value "${HADOOP_HEAPSIZE_MIN}")")
  fi

  # System properties that log4j.properties and the daemons read.
  local root_logger logfile host
  host=$(hostname 2>/dev/null || echo localhost)
  # A daemon class given arguments (namenode -format, -bootstrapStandby, ...) is a one-off admin
  # action: it logs to the console like a client.
  local daemon_logging=false
  if [[ "${HD_DAEMON}" == true && $# -eq 0 ]]; then
    daemon_logging=true
  fi
  if [[ "${daemon_logging}" == true ]]; then
    root_logger=${HADOOP_DAEMON_ROOT_LOGGER:-INFO,RFA}
    logfile="hadoop-${HADOOP_IDENT_STRING}-${subcmd}-${host}.log"
    if ! mkdir -p -- "${HADOOP_LOG_DIR}" 2>/dev/null || [[ ! -w "${HADOOP_LOG_DIR}" ]]; then
      hd_err "cannot write to HADOOP_LOG_DIR=${HADOOP_LOG_DIR}"
      exit 1
    fi
  else
    root_logger=${HADOOP_ROOT_LOGGER:-INFO,console}
    logfile=${HADOOP_LOGFILE:-hadoop.log}
  fi
  if [[ -n "${loglevel}" ]]; then
    root_logger="${loglevel}${root_logger#"${root_logger%%,*}"}"
  fi
  local security_logger=${HADOOP_SECURITY_LOGGER:-INFO,NullAppender}
  if [[ "${daemon_logging}" == true ]]; then
    security_logger=${HADOOP_SECURITY_LOGGER:-INFO,RFAS}
  fi

  local -a props=("-Dproc_${subcmd}")
  if [[ "${HADOOP_ALLOW_IPV6:-no}" != yes ]]; then
    props+=("-Djava.net.preferIPv4Stack=true")
  fi
  props+=(
    "-Dhadoop.log.dir=${HADOOP_LOG_DIR}"
    "-Dhadoop.log.file=${logfile}"
    "-Dhadoop.home.dir=${HADOOP_HOME}"
    "-Dhadoop.id.str=${HADOOP_IDENT_STRING}"
    "-Dhadoop.root.logger=${root_logger}"
    "-Dhadoop.policy.file=hadoop-policy.xml"
    "-Dhadoop.security.logger=${security_logger}"
  )
  if [[ "${prog}" == yarn ]]; then
    props+=(
      "-Dyarn.log.dir=${HADOOP_LOG_DIR}"
      "-Dyarn.log.file=${logfile}"
      "-Dyarn.home.dir=${HADOOP_YARN_HOME}"
      "-Dyarn.root.logger=${root_logger}"
      "-Dyarn.policy.file=hadoop-policy.xml"
    )
  fi
  if [[ "${subcmd}" == namenode ]]; then
    props+=("-Dhdfs.audit.logger=${HDFS_AUDIT_LOGGER:-INFO,NullAppender}")
  fi
  local native_path="${JAVA_LIBRARY_PATH:-}"
  if [[ -d "${HADOOP_HOME}/lib/native" ]]; then
    native_path="${native_path:+${native_path}:}${HADOOP_HOME}/lib/native"
  fi
  if [[ -n "${native_path}" ]]; then
    props+=("-Djava.library.path=${native_path}")
  fi

  local -a cmd=("${HD_JAVA}" "${opts[@]}" "${props[@]}" -classpath "${HD_CLASSPATH}" "${HD_CLASS}" "${HD_ARGS_PREFIX[@]}" "$@")
  if [[ -n "${HADOOP_SHELL_SCRIPT_DEBUG:-}" ]]; then
    printf 'DEBUG: %q ' "${cmd[@]}" >&2
    printf '\n' >&2
  fi
  exec "${cmd[@]}"
}

# Shared subcommands every program has.
hd_common_subcommand() {
  case "$1" in
    classpath) HD_SPECIAL=classpath ;;
    envvars) HD_SPECIAL=envvars ;;
    version) HD_CLASS=org.apache.hadoop.util.VersionInfo ;;
    jar) HD_CLASS=org.apache.hadoop.util.RunJar ;;
    daemonlog) HD_CLASS=org.apache.hadoop.log.LogLevel ;;
    *) return 1 ;;
  esac
  return 0
}
