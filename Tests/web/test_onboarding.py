"""A new customer's first login as they meet it: staff take the customer on (the staff API, as a
branch's desk would), the letter's QR link opens /activate with both fields filled, a common
password is refused with the rules in view, a good one is saved and the overview shows the new
accounts; every step at 375 px, light and dark, screenshots kept. And the login page catches a
mistyped contract number before it is sent. And a bank that asks for two login factors: the
authenticator app set up at the first login, its code asked for after every password."""
import os
import re
import shutil
import subprocess
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

import pyotp
from selenium.webdriver.common.by import By

from webbase import ARTIFACTS, BASE, BrowserTest, OwnServer, api

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
            # The first visit: a short tour through the app, until closed; it does not come back.
            tour = self.browser.find_element(By.ID, "tour")
            self.assertEqual(3, len(tour.find_elements(By.CSS_SELECTOR, ".tour-steps li")))
            self.assertIn("Willkommen", tour.text)
            self.assert_fits_and_accessible()
            self.shot("3b-tour", mode)
            old_page = self.browser.find_element(By.TAG_NAME, "html")
            self.browser.find_element(By.ID, "tour-done").click()
            self.wait_until_left(old_page)
            self.assertFalse(self.browser.find_elements(By.ID, "tour"))
            # The letter's code is used up: the same link now refuses it.
            self.browser.delete_all_cookies()
            self.browser.get(link)
            self.browser.find_element(By.CSS_SELECTOR, "form[action='/activate'] button").click()
            self.assertIn("falsch, benutzt oder abgelaufen", self.wait_until(lambda b: b.find_element(By.ID, "activate-error")).text)
            # And the chosen password logs in; the overview names the login before (the first, on the web).
            self.login(contract, "Alpenrose-Morgenkaffee")
            self.assertEqual(urllib.parse.urlsplit(self.browser.current_url).path, "/home")
            self.assertFalse(self.browser.find_elements(By.ID, "tour"), "the tour was closed: not on another login")
            self.assertRegex(self.browser.find_element(By.ID, "last-login").text, r"^Letztes Login: .+ \d\d\.\d\d\.\d{4} \d\d:\d\d · Web$")
            # Settings: every other session ends at once.
            self.browser.get(BASE + "/settings")
            self.assertIn("Gemerkte Browser: 0", self.browser.find_element(By.ID, "settings-browsers").text)
            self.browser.find_element(By.ID, "end-sessions").click()
            self.assertIn("1 andere Sitzungen beendet", self.wait_until(lambda b: b.find_element(By.CSS_SELECTOR, ".notice")).text)
            self.assert_fits_and_accessible()
            self.shot("4-settings-security", mode)
            self.browser.get(BASE + "/appearance/auto?back=/home")
            self.browser.delete_all_cookies()

    def test_an_authenticator_app_set_up_from_the_settings(self):
        """A bank with one login factor: the app is set up (or replaced on a new phone) from the settings."""
        contract, code, link = new_customer("Elias Frei", "1984-09-12")
        self.browser.get(link)
        self.browser.find_element(By.CSS_SELECTOR, "form[action='/activate'] button").click()
        self.wait_until(lambda b: b.find_elements(By.ID, "confirm"))
        self.browser.find_element(By.ID, "password").send_keys("Alpenrose-Morgenkaffee")
        self.browser.find_element(By.ID, "confirm").send_keys("Alpenrose-Morgenkaffee")
        self.browser.find_element(By.CSS_SELECTOR, "form[action='/activate/password'] button").click()
        self.wait_until(lambda b: b.find_element(By.ID, "activate-done"))
        self.browser.get(BASE + "/settings")
        self.assertIn("keine", self.browser.find_element(By.ID, "settings-authenticator").text)
        for round in range(2):  # the second: a new phone replaces the first app
            self.browser.find_element(By.ID, "settings-authenticator-setup").click()
            secret = self.wait_until(lambda b: b.find_element(By.ID, "totp-secret")).text.replace(" ", "")
            self.assertFalse(self.browser.find_elements(By.CSS_SELECTOR, ".steps"), "no first-login steps in the settings")
            if round == 0:
                self.assert_fits_and_accessible()
                os.makedirs(ARTIFACTS, exist_ok=True)
                self.browser.save_screenshot(os.path.join(ARTIFACTS, "settings-authenticator-light.png"))
            field = self.browser.find_element(By.ID, "code")
            field.send_keys(pyotp.TOTP(secret).now())
            field.submit()
            self.wait_until(lambda b: urllib.parse.urlsplit(b.current_url).path == "/settings")
            self.assertIn("eingerichtet", self.browser.find_element(By.ID, "settings-authenticator").text)
        status, body = api("GET", "/v1/security", token=self.browser.get_cookie("tresor_session")["value"])
        self.assertEqual(status, 200, body)
        self.assertEqual(len([f for f in body["second_factors"] if f["kind"] == "totp" and f["status"] == "active"]), 1, body)
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


