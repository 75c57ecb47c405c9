"""QR-bills as phones photograph them, for `make bench` (not committed: generated into a temp
directory each run, deterministic by seed): taken at an angle (perspective), saved at phone JPEG
quality, a glare spot, a thumb over a corner, low light with sensor noise, a 12-megapixel photo,
a small QR on an A4 invoice in a 12 MP photo, a crumpled bill, one bent harder (a wave of 6 px on
modules of 5.5 px: straight lines through the code's grid bend by more than a module). Each variant on the same bills, so
the accuracy per variant compares like with like.

    .build/corpus-venv/bin/python scripts/corpus/phone.py OUT_DIR
"""
import json
import math
import os
import random
import sys

from PIL import Image, ImageDraw, ImageFilter

sys.path.insert(0, os.path.dirname(__file__))
from generate import a4_page, on_table, payment_part, qr_truths  # noqa: E402

VARIANTS = ["perspective", "jpeg_phone", "glare", "thumb", "low_light", "mp12", "small_on_a4", "crumpled", "crumpled_hard"]
BILLS = 6
TWELVE_MP = (4000, 3000)


def perspective(image, rng, strength=0.12):
    """The bill seen from an angle: its far edge shorter (a homography, as a camera projects)."""
    w, h = image.size
    s = strength * rng.uniform(0.7, 1.0)
    # Where the corners of the output come from in the input (PIL maps output → input).
    source = [(0, 0), (w, 0), (w, h), (0, h)]
    target = [(w * s, h * s * 0.3), (w * (1 - s), 0), (w, h), (0, h * (1 - s * 0.2))]
    coefficients = _perspective_coefficients(target, source)
    canvas = image.transform((w, h), Image.PERSPECTIVE, coefficients, resample=Image.BICUBIC, fillcolor=(150, 110, 70))
    return canvas


def _perspective_coefficients(target, source):
    """The eight coefficients PIL's PERSPECTIVE transform needs, solved from four point pairs."""
    rows, values = [], []
    for (x, y), (u, v) in zip(target, source):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        values += [u, v]
    return _solve(rows, values)


def _solve(matrix, values):
    n = len(values)
    a = [row[:] + [value] for row, value in zip(matrix, values)]
    for column in range(n):
        pivot = max(range(column, n), key=lambda r: abs(a[r][column]))
        a[column], a[pivot] = a[pivot], a[column]
        for r in range(n):
            if r != column:
                factor = a[r][column] / a[column][column]
                a[r] = [x - factor * y for x, y in zip(a[r], a[column])]
    return [a[i][n] / a[i][i] for i in range(n)]


def glare(image, rng):
    """A reflection of a lamp: a bright soft spot on part of the bill, touching the code's edge."""
    w, h = image.size
    spot = Image.new("L", image.size, 0)
    draw = ImageDraw.Draw(spot)
    cx, cy, r = int(w * rng.uniform(0.45, 0.6)), int(h * rng.uniform(0.3, 0.5)), int(min(w, h) * 0.07)
    draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=215)
    spot = spot.filter(ImageFilter.GaussianBlur(r / 2))
    return Image.composite(Image.new("RGB", image.size, "white"), image, spot)


