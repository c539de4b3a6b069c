"""OCR with Tesseract 5 through tesserocr, for scanned PDF pages and image files.

tesserocr calls libtesseract in-process (its wheels bundle the library): 1.1 s per 300 dpi page against
2.2-5.7 s for pytesseract, which starts the ``tesseract`` binary per page (``bench/ocr.py``). The language
data (``eng.traineddata``) comes from the system package: Debian's ``tesseract-ocr``, Homebrew's
``tesseract``, or ``TESSDATA_PREFIX``. The binding is imported only by :class:`Reader`.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from boundread.errors import Refused, Unsupported, UsageError

DPI = 300  # small print (8 pt) stays readable; 200 dpi lost digits on the corpus scans
MAX_PIXELS = 60_000_000  # a page or image larger than this is scaled down first (~60 MB as 8-bit grey)
INSTALL = "install Tesseract: `apt-get install tesseract-ocr` (macOS: `brew install tesseract`) and " \
          "`pip install 'boundread[ocr]'`"
MODES = ("auto", "force", "never")

#: where the language packs live when TESSDATA_PREFIX does not say (Debian/Ubuntu, Fedora, Homebrew, source)
_TESSDATA = (
    "/usr/share/tesseract-ocr/5/tessdata",
    "/usr/share/tesseract-ocr/4.00/tessdata",
    "/usr/share/tessdata",
    "/usr/local/share/tessdata",
    "/opt/homebrew/share/tessdata",
    "/usr/local/share/tesseract-ocr/tessdata",
)


class NoText(Unsupported):
    """Nothing to read: the pages or the image have no text layer and OCR cannot run (exit 4)."""

    code = "no_text"


def check_mode(mode: str) -> str:
    if mode not in MODES:
        raise UsageError(f"unknown --ocr {mode!r}", "use auto, force or never")
    return mode


def tessdata_dir() -> Path | None:
    """The folder of ``*.traineddata`` files, or None when no language pack is installed."""
    prefix = os.environ.get("TESSDATA_PREFIX")
    for folder in ([prefix, str(Path(prefix) / "tessdata")] if prefix else []) + list(_TESSDATA):
        path = Path(folder)
        if path.is_dir() and any(path.glob("*.traineddata")):
            return path
    return None


def missing(lang: str) -> str | None:
    """Why OCR cannot run for ``lang`` (``eng``, ``eng+deu``), or None when it can."""
    try:
        import tesserocr  # noqa: F401
    except ImportError:
        return "OCR is not installed"
    folder = tessdata_dir()
    if folder is None:
        return "no Tesseract language data found"
    absent = [code for code in lang.split("+") if not (folder / f"{code}.traineddata").is_file()]
    if absent:
        raise UsageError(f"no Tesseract language pack for {'+'.join(absent)} in {folder}",
                         f"install it (`apt-get install tesseract-ocr-{absent[0]}`) or pick one of "
                         + ", ".join(sorted(p.stem for p in folder.glob("*.traineddata"))))
    return None


class Reader:
    """One Tesseract engine, loaded once and used for every page of a command."""

    def __init__(self, lang: str) -> None:
        import tesserocr

        self.api = tesserocr.PyTessBaseAPI(path=str(tessdata_dir() or ""), lang=lang)

    def read(self, image: Any, seconds: float | None) -> str | None:
        """The text of a PIL image; None when the time limit ran out first."""
        self.api.SetImage(_bounded(image))
        timeout = 0 if seconds is None else max(1, int(seconds * 1000))
        if not self.api.Recognize(timeout=timeout):
            return None
        text: str = self.api.GetUTF8Text()
        return text

    def close(self) -> None:
        self.api.End()


def _bounded(image: Any) -> Any:
    """Grey, and no larger than MAX_PIXELS (a huge scan is scaled down rather than read at full size)."""
    width, height = image.size
    if width * height > MAX_PIXELS:
        scale = (MAX_PIXELS / (width * height)) ** 0.5
        image = image.resize((max(1, int(width * scale)), max(1, int(height * scale))))
    return image if image.mode == "L" else image.convert("L")


def open_image(data: bytes, name: str) -> Any:
    """A PIL image from an image file's bytes; a decompression bomb is refused before it is decoded."""
    import io

    from PIL import Image

    try:
        image = Image.open(io.BytesIO(data))
        if image.size[0] * image.size[1] > 4 * MAX_PIXELS:
            raise Refused(f"{name} is {image.size[0]}x{image.size[1]} pixels", "too large to OCR safely")
        image.load()
    except (OSError, ValueError, Image.DecompressionBombError) as exc:
        raise Unsupported(f"{name} cannot be decoded as an image ({exc})", "convert it to PNG with an image tool") \
            from None
    return image
