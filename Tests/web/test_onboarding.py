"""A new customer's first login as they meet it: staff take the customer on (the staff API, as a
branch's desk would), the letter's QR link opens /activate with both fields filled, a common
password is refused with the rules in view, a good one is saved and the overview shows the new
accounts; every step at 375 px, light and dark, screenshots kept. And the login page catches a
mistyped contract number before it is sent."""
import os
import subprocess
import urllib.parse

from selenium.webdriver.common.by import By

from webbase import ARTIFACTS, BASE, BrowserTest, api

BANKS = os.environ["TRESOR_WEB_BANKS"]
TRESOR = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".build", "debug", "tresor"))


def new_customer(name, birth_date):
    """A customer taken on through the staff API; (contract, code, the QR code's link)."""
    subprocess.run([TRESOR, "staff", "add", "--banks", BANKS, "--bank", "tresor", "--name", "web.desk", "--password", "desk-password-1"],
                   check=True, capture_output=True)
    status, grant = api("POST", "/v1/staff/sessions", {"name": "web.desk", "password": "desk-password-1"})
    assert status == 201, (status, grant)
    status, made = api("POST", "/v1/staff/customers", {"name": name, "birth_date": birth_date, "language": "de",
                                                        "accounts": ["current", "savings"]}, token=grant["token"])
    assert status == 201, (status, made)
    contract, code = made["customer"]["contract"], made["letter"]["code"]
    return contract, code, f"{BASE}/activate?contract={contract}&code={code}"


class OnboardingTest(BrowserTest):
    def shot(self, name, mode):
        os.makedirs(ARTIFACTS, exist_ok=True)
        self.browser.save_screenshot(os.path.join(ARTIFACTS, f"first-login-{name}-{mode}.png"))

    def test_first_login_from_the_letter_light_and_dark(self):
        for mode, (name, born) in zip(["light", "dark"], [("Lea Brunner", "1990-03-14"), ("Noah Weber", "1987-11-02")]):
            contract, code, link = new_customer(name, born)
            self.browser.get(BASE + f"/appearance/{mode}?back=/login")
            self.browser.get(link)
            self.assertEqual(self.browser.find_element(By.ID, "contract").get_attribute("value"), contract)
            self.assertEqual(self.browser.find_element(By.ID, "code").get_attribute("value"), code)
            self.assertEqual(self.browser.find_element(By.CSS_SELECTOR, ".steps [aria-current=step]").text, "1")
            self.assert_fits_and_accessible()
            self.shot("1-letter", mode)
            self.browser.find_element(By.CSS_SELECTOR, "form[action='/activate'] button").click()
            self.wait_until(lambda b: b.find_elements(By.ID, "confirm"))
            self.assertIn(name, self.browser.find_element(By.TAG_NAME, "main").text)
            # A password from the NCSC list: refused, the rules beside the field, the letter still good.
            self.browser.find_element(By.ID, "password").send_keys("Password1234")
            self.browser.find_element(By.ID, "confirm").send_keys("Password1234")
            self.browser.find_element(By.CSS_SELECTOR, "form[action='/activate/password'] button").click()
            error = self.wait_until(lambda b: b.find_element(By.ID, "activate-error"))
            self.assertIn("nicht eines der häufigsten", error.text)
            self.assertEqual(self.browser.find_element(By.ID, "password").get_attribute("aria-invalid"), "true")
            self.assert_fits_and_accessible()
            self.shot("2-password-refused", mode)
            self.browser.find_element(By.ID, "password").send_keys("Alpenrose-Morgenkaffee")
            self.browser.find_element(By.ID, "confirm").send_keys("Alpenrose-Morgenkaffee")
            self.browser.find_element(By.CSS_SELECTOR, "form[action='/activate/password'] button").click()
            done = self.wait_until(lambda b: b.find_element(By.ID, "activate-done"))
            self.assertIn(contract, done.text)
            self.assertEqual(self.browser.find_element(By.CSS_SELECTOR, ".steps [aria-current=step]").text, "3")
            self.assert_fits_and_accessible()
            self.shot("3-done", mode)
            self.browser.find_element(By.ID, "activate-home").click()
            self.wait_until(lambda b: urllib.parse.urlsplit(b.current_url).path == "/home")
            self.assertIn("Privatkonto", self.browser.find_element(By.TAG_NAME, "main").text)
            # The letter's code is used up: the same link now refuses it.
            self.browser.delete_all_cookies()
            self.browser.get(link)
            self.browser.find_element(By.CSS_SELECTOR, "form[action='/activate'] button").click()
            self.assertIn("falsch, benutzt oder abgelaufen", self.wait_until(lambda b: b.find_element(By.ID, "activate-error")).text)
            # And the chosen password logs in.
            self.login(contract, "Alpenrose-Morgenkaffee")
            self.assertEqual(urllib.parse.urlsplit(self.browser.current_url).path, "/home")
            self.browser.get(BASE + "/appearance/auto?back=/home")
            self.browser.delete_all_cookies()

    def test_the_login_form_catches_a_mistyped_contract_number_before_sending(self):
        self.browser.get(BASE + "/login")
        self.assertIn("auf Ihrer Karte", self.browser.find_element(By.ID, "forgot-contract").text)
        self.browser.find_element(By.ID, "contract").send_keys("10000013")  # 10000012 with its last digit wrong
        self.browser.find_element(By.ID, "password").send_keys("tresor-demo")
        self.browser.find_element(By.CSS_SELECTOR, "form[action='/login'] button").click()
        message = self.wait_until(lambda b: b.find_element(By.ID, "contract-error").text and b.find_element(By.ID, "contract-error"))
        self.assertIn("8 Ziffern", message.text)
        self.assertEqual(self.browser.find_element(By.ID, "contract").get_attribute("aria-invalid"), "true")
        self.assertFalse(self.browser.find_elements(By.ID, "login-error"), "nothing was sent, so no answer from the server")
        self.assert_fits_and_accessible()
        contract = self.browser.find_element(By.ID, "contract")
        contract.clear()
        contract.send_keys("10000012")
        self.browser.find_element(By.CSS_SELECTOR, "form[action='/login'] button").click()
        self.wait_until(lambda b: urllib.parse.urlsplit(b.current_url).path == "/home")