def thumb(image, rng):
    """A thumb holding the bill: a skin-coloured shape over one corner (not over the code)."""
    w, h = image.size
    draw = ImageDraw.Draw(image)
    corner = rng.choice(["bottom_left", "top_left"])
    rw, rh = int(w * 0.16), int(h * 0.3)
    x0 = -rw // 3
    y0 = h - rh + rh // 4 if corner == "bottom_left" else -rh // 4
    draw.ellipse([x0, y0, x0 + rw, y0 + rh], fill=(224, 172, 140))
    draw.ellipse([x0 + rw // 5, y0 + rh // 8, x0 + rw // 2, y0 + rh // 3], fill=(240, 200, 180))
    return image


def low_light(image, rng):
    """Evening light: dark, little contrast, sensor noise."""
    dark = image.point(lambda v: int(25 + v * 0.38))
    noise = Image.effect_noise(image.size, 30).convert("RGB")
    return Image.blend(dark, noise, 0.12).filter(ImageFilter.GaussianBlur(0.6))


def mp12(image, rng):
    """The bill filling most of a 12-megapixel photo on a table."""
    photo = on_table(image, rng)
    return photo.resize(TWELVE_MP, Image.BICUBIC)


def small_on_a4(part, rng):
    """A whole A4 invoice photographed at 12 MP from a distance: the QR is a small part of it."""
    page = a4_page(part)
    canvas = Image.new("RGB", TWELVE_MP, (150, 110, 70))
    scale = TWELVE_MP[1] * 0.7 / page.height
    page = page.resize((int(page.width * scale), int(page.height * scale)), Image.BICUBIC)
    canvas.paste(page, ((TWELVE_MP[0] - page.width) // 2, (TWELVE_MP[1] - page.height) // 2))
    return canvas.rotate(rng.uniform(-3, 3), resample=Image.BICUBIC, fillcolor=(150, 110, 70))


def crumpled(image, rng, amplitude=4):
    """A bill taken out of a pocket: a wave through the paper (`amplitude` pixels) and creases as shading."""
    w, h = image.size
    mesh = []
    step = 40
    phase_x, phase_y = rng.uniform(0, math.tau), rng.uniform(0, math.tau)
    for y in range(0, h, step):
        for x in range(0, w, step):
            def shifted(px, py):
                return (px + amplitude * math.sin(py / 70 + phase_x), py + amplitude * math.sin(px / 90 + phase_y))
            quad = [*shifted(x, y), *shifted(x, min(y + step, h)), *shifted(min(x + step, w), min(y + step, h)), *shifted(min(x + step, w), y)]
            mesh.append(((x, y, min(x + step, w), min(y + step, h)), quad))
    warped = image.transform(image.size, Image.MESH, mesh, resample=Image.BICUBIC, fillcolor="white")
    shade = Image.new("L", image.size, 0)
    draw = ImageDraw.Draw(shade)
    for _ in range(5):
        x0, y0 = rng.randint(0, w), rng.randint(0, h)
        draw.line([(x0, y0), (x0 + rng.randint(-w // 2, w // 2), y0 + rng.randint(-h // 2, h // 2))], fill=90, width=3)
    shade = shade.filter(ImageFilter.GaussianBlur(6))
    return Image.composite(Image.new("RGB", image.size, (90, 90, 90)), warped, shade)


def main(out):
    rng = random.Random(20261123)
    os.makedirs(out, exist_ok=True)
    truths = list(qr_truths(random.Random(7), BILLS))
    files = []
    for variant in VARIANTS:
        for i, (payload, truth) in enumerate(truths):
            part = payment_part(truth, payload)
            quality = 90
            if variant == "perspective":
                image = on_table(perspective(part, rng), rng)
            elif variant == "jpeg_phone":
                image, quality = on_table(part, rng), rng.choice([35, 40, 45])
            elif variant == "glare":
                image = glare(on_table(part, rng), rng)
            elif variant == "thumb":
                image = on_table(thumb(part, rng), rng)
            elif variant == "low_light":
                image = low_light(on_table(part, rng), rng)
            elif variant == "mp12":
                image = mp12(part, rng)
            elif variant == "small_on_a4":
                image = small_on_a4(part, rng)
            elif variant == "crumpled":
                image = on_table(crumpled(part, rng), rng)
            else:
                image = on_table(crumpled(part, rng, amplitude=6), rng)
            name = f"phone-{variant}-{i}.jpg"
            image.save(os.path.join(out, name), quality=quality)
            record = {k: v for k, v in truth.items() if k != "iban_printed"}
            files.append({"file": name, "variant": variant, "payload": payload, **record})
    with open(os.path.join(out, "truth.json"), "w") as f:
        json.dump(files, f, indent=1, ensure_ascii=False)
    print(f"{len(files)} phone photos of QR-bills in {out}")


if __name__ == "__main__":
    main(sys.argv[1])
