"""Saving throws (D20-END-1): 1d20 + bonus ≥ :attr:`Rules.save_target` (10) ends an
effect; racial bonuses are data (:data:`RACIAL_SAVE_BONUSES`, :data:`KEYWORD_SYNONYMS`:
« peur » reads « terreur »); a trait's bonus counts once per effect, whatever the number
of matching keywords.

Pure: :func:`resolve_save` / :func:`saving_throw` (spec/API.md), :func:`save_bonus` (spec/API.md);
rolling: :func:`roll_save`; in a fight: :func:`end_of_turn_saves`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from escarmouche import checks
from escarmouche.errors import invalid
from escarmouche.model import Combatant
from escarmouche.render.table import Text
from escarmouche.rng import Rng
from escarmouche.state import Ctx
from escarmouche.systems.d20.narration import d20_text, save_sentence
from escarmouche.systems.d20.rules import (
    BONUS_RANGE,
    KEYWORD_SYNONYMS,
    RACIAL_SAVE_BONUSES,
    SAVE_DIE,
    Rules,
    check_rules,
)
from escarmouche.text.fmt import number

__all__ = [
    "SaveResult",
    "check_bonus",
    "end_of_turn_saves",
    "keywords",
    "resolve_save",
    "roll_save",
    "save_bonus",
    "saving_throw",
]


def check_bonus(bonus: object, rule: str, field: str = "bonus") -> int:
    """A bonus or modifier: an integer within :data:`BONUS_RANGE`."""
    return checks.integer(field, bonus, lo=BONUS_RANGE[0], hi=BONUS_RANGE[1], rule=rule)


@dataclass(frozen=True, slots=True)
class SaveResult:
    """A saving throw: the d20, the bonus, the total, the target (10) and the outcome.
    In a notebook, a French sentence."""

    roll: int
    bonus: int
    total: int
    target: int
    success: bool
    rules: tuple[str, ...] = ("D20-END-1",)

    def __str__(self) -> str:
        verdict = "réussi ; l’effet prend fin" if self.success else "raté ; l’effet continue"
        return (f"Jet de sauvegarde : {d20_text(self.roll, self.bonus)} "
                f"({number(self.target)} requis), {verdict} (D20-END-1).")

    def _repr_html_(self) -> str:
        return Text(str(self))._repr_html_()


def resolve_save(roll: int, bonus: int = 0, *, rules: Rules | None = None) -> SaveResult:
    """A saving throw from its d20 (D20-END-1): success when ``roll + bonus`` is at least
    :attr:`Rules.save_target` (10).

    >>> resolve_save(6, 5).success
    True
    """
    r = check_rules(rules)
    checks.die("jet de sauvegarde", roll, SAVE_DIE, "D20-END-1")
    check_bonus(bonus, "D20-END-1")
    total = roll + bonus
    return SaveResult(roll, bonus, total, r.save_target, total >= r.save_target)


def saving_throw(roll: int, bonus: int = 0, *, rules: Rules | None = None) -> bool:
    """Whether a saving throw with d20 ``roll`` and ``bonus`` succeeds (D20-END-1)."""
    return resolve_save(roll, bonus, rules=rules).success


def roll_save(rng: Rng, bonus: int = 0, *, rules: Rules | None = None) -> SaveResult:
    """Roll a saving throw: draws one d20 (D20-END-1)."""
    check_bonus(bonus, "D20-END-1")
    return resolve_save(rng.randint(1, SAVE_DIE), bonus, rules=rules)


def keywords(effect_keywords: Iterable[str]) -> frozenset[str]:
    """The keywords of an effect, lower case, synonyms read as their entry."""
    if isinstance(effect_keywords, str) or not isinstance(effect_keywords, Iterable):
        raise invalid("mots-clés", effect_keywords, "D20-END-1",
                      "un ensemble de mots-clés est attendu, par exemple « poison »")
    out: set[str] = set()
    for kw in effect_keywords:
        k = checks.text("mot-clé", kw, "D20-END-1").strip().lower()
        out.add(KEYWORD_SYNONYMS.get(k, k))
    return frozenset(out)


def save_bonus(combatant: Combatant, effect_keywords: Iterable[str]) -> int:
    """The saving-throw bonus of ``combatant`` against an effect with these keywords
    (D20-END-1): for each trait of :data:`RACIAL_SAVE_BONUSES` it has, the bonus of a
    matching keyword (synonyms of :data:`KEYWORD_SYNONYMS` read as their entry; one
    bonus per trait even when several keywords match).

    >>> save_bonus(Combatant("Thorin", "nains", traits={"nain"}), {"poison"})
    5
    """
    if not isinstance(combatant, Combatant):
        raise invalid("combattant", combatant, "D20-END-1", "un Combatant est attendu")
    wanted = keywords(effect_keywords)
    total = 0
    for trait, table in RACIAL_SAVE_BONUSES.items():
        if trait in combatant.traits:
            matching = [b for kw, b in table.items() if kw in wanted]
            if matching:
                total += max(matching)
    return total


def end_of_turn_saves(ctx: Ctx[Rules], actor: str) -> None:
    """D20-END-1 in a fight: one saving throw per effect with ``save_ends`` on ``actor``,
    in the order the effects were added; draws one d20 each."""
    f = ctx.fighter(actor)
    for e in [e for e in ctx.state.effects if e.bearer == actor and e.save_ends]:
        bonus = save_bonus(f.combatant, e.keywords)
        res = roll_save(ctx.rng, bonus, rules=ctx.rules)
        ctx.emit(
            "jet_de_sauvegarde",
            save_sentence(actor, e.name, res.roll, bonus, res.target, res.success),
            actor=actor, rules=("D20-END-1",), purpose="sauvegarde",
            data={"effect": e.id, "roll": res.roll, "bonus": bonus, "total": res.total,
                  "target": res.target, "success": res.success},
        )
        if res.success:
            # the save's sentence says « l’effet prend fin »: no second line
            ctx.remove_effect(e.id, why="jet de sauvegarde réussi", rules=("D20-END-1",),
                              announce=False)
