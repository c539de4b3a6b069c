"""tree-sitter's bash grammar, loaded for the cost of its two compiled modules.

Measured on CPython 3.11 (``-X importtime``): ``import tree_sitter, tree_sitter_bash`` takes ~20 ms,
almost all of it ``typing`` and ``importlib.resources`` pulled in by the packages' ``__init__``;
the compiled ``_binding`` modules alone load in ~2 ms. So they are loaded directly from the
installed packages' folders (``PathFinder`` finds a package without importing it) and registered
under their own names, where a later ``import tree_sitter`` finds them. Parsing is linear: a
300,000-character word parses in ~9 ms.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType

    from tree_sitter import Node, Parser


def _binding(package: str) -> ModuleType:
    name = package + "._binding"
    if name in sys.modules:
        return sys.modules[name]
    import importlib.machinery as machinery

    spec = machinery.PathFinder.find_spec(package)
    for folder in (spec.submodule_search_locations or []) if spec else []:
        for suffix in machinery.EXTENSION_SUFFIXES:
            path = os.path.join(folder, "_binding" + suffix)
            if os.path.isfile(path):
                loader = machinery.ExtensionFileLoader(name, path)
                module_spec = machinery.ModuleSpec(name, loader, origin=path)
                module = loader.create_module(module_spec)
                loader.exec_module(module)
                sys.modules[name] = module
                return module
    import importlib  # an unusual install (zipped, frozen): the ordinary way

    return importlib.import_module(name)


def parser() -> Parser:
    core, bash = _binding("tree_sitter"), _binding("tree_sitter_bash")
    result: Parser = core.Parser(core.Language(bash.language()))
    return result


def parse(text: str) -> Node:
    """The syntax tree of ``text``; tree-sitter never fails, it marks what it cannot read as ERROR."""
    return parser().parse(text.encode("utf-8", "surrogatepass")).root_node
