#!/usr/bin/env python3
"""make bench, paint part: first contentful paint, layout shift and bytes sent (HTML, CSS, script)
of the main screens in headless Chromium at 375x812 against a release server on loopback.
Budgets (issue 15): FCP < 300 ms, CLS 0, < 60 KB. Measured here, not asserted in tests, because a
time depends on the machine (the browser tests check the bytes and the layout shift).
Writes bench/results/paint.json."""
import datetime
import json
import os
import statistics
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

import bench_server

TRESOR = os.path.abspath(os.environ.get("TRESOR_BIN", ".build/release/tresor"))
LOADS = int(os.environ.get("BENCH_PAINT_LOADS", "10"))
server, base = bench_server.start(TRESOR, 41200, ["--banks", "{work}/banks"])
options = webdriver.ChromeOptions()
options.binary_location = "/usr/bin/chromium"
for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=375,812"]:
    options.add_argument(argument)
browser = None
try:
    browser = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    browser.get(base + "/login")
    browser.find_element(By.ID, "contract").send_keys("10000012")
    browser.find_element(By.ID, "password").send_keys("tresor-demo")
    browser.find_element(By.CSS_SELECTOR, "form[action='/login'] button").click()
    time.sleep(1)
    results = {}
    for path in ["/home", "/accounts", "/pay/iban", "/budget", "/branches"]:
        paints, shifts, sizes = [], [], []
        for _ in range(LOADS):
            browser.get(base + path)
            measured = browser.execute_async_script("""
                const done = arguments[0]; let shift = 0;
                new PerformanceObserver(l => { for (const e of l.getEntries()) if (!e.hadRecentInput) shift += e.value; }).observe({type: 'layout-shift', buffered: true});
                setTimeout(() => {
                  const fcp = performance.getEntriesByName('first-contentful-paint')[0];
                  const nav = performance.getEntriesByType('navigation')[0];
                  const parts = performance.getEntriesByType('resource').filter(r => /\\.(css|js)$/.test(r.name));
                  done({fcp: fcp ? fcp.startTime : null, shift, bytes: nav.encodedBodySize + parts.reduce((s, r) => s + r.encodedBodySize, 0)});
                }, 300);""")
            paints.append(measured["fcp"])
            shifts.append(measured["shift"])
            sizes.append(measured["bytes"])
        results[path] = {"fcp_ms_p50": round(statistics.median(paints), 1), "fcp_ms_max": round(max(paints), 1), "cls_max": max(shifts),
                         "bytes_max": max(sizes), "loads": LOADS}
    out = {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
           "budget": {"fcp_ms": 300, "cls": 0, "bytes": 60000}, "screens": results}
    os.makedirs("bench/results", exist_ok=True)
    with open("bench/results/paint.json", "w") as f:
        json.dump(out, f, indent=1)
    for path, r in results.items():
        print(f"{path:12} FCP p50 {r['fcp_ms_p50']} ms (max {r['fcp_ms_max']}), CLS {r['cls_max']}, {r['bytes_max']} bytes")
finally:
    if browser:
        browser.quit()
    server.kill()
