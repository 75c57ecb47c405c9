"""Generates the scan corpus under Tests/corpus from known truth: QR-bills and orange/red slips
(clean, rotated, blurred, noisy, on an A4 page, photographed on a table) and till receipts in
German, French, Italian and English. Deterministic: the same seed gives the same files.

    .build/corpus-venv/bin/python scripts/corpus/generate.py Tests/corpus
"""
import json
import math
import os
import random
import sys

import segno
from PIL import Image, ImageDraw, ImageFilter, ImageFont

sys.path.insert(0, os.path.dirname(__file__))
import swiss  # noqa: E402
from receipts import RECEIPT_SPECS, render_receipt  # noqa: E402

FONTS = "/usr/share/fonts/truetype/dejavu/"


def font(name, size):
    return ImageFont.truetype(FONTS + name, size)


CREDITORS = [
    {"name": "Robert Schneider AG", "street": "Rue du Lac", "number": "1268", "postal_code": "2501", "town": "Biel", "country": "CH"},
    {"name": "Stadtwerke Zürich", "street": "Tramstrasse", "number": "35", "postal_code": "8050", "town": "Zürich", "country": "CH"},
    {"name": "Société Électrique", "street": "Avenue de la Gare", "number": "12", "postal_code": "1003", "town": "Lausanne", "country": "CH"},
    {"name": "Assicurazioni Ticino SA", "street": "Via Nassa", "number": "5", "postal_code": "6900", "town": "Lugano", "country": "CH"},
    {"name": "Krankenkasse Helvetia", "street": "Bahnhofplatz", "number": "7", "postal_code": "3011", "town": "Bern", "country": "CH"},
]
DEBTOR = {"name": "Anna Muster", "street": "Seeweg", "number": "4", "postal_code": "8001", "town": "Zürich", "country": "CH"}


