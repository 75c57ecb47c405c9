# Sourced by the test scripts that drive a demo server (web, API contract, robustness):
# `tresor serve --demo` (debug build) with the two demo banks on fresh SQLite files in a new
# folder, on a free port, stopped and removed on exit. Sets `work` (the folder, with serve.log)
# and `port`; returns once GET /healthz answers.
# Usage: . scripts/demo-server.sh NAME   (the folder is /tmp/tresor-NAME.XXXXXX)
work=$(mktemp -d "/tmp/tresor-$1.XXXXXX")
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
(cd "$work" && exec "$OLDPWD/.build/debug/tresor" serve --banks "$work/banks" --demo --port "$port" --scheduler-interval-seconds 0 >"$work/serve.log" 2>&1) &
server=$!
trap 'kill $server 2>/dev/null || true; rm -rf "$work"' EXIT
scripts/await-healthy.sh "$port" "$work/serve.log"
