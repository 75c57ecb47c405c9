#!/usr/bin/env python3
"""Load client for the crash test: sends transfers and (every third request) internal payments with
unique Idempotency-Keys until the server dies, and records every acknowledged one (201) as
`kind<TAB>key<TAB>body<TAB>transaction or payment id`. why payments too: a payment executed at
once is group-committed with other bookings, its row written with the batch."""
import http.client
import json
import sys
import threading
import uuid

from money_requests import answered_id, money_request

base_port = int(sys.argv[1])
ack_path = sys.argv[2]
workers = int(sys.argv[3]) if len(sys.argv) > 3 else 8


def call(conn, method, path, body=None, headers=None):
    conn.request(method, path, body=body, headers=headers or {})
    response = conn.getresponse()
    return response.status, response.read()


conn = http.client.HTTPConnection("127.0.0.1", base_port, timeout=10)
status, data = call(conn, "POST", "/v1/sessions", json.dumps({"contract": "10000012", "password": "tresor-demo"}),
                    {"Content-Type": "application/json"})
assert status == 201, (status, data)
token = json.loads(data)["token"]
status, data = call(conn, "GET", "/v1/accounts", headers={"Authorization": f"Bearer {token}"})
accounts = json.loads(data)["accounts"]
current = next(a["id"] for a in accounts if a["kind"] == "current" and a["currency"] == "CHF")
savings = next(a["id"] for a in accounts if a["kind"] == "savings" and a["currency"] == "CHF")
print(f"crash load: {workers} clients moving CHF between accounts {current} and {savings}", flush=True)

lock = threading.Lock()
acks = open(ack_path, "w")


def worker(index):
    conn = http.client.HTTPConnection("127.0.0.1", base_port, timeout=10)
    n = 0
    while True:
        n += 1
        source, target = (current, savings) if n % 2 else (savings, current)
        kind, path, body = money_request(n, source, target, f"crash {index}/{n}")
        key = str(uuid.uuid4())
        try:
            status, data = call(conn, "POST", path, body,
                                {"Authorization": f"Bearer {token}", "Idempotency-Key": key,
                                 "Content-Type": "application/json"})
        except Exception:
            return  # the server is gone: stop
        if status == 201:
            ident = answered_id(kind, data)
            with lock:
                acks.write(f"{kind}\t{key}\t{body}\t{ident}\n")
                acks.flush()


threads = [threading.Thread(target=worker, args=(i,)) for i in range(workers)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
acks.close()
