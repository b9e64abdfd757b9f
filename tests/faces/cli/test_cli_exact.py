"""``escarmouche cotes --duel``: the exact odds of a duel in French (escarmouche.exact)."""

from __future__ import annotations

import pytest

from escarmouche.cli import main


def test_cotes_duel_in_french(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cotes", "--duel", "d100-duel", "--tours", "1"]) == 0
    out = capsys.readouterr().out
    assert "« Duel" in out.replace("\u00a0", " ")  # French typography (no-break spaces)
    out = out.replace("\u00a0", " ").replace("\u202f", " ")
    assert "Cotes exactes du duel « Duel dans la cour de l’auberge »" in out
    assert "victoire des orques : 2,2 %" in out
    assert "limite de 1 round atteinte : 97,8 %" in out


def test_cotes_duel_refuses_a_crowd(capsys: pytest.CaptureFixture[str]) -> None:
    # CORE-ERR: a fight over the solver's bound is sent to « simule »
    code = main(["cotes", "--duel", "d100-escarmouche"])
    assert code != 0
    err = capsys.readouterr().err
    assert "au plus 2" in err and "escarmouche simule" in err
