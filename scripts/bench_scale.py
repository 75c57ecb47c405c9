"""Reads at a bank's size (make bench-scale, issue 68's first part): every customer-facing read of
an ordinary customer (Anna) and of the business customer (Brunner Elektro AG) timed on the demo
bank, then again after a million credits were booked to the business account over 24 months,
same machine, same run; and the job that grew it (`tresor clearing import`, ten camt.054 files of
100,000 credits: the same batch booking path as production) with `ledger check`, per item at 10 %
and at 100 % of the data, with peak RSS. On SQLite, and on PostgreSQL when
TRESOR_TEST_POSTGRES_URL names a server. Writes bench/results/scale.json.

With the bank-sized bank of bench_bank.py (100,000 more customers, every batch job at 10 % and
100 %). `--part account` or `--part bank` runs one of the two and keeps the other's figures.

    python3 scripts/bench_scale.py [.build/release/tresor] [--credits 1000000] [--customers 100000] [--part all|account|bank]
"""
import datetime
import json
import os
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_bank  # noqa: E402
from bench_clearing import timed, write_camt054  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARGS = [a for i, a in enumerate(sys.argv[1:], 1) if not a.startswith("--") and not sys.argv[i - 1].startswith("--")]
TRESOR = os.path.abspath(ARGS[0]) if ARGS else os.path.join(ROOT, ".build", "release", "tresor")
CREDITS = int(sys.argv[sys.argv.index("--credits") + 1]) if "--credits" in sys.argv else 1_000_000
CUSTOMERS = int(sys.argv[sys.argv.index("--customers") + 1]) if "--customers" in sys.argv else 100_000
PART = sys.argv[sys.argv.index("--part") + 1] if "--part" in sys.argv else "all"
FILES = 10
PORT = 18790
TARGET = 1.5
TODAY = datetime.date.today()


