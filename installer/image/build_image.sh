#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The container image of `relaydesk serve` (docs/harness.md "In CI and containers"),
# from the project's own .deb, with Debian's tools only and no registry but Debian's:
#
#   installer/image/build_image.sh DEB OUT [--update-lock]
#
# 1. mmdebstrap: a Debian 12 (bookworm) minbase root with DEB installed by apt
#    (its dependencies from Debian's mirror), the user relaydesk (uid 10001),
#    /var/lib/relaydesk for the database, the health check script.
# 2. The package versions of that root against packages.lock beside this script:
#    any difference fails the build (the mirror moved on: run with --update-lock,
#    review, commit). The same .deb and the same locked versions give the same layer.
# 3. One layer: the root as a tar with sorted names, every mtime SOURCE_DATE_EPOCH
#    (the commit time of HEAD unless set), numeric owners, no atime/ctime, no logs or caches.
# 4. OUT/relaydesk-image.tar: a docker-archive (`docker load`, `podman load`), whose
#    image config carries the HEALTHCHECK (Docker's image format has the field, the
#    OCI format has not); OUT/oci: the same image as an OCI layout (skopeo), for umoci.
#    OUT/image.env: the image's name, id, layer digest and sizes.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
DEB=$(realpath "$1")
OUT=$2
UPDATE_LOCK=${3:-}
LOCK=$HERE/packages.lock
MIRROR=${RELAYDESK_IMAGE_MIRROR:-http://deb.debian.org/debian}
SECURITY=${RELAYDESK_IMAGE_SECURITY_MIRROR:-http://deb.debian.org/debian-security}

log() { printf 'build_image: %s\n' "$*" >&2; }

export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git -C "$ROOT" log -1 --format=%ct)}
version=$(dpkg-deb -f "$DEB" Version)
tag=${version//[^A-Za-z0-9_.-]/-}   # an image tag has no ~ or +
work=$(mktemp -d /var/tmp/relaydesk-image.XXXXXX)
trap 'rm -rf --one-file-system "$work"' EXIT
rootfs=$work/rootfs

log "root from $MIRROR with $(basename "$DEB"), SOURCE_DATE_EPOCH=$SOURCE_DATE_EPOCH"
mmdebstrap --quiet --mode=root --variant=minbase --format=directory \
  --aptopt='APT::Install-Recommends "false"' \
  --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
  --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/locale/*' \
  --dpkgopt='path-exclude=/usr/share/info/*' \
  --customize-hook="copy-in $DEB /tmp" \
  --customize-hook="chroot \"\$1\" env DEBIAN_FRONTEND=noninteractive apt-get install --yes --quiet=2 /tmp/$(basename "$DEB")" \
  --customize-hook='chroot "$1" groupadd --system --gid 10001 relaydesk' \
  --customize-hook='chroot "$1" useradd --system --uid 10001 --gid 10001 --home-dir /var/lib/relaydesk --no-create-home --shell /usr/sbin/nologin relaydesk' \
  --customize-hook='mkdir -p "$1/var/lib/relaydesk" && chown 10001:10001 "$1/var/lib/relaydesk" && chmod 0750 "$1/var/lib/relaydesk"' \
  --customize-hook="copy-in $HERE/healthcheck.sh /usr/local/bin" \
  --customize-hook='mv "$1/usr/local/bin/healthcheck.sh" "$1/usr/local/bin/relaydesk-healthcheck"' \
  --customize-hook='chroot "$1" dpkg-query -W -f="\${Package} \${Version} \${Architecture}\n" | LC_ALL=C sort > "$1/../packages.installed"' \
  --customize-hook='rm -f "$1/etc/resolv.conf" "$1/etc/hostname" "$1"/etc/*- "$1/var/cache/ldconfig/aux-cache" "$1/var/lib/dpkg"/*-old' \
  --customize-hook='rm -rf "$1"/var/log/* "$1"/var/cache/apt/* "$1"/var/lib/apt/lists/* "$1"/tmp/* "$1"/var/cache/debconf/*-old' \
  --customize-hook=': > "$1/etc/machine-id"' \
  bookworm "$rootfs" "deb $MIRROR bookworm main" "deb $MIRROR bookworm-updates main" \
  "deb $SECURITY bookworm-security main"

# The locked versions: relaydesk's own line is the .deb's and not locked.
grep -v '^relaydesk ' "$work/packages.installed" > "$work/packages.now"
if [ "$UPDATE_LOCK" = "--update-lock" ]; then
  { echo "# The package versions of the relaydesk image's root (installer/image/build_image.sh)."
    echo "# Written by \`installer/dev.sh image --update-lock\`; a build whose root differs fails."
    cat "$work/packages.now"; } > "$LOCK"
  log "wrote $LOCK ($(wc -l < "$work/packages.now") packages)"
elif ! diff -u <(grep -v '^#' "$LOCK") "$work/packages.now" >&2; then
  log "the root's package versions differ from $LOCK (above): Debian's mirror moved on."
  log "Review the difference, then: installer/dev.sh image --update-lock"
  exit 1
fi

# The layer: sorted, every mtime the epoch, numeric owners, no pax times.
tar -C "$rootfs" --sort=name --mtime="@$SOURCE_DATE_EPOCH" --numeric-owner --format=gnu \
  -cf "$work/layer.tar" .
layer_digest=$(sha256sum "$work/layer.tar" | cut -d' ' -f1)

python3 "$HERE/image_config.py" --version "$version" --epoch "$SOURCE_DATE_EPOCH" \
  --layer-digest "sha256:$layer_digest" --deb "$(basename "$DEB")" > "$work/config.json"
config_digest=$(sha256sum "$work/config.json" | cut -d' ' -f1)

# docker-archive: manifest.json, the config, the layer; packed like the layer.
archive=$work/archive
mkdir -p "$archive/$layer_digest"
mv "$work/layer.tar" "$archive/$layer_digest/layer.tar"
cp "$work/config.json" "$archive/$config_digest.json"
printf '[{"Config":"%s.json","RepoTags":["relaydesk:%s"],"Layers":["%s/layer.tar"]}]\n' \
  "$config_digest" "$tag" "$layer_digest" > "$archive/manifest.json"
mkdir -p "$OUT"
tar -C "$archive" --sort=name --mtime="@$SOURCE_DATE_EPOCH" --owner=0 --group=0 --numeric-owner --format=gnu \
  -cf "$OUT/relaydesk-image.tar" manifest.json "$config_digest.json" "$layer_digest"

rm -rf "$OUT/oci"
skopeo copy --quiet "docker-archive:$OUT/relaydesk-image.tar" "oci:$OUT/oci:$tag"

layer_bytes=$(stat -c %s "$archive/$layer_digest/layer.tar")
gzip_bytes=$(gzip -n -c "$archive/$layer_digest/layer.tar" | wc -c)
cat > "$OUT/image.env" <<ENV
IMAGE=relaydesk:$tag
IMAGE_ID=sha256:$config_digest
LAYER_DIGEST=sha256:$layer_digest
LAYER_BYTES=$layer_bytes
LAYER_GZIP_BYTES=$gzip_bytes
PACKAGES=$(wc -l < "$work/packages.installed")
SOURCE_DATE_EPOCH=$SOURCE_DATE_EPOCH
ENV
log "relaydesk:$tag id sha256:$config_digest, layer $((layer_bytes / 1048576)) MiB ($((gzip_bytes / 1048576)) MiB gzip) in $OUT"
