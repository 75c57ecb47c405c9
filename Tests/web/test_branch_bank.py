"""The branch in the pocket as a customer uses it: the nearest open ATM from the phone's position,
an appointment booked and found in the inbox and the calendar, banknotes ordered at the day's
rates, and the loan calculator ending in an appointment. Run by scripts/web-test.sh against the
real server's clock, so nothing here depends on the day it runs."""
import datetime
import os
import urllib.parse

import icalendar
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from webbase import ARTIFACTS, BASE, BrowserTest


class BranchBankTest(BrowserTest):
    def submit_and_wait(self, selector):
        """Clicks a submit button whose answer stays on the same address; waits for the new page."""
        old_page = self.browser.find_element(By.TAG_NAME, "html")
        self.browser.find_element(By.CSS_SELECTOR, selector).click()
        self.wait_until_left(old_page)

    def test_the_nearest_open_atm_from_the_phones_position(self):
        """A prospect (not logged in) at Zürich HB lets the browser share the position: the
        nearest ATM open now is the one in the station hall, open around the clock."""
        self.browser.execute_cdp_cmd("Browser.grantPermissions", {"origin": BASE, "permissions": ["geolocation"]})
        self.browser.execute_cdp_cmd("Emulation.setGeolocationOverride", {"latitude": 47.3779, "longitude": 8.5403, "accuracy": 20})
        self.browser.get(BASE + "/branches")
        # Not logged in, back leads to the login (More is behind it).
        self.assertTrue(self.browser.find_element(By.CSS_SELECTOR, "header a.back").get_attribute("href").endswith("/login"))
        self.browser.find_element(By.CSS_SELECTOR, "input[name=kind][value=atm] + span").click()
        self.wait_until(lambda b: "kind=atm" in b.current_url)
        self.browser.find_element(By.CSS_SELECTOR, "label[for=open]").click()
        self.wait_until(lambda b: "open=1" in b.current_url)
        old_page = self.browser.find_element(By.TAG_NAME, "html")
        self.browser.find_element(By.ID, "locate").click()
        self.wait_until_left(old_page)
        self.wait_until(lambda b: "lat=47.37" in b.current_url)
        first = self.browser.find_element(By.CSS_SELECTOR, "#places li")
        self.assertIn("Zürich HB, Bahnhofhalle", first.text)
        self.assertIn("Rund um die Uhr", first.text)
        self.assertRegex(first.find_element(By.CLASS_NAME, "distance").text, r"^\d+ m$")
        distances = [d.text for d in self.browser.find_elements(By.CSS_SELECTOR, "#places .distance")]
        metres = [float(d.split(" ")[0].replace(",", ".")) * (1000 if d.endswith("km") else 1) for d in distances]
        self.assertEqual(metres, sorted(metres))
        self.assertTrue(self.browser.find_elements(By.CSS_SELECTOR, "svg.map .map-you"))
        self.assert_fits_and_accessible()
        # Without a position, a postcode finds the places around it.
        self.browser.get(BASE + "/branches?q=3011")
        self.assertIn("Bern", self.browser.find_element(By.CSS_SELECTOR, "#places li").text)
        # Two words typed into the search: the form sends them as St.+Gallen.
        for typed, first in [("St. Gallen", "St. Gallen"), ("Zürich HB", "Zürich HB, Bahnhofhalle")]:
            field = self.browser.find_element(By.ID, "q")
            field.clear()
            field.send_keys(typed)
            self.submit_and_wait("#finder-form button[type=submit]")
            self.assertIn("+", self.browser.current_url)
            self.assertFalse(self.browser.find_elements(By.ID, "finder-notice"), typed)
            self.assertEqual(typed, self.browser.find_element(By.ID, "q").get_attribute("value"))
            self.assertIn(first, self.browser.find_element(By.CSS_SELECTOR, "#places li strong").text)

    def test_the_country_map_gathers_a_towns_places_and_zooms_in(self):
        """Without a position the map shows every place in the country: marks that would cover
        each other are one cluster with their count, none covers another or leaves the map, and
        a tap on the largest cluster shows the finder around its town."""
        self.browser.get(BASE + "/branches")
        listed = len(self.browser.find_elements(By.CSS_SELECTOR, "#places li"))
        marks = self.browser.execute_script("""
            const map = document.querySelector("svg.map").getBoundingClientRect();
            return [...document.querySelectorAll("svg.map .map-branch, svg.map .map-atm, svg.map .map-cluster")].map(m => {
              const r = m.querySelector("rect, circle").getBoundingClientRect();
              return {cluster: m.matches(".map-cluster"), count: Number(m.querySelector("text").textContent),
                      href: m.getAttribute("href"), left: r.left, right: r.right, top: r.top, bottom: r.bottom,
                      inside: r.left >= map.left && r.right <= map.right && r.top >= map.top && r.bottom <= map.bottom};
            });""")
        clusters = [m for m in marks if m["cluster"]]
        self.assertTrue(clusters, "Zürich's places are one cluster on the country map")
        # Every place is on the map once: a pin, or counted in a cluster.
        self.assertEqual(sum(m["count"] if m["cluster"] else 1 for m in marks), listed)
        self.assertTrue(all(m["inside"] for m in marks), marks)
        for i, a in enumerate(marks):
            for b in marks[i + 1:]:
                overlap = min(a["right"], b["right"]) - max(a["left"], b["left"]) > 1 and min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > 1
                self.assertFalse(overlap, (a, b))
        largest = max(clusters, key=lambda m: m["count"])
        town = urllib.parse.parse_qs(urllib.parse.urlparse(largest["href"]).query)["q"][0]
        self.browser.get(BASE + largest["href"])
        self.assertEqual(self.browser.find_element(By.ID, "q").get_attribute("value"), town)
        self.assertIn(town, self.browser.find_element(By.CSS_SELECTOR, "#places li").text)
        self.assertTrue(self.browser.find_elements(By.CSS_SELECTOR, "svg.map .map-you"))
        self.assert_fits_and_accessible()

    def test_booking_without_a_time_says_so_and_keeps_the_topic_and_note(self):
        """The browser asks for a time at the first slot; a request without one (the browser's
        check set aside, as another client would send it) is answered with words of its own."""
        self.login()
        self.browser.get(BASE + "/appointments/new?branch=1")
        Select(self.browser.find_element(By.ID, "topic")).select_by_value("investment")
        self.browser.find_element(By.ID, "note").send_keys("Vorsorge")
        first = self.browser.find_element(By.CSS_SELECTOR, ".slot input")
        self.assertEqual(first.get_attribute("required"), "true")
        # Sent with every day folded: the first day unfolds so that the browser can point at its
        # times (folded, Chromium only logs that the field "is not focusable"; the log is checked below).
        self.browser.execute_script("document.querySelectorAll('details.day').forEach((day) => { day.open = false; })")
        self.browser.find_element(By.ID, "book-submit").click()
        self.wait_until(lambda b: b.find_element(By.CSS_SELECTOR, "details.day").get_attribute("open") is not None)
        self.assertTrue(self.browser.current_url.endswith("/appointments/new?branch=1"), "nothing was sent")
        self.browser.execute_script("document.getElementById('book-form').noValidate = true")
        self.submit_and_wait("#book-submit")
        self.assertEqual(self.browser.find_element(By.ID, "book-error").text, "Bitte wählen Sie eine Zeit.")
        self.assertEqual(Select(self.browser.find_element(By.ID, "topic")).first_selected_option.get_attribute("value"), "investment")
        self.assertEqual(self.browser.find_element(By.ID, "note").get_attribute("value"), "Vorsorge")
        self.assert_fits_and_accessible()

    def test_book_an_appointment_and_find_it_in_the_inbox_and_the_calendar(self):
        self.login()
        self.browser.get(BASE + "/branches?q=Uster&kind=branch")
        self.click_and_wait("#places li a", "/branches/")
        self.assertIn("Uster", self.browser.find_element(By.TAG_NAME, "h1").text)
        self.assertEqual(len(self.browser.find_elements(By.CSS_SELECTOR, "#hours tr")), 7)
        route = self.browser.find_element(By.ID, "branch-route")
        self.assertEqual(route.text, "Route")
        self.assertRegex(route.get_attribute("href"), r"^https://www\.openstreetmap\.org/directions\?route=%3B47\.\d{6}%2C8\.\d{6}$")
        os.makedirs(ARTIFACTS, exist_ok=True)
        here = urllib.parse.urlsplit(self.browser.current_url).path
        for mode in ["light", "dark"]:
            self.browser.get(BASE + f"/appearance/{mode}?back={here}")
            self.assert_fits_and_accessible()
            self.browser.save_screenshot(os.path.join(ARTIFACTS, f"branch-page-{mode}.png"))
        self.browser.get(BASE + f"/appearance/auto?back={here}")
        self.click_and_wait("#book-appointment", "/appointments/new")
        Select(self.browser.find_element(By.ID, "topic")).select_by_value("investment")
        self.browser.find_element(By.ID, "note").send_keys("Sparplan für die Kinder")
        # A slot on a later day, so that it can still be moved (changes close two hours before).
        self.browser.find_element(By.CSS_SELECTOR, "details.day:nth-of-type(2) summary").click()
        slot = self.browser.find_element(By.CSS_SELECTOR, "details.day:nth-of-type(2) .slot input")
        start = slot.get_attribute("value")
        self.browser.find_element(By.CSS_SELECTOR, f"label[for='{slot.get_attribute('id')}']").click()
        self.click_and_wait("#book-submit", "/appointments?booked=")
        self.assertIn("gebucht", self.browser.find_element(By.ID, "appt-notice").text)
        booked = self.browser.current_url.rsplit("booked=", 1)[1]
        link = self.browser.find_element(By.CSS_SELECTOR, f"a[href='/appointments/{booked}/calendar.ics']")
        listed = link.find_element(By.XPATH, "./ancestor::li").text
        self.assertIn("Uster", listed)
        self.assertIn("Wartet auf Bestätigung", listed)
        self.assert_fits_and_accessible()
        # The calendar file, read by a parser written elsewhere (icalendar from PyPI).
        text = self.browser.execute_async_script(
            "const done = arguments[1]; fetch(arguments[0], {credentials: 'same-origin'}).then(r => r.text()).then(done);", link.get_attribute("href"))
        event = icalendar.Calendar.from_ical(text).walk("VEVENT")[0]
        self.assertEqual(event.decoded("DTSTART"), datetime.datetime.fromisoformat(start))
        self.assertEqual(event.decoded("DTEND") - event.decoded("DTSTART"), datetime.timedelta(minutes=30))
        self.assertIn("Uster", str(event.get("LOCATION")))
        self.assertEqual(str(event.get("STATUS")), "TENTATIVE")
        # The confirmation is in the inbox.
        self.browser.get(BASE + "/inbox")
        self.assertIn("Termin angefragt", self.browser.find_element(By.ID, "inbox").text, "in the language Anna banks in")
        # Moving it to another time: the old one is gone from the list, the new one is there.
        self.browser.get(BASE + "/appointments")
        item = self.browser.find_element(By.CSS_SELECTOR, f"a[href='/appointments/{booked}/calendar.ics']").find_element(By.XPATH, "./ancestor::li")
        item.find_element(By.PARTIAL_LINK_TEXT, "Verschieben").click()
        self.wait_until(lambda b: "replace=" in b.current_url)
        later = self.browser.find_elements(By.CSS_SELECTOR, "details[open] .slot input")[-1]
        self.browser.find_element(By.CSS_SELECTOR, f"label[for='{later.get_attribute('id')}']").click()
        self.click_and_wait("#book-submit", "/appointments?booked=")
        moved = self.browser.current_url.rsplit("booked=", 1)[1]
        self.assertNotEqual(moved, booked)
        self.assertFalse(self.browser.find_elements(By.CSS_SELECTOR, f"a[href='/appointments/{booked}/calendar.ics']"))
        self.assertTrue(self.browser.find_elements(By.CSS_SELECTOR, f"a[href='/appointments/{moved}/calendar.ics']"))

    def test_order_foreign_cash_at_the_days_rate(self):
        self.login()
        self.browser.get(BASE + "/branches/1")
        self.click_and_wait("#order-cash", "/cash?branch=")
        Select(self.browser.find_element(By.ID, "currency")).select_by_value("USD")
        self.browser.find_element(By.ID, "amount").send_keys("505")
        self.submit_and_wait("#cash-quote-button")
        quote = self.browser.find_element(By.ID, "cash-quote").text
        self.assertIn("USD 505.00", quote)
        self.assertRegex(quote, r"CHF [\d’]+\.\d\d")
        self.assertIn("EZB-Referenzkurs", quote)
        self.assert_fits_and_accessible()
        self.click_and_wait("#cash-order", "/cash?ordered=")
        self.assertIn("Bestellt", self.browser.find_element(By.ID, "cash-notice").text)
        orders = self.browser.find_element(By.ID, "cash-orders").text
        self.assertIn("USD 505.00", orders)
        self.assertIn("Bestellt", orders)
        # The pickup can become an appointment with the figures in its note.
        pickup = self.browser.find_element(By.CSS_SELECTOR, "#cash-orders [data-testid=cash-book]").get_attribute("href")
        self.assertIn("topic=foreign_cash_pickup", pickup)
        self.assertIn("USD", urllib.parse.unquote(pickup))
        self.browser.get(BASE + "/inbox")
        self.assertIn("Banknoten bestellt: USD 505.00", self.browser.find_element(By.ID, "inbox").text)
        # Whole banknotes only: a bad amount is refused next to the form with a suggestion.
        self.browser.get(BASE + "/cash?branch=1&currency=EUR")
        self.browser.find_element(By.ID, "amount").send_keys("123")
        self.submit_and_wait("#cash-quote-button")
        self.assertIn("EUR 120.00", self.browser.find_element(By.ID, "cash-error").text)
        # The suggestion is in the field, to confirm: the next tap prices it.
        self.assertEqual(self.browser.find_element(By.ID, "amount").get_attribute("value"), "120.00")
        self.submit_and_wait("#cash-quote-button")
        self.assertFalse(self.browser.find_elements(By.ID, "cash-error"))
        self.assertIn("EUR 120.00", self.browser.find_element(By.ID, "cash-quote").text)

    def test_the_loan_calculator_recomputes_live_and_ends_in_an_appointment(self):
        self.login()
        self.browser.get(BASE + "/loan")
        self.assertEqual(self.browser.find_element(By.TAG_NAME, "h1").text, "Annas Kreditrechner")
        before = self.browser.find_element(By.ID, "loan-instalment").text
        self.assertRegex(before, r"^CHF [\d’]+\.\d\d$")
        self.assertEqual(self.browser.find_element(By.ID, "loan-effective").text, "5.01 %")
        # Slide the term to 24 months: the instalment is recomputed by the server without a reload.
        self.browser.execute_script("window.notReloaded = true;")
        self.browser.execute_script(
            "const s = document.getElementById('loan-months'); s.value = 24; s.dispatchEvent(new Event('input', {bubbles: true}));")
        self.wait_until(lambda b: b.find_element(By.ID, "loan-instalment").text != before)
        self.assertTrue(self.browser.execute_script("return window.notReloaded === true"), "the page was reloaded")
        self.assertEqual(self.browser.find_element(By.ID, "months-out").text, "24 Monate")
        self.assertIn("months=24", self.browser.current_url)
        instalment = self.browser.find_element(By.ID, "loan-instalment").text
        self.assert_fits_and_accessible()
        self.click_and_wait("#loan-book", "/appointments/new")
        note = urllib.parse.unquote(self.browser.current_url)
        self.assertIn("24", note)
        Select(self.browser.find_element(By.ID, "branch-choice")).select_by_visible_text("Zürich Paradeplatz")
        self.wait_until(lambda b: "branch=" in b.current_url and b.find_elements(By.ID, "book-form"))
        self.assertIn(instalment, self.browser.find_element(By.ID, "note").get_attribute("value").replace("\xa0", " "))
        self.assertEqual(Select(self.browser.find_element(By.ID, "topic")).first_selected_option.get_attribute("value"), "financing")
