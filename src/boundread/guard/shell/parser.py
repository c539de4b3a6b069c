"""tree-sitter's bash grammar, loaded for the cost of its two compiled modules.

Measured on CPython 3.11 (``-X importtime``): ``import tree_sitter, tree_sitter_bash`` takes ~20 ms,
almost all of it ``typing`` and ``importlib.resources`` pulled in by the packages' ``__init__``;
the compiled ``_binding`` modules alone load in ~1 ms. So they are loaded directly from the
installed packages' folders (the ``PathFinder`` already on ``sys.meta_path`` finds a package
without importing it, and gives the extension's loader) and registered under their own names,
where a later ``import tree_sitter`` finds them.

tree-sitter's core binding also imports ``re`` (for ``re.compile``, kept for query predicates) and
``enum`` (one ``IntEnum``, ``LogType``, handed to a parser's logger) when it initialises: ~10 ms,
as much as the rest of the hook. The guard uses neither queries nor loggers, so while the binding
initialises, ``re`` and ``enum`` (when not loaded already) are stand-ins whose two attributes load
the real module on first call; the stand-ins leave ``sys.modules`` before anything else runs.

Parsing is linear: a 300,000-character word parses in ~9 ms; but the tree is not small. A megabyte of
``true;`` is 400,000 nodes, ~0.5 s and ~80 MB of tree (ten: 4.4 s and 840 MB). So a text longer than WATCHED
is parsed through tree-sitter's read callback, the one form that takes a ``progress_callback`` (a bytestring
ignores it): each report is ~100 parser operations and ~4 KB of tree, and the parse stops - ``Exhausted`` -
when the check's reports or its time run out. Shorter texts parse from the bytes, as fast as before.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from types import ModuleType

    from tree_sitter import Node, Parser

    from boundread.guard.shell.state import Ctx

#: Texts longer than this are parsed with progress reports (a 16 KB text parses in ~8 ms, in ~1 MB of tree).
WATCHED = 16 * 1024
#: The bytes handed to the parser per read: ``node.text`` of a tree parsed this way reads through the same
#: callback, from the node's start, so a short node costs a short slice.
_CHUNK = 4096

_Module = type(sys)  # types.ModuleType, without importing types


class _Deferred:
    """A callable the binding keeps; the real one is made on the first call or attribute read.
    (No __slots__: ``tree_sitter/__init__.py`` sets ``LogType.__doc__``.)"""

    def __init__(self, make: Callable[[], Callable[..., object]]) -> None:
        self._make = make
        self._real: Callable[..., object] | None = None

    def _resolve(self) -> Callable[..., object]:
        if self._real is None:
            self._real = self._make()
        return self._real

    def __call__(self, *args: object, **kwargs: object) -> object:
        return self._resolve()(*args, **kwargs)

    def __getattr__(self, name: str) -> object:  # LogType.PARSE
        if name.startswith("__") or name in ("_make", "_real"):
            raise AttributeError(name)
        return getattr(self._resolve(), name)


def _real(module: str, attribute: str) -> Callable[[], Callable[..., object]]:
    def make() -> Callable[..., object]:
        import importlib  # the stand-in has left sys.modules: this is the real module

        found: Callable[..., object] = getattr(importlib.import_module(module), attribute)
        return found

    return make


def _int_enum(name: str, members: object) -> _Deferred:
    """``enum.IntEnum(name, members)``, made when the binding first calls it (a parser's logger)."""
    def make() -> Callable[..., object]:
        import enum
        from typing import cast

        return cast("Callable[..., object]", enum.IntEnum(name, members))  # the functional API

    return _Deferred(make)


def _stand_ins() -> dict[str, ModuleType]:
    """The modules to stand in for while the core binding initialises: those not loaded yet."""
    stand_ins: dict[str, ModuleType] = {}
    if "re" not in sys.modules:
        re = stand_ins["re"] = _Module("re")
        re.compile = _Deferred(_real("re", "compile"))  # type: ignore[attr-defined]
    if "enum" not in sys.modules:
        enum = stand_ins["enum"] = _Module("enum")
        enum.IntEnum = _int_enum  # type: ignore[attr-defined]
    return stand_ins


def _binding(package: str) -> ModuleType:
    """The package's compiled ``_binding`` module, loaded without the package.

    Not the public API (``tree_sitter.Parser``, ``tree_sitter_bash.language``) on purpose: it is the same objects,
    behind an ``__init__`` that imports typing and importlib.resources (~20 ms on every parsed command), and
    tree-sitter offers no lighter door. What this relies on - the ``_binding`` modules, the core binding reading
    only ``re.compile`` and ``enum.IntEnum`` as it initialises, the public classes being the binding's - is
    checked against the installed tree-sitter by tests/guard/test_guard_shell_parser_loading.py."""
    name = package + "._binding"
    if name in sys.modules:
        return sys.modules[name]
    from boundread.finder import package_folders, path_finder

    found = getattr(path_finder(), "find_spec", None)
    folders = package_folders(package) if found else []
    binding = found(name, folders) if found and folders else None
    loader = getattr(binding, "loader", None)
    if binding is None or loader is None or not os.path.isfile(binding.origin or ""):
        import importlib  # an unusual install (zipped, frozen): the ordinary way

        return importlib.import_module(name)
    stand_ins = _stand_ins() if package == "tree_sitter" else {}
    sys.modules.update(stand_ins)
    try:
        module: ModuleType = loader.create_module(binding)
        loader.exec_module(module)
    finally:
        for key, stand_in in stand_ins.items():
            if sys.modules.get(key) is stand_in:
                del sys.modules[key]
    sys.modules[name] = module
    return module


def parser() -> Parser:
    core, bash = _binding("tree_sitter"), _binding("tree_sitter_bash")
    result: Parser = core.Parser(core.Language(bash.language()))
    return result


def parse(text: str, ctx: Ctx | None = None) -> Node:
    """The syntax tree of ``text``; tree-sitter never fails, it marks what it cannot read as ERROR. With ``ctx``,
    a long text's parse counts against the check's budget (``ctx.reports``, ``ctx.late()``)."""
    source = text.encode("utf-8", "surrogatepass")
    if ctx is None or len(source) <= WATCHED:
        return parser().parse(source).root_node
    from boundread.guard.shell.state import REPORTS, SECONDS, Exhausted

    budget = ctx  # the callbacks' view of it

    def read(at: int, _point: object) -> bytes:
        return source[at:at + _CHUNK]  # the tree keeps this function: `source` lives as long as the tree

    def progress(_offset: int, _has_error: bool) -> bool:
        budget.reports -= 1
        return budget.reports < 0 or budget.late()  # True: stop

    try:
        tree = parser().parse(read, progress_callback=progress)
    except ValueError:  # "Parsing failed": the progress callback stopped it
        if ctx.reports < 0:
            raise Exhausted(f"a syntax tree of ~{REPORTS * 4 // 1024} MB") from None
        raise Exhausted(f"{SECONDS:g} s of work") from None
    return tree.root_node
