"""Start-up stays light: heavy libraries load only in the command that needs them."""

from __future__ import annotations

import ast
import graphlib
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


SRC = Path(__file__).resolve().parents[1] / "src"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    """Every boundread module -> the boundread modules it imports anywhere in its body
    (at the top, inside functions, under TYPE_CHECKING)."""
    paths = {_module_name(p): p for p in sorted((SRC / "boundread").rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets.update(a.name for a in node.names if a.name in paths)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, base] if base else up)
                for alias in node.names:
                    full = f"{base}.{alias.name}"
                    targets.add(full if full in paths else base)
        graph[name] = (targets & paths.keys()) - {name}
    return graph


def test_the_graph_sees_the_registry_and_its_handlers() -> None:
    graph = import_graph()
    assert "boundread.formats" in graph["boundread.core.engine"]
    assert "boundread.formats.archives.handler" in graph["boundread.core.engine"]  # a function-local import
    assert "boundread.formats.office.slides" in graph["boundread.formats.office.odp"]


def test_no_import_circles() -> None:
    """Two modules that import each other (anywhere in their bodies) want a third that both import."""
    try:
        graphlib.TopologicalSorter(import_graph()).prepare()
    except graphlib.CycleError as exc:
        raise AssertionError("import circle: " + " -> ".join(exc.args[1])) from None


def _package(module: str) -> str:
    return module.split(".")[1] if "." in module else module


#: The document side, lowest first: a package imports only packages at its own level or below, so the
#: handler contract sits under the formats that implement it and the engine that calls them sits above.
LAYERS = (
    {"errors", "units", "tomlread", "record", "finder"},
    {"limits", "bytelevel"},
    {"contract", "ranges"},
    {"formats"},
    {"core"},
)


#: The hook side, lowest first: the decision knows no client and no ledger, the ledger knows no client, each
#: client's module may use both, the hook entry (guard-check, budget ingest) combines them, and the frameworks'
#: adapters run that hook in-process. Packages outside this table are not ranked against it.
HOOK_LAYERS = (
    {"guard"},
    {"budget"},
    {"agents"},
    {"hook"},
    {"adapters"},
)


def _uphill(layers: tuple[set[str], ...], unranked_is_above: bool) -> list[str]:
    """The imports from a package of ``layers`` to one ranked above it (or to one outside, when that counts)."""
    level = {package: n for n, packages in enumerate(layers) for package in packages}
    outside = len(layers) if unranked_is_above else -1
    return sorted(
        f"{module} -> {target}"
        for module, targets in import_graph().items()
        for target in targets
        if _package(module) in level and level.get(_package(target), outside) > level[_package(module)]
    )


def test_the_document_side_is_layered() -> None:
    assert _uphill(LAYERS, unranked_is_above=True) == []


def test_the_hook_side_is_layered() -> None:
    assert _uphill(HOOK_LAYERS, unranked_is_above=False) == []


def test_no_package_circles() -> None:
    """Two top-level packages that import each other, even through different modules, are one room split in two:
    neither can be read, tested or moved without the other."""
    packages: dict[str, set[str]] = {}
    for module, targets in import_graph().items():
        home = _package(module)
        packages.setdefault(home, set()).update(_package(target) for target in targets if _package(target) != home)
    try:
        graphlib.TopologicalSorter(packages).prepare()
    except graphlib.CycleError as exc:
        raise AssertionError("package circle: " + " -> ".join(exc.args[1])) from None
