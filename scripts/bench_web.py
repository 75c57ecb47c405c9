#!/usr/bin/env python3
"""make bench, web part: request latency (server-side render plus loopback HTTP) of the overview,
IBAN form, transactions and budget pages of the demo bank, p50/p99 over sequential requests, and
the server's CPU per page (user and system time of its process over the requests; steadier
between runs than latency on a shared machine). Writes bench/results/web.json."""
import datetime
import json
import os
import time
import urllib.request

import bench_server

TRESOR = os.path.abspath(os.environ.get("TRESOR_BIN", ".build/release/tresor"))
COUNT = int(os.environ.get("BENCH_WEB_REQUESTS", "300"))
server, base = bench_server.start(TRESOR, 41100, ["--db", "{work}/web.sqlite"])
try:
    login = urllib.request.Request(base + "/v1/sessions", method="POST", headers={"Content-Type": "application/json"},
                                   data=json.dumps({"contract": "10000012", "password": "tresor-demo"}).encode())
    token = json.load(urllib.request.urlopen(login))["token"]
    results = {}
    for name, path in [("home", "/home"), ("pay", "/pay/iban"), ("transactions", "/transactions"), ("budget", "/budget")]:
        latencies = []
        cpu_before = bench_server.cpu_seconds(server.pid)
        for _ in range(COUNT):
            request = urllib.request.Request(base + path, headers={"Cookie": f"tresor_session={token}"})
            start = time.perf_counter()
            body = urllib.request.urlopen(request).read()
            latencies.append((time.perf_counter() - start) * 1000)
            assert b"<html" in body
        cpu = bench_server.cpu_seconds(server.pid) - cpu_before
        latencies.sort()
        results[name] = {"path": path, "requests": COUNT, "p50_ms": round(latencies[len(latencies) // 2], 3),
                         "p99_ms": round(latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))], 3),
                         "server_cpu_us_per_request": round(cpu / COUNT * 1e6)}
        print(name, results[name], flush=True)
finally:
    server.terminate()
    server.wait()
os.makedirs("bench/results", exist_ok=True)
with open("bench/results/web.json", "w") as f:
    json.dump({"generated_at": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
               "what": "sequential GETs with a session cookie: server render + loopback HTTP", "pages": results}, f, indent=2)
print("wrote bench/results/web.json")
