"""The one French-aware number parser of the widgets (spec/RELECTURE.md, R8) and its boxes.

Every number box of a demo is a :class:`~escarmouche_widgets._controls.NumberBox` read
by :func:`~escarmouche_widgets._parse.parse_number` against a
:class:`~escarmouche_widgets._parse.NumberField` taken from a declaration (an option's
``lo``/``hi``/rules, a system's stat bounds): « 12,5 » where a whole number is expected
is refused saying so, a decimal is read where one is meant, a value out of bounds is
refused (never clamped) with the field's one pair of bounds and its rule, and the
message says the value once (CORE-ERR).
"""

from __future__ import annotations

import re

import pytest
from escarmouche_widgets import Atelier
from escarmouche_widgets._controls import NumberBox, option_control, option_value
from escarmouche_widgets._parse import NumberField, parse_int, parse_number
from escarmouche_widgets.parry import ParryDodgeDemo
from escarmouche_widgets.tracker import AMOUNT, CombatTracker
from hypothesis import given
from hypothesis import strategies as st

from escarmouche import EscarmoucheError, systems
from escarmouche.systems import d100
from escarmouche.text.fmt import grouped, number
from tests.helpers.widgets import ROWS
from tests.toy_system import ToySystem

WOUNDS = NumberField("blessures (B)", 0, 1000, "D100-ATK-3")
METRES = NumberField("distance (m)", 0, 1_000_000, "D100-RANGED-5", decimal=True)
#: the spaces a French reader (or a word processor) puts between groups of digits
SPACES = (" ", "\u00a0", "\u202f")


def refusal(text: str, field: NumberField) -> str:
    with pytest.raises(EscarmoucheError) as err:
        parse_number(text, field)
    assert err.value.rule == field.rule and err.value.field == field.label
    return err.value.refusal().replace("\u00a0", " ").replace("\u202f", " ")


# -- what is read --------------------------------------------------------------------------


@given(st.integers(0, 1000), st.sampled_from(["", " ", "+"]), st.sampled_from(SPACES))
def test_a_whole_number_in_bounds_reads_as_itself_core_err(n: int, pad: str,
                                                           space: str) -> None:
    """CORE-ERR: « 12 », « +12 », « 1 000 » (any space between groups) read as typed;
    only ASCII digits (« ١٢ » is refused)."""
    grouped = f"{n:,}".replace(",", space)
    assert parse_number(f"{pad}{n}{pad.strip() and ''}", WOUNDS) == n
    assert parse_number(grouped, WOUNDS) == n
    assert parse_number(f" {n} ", WOUNDS) == n


@given(st.integers(-100, 100))
def test_the_minus_sign_and_the_hyphen_read_alike(n: int) -> None:
    field = NumberField("modificateur du MJ", -100, 100, "D100-ATK-1")
    assert parse_number(str(n), field) == n
    assert parse_number(str(n).replace("-", "\u2212"), field) == n


@pytest.mark.parametrize("typed", ["12,5", "12.5", " 12,50 ", "1 000,5"])
def test_a_decimal_is_read_where_one_is_meant_d100_ranged_5(typed: str) -> None:
    """D100-RANGED-5: a distance in metres takes a decimal, with a comma or a point."""
    assert parse_number(typed, METRES) == float(typed.replace(" ", "").replace(",", "."))


# -- what is refused -----------------------------------------------------------------------


@pytest.mark.parametrize("typed", ["12,5", "12.5", "0,0", "1 000,5"])
def test_a_decimal_where_a_whole_number_is_expected_is_refused_saying_so(typed: str) -> None:
    """« 12.5 » used to become 125 in an ``IntText``: it is refused, naming the field, the
    value once, the bounds and the rule (D100-ATK-3)."""
    text = refusal(typed, WOUNDS)
    assert text == (f"Valeur « {typed.strip()} » refusée pour « blessures (B) » : un nombre "
                    "entier entre 0 et 1 000 est attendu, pas un nombre à virgule "
                    "(D100-ATK-3).")


