"""The French sentences of the Rulebook system (the narration style guide applies:
elision, agreement, « » for quotes, numbers through :mod:`escarmouche.text.fmt`)."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from escarmouche.systems.rulebook.rules import SPEED_EFFECTS, TestResult
from escarmouche.text import fmt

if TYPE_CHECKING:
    from escarmouche.systems.rulebook.speed import SpeedOrder

__all__ = [
    "MOVEMENT_BACK_SENTENCE",
    "SIMULATED_HIT",
    "SURPRISE_DICE",
    "cited_rules",
    "damage_sentence",
    "dice_shown",
    "eclat_regenerated_sentence",
    "eclat_spent_sentence",
    "equipment_sentence",
    "free_action_sentence",
    "hypoactivity_die",
    "hypoactivity_sentence",
    "initiative_roll_sentence",
    "late_note",
    "move_sentence",
    "offensive_head",
    "order_sentence",
    "posture_sentence",
    "simulation_variant_sentence",
    "speed_inflicted_sentence",
    "turn_order_notes",
    "turn_order_sentence",
]

#: what the surprise attempt's two d100 are rolled for, in the log (RB-SURPRISE-2)
SURPRISE_DICE = "surprise (DIS contre PMR)"
#: each global turn's start: the movement back (RB-MOVE-1)
MOVEMENT_BACK_SENTENCE = "Chaque personnage récupère son déplacement (RB-MOVE-1)."


@functools.lru_cache(maxsize=4096)
def initiative_roll_sentence(name: str, test: TestResult) -> str:
    """One combatant's initiative test (RB-INIT-1, RB-INIT-3/4).

    >>> from escarmouche.systems.rulebook.rules import d100_test
    >>> initiative_roll_sentence("Aldric", d100_test(60, 30))
    'Aldric : initiative 30 contre 60, réussite, marge 30.'
    """
    text = f"{name} : initiative {test.describe()}"
    if test.critical == "success":
        return text + " ; une activation de plus au tour 0 (RB-INIT-3)."
    if test.critical == "failure":
        return text + " ; n’agira qu’à partir du tour 2 (RB-INIT-4)."
    return text + "."


def order_sentence(order: Sequence[str]) -> str:
    """The initiative order (RB-INIT-2).

    >>> order_sentence(["Aldric", "Vif"])
    'Ordre d’initiative : Aldric, Vif.'
    """
    return f"Ordre d’initiative : {', '.join(order)}."


def turn_order_sentence(turn: int, slots: Sequence[str], notes: Sequence[str]) -> str:
    """The explained order of a global turn (RB-SPEED-3, RB-INIT-4, RB-SURPRISE-3)."""
    return (f"Ordre du tour {turn} : " + (", ".join(slots) or "personne") + ". "
            + " ; ".join(notes) + ".")


def turn_order_notes(turn: int, speed: SpeedOrder, slots: Sequence[str],
                     late: Sequence[str], surprise_by: str | None) -> list[str]:
    """The notes that explain global turn ``turn``'s order ``slots`` (RB-SPEED-3,
    RB-INIT-4, RB-SURPRISE-3): each speed step about a character who acts in it (a
    second Hyperactivité activation is not played in turn 0), the late ones of turns 0
    and 1, the surprise's turn 0; none when the order needs no word."""
    present = set(slots)
    notes = []
    for s in speed.steps:
        if s.name not in present and not (s.applied and s.other in present):
            continue  # about a character who does not act in this turn
        if s.effect == "hyperactivite" and turn == 0:
            notes.append(f"{s.name} n’agit qu’une fois au tour 0 (RB-SURPRISE-3)")
            continue
        notes.append(fmt.cite(s.text, s.rule))
    if turn in (0, 1):
        absent = [n for n in late if n in speed.order]
        if absent:
            notes.append(late_note(absent))
    if turn == 0 and surprise_by is not None:
        notes.append(f"tour 0 de l’attaque surprise du camp {fmt.quote(surprise_by)} "
                     "(RB-SURPRISE-3)")
    return notes


