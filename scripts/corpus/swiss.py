"""Check digits and payloads of Swiss payment slips, mirroring TresorDomain, so the corpus is
built from known truth: IBAN mod 97, QR reference mod 10 recursive, creditor reference ISO 11649."""

MOD10_TABLE = [0, 9, 4, 6, 8, 2, 7, 1, 3, 5]


def mod10_recursive(digits: str) -> int:
    carry = 0
    for d in digits:
        carry = MOD10_TABLE[(carry + int(d)) % 10]
    return (10 - carry) % 10


def _mod97(text: str) -> int:
    converted = "".join(str(int(c, 36)) for c in text)
    return int(converted) % 97


def iban(country: str, bban: str) -> str:
    check = 98 - _mod97(bban + country + "00")
    return f"{country}{check:02d}{bban}"


def qr_iban(iid: int, account: str) -> str:
    return iban("CH", f"{iid:05d}{account:0>12}")


def qr_reference(body: str) -> str:
    body = body.rjust(26, "0")
    return body + str(mod10_recursive(body))


def creditor_reference(body: str) -> str:
    check = 98 - _mod97(body + "RF00")
    return f"RF{check:02d}{body}"


def qrbill_payload(account, creditor, amount, currency, debtor, ref_type, reference, message):
    """Swiss Payments Code 0200, structured addresses (S), as the QR code carries it."""
    def address(a):
        if a is None:
            return [""] * 7
        return ["S", a["name"], a["street"], a["number"], a["postal_code"], a["town"], a["country"]]
    lines = ["SPC", "0200", "1", account, *address(creditor), *[""] * 7,
             amount or "", currency, *address(debtor), ref_type, reference or "", message or "", "EPD"]
    return "\r\n".join(lines)


def code_line(document_type: str, amount_minor, reference: str, participant: str) -> str:
    head = document_type
    if amount_minor is not None:
        head += f"{amount_minor:010d}"
    head += str(mod10_recursive(head))
    return f"{head}>{reference}+ {participant}>"


def participant(prefix: str, number: int) -> str:
    body = f"{prefix}{number:06d}"
    return body + str(mod10_recursive(body))
