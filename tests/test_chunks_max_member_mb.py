"""``chunks --max-member-mb`` (issue 22 item 7): an archive member over the cap is skipped and the chunks say
incomplete; the option raises (or lowers) the cap as extract's does, with the same validation."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from boundread.units import MB
from tests.helpers import run

SENTINEL = "chunks-member-cap-sentinel-41c"
LINE = f"a line of a 1.5 MB log {SENTINEL}\n"
LINES = 3 * MB // 2 // len(LINE)  # 1.5 MB: over a 1 MB cap, under 2 MB


@pytest.fixture
def archive(tmp_path: Path) -> Path:
    path = tmp_path / "logs.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("small.txt", f"the small member {SENTINEL}\n")
        zf.writestr("big.log", (LINE * LINES).encode())
    return path


def _chunks(*args: str) -> dict[str, object]:
    result = run("chunks", *args, "--tokens", "200000", "--max-lines", "0", "--json")
    assert result.exit_code == 0, result.stderr
    data: dict[str, object] = json.loads(result.stdout)
    return data


def test_a_member_over_the_cap_is_skipped_and_the_option_lets_it_in(archive: Path, tmp_path: Path) -> None:
    folder = str(tmp_path / "c")
    low = _chunks(str(archive), "-o", folder, "--max-member-mb", "1")
    assert low["complete"] is False
    said = " ".join(str(w) for w in low["warnings"])  # type: ignore[union-attr]
    assert "big.log skipped: larger than the member cap (1.0 MB): raise --max-member-mb" in said
    assert [c["span"] for c in low["chunks"]] == ["member 'small.txt'"]  # type: ignore[union-attr,index]
    assert low["next"] == []  # the same run would skip it again: the warning names the option instead

    raised = _chunks(str(archive), "-o", folder, "--max-member-mb", "2")  # same folder: not the old manifest reused
    assert raised["complete"] is True and raised["status"] == "rewritten"
    assert any("--max-member-mb 2: chunked it again" in str(n) for n in raised["notes"])  # type: ignore[union-attr]
    spans = [c["span"] for c in raised["chunks"]]  # type: ignore[union-attr,index]
    assert spans[0].startswith("member 'small.txt'") and any("big.log" in s for s in spans)
    text = "".join((Path(folder) / c["file"]).read_text(encoding="utf-8")  # type: ignore[index]
                   for c in raised["chunks"])  # type: ignore[union-attr]
    assert text.count(SENTINEL) == 1 + LINES


def test_the_default_cap_is_extract_s(archive: Path, tmp_path: Path) -> None:
    plain = _chunks(str(archive), "-o", str(tmp_path / "d"))
    assert plain["complete"] is True  # 1.5 MB is under 32 MB


@pytest.mark.parametrize("value", ["0", "-3", "many"])
def test_the_option_is_checked_as_extract_checks_it(archive: Path, value: str) -> None:
    for command in ("chunks", "extract"):
        result = run(command, str(archive), "--max-member-mb", value)
        assert result.exit_code == 2 and result.stdout == ""
        assert "--max-member-mb" in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_the_python_api_takes_the_cap_too(archive: Path, tmp_path: Path) -> None:
    from boundread import api
    from boundread.errors import UsageError

    low = api.chunk(archive, 200_000, tmp_path / "api", max_lines=None, max_member_mb=1)
    assert low.complete is False and [c.span for c in low.chunks] == ["member 'small.txt'"]
    raised = api.chunk(archive, 200_000, tmp_path / "api", max_lines=None, max_member_mb=2)
    assert raised.complete is True and any("big.log" in c.span for c in raised.chunks)
    with pytest.raises(UsageError, match="max_member_mb=0"):
        api.chunk(archive, 200_000, tmp_path / "api", max_member_mb=0)