def cited_rules(texts: Iterable[str]) -> list[str]:
    """The rule IDs the French ``texts`` cite (``RB-XXX-n``), sorted, each once.

    >>> cited_rules(["Brune agit deux fois (RB-SPEED-3)", "x (RB-INIT-4, RB-SPEED-3)"])
    ['RB-INIT-4', 'RB-SPEED-3']
    """
    return list(_cited(tuple(texts)))


@functools.lru_cache(maxsize=1024)
def _cited(texts: tuple[str, ...]) -> tuple[str, ...]:
    """:func:`cited_rules`, kept per texts (a turn's notes come back turn after turn)."""
    return tuple(sorted({r for text in texts for r in _RULE_ID.findall(text)}))


#: a rule ID a French text cites
_RULE_ID = re.compile(r"RB-[A-Z0-9]+-\d+")


def late_note(names: Sequence[str]) -> str:
    """Who waits for turn 2 after a critical failure (RB-INIT-4).

    >>> late_note(["Ombre"])
    'Ombre n’agit pas avant le tour 2 (échec critique, RB-INIT-4)'
    """
    verb = "n’agissent" if len(names) > 1 else "n’agit"
    return f"{fmt.join(names)} {verb} pas avant le tour 2 (échec critique, RB-INIT-4)"


def hypoactivity_sentence(actor: str, roll: int, can_act: bool) -> str:
    """The 1d4 of Hypoactivité at an activation (RB-SPEED-1).

    >>> hypoactivity_sentence("Bor", 4, False)
    'Hypoactivité : Bor lance 1d4 et obtient 4 ; Bor ne peut pas agir.'
    """
    verdict = "peut agir" if can_act else "ne peut pas agir"
    return f"Hypoactivité : {actor} lance 1d4 et obtient {roll} ; {actor} {verdict}."


def hypoactivity_die(actor: str) -> str:
    """What Hypoactivité's d4 is rolled for, in the log (RB-SPEED-1).

    >>> hypoactivity_die("Aube")
    'Hypoactivité d’Aube'
    """
    return fmt.die_of("Hypoactivité", actor)


def eclat_regenerated_sentence(name: str, before: int, after: int) -> str:
    """« Éclat » regenerated at the end of the fight (RB-END-3).

    >>> eclat_regenerated_sentence("Lyra", 0, 2)
    'Fin du combat : Lyra régénère son éclat (0 → 2).'
    """
    return (f"Fin du combat : {name} régénère son éclat ({fmt.number(before)} → "
            f"{fmt.number(after)}).")


def eclat_spent_sentence(actor: str, amount: int, left: int) -> str:
    """« Éclat » spent (RB-END-3).

    >>> eclat_spent_sentence("Lyra", 1, 0)
    'Lyra dépense 1 éclat (reste 0 ; régénéré seulement à la fin du combat).'
    """
    return (f"{actor} dépense {fmt.number(amount)} éclat (reste {fmt.number(left)} ; "
            "régénéré seulement à la fin du combat).")


def move_sentence(actor: str, out_of_turn: bool, description: str) -> str:
    """The movement, in or out of turn (RB-MOVE-1).

    >>> move_sentence("Tom", True, "recule")
    'Tom se déplace hors de son activation (recule).'
    """
    where = " hors de son activation" if out_of_turn else ""
    return f"{actor} se déplace{where}{f' ({description})' if description else ''}."


def posture_sentence(actor: str, posture: str) -> str:
    """A change of posture (RB-ACT-1).

    >>> posture_sentence("Lyra", "défensive")
    'Lyra passe en posture « défensive ».'
    """
    return f"{actor} passe en posture {fmt.quote(posture)}."


def free_action_sentence(actor: str, description: str) -> str:
    """A free short action (RB-ACT-1).

    >>> free_action_sentence("Aldric", "")
    'Aldric : action courte (action libre, en plus de l’action).'
    """
    return (f"{actor} : {description or 'action courte'} (action libre, en plus de "
            "l’action).")