class TwoFactorBankTest(BrowserTest):
    """A bank made by `tresor banks add` (two login factors by default), served on its own:
    the first login sets up an authenticator app from its QR code's secret, and every later
    login asks for its code after the password. Codes come from pyotp (PyPI), an RFC 6238
    implementation written elsewhere than ours."""

    def setUp(self):
        super().setUp()
        self.folder = tempfile.mkdtemp(prefix="tresor-2fa-")
        subprocess.run([TRESOR, "banks", "add", "--banks", self.folder, "--id", "alpen", "--name", "Alpenbank", "--clearing", "8888",
                        "--default"], check=True, capture_output=True)
        self.server = OwnServer(self.folder, self.folder)
        self.base = self.server.base

    def tearDown(self):
        super().tearDown()
        self.server.stop()
        shutil.rmtree(self.folder, ignore_errors=True)

    def take_on(self, name, birth_date):
        made = subprocess.run([TRESOR, "customers", "add", "--banks", self.folder, "--bank", "alpen", "--name", name, "--birth-date", birth_date,
                               "--language", "de", "--staff", "desk"], check=True, capture_output=True, text=True).stdout
        return re.search(r"contract (\d{8})", made).group(1), re.search(r"code ([A-Z0-9-]{14})", made).group(1)

    def first_login_to_the_app(self, contract, code, mode):
        """Letter and password as in the one-factor bank; returns the secret the page shows."""
        self.browser.get(self.base + f"/appearance/{mode}?back=/login")
        self.browser.get(self.base + f"/activate?contract={contract}&code={code}")
        self.browser.find_element(By.CSS_SELECTOR, "form[action='/activate'] button").click()
        self.wait_until(lambda b: b.find_elements(By.ID, "confirm"))
        self.browser.find_element(By.ID, "password").send_keys("Alpenrose-Morgenkaffee")
        self.browser.find_element(By.ID, "confirm").send_keys("Alpenrose-Morgenkaffee")
        self.browser.find_element(By.CSS_SELECTOR, "form[action='/activate/password'] button").click()
        secret = self.wait_until(lambda b: b.find_element(By.ID, "totp-secret")).text.replace(" ", "")
        self.assertEqual([s.text for s in self.browser.find_elements(By.CSS_SELECTOR, ".steps span")], ["1", "2", "3", "4"])
        self.assertTrue(self.browser.find_element(By.CSS_SELECTOR, "#totp-qr svg").is_displayed())
        self.assert_fits_and_accessible()
        os.makedirs(ARTIFACTS, exist_ok=True)
        self.browser.save_screenshot(os.path.join(ARTIFACTS, f"first-login-3-authenticator-{mode}.png"))
        return secret

    def password_only(self, contract, remember=False):
        """A new browser's login with the password: it ends at the code page."""
        self.browser.delete_all_cookies()
        self.browser.get(self.base + "/login")
        self.browser.find_element(By.ID, "contract").send_keys(contract)
        self.browser.find_element(By.ID, "password").send_keys("Alpenrose-Morgenkaffee")
        if remember:
            self.browser.find_element(By.ID, "remember").click()
        self.browser.find_element(By.CSS_SELECTOR, "form[action='/login'] button").click()
        self.wait_until(lambda b: urllib.parse.urlsplit(b.current_url).path == "/login/code")

    def enter_code(self, code):
        field = self.browser.find_element(By.ID, "code")
        field.clear()
        field.send_keys(code)
        field.submit()

    def test_the_first_login_sets_up_the_app_and_every_login_asks_for_its_code(self):
        contract, code = self.take_on("Lea Brunner", "1990-03-14")
        secret = self.first_login_to_the_app(contract, code, "light")
        totp = pyotp.TOTP(secret)
        self.enter_code(f"{(int(totp.now()) + 1) % 1000000:06d}")  # a wrong code: the same QR code again, the error said
        self.assertIn("falsch", self.wait_until(lambda b: b.find_element(By.ID, "second-factor-error")).text)
        self.assertEqual(self.browser.find_element(By.ID, "totp-secret").text.replace(" ", ""), secret)
        used = totp.now()
        self.enter_code(used)
        self.wait_until(lambda b: b.find_elements(By.ID, "activate-done"))
        self.assertEqual(self.browser.find_element(By.CSS_SELECTOR, ".steps [aria-current=step]").text, "4")
        # Logged out and in again: the password alone leads to the code, and to nothing else.
        self.password_only(contract)
        self.browser.get(self.base + "/home")
        self.assertEqual(urllib.parse.urlsplit(self.browser.current_url).path, "/login", "no screen before the second factor")
        self.browser.get(self.base + "/login/code")
        for mode in ["light", "dark"]:
            self.browser.get(self.base + f"/appearance/{mode}?back=/login/code")
            self.assert_fits_and_accessible()
            self.browser.save_screenshot(os.path.join(ARTIFACTS, f"login-second-factor-{mode}.png"))
        # The code that set the app up does not open a session; the next one does.
        self.enter_code(used)
        self.assertIn("schon verwendet", self.wait_until(lambda b: b.find_element(By.ID, "second-factor-error")).text)
        while totp.now() == used:
            time.sleep(1)
        self.enter_code(totp.now())
        self.wait_until(lambda b: urllib.parse.urlsplit(b.current_url).path == "/home")
        self.assertIn("Privatkonto", self.browser.find_element(By.TAG_NAME, "main").text)

    def test_the_app_step_in_dark_and_leaving_at_the_code(self):
        contract, code = self.take_on("Noah Weber", "1987-11-02")
        secret = self.first_login_to_the_app(contract, code, "dark")
        self.enter_code(pyotp.TOTP(secret).now())
        self.wait_until(lambda b: b.find_elements(By.ID, "activate-done"))
        # Leaving at the code ends the password's session: the code page does not come back.
        self.password_only(contract)
        cookie = self.browser.get_cookie("tresor_session")["value"]
        self.browser.find_element(By.ID, "second-factor-cancel").click()
        self.wait_until(lambda b: urllib.parse.urlsplit(b.current_url).path == "/login")
        request = urllib.request.Request(self.base + "/v1/accounts", headers={"Authorization": "Bearer " + cookie})
        with self.assertRaises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request)
        self.assertEqual(refused.exception.code, 401)

    def test_the_printed_tan_list_as_the_second_factor(self):
        contract, code = self.take_on("Mia Keller", "1979-06-21")
        self.enter_code(pyotp.TOTP(self.first_login_to_the_app(contract, code, "light")).now())
        self.wait_until(lambda b: b.find_elements(By.ID, "activate-done"))
        printed = subprocess.run([TRESOR, "signing", "tan-list", "--banks", self.folder, "--bank", "alpen", "--contract", contract, "--staff", "desk"],
                                 check=True, capture_output=True, text=True).stdout
        codes = {int(position): tan for position, tan in re.findall(r"(\d+): (\d{6})", printed)}
        self.assertEqual(len(codes), 50, printed)
        self.password_only(contract, remember=True)
        self.assertIsNone(self.browser.get_cookie("tresor_device"), "the password alone remembers nothing")
        self.browser.find_element(By.ID, "use-tan").click()
        position = int(self.wait_until(lambda b: b.find_element(By.CSS_SELECTOR, "[data-testid=tan-position] strong")).text)
        self.browser.get(self.base + "/login/code?tan=1")
        self.assertEqual(int(self.browser.find_element(By.CSS_SELECTOR, "[data-testid=tan-position] strong").text), position,
                         "the page shown again asks the same position")
        for mode in ["light", "dark"]:
            self.browser.get(self.base + f"/appearance/{mode}?back=/login/code%3Ftan%3D1")
            self.assert_fits_and_accessible()
            self.browser.save_screenshot(os.path.join(ARTIFACTS, f"login-tan-{mode}.png"))
        other = next(tan for at, tan in codes.items() if at != position)
        field = self.browser.find_element(By.ID, "tan")
        field.send_keys(other)
        field.submit()
        self.wait_until(lambda b: b.find_element(By.ID, "second-factor-error"))
        self.assertEqual(int(self.browser.find_element(By.CSS_SELECTOR, "[data-testid=tan-position] strong").text), position)
        field = self.browser.find_element(By.ID, "tan")
        field.send_keys(codes[position])
        field.submit()
        self.wait_until(lambda b: urllib.parse.urlsplit(b.current_url).path == "/home")
        self.assertIsNotNone(self.browser.get_cookie("tresor_device"), "remembered once the second factor was given")
