"""RB-SPEED-1..3: the speed effects (traits, and effects gained during the fight),
cancelled pair by pair, then applied to the initiative order, with an audit trail."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet

from escarmouche import checks
from escarmouche.errors import invalid
from escarmouche.model import Combatant, Effect, Json, Timing
from escarmouche.render.table import Table
from escarmouche.systems.rulebook.rules import (
    DEFAULT_RULES,
    OLD_HYPERACTIVE_SLOTS,
    SPEED_EFFECTS,
    SPEED_KIND,
    SPEED_PAIRS,
    Rules,
)
from escarmouche.text import fmt

__all__ = [
    "HypoactivityCheck",
    "SpeedOrder",
    "SpeedProfile",
    "SpeedSource",
    "SpeedStep",
    "apply_speed",
    "effect_active",
    "resolve_hypoactivity",
    "resolve_speed",
    "speed_effect",
    "speed_profiles",
]


def _known(effect: object, field: str, who: str = "") -> str:
    why = "effet de vitesse inconnu" + (f" pour {who}" if who else "")
    if not isinstance(effect, str) or effect not in SPEED_EFFECTS:
        raise invalid(field, effect, "RB-SPEED-1",
                      f"{why} ; effets : {fmt.join(SPEED_EFFECTS)}")
    return effect


@dataclasses.dataclass(frozen=True, slots=True)
class SpeedSource:
    """Where a character's speed effect comes from: a trait or an effect of the fight."""

    effect: str  # a key of SPEED_EFFECTS
    origin: str  # "trait" or the id of the Effect
    label: str = ""  # French, e.g. « trait » or « effet « Ralenti » (e3) »

    def to_json(self) -> list[Json]:
        return [self.effect, self.origin, self.label]

    @classmethod
    def from_json(cls, data: Sequence[Json]) -> SpeedSource:
        return cls(str(data[0]), str(data[1]), str(data[2]))


@dataclasses.dataclass(frozen=True, slots=True)
class SpeedProfile:
    """A character's speed effects after RB-SPEED-2: what remains, what cancelled."""

    name: str
    sources: tuple[SpeedSource, ...]
    active: frozenset[str]
    #: (effect, opposite, number of pairs cancelled)
    cancelled: tuple[tuple[str, str, int], ...] = ()

    def to_json(self) -> dict[str, Json]:
        return {"name": self.name, "sources": [s.to_json() for s in self.sources],
                "active": sorted(self.active),
                "cancelled": [list(c) for c in self.cancelled]}

    @classmethod
    def from_json(cls, data: Mapping[str, Json]) -> SpeedProfile:
        return cls(str(data["name"]), tuple(SpeedSource.from_json(s) for s in data["sources"]),
                   frozenset(data["active"]),
                   tuple((str(a), str(b), int(n)) for a, b, n in data["cancelled"]))


def resolve_speed(name: str, sources: Iterable[SpeedSource]) -> SpeedProfile:
    """Cancel opposite speed effects pair by pair (RB-SPEED-2).

    Each source counts once; for each opposite pair, ``min`` of the two counts cancel
    and the effect with more copies remains (copies of one effect do not stack).
    """
    srcs = tuple(sources)
    for s in srcs:
        _known(s.effect, "vitesse", name)
    counts = {k: sum(1 for s in srcs if s.effect == k) for k in SPEED_EFFECTS}
    active: set[str] = set()
    cancelled: list[tuple[str, str, int]] = []
    for a, b in SPEED_PAIRS:
        pairs = min(counts[a], counts[b])
        if pairs:
            cancelled.append((a, b, pairs))
        if counts[a] > counts[b]:
            active.add(a)
        elif counts[b] > counts[a]:
            active.add(b)
    return SpeedProfile(name, srcs, frozenset(active), tuple(cancelled))


