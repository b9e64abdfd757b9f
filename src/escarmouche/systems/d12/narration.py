"""The French sentences of the d12 system (the narration style guide applies: elision,
agreement, « » for quotes, numbers through :mod:`escarmouche.text.fmt`).

The initiative's explanations (:meth:`D12Initiative.narration`, the log of a fight), the
attack and damage sentences and the fight's duration are all written here, from the
results of the pure rules.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import TYPE_CHECKING

from escarmouche.state import ENVIRONMENT
from escarmouche.systems.d12.rules import ENVIRONMENT_INITIATIVE, MODE_LABELS, Mode
from escarmouche.text.fmt import de, join, number, ordinal, plural, quote, signed

if TYPE_CHECKING:
    from escarmouche.systems.d12.critical import AttackRoll, DamageRoll
    from escarmouche.systems.d12.initiative import (
        BonusTie,
        D12Initiative,
        GroupTie,
        InitiativeRoll,
        PerfectTie,
        RollOff,
    )

__all__ = [
    "ATTACK_PURPOSE",
    "BONUS_SCOPE",
    "DAMAGE_PURPOSE",
    "advantage_name",
    "ambush_sentence",
    "attack_explanation",
    "attack_sentence",
    "attack_sources",
    "bonus_tie_sentence",
    "bonus_turn_over_sentence",
    "consumed_words",
    "damage_sentence",
    "duration_sentence",
    "environment_sentence",
    "group_acts_sentence",
    "group_order_sentence",
    "group_tie_sentence",
    "initiative_lines",
    "initiative_rolls_sentence",
    "order_sentence",
    "perfect_tie_sentence",
    "pointless_advantage_sentence",
    "roll_off_sentence",
    "roll_text",
]

#: the scope of the ties of the bonus turn (others are a side's name)
BONUS_SCOPE = "tour bonus"
#: what the log says an attack's d12 and a hit's damage dice are for
ATTACK_PURPOSE, DAMAGE_PURPOSE = "attaque", "dégâts"


def _numbers(values: Iterable[int]) -> str:
    return join([number(v) for v in values], empty="aucun")


def roll_text(r: InitiativeRoll) -> str:
    """>>> from escarmouche.systems.d12.initiative import InitiativeRoll
    >>> roll_text(InitiativeRoll("A", "x", 7, 2)), roll_text(InitiativeRoll("B", "x", 7, 0))
    ('7 + 2 = 9', '7')
    """
    return f"{number(r.die)} {_op(r.bonus)} = {number(r.total)}" if r.bonus else number(
        r.total)


def _op(bonus: int) -> str:
    """A bonus in shown arithmetic: « + 3 », « − 2 » (minus sign U+2212)."""
    return f"+ {number(bonus)}" if bonus >= 0 else f"− {number(-bonus)}"


def _scope_label(scope: str) -> str:
    return "Tour bonus" if scope == BONUS_SCOPE else f"Groupe {quote(scope)}"


def group_tie_sentence(tie: GroupTie) -> str:
    """How two groups at the same initiative were ordered (D12-INIT-3, D12-INIT-5)."""
    if tie.rule == "D12-INIT-5":
        return (f"{quote(tie.before)} et l’environnement sont à {tie.value} ; "
                "en cas d’égalité, l’environnement passe en dernier (D12-INIT-5)")
    assert tie.rank is not None
    which = ordinal(tie.rank)
    if tie.after_result is None:
        return (f"{quote(tie.before)} et {quote(tie.after)} sont à {tie.value} ; au "
                f"{which} résultat, seul {quote(tie.before)} en a encore un "
                f"({tie.before_result}) et passe devant (D12-INIT-3)")
    return (f"{quote(tie.before)} et {quote(tie.after)} sont à {tie.value} ; départagés au "
            f"{which} résultat : {tie.before_result} contre {tie.after_result} (D12-INIT-3)")


def perfect_tie_sentence(pt: PerfectTie) -> str:
    sides = join([quote(n) for n in pt.sides])
    return (f"Égalité parfaite entre {sides} ({_numbers(pt.results)}) : tout le monde "
            "relance (D12-INIT-3).")


def bonus_tie_sentence(b: BonusTie) -> str:
    """A tie settled by the bonuses (D12-INIT-4), in the roll-off's shape
    (:func:`roll_off_sentence`): « Groupe « Compagnie » : égalité à 7, départagée au bonus
    (Aldric +2, Corentin +1), d’où l’ordre Aldric, Corentin (D12-INIT-4). »"""
    bonuses = ", ".join(f"{n} {signed(s)}" for n, s in b.order)
    return (f"{_scope_label(b.scope)} : égalité à {b.total}, départagée au bonus "
            f"({bonuses}), d’où l’ordre {', '.join(n for n, _ in b.order)} (D12-INIT-4).")


def roll_off_sentence(ro: RollOff) -> str:
    """A roll-off (D12-INIT-4), one colon: « Groupe « Gobelins » : égalité à 10 (bonus
    +1), départagée au d12 (Gobelin 1 fait 4, Gobelin 2 fait 11), d’où l’ordre Gobelin 2,
    Gobelin 1 (D12-INIT-4). »"""
    from escarmouche.systems.d12.lots import lot_sentence

    rounds = " ; puis ".join(", ".join(f"{n} fait {v}" for n, v in r) for r in ro.rounds)
    lots = "".join(" " + lot_sentence(lot) for lot in ro.lots)
    return (f"{_scope_label(ro.scope)} : égalité à {ro.total} (bonus {signed(ro.bonus)}), "
            f"départagée au d12 ({rounds}), d’où l’ordre {', '.join(ro.order)} "
            f"(D12-INIT-4).{lots}")


def order_sentence(groups: Iterable[tuple[str, list[str]]]) -> str:
    order = " ; ".join(
        "environnement" if side == ENVIRONMENT and not members
        else f"{quote(side)} ({join(members)})"
        for side, members in groups
    )
    return f"Ordre des groupes : {order}."


def _rolls_with_totals(rolls: Iterable[InitiativeRoll]) -> str:
    return join([f"{r.name} ({roll_text(r)})" for r in rolls])


def initiative_lines(init: D12Initiative) -> list[str]:
    """French sentences: bonus turn, rerolls, group values, how each tie was broken."""
    lines: list[str] = []
    if init.ambush_by is not None:
        index = {r.name: r for r in init.bonus_rolls}
        lines.append(f"Embuscade du camp {quote(init.ambush_by)} (D12-SURPRISE-1, "
                     "D12-SURPRISE-2) : tour bonus pour "
                     + _rolls_with_totals(index[n] for n in init.bonus_turn) + ".")
    if init.out:
        lines.append(bonus_turn_over_sentence(list(init.out)))
    if init.pending:
        lines += [bonus_tie_sentence(b) for b in init.bonus_ties]
        lines += [roll_off_sentence(ro) for ro in init.roll_offs]
        lines.append("Initiative de groupe : elle se lancera à la fin du tour bonus "
                     "(D12-SURPRISE-1).")
        return lines
    from escarmouche.systems.d12.lots import lot_sentence

    lines += [perfect_tie_sentence(pt) for pt in init.perfect_ties]
    lines += [lot_sentence(lot) for lot in init.lots]
    for g in init.group_results:
        if g.environment:
            lines.append(f"Environnement : initiative {ENVIRONMENT_INITIATIVE} (D12-INIT-5).")
        else:
            word = "résultats" if len(g.results) > 1 else "résultat"
            lines.append(f"Groupe {quote(g.side)} (D12-INIT-2) : initiative {g.value}, "
                         f"{word} {_numbers(g.results)}.")
    lines += [group_tie_sentence(t) + "." for t in init.group_ties]
    lines += [bonus_tie_sentence(b) for b in init.bonus_ties]
    lines += [roll_off_sentence(ro) for ro in init.roll_offs]
    lines.append(order_sentence(init.groups))
    return lines


def ambush_sentence(init: D12Initiative) -> str:
    """The ambush's bonus turn, its individual rolls and the ties its bonuses broke."""
    ties = [bonus_tie_sentence(b) for b in init.bonus_ties if b.scope == BONUS_SCOPE]
    return " ".join([
        f"Embuscade du camp {quote(init.ambush_by or '')} et tour bonus, le tour 0 "
        "(D12-SURPRISE-1, D12-SURPRISE-2) ; initiatives individuelles : "
        f"{_rolls_with_totals(init.bonus_rolls)}.", *ties])


