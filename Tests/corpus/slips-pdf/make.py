import io, json, cairosvg, pypdf
from qrbill import QRBill
bills = [
    ("qrbill-invoice-a4.pdf", dict(account="CH44 3199 9123 0008 8901 2", creditor={"name": "Robert Schneider AG", "street": "Rue du Lac", "house_num": "1268", "pcode": "2501", "city": "Biel", "country": "CH"},
        amount="1949.75", currency="CHF", reference_number="210000000003139471430009017", additional_information="Auftrag vom 15.06.2020",
        debtor={"name": "Pia-Maria Rutschmann-Schnyder", "street": "Grosse Marktgasse", "house_num": "28", "pcode": "9400", "city": "Rorschach", "country": "CH"}, language="de")),
    ("qrbill-invoice-2-pages.pdf", dict(account="CH58 0079 1123 0008 8901 2", creditor={"name": "Stadtwerke Bern", "street": "Monbijoustrasse", "house_num": "11", "pcode": "3011", "city": "Bern", "country": "CH"},
        amount="87.40", currency="CHF", reference_number="RF18539007547034", additional_information="Facture 2026-0412", language="fr")),
]
truth = []
for name, args in bills:
    bill = QRBill(**args)
    svg = io.StringIO()
    bill.as_svg(svg, full_page=True)
    page = cairosvg.svg2pdf(bytestring=svg.getvalue().encode())
    if "2-pages" in name:
        # A cover page of text before the one with the payment part, as an invoice has.
        cover_svg = '<svg xmlns="http://www.w3.org/2000/svg" width="210mm" height="297mm"><text x="20mm" y="30mm" font-size="14pt">Facture 2026-0412</text><text x="20mm" y="40mm" font-size="10pt">Consommation électricité avril 2026 · voir page 2 pour le bulletin de versement</text></svg>'
        writer = pypdf.PdfWriter()
        for part in [cairosvg.svg2pdf(bytestring=cover_svg.encode()), page]:
            for p in pypdf.PdfReader(io.BytesIO(part)).pages: writer.add_page(p)
        out = io.BytesIO(); writer.write(out); page = out.getvalue()
    open(name, "wb").write(page)
    iban = args["account"].replace(" ", "")
    truth.append({"file": name, "source": "qrbill", "iban": iban, "creditor": args["creditor"]["name"], "amount": args["amount"], "currency": args["currency"], "reference": args["reference_number"]})
# A PDF with no payment part: the cover page alone.
open("invoice-without-qr.pdf", "wb").write(cairosvg.svg2pdf(bytestring=b'<svg xmlns="http://www.w3.org/2000/svg" width="210mm" height="297mm"><text x="20mm" y="30mm" font-size="14pt">Rechnung ohne Zahlteil</text></svg>'))
json.dump(truth, open("truth.json", "w"), indent=1, ensure_ascii=False)
