"""Cuts real receipt photos into overlapping parts, as a customer photographs a long receipt
top to bottom: Tests/corpus/receipts-real/parts/<name>-<n>.jpg and parts.json (the parts of each
receipt in order; the receipt's truth is the whole photo's in ../truth.json).

    .build/web-venv/bin/python scripts/corpus/parts.py Tests/corpus/receipts-real

Crops of one photo share its light and angle, which separate photos would not: they test the
reading of parts in order and the overlap, not a second camera.
"""
import json
import pathlib
import sys

from PIL import Image, ImageOps

# (photo, [(top, bottom) as fractions of its height]); each part overlaps the next by 6-10 %.
CUTS = [
    ("walgreens-san-mateo.jpg", [(0.0, 0.40), (0.33, 0.72), (0.66, 1.0)]),
    ("main-street-restaurant-palo-alto.jpg", [(0.0, 0.55), (0.45, 1.0)]),
]


def main(folder):
    root = pathlib.Path(folder)
    out = root / "parts"
    out.mkdir(exist_ok=True)
    index = []
    for name, cuts in CUTS:
        photo = ImageOps.exif_transpose(Image.open(root / name)).convert("RGB")
        width, height = photo.size
        files = []
        for n, (top, bottom) in enumerate(cuts, start=1):
            part = photo.crop((0, round(top * height), width, round(bottom * height)))
            file = f"{pathlib.Path(name).stem}-{n}.jpg"
            part.save(out / file, quality=88)
            files.append(file)
        index.append({"photo": name, "parts": files})
    (out / "parts.json").write_text(json.dumps(index, indent=1) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
