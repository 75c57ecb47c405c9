"""Certificates from the phone and their check by a third party: Anna asks for a balance
confirmation, downloads it, and an embassy clerk opens the printed verification page and picks
the file; an edited copy is recognised. The digest is computed in the clerk's browser."""
import base64
import os
import tempfile

from selenium.webdriver.common.by import By

from webbase import BASE, BrowserTest

PDF_AS_BASE64 = """
const done = arguments[arguments.length - 1];
fetch(arguments[0]).then(r => r.arrayBuffer()).then(b => {
  let s = ''; new Uint8Array(b).forEach(c => s += String.fromCharCode(c)); done(btoa(s));
});
"""


class DocumentsTest(BrowserTest):
    def test_a_balance_confirmation_and_its_check_by_a_third_party(self):
        self.login()
        self.browser.get(BASE + "/more")
        self.click_and_wait("a[href='/documents']", "/documents")
        old_page = self.browser.find_element(By.TAG_NAME, "html")
        self.browser.execute_script("document.getElementById('date').value = '2026-10-31'")
        self.browser.find_element(By.CSS_SELECTOR, "#form-balance_confirmation button[type=submit]").click()
        self.wait_until_left(old_page)
        self.assertIn("issued=", self.browser.current_url)
        self.assertEqual("Ihre Bescheinigung ist bereit.", self.browser.find_element(By.ID, "document-notice").text)
        newest = self.browser.find_element(By.CSS_SELECTOR, "#issued li.is-new")
        self.assertIn("Saldobestätigung", newest.text)
        code = newest.find_element(By.CLASS_NAME, "code").text
        self.assertRegex(code, r"^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$")
        self.browser.set_script_timeout(20)
        pdf = base64.b64decode(self.browser.execute_async_script(PDF_AS_BASE64, newest.find_element(By.TAG_NAME, "a").get_attribute("href")))
        self.assertTrue(pdf.startswith(b"%PDF-"))

        work = tempfile.mkdtemp(prefix="tresor-verify-")
        original = os.path.join(work, "bestaetigung.pdf")
        edited = os.path.join(work, "bestaetigung-bearbeitet.pdf")
        with open(original, "wb") as file:
            file.write(pdf)
        changed = bytearray(pdf)
        changed[len(changed) // 2] ^= 0x01
        with open(edited, "wb") as file:
            file.write(bytes(changed))
        # The clerk: logged out, with the code printed on the paper (typed in lower case).
        self.browser.delete_all_cookies()
        self.browser.get(BASE + "/verify/" + code.lower())
        self.assertIn("Saldobestätigung", self.browser.find_element(By.ID, "verification").text)
        self.browser.find_element(By.ID, "file").send_keys(original)
        self.wait_until(lambda b: b.find_element(By.ID, "verify-result").text)
        self.assertIn("unverändert", self.browser.find_element(By.ID, "verify-result").text)
        self.assertEqual("bestaetigung.pdf", self.browser.find_element(By.CSS_SELECTOR, ".picker .picker-name").text)
        self.assert_fits_and_accessible()
        self.browser.get(BASE + "/verify/" + code)
        self.browser.find_element(By.ID, "file").send_keys(edited)
        self.wait_until(lambda b: b.find_element(By.ID, "verify-result").text)
        self.assertIn("NICHT", self.browser.find_element(By.ID, "verify-result").text)
        self.browser.get(BASE + "/verify/AAAA-BBBB-CCCC")
        self.assertTrue(self.browser.find_element(By.ID, "verify-unknown").is_displayed())

    def test_a_future_date_is_refused_at_the_form(self):
        self.login()
        self.browser.get(BASE + "/documents")
        old_page = self.browser.find_element(By.TAG_NAME, "html")
        self.browser.execute_script(
            "const d = document.getElementById('date'); d.removeAttribute('max'); d.value = '2099-01-01';")
        self.browser.find_element(By.CSS_SELECTOR, "#form-balance_confirmation button[type=submit]").click()
        self.wait_until_left(old_page)
        error = self.browser.find_element(By.ID, "document-error")
        self.assertEqual("balance_confirmation", error.get_attribute("data-type"))

    def test_the_inbox_filters_by_category_marks_new_and_deletes(self):
        """The certificate's message is new in the Documents category; once seen it is no longer
        new; deleting it removes it from the inbox."""
        self.login()
        self.browser.get(BASE + "/documents")
        old_page = self.browser.find_element(By.TAG_NAME, "html")
        self.browser.find_element(By.CSS_SELECTOR, "#form-balance_confirmation button[type=submit]").click()
        self.wait_until_left(old_page)
        code = self.browser.find_element(By.CSS_SELECTOR, "#issued li.is-new .code").text
        self.browser.get(BASE + "/inbox?category=documents")
        self.assertEqual("true", self.browser.find_element(By.CSS_SELECTOR, "#inbox-filters a[href='/inbox?category=documents']").get_attribute("aria-current"))
        items = self.browser.find_elements(By.CSS_SELECTOR, "#inbox > li.card")
        self.assertTrue(all("Dokumente" in item.find_element(By.CLASS_NAME, "hint").text for item in items))
        mine = [item for item in items if code in item.text]
        self.assertEqual(1, len(mine))
        self.assertIn("is-unread", mine[0].get_attribute("class"))
        message_id = mine[0].get_attribute("id")
        self.browser.get(BASE + "/inbox?category=documents")
        self.assertNotIn("is-unread", self.browser.find_element(By.ID, message_id).get_attribute("class"), "seen once shown")
        old_page = self.browser.find_element(By.TAG_NAME, "html")
        self.browser.find_element(By.CSS_SELECTOR, f"#{message_id} button[type=submit]").click()
        self.wait_until_left(old_page)
        self.assertIn("category=documents", self.browser.current_url)
        self.assertFalse(self.browser.find_elements(By.ID, message_id))
