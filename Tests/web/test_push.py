"""Push notifications in the browser: Settings' switch subscribes with the bank's VAPID key and
the server keeps the browser; the service worker shows a pushed message (dispatched to it
through the DevTools protocol, ServiceWorker.deliverPushMessage, as a push service would wake
it) and a tap opens the screen it is about.

why the subscription is made by the test: Chromium subscribes only at Google's push service
(FCM), which this machine cannot reach; the keys handed to the server are still made by the
browser's WebCrypto, and the server's end of Web Push is tested against a push service and a
peer decrypter in scripts/push-test.sh."""
import json
import time
import urllib.parse
import urllib.request

import websocket
from selenium.webdriver.common.by import By

from webbase import BASE, BrowserTest, api

CONTRACT = "10000033"

# Stands in for PushManager.subscribe (see above): records the key the page passed and
# answers a subscription whose keys the browser made.
FAKE_SUBSCRIBE = """
PushManager.prototype.subscribe = async function (options) {
  sessionStorage.subscribedWith = btoa(String.fromCharCode(...new Uint8Array(options.applicationServerKey)))
    .replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
  sessionStorage.userVisibleOnly = String(options.userVisibleOnly);
  const pair = await crypto.subtle.generateKey({name: "ECDH", namedCurve: "P-256"}, true, ["deriveBits"]);
  const raw = new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey));
  const b64 = (bytes) => btoa(String.fromCharCode(...bytes)).replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
  const json = {endpoint: "https://127.0.0.1:9/push/web-test", expirationTime: null,
                keys: {p256dh: b64(raw), auth: b64(crypto.getRandomValues(new Uint8Array(16)))}};
  return {toJSON: () => json};
};
"""


class DevTools:
    """A DevTools protocol connection of its own to one target (the page or the service worker),
    beside Selenium's: the ServiceWorker domain's events name the registration to push to."""

    def __init__(self, url):
        self.socket = websocket.create_connection(url, suppress_origin=True, timeout=30)
        self.next_id = 0
        self.events = []

    def call(self, method, **params):
        self.next_id += 1
        self.socket.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise AssertionError(f"{method}: {message['error']}")
                return message.get("result", {})
            self.events.append(message)

    def wait_event(self, method, matches):
        while True:
            for event in self.events:
                if event.get("method") == method and matches(event["params"]):
                    return event["params"]
            self.events.clear()
            self.events.append(json.loads(self.socket.recv()))

    def close(self):
        self.socket.close()


