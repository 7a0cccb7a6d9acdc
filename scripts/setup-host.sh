#!/usr/bin/env bash
# Prepare this machine for the lab and the tests: Debian packages, podman settings, the Python venv.
# Idempotent: every step checks before it changes anything.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
venv=${BIGDATA_VENV:-$top/.venv}

apt_packages=(podman runc netavark aardvark-dns debootstrap uidmap fuse-overlayfs slirp4netns
  iptables python3-venv openjdk-17-jdk-headless maven curl xz-utils rsync jq qemu-user-static binfmt-support
  shellcheck)

missing=()
for p in "${apt_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# Podman on this host: runc (crun fails on the cgroup v1 layout), cgroupfs, and ulimits the kernel accepts.
conf=/etc/containers/containers.conf
want='# bigdata.spark lab settings
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=20000:20000"]

[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"

[network]
network_backend = "netavark"
'
mkdir -p /etc/containers
if [ ! -f "$conf" ] || ! grep -q '^# bigdata.spark lab settings' "$conf"; then
  if [ -f "$conf" ] && [ ! -f "$conf.bigdata-orig" ]; then cp -p "$conf" "$conf.bigdata-orig"; fi
  printf '%s' "$want" > "$conf"
  echo "setup: wrote $conf"
fi

# aarch64 lab nodes run under qemu-user-static through binfmt_misc. The F (fix-binary) flag makes the
# kernel open the interpreter at registration, so it also works inside containers, whose root
# filesystem has no /usr/libexec/qemu-binfmt.
if [ "$(uname -m)" != aarch64 ]; then
  binfmt=/proc/sys/fs/binfmt_misc
  if ! mountpoint -q "$binfmt"; then
    mount -t binfmt_misc binfmt_misc "$binfmt"
    echo "setup: mounted $binfmt"
  fi
  if [ ! -e "$binfmt/qemu-aarch64" ]; then
    update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || systemctl restart binfmt-support >/dev/null 2>&1 || true
  fi
  if [ ! -e "$binfmt/qemu-aarch64" ] || ! grep -q '^flags: .*F' "$binfmt/qemu-aarch64" || ! grep -qx enabled "$binfmt/qemu-aarch64"; then
    echo "setup: qemu-aarch64 is not registered in $binfmt with the F (fix-binary) flag:" >&2
    cat "$binfmt/qemu-aarch64" >&2 2>/dev/null || true
    echo "setup: reinstall qemu-user-static (Debian registers it with flags PF) or run update-binfmts --enable qemu-aarch64" >&2
    echo "setup: WARNING: aarch64 lab nodes will not start until then; everything else is ready" >&2
  fi
fi

# Python venv with the pinned toolchain.
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
req="$top/requirements-dev.txt"
stamp="$venv/.requirements.sha256"
sum=$(sha256sum "$req" | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$sum" ]; then
  "$venv/bin/pip" install -q --upgrade pip
  "$venv/bin/pip" install -q -r "$req"
  echo "$sum" > "$stamp"
  echo "setup: venv ready at $venv"
fi
# The checkout as the collection bigdata.spark, for ansible.cfg's collections_path.
link=$top/.cache/collections/ansible_collections/bigdata/spark
if [ "$(readlink "$link" 2>/dev/null)" != "$top" ]; then
  mkdir -p "$(dirname "$link")"
  ln -sfn "$top" "$link"
fi
echo "setup: host ready"
