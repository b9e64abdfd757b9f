"""A dedicated fast resolver for d100 fights played by the engine's automatic choices.

The generic simulation mode (``Encounter.simulated``) runs the system's own code; for
d100 most of a fight's time is then spent building what a simulation throws away (each
attack's setup with its validations, the result with its sentence and its JSON, the
legality checks of the turn plan). This module plays the same fight with the engine's
*own* rule functions, computed once per pair of fighters: the attack's target number and
the defence's (:func:`~escarmouche.systems.d100.attack.attack_setup`), the hit location
(:func:`~escarmouche.systems.d100.attack.location_of`), the damage
(:func:`~escarmouche.systems.d100.attack.damage`), the initiative
(:func:`~escarmouche.systems.d100.initiative.roll_initiative`), and draws the dice in
the engine's order. It mirrors ``Encounter._run`` with ``D100System.auto_action``:
each activation, an « attaque standard » on the first standing enemy, who dodges when
it may (a parry needs a prepared parry or two weapons, which automated play never has
here).

It applies only where that holds (:func:`applies`): d100, default equipment with a
melee weapon, no start options, effects, end conditions, mounts or policy, and an
``Encounter.run`` that plays ``auto_action``, or the default « agressif » tactics policy
which makes the same choices here (:func:`_plays_like_auto_action`); anything else goes
through the engine. ``tests/test_simulation.py`` holds it to the full engine on
thousands of seeds (same winner, rounds, every track, same dice consumed), and
:func:`escarmouche.simulation.simulate` re-checks it on a few fights before using it.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Mapping
from typing import Any

from escarmouche.encounter import Encounter
from escarmouche.errors import EscarmoucheError
from escarmouche.systems.d100.attack import (
    AttackSetup,
    Guard,
    attack_setup,
    check_defence,
    damage,
    location_of,
    reverse_digits,
)
from escarmouche.systems.d100.initiative import roll_initiative
from escarmouche.systems.d100.rules import TRACK, WEAPONS, Rules, armour_at, get_weapon

__all__ = ["Kernel", "applies"]


def _plays_like_auto_action(template: Encounter) -> bool:
    """Whether ``template.run`` (no policy given) plays d100 as ``auto_action`` did: true
    without tactics policies, and with them when the default d100 policy is the tag
    policy that carries on, then attacks (« agressif »: one attack on the first standing
    enemy, the defender taking the first defence it may use, no parry prepared)."""
    if "policy" not in inspect.signature(template.run).parameters:
        return True
    try:
        policies: Any = importlib.import_module("escarmouche.policies")
        chosen = policies.get_policy(policies.default_policy("d100"))
    except (ImportError, AttributeError, EscarmoucheError):
        return False
    prefer = getattr(chosen, "prefer", ())
    return (type(chosen).__name__ == "TagPolicy" and tuple(prefer[:2]) == ("suite", "attaque")
            and "defense" not in prefer and not getattr(chosen, "decline", ()))


def applies(template: Encounter, start_options: Mapping[str, Any], policy: Any) -> bool:
    """Whether :class:`Kernel` plays ``template`` exactly as the engine would."""
    st = template.state
    if template.system.name != "d100" or st.started or st.effects or st.end_conditions:
        return False
    if start_options or policy:
        return False
    if not _plays_like_auto_action(template):
        return False
    rules = template.rules
    if not isinstance(rules, Rules):
        return False
    try:
        weapon = get_weapon(rules.default_weapon, WEAPONS)
    except EscarmoucheError:
        return False
    sides = {f.side for f in st.fighters.values()}
    return not weapon.ranged and not weapon.reload and len(sides) > 1


class Kernel:
    """The d100 fight of ``template`` (see :func:`applies`), played from an rng.

    >>> import random
    >>> from escarmouche import Combatant
    >>> duel = Encounter("d100", [
    ...     Combatant("Aldric", "héros", {"CC": 45, "CT": 30, "F": 35, "E": 30, "Ag": 40,
    ...                                   "M": 4, "B": 12}, skills={"esquive"}),
    ...     Combatant("Grolk", "orques", {"CC": 40, "CT": 20, "F": 40, "E": 40, "Ag": 25,
    ...                                   "M": 4, "B": 11})])
    >>> applies(duel, {}, None)
    True
    >>> wounds, rounds, timed_out = Kernel(duel).play(random.Random(5), max_turns=50)
    >>> engine = duel.simulated()
    >>> _ = engine.run(random.Random(5), max_turns=50)
    >>> wounds == [f.tracks["B"] for f in engine.state.fighters.values()]
    True
    >>> rounds == engine.turn
    True
    """

    def __init__(self, template: Encounter) -> None:
        self.rules: Rules = template.rules
        fighters = list(template.state.fighters.values())
        self.combatants = [f.combatant for f in fighters]
        self.names = [f.name for f in fighters]
        self.sides = [f.side for f in fighters]
        self.start_b = [f.tracks[TRACK] for f in fighters]
        self.maxima = [f.maxima.get(TRACK, f.tracks[TRACK]) for f in fighters]
        self.weapon = get_weapon(self.rules.default_weapon, WEAPONS)
        self.can_dodge = ["esquive" in c.skills for c in self.combatants]
        self.index = {n: i for i, n in enumerate(self.names)}
        self._setups: dict[tuple[int, int, str], AttackSetup] = {}
        self._armour: dict[tuple[int, str], int] = {}
        self._location = {v: location_of(v) for v in range(1, 101)}
        self._reverse = {r: reverse_digits(r) for r in range(1, 101)}
        # a parry is never legal in this play (no prepared parry, one weapon)
        for c in self.combatants:
            try:
                check_defence(c, "parade", Guard(), False, self.rules)
            except EscarmoucheError:
                continue
            raise ValueError("a parry would be legal: the kernel does not apply")

    def _setup(self, a: int, d: int, defence: str) -> AttackSetup:
        key = (a, d, defence)
        s = self._setups.get(key)
        if s is None:
            s = attack_setup(self.combatants[a], self.combatants[d], self.weapon,
                             defence=defence, rules=self.rules, weapons=WEAPONS)
            self._setups[key] = s
        return s

    def _armour_at(self, d: int, where: str) -> int:
        key = (d, where)
        v = self._armour.get(key)
        if v is None:
            v = armour_at(self.combatants[d], where)
            self._armour[key] = v
        return v

    def play(self, rng: Any, max_turns: int) -> tuple[list[int], int, bool]:
        """Play one fight: (each fighter's B at the end, the last turn, finished by the
        turn limit)."""
        randint = rng.randint
        n = len(self.names)
        b = list(self.start_b)
        standing = [v > 0 for v in b]
        sides = self.sides
        order = [self.index[name] for name in roll_initiative(self.combatants, rng).order]
        per_round = self.rules.dodges_per_round
        turn = 1
        dodges = [0] * n

        def decided() -> bool:
            alive = {sides[i] for i in range(n) if standing[i]}
            return len(alive) <= 1

        cursor = -1
        while True:
            # the engine's end_activation then _advance: the next standing fighter,
            # ending rounds as needed
            while True:
                cursor += 1
                if cursor >= len(order):
                    if decided():
                        return b, turn, False
                    turn += 1
                    dodges = [0] * n
                    cursor = -1
                    continue
                if standing[order[cursor]]:
                    break
            if turn > max_turns:
                return b, turn, True
            a = order[cursor]
            target = -1
            for i in range(n):
                if standing[i] and sides[i] != sides[a]:
                    target = i
                    break
            if target >= 0:
                defence = ("esquive" if self.can_dodge[target] and dodges[target] < per_round
                           else "aucune")
                s = self._setup(a, target, defence)
                roll = randint(1, 100)
                if roll <= s.target.total:
                    landed = True
                    if s.defence_target is not None:
                        dodges[target] += 1
                        landed = randint(1, 100) > s.defence_target.total
                    if landed:
                        d10 = randint(1, 10)
                        where = self._location[self._reverse[roll]]
                        lost = damage(d10, s.weapon.damage, s.be, self._armour_at(target, where))
                        if lost:
                            b[target] = max(0, b[target] - lost)
                            if b[target] <= 0:
                                standing[target] = False
                if decided():
                    return b, turn, False
