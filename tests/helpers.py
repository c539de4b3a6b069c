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
