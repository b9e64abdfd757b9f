"""Terrain between a fighter and the melee: the start option ``terrain`` (a d100 fight has
no positions; the GM declares the ground once, as for ``tirs``).

``terrain = {name: {"hauteur": h, "fosse": w, "elan": r}}``: before it reaches the
melee, the fighter drops ``h`` metres from a height (a controlled drop, D100-JUMP-1),
then crosses a ditch ``w`` metres wide with ``r`` metres of room for its run-up (a long
jump, D100-JUMP-2). Rulings of automated play (RULES.md, D100-JUMP-1 and D100-JUMP-2):

- a fighter with ground still to cross is not in melee: it attacks no one and no one
  attacks it in melee (shots still reach it);
- automated play crosses in order: the drop (« saut »), then the ditch
  (« saut en longueur » with all the room as run-up), or, when the room is shorter than
  the rules' minimal run-up, round the ditch at a run (« course », a full action);
- a failed drop, or a long jump that falls short of the ditch, costs no wounds (the text
  leaves a fall's damage to the GM) but the rest of the fighter's turn: it lands at the
  bottom, or climbs out of the ditch on the far side, and fights from its next turn.

The ground still to cross lives in ``system_state["terrain"]``: ``{name: {"hauteur",
"fosse", "elan", "chute"}}`` (``chute``: the fighter fell in its current turn).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from escarmouche import checks
from escarmouche.errors import EscarmoucheError, IllegalActionError, invalid
from escarmouche.model import Json
from escarmouche.state import Ctx, EncounterState, FighterState
from escarmouche.systems.d100.jumps import MAX_HEIGHT, DropJump, LongJump
from escarmouche.systems.d100.rules import ActionDef, Rules
from escarmouche.text.fmt import de, join, number, quote

__all__ = [
    "TERRAIN_KEYS",
    "after_drop",
    "after_long_jump",
    "after_run",
    "check_contact",
    "crossed",
    "fallen_error",
    "new_turn",
    "start_terrain",
    "validate_terrain",
]

#: the keys of one fighter's entry in the start option ``terrain``, with the rule each
#: belongs to
TERRAIN_KEYS: Mapping[str, str] = {
    "hauteur": "D100-JUMP-1", "fosse": "D100-JUMP-2", "elan": "D100-JUMP-2"}


#: one fighter's ground still to cross, as the rules below read it: ``(hauteur, fosse,
#: elan, chute)``; the engine keeps it as a dict of these keys, the kernel as a list
Ground = tuple[float, float, float, bool]

#: the three steps across the ground, by the engine's action ids
DROP, LEAP, RUN = "saut", "saut_en_longueur", "course"


def crossed(ground: Ground, step: str, landed: float | bool = True) -> Ground:
    """The ground left after one ``step`` (:data:`DROP`, :data:`LEAP`, :data:`RUN`), the
    rulings of the module docstring written once for the engine (:func:`after_drop`,
    :func:`after_long_jump`, :func:`after_run`) and the kernel:

    - a « saut » with a drop ahead lands at the bottom; a failed one (``landed`` false)
      is a fall (D100-JUMP-1);
    - a « saut en longueur » (``landed``: its distance) with a ditch ahead is across;
      short of the ditch's width, a fall (D100-JUMP-2);
    - a « course » with the drop behind takes the fighter round the ditch.

    Any other step, or one with nothing of its kind ahead, leaves the ground as it was.

    >>> crossed((3, 4, 6, False), DROP, False)
    (0, 4, 6, True)
    >>> crossed((0, 4, 6, False), LEAP, 3.5), crossed((2, 4, 6, False), RUN)
    ((0, 0, 6, True), (2, 4, 6, False))
    """
    height, width, room, fell = ground
    if step == DROP and height:
        return 0, width, room, fell or not landed
    if step == LEAP and width:
        return height, 0, room, fell or float(landed) < width
    if step == RUN and width and not height:
        return height, 0, room, fell
    return ground


def _ground(ctx: Ctx[Rules]) -> dict[str, Any]:
    ground = ctx.state.system_state.get("terrain")
    return ground if isinstance(ground, dict) else {}


def start_terrain(ctx: Ctx[Rules], given: object) -> dict[str, Json]:
    """``terrain``, checked at the door: a fighter of the fight, known keys, heights and
    widths in metres; a ditch needs its run-up room (``elan``) and the room needs a
    ditch. Entries with nothing to cross are dropped."""
    entries = checks.mapping("terrain", given, "D100-JUMP-1")
    out: dict[str, Json] = {}
    for name, entry in entries.items():
        checks.name_in("terrain", name, list(ctx.state.fighters), "D100-JUMP-1")
        fields = checks.mapping("terrain", entry, "D100-JUMP-1")
        for key in fields:
            checks.choice("terrain", key, tuple(TERRAIN_KEYS), "D100-JUMP-1")
        values = {key: checks.real(key, fields.get(key, 0), lo=0, hi=MAX_HEIGHT,
                                   rule=rule, who=str(name))
                  for key, rule in TERRAIN_KEYS.items()}
        if values["fosse"] and "elan" not in fields:
            raise invalid("elan", None, "D100-JUMP-2",
                          f"le fossé {de(str(name))} demande la place de l’élan, en "
                          "mètres (0 s’il n’y en a pas)")
        if "elan" in fields and not values["fosse"]:
            raise invalid("elan", values["elan"], "D100-JUMP-2",
                          f"un élan sans fossé à franchir ({name})")
        if values["hauteur"] or values["fosse"]:
            out[str(name)] = {**values, "chute": False}
    return out


def validate_terrain(state: EncounterState) -> None:
    """A loaded save: the ground still to cross names fighters, with the same keys."""
    ground = checks.mapping("system_state.terrain", state.system_state.get("terrain", {}),
                            "D100-JUMP-1")
    for name, entry in ground.items():
        checks.name_in("system_state.terrain", name, list(state.fighters), "D100-JUMP-1")
        fields = checks.mapping(f"system_state.terrain.{name}", entry, "D100-JUMP-1")
        if set(fields) != {*TERRAIN_KEYS, "chute"}:
            raise invalid(f"system_state.terrain.{name}", "…", "D100-JUMP-1",
                          f"les champs attendus sont "
                          f"{join(quote(k) for k in (*TERRAIN_KEYS, 'chute'))}")
        for key, rule in TERRAIN_KEYS.items():
            checks.real(f"system_state.terrain.{name}.{key}", fields[key], lo=0,
                        hi=MAX_HEIGHT, rule=rule)
        checks.flag(f"system_state.terrain.{name}.chute", fields["chute"], "D100-JUMP-1")


def _ahead(ctx: Ctx[Rules], name: str) -> dict[str, Any] | None:
    """``name``'s ground still to cross, or ``None`` when it is in melee."""
    entry = _ground(ctx).get(name)
    if entry is None or not (entry["hauteur"] or entry["fosse"]):
        return None
    return entry  # type: ignore[no-any-return]


