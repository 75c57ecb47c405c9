"""The bank-sized bank (make bench-scale, issue 68): `tresor bench seed` grows a copy of the demo
bank by 100,000 customers (~250,000 accounts, 24 months of salaries, rent and everyday bookings,
two business accounts credited a million times each, 100,000 payments due on the last business
day) through the ledger's batch path, at 10 % and at 100 %. At both sizes each batch job is
timed with its peak RSS: the seed itself, `payments run-due`, the pain.001 export of the due
day, the monthly statement run for every account, `ledger check`, backup and restore. On the
100 % bank the customer reads are taken against the demo bank's, in turns, and so is the
ledger's booking throughput (`tresor bench ledger` on the same 200 accounts of both).

Imported by bench_scale.py; `python3 scripts/bench_scale.py TRESOR --part bank` runs this part
alone (`--customers N` for another size).
"""
import datetime
import os
import re
import shutil
import sqlite3
import subprocess

from bench_clearing import timed

FULL = 100_000
BUSINESS_BOOKINGS = 1_000_000


def size_of(db):
    if db.startswith("postgres"):
        return int(query(db, "SELECT pg_database_size(current_database())")[0])
    return os.path.getsize(db) + (os.path.getsize(db + "-wal") if os.path.exists(db + "-wal") else 0)


def query(db, sql):
    if db.startswith("postgres"):
        return subprocess.run(["psql", db, "-Atc", sql], capture_output=True, text=True, check=True).stdout.split()
    return [str(row[0]) for row in sqlite3.connect(db).execute(sql)]


def database(store, work, name, template=None):
    """A new database named `name` (a copy of `template` when given): its SQLite path or URL."""
    if store == "postgres":
        base = os.environ["TRESOR_TEST_POSTGRES_URL"]
        copy = f" TEMPLATE {template.rsplit('/', 1)[1]}" if template else ""
        subprocess.run(["psql", base, "-qc", f"CREATE DATABASE {name}{copy}"], check=True)
        return base.rsplit("/", 1)[0] + "/" + name
    path = os.path.join(work, name + ".sqlite")
    if template:
        with sqlite3.connect(template) as source, sqlite3.connect(path) as target:
            source.backup(target)
    return path


def drop(db):
    if db.startswith("postgres"):
        base = os.environ["TRESOR_TEST_POSTGRES_URL"]
        subprocess.run(["psql", base, "-qc", f"DROP DATABASE IF EXISTS {db.rsplit('/', 1)[1]}"], check=True)
    else:
        for path in (db, db + "-wal", db + "-shm"):
            if os.path.exists(path):
                os.remove(path)


def job(tresor_or_command, arguments, items, unit):
    command = [tresor_or_command] + arguments if isinstance(tresor_or_command, str) else tresor_or_command + arguments
    seconds, rss, output = timed(command)
    print(f"  {' '.join(command[1:3])}: {seconds:.1f} s, {rss:.0f} MB", flush=True)
    return {"items": items, "unit": unit, "seconds": round(seconds, 2), "items_per_second": round(items / seconds) if seconds else None,
            "us_per_item": round(seconds * 1e6 / items, 1) if items else None, "peak_rss_mb": round(rss, 1)}, output


def settle(db, vacuum=False):
    """PostgreSQL: the bulk load vacuumed and analysed (as an operator does after one), and a
    checkpoint before each job, so a job does not pay for writing out the dirty pages of the one
    before it (run-due on 20,000 due: 142.8 s without, 84.1 s with; 2,000 due: 8.9 / 10.2 s)."""
    if db.startswith("postgres"):
        if vacuum:
            subprocess.run(["psql", db, "-qc", "VACUUM ANALYZE"], check=True)
        subprocess.run(["psql", db, "-qc", "CHECKPOINT"], check=True)


def backup_restore(store, tresor, db, work, postings):
    """The store's own backup and restore of the whole bank: `tresor backup` / `tresor restore`
    (SQLite's online backup), or pg_dump / pg_restore of the database (PostgreSQL)."""
    if store == "postgres":
        dump = os.path.join(work, "bank.dump")
        backup, _ = job(["pg_dump", "-Fc", "-Z", "1", "-f", dump], [db], postings, "postings")
        restored = database(store, work, db.rsplit("/", 1)[1] + "_restored")
        restore, _ = job(["pg_restore", "-j", "2", "-d", restored], [dump], postings, "postings")
        os.remove(dump)
        drop(restored)
        return {"backup (pg_dump -Fc)": backup, "restore (pg_restore -j 2)": restore}
    copy = os.path.join(work, "bank-backup.sqlite")
    backup, _ = job(tresor, ["backup", "--db", db, "--to", copy], postings, "postings")
    restored = os.path.join(work, "bank-restored.sqlite")
    restore, _ = job(tresor, ["restore", "--db", restored, "--from", copy], postings, "postings")
    for path in (copy, restored, restored + "-wal", restored + "-shm"):
        if os.path.exists(path):
            os.remove(path)
    return {"backup (tresor backup)": backup, "restore (tresor restore)": restore}


