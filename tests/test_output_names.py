"""Output file names of archive members: readable in any script (NFC), safe on any file system (no separator,
no control or format character, no ``..``, at most NAME_MAX bytes), and one file per member (no collision)."""

from __future__ import annotations

import io
import json
import unicodedata
import zipfile
from pathlib import Path

import docx
from hypothesis import example, given, settings
from hypothesis import strategies as st

from boundread.core.output import BASE_BYTES, MEMBER_BYTES, member_slug, slug
from tests.helpers import run

LONG = "季度报告-" * 12  # 180 bytes of UTF-8: two names that differ only after it share any cut


def _docx(text: str) -> bytes:
    document = docx.Document()
    document.add_paragraph(text)
    buf = io.BytesIO()
    document.save(buf)
    return buf.getvalue()


MEMBERS = {
    "报告.txt": b"SENTINEL_CJK\n",
    "Ärger.docx": _docx("SENTINEL_UMLAUT"),
    "a/b.txt": b"SENTINEL_SLASH\n",
    "a_b.txt": b"SENTINEL_UNDERSCORE\n",
    f"{LONG}1.txt": b"SENTINEL_LONG_1\n",
    f"{LONG}2.txt": b"SENTINEL_LONG_2\n",
    "bad\x01name\x7f.txt": b"SENTINEL_CONTROL\n",
    "invoice\u202etxt.exe": b"SENTINEL_BIDI\n",
    "up/../..hidden.txt": b"SENTINEL_DOTS\n",
    "\u0939\u093f\u0928\u094d\u0926\u0940.txt": b"SENTINEL_DEVANAGARI\n",  # hindi: combining vowel signs
}


def _extract(archive: Path, member: str) -> Path:
    result = run("extract", str(archive), "--member", member, "--json")
    assert result.exit_code == 0, result.stdout + result.stderr
    return Path(json.loads(result.stdout)["output"])


def test_member_output_names_are_readable_safe_and_distinct(tmp_path: Path) -> None:
    archive = tmp_path / "年报.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for name, data in MEMBERS.items():
            zf.writestr(name, data)
    out = Path(tmp_path / "out")
    written = {name: _extract(archive, name) for name in MEMBERS}
    assert written["报告.txt"].name == "年报.zip.member-报告.txt.text.txt"
    assert written["Ärger.docx"].name == "年报.zip.member-Ärger.docx.text.txt"
    assert written["\u0939\u093f\u0928\u094d\u0926\u0940.txt"].name.startswith("年报.zip.member-हिन्दी.txt.")
    assert written["a_b.txt"].name == "年报.zip.member-a_b.txt.text.txt"
    assert written["a/b.txt"].name.startswith("年报.zip.member-a_b.txt-")  # a digest keeps it apart
    assert len(set(written.values())) == len(MEMBERS)
    for name, path in written.items():
        sentinel = (MEMBERS[name] if not name.endswith(".docx") else b"SENTINEL_UMLAUT").strip().decode()
        assert sentinel in path.read_text(encoding="utf-8"), name
        assert path.parent == out and path.name == unicodedata.normalize("NFC", path.name)
        assert len(path.name.encode("utf-8")) <= 255 - 14  # room for write_atomic's temporary name
        assert ".." not in path.name and not any(unicodedata.category(c)[0] in "CZ" for c in path.name), name
    assert sorted(p.name for p in out.iterdir() if p.name != ".gitignore") == sorted(p.name for p in written.values())


def test_a_decomposed_member_name_is_found_and_named_as_composed(tmp_path: Path) -> None:
    archive = tmp_path / "mac.zip"
    stored = unicodedata.normalize("NFD", "Ärger.txt")
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr(stored, "SENTINEL_NFD\n")
    for asked in ("Ärger.txt", stored):
        path = _extract(archive, asked)
        assert path.name == "mac.zip.member-Ärger.txt.text.txt"
        assert path.read_text(encoding="utf-8").startswith("SENTINEL_NFD")


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300), st.integers(min_value=10, max_value=BASE_BYTES))
def test_slug_is_safe_for_any_text(text: str, limit: int) -> None:
    for made, bound in ((slug(text, limit), limit), (member_slug(text), MEMBER_BYTES)):
        assert made and len(made.encode("utf-8")) <= bound
        assert made == unicodedata.normalize("NFC", made) and slug(made, bound) == made
        assert ".." not in made and made[0] not in "._" and made[-1] not in "._"
        assert all(c in "._-" or unicodedata.category(c)[0] in "LMN" for c in made)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=120), st.text(max_size=120))
@example("Ä/x", unicodedata.normalize("NFD", "Ä/x")).via("one name composed and decomposed, with a lossy slug")
@example("a/b", "a_b").via("a replaced character")
@example("p" * 70 + "1", "p" * 70 + "2").via("a cut name")
def test_member_slug_keeps_distinct_names_apart(a: str, b: str) -> None:
    same = unicodedata.normalize("NFC", a) == unicodedata.normalize("NFC", b)
    assert (member_slug(a) == member_slug(b)) == same
