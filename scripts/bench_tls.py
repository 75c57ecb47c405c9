"""make bench: what HTTPS served by `tresor serve --tls-certificate …` costs (bench/results/tls.json).

The same demo bank served twice on loopback, over plain HTTP and over TLS (a P-256 certificate made
by openssl), at 64 connections for 5 s after 2 s unmeasured:
- wrk, HTTP/1.1, kept connections: `/healthz`, `GET /v1/accounts` and `POST /v1/transfers` (CHF 0.01
  between the demo customer's CHF current and savings accounts), HTTPS against plain HTTP (the cost of encrypting);
- wrk with `Connection: close`: `/healthz` on a new connection each time (a handshake each over TLS);
- h2load over TLS: `/healthz` and `GET /v1/accounts` on HTTP/2 (one request at a time per
  connection) against HTTP/1.1, the two protocols the server offers by ALPN.
Each figure is given with its ratio to the one it is measured against.
"""
import datetime
import json
import os
import platform
import re
import ssl
import subprocess
import tempfile
import time
import urllib.request

SECONDS = int(os.environ.get("BENCH_SECONDS", "5"))
BINARY = os.path.abspath(".build/release/tresor")


def certificates(folder):
    """A private CA and a server certificate for 127.0.0.1, as an operator makes them."""
    def openssl(*args):
        subprocess.run(["openssl", *args], check=True, capture_output=True)
    openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", f"{folder}/ca.key",
            "-out", f"{folder}/ca.pem", "-days", "2", "-subj", "/CN=Bench CA")
    with open(f"{folder}/san.cnf", "w") as file:
        file.write("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", f"{folder}/server.key",
            "-out", f"{folder}/server.csr", "-subj", "/CN=localhost")
    openssl("x509", "-req", "-in", f"{folder}/server.csr", "-CA", f"{folder}/ca.pem", "-CAkey", f"{folder}/ca.key",
            "-CAcreateserial", "-out", f"{folder}/server.pem", "-days", "2", "-extfile", f"{folder}/san.cnf")


def serve(folder, port, tls):
    """`tresor serve --demo` in a folder of its own; its base URL, the process and a demo token."""
    work = tempfile.mkdtemp(dir=folder)
    extra = ["--tls-certificate", f"{folder}/server.pem", "--tls-key", f"{folder}/server.key"] if tls else []
    server = subprocess.Popen([BINARY, "serve", "--db", f"{work}/bank.sqlite", "--demo", "--port", str(port),
                               "--scheduler-interval-seconds", "0", *extra], cwd=work, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, env={**os.environ, "LOG_LEVEL": "warning"})
    base = f"{'https' if tls else 'http'}://127.0.0.1:{port}"
    context = ssl.create_default_context(cafile=f"{folder}/ca.pem")

    def call(path, body=None, token=None):
        request = urllib.request.Request(base + path, data=body, headers={"Authorization": f"Bearer {token}"} if token else {})
        return json.load(urllib.request.urlopen(request, timeout=5, context=context))
    for _ in range(300):
        try:
            call("/healthz")
            break
        except Exception:
            time.sleep(0.1)
    token = call("/v1/sessions", json.dumps({"contract": "10000012", "password": "tresor-demo"}).encode())["token"]
    # why these two: a card account or one in euros among them would refuse the transfer.
    ids = sorted(int(account["id"]) for account in call("/v1/accounts", token=token)["accounts"]
                 if account["currency"] == "CHF" and account["kind"] in ("current", "savings"))
    assert len(ids) == 2 and ids[1] == ids[0] + 1, ids
    return base, server, token, (ids[0], ids[1])


def wrk(base, env, extra=()):
    def once(seconds, latency):
        return subprocess.run(["wrk", "-t", "2", "-c", "64", "-d", f"{seconds}s", *(["--latency"] if latency else []), *extra,
                               "-s", "bench/wrk.lua", base], env={**os.environ, **env}, capture_output=True, text=True).stdout
    once(2, False)
    out = once(SECONDS, True)
    p99 = re.search(r"^\s+99%\s+([\d.]+)(us|ms|s)$", out, re.M)
    return {"tps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
            "p99_ms": round(float(p99.group(1)) * {"us": 0.001, "ms": 1, "s": 1000}[p99.group(2)], 3),
            "non_2xx": int(re.search(r"non2xx=(\d+)", out).group(1)), "tool": "wrk", "connections": 64}


def h2load(base, path, token, protocol):
    command = ["h2load", "-t", "2", "-c", "64", "-m", "1", f"--npn-list={protocol}", "-H", f"Authorization: Bearer {token}"]
    subprocess.run([*command, "-D", "2", base + path], capture_output=True)
    out = subprocess.run([*command, "-D", str(SECONDS), base + path], capture_output=True, text=True).stdout
    succeeded = int(re.search(r"(\d+) succeeded", out).group(1))
    done = int(re.search(r"(\d+) done", out).group(1))
    return {"tps": float(re.search(r"finished in [\d.]+s, ([\d.]+) req/s", out).group(1)), "failed": done - succeeded,
            "tool": f"h2load ({protocol})", "connections": 64}


def main():
    folder = tempfile.mkdtemp()
    certificates(folder)
    result = {"generated_at": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
              "machine": {"cores": os.cpu_count(), "platform": platform.platform()}, "seconds_per_run": SECONDS,
              "certificate": "ECDSA P-256, TLS 1.3"}
    plain = {}
    for tls in (False, True):
        base, server, token, (first, last) = serve(folder, 18_500 + tls, tls)
        try:
            side = {"healthz": wrk(base, {"REQUEST": "get", "READ_PATH": "/healthz", "TOKEN": ""}),
                    "accounts": wrk(base, {"REQUEST": "get", "READ_PATH": "/v1/accounts", "TOKEN": token}),
                    "transfers": wrk(base, {"REQUEST": "transfer", "TOKEN": token, "FIRST": str(first), "LAST": str(last),
                                                        "AMOUNT": "0.01"}),
                    "healthz_new_connection_each": wrk(base, {"REQUEST": "get", "READ_PATH": "/healthz", "TOKEN": ""},
                                                       ["-H", "Connection: close"])}
            if tls:
                for name in list(side):
                    side[name]["ratio_to_plain_http"] = round(side[name]["tps"] / plain[name]["tps"], 3)
                for name, path in [("healthz", "/healthz"), ("accounts", "/v1/accounts")]:
                    one, two = h2load(base, path, token, "http/1.1"), h2load(base, path, token, "h2")
                    two["ratio_to_http1_over_tls"] = round(two["tps"] / one["tps"], 3)
                    side[f"{name}_h2load"] = {"http1_1": one, "http2": two}
                result["https"] = side
            else:
                plain = side
                result["plain_http"] = side
        finally:
            server.terminate()
            server.wait()
    os.makedirs("bench/results", exist_ok=True)
    with open("bench/results/tls.json", "w") as file:
        json.dump(result, file, indent=1)
    for name, figures in result["https"].items():
        print(name, json.dumps(figures))


main()
