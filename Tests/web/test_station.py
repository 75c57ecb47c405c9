"""The self-service station in a real browser: the kiosk shows a code and its QR code, a phone
(the demo's activated phone: its P-256 key, signing as the app would) pairs with the typed code
through the API, the kiosk turns into the customer's menu by itself, pays out from the savings
book, opens a statement for the printer, and "done" brings the pairing screen back."""
import base64
import json
import os
import re
import urllib.error
import urllib.request

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from selenium.webdriver.common.by import By

from webbase import BASE, BrowserTest, api

STATIONS = os.environ.get("TRESOR_WEB_STATION", "")


class StationTest(BrowserTest):
    def demo(self):
        with open(STATIONS) as file:
            return next(s for s in json.load(file)["stations"] if s["bank"] == "tresor")

    def phone_session(self, demo):
        """A device login with the PIN, as the app makes it: the key signs the server's nonce."""
        key = ec.derive_private_key(int.from_bytes(base64.b64decode(demo["device_private_key"]), "big"), ec.SECP256R1())
        status, challenge = api("POST", f"/v1/devices/{demo['device_id']}/challenge", {})
        self.assertEqual(status, 201, challenge)
        signature = base64.b64encode(key.sign(challenge["nonce"].encode(), ec.ECDSA(hashes.SHA256()))).decode()
        status, session = api(
            "POST", "/v1/sessions/device",
            {"device_id": str(demo["device_id"]), "nonce": challenge["nonce"], "signature": signature, "pin": demo["pin"]})
        self.assertEqual((status, session.get("level")), (201, 2), session)
        return session["token"]

    def test_pair_pay_out_print_and_done(self):
        demo = self.demo()
        browser = self.browser
        browser.set_window_size(768, 1024)
        browser.get(BASE + "/station?key=" + demo["station_key"])
        pairing = self.wait_until(lambda b: b.find_element(By.ID, "station-pairing"))
        self.assert_fits_and_accessible()
        code = pairing.get_attribute("data-code")
        self.assertRegex(code, r"^[A-Z2-9]{6}$")
        self.assertEqual(browser.find_element(By.ID, "station-code").text.replace(" ", ""), code)
        qr = browser.find_element(By.CSS_SELECTOR, "#station-qr svg")
        self.assertGreater(qr.size["width"], 200, "a QR code a phone reads from a step away")
        self.assertNotIn("key=", browser.current_url, "the key moved into a cookie")

        token = self.phone_session(demo)
        status, wrong = api("POST", "/v1/stations/pairings", {"code": "ZZZZZZ" if code != "ZZZZZZ" else "YYYYYY"}, token)
        self.assertEqual((status, wrong["error"]["code"]), (422, "invalid_station_code"))
        status, paired = api("POST", "/v1/stations/pairings", {"code": code[:3].lower() + " " + code[3:]}, token)
        self.assertEqual(status, 201, paired)

        menu = self.wait_until(lambda b: b.find_element(By.ID, "station-menu"))
        self.assertIn("Anna Meier", menu.find_element(By.TAG_NAME, "h1").text)
        self.assertRegex(browser.find_element(By.ID, "station-remaining").text, r"[45]:\d\d")
        self.assert_fits_and_accessible()
        status, replay = api("POST", "/v1/stations/pairings", {"code": code}, token)
        self.assertEqual((status, replay["error"]["code"]), (422, "invalid_station_code"), "a code works once")

        book = browser.find_element(By.CSS_SELECTOR, "#payout-from option").text
        before = re.search(r"CHF\s([\d’.]+)", book).group(1)
        browser.find_element(By.ID, "payout-amount").send_keys("120.50")
        browser.find_element(By.CSS_SELECTOR, "#station-payout button").click()
        notice = self.wait_until(lambda b: b.find_element(By.ID, "station-notice"))
        self.assertIn("120.50", notice.text)
        after = re.search(r"CHF\s([\d’.]+)", browser.find_element(By.CSS_SELECTOR, "#payout-from option").text).group(1)
        as_minor = lambda text: int(text.replace("’", "").replace(".", ""))
        self.assertEqual(as_minor(before) - as_minor(after), 12050)

        # The statement opens as a PDF shown in the browser (inline), for the station's printer.
        link = browser.find_element(By.CSS_SELECTOR, "#station-statements .presets a").get_attribute("href")
        kind = browser.execute_async_script(
            "const done = arguments[1]; fetch(arguments[0]).then(r => done([r.status, r.headers.get('content-type'), r.headers.get('content-disposition')]));",
            link)
        self.assertEqual(kind[0], 200)
        self.assertEqual(kind[1], "application/pdf")
        self.assertTrue(kind[2].startswith("inline"), kind[2])

        # The same book from the phone, outside the station: refused.
        status, accounts = api("GET", "/v1/accounts", token=token)
        book_id = next(a["id"] for a in accounts["accounts"] if a["kind"] == "savings_book")
        current = next(a["id"] for a in accounts["accounts"] if a["kind"] == "current")
        request = urllib.request.Request(
            BASE + "/v1/transfers", method="POST",
            data=json.dumps({"from_account": book_id, "to_account": current, "amount": {"amount": "1.00", "currency": "CHF"}}).encode(),
            headers={"Content-Type": "application/json", "Authorization": "Bearer " + token, "Idempotency-Key": "phone-book-1"})
        with self.assertRaises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request)
        self.assertEqual(refused.exception.code, 403)
        self.assertEqual(json.loads(refused.exception.read())["error"]["code"], "station_required")

        browser.find_element(By.ID, "station-done").click()
        self.wait_until(lambda b: b.find_element(By.ID, "station-ended"))
        new_code = browser.find_element(By.ID, "station-pairing").get_attribute("data-code")
        self.assertNotEqual(new_code, code)
        self.assert_fits_and_accessible()

    def test_unknown_key_is_refused(self):
        self.browser.get(BASE + "/station?key=not-a-station")
        self.assertTrue(self.browser.find_element(By.ID, "station-unknown").is_displayed())
        self.browser.get(BASE + "/station")
        self.assertTrue(self.browser.find_element(By.ID, "station-unknown").is_displayed())
