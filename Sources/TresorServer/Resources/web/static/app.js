// Progressive enhancement only: every page works without this file.
document.addEventListener("click", (event) => {
  const button = event.target.closest("button.copy");
  if (!button || !navigator.clipboard) return;
  navigator.clipboard.writeText(button.dataset.copy).then(() => {
    button.dataset.label = button.dataset.label || button.textContent;
    button.textContent = "✓";
    setTimeout(() => { button.textContent = button.dataset.label; }, 1500);
  });
});

// An info button beside a field's label shows or hides the field's rule (read out with the field either way).
document.addEventListener("click", (event) => {
  const button = event.target.closest("button.info-button");
  if (!button) return;
  const text = document.getElementById(button.getAttribute("aria-controls"));
  const open = button.getAttribute("aria-expanded") !== "true";
  button.setAttribute("aria-expanded", String(open));
  text.hidden = !open;
});

// Live validation with the server's rules for the fields that have them; the server checks again.
// Digits of any script as ASCII, as the server's Digits reads them (an Arabic number pad types
// ٠-٩): a run of decimal digits in Unicode goes 0 to 9, so a digit's value is its distance from
// the run's start, modulo 10 where runs follow each other.
function asciiDigits(text) {
  return text.replace(/\p{Nd}/gu, (digit) => {
    const code = digit.codePointAt(0);
    if (code < 128) return digit;
    let start = code;
    while (/\p{Nd}/u.test(String.fromCodePoint(start - 1))) start -= 1;
    return String((code - start) % 10);
  });
}
// Whitespace and the invisible characters a pasted IBAN brings along, as the server drops them.
const IBAN_GAPS = /[\s\u200B\u2060\u00AD]+/g;
function ibanError(text) {
  const compact = asciiDigits(text.replace(IBAN_GAPS, "").toUpperCase());
  if (!compact) return "";
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(compact)) return "format";
  const rearranged = compact.slice(4) + compact.slice(0, 4);
  let remainder = 0;
  for (const ch of rearranged) {
    const value = ch >= "A" ? (ch.charCodeAt(0) - 55).toString() : ch;
    for (const digit of value) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1 ? "" : "checksum";
}
// ISO 11649 (RF + mod 97) or a 27-digit QR reference (mod 10 recursive), as the server checks them.
function referenceError(text) {
  const compact = asciiDigits(text.replace(IBAN_GAPS, "").toUpperCase());
  if (!compact) return "";
  if (/^RF\d{2}[A-Z0-9]{1,21}$/.test(compact)) {
    let remainder = 0;
    for (const ch of compact.slice(4) + compact.slice(0, 4)) {
      const value = ch >= "A" ? (ch.charCodeAt(0) - 55).toString() : ch;
      for (const digit of value) remainder = (remainder * 10 + Number(digit)) % 97;
    }
    return remainder === 1 ? "" : "checksum";
  }
  if (/^\d{27}$/.test(compact)) {
    const table = [0, 9, 4, 6, 8, 2, 7, 1, 3, 5];
    let carry = 0;
    for (const digit of compact.slice(0, 26)) carry = table[(carry + Number(digit)) % 10];
    return (10 - carry) % 10 === Number(compact[26]) ? "" : "checksum";
  }
  return "format";
}
// A contract number: eight digits, the last the mod 10 recursive check digit of the others, as
// the server's ContractNumber makes them; spaces and dots as a letter may group them.
function contractError(text) {
  const compact = asciiDigits(text.replace(/[\s.\-]/g, ""));
  if (!compact) return "";
  if (!/^\d{8}$/.test(compact)) return "format";
  const table = [0, 9, 4, 6, 8, 2, 7, 1, 3, 5];
  let carry = 0;
  for (const digit of compact.slice(0, 7)) carry = table[(carry + Number(digit)) % 10];
  return (10 - carry) % 10 === Number(compact[7]) ? "" : "checksum";
}
// A contract number is checked before the form is sent: a typo then costs no failed login
// (which counts towards the lock) and says what is wrong at once.
document.addEventListener("submit", (event) => {
  const input = event.target.querySelector && event.target.querySelector("input[data-validate='contract']");
  if (!input || !contractError(input.value)) return;
  event.preventDefault();
  input.setAttribute("aria-invalid", "true");
  const message = document.getElementById(input.id + "-error");
  if (message) message.textContent = message.dataset.live || "✗";
  input.focus();
});
// An amount as typed (a decimal comma from a phone's keypad, thousands in groups after an
// apostrophe, a space, a comma or a dot) as the decimal the server reads: the server's
// TypedAmount does the same, so this check never refuses what the server would take; Arabic
// decimal and thousands separators (٫ ٬) as a dot and a group mark.
function typedAmount(typed) {
  let text = asciiDigits(typed.trim()).replace(/\u066B/g, ".").replace(/\u066C/g, "'");
  if (/^-?\d{1,3}(['’ʼ\u00a0\u202f ]\d{3})+([.,]\d+)?$/.test(text)) text = text.replace(/['’ʼ\u00a0\u202f ]/g, "");
  if (/^-?\d{1,3}(,\d{3})+(\.\d+)?$/.test(text)) text = text.replace(/,/g, "");
  else if (/^-?\d{1,3}(\.\d{3})+,\d{1,2}$/.test(text)) text = text.replace(/\./g, "");
  if (/^-?\d+,\d{1,2}$/.test(text)) text = text.replace(",", ".");
  return text;
}

document.addEventListener("input", (event) => {
  const input = event.target;
  const kind = input.dataset && input.dataset.validate;
  if (!kind) return;
  const message = document.getElementById(input.id + "-error");
  let problem = "";
  if (kind === "iban") problem = ibanError(input.value);
  if (kind === "reference") problem = referenceError(input.value);
  // Only once eight characters are there: a half-typed number is not yet wrong.
  if (kind === "contract" && input.value.replace(/\s/g, "").length >= 8) problem = contractError(input.value);
  if (kind === "amount" && input.value && !/^\d{1,12}(\.\d{1,2})?$/.test(typedAmount(input.value))) problem = "format";
  input.setAttribute("aria-invalid", problem ? "true" : "false");
  if (message && problem) message.textContent = message.dataset.live || "✗";
  if (message && !problem && message.textContent === (message.dataset.live || "✗")) message.textContent = "";
});

// Fields the screen shows only when another has a value (`visible_when` in the bank's screen
// description). Without this file every field shows; a field with a value of its own stays.
function applyConditions() {
  for (const wrapper of document.querySelectorAll("[data-visible-when]")) {
    const source = document.getElementById(wrapper.dataset.visibleWhen);
    const own = wrapper.querySelector("input, select, textarea");
    wrapper.hidden = Boolean(source && !source.value.trim() && !(own && own.value.trim()));
  }
}
document.addEventListener("input", applyConditions);
document.addEventListener("DOMContentLoaded", applyConditions);

// A standing order's form: only the fields of the chosen rhythm and end (`data-shown-for`
// "select:value,value"). Without this file all show; the server reads only the chosen ones.
function applyChoices() {
  for (const wrapper of document.querySelectorAll("[data-shown-for]")) {
    const [id, values] = wrapper.dataset.shownFor.split(":");
    const source = document.getElementById(id);
    if (source) wrapper.hidden = !values.split(",").includes(source.value);
  }
}
document.addEventListener("change", applyChoices);
document.addEventListener("DOMContentLoaded", applyChoices);

// Amounts to tap under a field (a top-up's vouchers): those the chosen operator sells. Without
// this file the chips stay hidden and the hint lists the amounts; the server checks either way.
document.addEventListener("DOMContentLoaded", () => {
  for (const chips of document.querySelectorAll(".amount-chips")) {
    const input = document.getElementById(chips.dataset.for);
    const by = document.getElementById(chips.dataset.by);
    if (!input || !by) continue;
    const update = () => {
      const typed = input.value.trim().replace(",", ".");
      for (const chip of chips.querySelectorAll("button")) {
        chip.hidden = !chip.dataset.when.split(" ").includes(by.value);
        chip.setAttribute("aria-pressed", String(!chip.hidden && Number(typed) === Number(chip.dataset.value)));
      }
    };
    chips.addEventListener("click", (event) => {
      const chip = event.target.closest("button");
      if (!chip) return;
      input.value = chip.dataset.value;
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });
    by.addEventListener("change", update);
    input.addEventListener("input", update);
    chips.hidden = false;
    update();
  }
});

// Filters and selects that apply at once (the forms work without this file through their button).
document.addEventListener("change", (event) => {
  if (event.target.matches && event.target.matches("[data-autosubmit]")) event.target.form.submit();
});

// The finder's "use my location": the browser's position, if the customer allows it.
document.addEventListener("DOMContentLoaded", () => {
  const locate = document.getElementById("locate");
  if (!locate || !navigator.geolocation) return;
  // why visibility, not hidden: the space is kept from the first paint, so nothing moves.
  locate.disabled = false;
  locate.classList.add("ready");
  locate.addEventListener("click", () => {
    locate.disabled = true;
    navigator.geolocation.getCurrentPosition((position) => {
      const form = locate.form;
      form.elements.lat.value = position.coords.latitude.toFixed(6);
      form.elements.lon.value = position.coords.longitude.toFixed(6);
      form.elements.q.value = "";
      form.submit();
    }, () => {
      locate.disabled = false;
      locate.textContent = locate.dataset.error;
    }, { timeout: 10000, maximumAge: 60000 });
  });
  const query = document.getElementById("q");
  // A new search text replaces the position it was searched from.
  if (query) query.addEventListener("input", () => { query.form.elements.lat.value = ""; query.form.elements.lon.value = ""; });
});

// The loan calculator recomputes as the sliders move: the server renders the result (its rules, its rounding).
let loanTimer = null;
document.addEventListener("input", (event) => {
  if (!event.target.matches || !event.target.matches("[data-live]")) return;
  const form = event.target.form;
  clearTimeout(loanTimer);
  loanTimer = setTimeout(async () => {
    const query = new URLSearchParams(new FormData(form));
    query.set("partial", "1");
    const response = await fetch("/loan?" + query.toString(), { credentials: "same-origin" });
    if (!response.ok) return;
    const result = document.getElementById("loan-result");
    result.innerHTML = await response.text();
    const instalment = document.getElementById("loan-instalment");
    if (instalment) {
      document.getElementById("amount-out").textContent = instalment.dataset.amount;
      document.getElementById("months-out").textContent = instalment.dataset.months;
    }
    history.replaceState(null, "", "/loan?" + new URLSearchParams(new FormData(form)).toString());
  }, 200);
});

// Installable and offline: the service worker keeps the app shell and the last overview.
if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});
document.addEventListener("DOMContentLoaded", () => {
  // A page the service worker answered from its cache says when it was fetched.
  const asOf = document.documentElement.dataset.offlineAsOf;
  const banner = document.getElementById("offline-banner");
  if (asOf && banner) {
    const time = new Date(asOf).toLocaleTimeString(document.documentElement.lang, { hour: "2-digit", minute: "2-digit" });
    banner.textContent = banner.dataset.text.replace("{time}", time);
    banner.hidden = false;
    for (const form of document.querySelectorAll("form[method=post]")) {
      for (const button of form.querySelectorAll("button")) button.disabled = true;
    }
  }
  if (!asOf) refreshUnread();
  if (!asOf && document.body.classList.contains("signed-in") && window.EventSource) listen();
});

