#!/usr/bin/env bash
# The test command's layers, each timed and summarised on one line; the last line counts them.
#   tests/run-all.sh                 every layer
#   tests/run-all.sh lint unit       only these
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
export PATH=$top/.venv/bin:$PATH ANSIBLE_CONFIG=$top/ansible.cfg ANSIBLE_FORCE_COLOR=0 PY_COLORS=0
layers=("$@")
[ ${#layers[@]} -gt 0 ] || layers=(lint unit sanity collection artifacts molecule)
logdir=$top/tests/output/logs
mkdir -p "$logdir"

layer_lint() {
  # Shell scripts (by name or shebang) are checked with the exclusions of ansible-test's sanity check, so
  # the fast target catches what the sanity layer would refuse.
  git ls-files | while read -r f; do
    # (an if, not `&&`: under pipefail a last file that is no shell script must not fail the layer)
    # (Jinja templates of scripts, *.j2, are not shell until rendered.)
    case $f in *.sh) echo "$f" ;; *.j2) ;; *) if head -c 64 "$f" 2>/dev/null | grep -qE '^#!.*(ba)?sh'; then echo "$f"; fi ;; esac
  done | xargs shellcheck -e SC1090,SC1091,SC2028 &&
    yamllint -s . && ansible-lint --profile production --offline &&
    # pep8 with ansible-test's settings (its sanity layer runs the same check, 50 s later).
    git ls-files '*.py' | xargs pycodestyle --max-line-length 160 --ignore E402,W503,W504,E741,E203,E701,E704
}
layer_unit() {
  # With the units, autotune's bad-input runs: real ansible-playbook runs on a made-up inventory whose hosts do not
  # exist (a run that tried to reach one fails), so they need no lab.
  env -u BIGDATA_LAB_INVENTORY pytest -q -p no:cacheprovider tests/unit tests/lab/test_autotune_bad_input.py
}
layer_sanity() {
  # ansible-test builds one venv per sanity test and fetches pip's bootstrap script from a host that is
  # not reachable here; give it ours (ensurepip + PyPI) under the name it looks for.
  local pipver
  pipver=$(grep -oE "pip='[0-9.]+'" "$top"/.venv/lib/python3*/site-packages/ansible_test/_internal/python_requirements.py | head -1 | grep -oE '[0-9.]+')
  mkdir -p ~/.ansible/test/cache
  cp "$top/tests/ansible_test_pip_bootstrap.py" ~/.ansible/test/cache/"get_pip_${pipver//./_}.py"
  local tree=$top/.cache/sanity/ansible_collections/bigdata/spark
  rm -rf "$top/.cache/sanity"
  mkdir -p "$tree"
  git ls-files -z --cached --others --exclude-standard | rsync -a --from0 --files-from=- "$top/" "$tree/"
  # ansible-test lists files with git; the copy is its own repository so the checkout's .gitignore
  # (which hides .cache/) does not hide it.
  (cd "$tree" && git init -q && git add -A && ansible-test sanity --python 3.11 --requirements --color no)
}
layer_collection() { tests/collection-install.sh; }
layer_artifacts() {
  # Hadoop 3.3.5 as well: the single scenario starts on it and upgrades to 3.3.6 (its Maven builder then
  # finds the 3.3.5 jars in the Maven repository that lab/lab.sh serves).
  python3 tools/build_dist.py --out artifacts && python3 tools/build_dist.py --out artifacts --only hadoop --hadoop-version 3.3.5
}
# CPU shares on a cgroup v1 machine (this one; as root): the calling subshell, what it starts, and the lab nodes it
# starts (lab/lab.sh's LAB_CGROUP_PARENT) share one cgroup, /bigdata-test-NAME, with SHARES against the others'. nice
# alone cannot order the scenarios: every container is a cgroup of its own under podman's libpod_parent, so the
# single scenario's node got the CPU share of each lab node whatever its nice, and each busy host process (ansible's
# forks, the lane's pytest) competed with all the containers together (the lab's converge took 1011 s beside single
# and the lane, 384 s alone). Elsewhere (cgroup v2, not root) nothing changes and the nice values below still apply.
cpu_share() {
  local g=/sys/fs/cgroup/cpu/bigdata-test-$1
  [ -w /sys/fs/cgroup/cpu/cgroup.procs ] || return 0
  mkdir -p "$g" && echo "$2" >"$g/cpu.shares" && echo "$BASHPID" >"$g/cgroup.procs" &&
    export LAB_CGROUP_PARENT=/bigdata-test-$1
}
# The lab scenario has the most to do: while all three are busy it gets twice single's share and four times the lane's;
# single and the lane also take the cycles the lab leaves while it waits on daemons and jobs. (Tried at 4096, 512 and
# 256, secure lab-prod: the lab's converge took 480 s, against 1011 s with nice alone, but single's converge and
# idempotence 20 and 15 minutes, and the lane's unit layer 39 minutes, one test over its 600-s timeout.)
declare -A SHARES=([lab]=4096 [single]=2048 [lane]=1024)

