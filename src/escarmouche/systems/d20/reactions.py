"""Actions taken during another combatant's turn: opportunity actions (D20-OPP-1/2) and
immediate actions (D20-IMM-1/2).

* D20-OPP-1 — one opportunity action per other combatant's turn: the allowance is keyed
  by the activation in progress (:func:`turn_key`), so it is fresh at every turn.
* D20-OPP-2 — an opportunity attack exactly in the three cases of
  :data:`~escarmouche.systems.d20.rules.OPPORTUNITY_TRIGGERS`, by an enemy, adjacent
  meaning one of the 8 neighbouring squares (:func:`opportunity_attack_allowed`).
* D20-IMM-1 — one immediate action per round, never during one's own turn; the
  allowance comes back at the start of one's own turn (:attr:`Rules.immediate_reset`).
* D20-IMM-2 — an interruption (and an opportunity attack) resolves before its trigger
  and cancels it if it invalidates it; a reaction resolves after the trigger.

Reactions are declared with the action that triggers them (parameter ``reactions``) and
checked before any die is rolled (:func:`parse_reactions`); :func:`resolve_reaction`
resolves one (it uses its allowance only if it happens) and says what became of the
trigger (:class:`Outcome`); the attack it may make is rolled by the caller
(:mod:`escarmouche.systems.d20.actions`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from escarmouche import checks
from escarmouche.errors import IllegalActionError, invalid, self_attack
from escarmouche.model import Json
from escarmouche.state import Ctx, EncounterState, FighterState
from escarmouche.systems.d20.grid import Square, is_adjacent, need_position
from escarmouche.systems.d20.narration import (
    moot_sentence,
    reaction_attack_sentence,
    reaction_stop_sentence,
    square_text,
)
from escarmouche.systems.d20.rules import (
    IMMEDIATE_EFFECTS,
    IMMEDIATE_RESETS,
    OPPORTUNITY_TRIGGERS,
    REACTION_KEYS,
    REACTION_TYPES,
    ReactionType,
    Rules,
    check_weapon,
)
from escarmouche.systems.d20.saves import check_bonus
from escarmouche.text.fmt import de, join, quote

__all__ = [
    "Outcome",
    "Reaction",
    "Trigger",
    "can_react",
    "emit_moot",
    "opportunity_attack_allowed",
    "parse_reaction",
    "parse_reactions",
    "require_standing",
    "resolve_reaction",
    "turn_key",
]

#: the end of the refusal of a second immediate action, per ``Rules.immediate_reset``
#: (D20-IMM-1): when the allowance comes back, in one clause (no « de ce round » where
#: the allowance is not counted by round)
_IMMEDIATE_BACK: Mapping[str, str] = {
    "debut_de_son_tour": ", qui ne lui revient qu’au début de son propre tour, comme dans "
                         "l’édition originale",
    "debut_du_round": " de ce round, qui ne lui revient qu’au début du round suivant",
}
assert set(_IMMEDIATE_BACK) == set(IMMEDIATE_RESETS)


def opportunity_attack_allowed(trigger: str, adjacent: bool) -> bool:
    """Whether an enemy's action allows an opportunity attack (D20-OPP-2): only one of the
    three :data:`OPPORTUNITY_TRIGGERS` (``"quitte_case_adjacente"``,
    ``"attaque_distance"``, ``"attaque_zone"``) by an enemy adjacent to you (for the
    first, the square it leaves is adjacent to you). Anything else never allows one.

    >>> opportunity_attack_allowed("attaque_distance", True)
    True
    >>> opportunity_attack_allowed("boire_potion", True)
    False
    """
    checks.flag("adjacent", adjacent, "D20-OPP-2")
    return isinstance(trigger, str) and trigger in OPPORTUNITY_TRIGGERS and adjacent


def turn_key(ctx: Ctx[Rules]) -> list[Json]:
    """The activation in progress (D20-OPP-1: one opportunity action during each)."""
    return _turn_key(ctx.state)


def _turn_key(state: EncounterState) -> list[Json]:
    return [state.turn, state.cursor]


def _allowance_used(state: EncounterState, f: FighterState, rtype: ReactionType) -> bool:
    if rtype.allowance == "opportunite":
        return bool(f.flags.get("opportunite") == _turn_key(state))
    return bool(f.flags.get("immediate"))


def can_react(state: EncounterState, name: str, reaction: str) -> bool:
    """Whether ``name`` may still take a reaction of type ``reaction`` (a key of
    :data:`REACTION_TYPES`) now: standing, not on its own turn, its allowance unused
    (D20-OPP-1: one opportunity action per other combatant's turn; D20-IMM-1: one
    immediate action per round). Whether the trigger allows it is another matter
    (:func:`opportunity_attack_allowed`)."""
    rtype = REACTION_TYPES[checks.choice("type", reaction, REACTION_TYPES, "D20-IMM-2")]
    f = state.fighters.get(name)
    return (f is not None and f.standing and state.current not in (None, name)
            and not _allowance_used(state, f, rtype))


def require_standing(ctx: Ctx[Rules], name: str, rule: str) -> FighterState:
    """The fighter ``name``, who must still be standing (else IllegalActionError)."""
    f = ctx.fighter(checks.name_in("combattant", name, ctx.state.fighters, rule), rule=rule)
    if not f.standing:
        raise invalid("combattant", name, rule,
                      "ce combattant est hors de combat et ne peut plus agir",
                      kind=IllegalActionError)
    return f


@dataclass(frozen=True, slots=True)
class Trigger:
    """An action others may react to: a move (``squares`` from the start) or an attack."""

    kind: str  # "deplacement" | "attaque" | "libre" (a standalone immediate action)
    actor: str
    squares: tuple[Square, ...] = ()
    opportunity: str | None = None  # the D20-OPP-2 case of an attack, if any
    targets: tuple[str, ...] = ()
    text: str = ""


@dataclass(frozen=True, slots=True)
class Reaction:
    """One declared reaction, checked."""

    by: str
    type: ReactionType
    effect: str
    target: str | None
    bonus: int | None
    weapon: str | None
    name: str
    step: int | None = None  # opportunity on a move: index of the square left


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a resolved reaction did: ``stopped`` invalidates its trigger; ``attack`` is
    the attack to roll now, ``(attacker, target, bonus, weapon)``."""

    stopped: bool = False
    attack: tuple[str, str, int, str] | None = None