// The Inbox tab's unread count, in the badge the page already holds (so nothing moves).
function refreshUnread() {
  const badge = document.querySelector("#tab-inbox .badge");
  if (!badge) return;
  fetch("/inbox/unread", { credentials: "same-origin" }).then((r) => r.ok ? r.json() : null).then((body) => {
    if (!body || !body.unread) return;
    badge.textContent = body.unread > 99 ? "99+" : String(body.unread);
    badge.hidden = false;
    const tab = badge.parentElement;
    tab.setAttribute("aria-label", tab.querySelector("span").textContent + ", " + body.unread + " " + (tab.dataset.unread || ""));
  }).catch(() => {});
}

// Live: each new message arrives as a Server-Sent Event. A toast says what happened, the badge
// counts it, and when money moved the balances on this page are fetched again and replaced in
// place (the parts marked data-live), without a reload. A lost connection is retried after 15 s
// (by us, not the browser, so a stopped server does not fill the console).
function listen() {
  const source = new EventSource("/events");
  // The stream's state on the page (data-live="open"): what arrives from now on is shown here.
  source.addEventListener("open", () => { document.body.dataset.live = "open"; });
  source.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    const toast = document.getElementById("toast");
    if (toast) {
      toast.textContent = message.subject;
      toast.hidden = false;
      clearTimeout(toast.timer);
      toast.timer = setTimeout(() => { toast.hidden = true; }, 8000);
    }
    refreshUnread();
    if (message.category === "payments") refreshLive();
  });
  source.addEventListener("error", () => {
    document.body.dataset.live = "closed";
    source.close();
    setTimeout(listen, 15000);
  });
}