def check_contact(ctx: Ctx[Rules], attacker: str, target: str) -> None:
    """A melee attack needs both fighters in melee: ground still to cross (a drop, a
    ditch) keeps a fighter out of it *(ruling, D100-JUMP-1/2)*."""
    for name in (attacker, target):
        entry = _ahead(ctx, name)
        if entry is not None:
            rule = "D100-JUMP-1" if entry["hauteur"] else "D100-JUMP-2"
            raise invalid("cible" if name == target else "acteur", name, rule,
                          f"{name} n’est pas encore au contact : {_what(entry)} "
                          "avant la mêlée", kind=IllegalActionError)


def _what(entry: Mapping[str, Any]) -> str:
    parts = []
    if entry["hauteur"]:
        parts.append(f"une descente de {number(entry['hauteur'])} m")
    if entry["fosse"]:
        parts.append(f"un fossé de {number(entry['fosse'])} m")
    return "il lui reste " + join(parts)


def fallen_error(actor: str, d: ActionDef) -> EscarmoucheError:
    """The words of the kernel's refusal ``FALLEN``: a fighter who fell in its turn (a
    failed drop, a long jump short of the ditch) takes no other action but free ones
    until its next turn *(ruling, D100-JUMP-1/2)*."""
    return invalid("action", d.id, "D100-JUMP-1",
                   f"{actor} a chuté dans ce tour : le reste en est perdu",
                   kind=IllegalActionError, display=d.label)


