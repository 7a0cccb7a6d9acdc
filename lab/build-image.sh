#!/usr/bin/env bash
# Build the lab's base image with debootstrap and `podman import` (no registry is reachable here).
# Reuses the image when one built from the same recipe exists; --force rebuilds it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
arch=${LAB_ARCH:-amd64}
force=false
for a in "$@"; do
  case "$a" in
    --force) force=true ;;
    --arch=*) arch=${a#--arch=} ;;
    *) echo "build-image: unknown argument '$a' (allowed: --force, --arch=amd64|arm64)" >&2; exit 2 ;;
  esac
done
case "$arch" in amd64|arm64) ;; *) echo "build-image: --arch must be amd64 or arm64, not '$arch'" >&2; exit 2 ;; esac

mirror=${LAB_DEBIAN_MIRROR:-http://deb.debian.org/debian}
# What the roles and tests need inside a node. The JDK is baked in because the nodes have no route out.
packages=(systemd systemd-sysv dbus python3 python3-apt openjdk-17-jdk-headless procps iproute2
  iputils-ping fio iperf3 curl ca-certificates acl sudo zip unzip netcat-openbsd less kmod)
recipe=$(printf '%s\n' "$arch" "${packages[@]}" "$(sha256sum "$0" | cut -c1-16)" | sha256sum | cut -c1-12)
image=localhost/bigdata-lab-base:bookworm-$arch
if ! $force && podman image exists "$image" \
   && [ "$(podman image inspect --format '{{ index .Labels "bigdata.recipe" }}' "$image" 2>/dev/null)" = "$recipe" ]; then
  echo "build-image: $image is up to date (recipe $recipe)"
  exit 0
fi

build=$here/build/rootfs-$arch
rm -rf "$build"
mkdir -p "$build"
echo "build-image: debootstrap bookworm ($arch) into $build"
debootstrap --variant=minbase --arch="$arch" --include=ca-certificates bookworm "$build" "$mirror" >"$here/build/debootstrap-$arch.log" 2>&1 \
  || { tail -20 "$here/build/debootstrap-$arch.log"; exit 1; }

cleanup() { umount -l "$build/proc" 2>/dev/null || true; umount -l "$build/sys" 2>/dev/null || true; umount -l "$build/dev" 2>/dev/null || true; }
trap cleanup EXIT
mount -t proc proc "$build/proc"
mount --rbind /sys "$build/sys"
mount --rbind /dev "$build/dev"
chroot "$build" /bin/sh -c "export DEBIAN_FRONTEND=noninteractive; apt-get update -qq && apt-get install -y -qq --no-install-recommends ${packages[*]} >/dev/null && apt-get clean"
cleanup
trap - EXIT

# A container boots quickly and quietly: no consoles, no units that need real hardware.
for unit in getty@tty1.service console-getty.service systemd-udevd.service systemd-udevd-control.socket \
            systemd-udevd-kernel.socket systemd-modules-load.service sys-kernel-config.mount \
            systemd-remount-fs.service systemd-timesyncd.service apt-daily.timer apt-daily-upgrade.timer; do
  ln -sf /dev/null "$build/etc/systemd/system/$unit"
done
echo "bigdata-lab" > "$build/etc/hostname"
: > "$build/etc/machine-id"
rm -rf "$build/var/lib/apt/lists/"* "$build/var/cache/apt/"*.bin

echo "build-image: importing $image"
# --arch records the image's architecture, so `podman run --arch arm64` finds it instead of pulling.
tar -C "$build" -c . | podman import --arch "$arch" --change 'CMD ["/sbin/init"]' --change "LABEL bigdata.recipe=$recipe" \
  --change 'STOPSIGNAL SIGRTMIN+3' - "$image" >/dev/null
rm -rf "$build"
echo "build-image: built $image (recipe $recipe)"