class PushTest(BrowserTest):
    def targets(self):
        address = self.browser.capabilities["goog:chromeOptions"]["debuggerAddress"]
        return json.load(urllib.request.urlopen(f"http://{address}/json/list"))

    def push(self, payload, tools, registration_id):
        """Delivers `payload` to the service worker as a push service would: Chromium's
        ServiceWorker.deliverPushMessage. why a second way: this headless Chromium drops that
        delivery in some runs (no push event reaches the worker, a second delivery neither); then
        the same PushEvent is dispatched inside the worker (Runtime.evaluate on its target), which
        runs the same handler."""
        origin = BASE.rstrip("/")
        tools.call("ServiceWorker.deliverPushMessage", origin=origin, registrationId=registration_id, data=json.dumps(payload))
        for _ in range(20):
            if any(n["tag"] == payload["tag"] and n["body"] == payload["body"] for n in self.notifications()):
                return
            time.sleep(0.25)
        worker = next(t for t in self.targets() if t["type"] == "service_worker" and t["url"].startswith(origin))
        inside = DevTools(worker["webSocketDebuggerUrl"])
        try:
            inside.call("Runtime.evaluate", expression=f"self.dispatchEvent(new PushEvent('push', {{data: {json.dumps(json.dumps(payload))}}}))")
        finally:
            inside.close()

    def notifications(self):
        return self.browser.execute_async_script("""
            const done = arguments[arguments.length - 1];
            navigator.serviceWorker.ready.then((r) => r.getNotifications()).then((shown) =>
              done(shown.map((n) => ({title: n.title, body: n.body, tag: n.tag, url: n.data && n.data.url}))));""")

    def test_switch_in_settings_then_a_push_is_shown_and_opens_its_screen(self):
        origin = BASE.rstrip("/")
        self.browser.execute_cdp_cmd("Browser.grantPermissions", {"origin": origin, "permissions": ["notifications"]})
        self.login(CONTRACT)
        self.browser.get(BASE + "/settings")
        self.wait_until(lambda b: b.execute_script("return Boolean(navigator.serviceWorker.controller)") or b.refresh())
        self.wait_until(lambda b: b.find_element(By.ID, "push-on").is_displayed())
        self.assertFalse(self.browser.find_element(By.CSS_SELECTOR, ".push-unsupported").is_displayed())
        _, grant = api("POST", "/v1/sessions", {"contract": CONTRACT, "password": "tresor-demo"})
        before = api("GET", "/v1/push/subscriptions", token=grant["token"])[1]["subscriptions"]

        self.browser.execute_script(FAKE_SUBSCRIBE)
        self.browser.find_element(By.ID, "push-details").click()
        old = self.browser.find_element(By.ID, "push-on")
        old.click()
        self.wait_until_left(old)
        _, key = api("GET", "/v1/push/vapid-key", token=grant["token"])
        self.assertEqual(self.browser.execute_script("return [sessionStorage.subscribedWith, sessionStorage.userVisibleOnly]"),
                         [key["public_key"], "true"], "subscribed with the bank's VAPID key, for visible notifications only")
        after = api("GET", "/v1/push/subscriptions", token=grant["token"])[1]["subscriptions"]
        added = [s for s in after if s["id"] not in {b["id"] for b in before}]
        self.assertEqual(len(added), 1, after)
        self.assertEqual((added[0]["kind"], added[0]["details"]), ("web", True))
        self.assertIn("Chrome", added[0]["label"])
        listed = self.browser.find_element(By.ID, "push-subscriptions").text
        self.assertIn(added[0]["label"], listed)
        self.assert_fits_and_accessible()
        self.shoot_dark_and_light("/settings", "push-settings", "#push")

        # Back in Settings, this browser is marked in the list and not offered the switch again
        # (its subscription as PushManager.getSubscription answers it, stood in for as above).
        self.browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
            PushManager.prototype.getSubscription = async function () { return {endpoint: "https://127.0.0.1:9/push/web-test"}; };"""})
        self.browser.get(BASE + "/settings")
        this = self.browser.find_element(By.CSS_SELECTOR, "[data-endpoint='https://127.0.0.1:9/push/web-test'] .push-this")
        self.wait_until(lambda b: this.is_displayed())
        self.assertFalse(self.browser.find_element(By.ID, "push-on").is_displayed())

        # The service worker shows what a push brings; the same tag again replaces it.
        self.browser.get(BASE + "/home")
        page = next(t for t in self.targets() if t["type"] == "page" and t["url"].startswith(origin))
        tools = DevTools(page["webSocketDebuggerUrl"])
        try:
            tools.call("ServiceWorker.enable")
            registration = tools.wait_event(
                "ServiceWorker.workerRegistrationUpdated",
                lambda p: any(r["scopeURL"].startswith(origin) and not r["isDeleted"] for r in p["registrations"]))
            registration_id = next(r["registrationId"] for r in registration["registrations"] if r["scopeURL"].startswith(origin))
            # why one after the other: two push events run side by side, and the later shown would win.
            for body in ("Ihre Visa Gold ist gesperrt.", "Ihre Visa Gold ist gesperrt (neu)."):
                self.push({"id": 9001, "title": "Karte gesperrt", "body": body, "url": "/settings", "tag": "m9001"}, tools, registration_id)
                self.wait_until(lambda b: any(n["body"] == body for n in self.notifications()))
            shown = [n for n in self.notifications() if n["tag"] == "m9001"]
            self.assertEqual(shown, [{"title": "Karte gesperrt", "body": "Ihre Visa Gold ist gesperrt (neu).", "tag": "m9001", "url": "/settings"}])
            # A payload that names another site opens the inbox instead.
            self.push({"id": 9002, "title": "x", "body": "y", "url": "https://evil.example/", "tag": "m9002"}, tools, registration_id)
            self.wait_until(lambda b: any(n["tag"] == "m9002" for n in self.notifications()))
            self.assertEqual(next(n["url"] for n in self.notifications() if n["tag"] == "m9002"), "/inbox")
        finally:
            tools.close()

        # A tap (notificationclick in the worker) takes the open window to the message's screen.
        worker = next(t for t in self.targets() if t["type"] == "service_worker" and t["url"].startswith(origin))
        tools = DevTools(worker["webSocketDebuggerUrl"])
        try:
            tools.call("Runtime.evaluate", awaitPromise=True, expression="""
                self.registration.getNotifications({tag: "m9001"}).then((shown) => {
                  self.dispatchEvent(new NotificationEvent("notificationclick", {notification: shown[0]}));
                  return shown.length;
                })""")
        finally:
            tools.close()
        self.wait_until(lambda b: urllib.parse.urlsplit(b.current_url).path == "/settings")
        self.assertEqual([n for n in self.notifications() if n["tag"] == "m9001"], [], "the tapped notification is closed")

        # Removed from the list: the server no longer pushes to this browser.
        self.browser.find_element(By.CSS_SELECTOR, f"form[action='/settings/push/{added[0]['id']}/delete'] button").click()
        self.wait_until(lambda b: added[0]["id"] not in [s["id"] for s in api("GET", "/v1/push/subscriptions", token=grant["token"])[1]["subscriptions"]])

    def test_a_login_from_a_new_browser_is_announced_once(self):
        """The customer's browsers are known by an id in a cookie: a login from one never used
        writes a security alert (pushed even where notifications are muted); the same browser
        again does not."""
        _, grant = api("POST", "/v1/sessions", {"contract": CONTRACT, "password": "tresor-demo"})

        def alerts():
            messages = api("GET", "/v1/messages?category=security&limit=100", token=grant["token"])[1]["messages"]
            return [m for m in messages if "Chrome on Linux" in m["subject"]]

        self.login(CONTRACT)
        before = alerts()
        self.browser.delete_all_cookies()
        self.login(CONTRACT, browser_id=None)
        self.assertTrue(urllib.parse.urlsplit(self.browser.current_url).path == "/home")
        after = alerts()
        self.assertEqual(len(after), len(before) + 1, "a login from a new browser is announced")
        self.assertIn("Chrome on Linux", after[0]["body"])
        new_id = self.browser.get_cookie("tresor_browser")["value"]
        self.assertNotEqual(new_id, "", "the new browser got an id")
        self.browser.delete_cookie("tresor_session")
        self.login(CONTRACT, browser_id=None)
        self.assertEqual(self.browser.get_cookie("tresor_browser")["value"], new_id, "the browser keeps its id")
        self.assertEqual(len(alerts()), len(after), "the same browser again is not announced")
        self.browser.get(BASE + "/inbox?category=security")
        self.assertIn(after[0]["subject"], self.browser.find_element(By.ID, "inbox").text)
