"""Turn plans: one full action or two half actions, free actions, at most one attack and
one casting action, extended actions without interruption (D100-ACT-1..4)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from escarmouche.errors import EscarmoucheError, IllegalActionError
from escarmouche.model import Json
from escarmouche.systems._d100.narration import plural
from escarmouche.systems._d100.tables import ACTIONS, ActionDef

__all__ = ["Extended", "PlanStep", "TurnPlan", "check_turn"]

#: one step of a plan: an action id, or ``(id, n)`` when that action starts an extended
#: action needing ``n`` half actions in all (« recharger » a pistol: ``("recharger", 4)``)
PlanStep = str | tuple[str, int]

#: bound on the half actions of one extended action
MAX_EXTENDED_STEPS = 100


@dataclass(frozen=True, slots=True)
class Extended:
    """An extended action under way (D100-ACT-4): ``remaining`` of ``total`` half actions."""

    action: str
    remaining: int
    total: int

    def to_json(self) -> dict[str, Json]:
        return {"action": self.action, "remaining": self.remaining, "total": self.total}

    @classmethod
    def from_json(cls, data: Mapping[str, Json]) -> Extended:
        return cls(str(data["action"]), int(data["remaining"]), int(data["total"]))


@dataclass(frozen=True, slots=True)
class TurnPlan:
    """A legal turn (D100-ACT-1..4): the actions, the half actions used (a full action
    uses both), the attack and casting actions counted, and the extended action still
    under way at the end of the turn (``extended``), if any."""

    actions: tuple[str, ...]
    halves: int
    full: bool
    attacks: int
    castings: int
    extended: Extended | None
    completed: tuple[str, ...]
    abandoned: tuple[str, ...]
    rules: tuple[str, ...]


def _step(step: object, catalogue: Mapping[str, ActionDef]) -> tuple[ActionDef, int]:
    if isinstance(step, tuple) and len(step) == 2:
        name, n = step
    else:
        name, n = step, 1
    if not isinstance(name, str) or name not in catalogue:
        raise IllegalActionError(
            f"action = {name!r} : action inconnue ; actions : {', '.join(catalogue)} "
            "(D100-ACT-3)",
            field="action", value=name, rule="D100-ACT-3",
        )
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_EXTENDED_STEPS:
        raise EscarmoucheError(
            f"demi-actions = {n!r} pour « {catalogue[name].label} » : un entier entre 1 et "
            f"{MAX_EXTENDED_STEPS} est attendu (D100-ACT-4)",
            field="demi-actions", value=n, rule="D100-ACT-4",
        )
    if n > 1 and not catalogue[name].extended:
        raise IllegalActionError(
            f"demi-actions = {n} pour « {catalogue[name].label} » : cette action n’est pas "
            "une action étendue (D100-ACT-4)",
            field="demi-actions", value=n, rule="D100-ACT-4",
        )
    return catalogue[name], n


def check_turn(
    actions: Sequence[PlanStep],
    *,
    in_progress: Extended | None = None,
    catalogue: Mapping[str, ActionDef] = ACTIONS,
) -> TurnPlan:
    """Check one character's turn plan; raise :class:`IllegalActionError` naming the rule.

    D100-ACT-1: one full action or two half actions (a full action excludes any half
    action), free actions in any number. D100-ACT-2: at most one attack action (name
    containing « attaque », or Charge) and one casting action. D100-ACT-3: the costs come
    from ``catalogue``. D100-ACT-4: an extended action (a step ``(id, n)`` with ``n > 1``,
    or ``in_progress`` from earlier turns) takes one half action per step and must be
    carried on without any other non-free action in between; the free action
    « abandonner » drops it (the time spent is lost).
    """
    if isinstance(actions, str):
        actions = [actions]
    ext = in_progress
    halves = attacks = castings = 0
    full = False
    ext_cast_counted = False
    names: list[str] = []
    completed: list[str] = []
    abandoned: list[str] = []
    rule_ids = ["D100-ACT-1", "D100-ACT-2", "D100-ACT-3"]
    if ext is not None:
        rule_ids.append("D100-ACT-4")
    for raw in actions:
        d, n = _step(raw, catalogue)
        names.append(d.id)
        if ext is not None and d.id == ext.action:
            halves += 1
            if d.casting and not ext_cast_counted:
                castings += 1
                ext_cast_counted = True
            ext = Extended(ext.action, ext.remaining - 1, ext.total)
            if ext.remaining == 0:
                completed.append(ext.action)
                ext = None
        elif ext is not None and d.kind == "abandonner":
            abandoned.append(ext.action)
            ext = None
        elif ext is not None and d.halves > 0:
            raise IllegalActionError(
                f"action = « {d.label} » : l’action étendue « {catalogue[ext.action].label} » "
                f"est en cours (encore {plural(ext.remaining, 'demi-action')} sur "
                f"{ext.total}) et ne peut pas être interrompue ; abandonnez-la d’abord, le "
                "temps passé est perdu (D100-ACT-4)",
                field="action", value=d.id, rule="D100-ACT-4",
            )
        elif d.kind == "abandonner" and ext is None:
            raise IllegalActionError(
                "action = « abandonner » : aucune action étendue n’est en cours (D100-ACT-4)",
                field="action", value=d.id, rule="D100-ACT-4",
            )
        else:
            if n > 1:
                ext = Extended(d.id, n - 1, n)
                if "D100-ACT-4" not in rule_ids:
                    rule_ids.append("D100-ACT-4")
                halves += 1
                ext_cast_counted = d.casting
            else:
                halves += d.halves
            full = full or d.cost == "complete"
            attacks += d.is_attack
            castings += d.casting
        if halves > 2:
            why = ("une action complète exclut toute autre action non gratuite" if full
                   else "deux demi-actions au plus par tour")
            raise IllegalActionError(
                f"action = « {d.label} » : {why} (D100-ACT-1)",
                field="action", value=d.id, rule="D100-ACT-1",
            )
        if attacks > 1:
            raise IllegalActionError(
                f"action = « {d.label} » : une seule action d’attaque par tour (D100-ACT-2)",
                field="action", value=d.id, rule="D100-ACT-2",
            )
        if castings > 1:
            raise IllegalActionError(
                f"action = « {d.label} » : une seule action d’incantation par tour (D100-ACT-2)",
                field="action", value=d.id, rule="D100-ACT-2",
            )
    return TurnPlan(
        actions=tuple(names), halves=halves, full=full, attacks=attacks, castings=castings,
        extended=ext, completed=tuple(completed), abandoned=tuple(abandoned),
        rules=tuple(rule_ids),
    )