@pytest.mark.parametrize(("typed", "shown"), [("-3", "−3"), ("1001", "1 001"),
                                              ("99999999999", "99 999 999 999"),
                                              ("−999", "−999")])
def test_out_of_bounds_is_refused_never_clamped(typed: str, shown: str) -> None:
    """−3 used to become 0 and 99 999 999 999 became 10 000: both are refused, with the
    field's one pair of bounds and its rule, whatever the size (D100-ATK-3)."""
    text = refusal(typed, WOUNDS)
    assert text == (f"Valeur {shown} refusée pour « blessures (B) » : un nombre entier "
                    "entre 0 et 1 000 est attendu (D100-ATK-3).")


@given(st.integers(-10**40, 10**40).filter(lambda n: not 0 <= n <= 1000))
def test_any_value_out_of_bounds_names_the_same_bounds(n: int) -> None:
    text = refusal(str(n), WOUNDS)
    assert "entre 0 et 1 000 est attendu (D100-ATK-3)." in text
    assert text.count(grouped(n).replace("\u202f", " ").replace("\u00a0", " ")) == 1


@given(st.text(max_size=40))
def test_any_text_reads_in_bounds_or_is_refused_in_french_core_err(typed: str) -> None:
    """CORE-ERR: whatever is typed, a number within the bounds or a French refusal that
    says the value once (never another exception, never a clamped value)."""
    try:
        value = parse_number(typed, WOUNDS)
    except EscarmoucheError as err:
        message = err.refusal()
        assert message.count("refusée") == 1 and "(D100-ATK-3)" in message
        assert " = " not in message
    else:
        assert isinstance(value, int) and 0 <= value <= 1000


@pytest.mark.parametrize("typed", ["abc", "1e3", "0x1f", "12 5", "1,2,3", "--3", "١٢"])
def test_text_that_is_not_a_number_is_refused(typed: str) -> None:
    text = refusal(typed, WOUNDS)
    assert text.startswith(f"Valeur « {typed} » refusée")
    assert "un nombre entier entre 0 et 1 000 est attendu" in text


def test_an_empty_box_is_refused_unless_the_field_may_be_empty() -> None:
    assert "la case est vide" in refusal("  ", WOUNDS)
    cap = NumberField("plafond", 1, 10, "X-1", empty="aucun plafond")
    assert parse_number("", cap) is None and parse_number(" 3 ", cap) == 3


def test_parse_int_is_the_same_parser() -> None:
    assert parse_int("1 000", "B", 0, 1000, "D100-ATK-3") == 1000
    with pytest.raises(EscarmoucheError, match="pas un nombre à virgule"):
        parse_int("12,5", "B", 0, 1000, "D100-ATK-3")


# -- read from the declarations ------------------------------------------------------------


@pytest.mark.parametrize("name", systems.NAMES)
def test_every_integer_option_box_takes_its_declaration(name: str) -> None:
    """Each declared integer option gets a number box whose bounds and rule are the
    declaration's: its low and high bounds read back, one past them is refused with the
    option's label and first rule (the same words as the rules' own check)."""
    system = systems.get(name)
    rules = system.default_rules()
    checked = 0
    for spec in system.options():
        if spec.kind != "int":
            continue
        box = option_control(spec, getattr(rules, spec.name))
        assert isinstance(box, NumberBox)
        assert (box.field.lo, box.field.hi, box.field.rule) == (spec.lo, spec.hi, spec.rule)
        assert box.field.label == spec.label
        assert spec.lo is not None and spec.hi is not None
        for ok in (spec.lo, spec.hi):
            box.value = str(ok)
            assert option_value(spec, box) == ok
        box.value = str(spec.hi + 1)
        with pytest.raises(EscarmoucheError) as by_box:
            option_value(spec, box)
        with pytest.raises(EscarmoucheError) as by_rules:
            system.rules_from_keys({spec.key: spec.hi + 1})
        assert str(by_box.value) == str(by_rules.value)  # one bound, one wording
        box.value = "1,5"
        with pytest.raises(EscarmoucheError, match="pas un nombre à virgule"):
            option_value(spec, box)
        checked += 1
    assert checked or name == "d12"


