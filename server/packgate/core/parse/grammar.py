"""The tree-sitter-bash grammar, the one parser the builder uses and the node kinds it compares."""

from __future__ import annotations

import sys


def _load_binding(package: str):
    """A package's compiled `_binding` module, loaded on its own, without the package's
    __init__, from where the wheels put it (ImportError, or another, elsewhere)."""
    import importlib.machinery
    import os
    name = f"{package}._binding"
    spec = importlib.machinery.PathFinder.find_spec(package)
    folder = spec.submodule_search_locations[0]
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    found = [f for f in os.listdir(folder) if f.startswith("_binding.") and f.endswith(suffixes)]
    path = os.path.join(folder, found[0])
    loader = importlib.machinery.ExtensionFileLoader(name, path)
    module = loader.create_module(importlib.machinery.ModuleSpec(name, loader, origin=path))
    loader.exec_module(module)
    return module


def _tree_sitter():
    """tree-sitter's classes: its `_binding` module. The package's __init__ imports typing (a
    Protocol for query predicates packgate never writes), a ninth of a cold `packgate check`.
    The module loaded here is registered under its name, so that importing the package later
    (the benchmarks, a test) takes it over instead of loading the library twice."""
    if "tree_sitter" in sys.modules:
        return sys.modules["tree_sitter"]
    try:
        module = _load_binding("tree_sitter")
    except Exception:  # another layout: the package's own way
        import tree_sitter
        return tree_sitter
    sys.modules.setdefault("tree_sitter._binding", module)
    return module


def _bash_grammar():
    """tree-sitter-bash's grammar. The package's __init__ imports importlib.resources (with
    tempfile, shutil, bz2, lzma: about 5 ms, a twentieth of `packgate check one.sh`) only to
    read query files packgate never uses, so its compiled `_binding` module is loaded on its
    own when it is where the wheels put it; otherwise through the package as usual."""
    try:
        return _load_binding("tree_sitter_bash").language()
    except Exception:  # another layout: the package's own way
        import tree_sitter_bash
        return tree_sitter_bash.language()


tree_sitter = _tree_sitter()  # Language, Parser, Range, ... as the package has them
_LANGUAGE = tree_sitter.Language(_bash_grammar())


def new_parser() -> tree_sitter.Parser:
    """A tree-sitter parser for bash."""
    return tree_sitter.Parser(_LANGUAGE)


PARSER = new_parser()
# non-ASCII bytes as `x` (see build.parse_bytes)
ASCII_ONLY = bytes(range(128)) + b"x" * 128


def kind(name: str) -> int:
    """The kind_id of the nodes of a type: the builder dispatches on it (reading `Node.type`
    makes a new string per node). tree-sitter reports one id per type name (its public symbol)."""
    found = _LANGUAGE.id_for_node_kind(name, True)
    if found is None:
        found = _LANGUAGE.id_for_node_kind(name, False)
    if found is None:
        raise ValueError(f"no node kind {name!r} in tree-sitter-bash")
    return found


def kinds(*names: str) -> frozenset:
    """The kind_ids of several types."""
    return frozenset(kind(n) for n in names)


# every named kind, ERROR included: `kind_id in NAMED` is `Node.is_named`
NAMED = frozenset([i for i in range(_LANGUAGE.node_kind_count) if _LANGUAGE.node_kind_is_named(i)]
                  + [kind("ERROR")])
# kind_id -> the type name Node.type gives (without making a new string per node)
KIND_NAMES = {**{i: _LANGUAGE.node_kind_for_id(i) for i in range(_LANGUAGE.node_kind_count)}, kind("ERROR"): "ERROR"}
