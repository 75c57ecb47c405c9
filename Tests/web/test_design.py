"""The app as people judge it: the tab bar, light and dark, audited by axe-core on every screen,
a keyboard-only walk from login to a signed payment, the install manifest, the offline overview
after the server stops, and the weight and stability budgets of the pages. Run by scripts/web-test.sh."""
import io
import json
import os
import shutil
import socket
import struct
import subprocess
import tempfile
import time
import urllib.parse
import urllib.request

from axe_selenium_python import Axe
from PIL import Image
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from test_payments import QR_BILL, tan
from webbase import BASE, BrowserTest

SCREENS = ["/home", "/home?period=week", "/accounts", "/transactions", "/pay", "/pay/iban", "/pay/qrbill", "/payments", "/templates", "/receipts",
           "/budget", "/budget?edit=1", "/favorites", "/help", "/more", "/inbox", "/settings", "/branches", "/branches/1", "/appointments", "/appointments/new?branch=1",
           "/cash", "/loan", "/statements", "/documents", "/standing-orders", "/standing-orders/new/iban", "/standing-orders/1", "/activate"]


class DesignTest(BrowserTest):
    def axe_violations(self):
        self.browser.set_script_timeout(60)
        axe = Axe(self.browser)
        axe.inject()
        # Every rule of the bundled axe-core (WCAG 2.0/2.1 A and AA of its version, and best practices).
        return [(v["id"], v["nodes"][0]["html"][:120]) for v in axe.run()["violations"]]

    def background_luminance(self):
        rgb = self.browser.execute_script("return getComputedStyle(document.body).backgroundColor")
        r, g, b = [int(x) for x in rgb[rgb.index("(") + 1:rgb.index(")")].split(",")[:3]]
        return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255

    def test_tab_bar_marks_the_screen_and_counts_unread_messages(self):
        self.login("10000028")
        tabs = self.browser.find_elements(By.CSS_SELECTOR, "nav.tabbar a")
        self.assertEqual([t.get_attribute("href").rsplit("/", 1)[1] for t in tabs], ["home", "accounts", "pay", "inbox", "more"])
        self.assertEqual(self.browser.find_element(By.CSS_SELECTOR, "nav.tabbar a[aria-current=page]").get_attribute("href"), BASE + "/home")
        self.assertTrue(all(t.find_element(By.TAG_NAME, "span").text for t in tabs), "every tab has a label")
        self.browser.get(BASE + "/pay/iban")
        self.assertEqual(self.browser.find_element(By.CSS_SELECTOR, "nav.tabbar a[aria-current=page]").get_attribute("href"), BASE + "/pay")
        self.assertTrue(self.browser.find_element(By.CSS_SELECTOR, "header a.back").get_attribute("href").endswith("/pay"))
        self.browser.get(BASE + "/loan")
        self.assertEqual(self.browser.find_element(By.CSS_SELECTOR, "nav.tabbar a[aria-current=page]").get_attribute("href"), BASE + "/more")
        # Reading the inbox clears the count; a new message from the bank brings it back.
        self.browser.get(BASE + "/inbox")
        self.browser.get(BASE + "/home")
        time.sleep(0.5)
        self.assertFalse([b for b in self.browser.find_elements(By.CSS_SELECTOR, "#tab-inbox .badge") if b.is_displayed()])
        self.browser.get(BASE + "/cash?branch=1&currency=EUR")
        self.browser.find_element(By.ID, "amount").send_keys("100")
        self.browser.find_element(By.ID, "cash-quote-button").click()
        self.wait_until(lambda b: b.find_elements(By.ID, "cash-order"))
        self.browser.find_element(By.ID, "cash-order").click()
        self.wait_until(lambda b: "ordered=" in b.current_url)
        self.browser.get(BASE + "/home")
        badge = self.wait_until(lambda b: [e for e in b.find_elements(By.CSS_SELECTOR, "#tab-inbox .badge") if e.is_displayed()])[0]
        self.assertEqual(badge.text, "1")
        # On a wide screen the tab bar is a side bar.
        self.browser.set_window_size(1200, 800)
        bar = self.browser.find_element(By.CSS_SELECTOR, "nav.tabbar").rect
        self.assertGreater(bar["height"], bar["width"])

    def test_the_latest_bookings_say_what_they_were_for(self):
        """The overview's latest bookings carry the merchant and a category in words and as an
        icon: a transfer to savings made now is "Übertrag" with the transfer icon, shops are groceries."""
        self.login()
        self.browser.get(BASE + "/pay/internal")
        self.browser.find_element(By.ID, "amount").send_keys("20.00")
        self.pay()
        self.browser.get(BASE + "/home")
        items = self.browser.find_elements(By.CSS_SELECTOR, ".latest li")
        self.assertEqual(5, len(items))
        first = items[0]
        self.assertEqual("Sparkonto", first.find_element(By.CLASS_NAME, "name").text)
        self.assertEqual("Übertrag", first.find_element(By.CLASS_NAME, "category").text)
        self.assertEqual("Heute", first.find_element(By.CLASS_NAME, "date").text)
        self.assertTrue(first.find_element(By.CSS_SELECTOR, ".cat use").get_attribute("href").endswith("#pay"))
        grocers = {"Migros", "Coop", "Denner", "Aldi Suisse", "Lidl"}
        for item in items:
            icon = item.find_element(By.CSS_SELECTOR, ".cat use").get_attribute("href").split("#")[1]
            if item.find_element(By.CLASS_NAME, "name").text in grocers:
                self.assertEqual("groceries", icon)
                self.assertEqual("Lebensmittel", item.find_element(By.CLASS_NAME, "category").text)

    def test_tiles_of_a_row_stand_equally_tall_with_an_icon_each(self):
        """The pay page's and the overview's tiles, at 375 px: each shows an icon drawn in the
        sprite above its label, inside its tile, and tiles side by side are equally tall when one
        label breaks over two lines ("Einzahlungs-schein" beside "Kontoübertrag")."""
        self.login()
        symbols = set(self.browser.execute_script(
            "return fetch('/static/icons.svg').then(r => r.text()).then(t => [...t.matchAll(/symbol id=\"([^\"]+)\"/g)].map(m => m[1]))"))
        for path, tiles in [("/pay", ".choices .choice"), ("/home", "#services .choice")]:
            self.browser.get(BASE + path)
            boxes = []
            for tile in self.browser.find_elements(By.CSS_SELECTOR, tiles):
                icon = tile.find_element(By.CSS_SELECTOR, "svg.icon use").get_attribute("href").split("#")[1]
                self.assertIn(icon, symbols, f"{path}: {tile.text}")
                box = tile.rect
                label = tile.find_element(By.TAG_NAME, "span").rect
                self.assertLessEqual(label["width"], box["width"], f"{path}: {tile.text} leaves its tile")
                boxes.append(box)
            self.assertGreaterEqual(len(boxes), 4, path)
            rows = {}
            for box in boxes: rows.setdefault(round(box["y"]), []).append(box["height"])
            self.assertTrue(any(len(heights) == 2 for heights in rows.values()), f"{path}: two tiles a row")
            for y, heights in rows.items():
                self.assertEqual(len(set(round(h) for h in heights)), 1, f"{path}: tiles at y={y} are {heights} tall")

    def test_sections_shown_only_for_a_non_empty_list_are_shown(self):
        """Favourites on the overview (a tap pays from the template), the balance chart as a table
        and a branch's services: each stood in `{{#list.0}}`, which swift-mustache never
        rendered; they are `{{#first(list)}}` now."""
        self.login()
        self.browser.get(BASE + "/home")
        self.assertTrue(self.browser.find_elements(By.ID, "chart-table"), "the chart has its table")
        symbols = set(self.browser.execute_script(
            "return fetch('/static/icons.svg').then(r => r.text()).then(t => [...t.matchAll(/symbol id=\"([^\"]+)\"/g)].map(m => m[1]))"))
        tiles = self.browser.find_elements(By.CSS_SELECTOR, "ul.favorites .fav")
        self.assertGreaterEqual(len(tiles), 2, "the demo customer has paid from a template and by type")
        for tile in tiles:
            self.assertIn(tile.find_element(By.CSS_SELECTOR, "svg.icon use").get_attribute("href").split("#")[1], symbols, tile.text)
            self.assertLessEqual(tile.find_element(By.TAG_NAME, "span").rect["width"], tile.rect["width"], f"{tile.text} leaves its tile")
        template = self.browser.find_element(By.CSS_SELECTOR, "ul.favorites button.fav")
        template.click()
        amount = self.wait_until(lambda b: b.find_elements(By.ID, "amount"))[0]
        self.assertTrue(amount.get_attribute("value"), "the template's amount is filled in")
        self.browser.get(BASE + "/branches/1")
        self.assertTrue(self.browser.find_elements(By.CSS_SELECTOR, "ul.tags li"), "the branch lists its services")

    def test_the_bar_takes_over_the_large_title_once_it_scrolled_away(self):
        """As in iOS and Android apps: the large title under the bar names the screen; the bar
        shows it only once it has scrolled away, and the browser's tab names the section."""
        self.login()
        opacity = "return getComputedStyle(document.querySelector('header .screen-title')).opacity"
        for path, section in [("/settings", "Einstellungen"), ("/pay/qrbill", "Zahlen")]:
            self.browser.get(BASE + path)
            large = self.browser.find_element(By.CSS_SELECTOR, "main h1")
            title = self.browser.find_element(By.CSS_SELECTOR, "header .screen-title")
            self.assertEqual(title.get_attribute("textContent"), large.text, path)
            self.assertEqual(self.browser.title, f"{section} · Tresor Demo Bank")
            self.wait_until(lambda b: b.execute_script(opacity) == "0")
            self.browser.execute_script("window.scrollTo(0, arguments[0].getBoundingClientRect().bottom + window.scrollY)", large)
            self.wait_until(lambda b: b.execute_script(opacity) == "1")
            self.browser.execute_script("window.scrollTo(0, 0)")
            self.wait_until(lambda b: b.execute_script(opacity) == "0")

    def test_every_screen_passes_axe_light_and_dark(self):
        self.browser.get(BASE + "/login")
        self.assertEqual(self.axe_violations(), [], "/login")
        self.login()
        for mode in ["light", "dark"]:
            self.browser.get(BASE + f"/appearance/{mode}?back=/home")
            self.wait_until(lambda b: b.find_element(By.TAG_NAME, "html").get_attribute("data-theme") == mode)
            self.assertEqual(self.background_luminance() < 0.2, mode == "dark")
            for screen in SCREENS:
                self.browser.get(BASE + screen)
                self.assertEqual(self.axe_violations(), [], f"{screen} ({mode})")
                self.assert_fits_and_accessible()

    def test_dark_follows_the_phone_unless_the_customer_chose(self):
        self.login()
        self.browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        self.browser.get(BASE + "/home")
        self.assertLess(self.background_luminance(), 0.2)
        self.browser.get(BASE + "/appearance/light?back=/home")
        self.wait_until(lambda b: b.find_element(By.TAG_NAME, "html").get_attribute("data-theme") == "light")
        self.assertGreater(self.background_luminance(), 0.8)
        self.browser.get(BASE + "/appearance/auto?back=/home")
        self.wait_until(lambda b: b.find_element(By.TAG_NAME, "html").get_attribute("data-theme") is None)
        self.assertLess(self.background_luminance(), 0.2)

    def tab_to(self, matches, limit=60):
        """Presses Tab until the focused element matches; fails if it never does. Each stop must show a focus ring."""
        for _ in range(limit):
            ActionChains(self.browser).send_keys(Keys.TAB).perform()
            focused = self.browser.switch_to.active_element
            if matches(focused):
                outline = self.browser.execute_script("const s = getComputedStyle(arguments[0]); return s.outlineStyle + ' ' + s.outlineWidth;", focused)
                self.assertNotEqual(outline.split()[0], "none", f"no focus ring on {focused.get_attribute('outerHTML')[:80]}")
                return focused
        self.fail("never reached the element with the keyboard")

    def test_keyboard_only_from_login_to_a_signed_payment(self):
        self.browser.get(BASE + "/login")
        self.tab_to(lambda e: e.get_attribute("id") == "contract").send_keys("10000012")
        self.tab_to(lambda e: e.get_attribute("id") == "password").send_keys("tresor-demo" + Keys.ENTER)
        self.wait_until(lambda b: b.current_url.endswith("/home"))
        self.tab_to(lambda e: (e.get_attribute("href") or "").endswith("/pay")).send_keys(Keys.ENTER)
        self.wait_until(lambda b: b.current_url.endswith("/pay"))
        self.tab_to(lambda e: e.get_attribute("data-type") == "qrbill").send_keys(Keys.ENTER)
        self.wait_until(lambda b: "/pay/qrbill" in b.current_url)
        self.tab_to(lambda e: e.get_attribute("id") == "qrbill_payload").send_keys(QR_BILL)
        self.tab_to(lambda e: e.tag_name == "button" and e.get_attribute("type") == "submit" and "/pay/" in (e.get_attribute("formaction") or self.browser.current_url)).send_keys(Keys.ENTER)
        self.wait_until(lambda b: b.find_elements(By.ID, "confirm") or b.find_elements(By.ID, "form-error"))
        self.tab_to(lambda e: e.get_attribute("id") == "confirm").send_keys(Keys.ENTER)
        self.wait_until(lambda b: b.find_elements(By.CSS_SELECTOR, "[data-testid=tan-position]"))
        position = self.browser.find_element(By.CSS_SELECTOR, "[data-testid=tan-position] strong").text
        self.tab_to(lambda e: e.get_attribute("id") == "code").send_keys(tan("10000012", position) + Keys.ENTER)
        self.wait_until(lambda b: b.find_element(By.CSS_SELECTOR, "[data-testid=status]").get_attribute("data-status") in ("pending", "executed"))

    def test_install_manifest_and_icons(self):
        self.browser.get(BASE + "/login")
        href = self.browser.find_element(By.CSS_SELECTOR, "link[rel=manifest]").get_attribute("href")
        manifest = json.loads(urllib.request.urlopen(href).read())
        self.assertEqual(manifest["display"], "standalone")
        self.assertEqual(manifest["name"], "Tresor Demo Bank")
        self.assertRegex(manifest["theme_color"], r"^#[0-9a-f]{6}$")
        self.assertEqual(manifest["start_url"], "/home")
        sizes = set()
        for icon in manifest["icons"]:
            data = urllib.request.urlopen(BASE + icon["src"]).read()
            self.assertEqual(data[:8], b"\x89PNG\r\n\x1a\n")
            width, height = struct.unpack(">II", data[16:24])
            self.assertEqual(f"{width}x{height}", icon["sizes"])
            sizes.add(width)
        self.assertTrue({192, 512} <= sizes)
        # Drawn from the bank's logo on its brand colour: the demo logo is a safe door whose left
        # edge (x 11 of 64) falls at (155, 256) of the 512 px icon, where the drawn fallback has none.
        icon = Image.open(io.BytesIO(urllib.request.urlopen(BASE + "/static/icon-512.png").read())).convert("RGB")
        self.assertEqual((0x0b, 0x4f, 0x6c), icon.getpixel((4, 4)))
        self.assertEqual((255, 255, 255), icon.getpixel((155, 256)))
        second = os.environ.get("TRESOR_WEB_SECOND_BANK_URL")
        if second:
            # why the Host header: Python's resolver, unlike browsers, does not map *.localhost to loopback.
            request = urllib.request.Request(BASE + "/static/icon-512.png", headers={"Host": urllib.parse.urlsplit(second).netloc})
            other = Image.open(io.BytesIO(urllib.request.urlopen(request).read())).convert("RGB")
            self.assertEqual((0x1d, 0x6b, 0x45), other.getpixel((4, 4)), "each bank its own icon")
        self.wait_until(lambda b: b.execute_script("return navigator.serviceWorker.controller !== null || true"))

    def test_pages_stay_light_and_do_not_shift(self):
        self.login()
        # Each screen as a phone with nothing kept gets it over the network: no HTTP cache, and
        # past the service worker (whose copies report their decoded size, not what was sent).
        self.browser.execute_cdp_cmd("Network.enable", {})
        self.browser.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
        self.browser.execute_cdp_cmd("Network.setBypassServiceWorker", {"bypass": True})
        for screen in ["/home", "/accounts", "/pay/iban", "/budget", "/branches"]:
            self.browser.get(BASE + screen)
            self.wait_until(lambda b: b.execute_script("return document.readyState") == "complete")
            # HTML, CSS and script as sent (encoded bytes: the stylesheet and script gzip), without images.
            sent = self.browser.execute_script("""
                const nav = performance.getEntriesByType('navigation')[0];
                const parts = performance.getEntriesByType('resource').filter(r => ['link', 'script', 'css'].includes(r.initiatorType) || /\\.(css|js)$/.test(r.name));
                return nav.encodedBodySize + parts.reduce((sum, r) => sum + r.encodedBodySize, 0);""")
            self.assertLess(sent, 60_000, screen)
            shift = self.browser.execute_async_script("""
                const done = arguments[0]; let total = 0;
                new PerformanceObserver(list => { for (const e of list.getEntries()) if (!e.hadRecentInput) total += e.value; })
                  .observe({type: 'layout-shift', buffered: true});
                setTimeout(() => done(total), 500);""")
            # why not exactly 0: a loaded CI machine once measured 0.00005 on /accounts (a sub-pixel
            # move no one sees); anything a person notices is far above 0.001 (0.1 is "poor").
            self.assertLess(shift, 0.001, f"layout shift on {screen}")


