#!/usr/bin/env python3
"""After the chaos: every acknowledged transfer and payment, sent again with its key and body,
must come back as the same transaction or payment (booked once, nothing lost, nothing twice); every
acknowledged receipt is listed and gives back the very image uploaded (its SHA-256)."""
import hashlib
import http.client
import json
import sys

from money_requests import ROUTES, answered_id

port = int(sys.argv[1])
acks = [line.rstrip("\n").split("\t")[:4] for line in open(sys.argv[2]) if line.strip()]
conn = http.client.HTTPConnection("127.0.0.1", port, timeout=15)


def login(contract):
    conn.request("POST", "/v1/sessions", json.dumps({"contract": contract, "password": "tresor-demo"}),
                 {"Content-Type": "application/json"})
    return json.loads(conn.getresponse().read())["token"]


token = login("10000012")
wrong = 0
counts = {"transfer": 0, "payment": 0, "receipt": 0}
receipts = [ack for ack in acks if ack[0] == "receipt"]
if receipts:
    auth = {"Authorization": f"Bearer {login('10000028')}"}
    conn.request("GET", "/v1/receipts", headers=auth)
    listed = [r["id"] for r in json.loads(conn.getresponse().read())["receipts"]]
    for _, digest, _, ident in receipts:
        counts["receipt"] += 1
        conn.request("GET", f"/v1/receipts/{ident}/image", headers=auth)
        response = conn.getresponse()
        image = response.read()
        if response.status != 200 or hashlib.sha256(image).hexdigest() != digest or ident not in listed:
            wrong += 1
            print(f"LOST or damaged: receipt {ident}: image {response.status}, listed: {ident in listed}")
for kind, key, body, ident in (ack for ack in acks if ack[0] != "receipt"):
    path = ROUTES[kind][0]
    conn.request("POST", path, body, {"Authorization": f"Bearer {token}", "Idempotency-Key": key, "Content-Type": "application/json"})
    response = conn.getresponse()
    data = response.read()
    again = answered_id(kind, data)
    counts[kind] += 1
    if response.status != 201 or again != ident:
        wrong += 1
        print(f"LOST or duplicated: {kind} {key} acknowledged as {ident}, now {response.status} {data}")
print(f"chaos verify: {counts['transfer']} transfers, {counts['payment']} payments and {counts['receipt']} receipt images "
      f"acknowledged, {wrong} lost or duplicated")
sys.exit(1 if wrong or not acks else 0)
