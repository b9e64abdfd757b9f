"""Imports of private names across packages (the rule of CONTRIBUTING.md, « Public and
private names »).

A name with a leading underscore (``_check``, ``_jsonable``, a module ``_parse.py``) is
private to the *package* (the folder) that holds it: the modules of that folder may share
it, no other may import it, not even a sub-package or the parent. What another package
needs gets a public name. An import that crosses is counted per imported name::

    from escarmouche.editions.data import _jsonable     # private name, other package
    from escarmouche import _check                      # private module, other package
    import escarmouche_widgets._parse                   # the same

Relative imports are resolved first; ``__dunder__`` names are not private. The check
reads ``src``, ``widgets``, ``tools``, ``bench``, ``book/_ext`` (:data:`CODE`) and, apart,
``tests`` (:data:`TESTS`); ``tests/test_layers.py`` holds both counts to
:data:`ALLOWED`::

    .venv/bin/python tools/private_imports.py          # every crossing import, then the counts
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: the folders of the code proper, and where the import roots of each one are
CODE = ("src", "widgets", "tools", "bench", "book/_ext")
#: the folders of the tests, counted apart
TESTS = ("tests",)
#: a folder whose path is on ``sys.path`` (modules are named from there); any other
#: folder's modules are named from the repository's root (``tools.fuzz``, ``book._ext.…``)
PATH_ROOTS = ("src", "widgets")
#: packages whose underscore is a convention, not a mark of privacy: Sphinx's ``_ext``
NOT_PRIVATE = ("book._ext",)
#: the project's own top-level packages (a private name of the standard library or of a
#: dependency is not this rule's business)
PROJECT = ("escarmouche", "escarmouche_widgets", "tools", "tests", "bench", "book")
#: trees that count as one package: the test folders share their helpers
ONE_PACKAGE = ("tests",)
#: the crossings that stay, each with its reason; the key is ``importer → imported name``
ALLOWED: dict[str, str] = {}


def private(part: str) -> bool:
    """``_name`` is private; ``__name__`` and ``__init__`` are not."""
    return part.startswith("_") and not part.startswith("__")


def module_name(path: Path, root: Path = ROOT) -> str:
    """The dotted name a file is imported under (``src/escarmouche/cli/combat.py`` →
    ``escarmouche.cli.combat``; ``tools/fuzz.py`` → ``tools.fuzz``)."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[0] in PATH_ROOTS:
        parts = parts[1:]
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def package_of(path: Path, root: Path = ROOT) -> str:
    """The package a file belongs to: its folder's dotted name."""
    name = module_name(path, root)
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def _unit(package: str) -> str:
    """The unit of privacy of a package: itself, or the tree of :data:`ONE_PACKAGE` it
    is in."""
    top = package.split(".")[0]
    return top if top in ONE_PACKAGE else package


def _is_module(dotted: str, root: Path) -> bool:
    """Whether ``dotted`` names a module or package of the repository."""
    rel = Path(*dotted.split("."))
    bases = [root / p for p in PATH_ROOTS] + [root]
    return any((b / rel).with_suffix(".py").is_file() or (b / rel / "__init__.py").is_file()
               for b in bases)


def _owner(dotted: str) -> str | None:
    """The package that owns the first private part of a dotted name, or ``None`` if no
    part is private (``escarmouche._check.x`` → ``escarmouche``)."""
    parts = dotted.split(".")
    if parts[0] not in PROJECT:
        return None
    for i, part in enumerate(parts):
        if private(part) and ".".join(parts[: i + 1]) not in NOT_PRIVATE:
            return ".".join(parts[:i])
    return None


def _targets(node: ast.Import | ast.ImportFrom, package: str,
             root: Path) -> Iterator[tuple[str, str]]:
    """Each ``(full dotted name, owning package of its private part)`` that ``node``
    imports and that has a private part."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            owner = _owner(alias.name)
            if owner is not None:
                yield alias.name, owner
        return
    base = node.module or ""
    if node.level:
        up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
        base = ".".join(up + ([base] if base else []))
    for alias in node.names:
        full = f"{base}.{alias.name}"
        owner = _owner(base)
        if owner is None and private(alias.name) and base.split(".")[0] in PROJECT:
            # a private submodule, or a private name of a package's ``__init__``, belongs
            # to that package; a private name of a plain module, to the module's package
            inside = _is_module(full, root) or _is_package(base, root)
            owner = base if inside else base.rpartition(".")[0]
        if owner is not None:
            yield full, owner


def _is_package(dotted: str, root: Path) -> bool:
    """Whether ``dotted`` names a package (a folder with ``__init__.py``)."""
    rel = Path(*dotted.split("."))
    return any((b / rel / "__init__.py").is_file()
               for b in [root / p for p in PATH_ROOTS] + [root])


def python_files(folders: Iterable[str], root: Path = ROOT) -> list[Path]:
    """The ``.py`` files under ``folders`` (hidden folders and caches aside), sorted."""
    files: list[Path] = []
    for folder in folders:
        for path in (root / folder).rglob("*.py"):
            parts = path.relative_to(root).parts
            if not any(p.startswith(".") or p == "__pycache__" for p in parts[:-1]):
                files.append(path)
    return sorted(files)


def crossings(folders: Iterable[str], root: Path = ROOT) -> list[str]:
    """One ``importer → imported name`` line per private name imported across packages."""
    found: list[str] = []
    for path in python_files(folders, root):
        package = package_of(path, root)
        importer = module_name(path, root)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            for full, owner in _targets(node, package, root):
                if _unit(owner) != _unit(package):
                    found.append(f"{importer} → {full}")
    return found


def main(root: Path = ROOT) -> int:
    """Print every crossing import, then the counts; 0 always (the test holds the line)."""
    code, tests = crossings(CODE, root), crossings(TESTS, root)
    for line in code + tests:
        note = ALLOWED.get(line)
        print(line + (f"   (allowed: {note})" if note else ""))
    print(f"code: {len(code)} ({len([c for c in code if c in ALLOWED])} allowed); "
          f"tests: {len(tests)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
