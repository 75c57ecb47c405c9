"""Standing orders in the web app (Pay → Daueraufträge): the list with the next date and amount,
a new one with the next five dates shown before saving, signed once for a new payee, paused,
changed and deleted. Run by scripts/web-test.sh against `tresor serve --demo`."""
import os
import unittest
from datetime import date, timedelta

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from webbase import ARTIFACTS, BASE, BrowserTest
from test_payments import tan


class StandingOrdersTest(BrowserTest):
    def shoot(self, name):
        """A screenshot to look at (light and dark at 375 px), kept with the run's artifacts."""
        os.makedirs(ARTIFACTS, exist_ok=True)
        self.browser.save_screenshot(os.path.join(ARTIFACTS, f"standing-orders-{name}.png"))

    def test_the_demo_rent_and_savings_plan_are_listed_with_next_date_and_amount(self):
        self.login()
        self.browser.get(BASE + "/pay")
        self.click_and_wait("#standing-orders-link", "/standing-orders")
        rows = self.browser.find_elements(By.CSS_SELECTOR, "#standing-orders li[data-id]")
        self.assertEqual(len(rows), 2, [r.text for r in rows])
        rent = next(r for r in rows if "Immobilien Zürich AG" in r.text)
        self.assertIn("2’180.00", rent.find_element(By.CSS_SELECTOR, ".amount").text)
        self.assertIn("letzten Werktag", rent.find_element(By.CSS_SELECTOR, ".rhythm").text)
        self.assertTrue(rent.find_element(By.CSS_SELECTOR, "[data-testid=next]").text.startswith("Nächste:"))
        self.assert_fits_and_accessible()
        for mode in ["light", "dark"]:
            self.browser.get(BASE + f"/appearance/{mode}?back=/standing-orders")
            self.wait_until(lambda b: b.find_element(By.TAG_NAME, "html").get_attribute("data-theme") == mode)
            self.shoot(f"list-{mode}")

    def test_a_new_order_to_a_new_payee_shows_its_dates_is_signed_once_then_paused_changed_deleted(self):
        self.login()
        self.browser.get(BASE + "/standing-orders/new/iban")
        self.browser.find_element(By.ID, "creditor_name").send_keys("Fitnesspark Zürich")
        self.browser.find_element(By.ID, "creditor_iban").send_keys("CH93 0076 2011 6238 5295 7")
        for field, value in [("creditor_street", "Seestrasse"), ("creditor_building_number", "5"), ("creditor_postal_code", "8002"),
                             ("creditor_town", "Zürich"), ("amount", "89.00"), ("message", "Abo")]:
            element = self.browser.find_element(By.ID, field)
            element.clear()
            element.send_keys(value)
        # Only the chosen end's field shows.
        self.assertFalse(self.browser.find_element(By.ID, "schedule_end_count").is_displayed())
        Select(self.browser.find_element(By.ID, "schedule_end")).select_by_value("count")
        self.assertTrue(self.browser.find_element(By.ID, "schedule_end_count").is_displayed())
        Select(self.browser.find_element(By.ID, "schedule_day")).select_by_value("last")
        first = date.today().replace(day=1) + timedelta(days=40)
        self.browser.execute_script("document.getElementById('schedule_first_date').value = arguments[0]", first.isoformat())
        count = self.browser.find_element(By.ID, "schedule_end_count")
        count.clear()
        count.send_keys("6")
        self.shoot("form-light")
        self.browser.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
        self.wait_until(lambda b: b.find_elements(By.ID, "confirm") or b.find_elements(By.ID, "form-error"))
        self.assertFalse(self.browser.find_elements(By.ID, "form-error"), self.browser.page_source[:2000])
        dates = [li.text for li in self.browser.find_elements(By.CSS_SELECTOR, "#next-dates li")]
        self.assertEqual(len(dates), 5, "the next five dates before saving")
        self.assertIn("letzten Werktag", self.browser.find_element(By.CSS_SELECTOR, "[data-testid=review-rhythm]").text)
        self.assert_fits_and_accessible()
        self.shoot("review-light")
        self.browser.find_element(By.ID, "confirm").click()
        # A payee not on the whitelist: the first payment is signed, once for the order.
        self.wait_until(lambda b: "/payments/" in b.current_url)
        self.assertEqual(self.browser.find_element(By.CSS_SELECTOR, "[data-testid=status]").get_attribute("data-status"), "needs_signature")
        position = self.browser.find_element(By.CSS_SELECTOR, "[data-testid=tan-position] strong").text
        self.browser.find_element(By.ID, "code").send_keys(tan("10000012", position))
        self.browser.find_element(By.CSS_SELECTOR, "form[action$='/sign'] button").click()
        self.wait_until(lambda b: b.find_element(By.CSS_SELECTOR, "[data-testid=status]").get_attribute("data-status") == "pending")

        self.browser.get(BASE + "/standing-orders")
        row = next(r for r in self.browser.find_elements(By.CSS_SELECTOR, "#standing-orders li[data-id]") if "Fitnesspark" in r.text)
        order_id = row.get_attribute("data-id")
        self.browser.get(BASE + f"/standing-orders/{order_id}")
        self.assertEqual(len(self.browser.find_elements(By.CSS_SELECTOR, "#next-dates li")), 5)
        self.assertEqual(len(self.browser.find_elements(By.CSS_SELECTOR, "#made li[data-id]")), 1, "the first payment, made now")
        self.assert_fits_and_accessible()
        for mode in ["light", "dark"]:
            self.browser.get(BASE + f"/appearance/{mode}?back=/standing-orders/{order_id}")
            self.wait_until(lambda b: b.find_element(By.TAG_NAME, "html").get_attribute("data-theme") == mode)
            self.shoot(f"detail-{mode}")
        self.browser.get(BASE + "/appearance/light?back=/home")

        # A new amount from the next payment on.
        self.browser.get(BASE + f"/standing-orders/{order_id}")
        amount = self.browser.find_element(By.ID, "amount")
        amount.clear()
        amount.send_keys("95.50")
        self.browser.find_element(By.ID, "change-amount").click()
        self.wait_until(lambda b: "95.50" in b.find_element(By.CSS_SELECTOR, "[data-testid=amount]").text)
        # Paused past its first date (the payment made already is cancelled): the list starts at the second.
        before = [li.text for li in self.browser.find_elements(By.CSS_SELECTOR, "#next-dates li")]
        pause = (first + timedelta(days=25)).isoformat()
        self.browser.execute_script("document.getElementById('paused_until').value = arguments[0]", pause)
        self.browser.find_element(By.ID, "pause").click()
        self.wait_until(lambda b: b.find_elements(By.CSS_SELECTOR, "[data-testid=paused]"))
        after = [li.text for li in self.browser.find_elements(By.CSS_SELECTOR, "#next-dates li")]
        self.assertEqual(after[0], before[1], (before, after))
        self.assertEqual(self.browser.find_element(By.CSS_SELECTOR, "#made li[data-id] .status").text, "Gelöscht")
        # Deleted: gone from the list.
        self.browser.find_element(By.ID, "delete-order").click()
        self.wait_until(lambda b: b.current_url.endswith("/standing-orders"))
        self.assertFalse([r for r in self.browser.find_elements(By.CSS_SELECTOR, "#standing-orders li[data-id]") if "Fitnesspark" in r.text])

    def test_a_schedule_without_a_next_date_is_refused_at_its_field(self):
        self.login()
        self.browser.get(BASE + "/standing-orders/new/internal")
        amount = self.browser.find_element(By.ID, "amount")
        amount.clear()
        amount.send_keys("100.00")
        Select(self.browser.find_element(By.ID, "schedule_end")).select_by_value("date")
        first = date.today() + timedelta(days=10)
        self.browser.execute_script("document.getElementById('schedule_first_date').value = arguments[0]", first.isoformat())
        self.browser.execute_script("document.getElementById('schedule_end_date').value = arguments[0]", (first - timedelta(days=5)).isoformat())
        self.browser.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
        self.wait_until(lambda b: b.find_elements(By.ID, "form-error"))
        self.assertEqual(self.browser.find_element(By.ID, "form-error").get_attribute("data-field"), "schedule_end_date")
        self.assertTrue(self.browser.find_element(By.ID, "schedule_end_date-error").text)
        self.assertEqual(self.browser.find_element(By.ID, "schedule_end_date").get_attribute("aria-invalid"), "true")
        self.assert_fits_and_accessible()


if __name__ == "__main__":
    unittest.main()
