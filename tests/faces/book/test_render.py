"""Tests of escarmouche.render: French formats, SVG charts, HTML tables."""

from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ET
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from escarmouche import EscarmoucheError
from escarmouche.dice import distribution
from escarmouche.render import (
    distribution_svg,
    fraction,
    html_table,
    number,
    outcome_bars_svg,
    percent,
    timeline_svg,
)
from escarmouche.text.fmt import MINUS, NNBSP
from collections.abc import Callable
from escarmouche_widgets import Atelier, CombatTracker, D20TurnDemo, SurpriseDemo
from escarmouche_widgets import text_of
from escarmouche_widgets._parse import fold_ident
from escarmouche_widgets._record import Recorder
from escarmouche_widgets.d20_turn import TURN_ACTIONS, TYPED, parse_actions
from escarmouche_widgets.surprise import summary_html, surprise_views
from escarmouche import Combatant, systems
from escarmouche import simulation as sim
from escarmouche.dice import ScriptedRolls
from escarmouche.encounter import Encounter
from escarmouche.roster import example_rosters, load_roster
from escarmouche.simulation.balance import shares
from escarmouche.systems import d12, d20
from escarmouche.systems import get as get_system
from escarmouche.systems.d12.narration import group_acts_sentence
from tests.helpers import ROOT
from tests.helpers.proofreading import BOOK, BOOK_SRC, DUELS, boxes_and_prose, page_outputs, page_source, raw_outputs, ruling_boxes, top_level_colons, unbreak

SVG = "{http://www.w3.org/2000/svg}"

# --------------------------------------------------------------------------------------
# fmt


@pytest.mark.parametrize(
    ("value", "digits", "expected"),
    [
        (Fraction(1, 8), 1, "12,5\u202f%"),
        (Fraction(1, 2), 1, "50,0\u202f%"),
        (Fraction(1, 2), 0, "50\u202f%"),
        (Fraction(1, 3), 2, "33,33\u202f%"),
        (Fraction(2, 3), 1, "66,7\u202f%"),
        (Fraction(1, 16), 1, "6,3\u202f%"),  # 6,25 : halves away from zero
        (Fraction(1, 200), 0, "1\u202f%"),  # 0,5 % -> 1 %
        (1, 1, "100,0\u202f%"),
        (0, 1, "0,0\u202f%"),
        (0.125, 1, "12,5\u202f%"),
        (Fraction(1, 10**6), 1, "<\u202f0,1\u202f%"),
        (Fraction(1, 10**6), 2, "<\u202f0,01\u202f%"),
        (Fraction(10**6 - 1, 10**6), 1, ">\u202f99,9\u202f%"),
        (Fraction(-1, 8), 1, "\u221212,5\u202f%"),
        (Fraction(3, 2), 0, "150\u202f%"),
    ],
)
def test_percent(value: Fraction | float | int, digits: int, expected: str) -> None:
    assert percent(value, digits) == expected


def test_percent_rejects_bad_input() -> None:
    with pytest.raises(ValueError):
        percent(float("nan"))
    with pytest.raises(EscarmoucheError):
        percent("0.5")  # type: ignore[arg-type]
    with pytest.raises(EscarmoucheError):
        number(10**5000)
    with pytest.raises(EscarmoucheError):
        number(1, digits=10**9)
    with pytest.raises(ValueError):
        percent(Fraction(1, 2), -1)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (Fraction(7, 2), "3,5"),
        (Fraction(10, 3), "3,33"),
        (3, "3"),
        (1234, "1234"),
        (12345, "12\u202f345"),
        (1234567, "1\u202f234\u202f567"),
        (-2, "\u22122"),
        (Fraction(-1, 1000), "0"),
        (2.5, "2,5"),
        (Fraction(-7, 2), "\u22123,5"),
    ],
)
def test_number(value: Fraction | float | int, expected: str) -> None:
    assert number(value) == expected


def test_number_digits() -> None:
    assert number(Fraction(2, 3), 0) == "1"
    assert number(Fraction(2, 3), 4) == "0,6667"


def test_fraction() -> None:
    assert fraction(Fraction(2, 16)) == "1/8"
    assert fraction(Fraction(4, 2)) == "2"
    assert fraction(-3) == f"{MINUS}3"
    assert fraction(Fraction(-1, 8)) == f"{MINUS}1/8"
    with pytest.raises(EscarmoucheError):
        fraction(0.5)  # type: ignore[arg-type]


