"""guard/shell/families.py names, for each program, the module that models it, so guard-check imports a program
family only when a command runs one of its programs. The table must say what the modules themselves hold."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from boundread.guard import bounds
from boundread.guard.shell import (
    archives,
    converters,
    databases,
    derive,
    dumpers,
    editors,
    families,
    generators,
    greps,
    jsonprint,
    programs,
    remote,
)
from boundread.guard.shell.state import Env, Stream

#: programs.run's order: a name two families hold goes to the first.
_ORDER = (("archives", archives.PROGRAMS), ("converters", converters.PROGRAMS), ("derive", derive.PROGRAMS),
          ("editors", editors.PROGRAMS), ("dumpers", frozenset(dumpers.DUMPERS)), ("greps", greps.GREPS),
          ("remote", remote.PROGRAMS), ("generators", generators.PROGRAMS), ("jsonprint", jsonprint.PROGRAMS),
          ("databases", databases.PROGRAMS))


def test_the_table_is_what_the_modules_hold_first_family_first() -> None:
    expected: dict[str, str] = {}
    for family, names in _ORDER:
        for name in names:
            expected.setdefault(name, family)
    assert expected == families.FAMILY
    assert families.FAMILY["zcat"] == "dumpers"
    assert families.FAMILY["yes"] == families.FAMILY["seq"] == "generators"  # yes prints no file: without end
    assert families.FAMILY["kubectl"] == "remote"


def test_every_program_of_a_family_is_run_by_that_family(monkeypatch: pytest.MonkeyPatch) -> None:
    """programs.run hands each name to its family's function (the ones asked before the table, such as the
    shells, wrappers and builtins, keep theirs)."""
    called: list[tuple[str, str]] = []

    def spy(family: str, module: object, attr: str) -> None:
        def record(name: object, *rest: object) -> Stream:
            called.append((family, name if isinstance(name, str) else "python-json.tool"))
            return Stream()

        monkeypatch.setattr(module, attr, record)

    for family, module, attr in (("archives", archives, "run"), ("converters", converters, "run"),
                                 ("derive", derive, "run"), ("editors", editors, "run"),
                                 ("dumpers", dumpers, "dumper"), ("greps", greps, "grep"),
                                 ("jsonprint", jsonprint, "run"), ("databases", databases, "run"),
                                 ("remote", remote, "run"), ("generators", generators, "run")):
        spy(family, module, attr)
    for name, family in sorted(families.FAMILY.items()):
        if name in programs._CONSUMERS or name in bounds.READERS or name in ("awk", "gawk", "mawk", "nawk"):
            continue
        called.clear()
        programs.run([name, "x"], Env("/"), None, Stream())  # type: ignore[arg-type]
        assert called == [(family, name)], name


def test_a_plain_command_loads_no_program_family(tmp_path: Path) -> None:
    """`ls -la` through guard-check imports none of the families it does not run; `cat` and `grep` load theirs."""
    def loaded(command: str) -> set[str]:
        payload = json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash",
                              "tool_input": {"command": command}, "cwd": str(tmp_path), "session_id": "t"})
        code = "import sys, runpy; sys.argv = ['boundread', 'guard-check']; runpy.run_module('boundread', " \
               "run_name='__main__')"  # it ends with os._exit: the modules are read from -X importtime
        done = subprocess.run([sys.executable, "-X", "importtime", "-c", code], input=payload, capture_output=True,
                              text=True, cwd=tmp_path, check=False, timeout=60)
        return {line.split("|")[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}

    families_modules = {f"boundread.guard.shell.{family}" for family, _ in _ORDER}
    (tmp_path / "f.txt").write_text("hello\n", encoding="utf-8")
    plain = loaded("ls -la")
    assert "boundread.guard.shell.programs" in plain
    assert not plain & families_modules
    piped = loaded("cat f.txt | grep -v x | wc -l")
    assert {"boundread.guard.shell.dumpers", "boundread.guard.shell.greps"} <= piped
    assert not {"boundread.guard.shell.remote", "boundread.guard.shell.generators"} & piped  # a grep needs neither
