"""Money from other banks as a customer sees it: a salary from another bank (booked through the
clearing gateway from the demo's camt.054) shows who sent it and from where, light and dark at
375 px; a payment the payee's bank sent back shows returned, with why, and the money is back."""
import json
import os
import subprocess
import urllib.request
import uuid
from decimal import Decimal

from selenium.webdriver.common.by import By

from webbase import BASE, ARTIFACTS, BrowserTest, api, bank_today
from test_payments import tan

BANKS = os.environ["TRESOR_WEB_BANKS"]
TRESOR = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".build", "debug", "tresor"))


class ClearingTest(BrowserTest):
    def test_a_salary_from_another_bank_shows_its_sender_light_and_dark(self):
        self.login()
        status, grant = api("POST", "/v1/sessions", {"contract": "10000012", "password": "tresor-demo"})
        accounts = api("GET", "/v1/accounts", token=grant["token"])[1]["accounts"]
        current = next(a for a in accounts if a["kind"] == "current" and a["currency"] == "CHF")
        page = api("GET", f"/v1/accounts/{current['id']}/transactions?limit=200", token=grant["token"])[1]
        salary = next(t for t in page["transactions"] if t["counterparty"] == "Helvetia Werkzeuge AG")
        detail = api("GET", f"/v1/transactions/{salary['id']}", token=grant["token"])[1]["transaction"]
        self.assertEqual(detail["credit"]["debtor"]["name"], "Helvetia Werkzeuge AG", "booked through the clearing gateway")
        for mode in ["light", "dark"]:
            self.browser.get(BASE + f"/appearance/{mode}?back=/home")
            self.browser.get(BASE + f"/transactions/{salary['id']}?account={current['id']}")
            section = self.browser.find_element(By.CSS_SELECTOR, "[data-testid=incoming]")
            self.assertIn("Von einer anderen Bank", section.text)
            self.assertEqual(self.browser.find_element(By.CSS_SELECTOR, "[data-testid=sender]").text, "Helvetia Werkzeuge AG")
            self.assertIn("Lohn", section.text)
            self.assert_fits_and_accessible()
            self.browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", section)
            os.makedirs(ARTIFACTS, exist_ok=True)
            self.browser.save_screenshot(os.path.join(ARTIFACTS, f"credit-from-another-bank-{mode}.png"))
        self.browser.get(BASE + "/appearance/auto?back=/home")

    def test_a_payment_sent_back_shows_returned_with_why_and_the_money_is_back(self):
        status, grant = api("POST", "/v1/sessions", {"contract": "10000028", "password": "tresor-demo"})
        token = grant["token"]
        accounts = api("GET", "/v1/accounts", token=token)[1]["accounts"]
        current = next(a for a in accounts if a["kind"] == "current" and a["currency"] == "CHF")
        body = {"type": "iban", "debtor_account": current["id"], "amount": {"amount": "21.40", "currency": "CHF"},
                "creditor": {"name": "Fornitore Srl", "iban": "DE89370400440532013000", "street": "Hauptstrasse", "building_number": "5",
                             "postal_code": "10115", "town": "Berlin", "country": "DE"}, "message": "Fattura 12"}
        request_key = {"Idempotency-Key": str(uuid.uuid4())}
        call = urllib.request.Request(BASE + "/v1/payments", method="POST", data=json.dumps(body).encode(),
                                      headers={"Content-Type": "application/json", "Authorization": "Bearer " + token, **request_key})
        payment = json.loads(urllib.request.urlopen(call).read())["payment"]
        if payment["status"] == "needs_signature":
            payment = api("POST", f"/v1/payments/{payment['id']}/signature", {"code": tan("10000028", payment["signature"]["position"])},
                          token=token)[1]["payment"]
        self.assertEqual(payment["status"], "executed")
        before = next(a for a in api("GET", "/v1/accounts", token=token)[1]["accounts"] if a["id"] == current["id"])["booked"]["amount"]
        # The day's pain.001, and the provider's answer: rejected, AM04.
        work = os.path.dirname(BANKS)
        export = os.path.join(work, f"pain001-{uuid.uuid4().hex}.xml")
        subprocess.run([TRESOR, "export", "pain001", "--banks", BANKS, "--bank", "tresor", "--date", bank_today().isoformat(), "--out", export],
                       check=True, stdout=subprocess.DEVNULL)
        message_id = open(export).read().split("<MsgId>", 1)[1].split("<", 1)[0]
        report = os.path.join(work, f"pain002-{uuid.uuid4().hex}.xml")
        open(report, "w").write(
            '<?xml version="1.0" encoding="UTF-8"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.002.001.10"><CstmrPmtStsRpt>'
            f'<GrpHdr><MsgId>STS-{uuid.uuid4().hex[:12]}</MsgId><CreDtTm>2026-11-24T07:00:00</CreDtTm></GrpHdr>'
            f'<OrgnlGrpInfAndSts><OrgnlMsgId>{message_id}</OrgnlMsgId><OrgnlMsgNmId>pain.001.001.09</OrgnlMsgNmId></OrgnlGrpInfAndSts>'
            f'<OrgnlPmtInfAndSts><OrgnlPmtInfId>{message_id}-1</OrgnlPmtInfId><TxInfAndSts><OrgnlEndToEndId>TRESOR-{payment["id"]}</OrgnlEndToEndId>'
            '<TxSts>RJCT</TxSts><StsRsnInf><Rsn><Cd>AM04</Cd></Rsn></StsRsnInf></TxInfAndSts></OrgnlPmtInfAndSts></CstmrPmtStsRpt></Document>')
        subprocess.run([TRESOR, "clearing", "import", "--banks", BANKS, "--bank", "tresor", report], check=True, stdout=subprocess.DEVNULL)
        after = next(a for a in api("GET", "/v1/accounts", token=token)[1]["accounts"] if a["id"] == current["id"])["booked"]["amount"]
        self.assertEqual(Decimal(after), Decimal(before) + Decimal("21.40"), "refunded")

        self.login("10000028")
        for mode in ["light", "dark"]:
            self.browser.get(BASE + f"/appearance/{mode}?back=/home")
            self.browser.get(BASE + f"/payments/{payment['id']}")
            self.assertEqual(self.browser.find_element(By.CSS_SELECTOR, "[data-testid=status]").get_attribute("data-status"), "returned")
            reason = self.browser.find_element(By.CSS_SELECTOR, "[data-testid=return-reason]").text
            self.assertIn("copertura insufficiente", reason, "the reason in words, in Luca's Italian")
            self.assert_fits_and_accessible()
            os.makedirs(ARTIFACTS, exist_ok=True)
            self.browser.save_screenshot(os.path.join(ARTIFACTS, f"payment-returned-{mode}.png"))
        self.browser.get(BASE + "/appearance/auto?back=/home")