def parse_reactions(ctx: Ctx[Rules], trigger: Trigger, raw: object) -> list[Reaction]:
    """Check every reaction declared with an action, before any die is rolled."""
    if isinstance(raw, Mapping):
        raw = [raw]
    items = checks.sequence("reactions", raw, "D20-OPP-1")
    used: set[tuple[str, str]] = set()
    return [parse_reaction(ctx, trigger, item, used) for item in items]


def parse_reaction(ctx: Ctx[Rules], trigger: Trigger, item: object,
                   used: set[tuple[str, str]]) -> Reaction:
    """Check one declared reaction (D20-OPP-*, D20-IMM-*); ``used`` collects the
    allowances already claimed in the same declaration."""
    entry = checks.mapping("reaction", item, "D20-OPP-1")
    extra = sorted(str(k) for k in set(entry) - set(REACTION_KEYS))
    if extra:
        raise invalid("clé de réaction", extra[0], "D20-OPP-1",
                      "clé inconnue, à choisir parmi "
                      f"{join([quote(k) for k in REACTION_KEYS], last='ou')}")
    kind = checks.choice("type", entry.get("type"), REACTION_TYPES, "D20-IMM-2")
    rtype = REACTION_TYPES[kind]
    rule = rtype.rules[0]
    by = entry.get("par")
    if not isinstance(by, str):
        raise invalid("par", by, rule, "le nom de qui agit est attendu")
    reactor = require_standing(ctx, by, rule)
    current = ctx.state.current
    if by in (trigger.actor, current):
        if rtype.allowance == "immediate":
            raise invalid("par", by, "D20-IMM-1",
                          "une action immédiate ne se prend jamais pendant son propre tour",
                          kind=IllegalActionError)
        raise invalid("par", by, "D20-OPP-1",
                      "une action d’opportunité se prend pendant le tour d’un autre "
                      "combattant", kind=IllegalActionError)
    if (by, rtype.allowance) in used:
        once = ("action d’opportunité par tour" if rtype.allowance == "opportunite"
                else "action immédiate par round")
        raise invalid("par", by, rule, f"une seule {once}", kind=IllegalActionError)
    if rtype.allowance == "opportunite":
        if _allowance_used(ctx.state, reactor, rtype):
            raise invalid("par", by, "D20-OPP-1",
                          f"{by} a déjà pris son action d’opportunité pendant le tour "
                          f"{de(str(current))}", kind=IllegalActionError)
    elif _allowance_used(ctx.state, reactor, rtype):
        raise invalid("par", by, "D20-IMM-1",
                      f"{by} a déjà pris son action immédiate"
                      + _IMMEDIATE_BACK[ctx.rules.immediate_reset], kind=IllegalActionError)
    used.add((by, rtype.allowance))
    effect = checks.choice("effet", entry.get("effet", "attaque"), IMMEDIATE_EFFECTS, rule,
                           labels=IMMEDIATE_EFFECTS)
    step: int | None = None
    if rtype.id == "attaque_opportunite":
        if effect != "attaque":
            raise invalid("effet", effect, "D20-OPP-2",
                          "une attaque d’opportunité est une attaque")
        step = opportunity_step(ctx, reactor, trigger)
    elif effect == "arret":
        if not rtype.before:
            raise invalid("effet", effect, "D20-IMM-2",
                          f"pour {by}, une réaction se résout après l’action qui l’a "
                          "déclenchée et ne peut pas l’annuler ; prenez une interruption",
                          kind=IllegalActionError)
        if trigger.kind == "libre":
            raise invalid("effet", effect, "D20-IMM-2",
                          f"pour {by}, le déclencheur n’est pas une action du moteur ; "
                          "déclarez l’interruption dans les reactions de cette action",
                          kind=IllegalActionError)
    target: str | None = None
    if effect == "attaque":
        raw_target = entry.get("cible", trigger.actor if trigger.kind != "libre" else None)
        if rtype.id == "attaque_opportunite" and raw_target != trigger.actor:
            raise invalid("cible", raw_target, "D20-OPP-2",
                          f"une attaque d’opportunité vise l’ennemi qui la déclenche, "
                          f"{quote(trigger.actor)}")
        if not isinstance(raw_target, str):
            raise invalid("cible", raw_target, rule, "le nom de la cible est attendu")
        target = raw_target
        require_standing(ctx, target, rule)
        if target == by:
            raise self_attack(target, rule)
    bonus = entry.get("bonus")
    if bonus is not None:
        bonus = check_bonus(bonus, rule)
    weapon = entry.get("arme")
    if weapon is not None:
        weapon = check_weapon(weapon, by)
    name = checks.text("nom", entry.get("nom", rtype.label), rule)
    return Reaction(by, rtype, effect, target, bonus, weapon, name, step)