class OfflineTest(BrowserTest):
    """A server of its own, stopped in the middle: the overview stays readable, marked offline;
    started again as a new release: the worker updates."""

    def setUp(self):
        super().setUp()
        self.work = tempfile.mkdtemp(prefix="tresor-offline-")
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self.start_server()

    def start_server(self):
        binary = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".build", "debug", "tresor"))
        self.server = subprocess.Popen([binary, "serve", "--banks", os.path.join(self.work, "banks"), "--demo", "--port", str(self.port),
                                        "--scheduler-interval-seconds", "0"], cwd=self.work, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(200):
            try:
                urllib.request.urlopen(self.base + "/healthz")
                break
            except OSError:
                time.sleep(0.1)

    def log_in(self, remember=True):
        """Logs in, with "remember this device" ticked (only such a browser keeps pages offline)."""
        self.browser.get(self.base + "/login")
        # why cleared: a remembered browser's login page has the contract filled in.
        self.browser.find_element(By.ID, "contract").clear()
        self.browser.find_element(By.ID, "contract").send_keys("10000012")
        self.browser.find_element(By.ID, "password").send_keys("tresor-demo")
        box = self.browser.find_element(By.ID, "remember")
        if box.is_selected() != remember:
            box.click()
        self.browser.find_element(By.CSS_SELECTOR, "form[action='/login'] button").click()
        self.wait_until(lambda b: b.current_url.endswith("/home"))
        self.wait_until(lambda b: b.execute_script("return navigator.serviceWorker.controller !== null"))

    def kept(self, path):
        return self.browser.execute_async_script(
            f"caches.open('tresor-pages').then((c) => c.match('{path}')).then((r) => r ? r.arrayBuffer() : null)"
            ".then((b) => arguments[0](b ? Array.from(new Uint8Array(b)) : null))")

    def session_key(self):
        """The worker's key as IndexedDB holds it: [extractable, algorithm], or None."""
        return self.browser.execute_async_script("""
            const done = arguments[0];
            const opening = indexedDB.open("tresor-keys", 1);
            opening.onupgradeneeded = () => opening.result.createObjectStore("keys");
            opening.onsuccess = () => {
              const get = opening.result.transaction("keys").objectStore("keys").get("session");
              get.onsuccess = () => done(get.result ? [get.result.key.extractable, get.result.key.algorithm.name] : null);
            };""")

    def log_out(self):
        self.browser.find_element(By.CSS_SELECTOR, "form[action='/logout'] button").click()
        self.wait_until(lambda b: "/login" in b.current_url)

    def test_kept_pages_are_sealed_and_leave_with_the_session(self):
        """Only a browser the customer chose to remember keeps the overview, sealed (AES-GCM) with
        a key that cannot be read out; logging out, or the session's idle time passing, takes the
        key and the pages, so the offline overview then shows nothing."""
        self.log_in(remember=False)
        self.wait_until(lambda b: b.execute_script("return navigator.serviceWorker.controller !== null"))
        self.browser.get(self.base + "/home")
        time.sleep(1)
        self.assertIsNone(self.kept("/home"), "a browser not remembered keeps nothing")
        self.log_out()

        self.log_in(remember=True)
        self.browser.get(self.base + "/home")
        total = self.browser.find_element(By.CSS_SELECTOR, "[data-testid=total]").text
        self.wait_until(lambda b: self.kept("/home"))
        sealed = bytes(self.kept("/home")).decode("latin-1")
        for clear in [total, "Anna Meier", "<html", "Privatkonto"]:
            self.assertNotIn(clear, sealed, "the kept overview is not readable as it lies in the cache")
        self.assertEqual(self.session_key(), [False, "AES-GCM"])
        self.log_out()
        self.wait_until(lambda b: self.kept("/home") is None and self.session_key() is None)

        # The session's idle time passes with the computer left alone: nothing shows offline.
        self.log_in(remember=True)
        self.browser.get(self.base + "/home")
        self.wait_until(lambda b: self.kept("/home"))
        self.browser.execute_async_script("""
            const done = arguments[0];
            const opening = indexedDB.open("tresor-keys", 1);
            opening.onsuccess = () => {
              const store = opening.result.transaction("keys", "readwrite").objectStore("keys");
              const get = store.get("session");
              get.onsuccess = () => { get.result.until = Date.now() - 1; store.put(get.result, "session").onsuccess = () => done(true); };
            };""")
        self.server.kill()
        self.server.wait()
        self.browser.get(self.base + "/home")
        self.assertIn("Offline", self.browser.find_element(By.TAG_NAME, "h1").text)
        self.assertFalse(self.browser.find_elements(By.CSS_SELECTOR, "[data-testid=total]"))
        self.wait_until(lambda b: self.kept("/home") is None and self.session_key() is None)

    def shells(self):
        return sorted(name for name in self.browser.execute_async_script("caches.keys().then(arguments[0])") if name.startswith("tresor-shell-"))

    def test_a_new_release_replaces_the_worker_and_its_shell(self):
        """A release with other static files (here: the bank's new colour, which theme.css and so
        the worker's version carry) installs a new worker that takes over and drops the old shell."""
        self.log_in()
        self.wait_until(lambda b: len(self.shells()) == 1)
        old = self.shells()
        self.server.kill()
        self.server.wait()
        config_path = os.path.join(self.work, "banks", "tresor.json")
        with open(config_path) as file:
            config = json.load(file)
        config["theme"]["brand"] = "#7a1f3d"
        with open(config_path, "w") as file:
            json.dump(config, file)
        self.start_server()
        self.browser.execute_async_script("navigator.serviceWorker.getRegistration().then(r => r.update()).then(() => arguments[0](true))")
        self.wait_until(lambda b: self.shells() != old and len(self.shells()) == 1)
        self.browser.get(self.base + "/home")
        brand = self.browser.execute_script("return getComputedStyle(document.documentElement).getPropertyValue('--brand').trim()")
        self.assertEqual("#7a1f3d", brand)
        self.assertTrue(self.browser.execute_script("return navigator.serviceWorker.controller !== null"))

    def tearDown(self):
        if self.server.poll() is None:
            self.server.kill()
        self.server.wait()
        shutil.rmtree(self.work, ignore_errors=True)
        super().tearDown()

    def test_the_last_overview_is_shown_offline_and_nothing_can_be_paid(self):
        self.log_in()
        self.browser.get(self.base + "/home")  # now through the worker, which keeps it
        total = self.browser.find_element(By.CSS_SELECTOR, "[data-testid=total]").text
        # The worker has put the overview in its cache (it does so after answering the page).
        self.wait_until(lambda b: b.execute_async_script(
            "caches.open('tresor-pages').then((c) => c.match('/home')).then((r) => arguments[0](!!r))"))
        self.server.kill()
        self.server.wait()
        self.browser.get(self.base + "/home")
        banner = self.wait_until(lambda b: b.find_element(By.ID, "offline-banner") if b.find_element(By.ID, "offline-banner").is_displayed() else None)
        self.assertRegex(banner.text, r"^Offline – Stand \d\d:\d\d$")
        self.assertEqual(self.browser.find_element(By.CSS_SELECTOR, "[data-testid=total]").text, total)
        self.assertTrue(all(not b.is_enabled() for b in self.browser.find_elements(By.CSS_SELECTOR, "form[method=post] button")))
        # A screen that moves money is never served from the cache.
        self.browser.get(self.base + "/pay/iban")
        self.assertIn("Offline", self.browser.find_element(By.TAG_NAME, "h1").text)
        self.assertFalse(self.browser.find_elements(By.ID, "creditor_iban"))
