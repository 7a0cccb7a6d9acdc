#!/bin/sh
# Prints the state of each unit given, one line each, tab-separated:
#   unit  enabled|disabled|not-installed  active|inactive|failed|...  seconds-since-start|-  release[+release]
# The releases are the targets of the `current` links the daemon reads (the daemon table's files). Reads only;
# used by playbooks/service.yml:
#   daemon_status.sh UNIT=LINK[,LINK...] ...
set -eu
now=$(date +%s)
for arg in "$@"; do
  case "$arg" in *=*) ;; *) echo "daemon_status.sh: '$arg' is not UNIT=LINK[,LINK...]" >&2; exit 2 ;; esac
  unit=${arg%%=*}
  links=${arg#*=}
  if [ ! -e "/etc/systemd/system/$unit.service" ] && [ ! -e "/lib/systemd/system/$unit.service" ]; then
    printf '%s\tnot-installed\t-\t-\t-\n' "$unit"
    continue
  fi
  enabled=$(systemctl is-enabled "$unit" 2>/dev/null || true)
  active=$(systemctl is-active "$unit" 2>/dev/null || true)
  since=-
  if [ "$active" = active ]; then
    started=$(systemctl show -p ActiveEnterTimestamp --timestamp=unix --value "$unit" | tr -d '@')
    [ -z "$started" ] || since=$((now - started))
  fi
  releases=
  old_ifs=$IFS
  IFS=,
  for link in $links; do
    target=$(readlink -f "$link" 2>/dev/null || true)
    [ -n "$target" ] && [ -e "$target" ] || target=missing
    releases=${releases:+$releases+}$(basename "$target")
  done
  IFS=$old_ifs
  printf '%s\t%s\t%s\t%s\t%s\n' "$unit" "${enabled:-unknown}" "${active:-unknown}" "$since" "${releases:--}"
done
