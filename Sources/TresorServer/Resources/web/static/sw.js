// Tresor's service worker. The app shell (styles, script, icons) is cached; of the pages, only
// the overview and the accounts are kept, to show offline with an "as of" banner. Nothing that
// moves money is ever answered from the cache or queued: only GETs of those two pages are kept,
// every POST goes to the network or fails, and logging out (or the login page) drops the pages.
// Kept pages are encrypted (AES-GCM) with a non-extractable key made for the session and kept
// no longer than it: the server allows keeping (X-Tresor-Keep: seconds) only on a browser the
// customer chose to remember; the key and the pages go at logout, at the login page, on a page
// not to be kept, and once the session's idle time has passed, so a shared or stolen computer
// shows nothing after the session ended.
const VERSION = "__VERSION__";
const SHELL = "tresor-shell-" + VERSION;
const PAGES = "tresor-pages";
const SHELL_FILES = ["/static/app.css", "/static/theme.css", "/static/app.js", "/static/icons.svg", "/static/icon-192.png"];
const KEPT_PAGES = ["/home", "/accounts"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL).then((cache) => cache.addAll(SHELL_FILES)).then(() => self.skipWaiting()));
});

// A new version takes over at once and removes the old shell; the kept pages stay.
self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys().then((names) => Promise.all(
    names.filter((name) => name.startsWith("tresor-shell-") && name !== SHELL).map((name) => caches.delete(name))
  )).then(() => self.clients.claim()));
});

const KEYS = "tresor-keys";

function keyStore(mode, use) {
  return new Promise((resolve, reject) => {
    const opening = indexedDB.open(KEYS, 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore("keys");
    opening.onerror = () => reject(opening.error);
    opening.onsuccess = () => {
      const transaction = opening.result.transaction("keys", mode);
      const request = use(transaction.objectStore("keys"));
      transaction.oncomplete = () => { opening.result.close(); resolve(request && request.result); };
      transaction.onerror = () => { opening.result.close(); reject(transaction.error); };
    };
  });
}

// The session's key while it lasts; with `keepFor` (seconds) made if missing and its end moved on.
// why one at a time: two pages kept at once would each make a key, and the page sealed with the
// key the other overwrote could never be opened again.
let keyTurn = Promise.resolve();
function sessionKey(keepFor) {
  const mine = keyTurn.then(() => sessionKeyNow(keepFor));
  keyTurn = mine.catch(() => {});
  return mine;
}

async function sessionKeyNow(keepFor) {
  const kept = await keyStore("readonly", (store) => store.get("session"));
  if (kept && kept.until > Date.now() && !keepFor) return kept.key;
  if (!keepFor) {
    if (kept) await dropKept();
    return null;
  }
  const key = kept && kept.until > Date.now() ? kept.key
    : await crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
  await keyStore("readwrite", (store) => store.put({ key, until: Date.now() + keepFor * 1000 }, "session"));
  return key;
}

function dropKept() {
  return Promise.all([caches.delete(PAGES), keyStore("readwrite", (store) => store.delete("session")).catch(() => {})]);
}

async function keep(path, response, keepFor) {
  const key = await sessionKey(keepFor);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt({ name: "AES-GCM", iv }, key, new TextEncoder().encode(await response.text()));
  const body = new Uint8Array(12 + sealed.byteLength);
  body.set(iv);
  body.set(new Uint8Array(sealed), 12);
  const cache = await caches.open(PAGES);
  await cache.put(path, new Response(body, { headers: { "Content-Type": "application/octet-stream", "X-Kept-At": new Date().toISOString() } }));
}

async function keptPage(path) {
  const kept = await caches.match(path, { cacheName: PAGES });
  const key = kept && await sessionKey(0);
  if (!kept || !key) return null;
  const bytes = new Uint8Array(await kept.arrayBuffer());
  try {
    const text = new TextDecoder().decode(await crypto.subtle.decrypt({ name: "AES-GCM", iv: bytes.slice(0, 12) }, key, bytes.slice(12)));
    return { text, keptAt: kept.headers.get("X-Kept-At") || "" };
  } catch (error) {
    return null;
  }
}

function offlinePage() {
  const html = "<!doctype html><html><head><meta charset='utf-8'><meta name='viewport' content='width=device-width, initial-scale=1'>" +
    "<link rel='stylesheet' href='/static/app.css'><title>Offline</title></head><body><main class='card narrow'><h1>Offline</h1>" +
    "<p>This screen needs a connection. <a href='/home'>Overview</a></p></main></body></html>";
  return new Response(html, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method !== "GET") {
    if (url.pathname === "/logout") event.waitUntil(dropKept());
    return;
  }
  if (SHELL_FILES.includes(url.pathname)) {
    event.respondWith(fetch(request).then((response) => {
      const copy = response.clone();
      if (response.ok) caches.open(SHELL).then((cache) => cache.put(request, copy));
      return response;
    }).catch(() => caches.match(request)));
    return;
  }
  if (request.mode !== "navigate") return;
  if (url.pathname === "/login") event.waitUntil(dropKept());
  event.respondWith(fetch(request).then((response) => {
    // Keep the overview only when it is the overview (a redirect to the login page is not),
    // and only where the server allows it.
    if (KEPT_PAGES.includes(url.pathname) && response.ok && !response.redirected) {
      const keepFor = Number(response.headers.get("X-Tresor-Keep") || "0");
      event.waitUntil(keepFor > 0 ? keep(url.pathname, response.clone(), keepFor) : dropKept());
    }
    return response;
  }).catch(async () => {
    const kept = await keptPage(url.pathname);
    if (!kept) return offlinePage();
    return new Response(kept.text.replace("<html ", `<html data-offline-as-of="${kept.keptAt}" `), {
      headers: { "Content-Type": "text/html; charset=utf-8" },
    });
  }));
});

// A push from the bank (Web Push): the payload is `{"id", "title", "body", "url", "tag"}`, as
// the server wrote it for this browser (details only when the customer allowed them here). The
// tag is the message's, so the same message pushed again replaces the first notification.
self.addEventListener("push", (event) => {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch (error) { data = {}; }
  const title = data.title || "Tresor";
  event.waitUntil(self.registration.showNotification(title, {
    body: data.body || "",
    tag: data.tag || "tresor",
    icon: "/static/icon-192.png",
    badge: "/static/icon-192.png",
    data: { url: typeof data.url === "string" && data.url.startsWith("/") ? data.url : "/inbox" },
  }));
});

// A tap opens the screen the notification is about: in an open window of the app when there is
// one, else in a new one. Only paths of this app are opened.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const path = (event.notification.data && event.notification.data.url) || "/inbox";
  const target = new URL(path.startsWith("/") && !path.startsWith("//") ? path : "/inbox", self.location.origin).href;
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
    const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
    if (!open) return self.clients.openWindow(target);
    // A window this worker does not control cannot be navigated: then a new one opens.
    return open.navigate(target).then((client) => client && client.focus().catch(() => client), () => self.clients.openWindow(target));
  }));
});
