"""Shared set-up of the browser tests: a headless Chromium at 375x812 and the checks every page
must pass (no horizontal overflow, labels, contrast)."""
import json
import os
import shutil
import socket
import subprocess
import tempfile
import unittest
import urllib.error
import urllib.parse
import urllib.request
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from bank_day import bank_today  # noqa: E402  (scripts/, shared with the scripts that name the day)
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import WebDriverWait

# The tab bar stays fixed over the bottom of the screen, as in a phone app; a person scrolls a
# button up before tapping it, so every click here first brings its element to the middle.
_click = WebElement.click


def _centred_click(self):
    self.parent.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'nearest'})", self)
    _click(self)


WebElement.click = _centred_click

BASE = os.environ["TRESOR_WEB_URL"]

# The web app's browser id (KnownBrowsers) that every test's browser presents.
TEST_BROWSER = "webtestbrowser00000000000000000000000000000"
ARTIFACTS = os.environ.get("TRESOR_WEB_ARTIFACTS", "/tmp/tresor-web-artifacts")
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
TRESOR = os.path.join(ROOT, ".build", "debug", "tresor")

# Every text element's contrast against its background and room to be read, and every form control's label.
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
  // An SVG's <title> names it for screen readers and is never drawn.
  if (!own || el.offsetParent === null || el instanceof SVGTitleElement || el instanceof SVGDescElement) continue;
  const fg = lum(rgb(getComputedStyle(el).color)), bg = lum(background(el));
  const ratio = (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
  if (ratio < 4.5) problems.push(`contrast ${ratio.toFixed(2)} on ${el.tagName} "${el.textContent.trim().slice(0, 30)}"`);
  // Text wider than its own box, spilling over what stands beside it (an amount kept on one line
  // in a column too narrow for it). Boxes that clip on purpose (an ellipsis) and a chart's SVG
  // labels (placed by coordinates) are left out.
  const style = getComputedStyle(el);
  if (!(el instanceof SVGElement) && !style.display.startsWith("inline") && style.overflowX === "visible" && el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1)
    problems.push(`overflows its box by ${el.scrollWidth - el.clientWidth}px: ${el.tagName} "${el.textContent.trim().slice(0, 30)}"`);
  // Text squeezed into a column a few letters wide (a name broken letter by letter beside a
  // date and an amount): fewer than four characters a line over several lines.
  for (const node of el.childNodes) {
    const text = node.nodeType === 3 ? node.textContent.trim() : "";
    if (text.length < 6) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const lines = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top))).size;
    if (lines > 2 && text.length / lines < 4) problems.push(`squeezed into ${lines} lines: ${el.tagName} "${text.slice(0, 30)}"`);
  }
}
return problems;
"""


def api(method, path, body=None, token=None, host=None):
    """A call of the JSON API beside the browser: (status, decoded body), an error answer too.
    `host` names another bank on the same server (its host name need not resolve here)."""
    request = urllib.request.Request(BASE + path, method=method, data=json.dumps(body).encode() if body is not None else None)
    request.add_header("Content-Type", "application/json")
    if host:
        request.add_header("Host", host)
    if token:
        request.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(request) as reply:
            return reply.status, json.loads(reply.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def bank_in(contract, language, base=BASE):
    """Sets the language a demo customer banks in (the web app opens in it after login) through
    the API, so a test that changes it can hand the next test the demo as it was."""
    status, grant = api("POST", "/v1/sessions", {"contract": contract, "password": "tresor-demo"}, host=urllib.parse.urlsplit(base).netloc)
    assert status == 201 or status == 200, (status, grant)
    status, body = api("PUT", "/v1/settings", {"language": language}, grant["token"], host=urllib.parse.urlsplit(base).netloc)
    assert status == 200 and body["language"] == language, (status, body)


class OwnServer:
    """`tresor serve` of a test's own on a free port, for a test whose data must not meet the
    shared demo server's (a new device's 24 hours, a bank with other settings): `banks` is the
    configuration folder, `extra` more arguments (`--demo`); its log in `folder`/serve.log."""

    def __init__(self, folder, banks, extra=()):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = open(os.path.join(folder, "serve.log"), "w")
        self.process = subprocess.Popen([TRESOR, "serve", "--banks", banks, *extra, "--port", str(self.port), "--scheduler-interval-seconds", "0"],
                                        cwd=folder, stdout=self.log, stderr=subprocess.STDOUT)
        subprocess.run(["scripts/await-healthy.sh", str(self.port), os.path.join(folder, "serve.log")], check=True, cwd=ROOT)

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=30)
        self.log.close()


class BrowserTest(unittest.TestCase):
    """No tests of its own: the test modules subclass it."""

    def setUp(self):
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for argument in self.chrome_arguments():
            options.add_argument(argument)
        options.add_experimental_option("prefs", {"intl.accept_languages": "de-CH,de"})
        options.set_capability("goog:loggingPrefs", {"browser": "SEVERE"})
        self.browser = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        self.browser.set_window_size(375, 812)
        self.browser.implicitly_wait(2)

    def chrome_arguments(self):
        """Chromium's command line; a test class adds its own."""
        return ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=375,812", "--lang=de-CH"]

    def tearDown(self):
        failed = any(error for _, error in self._outcome.result.errors + self._outcome.result.failures if _ is self)
        if failed:
            os.makedirs(ARTIFACTS, exist_ok=True)
            self.browser.save_screenshot(os.path.join(ARTIFACTS, f"{self._testMethodName}.png"))
        self.browser.quit()

    def wait_until(self, condition):
        """Waits up to 30 s (generous: the machine may be loaded; a condition met returns at once); an element of the page being left may go stale while the condition
        reads it, which only means the next page is not there yet. Chromium says so with a
        stale-element error or, now and then, with a generic 'node does not belong to the
        document' one (a clean-clone CI run failed on it, reading a payment's status while the
        signed payment's page replaced the form's); both are waited through, any other error ends
        the wait."""
        def settled(browser):
            try:
                return condition(browser)
            except WebDriverException as error:
                if "does not belong to the document" in (error.msg or ""):
                    return False
                raise
        return WebDriverWait(self.browser, 30, ignored_exceptions=(NoSuchElementException, StaleElementReferenceException)).until(settled)

    def wait_until_left(self, old_page):
        """Waits until `old_page` (an element of the page a click leaves) is gone. Chromium says
        so with a stale-element error or, now and then, with a generic 'node does not belong to
        the document' one; both mean the next page is there."""
        def gone(_):
            try:
                old_page.is_enabled()
                return False
            except WebDriverException:
                return True
        self.wait_until(gone)
        self.wait_until(lambda b: b.execute_script("return document.readyState") == "complete")

    def login(self, contract="10000012", password="tresor-demo", browser_id=TEST_BROWSER):
        self.browser.get(BASE + "/login")
        # why one browser id for every test: each test's Chromium is a new profile, and a login
        # from a browser the customer never used writes a security alert to the inbox.
        if browser_id and urllib.parse.urlsplit(self.browser.current_url).netloc == urllib.parse.urlsplit(BASE).netloc:
            self.browser.add_cookie({"name": "tresor_browser", "value": browser_id})
        self.browser.find_element(By.ID, "contract").send_keys(contract)
        self.browser.find_element(By.ID, "password").send_keys(password)
        self.browser.find_element(By.CSS_SELECTOR, "form[action='/login'] button").click()
        # Wait for the answer: the home page, or the login page again with its error.
        self.wait_until(
            lambda b: b.current_url.endswith("/home") or b.find_elements(By.ID, "login-error"))

    def pay(self):
        """Submits a pay form, and on its review page confirms; ends on the receipt or the form's error."""
        self.browser.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
        self.wait_until(lambda b: b.find_elements(By.ID, "confirm") or b.find_elements(By.ID, "form-error"))
        if self.browser.find_elements(By.ID, "confirm"):
            self.assert_fits_and_accessible()
            self.browser.find_element(By.ID, "confirm").click()
            self.wait_until(lambda b: "/payments/" in b.current_url or b.find_elements(By.ID, "form-error"))

    def click_and_wait(self, selector, url_part):
        self.browser.find_element(By.CSS_SELECTOR, selector).click()
        self.wait_until(lambda b: url_part in b.current_url)

    def assert_fits_and_accessible(self):
        width = self.browser.execute_script("return document.documentElement.scrollWidth")
        viewport = self.browser.execute_script("return window.innerWidth")
        self.assertLessEqual(width, viewport, f"horizontal overflow on {self.browser.current_url}")
        self.assertEqual(self.browser.execute_script(ACCESSIBILITY_CHECK), [], self.browser.current_url)
        # A script error (or a file the page asks for and does not get) fails the page too.
        # (A page answered with a 4xx on purpose, a refused form, is logged too: only the files a
        # page loads count among failed loads.)
        def counts(message):
            if "Failed to load resource" not in message:
                return True
            return any(part in message.split(" ", 1)[0] for part in ["/static/", "/sw.js", "/manifest.webmanifest"])
        errors = [e["message"] for e in self.browser.get_log("browser") if e["level"] == "SEVERE" and counts(e["message"])]
        self.assertEqual(errors, [], self.browser.current_url)

    def shoot_dark_and_light(self, back, name, scroll_to):
        """`back` (a path of the app) in the dark theme and then the light one, scrolled to the
        element `scroll_to` (a CSS selector), each checked and kept as `ARTIFACTS/name-mode.png`:
        the screenshots the README's gallery takes."""
        for mode in ["dark", "light"]:
            self.browser.get(BASE + f"/appearance/{mode}?back={back}")
            self.wait_until(lambda b: b.find_element(By.TAG_NAME, "html").get_attribute("data-theme") == mode)
            self.browser.execute_script("arguments[0].scrollIntoView()", self.browser.find_element(By.CSS_SELECTOR, scroll_to))
            self.assert_fits_and_accessible()
            os.makedirs(ARTIFACTS, exist_ok=True)
            self.browser.save_screenshot(os.path.join(ARTIFACTS, f"{name}-{mode}.png"))