def call(base, path, token=None, body=None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = "Bearer " + token
    request = urllib.request.Request(base + path, data=json.dumps(body).encode() if body else None, headers=headers,
                                     method="POST" if body else "GET")
    try:
        with urllib.request.urlopen(request, timeout=120) as answer:
            return answer.read()
    except urllib.error.HTTPError as error:
        raise SystemExit(f"{path}: {error.code} {error.read()[:500]!r}")


def paired_p50_ms(sides, path, runs, budget_ms=None):
    """Each side's median of `runs` requests for `path` (or its own, {side: path}), the two sides
    taking turns (so a busy moment of the machine falls on both), after one unmeasured each:
    {side: (p50 ms, bytes)}. With `budget_ms`, fewer runs (3 at least) when the slower side's
    unmeasured request says `runs` of it would take longer."""
    paths = path if isinstance(path, dict) else {side: path for side in sides}
    times = {side: [] for side in sides}
    sizes = {}
    slowest = 0.0
    for side, (base, token) in sides.items():
        started = time.perf_counter()
        call(base, paths[side], token)
        slowest = max(slowest, (time.perf_counter() - started) * 1000)
    if budget_ms:
        runs = max(3, min(runs, int(budget_ms / max(slowest, 0.001))))
    for _ in range(runs):
        for side, (base, token) in sides.items():
            started = time.perf_counter()
            sizes[side] = len(call(base, paths[side], token))
            times[side].append((time.perf_counter() - started) * 1000)
    return {side: (round(statistics.median(times[side]), 2), sizes[side]) for side in sides}


def deepest_cursor(base, token, account, pages):
    """The cursor of page `pages` of the account's transactions, or of its last page: (cursor, depth)."""
    cursor, depth = None, 1
    while depth < pages:
        query = f"&cursor={cursor}" if cursor else ""
        page = json.loads(call(base, f"/v1/accounts/{account}/transactions?limit=50{query}", token))
        if not page["next_cursor"]:
            break
        cursor, depth = page["next_cursor"], depth + 1
    return cursor, depth


def reads(bases, logins):
    """Every read a customer makes, on the customer's CHF current account, on both banks:
    {name: {"demo": (p50 ms, bytes), "grown": (…)}}. `logins`: each side's (contract, password).
    The same periods on both; each side's own account and latest transaction (the same ones
    when the grown bank is the demo bank and more); the deep page is as deep as each goes."""
    sides = {side: (base, json.loads(call(base, "/v1/sessions", body={"contract": logins[side][0], "password": logins[side][1]}))["token"])
             for side, base in bases.items()}
    account, transaction = {}, {}
    for side, (base, token) in sides.items():
        accounts = json.loads(call(base, "/v1/accounts", token))["accounts"]
        account[side] = next(a for a in accounts if a["kind"] == "current" and a["currency"] == "CHF")["id"]
        transaction[side] = json.loads(call(base, f"/v1/accounts/{account[side]}/transactions?limit=1", token))["transactions"][0]["id"]
    month_start = (TODAY.replace(day=1) - datetime.timedelta(days=1)).replace(day=1)
    month_end = TODAY.replace(day=1) - datetime.timedelta(days=1)
    half_year = (TODAY - datetime.timedelta(days=182)).replace(day=1)
    paths = {
        "accounts": "/v1/accounts",
        "transactions_first_page": "/v1/accounts/{account}/transactions?limit=50",
        "transactions_income_of_a_month": f"/v1/accounts/{{account}}/transactions?from={half_year}&to={half_year.replace(day=28)}&type=income",
        "transaction_detail": "/v1/transactions/{transaction}",
        "balance_history_12_months_by_month": "/v1/accounts/{account}/balance-history",
        "balance_history_12_months_by_week": f"/v1/accounts/{{account}}/balance-history?granularity=week&from={TODAY - datetime.timedelta(days=364)}",
        "payments_pending": "/v1/payments?status=pending",
        "payments_processed": "/v1/payments?status=processed",
        "inbox": "/v1/messages",
        "budgets": f"/v1/budgets?month={TODAY:%Y-%m}",
        "receipts": "/v1/receipts",
    }

    def each(path):
        return {side: path.format(account=account[side], transaction=transaction[side]) for side in sides}

    measured = {name: paired_p50_ms(sides, each(path), 30) for name, path in paths.items()}
    deep = {side: deepest_cursor(base, token, account[side], 100) for side, (base, token) in sides.items()}
    measured["transactions_deep_page"] = paired_p50_ms(
        sides, {side: f"/v1/accounts/{account[side]}/transactions?limit=50&cursor={cursor}" for side, (cursor, _) in deep.items()}, 30)
    measured["transactions_deep_page_depth"] = {side: depth for side, (_, depth) in deep.items()}
    for format in ["csv", "camt053", "pdf"]:
        path = f"/v1/accounts/{{account}}/statements?from={month_start}&to={month_end}&format={format}"
        # why a budget: a month of 41,000 lines takes seconds (3 runs); a customer's few, 30.
        measured[f"statement_last_month_{format}"] = paired_p50_ms(sides, each(path), 30, budget_ms=3_000)
    return measured


def serve(db, work, port):
    log = open(os.path.join(work, f"serve-{port}.log"), "ab")
    server = subprocess.Popen([TRESOR, "serve", "--db", db, "--port", str(port), "--scheduler-interval-seconds", "0"], cwd=work,
                              stdout=log, stderr=log, env={**os.environ, "LOG_LEVEL": "warning"})
    base = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            urllib.request.urlopen(base + "/healthz", timeout=1)
            return server, base
        except Exception:
            time.sleep(0.1)
    raise SystemExit("tresor serve did not answer")


def peak_rss_mb(pid):
    return round(int(open(f"/proc/{pid}/status").read().split("VmHWM:")[1].split()[0]) / 1024, 1)


DEMO_LOGINS = {"ordinary": ("10000012", "tresor-demo"), "business": ("10000049", "tresor-demo")}


def measured_reads(demo_db, grown_db, work, logins=None):
    """Both banks served at once, each read taken in turns on the two. `logins`: {who: {side:
    (contract, password)}}; by default Anna and Brunner Elektro AG on both."""
    logins = logins or {who: {"demo": login, "grown": login} for who, login in DEMO_LOGINS.items()}
    servers = {"demo": serve(demo_db, work, PORT), "grown": serve(grown_db, work, PORT + 1)}
    try:
        bases = {side: base for side, (_, base) in servers.items()}
        result = {who: reads(bases, sides) for who, sides in logins.items()}
        result["server_peak_rss_mb"] = {side: peak_rss_mb(server.pid) for side, (server, _) in servers.items()}
    finally:
        for server, _ in servers.values():
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=60)
    return result


def ratios(measured):
    return {who: {name: round(sides["grown"][0] / sides["demo"][0], 2) for name, sides in reads.items() if not name.endswith("_depth")}
            for who, reads in measured.items() if who != "server_peak_rss_mb"}


def query(db, sql):
    if db.startswith("postgres"):
        return subprocess.run(["psql", db, "-Atc", sql], capture_output=True, text=True, check=True).stdout.split()
    return [str(row[0]) for row in sqlite3.connect(db).execute(sql)]


