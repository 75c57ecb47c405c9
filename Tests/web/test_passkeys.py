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
import urllib.request
import uuid

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, padding, rsa
from fido2 import cose
from fido2.webauthn import AttestationObject, AttestedCredentialData, AuthenticatorData, CollectedClientData
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from webbase import ARTIFACTS, BASE, BrowserTest, api

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


class PasskeyScreensTest(BrowserTest):
    """The web app's passkey screens with Chromium's virtual authenticator at 375 px: added
    under Settings, "Mit Passkey anmelden" on the login page, "Mit Passkey bestätigen" on a
    payment that needs a signature."""

    def shot(self, name):
        os.makedirs(ARTIFACTS, exist_ok=True)
        self.browser.save_screenshot(os.path.join(ARTIFACTS, f"passkey-{name}.png"))

    def test_add_log_in_and_sign_with_a_passkey(self):
        self.browser.get(LOCAL + "/login")
        self.browser.execute_cdp_cmd("WebAuthn.enable", {"enableUI": False})
        self.browser.execute_cdp_cmd("WebAuthn.addVirtualAuthenticator", {"options": {
            "protocol": "ctap2", "ctap2Version": "ctap2_1", "transport": "internal", "hasResidentKey": True, "hasUserVerification": True,
            "isUserVerified": True, "automaticPresenceSimulation": True}})
        self.browser.find_element(By.ID, "contract").send_keys("10000049")
        self.browser.find_element(By.ID, "password").send_keys("tresor-demo")
        self.browser.find_element(By.CSS_SELECTOR, "form[action='/login'] button").click()
        self.wait_until(lambda b: urllib.parse.urlsplit(b.current_url).path == "/home")
        self.browser.get(LOCAL + "/settings")
        self.browser.find_element(By.ID, "passkey-add").click()
        self.wait_until(lambda b: "saved=1" in b.current_url)
        names = [li.text for li in self.browser.find_elements(By.CSS_SELECTOR, "#passkeys li")]
        self.assertTrue(any(n.startswith("Passkey") for n in names), names)
        Select(self.browser.find_element(By.ID, "provider")).select_by_value("passkey")
        self.browser.find_element(By.CSS_SELECTOR, "form[action='/settings/signing'] button").click()
        self.wait_until(lambda b: "Passkey" in b.find_element(By.CSS_SELECTOR, "[data-testid=provider]").text)
        for mode in ["light", "dark"]:
            self.browser.get(LOCAL + f"/appearance/{mode}?back=/settings")
            self.browser.execute_script("document.getElementById('passkeys').scrollIntoView()")
            self.assert_fits_and_accessible()
            self.shot(f"settings-{mode}")

        # A new browser session: the passkey alone logs in.
        self.browser.delete_all_cookies()
        self.browser.get(LOCAL + "/login")
        for mode in ["light", "dark"]:
            self.browser.get(LOCAL + f"/appearance/{mode}?back=/login")
            self.assertTrue(self.browser.find_element(By.ID, "passkey-login").is_displayed())
            self.assert_fits_and_accessible()
            self.shot(f"login-{mode}")
        self.browser.find_element(By.ID, "passkey-login").click()
        self.wait_until(lambda b: urllib.parse.urlsplit(b.current_url).path == "/home")

        # A payment to a new payee waits for the passkey's signature, made on its page. (A Swiss
        # payee: the passkey is minutes old, and a new payee abroad would be held for review.)
        status, grant = api("POST", "/v1/sessions", {"contract": "10000049", "password": "tresor-demo"}, host=HOST)
        token = grant["token"]
        accounts = api("GET", "/v1/accounts", token=token, host=HOST)[1]["accounts"]
        current = next(a for a in accounts if a["kind"] == "current" and a["currency"] == "CHF")
        body = {"type": "iban", "debtor_account": current["id"], "amount": {"amount": "61.30", "currency": "CHF"},
                "creditor": {"name": "Elektro Zubehör GmbH", "iban": "CH9300762011623852957", "street": "Hauptstrasse", "building_number": "5",
                             "postal_code": "8004", "town": "Zürich", "country": "CH"}, "message": "Rechnung 88"}
        call = urllib.request.Request(LOCAL + "/v1/payments", method="POST", data=json.dumps(body).encode(),
                                      headers={"Content-Type": "application/json", "Authorization": "Bearer " + token,
                                               "Idempotency-Key": str(uuid.uuid4())})
        payment = json.loads(urllib.request.urlopen(call).read())["payment"]
        self.assertEqual((payment["status"], payment["signature"]["provider"]), ("needs_signature", "passkey"))
        self.browser.get(LOCAL + f"/payments/{payment['id']}")
        self.assertEqual(self.browser.find_element(By.ID, "sign-submit").text, "Mit Passkey bestätigen")
        for mode in ["light", "dark"]:
            self.browser.get(LOCAL + f"/appearance/{mode}?back=/payments/{payment['id']}")
            self.assert_fits_and_accessible()
            self.shot(f"sign-{mode}")
        self.browser.find_element(By.ID, "sign-submit").click()
        self.wait_until(lambda b: not b.find_elements(By.ID, "sign-submit"))
        status, shown = api("GET", f"/v1/payments/{payment['id']}", token=token, host=HOST)
        self.assertEqual(shown["payment"]["status"], "executed")
        self.browser.get(LOCAL + "/appearance/auto?back=/home")
