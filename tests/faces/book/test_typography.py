"""French typography where a reader looks (spec/RELECTURE.md; spec/STYLE.md; CONTRIBUTING.md
« Narration style »).

Two parts:

* the function :func:`escarmouche.text.typo.typographie` itself: the spaces it puts,
  what it never touches (URLs, times, code, dice…), idempotence, « only spaces change »;
* a sweep of what readers see, checked by :func:`problems` (its own regular expressions,
  not the function under test): every event of the golden fights and of seeded fights
  of each system, the error messages of a corpus of refused operations, the widgets'
  results and labels, SVG charts, tables; and, when the book has been built
  (``_build/html``), the text of every page outside code.

A missing or ordinary space before ``; ! ? :`` or inside « », a « (s) », a missing
elision (« de Aldric »), a Python quote (``= 'Thorin'``), chained colons or a
hyphen-minus for a negative number each fail here.
"""

from __future__ import annotations

import html
import random
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from escarmouche_widgets import text_of
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from escarmouche import Combatant, EscarmoucheError
from escarmouche.dice import distribution
from escarmouche.encounter import Encounter
from escarmouche.render import Table, Text, outcome_bars_svg, timeline_svg
from escarmouche.render.svg import distribution_svg
from escarmouche.systems import NAMES, get
from escarmouche.text.typo import (
    NBSP,
    NNBSP,
    in_context,
    typographie,
    typographie_html,
    typographie_markdown,
)
from escarmouche.text.typo import _protected as _protected  # the tokens that are not prose
from tests.helpers import ROOT, golden_runner
from tests.helpers.typography import problems


# -- the checker (independent of the function under test) -------------------------------

#: ``problems``, the checker itself, is ``tests/helpers/typography.py``


def assert_typeset(texts: Iterator[str] | list[str], what: str) -> int:
    seen = 0
    bad: dict[str, str] = {}
    for text in texts:
        seen += 1
        for line in text.splitlines():
            p = problems(line)
            if p:
                bad.setdefault(", ".join(p), line)
    assert not bad, f"{what}: " + "\n".join(f"{k}: {v!r}" for k, v in bad.items())
    return seen


def test_the_checker_fails_on_each_mistake() -> None:
    """Each rule of :func:`problems` catches its mistake (a test that can fail)."""
    good = f"Grolk{NBSP}: «{NBSP}héros{NBSP}»{NNBSP}; 12,5{NNBSP}% d’Aldric{NNBSP}!"
    assert problems(good) == []
    for bad in ["Grolk : tombe", "Grolk: tombe", "Grolk ; tombe", "Grolk; tombe",
                f"Grolk tombe{NBSP}!", "« héros »", "1 parade(s)", "initiative de Aldric",
                "par = 'Thorin' : a déjà pris", f"A{NBSP}: B{NBSP}: C",
                f"Grolk{NBSP}: -3 PV", "12,5 %", "la habileté"]:
        assert problems(bad), bad


# -- the function --------------------------------------------------------------------------

CASES = [
    ("Attention: tour 2", f"Attention{NBSP}: tour 2"),
    ("Attention : tour 2", f"Attention{NBSP}: tour 2"),
    (f"Attention{NNBSP}: tour 2", f"Attention{NBSP}: tour 2"),
    ("mot; suite", f"mot{NNBSP}; suite"),
    ("mot ; suite", f"mot{NNBSP}; suite"),
    ("Vraiment?!", f"Vraiment{NNBSP}?!"),
    ("Grolk tombe !", f"Grolk tombe{NNBSP}!"),
    ("« Thorin »", f"«{NBSP}Thorin{NBSP}»"),
    ("«Thorin»", f"«{NBSP}Thorin{NBSP}»"),
    ("50% des cas", f"50{NNBSP}% des cas"),
    ("50 % des cas", f"50{NNBSP}% des cas"),
    ("l'Orque", "l’Orque"),
    ("« oui ! »", f"«{NBSP}oui{NNBSP}!{NBSP}»"),
    ("Note:", f"Note{NBSP}:"),
    ("(voir ci-dessous) : suite", f"(voir ci-dessous){NBSP}: suite"),
]


