"""The French sentences of the d20 system (the narration style guide applies: elision,
agreement, « » for quotes, numbers through :mod:`escarmouche.text.fmt`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from escarmouche.model import Effect, Event, Json
from escarmouche.state import Ctx
from escarmouche.systems.d20.rules import ROUND_SECONDS, START_PHASE_LABELS, Rules
from escarmouche.text.fmt import de, join, number, plural, quote

__all__ = [
    "announce_start_phase",
    "attack_detail",
    "attack_label",
    "attack_sentence",
    "attack_trigger_text",
    "cancelled_attack_sentence",
    "cancelled_move_sentence",
    "cancelled_text",
    "d20_text",
    "declared_sentence",
    "end_of_turn_sentence",
    "moot_sentence",
    "move_sentence",
    "move_trigger_text",
    "path_text",
    "placement_sentence",
    "plus_text",
    "point_sentence",
    "reaction_attack_sentence",
    "reaction_cause",
    "reaction_stop_sentence",
    "round_sentence",
    "save_sentence",
    "square_text",
    "start_phase_sentence",
    "sum_text",
]


def plus_text(roll: int, bonus: int) -> str:
    """A die plus a modifier, as a GM says it.

    >>> plus_text(15, 2), plus_text(12, -3)
    ('15 + 2', '12 − 3')
    """
    op = "+" if bonus >= 0 else "−"
    return f"{number(roll)} {op} {number(abs(bonus))}"


def sum_text(roll: int, bonus: int) -> str:
    """A die plus a modifier and the total.

    >>> sum_text(14, 5), sum_text(12, -3)
    ('14 + 5 = 19', '12 − 3 = 9')
    """
    return f"{plus_text(roll, bonus)} = {number(roll + bonus)}"


def d20_text(roll: int, bonus: int) -> str:
    """The d20 roll written as an equality that holds: the die and its modifier, the
    values, the total (never « 1d20 = 6 + 5 », which makes the die worth 11).

    >>> d20_text(6, 5), d20_text(12, -3)
    ('1d20 + 5 = 6 + 5 = 11', '1d20 − 3 = 12 − 3 = 9')
    """
    op = "+" if bonus >= 0 else "−"
    return f"1d20 {op} {number(abs(bonus))} = {sum_text(roll, bonus)}"


def square_text(square: Sequence[int]) -> str:
    """A square as the log writes it.

    >>> square_text((2, -1))
    '(2 ; −1)'
    """
    return f"({number(square[0])} ; {number(square[1])})"


def path_text(squares: Sequence[Sequence[int]]) -> str:
    """The squares of a move, in order.

    >>> path_text([(0, 0), (1, 0)])
    '(0 ; 0) → (1 ; 0)'
    """
    return " → ".join(square_text(s) for s in squares)


def placement_sentence(positions: Mapping[str, Sequence[int]]) -> str:
    """The fighters' squares at the start (D20-OPP-2).

    >>> placement_sentence({"Thorin": (0, 0), "Gob": (1, 0)})
    'Positions : Thorin (0 ; 0) et Gob (1 ; 0).'
    """
    return "Positions : " + join([f"{n} {square_text(p)}" for n, p in positions.items()]) + "."


def round_sentence(n: int) -> str:
    """D20-TIME-1.

    >>> round_sentence(2)
    'Round 2 : 6 secondes (de 6 s à 12 s) ; chaque créature joue son tour une fois.'
    """
    return (f"Round {number(n)} : {ROUND_SECONDS} secondes (de "
            f"{number((n - 1) * ROUND_SECONDS)} s à {number(n * ROUND_SECONDS)} s) ; "
            "chaque créature joue son tour une fois.")


def save_sentence(actor: str, effect: str, roll: int, bonus: int, target: int,
                  success: bool) -> str:
    """D20-END-1.

    >>> print(save_sentence("Thorin", "Venin", 6, 5, 10, True))  # doctest: +NORMALIZE_WHITESPACE
    Jet de sauvegarde de Thorin contre « Venin » : 1d20 + 5 = 6 + 5 = 11 (10 requis),
    réussi ; l’effet prend fin.
    """
    verdict = "réussi ; l’effet prend fin" if success else "raté ; l’effet continue"
    return (f"Jet de sauvegarde {de(actor)} contre {quote(effect)} : "
            f"{d20_text(roll, bonus)} ({number(target)} requis), {verdict}.")


def end_of_turn_sentence(actor: str, ending: Sequence[str]) -> str:
    """D20-END-2.

    >>> end_of_turn_sentence("Thorin", ["Garde levée"]).split(" ; ")[0]
    'Fin du tour de Thorin : « Garde levée » prend fin'
    """
    names = join([quote(n) for n in ending])
    what = (f"{names} prend{'nent' if len(ending) > 1 else ''} fin" if ending
            else "aucun effet « jusqu’à la fin de son tour » à terminer")
    return f"Fin du tour {de(actor)} : {what} ; aucune action possible pendant cette phase."


def attack_label(reach: str = "") -> str:
    """The head of an attack's sentence (:func:`attack_sentence`): its ``reach``
    (:data:`.rules.ATTACK_RANGES`' words) when it was declared with one, none for an
    attack made as a reaction.

    >>> attack_label("au corps à corps"), attack_label()
    ('Attaque au corps à corps', 'Attaque')
    """
    return f"Attaque {reach}" if reach else "Attaque"


def attack_sentence(label: str, attacker: str, target: str, roll: int, bonus: int,
                    defence: int, damage: int | None, weapon: str, left: int, *,
                    cost: str = "") -> str:
    """An attack (engine convenience); ``damage`` is ``None`` on a miss; ``cost`` the
    action's cost when no earlier line announced it.

    >>> print(attack_sentence("Attaque", "Thorin", "Gob", 14, 5, 12, 3, "1d6", 5,
    ...                       cost="action simple"))  # doctest: +NORMALIZE_WHITESPACE
    Attaque de Thorin contre Gob (action simple) : 1d20 + 5 = 14 + 5 = 19 contre défense 12,
    touché, 3 dégâts (1d6), il reste 5 PV à Gob.
    """
    paid = f" ({cost})" if cost else ""
    head = (f"{label} {de(attacker)} contre {target}{paid} : {d20_text(roll, bonus)} "
            f"contre défense {number(defence)}, ")
    if damage is None:
        return head + "raté."
    return (head + f"touché, {plural(damage, 'dégât')} ({weapon}), il reste "
            f"{plural(left, 'PV', 'PV')} à {target}.")


def move_sentence(mover: str, squares: Sequence[Sequence[int]], announced: bool,
                  cost: str) -> str:
    """A move that nothing stopped (D20-ACT-1), from its first square to its last; the
    squares between and its ``cost`` are said when no earlier line announced it.

    >>> move_sentence("Pip", [(0, 0), (1, 0), (2, 1)], False, "action de mouvement")
    'Pip se déplace de (0 ; 0) à (2 ; 1) par (1 ; 0) (action de mouvement).'
    """
    via = (f" par {' → '.join(square_text(s) for s in squares[1:-1])}"
           if len(squares) > 2 and not announced else "")
    return (f"{mover} se déplace de {square_text(squares[0])} à {square_text(squares[-1])}"
            f"{via}" + ("" if announced else f" ({cost})") + ".")


def declared_sentence(actor: str, label: str, cost: str, detail: str) -> str:
    """An action of the turn declared apart (D20-ACT-1..3), with its cost: a described
    action, or an attack or a move announced before the reactions it triggers.

    >>> declared_sentence("Thorin", "Dégainer une arme", "action mineure", "sa hache")
    'Thorin déclare « Dégainer une arme » (action mineure) : sa hache.'
    """
    return (f"{actor} déclare {quote(label)} ({cost})" + (f" : {detail}" if detail else "")
            + ".")


def attack_detail(label: str, targets: Sequence[str]) -> str:
    """What an attack declared apart aims at (:func:`declared_sentence`).

    >>> attack_detail("au corps à corps", ["Gob"])
    'attaque au corps à corps contre Gob'
    """
    return f"attaque {label} contre {join(targets)}"


def attack_trigger_text(attacker: str) -> str:
    """An attack as the trigger of reactions (D20-OPP-*, D20-IMM-*).

    >>> attack_trigger_text("Aube")
    'l’attaque d’Aube'
    """
    return f"l’attaque {de(attacker)}"


def move_trigger_text(mover: str) -> str:
    """A move as the trigger of reactions (D20-OPP-*, D20-IMM-*).

    >>> move_trigger_text("Pip")
    'le déplacement de Pip'
    """
    return f"le déplacement {de(mover)}"


def cancelled_text(trigger: str) -> str:
    """A move cancelled, why a reaction declared with it does not happen.

    >>> cancelled_text(move_trigger_text("Pip"))
    'le déplacement de Pip est annulé'
    """
    return f"{trigger} est annulé"


def reaction_cause(label: str, by: str) -> str:
    """A reaction as the cause of a cancelled action (D20-OPP-1, D20-IMM-2).

    >>> reaction_cause("attaque d’opportunité", "Gob")
    'attaque d’opportunité de Gob'
    """
    return f"{label} {de(by)}"


def reaction_attack_sentence(label: str, by: str, before: bool, about: str) -> str:
    """A reaction that attacks, announced before its blow (D20-OPP-*, D20-IMM-*).

    >>> reaction_attack_sentence("Attaque d’opportunité", "Gob", True,
    ...                          move_trigger_text("Pip"))
    'Attaque d’opportunité de Gob (avant le déplacement de Pip).'
    """
    return f"{label} {de(by)} ({'avant' if before else 'après'} {about})."


def reaction_stop_sentence(title: str, by: str, name: str, about: str) -> str:
    """An interruption that invalidates its trigger (D20-IMM-2).

    >>> reaction_stop_sentence("Interruption immédiate", "Pip", "Deuxième chance",
    ...                        attack_trigger_text("Gob"))
    'Interruption immédiate de Pip : « Deuxième chance » invalide l’attaque de Gob.'
    """
    return f"{title} {de(by)} : {quote(name)} invalide {about}."


def moot_sentence(label: str, by: str, why: str) -> str:
    """A declared reaction that does not happen.

    >>> moot_sentence("attaque d’opportunité", "Gob", "Gob est hors de combat")
    'L’attaque d’opportunité de Gob n’a pas lieu : Gob est hors de combat.'
    """
    return f"L’{label} {de(by)} n’a pas lieu : {why}."


def cancelled_attack_sentence(attacker: str, cause: str, spent: bool) -> str:
    """An attack cancelled by a reaction (D20-OPP-1, D20-IMM-2), its standard action
    given back unless ``spent``.

    >>> print(cancelled_attack_sentence("Gob", "interruption immédiate de Pip",
    ...                                 False))  # doctest: +NORMALIZE_WHITESPACE
    L’attaque de Gob est annulée par l’interruption immédiate de Pip ; son action simple
    lui est rendue.
    """
    return (f"L’attaque {de(attacker)} est annulée par l’{cause}"
            + ("" if spent else " ; son action simple lui est rendue") + ".")


def cancelled_move_sentence(mover: str, cause: str, out: bool, where: Sequence[int],
                            spent: bool) -> str:
    """A move cancelled by a reaction (D20-OPP-1, D20-IMM-2): where the mover stays,
    its move action given back unless ``spent``.

    >>> print(cancelled_move_sentence("Pip", "attaque d’opportunité de Gob", True, (1, 0),
    ...                               True))  # doctest: +NORMALIZE_WHITESPACE
    Le déplacement de Pip est annulé par l’attaque d’opportunité de Gob : Pip, hors de
    combat, reste en (1 ; 0).
    """
    state = "hors de combat" if out else "arrêté"
    return (f"Le déplacement {de(mover)} est annulé par l’{cause} : {mover}, {state}, "
            f"reste en {square_text(where)}"
            + ("" if spent else " ; son action de mouvement lui est rendue") + ".")


def point_sentence(actor: str, left: int) -> str:
    """An action point spent (D20-ACT-3), ``left`` points left.

    >>> point_sentence("Thorin", 0)
    'Thorin dépense un point d’action : une action simple de plus ce tour (reste 0 point).'
    """
    return (f"{actor} dépense un point d’action : une action simple de plus ce tour "
            f"(reste {plural(left, 'point')}).")


def _find_effect(ctx: Ctx[Rules], effect_id: str) -> Effect | None:
    for e in ctx.state.effects:
        if e.id == effect_id:
            return e
    for ev in reversed(ctx.state.log):
        if ev.kind == "effet_ajoute":
            data = ev.data.get("effect")
            if isinstance(data, Mapping) and data.get("id") == effect_id:
                return Effect.from_json(data)
    return None


def last_activation(log: Sequence[Event], actor: str) -> int:
    """The index in ``log`` of the last « activation » event of ``actor`` (read from the
    end: a long fight's log is not scanned whole at each activation)."""
    for i in range(len(log) - 1, -1, -1):
        e = log[i]
        if e.kind == "activation" and e.actor == actor:
            return i
    raise ValueError(f"no activation of {actor} in the log")


def announce_start_phase(ctx: Ctx[Rules], actor: str) -> None:
    """Announce the start phase (D20-START-1): the engine has just ticked the actor's
    start-of-turn effects in ``effect_sort_key`` order; this tells what they did."""
    log = ctx.state.log
    start = last_activation(log, actor)
    applied: list[Json] = []
    parts: list[str] = []
    for ev in log[start + 1:]:
        if ev.kind != "effet_applique" or ev.actor != actor:
            continue
        effect = _find_effect(ctx, str(ev.data.get("effect")))
        kind = effect.kind if effect else "generique"
        label = START_PHASE_LABELS.get(kind, effect.name if effect else "effet")
        raw = ev.data.get("delta", 0)
        delta = raw if isinstance(raw, int) else 0
        track = str(ev.data.get("track", ""))
        sign = "+" if delta > 0 else "−"
        parts.append(f"{label} {sign}{number(abs(delta))} {track}")
        applied.append({"effect": ev.data.get("effect"), "kind": kind, "track": track,
                        "delta": delta})
    standing = ctx.fighter(actor).standing
    ctx.emit("debut_de_tour", lambda: start_phase_sentence(actor, parts, standing),
             actor=actor, rules=("D20-START-1",), data={"applied": applied})


def start_phase_sentence(actor: str, parts: Sequence[str], standing: bool) -> str:
    """The start phase of ``actor``'s turn (D20-START-1): what its effects did
    (``parts``), whether it is still standing.

    >>> start_phase_sentence("Gob", [], True).split(" ; ")[0]
    'Début du tour de Gob : aucun effet à appliquer'
    """
    done = ", puis ".join(parts) if parts else "aucun effet à appliquer"
    out = "" if standing else f" ; {actor} est hors de combat"
    return (f"Début du tour {de(actor)} : {done}{out} ; aucune action possible pendant "
            "cette phase.")
