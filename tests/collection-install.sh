#!/usr/bin/env bash
# Build the collection, install the tarball into a fresh venv, and run playbooks from the installed copy.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
work=$top/.cache/collection-test
rm -rf "$work"
mkdir -p "$work"
cd "$top"
ansible-galaxy collection build --force --output-path "$work" .
tarball=$(find "$work" -maxdepth 1 -name 'bigdata-spark-*.tar.gz' | head -1)
echo "built $(basename "$tarball") ($(du -h "$tarball" | cut -f1))"
# The tarball must not carry the venv, caches, the lab or raw benchmark data (galaxy.yml's build_ignore).
listing=$(tar -tzf "$tarball")
if echo "$listing" | grep -E '^(\.venv|\.cache|\.hypothesis|\.pytest_cache|artifacts|lab|tests/output)/|/__pycache__/|(^|/)raw/|(^|/)result\.json$|\.jsonl$' ; then
  echo "collection-install: the tarball holds files it must not" >&2; exit 1
fi
# ... but keeps the example run's report (the Markdown and plots stay, only the raw data goes).
grep -qx 'docs/benchmark-example/report.md' <<<"$listing" || { echo "collection-install: docs/benchmark-example/report.md is missing" >&2; exit 1; }

python3 -m venv "$work/venv"
"$work/venv/bin/pip" install -q "ansible-core>=2.19,<2.20" "ansible>=12,<13" jmespath
# Only the fresh install may be seen: not the checkout (the project's ansible.cfg links it in).
printf '[defaults]\ncollections_path = %s\n' "$work/collections" > "$work/ansible.cfg"
export ANSIBLE_COLLECTIONS_PATH=$work/collections ANSIBLE_CONFIG=$work/ansible.cfg
# --no-deps: Galaxy is not reachable here; the `ansible` package already carries the dependencies.
"$work/venv/bin/ansible-galaxy" collection install --no-deps -p "$work/collections" "$tarball"
installed=$work/collections/ansible_collections/bigdata/spark
test -f "$installed/playbooks/site.yml"
"$work/venv/bin/ansible-galaxy" collection list bigdata.spark -p "$work/collections"
cd "$work"
for pb in $(find "$installed/playbooks" -maxdepth 1 -name '*.yml' -printf '%f\n' | sed 's|\.yml$||' | sort); do
  "$work/venv/bin/ansible-playbook" -i localhost, --syntax-check "bigdata.spark.$pb"
done
for m in hardware_facts resource_plan; do
  "$work/venv/bin/ansible-doc" -t module "bigdata.spark.$m" | head -3
done
# A real run from the installed collection: the planner on the seed's three nodes, facts given by hand.
out=$("$work/venv/bin/ansible-playbook" -i "$installed/inventories/examples/seed-3-node-plan" bigdata.spark.plan)
echo "$out" | tail -5
echo "$out" | grep -q '737280' || { echo "collection-install: the installed plan.yml did not print the seed's NodeManager memory" >&2; exit 1; }
# The preflight report's default directory from an installed collection: results/preflight where ansible-playbook
# runs, not inside the collection (a playbook under an ansible_collections/ path reads the installed default).
probe=$work/probe/ansible_collections/bigdata/probe/playbooks
mkdir -p "$probe" "$work/run"
printf -- '- hosts: localhost\n  gather_facts: false\n  vars_files: [%s]\n  tasks:\n    - ansible.builtin.debug:\n        msg: "report_dir=={{ preflight_report_dir }}"\n' \
  "$installed/roles/preflight/defaults/main.yml" > "$probe/probe.yml"
out=$(cd "$work/run" && "$work/venv/bin/ansible-playbook" -i localhost, -c local "$probe/probe.yml")
echo "$out" | grep -q "report_dir==$work/run/results/preflight\"" ||
  { echo "collection-install: preflight_report_dir from an installed collection is not ./results/preflight:" >&2; echo "$out" >&2; exit 1; }
echo "collection-install: ok"
