"""The attack and its critical (D12-CRIT-1, D12-CRIT-2, D12-ADV-1, D12-EXPLODE-1).

Pure rules of dice already rolled (:func:`resolve_attack_roll`, :func:`resolve_damage`)
and the rolling functions that draw every die with ``rng.randint(1, faces)`` in a
documented order (:func:`roll_attack`, :func:`roll_damage`, :func:`roll_attack_outcome`).
The mode (advantage, disadvantage) is a transformation of the dice expression
(:func:`attack_expression`), so the roll and the exact odds (``odds.py``) agree.

Rulings (RULES.md):

* D12-CRIT-1 — attack = 1d12 + ``attaque`` against the target's ``defense`` (0–40);
  hits when the total is at least the defence.
* D12-ADV-1 — advantage rolls 2d12 and keeps the highest, disadvantage keeps the lowest;
  each advantage cancels one disadvantage (they do not stack: what is left is one
  advantage, one disadvantage or neither).
* D12-CRIT-2 — a natural 12 on the kept die always hits and the attacker picks one of
  :data:`CRITICAL_OPTIONS`. Damage never goes below 0 (a ``1d4-2`` weapon deals 0, it
  does not heal).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

from escarmouche import checks, dice
from escarmouche.errors import invalid
from escarmouche.model import Json
from escarmouche.render.table import Text
from escarmouche.rng import Rng, ScriptedRolls
from escarmouche.systems.d12 import narration
from escarmouche.systems.d12.rules import (
    ATTACK_DIE,
    CRITICAL_OPTIONS,
    MODE_LABELS,
    Mode,
    check_bonus,
    check_defence,
    check_mode,
    check_option,
    check_weapon,
)
from escarmouche.text.fmt import number, plural, quote

__all__ = [
    "AttackOutcome",
    "AttackRoll",
    "DamageRoll",
    "attack_expression",
    "attack_result",
    "combine_modes",
    "damage_expression",
    "net_mode",
    "resolve_attack_roll",
    "resolve_damage",
    "roll_attack",
    "roll_attack_outcome",
    "roll_damage",
    "rolled_damage",
]


def net_mode(advantages: int = 0, disadvantages: int = 0) -> Mode:
    """The mode left once each advantage has cancelled one disadvantage (D12-ADV-1).

    Advantages do not stack: two advantages and no disadvantage still roll 2d12kh1.

    >>> net_mode(1, 1), net_mode(2, 1), net_mode(0, 3)
    (<Mode.NORMAL: 'normal'>, <Mode.AVANTAGE: 'avantage'>, <Mode.DESAVANTAGE: 'desavantage'>)
    """
    for name, n in (("avantages", advantages), ("désavantages", disadvantages)):
        checks.integer(name, n, lo=0, hi=100, rule="D12-ADV-1")
    if advantages > disadvantages:
        return Mode.AVANTAGE
    if disadvantages > advantages:
        return Mode.DESAVANTAGE
    return Mode.NORMAL


def combine_modes(*modes: Mode | str) -> Mode:
    """Combine several sources (each a mode): one advantage cancels one disadvantage."""
    checked = [check_mode(m) for m in modes]
    return net_mode(checked.count(Mode.AVANTAGE), checked.count(Mode.DESAVANTAGE))


#: the attack die as a dice expression per mode: the mode is a transformation of the
#: dice specification (STYLE lesson 6), so the roll and the exact odds agree
_BASE_ATTACK = f"1d{ATTACK_DIE}"


def attack_expression(mode: Mode | str = Mode.NORMAL) -> str:
    """The attack die of ``mode``: ``1d12``, ``2d12kh1`` or ``2d12kl1`` (D12-ADV-1)."""
    m = check_mode(mode)
    if m is Mode.AVANTAGE:
        return str(dice.with_advantage(_BASE_ATTACK))
    if m is Mode.DESAVANTAGE:
        return str(dice.with_disadvantage(_BASE_ATTACK))
    return _BASE_ATTACK


@dataclass(frozen=True, slots=True)
class AttackRoll:
    """An attack roll (D12-CRIT-1): the d12 shown (two under advantage or disadvantage),
    the one kept, the total against the defence, and whether it is a critical
    (natural 12 on the kept die, D12-CRIT-2: hits whatever the defence)."""

    dice: tuple[int, ...]
    mode: Mode
    kept: int
    bonus: int
    defence: int
    total: int
    hit: bool
    critical: bool
    rules: tuple[str, ...]

    def explain(self) -> str:
        """The French sentence a GM reads."""
        return narration.attack_explanation(self)

    def _repr_html_(self) -> str:
        return Text(self.explain() + ".")._repr_html_()

    def to_json(self) -> dict[str, Json]:
        return {"dice": list(self.dice), "mode": self.mode.value, "kept": self.kept,
                "bonus": self.bonus, "defence": self.defence, "total": self.total,
                "hit": self.hit, "critical": self.critical, "rules": list(self.rules)}


def resolve_attack_roll(
    dice_shown: Sequence[int], *, bonus: int = 0, defence: int, mode: Mode | str = Mode.NORMAL
) -> AttackRoll:
    """Decide an attack from the d12 already rolled (pure; D12-CRIT-1, -2, D12-ADV-1).

    ``dice_shown`` holds one d12 (``normal``) or two (``avantage``: the higher is
    kept; ``desavantage``: the lower). Hits when ``kept + bonus >= defence``, or on a
    natural 12 on the kept die (critical).

    >>> resolve_attack_roll([12], bonus=0, defence=40).critical
    True
    >>> resolve_attack_roll([3, 12], defence=14, mode="desavantage").hit
    False
    """
    m = check_mode(mode)
    check_bonus(bonus)
    check_defence(defence)
    shown = tuple(dice_shown)
    need = 1 if m is Mode.NORMAL else 2
    if len(shown) != need or not all(checks.is_int(v) and 1 <= v <= ATTACK_DIE
                                     for v in shown):
        raise invalid("dés d’attaque", list(shown), "D12-ADV-1",
                      f"{plural(need, 'd12')} (1 à 12) attendu{'s' if need > 1 else ''} "
                      f"{MODE_LABELS[m]}")
    return _decide_attack(shown, bonus, defence, m)


def _decide_attack(shown: tuple[int, ...], bonus: int, defence: int, m: Mode) -> AttackRoll:
    """:func:`resolve_attack_roll` once its inputs are checked."""
    kept = max(shown) if m is Mode.AVANTAGE else min(shown)
    total = kept + bonus
    hit, critical = attack_result(kept, bonus, defence)
    rules = ["D12-CRIT-1"]
    if m is not Mode.NORMAL:
        rules.append("D12-ADV-1")
    if critical:
        rules.append("D12-CRIT-2")
    return AttackRoll(shown, m, kept, bonus, defence, total, hit, critical, tuple(rules))


def attack_result(kept: int, bonus: int, defence: int) -> tuple[bool, bool]:
    """Whether the kept d12 hits and whether it is a critical (pure, values already
    checked): a hit when ``kept + bonus >= defence`` (D12-CRIT-1) or on a natural 12,
    which is a critical and hits whatever the defence (D12-CRIT-2). The one
    implementation of the rule: :func:`resolve_attack_roll` and the rules kernel
    (``escarmouche.systems.d12.kernel``) call it.

    >>> attack_result(12, 0, 40), attack_result(9, 3, 12), attack_result(8, 3, 12)
    ((True, True), (True, False), (False, False))
    """
    critical = kept == ATTACK_DIE
    return critical or kept + bonus >= defence, critical


def roll_attack(rng: Rng, *, bonus: int = 0, defence: int, mode: Mode | str = Mode.NORMAL
                ) -> AttackRoll:
    """Roll an attack: draws the dice of :func:`attack_expression` with
    :func:`escarmouche.dice.roll` (one d12, or two in order under advantage or
    disadvantage), then :func:`resolve_attack_roll`."""
    m = check_mode(mode)
    check_bonus(bonus)
    check_defence(defence)
    shown = tuple([v for _, v in dice.roll(_ATTACK_EXPRESSIONS[m], rng).draws])
    for v in shown:
        if type(v) is not int or not 1 <= v <= ATTACK_DIE:  # refused, with the die named
            return resolve_attack_roll(shown, bonus=bonus, defence=defence, mode=m)
    if type(bonus) is int and type(defence) is int:
        return _decided(shown, bonus, defence, m)
    return _decide_attack(shown, bonus, defence, m)


#: :func:`attack_expression` of each mode, worked out once
_ATTACK_EXPRESSIONS = {m: attack_expression(m) for m in Mode}
#: :func:`_decide_attack` of exact ints (a pure function, its result frozen: a fight
#: decides the same few attacks again and again)
_decided = functools.lru_cache(maxsize=4096)(_decide_attack)


def damage_expression(weapon: str, option: str | None = None) -> str:
    """The dice rolled for the damage of a hit (canonical notation).

    A normal hit and option ``"avantage"`` roll the weapon; ``"explosif"`` rolls one
    more die of the first dice term, every dice term exploding (``1d8+2`` → ``2d8!+2``,
    D12-CRIT-2 (b), D12-EXPLODE-1); ``"maximum"`` rolls nothing (the weapon's maximum,
    see :func:`damage_roll`).
    """
    w = check_weapon(weapon)
    if option is not None:
        check_option(option)
    return _damage_expression(w, option == "explosif")


@functools.lru_cache(maxsize=256)
def _damage_expression(weapon: str, exploding: bool) -> str:
    """:func:`damage_expression` of a checked weapon (a pure function, cached)."""
    if exploding:
        return str(dice.add_exploding_die(weapon))
    return str(dice.parse(weapon))


@dataclass(frozen=True, slots=True)
class DamageRoll:
    """The damage of one hit. ``option`` is ``None`` for a normal hit, else the critical
    option (D12-CRIT-2). ``expression`` is what was rolled (nothing for ``"maximum"``),
    ``detail`` the dice as a GM reads them, ``raw`` the total and ``damage`` the points
    lost (``raw`` floored at 0: damage never heals)."""

    weapon: str
    option: str | None
    expression: str
    dice: tuple[int, ...]
    detail: str
    raw: int
    damage: int
    rules: tuple[str, ...]

    def to_json(self) -> dict[str, Json]:
        return {"weapon": self.weapon, "option": self.option, "expression": self.expression,
                "dice": list(self.dice), "detail": self.detail, "raw": self.raw,
                "damage": self.damage, "rules": list(self.rules)}

    def _repr_html_(self) -> str:
        return Text(f"Dégâts ({self.detail}), soit {plural(self.damage, 'PV', 'PV')}."
                    )._repr_html_()


def _option_rules(option: str | None) -> tuple[str, ...]:
    if option is None:
        return ()
    return ("D12-CRIT-2", "D12-EXPLODE-1") if option == "explosif" else ("D12-CRIT-2",)


def resolve_damage(weapon: str, dice_shown: Sequence[int], *, option: str | None = None
                ) -> DamageRoll:
    """Decide the damage of a hit from the damage dice already rolled (pure).

    ``dice_shown`` are the draws of :func:`damage_expression` in its draw order (for an
    exploding die, its extra draws right after it); none for ``"maximum"``, whose damage
    is the weapon with every die at its maximum, without explosion
    (``1d8+2`` → 10, D12-CRIT-2 (a)).

    >>> resolve_damage("1d8+2", [8, 8, 3, 5], option="explosif").raw
    26
    """
    expr = damage_expression(weapon, option)
    shown = tuple(dice_shown)
    if option == "maximum":
        if shown:
            raise invalid("dés de dégâts", list(shown), "D12-CRIT-2",
                          "l’option « maximum » ne lance aucun dé")
        raw = dice.max_dice_total(expr)
        detail = f"{expr} au maximum = {raw}"
    else:
        scripted = ScriptedRolls(shown)
        r = dice.roll(expr, scripted)
        if scripted.remaining:
            need = scripted.used
            raise invalid("dés de dégâts", list(shown), "D12-CRIT-2",
                          f"{plural(need, 'dé')} attendu{'s' if need > 1 else ''} pour "
                          f"{quote(expr)}, {len(shown)} fourni{'s' if len(shown) > 1 else ''}")
        raw = r.total
        detail = str(r)
        if raw < 0:  # damage never heals: the floor is a ruling, shown (D12-CRIT-1)
            detail = f"{detail.rsplit(' = ', 1)[0]} = {number(raw)}, ramené à 0"
    return DamageRoll(weapon, option, expr, shown, detail, raw, max(raw, 0),
                      _option_rules(option))


def roll_damage(weapon: str, rng: Rng, *, option: str | None = None) -> DamageRoll:
    """Roll the damage of a hit: the dice of :func:`damage_expression` (terms left to
    right, an exploding die's extra draws right after it); none for ``"maximum"``."""
    expr = damage_expression(weapon, option)
    if option == "maximum":
        return resolve_damage(weapon, (), option=option)
    return rolled_damage(weapon, expr, rng, option)


def rolled_damage(weapon: str, expr: str, rng: Rng, option: str | None) -> DamageRoll:
    """:func:`roll_damage` of a checked ``weapon`` and ``option`` (not ``"maximum"``),
    ``expr`` being their :func:`damage_expression`: the dice drawn, then decided by
    :func:`resolve_damage`. The rules kernel (``escarmouche.systems.d12.kernel``),
    which checks them and works ``expr`` out once per fighter, calls it directly."""
    r = dice.roll(expr, rng)
    shown = tuple([v for _, v in r.draws])
    if type(weapon) is str:
        for v in shown:
            if type(v) is not int:  # an rng of its own answering 5.0: not a key
                break
        else:
            return _resolved_damage(weapon, shown, option)
    return resolve_damage(weapon, shown, option=option)


@functools.lru_cache(maxsize=4096)
def _resolved_damage(weapon: str, shown: tuple[int, ...], option: str | None) -> DamageRoll:
    """:func:`resolve_damage` of dice just drawn (a pure function of a checked weapon,
    option and dice; a frozen result, cached: a fight rolls the same damage often)."""
    return resolve_damage(weapon, shown, option=option)


@dataclass(frozen=True, slots=True)
class AttackOutcome:
    """A whole attack: the roll, the damage (``None`` on a miss), the critical option
    applied (``None`` unless critical) and whether the next attack against the target
    gains advantage (option (c), D12-CRIT-2)."""

    attack: AttackRoll
    damage: DamageRoll | None
    option: str | None
    grants_advantage: bool

    @property
    def dealt(self) -> int:
        return self.damage.damage if self.damage is not None else 0

    @property
    def rules(self) -> tuple[str, ...]:
        extra = self.damage.rules if self.damage is not None else ()
        return tuple(dict.fromkeys(self.attack.rules + extra))

    def _repr_html_(self) -> str:
        lines = [self.attack.explain() + "."]
        if self.damage is not None:
            label = (f"Dégâts critiques, option {quote(CRITICAL_OPTIONS[self.option].label)}"
                     if self.option else "Dégâts")
            lines.append(f"{label} ({self.damage.detail}), soit "
                         f"{plural(self.dealt, 'PV', 'PV')}.")
        return Text("\n".join(lines))._repr_html_()


def roll_attack_outcome(
    rng: Rng,
    *,
    weapon: str,
    bonus: int = 0,
    defence: int,
    mode: Mode | str = Mode.NORMAL,
    option: str = "maximum",
) -> AttackOutcome:
    """Roll one attack and its damage (D12-CRIT-1, -2, D12-ADV-1, D12-EXPLODE-1).

    Draw order: the attack d12 (two, in order, under advantage or disadvantage); on a
    hit, the damage dice of :func:`damage_expression` (none for a ``"maximum"``
    critical). ``option`` is the critical option chosen if the attack is critical.
    """
    check_weapon(weapon)
    check_option(option)
    att = roll_attack(rng, bonus=bonus, defence=defence, mode=mode)
    if not att.hit:
        return AttackOutcome(att, None, None, False)
    chosen = option if att.critical else None
    dmg = roll_damage(weapon, rng, option=chosen)
    return AttackOutcome(att, dmg, chosen, chosen == "avantage")


#: the names before the naming rule (pure ``resolve_*``, rolling ``roll_*``), kept for
#: compatibility
attack_roll = resolve_attack_roll
damage_roll = resolve_damage
resolve_attack = roll_attack_outcome
