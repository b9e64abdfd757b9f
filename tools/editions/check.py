"""Edition files checked at the door, against the repository they belong to.

:func:`~escarmouche.editions.data.load_edition` checks a file on its own: the schema,
the system, the option's French key and the values the declaration accepts. What only
the repository knows is checked here, before anything is written:

- every rule ID a change names is a rule of ``spec/RULES.md`` (or of the previous
  edition, for a rule the change removes), and an unknown one names the nearest known;
- an option change's ``avant`` is the previous edition's default, and its ``apres`` is
  the default of the edition it belongs to (its snapshot once published, the engine
  before that): a page never says « 5 → 150 » while the frozen rules say 8;
- a change the drafting tool flagged (``marque``) has been re-read before publishing;
- the summary and every change's text are the designer's before publishing, not the
  placeholders the drafting tool writes (« À rédiger… », « Texte de D12-INIT-5
  révisé. »).

Each fault is a French :class:`~escarmouche.errors.SaveError` that names the file, the
line and the field (CORE-ERR).

>>> edition = parse_edition({"format": 3, "numero": 2, "date": "2027-01-15",
...     "resume": "x", "changements": [{"nature": "regle-revisee",
...     "regles": ["D100-PARY-2"], "texte": "y"}]})
>>> try:
...     check_edition(edition, known_rules={"D100-PARRY-2"}, source="2.toml",
...                   lines={"changements[0].regles": 9})
... except ValueError as err:
...     print(err.field, "|", str(err).split("\u202f; ")[-1])
changements[0].regles[0] | vouliez-vous dire « D100-PARRY-2 » ? (CORE-ERR).
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Collection, Mapping
from pathlib import Path

from escarmouche import filecheck
from escarmouche.editions.data import (
    FLAG_WORDS,
    FLAGS,
    NONE_WORD,
    SUMMARY_PLACEHOLDER,
    Change,
    Edition,
    Snapshot,
    file_key,
    load_edition,
    option_changes,
    parse_edition,
    parse_rules_text,
)
from escarmouche.errors import SaveError, invalid
from escarmouche.model import Json
from escarmouche.text.fmt import quote

__all__ = ["check_edition", "check_repository", "engine_name", "generated_text",
           "known_rules", "parse_edition"]


def known_rules(root: Path) -> set[str] | None:
    """The rule IDs of ``root/spec/RULES.md`` (``None`` when the repository has none)."""
    path = root / "spec" / "RULES.md"
    if not path.is_file():
        return None
    return set(parse_rules_text(path.read_text(encoding="utf-8")))


def _fault(source: str, lines: Mapping[str, int], field: str, value: object,
           why: str) -> SaveError:
    plain = invalid(field, value, "CORE-ERR", why, kind=SaveError)
    line = filecheck.line_of(lines, field)
    where = f"{source}, ligne {line}" if line is not None else source
    return SaveError(f"{where} — {plain}", field=field, value=value, rule="CORE-ERR")


def _plain(value: Json) -> Json:
    """A value as the snapshots keep it (``« aucune »`` is TOML's ``None``; JSON numbers
    compare by value)."""
    if value == NONE_WORD:
        return None
    loaded: Json = json.loads(json.dumps(value))
    return loaded


def engine_name(system: str, key: str) -> str | None:
    """The engine name of ``system``'s option ``key`` (its French key or its engine
    name), ``None`` when this engine does not know it."""
    from escarmouche.errors import EscarmoucheError
    from escarmouche.systems import get

    try:
        return get(system).option(key).name
    except EscarmoucheError:
        return None


def check_edition(edition: Edition, *, known_rules: Collection[str] | None = None,
                  before: Snapshot | None = None,
                  after: Mapping[str, Mapping[str, Json]] | None = None,
                  source: str = "édition", lines: Mapping[str, int] | None = None,
                  publishing: bool = False) -> None:
    """Check ``edition`` against its repository (see the module docstring): the rule IDs
    (``known_rules``, with those of ``before`` for removed rules), the option values
    before (``before``: the previous edition's snapshot) and after (``after``: the rules
    this edition publishes, by system and engine name); with ``publishing``, no change
    may still carry a ``flag``. Raises the first fault, located in ``source``."""
    lines = lines or {}
    known = set(known_rules or ()) | set(before.texts if before else ())
    for i, change in enumerate(edition.changes):
        where = f"{file_key('changes', edition.format)}[{i}]"
        if known_rules is not None:
            for j, rule in enumerate(change.rules):
                if rule in known:
                    continue
                close = difflib.get_close_matches(rule, sorted(known), n=1, cutoff=0.75)
                hint = f" ; vouliez-vous dire {quote(close[0])} ?" if close else ""
                raise _fault(source, lines,
                             f"{where}.{file_key('rules', edition.format)}[{j}]", rule,
                             f"règle inconnue de spec/RULES.md{hint}")
        if change.kind == "option-default" and change.system and change.option:
            _check_values(change, where, before, after, source, lines, edition.format)
        if publishing and change.flag:
            flag = file_key("flag", edition.format)
            word = FLAG_WORDS[change.flag] if edition.format >= 3 else change.flag
            raise _fault(source, lines, f"{where}.{flag}", word,
                         f"{FLAGS[change.flag]} ; relisez ce changement, puis retirez "
                         f"sa ligne « {flag} » (ou le changement entier) avant de publier")
    if publishing:
        _check_written(edition, source, lines)


def _check_written(edition: Edition, source: str, lines: Mapping[str, int]) -> None:
    """The summary and each change's text are the designer's, not a placeholder."""
    why = "c’est le texte que l’outil a écrit à votre place ; "
    if edition.summary.strip() == SUMMARY_PLACEHOLDER:
        raise _fault(source, lines, file_key("summary", edition.format), edition.summary,
                     why + "rédigez le résumé de l’édition avant de publier")
    for i, change in enumerate(edition.changes):
        if generated_text(change):
            where = f"{file_key('changes', edition.format)}[{i}]"
            raise _fault(source, lines, f"{where}.{file_key('text', edition.format)}",
                         change.text.strip(),
                         why + "dites au lecteur ce qui change, et pourquoi, avant de "
                         "publier")


def generated_text(change: Change) -> bool:
    """Whether ``change``'s text is the placeholder the drafting tool writes for it
    (« Nouvelle règle X. », « Texte de X révisé. », « La règle X est retirée. », or the
    generated sentence of an option change): nothing the designer wrote.

    >>> generated_text(Change("revised-rule", ("D12-INIT-5",), "Texte de D12-INIT-5 révisé."))
    True
    >>> generated_text(Change("revised-rule", ("D12-INIT-5",), "L’environnement joue."))
    False
    """
    text = change.text.strip()
    if change.kind != "option-default" or not (change.system and change.option):
        return any(text in (f"Nouvelle règle {r}.", f"Texte de {r} révisé.",
                            f"La règle {r} est retirée.") for r in change.rules[:1])
    name = engine_name(change.system, change.option)
    if name is None:
        return False
    values = [None if v == NONE_WORD else v for v in (change.before, change.after)]
    before = {} if change.before is None else {change.system: {name: values[0]}}
    again = option_changes(before, {change.system: {name: values[1]}})
    return bool(again) and again[0].text == text


def _check_values(change: Change, where: str, before: Snapshot | None,
                  after: Mapping[str, Mapping[str, Json]] | None, source: str,
                  lines: Mapping[str, int], number: int = 3) -> None:
    assert change.system and change.option
    name = engine_name(change.system, change.option)
    if name is None or change.flag == "no-longer-applies":
        return
    if before is not None:
        old = before.rules.get(change.system, {})
        expected = old.get(name)
        if name in old and _plain(change.before) != expected:
            raise _fault(source, lines, f"{where}.{file_key('before', number)}",
                         change.before,
                         f"l’édition précédente jouait {_shown(expected)} pour l’option "
                         f"{quote(change.option)}")
    if after is not None and name in after.get(change.system, {}):
        expected = after[change.system][name]
        if _plain(change.after) != expected:
            raise _fault(source, lines, f"{where}.{file_key('after', number)}",
                         change.after,
                         f"cette édition joue {_shown(expected)} pour l’option "
                         f"{quote(change.option)} ; changez la valeur par défaut dans le "
                         "moteur (la déclaration de l’option), puis relancez "
                         "make edition")


def _shown(value: Json) -> str:
    return NONE_WORD if value is None else filecheck.shown(value)


def check_repository(root: Path, *, publishing: bool = False, draft_after: bool = True
                     ) -> dict[int, Edition]:
    """Every edition of ``root``, each checked against the repository: the rule IDs of
    ``spec/RULES.md``, the previous edition's snapshot and its own (or the engine now for
    the draft; not with ``draft_after=False``, for a draft about to be redrafted).
    Raises the first fault; writes nothing."""
    from escarmouche.editions.data import current_rules
    from escarmouche.editions.repo import edition_files, snapshot

    rules = known_rules(root)
    out: dict[int, Edition] = {}
    engine: dict[str, dict[str, Json]] | None = None
    files = edition_files(root)
    for number, path in sorted(files.items()):
        edition = load_edition(path)
        text = path.read_text(encoding="utf-8")
        mine = snapshot(root, number)
        if mine is None and engine is None and draft_after:
            engine = current_rules()
        check_edition(edition, known_rules=rules,
                      before=snapshot(root, number - 1) if number > 1 else None,
                      after=mine.rules if mine is not None else engine,
                      source=path.name, lines=filecheck.line_map(text),
                      publishing=publishing and number == max(files))
        out[number] = edition
    return out
