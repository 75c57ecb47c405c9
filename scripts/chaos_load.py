#!/usr/bin/env python3
"""Load for the chaos test: clients behind the proxy move money by transfers and internal payments
and read their accounts, while instances die and the database restarts. A client retries a write
with the same Idempotency-Key until it is answered (as a phone does) and records what was
acknowledged: `kind<TAB>key<TAB>body<TAB>id<TAB>sent<TAB>answered`, the last two the wall-clock times
at which the answered attempt was sent and its answer came (the failover test reads them). One more client uploads receipt photos (each one
unique) while the disk of the image store fills and is freed again: a refused image is a 503
`storage_unavailable` it uploads again, and an acknowledged one is recorded with the SHA-256 of its
bytes. Every status seen is counted; the run fails on a 500 or on a 503 without Retry-After, and,
with `--storage-fault`, when the full disk was never seen. The first refused image is told to the
test by a file, `<acks>.storage-refused`: the test keeps the disk full until then, as an upload
(OCR first, the image stored last) can take longer than any fixed window on a loaded machine."""
import hashlib
import http.client
import json
import os
import sys
import threading
import time
import uuid
from collections import Counter

from money_requests import answered_id, money_request

port = int(sys.argv[1])
ack_path = sys.argv[2]
seconds = float(sys.argv[3])
workers = int(sys.argv[4]) if len(sys.argv) > 4 else 8
storage_fault = "--storage-fault" in sys.argv[5:]
deadline = time.monotonic() + seconds
statuses = Counter()
problems = []
lock = threading.Lock()
acks = open(ack_path, "w")


def call(method, path, body=None, headers=None):
    """One request on a fresh connection (the proxy may have moved us): (response, body, time sent),
    or None when no answer came."""
    sent = time.time()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=15)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        data = response.read()
    except (OSError, http.client.HTTPException):
        with lock:
            statuses["no answer"] += 1
        return None
    finally:
        conn.close()
    with lock:
        statuses[response.status] += 1
        if response.status == 503 and b"storage_unavailable" in data:
            statuses["503 storage_unavailable"] += 1
            open(ack_path + ".storage-refused", "w").close()
        if response.status >= 500 and response.status != 503:
            problems.append(f"{method} {path}: {response.status} {data[:200]!r}")
        if response.status == 503 and not response.getheader("Retry-After"):
            problems.append(f"{method} {path}: 503 without Retry-After {data[:160]!r}")
    return response, data, sent


def until_answered(method, path, body=None, headers=None, limit=60.0):
    """The request again and again (same key, same body) until a non-5xx answer, for `limit` s."""
    give_up = time.monotonic() + limit
    while time.monotonic() < give_up:
        answer = call(method, path, body, headers)
        if answer and answer[0].status < 500:
            return answer
        retry = answer[0].getheader("Retry-After") if answer else None
        time.sleep(min(float(retry or 0.2), 2.0))
    return None


def login(contract="10000012"):
    answer = until_answered("POST", "/v1/sessions", json.dumps({"contract": contract, "password": "tresor-demo"}),
                            {"Content-Type": "application/json"})
    assert answer and answer[0].status == 201, answer
    return json.loads(answer[1])["token"]


token = login()
accounts = json.loads(until_answered("GET", "/v1/accounts", headers={"Authorization": f"Bearer {token}"})[1])["accounts"]
current = next(a["id"] for a in accounts if a["kind"] == "current" and a["currency"] == "CHF")
savings = next(a["id"] for a in accounts if a["kind"] == "savings" and a["currency"] == "CHF")


def worker(index):
    token = login()
    auth = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    n = 0
    while time.monotonic() < deadline:
        n += 1
        source, target = (current, savings) if n % 2 else (savings, current)
        key = str(uuid.uuid4())
        kind, path, body = money_request(n, source, target, f"chaos {index}/{n}")
        answer = until_answered("POST", path, body, {**auth, "Idempotency-Key": key})
        if answer is None:
            with lock:
                problems.append(f"{kind} {key} never answered within 60 s")
            continue
        response, data, sent = answer
        if response.status == 401:
            auth["Authorization"] = f"Bearer {login()}"
            continue
        if response.status == 201:
            ident = answered_id(kind, data)
            with lock:
                acks.write(f"{kind}\t{key}\t{body}\t{ident}\t{sent:.3f}\t{time.time():.3f}\n")
                acks.flush()
        until_answered("GET", "/v1/accounts", headers=auth, limit=5)


def receipts():
    """Receipt photos as a phone sends them, one after another, each made unique by trailing bytes
    (after the JPEG's end marker, which decoders ignore); a 429 is waited out as told."""
    photo = open(os.path.join(os.path.dirname(__file__), "..", "Tests", "corpus", "receipts", "receipt-00-de-clean.jpg"), "rb").read()
    auth = {"Authorization": f"Bearer {login('10000028')}", "Content-Type": "image/jpeg"}

    def refusal_awaited():
        """why: with the fault, uploads go on past the deadline (for at most a minute) until one met
        the full disk, so that the phase is tested however slow the machine."""
        with lock:
            return storage_fault and not statuses["503 storage_unavailable"] and time.monotonic() < deadline + 60

    while time.monotonic() < deadline or refusal_awaited():
        image = photo + os.urandom(64 * 1024)
        answer = None
        give_up = time.monotonic() + 60
        while time.monotonic() < give_up:
            answer = until_answered("POST", "/v1/receipts", image, auth, limit=give_up - time.monotonic())
            if answer is None or answer[0].status != 429:
                break
            time.sleep(float(answer[0].getheader("Retry-After") or 1))
        if answer is None or answer[0].status != 201:
            with lock:
                problems.append(f"receipt upload: {answer[0].status if answer else 'never answered within 60 s'} "
                                f"{answer[1][:160] if answer else b''!r}")
            continue
        ident = json.loads(answer[1])["receipt"]["id"]
        with lock:
            acks.write(f"receipt\t{hashlib.sha256(image).hexdigest()}\t-\t{ident}\t{answer[2]:.3f}\t{time.time():.3f}\n")
            acks.flush()
        time.sleep(0.5)


threads = [threading.Thread(target=worker, args=(i,)) for i in range(workers)] + [threading.Thread(target=receipts)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
acks.close()
print("chaos load: answers " + ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items(), key=lambda kv: str(kv[0]))))
if storage_fault and not statuses["503 storage_unavailable"]:
    problems.append("the image store's disk was full, yet no upload was answered 503 storage_unavailable")
for problem in problems[:20]:
    print("PROBLEM", problem)
sys.exit(1 if problems else 0)
