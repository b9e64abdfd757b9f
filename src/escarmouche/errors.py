"""The error types of the engine (RULES.md CORE-ERR).

Every invalid input raises :class:`EscarmoucheError` (a :class:`ValueError`), with a
French message that names the field, the bad value and the rule ID. There is one
subclass per *kind* of refusal, the same in every system:

============================  ===============================================================
:class:`ParameterError`       a value of the wrong type, shape or range (an argument, an
                              action parameter, a stat, an option): « ce n’est pas une
                              valeur possible »
:class:`IllegalActionError`   a well-formed action that the rules forbid *now* (not the
                              actor's turn, no half action left, already parried)
:class:`DiceError`            a malformed or out-of-bounds dice expression (CORE-DICE)
:class:`RuleBoundError`       a documented bound was reached (roll-offs, rerolls, explosions)
:class:`SaveError`            a save file that is not a valid Escarmouche save (CORE-LOG)
:class:`RosterError`          a roster file that cannot be played (line and field named)
============================  ===============================================================

Raise them through :func:`invalid` (or the validators of :mod:`escarmouche.checks`), so
that every message is the same French sentence, one colon, the field named by its French
label and the value said once: « Valeur −3 refusée pour « blessures » : un nombre entier
entre 0 et 1 000 est attendu (D100-ATK-3). »
"""

from __future__ import annotations

import errno
import math
import warnings
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

__all__ = [
    "FIELD_LABELS",
    "FIELD_NOUNS",
    "HIDDEN",
    "DiceError",
    "EscarmoucheError",
    "IllegalActionError",
    "OldNameWarning",
    "ParameterError",
    "RosterError",
    "RuleBoundError",
    "SaveError",
    "field_label",
    "invalid",
    "old_keys",
    "old_name",
    "refused",
    "self_attack",
    "sentence",
    "shown",
]

#: the French label of a field whose engine name is not French as a reader writes it
#: (no accent, underscores): what a refusal shows (:meth:`EscarmoucheError.refusal`)
FIELD_LABELS: dict[str, str] = {
    "elan": "élan", "ligne_de_vue": "ligne de vue", "cible_engagee": "cible engagée",
    "tireur_engage": "tireur engagé", "deplacement": "déplacement", "degats": "dégâts",
    "des": "dés", "portee": "portée", "defense": "défense", "avec_deplacement":
    "avec déplacement", "etapes": "étapes", "duree": "durée", "declencheur": "déclencheur",
    "hauteur": "hauteur", "modificateur": "modificateur du MJ", "main": "main",
    "acteur": "acteur", "combat": "combat", "cible": "cible", "action": "action",
    "piste": "piste", "vitesse": "vitesse", "chemin": "chemin", "case": "case",
    "eclat": "éclat", "eclat_max": "éclat maximal", "surprise_par": "surprise par",
    "non_avertis": "non avertis", "variante_degats": "variante de dégâts",
    "avantage": "avantage", "caracteristiques": "caractéristiques",
    "competences": "compétences", "systeme": "système", "depart": "départ",
    "action_points": "points d’action", "unaware": "non avertis",
    "environment": "environnement", "stat": "caractéristique", "surprise_by": "surprise par",
    "embuscade_par": "embuscade par", "visee": "visée",
}


#: fields a refusal names as the thing refused rather than as a box: « Action « viser »
#: refusée : … » reads better than « Valeur « viser » refusée pour « action » : … »
#: (the noun, and whether it is feminine, for the agreement of « refusé »)
FIELD_NOUNS: dict[str, tuple[str, bool]] = {
    "action": ("action", True), "acteur": ("acteur", False), "cible": ("cible", True),
    "par": ("réaction de", True), "combattant": ("combattant", False),
    "camp": ("camp", False), "système": ("système", False), "option": ("option", True),
    "paramètre": ("paramètre", False), "trait": ("trait", False),
    "defense": ("défense", True), "défense": ("défense", True), "elan": ("élan", False),
}


