"""Initiative of each system as the demos show it (pure: engine calls → views).

For one roster, each system's initiative function is called with a (recorded) rng, and
its result becomes an :class:`InitiativeView`: the timeline rows, the French lines that
explain the order and its ties, the dice and the rule IDs. :func:`initiative_odds`
gives the exact odds as HTML (charts), cached per roster.

The roster is shared by the four systems (each reads its own stats: ``HAB`` for the
rulebook, ``Ag`` for d100, ``init`` for d12 and d20), so one roster compares them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from escarmouche import Combatant, EscarmoucheError
from escarmouche.errors import shown
from escarmouche.odds import first_odds, uniform
from escarmouche.systems import TITLES, d12, d20, d100, rulebook
from escarmouche.text.fmt import percent
from escarmouche_widgets import _charts
from escarmouche_widgets import _html as h
from escarmouche_widgets._parse import RosterRow, check_range
from escarmouche_widgets._record import Recorder

__all__ = [
    "DEMO_ROSTER",
    "SYSTEM_TRAITS",
    "InitiativeView",
    "initiative_odds",
    "roll_initiative",
    "rulebook_rules",
]

#: a roster every system can read (each system uses its own stats and traits)
DEMO_ROSTER: list[RosterRow] = [
    RosterRow("Aldric", "héros", "HAB=62, DIS=40, PMR=55, Ag=38, init=2", "hyperactivité"),
    RosterRow("Brune", "héros", "HAB=48, DIS=65, PMR=45, Ag=45, init=3", "alerte"),
    RosterRow("Grolk", "monstres", "HAB=40, DIS=30, PMR=50, Ag=25, init=1",
              "toujours dernier"),
    RosterRow("Vex", "monstres", "HAB=55, DIS=60, PMR=40, Ag=40, init=2", "dépassement"),
]

#: the traits the other systems use: the rulebook accepts them without effect
#: (``Rules.extra_traits``) so that one roster serves the four systems
SYSTEM_TRAITS = frozenset({"alerte", "nain", "halfelin", "anti_surprise"})


def rulebook_rules(hyperactive_slot: str = "consecutive") -> rulebook.Rules:
    """The rulebook's default options, accepting the other systems' traits."""
    return rulebook.Rules(hyperactive_slot=hyperactive_slot,
                          extra_traits=SYSTEM_TRAITS - set(rulebook.KNOWN_TRAITS))


@dataclass
class InitiativeView:
    """What a demo shows of one initiative roll."""

    system: str
    turns: list[tuple[str, list[str]]]
    lines: list[str]
    dice: list[tuple[int, int, str]]
    rules: list[str]
    sides: dict[str, str] = field(default_factory=dict)
    timeline_title: str = "Ordre d’activation"

    def html(self, source: str, note: str = "") -> str:
        """The result block: timeline, order per turn, explanations, dice, rules."""
        order = [f"{label} : {', '.join(names) if names else '(personne)'}"
                 for label, names in self.turns]
        parts = [
            h.section(f"{TITLES.get(self.system, self.system)} — initiative ({source})",
                      _charts.timeline(self.turns, self.timeline_title, self.sides)),
            h.bullet_list(order),
            h.section("Pourquoi cet ordre", h.bullet_list(self.lines)),
            h.dice_line(self.dice),
            h.rules_line(self.rules),
        ]
        if note:
            parts.append(h.notice(note))
        return "".join(parts)


def _labels(names: Sequence[str], rec: Recorder, extra: str = "départage"
            ) -> list[tuple[int, int, str]]:
    steps = [(i, f"initiative : {n}") for i, n in enumerate(names)]
    steps.append((len(names), extra))
    return rec.labelled(steps)


def _rulebook(combatants: list[Combatant], rec: Recorder, options: dict[str, object]
              ) -> InitiativeView:
    rules = rulebook_rules(str(options.get("hyperactive_slot", "consecutive")))
    init = rulebook.initiative(combatants, rec, rules=rules)
    turns = [(f"Tour {n}", init.turn(n)) for n in (0, 1, 2)]
    return InitiativeView(
        "rulebook", turns, init.explain(), _labels([c.name for c in combatants], rec),
        list(init.rules), {c.name: c.side for c in combatants},
        "Tours 0, 1 et 2",
    )


def _d12(combatants: list[Combatant], rec: Recorder, options: dict[str, object]
         ) -> InitiativeView:
    environment = bool(options.get("environment", False))
    init = d12.initiative(combatants, rec, environment=environment)
    values = {g.side: g.value for g in init.group_results}
    passive = "événements passifs"
    turns = [
        (f"{side} ({values[side]})" if side in values else side,
         members if members or side != d12.ENVIRONMENT else [passive])
        for side, members in init.groups
    ]
    names = [c.name for c in combatants]
    steps = [(i, f"initiative : {n}") for i, n in enumerate(names)]
    for k in range(1, len(init.attempts)):
        steps += [(k * len(names) + i, f"relance : {n}") for i, n in enumerate(names)]
    steps.append((len(init.attempts) * len(names), "départage"))
    sides = {c.name: c.side for c in combatants}
    sides[passive] = d12.ENVIRONMENT
    return InitiativeView("d12", turns, init.narration(), rec.labelled(steps),
                          list(init.rules), sides, "Ordre des groupes (chaque tour)")


def _d20(combatants: list[Combatant], rec: Recorder, options: dict[str, object]
         ) -> InitiativeView:
    for c in combatants:
        check_range(c.stat("init", 0), f"init de « {c.name} »", *d20.BONUS_RANGE,
                    "D20-INIT-1")
    init = d20.roll_initiative(combatants, rec)
    lines = init.explain()
    return InitiativeView(
        "d20", [("Chaque round", list(init.order))], lines,
        _labels([c.name for c in combatants], rec), ["D20-INIT-1", "D20-TIME-1"],
        {c.name: c.side for c in combatants}, "Ordre des tours (chaque round)",
    )


def _d100(combatants: list[Combatant], rec: Recorder, options: dict[str, object]
          ) -> InitiativeView:
    init = d100.roll_initiative(combatants, rec)
    lines = [f"{e.name} : Ag {e.ag} + 1d10 = {e.d10} → {e.score} (D100-INIT-1)."
             for e in init.entries]
    by_score: dict[int, list[d100.InitiativeEntry]] = {}
    for e in init.entries:
        by_score.setdefault(e.score, []).append(e)
    for score, same in by_score.items():
        if len(same) < 2:
            continue
        if len({e.ag for e in same}) > 1:
            who = ", ".join(f"{e.name} (Ag {e.ag})" for e in
                            sorted(same, key=lambda e: -e.ag))
            lines.append(f"Égalité à {score} départagée par l’Ag : {who} (D100-INIT-2).")
        names = {e.name for e in same}
        rounds = [[(n, v) for n, v in rnd if n in names] for rnd in init.rolloffs]
        rounds = [r for r in rounds if r]
        if rounds:
            text = " ; ".join(", ".join(f"{n} {v}" for n, v in r) for r in rounds)
            rolled = {n for r in rounds for n, _ in r}
            order = [n for n in init.order if n in rolled]
            lines.append(f"Égalité à {score} : jet de départage au d10, le plus haut "
                         f"d’abord : {text} → {', '.join(order)} (D100-INIT-2).")
    lines.append(f"Ordre : {', '.join(init.order)}, gardé pour tout le combat "
                 "(D100-INIT-1, D100-ROUND-1).")
    dice = [(d.faces, d.value, d.purpose) for d in init.dice]
    return InitiativeView(
        "d100", [("Chaque round", list(init.order))], lines, dice,
        [*init.rules, "D100-ROUND-1"], {c.name: c.side for c in combatants},
        "Ordre des tours (chaque round)",
    )


ROLLERS: dict[str, Callable[[list[Combatant], Recorder, dict[str, object]], InitiativeView]]
ROLLERS = {"rulebook": _rulebook, "d100": _d100, "d12": _d12, "d20": _d20}


def roll_initiative(system: str, combatants: list[Combatant], rec: Recorder,
                    options: dict[str, object] | None = None) -> InitiativeView:
    """Roll ``system``'s initiative for ``combatants`` with the recorded rng."""
    roller = ROLLERS.get(system)
    if roller is None:
        raise EscarmoucheError(
            f"système = {shown(system)} : inconnu ; systèmes : {', '.join(ROLLERS)} (CORE-ERR)",
            field="système", value=system, rule="CORE-ERR",
        )
    return roller(combatants, rec, dict(options or {}))


