"""``tools/check_sizes.py`` (run by ``make lint``): no Python or JavaScript file over 800
lines."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from tests.helpers import ROOT


def _load_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_sizes", ROOT / "tools" / "check_sizes.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


TOOL = _load_tool()


def _write(root: Path, name: str, lines: int) -> None:
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("x = 1\n" * lines, encoding="utf-8")


def test_a_file_over_the_limit_is_named_with_its_count_and_the_limit(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write(tmp_path, "src/ok.py", 800)
    _write(tmp_path, "tests/long.py", 1234)
    _write(tmp_path, "src/.hidden/skipped.py", 900)
    _write(tmp_path, "book/elsewhere.py", 900)
    assert TOOL.main(tmp_path, pending={}) == 1
    err = capsys.readouterr().err
    assert err.splitlines() == [
        "tests/long.py : 1\u202f234 lignes, au-delà de la limite de 800 lignes par fichier "
        "Python ; découpez-le"]


def test_files_within_the_limit_pass(tmp_path: Path) -> None:
    _write(tmp_path, "widgets/a.py", 10)
    _write(tmp_path, "bench/b.py", 800)
    assert TOOL.main(tmp_path, pending={}) == 0


def test_a_pending_file_may_not_grow_and_leaves_the_list_once_short(tmp_path: Path) -> None:
    _write(tmp_path, "tests/big.py", 900)
    assert TOOL.main(tmp_path, pending={"tests/big.py": 900}) == 0
    assert "ne doit pas dépasser ses 850 lignes" in TOOL.problems(
        TOOL.python_files(tmp_path), tmp_path, {"tests/big.py": 850})[0]
    _write(tmp_path, "tests/big.py", 700)
    assert "retirez-le de PENDING" in TOOL.problems(
        TOOL.python_files(tmp_path), tmp_path, {"tests/big.py": 900})[0]
    assert "introuvable" in TOOL.problems([], tmp_path, {"tests/gone.py": 900})[0]


def test_a_javascript_file_over_the_limit_is_named_too(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The project's own scripts count (book/_static, book/_ext, tools), not the bundled
    library nor npm's packages."""
    _write(tmp_path, "book/_static/live/long.js", 801)
    _write(tmp_path, "book/_static/live/ok.mjs", 800)
    _write(tmp_path, "book/_static/vendor/bundle.js", 5000)
    _write(tmp_path, "tools/node_modules/pkg/index.js", 5000)
    assert TOOL.main(tmp_path, pending={}) == 1
    assert capsys.readouterr().err.splitlines() == [
        "book/_static/live/long.js : 801 lignes, au-delà de la limite de 800 lignes par "
        "fichier JavaScript ; découpez-le"]
