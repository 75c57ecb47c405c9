"""Transactions, templates and settings in the web app."""
import unittest
from datetime import date, timedelta

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from webbase import BASE, BrowserTest, api


class ScreensTest(BrowserTest):
    def submit(self, selector="main form button[type=submit]"):
        """Clicks and waits for the next page: the old document must go stale first, or a check
        could still read the page the click is leaving."""
        old_page = self.browser.find_element(By.TAG_NAME, "html")
        self.browser.find_element(By.CSS_SELECTOR, selector).click()
        self.wait_until_left(old_page)

    def test_timeline_shows_the_list_first_filters_by_chip_and_pages_to_the_oldest(self):
        self.login()
        # A transfer to savings without a message: its row says "Übertrag", with no separator after it.
        self.browser.get(BASE + "/pay/internal")
        self.browser.find_element(By.ID, "amount").send_keys("1.00")
        self.pay()
        self.browser.get(BASE + "/transactions")
        self.assertEqual(self.browser.find_element(By.CSS_SELECTOR, ".timeline .meta").text, "Übertrag")
        # Its page has no empty "Mitteilung" row either.
        self.browser.get(self.browser.find_element(By.CSS_SELECTOR, ".timeline a.who").get_attribute("href"))
        self.assertNotIn("Mitteilung", self.browser.find_element(By.CSS_SELECTOR, "dl.details").text)
        self.browser.get(BASE + "/transactions")
        first = self.browser.find_element(By.CSS_SELECTOR, ".timeline li")
        self.assertLess(first.rect["y"] + first.rect["height"], self.browser.execute_script("return window.innerHeight"),
                        "the newest transaction shows without scrolling past the filters")
        self.assertFalse(self.browser.find_element(By.ID, "account").is_displayed(), "the filters stay folded until asked for")
        self.assert_fits_and_accessible()

        self.submit("#timeline-types a[href*='type=income']")
        self.assertEqual(self.browser.find_element(By.CSS_SELECTOR, "#timeline-types a[aria-current]").get_attribute("href").split("type=")[1][:6], "income")
        amounts = [e.text for e in self.browser.find_elements(By.CSS_SELECTOR, ".timeline .amount")]
        self.assertTrue(amounts, "the demo has income")
        self.assertTrue(all("+" in a and "−" not in a for a in amounts), amounts)
        days = [e.text for e in self.browser.find_elements(By.CSS_SELECTOR, ".day h2")]
        self.assertEqual(len(days), len(set(days)), "one group per day")
        # A booking's message shows beside its category unless it says the same ("Lohn", not "Lohn · Lohn").
        metas = [e.text for e in self.browser.find_elements(By.CSS_SELECTOR, ".timeline .meta")]
        self.assertTrue(any(m.startswith("Lohn") for m in metas), metas)
        self.assertTrue(all(len(m.split(" · ")) == len({p.lower() for p in m.split(" · ")}) for m in metas), metas)

        # A period set in the folded form is kept by the chips and said in the summary.
        self.browser.find_element(By.CSS_SELECTOR, "#timeline-filters summary").click()
        self.browser.execute_script("document.getElementById('from').value = '2026-01-01'; document.getElementById('to').value = '2026-06-30'")
        self.submit("#timeline-filters button")
        self.assertIn("01.01.2026 – 30.06.2026", self.browser.find_element(By.ID, "filter-summary").text)
        self.assertIn("from=2026-01-01", self.browser.find_element(By.CSS_SELECTOR, "#timeline-types a[href*='type=all']").get_attribute("href"))

        # Every entry of the account once, newest first, a page at a time, as the API lists them.
        account = Select(self.browser.find_element(By.ID, "account")).first_selected_option.get_attribute("value")
        status, session = api("POST", "/v1/sessions", {"contract": "10000012", "password": "tresor-demo"})
        self.assertEqual(status, 201, session)
        expected, cursor = [], None
        while True:
            status, page = api("GET", f"/v1/accounts/{account}/transactions?limit=100" + (f"&cursor={cursor}" if cursor else ""), token=session["token"])
            self.assertEqual(status, 200, page)
            expected += [t["id"] for t in page["transactions"]]
            cursor = page["next_cursor"]
            if not cursor:
                break
        self.browser.get(BASE + f"/transactions?account={account}")
        seen, pages = [], 0
        while True:
            ids = [a.get_attribute("href").rsplit("/", 1)[1].split("?")[0] for a in self.browser.find_elements(By.CSS_SELECTOR, ".timeline a.who")]
            self.assertLessEqual(len(ids), 30)
            seen += ids
            pages += 1
            self.assertLess(pages, 100, "older pages end")
            if pages > 1:
                self.assertTrue(self.browser.find_elements(By.ID, "timeline-newest"), "an older page leads back to the newest")
            if not self.browser.find_elements(By.ID, "timeline-older"):
                break
            self.submit("#timeline-older")
        self.assertGreater(pages, 1, "the demo account has more than a page")
        self.assertEqual(seen, expected)
        self.assert_fits_and_accessible()

    def test_an_account_opens_its_own_transactions(self):
        """From the home page's account cards and the accounts page. (The account select is in the
        folded filters, so its text is read with textContent: Selenium shows hidden text as "".)"""
        self.login()
        cards = self.browser.find_elements(By.CSS_SELECTOR, "#account-cards a.account-card")
        self.assertGreater(len(cards), 1)
        name = cards[1].find_element(By.CSS_SELECTOR, ".account-name").text
        self.submit("#account-cards li:nth-child(2) a.account-card")
        self.assertEqual(Select(self.browser.find_element(By.ID, "account")).first_selected_option.get_attribute("textContent").strip(), name, "the account tapped")
        self.assertTrue(self.browser.find_element(By.ID, "filter-summary").text.startswith(name))
        self.assertEqual(self.browser.find_element(By.CSS_SELECTOR, "nav a[href='/accounts']").get_attribute("aria-current"), "page")
        # A booking says its account, and both back links lead to that account's list.
        account = Select(self.browser.find_element(By.ID, "account")).first_selected_option.get_attribute("value")
        listed = self.browser.find_element(By.CSS_SELECTOR, ".timeline .amount").text
        self.submit(".timeline a.who")
        self.assertEqual(self.browser.find_element(By.CSS_SELECTOR, "[data-testid=account]").text, name)
        self.assertEqual(self.browser.find_element(By.CSS_SELECTOR, "[data-testid=amount]").text, listed, "this account's side of it")
        for back in ["header a.back", "#back-to-list"]:
            self.assertIn(f"account={account}&", self.browser.find_element(By.CSS_SELECTOR, back).get_attribute("href"))
        # The overview's latest bookings open too, and "Alle" beside them lists their account.
        self.browser.get(BASE + "/home")
        listed = self.browser.find_element(By.CSS_SELECTOR, "[data-live=latest] .amount").text
        self.submit("[data-live=latest] a.who")
        self.assertEqual(self.browser.find_element(By.CSS_SELECTOR, "[data-testid=amount]").text, listed)
        self.browser.get(BASE + "/home")
        self.submit("#latest-all")
        self.assertEqual(self.browser.find_element(By.CSS_SELECTOR, ".timeline .amount").text, listed, "the newest first")
        self.browser.get(BASE + "/accounts")
        sections = self.browser.find_elements(By.CSS_SELECTOR, "section.account")
        name = self.browser.execute_script("return arguments[0].querySelector('h2').firstChild.textContent.trim()", sections[-1])
        old_page = self.browser.find_element(By.TAG_NAME, "html")
        sections[-1].find_element(By.CSS_SELECTOR, "[data-testid=account-transactions]").click()
        self.wait_until_left(old_page)
        self.assertEqual(Select(self.browser.find_element(By.ID, "account")).first_selected_option.get_attribute("textContent").strip(), name, "the account tapped")

    def test_repeat_and_templates(self):
        self.login()
        self.browser.get(BASE + "/pay/internal")
        self.browser.find_element(By.ID, "amount").send_keys("12.34")
        self.pay()
        self.assertEqual(self.browser.find_element(By.CSS_SELECTOR, "[data-testid=status]").get_attribute("data-status"), "executed")
        name = self.browser.find_element(By.ID, "template_name")
        name.clear()
        name.send_keys("Sparen monatlich")
        self.submit("#save-template")
        self.assertIn("/templates", self.browser.current_url)
        self.assertIn("Sparen monatlich", self.browser.page_source)
        self.assert_fits_and_accessible()
        # why by name: the demo customer has templates of her own (her rent, her savings).
        saved = self.browser.find_element(By.XPATH, "//li[.//span[@class='name' and text()='Sparen monatlich']]").get_attribute("data-id")
        self.submit(f"form[action='/templates/{saved}/pay'] button")
        self.assertEqual(self.browser.find_element(By.ID, "amount").get_attribute("value"), "12.34", "pay from template is prefilled")

        self.browser.get(BASE + "/transactions")
        self.browser.find_element(By.CSS_SELECTOR, ".timeline a.who").click()
        self.wait_until(lambda b: "/transactions/" in b.current_url)
        self.assertIn("12.34", self.browser.find_element(By.CSS_SELECTOR, "[data-testid=amount]").text)
        self.submit("#repeat")
        self.assertEqual(self.browser.find_element(By.ID, "amount").get_attribute("value"), "12.34", "repeat fills the form again")

    def test_pending_payment_is_edited(self):
        self.login()
        self.browser.get(BASE + "/pay/internal")
        self.browser.find_element(By.ID, "amount").send_keys("30.00")
        self.browser.execute_script("document.getElementById('execution_date').value = arguments[0]", (date.today() + timedelta(days=30)).isoformat())
        self.pay()
        payment_id = self.browser.current_url.rstrip("/").split("/")[-1]
        self.browser.get(BASE + "/payments")
        self.assert_fits_and_accessible()  # why: the payee's name was once squeezed letter by letter beside date and amount
        self.browser.find_element(By.CSS_SELECTOR, f"#pending li[data-id='{payment_id}'] a.edit").click()
        self.wait_until(lambda b: b.current_url.endswith("/edit"))
        self.assert_fits_and_accessible()
        amount = self.browser.find_element(By.ID, "amount")
        amount.clear()
        amount.send_keys("31.50")
        self.submit("#save-edit")
        self.assertIn("31.50", self.browser.find_element(By.CSS_SELECTOR, "[data-testid=amount]").text)
        self.assertEqual(self.browser.find_element(By.CSS_SELECTOR, "[data-testid=status]").get_attribute("data-status"), "pending")

    def test_template_folders_create_rename_move(self):
        self.login()
        self.browser.get(BASE + "/pay/internal")
        self.browser.find_element(By.ID, "amount").send_keys("5.00")
        self.pay()
        name = self.browser.find_element(By.ID, "template_name")
        name.clear()
        name.send_keys("Kleinsparen")
        self.submit("#save-template")
        self.browser.find_element(By.ID, "folder_name").send_keys("Sparen")
        self.submit("#create-folder")
        # The templates without a folder are no folder: nothing to rename there.
        self.assertFalse(self.browser.find_elements(By.CSS_SELECTOR, "form[action='/template-folders//rename']"))
        template = self.browser.find_element(By.XPATH, "//li[.//span[@class='name' and text()='Kleinsparen']]")
        template_id = template.get_attribute("data-id")
        self.assertFalse(template.find_element(By.CSS_SELECTOR, "select").is_displayed(), "changing a template is folded away")
        self.assert_fits_and_accessible()
        template.find_element(By.CSS_SELECTOR, "details summary").click()
        Select(template.find_element(By.CSS_SELECTOR, "select")).select_by_visible_text("Sparen")
        self.submit(f"form[action='/templates/{template_id}/move'] button")
        folder = self.browser.find_element(By.CSS_SELECTOR, "section[data-folder='Sparen']")
        self.assertTrue(folder.find_elements(By.CSS_SELECTOR, f"li[data-id='{template_id}']"))
        folder.find_element(By.CSS_SELECTOR, ".folder-edit summary").click()
        rename = folder.find_element(By.CSS_SELECTOR, "form[action^='/template-folders/'] input[name=name]")
        rename.clear()
        rename.send_keys("Sparziele")
        self.submit("section[data-folder='Sparen'] form[action^='/template-folders/'] button")
        self.assertTrue(self.browser.find_elements(By.CSS_SELECTOR, "section[data-folder='Sparziele']"))
        self.assert_fits_and_accessible()

    def test_settings_password_error_and_pages_pass_checks(self):
        self.login()
        self.browser.get(BASE + "/settings")
        self.assert_fits_and_accessible()
        self.browser.find_element(By.ID, "current_password").send_keys("wrong-password")
        self.browser.find_element(By.ID, "new_password").send_keys("a-new-password-1")
        self.submit("form[action='/settings/password'] button")
        error = self.browser.find_element(By.ID, "password-error")
        self.assertEqual(error.get_attribute("data-field"), "current_password")
        # Words of its own (not the login's "contract number or password"), at the field at fault.
        self.assertEqual(error.text, "Das aktuelle Passwort stimmt nicht.")
        self.assertEqual(self.browser.find_element(By.ID, "current_password").get_attribute("aria-invalid"), "true")
        self.assertIsNone(self.browser.find_element(By.ID, "new_password").get_attribute("aria-invalid"))
        # A new password too short for the server (the browser's own check set aside).
        self.browser.find_element(By.ID, "current_password").send_keys("tresor-demo")
        self.browser.execute_script("document.getElementById('new_password').removeAttribute('minlength')")
        self.browser.find_element(By.ID, "new_password").send_keys("short")
        self.submit("form[action='/settings/password'] button")
        self.assertIn("mindestens 10 Zeichen", self.browser.find_element(By.ID, "password-error").text)
        self.assertEqual(self.browser.find_element(By.ID, "new_password").get_attribute("aria-invalid"), "true")
        self.assert_fits_and_accessible()
        self.browser.get(BASE + "/templates")
        self.assert_fits_and_accessible()
        # Luca has no activated phone (Anna has the demo's), so he cannot sign with a device key.
        self.browser.delete_all_cookies()
        self.login("10000028")
        self.browser.get(BASE + "/settings")
        Select(self.browser.find_element(By.ID, "provider")).select_by_value("device_key")
        self.submit("form[action='/settings/signing'] button")
        self.assertTrue(self.browser.find_elements(By.ID, "signing-error"), "no device enrolled yet")

    def test_pay_form_follows_its_screen_description(self):
        """The IBAN form comes from the bank's description of pay-iban: the building number shows
        once a street is typed (its `visible_when`), and the live IBAN check still runs."""
        self.login()
        self.browser.get(BASE + "/pay/iban")
        building = self.browser.find_element(By.ID, "creditor_building_number")
        self.assertFalse(building.is_displayed())
        self.browser.find_element(By.ID, "creditor_street").send_keys("Seestrasse")
        self.wait_until(lambda b: building.is_displayed())
        building.send_keys("12")
        iban = self.browser.find_element(By.ID, "creditor_iban")
        iban.send_keys("CH56 0483 5012 3456 7800 8")
        self.wait_until(lambda b: iban.get_attribute("aria-invalid") == "true")
        self.assert_fits_and_accessible()


if __name__ == "__main__":
    unittest.main()
