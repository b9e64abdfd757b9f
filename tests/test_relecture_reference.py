"""The fifth proofreading pass, part C: the reference pages and the editions.

Each test names the entries of ``spec/relecture-journal.md`` it holds (B140–B179, section
« Cinquième passe, part C »). They read what a reader meets: the pages « Le format des
fichiers d’effectifs », « Le format des sauvegardes », « Essai dans le navigateur », and
the edition pages the generator writes (« Ce qui a changé », errata, journal, the page
between two editions).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import fnmatch
import importlib.util
import json
import re
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from escarmouche import systems
from escarmouche.editions.data import Change, Edition, Snapshot
from escarmouche.editions.odds import standard_odds
from escarmouche.editions.page import plain_text, render_span, system_name
from escarmouche.editions.repo import last_published, load_all, snapshot
from escarmouche.editions.sheets import counts, errata_page, journal_page
from tests.test_relecture import stored_outputs

ROOT = Path(__file__).resolve().parent.parent
BOOK = ROOT / "book"
BOOK_SRC = ROOT / "book_src"
EDITIONS = BOOK / "editions"


def _page(name: str) -> str:
    return (BOOK / name).read_text(encoding="utf-8")


def _flat(text: str) -> str:
    """``text`` with its no-break spaces as plain ones and its lines joined (a quote
    in a page is wrapped, and typeset)."""
    text = text.replace("\u00a0", " ").replace("\u202f", " ")
    return " ".join(re.sub(r"^>\s?", "", line) for line in text.splitlines()).strip()


# -- the reference pages -----------------------------------------------------------------


def test_b150_the_roster_format_lists_each_option_as_declared() -> None:
    """B150: the options table of « Le format des fichiers d’effectifs » is every declared
    option, with its file key, its label and its rules (it had four labels and a rule ID
    of its own, and lacked d12's ``actions``)."""
    page = _page("format-effectifs.md")
    rows = re.findall(r"^\| (rulebook|d100|d12|d20) \| `([^`]+)` \| (.+) \|$", page, re.M)
    want = [(name, o.key, o.label + (f" ({', '.join(o.rules)})" if o.rules else ""))
            for name in systems.available() for o in systems.get(name).options()]
    assert rows == want


def test_b151_the_roster_format_quotes_the_refusal_the_engine_writes(tmp_path: Path
                                                                      ) -> None:
    """B151: the refusal quoted under « Le schéma et les erreurs » is the one the engine
    writes for the page's own example with CC = 400 (it quoted the old « champ = valeur :
    » shape, and line 27 for line 25)."""
    from escarmouche.roster import load_roster

    page = _page("format-effectifs.md")
    example = re.search(r"```toml\n(.*?)```", page, re.S)
    assert example is not None
    path = tmp_path / "duel.toml"
    path.write_text(example.group(1).replace("CC = 40,", "CC = 400,"), encoding="utf-8")
    with pytest.raises(ValueError) as err:
        load_roster(path)
    quote = re.search(r"\n((?:> .*\n)+)", page.split("## Le schéma et les erreurs")[1])
    assert quote is not None
    assert _flat(quote.group(1)) == _flat(str(err.value))


def test_b152_the_roster_format_names_the_simulation_variant_key() -> None:
    """B152: a Rulebook fighter declares the damage of the simulation's automatic hit
    (``variante_degats``, RB-END-2's boxed variant); the roster format page did not say
    so, and called it nowhere a variant."""
    page = " ".join(_page("format-effectifs.md").split())
    assert "`variante_degats = N`" in page
    assert "variante hors texte" in page


def test_b153_the_save_format_lists_every_field_of_its_schema() -> None:
    """B153: « Le format des sauvegardes » names every field a save must hold (it left
    out ``started``, ``finished`` and ``outcome``)."""
    schema = json.loads((ROOT / "src" / "escarmouche" / "schemas" / "save-1.schema.json")
                        .read_text(encoding="utf-8"))
    table = _page("format-sauvegarde.md").split("## Ce que contient une sauvegarde")[1]
    named = set(re.findall(r"`([a-z_]+)`", table.split("## ")[0]))
    assert set(schema["required"]) <= named, set(schema["required"]) - named


def test_b151_the_save_format_quotes_the_refusal_the_engine_writes() -> None:
    """B151 (the same check on the other format page, which was right): the refusal the
    save page quotes is still the engine's, word for word."""
    from escarmouche.encounter import Encounter
    from escarmouche.roster import load_roster

    fight = load_roster(ROOT / "src" / "escarmouche" / "rosters" / "d12-duel.toml").encounter()
    data = json.loads(fight.to_json())
    data["fighters"][1]["combatant"]["stats"]["PV"] = "dix"
    with pytest.raises(ValueError) as err:
        Encounter.from_json(json.dumps(data))
    page = _page("format-sauvegarde.md")
    quote = re.search(r"\n((?:> .*\n)+)", page.split("## Ce que le moteur vérifie")[1])
    assert quote is not None
    assert _flat(quote.group(1)) == _flat(str(err.value))


def test_b154_the_browser_check_prints_sentences_not_python() -> None:
    """B154: « Essai dans le navigateur » prints its dice as French (« 2, 4, 6, 1 et 1 »),
    not a Python list, and names no module; B159: its slider's sentence is typeset."""
    texts = [text for _, kind, text in stored_outputs(BOOK / "essai-navigateur.ipynb")
             if kind == "stream"]
    assert texts, "the page prints nothing"
    for text in texts:
        assert not re.search(r"\[\d", text), text
        assert "escarmouche" not in text.replace("Version du moteur", ""), text
    assert any(" et " in text for text in texts)
    # B159: the slider's sentence is typeset too (a no-break space before its colon)
    twin = (ROOT / "book_src" / "essai-navigateur.md").read_text(encoding="utf-8")
    assert "<b>{seuil}</b>\\u00a0: un d100" in twin


def test_b155_no_page_says_jupyterlite_needs_neither_server_nor_network() -> None:
    """B155: the full notebook (JupyterLite) is not kept on the device, so no page or
    button says it runs « sans serveur ni réseau » (the browser check said so, then, at
    its foot, that it needs the network)."""
    sources = [BOOK / "_ext" / "escarmouche_jupyterlite.py",
               ROOT / "book_src" / "essai-navigateur.md"]
    for path in sources:
        text = " ".join(path.read_text(encoding="utf-8").split())
        assert "sans serveur ni réseau" not in text, path.name
        assert "sans serveur ni" not in text.replace('" "', " "), path.name


def test_b156_a_box_title_is_never_a_plural_noun_on_the_plain_pages() -> None:
    """B156 (B59 on the pages B59 did not read): « les options des « Interprétation
    retenue » » reads as if the title were a noun; it is « des encadrés … »."""
    for path in sorted(BOOK.glob("*.md")):
        text = " ".join(path.read_text(encoding="utf-8").split())
        assert not re.search(r"\b(?:des|les) « Interprétation retenue »", text), path.name


def test_b157_no_wrong_space_before_a_colon_or_after_a_semicolon() -> None:
    """B157: a narrow no-break space goes before « ; ! ? », a no-break space before
    « : »; the errata of edition 1 had the narrow one before a colon, written in the
    generator (``\\u202f:``), which the typography function leaves alone."""
    bad = re.compile(r"\u202f:|\\u202f:|\u00a0[;!?]|\\u00a0[;!?]")
    paths = [*sorted((ROOT / "src" / "escarmouche").rglob("*.py")),
             *sorted((BOOK / "_ext").glob("*.py")), *sorted(BOOK.rglob("*.md")),
             *sorted(BOOK.rglob("*.ipynb"))]
    found = [p.relative_to(ROOT).as_posix() for p in paths
             if bad.search(p.read_text(encoding="utf-8"))]
    assert found == []


def test_b158_a_failed_example_is_told_in_sentences() -> None:
    """B158: « make edition » tells a broken example in three sentences (where, why,
    what to do), not as « ÉCHEC : …, cellule n° 12 : Dés manuels épuisés : … »; the
    designers' page quotes that message."""
    spec = importlib.util.spec_from_file_location("book_notebooks_b158",
                                                  ROOT / "tools" / "book_notebooks.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = tool
    spec.loader.exec_module(tool)
    nb = SimpleNamespace(cells=[{"cell_type": "code", "source": "combat.act(…)",
                                 "outputs": [{"output_type": "error"}]}])
    err = SimpleNamespace(ename="ParameterError", evalue=(
        "Dés manuels épuisés : plus aucun résultat prévu pour le jet n° 2 (un d6 est "
        "demandé, 1 résultat fourni) (CORE-RNG)."))
    told = _flat(tool.failure(BOOK / "d12" / "initiative.ipynb", nb, err))
    assert told == ("ÉCHEC : book/d12/initiative.ipynb, cellule de code n° 1 "
                    "(« combat.act(…) »). Dés manuels épuisés : plus aucun résultat prévu "
                    "pour le jet n° 2 (un d6 est demandé, 1 résultat fourni) (CORE-RNG). "
                    "Corrigez cet exemple dans son jumeau book_src/d12/initiative.md.")
    designers = _flat(_page("concepteurs.md"))
    assert "n° 12 (« … »). Dés manuels épuisés : plus aucun résultat prévu" in designers


# -- the edition pages ---------------------------------------------------------------------


def test_b140_rule_statements_on_edition_pages_keep_no_markdown_mark() -> None:
    """B140: a rule statement printed on an edition page turns ``**x**`` into bold; it
    printed « Les *<em>décomptes globaux</em>* » (7 rules); a word diff drops the marks
    (it printed « *caractéristique − résultat* »); the line under a changed rule gives
    the designer's Markdown as words."""
    for path in sorted(EDITIONS.glob("*.md")):
        for para in re.findall(r'<p class="esc-ed-rule">(.*?)</p>', path.read_text("utf-8")):
            assert "*" not in para, (path.name, para[:120])
    assert plain_text("La marge vaut *c − r*, voir {ref}`D100-PARRY-3 <d100-parry-3>` et "
                      "**deux** `x`") == "La marge vaut c − r, voir D100-PARRY-3 et deux x"


def test_b141_the_standard_odds_tables_speak_french() -> None:
    """B141: the tables of the edition pages and the Atelier name nothing by an engine
    word: the Rulebook's column « Stat » (now « Caractéristique »), d12's title « le
    groupe x » (a side's id)."""
    for name in systems.available():
        for table in standard_odds(name, systems.get(name).default_rules()):
            for text in (table.title, *table.columns, *(label for label, _ in table.rows)):
                assert not re.search(r"\bStat\b|\b[a-z]+_[a-z_]+\b|(?<!\S)[xy]$|"
                                     r"(?<!\S)n(?!\S)", text), (name, text)


def test_b142_the_errata_sheet_counts_as_the_journal_and_the_feed() -> None:
    """B142: the errata sheet of edition 1 said « 23 changements », then « il n’y a rien
    à corriger », and promised « les chances avant et après » a first edition has not;
    it now counts clarifications as the journal and the feed do."""
    editions = load_all(ROOT)
    for number, edition in editions.items():
        sheet = _flat(errata_page(edition))
        said = counts(edition)
        assert f"{said[:1].upper()}{said[1:]} ; le détail" in sheet
        assert " changements ;" not in sheet
        if number == 1:
            assert "avant et après" not in sheet
    journal = _flat(journal_page(editions, sorted(editions)))
    for edition in editions.values():
        said = counts(edition)
        assert f"{said[:1].upper()}{said[1:]} : voir" in journal


@pytest.mark.published
@pytest.mark.skipif(last_published(ROOT) != 1, reason="a later edition may revise a box")
def test_b143_edition_one_quotes_the_boxes_the_book_prints() -> None:
    """B143: while edition 1 is the book's edition, its page and errata give each ruling
    as the book's box gives it (they gave the boxes of before the fifth pass of
    spec/relecture-journal.md: « début du tour
    du personnage » in the Rulebook, no reason for the d20 immediate action's default,
    « course » and « lâcher un objet » missing)."""
    from escarmouche.editions.workflow import printed_boxes

    boxes = printed_boxes(ROOT)
    edition = load_all(ROOT)[1]
    stale = [c.rules[0] for c in edition.changes if c.text.strip() != boxes[c.rules[0]].strip()]
    assert stale == [], "python tools/edition.py --pages after refreshing editions/1.toml"


def test_b144_a_ruling_follows_its_rule_on_the_edition_page() -> None:
    """B144: a ruling's box says « la règle ci-dessus »; on the page of edition 1 the rule
    it means is printed above it, not after it."""
    page = (EDITIONS / "edition-1.md").read_text(encoding="utf-8")
    blocks = re.split(r"^### ", page, flags=re.M)[1:]
    rulings = [b for b in blocks if b.startswith("Interprétation nouvelle")]
    assert len(rulings) == len(load_all(ROOT)[1].changes)
    for block in rulings:
        rule_at = block.index('<p class="esc-ed-rule">')
        for m in re.finditer(r"ci-dessus", block):
            assert m.start() > rule_at, block[:80]


def test_b145_b146_an_option_change_is_said_once_and_names_its_system() -> None:
    """B145: on the errata sheet, an option change whose text is the drafting tool's
    said its values twice (« … : 1 → 2. … : la valeur par défaut passe de 1 à 2. »);
    B146: the change's table named the system by its registry name (« rulebook »)."""
    from escarmouche.editions.check import _engine_name
    from escarmouche.editions.data import option_changes

    name = _engine_name("d100", "parades_par_round")
    assert name is not None
    generated = option_changes({"d100": {name: 1}}, {"d100": {name: 2}})[0]
    sheet = _flat(errata_page(Edition(2, dt.date(2027, 1, 15), "Deux parades.",
                                      (generated,))))
    assert sheet.count("1 → 2") == 1 and "passe de 1 à 2" not in sheet
    assert [system_name(n) for n in systems.available()] == ["Rulebook", "d100", "d12",
                                                              "d20"]


def test_b147_b148_the_page_between_two_editions_reads_and_is_in_the_book() -> None:
    """B147: « Ce qui a changé entre l’édition A et l’édition B » says what it is and
    dates each edition (it ran « Édition 2 : Deux parades… Édition 3 : … » together),
    names a changed example by its page's title, not its file, says « les règles de
    l’édition 3 qu’avec celles de l’édition 1 » (not « de cette édition »), and writes a
    duel line with one colon (« Avant, victoire … : 56 % »). B148: the page is in the
    book's table of contents (a ``toctree`` in the journal was refused by the external
    table of contents, and the build failed)."""
    one = snapshot(ROOT, 1)
    assert one is not None
    rules = {k: dict(v) for k, v in one.rules.items()}
    name = next(k for k, v in rules["d100"].items() if k == "parries_per_round")
    rules["d100"][name] = 2
    key = next(iter(one.outputs))
    after = Snapshot(rules, one.texts, {**one.outputs, key: one.outputs[key] + "\nautre"})
    change = Change("option-default", ("D100-PARRY-3",), "Deux parades par round.", "d100",
                    "parades_par_round", 1, 2)
    two = Edition(2, dt.date(2027, 1, 15), "Deux parades.", (change,))
    three = Edition(3, dt.date(2027, 6, 1), "Rien de plus.", ())
    page = _flat(render_span(1, [two, three], one, after, duels=2))
    assert "Tous les changements de l’édition 1 à l’édition 3 réunis" in page
    assert "- **Édition 2** du 15 janvier 2027. Deux parades." in page
    assert "avec les règles de l’édition 3 qu’avec celles de l’édition 1 :" in page
    assert "cette édition" not in page
    assert f"### {{doc}}`/book/{key.split('#')[0]}`, cellule de code" in page
    assert "Les lignes qui diffèrent, « - » avant et « + » après :" in page
    assert "- Avant, victoire" in page and "Avant :" not in page
    assert "| d100 | parades par round" in page

    toc = (ROOT / "_toc.yml").read_text(encoding="utf-8")
    journal_globs = re.findall(r"glob: (book/editions/[^\s]+)", toc)
    pages = ["entre-1-et-3", "errata-1", "edition-1"]
    matched = {p for p in pages for g in journal_globs
               if fnmatch.fnmatchcase(f"book/editions/{p}", g)}
    assert matched == set(pages)  # edition-* in its part, errata-* and entre-* here
    journal = journal_page({1: Edition(1, dt.date(2026, 11, 30), "Un."),
                            2: dataclasses.replace(two), 3: three}, [1, 2, 3])
    assert "{toctree}" not in journal
    assert "{doc}`de l’édition 1 à l’édition 3 <entre-1-et-3>`" in journal.replace(
        "\u00a0", " ")


def test_b149_a_rules_history_starts_with_the_first_edition() -> None:
    """B149: the « Historique » line under a rule changed in edition 3 read « édition 3 »,
    as if the rule were new there; the first edition states every rule, so the line
    reads « édition 1, édition 3 » (edition 1's rulings already did)."""
    spec = importlib.util.spec_from_file_location(
        "escarmouche_editions_b149", BOOK / "_ext" / "escarmouche_editions.py")
    assert spec is not None and spec.loader is not None
    ext = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ext)
    ruling = Change("new-ruling", ("D100-PARRY-3",), "La parade revient chaque round.")
    dodge = Change("option-default", ("D100-DODGE-2",), "Deux esquives.", "d100",
                   "esquives_par_round", 1, 2)
    editions = {1: Edition(1, dt.date(2026, 11, 30), "Un.", (ruling,)),
                3: Edition(3, dt.date(2027, 6, 1), "Trois.", (dodge,))}
    one = snapshot(ROOT, 1)
    assert one is not None and "D100-DODGE-2" in one.texts
    told = ext.history(editions, frozenset(one.texts))
    assert told == {"D100-PARRY-3": [1], "D100-DODGE-2": [1, 3]}
    assert ext.history(editions)["D100-DODGE-2"] == [3]  # without edition 1's rules


def test_b173_a_duel_verdict_and_summary_hold_one_colon_per_clause() -> None:
    """The simulated duels' sentences (edition pages, `make edition`): the paired
    verdict chained two colons (« sans changer le taux de victoire : écart … : 0 points »)
    and an interval's bound lost its decimal (« 2,8 à 3 »)."""
    from escarmouche.editions.duels import Duels, Paired
    from tests.test_relecture import clauses, top_level_colons

    sentences = [Duels(200, 0, 0.54, 0.471, 0.608, 2.9, 2.8, 3.0, "round").summary()]
    for paired in (Paired(80, 0, 0.0, 0.0, None), Paired(80, 7, 0.0, 0.02, None),
                   Paired(80, 7, 0.05, 0.02, None), Paired(80, 7, 0.01, 0.03, 900)):
        sentences.append(paired.verdict())
    for text in sentences:
        assert all(top_level_colons(c) <= 1 for c in clauses(text)), text
    assert "entre 2,8 et 3,0" in sentences[0]
    # the paired headline (simulation.precision.difference_sentence): « autant » for no
    # change, the difference in points with its paired half-width
    assert "gagne autant (± 2,0)" in sentences[2]
    assert "5,0 points de plus (± 2,0)" in sentences[3]


def test_b174_the_default_surprise_group_value_is_not_called_the_weakest_rb_surprise_2() -> None:
    """RB-SURPRISE-2's default was labelled « le plus faible : DIS la plus basse contre
    PMR la plus haute », which reads as if both groups took their weakest member, while
    the defenders test their most attentive one. The label names whom it disfavours, and
    says which group tests which value."""
    label = systems.get("rulebook").option("surprise_aggregate").value_label("plus_faible")
    assert "plus faible" not in label
    assert "attaquants" in label and "défenseurs" in label


def test_b175_a_long_jump_writes_its_maximum_as_a_sum_d100_jump_2() -> None:
    """D100-JUMP-2: « au plus 8 m = M 4 + BF 4 » interleaved labels and values, an
    equality that does not hold as written (the fault B48 and B82 fixed elsewhere)."""
    from escarmouche.systems.d100.jumps import resolve_long_jump

    text = resolve_long_jump(4, 40, 5, 57, name="Aldric").describe()
    assert "au plus M + BF = 4 + 4 = 8 m" in text, text
    assert "= M " not in text


def test_b176_a_fall_says_once_that_its_damage_is_the_gms_d100_jump_1() -> None:
    """D100-JUMP-1: after « … le MJ calcule les dégâts », the next line said it again,
    « (dégâts de la chute laissés au MJ) », without saying that the engine counts no wound
    (the ruling of automated play)."""
    from escarmouche.dice import ScriptedRolls
    from escarmouche.encounter import Encounter
    from escarmouche.systems.d100 import SYSTEM

    enc = Encounter(SYSTEM, list(SYSTEM.sample_roster))
    first = next(iter(SYSTEM.sample_roster)).name
    enc.start(ScriptedRolls([5] * len(SYSTEM.sample_roster)),
              terrain={first: {"hauteur": 3}})
    enc.run(ScriptedRolls([100] + [100] * 200), max_turns=1)
    (fall,) = [e for e in enc.log if e.kind == "terrain"]
    assert "aucune blessure" in fall.text and "laissés au MJ" not in fall.text, fall.text


def test_b178_an_attack_line_says_how_a_modified_threshold_is_made_d100_two_2() -> None:
    """D100-TWO-2, D100-RANGED-4/5: « Corbin manque Aubert (jet 35 > 30) » in a log,
    beside a CC of 50, read as a mistake; a threshold with modifiers now says how it is
    made, and a bare one says nothing more."""
    from escarmouche import Combatant
    from escarmouche.systems.d100.attack import attack_setup, resolve_attack
    from escarmouche.systems.d100.narration import logged_attack_sentence

    corbin = Combatant("Corbin", "a", {"CC": 50, "CT": 30, "F": 30, "E": 30, "Ag": 30,
                                        "M": 4, "B": 10})
    aubert = Combatant("Aubert", "b", {"CC": 40, "CT": 30, "F": 30, "E": 30, "Ag": 30,
                                        "M": 4, "B": 10})
    from escarmouche.systems.d100 import Rules

    malus = -Rules().off_hand_modifier  # the rules' declaration, not a typed value
    off = resolve_attack(attack_setup(corbin, aubert, hand="non_directrice"), 35)
    text = logged_attack_sentence(off)
    assert "Seuil" not in off.sentence  # the result's display has it among its steps
    assert text.endswith(f"Seuil d’attaque : CC 50 − {malus} (main non directrice) = "
                         f"{50 - malus}."), text
    plain = logged_attack_sentence(resolve_attack(attack_setup(corbin, aubert), 55))
    assert "Seuil" not in plain, plain


def test_no_option_value_label_holds_a_colon_rb_surprise_2() -> None:
    """RB-SURPRISE-2 (seventh pass): the label « défavorable aux attaquants : leur DIS la
    plus basse … » sat after its option's label, « valeur de groupe du test d’attaque
    surprise : défavorable aux attaquants : leur DIS … », two colons in one clause (the
    surprise demo's summary, the Atelier's menu). No value label of any option holds a
    colon."""
    bad = [f"{name}.{option.key}: {text}" for name in systems.available()
           for option in systems.get(name).options()
           for text in {**option.labels, **(option.choices or {})}.values()
           if ":" in str(text)]
    assert bad == []


# -- R4: options named by their French label and key in reader text ---------------------

#: the pages where an option's engine name may appear, beside its French key: the
#: designers' page, the API page, and the save format (a save stores engine names)
ENGINE_NAME_PAGES = {"concepteurs.md", "api.md", "format-sauvegarde.md"}


def _engine_spellings() -> dict[str, str]:
    """Each engine spelling of an option a reader must not meet, mapped to the French
    key that names it: ``Rules.x``, the option's engine name where it differs from its
    key, ``x=True``, and the identifiers of its values where they are not French words
    a reader types (``"juste_apres"``, ``"debut_du_round"``)."""
    out: dict[str, str] = {}
    for name in systems.available():
        for option in systems.get(name).options():
            if option.name != option.key:
                out[option.name] = option.key
            for value in {**option.labels, **(option.choices or {})}:
                if isinstance(value, str) and re.fullmatch(r"[a-z][a-z_]*", value) and \
                        value != option.value_label(value):
                    out[f'"{value}"'] = option.key
    return out


def test_r4_reader_pages_name_options_by_label_and_key_not_engine_names() -> None:
    """R4 (spec/relecture-journal.md): `Rules.surprised_can_defend`, `surprised_can_defend=True`,
    `"consecutive"`… appeared 85 times on 15 pages, ruling boxes included (and so on
    edition 1's page and its errata sheet). Outside code cells, no page names an option
    by its engine name: a reader meets its French label and the key a designer types
    (`surpris_peut_se_defendre`). The designers' page, the API page and the save format
    may give the engine name, always beside the key."""
    spellings = _engine_spellings()
    pages = sorted({*BOOK_SRC.rglob("*.md"), *BOOK.glob("*.md"), *BOOK.glob("*/*.md")})
    assert len(pages) > 40
    bad: list[str] = []
    for page in pages:
        text = re.sub(r"```\{code-cell\}.*?```", lambda m: "\n" * m.group(0).count("\n"),
                      page.read_text(encoding="utf-8"), flags=re.S)
        lines = text.splitlines()
        for number, line in enumerate(lines, 1):
            near = " ".join(lines[max(0, number - 2):number + 1])
            for code in re.findall(r"`([^`\n]+)`", line):
                if re.search(r"\bRules\.\w|\b\w+=(True|False|None)\b", code):
                    key = None
                elif code in spellings:
                    key = spellings[code]
                else:
                    continue
                beside = key is not None and f"`{key}`" in near
                if page.name in ENGINE_NAME_PAGES and beside:
                    continue
                bad.append(f"{page.relative_to(ROOT)}:{number}: `{code}`")
    assert not bad, "\n".join(bad)
