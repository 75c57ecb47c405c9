"""Scan corpus benchmark: every slip and receipt image of Tests/corpus through `tresor
scan-worker` (the process the server runs per image, started ahead of its job as the server's
pool does), compared with the truth the corpus was generated from, and the HEIC photos of the corpus
against their JPEG twins. Writes bench/results/scan.json.

    python3 scripts/bench_scan.py [.build/release/tresor]
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "Tests", "corpus")


class Worker:
    """A `tresor scan-worker --job-dir` process started ahead, as the server's pool keeps one."""

    def __init__(self, binary, env):
        self.dir = tempfile.mkdtemp(prefix="tresor-bench-scan.")
        self.process = subprocess.Popen([binary, "scan-worker", "--job-dir", self.dir], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)


spares = {}


def run(binary, task, path, decoders=None):
    """One image through a worker started before the job (during the previous one, as in the
    server), timed from handing over the image to the answer."""
    env = {**os.environ, "OMP_THREAD_LIMIT": "1"}
    if decoders:
        env["TRESOR_QR_DECODERS"] = decoders
    worker = spares.pop(decoders, None) or Worker(binary, env)
    spares[decoders] = Worker(binary, env)
    started = time.perf_counter()
    shutil.copyfile(path, os.path.join(worker.dir, "image"))
    with open(os.path.join(worker.dir, "task"), "w") as f:
        f.write(task)
    worker.process.stdin.close()
    out = worker.process.stdout.read()
    worker.process.wait(timeout=60)
    elapsed = time.perf_counter() - started
    shutil.rmtree(worker.dir, ignore_errors=True)
    return json.loads(out or b"{}"), elapsed


