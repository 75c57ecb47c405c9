"""Statements from the phone: the customer picks an account and a period from More and gets
the PDF, CSV or camt.053 file; a wrong period is explained at the field. The files are fetched
by the page itself (as the download link does), so their bytes can be checked here."""
import csv
import datetime
import io
from decimal import Decimal

from pycamt.parser import Camt053Parser
from selenium.webdriver.common.by import By

from webbase import BASE, BrowserTest, bank_today

FETCH = """
const done = arguments[arguments.length - 1];
fetch(arguments[0]).then(async r => {
  const bytes = new Uint8Array(await r.arrayBuffer());
  done([r.status, r.headers.get('content-type'), r.headers.get('content-disposition'),
        new TextDecoder().decode(bytes.slice(0, 400))]);
});
"""

FETCH_TEXT = """
const done = arguments[arguments.length - 1];
fetch(arguments[0]).then(async r => done([r.status, await r.text()]));
"""


class StatementsTest(BrowserTest):
    def fetch(self, path):
        self.browser.set_script_timeout(20)
        return self.browser.execute_async_script(FETCH, path)

    def test_the_camt053_file_reads_in_a_parser_written_elsewhere(self):
        """pycamt (PyPI), a camt.053 reader written for banks' files, reads Anna's statement of
        the last twelve months as her accounting software would: her account's IBAN, one entry a
        row of the CSV with the same amounts, and the opening balance plus the entries is the
        closing one."""
        self.login()
        self.browser.get(BASE + "/statements")
        account = self.browser.find_element(By.ID, "account").get_attribute("value")
        # why twelve months, not this year: in the first days of January "this year" holds
        # almost no entries, and a run then would fail for the calendar, not the file.
        today = bank_today()
        start = today - datetime.timedelta(days=364)
        query = f"/statements/download?account={account}&from={start.isoformat()}&to={today.isoformat()}"
        self.browser.set_script_timeout(20)
        status, xml = self.browser.execute_async_script(FETCH_TEXT, query + "&format=camt053")
        self.assertEqual(200, status)
        _, text = self.browser.execute_async_script(FETCH_TEXT, query + "&format=csv")
        rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff")), delimiter=";"))[1:]
        parser = Camt053Parser(xml.encode("utf-8"))
        self.assertEqual("camt.053.001.08", parser.version)
        (info,) = parser.get_statement_info()
        self.assertRegex(info["IBAN"], r"^CH\d{19}$")
        self.assertEqual((start.isoformat(), today.isoformat()), (info["OpeningBalanceDate"], info["ClosingBalanceDate"]))
        entries = parser.get_transactions()
        self.assertGreater(len(entries), 10)
        signed = [Decimal(e["Amount"]) * (1 if e["CreditDebitIndicator"] == "CRDT" else -1) for e in entries]
        self.assertEqual(sorted(Decimal(row[5]) for row in rows), sorted(signed))
        self.assertEqual(Decimal(info["ClosingBalance"]), Decimal(info["OpeningBalance"]) + sum(signed))
        self.assertTrue(all(e["Status"] == "BOOK" and e["AccountIBAN"] == info["IBAN"] for e in entries))

    def test_download_a_statement_in_each_format(self):
        """Anna opens Statements from More, takes "this year" and downloads it in the three
        formats; each is the file its name says, for her current account and that period."""
        self.login()
        self.browser.get(BASE + "/more")
        self.click_and_wait("a[href='/statements']", "/statements")
        presets = self.browser.find_elements(By.CSS_SELECTOR, "#presets a")
        self.assertEqual(4, len(presets))
        self.assertEqual("true", presets[0].get_attribute("aria-current"), "last month is chosen first")
        presets[2].click()
        self.wait_until(lambda b: b.find_elements(By.CSS_SELECTOR, "#presets a")[2].get_attribute("aria-current") == "true")
        account = self.browser.find_element(By.ID, "account").get_attribute("value")
        start = self.browser.find_element(By.ID, "from").get_attribute("value")
        end = self.browser.find_element(By.ID, "to").get_attribute("value")
        # why the year of "to", not this machine's: "this year" ends on the bank's today, in
        # Zurich, which is already the next year for the last hour of 31 December in UTC.
        self.assertEqual(f"{end[:4]}-01-01", start)
        self.assertLessEqual(abs((datetime.date.fromisoformat(end) - datetime.date.today()).days), 1, "this year ends today")
        query = f"/statements/download?account={account}&from={start}&to={end}"
        status, kind, disposition, head = self.fetch(query + "&format=pdf")
        self.assertEqual((200, "application/pdf"), (status, kind))
        self.assertTrue(head.startswith("%PDF-"))
        self.assertIn(f"ST-{account}-{start.replace('-', '')}", disposition)
        status, kind, _, head = self.fetch(query + "&format=csv")
        self.assertEqual(200, status)
        self.assertTrue(kind.startswith("text/csv"))
        # Split at semicolons, as a spreadsheet set to a Swiss region splits a CSV file it opens,
        # under a header line in Anna's language; Python's sniffer (what a program guessing the
        # dialect does) finds the same separator.
        self.assertTrue(head.lstrip("\ufeff").startswith("Buchungsdatum;Valuta;Text;Gegenpartei;Referenz;Betrag;Währung;Saldo\r\n"), head[:120])
        _, text = self.browser.execute_async_script(FETCH_TEXT, query + "&format=csv")
        self.assertEqual(";", csv.Sniffer().sniff(text.lstrip("\ufeff"), delimiters=",;\t").delimiter)
        status, kind, _, head = self.fetch(query + "&format=camt053")
        self.assertEqual(200, status)
        self.assertIn("urn:iso:std:iso:20022:tech:xsd:camt.053.001.08", head)
        # The form itself: choosing CSV and submitting asks for exactly that file.
        self.browser.find_element(By.CSS_SELECTOR, "label[for=format-csv]").click()
        self.assertTrue(self.browser.find_element(By.ID, "format-csv").is_selected())

    def test_a_period_the_wrong_way_round_is_explained_at_the_field(self):
        self.login()
        self.browser.get(BASE + "/statements")
        old_page = self.browser.find_element(By.TAG_NAME, "html")
        self.browser.execute_script(
            "document.getElementById('from').value = '2026-10-31'; document.getElementById('to').value = '2026-10-01';")
        self.browser.find_element(By.CSS_SELECTOR, "#statement-form button[type=submit]").click()
        self.wait_until_left(old_page)
        error = self.browser.find_element(By.ID, "statement-error")
        self.assertEqual("alert", error.get_attribute("role"))
        self.assertIn("Startdatum", error.text)
        self.assertEqual("true", self.browser.find_element(By.ID, "from").get_attribute("aria-invalid"))
        self.assertEqual("2026-10-31", self.browser.find_element(By.ID, "from").get_attribute("value"), "what was typed is kept")