def field_label(field: str) -> str:
    """A field as a reader reads it: its French label, else the name with spaces.

    >>> field_label("ligne_de_vue"), field_label("elan"), field_label("PV")
    ('ligne de vue', 'élan', 'PV')
    """
    return FIELD_LABELS.get(field, field.replace("_", " "))


class EscarmoucheError(ValueError):
    """Invalid input for the engine.

    ``field``, ``value`` and ``rule`` are kept as attributes so that widgets and tests can
    read them; the message (``str(err)``) is French and ready to show to a user.
    """

    def __init__(
        self,
        message: str | Callable[[], str],
        *,
        field: str | None = None,
        value: object = None,
        rule: str | None = None,
        why: str | None = None,
        label: str | None = None,
    ) -> None:
        self.field = field
        self.value = value
        self.rule = rule
        #: the reason alone (« un nombre entier … est attendu »), when the message was
        #: made by :func:`invalid`: :meth:`refusal` rebuilds it with a caller's label
        self.why = why
        #: the French label the message names the field by
        self.label = label
        # ``message`` may be a function that makes it (:func:`invalid`): the rules refuse
        # many moves while automated play looks for legal ones, and a refusal nobody
        # reads is never written out
        self._make: Callable[[], str] | None = None
        self._text: str | None = None
        if callable(message):
            self._make = message
            super().__init__()
        else:
            super().__init__(self._typeset(message))

    def _typeset(self, message: str) -> str:
        parts = [message]
        if self.rule and self.rule not in message:
            parts.append(f"[{self.rule}]")
        # French typography once, when the message is made (escarmouche.text.typo;
        # imported here: the render package imports this module).
        from escarmouche.text.typo import typographie

        self._text = typographie(" ".join(parts))
        return self._text

    @property
    def message(self) -> str:
        """The French message (made on first reading)."""
        if self._text is None:
            assert self._make is not None
            self.args = (self._typeset(self._make()),)
            self._make = None
        assert self._text is not None
        return self._text

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.message!r})"

    def again(self) -> EscarmoucheError:
        """A new error of the same kind, with the same message, field, value and rule
        (to raise a refusal kept from an earlier, identical question)."""
        message = self._make if self._make is not None else self.message
        out = type(self).__new__(type(self))
        out.__dict__.update(self.__dict__)
        EscarmoucheError.__init__(out, message, field=self.field, value=self.value,
                                  rule=self.rule, why=self.why, label=self.label)
        return out

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled with its message written out (it crosses process boundaries)."""
        text = self.message
        return (type(self), (text,), {k: v for k, v in self.__dict__.items()
                                      if k != "_make"})

    def refusal(self, labels: Mapping[str, str] | None = None) -> str:
        """The refusal as a reader reads it: the message, one sentence naming the field
        by its French label, with the label ``labels`` gives the field when the caller
        knows a better one (a system's options by their engine name or key).

        >>> print(invalid("ligne_de_vue", False, "D100-RANGED-3", "il faut voir sa cible"
        ...               ).refusal())
        Valeur « non » refusée pour « ligne de vue » : il faut voir sa cible (D100-RANGED-3).
        >>> print(invalid("bonus", 9, "X-1", "trop grand").refusal({"bonus": "bonus d’attaque"}))
        Valeur 9 refusée pour « bonus d’attaque » : trop grand (X-1).
        """
        from escarmouche.text.typo import typographie

        label = (labels or {}).get(self.field or "")
        if label and self.why is not None and self.field is not None:
            return str(invalid(self.field, self.value, self.rule or "CORE-ERR", self.why,
                               label=label))
        return typographie(sentence(str(self)))


class ParameterError(EscarmoucheError):
    """A value of the wrong type, shape or range (argument, parameter, stat, option)."""


class IllegalActionError(EscarmoucheError):
    """A well-formed action that the rules forbid at this point of the fight."""


class DiceError(EscarmoucheError):
    """A malformed or out-of-bounds dice expression (CORE-DICE)."""


class RuleBoundError(EscarmoucheError):
    """A documented bound was reached (roll-offs, rerolls, explosions)."""


class SaveError(EscarmoucheError):
    """A save file that is not a valid Escarmouche save (CORE-LOG)."""


class RosterError(EscarmoucheError):
    """A roster file (an encounter described in TOML) that cannot be played: the message
    names the line and the field (``escarmouche.roster``)."""

    def __init__(self, message: str | Callable[[], str], *, field: str | None = None,
                 value: object = None, rule: str | None = None, line: int | None = None,
                 why: str | None = None, label: str | None = None) -> None:
        self.line = line
        super().__init__(message, field=field, value=value, rule=rule, why=why, label=label)


class OldNameWarning(DeprecationWarning):
    """An old name still read: an option value or a file key renamed in French. The
    value or key is accepted and converted; the French note names the new one
    (« Valeur « weakest » de l’option « valeur_groupe_surprise » : ancien nom, lu comme
    « plus_faible » ; écrivez désormais « plus_faible » (RB-SURPRISE-2). »).

    Its attributes say what was read: ``field`` (the option's French key or the file's
    key), ``old``, ``new`` and ``rule``. Being a :class:`DeprecationWarning`, it is not
    an error; ``warnings.simplefilter("error", OldNameWarning)`` makes it one, to find
    old names in a collection of files. Python shows it where a
    :class:`DeprecationWarning` shows (a notebook, a script's own calls, the tests);
    the command line always says it, as « escarmouche : note : … »
    (:mod:`escarmouche.cli`).
    """

    def __init__(self, message: str, *, field: str, old: object, new: object,
                 rule: str) -> None:
        super().__init__(message)
        self.field, self.old, self.new, self.rule = field, old, new, rule



def old_name(field: str, old: object, new: object, rule: str, *, what: str = "valeur",
             where: str = "", stacklevel: int = 3) -> None:
    """Warn (:class:`OldNameWarning`) that ``old``, read for ``field``, is an old name of
    ``new``: a French note naming the new one. ``what`` is ``"valeur"`` (an option value)
    or ``"clé"`` (a file key ``field``, ``old`` and ``new`` being the old and the new
    spelling, such as ``"version = 1"`` and ``"format = 2"``); ``where`` names the
    file.

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as seen:
    ...     warnings.simplefilter("always")
    ...     old_name("valeur_groupe_surprise", "weakest", "plus_faible", "RB-SURPRISE-2")
    >>> print(seen[0].message)  # doctest: +NORMALIZE_WHITESPACE
    Valeur « weakest » de l’option « valeur_groupe_surprise » : ancien nom, lu comme
    « plus_faible » ; écrivez désormais « plus_faible » (RB-SURPRISE-2).
    >>> with warnings.catch_warnings(record=True) as seen:
    ...     warnings.simplefilter("always")
    ...     old_name("version", "version = 1", "format = 2", "CORE-ERR", what="clé",
    ...              where="duel.toml")
    >>> print(seen[0].message)  # doctest: +NORMALIZE_WHITESPACE
    duel.toml, clé « version » : ancien nom, lu comme « format = 2 » ; écrivez désormais
    « format = 2 » (CORE-ERR).
    """
    if what == "clé":
        head = f"{where}, clé « {field} »" if where else f"Clé « {field} »"
    else:
        head = (f"Valeur « {old} » de l’option « {field} »" if not where
                else f"{where}, option « {field} », valeur « {old} »")
    # the spaces of a refusal: the typography pass of each face makes them no-break
    message = (f"{head} : ancien nom, lu comme « {new} » ; écrivez désormais "
               f"« {new} » ({rule}).")
    warnings.warn(OldNameWarning(message, field=field, old=old, new=new, rule=rule),
                  stacklevel=stacklevel)


def old_keys(where: str, old_format: int, new_format: int, renamed: Mapping[str, str],
             rule: str, *, stacklevel: int = 3) -> None:
    """Warn (:class:`OldNameWarning`) that the file ``where``, of format ``old_format``,
    writes old keys (``renamed``: old → new): one French note that names each new key.

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as seen:
    ...     warnings.simplefilter("always")
    ...     old_keys("2.toml", 2, 3, {"number": "numero", "changes": "changements"},
    ...              "CORE-ERR")
    >>> print(seen[0].message)  # doctest: +NORMALIZE_WHITESPACE
    2.toml, format 2 : anciens noms, lus comme ceux du format 3 (« number » → « numero »,
    « changes » → « changements ») ; écrivez désormais « format = 3 » et les nouveaux noms
    (CORE-ERR).
    """
    pairs = ", ".join(f"« {old} » → « {new} »" for old, new in renamed.items())
    message = (f"{where}, format {old_format} : anciens noms, lus comme ceux du format "
               f"{new_format} ({pairs}) ; écrivez désormais « format = {new_format} » et "
               f"les nouveaux noms ({rule}).")
    warnings.warn(OldNameWarning(message, field="format", old=old_format, new=new_format,
                                 rule=rule), stacklevel=stacklevel)


#: the longest value quoted in a message (a pasted novel is cut, CORE-ERR)
SHOWN_MAX = 60


#: line breaks and tabs in a value shown in a message become spaces
_ONE_LINE = str.maketrans({"\n": " ", "\r": " ", "\t": " ", "\v": " ", "\f": " ",
                           "\x1c": " ", "\x1d": " ", "\x1e": " ", "\x85": " ",
                           "\u2028": " ", "\u2029": " "})


def shown(value: object, _depth: int = 0) -> str:
    """A value as a French reader sees it in a message: text in « », numbers in French,
    ``None`` as « rien », lists and mappings item by item, everything cut short.

    >>> shown("Thorin"), shown(-3), shown(None), shown(True), shown(2.5)
    ('« Thorin »', '−3', 'rien', 'oui', '2,5')
    >>> shown(["a", 1, None]), shown({"PV": 3})
    ('[« a », 1, rien]', '{« PV » → 3}')
    """
    if value is None:
        return "rien"
    if isinstance(value, bool):
        return "oui" if value else "non"
    if isinstance(value, int | float | Fraction):
        from escarmouche.text.fmt import grouped

        if isinstance(value, float) and not math.isfinite(value):
            return "NaN" if math.isnan(value) else ("moins " if value < 0 else "") + "l’infini"
        if abs(value) >= 10**SHOWN_MAX:
            return "un nombre de plus de 60 chiffres"
        return grouped(value, digits=6)
    if isinstance(value, str):
        value = value.translate(_ONE_LINE)  # a message is one line
        text = value if len(value) <= SHOWN_MAX else value[: SHOWN_MAX - 1] + "…"
        return f"« {text} »"
    if _depth < 3 and isinstance(value, list | tuple):
        text = "[" + ", ".join(shown(v, _depth + 1) for v in value[:SHOWN_MAX]) + "]"
    elif _depth < 3 and isinstance(value, dict):
        text = "{" + ", ".join(f"{shown(k, _depth + 1)} → {shown(v, _depth + 1)}"
                               for k, v in list(value.items())[:SHOWN_MAX]) + "}"
    else:
        text = repr(value)
    return text if len(text) <= SHOWN_MAX else text[: SHOWN_MAX - 1] + "…"


def sentence(text: str) -> str:
    """``text`` as a sentence: a capital first letter and a full stop.

    >>> sentence("un texte est attendu (CORE-ERR)")
    'Un texte est attendu (CORE-ERR).'
    """
    text = text.strip()
    if not text:
        return text
    text = text[:1].upper() + text[1:]
    return text if text[-1] in ".!?…" else text + "."


#: a value a message does not show (too big or unreadable to quote)
HIDDEN = "…"


def refused(value: object) -> str:
    """The value as a refusal names it: ``shown``, with « oui »/« non » in quotes (bare,
    « valeur non refusée » would read as « not refused »)."""
    if isinstance(value, bool):
        return f"« {shown(value)} »"
    return shown(value)


def invalid(
    field: str,
    value: object,
    rule: str,
    why: str,
    *,
    kind: type[EscarmoucheError] = ParameterError,
    label: str | None = None,
    display: str | None = None,
) -> EscarmoucheError:
    """The standard French refusal, to ``raise``: one sentence naming the value once,
    the field by its French ``label`` (default :func:`field_label`), why, and the rule,
    « Valeur X refusée pour « champ » : pourquoi (RÈGLE). »

    ``display`` is what the sentence shows instead of ``value`` (kept as the attribute):
    an action known to the engine is named by its French label, never by its id.

    >>> print(invalid("cible", "Grolk", "D100-ATK-1", "aucun combattant de ce nom"))
    Cible « Grolk » refusée : aucun combattant de ce nom (D100-ATK-1).
    >>> print(invalid("arme", 3, "CORE-DICE", "une expression de dés est attendue"))
    Valeur 3 refusée pour « arme » : une expression de dés est attendue (CORE-DICE).
    >>> print(invalid("chemin", HIDDEN, "CORE-ERR", "valeur trop grande"))
    Valeur refusée pour « chemin » : valeur trop grande (CORE-ERR).
    """
    name = label or field_label(field)
    # a list, dict or set is shown as it is now, whatever comes next
    frozen = refused(value) if isinstance(value, list | dict | set) else None

    def sentence_() -> str:
        noun = None if label else FIELD_NOUNS.get(field)
        shown_value = (shown(display) if display is not None
                       else frozen if frozen is not None else refused(value))
        if value is None:
            head = f"Aucune valeur pour « {name} »"
        elif isinstance(value, str) and value == HIDDEN:
            head = f"Valeur refusée pour « {name} »"
        elif noun is not None:
            word, feminine = noun
            head = (f"{word[:1].upper()}{word[1:]} {shown_value} "
                    f"refusé{'e' if feminine else ''}")
        else:
            head = f"Valeur {shown_value} refusée pour « {name} »"
        return f"{head} : {why} ({rule})."

    # made on first reading (automated play asks the rules about many refused moves)
    return kind(sentence_, field=field, value=value, rule=rule, why=why, label=name)


#: the French reason of the operating-system errors a user meets with files
_OS_REASONS: dict[int, str] = {
    errno.ENOENT: "fichier ou dossier introuvable",
    errno.EACCES: "permission refusée",
    errno.EPERM: "opération non permise",
    errno.EISDIR: "c’est un dossier, pas un fichier",
    errno.ENOTDIR: "un élément du chemin n’est pas un dossier",
    errno.ENOSPC: "plus de place sur le disque",
    errno.EROFS: "système de fichiers en lecture seule",
    errno.ENAMETOOLONG: "nom de fichier trop long",
    errno.EEXIST: "le fichier existe déjà",
    errno.EMFILE: "trop de fichiers ouverts",
    errno.EIO: "erreur d’entrée-sortie",
}


def os_reason(err: OSError) -> str:
    """The French reason of an operating-system error (never its English message).

    >>> os_reason(FileNotFoundError(errno.ENOENT, "No such file or directory"))
    'fichier ou dossier introuvable'
    >>> os_reason(OSError(errno.EXDEV, "Invalid cross-device link"))
    'erreur du système (code 18)'
    """
    if err.errno in _OS_REASONS:
        return _OS_REASONS[err.errno]
    return f"erreur du système (code {err.errno})" if err.errno else "erreur du système"


def self_attack(name: str, rule: str) -> EscarmoucheError:
    """The one refusal of a fighter who attacks himself, the same in every system (the
    texts speak of attacking an enemy), to ``raise``.

    >>> print(self_attack("Aube", "RB-ACT-1"))
    Cible « Aube » refusée : un combattant ne s’attaque pas lui-même (RB-ACT-1).
    """
    return invalid("cible", name, rule, "un combattant ne s’attaque pas lui-même",
                   kind=IllegalActionError)
