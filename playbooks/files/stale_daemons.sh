#!/bin/sh
# Prints the units of this host that are running and started before one of the files they read last
# changed, one "unit<TAB>newest changed file" a line. Reads only; used by playbooks/restart.yml, which
# passes each daemon's files from the daemon table (plugins/module_utils/daemons.py):
#   stale_daemons.sh UNIT=PATH[,PATH...] ...
# A PATH that is a directory stands for the files in it; links count by their own time, not their target's.
set -eu
newest() {
  # the newest mtime (seconds) among the arguments that exist
  best=0 file=-
  for f in "$@"; do
    [ -e "$f" ] || [ -L "$f" ] || continue
    m=$(stat -c %Y "$f")
    if [ "$m" -gt "$best" ]; then best=$m file=$f; fi
  done
  echo "$best $file"
}
for arg in "$@"; do
  unit=${arg%%=*}
  paths=${arg#*=}
  case "$arg" in *=*) ;; *) echo "stale_daemons.sh: '$arg' is not UNIT=PATH[,PATH...]" >&2; exit 2 ;; esac
  [ "$(systemctl is-active "$unit" 2>/dev/null || true)" = active ] || continue
  started=$(systemctl show -p ActiveEnterTimestamp --timestamp=unix --value "$unit" | tr -d '@')
  [ -n "$started" ] || continue
  set --
  old_ifs=$IFS
  IFS=,
  for p in $paths; do
    if [ -d "$p" ] && [ ! -L "$p" ]; then
      for f in "$p"/*; do set -- "$@" "$f"; done
    else
      set -- "$@" "$p"
    fi
  done
  IFS=$old_ifs
  read -r changed file <<EOT
$(newest "$@")
EOT
  if [ "$changed" -gt "$started" ]; then printf '%s\t%s\n' "$unit" "$file"; fi
done
