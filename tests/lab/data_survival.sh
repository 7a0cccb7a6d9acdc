#!/usr/bin/env bash
# Data survival: nothing the playbooks (or a crash) do loses a byte in HDFS.
#   tests/lab/data_survival.sh INVENTORY [STEPS]
# STEPS (comma-separated, in order; default all): write, rerun, rolling, stopstart, killdn, interrupt, idempotence.
#   write      put 4 files of 3 blocks each (1 MiB blocks, replication 2) and keep their MD5s
#   rerun      ansible-playbook site.yml again
#   rolling    start a MapReduce job (maps of 7.5 minutes); change a tuning value (hdfs and yarn) with site.yml
#              limited to the install (directories) and configure tags, which rewrites the files and restarts
#              the changed daemons rolling (playbooks/restart.yml); the job must outlive the restarts and
#              succeed with one ApplicationMaster and one attempt per task
#   jobsurvive start a MapReduce job, restart every worker's daemons rolling (playbooks/rolling_restart.yml
#              -e rolling_restart_all=true, limited to the workers) while it runs; the job must succeed
#   stopstart  stop every daemon of the cluster, start them again
#   killdn     SIGKILL one DataNode's JVM; read while it is gone; wait until it is back and nothing is under-replicated
#   idempotence  only the check, recorded as "rerun (molecule idempotence)": for the molecule lab scenario,
#              whose converge writes the files and whose idempotence run is the rerun of site.yml
#   interrupt  start site.yml with another tuning value, kill it once it is writing the HDFS files, run site.yml again
#   upgrade    site.yml with hadoop_version=$SURVIVAL_UPGRADE_TO: HDFS rolling upgrade from the release running now
#   rollback   during the upgrade, delete the first file and write a marker; playbooks/hdfs_upgrade.yml rollback to
#              hadoop_version=$SURVIVAL_UPGRADE_FROM; the first file must be back and the marker gone
#   finalize   playbooks/hdfs_upgrade.yml finalize
# SURVIVAL_EXTRA_VARS: a vars file given to every site.yml and hdfs_upgrade.yml run (-e @FILE), for inventories
# whose install settings live in the scenario (molecule's single node).
# After every step but write: every file is read back through HDFS and by a Spark job on YARN and its MD5
# compared; the step, the files checked and the files lost go to $SURVIVAL_RESULTS (a table at the end).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
inv=${1:?usage: data_survival.sh INVENTORY [STEPS]}
steps=${2:-write,rerun,rolling,stopstart,killdn,interrupt}
export ANSIBLE_CONFIG=${ANSIBLE_CONFIG:-$root/ansible.cfg} ANSIBLE_NOCOLOR=1
export SURVIVAL_RESULTS=${SURVIVAL_RESULTS:-/tmp/bigdata-survival-results.tsv}
log_dir=${SURVIVAL_LOG_DIR:-/tmp/bigdata-survival-logs}
mkdir -p "$log_dir"
# One run, one table.
: > "$SURVIVAL_RESULTS"

extra=()
[ -z "${SURVIVAL_EXTRA_VARS:-}" ] || extra=(-e "@$SURVIVAL_EXTRA_VARS")
play() { ansible-playbook -i "$inv" "${extra[@]}" "$@"; }
check_args=()
check() { play "$here/survival.yml" -e survival_action=check -e "survival_step=$1" "${check_args[@]}" > "$log_dir/check-$1.log" 2>&1 || { tail -40 "$log_dir/check-$1.log"; exit 1; }; }
timed() {
  local name=$1; shift
  local t0=$SECONDS
  "$@" > "$log_dir/$name.log" 2>&1 || { echo "survival: step $name failed (log $log_dir/$name.log)"; tail -40 "$log_dir/$name.log"; exit 1; }
  echo "survival: $name done in $((SECONDS - t0)) s"
}
# Extra vars replace the inventory's hdfs_site_overrides whole: keep the lab's heartbeat recheck in them.
recheck='"dfs.namenode.heartbeat.recheck-interval": 10000'
tuning='{"hdfs_site_overrides": {"dfs.datanode.handler.count": 7, '"$recheck"'}, "yarn_site_overrides": {"yarn.nodemanager.delete.debug-delay-sec": 30}}'
live7='{"survival_live_conf": [{"port": 9864, "property": "dfs.datanode.handler.count", "value": 7},
  {"port": 8042, "property": "yarn.nodemanager.delete.debug-delay-sec", "value": 30}]}'
tuning2='{"hdfs_site_overrides": {"dfs.datanode.handler.count": 8, '"$recheck"'}, "yarn_site_overrides": {"yarn.nodemanager.delete.debug-delay-sec": 60}}'

