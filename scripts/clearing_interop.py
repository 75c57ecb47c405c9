"""Clearing against another implementation of ISO 20022: pyiso20022 (PyPI, MIT) reads the
pain.001 Tresor exports and writes the pain.002 that answers it and a pacs.008 crediting a
customer; Tresor imports both through the staff API, as a bank's operations would.

Checks: the rejected payment is refunded and shown returned with its reason, the accepted one
settled, the customer told; the credit is booked with everything its sender wrote and shows in
the transaction's detail and in the month's camt.053 (validated with xmllint against the ISO
schema); the same file again changes nothing; the books balance.

    python scripts/clearing_interop.py BASE_URL WORK_DIR TRESOR_BINARY
"""
import datetime
import decimal
import json
import os
import re
import subprocess
import sys
import urllib.error
import urllib.request
import uuid

from xsdata.formats.dataclass.parsers import XmlParser
from xsdata.formats.dataclass.serializers import XmlSerializer
from xsdata.formats.dataclass.serializers.config import SerializerConfig
from xsdata.models.datatype import XmlDate, XmlDateTime

import pyiso20022.pacs.pacs_008_001_08 as pacs008
import pyiso20022.pain.pain_001_001_09 as pain001
import pyiso20022.pain.pain_002_001_10 as pain002
from bank_day import bank_today

BASE, WORK, TRESOR = sys.argv[1], sys.argv[2], sys.argv[3]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def call(method, path, body=None, token=None, raw=None, content_type="application/json"):
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    request = urllib.request.Request(BASE + path, method=method, data=data)
    request.add_header("Content-Type", content_type)
    if token:
        request.add_header("Authorization", "Bearer " + token)
    if method == "POST" and path in ("/v1/payments",):
        request.add_header("Idempotency-Key", str(uuid.uuid4()))
    try:
        with urllib.request.urlopen(request) as reply:
            text = reply.read()
            return reply.status, (json.loads(text) if reply.headers.get_content_type() == "application/json" else text)
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def check(condition, what):
    if not condition:
        print("clearing interop: FAILED:", what)
        sys.exit(1)


def tan(contract, position):
    text = open(os.path.join(WORK, "tresor-demo-tans.txt")).read()
    block = text.split(contract, 1)[1].split("\n\n", 1)[0]
    return re.search(rf"(?<!\d){position}: (\d{{6}})", block).group(1)


def serialize(document):
    return XmlSerializer(config=SerializerConfig(indent="  ")).render(document).encode()