@pytest.mark.parametrize(("text", "want"), CASES)
def test_spaces_of_french_typography(text: str, want: str) -> None:
    assert typographie(text) == want


NOT_PROSE = [
    "http://127.0.0.1:8000/?q=1;a=2", "https://x.fr/a:b", "www.escarmouche.fr/?x=1",
    "12:30", "3:1", "a::b", "`x = a ? b : c`", ":)", ";-)", ":(", "1d6!", "2d10!!",
    "2d6kh1!", "x!=y", "?q=1", "&lt;", "&#38;", "a:b", "[RB-INIT-1]", "mj@escarmouche.fr",
]


@pytest.mark.parametrize("token", NOT_PROSE)
def test_tokens_that_are_not_prose_are_untouched(token: str) -> None:
    assert typographie(token) == token
    # …also inside prose
    assert token in typographie(f"Voir {token} ici.")


@pytest.mark.parametrize("value", ["5!", "a;b", "x:y!", "1 d6 !?"])
def test_a_quoted_value_is_shown_as_given(value: str) -> None:
    """Inside « », a missing space is not inserted: an error shows what was typed."""
    assert typographie(f"dés = « {value} » : inattendu") == (
        f"dés = «{NBSP}{value.replace(' !', NNBSP + '!')}{NBSP}»{NBSP}: inattendu")


_prose = st.text(alphabet=st.sampled_from(list("abcdeéàA Zl'’;:!?%«»()1234567890,.\n"
                                                "\u00a0\u202f/`&#=-")), max_size=80)


@settings(max_examples=400, deadline=None)
@given(_prose)
def test_idempotent_and_only_spaces_change(text: str) -> None:
    once = typographie(text)
    assert typographie(once) == once

    def letters(s: str) -> str:
        return re.sub("[ \t\u00a0\u202f\u2009\u2007]", "", s).replace("’", "'")

    assert letters(once) == letters(text)
    assert once.count("\n") == text.count("\n")




#: prose without the tokens that a split could cut in half (code, entities, URLs): in a
#: page, those are nodes or tags of their own
_plain_prose = st.text(alphabet=st.sampled_from(list("abcdeéàA Zl'’;:!?%«»()1234567890,.\n"
                                                     "\u00a0\u202f")), max_size=60)


@settings(max_examples=300, deadline=None)
@given(_plain_prose, st.sampled_from(NOT_PROSE), _plain_prose)
def test_not_prose_survives_anywhere(left: str, token: str, right: str) -> None:
    """A token that is not prose survives in any prose around it (a stray backquote
    would open code: that prose is left out here)."""
    assert token in typographie(f"{left} {token} {right}")


@settings(max_examples=300, deadline=None)
@given(_plain_prose, _plain_prose)
def test_in_context_agrees_with_the_whole(left: str, right: str) -> None:
    """Typesetting a text split in two (two nodes, two tags) with one character of
    context gives the same as typesetting it whole, up to the space at the cut. The two
    limits, where one character of context cannot see far enough: a « » quotation opened
    in one node and closed in the other (a quoted value is left as typed), and a token
    that is not prose cut in two (« A'd » then « 0% »: whole, « d0 » reads as a die)."""
    assume(not ("«" in left and "»" in right))
    tokens = _protected(left + right)
    assume(tokens is None or not any(m.start() < len(left) < m.end()
                                     for m in tokens.finditer(left + right)))
    whole = typographie(left + right)
    a = in_context(left, "", right[:1])
    b = in_context(right, a[-1:] if a else "", "")
    joined = a + b
    assert re.sub(r"\s", "", joined) == re.sub(r"\s", "", whole)


