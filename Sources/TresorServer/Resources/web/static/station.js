// The self-service station. Idle, it asks every two seconds whether a phone paired (then it
// reloads into the customer's menu) and which code to show: the same until it nears its end,
// then a new one, with a bar running down. In the menu, the time left is shown and the page
// returns to the idle screen when the visit ends.
document.addEventListener("DOMContentLoaded", () => {
  const pairing = document.getElementById("station-pairing");
  if (pairing) {
    let code = pairing.dataset.code;
    let expiresAt = Number(pairing.dataset.expiresAt);
    let deadline = Date.now() + Number(pairing.dataset.expiresIn);
    const bar = document.getElementById("station-timer-bar");
    const poll = () => {
      fetch(`/station/code?showing=${encodeURIComponent(code)}&expires=${expiresAt}`, { credentials: "same-origin" })
        .then((r) => r.ok ? r.json() : null).then((body) => {
          if (!body) return;
          if (body.paired) { location.replace("/station"); return; }
          if (body.code !== code) {
            code = body.code;
            expiresAt = body.expires_at;
            document.getElementById("station-qr").innerHTML = body.qr;
            document.getElementById("station-code").textContent = body.grouped;
            pairing.dataset.code = code;
          }
          deadline = Date.now() + body.expires_in;
        }).catch(() => {});
    };
    setInterval(poll, 2000);
    setInterval(() => {
      const left = Math.max(0, deadline - Date.now());
      if (bar) bar.style.width = `${Math.min(100, left / 600)}%`;
    }, 250);
  }
  const menu = document.getElementById("station-menu");
  if (menu) {
    const end = Date.now() + Number(menu.dataset.expiresIn);
    const remaining = document.getElementById("station-remaining");
    const tick = () => {
      const left = Math.max(0, Math.round((end - Date.now()) / 1000));
      if (left === 0) { location.replace("/station?ended=1"); return; }
      const text = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
      if (remaining) remaining.textContent = remaining.dataset.text.replace("{time}", text);
    };
    tick();
    setInterval(tick, 1000);
  }
});
