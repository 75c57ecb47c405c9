#!/usr/bin/env python3
"""After the chaos: every acknowledged transfer and payment, sent again with its key and body,
must come back as the same transaction or payment (booked once, nothing lost, nothing twice)."""
import http.client
import json
import sys

port = int(sys.argv[1])
acks = [line.rstrip("\n").split("\t") for line in open(sys.argv[2]) if line.strip()]
conn = http.client.HTTPConnection("127.0.0.1", port, timeout=15)
conn.request("POST", "/v1/sessions", json.dumps({"contract": "10000001", "password": "tresor-demo"}),
             {"Content-Type": "application/json"})
token = json.loads(conn.getresponse().read())["token"]
wrong = 0
counts = {"transfer": 0, "payment": 0}
for kind, key, body, ident in acks:
    path = "/v1/transfers" if kind == "transfer" else "/v1/payments"
    conn.request("POST", path, body, {"Authorization": f"Bearer {token}", "Idempotency-Key": key, "Content-Type": "application/json"})
    response = conn.getresponse()
    data = json.loads(response.read())
    again = data.get("transaction" if kind == "transfer" else "payment", {}).get("id")
    counts[kind] += 1
    if response.status != 201 or again != ident:
        wrong += 1
        print(f"LOST or duplicated: {kind} {key} acknowledged as {ident}, now {response.status} {data}")
print(f"chaos verify: {counts['transfer']} transfers and {counts['payment']} payments acknowledged, {wrong} lost or duplicated")
sys.exit(1 if wrong or not acks else 0)