class OwnDemoTest(BrowserTest):
    """A browser test on a demo server of its own (`OwnServer` with `--demo`), for data the
    shared server's other tests must not meet; `call` is the JSON API on it, `log_in` the login
    page as a customer uses it."""

    def setUp(self):
        super().setUp()
        self.folder = tempfile.mkdtemp(prefix="tresor-own-")
        self.banks = os.path.join(self.folder, "banks")
        self.server = OwnServer(self.folder, self.banks, ["--demo"])
        self.base = self.server.base

    def tearDown(self):
        super().tearDown()
        self.server.stop()
        shutil.rmtree(self.folder, ignore_errors=True)

    def call(self, method, path, body=None, token=None):
        global BASE
        saved = BASE
        BASE = self.base
        try:
            return api(method, path, body, token)
        finally:
            BASE = saved

    def log_in(self, contract="10000012"):
        self.browser.get(self.base + "/login")
        self.browser.add_cookie({"name": "tresor_browser", "value": TEST_BROWSER})
        self.browser.find_element(By.ID, "contract").send_keys(contract)
        self.browser.find_element(By.ID, "password").send_keys("tresor-demo")
        self.browser.find_element(By.CSS_SELECTOR, "form[action='/login'] button").click()
        self.wait_until(lambda b: b.current_url.endswith("/home"))

    def staff_token(self, name):
        """A staff login added with `tresor staff add`, logged in through the staff API."""
        subprocess.run([TRESOR, "staff", "add", "--banks", self.banks, "--bank", "tresor", "--name", name, "--password", "desk-password-1"],
                       check=True, capture_output=True)
        status, grant = self.call("POST", "/v1/staff/sessions", {"name": name, "password": "desk-password-1"})
        assert status == 201, (status, grant)
        return grant["token"]