def test_the_parry_demo_boxes_take_the_d100_stat_bounds() -> None:
    demo = ParryDodgeDemo()
    for box, key in ((demo.att_cc, "CC"), (demo.att_ct, "CT"), (demo.def_cc, "CC"),
                     (demo.def_ag, "Ag"), (demo.def_e, "E"), (demo.def_b, "B")):
        lo, hi, rule = d100.STATS[key]
        assert (box.field.lo, box.field.hi, box.field.rule) == (lo, hi, rule)


# -- in the widgets ------------------------------------------------------------------------


@pytest.mark.parametrize(("typed", "why"), [
    ("12,5", "pas un nombre à virgule"), ("12.5", "pas un nombre à virgule"),
    ("-3", "Valeur −3 refusée"), ("99999999999", "Valeur 99 999 999 999 refusée")])
def test_the_wounds_box_refuses_inline_and_keeps_the_result(typed: str, why: str) -> None:
    """Wounds B of the defender: the banner says why, in French, with D100-ATK-3; the
    attack shown stays the last valid one (spec/RELECTURE.md, R8: « 12.5 » ran as 125)."""
    demo = ParryDodgeDemo()
    shown, odds = demo.output.value, demo.odds.value
    demo.def_b.value = typed
    assert why in demo.error_text.replace("\u202f", " ").replace("\u00a0", " ")
    assert "«\u00a0B du défenseur\u00a0»" in demo.error_text
    assert "entre 0 et 1\u202f000 est attendu" in demo.error_text
    assert "(D100-ATK-3)" in demo.error_text
    assert (demo.output.value, demo.odds.value) == (shown, odds)
    demo.def_b.value = "12"
    assert demo.error_text == ""


def test_the_distance_box_takes_a_decimal_d100_ranged_5() -> None:
    demo = ParryDodgeDemo()
    demo.defence.value = "aucune"
    demo.weapon.value = "arc"
    demo.distance.value = "12,5"
    assert demo.error_text == "" and demo.fighters().distance == 12.5


@pytest.fixture
def toy_tracker(toy: ToySystem) -> CombatTracker:
    tracker = CombatTracker("jouet", ROWS, systems=("jouet",), seed=7)
    tracker.start_button.click()
    tracker.damage_who.value = "Aldric"
    return tracker


@pytest.mark.parametrize("typed", ["-3", "99999999999", "2,5", "deux"])
def test_tracker_damage_is_refused_never_clamped_core_err(toy_tracker: CombatTracker,
                                                          typed: str) -> None:
    """Damage −3 used to become 0 and 99 999 999 999 became 10 000 (a knock-out), without
    a word: now the fight is unchanged and the banner says why (CORE-ERR)."""
    before = toy_tracker.encounter.to_json() if toy_tracker.encounter else ""
    toy_tracker.damage_amount.value = typed
    toy_tracker.damage_button.click()
    message = toy_tracker.error_text
    assert message.startswith("Valeur ") and "«\u00a0valeur des dégâts ou des soins\u00a0»" in (
        message)
    assert f"entre 0 et {number(AMOUNT.hi)} est attendu" in message
    assert message.endswith("(CORE-ERR).")
    assert toy_tracker.encounter is not None and toy_tracker.encounter.to_json() == before
    toy_tracker.damage_amount.value = "3"
    toy_tracker.damage_button.click()
    assert toy_tracker.error_text == ""
    assert toy_tracker.encounter.fighter("Aldric").tracks["PV"] == 9


def test_the_atelier_refuses_a_decimal_option() -> None:
    atelier = Atelier("d100")
    box = atelier.controls["parries_per_round"]
    assert isinstance(box, NumberBox)
    box.value = "1,5"
    assert re.search(r"Valeur «\u00a01,5\u00a0» refusée pour «\u00a0parades par round"
                     r"\u00a0»\u00a0: un nombre entier entre 0 et 10 est attendu, pas un "
                     r"nombre à virgule \(D100-PARRY-3\)\.", atelier.error_text)