interrupt() {
  # Kill the converge once it is rewriting hdfs-site.xml (a tuning value differs), then converge again.
  local out=$log_dir/interrupt-killed.log
  ansible-playbook -i "$inv" "${extra[@]}" "$root/playbooks/site.yml" -e "$tuning2" > "$out" 2>&1 &
  local pid=$!
  local waited=0
  until grep -q 'TASK \[bigdata.spark.hdfs : Write hdfs-site.xml\]' "$out" 2>/dev/null; do
    sleep 2; waited=$((waited + 2))
    if ! kill -0 "$pid" 2>/dev/null; then echo "survival: the converge ended before it could be interrupted"; return 1; fi
    [ "$waited" -lt 1800 ] || { kill "$pid"; return 1; }
  done
  sleep 3
  kill -KILL "$pid"
  wait "$pid" 2>/dev/null || true
  echo "survival: converge killed after $waited s, at: $(grep '^TASK' "$out" | tail -1)"
  ansible-playbook -i "$inv" "${extra[@]}" "$root/playbooks/site.yml" -e "$tuning2"
}

IFS=, read -r -a list <<<"$steps"
for step in "${list[@]}"; do
  case "$step" in
    write) timed write play "$here/survival.yml" -e survival_action=write -e survival_rewrite=true ;;
    idempotence) check "rerun-site.yml-(molecule-idempotence)" ;;
    rerun) timed rerun play "$root/playbooks/site.yml"; check rerun ;;
    rolling) timed job-start play "$here/survival.yml" -e survival_action=job_start -e survival_job_ms=450000
             timed rolling play "$root/playbooks/site.yml" --tags hadoop_common_configure,hdfs_install,hdfs_configure,yarn_install,yarn_configure -e "$tuning"
             # The restarted daemons run with the new values (their /conf pages), not only the files.
             play "$here/survival.yml" -e survival_action=live_conf -e "$live7" > "$log_dir/live-conf.log" 2>&1 ||
               { echo "survival: a daemon does not run with the new value after the rolling restart"; tail -40 "$log_dir/live-conf.log"; exit 1; }
             timed job-wait play "$here/survival.yml" -e survival_action=job_wait
             check rolling ;;
    jobsurvive) timed job-start play "$here/survival.yml" -e survival_action=job_start -e survival_job_ms=240000
                timed jobsurvive play "$root/playbooks/rolling_restart.yml" -e rolling_restart_all=true --limit 'datanodes:nodemanagers:!namenode'
                timed job-wait play "$here/survival.yml" -e survival_action=job_wait
                check jobsurvive ;;
    stopstart) timed stopstart play "$here/survival.yml" -e survival_action=stop_start; check stopstart ;;
    killdn) timed killdn play "$here/survival.yml" -e survival_action=kill_datanode; check killdn ;;
    interrupt) timed interrupt interrupt; check interrupt ;;
    upgrade) timed upgrade play "$root/playbooks/site.yml" -e "hadoop_version=${SURVIVAL_UPGRADE_TO:?set SURVIVAL_UPGRADE_TO}"
             grep -q 'HDFS rolling upgrade from Hadoop .* is open' "$log_dir/upgrade.log" ||
               { echo "survival: site.yml did not leave an open HDFS rolling upgrade"; tail -40 "$log_dir/upgrade.log"; exit 1; }
             check "upgrade-to-$SURVIVAL_UPGRADE_TO" ;;
    rollback) timed mark play "$here/survival.yml" -e survival_action=mark
              timed rollback play "$root/playbooks/hdfs_upgrade.yml" -e hdfs_upgrade_action=rollback \
                -e hdfs_upgrade_discard_new_data=true -e "hadoop_version=${SURVIVAL_UPGRADE_FROM:?set SURVIVAL_UPGRADE_FROM}"
              check_args=(-e survival_expect_no_marker=true); check "rollback-to-$SURVIVAL_UPGRADE_FROM"; check_args=() ;;
    finalize) timed finalize play "$root/playbooks/hdfs_upgrade.yml" -e hdfs_upgrade_action=finalize; check finalize ;;
    *) echo "survival: unknown step '$step' (allowed: write, rerun, rolling, jobsurvive, stopstart, killdn, interrupt, idempotence, upgrade, rollback, finalize)" >&2; exit 2 ;;
  esac
done
echo
printf '| step | files checked | files lost |\n| --- | --- | --- |\n'
awk -F'\t' '{printf "| %s | %s | %s |\n", $1, $2, $3}' "$SURVIVAL_RESULTS"