def grow(store, tresor, template, work, customers, label):
    """A copy of `template` (the demo bank) grown by `customers` (and business credits, due
    payments in proportion), then every job on it: (database, made, {job: figures})."""
    name = f"bank_{label}_{os.getpid()}"
    db = database(store, work, name, template=template)
    postings_before, size_before = int(query(db, "SELECT COUNT(*) FROM postings")[0]), size_of(db)
    share = customers / FULL
    seeded, output = job(tresor, ["bench", "seed", "--db", db, "--customers", str(customers), "--business-bookings",
                                  str(round(BUSINESS_BOOKINGS * share)), "--due-payments", str(customers - 2)], 0, "transactions")
    made = __import__("json").loads(output.strip().splitlines()[-1])
    postings = int(query(db, "SELECT COUNT(*) FROM postings")[0])
    seeded.update(items=made["transactions"], items_per_second=round(made["transactions"] / seeded["seconds"]),
                  us_per_item=round(seeded["seconds"] * 1e6 / made["transactions"], 1))
    jobs = {"seed": seeded}
    print(f"{store} {label}: seeded {made['customers']:,} customers, {postings - postings_before:,} postings in {seeded['seconds']} s", flush=True)
    due = made["due_payments"]
    settle(db, vacuum=True)
    jobs["payments_run_due"], output = job(tresor, ["payments", "run-due", "--db", db], due, "payments")
    assert f"Executed {due}," in output, output
    settle(db)
    jobs["pain001_export"], output = job(tresor, ["export", "pain001", "--db", db, "--date", made["due_date"], "--out",
                                                  os.path.join(work, "pain001.xml")], due, "payments")
    assert f"Wrote {due} payment" in output, output
    jobs["pain001_export"]["file_mb"] = round(os.path.getsize(os.path.join(work, "pain001.xml")) / 1e6, 1)
    os.remove(os.path.join(work, "pain001.xml"))
    # The clearing's answer to that export: every payment accepted by the group status, each
    # marked settled, read a page of the export at a time.
    message = re.search(r"message (\S+)\)", output).group(1)
    status_file = os.path.join(work, "pain002.xml")
    with open(status_file, "w") as out:
        out.write(pain002_accepted(message))
    settle(db)
    jobs["pain002_import"], output = job(tresor, ["clearing", "import", "--db", db, status_file], due, "payments")
    assert f"payments settled: {due}" in output, output
    os.remove(status_file)
    today = datetime.date.today()
    last_month = (today.replace(day=1) - datetime.timedelta(days=1)).strftime("%Y-%m")
    accounts = int(query(db, "SELECT COUNT(*) FROM accounts WHERE customer_id IS NOT NULL")[0])
    folder = os.path.join(work, "statements")
    settle(db)
    jobs["statement_run_monthly"], output = job(tresor, ["statements", "run-monthly", "--db", db, "--month", last_month, "--out", folder],
                                                accounts, "accounts")
    jobs["statement_run_monthly"]["output"] = output.strip()
    shutil.rmtree(folder, ignore_errors=True)
    postings = int(query(db, "SELECT COUNT(*) FROM postings")[0])
    settle(db)
    jobs["ledger_check"], output = job(tresor, ["ledger", "check", "--db", db], postings, "postings")
    assert "Ledger check passed" in output, output
    settle(db)
    jobs.update(backup_restore(store, tresor, db, work, postings))
    summary = {"customers_added": made["customers"], "accounts_added": made["accounts"], "transactions_added": made["transactions"],
               "postings": postings, "postings_added": postings - postings_before,
               "bytes_per_posting_added": round((size_of(db) - size_before) / (postings - postings_before)),
               "refused": made["refused"], "due_payments": due}
    return db, made, {"bank": summary, "jobs": jobs}


def pain002_accepted(message_id):
    """A pain.002.001.10 accepting the whole export `message_id` by its group status."""
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.002.001.10"><CstmrPmtStsRpt>'
            f'<GrpHdr><MsgId>STS-{message_id[-20:]}</MsgId><CreDtTm>2026-12-01T07:00:00</CreDtTm></GrpHdr>'
            f'<OrgnlGrpInfAndSts><OrgnlMsgId>{message_id}</OrgnlMsgId><OrgnlMsgNmId>pain.001.001.09</OrgnlMsgNmId>'
            '<GrpSts>ACCP</GrpSts></OrgnlGrpInfAndSts></CstmrPmtStsRpt></Document>\n')


def throughput(tresor, small, big, ids, rounds=3, seconds=5):
    """`tresor bench ledger` (make bench's figure a) on the same 200 accounts of the demo bank
    and of the bank-sized one, taken in turns `rounds` times at 1 and 16 clients: each side's
    median transfers per second and the ratio. why in turns: one 5 s run moves by a tenth
    between runs minutes apart on this machine (bench.py's `alternated`)."""
    span = ["--first-account", str(ids["first_account"]), "--last-account", str(ids["last_account"]), "--seconds", str(seconds)]
    result = {}
    for clients in (1, 16):
        figures = {"demo": [], "bank-sized": []}
        for _ in range(rounds):
            for side, db in (("demo", small), ("bank-sized", big)):
                out = subprocess.run([tresor, "bench", "ledger", "--db", db, "--clients", str(clients)] + span,
                                     capture_output=True, text=True, check=True).stdout
                figures[side].append(__import__("json").loads(out.strip().splitlines()[-1])["tps"])
        medians = {side: sorted(values)[len(values) // 2] for side, values in figures.items()}
        result[f"{clients}_clients"] = {"tps": medians, "rounds_tps": figures, "ratio": round(medians["bank-sized"] / medians["demo"], 2)}
    return result


def linearity(small, full):
    """Per-item cost at 100 % against 10 %, and peak RSS, for each job."""
    return {name: {"us_per_item_ratio": round(full[name]["us_per_item"] / small[name]["us_per_item"], 2),
                   "peak_rss_mb": [small[name]["peak_rss_mb"], full[name]["peak_rss_mb"]]}
            for name in full if small[name].get("us_per_item") and full[name].get("us_per_item")}