@given(st.fractions(min_value=0, max_value=1))
def test_percent_is_well_formed(value: Fraction) -> None:
    text = percent(value)
    assert text.endswith(f"{NNBSP}%")
    assert "." not in text
    if 0 < value < 1:
        assert text not in (f"0,0{NNBSP}%", f"100,0{NNBSP}%")


# --------------------------------------------------------------------------------------
# SVG


def _tree(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return root


def _bars(root: ET.Element) -> list[ET.Element]:
    group = root.find(f"{SVG}g[@class='barres']")
    assert group is not None
    return group.findall(f"{SVG}rect")


def test_distribution_svg_bars_tooltips_and_highlight() -> None:
    dist = distribution("2d6")
    svg = distribution_svg(dist, title="Deux dés", highlight=lambda v: v >= 10)
    root = _tree(svg)
    assert root.findtext(f"{SVG}title") == "Deux dés"
    bars = _bars(root)
    assert len(bars) == 11
    tips = [bar.findtext(f"{SVG}title") for bar in bars]
    assert tips[5] == f"7\u00a0: 16,7{NNBSP}% (1/6)"
    fills = [bar.get("fill") for bar in bars]
    assert len(set(fills[:8])) == 1 and len(set(fills[8:])) == 1 and fills[0] != fills[-1]
    assert f"En évidence\u00a0: 16,7{NNBSP}%" in svg
    heights = [float(bar.get("height", "0")) for bar in bars]
    assert heights[5] == max(heights) and heights[0] == heights[-1] < heights[5]
    assert "Résultat" in svg


def test_distribution_svg_gaps_for_missing_outcomes() -> None:
    root = _tree(distribution_svg(distribution("1d6!"), title="d6 explosif", tail=Fraction(1, 100)))
    bars = _bars(root)
    xs = [float(bar.get("x", "0")) for bar in bars]
    assert xs == sorted(xs)
    # 6 never occurs: the bar of 7 sits two slots after the bar of 5.
    tips = [bar.findtext(f"{SVG}title") or "" for bar in bars]
    assert not any(t.startswith("6\u00a0:") for t in tips)
    assert tips[5].startswith("7\u00a0:")
    # four coordinates, each rounded to 0.01
    assert xs[5] - xs[4] == pytest.approx(2 * (xs[1] - xs[0]), abs=0.04)


def test_distribution_svg_thins_x_labels_for_many_outcomes() -> None:
    width = 640
    root = _tree(distribution_svg(distribution("1d1000"), title="d1000", width=width))
    group = root.find(f"{SVG}g[@class='axe-x']")
    assert group is not None
    labels = [t for t in group.findall(f"{SVG}text") if t.text != "Résultat"]
    assert 3 <= len(labels) <= 20
    xs = [float(t.get("x", "0")) for t in labels]
    # At most 5 characters of 11 px type: neighbours are at least ~33 px apart.
    assert min(b - a for a, b in itertools.pairwise(xs)) >= 33
    assert len(_bars(root)) == 1000


def test_distribution_svg_tail_note_and_long_fractions() -> None:
    svg = distribution_svg(distribution("3d10!"), title="t", tail=Fraction(1, 1000))
    root = _tree(svg)
    assert "Non affiché (queues)" in svg
    for bar in _bars(root):
        tip = bar.findtext(f"{SVG}title") or ""
        assert len(tip) < 40  # no 30-digit denominators in the tooltips


def test_distribution_svg_escapes_and_is_deterministic() -> None:
    title = "<script>alert('x')</script> & « dés »"
    shown = "<script>alert('x')</script> & «\u00a0dés\u00a0»"  # escaped, and typeset
    a = distribution_svg(distribution("1d4"), title=title, xlabel="<b>total</b>")
    b = distribution_svg(distribution("1d4"), title=title, xlabel="<b>total</b>")
    assert a == b
    assert "<script>" not in a and "<b>" not in a
    root = _tree(a)
    assert root.findtext(f"{SVG}title") == shown
    assert root.get("aria-label") == shown


def test_distribution_svg_edge_cases() -> None:
    assert "Aucun résultat" in distribution_svg({}, title="vide")
    _tree(distribution_svg({}, title="vide"))
    root = _tree(distribution_svg({3: Fraction(1)}, title="certain"))
    assert len(_bars(root)) == 1
    root = _tree(distribution_svg(distribution("1d4-10"), title="négatif"))
    assert _bars(root)[0].findtext(f"{SVG}title") == f"{MINUS}9\u00a0: 25,0{NNBSP}% (1/4)"


def test_outcome_bars_svg() -> None:
    items = [("raté", Fraction(1, 2)), ("paré", Fraction(1, 8)), ("touché <tête>", Fraction(3, 8))]
    svg = outcome_bars_svg(items, title="Attaque & parade")
    assert svg == outcome_bars_svg(items, title="Attaque & parade")
    root = _tree(svg)
    groups = root.findall(f"{SVG}g[@class='issue']")
    assert [g.findtext(f"{SVG}title") for g in groups] == [
        f"raté\u00a0: 50,0{NNBSP}% (1/2)",
        f"paré\u00a0: 12,5{NNBSP}% (1/8)",
        f"touché <tête>\u00a0: 37,5{NNBSP}% (3/8)",
    ]
    widths = []
    for g in groups:
        track, bar = g.findall(f"{SVG}rect")
        widths.append(float(bar.get("width", "0")) / float(track.get("width", "1")))
    assert widths == pytest.approx([0.5, 0.125, 0.375], abs=1e-3)
    assert "<tête>" not in svg
    _tree(outcome_bars_svg([], title="vide"))


def test_timeline_svg() -> None:
    turns = [
        ("Tour 0", ["Alice"]),
        ("Tour 1", ["Bob", "Alice", "Gobelin <1>", "Alice"]),
        ("Tour 2", []),
    ]
    sides = {"Alice": "PJ", "Bob": "PJ", "Gobelin <1>": "Gobelins"}
    svg = timeline_svg(turns, title="Initiative", sides=sides)
    assert svg == timeline_svg(turns, title="Initiative", sides=sides)
    root = _tree(svg)
    rows = root.findall(f"{SVG}g[@class='tour']")
    assert len(rows) == 3
    boxes = rows[1].findall(f"{SVG}g")
    assert [b.findtext(f"{SVG}title") for b in boxes] == [
        "Tour 1, rang 1\u00a0: Bob, camp PJ",
        "Tour 1, rang 2\u00a0: Alice, camp PJ",
        "Tour 1, rang 3\u00a0: Gobelin <1>, camp Gobelins",
        "Tour 1, rang 4\u00a0: Alice, camp PJ",
    ]
    fills = [b.find(f"{SVG}rect").get("fill") for b in boxes]  # type: ignore[union-attr]
    assert fills[0] == fills[1] == fills[3] != fills[2]
    xs = [float(b.find(f"{SVG}rect").get("x", "0")) for b in boxes]  # type: ignore[union-attr]
    assert xs == sorted(xs)
    assert "(personne)" in svg
    legend = root.find(f"{SVG}g[@class='legende']")
    assert legend is not None
    assert [t.text for t in legend.findall(f"{SVG}text")] == ["PJ", "Gobelins"]
    plain = _tree(timeline_svg(turns, title="Sans camps"))
    assert plain.find(f"{SVG}g[@class='legende']") is None


def test_html_table() -> None:
    table = html_table(
        ["Nom", "Init", "Esquive", "Chance"],
        [["Alice <b>", 12, True, percent(Fraction(1, 3))], ["Bob", -3, False, "—"]],
        caption="Ordre & chances",
    )
    root = ET.fromstring(table)
    assert root.tag == "table"
    assert root.findtext("caption") == "Ordre & chances"
    assert [th.text for th in root.iter("th")] == ["Nom", "Init", "Esquive", "Chance"]
    cells = [[td.text for td in tr.iter("td")] for tr in root.iter("tr")][1:]
    assert cells == [
        ["Alice <b>", "12", "oui", f"33,3{NNBSP}%"],
        ["Bob", f"{MINUS}3", "non", "—"],
    ]
    assert "<b>" not in table
    with pytest.raises(ValueError, match="ligne 1"):
        html_table(["a", "b"], [["x"]])


@settings(max_examples=50, deadline=2000)
@given(
    st.dictionaries(
        st.integers(-500, 500), st.fractions(min_value=0, max_value=1), min_size=1, max_size=30
    ),
    st.text(max_size=30),  # control characters included: replaced, never malformed XML
)
def test_distribution_svg_is_always_well_formed(dist: dict[int, Fraction], title: str) -> None:
    root = _tree(distribution_svg(dist, title=title))
    assert len(_bars(root)) == len(dist)


def test_de_elides_before_a_vowel() -> None:
    from escarmouche.text.fmt import de

    assert de("Aldric") == "d’Aldric"
    assert de("Élise") == "d’Élise"
    assert de("Brune") == "de Brune"
    assert de("Hugues") == "de Hugues"  # an initial h may be aspirated: no elision


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -0.1, Fraction(3, 2), 10**6, "1",
                                 True])
