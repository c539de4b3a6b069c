"""Without pyarrow, ``info`` still names a Parquet file from its PAR1 frame and ``extract`` exits 4 naming
``pip install 'boundread[parquet]'``."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from tests.formats.parquet_fixtures import source

from boundread.contract.model import Request
from boundread.contract.sink import Sink
from boundread.errors import ExitCode, Unsupported
from boundread.formats.columnar import handler


@pytest.fixture
def no_pyarrow(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("pyarrow", "pyarrow.parquet"):
        monkeypatch.setitem(sys.modules, name, None)  # an import of it raises ImportError


def _frame_only(path: Path) -> Path:
    path.write_bytes(b"PAR1" + b"\0" * 100 + (20).to_bytes(4, "little") + b"PAR1")
    return path


def test_info_names_the_frame_and_the_install(tmp_path: Path, no_pyarrow: None) -> None:
    details = handler.info(source(_frame_only(tmp_path / "e.parquet")), Request())
    assert details.fields == {"magic": "PAR1 at both ends", "footer_bytes": 20}
    assert details.warnings == ["schema and rows not read: pyarrow is not installed "
                                "(pip install 'boundread[parquet]')"]


def test_extract_exits_4_with_the_fix(tmp_path: Path, no_pyarrow: None) -> None:
    req = Request()
    with pytest.raises(Unsupported) as caught:
        handler.extract(source(_frame_only(tmp_path / "e.parquet")), req, Sink(req.limits))
    assert caught.value.exit_code == ExitCode.UNSUPPORTED == 4
    assert caught.value.fix == "pip install 'boundread[parquet]'"
