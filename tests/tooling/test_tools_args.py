"""The maintenance tools' command lines (``make refresh``, ``make serve``…) speak French:
help, usage and errors, as the ``escarmouche`` command does (tools/french_args.py)."""

from __future__ import annotations

import pytest

from tools import book_notebooks, serve_site


def test_a_bad_value_is_refused_in_french(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        book_notebooks.main(["--processus", "12"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "utilisation\u00a0:" in err and "choix invalide\u00a0: 12" in err, err
    assert "invalid choice" not in err and "usage:" not in err


def test_the_help_is_french(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        serve_site.main(["--aide"])
    assert stop.value.code == 0
    out = capsys.readouterr().out
    assert "Sert le site construit" in out and "le port (par défaut\u00a0: 8000)" in out, out
    assert "show this help" not in out