def test_renderers_refuse_values_that_are_not_probabilities_core_err(bad: object) -> None:
    """A probability outside [0, 1], NaN or infinite is refused, and fast: the cost of a
    chart is bounded by its output, not by the values (10**6 took 17 s before)."""
    with pytest.raises(EscarmoucheError, match="probabilité"):
        distribution_svg({0: bad}, title="t")  # type: ignore[dict-item]
    with pytest.raises(EscarmoucheError, match="probabilité"):
        outcome_bars_svg([("x", bad)], title="t")  # type: ignore[list-item]


def test_renderers_bound_their_size_core_err() -> None:
    with pytest.raises(EscarmoucheError, match="écart"):
        distribution_svg({0: Fraction(1, 2), 10**7: Fraction(1, 2)}, title="t")
    with pytest.raises(EscarmoucheError, match="éléments"):
        outcome_bars_svg([("x", Fraction(0))] * 5000, title="t")
    with pytest.raises(EscarmoucheError, match="caractères"):
        timeline_svg([("T" * 10_000, ["A"])], title="t")
    with pytest.raises(EscarmoucheError, match="largeur"):
        distribution_svg({0: Fraction(1)}, title="t", width=10**7)


@pytest.mark.parametrize("width", [320, 400, 560, 640, 1200])
def test_chart_text_is_at_least_12px_once_scaled_to_a_phone_column(width: int) -> None:
    """Reading on a phone (bench/README-pages.md): the book scales a chart down to its
    column (``max-width: 100%``); on a 390 px phone that column is ``PHONE_COLUMN`` px wide,
    and no text may render under ``MIN_TEXT_PX`` there."""
    from escarmouche.render import svg as svgmod

    charts = [
        svgmod.distribution_svg(distribution("2d6"), title="Deux d6", width=width,
                                highlight=lambda v: v >= 10),
        svgmod.outcome_bars_svg([("raté", Fraction(3, 4)), ("touché à la tête",
                                                            Fraction(1, 4))],
                                title="Issue", width=width),
    ]
    for chart in charts:
        shown = min(1.0, svgmod.PHONE_COLUMN / width)
        sizes = [float(s) for s in re.findall(r'font-size="([0-9.]+)"', chart)]
        assert sizes
        assert min(sizes) * shown >= svgmod.MIN_TEXT_PX - 1e-9, (width, min(sizes))