layer_molecule() {
  # The scenarios run side by side (each has its own lab name and network); a scenario spends much of
  # its time waiting on daemons and podman, so together they finish well before one after the other.
  local s rc=0 pids=() names=()
  # The base image once, before the scenarios start their labs (a no-op when it is up to date).
  lab/build-image.sh || return 1
  for s in ${MOLECULE_SCENARIOS:-single lab}; do
    [ -f "extensions/molecule/$s/molecule.yml" ] || { echo "molecule: no scenario '$s'" >&2; return 2; }
    # Every line time-stamped (bash's printf, no fork per line; Python unbuffered so the stamp is the line's
    # time) for tools/step_times.py below.
    # Each scenario in its cgroup (cpu_share above). single also runs at nice 10: where there are no cgroups to
    # share, that at least orders its host-side processes behind the lab's.
    local niceness=0
    [ "$s" = single ] && niceness=10
    (cpu_share "$s" "${SHARES[$s]:-1024}"
     PYTHONUNBUFFERED=1 nice -n "$niceness" molecule test -s "$s" 2>&1 | while IFS= read -r line; do printf '%(%T)T %s\n' -1 "$line"; done >"$logdir/molecule-$s.log"
     exit "${PIPESTATUS[0]}") &
    pids+=($!) names+=("$s")
    # The scenarios find this checkout as bigdata.spark through .cache/collections (their prerun is off);
    # a short gap only keeps their creates from starting podman at the same instant.
    sleep 10
  done
  for i in "${!pids[@]}"; do
    if wait "${pids[$i]}"; then
      echo "molecule scenario ${names[$i]}: passed"
      python3 tools/step_times.py "$logdir/molecule-${names[$i]}.log"
    else
      python3 tools/step_times.py "$logdir/molecule-${names[$i]}.log"
      rc=1
      echo "molecule scenario ${names[$i]}: FAILED; the end of $logdir/molecule-${names[$i]}.log:"
      tail -40 "$logdir/molecule-${names[$i]}.log"
    fi
  done
  return $rc
}

# One test run at a time on a machine: clean-stale.sh removes every test lab, a running one's too.
exec 9>"${TMPDIR:-/tmp}/bigdata-spark-tests.lock"
if ! flock -n 9; then
  echo "run-all: another test run holds ${TMPDIR:-/tmp}/bigdata-spark-tests.lock; wait for it to finish" >&2
  exit 2
fi
tests/clean-stale.sh
for layer in "${layers[@]}"; do
  if ! declare -F "layer_$layer" >/dev/null; then
    echo "run-all: unknown layer '$layer' (allowed: lint unit sanity collection artifacts molecule)" >&2
    exit 2
  fi
done

# One layer: its output to its log (and to the terminal when it runs alone), its exit code and seconds to
# $logdir/LAYER.result for the summary.
run_layer() {
  local layer=$1 start rc
  start=$(date +%s)
  if [ "${2:-}" = quiet ]; then
    "layer_$layer" >"$logdir/$layer.log" 2>&1
    rc=$?
  else
    echo "=== layer $layer ==="
    "layer_$layer" 2>&1 | tee "$logdir/$layer.log"
    rc=${PIPESTATUS[0]}
  fi
  echo "$rc $(( $(date +%s) - start ))" >"$logdir/$layer.result"
}

# A lane runs its layers one after the other, each quiet, and shows each log when the layer ends.
run_lane() {
  local layer
  for layer in "$@"; do
    run_layer "$layer" quiet
    { echo "=== layer $layer (log $logdir/$layer.log) ==="; cat "$logdir/$layer.log"; } | sed "s/^/[$layer] /"
  done
}

rm -f "$logdir"/*.result
if [ "$#" -eq 0 ]; then
  # The whole command: molecule as soon as the artifacts it deploys are built, and the other checks beside it in one
  # lane at a low CPU priority (its cgroup's share, cpu_share above, or nice 10 where there is none: it takes the
  # cycles the labs leave while they wait on daemons); it is done long before the lab scenario (docs/testing.md: the
  # times).
  (cpu_share lane "${SHARES[lane]}"; renice -n 10 -p "$BASHPID" >/dev/null; run_lane lint unit collection sanity) &
  lane=$!
  run_layer artifacts
  run_layer molecule
  wait "$lane"
else
  for layer in "${layers[@]}"; do run_layer "$layer"; done
fi

passed=0 failed=0 summary=()
for layer in "${layers[@]}"; do
  read -r rc secs <"$logdir/$layer.result" 2>/dev/null || { rc=1 secs=0; }
  if [ "$rc" -eq 0 ]; then
    passed=$((passed + 1)); summary+=("layer $layer: passed in ${secs}s")
  else
    failed=$((failed + 1)); summary+=("layer $layer: FAILED (exit $rc) in ${secs}s, log $logdir/$layer.log")
    # The summary is what a reader of the end of the output sees: the failed tests' names (pytest's short summary
    # lines) and the last lines of the layer's log, so a failure can be read without the log.
    mapfile -t -O "${#summary[@]}" summary < <(grep -E '^(FAILED|ERROR) ' "$logdir/$layer.log" 2>/dev/null | head -20 | cut -c1-400 | sed 's/^/    /')
    mapfile -t -O "${#summary[@]}" summary < <(tail -15 "$logdir/$layer.log" 2>/dev/null | cut -c1-400 | sed 's/^/    | /')
    # A molecule scenario's log ends with its recap and destroy step: the failed task and why, from its middle.
    if [ "$layer" = molecule ]; then
      for log in "$logdir"/molecule-*.log; do
        mapfile -t -O "${#summary[@]}" summary < <(python3 tools/failure_digest.py "$log" 2>&1 | sed "s/^/    $(basename "$log" .log): /")
      done
    fi
  fi
done
echo
echo "=== summary ==="
printf '%s\n' "${summary[@]}"
echo "layers: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
