"""Edition files checked at the door (book/concepteurs.md): every fault of a designer's edition file
is refused in French with the file, the line and the field, before anything is written,
and a designer's text is never dropped. Rule IDs: CORE-ERR (the refusals) and those of
the options the scripted edition changes (D20-END-1, D100-PARRY-3)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
import shutil
from pathlib import Path

import pytest

from escarmouche import systems
from escarmouche.editions.data import Change, Snapshot, load_edition
from tests.helpers import ROOT
from tests.helpers.editions import edition_1_rules, edition_tool, other_value, write_words
from tools.editions.book import book_facts, book_rule_texts
from tools.editions.check import check_repository
from tools.editions.prose import contradictions
from tools.editions.workflow import printed_boxes

TOOL = edition_tool()


def _tree(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` with its content: what « nothing is written » compares."""
    return {p.relative_to(root).as_posix(): p.read_bytes()
            for p in sorted(root.rglob("*")) if p.is_file()}


def _draft(copy: Path) -> Path:
    TOOL.draft(copy, today=dt.date(2027, 1, 15))
    return copy / "editions" / "2.toml"


def _edit(path: Path, old: str, new: str) -> int:
    """Replace ``old`` by ``new`` once in ``path``; the 1-based line of the change."""
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    line = text[: text.index(old)].count("\n") + 1
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return line


@pytest.mark.parametrize(("old", "new", "refused"), [
    ('option = "seuil_sauvegarde"', 'option = "seuil_sauvegard"',
     r"option inconnue du système d20 ; vouliez-vous dire « seuil_sauvegarde » \?"),
    ("apres = 12", "apres = 150",
     r"Valeur 150 refusée pour « changements\[3\]\.apres » .*D20-END-1"),
    ("apres = 12", 'apres = "douze"',
     r"Valeur « douze » refusée pour « changements\[3\]\.apres » .*nombre entier"),
    ('regles = ["D20-EDN-1"]'.replace("EDN", "END"), 'regles = ["D20-EDN-1"]',
     r"Valeur « D20-EDN-1 » refusée pour « changements\[3\]\.regles\[0\] » : règle "
     r"inconnue de spec/RULES\.md ; vouliez-vous dire « D20-END-1 » \?"),
    ("avant = 10", "avant = 11",
     r"Valeur 11 refusée pour « changements\[3\]\.avant » : l’édition précédente jouait 10 "
     r"pour l’option « seuil_sauvegarde »"),
])
def test_a_faulty_edition_file_is_refused_with_file_line_and_field_core_err(
        copy: Path, old: str, new: str, refused: str) -> None:
    """CORE-ERR, D20-END-1: a misspelt option, a value out of bounds or of the wrong type,
    an unknown rule ID, a ``before`` that is not the previous edition's value: each is a
    French error naming the file, the line and the field; ``make edition`` then writes
    nothing (the draft, the pages and the notebooks are as they were)."""
    path = _draft(copy)
    line = _edit(path, old, new)
    before = _tree(copy)
    with pytest.raises(ValueError) as err:
        TOOL.draft(copy, today=dt.date(2027, 1, 16))
    text = " ".join(str(err.value).replace("\u202f", " ").replace("\u00a0", " ").split())
    assert text.startswith(f"2.toml, ligne {line} — "), text
    assert re.search(refused, text), text
    assert _tree(copy) == before
    assert TOOL.main(["--sans-carnets", "--duels", "3"], root=copy) == 1
    assert _tree(copy) == before


def test_publishing_refuses_values_the_engine_does_not_play_core_err(
        copy: Path) -> None:
    """D20-END-1: a draft whose ``after`` is not what the engine plays (« 10 → 150 » while
    the rules say 12) is not published; nothing is frozen."""
    path = _draft(copy)
    # a value the declaration accepts, but not the engine's default
    line = _edit(path, "apres = 12", "apres = 15")
    with pytest.raises(ValueError, match=r"cette édition joue 12") as err:
        TOOL.publish(copy)
    assert str(err.value).startswith(f"2.toml, ligne {line} — ")
    assert not (copy / "editions" / "2").exists()


