"""Western text that Windows-1252 cannot read is DOS or Mac text far more often than Latin-1 with C1 controls
(found by the reference sweep's hunt: German cp850 text came out as Latin-1 at the detector's 0.07, "Gr\\x94\\xe1e",
a third of its words lost, though said to be a guess): the page that reads it as the most letters wins, and the
output still says it is a guess. Text cp1252 reads is left as it was."""

from __future__ import annotations

from pathlib import Path

import pytest

from boundread import api
from boundread.bytelevel import charset, textenc

DE = "Größe über Straße. Die Bürger ärgern sich über hohe Gebühren. Ça coûte très cher, señor."


@pytest.mark.parametrize("codec", ["cp850", "cp437"])
def test_dos_text_is_read_in_a_dos_page(tmp_path: Path, codec: str) -> None:
    data = "".join(f"{n} {DE}\r\n" for n in range(10)).encode(codec)
    choice = charset.decide(data, textenc.guess_encoding(data), complete=True)
    assert choice.encoding in ("cp850", "cp437") and choice.guessed
    path = tmp_path / "dos.txt"
    path.write_bytes(data)
    result = api.extract(path, stdout=True)
    assert DE in (result.text or "")
    assert any(warning.startswith("encoding guessed: cp") for warning in result.warnings)


@pytest.mark.parametrize(("data", "codec"), [
    (f"{DE}\n".encode("cp1252") * 5, "cp1252"),  # cp1252 reads it: untouched
    (b"caf\xe9 cr\xe8me br\xfbl\xe9e \x81 na\xefve fa\xe7ade d\xe9j\xe0 vu\n" * 5, "latin-1"),  # Latin-1, a stray C1
])
def test_text_cp1252_or_latin1_reads_better_keeps_that_reading(data: bytes, codec: str) -> None:
    assert charset.decide(data, textenc.guess_encoding(data), complete=True).encoding == codec
