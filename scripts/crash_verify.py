#!/usr/bin/env python3
"""After the restart: every acknowledged transfer must still be there, once. A retry with its key
and body must replay the same transaction id (nothing booked again)."""
import http.client
import json
import sys

port = int(sys.argv[1])
ack_path = sys.argv[2]
acks = [line.rstrip("\n").split("\t") for line in open(ack_path) if line.strip()]
conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
conn.request("POST", "/v1/sessions", json.dumps({"contract": "10000001", "password": "tresor-demo"}),
             {"Content-Type": "application/json"})
response = conn.getresponse()
token = json.loads(response.read())["token"]
lost = 0
for key, body, transaction_id in acks:
    conn.request("POST", "/v1/transfers", body, {"Authorization": f"Bearer {token}", "Idempotency-Key": key,
                                                  "Content-Type": "application/json"})
    response = conn.getresponse()
    data = json.loads(response.read())
    replayed = response.getheader("Idempotent-Replayed") == "true"
    if response.status != 201 or data["transaction"]["id"] != transaction_id or not replayed:
        lost += 1
        print(f"LOST or duplicated: key {key} acknowledged as {transaction_id}, now {response.status} {data}")
print(f"crash verify: {len(acks)} acknowledged transfers, {lost} lost or duplicated")
sys.exit(1 if lost or not acks else 0)
