"""The README's Python example runs, and narrates the fight it sets up.

Every fenced ``python`` block of ``README.md`` is run in order, in one namespace, as a
reader would paste them; each must print something, and the names of the combatants it
creates must appear in what it prints. A README that no longer matches the engine fails
here.
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
BLOCK = re.compile(r"^```python\n(.*?)^```$", flags=re.M | re.S)


def python_blocks(text: str) -> list[str]:
    """The fenced ``python`` blocks of a Markdown text, in order."""
    return BLOCK.findall(text)


def test_blocks_are_found() -> None:
    text = "Avant\n\n```python\nprint(1)\n```\n\n```bash\nmake\n```\n```python\nx = 2\n```\n"
    assert python_blocks(text) == ["print(1)\n", "x = 2\n"]


BLOCKS = python_blocks(README.read_text(encoding="utf-8"))


def test_the_readme_has_an_example() -> None:
    assert BLOCKS, "README.md n’a plus d’exemple Python"


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_the_readme_example_runs_and_narrates(index: int) -> None:
    namespace: dict[str, object] = {"__name__": "__readme__"}
    for block in BLOCKS[:index]:
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(block, f"README.md, bloc {index}", "exec"), namespace)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(BLOCKS[index], f"README.md, bloc {index + 1}", "exec"), namespace)
    printed = out.getvalue()
    assert printed.strip(), f"le bloc {index + 1} du README n’affiche rien"
    names = re.findall(r'Combatant\(\s*"([^"]+)"', BLOCKS[index])
    missing = [n for n in names if n not in printed]
    assert not missing, f"le récit du README ne nomme pas : {', '.join(missing)}\n{printed}"
