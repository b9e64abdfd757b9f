"""The live (JupyterLite) copies of the book's notebooks carry no raw MyST syntax."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from tests.helpers import ROOT



def load_plain_markdown() -> Callable[[str], str]:
    path = ROOT / "book" / "_ext" / "escarmouche_jupyterlite.py"
    spec = importlib.util.spec_from_file_location("escarmouche_jupyterlite_for_tests", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    fn: Callable[[str], str] = module.plain_markdown
    return fn


def test_myst_roles_targets_and_admonitions_become_plain_markdown() -> None:
    plain = load_plain_markdown()
    source = (
        "(d100-parry-2)=\n"
        "**D100-PARRY-2** Voir {ref}`D100-PARRY-3 <d100-parry-3>` et la {term}`BE`.\n\n"
        "```{admonition} Interprétation retenue\n:class: tip\n\nLe texte est muet.\n"
        "Ligne deux.\n```\n"
    )
    out = plain(source)
    assert "{ref}" not in out and "{term}" not in out and "```" not in out
    assert "(d100-parry-2)=" not in out
    assert "Voir **D100-PARRY-3** et la BE." in out
    assert "> **Interprétation retenue**" in out and "> Le texte est muet." in out
    assert ":class:" not in out


def test_every_book_notebook_converts_cleanly() -> None:
    import nbformat

    plain = load_plain_markdown()
    for path in sorted((ROOT / "book").rglob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)  # type: ignore[no-untyped-call]
        for cell in nb.cells:
            if cell.cell_type == "markdown":
                out = plain(cell.source)
                for raw in ("{ref}`", "{term}`", "```{admonition}", ":class:"):
                    assert raw not in out, (path.name, raw)
