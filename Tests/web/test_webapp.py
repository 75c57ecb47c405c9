"""The web app as a person uses it on a phone: headless Chromium at 375x812 via Selenium.

Run by scripts/web-test.sh (part of `make test`) against `tresor serve --demo`."""
import os
import re
import unittest

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

BASE = os.environ["TRESOR_WEB_URL"]
ARTIFACTS = os.environ.get("TRESOR_WEB_ARTIFACTS", "/tmp/tresor-web-artifacts")

# Every text element's contrast against its background, and every form control's label.
ACCESSIBILITY_CHECK = """
function rgb(c) { const m = c.match(/[\\d.]+/g); return m ? m.map(Number) : [0, 0, 0, 0]; }
function lum(c) { const [r, g, b] = c.slice(0, 3).map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b; }
function background(el) { for (; el; el = el.parentElement) { const c = rgb(getComputedStyle(el).backgroundColor);
  if (c.length < 4 || c[3] > 0) return c; } return [255, 255, 255, 1]; }
const problems = [];
if (!document.documentElement.lang) problems.push("no lang on <html>");
for (const el of document.querySelectorAll("input:not([type=hidden]), select, textarea")) {
  if (!(el.id && document.querySelector(`label[for="${el.id}"]`)) && !el.getAttribute("aria-label")) problems.push("unlabelled " + el.outerHTML);
}
for (const el of document.querySelectorAll("button, a")) { if (!el.textContent.trim() && !el.getAttribute("aria-label")) problems.push("no name " + el.outerHTML); }
for (const el of document.querySelectorAll("body *")) {
  const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
  if (!own || el.offsetParent === null) continue;
  const fg = lum(rgb(getComputedStyle(el).color)), bg = lum(background(el));
  const ratio = (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
  if (ratio < 4.5) problems.push(`contrast ${ratio.toFixed(2)} on ${el.tagName} "${el.textContent.trim().slice(0, 30)}"`);
}
return problems;
"""


class WebAppTest(unittest.TestCase):
    def setUp(self):
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=375,812", "--lang=de-CH"]:
            options.add_argument(argument)
        options.add_experimental_option("prefs", {"intl.accept_languages": "de-CH,de"})
        self.browser = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        self.browser.set_window_size(375, 812)
        self.browser.implicitly_wait(2)

    def tearDown(self):
        failed = any(error for _, error in self._outcome.result.errors + self._outcome.result.failures if _ is self)
        if failed:
            os.makedirs(ARTIFACTS, exist_ok=True)
            self.browser.save_screenshot(os.path.join(ARTIFACTS, f"{self._testMethodName}.png"))
        self.browser.quit()

    def login(self, contract="10000001", password="tresor-demo"):
        self.browser.get(BASE + "/login")
        self.browser.find_element(By.ID, "contract").send_keys(contract)
        self.browser.find_element(By.ID, "password").send_keys(password)
        self.browser.find_element(By.CSS_SELECTOR, "form[action='/login'] button").click()
        # Wait for the answer: the home page, or the login page again with its error.
        WebDriverWait(self.browser, 10).until(
            lambda b: b.current_url.endswith("/home") or b.find_elements(By.ID, "login-error"))

    def click_and_wait(self, selector, url_part):
        self.browser.find_element(By.CSS_SELECTOR, selector).click()
        WebDriverWait(self.browser, 10).until(lambda b: url_part in b.current_url)

    def assert_fits_and_accessible(self):
        width = self.browser.execute_script("return document.documentElement.scrollWidth")
        viewport = self.browser.execute_script("return window.innerWidth")
        self.assertLessEqual(width, viewport, f"horizontal overflow on {self.browser.current_url}")
        self.assertEqual(self.browser.execute_script(ACCESSIBILITY_CHECK), [], self.browser.current_url)

    def test_login_shows_balances_in_swiss_format(self):
        self.login()
        self.assertTrue(self.browser.current_url.endswith("/home"))
        totals = [e.text for e in self.browser.find_elements(By.CSS_SELECTOR, "[data-testid=total]")]
        self.assertTrue(any(re.fullmatch(r"CHF\s\d{1,3}(’\d{3})*\.\d{2}", t) for t in totals), totals)
        self.assertEqual(self.browser.find_element(By.TAG_NAME, "html").get_attribute("lang"), "de")
        self.assertTrue(self.browser.find_element(By.CSS_SELECTOR, "svg.chart polyline").get_attribute("points"))

    def test_french_formats_amounts_and_dates(self):
        self.login()
        self.browser.find_element(By.CSS_SELECTOR, "a[href^='/language/fr']").click()
        WebDriverWait(self.browser, 10).until(lambda b: b.find_element(By.TAG_NAME, "html").get_attribute("lang") == "fr")
        self.assertEqual(self.browser.find_element(By.TAG_NAME, "html").get_attribute("lang"), "fr")
        totals = [e.text for e in self.browser.find_elements(By.CSS_SELECTOR, "[data-testid=total]")]
        self.assertTrue(any(re.fullmatch(r"\d{1,3}(\s\d{3})*,\d{2}\sCHF", t) for t in totals), totals)
        self.assertIn("Avoirs totaux", self.browser.page_source)
        dates = [e.text for e in self.browser.find_elements(By.CSS_SELECTOR, ".timeline .date")]
        self.assertTrue(dates and all(re.fullmatch(r"\d{2}\.\d{2}\.\d{4}", d) for d in dates), dates)

    def test_wrong_password_is_shown_and_keeps_the_contract(self):
        self.login(password="not-the-password")
        error = self.browser.find_element(By.ID, "login-error")
        self.assertIn("falsch", error.text)
        self.assertEqual(self.browser.find_element(By.ID, "contract").get_attribute("value"), "10000001")

    def test_accounts_show_iban_available_and_booked(self):
        self.login()
        self.browser.get(BASE + "/accounts")
        ibans = [e.text for e in self.browser.find_elements(By.CSS_SELECTOR, ".iban span")]
        self.assertTrue(ibans and all(i.startswith("CH") for i in ibans), ibans)
        self.assertEqual(len(self.browser.find_elements(By.CSS_SELECTOR, "[data-testid=available]")), len(ibans))

    def test_every_page_fits_375px_and_passes_the_accessibility_check(self):
        self.browser.get(BASE + "/login")
        self.assert_fits_and_accessible()
        self.login()
        for path in ["/home", "/home?period=week", "/accounts"]:
            self.browser.get(BASE + path)
            self.assert_fits_and_accessible()

    def test_logout_ends_the_session_and_pages_need_a_login(self):
        self.login()
        self.click_and_wait("form[action='/logout'] button", "/login")
        self.browser.get(BASE + "/home")
        self.assertIn("/login", self.browser.current_url)
        self.assertIn("abgelaufen", self.browser.page_source)

    def test_pages_send_a_content_security_policy_without_inline_scripts(self):
        self.browser.get(BASE + "/login")
        inline = self.browser.execute_script("return [...document.scripts].filter(s => !s.src).length")
        self.assertEqual(inline, 0)


if __name__ == "__main__":
    unittest.main()
