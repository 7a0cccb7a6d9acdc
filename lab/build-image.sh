#!/usr/bin/env bash
# Build the lab's base image with debootstrap and `podman import` (no registry is reachable here).
# The image's tag carries a hash of its recipe (this script and its package list), so a changed recipe
# builds a new image beside the old one and containers already running keep theirs.
# Reuses the image when one built from the same recipe exists; --force rebuilds it; --print only prints
# the image's name.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
arch=${LAB_ARCH:-amd64}
force=false print=false
for a in "$@"; do
  case "$a" in
    --force) force=true ;;
    --print) print=true ;;
    --arch=*) arch=${a#--arch=} ;;
    *) echo "build-image: unknown argument '$a' (allowed: --force, --print, --arch=amd64|arm64)" >&2; exit 2 ;;
  esac
done
case "$arch" in amd64|arm64) ;; *) echo "build-image: --arch must be amd64 or arm64, not '$arch'" >&2; exit 2 ;; esac

mirror=${LAB_DEBIAN_MIRROR:-http://deb.debian.org/debian}
# What the roles and tests need inside a node. The JDK is baked in because the nodes have no route out.
packages=(systemd systemd-sysv dbus python3 python3-apt openjdk-17-jdk-headless procps iproute2
  iputils-ping fio iperf3 curl ca-certificates acl sudo zip unzip netcat-openbsd less kmod openssh-server
  krb5-user krb5-kdc krb5-admin-server python3-gssapi)
recipe=$(printf '%s\n' "$arch" "${packages[@]}" "$(sha256sum "$0" | cut -c1-16)" | sha256sum | cut -c1-12)
image=localhost/bigdata-lab-base:bookworm-$arch-$recipe
if $print; then echo "$image"; exit 0; fi
# One build per architecture at a time: a second caller (a parallel test scenario) waits, then finds the image.
mkdir -p "$here/build"
exec 8>"$here/build/build-image-$arch.lock"
flock 8
if ! $force && podman image exists "$image"; then
  echo "build-image: $image is up to date (recipe $recipe)"
  exit 0
fi

build=$here/build/rootfs-$arch
# The chroot's /proc, /sys and /dev are mounts of this machine's: never delete through them.
unmount_all() {
  awk -v b="$build/" 'index($2, b) == 1 {print $2}' /proc/mounts | sort -r | while read -r m; do
    umount -l "$m" 2>/dev/null || true
  done
  if awk -v b="$build/" 'index($2, b) == 1 {found=1} END {exit !found}' /proc/mounts; then
    echo "build-image: something is still mounted under $build; not removing it" >&2
    exit 1
  fi
}
unmount_all
rm -rf "$build"
mkdir -p "$build"
echo "build-image: debootstrap bookworm ($arch) into $build"
debootstrap --variant=minbase --arch="$arch" --include=ca-certificates bookworm "$build" "$mirror" >"$here/build/debootstrap-$arch.log" 2>&1 \
  || { tail -20 "$here/build/debootstrap-$arch.log"; exit 1; }

cleanup() { unmount_all; }
trap cleanup EXIT
trap 'exit 1' INT TERM
mount -t proc proc "$build/proc"
mount --rbind /sys "$build/sys"
mount --rbind /dev "$build/dev"
chroot "$build" /bin/sh -c "export DEBIAN_FRONTEND=noninteractive; apt-get update -qq && apt-get install -y -qq --no-install-recommends ${packages[*]} >/dev/null && apt-get clean"
cleanup
trap - EXIT INT TERM

# A container boots quickly and quietly: no consoles, no units that need real hardware.
for unit in getty@tty1.service console-getty.service systemd-udevd.service systemd-udevd-control.socket \
            systemd-udevd-kernel.socket systemd-modules-load.service sys-kernel-config.mount \
            systemd-remount-fs.service systemd-timesyncd.service apt-daily.timer apt-daily-upgrade.timer; do
  ln -sf /dev/null "$build/etc/systemd/system/$unit"
done
# Ansible reaches the nodes over SSH (pipelined, one connection per node). Every container makes its own
# host keys at first boot instead of sharing the ones the package made in the image.
rm -f "$build"/etc/ssh/ssh_host_*
mkdir -p "$build/etc/systemd/system/ssh.service.d"
printf '[Service]\nExecStartPre=\nExecStartPre=/usr/bin/ssh-keygen -A\nExecStartPre=/usr/sbin/sshd -t\n' \
  > "$build/etc/systemd/system/ssh.service.d/host-keys.conf"
echo "bigdata-lab" > "$build/etc/hostname"
: > "$build/etc/machine-id"
rm -rf "$build/var/lib/apt/lists/"* "$build/var/cache/apt/"*.bin

echo "build-image: importing $image"
# --arch records the image's architecture, so `podman run --arch arm64` finds it instead of pulling.
tar -C "$build" -c . | podman import --arch "$arch" --change 'CMD ["/sbin/init"]' --change "LABEL bigdata.recipe=$recipe" \
  --change 'STOPSIGNAL SIGRTMIN+3' - "$image" >/dev/null
unmount_all
rm -rf "$build"
echo "build-image: built $image (recipe $recipe)"
# Older recipes' images go unless a container still uses them (podman refuses those).
for old in $(podman images --format '{{.Repository}}:{{.Tag}}' | grep -E "^localhost/bigdata-lab-base:bookworm-$arch-[0-9a-f]{12}\$" | grep -vx "$image"); do
  podman rmi "$old" >/dev/null 2>&1 && echo "build-image: removed the older $old"
done
