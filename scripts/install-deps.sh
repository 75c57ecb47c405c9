#!/usr/bin/env bash
# Installs the Debian packages Tresor needs, only those missing. Groups: base (build, SQLite, libxml2,
# zbar and Tesseract with its four languages, cairo, Pango and librsvg for PDFs and icons with a
# font, Poppler to read a QR-bill sent as a PDF, zlib), postgres, test, bench, chaos (HAProxy for
# scripts/chaos-test.sh), ha (Patroni, etcd and pgBackRest for scripts/failover-test.sh and
# scripts/pitr-test.sh), deb (dpkg-dev, patchelf, lintian and systemd-analyze for the package).
# Usage: scripts/install-deps.sh [GROUP…]   (default: base)
set -euo pipefail
declare -A groups=(
  [base]="libsqlite3-dev libxml2-dev sqlite3 curl ca-certificates python3 pkg-config libzbar-dev libtesseract-dev libleptonica-dev libheif-dev tesseract-ocr-deu tesseract-ocr-fra tesseract-ocr-ita tesseract-ocr-eng libcairo2-dev libpango1.0-dev librsvg2-dev libqrencode-dev libzxing-dev libpoppler-glib-dev zlib1g-dev fonts-dejavu-core"
  [postgres]="postgresql postgresql-contrib"
  [test]="libxml2-utils openssl chromium chromium-driver python3-venv fonts-dejavu-core poppler-utils"
  [bench]="postgresql postgresql-contrib wrk openssl nghttp2-client"
  [chaos]="haproxy"
  [ha]="haproxy postgresql patroni etcd-server pgbackrest"
  [deb]="dpkg-dev patchelf binutils lintian systemd"
)
wanted=()
for group in "${@:-base}"; do
  for package in ${groups[$group]:?unknown group $group}; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || wanted+=("$package")
  done
done
[ ${#wanted[@]} -eq 0 ] && exit 0
echo "Installing missing packages: ${wanted[*]}"
sudo=()
[ "$(id -u)" = 0 ] || sudo=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${wanted[@]}" >/dev/null
# why: Debian's package starts a system cluster we do not use; tests start their own.
if printf '%s\n' "${wanted[@]}" | grep -q '^postgresql$'; then
  "${sudo[@]}" service postgresql stop >/dev/null 2>&1 || true
fi
# why: the packages start a system HAProxy on port 80, an etcd and a Patroni; the tests run their own.
for service in haproxy etcd patroni; do
  if printf '%s\n' "${wanted[@]}" | grep -qE "^($service|$service-server)$"; then
    "${sudo[@]}" service "$service" stop >/dev/null 2>&1 || true
  fi
done
