"""The Atelier's exact answer: a two-fighter duel solved without sampling
(:func:`escarmouche.exact.duel`, in floats), under the edition's rules and under the
designer's, side by side, with the exact difference in points.

A solve takes from a third of a second to a few seconds (bench/README.md,
« bench_exact.py »), so it is asked for (« Calcul exact »), not redone at every change of
an option; each answer, or its refusal, is kept per (system, roster, options changed)
(:data:`MAX_KEPT` of them), so coming back to options already solved shows their answer
at once.

>>> key = exact_key("d100", "d100-duel", {"parades_par_round": 0})
>>> key
('d100', 'd100-duel', (('parades_par_round', '0'),))
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from escarmouche.errors import EscarmoucheError
from escarmouche.exact import MAX_FIGHTERS, SIMULE_HINT, ExactDuel, duel
from escarmouche.model import Json, jsonable
from escarmouche.simulation.balance import automation_note
from escarmouche.simulation.precision import (
    exact_difference_sentence,
    exact_differences,
    signed_points,
)
from escarmouche.text.fmt import fixed, percent, plural
from escarmouche.text.typo import typographie
from escarmouche_widgets import _html as h

__all__ = ["MAX_KEPT", "MAX_TURNS", "Key", "busy_html", "crowd_note", "exact_html",
           "exact_key", "fighters", "hint_html", "kept", "refusal_html", "solve"]

#: the answers kept (per system, roster and options changed), the oldest dropped first
MAX_KEPT = 64
#: the turn cap of the solved duels: the simulations' default (``simulate``)
MAX_TURNS = 50

#: (system, roster name, options changed as sorted (French key, JSON value) pairs)
Key = tuple[str, str, tuple[tuple[str, str], ...]]

_KEPT: dict[Key, ExactDuel | str] = {}

_CLI_HINT = typographie(SIMULE_HINT)
_PAGE_HINT = typographie("« Simuler les combats » l’estime par simulation")


def exact_key(system: str, roster: str, changed: Mapping[str, Json]) -> Key:
    """What an answer is kept under: the options changed by their French key, their
    values as JSON (a table option's value is a list or a mapping)."""
    return system, roster, tuple(sorted(
        (k, json.dumps(v, sort_keys=True, ensure_ascii=False, default=jsonable))
        for k, v in changed.items()))


def kept(key: Key) -> ExactDuel | str | None:
    """The answer (or the French refusal) already worked out for ``key``, if any."""
    return _KEPT.get(key)


def fighters(roster: Any) -> int:
    """How many fighters ``roster`` lines up."""
    return len(roster.combatants)


def solve(key: Key, roster: Any, labels: Mapping[str, str] | None = None
          ) -> ExactDuel | str:
    """The exact duel of ``roster`` (floats, :data:`MAX_TURNS` rounds at most), or the
    French sentence of its refusal (a crowd, a policy that draws, too many states…),
    where the command line's hint names the page's button; kept under ``key``."""
    answer = _KEPT.get(key)
    if answer is not None:
        return answer
    try:
        answer = duel(roster, max_turns=MAX_TURNS, exact=False)
    except EscarmoucheError as err:
        answer = err.refusal(labels).replace(_CLI_HINT, _PAGE_HINT)
    if len(_KEPT) >= MAX_KEPT:
        del _KEPT[next(iter(_KEPT))]
    _KEPT[key] = answer
    return answer


def crowd_note(count: int) -> str:
    """Why « Calcul exact » is off for a fight of ``count`` fighters."""
    return (f"Calcul exact : pour un duel seulement (au plus {MAX_FIGHTERS} combattants) ; "
            f"ce combat en aligne {count}, « Simuler les combats » l’estime.")


def exact_html(before: ExactDuel, after: ExactDuel | None, changed: Sequence[str],
               roster: Any) -> str:
    """The exact answer as the page shows it: the headline (the exact difference in
    points, or the edition's odds when nothing changed), what was solved, and a table of
    each side's chance, the draw, the cap and the mean length, without then with the
    changes (``after``; ``None`` when no option changed), with the difference."""
    note = automation_note(roster)
    word = before.turn_word
    rows: list[tuple[object, ...]] = []
    lines: list[tuple[str, Any, Any]] = [
        *((f"Victoires « {side} »", before.wins[side],
           None if after is None else after.wins.get(side, 0)) for side in before.sides),
        ("Nul (personne debout)", before.draw, None if after is None else after.draw),
        (f"Limite de {plural(before.max_turns, word)} atteinte", before.timed_out,
         None if after is None else after.timed_out)]
    for label, p0, p1 in lines:
        rows.append((label, percent(p0)) if p1 is None else
                    (label, percent(p0), percent(p1), signed_points(float(p1) - float(p0))))
    mean0 = before.mean_rounds
    if after is None:
        rows.append((f"Durée moyenne ({word}s)", fixed(mean0, 2)))
        headers: tuple[str, ...] = ("Issue", "Chance exacte")
        head = ("Aucune option changée : les chances exactes du duel sous les règles de "
                "l’édition (calcul exact).")
    else:
        mean1 = after.mean_rounds
        shift = float(mean1) - float(mean0)
        rows.append((f"Durée moyenne ({word}s)", fixed(mean0, 2), fixed(mean1, 2),
                     ("+" if shift > 0 else "") + fixed(shift, 2)))
        headers = ("Issue", "Sans vos changements", "Avec vos changements",
                   "Écart (points, calcul exact)")
        head = exact_difference_sentence(exact_differences(before, after), "vos changements")
    states = before.states + (after.states if after is not None else 0)
    what = (f"{before.title} : chances exactes, sans simulation, sur toutes les suites de "
            f"dés jusqu’à {plural(before.max_turns, word)} "
            f"({plural(states, 'état distinct', 'états distincts')} calculés).")
    return h.join(
        h.paragraph(f"<b>{h.esc(head)}</b>", raw=True),
        h.paragraph(("Options changées : " + ", ".join(changed) + ".") if changed else ""),
        h.paragraph(what),
        h.notice(note) if note else "",
        h.table(headers, rows))


def refusal_html(message: str) -> str:
    """A refusal of the exact solve, inline, in French (never a traceback)."""
    return h.join(h.notice(message))


def busy_html(step: str) -> str:
    """The line shown while a duel is being solved."""
    return h.join(h.notice(f"Calcul exact en cours : {step}…"))


def hint_html(count: int, turn_word: str) -> str:
    """What « Calcul exact » does, before it is pressed (or why it is off)."""
    if count > MAX_FIGHTERS:
        return h.join(h.notice(crowd_note(count)))
    return h.join(h.paragraph(
        "Ce combat est un duel : « Calcul exact » donne ses chances sans simulation, sans "
        "puis avec vos changements, et l’écart exact en points (de quelques dixièmes de "
        f"seconde à quelques secondes ; {plural(MAX_TURNS, turn_word)} au plus)."))
