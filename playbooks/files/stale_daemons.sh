#!/bin/sh
# Prints the Hadoop/Spark units of this host that are running and started before one of the files they
# read last changed (their configuration files, their unit file, the `current` release links), one
# "unit<TAB>newest changed file" a line. Reads only; used by playbooks/restart.yml.
#   stale_daemons.sh HADOOP_CONF_DIR HADOOP_CURRENT SPARK_CONF_DIR SPARK_CURRENT UNIT...
set -eu
hconf=$1 hcur=$2 sconf=$3 scur=$4
shift 4
newest() {
  # the newest mtime (seconds) among the arguments that exist; links themselves, not their targets
  best=0 file=-
  for f in "$@"; do
    [ -e "$f" ] || [ -L "$f" ] || continue
    m=$(stat -c %Y "$f")
    if [ "$m" -gt "$best" ]; then best=$m file=$f; fi
  done
  echo "$best $file"
}
for unit in "$@"; do
  [ "$(systemctl is-active "$unit" 2>/dev/null || true)" = active ] || continue
  started=$(systemctl show -p ActiveEnterTimestamp --timestamp=unix --value "$unit" | tr -d '@')
  [ -n "$started" ] || continue
  # The files each daemon reads at start (a change to another file does not restart it).
  case "$unit" in
    hadoop-hdfs-*) conf="core-site.xml hdfs-site.xml hadoop-env.sh log4j.properties" ;;
    hadoop-yarn-*) conf="core-site.xml hdfs-site.xml yarn-site.xml mapred-site.xml capacity-scheduler.xml hadoop-env.sh log4j.properties" ;;
    hadoop-mapred-*) conf="core-site.xml hdfs-site.xml yarn-site.xml mapred-site.xml hadoop-env.sh log4j.properties" ;;
    *) conf="core-site.xml hdfs-site.xml" ;;
  esac
  set -- "/etc/systemd/system/$unit.service" "$hcur"
  for f in $conf; do set -- "$@" "$hconf/$f"; done
  case "$unit" in
    spark-*) set -- "$@" "$scur"; for f in "$sconf"/*; do set -- "$@" "$f"; done ;;
    hadoop-yarn-nodemanager) set -- "$@" "$scur" ;;
  esac
  read -r changed file <<EOT
$(newest "$@")
EOT
  if [ "$changed" -gt "$started" ]; then printf '%s\t%s\n' "$unit" "$file"; fi
done
