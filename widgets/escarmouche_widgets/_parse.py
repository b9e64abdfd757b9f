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
from decimal import Decimal
from typing import Any

from escarmouche import Combatant, checks
from escarmouche.errors import HIDDEN, invalid
from escarmouche.options import Option
from escarmouche.savefile import parse_json
from escarmouche.text.fmt import de, grouped

__all__ = [
    "NumberField",
    "RosterRow",
    "build_roster",
    "parse_dice_list",
    "parse_idents",
    "parse_int",
    "parse_number",
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
#: a number as a French reader types it: a sign (« - », « + » or the minus « − »),
#: digits perhaps grouped by spaces (« 1 000 », any space Unicode knows), and a decimal
#: part after a comma or a point (« 12,5 », « 12.5 »)
_NUMBER = re.compile(r"([+-]?)([0-9]{1,3}(?: [0-9]{3})+|[0-9]+)(?:[.,]([0-9]+))?")
#: the longest number text read (far beyond any bound, short of Python's digit limit)
MAX_NUMBER_TEXT = 100
#: the most digits of an action parameter (the engine's plain values: ``checks.plain_value``)
MAX_PARAM_DIGITS = 30
_STAT_ITEM = re.compile(r"^\s*([A-Za-z][A-Za-z0-9_]*)\s*[=:]?\s*([-+−]?\s*[0-9]+)\s*$")
_INT = re.compile(r"^[-+]?[0-9]+$")
_DIGITS = re.compile(r"^[0-9]+$")


def bounded(text: object, field: str, rule: str = "CORE-ERR", max_len: int = MAX_INPUT) -> str:
    """The text typed in a box, checked before parsing: a string of at most ``max_len``
    characters (a pasted novel gets a French error, not a frozen page)."""
    if not isinstance(text, str):
        raise invalid(field, text, rule, "un texte est attendu")
    if len(text) > max_len:
        raise invalid(field, HIDDEN, rule, f"un texte d’au plus {grouped(max_len)} caractères "
                      f"est attendu, il en a {grouped(len(text))}")
    return text


def _small_int(token: str, field: str, rule: str) -> int:
    if len(token.lstrip("+-")) > MAX_DIGITS:
        raise invalid(field, token[:12] + "…", rule,
                      f"un nombre d’au plus {MAX_DIGITS} chiffres est attendu")
    return int(token)


@dataclass(frozen=True, slots=True)
class NumberField:
    """What a number box accepts, read from a declaration (an option's, a stat's): its
    French ``label``, its one pair of bounds and their ``rule``, whether a ``decimal`` is
    meant, and ``empty``, the meaning of an empty box (« aucun plafond »; ``None``: an
    empty box is refused)."""

    label: str
    lo: int | float
    hi: int | float
    rule: str = "CORE-ERR"
    decimal: bool = False
    empty: str | None = None

    @classmethod
    def of_option(cls, spec: Option) -> NumberField:
        """The box of a declared integer option: its label, bounds and first rule; empty
        when the option may be ``None`` (« vide : aucun plafond »)."""
        if spec.lo is None or spec.hi is None:
            raise invalid("option", spec.key, "CORE-ERR", "cette option n’a pas de bornes "
                          "déclarées", label="option")
        empty = spec.value_label(None) if spec.optional or spec.default is None else None
        return cls(spec.label, spec.lo, spec.hi, spec.rule, empty=empty)

    @property
    def wanted(self) -> str:
        """« un nombre entier entre 0 et 100 est attendu » (« un nombre » for a decimal)."""
        kind = "un nombre" if self.decimal else "un nombre entier"
        return f"{kind} entre {grouped(self.lo)} et {grouped(self.hi)} est attendu"


def parse_number(text: object, field: NumberField) -> int | float | None:
    """A number typed in a box, read as a French reader writes it, checked against the
    field's one pair of bounds: « 12 », « −3 », « 1 000 »; « 12,5 » or « 12.5 » where a
    decimal is meant. Never clamped: a value out of bounds, a decimal where a whole
    number is expected, or text is refused, saying the value once, the bounds and the
    rule.

    >>> blessures = NumberField("blessures (B)", 0, 1000, "D100-ATK-3")
    >>> parse_number(" 12 ", blessures), parse_number("1 000", blessures)
    (12, 1000)
    >>> parse_number("0,5", NumberField("chance", 0, 1, decimal=True))
    0.5
    >>> try:
    ...     parse_number("12,5", blessures)
    ... except ValueError as err:
    ...     print(err.refusal())  # doctest: +NORMALIZE_WHITESPACE
    Valeur « 12,5 » refusée pour « blessures (B) » : un nombre entier entre 0 et 1 000 est
    attendu, pas un nombre à virgule (D100-ATK-3).
    """
    typed = bounded(text, field.label, field.rule, max_len=MAX_NUMBER_TEXT)
    cleaned = re.sub(r"\s+", " ", typed.strip().replace("−", "-"))
    if not cleaned:
        if field.empty is not None:
            return None
        raise invalid(field.label, HIDDEN, field.rule, f"la case est vide, {field.wanted}",
                      label=field.label)
    found = _NUMBER.fullmatch(cleaned)
    if found is None:
        raise invalid(field.label, typed.strip(), field.rule, field.wanted,
                      label=field.label)
    sign, whole, fraction = found.groups()
    if fraction is not None and not field.decimal:
        raise invalid(field.label, typed.strip(), field.rule,
                      f"{field.wanted}, pas un nombre à virgule", label=field.label)
    digits = whole.replace(" ", "")
    value: int | float = (int(sign + digits) if fraction is None
                          else float(Decimal(f"{sign}{digits}.{fraction}")))
    if not field.lo <= value <= field.hi:
        raise invalid(field.label, value, field.rule, field.wanted, label=field.label)
    return value


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
        raise invalid("dés", HIDDEN, "CORE-RNG", "aucun résultat saisi ; tapez les résultats "
                      "des dés séparés par des virgules ou des espaces, par exemple "
                      "« 37, 4, 12 »", label="dés manuels")
    if len(tokens) > MAX_MANUAL_DICE:
        raise invalid("dés", HIDDEN, "CORE-RNG", f"au plus {grouped(MAX_MANUAL_DICE)} "
                      f"résultats, il y en a {grouped(len(tokens))}", label="dés manuels")
    values: list[int] = []
    for i, token in enumerate(tokens, start=1):
        if not _DIGITS.match(token):
            raise invalid("dés", token, "CORE-RNG", f"le résultat n° {i} n’est pas un nombre "
                          "entier positif ; séparez les résultats par des virgules ou des "
                          "espaces, par exemple « 37, 4, 12 »", label="dés manuels")
        values.append(_small_int(token, "dés manuels", "CORE-RNG"))
    return values


def parse_int(text: str, field: str, lo: int, hi: int, rule: str = "CORE-ERR") -> int:
    """An integer typed in a text box, within ``[lo, hi]`` (:func:`parse_number`)."""
    value = parse_number(text, NumberField(field, lo, hi, rule))
    assert isinstance(value, int)
    return value


def check_range(value: int, field: str, lo: int, hi: int, rule: str = "CORE-ERR") -> int:
    """``value`` itself, or a French error naming the field, the value and the bounds."""
    if not lo <= value <= hi:
        raise invalid(field, value, rule, NumberField(field, lo, hi, rule).wanted,
                      label=field)
    return value


#: a stat typed with a decimal part: « HAB=12.5 », or « HAB=12,5 » (the comma then reads
#: as a separator, the « 5 » as a stray item)
_STAT_DECIMAL = re.compile(r"([A-Za-z][A-Za-z0-9_]*)\s*[=:]?\s*([-+−]?[0-9]+)([.,])([0-9]+)"
                           r"(?=\s*(?:[,;]|$))")


def parse_stats(text: str, who: str = "") -> dict[str, int]:
    """``"HAB=60, DIS 40; init:+2"`` → ``{"HAB": 60, "DIS": 40, "init": 2}``. A stat is a
    whole number: « HAB=12,5 » or « HAB=12.5 » is refused saying so (its bounds are the
    system's, checked by the engine with the stat's rule; no second bound here)."""
    stats: dict[str, int] = {}
    owner = f" {de(who)}" if who else ""
    text = bounded(text, f"caractéristiques{owner}")
    decimal = _STAT_DECIMAL.search(text)
    if decimal is not None:
        key, whole, sep, frac = decimal.groups()
        raise invalid(key, f"{whole}{sep}{frac}", "CORE-ERR", "un nombre entier est attendu, "
                      "pas un nombre à virgule ; séparez les caractéristiques par des "
                      "virgules", label=f"{key}{owner}")
    for item in (p for p in re.split(r"[,;]+", text) if p.strip()):
        parts = item.split()
        # "HAB 60 DIS 40" (spaces only) is split into pairs as well.
        chunks = [item] if len(parts) <= 2 or any(c in item for c in "=:") else [
            " ".join(parts[i:i + 2]) for i in range(0, len(parts), 2)
        ]
        for chunk in chunks:
            match = _STAT_ITEM.match(chunk)
            if match is None:
                raise invalid("caractéristiques", chunk.strip(), "CORE-ERR",
                              "écrivez « NOM=valeur », séparés par des virgules, par exemple "
                              "« HAB=60, DIS=40 »", label=f"caractéristiques{owner}")
            key = match.group(1)
            if key in stats:
                raise invalid("caractéristiques", key, "CORE-ERR", "donnée deux fois",
                              label=f"caractéristiques{owner}")
            # the engine checks the stat's bounds with its rule, one pair per stat
            # (« entre 0 et 100 (RB-INIT-1) »); here only absurd lengths are cut
            digits = re.sub(r"\s", "", match.group(2)).replace("−", "-")
            if len(digits) > MAX_NUMBER_TEXT:
                raise invalid(key, HIDDEN, "CORE-ERR", f"un nombre d’au plus "
                              f"{MAX_NUMBER_TEXT} chiffres est attendu", label=f"{key}{owner}")
            stats[key] = int(digits)
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

    def combatant(self, system: Any = None) -> Combatant:
        """The combatant typed on this line; with a ``system`` (a name or a
        :class:`~escarmouche.systems.base.System`), each stat it declares
        (``System.stat_bounds``) is checked against its bounds and rule first, so a
        value out of bounds meets that one pair of bounds, whatever its size."""
        name = self.name.strip()
        if not name:
            raise invalid("nom", self.name, "CORE-ERR",
                          "chaque combattant doit avoir un nom non vide")
        stats = parse_stats(self.stats, name)
        if system is not None:
            from escarmouche import systems

            bounds = systems.get(system).stat_bounds
            for key, value in stats.items():
                if key in bounds:
                    lo, hi, rule = bounds[key]
                    checks.integer(key, value, lo=lo, hi=hi, rule=rule, who=name)
        return Combatant(
            name,
            self.side.strip(),
            stats,
            skills=parse_idents(self.skills),
            traits=parse_idents(self.traits),
        )


def build_roster(rows: Sequence[RosterRow], system: Any = None) -> list[Combatant]:
    """The combatants of a roster editor; names must be unique (CORE-ERR); with a
    ``system``, the stats it declares are checked against their bounds
    (:meth:`RosterRow.combatant`)."""
    if not rows:
        raise invalid("combattants", HIDDEN, "CORE-ERR", "ajoutez au moins un combattant")
    if len(rows) > MAX_ROSTER:
        raise invalid("combattants", HIDDEN, "CORE-ERR", f"au plus {MAX_ROSTER} dans une "
                      f"démonstration, il y en a {len(rows)}")
    out: list[Combatant] = []
    seen: set[str] = set()
    for row in rows:
        c = row.combatant(system)
        if c.name in seen:
            raise invalid("nom", c.name, "CORE-ERR", "deux combattants portent ce nom ; "
                          "chaque nom doit être unique")
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
            raise invalid("paramètres", item.strip(), "CORE-ERR", "écrivez « clé=valeur », "
                          "par exemple « cible=Grolk, bonus=2 »")
        value = raw.strip()
        cleaned = value.replace("−", "-")
        if _INT.match(cleaned):
            # read whole: the action checks its parameter against its own bounds and rule
            # (« bonus … entre −40 et 40 »); only what no rule could read is cut here, as
            # the engine's plain values are (at most 30 digits, CORE-ERR)
            if len(cleaned.lstrip("+-")) > MAX_PARAM_DIGITS:
                raise invalid(key, HIDDEN, "CORE-ERR", f"un nombre d’au plus "
                              f"{MAX_PARAM_DIGITS} chiffres est attendu")
            params[key] = int(cleaned)
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