function refreshLive() {
  const parts = document.querySelectorAll("[data-live]");
  if (!parts.length) return;
  fetch(location.pathname + location.search, { credentials: "same-origin" }).then((r) => r.ok ? r.text() : null).then((html) => {
    if (!html) return;
    const fresh = new DOMParser().parseFromString(html, "text/html");
    for (const part of parts) {
      const other = fresh.querySelector(`[data-live="${part.dataset.live}"]`);
      if (other) part.innerHTML = other.innerHTML;
    }
  }).catch(() => {});
}

// Feedback on everything that takes time: a submitted form's button waits with a spinner.
document.addEventListener("submit", (event) => {
  const form = event.target;
  // why not for a form opening a new tab (a station's printouts): this page stays usable.
  if (form.method !== "post" || event.defaultPrevented || form.target) return;
  const button = event.submitter || form.querySelector("button[type=submit], button:not([type])");
  if (!button) return;
  // why later: the button's own name/value must still be sent with the form.
  setTimeout(() => { button.setAttribute("aria-busy", "true"); button.disabled = true; }, 0);
});

// IBANs grouped by four as they are typed (the server accepts them with or without spaces).
document.addEventListener("input", (event) => {
  const input = event.target;
  if (!input.dataset || input.dataset.validate !== "iban" || event.inputType === "deleteContentBackward") return;
  const compact = input.value.replace(IBAN_GAPS, "").toUpperCase();
  const grouped = compact.replace(/(.{4})(?=.)/g, "$1 ");
  if (grouped !== input.value) input.value = grouped;
});

