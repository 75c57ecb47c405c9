"""The web app in Chromium over `tresor serve --tls-certificate … --tls-key …`: a server of its
own with a certificate made by openssl, which this Chromium trusts by its public key."""
import base64
import hashlib
import os
import shutil
import socket
import ssl
import subprocess
import tempfile
import time
import urllib.request

from selenium.webdriver.common.by import By

from webbase import BrowserTest


def openssl(*args):
    subprocess.run(["openssl", *args], check=True, capture_output=True)


class HTTPSTest(BrowserTest):
    def setUp(self):
        self.work = tempfile.mkdtemp(prefix="tresor-https-")
        key, certificate = os.path.join(self.work, "server.key"), os.path.join(self.work, "server.pem")
        openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", key, "-out", certificate,
                "-days", "2", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1")
        # The SHA-256 of the certificate's public key, as Chromium's --ignore-certificate-errors-spki-list takes it.
        der = subprocess.run(["openssl", "x509", "-in", certificate, "-pubkey", "-noout"], check=True, capture_output=True).stdout
        spki = subprocess.run(["openssl", "pkey", "-pubin", "-outform", "DER"], input=der, check=True, capture_output=True).stdout
        self.spki = base64.b64encode(hashlib.sha256(spki).digest()).decode()
        super().setUp()
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.base = f"https://localhost:{self.port}"
        binary = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".build", "debug", "tresor"))
        self.server = subprocess.Popen([binary, "serve", "--banks", os.path.join(self.work, "banks"), "--demo", "--port", str(self.port),
                                        "--scheduler-interval-seconds", "0", "--tls-certificate", certificate, "--tls-key", key],
                                       cwd=self.work, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        context = ssl.create_default_context(cafile=certificate)
        for _ in range(300):
            try:
                urllib.request.urlopen(self.base + "/healthz", context=context)
                break
            except OSError:
                time.sleep(0.1)

    def chrome_arguments(self):
        return super().chrome_arguments() + [f"--ignore-certificate-errors-spki-list={self.spki}"]

    def tearDown(self):
        self.server.kill()
        self.server.wait()
        shutil.rmtree(self.work, ignore_errors=True)
        super().tearDown()

    def test_login_over_http2_with_secure_cookies_and_the_offline_worker(self):
        """Login, overview and the installable app's worker, as a customer's phone gets them from a
        bank that serves HTTPS itself: HTTP/2, cookies only sent over TLS, HSTS."""
        self.browser.get(self.base + "/login")
        # why on the first page: later pages may come through the app's service worker, whose
        # answers carry no protocol.
        protocol = self.browser.execute_script("return performance.getEntriesByType('navigation')[0].nextHopProtocol")
        self.assertEqual("h2", protocol)
        self.browser.find_element(By.ID, "contract").send_keys("10000012")
        self.browser.find_element(By.ID, "password").send_keys("tresor-demo")
        self.browser.find_element(By.CSS_SELECTOR, "form[action='/login'] button").click()
        self.wait_until(lambda b: b.current_url == self.base + "/home")
        cookies = self.browser.get_cookies()
        self.assertTrue(cookies, "no cookie after login")
        for cookie in cookies:
            self.assertTrue(cookie["secure"] and cookie["httpOnly"], cookie)
        self.assertTrue(self.browser.execute_script("return window.isSecureContext"))
        self.wait_until(lambda b: b.execute_script("return navigator.serviceWorker.controller !== null"))
        self.assert_fits_and_accessible()
        with urllib.request.urlopen(self.base + "/healthz", context=ssl._create_unverified_context()) as answer:
            self.assertEqual("max-age=31536000", answer.headers["Strict-Transport-Security"])