def speed_profiles(combatants: Iterable[Combatant]) -> dict[str, SpeedProfile]:
    """The speed profiles given by the combatants' traits alone (RB-SPEED-1/2)."""
    out: dict[str, SpeedProfile] = {}
    for c in combatants:
        srcs = [SpeedSource(t, "trait", "trait") for t in SPEED_EFFECTS if t in c.traits]
        if srcs:
            out[c.name] = resolve_speed(c.name, srcs)
    return out


@dataclasses.dataclass(frozen=True, slots=True)
class SpeedStep:
    """One step of RB-SPEED-2/3, explained: who, which effect, whom it passed, why."""

    rule: str
    effect: str
    name: str
    other: str | None
    applied: bool
    text: str

    def to_json(self) -> dict[str, Json]:
        return {"rule": self.rule, "effect": self.effect, "name": self.name,
                "other": self.other, "applied": self.applied, "text": self.text}

    @classmethod
    def from_json(cls, data: Mapping[str, Json]) -> SpeedStep:
        return cls(str(data["rule"]), str(data["effect"]), str(data["name"]), data["other"],
                   bool(data["applied"]), str(data["text"]))


@dataclasses.dataclass(frozen=True, slots=True)
class SpeedOrder:
    """The initiative order after the speed effects (RB-SPEED-3), with its audit trail.

    ``base``: the order before; ``after_first_last``: after Toujours premier / dernier;
    ``order``: after Dépassement / Dépassé (one entry per character);
    ``hyperactive`` / ``hypoactive``: who has these effects after cancelling.
    """

    base: tuple[str, ...]
    after_first_last: tuple[str, ...]
    order: tuple[str, ...]
    hyperactive: frozenset[str]
    hypoactive: frozenset[str]
    hyperactive_slot: str
    steps: tuple[SpeedStep, ...]
    profiles: tuple[SpeedProfile, ...]

    def slots(self, include: AbstractSet[str] | None = None, *,
              exclude: AbstractSet[str] = frozenset(), twice: bool = True) -> list[str]:
        """The activation slots: ``order`` restricted to ``include`` (everyone when
        ``None``) minus ``exclude``, with a second slot for each Hyperactivité when
        ``twice`` (RB-SPEED-3, ``hyperactive_slot``)."""
        first = [n for n in self.order
                 if (include is None or n in include) and n not in exclude]
        if not twice:
            return first
        if self.hyperactive_slot == "juste_apres":
            out: list[str] = []
            for n in first:
                out.append(n)
                if n in self.hyperactive:
                    out.append(n)
            return out
        return first + [n for n in first if n in self.hyperactive]

    def explain(self) -> list[str]:
        """French lines: every cancellation and every move, with its rule ID."""
        return [fmt.cite(s.text, s.rule) for s in self.steps]

    def table(self) -> Table:
        """Every step (cancellation, move, second activation) as a French table."""
        rows = [(s.name, s.text, "oui" if s.applied else "non", s.rule) for s in self.steps]
        return Table(("Personnage", "Étape", "Appliquée", "Règle"), rows,
                     title=f"Avant : {', '.join(self.base)} ; après les effets de vitesse : "
                           f"{', '.join(self.slots())}")

    def _repr_html_(self) -> str:
        return self.table()._repr_html_()

    def to_json(self) -> dict[str, Json]:
        return {
            "base": list(self.base), "after_first_last": list(self.after_first_last),
            "order": list(self.order), "hyperactive": sorted(self.hyperactive),
            "hypoactive": sorted(self.hypoactive), "hyperactive_slot": self.hyperactive_slot,
            "steps": [s.to_json() for s in self.steps],
            "profiles": [p.to_json() for p in self.profiles],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Json]) -> SpeedOrder:
        slot = str(data["hyperactive_slot"])
        return cls(
            tuple(data["base"]), tuple(data["after_first_last"]), tuple(data["order"]),
            frozenset(data["hyperactive"]), frozenset(data["hypoactive"]),
            # an old save's English value (RB-SPEED-3): its rules gave the note
            OLD_HYPERACTIVE_SLOTS.get(slot, slot),
            tuple(SpeedStep.from_json(s) for s in data["steps"]),
            tuple(SpeedProfile.from_json(p) for p in data["profiles"]),
        )


