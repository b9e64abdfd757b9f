"""Exact sweeps (escarmouche.simulation.exact_sweep): a duel solved without sampling at
every point of an option grid; its values are duel()'s at each point, its chart a curve
without an interval band, in French (CORE-END-1, CORE-ERR)."""

from __future__ import annotations

import re
import xml.dom.minidom
from fractions import Fraction

import pytest

from escarmouche import simulation as sim
from escarmouche.errors import EscarmoucheError
from escarmouche.exact import duel
from escarmouche.render.simsvg import curve_svg
from escarmouche.roster import example_rosters, load_roster
from escarmouche.simulation.precision import signed_points
from escarmouche.text.fmt import percent
from tests.helpers.typography import problems


def _plain(text: str) -> str:
    return text.replace("\u00a0", " ").replace("\u202f", " ")


@pytest.fixture(scope="module")
def grid() -> sim.ExactSweep:
    return sim.exact_sweep("d100-duel", {"parades_par_round": [0, 1, 2]}, max_turns=4)


def test_each_point_is_the_duel_solved_under_its_rules_core_end_1(grid: sim.ExactSweep
                                                                  ) -> None:
    """CORE-END-1: the chance at each point of the grid is duel() of the roster under
    that point's option, to the float; the grid keeps its order and fields."""
    roster = load_roster(example_rosters()["d100-duel"])
    assert grid.fields == ("parries_per_round",) and grid.points == ((0,), (1,), (2,))
    for (parries,), solved in zip(grid.points, grid.duels, strict=True):
        alone = duel(roster.with_options(parades_par_round=parries), max_turns=4,
                     exact=False)
        assert solved.floats == pytest.approx(alone.floats, abs=1e-12)
        assert solved.mean_rounds == pytest.approx(alone.mean_rounds, abs=1e-12)
    exact = sim.exact_sweep(roster, {"parries_per_round": [1]}, max_turns=4, exact=True)
    assert all(isinstance(p, Fraction) for p in exact.duels[0].wins.values())
    assert float(exact.duels[0].wins["héros"]) == pytest.approx(
        float(grid.duels[1].wins["héros"]), abs=1e-12)


def test_the_table_and_headline_say_calcul_exact_core_end_1(grid: sim.ExactSweep) -> None:
    """The headline says each point's exact difference with the first in points,
    « calcul exact » in place of an interval; the table has no interval either."""
    text = _plain(str(grid))
    assert text.startswith("Chaque point comparé au premier (parades par round = 0), en "
                           "calcul exact :")
    assert text.count("(calcul exact).") == 2 and "±" not in text and "[" not in text
    assert "Balayage exact : 3 points, sans simulation" in text
    diff = float(grid.duels[2].wins["héros"]) - float(grid.duels[0].wins["héros"])
    assert signed_points(diff) in text
    for line in str(grid).splitlines():
        assert problems(line) == [], (problems(line), line)
    assert grid.to_json()["points"] == [{"parries_per_round": v} for v in (0, 1, 2)]


def test_the_curve_is_well_formed_french_and_without_a_band_core_end_1(
        grid: sim.ExactSweep) -> None:
    """The chart is one SVG document: a polyline per side through every point, a circle
    per point with its French tooltip, French labels, no interval band (no area)."""
    svg = grid.svg()
    xml.dom.minidom.parseString(svg)  # well-formed
    assert svg.count("<polyline") == 2 and svg.count("<circle") == 6
    assert "<rect" not in svg.split("</title>", 1)[1].replace(
        '<rect x="0" y="0"', "", 1)  # nothing but the background: no band
    raw = re.findall(r"<(?:text|title)[^>]*>([^<]*)<", svg)
    texts = [_plain(t) for t in raw]
    assert "Balayage exact : victoires de chaque camp" in texts
    assert "Parades par round (D100-PARRY-3)" in texts and "100 %" in texts
    assert {"héros", "orques", "0", "1", "2"} <= set(texts)
    héros = grid.duels[2].wins["héros"]
    assert any(t.startswith("héros, 2 : " + _plain(percent(héros)))
               for t in texts)
    for t in raw:
        assert problems(t) == [], t
    # each point's height is its chance: y = bottom − height × p, in order along x
    line = re.search(r'<polyline points="([^"]+)"', svg)
    assert line is not None
    xs = [float(pair.split(",")[0]) for pair in line.group(1).split()]
    assert xs == sorted(xs) and len(set(xs)) == 3


def test_curve_refuses_what_it_cannot_draw_core_err() -> None:
    """CORE-ERR: a chance outside 0–1 or a curve of the wrong length is refused in
    French."""
    with pytest.raises(EscarmoucheError, match="une probabilité entre 0 et 1"):
        curve_svg(["a"], [("héros", [1.5])], title="t", x_title="x")
    with pytest.raises(EscarmoucheError, match="2 chances attendues"):
        curve_svg(["a", "b"], [("héros", [0.5])], title="t", x_title="x")


def test_an_exact_sweep_refuses_a_crowd_and_a_huge_grid_core_err() -> None:
    """CORE-ERR: what duel() refuses is refused at the first point (a crowd), and a grid
    of more points than an exact sweep solves, before any solve."""
    with pytest.raises(EscarmoucheError, match="au plus 2"):
        sim.exact_sweep("d100-escarmouche", {"parades_par_round": [0, 1]})
    with pytest.raises(EscarmoucheError, match="au plus 50 points"):
        sim.exact_sweep("d100-duel", {"parades_par_round": list(range(11)),
                                      "esquives_par_round": list(range(5))})
