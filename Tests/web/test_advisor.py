"""The personal advisor as the customer meets them: the overview's card names the advisor, the
advisor screen has the branch and a number to call, and a secure thread: the customer writes,
the branch answers through the staff API, the answer shows on the left as in a messenger and the
inbox says so. On a demo server of its own (the answer adds to the inbox the other tests count).
Screenshots at 375 px, light and dark."""
import os
import subprocess
import urllib.parse

from PIL import Image
from selenium.webdriver.common.by import By

import webbase
from webbase import ARTIFACTS, TRESOR, OwnDemoTest


class AdvisorTest(OwnDemoTest):
    def test_the_customer_writes_and_the_branch_answers_in_the_thread(self):
        self.log_in()
        card = self.browser.find_element(By.ID, "home-advisor")
        name = card.find_element(By.CSS_SELECTOR, "a[href='/advisor']").text
        self.assertTrue(name)
        self.assertIn("Ihr Berater", card.text)
        card.find_element(By.CSS_SELECTOR, "a[href='/advisor']").click()
        self.wait_until(lambda b: urllib.parse.urlsplit(b.current_url).path == "/advisor")
        self.assertIn(name, self.browser.find_element(By.CSS_SELECTOR, "[data-testid=advisor]").text)
        self.assertTrue(self.browser.find_element(By.ID, "advisor-call").get_attribute("href").startswith("tel:+41"))
        self.assertTrue(self.browser.find_elements(By.ID, "thread-empty"))
        self.browser.find_element(By.ID, "advisor-body").send_keys("Guten Tag\nIch möchte über eine Hypothek sprechen.")
        # A file goes with it (a real invoice PDF of the corpus), as a phone's file picker gives it.
        invoice = os.path.join(webbase.ROOT, "Tests", "corpus", "slips-pdf", "qrbill-invoice-a4.pdf")
        self.browser.find_element(By.ID, "advisor-file").send_keys(invoice)
        self.browser.find_element(By.ID, "advisor-send").click()
        self.wait_until(lambda b: b.find_elements(By.CSS_SELECTOR, ".bubble.mine"))
        mine = self.browser.find_element(By.CSS_SELECTOR, ".bubble.mine")
        self.assertIn("Hypothek", mine.text)
        link = mine.find_element(By.CSS_SELECTOR, "a.attachment")
        self.assertEqual(link.text.strip(), "qrbill-invoice-a4.pdf")
        fetched = self.browser.execute_async_script("""const done = arguments[arguments.length - 1];
            fetch(arguments[0]).then(async (r) => done([r.status, r.headers.get("content-type"), (await r.arrayBuffer()).byteLength]));""",
                                                    link.get_attribute("href"))
        self.assertEqual(fetched, [200, "application/pdf", os.path.getsize(invoice)])

        staff = self.staff_token("berater.web")
        status, listed = self.call("GET", "/v1/staff/conversations", token=staff)
        self.assertEqual(status, 200, listed)
        self.assertTrue(listed["conversations"][0]["waiting"])
        status, answered = self.call("POST", "/v1/staff/conversations/10000012/messages",
                                     {"body": "Gerne! Passt Ihnen Dienstag um 10 Uhr in der Filiale?"}, staff)
        self.assertEqual(status, 201, answered)

        # The bank's resource pack gives the advisor a photo (Grace Hopper's, public domain, from
        # Pillow's test images in Tests/corpus/exif), published as an operator does.
        status, grant = self.call("POST", "/v1/sessions", {"contract": "10000012", "password": "tresor-demo"})
        advisor = self.call("GET", "/v1/advisor", token=grant["token"])[1]["advisor"]
        self.assertNotIn("photo", advisor, "no photo before the pack has one")
        pack = os.path.join(self.folder, "pack", "images", "advisors")
        os.makedirs(pack)
        Image.open(os.path.join(webbase.ROOT, "Tests", "corpus", "exif", "hopper.jpg")).save(os.path.join(pack, f"{advisor['id']}.png"))
        subprocess.run([TRESOR, "resources", "publish", "--banks", self.banks, "--bank", "tresor", os.path.join(self.folder, "pack")],
                       check=True, capture_output=True)
        self.assertEqual(self.call("GET", "/v1/advisor", token=grant["token"])[1]["advisor"]["photo"], f"images/advisors/{advisor['id']}.png")

        self.browser.get(self.base + "/advisor")
        self.wait_until(lambda b: b.execute_script("const i = document.getElementById('advisor-photo'); return i && i.complete && i.naturalWidth > 0"))
        bubbles = self.browser.find_elements(By.CSS_SELECTOR, "#thread .bubble")
        self.assertEqual([("mine" in b.get_attribute("class")) for b in bubbles], [True, False])
        self.assertIn("Dienstag um 10 Uhr", bubbles[1].text)
        mine, theirs = bubbles[0].rect, bubbles[1].rect
        self.assertGreater(mine["x"], theirs["x"], "the customer's own message on the right, the answer on the left")
        os.makedirs(ARTIFACTS, exist_ok=True)
        for mode in ["light", "dark"]:
            self.browser.get(self.base + f"/appearance/{mode}?back=/advisor")
            self.wait_until(lambda b: b.find_elements(By.CSS_SELECTOR, "#thread .bubble"))
            self.assert_fits_and_accessible()
            self.browser.save_screenshot(os.path.join(ARTIFACTS, f"advisor-{mode}.png"))
        self.browser.get(self.base + "/inbox")
        self.assertIn("Mein Berater", self.browser.find_element(By.TAG_NAME, "main").text)