def slip_is_exact(answer, truth):
    draft = (answer.get("slip") or {}).get("draft")
    if not draft or answer["slip"]["source"] != truth["source"]:
        return False
    amount = (draft.get("amount") or {}).get("amount")
    reference = (draft.get("reference") or {}).get("value")
    if truth["source"] == "qrbill":
        return (draft.get("qrbill_payload") == truth["payload"] and (draft.get("creditor") or {}).get("iban") == truth["iban"]
                and amount == truth["amount"] and reference == truth["reference"] and draft["currency"] == truth["currency"])
    return draft.get("participant") == truth["participant"] and amount == truth["amount"] and reference == truth["reference"]


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build", "release", "tresor")
    report = {"worker": "started ahead of its job, as the server's pool does; timed from handing over the image", "binary": os.path.relpath(binary, ROOT), "omp_thread_limit": 1}
    slips = json.load(open(os.path.join(CORPUS, "slips", "truth.json")))
    times, exact, misses = [], 0, []
    for truth in slips:
        answer, elapsed = run(binary, "slip", os.path.join(CORPUS, "slips", truth["file"]))
        times.append(elapsed)
        if slip_is_exact(answer, truth):
            exact += 1
        else:
            misses.append({"file": truth["file"], "answer": answer.get("error") or answer.get("slip", {}).get("draft")})
    report["slips"] = {"images": len(slips), "exact_payment": exact, "share": round(exact / len(slips), 3),
                       "p50_ms": round(statistics.median(times) * 1000), "p99_ms": round(percentile(times, 99) * 1000), "misses": misses}
    # QR-bills that came as PDF invoices (Tests/corpus/slips-pdf, made by the PyPI qrbill
    # package): the pages drawn by Poppler in the worker, then read as a photo is.
    pdfs = json.load(open(os.path.join(CORPUS, "slips-pdf", "truth.json")))
    times, exact = [], 0
    for truth in pdfs * 5:
        answer, elapsed = run(binary, "slip", os.path.join(CORPUS, "slips-pdf", truth["file"]))
        times.append(elapsed)
        draft = (answer.get("slip") or {}).get("draft") or {}
        exact += ((draft.get("creditor") or {}).get("iban") == truth["iban"].replace(" ", "")
                  and (draft.get("amount") or {}).get("amount") == truth["amount"]
                  and (draft.get("reference") or {}).get("value") == truth["reference"])
    report["pdf_slips"] = {"files": len(pdfs), "runs": len(times), "exact_payment": exact, "share": round(exact / len(times), 3),
                           "p50_ms": round(statistics.median(times) * 1000), "p99_ms": round(percentile(times, 99) * 1000)}
    # What each QR decoder reads alone (the server uses ZXing-C++ and its bent-code reader; zbar only
    # when TRESOR_QR_DECODERS asks for it): the QR-bills of the
    # corpus decoded to the exact payment by each, and the files only one of them reads.
    qrbills = [truth for truth in slips if truth["source"] == "qrbill"]
    alone = {}
    for decoder in ["zxing", "zbar"]:
        times, read = [], set()
        for truth in qrbills:
            answer, elapsed = run(binary, "slip", os.path.join(CORPUS, "slips", truth["file"]), decoders=decoder)
            times.append(elapsed)
            if slip_is_exact(answer, truth):
                read.add(truth["file"])
        alone[decoder] = read
        report[f"qrbills_{decoder}_only"] = {"images": len(qrbills), "exact_payment": len(read), "share": round(len(read) / len(qrbills), 3),
                                             "p50_ms": round(statistics.median(times) * 1000), "p99_ms": round(percentile(times, 99) * 1000)}
    report["qrbills_only_zbar_reads"] = sorted(alone["zbar"] - alone["zxing"])
    report["qrbills_only_zxing_reads"] = sorted(alone["zxing"] - alone["zbar"])
    # Phone photos of QR-bills (scripts/corpus/phone.py, generated per run): accuracy per variant
    # with ZXing as the server runs it (timed), with zbar behind it, and with zbar alone.
    phone = os.environ.get("TRESOR_PHONE_CORPUS")
    if phone:
        photos = json.load(open(os.path.join(phone, "truth.json")))
        per_variant = {}
        for decoders in ["zxing", "zxing,zbar", "zbar"]:
            for truth in photos:
                answer, elapsed = run(binary, "slip", os.path.join(phone, truth["file"]), decoders=decoders)
                entry = per_variant.setdefault(truth["variant"], {"images": 0, "times": []})
                key = {"zxing,zbar": "exact_both", "zxing": "exact_zxing_only", "zbar": "exact_zbar_only"}[decoders]
                entry[key] = entry.get(key, 0) + slip_is_exact(answer, truth)
                if decoders == "zxing":
                    entry["images"] += 1
                    entry["times"].append(elapsed)
        for entry in per_variant.values():
            times = entry.pop("times")
            entry["p50_ms"] = round(statistics.median(times) * 1000)
        total = sum(e["images"] for e in per_variant.values())
        # The variants (the aim is 99 % of them); crumpled_hard is beyond them, a measure of the margin.
        named = [e for v, e in per_variant.items() if v != "crumpled_hard"]
        report["phone_photos"] = {"images": total, "decoders": "zxing (the server's default)",
                                  "share_exact": round(sum(e["exact_zxing_only"] for e in per_variant.values()) / total, 3),
                                  "share_exact_without_crumpled_hard": round(sum(e["exact_zxing_only"] for e in named) / sum(e["images"] for e in named), 3),
                                  "share_exact_with_zbar_behind": round(sum(e["exact_both"] for e in per_variant.values()) / total, 3),
                                  "variants": per_variant}
    report["receipts"] = receipt_figures(binary, "receipts")
    # Photos this project did not make (Tests/corpus/receipts-real/README.md); a known miss
    # counts as a miss here.
    report["receipts_real"] = receipt_figures(binary, "receipts-real")
    # An iPhone's camera stores HEIC (HEVC in HEIF), and an app uploads the file as it is.
    report["heic"] = heic_figures(binary)
    os.makedirs(os.path.join(ROOT, "bench", "results"), exist_ok=True)
    with open(os.path.join(ROOT, "bench", "results", "scan.json"), "w") as f:
        json.dump(report, f, indent=1, ensure_ascii=False)
    print(json.dumps({k: {x: y for x, y in v.items() if x != "misses"} if isinstance(v, dict) else v for k, v in report.items()}, indent=1))


