"""Immutable values shared by every system: combatants, effects, events.

Everything here is JSON-serialisable through ``to_json``/``from_json`` so that an
encounter can be saved and restored exactly (CORE-LOG).

>>> aldric = Combatant("Aldric", "héros", {"CC": 45, "B": 12}, skills={"esquive"})
>>> aldric.to_json()  # doctest: +NORMALIZE_WHITESPACE
{'name': 'Aldric', 'side': 'héros', 'stats': {'B': 12, 'CC': 45},
 'skills': ['esquive'], 'traits': []}
>>> Combatant.from_json(aldric.to_json()) == aldric
True
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from escarmouche import checks
from escarmouche.errors import invalid
from escarmouche.text.typo import typographie

__all__ = [
    "Combatant",
    "DieRecord",
    "Effect",
    "Event",
    "FrozenMap",
    "Json",
    "Timing",
    "check_roster",
    "jsonable",
    "make_event",
]

Json = Any  # a JSON-compatible value (dict/list/str/int/float/bool/None)


def jsonable(value: object) -> Json:
    """``json.dumps``'s ``default=`` for the engine's values: an object's ``to_json()``
    when it has one, else its text (rules tables of objects, dates)."""
    to_json = getattr(value, "to_json", None)
    if callable(to_json):
        result: Json = to_json()
        return result
    return str(value)

_IDENT = re.compile(r"^[a-z][a-z0-9_]*$")
STAT_MIN = -1000
STAT_MAX = 1000
#: the longest name of a fighter, a side or an effect
NAME_MAX = 100
#: the most combatants in one fight (a bound: every turn visits each of them)
MAX_ROSTER = 1000


class FrozenMap(Mapping[str, int]):
    """A small hashable, read-only ``str -> int`` mapping (the stats of a combatant).

    >>> stats = FrozenMap({"CC": 45, "B": 12})
    >>> stats, stats["CC"], list(stats)
    (FrozenMap({'B': 12, 'CC': 45}), 45, ['B', 'CC'])
    >>> stats == {"B": 12, "CC": 45}, hash(stats) == hash(FrozenMap([("B", 12), ("CC", 45)]))
    (True, True)
    """

    __slots__ = ("_items", "_lookup")

    def __init__(self, items: Mapping[str, int] | Iterable[tuple[str, int]] = ()) -> None:
        data = dict(items)
        self._items: tuple[tuple[str, int], ...] = tuple(sorted(data.items()))
        #: the same items as a dict, for lookups (the rules read stats in their hot loop)
        self._lookup: dict[str, int] = dict(self._items)

    def __getitem__(self, key: str) -> int:
        return self._lookup[key]

    def __contains__(self, key: object) -> bool:
        return key in self._lookup

    def get(self, key: str, default: Any = None) -> Any:
        return self._lookup.get(key, default)

    def __iter__(self) -> Iterator[str]:
        return (k for k, _ in self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        return hash(self._items)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Mapping):
            return dict(self._items) == dict(other)
        return NotImplemented

    def __repr__(self) -> str:
        return f"FrozenMap({dict(self._items)!r})"


@dataclass(frozen=True, slots=True)
class Combatant:
    """A fighter, as an immutable value (spec/API.md « Common »).

    ``stats`` are keyed by the rules' abbreviations (``"HAB"``, ``"CC"``, ``"Ag"``,
    ``"init"`` …); ``skills`` and ``traits`` are sets of lowercase ASCII identifiers
    (``"esquive"``, ``"hyperactivite"``, ``"alerte"``, ``"nain"`` …).
    Each system checks the stats it needs and their ranges.

    >>> aldric = Combatant("Aldric", "héros", {"CC": 45, "B": 12}, skills={"esquive"})
    >>> aldric.stat("CC"), aldric.stat("Ag", default=0), "esquive" in aldric.skills
    (45, 0, True)
    >>> aldric.stat("Ag")  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
      ...
    escarmouche.errors.ParameterError: Aucune valeur pour « Ag » : cette caractéristique est
    requise pour « Aldric » (CORE-ERR).

    A combatant is checked when it is made, with a French message that names the field:

    >>> Combatant("Grolk", "orques", {"CC": "40"})  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
      ...
    escarmouche.errors.ParameterError: Valeur « 40 » refusée pour « CC » : un nombre entier
    entre −1 000 et 1 000 est attendu pour « Grolk » (CORE-ERR).
    >>> Combatant("Grolk", "orques", skills={"Esquive"})  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
      ...
    escarmouche.errors.ParameterError: Valeur « Esquive » refusée pour « compétences » :
    identifiant en minuscules ASCII attendu, par exemple « esquive » pour « Grolk » (CORE-ERR).
    """

    name: str
    side: str
    stats: Mapping[str, int] = field(default_factory=FrozenMap)
    skills: AbstractSet[str] = frozenset()
    traits: AbstractSet[str] = frozenset()

    def __post_init__(self) -> None:
        checks.text("nom", self.name, "CORE-ERR", max_len=NAME_MAX)
        checks.text("camp", self.side, "CORE-ERR", max_len=NAME_MAX)
        who = f"« {self.name} »"
        if isinstance(self.stats, str) or not isinstance(self.stats, Mapping):
            raise invalid("caractéristiques", self.stats, "CORE-ERR",
                          f"un dictionnaire est attendu pour {who}")
        if len(self.stats) > 100:
            raise invalid("caractéristiques", len(self.stats), "CORE-ERR", "au plus 100")
        for key, value in self.stats.items():
            checks.text("caractéristique", key, "CORE-ERR", max_len=40)
            checks.integer(key, value, lo=STAT_MIN, hi=STAT_MAX, rule="CORE-ERR", who=who)
        object.__setattr__(self, "stats", FrozenMap(self.stats))
        object.__setattr__(self, "skills",
                           checks.identifiers("compétences", self.skills, "CORE-ERR", who=who))
        object.__setattr__(self, "traits",
                           checks.identifiers("traits", self.traits, "CORE-ERR", who=who))

    def stat(self, key: str, default: int | None = None) -> int:
        """The stat ``key``, or ``default``; raises a French error when it is missing."""
        if key in self.stats:
            return self.stats[key]
        if default is not None:
            return default
        raise invalid(key, None, "CORE-ERR",
                      f"cette caractéristique est requise pour « {self.name} »")

    def to_json(self) -> dict[str, Json]:
        return {
            "name": self.name,
            "side": self.side,
            "stats": dict(self.stats),
            "skills": sorted(self.skills),
            "traits": sorted(self.traits),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Json]) -> Combatant:
        return cls(
            name=data["name"],
            side=data["side"],
            stats=dict(data.get("stats", {})),
            skills=frozenset(data.get("skills", ())),
            traits=frozenset(data.get("traits", ())),
        )


class Timing(StrEnum):
    """When an effect ticks (CORE-TIME-1..3; RB-TIME-*, D20-START-1, D20-END-2, D12-CRIT-2 (c)).

    The values are the French words a save file holds:

    >>> Timing("fin_tour"), str(Timing.ACTIVATION_START)
    (<Timing.TURN_END: 'fin_tour'>, 'debut_activation')
    """

    #: start of every global turn / round (global countdowns, CORE-TIME-1, RB-TIME-1)
    TURN_START = "debut_tour"
    #: start of the bearer's activation (poison, cooldowns, CORE-TIME-2, RB-TIME-2;
    #: D20-START-1)
    ACTIVATION_START = "debut_activation"
    #: end of the bearer's activation (CORE-TIME-2; D20-END-2)
    ACTIVATION_END = "fin_activation"
    #: end of every global turn (environment effects, CORE-TIME-3, RB-TIME-3)
    TURN_END = "fin_tour"
    #: expires at the start of the next activation of ``Effect.until_turn_of``
    UNTIL_NEXT_TURN_OF = "jusqu_au_prochain_tour_de"


TIMING_LABELS: dict[Timing, str] = {
    Timing.TURN_START: "au début du tour global",
    Timing.ACTIVATION_START: "au début de l’activation du porteur",
    Timing.ACTIVATION_END: "à la fin de l’activation du porteur",
    Timing.TURN_END: "à la fin du tour global",
    Timing.UNTIL_NEXT_TURN_OF: "jusqu’au début du prochain tour de",
}


def timing_label(timing: Timing, *, turn_word: str = "tour",
                 activation_word: str = "tour") -> str:
    """:data:`TIMING_LABELS` in a system's own words: its global turn (« round » in d100
    and d20) and a fighter's moment (« activation » in the Rulebook, where « tour » is the
    global turn; « tour » elsewhere).

    >>> timing_label(Timing.TURN_START, turn_word="round")
    'au début du round'
    >>> timing_label(Timing.UNTIL_NEXT_TURN_OF, activation_word="activation")
    'jusqu’au début de la prochaine activation de'
    >>> timing_label(Timing.ACTIVATION_END)
    'à la fin du tour du porteur'
    """
    if timing is Timing.TURN_START:
        return "au début du tour global" if turn_word == "tour" else f"au début du {turn_word}"
    if timing is Timing.TURN_END:
        return "à la fin du tour global" if turn_word == "tour" else f"à la fin du {turn_word}"
    if activation_word == "activation":
        if timing is Timing.UNTIL_NEXT_TURN_OF:
            return "jusqu’au début de la prochaine activation de"
        return TIMING_LABELS[timing]
    return {Timing.ACTIVATION_START: "au début du tour du porteur",
            Timing.ACTIVATION_END: "à la fin du tour du porteur"}.get(timing,
                                                                     TIMING_LABELS[timing])


@dataclass(frozen=True, slots=True)
class Effect:
    """A lasting effect with a timing and an optional countdown.

    ``remaining`` counts the ticks left (``None``: lasts until removed, by a save
    (``save_ends``) or by the GM). At each tick ``per_tick`` is added to the bearer's
    tracks (e.g. ``{"PV": -2}`` for poison, ``{"PV": 3}`` for regeneration) and then the
    countdown decreases; at 0 the effect expires. ``kind`` lets a system give an effect a
    meaning (``"degats_continus"``, ``"regeneration"``, ``"avantage_contre"`` …).

    A poison that costs Grolk 2 PV at the start of each of his next three activations
    (the encounter gives it an id when ``id`` is empty):

    >>> poison = Effect("", "poison", Timing.ACTIVATION_START, bearer="Grolk",
    ...                 remaining=3, per_tick={"PV": -2})
    >>> poison.timing, poison.remaining, poison.per_tick
    (<Timing.ACTIVATION_START: 'debut_activation'>, 3, FrozenMap({'PV': -2}))
    >>> Effect.from_json(poison.to_json()) == poison
    True
    >>> Effect("", "garde", Timing.TURN_START, remaining=0)  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
      ...
    escarmouche.errors.ParameterError: Valeur 0 refusée pour « durée » : un nombre entier entre
    1 et 10 000 est attendu pour l’effet « garde » (CORE-ERR).
    """

    id: str
    name: str
    timing: Timing
    bearer: str | None = None
    remaining: int | None = None
    until_turn_of: str | None = None
    kind: str = "generique"
    per_tick: Mapping[str, int] = field(default_factory=FrozenMap)
    save_ends: bool = False
    keywords: frozenset[str] = frozenset()
    source: str | None = None
    data: Mapping[str, int] = field(default_factory=FrozenMap)

    def __post_init__(self) -> None:
        checks.text("effet", self.name, "CORE-ERR", max_len=200)
        who = f"l’effet « {self.name} »"
        if not isinstance(self.id, str) or len(self.id) > 40:
            raise invalid("id", self.id, "CORE-ERR", f"un texte court est attendu pour {who}")
        timing = checks.choice("moment", self.timing, [t.value for t in Timing], "CORE-ERR",
                               labels={t.value: TIMING_LABELS[t] for t in Timing})
        object.__setattr__(self, "timing", Timing(timing))
        for label, named in (("porteur", self.bearer), ("jusqu’au tour de", self.until_turn_of)):
            if named is not None:
                checks.text(label, named, "CORE-ERR", max_len=NAME_MAX)
        if self.remaining is not None:
            checks.integer("durée", self.remaining, lo=1, hi=10_000, rule="CORE-ERR", who=who)
        if self.timing is Timing.UNTIL_NEXT_TURN_OF and not self.until_turn_of:
            raise invalid("jusqu’au tour de", self.until_turn_of, "CORE-ERR",
                          f"{who} dure « jusqu’au prochain tour de » quelqu’un : nommez ce "
                          "combattant")
        checks.identifiers("type", [self.kind], "CORE-ERR", who=who)
        checks.flag("fin sur sauvegarde", self.save_ends, "CORE-ERR")
        for label, table in (("par tour", self.per_tick), ("données", self.data)):
            checks.mapping(label, table, "CORE-ERR", max_len=100)
            for key, value in table.items():
                checks.text(label, key, "CORE-ERR", max_len=40)
                checks.integer(f"{label} {key}", value, lo=-100_000, hi=100_000,
                               rule="CORE-ERR", who=who)
        if isinstance(self.keywords, str) or not isinstance(self.keywords, AbstractSet | list
                                                             | tuple):
            raise invalid("mots-clés", self.keywords, "CORE-ERR",
                          f"un ensemble de mots est attendu pour {who}")
        for word in self.keywords:
            checks.text("mot-clé", word, "CORE-ERR", max_len=60)
        if self.source is not None:
            checks.text("source", self.source, "CORE-ERR", max_len=NAME_MAX)
        object.__setattr__(self, "per_tick", FrozenMap(self.per_tick))
        object.__setattr__(self, "data", FrozenMap(self.data))
        object.__setattr__(self, "keywords", frozenset(self.keywords))

    def to_json(self) -> dict[str, Json]:
        return {
            "id": self.id,
            "name": self.name,
            "timing": self.timing.value,
            "bearer": self.bearer,
            "remaining": self.remaining,
            "until_turn_of": self.until_turn_of,
            "kind": self.kind,
            "per_tick": dict(self.per_tick),
            "save_ends": self.save_ends,
            "keywords": sorted(self.keywords),
            "source": self.source,
            "data": dict(self.data),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Json]) -> Effect:
        return cls(
            id=data["id"],
            name=data["name"],
            timing=Timing(data["timing"]),
            bearer=data.get("bearer"),
            remaining=data.get("remaining"),
            until_turn_of=data.get("until_turn_of"),
            kind=data.get("kind", "generique"),
            per_tick=dict(data.get("per_tick", {})),
            save_ends=bool(data.get("save_ends", False)),
            keywords=frozenset(data.get("keywords", ())),
            source=data.get("source"),
            data=dict(data.get("data", {})),
        )


@dataclass(frozen=True, slots=True)
class DieRecord:
    """One die drawn: its faces, the value shown and what it was for (French label).

    >>> DieRecord(100, 37, "attaque").to_json()
    [100, 37, 'attaque']
    """

    faces: int
    value: int
    purpose: str = ""

    def to_json(self) -> list[Json]:
        return [self.faces, self.value, self.purpose]

    @classmethod
    def from_json(cls, data: list[Json]) -> DieRecord:
        return cls(int(data[0]), int(data[1]), str(data[2]))


@dataclass(frozen=True, slots=True)
class Event:
    """One entry of the ordered combat log (CORE-LOG).

    ``text`` is the French narration; ``data`` holds the structured outcome (JSON
    values only); ``rules`` the rule IDs that applied; ``dice`` every die drawn.

    >>> coup = Event(1, 1, "Aldric", "attaque", "Aldric touche Grolk.",
    ...              rules=("D100-ATK-1",), dice=(DieRecord(100, 37, "attaque"),))
    >>> coup.to_json()["dice"], Event.from_json(coup.to_json()) == coup
    ([[100, 37, 'attaque']], True)
    """

    seq: int
    turn: int
    actor: str | None
    kind: str
    text: str
    rules: tuple[str, ...] = ()
    dice: tuple[DieRecord, ...] = ()
    data: Mapping[str, Json] = field(default_factory=dict)

    def to_json(self) -> dict[str, Json]:
        return {
            "seq": self.seq,
            "turn": self.turn,
            "actor": self.actor,
            "kind": self.kind,
            "text": self.text,
            "rules": list(self.rules),
            "dice": [d.to_json() for d in self.dice],
            "data": dict(self.data),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Json]) -> Event:
        return cls(
            seq=int(data["seq"]),
            turn=int(data["turn"]),
            actor=data.get("actor"),
            kind=str(data["kind"]),
            text=typographie(str(data["text"])),  # a save made before typography
            rules=tuple(data.get("rules", ())),
            dice=tuple(DieRecord.from_json(d) for d in data.get("dice", ())),
            data=dict(data.get("data", {})),
        )


def _event_maker() -> Callable[[int, int, str | None, str, str, tuple[str, ...],
                                tuple[DieRecord, ...], Mapping[str, Json]], Event]:
    """``Event(seq, turn, actor, kind, text, rules, dice, data)`` with every field given:
    the same frozen event, its slots set directly (the dataclass's ``__init__`` looks up
    ``object.__setattr__`` for each field, a third of a narrated event's cost); the
    dataclass itself if it ever checks its fields (``__post_init__``) or has others."""
    setters = {f.name: getattr(Event, f.name).__set__ for f in dataclasses.fields(Event)}
    if hasattr(Event, "__post_init__") or list(setters) != [
            "seq", "turn", "actor", "kind", "text", "rules", "dice", "data"]:
        return Event  # pragma: no cover - the event is built as the dataclass builds it
    new = object.__new__
    seq, turn, actor, kind = setters["seq"], setters["turn"], setters["actor"], setters["kind"]
    text, rules, dice, data = (setters["text"], setters["rules"], setters["dice"],
                               setters["data"])

    def event(s: int, t: int, a: str | None, k: str, x: str, r: tuple[str, ...],
              d: tuple[DieRecord, ...], m: Mapping[str, Json]) -> Event:
        e = new(Event)
        seq(e, s)
        turn(e, t)
        actor(e, a)
        kind(e, k)
        text(e, x)
        rules(e, r)
        dice(e, d)
        data(e, m)
        return e

    return event


#: ``Event(seq, turn, actor, kind, text, rules, dice, data)``, every field given (as
#: ``Ctx.record`` and a rules kernel's narration append the full engine's events), built
#: at half the cost (:func:`_event_maker`)
make_event = _event_maker()


def check_roster(combatants: Iterable[object], *, rule: str, non_empty: bool = False
                 ) -> list[Combatant]:
    """The roster as a list, checked: only :class:`Combatant` values, unique names
    (CORE-ERR); ``rule`` is the rule ID cited by the French errors.

    >>> aldric = Combatant("Aldric", "héros")
    >>> [c.name for c in check_roster((aldric,), rule="CORE-ERR")]
    ['Aldric']
    >>> check_roster([aldric, aldric], rule="D100-INIT-1")  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
      ...
    escarmouche.errors.ParameterError: Valeur « Aldric » refusée pour « nom » : deux combattants
    portent ce nom ; chaque nom doit être unique (D100-INIT-1).
    """
    if isinstance(combatants, Combatant | str) or not isinstance(combatants, Iterable):
        raise invalid("combattants", combatants, rule, "une liste de Combatant est attendue")
    roster = list(combatants)
    if len(roster) > MAX_ROSTER:
        raise invalid("combattants", len(roster), rule,
                      f"au plus {MAX_ROSTER} combattants dans un combat")
    if non_empty and not roster:
        raise invalid("combattants", "aucun", rule,
                      "une liste non vide de Combatant est attendue")
    seen: set[str] = set()
    checked: list[Combatant] = []
    for c in roster:
        if not isinstance(c, Combatant):
            raise invalid("combattant", c, rule, "un Combatant est attendu")
        checked.append(c)
        if c.name in seen:
            raise invalid("nom", c.name, rule,
                          "deux combattants portent ce nom ; chaque nom doit être unique")
        seen.add(c.name)
    return checked