def qr_image(payload, size):
    # why: level M plus the Swiss cross over the centre alignment pattern is too much for zbar
    # on these renderings; Q keeps the corpus about the photo, not about a marginal symbol.
    qr = segno.make(payload, error="q", encoding="utf-8", boost_error=False)
    scale = max(1, size // (qr.symbol_size(border=0)[0]))
    import io
    buffer = io.BytesIO()
    qr.save(buffer, kind="png", scale=scale, border=0)
    buffer.seek(0)
    image = Image.open(buffer).convert("RGB").resize((size, size), Image.NEAREST)
    # The Swiss cross in the middle, 7 mm of 46 mm.
    draw = ImageDraw.Draw(image)
    c, s = size // 2, size * 7 // 46 // 2
    draw.rectangle([c - s, c - s, c + s, c + s], fill="white")
    draw.rectangle([c - s + 2, c - s + 2, c + s - 2, c + s - 2], fill="black")
    arm, bar = s // 3, s * 2 // 3
    draw.rectangle([c - arm // 2, c - bar, c + arm // 2, c + bar], fill="white")
    draw.rectangle([c - bar, c - arm // 2, c + bar, c + arm // 2], fill="white")
    return image


def payment_part(truth, payload):
    """The payment part of a QR-bill (148 x 105 mm at ~8 px/mm)."""
    image = Image.new("RGB", (1240, 880), "white")
    draw = ImageDraw.Draw(image)
    draw.line([(410, 0), (410, 880)], fill="black", width=1)
    draw.text((20, 20), "Empfangsschein", font=font("DejaVuSans-Bold.ttf", 28), fill="black")
    draw.text((440, 20), "Zahlteil", font=font("DejaVuSans-Bold.ttf", 28), fill="black")
    image.paste(qr_image(payload, 380), (440, 100))
    text = font("DejaVuSans.ttf", 20)
    y = 20
    for title, value in [("Konto / Zahlbar an", truth["iban_printed"]), ("", truth["creditor"]), ("Referenz", truth.get("reference") or ""),
                         ("Zahlbar durch", DEBTOR["name"])]:
        if title:
            draw.text((850, y), title, font=font("DejaVuSans-Bold.ttf", 18), fill="black")
            y += 28
        draw.text((850, y), value, font=text, fill="black")
        y += 40
    draw.text((440, 520), "Währung   Betrag", font=font("DejaVuSans-Bold.ttf", 18), fill="black")
    draw.text((440, 550), f"{truth['currency']}        {truth['amount'] or ''}", font=text, fill="black")
    return image


def a4_page(part):
    page = Image.new("RGB", (1240, 1754), "white")
    draw = ImageDraw.Draw(page)
    draw.text((100, 100), "Rechnung Nr. 2026-118", font=font("DejaVuSans-Bold.ttf", 40), fill="black")
    for i, line in enumerate(["Sehr geehrte Frau Muster", "Wir danken für Ihren Auftrag und erlauben uns,",
                              "folgende Leistungen in Rechnung zu stellen.", "Zahlbar innert 30 Tagen netto."]):
        draw.text((100, 220 + i * 40), line, font=font("DejaVuSans.ttf", 26), fill="black")
    page.paste(part, (0, 1754 - 880))
    for x in range(0, 1240, 20):
        draw.line([(x, 1754 - 882), (x + 10, 1754 - 882)], fill="black")
    return page


def orange_slip(truth, code):
    image = Image.new("RGB", (1260, 640), (255, 214, 160))
    draw = ImageDraw.Draw(image)
    draw.text((30, 20), "Empfangsschein", font=font("DejaVuSans-Bold.ttf", 24), fill="black")
    draw.text((440, 20), "Einzahlung Giro", font=font("DejaVuSans-Bold.ttf", 24), fill="black")
    draw.text((30, 80), truth["creditor"], font=font("DejaVuSans.ttf", 22), fill="black")
    draw.text((30, 260), "Konto " + truth["participant_printed"], font=font("DejaVuSans.ttf", 22), fill="black")
    if truth["amount"]:
        draw.text((30, 320), truth["amount"].replace(".", "  "), font=font("DejaVuSansMono.ttf", 30), fill="black")
    # The code line sits on a white band at the bottom right, as the OCR-B line does.
    band = font("DejaVuSansMono.ttf", 30)
    width = draw.textlength(code, font=band)
    draw.rectangle([1260 - width - 60, 540, 1260, 640], fill="white")
    draw.text((1260 - width - 30, 570), code, font=band, fill="black")
    return image


def on_table(image, rng):
    """A photo of the document on a table: a margin of wood colour, light falling off, a slight turn."""
    w, h = image.size
    canvas = Image.new("RGB", (int(w * 1.3), int(h * 1.3)), (150, 110, 70))
    canvas.paste(image, (int(w * 0.15), int(h * 0.15)))
    canvas = canvas.rotate(rng.uniform(-6, 6), resample=Image.BICUBIC, fillcolor=(150, 110, 70))
    shade = Image.linear_gradient("L").resize(canvas.size).rotate(rng.choice([0, 90, 180, 270]))
    dark = Image.new("RGB", canvas.size, (60, 50, 40))
    return Image.composite(dark, canvas, shade.point(lambda v: int(v * 0.35)))


def distort(image, variant, rng):
    if variant == "rotated":
        return image.rotate(rng.choice([-12, -8, -5, 5, 8, 12]), resample=Image.BICUBIC, expand=True, fillcolor="white")
    if variant == "upside_down":
        return image.rotate(180)
    if variant == "quarter_turn":
        return image.rotate(90, expand=True)
    if variant == "blurred":
        return image.filter(ImageFilter.GaussianBlur(1.6))
    if variant == "noisy":
        noise = Image.effect_noise(image.size, 40).convert("RGB")
        return Image.blend(image, noise, 0.25)
    if variant == "skewed":
        w, h = image.size
        return image.transform((w + h // 8, h), Image.AFFINE, (1, 0.12, -h // 16, 0, 1, 0), resample=Image.BICUBIC, fillcolor="white")
    if variant == "photo":
        return on_table(image, rng)
    return image


SLIP_VARIANTS = ["clean", "rotated", "blurred", "noisy", "skewed", "a4", "photo", "upside_down", "quarter_turn"]


def qr_truths(rng, count):
    for i in range(count):
        creditor = CREDITORS[i % len(CREDITORS)]
        kind = ["QRR", "SCOR", "NON"][i % 3]
        amount = None if i % 7 == 6 else f"{rng.randint(5, 250000) / 100:.2f}"
        currency = "EUR" if i % 5 == 4 else "CHF"
        if kind == "QRR":
            account = swiss.qr_iban(30000 + i, f"{rng.randint(0, 10**9)}")
            reference = swiss.qr_reference(str(rng.randint(10**10, 10**15)))
        else:
            account = swiss.iban("CH", f"{rng.randint(0, 9999):05d}" + f"{rng.randint(0, 10**9):012d}")
            reference = swiss.creditor_reference(f"{rng.randint(10**5, 10**12)}") if kind == "SCOR" else None
        message = ["Rechnung 2026-118", "Facture 4411", "Fattura 77", "", "Prämie Dezember"][i % 5]
        payload = swiss.qrbill_payload(account, creditor, amount, currency, DEBTOR, kind, reference, message)
        printed = " ".join(account[j:j + 4] for j in range(0, len(account), 4))
        yield payload, {"source": "qrbill", "iban": account, "iban_printed": printed, "creditor": creditor["name"], "amount": amount,
                        "currency": currency, "reference": reference, "message": message or None}


def slip_truths(rng, count):
    for i in range(count):
        participant = swiss.participant(["01", "30"][i % 2], rng.randint(1, 99999))
        if i % 4 == 3:
            code = participant + ">"
            yield code, {"source": "codeline", "kind": "es", "participant": participant, "amount": None, "currency": "CHF", "reference": None,
                         "participant_printed": participant, "creditor": CREDITORS[i % 5]["name"]}
            continue
        with_amount = i % 3 != 2
        minor = rng.randint(100, 900000) if with_amount else None
        reference = swiss.qr_reference(str(rng.randint(10**8, 10**20)))
        code = swiss.code_line("01" if with_amount else "04", minor, reference, participant)
        yield code, {"source": "codeline", "kind": "esr", "participant": participant, "amount": f"{minor / 100:.2f}" if minor else None,
                     "currency": "CHF", "reference": reference, "participant_printed": participant, "creditor": CREDITORS[i % 5]["name"]}


def main(out):
    rng = random.Random(20261122)
    os.makedirs(os.path.join(out, "slips"), exist_ok=True)
    os.makedirs(os.path.join(out, "receipts"), exist_ok=True)
    slips = []
    for i, (payload, truth) in enumerate(qr_truths(rng, 36)):
        variant = SLIP_VARIANTS[i % len(SLIP_VARIANTS)]
        image = payment_part(truth, payload)
        image = a4_page(image) if variant == "a4" else distort(image, variant, rng)
        name = f"qrbill-{i:02d}-{variant}.jpg"
        image.save(os.path.join(out, "slips", name), quality=rng.choice([70, 80, 90]))
        truth.pop("iban_printed")
        slips.append({"file": name, "variant": variant, "payload": payload, **truth})
    for i, (code, truth) in enumerate(slip_truths(rng, 12)):
        variant = ["clean", "rotated", "noisy", "photo", "blurred", "skewed"][i % 6]
        image = distort(orange_slip(truth, code), variant, rng)
        name = f"slip-{i:02d}-{variant}.jpg"
        image.save(os.path.join(out, "slips", name), quality=85)
        truth.pop("participant_printed")
        slips.append({"file": name, "variant": variant, "code_line": code, **truth})
    with open(os.path.join(out, "slips", "truth.json"), "w") as f:
        json.dump(slips, f, indent=1, ensure_ascii=False)

    receipts = []
    for i, spec in enumerate(RECEIPT_SPECS):
        variant = ["clean", "rotated", "noisy", "blurred", "photo"][i % 5] if i % 3 else "clean"
        image, truth = render_receipt(spec, rng)
        if variant == "rotated":
            image = image.rotate(rng.choice([-4, -2, 2, 4]), resample=Image.BICUBIC, expand=True, fillcolor="white")
        elif variant != "clean":
            image = distort(image, variant, rng)
        name = f"receipt-{i:02d}-{spec['language']}-{variant}.jpg"
        image.save(os.path.join(out, "receipts", name), quality=85)
        receipts.append({"file": name, "variant": variant, **truth})
    with open(os.path.join(out, "receipts", "truth.json"), "w") as f:
        json.dump(receipts, f, indent=1, ensure_ascii=False)
    print(f"{len(slips)} slips, {len(receipts)} receipts in {out}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "Tests/corpus")
