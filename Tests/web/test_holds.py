"""A held payment as the customer meets it: a phone activated by the branch minutes ago, then a
payment of CHF 8,000 from the web app to a payee in Germany never paid before. The risk check
holds it: the receipt says "being checked" (amount reserved, nothing left), the inbox has the
message, staff release it through the staff API and the receipt shows it executed. On a demo
server of its own, so the new phone's 24 hours do not reach the other tests' payments.
Screenshots at 375 px, light and dark."""
import base64
import os
import urllib.parse

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from selenium.webdriver.common.by import By

from webbase import ARTIFACTS, OwnDemoTest


class HeldPaymentTest(OwnDemoTest):
    def activate_phone(self):
        """The branch activates a new phone for Anna Meier (staff API, as the desk does); returns the staff token."""
        staff = self.staff_token("risk.desk")
        status, issued = self.call("POST", "/v1/staff/activation-codes", {"contract": "10000012"}, staff)
        self.assertEqual(status, 201, issued)
        key = ec.generate_private_key(ec.SECP256R1())
        point = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        status, enrolled = self.call("POST", "/v1/devices", {"contract": "10000012", "activation_code": issued["code"], "name": "Neues iPhone",
                                                            "public_key": base64.b64encode(point).decode()})
        self.assertEqual(status, 201, enrolled)
        return staff

    def test_a_new_phone_paying_a_new_payee_abroad_is_held_then_released(self):
        staff = self.activate_phone()
        self.log_in()
        self.browser.get(self.base + "/pay/iban")
        for field, value in [("creditor_name", "Schmidt Handels GmbH"), ("creditor_iban", "DE89 3704 0044 0532 0130 00"),
                             ("creditor_postal_code", "8000"), ("creditor_town", "Zürich"), ("amount", "8000.00")]:
            self.browser.find_element(By.ID, field).send_keys(value)
        self.pay()
        status = self.browser.find_element(By.CSS_SELECTOR, "[data-testid=status]")
        self.assertEqual(status.get_attribute("data-status"), "held")
        self.assertEqual(status.text, "Wird geprüft")
        notice = self.browser.find_element(By.CSS_SELECTOR, "[data-testid=held-notice]")
        self.assertIn("Der Betrag ist reserviert", notice.text)
        self.assertFalse(self.browser.find_elements(By.ID, "sign-submit"), "a held payment asks for no signature")
        self.assertFalse(self.browser.find_elements(By.ID, "edit-payment"), "nor can it be changed while it is checked")
        receipt = self.browser.current_url
        payment_id = urllib.parse.urlsplit(receipt).path.rsplit("/", 1)[1]
        os.makedirs(ARTIFACTS, exist_ok=True)
        for mode in ["light", "dark"]:
            self.browser.get(self.base + f"/appearance/{mode}?back=" + urllib.parse.quote(urllib.parse.urlsplit(receipt).path))
            self.wait_until(lambda b: b.find_elements(By.CSS_SELECTOR, "[data-testid=held-notice]"))
            self.assert_fits_and_accessible()
            self.browser.save_screenshot(os.path.join(ARTIFACTS, f"payment-held-{mode}.png"))
        self.browser.get(self.base + "/inbox")
        self.assertIn("Zahlung wird geprüft", self.browser.find_element(By.TAG_NAME, "main").text)

        status, queue = self.call("GET", "/v1/staff/holds", token=staff)
        self.assertEqual(status, 200, queue)
        held = next(h for h in queue["holds"] if h["payment"]["id"] == payment_id)
        self.assertEqual(held["signals"], ["new_country", "new_device", "new_payee", "unusual_amount"])
        status, released = self.call("POST", f"/v1/staff/holds/{payment_id}/release", token=staff)
        self.assertEqual(status, 200, released)
        self.browser.get(receipt)
        self.assertEqual(self.browser.find_element(By.CSS_SELECTOR, "[data-testid=status]").get_attribute("data-status"), "executed")
        self.assertFalse(self.browser.find_elements(By.CSS_SELECTOR, "[data-testid=held-notice]"))
