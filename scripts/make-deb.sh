#!/usr/bin/env bash
# Builds the Debian package tresor_<version>_amd64.deb into dist/: the release binary (Swift's
# runtime linked in, the system libraries it needs as Depends found by dpkg-shlibdeps), its
# resource bundles, tresor.service and tresor-backup@.timer (packaging/systemd), the environment
# file /etc/tresor/tresor.env, maintainer scripts and lintian's one override, with its reason
# (packaging/debian). The version is VERSION
# plus the number of commits and the commit (0.9.0+812.g0615165c1a2b); `tresor --version` says it.
# Usage: scripts/make-deb.sh [--ref GIT_REF]   (make deb; --ref packages an older commit, built
# in a worktree of its own, with today's packaging: the upgrade test installs it first)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh base deb
here=$PWD
ref=HEAD
[ "${1:-}" = --ref ] && ref=$2
commit=$(git rev-parse "$ref")
source_dir=$here scratch=$here/.build-deb
if [ "$ref" != HEAD ]; then
  source_dir=$here/.build-deb-src/${commit:0:12}
  [ -d "$source_dir" ] || git worktree add --detach "$source_dir" "$commit" >/dev/null
  scratch=$here/.build-deb-${commit:0:12}
fi
(cd "$source_dir" && swift build -c release --product tresor --static-swift-stdlib --scratch-path "$scratch")
version="$(cat VERSION)+$(git rev-list --count "$commit").g${commit:0:12}"
root=$(mktemp -d /tmp/tresor-deb.XXXXXX)
chmod 0755 "$root"
trap 'rm -rf "$root"' EXIT
install -d "$root/DEBIAN" "$root/usr/lib/tresor" "$root/usr/bin" "$root/lib/systemd/system" "$root/etc/tresor/banks" \
  "$root/usr/share/doc/tresor"
install -m 0755 "$scratch/release/tresor" "$root/usr/lib/tresor/tresor"
# why: symbols and the build machine's library path are no business of an installed binary.
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/lib/tresor/tresor"
patchelf --remove-rpath "$root/usr/lib/tresor/tresor"
for bundle in "$scratch"/release/*.resources; do cp -r "$bundle" "$root/usr/lib/tresor/"; done
find "$root/usr/lib/tresor" -type d -exec chmod 0755 {} +
find "$root/usr/lib/tresor" -type f ! -path "$root/usr/lib/tresor/tresor" -exec chmod 0644 {} +
echo "tresor $version (commit $commit)" >"$root/usr/lib/tresor/tresor.version"
ln -s ../lib/tresor/tresor "$root/usr/bin/tresor"
install -m 0644 packaging/systemd/tresor.service packaging/systemd/tresor-backup@.service packaging/systemd/tresor-backup@.timer \
  "$root/lib/systemd/system/"
install -m 0644 packaging/debian/tresor.env "$root/etc/tresor/tresor.env"
install -m 0644 packaging/debian/copyright "$root/usr/share/doc/tresor/copyright"
install -D -m 0644 packaging/debian/lintian-overrides "$root/usr/share/lintian/overrides/tresor"
gzip -9n <"$source_dir/README.md" >"$root/usr/share/doc/tresor/README.md.gz"
{
  echo "tresor ($version) unstable; urgency=medium"
  echo
  echo "  * Built from commit ${commit:0:12}: $(git log -1 --format=%s "$commit" | cut -c1-40)…"
  echo
  echo " -- Tresor maintainers <maintainers@tresor.example>  $(date -R -d "@$(git log -1 --format=%ct "$commit")")"
} | gzip -9n >"$root/usr/share/doc/tresor/changelog.gz"
install -m 0755 packaging/debian/postinst packaging/debian/prerm packaging/debian/postrm "$root/DEBIAN/"
echo /etc/tresor/tresor.env >"$root/DEBIAN/conffiles"
# dpkg-shlibdeps reads a debian/control; one of two lines is enough for it.
shlibs_dir=$(mktemp -d)
mkdir "$shlibs_dir/debian"
printf 'Source: tresor\n\nPackage: tresor\nArchitecture: amd64\n' >"$shlibs_dir/debian/control"
shlibs=$(cd "$shlibs_dir" && dpkg-shlibdeps -O "$root/usr/lib/tresor/tresor" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
rm -rf "$shlibs_dir"
[ -n "$shlibs" ] || { echo "make-deb: dpkg-shlibdeps found no libraries"; exit 1; }
size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
sed -e "s/@VERSION@/$version/" -e "s/@SHLIBS@/$shlibs/" -e "s/@SIZE@/$size/" packaging/debian/control.in >"$root/DEBIAN/control"
mkdir -p dist
deb="dist/tresor_${version}_amd64.deb"
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
echo "$deb"