def bonus_turn_over_sentence(out: list[str]) -> str:
    """The bonus turn is over: group initiative is rolled now, not by those knocked out
    in it (D12-SURPRISE-1).

    >>> print(bonus_turn_over_sentence(["Brune"]))  # doctest: +NORMALIZE_WHITESPACE
    Le tour bonus est terminé, chaque groupe lance son initiative ; Brune, hors de
    combat, ne la lance pas (D12-SURPRISE-1).
    """
    if not out:
        who = ""
    elif len(out) == 1:
        who = f" ; {out[0]}, hors de combat, ne la lance pas"
    else:
        who = f" ; {join(out)}, hors de combat, ne la lancent pas"
    return ("Le tour bonus est terminé, chaque groupe lance son initiative"
            f"{who} (D12-SURPRISE-1).")


def initiative_rolls_sentence(rolls: Iterable[InitiativeRoll], again: bool) -> str:
    return (f"Initiative de groupe{', relance' if again else ''} (D12-INIT-1) : "
            f"{_rolls_with_totals(rolls)}.")


def group_order_sentence(init: D12Initiative) -> str:
    """The order of a normal turn with each group's value, then how ties were broken."""
    values = {g.side: g.value for g in init.group_results}
    parts = []
    for side, members in init.groups:
        if side == ENVIRONMENT and not members:
            parts.append(f"environnement à {ENVIRONMENT_INITIATIVE}")
        else:
            parts.append(f"{quote(side)} à {values[side]} ({join(members)})")
    lines = ["Ordre des groupes (D12-INIT-2) : " + " ; ".join(parts) + "."]
    lines += [group_tie_sentence(t) + "." for t in init.group_ties]
    lines += [bonus_tie_sentence(b) for b in init.bonus_ties if b.scope != BONUS_SCOPE]
    return " ".join(lines)