def receipt_checks(reading, truth):
    """Whether a receipt's reading has the total (in its currency; none where truth has none),
    the merchant and the date of its truth."""
    expected_total = {"amount": truth["total"], "currency": truth["currency"]} if truth["total"] is not None else None
    return (bool(reading) and reading.get("total") == expected_total,
            (reading.get("merchant") or "").casefold() == truth["merchant"].casefold(), reading.get("date") == truth["date"])


HEIC_RUNS = 5


def heic_figures(binary):
    """The HEIC files of Tests/corpus/heic that are a corpus image saved again by pillow-heif
    (its README), each beside its JPEG twin, run in turn HEIC_RUNS times: read alike (every run
    exact), and the time per image of each, the difference being the HEVC decoding."""
    def truth_of(folder, name):
        return next(t for t in json.load(open(os.path.join(CORPUS, folder, "truth.json"))) if t["file"] == name)

    pairs = [("main-street-restaurant-irot.heic", "receipt", "receipts-real", "main-street-restaurant-palo-alto.jpg",
              lambda answer, truth: all(receipt_checks(answer.get("receipt") or {}, truth))),
             ("qrbill-photo.heic", "slip", "slips", "qrbill-06-photo.jpg", slip_is_exact)]
    figures = {}
    for heic, task, folder, twin, exact in pairs:
        truth = truth_of(folder, twin)
        times = {"heic": [], "jpeg": []}
        right = {"heic": 0, "jpeg": 0}
        for _ in range(HEIC_RUNS):
            for kind, path in [("heic", os.path.join(CORPUS, "heic", heic)), ("jpeg", os.path.join(CORPUS, folder, twin))]:
                answer, elapsed = run(binary, task, path)
                times[kind].append(elapsed)
                right[kind] += bool(exact(answer, truth))
        figures[heic] = {"task": task, "jpeg_twin": f"{folder}/{twin}", "runs": HEIC_RUNS,
                         "heic_bytes": os.path.getsize(os.path.join(CORPUS, "heic", heic)),
                         "jpeg_bytes": os.path.getsize(os.path.join(CORPUS, folder, twin)),
                         "heic_exact": right["heic"], "jpeg_exact": right["jpeg"],
                         "heic_p50_ms": round(statistics.median(times["heic"]) * 1000),
                         "jpeg_p50_ms": round(statistics.median(times["jpeg"]) * 1000)}
    return figures


def receipt_figures(binary, folder):
    """Shares of receipts in Tests/corpus/<folder> read with the right total (in its currency;
    no total where truth.json has none), merchant and date, and the time per image."""
    receipts = json.load(open(os.path.join(CORPUS, folder, "truth.json")))
    times, totals, merchants, dates, misses = [], 0, 0, 0, []
    for truth in receipts:
        answer, elapsed = run(binary, "receipt", os.path.join(CORPUS, folder, truth["file"]))
        times.append(elapsed)
        reading = answer.get("receipt") or {}
        total_ok, merchant_ok, date_ok = receipt_checks(reading, truth)
        totals += total_ok
        merchants += merchant_ok
        dates += date_ok
        if not (total_ok and merchant_ok and date_ok):
            misses.append({"file": truth["file"], "total": reading.get("total"), "merchant": reading.get("merchant"), "date": reading.get("date"),
                           "error": answer.get("error")})
    n = len(receipts)
    return {"images": n, "total_share": round(totals / n, 3), "merchant_share": round(merchants / n, 3), "date_share": round(dates / n, 3),
            "p50_ms": round(statistics.median(times) * 1000), "p99_ms": round(percentile(times, 99) * 1000), "misses": misses}


if __name__ == "__main__":
    try:
        main()
    finally:
        for spare in spares.values():
            spare.process.stdin.close()
            spare.process.wait(timeout=10)
            shutil.rmtree(spare.dir, ignore_errors=True)
