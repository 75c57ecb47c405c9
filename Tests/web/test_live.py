"""Live notifications: with the overview open, money arriving from another customer (paid and
signed through the API, as his phone would) shows a toast, counts in the Inbox badge and
updates the balance in place, without a reload. The stream is the page's EventSource on /events."""
import json
import time
import urllib.request
import uuid

from selenium.webdriver.common.by import By

from test_payments import minor, tan
from webbase import BASE, BrowserTest


def api(method, path, token=None, body=None, headers=None):
    request = urllib.request.Request(BASE + path, method=method, data=json.dumps(body).encode() if body is not None else None)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", "Bearer " + token)
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read() or b"{}")


class LiveTest(BrowserTest):
    def chf_total(self):
        totals = [e.text for e in self.browser.find_elements(By.CSS_SELECTOR, "[data-testid=total]")]
        return minor(next(t for t in totals if "CHF" in t))

    def test_money_received_shows_a_toast_and_the_new_balance_without_a_reload(self):
        self.login()
        self.browser.get(BASE + "/home")
        before = self.chf_total()
        marker = self.browser.execute_script("window.notReloaded = true; return window.notReloaded")
        self.assertTrue(marker)
        # The page's event stream is open: what is committed from now on reaches it.
        self.wait_until(lambda b: b.execute_script("return document.body.dataset.live") == "open")
        anna = api("POST", "/v1/sessions", body={"contract": "10000012", "password": "tresor-demo"})["token"]
        anna_iban = next(a["iban"] for a in api("GET", "/v1/accounts", anna)["accounts"] if a["kind"] == "current" and a["currency"] == "CHF")
        luca = api("POST", "/v1/sessions", body={"contract": "10000028", "password": "tresor-demo"})["token"]
        luca_account = next(a["id"] for a in api("GET", "/v1/accounts", luca)["accounts"] if a["kind"] == "current" and a["currency"] == "CHF")
        payment = api("POST", "/v1/payments", luca, {
            "type": "iban", "debtor_account": luca_account, "amount": {"amount": "12.34", "currency": "CHF"},
            "creditor": {"name": "Anna Meier", "iban": anna_iban, "street": "Bahnhofstrasse", "building_number": "1",
                         "postal_code": "8001", "town": "Zürich", "country": "CH"}, "message": "Pizza"},
            headers={"Idempotency-Key": str(uuid.uuid4())})["payment"]
        if payment["status"] == "needs_signature":
            position = payment["signature"]["position"]
            payment = api("POST", f"/v1/payments/{payment['id']}/signature", luca, {"code": tan("10000028", position)})["payment"]
        self.assertEqual("executed", payment["status"])

        toast = self.wait_until(lambda b: b.find_element(By.ID, "toast") if b.find_element(By.ID, "toast").is_displayed() else None)
        self.assertEqual("Geld eingegangen", toast.text, "in the language Anna banks in (German, the browser's)")
        self.assertEqual("status", toast.get_attribute("role"))
        self.wait_until(lambda b: self.chf_total() == before + 1234)
        self.wait_until(lambda b: b.find_element(By.CSS_SELECTOR, "#tab-inbox .badge").is_displayed())
        self.assertTrue(self.browser.execute_script("return window.notReloaded === true"), "the page was not reloaded")