def main():
    _, session = call("POST", "/v1/sessions", {"contract": "10000012", "password": "tresor-demo"})
    anna = session["token"]
    _, accounts = call("GET", "/v1/accounts", token=anna)
    current = next(a for a in accounts["accounts"] if a["kind"] == "current" and a["currency"] == "CHF")
    start_balance = current["booked"]["amount"]

    # Two payments to another bank, executed today: they leave in today's pain.001.
    paid = []
    for amount, iban in (("12.00", "DE89370400440532013000"), ("34.50", "FR7630006000011234567890189")):
        status, answer = call("POST", "/v1/payments", {
            "type": "iban", "debtor_account": current["id"], "amount": {"amount": amount, "currency": "CHF"},
            "creditor": {"name": "Lieferant GmbH", "iban": iban, "street": "Hauptstrasse", "building_number": "1",
                         "postal_code": "10115", "town": "Berlin", "country": "DE"}, "message": "Rechnung 99"}, token=anna)
        check(status == 201, f"payment created: {status} {answer}")
        payment = answer["payment"]
        if payment["status"] == "needs_signature":
            status, answer = call("POST", f"/v1/payments/{payment['id']}/signature",
                                  {"code": tan("10000012", payment["signature"]["position"])}, token=anna)
            payment = answer["payment"]
        check(payment["status"] == "executed", f"payment executed: {payment}")
        paid.append(payment)

    today = bank_today().isoformat()
    export = os.path.join(WORK, "pain001.xml")
    subprocess.run([TRESOR, "export", "pain001", "--banks", os.path.join(WORK, "banks"), "--bank", "tresor",
                    "--date", today, "--out", export], check=True, stdout=subprocess.DEVNULL)
    # pyiso20022 reads Tresor's pain.001 ...
    initiation = XmlParser().from_bytes(open(export, "rb").read(), pain001.Document)
    message_id = initiation.cstmr_cdt_trf_initn.grp_hdr.msg_id
    ends = [tx.pmt_id.end_to_end_id for block in initiation.cstmr_cdt_trf_initn.pmt_inf for tx in block.cdt_trf_tx_inf]
    check(len(ends) == 2, f"both payments exported: {ends}")

    # ... and writes the provider's answer: the first accepted, the second rejected (AM04).
    now = XmlDateTime.from_string(datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S"))
    report = pain002.Document(cstmr_pmt_sts_rpt=pain002.CustomerPaymentStatusReportV10(
        grp_hdr=pain002.GroupHeader86(msg_id=f"PSR-{uuid.uuid4().hex[:12]}", cre_dt_tm=now),
        orgnl_grp_inf_and_sts=pain002.OriginalGroupHeader17(
            orgnl_msg_id=message_id, orgnl_msg_nm_id="pain.001.001.09", grp_sts="PART"),
        orgnl_pmt_inf_and_sts=[pain002.OriginalPaymentInstruction32(
            orgnl_pmt_inf_id=f"{message_id}-1",
            tx_inf_and_sts=[
                pain002.PaymentTransaction105(orgnl_end_to_end_id=ends[0], tx_sts="ACCP"),
                pain002.PaymentTransaction105(
                    orgnl_end_to_end_id=ends[1], tx_sts="RJCT",
                    sts_rsn_inf=[pain002.StatusReasonInformation12(rsn=pain002.StatusReason6Choice(cd="AM04"))]),
            ])]))
    status_file = serialize(report)
    open(os.path.join(WORK, "pain002.xml"), "wb").write(status_file)
    lint = subprocess.run(["xmllint", "--noout", "--nonet", "--schema",
                           os.path.join(ROOT, "Sources/TresorCore/Clearing/Schemas/pain.002.001.10.xsd"), os.path.join(WORK, "pain002.xml")],
                          capture_output=True, text=True)
    check(lint.returncode == 0, f"pyiso20022's pain.002 follows its schema: {lint.stderr}")

    _, staff_session = call("POST", "/v1/staff/sessions", {"name": "interop", "password": "interop-password"})
    staff = staff_session["token"]
    status, answer = call("POST", "/v1/staff/clearing/files?name=pain002.xml", token=staff, raw=status_file, content_type="application/xml")
    check(status == 201, f"status report imported: {status} {answer}")
    imported = answer["import"]
    rejected = paid[1]["id"]
    check(imported["settled"] == 1 and imported["returned"] == [rejected], f"one settled, one returned: {imported}")
    _, payment = call("GET", f"/v1/payments/{rejected}", token=anna)
    check(payment["payment"]["status"] == "returned" and payment["payment"].get("reason") == "AM04", f"returned with its reason: {payment}")
    _, accounts = call("GET", "/v1/accounts", token=anna)
    balance = next(a for a in accounts["accounts"] if a["id"] == current["id"])["booked"]["amount"]
    check(decimal.Decimal(balance) == decimal.Decimal(start_balance) - decimal.Decimal("12.00"), f"34.50 refunded: {start_balance} -> {balance}")
    _, messages = call("GET", "/v1/messages", token=anna)
    check(any("AM04" not in m["body"] and "Deckung fehlt" in m["body"] for m in messages["messages"]), "told why, in German")
    status, again = call("POST", "/v1/staff/clearing/files?name=pain002.xml", token=staff, raw=status_file, content_type="application/xml")
    check(status == 200 and again["import"]["already_imported"], f"the same file again changes nothing: {again}")

    # pyiso20022 writes a pacs.008 crediting Anna from a German company, with a creditor reference.
    uetr = str(uuid.uuid4())
    transfer = pacs008.Document(fito_ficstmr_cdt_trf=pacs008.FitoFicustomerCreditTransferV08(
        grp_hdr=pacs008.GroupHeader93(
            msg_id=f"P8-{uuid.uuid4().hex[:12]}", cre_dt_tm=now, nb_of_txs="1",
            sttlm_inf=pacs008.SettlementInstruction7(sttlm_mtd=pacs008.SettlementMethod1Code.CLRG)),
        cdt_trf_tx_inf=[pacs008.CreditTransferTransaction39(
            pmt_id=pacs008.PaymentIdentification7(end_to_end_id="INV-2026-4711", tx_id="TX-4711", uetr=uetr),
            intr_bk_sttlm_amt=pacs008.ActiveCurrencyAndAmount(value=decimal.Decimal("4250.00"), ccy="CHF"),
            intr_bk_sttlm_dt=XmlDate.from_string(today),
            chrg_br=pacs008.ChargeBearerType1Code.SLEV,
            dbtr=pacs008.PartyIdentification135(nm="Muster AG", pstl_adr=pacs008.PostalAddress24(
                strt_nm="Friedrichstrasse", bldg_nb="10", pst_cd="10117", twn_nm="Berlin", ctry="DE")),
            dbtr_acct=pacs008.CashAccount38(id=pacs008.AccountIdentification4Choice(iban="DE89370400440532013000")),
            dbtr_agt=pacs008.BranchAndFinancialInstitutionIdentification6(fin_instn_id=pacs008.FinancialInstitutionIdentification18(bicfi="COBADEFFXXX")),
            cdtr_agt=pacs008.BranchAndFinancialInstitutionIdentification6(fin_instn_id=pacs008.FinancialInstitutionIdentification18(bicfi="POFICHBEXXX")),
            cdtr=pacs008.PartyIdentification135(nm="Anna Meier"),
            cdtr_acct=pacs008.CashAccount38(id=pacs008.AccountIdentification4Choice(iban=current["iban"])),
            rmt_inf=pacs008.RemittanceInformation16(strd=[pacs008.StructuredRemittanceInformation16(
                cdtr_ref_inf=pacs008.CreditorReferenceInformation2(
                    tp=pacs008.CreditorReferenceType2(cd_or_prtry=pacs008.CreditorReferenceType1Choice(cd=pacs008.DocumentType3Code.SCOR)),
                    ref="RF18539007547034"))]),
        )]))
    credit_file = serialize(transfer)
    status, answer = call("POST", "/v1/staff/clearing/files?name=pacs008.xml", token=staff, raw=credit_file, content_type="application/xml")
    check(status == 201 and answer["import"]["booked"] == 1, f"the credit booked: {status} {answer}")
    _, page = call("GET", f"/v1/accounts/{current['id']}/transactions", token=anna)
    newest = page["transactions"][0]
    check(newest["counterparty"] == "Muster AG" and newest["amount"]["amount"] == "4250.00", f"in the list: {newest}")
    _, detail = call("GET", f"/v1/transactions/{newest['id']}", token=anna)
    credit = detail["transaction"]["credit"]
    check(credit["reference"] == {"kind": "SCOR", "value": "RF18539007547034", "valid": True}, f"its reference: {credit}")
    check(credit["uetr"] == uetr and credit["debtor"]["iban"] == "DE89370400440532013000" and "Berlin" in credit["debtor"]["address"],
          f"what the sender wrote: {credit}")
    month = bank_today().replace(day=1).isoformat()
    status, statement = call("GET", f"/v1/accounts/{current['id']}/statements?from={month}&to={today}&format=camt053", token=anna)
    check(status == 200 and b"RF18539007547034" in statement and b"Muster AG" in statement, "the month's camt.053 shows it")
    open(os.path.join(WORK, "camt053.xml"), "wb").write(statement)
    lint = subprocess.run(["xmllint", "--noout", "--nonet", "--schema", os.path.join(ROOT, "Tests/standards/camt.053.001.08.xsd"),
                           os.path.join(WORK, "camt053.xml")], capture_output=True, text=True)
    check(lint.returncode == 0, f"the camt.053 follows its schema: {lint.stderr}")
    print(f"clearing interop: pyiso20022's pain.002 settled 1 and returned 1 of Tresor's pain.001 ({message_id}); "
          f"its pacs.008 booked CHF 4250.00 with reference and UETR; camt.053 valid")


main()
