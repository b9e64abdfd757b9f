"""Pure parsing helpers of the demos: what a user types → engine values.

No ipywidgets here: every function is testable on its own and raises
:class:`~escarmouche.EscarmoucheError` with a French message (CORE-ERR) that the demos
show in their error banner.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from escarmouche import Combatant, EscarmoucheError
from escarmouche.errors import invalid, shown
from escarmouche.savefile import parse_json

__all__ = [
    "RosterRow",
    "build_roster",
    "parse_dice_list",
    "parse_idents",
    "parse_int",
    "parse_stats",
    "roster_rows",
]

#: how many dice a user may type in « dés manuels » (a bound, like CORE-DICE's)
MAX_MANUAL_DICE = 1000
#: how many combatants a demo roster may hold (the exact odds stay fast in a browser)
MAX_ROSTER = 12
#: the longest text a user may type in one box (checked before any parsing)
MAX_INPUT = 5000
#: the most digits of a number typed in a box (no rule needs more; Python refuses 4,300)
MAX_DIGITS = 9

_SEPARATORS = re.compile(r"[\s,;]+")
_STAT_ITEM = re.compile(r"^\s*([A-Za-z][A-Za-z0-9_]*)\s*[=:]?\s*([-+−]?\s*[0-9]+)\s*$")
_INT = re.compile(r"^[-+]?[0-9]+$")
_DIGITS = re.compile(r"^[0-9]+$")


def bounded(text: object, field: str, rule: str = "CORE-ERR", max_len: int = MAX_INPUT) -> str:
    """The text typed in a box, checked before parsing: a string of at most ``max_len``
    characters (a pasted novel gets a French error, not a frozen page)."""
    if not isinstance(text, str):
        raise invalid(field, text, rule, "un texte est attendu")
    if len(text) > max_len:
        raise invalid(field, f"{len(text)} caractères", rule,
                      f"au plus {max_len} caractères")
    return text


def _small_int(token: str, field: str, rule: str) -> int:
    if len(token.lstrip("+-")) > MAX_DIGITS:
        raise invalid(field, token[:12] + "…", rule,
                      f"un nombre d’au plus {MAX_DIGITS} chiffres est attendu")
    return int(token)


def fold_ident(text: str) -> str:
    """``"Toujours premier"`` → ``"toujours_premier"``; ``"hyperactivité"`` → ASCII."""
    decomposed = unicodedata.normalize("NFKD", text)
    ascii_text = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return re.sub(r"[\s\-’']+", "_", ascii_text.strip().lower())


def parse_dice_list(text: str) -> list[int]:
    """Parse « dés manuels »: integers separated by commas, semicolons or spaces.

    >>> parse_dice_list("37, 4 12;100")
    [37, 4, 12, 100]
    """
    text = bounded(text, "dés manuels", "CORE-RNG")
    tokens = [t for t in _SEPARATORS.split(text.strip()) if t]
    if not tokens:
        raise EscarmoucheError(
            "dés manuels = « » : aucun résultat saisi ; tapez les résultats des dés "
            "séparés par des virgules ou des espaces, par exemple « 37, 4, 12 » (CORE-RNG)",
            field="dés", value=text, rule="CORE-RNG",
        )
    if len(tokens) > MAX_MANUAL_DICE:
        raise EscarmoucheError(
            f"dés manuels = {len(tokens)} résultats : au plus {MAX_MANUAL_DICE} (CORE-RNG)",
            field="dés", value=len(tokens), rule="CORE-RNG",
        )
    values: list[int] = []
    for i, token in enumerate(tokens, start=1):
        if not _DIGITS.match(token):
            raise EscarmoucheError(
                f"dés manuels = {shown(token)} : le résultat n° {i} n’est pas un nombre entier "
                "positif ; séparez les résultats par des virgules ou des espaces, par "
                "exemple « 37, 4, 12 » (CORE-RNG)",
                field="dés", value=token, rule="CORE-RNG",
            )
        values.append(_small_int(token, "dés manuels", "CORE-RNG"))
    return values


def parse_int(text: str, field: str, lo: int, hi: int, rule: str = "CORE-ERR") -> int:
    """An integer typed in a text box, within ``[lo, hi]`` (French error otherwise)."""
    text = bounded(text, field, rule)
    cleaned = text.strip().replace("−", "-").replace(" ", "")
    if not _INT.match(cleaned):
        raise EscarmoucheError(
            f"{field} = {shown(text)} : un nombre entier est attendu ({rule})",
            field=field, value=text, rule=rule,
        )
    value = _small_int(cleaned, field, rule)
    check_range(value, field, lo, hi, rule)
    return value


def check_range(value: int, field: str, lo: int, hi: int, rule: str = "CORE-ERR") -> int:
    """``value`` itself, or a French error naming the field, the value and the bounds."""
    if not lo <= value <= hi:
        raise EscarmoucheError(
            f"{field} = {shown(value)} : hors des bornes {shown(lo)}–{shown(hi)} ({rule})",
            field=field, value=value, rule=rule,
        )
    return value


def parse_stats(text: str, who: str = "") -> dict[str, int]:
    """``"HAB=60, DIS 40; init:+2"`` → ``{"HAB": 60, "DIS": 40, "init": 2}``."""
    stats: dict[str, int] = {}
    owner = f" de « {who} »" if who else ""
    text = bounded(text, f"caractéristiques{owner}")
    for item in (p for p in re.split(r"[,;]+", text) if p.strip()):
        parts = item.split()
        # "HAB 60 DIS 40" (spaces only) is split into pairs as well.
        chunks = [item] if len(parts) <= 2 or any(c in item for c in "=:") else [
            " ".join(parts[i:i + 2]) for i in range(0, len(parts), 2)
        ]
        for chunk in chunks:
            match = _STAT_ITEM.match(chunk)
            if match is None:
                raise EscarmoucheError(
                    f"caractéristiques{owner} = {shown(chunk.strip())} : écrivez « NOM=valeur », "
                    "séparés par des virgules, par exemple « HAB=60, DIS=40 » (CORE-ERR)",
                    field="caractéristiques", value=chunk.strip(), rule="CORE-ERR",
                )
            key = match.group(1)
            if key in stats:
                raise EscarmoucheError(
                    f"caractéristiques{owner} = {shown(key)} : donnée deux fois (CORE-ERR)",
                    field="caractéristiques", value=key, rule="CORE-ERR",
                )
            stats[key] = _small_int(re.sub(r"\s", "", match.group(2)).replace("−", "-"),
                                    f"{key}{owner}", "CORE-ERR")
    return stats


def parse_idents(text: str) -> frozenset[str]:
    """Traits or skills typed freely: ``"Hyperactivité, toujours premier"`` →
    ``{"hyperactivite", "toujours_premier"}`` (separated by commas or semicolons)."""
    text = bounded(text, "traits", max_len=1000)
    return frozenset(fold_ident(p) for p in re.split(r"[,;]+", text) if p.strip())


@dataclass(frozen=True, slots=True)
class RosterRow:
    """One line of a roster editor, as typed (strings)."""

    name: str
    side: str
    stats: str = ""
    traits: str = ""
    skills: str = ""

    def combatant(self) -> Combatant:
        name = self.name.strip()
        if not name:
            raise EscarmoucheError(
                f"nom = {shown(self.name)} : chaque combattant doit avoir un nom non vide "
                "(CORE-ERR)",
                field="name", value=self.name, rule="CORE-ERR",
            )
        return Combatant(
            name,
            self.side.strip(),
            parse_stats(self.stats, name),
            skills=parse_idents(self.skills),
            traits=parse_idents(self.traits),
        )


def build_roster(rows: Sequence[RosterRow]) -> list[Combatant]:
    """The combatants of a roster editor; names must be unique (CORE-ERR)."""
    if not rows:
        raise EscarmoucheError(
            "combattants = [] : ajoutez au moins un combattant (CORE-ERR)",
            field="combattants", value=[], rule="CORE-ERR",
        )
    if len(rows) > MAX_ROSTER:
        raise EscarmoucheError(
            f"combattants = {len(rows)} : au plus {MAX_ROSTER} dans une démonstration "
            "(CORE-ERR)",
            field="combattants", value=len(rows), rule="CORE-ERR",
        )
    out: list[Combatant] = []
    seen: set[str] = set()
    for row in rows:
        c = row.combatant()
        if c.name in seen:
            raise EscarmoucheError(
                f"nom = {shown(c.name)} : deux combattants portent ce nom ; chaque nom doit être "
                "unique (CORE-ERR)",
                field="nom", value=c.name, rule="CORE-ERR",
            )
        seen.add(c.name)
        out.append(c)
    return out


def format_stats(stats: Iterable[tuple[str, int]]) -> str:
    """The inverse of :func:`parse_stats`: ``"HAB=60, DIS=40"``."""
    return ", ".join(f"{k}={v}" for k, v in stats)


def roster_rows(combatants: Iterable[Combatant]) -> list[RosterRow]:
    """Rows for a roster editor from combatants (the inverse of :func:`build_roster`)."""
    return [
        RosterRow(
            c.name, c.side, format_stats(c.stats.items()),
            ", ".join(sorted(c.traits)), ", ".join(sorted(c.skills)),
        )
        for c in combatants
    ]


def _split_top(text: str) -> list[str]:
    """Split on commas and semicolons outside brackets and quotes."""
    parts: list[str] = []
    depth = 0
    quote = ""
    current: list[str] = []
    for ch in text:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth = max(0, depth - 1)
        elif ch in ",;" and depth == 0:
            parts.append("".join(current))
            current = []
            continue
        current.append(ch)
    parts.append("".join(current))
    return [p for p in parts if p.strip()]


def parse_params(text: str) -> dict[str, object]:
    """Action parameters typed as ``"clé=valeur, …"``: integers, « oui »/« non », JSON
    lists or objects (``chemin=[[1, 0], [2, 0]]``), else text."""
    params: dict[str, object] = {}
    text = bounded(text, "paramètres")
    for item in _split_top(text):
        key, sep, raw = item.partition("=")
        key = key.strip()
        if not sep or not re.match(r"^[a-z_][a-z0-9_]*$", key):
            raise EscarmoucheError(
                f"paramètres = {shown(item.strip())} : écrivez « clé=valeur », par exemple "
                "« cible=Grolk, bonus=2 » (CORE-ERR)",
                field="paramètres", value=item.strip(), rule="CORE-ERR",
            )
        value = raw.strip()
        cleaned = value.replace("−", "-")
        if _INT.match(cleaned):
            params[key] = _small_int(cleaned, key, "CORE-ERR")
        elif value.lower() in {"oui", "vrai", "true"}:
            params[key] = True
        elif value.lower() in {"non", "faux", "false"}:
            params[key] = False
        elif value[:1] in "[{":
            # bounded like a save: size, depth, digits (a French error naming the key)
            params[key] = parse_json(value, what=key, max_chars=MAX_INPUT, max_depth=8)
        else:
            params[key] = value
    return params
