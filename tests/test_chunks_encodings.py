"""`chunks` of legacy-encoded text: the letters `extract` gives, and the guess said, not mojibake."""

from __future__ import annotations

from pathlib import Path

from boundread.chunks.manifest import Params
from boundread.chunks.plan import chunk
from tests.test_chunks import own_text, reference

RUSSIAN = "Журнал событий сервера: запрос обработан, ошибок нет, пользователь вошёл в систему.\n"


def test_a_koi8_log_is_chunked_in_its_own_letters(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    log.write_bytes((RUSSIAN * 400).encode("koi8-r"))
    result = chunk(log, Params(tokens=200), tmp_path / "out")
    assert own_text(result) == reference(log) == RUSSIAN * 400
    assert any(w.startswith("encoding guessed: koi8") for w in result.warnings), result.warnings


def test_a_declared_encoding_is_used_without_a_guess(tmp_path: Path) -> None:
    page = tmp_path / "page.xml"
    body = '<?xml version="1.0" encoding="windows-1251"?>\n<notes>\n' + RUSSIAN * 300 + "</notes>\n"
    page.write_bytes(body.encode("cp1251"))
    result = chunk(page, Params(tokens=200), tmp_path / "out")
    assert own_text(result) == body
    assert not any("guessed" in w for w in result.warnings), result.warnings
