"""Till receipts in four languages, rendered like a thermal printer prints them, with the truth
(merchant, date, total, VAT, category) the parser must find."""
from PIL import Image, ImageDraw, ImageFont

MONO = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf", 20)
MONO_BOLD = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf", 24)

ITEMS = {
    "groceries": {"de": ["Vollmilch 1l", "Brot hell", "Äpfel Gala", "Käse Gruyère", "Butter 250g", "Rüebli 1kg", "Joghurt Nature"],
                  "fr": ["Lait entier 1l", "Pain complet", "Pommes", "Fromage", "Beurre 250g", "Carottes", "Œufs x6"],
                  "it": ["Latte intero", "Pane", "Mele", "Formaggio", "Burro", "Pomodori", "Pasta 500g"],
                  "en": ["Whole milk", "Bread", "Apples", "Cheddar", "Butter", "Carrots", "Eggs x6"]},
    "fuel": {"de": ["Bleifrei 95"], "fr": ["Sans plomb 95"], "it": ["Benzina senza piombo"], "en": ["Unleaded"]},
    "restaurants": {"de": ["Menü des Tages", "Mineralwasser", "Kaffee", "Dessert"], "fr": ["Plat du jour", "Eau minérale", "Café", "Tarte"],
                    "it": ["Pizza margherita", "Acqua", "Caffè", "Tiramisù"], "en": ["Sandwich", "Soup", "Coffee", "Muffin"]},
    "health": {"de": ["Dafalgan 500", "Pflaster", "Nasenspray"], "fr": ["Paracétamol", "Pansements", "Sirop"],
               "it": ["Tachipirina", "Cerotti", "Sciroppo"], "en": ["Paracetamol", "Plasters", "Cough syrup"]},
    "household": {"de": ["Abwaschmittel", "Glühbirne", "Putzschwamm"], "fr": ["Liquide vaisselle", "Ampoule", "Éponges"],
                  "it": ["Detersivo", "Lampadina", "Spugne"], "en": ["Washing-up liquid", "Light bulb", "Sponges"]},
}

LANG = {
    "de": {"total": ["TOTAL CHF", "Summe", "Gesamt", "Total"], "subtotal": "Zwischensumme", "cash": "Bar", "change": "Rückgeld",
           "vat": "MwSt", "date": "{d:02d}.{m:02d}.{y}", "comma": False},
    "fr": {"total": ["TOTAL", "Montant", "Total CHF", "Total à payer"], "subtotal": "Sous-total", "cash": "Espèces", "change": "Rendu",
           "vat": "TVA", "date": "{d:02d}/{m:02d}/{y}", "comma": True},
    "it": {"total": ["TOTALE", "Totale EUR", "Totale"], "subtotal": "Subtotale", "cash": "Contanti", "change": "Resto",
           "vat": "IVA", "date": "{d:02d}-{m:02d}-{y}", "comma": True},
    "en": {"total": ["TOTAL", "Total", "Amount due"], "subtotal": "Subtotal", "cash": "Cash", "change": "Change",
           "vat": "VAT", "date": "{y}-{m:02d}-{d:02d}", "comma": False},
}

MERCHANTS = [
    ("Migros", "de", "groceries", "CHF"), ("Coop", "de", "groceries", "CHF"), ("Denner", "de", "groceries", "CHF"),
    ("Apotheke Bahnhof", "de", "health", "CHF"), ("Restaurant Löwen", "de", "restaurants", "CHF"), ("Shell", "de", "fuel", "CHF"),
    ("Jumbo", "de", "household", "CHF"), ("Volg", "de", "groceries", "CHF"), ("Aldi Suisse", "de", "groceries", "CHF"),
    ("Bäckerei Müller", "de", "restaurants", "CHF"), ("Landi", "de", "household", "CHF"),
    ("Manor", "fr", "groceries", "CHF"), ("Pharmacie du Lac", "fr", "health", "CHF"), ("Café de la Gare", "fr", "restaurants", "CHF"),
    ("Carrefour", "fr", "groceries", "EUR"), ("TotalEnergies", "fr", "fuel", "EUR"), ("Brico Loisirs", "fr", "household", "CHF"),
    ("Boulangerie Rochat", "fr", "restaurants", "CHF"), ("Leclerc", "fr", "groceries", "EUR"), ("Coop Pronto", "fr", "groceries", "CHF"),
    ("Esselunga", "it", "groceries", "EUR"), ("Conad", "it", "groceries", "EUR"), ("Farmacia Centrale", "it", "health", "CHF"),
    ("Ristorante Roma", "it", "restaurants", "CHF"), ("Eni", "it", "fuel", "EUR"), ("Casa Ticino", "it", "household", "CHF"),
    ("Migros Lugano", "it", "groceries", "CHF"), ("Pasticceria Vanini", "it", "restaurants", "CHF"), ("Coop Bellinzona", "it", "groceries", "CHF"),
    ("Tesco", "en", "groceries", "EUR"), ("Boots", "en", "health", "EUR"), ("Pret A Manger", "en", "restaurants", "EUR"),
    ("BP", "en", "fuel", "EUR"), ("Home Centre", "en", "household", "EUR"), ("Spar", "en", "groceries", "EUR"),
    ("Starbucks", "en", "restaurants", "CHF"), ("Avec", "en", "groceries", "CHF"), ("Coop Vitality", "de", "health", "CHF"),
    ("Agrola", "de", "fuel", "CHF"), ("Lidl", "de", "groceries", "CHF"), ("Globus", "fr", "groceries", "CHF"),
    ("Autogrill", "it", "restaurants", "EUR"), ("Marks & Spencer", "en", "groceries", "EUR"), ("Denner Express", "de", "groceries", "CHF"),
]

