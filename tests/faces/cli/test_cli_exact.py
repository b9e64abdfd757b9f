"""``escarmouche cotes --duel``: the exact odds of a duel in French (escarmouche.exact)."""

from __future__ import annotations

from pathlib import Path

import pytest

from escarmouche.cli import main


def test_cotes_duel_in_french(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cotes", "--duel", "d100-duel", "--tours", "1"]) == 0
    out = capsys.readouterr().out
    assert "« Duel" in out.replace("\u00a0", " ")  # French typography (no-break spaces)
    out = out.replace("\u00a0", " ").replace("\u202f", " ")
    assert "Cotes exactes du duel « Duel dans la cour de l’auberge »" in out
    assert "victoire du camp « orques » : 2,2 %" in out
    assert "limite de 1 round atteinte : 97,8 %" in out


def test_cotes_duel_refuses_a_crowd(capsys: pytest.CaptureFixture[str]) -> None:
    # CORE-ERR: a fight over the solver's bound is sent to « simule »
    code = main(["cotes", "--duel", "d100-escarmouche"])
    assert code != 0
    err = capsys.readouterr().err
    assert "au plus 2" in err and "escarmouche simule" in err


def test_simule_exact_beside_the_sampled_balance(capsys: pytest.CaptureFixture[str]
                                                 ) -> None:
    """CORE-END-1: ``simule --exact`` prints the duel's exact odds under the sampled
    balance and says where each lies against the sampled 95 % interval."""
    assert main(["simule", "d100-duel", "-n", "2000", "--exact", "--tours-max", "3"]) == 0
    out = capsys.readouterr().out.replace("\u00a0", " ").replace("\u202f", " ")
    assert "Cotes exactes du duel « Duel dans la cour de l’auberge »" in out
    assert "limite de 3 rounds atteinte" in out
    assert "Calcul exact et simulation (2000 combats) : « héros » 11,1 % exactement" in out
    assert out.count("dans son intervalle à 95 %") + out.count("hors de son") == 2


def test_simule_exact_json_is_refused_cotes_gives_it(capsys: pytest.CaptureFixture[str]
                                                     ) -> None:
    """The balance's JSON keeps its published schema (bilan-2): ``--exact --json`` is
    refused with the way to the exact odds in JSON, ``cotes --duel --json``."""
    import json

    assert main(["simule", "d100-duel", "-n", "200", "--exact", "--json"]) == 2
    assert "escarmouche cotes --duel FICHIER --json" in capsys.readouterr().err
    assert main(["cotes", "--duel", "d100-duel", "--tours", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["limite"]["valeur"] > 0.9 and data["etats"] > 0
    num, den = map(int, data["camps"]["orques"]["fraction"].split("/"))
    assert num / den == pytest.approx(data["camps"]["orques"]["valeur"])


def test_simule_exact_refusals(capsys: pytest.CaptureFixture[str]) -> None:
    """CORE-ERR: a fight the exact solver does not take (more than two fighters) is
    refused in French before any fight is played."""
    assert main(["simule", "d100-escarmouche", "-n", "200", "--exact"]) != 0
    err = capsys.readouterr().err.replace("\u00a0", " ").replace("\u202f", " ")
    assert "Calcul exact refusé : 5 combattants, au plus 2" in err
    assert main(["simule", "d100-escarmouche", "--exact", "--grille",
                 "parades_par_round=1,2"]) != 0
    assert "au plus 2" in capsys.readouterr().err


@pytest.mark.parametrize(("name", "title", "word"),
                         [("d20-duel", "Thorin contre Gob", "rounds"),
                          ("d12-duel", "Aldric contre Grolk", "tours"),
                          ("rulebook-duel", "Duel sur le pont de cordes", "tours")])
def test_cotes_duel_in_every_system(name: str, title: str, word: str,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    """CORE-END-1: the exact odds of each system's example duel, in French, the chances
    summing to 100 % (in JSON, the fractions to exactly 1)."""
    import json
    from fractions import Fraction

    assert main(["cotes", "--duel", name, "--tours", "2"]) == 0
    out = capsys.readouterr().out.replace("\u00a0", " ").replace("\u202f", " ")
    assert f"Cotes exactes du duel « {title} » (sans simulation) :" in out
    assert f"limite de 2 {word} atteinte" in out  # the system's turn word
    assert main(["cotes", "--duel", name, "--tours", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    chances = [*data["camps"].values(), data["nul"], data["limite"]]
    assert sum(Fraction(c["fraction"]) for c in chances) == 1


def test_simule_exact_grid_prints_and_draws_the_exact_curve_core_end_1(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """CORE-END-1: ``simule --grille --exact`` prints, under the sampled sweep, the duel
    solved at each point (exact_sweep, « calcul exact », no interval), and its chart
    stacks the exact curve under the sampled bars."""
    import xml.dom.minidom

    from escarmouche.simulation import exact_sweep

    out_svg = tmp_path / "balayage.svg"
    assert main(["simule", "d100-duel", "--grille", "parades_par_round=0,1", "-n", "300",
                 "--exact", "--tours-max", "4", "--sortie", str(out_svg)]) == 0
    out = capsys.readouterr().out.replace("\u00a0", " ").replace("\u202f", " ")
    grid = exact_sweep("d100-duel", {"parades_par_round": [0, 1]}, max_turns=4)
    assert str(grid).replace("\u00a0", " ").replace("\u202f", " ") in out
    assert "Balayage : 2 points × 300 combats" in out  # the sampled sweep is still there
    assert "en calcul exact :" in out and "(calcul exact)." in out
    svg = out_svg.read_text(encoding="utf-8")
    xml.dom.minidom.parseString(svg)
    assert svg.count("<polyline") == 2
    assert "Balayage exact\u00a0: victoires de chaque camp" in svg
    assert 'aria-label="Balayage simulé et exact"' in svg
