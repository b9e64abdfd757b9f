"""The widgets' pure helpers and shared controls (parsing, HTML, dice source, roster)."""

from __future__ import annotations

import random

import pytest
from escarmouche_widgets import _html as h
from escarmouche_widgets._controls import DiceControls, ErrorBanner, RosterEditor
from escarmouche_widgets._parse import (
    RosterRow,
    build_roster,
    parse_dice_list,
    parse_idents,
    parse_int,
    parse_params,
    parse_stats,
    roster_rows,
)

from escarmouche import Combatant, EscarmoucheError
from escarmouche.dice import ScriptedRolls
from escarmouche.errors import invalid

# -- parsing ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "values"),
    [("37, 4, 12", [37, 4, 12]), ("37 4\t12", [37, 4, 12]), (" 5;6 ,7 ", [5, 6, 7]),
     ("100", [100])],
)
def test_parse_dice_list(text: str, values: list[int]) -> None:
    assert parse_dice_list(text) == values


@pytest.mark.parametrize("text", ["", "  ", "3, x", "4.5", "-3", "²", "1d6"])
def test_parse_dice_list_rejects_in_french(text: str) -> None:
    with pytest.raises(EscarmoucheError) as err:
        parse_dice_list(text)
    assert "dés manuels" in str(err.value)
    assert "CORE-RNG" in str(err.value)


def test_parse_stats_forms() -> None:
    assert parse_stats("HAB=60, DIS=40; init:+2") == {"HAB": 60, "DIS": 40, "init": 2}
    assert parse_stats("HAB 60 DIS 40") == {"HAB": 60, "DIS": 40}
    assert parse_stats("PV=-2") == {"PV": -2}
    assert parse_stats("PV = −2") == {"PV": -2}
    assert parse_stats("") == {}


@pytest.mark.parametrize("text", ["HAB=abc", "=60", "HAB=60, HAB=50", "HAB=6.5"])
def test_parse_stats_rejects(text: str) -> None:
    with pytest.raises(EscarmoucheError) as err:
        parse_stats(text, "Aldric")
    assert "Aldric" in str(err.value)


def test_parse_idents_folds_accents_and_spaces() -> None:
    assert parse_idents("Hyperactivité, toujours premier ;Dépassé") == {
        "hyperactivite", "toujours_premier", "depasse"}
    assert parse_idents(" ") == frozenset()


def test_parse_int_and_params() -> None:
    assert parse_int(" 45 ", "CC", 0, 100) == 45
    with pytest.raises(EscarmoucheError, match="Valeur 140 refusée pour «\u00a0CC\u00a0»\u00a0: "
                                                 "un nombre entier entre 0 et 100"):
        parse_int("140", "CC", 0, 100)
    with pytest.raises(EscarmoucheError, match="nombre entier"):
        parse_int("quarante", "CC", 0, 100)
    assert parse_params("cible=Grolk, bonus=−2, prudent=oui") == {
        "cible": "Grolk", "bonus": -2, "prudent": True}
    with pytest.raises(EscarmoucheError, match="clé=valeur"):
        parse_params("Grolk")


def test_roster_round_trip_and_errors() -> None:
    rows = [RosterRow("Aldric", "héros", "HAB=60", "hyperactivité"),
            RosterRow("Grolk", "monstres", "HAB=40", "", "esquive")]
    roster = build_roster(rows)
    assert roster[0] == Combatant("Aldric", "héros", {"HAB": 60}, traits={"hyperactivite"})
    assert roster[1].skills == {"esquive"}
    assert build_roster(roster_rows(roster)) == roster
    with pytest.raises(EscarmoucheError, match="nom non vide"):
        build_roster([RosterRow("  ", "héros")])
    with pytest.raises(EscarmoucheError, match="Camp"):
        build_roster([RosterRow("A", "")])
    with pytest.raises(EscarmoucheError, match="deux combattants"):
        build_roster([RosterRow("A", "x"), RosterRow("A", "y")])
    with pytest.raises(EscarmoucheError, match="au moins un"):
        build_roster([])


# -- HTML ------------------------------------------------------------------------------


