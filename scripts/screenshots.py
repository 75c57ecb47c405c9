#!/usr/bin/env python3
"""Takes the README's screenshots (home, pay form with an error, receipt) from a running demo
bank at 375x812: `TRESOR_WEB_URL=http://127.0.0.1:8080 .build/web-venv/bin/python scripts/screenshots.py`."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "Tests", "web"))
from selenium.webdriver.common.by import By  # noqa: E402

from webbase import BASE, BrowserTest  # noqa: E402


class Shots(BrowserTest):
    def runTest(self):
        out = os.path.join(os.path.dirname(__file__), "..", "docs", "screenshots")
        self.login()
        self.browser.get(BASE + "/home")
        self.browser.save_screenshot(os.path.join(out, "home.png"))
        self.browser.get(BASE + "/pay/iban")
        for field, value in [("creditor_name", "Müller Gartenbau AG"), ("creditor_iban", "ch56 0483 5012 3456 7800 9"),
                             ("creditor_postal_code", "8002"), ("creditor_town", "Zürich"), ("amount", "120.00")]:
            self.browser.find_element(By.ID, field).send_keys(value)
        self.browser.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
        self.browser.save_screenshot(os.path.join(out, "pay-error.png"))
        self.browser.get(BASE + "/pay/internal")
        self.browser.find_element(By.ID, "amount").send_keys("50.00")
        self.pay()
        self.browser.save_screenshot(os.path.join(out, "receipt.png"))


if __name__ == "__main__":
    import unittest
    unittest.TextTestRunner().run(Shots())
