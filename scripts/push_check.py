"""Web Push end to end: a local HTTPS push service (its own CA, given to tresor serve with
--push-ca-file) receives what a demo server pushes, verifies each VAPID JWT (RFC 8292) and
decrypts each body with http_ece (PyPI, the peer implementation of RFC 8291), as a browser's
push service and the browser would. Checked:

- a payment and a card block reach the subscribed browser, details on its lock screen as the
  customer allowed; TTL, Urgency and Topic as the kind asks;
- a 429 with Retry-After is retried and then delivered; a 410 removes the subscription;
- an iPhone's device token gets the same through a local APNs (scripts/apns_endpoint.py: HTTP/2,
  the provider JWT verified with the .p8 key's public half); BadDeviceToken removes the device;
- kill -9 of the server while the push service holds its requests: after the restart every
  message arrives, and one that arrived twice came with the same Topic (the second replaces
  the first, so none is shown twice); the outbox is empty at the end.

Usage: push_check.py TRESOR WORK   (scripts/push-test.sh)
"""
import base64
import datetime
import http.server
import json
import os
import re
import socket
import sqlite3
import ssl
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid

import http_ece
from apns_endpoint import APNs
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.x509.oid import NameOID
import ipaddress

TRESOR, WORK = sys.argv[1], sys.argv[2]
CONTACT = "mailto:push-test@tresor.example"


