"""Transactions, templates and settings in the web app."""
import unittest

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from webbase import BASE, BrowserTest


class ScreensTest(BrowserTest):
    def submit(self, selector="main form button[type=submit]"):
        self.browser.find_element(By.CSS_SELECTOR, selector).click()
        WebDriverWait(self.browser, 10).until(lambda b: b.execute_script("return document.readyState") == "complete")

    def test_timeline_filters_by_type_and_groups_by_day(self):
        self.login()
        self.browser.get(BASE + "/transactions")
        Select(self.browser.find_element(By.ID, "type")).select_by_value("income")
        self.submit(".filters button")
        amounts = [e.text for e in self.browser.find_elements(By.CSS_SELECTOR, ".timeline .amount")]
        self.assertTrue(amounts, "the demo has income")
        self.assertTrue(all("−" not in a for a in amounts), amounts)
        days = [e.text for e in self.browser.find_elements(By.CSS_SELECTOR, ".day h2")]
        self.assertEqual(len(days), len(set(days)), "one group per day")
        self.assert_fits_and_accessible()

    def test_repeat_and_templates(self):
        self.login()
        self.browser.get(BASE + "/pay/internal")
        self.browser.find_element(By.ID, "amount").send_keys("12.34")
        self.submit()
        self.assertEqual(self.browser.find_element(By.CSS_SELECTOR, "[data-testid=status]").get_attribute("data-status"), "executed")
        name = self.browser.find_element(By.ID, "template_name")
        name.clear()
        name.send_keys("Sparen monatlich")
        self.submit("#save-template")
        self.assertIn("/templates", self.browser.current_url)
        self.assertIn("Sparen monatlich", self.browser.page_source)
        self.assert_fits_and_accessible()
        self.submit("form[action$='/pay'] button")
        self.assertEqual(self.browser.find_element(By.ID, "amount").get_attribute("value"), "12.34", "pay from template is prefilled")

        self.browser.get(BASE + "/transactions")
        self.browser.find_element(By.CSS_SELECTOR, ".timeline a.who").click()
        WebDriverWait(self.browser, 10).until(lambda b: "/transactions/" in b.current_url)
        self.assertIn("12.34", self.browser.find_element(By.CSS_SELECTOR, "[data-testid=amount]").text)
        self.submit("#repeat")
        self.assertEqual(self.browser.find_element(By.ID, "amount").get_attribute("value"), "12.34", "repeat fills the form again")

    def test_settings_password_error_and_pages_pass_checks(self):
        self.login()
        self.browser.get(BASE + "/settings")
        self.assert_fits_and_accessible()
        self.browser.find_element(By.ID, "current_password").send_keys("wrong-password")
        self.browser.find_element(By.ID, "new_password").send_keys("a-new-password-1")
        self.submit("form[action='/settings/password'] button")
        self.assertEqual(self.browser.find_element(By.ID, "password-error").get_attribute("data-field"), "current_password")
        self.browser.get(BASE + "/templates")
        self.assert_fits_and_accessible()


if __name__ == "__main__":
    unittest.main()