// Reading a photo takes a moment: the form shows that it is working and can be cancelled
// (stopping the upload leaves the page as it was; nothing was saved).
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (form.enctype !== "multipart/form-data" || !form.querySelector("input[type=file]")) return;
  let status = form.querySelector(".reading");
  if (!status) {
    status = document.createElement("div");
    status.className = "reading";
    status.setAttribute("role", "status");
    status.innerHTML = "<progress></progress> <span></span> <button type='button' class='link'></button>";
    status.querySelector("span").textContent = form.dataset.reading || "…";
    const cancel = status.querySelector("button");
    cancel.textContent = form.dataset.cancel || "×";
    cancel.addEventListener("click", () => {
      window.stop();
      status.remove();
      for (const button of form.querySelectorAll("button[aria-busy]")) { button.disabled = false; button.removeAttribute("aria-busy"); }
    });
    form.appendChild(status);
  }
});

// A file picker in the app's words (.picker): once a file is chosen the face names it, and a
// photo shows as a thumbnail, so the customer sees what is about to be read before sending it.
document.addEventListener("change", (event) => {
  const picker = event.target.closest(".picker");
  if (!picker) return;
  const file = event.target.files && event.target.files[0];
  const name = picker.querySelector(".picker-name");
  if (!name.dataset.empty) name.dataset.empty = name.textContent;
  const count = event.target.files ? event.target.files.length : 0;
  // Several photos are the parts of one long receipt: say how many, show the first.
  name.textContent = count > 1 && event.target.dataset.several
    ? event.target.dataset.several.replace("{n}", count) : file ? file.name : name.dataset.empty;
  const preview = picker.querySelector(".picker-preview");
  if (!preview) return;
  if (preview.src) URL.revokeObjectURL(preview.src);
  preview.hidden = !(file && file.type.startsWith("image/"));
  if (!preview.hidden) preview.src = URL.createObjectURL(file);
  else preview.removeAttribute("src");
});