# -- stats typed in a roster editor --------------------------------------------------------


@pytest.mark.parametrize("typed", ["HAB=12,5", "HAB=12.5, DIS=40", "DIS=40; HAB=60,5"])
def test_a_decimal_stat_is_refused_saying_so(typed: str) -> None:
    """« HAB=12,5 » used to read as HAB=12 and a stray « 5 »: it is refused as a decimal
    where a whole number is expected, naming the stat and its owner."""
    from escarmouche_widgets._parse import parse_stats

    with pytest.raises(EscarmoucheError) as err:
        parse_stats(typed, "Aldric")
    text = err.value.refusal().replace("\u00a0", " ")
    assert "refusée pour « HAB d’Aldric » : un nombre entier est attendu, pas un nombre à " \
           "virgule" in text


@pytest.mark.parametrize("typed", ["HAB=160", "HAB=-999", "HAB=1000"])
def test_a_stat_has_one_pair_of_bounds_and_its_rule_rb_init_1(typed: str) -> None:
    """RB-INIT-1: a HAB out of 0–100 typed in the roster editor is refused with the rule's
    bounds. (Beyond ±1000, the Combatant's own check, −1000–1000 CORE-ERR, still speaks
    first: see spec/RELECTURE.md, « Open ».)"""
    from escarmouche_widgets.initiative import InitiativeDemo

    demo = InitiativeDemo("rulebook")
    shown = demo.output.value
    demo.roster.lines[0].stats.value = typed
    demo.roll_button.click()
    text = demo.error_text.replace("\u00a0", " ").replace("\u202f", " ")
    assert "refusée pour « HAB » : un nombre entier entre 0 et 100 est attendu" in text
    assert text.endswith("(RB-INIT-1).") and demo.output.value == shown


def test_an_action_parameter_is_read_whole_for_the_action_to_bound() -> None:
    """« bonus=99999999999 » typed in the tracker's parameters used to be cut at 9 digits
    (CORE-ERR) before the action's own bounds: it is read whole, and the action refuses
    it with its own bounds and rule; only what the engine never reads (more than 30
    digits) is cut, with the engine's words."""
    from escarmouche_widgets._parse import parse_params

    assert parse_params("bonus=99999999999, recul=−3") == {"bonus": 99999999999, "recul": -3}
    with pytest.raises(EscarmoucheError, match="au plus 30 chiffres"):
        parse_params("bonus=" + "9" * 31)


@pytest.mark.parametrize(("system", "stat", "rule"), [
    ("d100", "CC", "D100-ATK-1"), ("rulebook", "HAB", "RB-INIT-1"),
    ("d12", "defense", "D12-CRIT-1"), ("d20", "PA", "D20-ACT-3")])
@pytest.mark.parametrize("typed", ["-999", "99999999999"])
def test_a_stat_meets_one_pair_of_bounds_whatever_its_size(system: str, stat: str,
                                                           rule: str, typed: str) -> None:
    """D100-ATK-1, RB-INIT-1, D12-CRIT-1, D20-ACT-3: a stat typed in a roster editor is
    checked against the bounds its system declares (``System.stat_bounds``), so −999 and
    99 999 999 999 meet the same pair of bounds and the same rule, never the engine's
    generic ±1000 first (spec/RELECTURE.md, R8)."""
    from escarmouche_widgets._parse import RosterRow

    from escarmouche.text import fmt

    lo, hi, declared = systems.get(system).stat_bounds[stat]
    assert declared == rule
    with pytest.raises(EscarmoucheError) as err:
        RosterRow("Grolk", "orques", f"{stat}={typed}").combatant(system)
    text = str(err.value).replace("\u00a0", " ").replace("\u202f", " ")
    assert f"({rule})" in text and "CORE-ERR" not in text, text
    for bound in (lo, hi):
        assert fmt.number(bound).replace("\u202f", " ") in text.replace("−", "-"), text
