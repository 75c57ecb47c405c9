#!/usr/bin/env bash
# The Debian package as a bank's IT meets it: lintian finds no error, systemd-analyze verify
# passes on the units, the package installs with dpkg -i + apt-get -f install, `tresor --version`
# names the commit, and the installed binary, run as the unit runs it (the tresor user, in
# /var/lib/tresor, with /etc/tresor/tresor.env), serves the demo bank. With --previous REF the
# package of that older commit is installed first and serves the demo, then the new one upgrades
# it and serves the database the old version made, migrated, the books and the audit chain whole.
# why not under systemd: a container has no systemd as PID 1; the unit's command line is run by
# hand and its hardening is what systemd-analyze checks.
# Usage: scripts/deb-test.sh [--previous REF]   (make deb-test; as root, on a test machine: it
# purges an installed tresor package first and at the end)
set -euo pipefail
cd "$(dirname "$0")/.."
previous=""
[ "${1:-}" = --previous ] && previous=$2
new=$(scripts/make-deb.sh | tail -n 1)
old=""
[ -n "$previous" ] && old=$(scripts/make-deb.sh --ref "$previous" | tail -n 1)
work=$(mktemp -d /tmp/tresor-deb-test.XXXXXX)
server=""
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
db=/var/lib/tresor/deb-test.sqlite

echo "deb: lintian $new"
lintian --fail-on error "$new" | tee "$work/lintian.txt"
echo "deb: lintian: $(grep -c '^E:' "$work/lintian.txt" || true) errors, $(grep -c '^W:' "$work/lintian.txt" || true) warnings, $(grep -c '^tresor:' packaging/debian/lintian-overrides) overridden (packaging/debian/lintian-overrides says why)"

install_package() {  # dpkg -i, then apt-get -f install for what it Depends on
  dpkg -i "$1" >"$work/dpkg.log" 2>&1 || apt-get -f install -y -qq >>"$work/dpkg.log" 2>&1
  dpkg-query -W -f='${Status}' tresor | grep -q "install ok installed" || { cat "$work/dpkg.log"; exit 1; }
  echo "deb: installed $(dpkg-query -W -f='${Version}' tresor): $(tresor --version 2>/dev/null || echo 'a version without --version')"
}
serve() {  # serve [ARGS…]: the unit's command, as the tresor user, on the test database
  (cd /var/lib/tresor && set -a && . /etc/tresor/tresor.env && set +a &&
    exec runuser -u tresor -- /usr/bin/tresor serve --host 127.0.0.1 --port "$port" --db "$db" "$@") >>"$work/serve.log" 2>&1 &
  server=$!
  scripts/await-healthy.sh "$port" "$work/serve.log"
}
stop() { kill "$server"; wait "$server" 2>/dev/null || true; server=""; }
customer_reads() {  # the demo customer logs in and reads the accounts; the web app is served
  local token
  token=$(curl -sf -H 'Content-Type: application/json' -d '{"contract":"10000012","password":"tresor-demo"}' \
    "http://127.0.0.1:$port/v1/sessions" | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')
  curl -sf -H "Authorization: Bearer $token" "http://127.0.0.1:$port/v1/accounts" | grep -q '"iban"'
  curl -sfL "http://127.0.0.1:$port/" | grep -qi '<html'
  echo "deb: the demo customer logged in and read the accounts; the web app is served"
}

dpkg --purge tresor >/dev/null 2>&1 || true
rm -f "$db"*
if [ -n "$old" ]; then
  install_package "$old"
  serve --demo
  customer_reads
  stop
  before=$(sqlite3 "$db" 'SELECT max(version) FROM schema_migrations')
  echo "deb: the previous version made $db ($(sqlite3 "$db" 'SELECT count(*) FROM postings') postings, migration $before)"
fi
install_package "$new"
tresor --version | grep -q "$(git rev-parse HEAD)" || { echo "deb: tresor --version names another commit"; exit 1; }
cp /lib/systemd/system/tresor-backup@.service "$work/tresor-backup@demo.service"
cp /lib/systemd/system/tresor-backup@.timer "$work/tresor-backup@demo.timer"
systemd-analyze verify /lib/systemd/system/tresor.service "$work/tresor-backup@demo.service" "$work/tresor-backup@demo.timer"
echo "deb: systemd-analyze verify passed on tresor.service and tresor-backup@.service/.timer"
echo "deb: $(systemd-analyze security --offline=true /lib/systemd/system/tresor.service 2>/dev/null | tail -n 1)"
if [ -n "$old" ]; then
  serve
  customer_reads
  stop
  runuser -u tresor -- tresor ledger check --db "$db"
  runuser -u tresor -- tresor audit verify --db "$db"
  echo "deb: the new version migrated the previous version's database from migration $before to $(sqlite3 "$db" 'SELECT max(version) FROM schema_migrations') and serves it"
else
  serve --demo
  customer_reads
  stop
fi
runuser -u tresor -- tresor backup --db "$db" --into /var/backups/tresor --keep 2
dpkg --purge tresor >/dev/null
[ -f "$db" ] || { echo "deb: purging the package removed the books"; exit 1; }
rm -f "$db"* /var/backups/tresor/deb-test-*
echo "deb: purged; /var/lib/tresor and its books stay, as they must"
echo "deb test: passed"
