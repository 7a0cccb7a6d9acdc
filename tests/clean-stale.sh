#!/usr/bin/env bash
# Remove what an earlier, interrupted test run left behind: its lab containers and networks, its
# sanity and collection scratch trees, stale molecule state. The user's own lab (`bd`) is left alone.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
for lab in $(podman ps -a --format '{{ index .Labels "bigdata.lab" }}' 2>/dev/null | sort -u | grep -E '^t-' || true); do
  "$top/lab/lab.sh" down --name "$lab"
done
for net in $(podman network ls --format '{{.Name}}' 2>/dev/null | grep -E '^t-.*-(net|data)$' || true); do
  podman network rm -f "$net" >/dev/null 2>&1 && echo "clean-stale: removed network $net"
done
# The CPU cgroups of tests/run-all.sh (cpu_share) and what podman made below them: each removed when empty (rmdir
# refuses a group that still holds a process).
for g in /sys/fs/cgroup/*/bigdata-test-*; do
  if [ -d "$g" ]; then find "$g" -depth -type d -exec rmdir {} \; 2>/dev/null; fi
done
rm -rf "$top/.cache/sanity" "$top/.cache/collection-test" "$top/.cache/molecule" ~/.cache/molecule/spark 2>/dev/null
# A test lab's HTTP server (lab/lab.sh serve) still holds its gateway address and port, which the next lab of that
# name gets again: stopped by its command line, so a server left by a run of another checkout (a CI clone) goes too.
pkill -f 'http\.server --bind 10\.213\.[0-9]+\.1 --directory /.*/lab/build/t-[a-z0-9-]+-www' &&
  echo "clean-stale: stopped the HTTP servers of earlier test labs"
rm -f "$top"/lab/build/t-*-inventory.yml "$top"/lab/build/t-*-serve.pid
rm -rf "$top"/lab/build/t-*-www
# Molecule's prerun installs this collection into ~/.ansible/collections; an old copy there would be what
# ansible-lint and ansible-test resolve `bigdata.spark` to (roles added since would be "missing").
rm -rf ~/.ansible/collections/ansible_collections/bigdata/spark "$top/.ansible/collections/ansible_collections/bigdata/spark"
exit 0
