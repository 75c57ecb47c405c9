#!/usr/bin/env python3
"""Reads server log lines written as JSON (`tresor serve --log-format json` or `--log-file`) and
fails on any line that is not one JSON object with time, level and message, on an access line
without its fields or with a path's id in its route, and on anything that must never be logged:
a password we know, a session token (43 characters of base64url), a `Bearer` header, an IBAN in
full, a payment's message text from the test loads, or a metadata key named after a secret.
Usage: scripts/log_scan.py FILE [--password P]… [--text T]…   (make test scans every line its
servers wrote; scripts/log-test.sh one server's lines, with what it sent)"""
import json
import re
import sys

path = sys.argv[1]
passwords = ["tresor-demo"] + [sys.argv[i + 1] for i, a in enumerate(sys.argv) if a == "--password"]
texts = [sys.argv[i + 1] for i, a in enumerate(sys.argv) if a == "--text"]
forbidden = [
    ("a session token", re.compile(r"(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])")),
    ("a Bearer header", re.compile(r"Bearer [A-Za-z0-9_-]{8}")),
    ("an IBAN in full", re.compile(r"\b[A-Z]{2}[0-9]{2}(?: ?[A-Z0-9]){11,30}\b")),
    ("a test load's payment message", re.compile(r"\b(?:chaos|crash) \d+/\d+")),
] + [("a password", re.compile(r"(?<![\w-])" + re.escape(p) + r"(?![\w-])")) for p in passwords] + [
    ("a message text", re.compile(re.escape(t))) for t in texts]
secret_keys = {"password", "token", "tan", "code", "activation_code", "pin", "authorization", "secret"}
access_fields = {"time", "level", "message", "kind", "bank", "method", "route", "status", "duration_ms", "request_id"}
problems = []
lines = access = 0
with open(path, encoding="utf-8", errors="replace") as file:
    for number, line in enumerate(file, 1):
        lines += 1
        where = f"{path}:{number}"
        try:
            entry = json.loads(line)
        except ValueError:
            problems.append(f"{where}: not JSON: {line[:160]!r}")
            continue
        if not isinstance(entry, dict) or not {"time", "level", "message"} <= entry.keys():
            problems.append(f"{where}: no time, level and message: {line[:160]!r}")
            continue
        for name, pattern in forbidden:
            if pattern.search(line):
                problems.append(f"{where}: {name}: {line[:200]!r}")
        for key in entry:
            if key.lower() in secret_keys:
                problems.append(f"{where}: a key named {key}: {line[:160]!r}")
        if entry.get("kind") == "access":
            access += 1
            missing = access_fields - entry.keys()
            if missing:
                problems.append(f"{where}: access line without {sorted(missing)}")
            elif any(part.isdigit() for part in entry["route"].split("/")) or "?" in entry["route"]:
                problems.append(f"{where}: a path, not a route template: {entry['route']}")
            elif not isinstance(entry["status"], int) or not isinstance(entry["duration_ms"], (int, float)):
                problems.append(f"{where}: status or duration not a number")
for problem in problems[:40]:
    print(problem)
print(f"log scan: {lines} lines ({access} access lines) in {path}, {len(problems)} problems")
sys.exit(1 if problems or lines == 0 else 0)