RECEIPT_SPECS = [{"merchant": m, "language": lang, "category": c, "currency": cur, "index": i} for i, (m, lang, c, cur) in enumerate(MERCHANTS)]


def money(minor, comma):
    text = f"{minor // 100}.{minor % 100:02d}"
    return text.replace(".", ",") if comma else text


def render_receipt(spec, rng):
    lang = LANG[spec["language"]]
    i = spec["index"]
    names = ITEMS[spec["category"]][spec["language"]]
    count = 1 if spec["category"] == "fuel" else rng.randint(2, min(6, len(names)))
    items = [(name, rng.randint(80, 2500) if spec["category"] != "fuel" else rng.randint(4000, 12000)) for name in rng.sample(names, count)]
    total = sum(price for _, price in items)
    day, month, year = rng.randint(1, 28), rng.randint(1, 12), rng.choice([2025, 2026])
    # VAT in tenths of a percent: Swiss reduced and normal rates, or the euro country's rate.
    if spec["currency"] == "CHF":
        rate = 26 if spec["category"] == "groceries" else 81
    else:
        rate = {"de": 190, "fr": 200, "it": 220, "en": 230}[spec["language"]]
    vat = total * rate // (1000 + rate)
    comma = lang["comma"]
    lines = [("bold", spec["merchant"]), ("", ["Bahnhofstrasse 1", "Rue Centrale 4", "Via Cantonale 9", "High Street 12"][i % 4]),
             ("", lang["date"].format(d=day, m=month, y=year) + f"  {rng.randint(7, 21):02d}:{rng.randint(0, 59):02d}"), ("", "")]
    for name, price in items:
        lines.append(("row", (name, money(price, comma))))
    lines.append(("", "-" * 40))
    if i % 4 == 1:
        lines.append(("row", (lang["subtotal"], money(total, comma))))
    keyword = lang["total"][i % len(lang["total"])].replace("CHF", spec["currency"]).replace("EUR", spec["currency"])
    currency_in_keyword = "CHF" in keyword or "EUR" in keyword
    # Euro tills print the currency by the total; Swiss ones sometimes leave it out.
    label = keyword if currency_in_keyword else f"{keyword} {spec['currency']}" if i % 2 or spec["currency"] != "CHF" else keyword
    lines.append(("bold-row", (label, money(total, comma))))
    if i % 5 == 2:
        # A second "total" in the other currency, as Swiss tills print for euro payers: not the one.
        other = total * 95 // 100
        lines.append(("row", (f"Total {'EUR' if spec['currency'] == 'CHF' else 'CHF'}", money(other, comma))))
    if i % 3 == 0:
        given = ((total // 1000) + 1) * 1000 + (5000 if total % 2 else 0)
        lines.append(("row", (lang["cash"], money(given, comma))))
        lines.append(("row", (lang["change"], money(given - total, comma))))
    lines.append(("", ""))
    lines.append(("row", (f"{lang['vat']} {rate / 10:.1f}%", money(vat, comma))))
    lines.append(("", ["Danke für Ihren Einkauf", "Merci de votre visite", "Grazie e arrivederci", "Thank you"][["de", "fr", "it", "en"].index(spec["language"])]))

    width, height = 600, 60 + 32 * len(lines)
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    y = 30
    for style, content in lines:
        if style == "bold":
            w = draw.textlength(content, font=MONO_BOLD)
            draw.text(((width - w) / 2, y), content, font=MONO_BOLD, fill="black")
        elif style in ("row", "bold-row"):
            f = MONO_BOLD if style == "bold-row" else MONO
            draw.text((30, y), content[0], font=f, fill="black")
            w = draw.textlength(content[1], font=f)
            draw.text((width - 30 - w, y), content[1], font=f, fill="black")
        else:
            draw.text((30, y), content, font=MONO, fill="black")
        y += 32
    truth = {"merchant": spec["merchant"], "language": spec["language"], "date": f"{year}-{month:02d}-{day:02d}",
             "total": f"{total // 100}.{total % 100:02d}", "currency": spec["currency"], "category": spec["category"],
             "vat": [{"rate": f"{rate / 10:.1f}", "amount": f"{vat // 100}.{vat % 100:02d}"}]}
    return image, truth