def test_text_of_drops_svg_and_keeps_structure() -> None:
    markup = h.join(
        h.section("Titre", h.table(("a", "b"), [(1, "<x>")])),
        '<svg><text>caché</text></svg>',
        h.dice_line([(100, 37, "initiative")]),
        h.rules_line(["RB-INIT-1", "RB-INIT-2", "RB-INIT-1"]),
        h.bullet_list(["un", "deux"]),
    )
    text = h.text_of(markup)
    assert "caché" not in text
    assert text.splitlines() == [
        "Titre", "a | b", "1 | <x>", "Dés lancés\u00a0: d100 = 37 (initiative)",
        "Règles appliquées\u00a0: RB-INIT-1 RB-INIT-2", "- un", "- deux",
    ]


def test_banner_escapes_and_is_empty_without_message() -> None:
    assert h.banner("") == ""
    assert "&lt;b&gt;" in h.banner("<b>")


# -- shared controls -------------------------------------------------------------------


def test_error_banner_guard_keeps_previous_state() -> None:
    banner = ErrorBanner()

    def bad() -> int:
        raise invalid("CC", 140, "CORE-ERR", "hors des bornes")

    assert banner.guard(bad) is None
    # a refusal reads as a sentence naming the field by its label (spec/RELECTURE.md)
    banner.labels = {"CC": "capacité de combat"}
    assert banner.guard(bad) is None
    assert banner.message.startswith("Valeur 140 refusée pour «\u00a0capacité de combat\u00a0»"
                                     "\u00a0: hors des bornes")
    assert "⚠" in banner.widget.value
    assert banner.guard(lambda: 3) == 3
    assert banner.message == "" and banner.widget.value == ""


def test_error_banner_lets_bugs_through() -> None:
    def bug() -> int:
        raise KeyError("x")

    with pytest.raises(KeyError):
        ErrorBanner().guard(bug)


def test_dice_controls_seed_and_manual() -> None:
    dice = DiceControls(seed=42)
    rng = dice.rng()
    assert isinstance(rng, random.Random)
    assert rng.randint(1, 100) == random.Random(42).randint(1, 100)
    assert dice.describe() == "graine 42"
    assert dice.dice.layout.display == "none"
    dice.manual.value = True
    assert dice.dice.layout.display == "" and dice.seed.layout.display == "none"
    dice.dice.value = "37, 4"
    scripted = dice.rng()
    assert isinstance(scripted, ScriptedRolls)
    assert scripted.randint(1, 100) == 37
    assert dice.leftover(scripted) == "1 résultat saisi non utilisé (il y en avait 2, 1 lu)."
    dice.dice.value = "37, x"
    with pytest.raises(EscarmoucheError, match="dés manuels"):
        dice.rng()
    dice.manual.value = False
    before = dice.seed.value
    assert str(dice.new_seed()) == dice.seed.value
    assert isinstance(before, str) and dice.seed_value() == int(dice.seed.value)


def test_roster_editor_add_remove_and_read() -> None:
    editor = RosterEditor([RosterRow("Aldric", "héros", "HAB=60")])
    editor.add_button.click()
    assert len(editor.lines) == 2
    line = editor.lines[1]
    line.name.value, line.side.value, line.stats.value = "Grolk", "monstres", "HAB=40"
    line.traits.value = "toujours dernier"
    assert [c.name for c in editor.combatants()] == ["Aldric", "Grolk"]
    assert editor.combatants()[1].traits == {"toujours_dernier"}
    editor.lines[0].remove.click()
    assert [c.name for c in editor.combatants()] == ["Grolk"]
    assert len(editor.rows_box.children) == 1
    editor.lines[0].name.value = ""
    with pytest.raises(EscarmoucheError, match="nom non vide"):
        editor.combatants()


def test_package_exports_the_six_demos_lazily() -> None:
    import escarmouche_widgets

    for name in escarmouche_widgets.__all__:
        if name == "text_of":  # the one function: what a reader sees in a widget's HTML
            assert callable(escarmouche_widgets.text_of)
            continue
        assert isinstance(getattr(escarmouche_widgets, name), type)
    with pytest.raises(AttributeError):
        escarmouche_widgets.Nothing  # noqa: B018  # the attribute access is the test
