"""The web app as a person uses it on a phone: headless Chromium at 375x812 via Selenium.

Run by scripts/web-test.sh (part of `make test`) against `tresor serve --demo`."""
import json
import re
import unittest
import urllib.error
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from webbase import BASE, BrowserTest, bank_in, bank_today


class WebAppTest(BrowserTest):
    def test_login_shows_balances_in_swiss_format(self):
        self.login()
        self.assertTrue(self.browser.current_url.endswith("/home"))
        totals = [e.text for e in self.browser.find_elements(By.CSS_SELECTOR, "[data-testid=total]")]
        self.assertTrue(any(re.fullmatch(r"CHF\s\d{1,3}(’\d{3})*\.\d{2}", t) for t in totals), totals)
        self.assertEqual(self.browser.find_element(By.TAG_NAME, "html").get_attribute("lang"), "de")
        self.assertTrue(self.browser.find_element(By.CSS_SELECTOR, "svg.chart polyline").get_attribute("points"))

    def test_french_formats_amounts_and_dates(self):
        self.addCleanup(bank_in, "10000012", "de")
        self.login()
        # Logged in, the language is chosen in Settings: the header keeps its room for the title.
        self.assertEqual(self.browser.find_elements(By.CSS_SELECTOR, "header a[href^='/language/']"), [])
        self.browser.get(BASE + "/settings")
        self.browser.find_element(By.CSS_SELECTOR, "#settings-languages a[href^='/language/fr']").click()
        self.wait_until(lambda b: b.find_element(By.TAG_NAME, "html").get_attribute("lang") == "fr")
        self.browser.get(BASE + "/home")
        self.assertEqual(self.browser.find_element(By.TAG_NAME, "html").get_attribute("lang"), "fr")
        totals = [e.text for e in self.browser.find_elements(By.CSS_SELECTOR, "[data-testid=total]")]
        self.assertTrue(any(re.fullmatch(r"\d{1,3}(\s\d{3})*,\d{2}\sCHF", t) for t in totals), totals)
        self.assertIn("Avoirs totaux", self.browser.page_source)
        dates = [e.text for e in self.browser.find_elements(By.CSS_SELECTOR, ".timeline .date")]
        # Dates in words, in French: today, yesterday, else the weekday, day and month.
        self.assertTrue(dates and all(re.fullmatch(r"Aujourd’hui|Hier|(lun|mar|mer|jeu|ven|sam|dim) \d{1,2} \S+( \d{4})?", d) for d in dates), dates)

    def test_wrong_password_is_shown_and_keeps_the_contract(self):
        self.login(password="not-the-password")
        error = self.browser.find_element(By.ID, "login-error")
        self.assertIn("falsch", error.text)
        self.assertEqual(self.browser.find_element(By.ID, "contract").get_attribute("value"), "10000012")

    def test_accounts_show_iban_available_and_booked(self):
        self.login()
        self.browser.get(BASE + "/accounts")
        ibans = [e.text for e in self.browser.find_elements(By.CSS_SELECTOR, ".iban span")]
        self.assertTrue(ibans and all(i.startswith("CH") for i in ibans), ibans)
        self.assertEqual(len(self.browser.find_elements(By.CSS_SELECTOR, "[data-testid=available]")), len(ibans))
        # The filter by product: only the cards, then all again.
        filters = [a.text for a in self.browser.find_elements(By.CSS_SELECTOR, "#account-filters a")]
        self.assertEqual(filters[0], "Alle")
        self.assertIn("Kartenkonto", filters)
        self.browser.find_element(By.LINK_TEXT, "Kartenkonto").click()
        self.wait_until(lambda b: "kind=card" in b.current_url)
        self.assertEqual([e.text for e in self.browser.find_elements(By.CSS_SELECTOR, ".account h2 small")], ["Kartenkonto"])
        self.assertEqual(self.browser.find_element(By.CSS_SELECTOR, "#account-filters [aria-current=true]").text, "Kartenkonto")
        self.assert_fits_and_accessible()
        self.browser.find_element(By.LINK_TEXT, "Alle").click()
        self.wait_until(lambda b: "kind=" not in b.current_url)
        self.assertEqual(len(self.browser.find_elements(By.CSS_SELECTOR, ".iban span")), len(ibans))

    def test_every_page_fits_375px_and_passes_the_accessibility_check(self):
        for path in ["/login", "/branches", "/branches/1"]:
            self.browser.get(BASE + path)
            self.assert_fits_and_accessible()
        self.login()
        for path in ["/home", "/home?period=week", "/accounts", "/receipts", "/budget", "/branches?q=8001&kind=atm", "/branches/1",
                     "/appointments/new?branch=1", "/appointments", "/cash?branch=1", "/loan", "/inbox"]:
            self.browser.get(BASE + path)
            self.assert_fits_and_accessible()

    def test_help_has_the_card_hotline_first_and_fields_explain_their_rule(self):
        """From More to Help: the card blocking number first, to dial; an answer opens. On the IBAN
        form the info button beside the IBAN's label shows its rule and hides it again."""
        self.login()
        self.browser.get(BASE + "/more")
        self.click_and_wait("a[href='/help']", "/help")
        first = self.browser.find_element(By.CSS_SELECTOR, "#help-numbers li")
        self.assertIn("hotline", first.get_attribute("class"))
        self.assertIn("Karte sperren", first.text)
        self.assertTrue(first.find_element(By.TAG_NAME, "a").get_attribute("href").startswith("tel:+41"))
        question = self.browser.find_element(By.CSS_SELECTOR, "#help-faq details")
        self.assertFalse(question.find_element(By.TAG_NAME, "p").is_displayed())
        question.find_element(By.TAG_NAME, "summary").click()
        self.assertTrue(question.find_element(By.TAG_NAME, "p").is_displayed())
        self.assert_fits_and_accessible()

        self.browser.get(BASE + "/pay/iban")
        info = self.browser.find_element(By.CSS_SELECTOR, "[data-testid=info-creditor_iban]")
        rule = self.browser.find_element(By.ID, "creditor_iban-info")
        self.assertFalse(rule.is_displayed())
        self.assertIn("creditor_iban-info", self.browser.find_element(By.ID, "creditor_iban").get_attribute("aria-describedby"))
        info.click()
        self.assertTrue(rule.is_displayed())
        self.assertEqual("true", info.get_attribute("aria-expanded"))
        self.assertIn("19 weitere Zeichen", rule.text)
        self.assert_fits_and_accessible()
        info.click()
        self.assertFalse(rule.is_displayed())

    def test_card_details_show_limit_used_and_what_is_left(self):
        self.login()
        self.browser.get(BASE + "/accounts")
        card = self.browser.find_element(By.CSS_SELECTOR, "[data-testid=card-details]")
        self.assertEqual(card.find_element(By.CSS_SELECTOR, "[data-testid=card-limit]").text, "CHF 5’000.00")
        used = card.find_element(By.CSS_SELECTOR, "[data-testid=card-used]").text
        left = card.find_element(By.CSS_SELECTOR, "[data-testid=card-left]").text
        number = lambda text: int(re.sub(r"[^\d]", "", text))
        self.assertGreater(number(used), 0, "the demo card has purchases")
        self.assertLessEqual(number(left), 500000 - number(used))
        # Its status and validity, as printed on the card: three years from when the demo bank opened it.
        self.assertEqual("Aktiv", card.find_element(By.CSS_SELECTOR, "[data-testid=card-status]").text)
        today = bank_today()
        self.assertEqual(f"{today.month:02d}/{today.year + 3}", card.find_element(By.CSS_SELECTOR, "[data-testid=card-expires]").text)

    def test_blocking_a_card_takes_effect_at_once_and_is_confirmed(self):
        """Claire blocks her card from its details: the page says so, the form is gone, and the
        confirmation is among her messages on the home page."""
        self.login("10000033")
        self.browser.get(BASE + "/accounts")
        # Folded under the card until asked for.
        self.assertFalse(self.browser.find_element(By.CSS_SELECTOR, "[data-testid=block-card]").is_displayed())
        self.browser.find_element(By.CSS_SELECTOR, "details.card-block summary").click()
        Select(self.browser.find_element(By.CSS_SELECTOR, "form[action^='/cards/'] select")).select_by_value("stolen")
        old_page = self.browser.find_element(By.TAG_NAME, "html")
        self.browser.find_element(By.CSS_SELECTOR, "[data-testid=block-card]").click()
        self.wait_until_left(old_page)
        self.assertTrue(self.browser.find_element(By.ID, "card-notice").text)
        self.assertTrue(self.browser.find_element(By.CSS_SELECTOR, "[data-testid=card-blocked]").is_displayed())
        self.assertFalse(self.browser.find_elements(By.CSS_SELECTOR, "[data-testid=block-card]"))
        self.assert_fits_and_accessible()
        self.browser.get(BASE + "/home")
        self.assertIn("Carte bloquée", self.browser.find_element(By.TAG_NAME, "main").text, "Claire banks in French")

    def test_remembered_device_shows_the_quick_balance_view_and_steps_up_with_the_password(self):
        self.browser.get(BASE + "/login")
        self.assertFalse(self.browser.find_elements(By.ID, "quick-balance"))
        self.browser.find_element(By.ID, "contract").send_keys("10000012")
        self.browser.find_element(By.ID, "password").send_keys("tresor-demo")
        self.browser.find_element(By.ID, "remember").click()
        self.browser.find_element(By.CSS_SELECTOR, "form[action='/login'] button").click()
        self.wait_until(lambda b: b.current_url.endswith("/home"))
        self.click_and_wait("form[action='/logout'] button", "/login")
        self.browser.get(BASE + "/login")
        balances = [e.text for e in self.browser.find_elements(By.CSS_SELECTOR, "[data-testid=quick-available]")]
        self.assertTrue(balances and all("CHF" in b or "EUR" in b for b in balances), balances)
        self.assert_fits_and_accessible()
        self.browser.get(BASE + "/accounts")
        self.assertIn("/login", self.browser.current_url, "the quick view opens no session")
        self.assertEqual(self.browser.find_element(By.ID, "contract").get_attribute("value"), "10000012")
        self.browser.find_element(By.ID, "password").send_keys("tresor-demo")
        self.browser.find_element(By.CSS_SELECTOR, "form[action='/login'] button").click()
        self.wait_until(lambda b: b.current_url.endswith("/home"))
        self.click_and_wait("form[action='/logout'] button", "/login")
        self.browser.get(BASE + "/login")
        self.browser.find_element(By.ID, "forget-device").click()
        self.wait_until(lambda b: not b.find_elements(By.ID, "quick-balance"))
        self.browser.get(BASE + "/login")
        self.assertFalse(self.browser.find_elements(By.ID, "quick-balance"))

    def test_logout_ends_the_session_and_pages_need_a_login(self):
        self.login()
        self.click_and_wait("form[action='/logout'] button", "/login")
        self.browser.get(BASE + "/home")
        self.assertIn("/login", self.browser.current_url)
        self.assertIn("abgelaufen", self.browser.page_source)

    def test_a_stale_or_mistyped_link_shows_the_apps_not_found_page(self):
        """Another customer's booking, a payment that is gone, an address that never was: the
        app's page in the customer's language with the way back, not a bare text or the API's
        JSON; the API keeps its JSON error for a browser too."""
        self.login("10000028")
        for path in ["/transactions/1", "/payments/999999", "/receipts/999999", "/no-such-screen"]:
            self.browser.get(BASE + path)
            self.assertEqual(self.browser.find_element(By.TAG_NAME, "h1").text, "Non trovato", path)
            self.assertTrue(self.browser.find_elements(By.CSS_SELECTOR, "nav.tabbar"), path)
            self.assertTrue(self.browser.find_element(By.CSS_SELECTOR, "main a.button").get_attribute("href").endswith("/home"), path)
            self.assert_fits_and_accessible()
        request = urllib.request.Request(BASE + "/v1/no-such-resource", headers={"Accept": "text/html"})
        with self.assertRaises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request)
        self.assertEqual(json.load(refused.exception)["error"]["code"], "not_found")
        self.click_and_wait("form[action='/logout'] button", "/login")
        self.browser.get(BASE + "/no-such-screen")
        self.assertEqual(self.browser.find_element(By.TAG_NAME, "h1").text, "Non trovato", "the login page stays in his language")
        self.assertTrue(self.browser.find_element(By.CSS_SELECTOR, "main a.button").get_attribute("href").endswith("/login"))
        self.assert_fits_and_accessible()

    def test_a_form_from_an_old_session_changes_nothing_and_says_so(self):
        """A form whose CSRF field is not the session's (a page left open while the customer
        logged in again): nothing is done, and the app's page says the form expired and leads
        back to its screen, not a bare "Forbidden"."""
        self.login()
        self.browser.get(BASE + "/settings")
        password_form = "form[action='/settings/password']"
        self.browser.execute_script(f"document.querySelector(\"{password_form} input[name=csrf]\").value = 'from-an-old-session'")
        self.browser.find_element(By.ID, "current_password").send_keys("tresor-demo")
        self.browser.find_element(By.ID, "new_password").send_keys("a-new-password-123")
        self.browser.find_element(By.CSS_SELECTOR, f"{password_form} button").click()
        self.wait_until(lambda b: b.find_elements(By.ID, "problem"))
        self.assertEqual(self.browser.find_element(By.TAG_NAME, "h1").text, "Formular abgelaufen")
        self.assertEqual(self.browser.find_element(By.ID, "problem").text, "Das Formular ist abgelaufen. Bitte erneut versuchen.")
        back = self.browser.find_element(By.CSS_SELECTOR, "main a.button")
        self.assertEqual((back.get_attribute("href"), back.text), (BASE + "/settings", "Einstellungen"))
        self.assert_fits_and_accessible()
        # The password was not changed: the old one still logs in.
        self.browser.delete_all_cookies()
        self.login()
        self.assertTrue(self.browser.current_url.endswith("/home"))

    def test_a_customer_banks_in_their_language_on_a_new_browser(self):
        """Luca banks in Italian: on a browser that asks for German (this one) and has never been
        told otherwise, the app speaks Italian from the first screen after login; on a browser
        shared with Anna each gets their own. A language picked on the login page wins over it
        and becomes the one the bank writes to him in."""
        self.addCleanup(bank_in, "10000028", "it")
        self.login("10000028")
        self.assertEqual(self.browser.find_element(By.TAG_NAME, "html").get_attribute("lang"), "it")
        self.assertEqual(self.browser.find_element(By.CSS_SELECTOR, "nav.tabbar a[href='/home'] span").text, "Panoramica")
        self.click_and_wait("form[action='/logout'] button", "/login")
        self.assertEqual(self.browser.find_element(By.TAG_NAME, "html").get_attribute("lang"), "it", "the login page after logout too")
        # A shared browser: Anna, next, banks in German, and Luca keeps his Italian.
        self.login()
        self.assertEqual(self.browser.find_element(By.TAG_NAME, "html").get_attribute("lang"), "de")
        self.click_and_wait("form[action='/logout'] button", "/login")
        self.login("10000028")
        self.assertEqual(self.browser.find_element(By.TAG_NAME, "html").get_attribute("lang"), "it")
        self.browser.delete_all_cookies()
        self.browser.get(BASE + "/language/en?back=/login")
        self.login("10000028")
        self.assertEqual(self.browser.find_element(By.TAG_NAME, "html").get_attribute("lang"), "en")
        # Recorded: a fresh browser now opens in English for him.
        self.browser.delete_all_cookies()
        self.login("10000028")
        self.assertEqual(self.browser.find_element(By.TAG_NAME, "html").get_attribute("lang"), "en")

    def test_a_form_naming_nothing_that_is_there_shows_the_not_found_page(self):
        """A form whose address names no template or payment (a page edited by hand, an address
        mangled on the way) with the session's own CSRF field: nothing is done and the app says
        it is not there, not that the form expired (whose advice, to try again, cannot help)."""
        self.login()
        for screen, selector, address in [
            ("/templates", "form[action^='/templates/'][action$='/pay']", "/templates/not-a-template/pay"),
            ("/templates", "form[action^='/templates/'][action$='/delete']", "/templates/not-a-template/delete"),
            ("/accounts", "form[action^='/cards/'][action$='/block']", "/cards/not-a-card/block"),
        ]:
            self.browser.get(BASE + screen)
            before = len(self.browser.find_elements(By.CSS_SELECTOR, selector))
            self.assertGreater(before, 0, screen)
            form = self.browser.find_element(By.CSS_SELECTOR, selector)
            self.browser.execute_script("arguments[0].action = arguments[1]; arguments[0].submit()", form, address)
            self.wait_until(lambda b: b.find_elements(By.ID, "problem"))
            self.assertEqual(self.browser.find_element(By.TAG_NAME, "h1").text, "Nicht gefunden", address)
            self.assertTrue(self.browser.find_element(By.CSS_SELECTOR, "main a.button").get_attribute("href").endswith("/home"), address)
            # Nothing was done: the screen shows as many templates (or unblocked cards) as before.
            self.browser.get(BASE + screen)
            self.assertEqual(len(self.browser.find_elements(By.CSS_SELECTOR, selector)), before, address)
        self.assert_fits_and_accessible()

    def test_pages_send_a_content_security_policy_without_inline_scripts(self):
        self.browser.get(BASE + "/login")
        inline = self.browser.execute_script("return [...document.scripts].filter(s => !s.src).length")
        self.assertEqual(inline, 0)


if __name__ == "__main__":
    unittest.main()
