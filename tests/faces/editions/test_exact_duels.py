"""The edition page's « Duels calculés exactement »: each touched system's example duel
(``<system>-duel``) solved without sampling under the rules before and after an edition
(CORE-DICE), the effect of the changed options in points, a refusal said in one French
sentence naming its rule (CORE-ERR), no section where there is nothing to compare."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest

from escarmouche import systems
from escarmouche.editions.data import Change, Edition
from escarmouche.editions.exact_duels import (
    HEADING,
    exact_duel_lines,
    example_duel,
    example_name,
)
from escarmouche.editions.page import render_page
from escarmouche.editions.repo import snapshot
from tests.helpers import ROOT
from tests.helpers.editions import published_rules
from tests.helpers.proofreading import clauses, flat, top_level_colons
from tests.helpers.typography import problems


def _rules(system: str, **options: object) -> object:
    return systems.get(system).rules_from_json(options)


def test_an_option_that_acts_is_measured_in_points_d12_crit_1() -> None:
    """D12-CRIT-1 (the default weapon's damage, the automatic play's convention): 1d8
    instead of 1d6 in « Aldric contre Grolk », solved exactly before and after; the
    sentence names the option with its new value and says « calcul exact »."""
    published = published_rules("d12")  # the book's rules, whatever today's defaults
    lines = exact_duel_lines("d12", dataclasses.replace(published, default_weapon="1d6"),
                             dataclasses.replace(published, default_weapon="1d8"))
    assert lines[0] == HEADING
    text = flat("\n".join(lines))
    assert "« Aldric contre Grolk » (fichier d’effectifs `d12-duel`)" in text
    assert "CORE-DICE" in text and "jusqu’à la limite de 50 tours" in text
    assert ("- Avec « dégâts de l’arme par défaut : 1d8 », « héros » gagne 45,0 % au lieu "
            "de 44,3 % (+0,7 point, calcul exact) ; « orques », 55,0 % au lieu de 55,7 % "
            "(−0,7 point).") in text
    for line in lines:
        assert problems(line) == [], line
        assert all(top_level_colons(c) <= 1 for c in clauses(line)), line


def test_an_option_the_duel_never_meets_says_so_d100_parry_3() -> None:
    """D100-PARRY-3: a second parry never comes up in the d100 example duel (one attack
    each a round): the exact solutions are the same, and the sentence says so."""
    lines = exact_duel_lines("d100", _rules("d100", parries_per_round=1),
                             _rules("d100", parries_per_round=2))
    text = flat("\n".join(lines))
    assert "- Avec « parades par round : 2 », rien ne change dans ce duel" in text
    assert "comme avant (calcul exact)." in text


def test_nothing_to_compare_gives_no_section_core_dice() -> None:
    """CORE-DICE: the same rules, or a system without an example duel, give no
    section (and solve nothing)."""
    assert exact_duel_lines("d20", _rules("d20"), _rules("d20")) == []
    assert example_name("jouet") is None
    assert example_name("d20") == "d20-duel"


def test_a_refused_duel_is_said_not_raised_core_err(monkeypatch: pytest.MonkeyPatch) -> None:
    """CORE-ERR: a duel the solver refuses (here more states than the bound allows) is
    not computed; the page says so in one sentence naming the rule, no error."""
    import escarmouche.exact

    monkeypatch.setattr(escarmouche.exact, "MAX_STATES", 10)
    # rules no other test solves: the cache holds no earlier answer for them
    lines = exact_duel_lines("d100", _rules("d100", dodges_per_round=3),
                             _rules("d100", dodges_per_round=4))
    text = flat("\n".join(lines))
    assert lines[0] == HEADING
    assert ("n’est pas calculé exactement ici, le calcul exact le refuse (CORE-ERR) ; les "
            "duels simulés ci-dessus mesurent le changement.") in text
    assert problems("\n".join(lines)) == []


def test_solutions_are_cached_core_dice() -> None:
    """CORE-DICE: a rule set is solved once per run (a page, its span page and its
    errata render the same rule sets)."""
    rules = _rules("d100")
    assert example_duel("d100-duel", rules) is example_duel("d100-duel", _rules("d100"))


def test_the_edition_page_holds_the_section_per_changed_system_d12_crit_1() -> None:
    """D12-CRIT-1: an edition that changes the d12's default weapon shows the section
    under the d12's simulated duels, once, and in no other system; edition 1 (every rule
    new, nothing before) shows none."""
    one = snapshot(ROOT, 1)
    assert one is not None
    rules = {k: dict(v) for k, v in one.rules.items()}
    rules["d12"]["default_weapon"] = "1d8"
    after = dataclasses.replace(one, rules=rules)
    change = Change("option-default", ("D12-CRIT-1",), "Une arme de 1d8.", "d12",
                    "arme_par_defaut", "1d6", "1d8")
    page = render_page(Edition(2, dt.date(2027, 1, 15), "Une arme de 1d8.", (change,)),
                       one, after, duels=2)
    assert page.count(HEADING) == 1
    d12 = page[page.index("### Système d12"):]
    assert d12.index("#### Duels simulés") < d12.index(HEADING)
    assert "« Aldric contre Grolk »" in page.replace("\u00a0", " ")
    first = (ROOT / "book" / "editions" / "edition-1.md").read_text(encoding="utf-8")
    assert HEADING not in first
