"""A local APNs: HTTP/2 over TLS (ALPN h2, with the h2 library from PyPI) that checks what Apple
checks of a provider's request and answers as Apple answers. For scripts/push_check.py.

Checked per request: POST /3/device/<token>; the provider token (ES256 JWT, kid the key ID,
iss the team ID, iat within the hour) verified with the public half of the .p8 key; apns-topic
the app's bundle id, apns-push-type alert, apns-priority 10 or 5, apns-expiration in the
future, apns-collapse-id; the body an `aps.alert` with title and body, the message's id and url.
A token listed in `unknown` is answered 400 BadDeviceToken (Apple's answer for an app that was
deleted), others 200 with an apns-id.
"""
import base64
import json
import socket
import threading
import time
import uuid

import h2.config
import h2.connection
import h2.events
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class APNs:
    def __init__(self, context, public_key, key_id, team_id, topic):
        context.set_alpn_protocols(["h2"])
        self.context, self.public_key, self.key_id, self.team_id, self.topic = context, public_key, key_id, team_id, topic
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.delivered = []  # (token, headers, body)
        self.problems = []
        self.unknown = set()
        self.protocols = set()
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self):
        while True:
            connection, _ = self.listener.accept()
            threading.Thread(target=self.handle, args=(connection,), daemon=True).start()

    def handle(self, connection):
        try:
            tls = self.context.wrap_socket(connection, server_side=True)
        except OSError:
            return
        self.protocols.add(tls.selected_alpn_protocol())
        h2c = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=False, header_encoding="utf-8"))
        h2c.initiate_connection()
        tls.sendall(h2c.data_to_send())
        streams = {}
        try:
            while True:
                data = tls.recv(65535)
                if not data:
                    return
                for event in h2c.receive_data(data):
                    if isinstance(event, h2.events.RequestReceived):
                        streams[event.stream_id] = (dict(event.headers), bytearray())
                    elif isinstance(event, h2.events.DataReceived):
                        streams[event.stream_id][1].extend(event.data)
                        h2c.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
                    elif isinstance(event, h2.events.StreamEnded):
                        headers, body = streams.pop(event.stream_id)
                        status, answer = self.answer(headers, bytes(body))
                        reply = json.dumps(answer).encode() if answer else b""
                        h2c.send_headers(event.stream_id, [(":status", str(status)), ("apns-id", str(uuid.uuid4())),
                                                           ("content-length", str(len(reply)))], end_stream=not reply)
                        if reply:
                            h2c.send_data(event.stream_id, reply, end_stream=True)
                tls.sendall(h2c.data_to_send())
        except OSError:
            return

    def answer(self, headers, body):
        path = headers.get(":path", "")
        token = path.removeprefix("/3/device/")
        try:
            if headers.get(":method") != "POST" or not path.startswith("/3/device/"):
                raise ValueError(f"not a device request: {headers.get(':method')} {path}")
            self.verify_token(headers.get("authorization", ""))
            if headers.get("apns-topic") != self.topic or headers.get("apns-push-type") != "alert" \
                    or headers.get("apns-priority") not in ("10", "5") or int(headers.get("apns-expiration", "0")) <= time.time() \
                    or not headers.get("apns-collapse-id"):
                raise ValueError(f"headers wrong: {headers}")
            payload = json.loads(body)
            alert = payload["aps"]["alert"]
            if not alert["title"] or not alert["body"] or headers["apns-collapse-id"] != f"m{payload['id']}" or not payload["url"].startswith("/"):
                raise ValueError(f"payload wrong: {payload}")
        except Exception as error:  # noqa: BLE001 - every failure is a finding
            self.problems.append(f"APNs {token}: {error!r}")
            return 400, {"reason": "BadRequest"}
        if token in self.unknown:
            return 400, {"reason": "BadDeviceToken"}
        self.delivered.append((token, headers, payload))
        return 200, None

    def verify_token(self, authorization):
        scheme, _, jwt = authorization.partition(" ")
        if scheme != "bearer":
            raise ValueError(f"authorization is not a bearer token: {authorization}")
        head, claims, signature = jwt.split(".")
        raw = b64(signature)
        self.public_key.verify(encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")),
                               f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
        header, claims = json.loads(b64(head)), json.loads(b64(claims))
        if header != {"alg": "ES256", "kid": self.key_id} or claims.get("iss") != self.team_id \
                or abs(time.time() - claims.get("iat", 0)) > 3600:
            raise ValueError(f"provider token wrong: {header} {claims}")
