"""Passkeys made by other implementations than ours, through the JSON API: Chromium's own
WebAuthn (a CDP virtual authenticator with user verification) creating and using a passkey
from a page of the bank, as the web app's script will; and credentials of each algorithm the
bank accepts (ES256, EdDSA, RS256) put together with the `fido2` library (PyPI, Yubico's
CBOR, COSE and authenticator-data code) and keys of `cryptography`."""
import base64
import hashlib
import json
import os
import urllib.parse

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, padding, rsa
from fido2 import cose
from fido2.webauthn import AttestationObject, AttestedCredentialData, AuthenticatorData, CollectedClientData

from webbase import BASE, BrowserTest, api

# WebAuthn needs a domain as RP id (not an IP address): the same server, reached as localhost.
LOCAL = BASE.replace("127.0.0.1", "localhost")
HOST = urllib.parse.urlsplit(LOCAL).netloc


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def call(method, path, body=None, token=None):
    return api(method, path, body, token, host=HOST)


class PasskeyInteropTest(BrowserTest):
    def test_chromium_creates_a_passkey_and_logs_in_with_it(self):
        self.browser.get(LOCAL + "/login")
        self.browser.execute_cdp_cmd("WebAuthn.enable", {"enableUI": False})
        self.browser.execute_cdp_cmd("WebAuthn.addVirtualAuthenticator", {"options": {
            "protocol": "ctap2", "ctap2Version": "ctap2_1", "transport": "internal", "hasResidentKey": True, "hasUserVerification": True,
            "isUserVerified": True, "automaticPresenceSimulation": True}})
        status, grant = call("POST", "/v1/sessions", {"contract": "10000033", "password": "tresor-demo"})
        self.assertEqual(status, 201, grant)
        self.browser.set_script_timeout(30)
        registered = self.browser.execute_async_script("""
            const [token, done] = arguments;
            (async () => {
              const options = await (await fetch('/v1/passkeys/registration', {method: 'POST', headers: {Authorization: 'Bearer ' + token}})).json();
              const credential = await navigator.credentials.create({publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options.publicKey)});
              const body = {...credential.toJSON(), name: 'Chromium'};
              const reply = await fetch('/v1/passkeys', {method: 'POST', headers: {Authorization: 'Bearer ' + token, 'Content-Type': 'application/json'},
                                                          body: JSON.stringify(body)});
              return [reply.status, await reply.text()];
            })().then(done, (error) => done([0, String(error)]));
        """, grant["token"])
        self.assertEqual(registered[0], 201, registered[1])
        logged_in = self.browser.execute_async_script("""
            const done = arguments[0];
            (async () => {
              const options = await (await fetch('/v1/sessions/passkey/options', {method: 'POST'})).json();
              const assertion = await navigator.credentials.get({publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options.publicKey)});
              const reply = await fetch('/v1/sessions/passkey', {method: 'POST', headers: {'Content-Type': 'application/json'},
                                                                 body: JSON.stringify(assertion.toJSON())});
              return [reply.status, await reply.text()];
            })().then(done, (error) => done([0, String(error)]));
        """)
        self.assertEqual(logged_in[0], 201, logged_in[1])
        session = json.loads(logged_in[1])
        self.assertEqual(session["level"], 2)
        status, accounts = call("GET", "/v1/accounts", token=session["token"])
        self.assertEqual(status, 200)
        status, listed = call("GET", "/v1/passkeys", token=session["token"])
        chromium = [p for p in listed["passkeys"] if p["name"] == "Chromium"]
        self.assertEqual(len(chromium), 1)
        self.assertEqual(chromium[0]["algorithm"], -7)
        self.assertIsNotNone(chromium[0]["last_used_at"])

    def test_fido2_built_credentials_of_each_algorithm(self):
        status, grant = call("POST", "/v1/sessions", {"contract": "10000033", "password": "tresor-demo"})
        token = grant["token"]
        keys = {
            "ES256": (ec.generate_private_key(ec.SECP256R1()), cose.ES256, lambda k, m: k.sign(m, ec.ECDSA(hashes.SHA256()))),
            "EdDSA": (ed25519.Ed25519PrivateKey.generate(), cose.EdDSA, lambda k, m: k.sign(m)),
            "RS256": (rsa.generate_private_key(65537, 2048), cose.RS256, lambda k, m: k.sign(m, padding.PKCS1v15(), hashes.SHA256())),
        }
        rp_hash = hashlib.sha256(b"localhost").digest()
        flags = AuthenticatorData.FLAG.UP | AuthenticatorData.FLAG.UV
        for name, (key, kind, sign) in keys.items():
            status, options = call("POST", "/v1/passkeys/registration", token=token)
            self.assertEqual(status, 200, options)
            credential_id = os.urandom(32)
            attested = AttestedCredentialData.create(b"\0" * 16, credential_id, kind.from_cryptography_key(key.public_key()))
            auth_data = AuthenticatorData.create(rp_hash, flags | AuthenticatorData.FLAG.AT, 0, attested)
            client_data = CollectedClientData.create("webauthn.create", options["publicKey"]["challenge"], LOCAL)
            body = {"id": b64url(credential_id), "rawId": b64url(credential_id), "type": "public-key", "name": f"fido2 {name}",
                    "response": {"clientDataJSON": b64url(client_data), "attestationObject": b64url(AttestationObject.create("none", auth_data, {}))}}
            status, registered = call("POST", "/v1/passkeys", body, token=token)
            self.assertEqual(status, 201, (name, registered))
            self.assertEqual(registered["passkey"]["algorithm"], kind.ALGORITHM)
            for counter in [1, 2]:
                status, options = call("POST", "/v1/sessions/passkey/options")
                assertion_data = AuthenticatorData.create(rp_hash, flags, counter)
                client_data = CollectedClientData.create("webauthn.get", options["publicKey"]["challenge"], LOCAL)
                signature = sign(key, bytes(assertion_data) + hashlib.sha256(client_data).digest())
                body = {"id": b64url(credential_id), "rawId": b64url(credential_id), "type": "public-key",
                        "response": {"clientDataJSON": b64url(client_data), "authenticatorData": b64url(assertion_data),
                                     "signature": b64url(signature)}}
                status, session = call("POST", "/v1/sessions/passkey", body)
                self.assertEqual(status, 201, (name, counter, session))
                self.assertEqual(session["level"], 2)
            # The last assertion again: its challenge is used up.
            status, refused = call("POST", "/v1/sessions/passkey", body)
            self.assertEqual((status, refused["error"]["code"], refused["error"]["field"]), (401, "passkey_refused", "challenge"))
