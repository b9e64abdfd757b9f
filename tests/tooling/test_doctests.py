"""The docstring examples of every module run, as doctests.

The modules are found by walking the packages (``escarmouche`` and
``escarmouche_widgets``, and the edition tooling ``tools.editions``, which left the
package), so a new module or package is checked without touching this file. Each
public module of the engine also shows a reader at least one example.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from types import ModuleType

import pytest

#: the packages whose every module is checked
PACKAGES = ("escarmouche", "escarmouche_widgets", "tools.editions")

#: public engine modules that need not show an example (yet): the systems are being
#: reshaped elsewhere; their doctests run all the same
EXAMPLES_PENDING = ("escarmouche.systems",)


def module_names() -> list[str]:
    """Every module of :data:`PACKAGES`, packages and private modules included."""
    names: list[str] = []
    for package in PACKAGES:
        root = importlib.import_module(package)
        names.append(package)
        names.extend(info.name for info in pkgutil.walk_packages(root.__path__, f"{package}."))
    return sorted(names)


MODULES = module_names()


class _SpacesChecker(doctest.OutputChecker):
    """Docstring examples are written with ordinary spaces; the texts they print are
    typeset (U+00A0 and U+202F from :mod:`escarmouche.text.typo`, which
    ``tests/faces/book/test_typography.py`` checks), so here either no-break space, printed or in a
    repr, reads as a space."""

    _SPACES = ("\u00a0", "\u202f", "\\xa0", "\\u00a0", "\\u202f")

    def check_output(self, want: str, got: str, optionflags: int) -> bool:
        for space in self._SPACES:
            want, got = want.replace(space, " "), got.replace(space, " ")
        return super().check_output(want, got, optionflags)


def examples(module: ModuleType) -> list[doctest.DocTest]:
    """The module's doctests that hold at least one example (its own objects only)."""
    finder = doctest.DocTestFinder(exclude_empty=True)
    return [t for t in finder.find(module, module.__name__) if t.examples]


def test_every_package_is_walked() -> None:
    assert "escarmouche.dice" in MODULES
    assert "escarmouche.text.fmt" in MODULES
    assert "escarmouche_widgets.initiative" in MODULES


@pytest.mark.parametrize("name", MODULES)
def test_doctests_pass(name: str) -> None:
    module = importlib.import_module(name)
    runner = doctest.DocTestRunner(checker=_SpacesChecker())
    report: list[str] = []
    failed = sum(runner.run(test, out=report.append).failed for test in examples(module))
    assert failed == 0, "".join(report)


PUBLIC_ENGINE = [
    n for n in MODULES
    if n.split(".")[0] == "escarmouche"
    and not any(part.startswith("_") for part in n.split("."))
    and not n.startswith(EXAMPLES_PENDING)
]


@pytest.mark.parametrize("name", PUBLIC_ENGINE)
def test_every_public_engine_module_shows_an_example(name: str) -> None:
    module = importlib.import_module(name)
    assert examples(module), f"{name} : aucun exemple (>>>) dans ses docstrings"
