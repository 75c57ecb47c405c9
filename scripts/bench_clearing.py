"""Clearing import speed (make bench): a camt.054.001.08 of 100,000 credits (and one of 10,000, to
show memory does not follow the file) imported by `tresor clearing import` into a demo bank on
SQLite and on PostgreSQL; entries per second and peak RSS (GNU time) of the command, against
the issue's floor of 20,000 entries/s on SQLite. Writes bench/results/clearing.json.

The credits go to the demo customers' CHF accounts, one in ten to IBANs the bank does not hold
(suspense), each with its own entry reference, debtor and message, as a provider's day file.

    python3 scripts/bench_clearing.py [.build/release/tresor]
"""
import json
import os
import random
import re
import sqlite3
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TRESOR = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build", "release", "tresor")
FLOOR = 20_000


def write_camt054(path, count, ibans, seed, dates=("2026-11-23",), unknown=0.1):
    """A camt.054.001.08 of `count` credits, written as it goes (the file is never held whole):
    booked on `dates` in their order, evenly (as a provider's notifications of those days), a
    share `unknown` to an IBAN the bank does not hold."""
    rng = random.Random(seed)
    with open(path, "w", encoding="utf-8") as out:
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.08">'
                  f'<BkToCstmrDbtCdtNtfctn><GrpHdr><MsgId>BENCH-{seed}-{count}</MsgId><CreDtTm>2026-11-23T06:00:00</CreDtTm></GrpHdr>'
                  f'<Ntfctn><Id>BENCH-{seed}</Id><CreDtTm>2026-11-23T06:00:00</CreDtTm><Acct><Id><IBAN>CH9300762011623852957</IBAN></Id></Acct>\n')
        for n in range(count):
            iban = rng.choice(ibans) if rng.random() >= unknown else "CH5604835012345678009"
            amount = f"{rng.randint(100, 500_000) / 100:.2f}"
            day = dates[n * len(dates) // count]
            out.write(
                f'<Ntry><Amt Ccy="CHF">{amount}</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>'
                f'<BookgDt><Dt>{day}</Dt></BookgDt><ValDt><Dt>{day}</Dt></ValDt>'
                f'<AcctSvcrRef>B{seed}-{n}</AcctSvcrRef><BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>RCDT</Cd><SubFmlyCd>DMCT</SubFmlyCd></Fmly></Domn></BkTxCd>'
                f'<NtryDtls><TxDtls><Refs><AcctSvcrRef>B{seed}-{n}</AcctSvcrRef><EndToEndId>E2E-{n}</EndToEndId></Refs>'
                f'<Amt Ccy="CHF">{amount}</Amt><CdtDbtInd>CRDT</CdtDbtInd>'
                f'<RltdPties><Dbtr><Pty><Nm>Payer {n % 977} AG</Nm><PstlAdr><StrtNm>Bahnhofstrasse</StrtNm><BldgNb>{n % 90 + 1}</BldgNb>'
                '<PstCd>8001</PstCd><TwnNm>Zürich</TwnNm><Ctry>CH</Ctry></PstlAdr></Pty></Dbtr>'
                f'<CdtrAcct><Id><IBAN>{iban}</IBAN></Id></CdtrAcct></RltdPties>'
                f'<RmtInf><Ustrd>Invoice {n}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>\n')
        out.write("</Ntfctn></BkToCstmrDbtCdtNtfctn></Document>\n")


def timed(arguments):
    """Runs a command under GNU time: (seconds, peak RSS in MB, output)."""
    started = time.monotonic()
    run = subprocess.run(["/usr/bin/time", "-f", "%M"] + arguments, capture_output=True, text=True)
    seconds = time.monotonic() - started
    if run.returncode != 0:
        raise SystemExit(f"{' '.join(arguments)} failed: {run.stdout[-2000:]} {run.stderr[-2000:]}")
    rss_kb = int(run.stderr.strip().splitlines()[-1])
    return seconds, rss_kb / 1024, run.stdout


def demo_ibans(db):
    """The demo customers' CHF current accounts (SQLite file or PostgreSQL URL)."""
    query = "SELECT iban FROM accounts WHERE customer_id IS NOT NULL AND kind = 'current' AND currency = 'CHF'"
    if db.startswith("postgres"):
        out = subprocess.run(["psql", db, "-Atc", query], capture_output=True, text=True, check=True).stdout
        return out.split()
    return [row[0] for row in sqlite3.connect(db).execute(query)]


def measure(store, db, work, sizes):
    subprocess.run([TRESOR, "demo", "--db", db], check=True, capture_output=True)
    ibans = demo_ibans(db)
    rows = []
    for count in sizes:
        path = os.path.join(work, f"camt054-{store}-{count}.xml")
        write_camt054(path, count, ibans, seed=count)
        seconds, rss, output = timed([TRESOR, "clearing", "import", "--db", db, path])
        booked = int(re.search(r"booked to customers: (\d+)", output).group(1))
        suspense = int(re.search(r"to suspense: (\d+)", output).group(1))
        assert booked + suspense == count, output[:2000]
        check = subprocess.run([TRESOR, "ledger", "check", "--db", db], capture_output=True, text=True)
        rows.append({
            "store": store, "credits": count, "file_mb": round(os.path.getsize(path) / 1e6, 1), "seconds": round(seconds, 2),
            "entries_per_second": round(count / seconds), "peak_rss_mb": round(rss, 1), "booked": booked, "suspense": suspense,
            "ledger_check": check.returncode == 0,
        })
        print(f"clearing import {store}: {count} credits in {seconds:.1f} s = {count / seconds:,.0f}/s, peak RSS {rss:.0f} MB")
        os.remove(path)
    return rows


def main():
    with tempfile.TemporaryDirectory() as work:
        rows = measure("sqlite", os.path.join(work, "bench.sqlite"), work, [10_000, 100_000])
        base = os.environ.get("TRESOR_TEST_POSTGRES_URL")
        if base:
            name = f"clearing_bench_{os.getpid()}"
            subprocess.run(["psql", base, "-qc", f"CREATE DATABASE {name}"], check=True)
            rows += measure("postgres", base.rsplit("/", 1)[0] + "/" + name, work, [10_000, 100_000])
    sqlite_full = next(r for r in rows if r["store"] == "sqlite" and r["credits"] == 100_000)
    result = {
        "what": "tresor clearing import of a camt.054.001.08 (one transaction per file, XSD-validated while streamed)",
        "floor_entries_per_second_sqlite": FLOOR,
        "meets_floor": sqlite_full["entries_per_second"] >= FLOOR,
        "runs": rows,
    }
    out = os.path.join(ROOT, "bench", "results", "clearing.json")
    with open(out, "w") as file:
        json.dump(result, file, indent=1)
        file.write("\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