def test_a_long_timeline_wraps_instead_of_shrinking_on_a_phone() -> None:
    """Reading on a phone (bench/README-pages.md): a turn with many activations wraps onto
    more lines, so the timeline is no wider than a phone column and its text is never scaled
    under 12 px."""
    from escarmouche.render import svg as svgmod

    names = [f"Combattant{i}" for i in range(9)]
    chart = timeline_svg([("Tour 0", names), ("Tour 1", names[:2])], title="Ordre",
                         sides={n: f"camp {i % 4}" for i, n in enumerate(names)})
    root = _tree(chart)
    width = float(root.get("width", "0"))
    assert width <= svgmod.PHONE_COLUMN
    assert min(float(s) for s in re.findall(r'font-size="([0-9.]+)"', chart)) >= 12
    tips = [t.text or "" for t in root.iter(f"{SVG}title")]
    assert sum("Tour 0, rang" in t for t in tips) == 9  # every box is still drawn


def test_long_timeline_labels_and_title_stay_in_a_phone_column() -> None:
    from escarmouche.render import svg as svgmod

    turns = [("Système Rulebook (D100, HAB)", ["Aldric", "Brune", "Grolk", "Vex"]),
             ("Système d100 (CC/CT, localisation)", [])]
    chart = timeline_svg(turns, title="Premier tour de jeu, mêmes dés (graine 7), "
                         "quatre systèmes côte à côte")
    assert float(_tree(chart).get("width", "0")) <= svgmod.PHONE_COLUMN
    assert "(personne)" in chart


# -- the simulation pages --------------------------------------------------------------------


@pytest.mark.parametrize("system", ["d100", "d20"])
def test_b68_the_outcome_chart_counts_in_the_system_unit(system: str) -> None:
    """B68: the outcome chart of a d100 or d20 balance said « limite de tours »."""
    roster = load_roster(example_rosters()[DUELS[system]])
    chart = sim.simulate(roster, 3, seed=1).outcome_svg()
    assert "limite de rounds" in chart and "limite de tours" not in chart