def test_a_designer_text_is_never_dropped(copy: Path, monkeypatch: pytest.MonkeyPatch
                                         ) -> None:
    """CORE-ERR: a written text survives a redraft. When its change no longer applies
    (the default went back), it is kept and flagged ``no-longer-applies``; when the
    values moved since it was written, it is flagged ``values-changed``; an edition with
    a flag is not published until the designer removes it."""
    from escarmouche import systems

    path = _draft(copy)
    text = path.read_text(encoding="utf-8")
    text = re.sub(r'(option = "seuil_sauvegarde"\n(?:.*\n){2})texte = ".*"',
                  r'\1texte = "Sauvegardes plus difficiles."', text)
    text = re.sub(r'(option = "option_critique"\n(?:.*\n){2})texte = ".*"',
                  r'\1texte = "Le critique explose."', text)
    path.write_text(text, encoding="utf-8")
    d20, d12 = systems.get("d20"), systems.get("d12")
    moved, back = edition_1_rules("d20", {"save_target": 14}), edition_1_rules("d12", {})
    monkeypatch.setattr(d20, "default_rules", lambda: moved)
    monkeypatch.setattr(d12, "default_rules", lambda: back)
    again = TOOL.draft(copy, today=dt.date(2027, 1, 16))
    assert again is not None
    flags = {c.option: (c.text, c.flag) for c in again.changes}
    assert flags["seuil_sauvegarde"] == ("Sauvegardes plus difficiles.", "values-changed")
    assert flags["option_critique"] == ("Le critique explose.", "no-longer-applies")
    written = path.read_text(encoding="utf-8")
    assert "# À relire : ce changement ne s’applique plus" in written.replace("\u00a0", " ")
    assert load_edition(path).changes == again.changes
    with pytest.raises(ValueError, match=r"«\s?valeurs-changees\s?» refusée pour «\s?"
                                         r"changements\[2\]\.marque\s?».*avant de publier"):
        TOOL.publish(copy)
    path.write_text(re.sub(r'(?m)^marque = "valeurs-changees"\n', "", written),
                    encoding="utf-8")
    with pytest.raises(ValueError, match=r"«\s?ne-s-applique-plus\s?» refusée pour "
                                         r"«\s?changements\[3\]\.marque\s?»"):
        TOOL.publish(copy)


def test_the_repository_editions_pass_the_door() -> None:
    """CORE-ERR: every edition of this repository passes the checks, published ones
    against their snapshots."""
    root = ROOT
    assert 1 in check_repository(root)


_TWIN = """---
jupytext:
  text_representation:
    extension: .md
    format_name: myst
kernelspec:
  display_name: Python 3
  language: python
  name: python3
---

# Exemple

```{code-cell} ipython3
print("inchangé")
```

```{code-cell} ipython3
from escarmouche.dice import ScriptedRolls

dice = ScriptedRolls([4])
dice.randint(1, 6), dice.randint(1, 6)
```
"""


def test_make_edition_is_all_or_nothing(copy: Path, capsys: pytest.CaptureFixture[str]
                                        ) -> None:
    """CORE-RNG, CORE-ERR: an example whose scripted dice run out under the new rules
    stops ``make edition`` before anything is written: every notebook runs first in a
    scratch copy, and the French message names the page, the cell, the reason and the
    twin to edit; the repository is as it was (no notebook, no draft, no page)."""
    shutil.rmtree(copy / "book_src")
    (copy / "book_src").mkdir()
    (copy / "book_src" / "exemple.md").write_text(_TWIN, encoding="utf-8")
    (copy / "book" / "autre.ipynb").unlink()
    shutil.copytree(ROOT / "tools", copy / "tools",
                    ignore=shutil.ignore_patterns("__pycache__", "lite"))
    before = _tree(copy)
    assert TOOL.main(["--duels", "3"], root=copy) == 1
    err = capsys.readouterr().err.replace("\u00a0", " ").replace("\u202f", " ")
    assert "ÉCHEC : book/exemple.ipynb, cellule de code n° 2 (« from escarmouche.dice import " \
           "ScriptedRolls »)" in err, err
    assert "plus aucun résultat prévu pour le jet n° 2 (un d6 est demandé" in err, err
    assert "Corrigez cet exemple dans son jumeau book_src/exemple.md." in err
    assert "Rien n’a été écrit" in err
    assert _tree(copy) == before
    assert not (copy / "editions" / "2.toml").exists()

    # fixed, the same command runs every example, then drafts and writes the pages
    (copy / "book_src" / "exemple.md").write_text(
        _TWIN.replace("ScriptedRolls([4])", "ScriptedRolls([4, 2])"), encoding="utf-8")
    assert TOOL.main(["--duels", "3"], root=copy) == 0
    assert "(4, 2)" in (copy / "book" / "exemple.ipynb").read_text(encoding="utf-8")
    assert (copy / "editions" / "2.toml").is_file()
    assert (copy / "book" / "editions" / "edition-2.md").is_file()


