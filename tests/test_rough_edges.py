"""The rough edges of issue 23 item 5 in the front door and the CLI: a wrong-kind message names the command
for the kind, an unreadable input is exit 3 (the README's), ``next`` after Ctrl-C keeps the user's own
limits, ``info --json`` has one shape, and the runaway-guard API is importable from ``boundread``."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

import boundread
from boundread import api
from boundread.cli.app import app
from boundread.contract import source
from boundread.contract.sink import Sink
from boundread.core.demo import write_samples
from boundread.limits import Limits

runner = CliRunner()


@pytest.fixture(scope="module")
def samples(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return write_samples(tmp_path_factory.mktemp("samples"))


@pytest.mark.parametrize(("command", "sample", "fix"), [
    (["pages", "S", "1"], "prices.xlsx", "use `boundread sheets "),
    (["sheets", "S"], "report.pdf", "use `boundread pages "),
    (["sheets", "S", "1"], "report.pdf", "use `boundread pages "),
    (["pages", "S", "1"], "catalogue.zip", "use `boundread list-zip "),
    (["pages", "S", "1"], "server.log", "use `boundread extract "),
])
def test_a_wrong_kind_names_the_command_for_its_kind(samples: dict[str, Path], command: list[str], sample: str,
                                                     fix: str) -> None:
    path = str(samples[sample])
    result = runner.invoke(app, [path if word == "S" else word for word in command])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1, result.output
    assert fix + path in result.stderr and "boundread info" not in result.stderr, result.stderr


def test_an_unreadable_input_is_exit_3_not_a_usage_error(samples: dict[str, Path],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """As root every file reads; the two checks a non-root user meets are stood in for: the parser's access
    test (which made it exit 2, "see --help") and the read's own PermissionError."""
    log = str(samples["server.log"])
    monkeypatch.setattr(os, "access", lambda *args, **kwargs: False)
    assert runner.invoke(app, ["extract", log, "--head", "1", "--stdout"]).exit_code == 0  # the parser lets it by

    def denied(path: Path) -> object:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(source, "sniff_path", denied)
    for command in (["info", log], ["extract", log], ["pages", log, "1"], ["view", log], ["chunks", log]):
        result = runner.invoke(app, command)
        assert result.exit_code == 3, (command, result.output)
        assert result.stderr == f"boundread: error: {log}: permission denied - check the file's permissions\n"


@contextlib.contextmanager
def _ctrl_c(sink: Sink) -> Iterator[None]:
    raise KeyboardInterrupt
    yield  # pragma: no cover


def test_next_after_ctrl_c_keeps_the_users_own_limits(samples: dict[str, Path]) -> None:
    log = samples["server.log"]
    own = api.extract(log, grep="ERROR", limits=Limits(max_matches=7, max_chars=5000), stdout=True, watch=_ctrl_c)
    assert own.truncated_reasons == ("interrupted",)
    assert own.next[0].endswith("--max-matches 7 --max-chars 5000"), own.next
    plain = api.extract(log, grep="ERROR", stdout=True, watch=_ctrl_c)
    assert "--max-" not in plain.next[0], plain.next  # the defaults go unsaid
    done = api.extract(log, lines="1-3", limits=Limits(max_chars=5000), stdout=True)
    assert not done.next  # a read that was not cut has nothing to go on with


def test_info_json_has_files_for_one_file_or_several(samples: dict[str, Path]) -> None:
    log, pdf = str(samples["server.log"]), str(samples["report.pdf"])
    one = json.loads(runner.invoke(app, ["info", log, "--json"]).stdout)
    several = json.loads(runner.invoke(app, ["info", log, pdf, "--json"]).stdout)
    assert [f["kind"] for f in one["files"]] == ["text"] and [f["kind"] for f in several["files"]] == ["text", "pdf"]
    assert one["kind"] == "text" and one["files"][0] == {k: v for k, v in one.items() if k not in ("schema",
                                                                                                 "command", "files")}


def test_the_runaway_guards_are_importable_from_boundread() -> None:
    from boundread import CostCap, Guard, Policy, TokenBudget, max_depth
    from boundread.budget import guards

    assert (max_depth, Guard, TokenBudget, CostCap, Policy) == (guards.max_depth, guards.Guard, guards.TokenBudget,
                                                                guards.CostCap, guards.Policy)
    assert {"max_depth", "DepthExceeded", "carry_depth"} <= set(boundread.__all__) <= set(dir(boundread))
    for name in boundread.__all__:
        assert getattr(boundread, name) is not None, name


def test_importing_boundread_still_loads_nothing_else() -> None:
    code = "import sys, boundread; print(sorted(m for m in sys.modules if m.startswith('boundread')))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "['boundread']"


def test_a_line_window_past_the_end_is_said_as_pages_says_a_clamp(samples: dict[str, Path]) -> None:
    log = samples["server.log"]
    total = log.read_text().count("\n")
    past = api.extract(log, lines=f"{total - 1}-{total + 100}", stdout=True)
    assert past.warnings == (f"asked lines {total - 1}-{total + 100} but the text has {total:,}: "
                             f"read {total - 1:,}-{total:,}",)
    beyond = api.extract(log, lines=f"{total + 10}-{total + 20}", stdout=True)
    assert beyond.text == "" and beyond.warnings[-1].endswith("no lines there")
    for quiet in (api.extract(log, lines=f"{total - 1}-{total}", stdout=True),  # ends where the text ends
                  api.extract(log, lines=f"{total - 1}-", stdout=True),  # to the end, whatever it is
                  api.extract(log, head=total + 100, stdout=True),  # head -n: the first N there are
                  api.extract(log, lines="1-999999", limits=Limits(max_chars=100), stdout=True)):  # cut, not clamped
        assert not any(w.startswith("asked lines") for w in quiet.warnings), quiet.warnings