def group_acts_sentence(side: str, value: int, standing: list[str]) -> str:
    """A group's turn (D12-INIT-4); a group with one member standing has no « membres »
    who decide together.

    >>> group_acts_sentence("monstres", 7, ["Grolk"])
    'Le groupe « monstres » agit (initiative 7) avec un seul membre debout, Grolk (D12-INIT-4).'
    """
    if len(standing) == 1:
        return (f"Le groupe {quote(side)} agit (initiative {value}) avec un seul membre "
                f"debout, {standing[0]} (D12-INIT-4).")
    return (f"Le groupe {quote(side)} agit (initiative {value}) : ses membres décident "
            f"ensemble puis exécutent dans l’ordre {', '.join(standing)} (D12-INIT-4).")


def environment_sentence(effects: list[str], tied: bool = False) -> str:
    """The environment's slot (D12-INIT-5); ``tied`` when a group is at exactly 12 (the
    environment then passes after it: the only case worth saying).

    >>> environment_sentence(["Éboulement"])
    'L’environnement agit à l’initiative 12 (D12-INIT-5) : « Éboulement ».'
    >>> environment_sentence([], tied=True)
    'L’environnement agit à l’initiative 12, après le groupe à égalité (D12-INIT-5) : aucun effet.'
    """
    what = join([quote(n) for n in effects], empty="aucun effet")
    after = ", après le groupe à égalité" if tied else ""
    return (f"L’environnement agit à l’initiative {ENVIRONMENT_INITIATIVE}{after} "
            f"(D12-INIT-5) : {what}.")


def attack_explanation(att: AttackRoll) -> str:
    """>>> from escarmouche.systems.d12.critical import resolve_attack_roll
    >>> attack_explanation(resolve_attack_roll([7], bonus=3, defence=10))
    '7 + 3 = 10 contre défense 10, touché (D12-CRIT-1)'
    """
    if len(att.dice) > 1:
        how = "le plus haut" if att.mode is Mode.AVANTAGE else "le plus bas"
        shown = f"{' et '.join(map(str, att.dice))}, on garde {how}, {att.kept}"
    else:
        shown = str(att.kept)
    if att.critical:
        return (f"{shown} naturel, réussite critique, touché quelle que soit la défense "
                f"{att.defence} (D12-CRIT-2)")
    verdict = "touché" if att.hit else "raté"
    return (f"{shown} {_op(att.bonus)} = {att.total} contre défense {att.defence}, "
            f"{verdict} (D12-CRIT-1)")