def b64(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64e(data):
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def check(condition, what):
    if not condition:
        print("push test: FAILED:", what)
        sys.exit(1)
    print("push test: ok:", what)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def certificates():
    """A CA and a certificate for 127.0.0.1 signed by it: the push service's, trusted only by --push-ca-file."""
    now = datetime.datetime.now(datetime.timezone.utc)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Tresor push test CA")])
    ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name).public_key(ca_key.public_key())
          .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(minutes=5))
          .not_valid_after(now + datetime.timedelta(days=1))
          .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
          .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
          .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
          .sign(ca_key, hashes.SHA256()))
    key = ec.generate_private_key(ec.SECP256R1())
    leaf = (x509.CertificateBuilder().subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")]))
            .issuer_name(ca_name).public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
            .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
            .sign(ca_key, hashes.SHA256()))
    paths = {name: os.path.join(WORK, name) for name in ("ca.pem", "push.pem", "push-key.pem")}
    open(paths["ca.pem"], "wb").write(ca.public_bytes(serialization.Encoding.PEM))
    open(paths["push.pem"], "wb").write(leaf.public_bytes(serialization.Encoding.PEM))
    open(paths["push-key.pem"], "wb").write(key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    return paths


class Browser:
    """One subscription: its keys, how its push service answers, and what it showed."""

    def __init__(self, name, mode):
        self.name, self.mode = name, mode
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.requests = []  # (message id, topic) per delivery received
        self.refused_once = set()
        self.held_once = set()

    def subscription(self, origin):
        public = self.key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": f"{origin}/push/{self.name}", "expirationTime": None, "keys": {"p256dh": b64e(public), "auth": b64e(self.auth)}}


BROWSERS = {}
PROBLEMS = []
LOCK = threading.Lock()
ORIGIN = None
VAPID_KEY = None


def verify(headers, body):
    """What a push service and a browser check; the decrypted notification."""
    match = re.fullmatch(r"vapid t=([\w-]+)\.([\w-]+)\.([\w-]+), k=([\w-]+)", headers.get("Authorization", ""))
    if not match:
        raise ValueError(f"Authorization is not VAPID: {headers.get('Authorization')}")
    head, claims, signature, k = match.groups()
    if VAPID_KEY and k != VAPID_KEY:
        raise ValueError("k is not the key GET /v1/push/vapid-key gives")
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b64(k))
    raw = b64(signature)
    public.verify(encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")),
                  f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    header, claims = json.loads(b64(head)), json.loads(b64(claims))
    now = time.time()
    if header.get("alg") != "ES256" or claims.get("aud") != ORIGIN or not now < claims.get("exp", 0) <= now + 86400 \
            or claims.get("sub") != CONTACT:
        raise ValueError(f"JWT header or claims wrong: {header} {claims}")
    if headers.get("Content-Encoding") != "aes128gcm" or int(headers.get("TTL", "-1")) <= 0 \
            or headers.get("Urgency") not in ("very-low", "low", "normal", "high"):
        raise ValueError(f"headers wrong: {dict(headers)}")
    return headers


class Endpoint(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        browser = BROWSERS.get(self.path.rsplit("/", 1)[-1])
        if browser is None:
            return self.answer(404)
        try:
            verify(self.headers, body)
            notification = json.loads(http_ece.decrypt(body, private_key=browser.key, auth_secret=browser.auth, version="aes128gcm"))
        except Exception as error:  # noqa: BLE001 - every failure is a finding
            PROBLEMS.append(f"{browser.name}: {error!r}")
            return self.answer(400)
        topic = self.headers.get("Topic")
        if topic != notification["tag"]:
            PROBLEMS.append(f"{browser.name}: Topic {topic} is not the tag {notification['tag']}")
        if browser.mode == "gone":
            return self.answer(410)
        if browser.mode == "busy" and notification["id"] not in browser.refused_once:
            browser.refused_once.add(notification["id"])
            return self.answer(429, {"Retry-After": "1"})
        with LOCK:
            browser.requests.append((notification["id"], topic, notification, dict(self.headers)))
        if browser.mode == "hang" and notification["id"] not in browser.held_once:
            # Shown on the device, but the answer comes too late for the sender (killed meanwhile).
            browser.held_once.add(notification["id"])
            time.sleep(20)
        self.answer(201)

    def answer(self, status, headers=None):
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Length", "0")
        self.end_headers()


SERVERS = []


class Server:
    def __init__(self, ca, options):
        self.port, self.ca, self.options, self.process = free_port(), ca, options, None
        SERVERS.append(self)
        self.base = f"http://127.0.0.1:{self.port}"

    def start(self):
        log = open(os.path.join(WORK, "serve.log"), "a")
        self.process = subprocess.Popen(
            [TRESOR, "serve", "--banks", os.path.join(WORK, "banks"), "--demo", "--port", str(self.port), "--scheduler-interval-seconds",
             "0", "--push-ca-file", self.ca, "--push-contact", CONTACT, "--push-lease-seconds", "3", *self.options],
            cwd=WORK, stdout=log, stderr=subprocess.STDOUT)
        for _ in range(600):
            try:
                urllib.request.urlopen(self.base + "/healthz", timeout=2)
                return
            except Exception:  # noqa: BLE001 - not up yet
                time.sleep(0.1)
        sys.exit("push test: the server did not start; see serve.log")

    def kill(self):
        self.process.kill()  # SIGKILL
        self.process.wait()

    def call(self, method, path, body=None, token=None):
        request = urllib.request.Request(self.base + path, method=method, data=json.dumps(body).encode() if body is not None else None)
        request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", "Bearer " + token)
        if method == "POST" and path == "/v1/payments":
            request.add_header("Idempotency-Key", str(uuid.uuid4()))
        try:
            with urllib.request.urlopen(request, timeout=30) as reply:
                text = reply.read()
                return reply.status, json.loads(text) if text else None
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}")


def tan(contract, position):
    text = open(os.path.join(WORK, "tresor-demo-tans.txt")).read()
    block = text.split(contract, 1)[1].split("\n\n", 1)[0]
    return re.search(rf"(?<!\d){position}: (\d{{6}})", block).group(1)


def pay(server, token, account, amount):
    status, answer = server.call("POST", "/v1/payments", {
        "type": "iban", "debtor_account": account, "amount": {"amount": amount, "currency": "CHF"},
        "creditor": {"name": "Elektro Muster AG", "iban": "CH5604835012345678009", "street": "Seeweg", "building_number": "3",
                     "postal_code": "3000", "town": "Bern", "country": "CH"}, "message": "Rechnung"}, token=token)
    check(status == 201, f"payment of {amount} created ({status})")
    payment = answer["payment"]
    if payment["status"] == "needs_signature":
        status, answer = server.call("POST", f"/v1/payments/{payment['id']}/signature",
                                     {"code": tan("10000012", payment["signature"]["position"])}, token=token)
        payment = answer["payment"]
    return payment


def wait_for(condition, seconds, what):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if condition():
            return
        time.sleep(0.2)
    check(False, f"{what} within {seconds} s (problems: {PROBLEMS})")


def message_ids(server, token, after):
    _, answer = server.call("GET", "/v1/messages?limit=100", token=token)
    return {int(m["id"]): m for m in answer["messages"] if int(m["id"]) > after}


def main():
    global ORIGIN, VAPID_KEY
    paths = certificates()
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(paths["push.pem"], paths["push-key.pem"])
    service = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Endpoint)
    service.socket = context.wrap_socket(service.socket, server_side=True)
    service.daemon_threads = True
    ORIGIN = f"https://127.0.0.1:{service.server_address[1]}"
    threading.Thread(target=service.serve_forever, daemon=True).start()

    apns_key = ec.generate_private_key(ec.SECP256R1())
    p8 = os.path.join(WORK, "AuthKey_TEST123456.p8")
    open(p8, "wb").write(apns_key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    apns_context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    apns_context.load_cert_chain(paths["push.pem"], paths["push-key.pem"])
    apns = APNs(apns_context, apns_key.public_key(), "TEST123456", "TEAM654321", "ch.tresor.test")
    server = Server(paths["ca.pem"], ["--apns-host", f"127.0.0.1:{apns.port}", "--apns-key-file", p8, "--apns-key-id", "TEST123456",
                                      "--apns-team-id", "TEAM654321", "--apns-topic", "ch.tresor.test"])
    server.start()
    _, session = server.call("POST", "/v1/sessions", {"contract": "10000012", "password": "tresor-demo"})
    token = session["token"]
    _, key = server.call("GET", "/v1/push/vapid-key", token=token)
    VAPID_KEY = key["public_key"]
    check(len(b64(VAPID_KEY)) == 65 and b64(VAPID_KEY)[0] == 4, "the VAPID key is an uncompressed P-256 point")
    status, refused = server.call("POST", "/v1/push/subscriptions", {"endpoint": "http://127.0.0.1/push/x", "keys": {"p256dh": "A", "auth": "B"}},
                                  token=token)
    check(status == 400 and refused["error"]["field"] == "endpoint", f"an http endpoint is refused by its field: {refused}")

    BROWSERS.update({name: Browser(name, mode) for name, mode in (("ok", "ok"), ("busy", "busy"), ("gone", "gone"))})
    ids = {}
    for name, browser in BROWSERS.items():
        status, answer = server.call("POST", "/v1/push/subscriptions", dict(browser.subscription(ORIGIN), details=name == "ok",
                                                                            label=f"Test {name}"), token=token)
        check(status == 201, f"browser {name} subscribed")
        ids[name] = answer["subscription"]["id"]
    phone, deleted_app = "ab" * 32, "cd" * 32
    apns.unknown.add(deleted_app)
    status, refused = server.call("POST", "/v1/push/devices", {"token": "not-hex"}, token=token)
    check(status == 400 and refused["error"]["field"] == "token", "a device token that is not hex is refused by its field")
    for device in (phone, deleted_app):
        status, answer = server.call("POST", "/v1/push/devices", {"token": device, "label": "iPhone"}, token=token)
        check(status == 201 and answer["subscription"]["kind"] == "apns", "an iPhone registered its APNs token")
        ids[device] = answer["subscription"]["id"]
    before = max(message_ids(server, token, 0) or {0: None})
    _, accounts = server.call("GET", "/v1/accounts", token=token)
    current = next(a for a in accounts["accounts"] if a["kind"] == "current" and a["currency"] == "CHF")
    pay(server, token, current["id"], "42.00")
    card = next(a for a in accounts["accounts"] if a["kind"] == "card" and not a.get("blocked"))
    status, _ = server.call("POST", f"/v1/cards/{card['id']}/block", {"reason": "lost"}, token=token)
    check(status == 200, "a card blocked")
    messages = message_ids(server, token, before)
    check(len(messages) >= 2, f"the payment and the block wrote messages: {[m['subject'] for m in messages.values()]}")

    ok, busy = BROWSERS["ok"], BROWSERS["busy"]
    wait_for(lambda: {i for i, *_ in ok.requests} >= set(messages) and {i for i, *_ in busy.requests} >= set(messages), 30,
             "every message reached both browsers")
    for message_id, topic, notification, headers in ok.requests:
        subject = messages[message_id]["subject"]
        check(notification["title"] == subject and notification["body"] == messages[message_id]["body"],
              f"details allowed: '{notification['title']}' as in the inbox")
    block = next(m for m in messages.values() if m["category"] == "security")
    for message_id, topic, notification, headers in busy.requests:
        check(messages[message_id]["subject"] != notification["title"] and "42" not in notification["body"],
              f"no details on the lock screen: '{notification['title']}: {notification['body']}'")
        if message_id == int(block["id"]):
            check(headers["Urgency"] == "high" and notification["url"] == "/settings", "a security alert is urgent and opens Settings")
    check(busy.refused_once >= set(messages), "429 with Retry-After: delivered on the next try")
    wait_for(lambda: ids["gone"] not in [s["id"] for s in server.call("GET", "/v1/push/subscriptions", token=token)[1]["subscriptions"]],
             15, "410 removed the browser's subscription")
    check(not PROBLEMS, f"every push verified and decrypted: {PROBLEMS}")

    wait_for(lambda: {p["id"] for t, _, p in apns.delivered if t == phone} >= {int(i) for i in messages}, 30, "every message reached the iPhone")
    check(apns.protocols == {"h2"}, f"APNs was spoken over HTTP/2: {apns.protocols}")
    for _, headers, payload in (d for d in apns.delivered if d[0] == phone):
        message = messages[payload["id"]]
        check(payload["aps"]["alert"]["title"] != message["subject"] and payload["aps"]["thread-id"] == message["category"],
              f"the iPhone's lock screen without details: '{payload['aps']['alert']['title']}'")
        if message["category"] == "security":
            check(headers["apns-priority"] == "10" and payload["url"] == "/settings", "the card block wakes the phone and opens Settings")
    wait_for(lambda: ids[deleted_app] not in [s["id"] for s in server.call("GET", "/v1/push/subscriptions", token=token)[1]["subscriptions"]],
             15, "BadDeviceToken removed the deleted app's device")
    check(not apns.problems, f"every APNs request as Apple wants it: {apns.problems}")

    # kill -9 while the push service holds the sender's requests.
    for name in ("ok", "busy"):
        check(server.call("DELETE", f"/v1/push/subscriptions/{ids[name]}", token=token)[0] == 204, f"browser {name} removed")
    hang = BROWSERS["hang"] = Browser("hang", "hang")
    check(server.call("POST", "/v1/push/subscriptions", dict(hang.subscription(ORIGIN), details=True), token=token)[0] == 201,
          "a browser whose push service answers late subscribed")
    before = max(message_ids(server, token, 0))
    for amount in ("11.00", "12.00", "13.00", "14.00", "15.00"):
        pay(server, token, current["id"], amount)
    sent = set(message_ids(server, token, before))
    wait_for(lambda: len(hang.requests) >= 1, 20, "the sender's first request is at the push service")
    server.kill()
    print(f"push test: killed the server with {len(hang.requests)} of {len(sent)} pushes received, none answered")
    server.start()
    database = os.path.join(WORK, "banks", "tresor.sqlite")
    wait_for(lambda: sqlite3.connect(database).execute("SELECT COUNT(*) FROM push_outbox").fetchone()[0] == 0, 60,
             "after the restart the outbox is emptied")
    shown = {}
    for message_id, topic, *_ in hang.requests:
        shown.setdefault(message_id, []).append(topic)
    check(set(shown) >= sent, "every message arrived")
    # why twice: none was answered before the kill, so the sender cannot know it arrived.
    check(all(len(shown[i]) >= 2 for i in sent), f"each unanswered push was sent again after the restart: {shown}")
    check(all(len(set(topics)) == 1 for topics in shown.values()), "a message delivered twice came with the same Topic: shown once")
    print(f"push test: {len(sent)} messages, {len(hang.requests)} deliveries, each shown once (same Topic)")
    check(not PROBLEMS and not apns.problems, f"every push verified and decrypted: {PROBLEMS} {apns.problems}")
    server.kill()


if __name__ == "__main__":
    try:
        main()
    finally:
        # why: a failed check exits from the middle; no server of this run may outlive it.
        for server in SERVERS:
            if server.process and server.process.poll() is None:
                server.kill()
