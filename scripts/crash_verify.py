#!/usr/bin/env python3
"""After the restart: every acknowledged transfer and payment must still be there, once. A retry
with its key and body must replay the same transaction or payment (nothing booked again)."""
import http.client
import json
import sys

from money_requests import ROUTES, answered_id

port = int(sys.argv[1])
ack_path = sys.argv[2]
acks = [line.rstrip("\n").split("\t") for line in open(ack_path) if line.strip()]
conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
conn.request("POST", "/v1/sessions", json.dumps({"contract": "10000012", "password": "tresor-demo"}),
             {"Content-Type": "application/json"})
response = conn.getresponse()
token = json.loads(response.read())["token"]
lost = 0
counts = {"transfer": 0, "payment": 0}
for kind, key, body, ident in acks:
    path = ROUTES[kind][0]
    conn.request("POST", path, body, {"Authorization": f"Bearer {token}", "Idempotency-Key": key,
                                      "Content-Type": "application/json"})
    response = conn.getresponse()
    data = response.read()
    replayed = response.getheader("Idempotent-Replayed") == "true"
    counts[kind] += 1
    if response.status != 201 or answered_id(kind, data) != ident or not replayed:
        lost += 1
        print(f"LOST or duplicated: {kind} {key} acknowledged as {ident}, now {response.status} {data}")
print(f"crash verify: {counts['transfer']} acknowledged transfers and {counts['payment']} payments, {lost} lost or duplicated")
sys.exit(1 if lost or not counts["transfer"] or not counts["payment"] else 0)
