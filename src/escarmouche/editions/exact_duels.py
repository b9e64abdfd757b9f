"""The exact effect of an edition's options on each system's example duel: the duel
shipped as ``<system>-duel`` (``escarmouche.rosters``) solved without sampling
(:func:`escarmouche.exact.duel`, every die enumerated, CORE-DICE) under the rules
before and after, and compared in points (:func:`escarmouche.text.exact_text.effect_sentence`).

A duel the solver refuses (CORE-ERR: too many states, Rulebook fighters of equal HAB,
RB-INIT-2 …) is not computed: the page says so in one sentence and names the rule, and
leaves the change to the simulated duels. A system without an example duel gets no
section. Solutions are cached (:func:`example_duel`): a page, the page between two
editions and the errata rendered in one run solve each rule set once.

>>> from escarmouche.systems import d100
>>> exact_duel_lines("d100", d100.Rules(), d100.Rules())
[]
"""

from __future__ import annotations

import functools
from typing import Any

from escarmouche.errors import EscarmoucheError
from escarmouche.exact import ExactDuel
from escarmouche.text.exact_text import effect_sentence
from escarmouche.text.fmt import quote
from escarmouche.text.typo import typographie

__all__ = ["HEADING", "exact_duel_lines", "example_duel", "example_name"]

#: the heading of the section on an edition page
HEADING = "#### Duels calculés exactement"


def example_name(system: str) -> str | None:
    """The example roster of ``system``'s duel (``"d100-duel"``), or ``None`` when the
    engine ships none (the toy system of the tests)."""
    from escarmouche.roster import example_rosters

    name = f"{system}-duel"
    return name if name in example_rosters() else None


@functools.lru_cache(maxsize=16)
def _solved(name: str, rules: Any) -> ExactDuel | EscarmoucheError:
    from escarmouche.exact import duel

    try:
        return duel(name, rules, exact=False)
    except EscarmoucheError as err:  # a refusal is an answer too: kept, not re-solved
        return err


def example_duel(name: str, rules: Any) -> ExactDuel:
    """The example duel ``name`` solved under ``rules`` (floats: ``exact=False``, within
    about 10⁻¹² of the fractions), cached; the solver's refusal raised again
    (``EscarmoucheError``, CORE-ERR)."""
    solved = _solved(name, rules)
    if isinstance(solved, EscarmoucheError):
        raise solved
    return solved


def _changed_label(before: Any, after: Any) -> str:
    """The options that differ, each with its new value (« parades par round : 2 »)."""
    from escarmouche.options import options_of

    return " ; ".join(f"{o.label} : {o.value_label(getattr(after, o.name))}"
                      for o in options_of(after)
                      if getattr(before, o.name) != getattr(after, o.name))


def exact_duel_lines(system: str, before: Any, after: Any) -> list[str]:
    """The section « Duels calculés exactement » of an edition page for ``system``
    (Markdown lines, French typography): its example duel under ``before`` and under
    ``after`` and the effect in points; ``[]`` when the rules are the same or the system
    has no example duel; one sentence naming the rule when the solver refuses it."""
    name = example_name(system)
    if name is None or before == after:
        return []
    lines = [HEADING, ""]
    try:
        old = example_duel(name, before)
        new = example_duel(name, after)
    except EscarmoucheError as err:
        rule = err.rule or "CORE-ERR"
        return [*lines, typographie(
            f"Le duel d’exemple du système (fichier d’effectifs `{name}`) n’est pas "
            f"calculé exactement ici, le calcul exact le refuse ({rule}) ; les duels "
            "simulés ci-dessus mesurent le changement."), ""]
    return [*lines, typographie(
        f"Le duel d’exemple du système, {quote(new.title)} (fichier d’effectifs "
        f"`{name}`), calculé sans simulation sous les règles d’avant et d’après : chaque "
        "dé énuméré (CORE-DICE), ni intervalle ni graine, jusqu’à la limite de "
        f"{new.max_turns} {new.turn_word}s."), "",
        f"- {effect_sentence(old, new, _changed_label(before, after))}", ""]