def test_html_keeps_tags_styles_and_code() -> None:
    markup = ('<p style="color: red; width: 50%" title="Note: x">Note: <b>Grolk</b>: 50% '
              '!</p><code>a: b</code><pre>x ; y</pre><script>if (a) {b: 1}</script>')
    out = typographie_html(markup)
    assert 'style="color: red; width: 50%"' in out
    assert f'title="Note{NBSP}: x"' in out
    # the space before « : » that follows an inline tag goes at the end of the tag's text
    assert f"Note{NBSP}: <b>Grolk{NBSP}</b>: 50{NNBSP}%{NNBSP}!" in out
    assert "<code>a: b</code><pre>x ; y</pre><script>if (a) {b: 1}</script>" in out
    assert typographie_html(out) == out


def test_markdown_keeps_code_fences_and_links() -> None:
    md = "Voir: `a: b`\n\n```python\nd = {1: 2}  # ok ?\n```\n[lien](page.md): ok"
    out = typographie_markdown(md)
    assert "```python\nd = {1: 2}  # ok ?\n```" in out
    assert f"Voir{NBSP}: `a: b`" in out and f"[lien](page.md){NBSP}: ok" in out


# -- the sweep: what readers see -----------------------------------------------------------


def _golden_fights() -> list[tuple[str, dict[str, Any]]]:
    out = []
    for name in NAMES:
        for fight in golden_runner.load(name)["fights"]:
            out.append((name, fight))
    return out


def test_every_event_of_the_golden_fights_is_typeset() -> None:
    texts: list[str] = []
    for name, fight in _golden_fights():
        enc, _ = golden_runner.play(get(name), fight)
        texts += [e.text for e in enc.log]
        texts.append(str(enc.journal()))
    assert assert_typeset(texts, "golden fights") > 100


@pytest.mark.parametrize("name", NAMES)
def test_every_event_of_seeded_fights_is_typeset(name: str) -> None:
    """Whole fights played by the engine's own policies, on the golden rosters."""
    system = get(name)
    texts: list[str] = []
    for _, fight in [f for f in _golden_fights() if f[0] == name]:
        roster = [Combatant.from_json(c) for c in fight["roster"]]
        for seed in range(6):
            enc = Encounter(system, roster, rules=system.rules_from_json(fight.get("rules", {})))
            try:
                enc.run(random.Random(seed), max_turns=6)
            except EscarmoucheError as err:  # a roster the policies cannot play: its message
                texts.append(str(err))
            texts += [e.text for e in enc.log]
            texts.append(enc.narration())
    assert assert_typeset(texts, f"{name} fights") > 20


def _refusals() -> list[str]:
    """Error messages of a corpus of refused operations: the fuzz targets' inputs (a
    fixed sample, ``tests.helpers.fuzz_targets.sampled_refusals``)."""
    from tests.helpers.fuzz_targets import sampled_refusals

    return [str(err) for err in sampled_refusals()]


def test_every_error_message_is_typeset() -> None:
    assert assert_typeset(_refusals(), "error messages") > 100


def _demos() -> list[Any]:
    import escarmouche_widgets as w

    demos = [w.InitiativeDemo(), w.SurpriseDemo(), w.ParryDodgeDemo(), w.CriticalDemo(),
             w.D20TurnDemo(), w.CombatTracker()]
    for demo in demos[:-1]:  # the tracker shows its fight without a roll
        demo.roll()
    return demos


def _labels(widget: Any) -> Iterator[str]:
    todo = [widget]
    while todo:
        w = todo.pop()
        for trait in ("description", "placeholder", "tooltip"):
            value = getattr(w, trait, None)
            if isinstance(value, str) and value:
                yield value
        yield from getattr(w, "_options_labels", ())  # the choices of a menu
        todo.extend(getattr(w, "children", ()))


def test_widgets_results_odds_errors_and_labels_are_typeset() -> None:
    texts: list[str] = []
    for demo in _demos():
        texts.append(demo.result_text)
        if hasattr(demo, "odds"):
            texts.append(demo.odds_text)
        texts += list(_labels(demo.widget))
    # an inline error, through the banner
    demo = _demos()[3]
    demo.dice.manual.value = True
    demo.dice.dice.value = "x"
    demo.roll()
    assert demo.error_text
    texts.append(demo.error_text)
    texts.append(text_of(demo.banner.widget.value))
    assert assert_typeset(texts, "widgets") > 20