def test_the_book_may_not_contradict_its_edition_d100_parry_3(
        copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """D100-PARRY-3: with two parries per round, the rule's statement reads the engine
    (« que deux parades par round »), so the edition publishes; a statement typed by hand
    (« qu’une parade par round ») is a contradiction that stops publishing, and so is an
    example whose text announces a refusal its output no longer shows."""
    import json

    from escarmouche import systems
    from tools.editions.workflow import book_contradictions

    d100 = systems.get("d100")
    two = edition_1_rules("d100", {"parries_per_round": 2})
    monkeypatch.setattr(d100, "default_rules", lambda: two)
    edition = TOOL.draft(copy, today=dt.date(2027, 1, 15))
    assert edition is not None
    assert book_contradictions(copy, edition) == []
    write_words(copy / "editions" / "2.toml")

    page = copy / "book_src" / "d100" / "parade-esquive.md"
    _edit(page, "{{ d100_parries_only }}", "qu’une parade")
    found = book_contradictions(copy, edition)
    assert [c.rule for c in found] == ["D100-PARRY-3"]
    assert "qu’une parade par round" in found[0].reason
    with pytest.raises(SystemExit, match=r"D100-PARRY-3"):
        TOOL.publish(copy)
    _edit(page, "qu’une parade", "{{ d100_parries_only }}")

    # an example that printed a refusal and no longer does, under a text that says it is
    (copy / "editions" / "1" / "outputs.json").write_text(json.dumps(
        {"exemple#1": "Refus, défense « parade » : Grolk a déjà paré 1 fois ce round."}),
        encoding="utf-8")
    nb = json.loads((copy / "book" / "exemple.ipynb").read_text(encoding="utf-8"))
    nb["cells"].insert(0, {"cell_type": "markdown", "metadata": {}, "id": "m000",
                           "source": "Une seconde parade est refusée :"})
    (copy / "book" / "exemple.ipynb").write_text(json.dumps(nb), encoding="utf-8")
    assert [c.rule for c in book_contradictions(copy, edition)] == ["exemple#1"]


_OPTIONS = [(name, o.name) for name in systems.NAMES for o in systems.get(name).options()]


@pytest.mark.parametrize(("system", "option"), _OPTIONS, ids=[f"{s}.{o}" for s, o in _OPTIONS])
def test_no_rule_statement_writes_an_option_value_by_hand(
        monkeypatch: pytest.MonkeyPatch, system: str, option: str) -> None:
    """CORE-ERR, every option's rules: change the option's default and the book's
    statements of its rules, and their « Interprétation retenue » boxes, never still
    write the old value without the new one (they read the engine through ``{{ … }}``),
    so no edition can publish a rule page that contradicts its own change. Options
    without a scalar alternative (a set of traits, a weapon, the action catalogue) have
    nothing to state. The baseline is the last published edition's rules (pinned): the
    book's prose was written for them, whatever the engine's defaults are today."""
    from tests.helpers.editions import published_rules

    target = systems.get(system)
    base = published_rules(system)
    spec = target.option(option)
    value = getattr(base, spec.name)
    other = other_value(spec, value)
    if other is None:
        pytest.skip(f"{system}.{option}: pas de valeur scalaire de remplacement")
    changed = dataclasses.replace(base, **{spec.name: other})
    monkeypatch.setattr(target, "default_rules", lambda: changed)
    texts = book_rule_texts(ROOT, book_facts(ROOT))
    change = Change("option-default", spec.rules, "x", system, spec.key,
                    spec.to_json(value), spec.to_json(other))
    snap = Snapshot({}, texts, {})
    boxes = printed_boxes(ROOT)
    assert [str(c) for c in contradictions(snap, snap, [change], boxes=boxes)] == []


def test_no_rule_statement_names_an_engine_identifier_d20_end_1() -> None:
    """D20-END-1 (B194, spec/relecture-journal.md): a rule's statement, as the book prints it and as
    edition 1 keeps it, is reader text: it may quote a key a reader types (a trait such
    as `init`, an option's key) but no engine name (« `d20.RACIAL_SAVE_BONUSES` »,
    « (`keywords`) » were in D20-END-1's statement). The engine's sentence on the option
    is its own paragraph after the rule."""
    import importlib
    import json

    from escarmouche import Combatant, Effect

    engine: set[str] = set()
    for name in systems.NAMES:
        engine |= {n for n in dir(importlib.import_module(f"escarmouche.systems.{name}"))
                   if not n.startswith("__")}
        engine |= {f.name for f in dataclasses.fields(systems.get(name).default_rules())}
    for cls in (Combatant, Effect):
        engine |= {f.name for f in dataclasses.fields(cls)}
    stored = json.loads((ROOT / "editions" / "1" / "rules-text.json")
                        .read_text(encoding="utf-8"))
    for where, texts in (("book", book_rule_texts(ROOT, book_facts(ROOT))),
                         ("edition 1", stored)):
        bad = {rule: span for rule, text in texts.items()
               for span in re.findall(r"`([^`]+)`", text)
               if "." in span or span in engine}
        assert bad == {}, where
    assert "seuil du jet de sauvegarde" not in stored["D20-END-1"]


def test_an_earlier_edition_s_rules_reach_the_book_by_argument_d100_parry_3() -> None:
    """D100-PARRY-3: the edition tool reads the book under an earlier edition's rules
    (``tools.editions.workflow.quoting``) by giving them to the book's facts: the
    statement reads the value given, and the registry's system is left as it was."""
    d100 = systems.get("d100")
    now = d100.default_rules()
    then = dataclasses.replace(now, parries_per_round=now.parries_per_round + 1)
    given = book_rule_texts(ROOT, book_facts(ROOT, {"d100": then}))["D100-PARRY-3"]
    today = book_rule_texts(ROOT, book_facts(ROOT))["D100-PARRY-3"]
    assert given != today
    assert "default_rules" not in vars(d100)
    assert d100.default_rules() == now