def copied(store, db, work):
    """A second bank identical to the demo bank in `db`, to grow."""
    if store == "postgres":
        grown = db + "_grown"
        subprocess.run(["psql", db.rsplit("/", 1)[0] + "/postgres", "-qc",
                        f"CREATE DATABASE {grown.rsplit('/', 1)[1]} TEMPLATE {db.rsplit('/', 1)[1]}"], check=True)
        return grown
    grown = os.path.join(work, "grown.sqlite")
    with sqlite3.connect(db) as source, sqlite3.connect(grown) as target:
        source.backup(target)
    return grown


def measure(store, db, work):
    subprocess.run([TRESOR, "demo", "--db", db], check=True, capture_output=True)
    grown = copied(store, db, work)
    business_iban = query(grown, "SELECT a.iban FROM accounts a JOIN customers c ON c.id = a.customer_id "
                                 "WHERE c.name = 'Brunner Elektro AG' AND a.kind = 'current' AND a.currency = 'CHF'")[0]
    postings_demo = int(query(db, "SELECT COUNT(*) FROM postings")[0])
    # 24 months of credits, about 1,400 a day to the end of yesterday; each file the next 73 days.
    dates = [str(TODAY - datetime.timedelta(days=d)) for d in range(730, 0, -1)]
    days_per_file = len(dates) // FILES
    jobs = []
    per_file = CREDITS // FILES
    for number in range(FILES):
        path = os.path.join(work, f"camt054-{number}.xml")
        write_camt054(path, per_file, [business_iban], seed=1000 + number,
                      dates=dates[number * days_per_file:(number + 1) * days_per_file], unknown=0)
        seconds, rss, _ = timed([TRESOR, "clearing", "import", "--db", grown, path])
        os.remove(path)
        if number in (0, FILES - 1):
            check_seconds, check_rss, _ = timed([TRESOR, "ledger", "check", "--db", grown])
            postings = int(query(grown, "SELECT COUNT(*) FROM postings")[0])
            jobs.append({"data": f"{(number + 1) * 100 // FILES} %", "postings": postings,
                         "clearing_import": {"items": per_file, "seconds": round(seconds, 2), "items_per_second": round(per_file / seconds),
                                             "peak_rss_mb": round(rss, 1)},
                         "ledger_check": {"items": postings, "seconds": round(check_seconds, 2),
                                          "items_per_second": round(postings / check_seconds), "peak_rss_mb": round(check_rss, 1)}})
        print(f"{store}: file {number + 1}/{FILES} imported in {seconds:.1f} s")
    postings = int(query(grown, "SELECT COUNT(*) FROM postings")[0])
    size = (int(query(grown, "SELECT pg_database_size(current_database())")[0]) - int(query(db, "SELECT pg_database_size(current_database())")[0])
            if store == "postgres" else os.path.getsize(grown) - os.path.getsize(db))
    measured = measured_reads(db, grown, work)
    return {"store": store, "postings_demo": postings_demo, "postings_grown": postings,
            "bytes_per_posting_added": round(size / (postings - postings_demo)), "reads": measured, "ratios": ratios(measured), "jobs": jobs}


