"""The Python examples of the guides run, and narrate what they set up.

Every fenced ``python`` block of ``README.md`` and of each guide of ``docs/`` is run in
order, in one namespace per file, as a reader would paste them; each must print
something, and the names of the combatants it creates must appear in what it prints. A
guide that no longer matches the engine fails here. Blocks fenced ``py`` (a cluster, a
server) are shown, not run.
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

from tests.helpers import ROOT

README = ROOT / "README.md"
GUIDES = [README, *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(r"^```python\n(.*?)^```$", flags=re.M | re.S)


def python_blocks(text: str) -> list[str]:
    """The fenced ``python`` blocks of a Markdown text, in order."""
    return BLOCK.findall(text)


def test_blocks_are_found() -> None:
    text = "Avant\n\n```python\nprint(1)\n```\n\n```bash\nmake\n```\n```python\nx = 2\n```\n"
    assert python_blocks(text) == ["print(1)\n", "x = 2\n"]


def test_a_py_block_is_not_run() -> None:
    assert python_blocks("```py\nClient('tcp://ordonnanceur:8786')\n```\n") == []


BLOCKS = [(path, index, blocks)
          for path in GUIDES
          for blocks in [python_blocks(path.read_text(encoding="utf-8"))]
          for index in range(len(blocks))]


def test_the_readme_has_an_example() -> None:
    assert python_blocks(README.read_text(encoding="utf-8")), \
        "README.md n’a plus d’exemple Python"


def test_the_guides_exist() -> None:
    names = {path.name for path in GUIDES}
    assert {"cli.md", "grappe.md", "hebergement.md"} <= names


@pytest.mark.parametrize(("path", "index", "blocks"), BLOCKS,
                         ids=[f"{p.relative_to(ROOT)}-{i + 1}" for p, i, _ in BLOCKS])
def test_the_example_runs_and_narrates(path: Path, index: int, blocks: list[str]) -> None:
    name = path.relative_to(ROOT)
    namespace: dict[str, object] = {"__name__": "__readme__"}
    for block in blocks[:index]:
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(block, f"{name}, bloc {index}", "exec"), namespace)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(blocks[index], f"{name}, bloc {index + 1}", "exec"), namespace)
    printed = out.getvalue()
    assert printed.strip(), f"le bloc {index + 1} de {name} n’affiche rien"
    names = re.findall(r'Combatant\(\s*"([^"]+)"', blocks[index])
    missing = [n for n in names if n not in printed]
    assert not missing, f"le récit de {name} ne nomme pas : {', '.join(missing)}\n{printed}"