def new_turn(ctx: Ctx[Rules], actor: str) -> None:
    """The turn lost to a fall ends when the fighter's next turn starts."""
    entry = _ground(ctx).get(actor)
    if entry is not None and entry["chute"]:
        entry["chute"] = False


def _step(ctx: Ctx[Rules], name: str, step: str, landed: float | bool = True
          ) -> tuple[dict[str, Any], Ground] | None:
    """``name``'s ground entry after ``step`` (:func:`crossed`), written in place, and
    what it was before; ``None`` when the step changed nothing."""
    entry = _ground(ctx).get(name)
    if entry is None:
        return None
    before: Ground = (entry["hauteur"], entry["fosse"], entry["elan"], entry["chute"])
    after = crossed(before, step, landed)
    if after == before:
        return None
    entry["hauteur"], entry["fosse"], entry["elan"], entry["chute"] = after
    return entry, before


def after_drop(ctx: Ctx[Rules], f: FighterState, jump: DropJump) -> None:
    """A fighter with a drop ahead is at the bottom after its « saut »; after a fall it
    loses the rest of its turn (no wounds counted: the text leaves them to the GM)."""
    stepped = _step(ctx, f.name, DROP, jump.success)
    if stepped is not None and not jump.success:
        ctx.emit("terrain", f"{f.name}, au pied de la descente, perd le reste de son "
                 "tour\u202f; le moteur ne compte aucune blessure pour la chute, dont le "
                 "texte laisse les dégâts au MJ.", actor=f.name,
                 rules=("D100-JUMP-1",), data={"fall": True})


def after_long_jump(ctx: Ctx[Rules], f: FighterState, jump: LongJump) -> None:
    """A fighter with a ditch ahead is across after its « saut en longueur »; short of
    the far side, it falls in, climbs out on the far side and loses the rest of its
    turn."""
    stepped = _step(ctx, f.name, LEAP, jump.distance)
    if stepped is None:
        return
    width = stepped[1][1]
    if jump.distance < width:
        ctx.emit("terrain", f"{f.name} retombe dans le fossé de {number(width)} m (saut de "
                 f"{number(jump.distance)} m), en ressort de l’autre côté et perd le reste "
                 "de son tour.", actor=f.name, rules=("D100-JUMP-2",), data={"fall": True})
    else:
        ctx.emit("terrain", f"{f.name} franchit le fossé de {number(width)} m.",
                 actor=f.name, rules=("D100-JUMP-2",), data={"fall": False})


def after_run(ctx: Ctx[Rules], f: FighterState) -> None:
    """A « course » takes a fighter round the ditch when the drop is behind it."""
    stepped = _step(ctx, f.name, RUN)
    if stepped is None:
        return
    entry = stepped[0]
    why = ""
    if entry["elan"] < ctx.rules.long_jump_run_up:
        why = (f" : pas la place de prendre son élan ({number(entry['elan'])} m, il en "
               f"faut {number(ctx.rules.long_jump_run_up)})")
    ctx.emit("terrain", f"{f.name} fait le tour du fossé en courant{why}.", actor=f.name,
             rules=("D100-JUMP-2",), data={"fall": False})