# -- exact odds ---------------------------------------------------------------------------


def _first_chart(odds: dict[str, Fraction], title: str) -> str:
    return _charts.bars([(n, p) for n, p in odds.items()], title)


def _in_words(title: str, items: Iterable[tuple[str, Fraction]]) -> str:
    """The chart's numbers as text too (screen readers, tests, the book's checks)."""
    return h.paragraph(f"{title} : " + " ; ".join(f"{n} {percent(p)}" for n, p in items)
                       + ".")


@functools.lru_cache(maxsize=32)
def initiative_odds(system: str, combatants: tuple[Combatant, ...], environment: bool = False
                    ) -> str:
    """The exact odds of the initiative of ``system`` for this roster, as HTML charts."""
    roster = list(combatants)
    if system == "d20":
        first = d20.first_to_act_odds(roster)
        return "".join([
            h.section("Chances exactes", h.paragraph(
                "Agir en premier : 1d20 + init, égalités au plus haut init puis jet de "
                "départage (D20-INIT-1).")),
            _first_chart(first, "Agir en premier (D20-INIT-1)"),
            _in_words("Agir en premier", first.items()),
        ])
    if system == "rulebook":
        for c in roster:
            check_range(c.stat("HAB"), f"HAB de « {c.name} »", 0, 100, "RB-INIT-1")
        rules = rulebook_rules()
        first = rulebook.first_to_act_odds(roster, rules=rules)
        success = [(c.name, rulebook.d100_odds(c.stat("HAB"), rules).success) for c in roster]
        crit = rulebook.d100_odds(roster[0].stat("HAB"), rules)
        return "".join([
            h.section("Chances exactes", h.paragraph(
                "En tête de l’ordre d’initiative (RB-INIT-2, avant les effets de vitesse) "
                "et réussite du test de HAB (RB-D100-1).")),
            _charts.side_by_side(
                _first_chart(first, "En tête de l’ordre (RB-INIT-2)"),
                _charts.bars(success, "Réussit son test de HAB (RB-D100-1)"),
            ),
            _in_words("En tête de l’ordre", first.items()),
            _in_words("Réussit son test de HAB", success),
            h.paragraph(
                f"Pour chacun, quelle que soit sa HAB : réussite critique, donc tour 0, "
                f"{percent(crit.critical_success)} (RB-INIT-3) ; échec critique, donc rien "
                f"avant le tour 2, {percent(crit.critical_failure)} (RB-INIT-4)."),
        ])
    if system in ("d100", "d20"):
        stat, faces, rule = ("Ag", 10, "D100-INIT-2") if system == "d100" else (
            "init", 20, "D20-INIT-1")
        if system == "d100":
            first = d100.first_to_act_odds(roster)
        else:
            entries = []
            for c in roster:
                mod = c.stat(stat, 0) if system == "d20" else c.stat(stat)
                entries.append((c.name, mod, uniform(faces, mod)))
            first = first_odds(entries)
        return "".join([
            h.section("Chances exactes", h.paragraph(
                f"Agir en premier : 1d{faces} + {stat}, égalités au plus haut {stat} puis "
                f"jet de départage ({rule}).")),
            _first_chart(first, f"Agir en premier ({rule})"),
            _in_words("Agir en premier", first.items()),
        ])
    if system == "d12":
        if len({c.side for c in roster}) > d12.MAX_ODDS_GROUPS:
            return h.section("Chances exactes", h.paragraph(
                f"Plus de {d12.MAX_ODDS_GROUPS} camps : les chances exactes ne sont pas "
                "calculées ici (le calcul croît très vite avec le nombre de camps)."))
        odds = d12.group_odds(roster)
        charts = [_first_chart(odds.first, "Le groupe agit en premier (D12-INIT-2/3)")]
        words = [_in_words("Le groupe agit en premier", odds.first.items())]
        if environment:
            charts.append(_charts.bars(
                list(odds.before_environment.items()),
                "Le groupe agit avant l’environnement (D12-INIT-5)"))
            words.append(_in_words("Le groupe agit avant l’environnement",
                                   odds.before_environment.items()))
        reroll = (f" Une égalité parfaite (tout le monde relance) survient avec une "
                  f"probabilité de {percent(odds.reroll)} ; les chances ci-dessous portent "
                  "sur le tirage retenu." if odds.reroll else "")
        return "".join([
            h.section("Chances exactes", h.paragraph(
                "Chaque groupe prend son meilleur résultat (1d12 + init) ; à égalité, le "
                "deuxième meilleur, etc. (D12-INIT-2, D12-INIT-3)." + reroll)),
            _charts.side_by_side(*charts),
            *words,
        ])
    raise EscarmoucheError(
        f"système = {shown(system)} : inconnu (CORE-ERR)", field="système", value=system,
        rule="CORE-ERR",
    )
