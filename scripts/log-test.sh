#!/usr/bin/env bash
# The log an operator reads: a demo server with `--log-format json` gets a login, a wrong
# password, reads with and without a W3C traceparent, a payment to an IBAN with a message; every
# line it wrote is one JSON object (scripts/log_scan.py, told the password, the IBAN, the
# message and the token sent), each request has its access line with the bank, the route's
# template, the status, the duration, the client, the customer once logged in, the error code
# of a refusal and the traceparent when it was well-formed, and the startup message is JSON too.
# Usage: scripts/log-test.sh   (make test runs it; KEEP_LOG=FILE keeps the server's lines, as for the README's sample)
set -euo pipefail
cd "$(dirname "$0")/.."
tresor="${TRESOR_BIN:-.build/debug/tresor}"
work=$(mktemp -d /tmp/tresor-log.XXXXXX)
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; [ -n "${KEEP_LOG:-}" ] && cp "$work/serve.jsonl" "$KEEP_LOG"; rm -rf "$work"' EXIT
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# why unset: make test copies every server's lines into one file; this server's stand alone.
(cd "$work" && exec env -u TRESOR_LOG_FILE "$OLDPWD/$tresor" serve --db "$work/bank.sqlite" --demo --port "$port" \
  --log-format json --scheduler-interval-seconds 0 >"$work/serve.jsonl" 2>"$work/serve.err") &
server=$!
scripts/await-healthy.sh "$port" "$work/serve.err"
python3 - "$port" "$work" <<'PY'
import http.client, json, sys, time, uuid
port, work = int(sys.argv[1]), sys.argv[2]
def call(method, path, body=None, headers=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request(method, path, json.dumps(body) if body is not None else None, {"Content-Type": "application/json", **(headers or {})})
    response = conn.getresponse()
    return response.status, json.loads(response.read() or b"null")
trace = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
status, _ = call("POST", "/v1/sessions", {"contract": "10000012", "password": "Wrong-Password-77"})
assert status == 401, status
status, grant = call("POST", "/v1/sessions", {"contract": "10000012", "password": "tresor-demo"})
token = grant["token"]
auth = {"Authorization": f"Bearer {token}"}
accounts = call("GET", "/v1/accounts", headers={**auth, "traceparent": trace})[1]["accounts"]
current = next(a for a in accounts if a["kind"] == "current" and a["currency"] == "CHF")
call("GET", f"/v1/accounts/{current['id']}", headers={**auth, "traceparent": "00-not-a-trace-01"})
body = {"type": "iban", "debtor_account": current["id"], "amount": {"amount": "21.40", "currency": "CHF"},
        "creditor": {"name": "Fornitore Srl", "iban": "DE89370400440532013000", "street": "Hauptstrasse", "building_number": "5",
                     "postal_code": "10115", "town": "Berlin", "country": "DE"}, "message": "Miete Dezember Wohnung 3"}
status, _ = call("POST", "/v1/payments", body, {**auth, "Idempotency-Key": str(uuid.uuid4())})
assert status == 201, status
open(f"{work}/token", "w").write(token)
time.sleep(0.5)
lines = [json.loads(line) for line in open(f"{work}/serve.jsonl")]
access = [l for l in lines if l.get("kind") == "access"]
def one(method, route, status):
    found = [l for l in access if l["method"] == method and l["route"] == route and l["status"] == status]
    assert found, f"no access line {method} {route} {status} in {access}"
    return found[0]
refused = one("POST", "/v1/sessions", 401)
assert refused["error"] == "invalid_credentials" and "customer" not in refused, refused
login = one("POST", "/v1/sessions", 201)
read = one("GET", "/v1/accounts", 200)
assert read["traceparent"] == trace and read["customer"] > 0 and read["client"] == "127.0.0.1" and read["bank"], read
assert len(read["request_id"]) >= 16 and read["duration_ms"] >= 0, read
plain = one("GET", "/v1/accounts/{id}", 200)
assert "traceparent" not in plain and plain["customer"] == read["customer"], plain
paid = one("POST", "/v1/payments", 201)
started = [l for l in lines if "Tresor is serving" in l["message"]]
assert started and started[0]["level"] == "notice", lines[:3]
print(f"log test: {len(lines)} lines, {len(access)} access lines; login, refusal ({refused['error']}), traceparent, "
      f"route templates and customer {read['customer']} as expected")
PY
python3 scripts/log_scan.py "$work/serve.jsonl" --password Wrong-Password-77 --text "Miete Dezember" --text "$(cat "$work/token")" \
  --text DE89370400440532013000
echo "log test: passed"
