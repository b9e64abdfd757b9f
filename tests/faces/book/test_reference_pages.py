"""The book's reference pages read as a French rules editor would (spec/RELECTURE.md):
« Le format des fichiers d’effectifs », « Le format des sauvegardes », « Essai dans le
navigateur ». Each test names the entry of ``spec/relecture-journal.md`` it holds
(« B150: … »).
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
from tests.helpers import ROOT
from tests.helpers.proofreading import (
    BOOK,
    BOOK_SRC,
    book_page,
    clauses,
    flat,
    stored_outputs,
    top_level_colons,
)
from tools.editions.sheets import counts, errata_page, journal_page


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


# -- the reference pages -----------------------------------------------------------------


def test_b150_the_roster_format_lists_each_option_as_declared() -> None:
    """B150: the options table of « Le format des fichiers d’effectifs » is every declared
    option, with its file key, its label and its rules (it had four labels and a rule ID
    of its own, and lacked d12's ``actions``)."""
    page = book_page("format-effectifs.md")
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

    page = book_page("format-effectifs.md")
    example = re.search(r"```toml\n(.*?)```", page, re.S)
    assert example is not None
    path = tmp_path / "duel.toml"
    path.write_text(example.group(1).replace("CC = 40,", "CC = 400,"), encoding="utf-8")
    with pytest.raises(ValueError) as err:
        load_roster(path)
    quote = re.search(r"\n((?:> .*\n)+)", page.split("## Le schéma et les erreurs")[1])
    assert quote is not None
    assert flat(quote.group(1)) == flat(str(err.value))


def test_b152_the_roster_format_names_the_simulation_variant_key() -> None:
    """B152: a Rulebook fighter declares the damage of the simulation's automatic hit
    (``variante_degats``, RB-END-2's boxed variant); the roster format page did not say
    so, and called it nowhere a variant."""
    page = " ".join(book_page("format-effectifs.md").split())
    assert "`variante_degats = N`" in page
    assert "variante hors texte" in page


def test_b153_the_save_format_lists_every_field_of_its_schema() -> None:
    """B153: « Le format des sauvegardes » names every field a save must hold (it left
    out ``started``, ``finished`` and ``outcome``), under the keys of its current
    format (save-2, French keys)."""
    schema = json.loads((ROOT / "src" / "escarmouche" / "schemas" / "save-2.schema.json")
                        .read_text(encoding="utf-8"))
    table = book_page("format-sauvegarde.md").split("## Ce que contient une sauvegarde")[1]
    named = set(re.findall(r"`([a-z_]+)`", table.split("## ")[0]))
    assert set(schema["required"]) <= named, set(schema["required"]) - named
    for kind, part in schema["definitions"].items():
        assert set(part.get("required", ())) <= named, (kind, set(part["required"]) - named)


def test_b151_the_save_format_quotes_the_refusal_the_engine_writes() -> None:
    """B151 (the same check on the other format page, which was right): the refusal the
    save page quotes is still the engine's, word for word."""
    from escarmouche import savefile
    from escarmouche.encounter import Encounter
    from escarmouche.roster import load_roster

    fight = load_roster(ROOT / "src" / "escarmouche" / "rosters" / "d12-duel.toml").encounter()
    data = json.loads(savefile.dumps(fight))
    data["combattants"][1]["combattant"]["caracteristiques"]["PV"] = "dix"
    with pytest.raises(ValueError) as err:
        Encounter.from_json(json.dumps(data))
    page = book_page("format-sauvegarde.md")
    quote = re.search(r"\n((?:> .*\n)+)", page.split("## Ce que le moteur vérifie")[1])
    assert quote is not None
    assert flat(quote.group(1)) == flat(str(err.value))


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


# -- R4: options named by their French label and key in reader text ---------------------
#: the pages where an option's engine name may appear, beside its French key: the
#: designers' page, the API page, and the save format (a save stores engine names)


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
