"""OCR bench: tesserocr against pytesseract on the scanned pages and images of the corpus.

    .venv/bin/python bench/ocr.py [--corpus ../shared/corpus] [--dpi 300] [--repeat 3]

For each binding: its import time (a fresh interpreter, best of 3), seconds per page at the given resolution
(the page rendered by PDFium once, outside the timing; best of N), and accuracy: the share of the words of the
manifest's expected phrases that the OCR text contains. Then boundread itself (``extract --ocr auto``) on the
same files, as a user runs it. Nothing is asserted: this is where the pick in pyproject.toml comes from.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DEFAULT_CORPUS = HERE.parent.parent / "shared" / "corpus"

#: corpus file -> the phrases the manifest says OCR should find (its "expect" text, quoted parts)
CASES = {
    "pdf-MEDRPT_medical_report_scan.pdf": ["SEATTLE GENERAL HOSPITAL", "COMPREHENSIVE MEDICAL REPORT",
                                           "Report ID: MEDRPT-2024-PAT-3847"],
    "pdf-with-jbig2.pdf": ["It Doesn't Work?!?!?!"],
    "img-magika_test.png": ["This is a test for Magika!"],
}


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def accuracy(text: str, phrases: list[str]) -> float:
    """Share of the expected words found in the OCR text (each word counted as often as it is expected)."""
    found = words(text)
    expected = [w for phrase in phrases for w in words(phrase)]
    pool = list(found)
    hits = 0
    for word in expected:
        if word in pool:
            pool.remove(word)
            hits += 1
    return hits / len(expected) if expected else 1.0


def images(path: Path, dpi: int) -> list[Any]:
    """PIL images of every page (a PDF rendered by PDFium) or of the image file itself."""
    from PIL import Image

    if path.suffix != ".pdf":
        return [Image.open(path).convert("RGB")]
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(path))
    try:
        return [doc[i].render(scale=dpi / 72, grayscale=True).to_pil() for i in range(len(doc))]
    finally:
        doc.close()


def import_seconds(module: str) -> float:
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    runs = [float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
            for _ in range(3)]
    return min(runs)


def with_tesserocr(pages: list[Any]) -> list[str]:
    import tesserocr

    from boundread.formats.ocr import tessdata_dir

    with tesserocr.PyTessBaseAPI(path=str(tessdata_dir() or ""), lang="eng") as api:
        out = []
        for image in pages:
            api.SetImage(image)
            out.append(api.GetUTF8Text())
        return out


def with_pytesseract(pages: list[Any]) -> list[str]:
    import pytesseract

    return [pytesseract.image_to_string(image, lang="eng") for image in pages]


def best(fn: Any, pages: list[Any], repeat: int) -> tuple[float, list[str]]:
    times, texts = [], []
    for _ in range(repeat):
        start = time.perf_counter()
        texts = fn(pages)
        times.append(time.perf_counter() - start)
    return min(times), texts


def boundread_run(path: Path, work: Path) -> tuple[float, str, dict[str, Any]]:
    exe = Path(sys.executable).with_name("boundread")
    out = work / (path.stem + ".txt")
    start = time.perf_counter()
    done = subprocess.run([str(exe), "extract", str(path), "--json", "-o", str(out)], capture_output=True,
                          text=True, cwd=work, check=False)
    seconds = time.perf_counter() - start
    data = json.loads(done.stdout) if done.stdout.strip() else {}
    return seconds, out.read_text(encoding="utf-8") if out.exists() else "", data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--dpi", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    bindings = {"tesserocr": with_tesserocr, "pytesseract": with_pytesseract}
    print("import time: " + ", ".join(f"{name} {import_seconds(name) * 1000:.0f} ms" for name in bindings))
    totals: dict[str, list[float]] = {name: [0.0, 0, 0.0] for name in bindings}  # seconds, pages, accuracy sum
    print(f"\n{'file':40} {'binding':12} {'pages':>5} {'s/page':>7} {'accuracy':>8}")
    for name, phrases in CASES.items():
        path = args.corpus / name
        if not path.exists():
            print(f"{name:40} missing")
            continue
        pages = images(path, args.dpi)
        for binding, fn in bindings.items():
            seconds, texts = best(fn, pages, args.repeat)
            score = accuracy("\n".join(texts), phrases)
            totals[binding][0] += seconds
            totals[binding][1] += len(pages)
            totals[binding][2] += score
            print(f"{name:40} {binding:12} {len(pages):5} {seconds / len(pages):7.2f} {score:8.0%}")
    print()
    for binding, (seconds, count, score) in totals.items():
        if count:
            print(f"{binding:12} overall: {seconds / count:.2f} s/page, mean accuracy {score / len(CASES):.0%}")
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        print("\nboundread extract --ocr auto (subprocess, start-up included):")
        for name, phrases in CASES.items():
            path = args.corpus / name
            if path.exists():
                seconds, text, data = boundread_run(path, Path(tmp))
                engines = data.get("totals", {}).get("engines")
                print(f"  {name:40} {seconds:6.2f} s  accuracy {accuracy(text, phrases):4.0%}  engines {engines}")


if __name__ == "__main__":
    main()