def opportunity_step(ctx: Ctx[Rules], reactor: FighterState, trigger: Trigger) -> int:
    """The D20-OPP-2 case of a declared opportunity attack; for a move, the index of
    the square whose leaving triggers it (the first one adjacent to the reactor)."""
    actor = ctx.fighter(trigger.actor)
    if reactor.side == actor.side:
        raise invalid("par", reactor.name, "D20-OPP-2",
                      f"une attaque d’opportunité vise un ennemi, et {quote(actor.name)} est "
                      "de son camp", kind=IllegalActionError)
    where = need_position(reactor, "D20-OPP-2")
    if trigger.kind == "deplacement":
        for i, sq in enumerate(trigger.squares[:-1]):
            if opportunity_attack_allowed("quitte_case_adjacente", is_adjacent(sq, where)):
                return i
        raise invalid("par", reactor.name, "D20-OPP-2",
                      f"{actor.name} ne quitte aucune case adjacente à {reactor.name} "
                      f"{square_text(where)} ; une attaque d’opportunité n’est permise que "
                      "dans 3 cas", kind=IllegalActionError)
    adjacent = is_adjacent(need_position(actor, "D20-OPP-2"), where)
    case = trigger.opportunity or "attaque_corps_a_corps"
    if not opportunity_attack_allowed(case, adjacent):
        why = ("une attaque au corps à corps ne permet pas d’attaque d’opportunité"
               if trigger.opportunity is None
               else f"{actor.name} et {reactor.name} ne sont pas sur des cases adjacentes")
        raise invalid("par", reactor.name, "D20-OPP-2",
                      f"{why} ; seuls trois cas la permettent, quand l’ennemi quitte une case "
                      "adjacente à la sienne, ou fait, depuis une case adjacente, une attaque "
                      "à distance ou une attaque de zone", kind=IllegalActionError)
    return 0