def measure_bank(store, work):
    """bench_bank's bank of `--customers` (100,000) at 10 % and 100 %, and the reads on it."""
    demo = bench_bank.database(store, work, f"bank_demo_{os.getpid()}")
    subprocess.run([TRESOR, "demo", "--db", demo], check=True, capture_output=True)
    # The bench's 200 funded accounts, in the demo bank before it is copied and grown.
    ids = json.loads(subprocess.run([TRESOR, "bench", "setup", "--db", demo, "--accounts", "200"], check=True, capture_output=True,
                                    text=True).stdout.strip().splitlines()[-1])
    sizes, grown = {}, None
    try:
        for label, customers in (("10 %", CUSTOMERS // 10), ("100 %", CUSTOMERS)):
            db, made, sizes[label] = bench_bank.grow(store, TRESOR, demo, work, customers, label.split()[0])
            if grown:
                bench_bank.drop(grown)
            grown = db
        booking = bench_bank.throughput(TRESOR, demo, grown, ids)
        seeded = made["retail_contracts"][1] if len(made["retail_contracts"]) > 1 else made["retail_contracts"][0]
        logins = {"ordinary": {"demo": DEMO_LOGINS["ordinary"], "grown": DEMO_LOGINS["ordinary"]},
                  "ordinary_seeded": {"demo": DEMO_LOGINS["ordinary"], "grown": (seeded, "tresor-scale")},
                  "business": {"demo": DEMO_LOGINS["business"], "grown": (made["business_contracts"][0], "tresor-scale")}}
        measured = measured_reads(demo, grown, work, logins)
    finally:
        for db in (demo, grown):
            if db:
                bench_bank.drop(db)
    return {"store": store, "sizes": sizes, "linearity": bench_bank.linearity(sizes["10 %"]["jobs"], sizes["100 %"]["jobs"]),
            "booking_throughput": booking, "reads": measured, "ratios": ratios(measured)}


def misses(result, runs):
    """Every read over the target ratio, every job whose per-item cost grew by more than 1.3x or
    whose peak RSS grew with the data (by half and 50 MB), every booking throughput under 0.8x."""
    bank = result.get("bank", {}).get("runs", [])

    def alike(run, who, name):
        # why: a statement costs its lines; it is held to the target unless the grown bank's file
        # is larger (the business account's month of 41,000 lines against a few).
        sides = run["reads"][who][name]
        return not name.startswith("statement_") or sides["grown"][1] <= TARGET * sides["demo"][1]

    found = [f"{run['store']} {who} {name} {ratio}x" for run in runs for who, reads in run["ratios"].items()
             for name, ratio in reads.items() if ratio > TARGET and alike(run, who, name)]
    found += [f"{run['store']} job {name} {figures['us_per_item_ratio']}x per item"
              for run in bank for name, figures in run["linearity"].items() if figures["us_per_item_ratio"] > 1.3]
    found += [f"{run['store']} job {name} peak RSS {figures['peak_rss_mb'][0]} -> {figures['peak_rss_mb'][1]} MB"
              for run in bank for name, figures in run["linearity"].items()
              if figures["peak_rss_mb"][1] > max(1.5 * figures["peak_rss_mb"][0], figures["peak_rss_mb"][0] + 50)]
    found += [f"{run['store']} booking throughput at {clients.replace('_', ' ')} {figures['ratio']}x"
              for run in bank for clients, figures in run["booking_throughput"].items() if figures["ratio"] < 0.8]
    return found


def write(out, result):
    with open(out, "w") as file:
        json.dump(result, file, indent=1)
        file.write("\n")


def main():
    out = os.path.join(ROOT, "bench", "results", "scale.json")
    result = json.load(open(out)) if os.path.exists(out) else {}
    stores = ["sqlite"] + (["postgres"] if os.environ.get("TRESOR_TEST_POSTGRES_URL") else [])
    with tempfile.TemporaryDirectory() as work:
        if PART in ("account", "all"):
            runs = []
            for store in stores:
                if store == "sqlite":
                    runs.append(measure("sqlite", os.path.join(work, "scale.sqlite"), work))
                else:
                    base = os.environ["TRESOR_TEST_POSTGRES_URL"]
                    name = f"scale_bench_{os.getpid()}"
                    subprocess.run(["psql", base, "-qc", f"CREATE DATABASE {name}"], check=True)
                    runs.append(measure("postgres", base.rsplit("/", 1)[0] + "/" + name, work))
                    for database in (name, name + "_grown"):
                        subprocess.run(["psql", base, "-qc", f"DROP DATABASE {database}"], check=True)
            result.update({
                "what": f"customer reads (p50 of 30 sequential requests; statements of 30, or 3 when a month's file takes seconds) on the demo bank and after {CREDITS:,} "
                        "credits to the business account over 24 months; the clearing import and ledger check at 10 % and 100 %",
                "target_ratio": TARGET, "runs": runs})
        if PART in ("bank", "all"):
            result["bank"] = {
                "what": f"the demo bank grown by `tresor bench seed` to {CUSTOMERS:,} more customers (10 % and 100 %); every job at both "
                        "sizes; booking throughput and customer reads on the 100 % bank against the demo bank",
                "runs": []}
            for store in stores:
                result["bank"]["runs"].append(measure_bank(store, work))
                # why after each store: a run of an hour keeps what it measured if a later part fails.
                write(out, result)
    runs = result.get("runs", []) + result.get("bank", {}).get("runs", [])
    result["misses"] = misses(result, runs)
    write(out, result)
    for run in runs:
        for who, reads in run["ratios"].items():
            print(run["store"], who, " ".join(f"{name}={ratio}" for name, ratio in reads.items()))
    for run in result.get("bank", {}).get("runs", []):
        for name, figures in run["linearity"].items():
            print(run["store"], "job", name, figures)
    print(f"misses: {result['misses'] or 'none'}\nwrote {out}")


if __name__ == "__main__":
    main()
