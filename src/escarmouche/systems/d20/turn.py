"""The budget of one d20 turn (D20-ACT-1..3), as pure functions: the action catalogue
(:data:`ACTIONS`, one :class:`~escarmouche.systems.base.ActionSpec` each, with its
category and timing) and which slots a list of actions takes (a standard action, a move
action, a minor action, plus one extra action per action point spent;
:data:`~escarmouche.systems.d20.rules.SUBSTITUTES` says which slot a category may take
instead), checked before anything is played. The resolvers are in
:mod:`escarmouche.systems.d20.actions`.

>>> plan = plan_turn(["attaquer", "deplacement"])
>>> plan.actions, plan.assignment
(('simple', 'mouvement'), (0, 1))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from escarmouche import checks
from escarmouche.errors import EscarmoucheError, IllegalActionError, invalid
from escarmouche.memo import Memo
from escarmouche.render.table import Table
from escarmouche.systems.base import ActionSpec
from escarmouche.systems.d20 import rules as tables
from escarmouche.systems.d20.rules import (
    ACTION_POINT_SLOT,
    BASE_SLOTS,
    CATEGORIES,
    CATEGORY_LABELS,
    FREE,
    MAX_ACTION_POINTS,
    MAX_PLANNED_ACTIONS,
    MINOR,
    MOVE,
    PHASE_ONLY,
    SIMPLE,
    Rules,
    check_rules,
)
from escarmouche.text.fmt import join, ordinal, plural

__all__ = ["ACTIONS", "ACTION_CATEGORIES", "ACTION_TIMINGS", "TurnPlan", "check_turn",
           "plan_turn"]


# -- the catalogue -------------------------------------------------------------------------

_ATTACK_PARAMS = ("cible", "cibles", "portee", "bonus", "arme", "reactions")
_IMMEDIATE_PARAMS = ("declencheur", "effet", "cible", "bonus", "arme", "nom")
_ACT = ("D20-ACT-1",)
_IMM = ("D20-IMM-1", "D20-IMM-2")


def _turn(id: str, label: str, category: str, doc: str, kind: str = "action_du_tour"
          ) -> ActionSpec:
    return ActionSpec(id, label, CATEGORY_LABELS[category], _ACT, ("description",), (),
                      doc, kind)


def _phase(id: str, label: str) -> ActionSpec:
    when, rule = PHASE_ONLY[id]
    return ActionSpec(id, label, "phase automatique", (rule,), (), (),
                      f"N’est pas une action : se fait {when} ({rule}).", "phase")


#: the action catalogue (D20-ACT-1), by id
ACTIONS: Mapping[str, ActionSpec] = MappingProxyType({
    "attaquer": ActionSpec(
        "attaquer", "Attaquer", CATEGORY_LABELS[SIMPLE], ("D20-ACT-1", "D20-OPP-2"),
        _ATTACK_PARAMS, (),
        "Attaque (action simple) une cible adjacente au corps à corps, ou à distance, ou "
        "plusieurs cibles (« cibles ») en zone : 1d20 + attaque contre la défense, puis les "
        "dégâts de l’arme ; les réactions déclarées (« reactions ») se résolvent avec elle "
        "(D20-ACT-1, D20-OPP-2).",
    ),
    "deplacement": ActionSpec(
        "deplacement", "Se déplacer", CATEGORY_LABELS[MOVE], _ACT, ("chemin", "reactions"),
        ("chemin",),
        "Se déplace (action de mouvement) case par case le long de « chemin », d’au plus "
        "sa vitesse VD ; les attaques d’opportunité et interruptions déclarées "
        "(« reactions ») se résolvent en chemin (D20-ACT-1, D20-OPP-2).",
    ),
    "degainer": _turn("degainer", "Dégainer une arme", MINOR,
                      "Dégaine une arme : une action mineure (D20-ACT-1)."),
    "ouvrir_porte": _turn("ouvrir_porte", "Ouvrir une porte", MINOR,
                          "Ouvre une porte : une action mineure (D20-ACT-1)."),
    SIMPLE: _turn(SIMPLE, "Action simple (autre)", SIMPLE,
                  "Toute autre action simple, décrite (D20-ACT-1)."),
    MOVE: _turn(MOVE, "Action de mouvement (autre)", MOVE,
                "Toute autre action de mouvement, décrite (D20-ACT-1)."),
    MINOR: _turn(MINOR, "Action mineure (autre)", MINOR,
                 "Toute autre action mineure, décrite (D20-ACT-1)."),
    "parler": _turn("parler", "Parler", FREE,
                    "Dit quelques mots : une action libre, même pendant le tour d’un autre "
                    "(D20-ACT-1).", "action_libre"),
    "lacher_objet": _turn("lacher_objet", "Lâcher un objet", FREE,
                          "Lâche un objet : une action libre, même pendant le tour d’un "
                          "autre (D20-ACT-1).", "action_libre"),
    FREE: _turn(FREE, "Action libre (autre)", FREE,
                "Toute autre action libre, décrite, avec l’accord du MJ (D20-ACT-1).",
                "action_libre"),
    "point_action": ActionSpec(
        "point_action", "Dépenser un point d’action", "point d’action", ("D20-ACT-3",),
        doc="Dépense un point d’action (PA) : une action simple de plus ce tour "
            "(D20-ACT-3).",
    ),
    "interruption": ActionSpec(
        "interruption", "Interruption immédiate", "action immédiate", _IMM,
        _IMMEDIATE_PARAMS, ("declencheur",),
        "Agit avant un déclencheur que le moteur ne joue pas (« declencheur ») : une "
        "action immédiate par round, jamais pendant son propre tour (D20-IMM-1, D20-IMM-2).",
        "action_immediate",
    ),
    "reaction": ActionSpec(
        "reaction", "Réaction immédiate", "action immédiate", _IMM, _IMMEDIATE_PARAMS,
        ("declencheur",),
        "Réagit à un déclencheur résolu (« declencheur ») : une action immédiate par "
        "round, jamais pendant son propre tour (D20-IMM-1, D20-IMM-2).",
        "action_immediate",
    ),
    "attaque_opportunite": ActionSpec(
        "attaque_opportunite", "Attaque d’opportunité", "action d’opportunité",
        ("D20-OPP-1", "D20-OPP-2"),
        doc="Se déclare dans le paramètre « reactions » de l’action qui la déclenche, "
            "jamais seule (D20-OPP-1, D20-OPP-2).",
    ),
    "placer": ActionSpec(
        "placer", "Placer sur la grille (MJ)", "MJ", ("D20-OPP-2",), ("case",), ("case",),
        "Le MJ place le combattant sur une case libre de la grille (D20-OPP-2).",
    ),
    "jet_de_sauvegarde": _phase("jet_de_sauvegarde", "Jet de sauvegarde"),
    "fin_d_effet": _phase("fin_d_effet", "Fin d’effet"),
    "degats_continus": _phase("degats_continus", "Dégâts continus"),
    "regeneration": _phase("regeneration", "Régénération"),
})

#: the category of every action that fits in the budget of a turn, or is free
ACTION_CATEGORIES: Mapping[str, str] = MappingProxyType({
    "attaquer": SIMPLE, "deplacement": MOVE, "degainer": MINOR, "ouvrir_porte": MINOR,
    SIMPLE: SIMPLE, MOVE: MOVE, MINOR: MINOR,
    "parler": FREE, "lacher_objet": FREE, FREE: FREE,
})

#: when each action may be taken: ``"tour"`` (own turn, in a slot), ``"libre"`` (any
#: time), ``"point_action"`` (own turn), ``"immediate"`` (out of turn),
#: ``"opportunite"`` (only declared with its trigger), ``"mj"`` (a GM operation) or
#: ``"phase"`` (never: it happens by itself)
ACTION_TIMINGS: Mapping[str, str] = MappingProxyType({
    **{a: ("libre" if c == FREE else "tour") for a, c in ACTION_CATEGORIES.items()},
    "point_action": "point_action", "interruption": "immediate", "reaction": "immediate",
    "attaque_opportunite": "opportunite", "placer": "mj",
    **dict.fromkeys(PHASE_ONLY, "phase"),
})


# -- the budget of a turn (D20-ACT-1..3) --------------------------------------------------


def _category(action: object, index: int) -> str:
    if isinstance(action, str):
        if action in CATEGORIES:
            return action
        if action in ACTION_CATEGORIES:
            return ACTION_CATEGORIES[action]
    known = [*CATEGORIES, *(a for a in ACTION_CATEGORIES if a not in CATEGORIES)]
    raise invalid(f"actions[{index}]", action, "D20-ACT-1",
                  f"catégorie d’action inconnue ; attendues : {join(known, last='ou')}")


@dataclass(frozen=True, slots=True)
class TurnPlan:
    """How a list of actions fits one turn (D20-ACT-1..3); a French table in a notebook.

    ``slots`` are the turn's slots (the base ones, then one standard slot per action
    point); ``assignment[i]`` is the slot index taken by action ``i`` (``None`` for a
    free action). ``rules`` lists the rules that applied (D20-ACT-2 when an action took
    another category's slot, D20-ACT-3 when action points were spent).
    """

    actions: tuple[str, ...]
    action_points: int
    slots: tuple[str, ...]
    assignment: tuple[int | None, ...]
    rules: tuple[str, ...]

    def slot_of(self, index: int) -> str | None:
        """The kind of slot action ``index`` takes (``None`` for a free action)."""
        s = self.assignment[index]
        return None if s is None else self.slots[s]

    def by_action_point(self, index: int) -> bool:
        """Whether action ``index`` takes a slot bought with an action point (D20-ACT-3)."""
        s = self.assignment[index]
        return s is not None and s >= len(BASE_SLOTS)

    @property
    def substitutions(self) -> tuple[int, ...]:
        """Indexes of the actions taken in another category's slot (D20-ACT-2)."""
        return tuple(i for i, a in enumerate(self.actions)
                     if self.assignment[i] is not None and self.slot_of(i) != a)

    def free_slots(self) -> tuple[str, ...]:
        """The kinds of the slots still unused."""
        used = {s for s in self.assignment if s is not None}
        return tuple(k for i, k in enumerate(self.slots) if i not in used)

    def allows(self, category: str) -> bool:
        """Whether one more action of ``category`` still fits this turn."""
        if category == FREE:
            return True
        try:
            _, _, _, failed = _fit([*self.actions, category], self.action_points, None, "")
        except EscarmoucheError:
            return False
        return failed < 0

    def rows(self) -> list[tuple[str, str, str]]:
        """(n°, category, slot taken) of each action, in French."""
        out = []
        for i, category in enumerate(self.actions):
            slot = self.slot_of(i)
            taken = "aucune (libre)" if slot is None else CATEGORY_LABELS[slot]
            if self.by_action_point(i):
                taken += " (point d’action)"
            out.append((str(i + 1), CATEGORY_LABELS[category], taken))
        return out

    def table(self) -> Table:
        points = (f", {plural(self.action_points, 'point')} d’action"
                  if self.action_points else "")
        return Table(("Action", "Catégorie", "Emplacement occupé"), self.rows(),
                     f"Le tour{points} : permis ({', '.join(self.rules)})")

    def _repr_html_(self) -> str:
        return self.table()._repr_html_()


def _match(categories: Sequence[str], slots: Sequence[str]) -> tuple[list[int | None], int]:
    """Assign actions to slots (exact bipartite matching by augmenting paths). Each action
    takes a free slot if it can, its own kind first, then its substitutes in
    :data:`SUBSTITUTES` order; only if none is free does it move earlier actions to other
    slots they may take. Returns the assignment and the index of the first action that
    cannot be placed (-1 if none)."""
    owner: list[int | None] = [None] * len(slots)
    assign: list[int | None] = [None] * len(categories)
    substitutes = tables.SUBSTITUTES  # read now: the table is data a designer may change

    def place(i: int, seen: set[int]) -> bool:
        kinds = substitutes[categories[i]]
        # a free slot first (earlier actions keep theirs), in order of preference …
        for kind in kinds:
            for s, slot_kind in enumerate(slots):
                if slot_kind == kind and owner[s] is None and s not in seen:
                    seen.add(s)
                    owner[s] = i
                    assign[i] = s
                    return True
        # … else move an earlier action to another slot it may take (augmenting path)
        for kind in kinds:
            for s, slot_kind in enumerate(slots):
                other = owner[s]
                if slot_kind != kind or s in seen or other is None:
                    continue
                seen.add(s)
                if place(other, seen):
                    owner[s] = i
                    assign[i] = s
                    return True
        return False

    for i, c in enumerate(categories):
        if c == FREE:
            continue
        if not place(i, set()):
            return assign, i
    return assign, -1


#: the substitution table the memos below were computed with, followed by identity (a
#: designer may replace it: they then start afresh)
SOURCE = (vars(tables), "SUBSTITUTES")

#: the matchings already computed (:func:`_matched`)
_MATCHED: Memo[tuple[tuple[int | None, ...], int]] = Memo(4096, SOURCE)


def _matched(categories: tuple[str, ...], slots: tuple[str, ...]
             ) -> tuple[tuple[int | None, ...], int]:
    """:func:`_match`, computed once per turn shape (a pure function of the categories,
    the slots and :data:`SUBSTITUTES`)."""
    key = (categories, slots)
    done = _MATCHED.get(key)
    if done is None:
        assign, failed = _match(categories, slots)
        done = _MATCHED.put(key, (tuple(assign), failed))
    return done


_Fit = tuple[tuple[str, ...], tuple[str, ...], tuple[int | None, ...], int]

#: the fits already computed (:func:`_fit`), by the exact inputs that passed its checks
#: (a str-only tuple of actions, an ``int`` of action points) and the rules object (by
#: identity): a pure function asked again and again by the turn budget of every
#: activation
_FITS: Memo[_Fit] = Memo(4096, SOURCE)
#: the plans already made (:func:`plan_turn`; a frozen :class:`TurnPlan`), by the same key
_PLANS: Memo[TurnPlan] = Memo(4096, SOURCE)


def _fit(actions: Sequence[str], action_points: int, rules: Rules | None, who: str
         ) -> _Fit:
    """The inputs of :func:`plan_turn` checked (a French error otherwise), and how they
    fit: categories, slots, the assignment and the first action left without a slot
    (-1 if none). Inputs that passed the checks once are answered from :data:`_FITS`
    (a refusal is never stored: it is checked, and worded, each time)."""
    key = _key(actions, action_points)
    if key is None:
        return _fit_checked(actions, action_points, rules, who)
    done = _FITS.get(key, rules)
    if done is None:
        done = _FITS.put(key, _fit_checked(actions, action_points, rules, who), rules)
    return done


def _key(actions: Sequence[str], action_points: int
         ) -> tuple[tuple[str, ...], int] | None:
    """The key of :data:`_FITS` and :data:`_PLANS` for these inputs (the rules are their
    owner, by identity), or ``None`` when they are not plain enough to be answered from a
    memo (they are then checked afresh)."""
    if type(action_points) is not int:
        return None
    if type(actions) is not tuple:
        if type(actions) is not list:
            return None
        actions = tuple(actions)
    for a in actions:
        if type(a) is not str:
            return None
    return actions, action_points


def _fit_checked(actions: Sequence[str], action_points: int, rules: Rules | None, who: str
                 ) -> _Fit:
    """:func:`_fit` computed: every input checked."""
    r = check_rules(rules)
    listed = checks.sequence("actions", actions, "D20-ACT-1", max_len=MAX_PLANNED_ACTIONS)
    cap = MAX_ACTION_POINTS if r.max_action_points_per_turn is None else (
        r.max_action_points_per_turn)
    checks.integer("action_points", action_points, lo=0, hi=cap, rule="D20-ACT-3", who=who)
    categories = tuple(_category(a, i) for i, a in enumerate(listed))
    slots = (*BASE_SLOTS, *([ACTION_POINT_SLOT] * action_points))
    assign, failed = _matched(categories, slots)
    return categories, slots, assign, failed


def _named(action: str) -> str:
    """An action of a refused list as a reader names it: a category by its label
    (« action simple »), an action by its label (« attaquer »), never its id."""
    if action in CATEGORIES:
        return CATEGORY_LABELS[action]
    label = ACTIONS[action].label
    return label[:1].lower() + label[1:]


def plan_turn(actions: Sequence[str], *, action_points: int = 0, rules: Rules | None = None,
              who: str = "") -> TurnPlan:
    """Fit ``actions`` (categories ``"simple"``, ``"mouvement"``, ``"mineure"``,
    ``"libre"``, or actions of :data:`ACTION_CATEGORIES`) into one turn, in any order
    (D20-ACT-1), with the substitutions of D20-ACT-2 and ``action_points`` spent, each
    buying one more standard slot (D20-ACT-3). Raises
    :class:`~escarmouche.errors.IllegalActionError` naming the first action that finds
    no slot.

    >>> plan_turn(["mineure", "mineure", "mineure"]).rules
    ('D20-ACT-1', 'D20-ACT-2')
    """
    key = _key(actions, action_points)
    if key is not None:
        known = _PLANS.get(key, rules)
        if known is not None:
            return known
    categories, slots, assign, failed = _fit(actions, action_points, rules, who)
    if failed >= 0:
        cat = categories[failed]
        # the extra action an action point buys is said whether or not one is spent:
        # the reader who meets this refusal is the one who may want to spend it
        spent = "aucun ici" if not action_points else (
            f"{action_points} ici" if action_points > 1 else "un ici")
        of = f"pour {who}, " if who else ""
        raise invalid(
            "actions", list(categories), "D20-ACT-2",
            f"{of}la {ordinal(failed + 1, feminine=True)} action ({CATEGORY_LABELS[cat]}) "
            f"ne trouve plus de place ; un tour offre une action simple, une de mouvement et "
            f"une mineure (D20-ACT-1), et une action simple de plus par point d’action "
            f"dépensé, {spent} (D20-ACT-3), une action de mouvement pouvant remplacer "
            "l’action simple et une action mineure l’une ou l’autre", kind=IllegalActionError,
            display=", ".join(_named(a) for a in actions))
    plan_rules = ["D20-ACT-1"]
    if any(a is not None and slots[a] != categories[i] for i, a in enumerate(assign)):
        plan_rules.append("D20-ACT-2")
    if action_points:
        plan_rules.append("D20-ACT-3")
    plan = TurnPlan(categories, action_points, slots, tuple(assign), tuple(plan_rules))
    return plan if key is None else _PLANS.put(key, plan, rules)


def check_turn(actions: Sequence[str], *, action_points: int = 0,
               rules: Rules | None = None) -> None:
    """Raise :class:`~escarmouche.errors.EscarmoucheError` unless ``actions`` fit one turn
    under D20-ACT-1..3 with ``action_points`` spent (see :func:`plan_turn`, which also
    says how)."""
    plan_turn(actions, action_points=action_points, rules=rules)