def emit_moot(ctx: Ctx[Rules], r: Reaction, why: str) -> None:
    """A declared reaction that does not happen (it uses no allowance)."""
    ctx.emit(
        "reaction_sans_objet",
        moot_sentence(r.type.label, r.by, why),
        actor=r.by, rules=r.type.rules, data={"by": r.by, "type": r.type.id},
    )


def resolve_reaction(ctx: Ctx[Rules], r: Reaction, trigger: Trigger) -> Outcome:
    """Resolve one reaction now; it uses its allowance only if it happens. An attack
    is announced here and returned in :attr:`Outcome.attack` for the caller to roll."""
    reactor = ctx.fighter(r.by)
    if not reactor.standing:
        emit_moot(ctx, r, f"{r.by} est hors de combat")
        return Outcome()
    if r.target is not None and not ctx.fighter(r.target).standing:
        emit_moot(ctx, r, f"{r.target} est déjà hors de combat")
        return Outcome()
    if r.type.allowance == "opportunite":
        reactor.flags["opportunite"] = turn_key(ctx)
    else:
        reactor.flags["immediate"] = True
    timing = "avant" if r.type.before else "après"
    if trigger.kind == "libre" and trigger.text:
        # the GM's own words are a clause (« l’orque bande son arc »): quoted, never
        # glued to « avant » (« avant l’orque bande son arc » is not French)
        about = f"le déclencheur {quote(trigger.text)}"
    else:
        about = trigger.text or "son déclencheur"
    data: dict[str, Json] = {"by": r.by, "type": r.type.id, "effect": r.effect,
                             "name": r.name}
    title = r.type.label.capitalize()
    if r.effect == "attaque":
        assert r.target is not None
        label = title if r.name == r.type.label else f"{title} {quote(r.name)}"
        ctx.emit(r.type.id, reaction_attack_sentence(label, r.by, r.type.before, about),
                 actor=r.by, rules=r.type.rules, data=data)
        bonus = r.bonus if r.bonus is not None else reactor.combatant.stat("attaque", 0)
        weapon = r.weapon or ctx.rules.default_weapon
        return Outcome(attack=(r.by, r.target, bonus, weapon))
    if r.effect == "arret":
        ctx.emit(r.type.id, reaction_stop_sentence(title, r.by, r.name, about),
                 actor=r.by, rules=r.type.rules, data=data)
        return Outcome(stopped=True)
    ctx.emit(r.type.id,
             f"{title} {de(r.by)} ({timing} {about}) : {quote(r.name)} (effet appliqué par le "
             "MJ).", actor=r.by, rules=r.type.rules, data=data)
    return Outcome()