// The public check of a certificate: the chosen file's SHA-256 is computed here, in the browser
// (the file is not uploaded), and compared with the digest the bank recorded when it issued it.
document.addEventListener("change", async (event) => {
  const input = event.target.closest("input[data-verify-digest]");
  if (!input || !input.files.length || !crypto.subtle) return;
  const digest = await crypto.subtle.digest("SHA-256", await input.files[0].arrayBuffer());
  const hex = Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
  const result = document.getElementById("verify-result");
  const matches = hex === input.dataset.verifyDigest;
  result.textContent = matches ? input.dataset.match : input.dataset.mismatch;
  result.className = matches ? "notice is-match" : "error";
});

// As in the apps customers know, the screen's large title stands below the bar, and the bar takes
// it over once it has scrolled away under it. Without this file the bar names the screen's section.
(() => {
  const bar = document.querySelector("header.bar");
  const barTitle = bar && bar.querySelector(".screen-title");
  const large = document.querySelector("main h1:not(.hint)");
  if (!barTitle || !large || !("IntersectionObserver" in window)) return;
  barTitle.textContent = large.textContent.trim();
  // The large title is the one screen readers meet; the bar's copy is for the eye only.
  barTitle.setAttribute("aria-hidden", "true");
  barTitle.classList.add("tucked");
  const shown = new IntersectionObserver(([entry]) => {
    barTitle.classList.toggle("tucked", entry.isIntersecting);
    // Faded from the first scroll on; on arrival it stands as the page opened.
    requestAnimationFrame(() => barTitle.classList.add("fades"));
  }, { rootMargin: `-${bar.offsetHeight}px 0px 0px 0px` });
  shown.observe(large);
})();

// A required choice folded away in a closed <details> (the appointment's days) is unfolded when
// the form is sent without it, so the browser can point at it instead of refusing silently.
document.addEventListener("invalid", (event) => {
  const folded = event.target.closest("details:not([open])");
  if (folded) folded.open = true;
}, true);

