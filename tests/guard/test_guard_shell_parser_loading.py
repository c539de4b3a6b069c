"""guard/shell/parser.py loads tree-sitter's compiled modules without the packages' ``__init__`` (~20 ms of typing
and importlib.resources) and lends the core binding stand-ins for ``re`` and ``enum`` while it initialises (~10 ms):
the public API (``import tree_sitter, tree_sitter_bash``) has no lighter door. What that relies on in the installed
tree-sitter is checked here, each in a fresh interpreter, so an upgrade that changes it fails a test instead of the
hook: the packages keep their compiled ``_binding`` modules, the core binding reads only ``re.compile`` and
``enum.IntEnum`` as it initialises, and the objects made this way are the public API's own and parse alike.
"""

from __future__ import annotations

import json
import subprocess
import sys

from tests.hookproject import guard_env

RECORD = """
import json, sys, types
import enum, re
seen = {"re": [], "enum": []}

class Recording(types.ModuleType):
    def __getattr__(self, name):
        seen[self.__name__].append(name)
        return getattr(real[self.__name__], name)

real = {"re": re, "enum": enum}
sys.modules["re"], sys.modules["enum"] = Recording("re"), Recording("enum")
from boundread.guard.shell import parser
parser._binding("tree_sitter")  # as the hook loads it: "re" and "enum" are loaded, so they are not stood in for
sys.modules["re"], sys.modules["enum"] = re, enum
seen["package"] = "tree_sitter" in sys.modules
print(json.dumps(seen))
"""

SHORTCUT = """
import sys
from boundread.guard.shell import parser
tree = parser.parse("cd /tmp && for f in *.pdf; do cat \\"$f\\" | head -n 5; done")
shortcut = {"packages_imported": [m for m in ("tree_sitter", "tree_sitter_bash") if m in sys.modules],
            "bindings": [m for m in ("tree_sitter._binding", "tree_sitter_bash._binding") if m in sys.modules],
            "re": "re" in sys.modules, "enum": "enum" in sys.modules}
import json, tree_sitter, tree_sitter_bash
public = tree_sitter.Parser(tree_sitter.Language(tree_sitter_bash.language()))
again = public.parse("cd /tmp && for f in *.pdf; do cat \\"$f\\" | head -n 5; done".encode())
shortcut["same_classes"] = type(tree) is tree_sitter.Node and type(parser.parser()) is tree_sitter.Parser
shortcut["same_tree"] = str(tree) == str(again.root_node)
print(json.dumps(shortcut))
"""


def _run(code: str) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=guard_env(), timeout=60,
                          check=True)
    found: dict[str, object] = json.loads(done.stdout)
    return found


def test_the_core_binding_reads_only_what_the_stand_ins_give() -> None:
    """parser.py's stand-ins hold ``re.compile`` and ``enum.IntEnum`` only: any other name the binding reads as it
    initialises would fail the hook's parse, and must be added there."""
    seen = _run(RECORD)
    assert set(seen["re"]) <= {"compile"}, seen  # type: ignore[arg-type]
    assert set(seen["enum"]) <= {"IntEnum"}, seen  # type: ignore[arg-type]
    assert seen["enum"], "the binding no longer makes its IntEnum at start: the stand-in may go"
    assert seen["package"] is False  # the compiled module alone, as the hook loads it


def test_the_shortcut_skips_the_packages_and_their_imports() -> None:
    found = _run(SHORTCUT)
    assert found["bindings"] == ["tree_sitter._binding", "tree_sitter_bash._binding"]  # the compiled modules
    assert found["packages_imported"] == []  # without the packages' __init__ (typing, importlib.resources)
    assert found["re"] is False and found["enum"] is False  # the stand-ins left no trace


def test_the_shortcut_gives_the_public_api_objects_and_tree() -> None:
    """A later ``import tree_sitter`` finds the same binding: its Parser and Node are the ones parser.py made,
    and the grammar parses as through the public API."""
    found = _run(SHORTCUT)
    assert found["same_classes"] is True and found["same_tree"] is True