def attack_sources(marked: bool, advantage: bool = False, disadvantage: bool = False
                   ) -> list[str]:
    """Why an attack rolls with advantage or disadvantage (D12-ADV-1), as its sentence
    names them: option (c)'s advantage on the target (``marked``, D12-CRIT-2 (c)), an
    advantage or a disadvantage given with the attack.

    >>> attack_sources(True, disadvantage=True)
    ['avantage du critique précédent', 'désavantage']
    """
    sources = []
    if marked:
        sources.append("avantage du critique précédent")
    if advantage:
        sources.append("avantage")
    if disadvantage:
        sources.append("désavantage")
    return sources


def attack_sentence(actor: str, target: str, expression: str, sources: list[str],
                    mode: Mode, att: AttackRoll) -> str:
    why = f" [{', '.join(sources)} → {MODE_LABELS[mode]}]" if sources else ""
    return f"{actor} attaque {target} ({expression}{why}) : {attack_explanation(att)}."


def damage_sentence(actor: str, target: str, option_label: str | None, dmg: DamageRoll,
                    left: int, *, changes_damage: bool = True) -> str:
    """The damage of a hit. ``option_label`` is the critical option chosen, if any;
    ``changes_damage`` is false for an option that leaves the damage normal
    (« avantage », D12-CRIT-2 (c)): those are not « dégâts critiques »."""
    if option_label and changes_damage:
        label = f"Dégâts critiques {de(actor)} sur {target}, option {quote(option_label)}"
    elif option_label:
        label = f"Dégâts {de(actor)} sur {target}, normaux avec l’option {quote(option_label)}"
    else:
        label = f"Dégâts {de(actor)} sur {target}"
    return (f"{label} ({dmg.detail}) : {target} perd "
            f"{plural(dmg.damage, 'PV', 'PV')} (reste {max(left, 0)}).")


def advantage_name(target: str) -> str:
    """The name of option (c)'s effect on ``target`` (D12-CRIT-2 (c)): the next attack
    on it rolls with advantage.

    >>> advantage_name("Vex")
    'Avantage contre Vex'
    """
    return f"Avantage contre {target}"


def consumed_words(attacker: str) -> str:
    """How option (c)'s advantage ends when ``attacker`` attacks its bearer (the
    predicate of the effect's end, D12-CRIT-2 (c)).

    >>> consumed_words("Aldric")
    'est consommé par l’attaque d’Aldric'
    """
    return f"est consommé par l’attaque {de(attacker)}"


def pointless_advantage_sentence(target: str) -> str:
    """Option (c) chosen on a blow that knocks ``target`` out: no next attack to help
    (D12-CRIT-2).

    >>> print(pointless_advantage_sentence("Vex"))  # doctest: +NORMALIZE_WHITESPACE
    Vex est hors de combat : l’avantage de l’option (c) est sans objet (D12-CRIT-2).
    """
    return (f"{target} est hors de combat : l’avantage de l’option (c) est sans objet "
            "(D12-CRIT-2).")


def duration_sentence(turns: int, seconds: tuple[int, int], minutes: Fraction) -> str:
    """The fight's conventional duration (D12-TIME-1).

    >>> print(duration_sentence(3, (15, 30), Fraction(3, 10)))  # doctest: +NORMALIZE_WHITESPACE
    Durée : 3 tours de combat, soit de 15 à 30 secondes, ou 0,3 minute par convention
    (10 tours = 1 minute) (D12-TIME-1).
    """
    return (f"Durée : {plural(turns, 'tour')} de combat, soit de {seconds[0]} à {seconds[1]} "
            f"secondes, ou {number(minutes)} minute{'s' if minutes >= 2 else ''} par "
            "convention (10 tours = 1 minute) (D12-TIME-1).")