def equipment_sentence(actor: str, item: str) -> str:
    """An item taken from the bag (RB-ACT-2).

    >>> equipment_sentence("Aldric", "corde")
    'Aldric prend « corde » dans son sac (action).'
    """
    return f"{actor} prend {fmt.quote(item) if item else 'un équipement'} dans son sac (action)."


#: the name, in the log, of the automatic hit of the simulation variant (not in the text)
SIMULATED_HIT = "frappe automatique, variante hors texte"


def simulation_variant_sentence(declared: list[str]) -> str:
    """The simulation variant (not in the text, RB-END-2), as a reader sees it.

    >>> declared = ["Brune 1d6", "Grishnakh 1d8"]
    >>> print(simulation_variant_sentence(declared))  # doctest: +NORMALIZE_WHITESPACE
    Variante hors texte : le texte laisse au MJ l’effet d’une attaque (RB-END-2) ; ici,
    chaque activation est une attaque réussie, qui retire les PV du dé que chaque
    combattant déclare (Brune 1d6 et Grishnakh 1d8).
    """
    who = fmt.join(declared, empty="aucun dé déclaré")
    return ("Variante hors texte : le texte laisse au MJ l’effet d’une attaque (RB-END-2) ; "
            "ici, chaque activation est une attaque réussie, qui retire les PV du dé que "
            f"chaque combattant déclare ({who}).")


def offensive_head(action: str, actor: str, target: str | None, label: str,
                   dice: str = "") -> str:
    """The start of the sentence of an attack, a spell or an ability; ``dice`` is the
    damage roll when dice were rolled (« 1d6 → 4 »).

    >>> offensive_head("attaquer", "Aldric", "Grolk", "")
    'Aldric attaque Grolk'
    >>> offensive_head("attaquer", "Aldric", "Grolk", "coup d’estoc", "1d6 → 4")
    'Aldric attaque Grolk (« coup d’estoc », 1d6 → 4)'
    >>> offensive_head("sort", "Chef", "Ana", "Entrave")
    'Chef lance un sort « Entrave » sur Ana'
    """
    what = f" {fmt.quote(label)}" if label else ""
    if action == "attaquer":
        inside = ", ".join(x for x in (what.strip(), dice) if x)
        return f"{actor} attaque {target}" + (f" ({inside})" if inside else "")
    noun = "lance un sort" if action == "sort" else "utilise une capacité"
    head = f"{actor} {noun}{what}" + (f" sur {target}" if target else "")
    return head + (f" ({dice})" if dice else "")


def dice_shown(expr: str, total: int) -> str:
    """A damage roll as an attack's sentence shows it (RB-END-2): its dice and total,
    never below 0.

    >>> dice_shown("1d6", 4), dice_shown("1d4-3", -1)
    ('1d6 → 4', '1d4-3 → −1 (minimum 0)')
    """
    shown = f"{expr} → {fmt.number(total)}"
    if total < 0:
        shown += " (minimum 0)"
    return shown


def damage_sentence(head: str, amount: int, track: str, before: int, after: int) -> str:
    """Damage on PV or Esprit (RB-END-2).

    >>> damage_sentence("Aldric attaque Grolk", 3, "PV", 8, 5)
    'Aldric attaque Grolk : 3 dégâts aux PV (8 → 5).'
    """
    where = "aux PV" if track == "PV" else "à l’Esprit"
    return (f"{head} : {fmt.plural(amount, 'dégât')} {where} ({fmt.number(before)} → "
            f"{fmt.number(after)}).")


def speed_inflicted_sentence(target: str, effect: str, first: int, last: int) -> str:
    """A speed effect inflicted by an action (RB-SPEED-1).

    >>> speed_inflicted_sentence("Kaz", "toujours_dernier", 1, 1)[:40]
    'Kaz subit l’effet « Toujours dernier » ('
    """
    span = f"au tour {first}" if first == last else f"des tours {first} à {last}"
    spec = SPEED_EFFECTS[effect]
    return (f"{target} subit l’effet {fmt.quote(spec.label)} ({spec.description}) {span} ; "
            "l’ordre en tient compte à partir du prochain tour global.")