// Passkeys (WebAuthn), where the browser has them: add one under Settings, log in with one,
// confirm a payment with one. The server answers in WebAuthn's JSON (parse…FromJSON, toJSON).
const hasPasskeys = Boolean(window.PublicKeyCredential && PublicKeyCredential.parseCreationOptionsFromJSON);
document.addEventListener("DOMContentLoaded", () => {
  if (!hasPasskeys) return;
  for (const part of document.querySelectorAll(".passkey-add, .passkey-login")) part.hidden = false;
});
async function postJSON(path, body) {
  const reply = await fetch(path, {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body || {}),
                                   credentials: "same-origin"});
  return [reply.ok, await reply.json().catch(() => ({}))];
}
function showPasskeyError(button, id) {
  const message = id && document.getElementById(id);
  if (message) { message.textContent = button.dataset.error; message.hidden = false; }
  else alert(button.dataset.error);
}
document.addEventListener("click", async (event) => {
  const add = event.target.closest && event.target.closest("#passkey-add");
  if (add) {
    try {
      const [, options] = await postJSON("/settings/passkeys/options", {csrf: add.dataset.csrf});
      const credential = await navigator.credentials.create({publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options.publicKey)});
      const [ok, answer] = await postJSON("/settings/passkeys", {...credential.toJSON(), name: add.dataset.name, csrf: add.dataset.csrf});
      if (ok) { location.assign(answer.location); return; }
    } catch (error) { /* cancelled by the customer, or refused below */ }
    showPasskeyError(add, "passkey-error");
    return;
  }
  const login = event.target.closest && event.target.closest("#passkey-login");
  if (login) {
    try {
      const [, options] = await postJSON("/login/passkey/options");
      const assertion = await navigator.credentials.get({publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options.publicKey)});
      const [ok, answer] = await postJSON("/login/passkey", assertion.toJSON());
      if (ok) { location.assign(answer.location); return; }
    } catch (error) { /* cancelled, or refused below */ }
    showPasskeyError(login, "login-error-passkey");
  }
});
document.addEventListener("submit", async (event) => {
  const form = event.target;
  if (!form.dataset || !form.dataset.passkeySign || form.dataset.signed) return;
  event.preventDefault();
  try {
    const assertion = await navigator.credentials.get({publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(
      {challenge: form.dataset.passkeySign, userVerification: "required", allowCredentials: []})});
    form.querySelector("#passkey-code").value = JSON.stringify(assertion.toJSON());
  } catch (error) { /* sent empty: the server counts it as a wrong answer and says so */ }
  form.dataset.signed = "1";
  form.submit();
});

// Notifications on this browser (Settings): asks for permission, subscribes with the bank's
// VAPID key and hands the subscription to the server; iOS Safari only offers it to the app
// added to the home screen, so elsewhere the hint says why there is no switch.
const hasPush = Boolean(navigator.serviceWorker && window.PushManager && window.Notification);
document.addEventListener("DOMContentLoaded", async () => {
  if (!hasPush) return;
  for (const part of document.querySelectorAll(".push-unsupported")) part.hidden = true;
  // A browser already subscribed is marked in the list, and not offered the switch again.
  const listed = [...document.querySelectorAll("#push-subscriptions [data-endpoint]")];
  if (listed.length && Notification.permission === "granted") {
    try {
      const subscription = await (await navigator.serviceWorker.ready).pushManager.getSubscription();
      const mine = subscription && listed.find((item) => item.dataset.endpoint === subscription.endpoint);
      if (mine) {
        mine.querySelector(".push-this").hidden = false;
        return;
      }
    } catch (error) { /* no worker yet: offered as for a new browser */ }
  }
  for (const part of document.querySelectorAll(".push-add")) part.hidden = false;
});
function keyBytes(base64url) {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}
document.addEventListener("click", async (event) => {
  const on = event.target.closest && event.target.closest("#push-on");
  if (!on) return;
  on.disabled = true;
  try {
    if (await Notification.requestPermission() === "granted") {
      const registration = await navigator.serviceWorker.ready;
      const subscription = await registration.pushManager.subscribe({userVisibleOnly: true, applicationServerKey: keyBytes(on.dataset.key)});
      const details = document.getElementById("push-details").checked;
      const [ok, answer] = await postJSON("/settings/push", {csrf: on.dataset.csrf, subscription: subscription.toJSON(), details});
      if (ok) { location.assign(answer.location); return; }
    }
  } catch (error) { /* refused by the customer or the browser: said below */ }
  on.disabled = false;
  showPasskeyError(on, "push-error");
});

// The pay screen's camera, as the banking apps scan a bill: a live view (the back camera) with
// a frame for the QR code or the code line. Where the browser reads QR codes (BarcodeDetector)
// a QR-bill's text is sent as soon as it is read; otherwise, and for a slip's code line, a still
// goes to the server once the picture has held steady. The file picker stays for the rest.
const CAMERA = navigator.mediaDevices && navigator.mediaDevices.getUserMedia ? navigator.mediaDevices : null;
for (const button of document.querySelectorAll("[data-camera]")) button.hidden = !CAMERA;

