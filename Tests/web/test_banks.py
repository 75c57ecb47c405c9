"""Two banks on one server, as their customers see them: each its own name, colour, languages
and customers; a login at one is nobody at the other. Run by scripts/web-test.sh."""
import os
import unicodedata

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from webbase import BASE, BrowserTest, bank_in

SECOND = os.environ["TRESOR_WEB_SECOND_BANK_URL"]


class BanksTest(BrowserTest):
    def header_colour(self):
        return self.browser.execute_script("return getComputedStyle(document.querySelector('header')).backgroundColor")

    def test_second_bank_has_its_own_look_language_and_customers(self):
        self.browser.get(SECOND + "/login")
        # The browser asks for German; Léman speaks French, English and Arabic, and answers in French.
        self.assertEqual(self.browser.find_element(By.TAG_NAME, "html").get_attribute("lang"), "fr")
        self.assertIn("Banque du Léman", self.browser.find_element(By.TAG_NAME, "header").text)
        self.assertEqual(self.header_colour(), "rgb(29, 107, 69)")
        languages = [a.get_attribute("href").rsplit("/language/", 1)[1][:2] for a in self.browser.find_elements(By.CSS_SELECTOR, "header nav.languages a")]
        self.assertEqual(languages, ["fr", "en", "ar"])
        self.assert_fits_and_accessible()

        # Tresor's customer does not exist here.
        self.browser.find_element(By.ID, "contract").send_keys("10000012")
        self.browser.find_element(By.ID, "password").send_keys("tresor-demo")
        self.browser.find_element(By.CSS_SELECTOR, "form[action='/login'] button").click()
        self.wait_until(lambda b: b.find_elements(By.ID, "login-error"))

        self.browser.get(SECOND + "/login")
        self.browser.find_element(By.ID, "contract").send_keys("20000016")
        self.browser.find_element(By.ID, "password").send_keys("tresor-demo")
        self.browser.find_element(By.CSS_SELECTOR, "form[action='/login'] button").click()
        self.wait_until(lambda b: b.current_url.endswith("/home"))
        page = self.browser.find_element(By.TAG_NAME, "main").text
        self.assertIn("Compte privé", page)
        self.assertNotIn("Privatkonto", page)
        self.assert_fits_and_accessible()

        # The session belongs to Léman's host: the default bank on the same server asks for a login.
        self.browser.get(BASE + "/home")
        self.wait_until(lambda b: "/login" in b.current_url)
        self.assertIn("Tresor Demo Bank", self.browser.find_element(By.TAG_NAME, "header").text)
        self.assertEqual(self.header_colour(), "rgb(11, 79, 108)")

    def test_arabic_pages_run_right_to_left_and_fit(self):
        """Léman in Arabic: the page mirrors (dir=rtl, the bank's name on the right), amounts and
        IBANs stay left to right inside, nothing overflows at 375 px."""
        # Chosen on the login page, Arabic becomes the language Sophie banks in: French again after.
        self.addCleanup(bank_in, "20000016", "fr", SECOND)
        self.browser.get(SECOND + "/language/ar?back=/login")
        self.wait_until(lambda b: b.find_element(By.TAG_NAME, "html").get_attribute("dir") == "rtl")
        self.assertEqual(self.browser.find_element(By.TAG_NAME, "html").get_attribute("lang"), "ar")
        self.assertIn("تسجيل الدخول", self.browser.find_element(By.TAG_NAME, "main").text)
        brand = self.browser.find_element(By.CSS_SELECTOR, "header .brand").rect
        languages = self.browser.find_element(By.CSS_SELECTOR, "header nav.languages").rect
        self.assertGreater(brand["x"], languages["x"], "the bank's name is on the right in Arabic")
        self.assert_fits_and_accessible()
        # The contract as an Arabic region's number pad types it (٠-٩): the same contract.
        self.browser.find_element(By.ID, "contract").send_keys("٢٠٠٠٠٠١٦")
        self.browser.find_element(By.ID, "password").send_keys("tresor-demo")
        self.browser.find_element(By.CSS_SELECTOR, "form[action='/login'] button").click()
        self.wait_until(lambda b: b.current_url.endswith("/home"))
        self.assertIn("إجمالي الأصول", self.browser.find_element(By.TAG_NAME, "main").text)
        total = self.browser.find_element(By.CSS_SELECTOR, ".total").text
        self.assertRegex(total.strip("\u2066\u2069"), r"^CHF\s[\d,]+\.\d\d$", "the amount reads left to right")
        self.assert_fits_and_accessible()
        for page in ["/accounts", "/pay/iban", "/transactions", "/budget", "/loan", "/cash", "/statements", "/documents"]:
            self.browser.get(SECOND + page)
            self.assert_fits_and_accessible()
        self.browser.get(SECOND + "/pay/iban")
        iban = self.browser.find_element(By.ID, "creditor_iban")
        self.assertEqual(iban.get_attribute("dir"), "ltr")
        # The live checks read Arabic digits and separators as the server does.
        iban.send_keys("CH٥٦ ٠٤٨٣ ٥٠١٢ ٣٤٥٦ ٧٨٠٠ ٨")
        self.assertEqual(iban.get_attribute("aria-invalid"), "true", "a wrong check digit is seen in Arabic digits too")
        iban.send_keys(Keys.BACK_SPACE + "٩")
        self.assertEqual(iban.get_attribute("aria-invalid"), "false")
        amount = self.browser.find_element(By.ID, "amount")
        amount.send_keys("٢٬٥٠٠٫٥٠")
        self.assertEqual(amount.get_attribute("aria-invalid"), "false")
        self.assertEqual(self.browser.execute_script("return typedAmount(arguments[0])", amount.get_attribute("value")), "2500.50")
        # Every decimal digit Python's unicodedata knows, as the page's script reads it.
        digits = "".join(chr(c) for c in range(0x80, 0x110000) if unicodedata.category(chr(c)) == "Nd")
        self.assertEqual(self.browser.execute_script("return asciiDigits(arguments[0])", digits),
                         "".join(str(unicodedata.decimal(d)) for d in digits))
