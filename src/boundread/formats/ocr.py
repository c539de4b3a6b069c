"""OCR with Tesseract 5 through tesserocr, for scanned PDF pages and image files.

tesserocr calls libtesseract in-process (its wheels bundle the library): 1.1 s per 300 dpi page against
2.2-5.7 s for pytesseract, which starts the ``tesseract`` binary per page (``bench/ocr.py``). The language
data (``eng.traineddata``) comes from the system package: Debian's ``tesseract-ocr``, Homebrew's
``tesseract``, or ``TESSDATA_PREFIX``. The binding is imported only by :class:`Reader`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from boundread.errors import Refused, Unsupported, UsageError

DPI = 300  # small print (8 pt) stays readable; 200 dpi lost digits on the corpus scans
MAX_PIXELS = 12_000_000  # a page or image larger than this is scaled down first (A4 at 300 dpi: 8.7 MP)
MAX_DECODE_PIXELS = 24_000_000  # an image file larger than this is refused: decoding it alone would break ~100 MB
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
    """Why OCR cannot run for ``lang`` (``eng``, ``eng+deu``), or None when it can. Pillow decodes the images
    (:func:`open_image`) and tesserocr's wheels do not bring it: without it an image's OCR would end in a
    ModuleNotFoundError traceback, so it is asked for with the binding (both come with ``boundread[ocr]``)."""
    try:
        import PIL  # noqa: F401
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

    def read(self, image: Grey, seconds: float | None) -> str | None:
        """The text of an 8-bit grey image; None when the time limit ran out first. Raw bytes rather than a
        PIL image: tesserocr's SetImage goes through an encoded copy and peaked at +84 MB on a 300 dpi Letter
        page, SetImageBytes at +24 MB."""
        self.api.SetImageBytes(image.data, image.width, image.height, 1, image.stride)
        timeout = 0 if seconds is None else max(1, int(seconds * 1000))
        if not self.api.Recognize(timeout=timeout):
            return None
        text: str = self.api.GetUTF8Text()
        return text

    def close(self) -> None:
        self.api.End()


@dataclass(frozen=True)
class Grey:
    """An 8-bit grey image: ``height`` rows of ``stride`` bytes, ``width`` of them pixels."""

    data: bytes
    width: int
    height: int
    stride: int


def open_image(data: bytes, name: str) -> Grey:
    """An image file's pixels, grey, scaled down to MAX_PIXELS; a decompression bomb is refused before it is
    decoded."""
    import io

    from PIL import Image

    try:
        image = Image.open(io.BytesIO(data))
        image.draft("L", (MAX_PIXELS, MAX_PIXELS))  # JPEG decodes grey, and smaller when it can
        if image.size[0] * image.size[1] > MAX_DECODE_PIXELS:
            raise Refused(f"{name} is {image.size[0]}x{image.size[1]} pixels", "too large to OCR: shrink it first")
        grey = image.convert("L")
        del image
        width, height = grey.size
        if width * height > MAX_PIXELS:
            scale = (MAX_PIXELS / (width * height)) ** 0.5
            grey = grey.resize((max(1, int(width * scale)), max(1, int(height * scale))))
    except (OSError, ValueError, Image.DecompressionBombError) as exc:
        raise Unsupported(f"{name} cannot be decoded as an image ({exc})", "convert it to PNG with an image tool") \
            from None
    return Grey(grey.tobytes(), grey.size[0], grey.size[1], grey.size[0])