def _label(effect: str) -> str:
    return SPEED_EFFECTS[effect].label


def apply_speed(
    order: Sequence[str],
    profiles: Mapping[str, SpeedProfile] | Mapping[str, AbstractSet[str]],
    rules: Rules = DEFAULT_RULES,
) -> SpeedOrder:
    """Apply the speed effects to an initiative order (RB-SPEED-2, RB-SPEED-3).

    ``profiles`` maps a name to its :class:`SpeedProfile` (or directly to its set of
    active effects, already cancelled). In this order:

    1. Toujours premier characters go to the top, Toujours dernier to the bottom; several
       of them keep their relative order.
    2. Dépassement / Dépassé, one character at a time from the top: a Dépassement swaps
       with the character just before, a Dépassé with the character just after; a swap
       happens only if neither of the two has moved yet in this step (each moves at most
       one place); the first cannot overtake, the last cannot be overtaken.
    3. Hyperactivité: a second activation (see :meth:`SpeedOrder.slots`,
       ``rules.hyperactive_slot``).
    """
    names = list(order)
    if len(set(names)) != len(names):
        raise invalid("ordre", names, "RB-SPEED-3", "un nom apparaît deux fois")
    profs: dict[str, SpeedProfile] = {}
    for n, given in profiles.items():
        if isinstance(given, SpeedProfile):
            profs[n] = given
        else:
            profs[n] = resolve_speed(n, [SpeedSource(e, "direct", "") for e in sorted(given)])
    steps: list[SpeedStep] = []
    for n in names:
        p = profs.get(n)
        if p is None:
            continue
        for a, b, k in p.cancelled:
            times = "" if k == 1 else f" ({k} paires)"
            steps.append(SpeedStep(
                "RB-SPEED-2", a, n, None, True,
                f"{_label(a)} et {_label(b)} s’annulent pour {n}{times}"))

    def has(n: str, effect: str) -> bool:
        p = profs.get(n)
        return p is not None and effect in p.active

    # 1. Toujours premier / Toujours dernier
    first = [n for n in names if has(n, "toujours_premier")]
    last = [n for n in names if has(n, "toujours_dernier")]
    middle = [n for n in names if n not in first and n not in last]
    staged = first + middle + last
    for n in first:
        steps.append(SpeedStep("RB-SPEED-3", "toujours_premier", n, None, True,
                               f"{n} agit en premier (Toujours premier)"))
    for n in last:
        steps.append(SpeedStep("RB-SPEED-3", "toujours_dernier", n, None, True,
                               f"{n} agit en dernier (Toujours dernier)"))

    # 2. Dépassement / Dépassé, from the top, each character moves at most one place
    current = list(staged)
    moved: set[str] = set()
    for n in staged:
        for effect in ("depassement", "depasse"):
            if not has(n, effect):
                continue
            label = _label(effect)
            pos = current.index(n)
            if n in moved:
                steps.append(SpeedStep("RB-SPEED-3", effect, n, None, False,
                                       f"{n} a déjà changé de place : {label} sans effet"))
                continue
            if effect == "depassement":
                if pos == 0:
                    steps.append(SpeedStep(
                        "RB-SPEED-3", effect, n, None, False,
                        f"Personne ne précède {n} dans l’ordre, il n’y a personne à dépasser "
                        f"({label} sans effet)"))
                    continue
                other = current[pos - 1]
                lo = pos - 1
            else:
                if pos == len(current) - 1:
                    steps.append(SpeedStep(
                        "RB-SPEED-3", effect, n, None, False,
                        f"Personne ne suit {n} dans l’ordre, il n’y a personne à laisser passer "
                        f"({label} sans effet)"))
                    continue
                other = current[pos + 1]
                lo = pos
            if other in moved:
                steps.append(SpeedStep(
                    "RB-SPEED-3", effect, n, other, False,
                    f"{other} a déjà changé de place : pas d’échange avec {n} "
                    f"({label} sans effet)"))
                continue
            current[lo], current[lo + 1] = current[lo + 1], current[lo]
            moved.update((n, other))
            if effect == "depassement":
                text = f"{n} passe devant {other} (Dépassement)"
            else:
                text = f"{n} passe derrière {other} (Dépassé)"
            steps.append(SpeedStep("RB-SPEED-3", effect, n, other, True, text))

    # 3. Hyperactivité (slots), Hypoactivité (a d4 at each activation)
    hyper = frozenset(n for n in names if has(n, "hyperactivite"))
    hypo = frozenset(n for n in names if has(n, "hypoactivite"))
    where = ("juste après la première" if rules.hyperactive_slot == "juste_apres"
             else "à la fin du tour")
    for n in current:
        if n in hyper:
            steps.append(SpeedStep("RB-SPEED-3", "hyperactivite", n, None, True,
                                   f"{n} agit deux fois (Hyperactivité, seconde activation "
                                   f"{where})"))
        if n in hypo:
            steps.append(SpeedStep("RB-SPEED-1", "hypoactivite", n, None, True,
                                   f"{n} lance 1d4 à chaque activation et ne peut pas agir "
                                   "sur un 4 (Hypoactivité)"))
    return SpeedOrder(
        tuple(names), tuple(staged), tuple(current), hyper, hypo, rules.hyperactive_slot,
        tuple(steps), tuple(profs[n] for n in names if n in profs),
    )


