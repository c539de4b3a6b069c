"""Each format family imports only itself, the neutral helpers (formats/_xml.py, formats/_ooxml/,
formats/ocr.py) and the core: no family reaches into another's modules (sheets once took ODF paragraph text
from office/)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

FORMATS = Path(__file__).resolve().parents[2] / "src" / "boundread" / "formats"
#: a package whose name starts with "_" (formats/_ooxml) is a neutral helper, like formats/_xml.py
FAMILIES = sorted(p.name for p in FORMATS.iterdir() if (p / "__init__.py").is_file() and not p.name.startswith("_"))


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


@pytest.mark.parametrize("family", FAMILIES)
def test_a_family_imports_no_other_family(family: str) -> None:
    others = [f"boundread.formats.{name}" for name in FAMILIES if name != family]
    crossing = sorted(f"{path.relative_to(FORMATS)} imports {module}"
                      for path in (FORMATS / family).rglob("*.py") for module in _imports(path)
                      if any(module == other or module.startswith(other + ".") for other in others))
    assert crossing == []


def test_the_families_are_found_and_share_xml_helpers() -> None:
    assert {"office", "sheets", "archives", "pdf"} <= set(FAMILIES)
    users = {path.relative_to(FORMATS).parts[0] for family in FAMILIES for path in (FORMATS / family).rglob("*.py")
             if "boundread.formats._xml" in _imports(path)}
    assert {"office", "sheets"} <= users