/// Mean difference of two small grey frames (0 to 255): under a few levels the hand is still.
function frameChange(previous, current) {
  if (!previous) return 255;
  let sum = 0;
  for (let i = 0; i < current.length; i += 4) sum += Math.abs(current[i] - previous[i]);
  return sum / (current.length / 4);
}

document.addEventListener("click", async (event) => {
  const open = event.target.closest("[data-camera]");
  if (!open || !CAMERA) return;
  const form = open.closest("form");
  const view = form.querySelector(".camera");
  const video = view.querySelector("video");
  const hint = view.querySelector(".camera-hint");
  const torch = view.querySelector(".camera-torch");
  const refused = form.querySelector("[data-camera-refused]");
  let stream;
  try {
    stream = await CAMERA.getUserMedia({ video: { facingMode: { ideal: "environment" }, width: { ideal: 1920 }, height: { ideal: 1080 } }, audio: false });
  } catch (error) {
    refused.hidden = false;
    return;
  }
  refused.hidden = true;
  view.hidden = false;
  video.srcObject = stream;
  await video.play().catch(() => {});
  const track = stream.getVideoTracks()[0];
  const capabilities = track.getCapabilities ? track.getCapabilities() : {};
  torch.hidden = !capabilities.torch;
  let detector = null;
  if ("BarcodeDetector" in window) {
    const formats = await BarcodeDetector.getSupportedFormats().catch(() => []);
    if (formats.includes("qr_code")) detector = new BarcodeDetector({ formats: ["qr_code"] });
  }
  const small = document.createElement("canvas");
  small.width = 32;
  small.height = 24;
  const smallContext = small.getContext("2d", { willReadFrequently: true });
  let previous = null;
  let steady = 0;
  let busy = false;
  const close = () => {
    clearInterval(timer);
    for (const each of stream.getTracks()) each.stop();
    video.srcObject = null;
    view.hidden = true;
    view.removeEventListener("click", onClick);
    view.removeEventListener("keydown", onKey);
  };
  const send = () => {
    close();
    form.querySelector("input[type=file]").required = false;
    form.requestSubmit();
  };
  const onClick = async (click) => {
    if (click.target.closest(".camera-close")) { close(); open.focus(); }
    if (click.target.closest(".camera-torch")) {
      const on = torch.getAttribute("aria-pressed") !== "true";
      await track.applyConstraints({ advanced: [{ torch: on }] }).catch(() => {});
      torch.setAttribute("aria-pressed", String(on));
    }
  };
  const onKey = (key) => {
    if (key.key === "Escape") { close(); open.focus(); }
  };
  view.addEventListener("click", onClick);
  view.addEventListener("keydown", onKey);
  view.querySelector(".camera-close").focus();
  const timer = setInterval(async () => {
    if (busy || !video.videoWidth) return;
    busy = true;
    try {
      if (detector) {
        const codes = await detector.detect(video).catch(() => []);
        const bill = codes.find((code) => code.rawValue.startsWith("SPC"));
        if (bill) {
          form.querySelector("input[name=qrbill_payload]").value = bill.rawValue;
          send();
          return;
        }
      }
      smallContext.drawImage(video, 0, 0, small.width, small.height);
      const frame = smallContext.getImageData(0, 0, small.width, small.height).data;
      steady = frameChange(previous, frame) < 6 ? steady + 1 : 0;
      previous = frame;
      if (steady === 2) hint.textContent = hint.dataset.steady;
      // why about a second: long enough for a sharp still, short enough not to feel stuck.
      if (steady >= 4) {
        const still = document.createElement("canvas");
        still.width = video.videoWidth;
        still.height = video.videoHeight;
        still.getContext("2d").drawImage(video, 0, 0);
        const blob = await new Promise((resolve) => still.toBlob(resolve, "image/jpeg", 0.92));
        const files = new DataTransfer();
        files.items.add(new File([blob], "camera.jpg", { type: "image/jpeg" }));
        form.querySelector("input[type=file]").files = files.files;
        send();
        return;
      }
    } finally {
      busy = false;
    }
  }, 250);
});