@dataclasses.dataclass(frozen=True, slots=True)
class HypoactivityCheck:
    """The 1d4 of Hypoactivité at one activation (RB-SPEED-1): a 4 means no activation."""

    roll: int
    can_act: bool
    rules: tuple[str, ...] = ("RB-SPEED-1",)


def resolve_hypoactivity(d4_roll: int) -> HypoactivityCheck:
    """Hypoactivité (RB-SPEED-1): on a 4 on the d4, the character cannot act.

    >>> resolve_hypoactivity(4).can_act
    False
    """
    d4 = checks.die("d4", d4_roll, 4, "RB-SPEED-1")
    return HypoactivityCheck(d4, d4 != 4)


def speed_effect(
    bearer: str,
    effect: str,
    *,
    first_turn: int | None = None,
    last_turn: int | None = None,
    name: str | None = None,
    source: str | None = None,
) -> Effect:
    """A speed effect gained during the fight (RB-SPEED-1; « les attaques peuvent changer
    l’ordre des tours »), as an :class:`~escarmouche.model.Effect` of kind ``"vitesse"``
    whose keyword names the effect.

    It counts for every global turn from ``first_turn`` to ``last_turn`` (both optional)
    while it exists; the system removes it at the end of ``last_turn``. Its timing is
    « début du tour global » because that is when the order it changes is computed
    (its duration is counted in global turns: *ruling*). Add it with
    ``Encounter.add_effect`` (or let an action's ``vitesse`` parameter do it).
    """
    _known(effect, "vitesse")
    data: dict[str, int] = {}
    for key, value in (("debut", first_turn), ("fin", last_turn)):
        if value is not None:
            data[key] = checks.integer(key, value, lo=0, hi=1_000_000, rule="RB-SPEED-1")
    if "debut" in data and "fin" in data and data["fin"] < data["debut"]:
        raise invalid("last_turn", data["fin"], "RB-SPEED-1",
                      f"le dernier tour ne peut précéder le premier ({fmt.number(data['debut'])})",
                      label="dernier tour (last_turn)")
    return Effect("", name or SPEED_EFFECTS[effect].label, Timing.TURN_START,
                  bearer=bearer, kind=SPEED_KIND, keywords=frozenset({effect}), source=source,
                  data=data)


def effect_active(e: Effect, turn: int) -> bool:
    """Whether a speed effect counts in global turn ``turn`` (RB-SPEED-1)."""
    return e.data.get("debut", turn) <= turn <= e.data.get("fin", turn)