class _SvgText(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self._in = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("text", "title"):
            self._in += 1
        for key, value in attrs:
            if key == "aria-label" and value:
                self.texts.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("text", "title"):
            self._in -= 1

    def handle_data(self, data: str) -> None:
        if self._in and data.strip():
            self.texts.append(data)


def _svg_texts(svg: str) -> list[str]:
    parser = _SvgText()
    parser.feed(svg)
    return parser.texts


def test_charts_and_tables_are_typeset() -> None:
    from fractions import Fraction

    svgs = [
        distribution_svg(distribution("2d6"), title="Deux dés: total", xlabel="total ?",
                         highlight=lambda v: v >= 10),
        outcome_bars_svg([("raté", Fraction(1, 2)), ("touché", Fraction(1, 2))],
                         title="Issue: attaque"),
        timeline_svg([("Tour 0", ["Bob"]), ("Tour 1", ["Gob", "Bob"])], title="Initiative",
                     sides={"Bob": "PJ", "Gob": "Gobelins"}),
    ]
    texts = [t for svg in svgs for t in _svg_texts(svg)]
    table = Table(("Option", "Valeur"), [("seuil: critique", "50 %"), ("mode", True)],
                  title="Options ; système")
    texts += [str(table), text_of(table._repr_html_()), str(Text("Grolk tombe ! Fin: ok"))]
    for name in NAMES:
        rules = get(name).default_rules()
        texts.append(text_of(rules._repr_html_()))
    assert assert_typeset(texts, "charts and tables") > 10


# -- the built book ------------------------------------------------------------------------

BUILT = ROOT / "_build" / "html"

#: elements whose text is not prose; the API page holds English docstrings
_CODE = {"code", "pre", "script", "style", "svg", "kbd", "samp", "math", "textarea"}
_SKIP_PAGES = ("api.html", "genindex.html", "search.html", "py-modindex.html")
#: elements that end a run of prose (the text of each is checked on its own)
_BLOCK = {"p", "div", "li", "ul", "ol", "dl", "dt", "dd", "td", "th", "tr", "table",
          "caption", "figcaption", "h1", "h2", "h3", "h4", "h5", "h6", "section", "nav",
          "blockquote", "br", "details", "summary", "header", "footer", "aside", "label",
          "button", "title"}


class _PageText(HTMLParser):
    """The text of a page's ``<title>`` and main content (``<main>``/``<article>``),
    outside code."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self._main = 0
        self._code = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = dict(attrs).get("class") or ""
        if tag in _BLOCK:
            self.texts.append("\n")
        if tag in ("main", "article", "title"):
            self._main += 1
        if tag in _CODE or "highlight" in classes.split() or "output" in classes.split() \
                or "math" in classes.split() or (tag in ("div", "span") and self._code):
            self._code += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in _BLOCK:
            self.texts.append("\n")
        if tag in ("main", "article", "title"):
            self._main -= 1
        if self._code and (tag in _CODE or tag in ("div", "span")):
            self._code -= 1

    def handle_data(self, data: str) -> None:
        if self._main and not self._code and data.strip():
            self.texts.append(data)


def _book_pages() -> list[Path]:
    if not BUILT.is_dir():
        return []
    return [p for p in sorted(BUILT.rglob("*.html"))
            if p.name not in _SKIP_PAGES and "_static" not in p.parts
            and "lite" not in p.relative_to(BUILT).parts[:1]]


@pytest.mark.book
@pytest.mark.skipif(not _book_pages(), reason="the book is not built (make book)")
def test_the_built_book_is_typeset() -> None:
    """After ``make book``: the prose of every page (code, outputs and math left out)."""
    bad: dict[str, str] = {}
    for page in _book_pages():
        parser = _PageText()
        parser.feed(page.read_text("utf-8"))
        # Text split by inline tags is joined per block of prose before checking.
        for line in "".join(parser.texts).splitlines():
            for p in problems(html.unescape(line)):
                bad.setdefault(f"{page.relative_to(BUILT)}: {p}", line.strip()[:160])
    assert not bad, "\n".join(f"{k}: {v!r}" for k, v in sorted(bad.items()))


def test_labels_of_option_values_exist_for_every_choice() -> None:
    """Every option value a reader can see has a French label (the engine keeps its
    identifiers)."""
    from escarmouche.systems import d12, d20, d100, rulebook

    for module in (rulebook, d100, d12, d20):
        named = [o for o in module.SYSTEM.options() if o.choices or o.labels]
        assert named, module.__name__
        for option in named:
            values: dict[Any, str] = {**option.labels, **(option.choices or {})}
            assert all(isinstance(v, str) and v for v in values.values()), option.name
    aggregate = rulebook.SYSTEM.option("surprise_aggregate")
    assert aggregate.choices is not None
    assert aggregate.value_label("plus_faible") == aggregate.choices["plus_faible"] != "plus_faible"
    assert d100.SYSTEM.option("default_weapon").value_label("arme_a_une_main") != (
        "arme_a_une_main")


# -- narration style rulings ---------------------------------------------------------------


def test_d12_damage_floored_at_zero_is_shown_as_a_ruling() -> None:
    """D12-CRIT-1 (ruling: damage never heals): a hit of ``1d6-2`` showing 1 deals 0, and
    the log says so with the minus sign and the sum it floors, in one parenthesis
    (B125: not « [1] - 2 = -1 », nor « → 0 (minimum 0) » two parentheses deep)."""
    from escarmouche.systems import d12

    dmg = d12.resolve_damage("1d6-2", [1])
    assert (dmg.raw, dmg.damage) == (-1, 0)
    assert dmg.detail == "1d6-2 : [1] − 2 = −1, ramené à 0"
    fine = d12.resolve_damage("1d6-2", [5])
    assert (fine.damage, fine.detail) == (3, "1d6-2 : [5] − 2 = 3")


def test_names_are_elided_in_the_log() -> None:
    """« initiative d’Aldric », « au tour d’Ysolde »: fmt.de, not « de » + vowel."""
    from escarmouche.dice import ScriptedRolls
    from escarmouche.systems import d100

    ini = d100.roll_initiative(
        [Combatant("Aldric", "h", {"Ag": 40}), Combatant("Ysolde", "h", {"Ag": 30}),
         Combatant("Brune", "h", {"Ag": 20})], ScriptedRolls([4, 4, 4]))
    purposes = [d.purpose for d in ini.dice]
    assert purposes == ["initiative d’Aldric", "initiative d’Ysolde", "initiative de Brune"]


def test_a_dies_owner_is_written_one_way_in_every_system_core_turn_1() -> None:
    """CORE-TURN-1: every system names whose die it is the same way, « initiative
    d’Aldric », « départage de Brune » (``fmt.die_of``): the d12 and d100 logs said so,
    the Rulebook and d20 logs and the initiative and surprise demos said « initiative :
    Brune ». Read on the golden fights' dice and the initiative demo's steps, with every
    fighter of the golden rosters."""
    from escarmouche.text.fmt import die_of

    owned: dict[str, set[str]] = {}
    for name, fight in _golden_fights():
        enc, _ = golden_runner.play(get(name), fight)
        roster = [Combatant.from_json(c) for c in fight["roster"]]
        system = get(name)
        report = system.explain_initiative(roster, random.Random(3), system.default_rules(), {})
        labels = [d.purpose for e in enc.log for d in e.dice]
        labels += [label for _, label in report.steps]
        for label in labels:
            for who in (c.name for c in roster):
                assert f" : {who}" not in label, (name, label)
                head = label.partition(", manche")[0]
                for what in ("initiative", "tour bonus", "départage", "relance",
                             "Hypoactivité"):
                    if head == die_of(what, who):
                        owned.setdefault(name, set()).add(head)
    assert sorted(owned) == sorted(NAMES)
    assert "initiative d’Aldric" in owned["d20"] | owned["rulebook"]
    assert any(label.startswith("initiative de ") for label in owned["d20"])


def test_the_page_check_reads_prose_and_skips_code() -> None:
    """The built-book check fails on an untypeset paragraph or title, not on code."""
    page = _PageText()
    page.feed("<html><head><title>Note : titre</title></head><body><main><p>Grolk : "
              "tombe</p><pre>a : b</pre><div class=\"highlight\"><span>c : d</span></div>"
              "<p>ok</p></main><footer>pied : hors du contenu</footer></body></html>")
    lines = [line for line in "".join(page.texts).splitlines() if line.strip()]
    assert lines == ["Note : titre", "Grolk : tombe", "ok"]
    assert all(problems(line) for line in lines[:2])


def _typo_ext() -> Any:
    """The book's typography extension (``book/_ext`` is not a package)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "escarmouche_typo_ext", ROOT / "book" / "_ext" /
        "escarmouche_typo.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_rule_id_is_kept_on_one_line_core_log() -> None:
    """At 390 px « RB-SURPRISE-2 » broke at its hyphens: each rule ID of a page's text
    is wrapped in a span CSS keeps whole; attributes, code, SVG text and a second pass
    are left alone."""
    wrap = _typo_ext().keep_rule_ids_whole
    page = ('<p title="D100-ATK-1">Voir D100-ATK-1 et [RB-INIT-1, D12-INIT-4].</p>'
            "<pre>D20-ACT-1</pre><svg><text>D20-OPP-2</text></svg><p>D20-OPP-2</p>")
    once = wrap(page)
    assert once.count('<span class="esc-rule-id">') == 4, once
    assert '<p title="D100-ATK-1">' in once and "<pre>D20-ACT-1</pre>" in once
    assert "<text>D20-OPP-2</text>" in once
    assert wrap(once) == once


@pytest.mark.book
@pytest.mark.skipif(not _book_pages(), reason="the book is not built (make book)")
def test_the_built_book_keeps_its_rule_ids_whole() -> None:
    """After ``make book``: no rule ID of a page's prose is left where it can break (the
    text outside ``<span class="esc-rule-id">``, code and SVG holds none), and the
    stylesheet keeps the span on one line."""
    ext = _typo_ext()
    pages = [p for p in _book_pages() if "rulebook/initiative" in p.as_posix()]
    assert pages
    text = pages[0].read_text("utf-8")
    assert text.count('<span class="esc-rule-id">RB-SURPRISE-2</span>') >= 2
    body = text[text.index("<body"):]
    assert ext.keep_rule_ids_whole(body) == body  # nothing left to wrap
    css = "".join(p.read_text("utf-8") for p in (BUILT / "_static").glob("escarmouche-*.css"))
    assert re.search(r"\.esc-rule-id\s*\{\s*white-space:\s*nowrap", css)


# -- the widgets' labels, descriptions and banners, and their light renderings (R2, R4) --


def _every_widget_text(root: Any) -> Iterator[str]:
    """Labels (:func:`_labels`) and what every ``HTML`` widget inside ``root`` shows:
    headings, help paragraphs, banners, results."""
    yield from _labels(root)
    todo = [root]
    while todo:
        w = todo.pop()
        value = getattr(w, "value", None)
        if type(w).__name__ in ("HTML", "HTMLMath", "Label") and isinstance(value, str):
            yield text_of(value)
        todo.extend(getattr(w, "children", ()))


def test_every_widget_label_description_and_banner_is_typeset() -> None:
    """spec/relecture-journal.md: the Atelier (not a demo, so its labels were never typeset:
    « Système : », « Atelier du concepteur : », « (RB-D100-1) : », 17 plain spaces before
    « : ») and the balance demo, with every other demo: each label, description, menu
    choice, heading, help text and banner a reader sees, after each system is chosen."""
    import escarmouche_widgets as w

    from escarmouche.roster import example_rosters, load_roster

    texts: list[str] = []
    atelier = w.Atelier()
    for name in NAMES:
        atelier.system.value = name
        texts += list(_every_widget_text(atelier.widget))
    balance = w.BalanceDemo("d100", load_roster(example_rosters()["d100-esquive"]),
                            fights=10, seed=1)
    texts += list(_every_widget_text(balance.widget))
    for demo in _demos():
        texts += list(_every_widget_text(demo.widget))
    assert assert_typeset(texts, "widgets") > 200


def _light_module() -> Any:
    from tests.helpers.widgets import load_light

    return load_light("esc_light_typo")


def _light_renderings() -> Iterator[tuple[str, str]]:
    """(notebook, text) of each stored widget as the light page draws it before
    « Activer » (:class:`escarmouche_static_widgets.Drawer` on the notebook's widget state)."""
    import json

    light = _light_module()
    for nb in sorted((ROOT / "book").rglob("*.ipynb")):
        data = json.loads(nb.read_text(encoding="utf-8"))
        state = (data.get("metadata", {}).get("widgets", {})
                 .get("application/vnd.jupyter.widget-state+json", {}).get("state", {}))
        if not state:
            continue
        drawer = light.Drawer(state)
        for cell in data["cells"]:
            for out in cell.get("outputs", []):
                view = out.get("data", {}).get("application/vnd.jupyter.widget-view+json")
                if view:
                    yield nb.name, _drawn_text(drawer.draw(view["model_id"]))


def _drawn_text(drawn: str) -> str:
    """The text of drawn widgets, one line per label and per menu choice (a row of
    controls is not one sentence: « Combats : [ ] Graine : [ ] »)."""
    return text_of(re.sub(r"</(label|option)>|(?=<select)", r"\g<0><br>", drawn))


def test_the_light_renderings_of_the_stored_widgets_are_typeset() -> None:
    """spec/relecture-journal.md: the Atelier's stored widget, drawn as light HTML before
    « Activer », printed « Atelier du concepteur : », « Système : », « (RB-D100-1) : » with
    plain spaces. Every stored widget of every page, as the light page draws it, is typeset."""
    drawn = list(_light_renderings())
    assert {name for name, _ in drawn} >= {"atelier.ipynb", "surprise.ipynb"}
    assert assert_typeset([text for _, text in drawn], "light renderings") >= 10


def _drawn_widgets(source: str) -> Iterator[str]:
    """Each drawn widget of a built page: its ``esc-static-widget`` div, to the ``</div>``
    that closes it (the code shown after it is not the widget's)."""
    for start in re.finditer(r'<div class="[^"]*\besc-static-widget\b', source):
        depth, at = 0, start.start()
        for tag in re.finditer(r"<div\b|</div>", source[at:]):
            depth += 1 if tag.group(0) != "</div>" else -1
            if depth == 0:
                yield source[at:at + tag.end()]
                break


@pytest.mark.book
@pytest.mark.skipif(not _book_pages(), reason="the book is not built (make book)")
def test_the_built_light_renderings_are_typeset() -> None:
    """spec/relecture-journal.md, after ``make book``: the drawn widgets
    (``esc-static-widget``) of the built pages, which the page check leaves out with the
    other outputs."""
    bad: dict[str, str] = {}
    seen = 0
    for page in _book_pages():
        source = page.read_text("utf-8")
        for block in _drawn_widgets(source):
            seen += 1
            for line in _drawn_text(block).splitlines():
                for p in problems(html.unescape(line)):
                    bad.setdefault(f"{page.relative_to(BUILT)}: {p}", line.strip()[:160])
    assert seen, "no drawn widget in the built book"
    assert not bad, "\n".join(f"{k}: {v!r}" for k, v in sorted(bad.items()))
