"""Start-up stays light: heavy libraries load only in the command that needs them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HEAVY = ("pdfminer", "pypdfium2", "openpyxl", "mammoth", "py7zr", "python_calamine")


def loaded_modules(code: str) -> set[str]:
    probe = f"{code}\nimport sys\nprint('\\n'.join(sys.modules))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60)
    return {line.split(".")[0] for line in out.stdout.splitlines()}


def test_import_boundread_is_light() -> None:
    loaded = loaded_modules("import boundread")
    assert not loaded & {*HEAVY, "typer", "rich", "click", "magic"}


def test_help_and_info_on_text_do_not_load_document_libraries(tmp_path: Path) -> None:
    small = tmp_path / "small.txt"
    small.write_text("hello\n", encoding="utf-8")
    code = (
        "import sys\nfrom boundread.cli.app import app\n"
        f"sys.argv = ['boundread', 'info', {str(small)!r}]\n"
        "try:\n    app()\nexcept SystemExit:\n    pass\n"
        "sys.argv = ['boundread', '--help']\n"
        "try:\n    app()\nexcept SystemExit:\n    pass"
    )
    loaded = loaded_modules(code)
    assert "typer" in loaded  # the probe really ran the CLI
    assert not loaded & set(HEAVY)
