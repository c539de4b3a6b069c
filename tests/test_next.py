"""Every `next` leads somewhere: for every corpus file, each command that `info` and `extract` print as
`next` (and each `boundread ...` an error names as the fix) is run, and must do new work and end in 0 or a
documented exit code.

"New work": not the command that printed it, not the same answer again (the same table, the same slice), and
a hint to run `boundread info` on a file that extract refuses must lead to an `info` that says what is wrong
(its `problem`, or at least a warning).
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

from boundread.errors import ExitCode
from tests.helpers import run
from tests.test_corpus import corpus_files

DOCUMENTED = {int(code) for code in ExitCode}
PLACEHOLDERS = {"PATTERN": "e", "NAME": "x"}


def password_of(name: str) -> str:
    """The corpus names its passwords: `7z-bla.encrypted-pw-foo.7z` opens with `foo`."""
    found = re.search(r"-pw-([A-Za-z0-9]+)", name)
    return found.group(1) if found else "wrong"


def answer(command: str, name: str, out: Path) -> tuple[int, dict[str, Any]]:
    """Run a printed command line (``boundread ...``) in-process with --json; its code and JSON."""
    words = shlex.split(command)
    assert words[0] == "boundread", command
    words = [password_of(name) if w == "PASSWORD" else PLACEHOLDERS.get(w, w) for w in words[1:]]
    if words[0] in ("extract", "pages") or (words[0] == "sheets" and len(words) > 2):
        words += ["-o", str(out / f"{len(list(out.iterdir()))}.txt")]
    result = run(*words, "--json", "--timeout", "20")
    assert result.stderr == "", (command, result.stderr)  # --json: no traceback, no words on stderr
    assert result.exit_code in DOCUMENTED, (command, result.exit_code)
    return result.exit_code, json.loads(result.stdout)


def hints(data: dict[str, Any]) -> list[str]:
    """The `boundread ...` commands an error names as its fix."""
    message = data.get("error", {}).get("message", "")
    return re.findall(r"`(boundread [^`]+)`", message.split(" - ", 1)[-1])


def same_work(before: dict[str, Any], after: dict[str, Any]) -> bool:
    if "error" in before or "error" in after:
        return False
    if before.get("command") == "info" and after.get("command") == "sheets":
        return "sheets" in after and after["sheets"] == before["fields"].get("sheets")
    keys = ("kind", "done", "chars", "member", "truncated_reasons")
    return before.get("command") == after.get("command") and all(before.get(k) == after.get(k) for k in keys)


@pytest.mark.corpus
@pytest.mark.parametrize("name", corpus_files())
def test_every_next_leads_somewhere(name: str, corpus_dir: Path, tmp_path: Path) -> None:
    path = shlex.quote(str(corpus_dir / name))
    out = tmp_path / "slices"
    out.mkdir()
    pending = [(f"boundread info {path}", 0), (f"boundread extract {path}", 0)]
    seen: set[str] = set()
    while pending:
        command, depth = pending.pop(0)
        _, data = answer(command, name, out)
        steps = [step for step in data.get("next", []) if step not in seen]
        for step in data.get("next", []):
            assert step != command, f"{command} suggests itself"
        for hint in hints(data):
            if hint.split()[1] == "info" and len(hint.split()) == 2:  # "`boundread info` describes it"
                hint = f"boundread info {path}"
            assert hint != command, f"{command} fails and suggests itself"
            if hint.split()[1] == "info":
                _, about = answer(hint, name, out)
                assert about.get("problem") or about.get("warnings") or about.get("error"), \
                    f"{command} fails ({data['error']['message']}) and says run `{hint}`, which finds nothing wrong"
            else:
                steps.append(hint)
        if depth >= 2:
            continue
        for step in steps:
            seen.add(step)
            _, after = answer(step, name, out)
            assert not same_work(data, after), f"`{step}` (from `{command}`) repeats its work"
            pending.append((step, depth + 1))
