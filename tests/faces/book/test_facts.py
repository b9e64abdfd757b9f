"""Prose cannot go stale (book/concepteurs.md): the book's numbers from the engine are
substitutions.

``book/_ext/escarmouche_facts.py`` fills ``{{ name }}`` from the engine at build time.
These tests fail when a page uses an unknown name, when a fact does not follow the
engine (its value does not change with the engine's default), or when a page writes a
fact's value as a literal in one of the known phrasings instead of the substitution.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from book._ext import escarmouche_facts as facts_ext
from escarmouche import systems
from tests.helpers.editions import other_value
from tests.helpers import ROOT


#: the pages a reader reads: MyST twins of the notebooks and the plain Markdown pages
#: (the generated pages of book/editions/ quote the values of past editions on purpose)
PAGES = sorted(p for p in [*ROOT.glob("book_src/**/*.md"), *ROOT.glob("book/**/*.md")]
               if p.parent != ROOT / "book" / "editions"
               and not any(part.startswith(("_", ".")) for part in p.relative_to(ROOT).parts))
_CODE = re.compile(r"^```\{code-cell\}.*?^```", re.S | re.M)


def _prose(path: Path) -> str:
    """The page without its code cells (code reads the engine itself)."""
    return _CODE.sub("", path.read_text(encoding="utf-8"))


def test_every_substitution_is_a_fact() -> None:
    unknown = [(p.relative_to(ROOT).as_posix(), name) for p in PAGES
               for name in facts_ext.names_used(p.read_text(encoding="utf-8"))
               if name not in facts_ext.FACTS]
    assert unknown == []


def test_facts_are_used() -> None:
    """A fact that no page uses is dead weight (or a page lost its substitution)."""
    used = {name for p in PAGES for name in facts_ext.names_used(p.read_text("utf-8"))}
    assert sorted(set(facts_ext.FACTS) - used) == []


def test_every_fact_reads_as_french_text() -> None:
    for name, value in facts_ext.facts().items():
        assert value and "{{" not in value, name
        assert "'" not in value and "_" not in value.replace("1d6", ""), (name, value)


@pytest.mark.parametrize(("system", "option", "fact"), [
    ("rulebook", "crit_success_max", "rb_crit_success_max"),
    ("rulebook", "crit_failure_min", "rb_crit_failure_min"),
    ("rulebook", "surprise_aggregate", "rb_surprise_aggregate"),
    ("d100", "off_hand_modifier", "d100_off_hand"),
    ("d100", "drop_step", "d100_drop_step"),
    ("d100", "parries_per_round", "d100_parries_per_round"),
    ("d100", "parries_per_round", "d100_parries_only"),
    ("d100", "dodges_per_round", "d100_dodges_only"),
    ("d20", "save_target", "d20_save_target"),
    ("d20", "immediate_reset", "d20_immediate_reset"),
])
def test_facts_follow_the_engine_default(monkeypatch: pytest.MonkeyPatch, system: str,
                                         option: str, fact: str) -> None:
    """RB-D100-1, D100-ATK-5, D100-JUMP-1, D100-PARRY-3, D100-DODGE-2, D20-END-1,
    D20-IMM-1: a changed default reaches the prose (the fact is read from the engine's
    default rules, not copied), whatever the default of the current edition; rules given
    by argument (a previous edition's) are read the same way, the registry left alone."""
    before = facts_ext.facts()[fact]
    target = systems.get(system)
    spec = target.option(option)
    changed = other_value(spec, getattr(target.default_rules(), option))
    rules = dataclasses.replace(target.default_rules(), **{option: changed})
    given = facts_ext.facts({system: rules})[fact]
    assert given != before
    assert facts_ext.facts()[fact] == before  # the engine's defaults untouched
    monkeypatch.setattr(target, "default_rules", lambda: rules)
    after = facts_ext.facts()[fact]
    assert after == given


def test_a_count_reads_as_prose_d100_parry_3() -> None:
    """D100-PARRY-3, D100-DODGE-2: the limit per round is written in words, agreed and
    elided as French writes it, whatever the default."""
    assert facts_ext._only(1, "parade") == "qu’une parade"
    assert facts_ext._only(2, "parade") == "que deux parades"
    assert facts_ext._only(0, "esquive") == "aucune esquive"
    assert facts_ext.facts()["d100_parries_only"] == facts_ext._only(
        systems.get("d100").default_rules().parries_per_round, "parade")


def test_substitute_fills_known_names_only() -> None:
    text = "critique de 1 à {{ rb_crit_success_max }}, {{ inconnu }}"
    filled = facts_ext.substitute(text)
    assert "{{ rb_crit_success_max }}" not in filled
    assert facts_ext.facts()["rb_crit_success_max"] in filled
    assert "{{ inconnu }}" in filled


#: an option of the engine named with its default as a number: « `Rules.x` (défaut 5) »,
#: « `Rules.x` (3 m) », « `Rules.y` (1 par défaut) »
_OPTION_DEFAULT = re.compile(r"`Rules\.\w+`\s*\((?:défaut\W*)?[−+-]?\d")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_option_default_written_by_hand(page: Path) -> None:
    """An option's default stated next to its name comes from the engine (``{{ }}``)."""
    assert _OPTION_DEFAULT.findall(_prose(page)) == []


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_engine_value_written_by_hand(page: Path) -> None:
    """The prose states no fact's value as a literal in a known phrasing: it uses the
    substitution, so it cannot drift from the engine."""
    prose = _prose(page)
    found = [(name, m.group(0)) for name, patterns in facts_ext.phrasing_patterns().items()
             for pattern in patterns for m in pattern.finditer(prose)]
    assert found == [], f"valeurs écrites à la main au lieu de {{{{ nom }}}} : {found}"
