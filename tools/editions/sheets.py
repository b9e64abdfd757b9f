"""What players get from an edition: a printable errata sheet and an Atom feed.

- :func:`errata_page` writes ``book/editions/errata-<n>.md``: the edition's changes on
  one printable A4 page when they fit, the **errata** (a rule, or an option's default,
  that changed: what a player must correct in a printed copy) apart from the
  **clarifications** (a ruling where the source text is silent or ambiguous: nothing to
  correct, something to know). Each entry gives the rule IDs, linked to the rule.
- :func:`atom_feed` writes the Atom 1.0 feed of the published editions
  (RFC 4287, with the standard library's ``xml.etree``): one entry per edition, newest
  first, its summary and a link to its « Ce qui a changé » page and its errata sheet.

>>> import datetime as dt
>>> from escarmouche.editions.data import CLARIFICATIONS, Change, Edition
>>> e = Edition(2, dt.date(2027, 1, 15), "Deux parades.", (
...     Change("option-default", ("D100-PARRY-3",), "Deux parades par round.", "d100",
...            "parades_par_round", 1, 2),
...     Change("new-ruling", ("D100-PARRY-2",), "La garde dure un round.")))
>>> [kind for kind, _ in sorted_changes(e)]
['errata', 'clarifications']
>>> print(errata_page(e).splitlines()[1])
# Errata de l’édition 2
"""

from __future__ import annotations

import datetime as _dt
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence

from escarmouche.editions.data import CLARIFICATIONS, Change, Edition
from escarmouche.editions.page import NBSP, french_spaces, page_name
from escarmouche.text.fmt import join, plural

__all__ = ["ERRATA_KINDS", "atom_feed", "counts", "errata_name", "errata_page", "journal_page",
           "sorted_changes"]

#: the kinds of change a player must correct in a printed copy; the others (rulings)
#: are clarifications
ERRATA_KINDS = frozenset({"new-rule", "revised-rule", "removed-rule", "option-default"})

#: Atom's namespace
ATOM = "http://www.w3.org/2005/Atom"
#: the ids of the feed and its entries (RFC 4151 tag URIs): the same wherever the site
#: is hosted, so that a reader never sees an edition twice
TAG = "tag:escarmouche.invalid,2026"


def errata_name(number: int) -> str:
    """The errata sheet of edition ``number`` (``book/editions/errata-<n>.md``)."""
    return f"errata-{number}"


def sorted_changes(edition: Edition) -> list[tuple[str, list[Change]]]:
    """The changes of ``edition``, errata first, then the rulings (« clarifications »
    where the text is silent), then the rewordings (``clarification``: the text says
    the same rule in other words), the groups that have at least one change."""
    from escarmouche.editions.data import is_bound

    errata = [c for c in edition.changes if c.kind in ERRATA_KINDS and not is_bound(c)]
    rulings = [c for c in edition.changes
               if c.kind not in ERRATA_KINDS and c.kind not in CLARIFICATIONS]
    worded = [c for c in edition.changes if c.kind in CLARIFICATIONS]
    bounds = [c for c in edition.changes if is_bound(c)]
    return [(k, v) for k, v in (("errata", errata), ("clarifications", rulings),
                                ("reformulations", worded), ("bornes", bounds)) if v]


def _rules(change: Change) -> str:
    return join([f"{{ref}}`{r} <{r.lower()}>`" for r in change.rules])


def _entry(change: Change, texts: Mapping[str, str] | None = None) -> list[str]:
    from escarmouche.editions.odds import option_label, value_label

    # the designer's Markdown kept: its later lines indented under the list item
    first, *rest = change.text.strip().splitlines() or [""]
    text = "\n".join([first] + [f"  {line}" if line.strip() else "" for line in rest])
    # « — kind. » then the text: the designer's text may hold a colon of its own
    head = f"- **{_rules(change)}** — {change.kind_label}."
    if change.kind == "option-default" and change.system and change.option:
        values = (f"{_cap(option_label(change.system, change.option))}{NBSP}: "
                  f"{value_label(change.system, change.option, change.before)} → "
                  f"{value_label(change.system, change.option, change.after)}")
        from tools.editions.check import generated_text

        # the drafting tool's own text says what the values just said: said once
        return [f"{head} {values}." if generated_text(change)
                else f"{head} {values}. {text}"]
    # a revised, new or reworded statement: its new wording, for a printed copy
    worded = [f"  Nouvel énoncé de {r}{NBSP}: « {texts[r]} »" for r in change.rules
              if change.kind != "removed-rule" and texts and texts.get(r)
              and change.kind not in ("new-ruling", "changed-ruling")]
    return [f"{head} {text}", *(["", *worded] if worded else [])]


def errata_page(edition: Edition, *, published: bool = True,
                texts: Mapping[str, str] | None = None) -> str:
    """The printable errata sheet of ``edition`` (MyST Markdown, see the module
    docstring); an edition not yet published is marked as a draft. ``texts``, the rule
    statements of the edition (its snapshot), give each revised statement's new wording
    so that a paper copy can be patched."""
    n = edition.number
    lines = [f"(errata-{n})=", f"# Errata de l’édition{NBSP}{n}", "",
             f"% Produced by `escarmouche edition` from editions/{n}.toml: do not edit by "
             "hand.", ""]
    if not published:
        lines += ["```{warning}", f"Brouillon{NBSP}: cette édition n’est pas encore "
                  "publiée.", "```", ""]
    groups = sorted_changes(edition)
    # counted as the journal and the feed count them: a clarification is not an erratum
    odds = "les chances types de chaque système" if n == 1 else "les chances avant et après"
    lines += [f"À imprimer et à glisser dans un exemplaire papier du livre. "
              f"{_cap(counts(edition))} ; le détail, avec {odds}, est sur la page "
              f"{{doc}}`{page_name(n)}`.", ""]
    if n == 1:
        lines += ["La première édition est l’origine du livre\u00a0: il n’y a rien à "
                  "corriger. Voici les interprétations qu’elle retient là où les textes "
                  "sources se taisent ou restent ambigus, chacune telle que l’encadré "
                  "« Interprétation retenue » du livre la donne, sous l’énoncé de sa règle "
                  "(« la règle ci-dessus »).", ""]
    titles = {"errata": "Errata\u00a0: ce qui change dans les règles",
              "clarifications": "Clarifications\u00a0: les interprétations retenues",
              "reformulations": "Reformulations\u00a0: le texte change, pas la règle",
              "bornes": "Bornes de sûreté\u00a0: le moteur, pas les règles"}
    for kind, changes in groups:
        lines += [f"**{titles[kind]}**", ""]  # no section inside a container
        for change in changes:
            lines += _entry(change, texts)
        lines.append("")
    if not groups:
        lines += ["Cette édition ne change aucune règle.", ""]
    # the body in a container: printed compact, on one A4 sheet when it fits
    head, body = lines[:5], lines[5:]
    boxed = [*head, "````{container} errata", "", *body, "````"]
    return french_spaces("\n".join(boxed).rstrip() + "\n")


def journal_page(editions: Mapping[int, Edition], published: Sequence[int],
                 archived: Sequence[int] = ()) -> str:
    """``book/editions/journal.md``: the book's one changelog, generated from the edition
    files: every edition, newest first, with its date, summary and counts, links to its
    « Ce qui a changé » page and errata sheet, its PDF when the archive keeps it
    (``archived``: the editions whose PDF is in ``editions/<n>/``), the pages that
    compare two published editions further apart, and the Atom feed to follow them."""
    from escarmouche.editions.page import french_date, span_name

    lines = ["(journal-des-editions)=", "# Journal des éditions", "",
             "% Produced by `escarmouche edition` from editions/*.toml: do not edit by hand.",
             "", "Chaque édition du livre, de la plus récente à la plus ancienne. Sa page "
             "« Ce qui a changé » donne chaque changement avec les chances avant et après "
             "et les exemples dont la sortie a bougé ; sa feuille d’errata s’imprime pour "
             "un exemplaire papier (sur une page quand ses changements y tiennent). Pour "
             "être prévenu d’une nouvelle édition, abonnez-vous au "
             '<a href="../../editions.atom" type="application/atom+xml">flux Atom des '
             "éditions</a>.", ""]
    for number in sorted(editions, reverse=True):
        edition = editions[number]
        draft = number not in published
        title = f"Édition {number}" + (" (brouillon, non publiée)" if draft else "")
        pdf = (f" Le livre de cette édition reste lisible{NBSP}: "
               f'<a href="../../escarmouche-edition-{number}.pdf" download>le PDF de '
               f"l’édition {number}</a>." if number in archived else "")
        lines += [f"## {title}", "",
                  f"**{french_date(edition)}.** {' '.join(edition.summary.split())} "
                  f"{_cap(counts(edition))}{NBSP}: voir "
                  f"{{doc}}`ce qui a changé <{page_name(number)}>` "
                  f"et {{doc}}`la feuille d’errata <{errata_name(number)}>`.{pdf}", ""]
    spans = [(a, b) for a in sorted(published) for b in sorted(published) if b > a + 1]
    if spans:
        lines += ["## D’une édition à une autre", "",
                  "Ce qui a changé entre deux éditions publiées qui ne se suivent pas, "
                  "tous les changements de l’une à l’autre réunis" + NBSP + ":", ""]
        lines += [f"- {{doc}}`de l’édition {a} à l’édition {b} <{span_name(a, b)}>`"
                  for a, b in spans]
        # the pages themselves are in the book's table of contents (_toc.yml globs
        # « book/editions/e[nr]* » under the journal: entre-…, errata-…); a toctree
        # here is refused by the external table of contents
        lines.append("")
    return french_spaces("\n".join(lines).rstrip() + "\n")


def counts(edition: Edition) -> str:
    """« 2 errata et 1 clarification »: the changes of ``edition`` counted by what a
    player does with them, the same words on the errata sheet, the journal and the feed.

    >>> from escarmouche.editions.data import CLARIFICATIONS, Change, Edition
    >>> counts(Edition(1, _dt.date(2026, 11, 30), "", (Change("new-ruling", ("D12-INIT-3",),
    ...                                                   "x"),)))
    '1 clarification'
    """
    words = {"errata": ("erratum", "errata"), "clarifications": ("clarification", None),
             "reformulations": ("reformulation", None),
             "bornes": ("borne de sûreté", "bornes de sûreté")}
    return join([plural(len(c), *words[k]) for k, c in sorted_changes(edition)],
                empty="aucun changement")


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def atom_feed(editions: Mapping[int, Edition], published: Sequence[int], *, base: str,
              title: str = "Escarmouche — éditions du livre",
              updated: _dt.datetime | None = None) -> str:
    """The Atom feed of the ``published`` editions (newest first). ``base`` is the URL
    of the site's root, ending with ``/`` (links are absolute when it is, relative to
    the feed otherwise); ``updated`` defaults to the newest edition's date.

    >>> import datetime as dt
    >>> e = Edition(1, dt.date(2026, 11, 30), "Première édition.")
    >>> feed = atom_feed({1: e}, [1], base="https://exemple.fr/livre/")
    >>> "<link href=\\"https://exemple.fr/livre/book/editions/edition-1.html\\"" in feed
    True
    """
    ET.register_namespace("", ATOM)
    shown = sorted((n for n in published if n in editions), reverse=True)
    feed = ET.Element(f"{{{ATOM}}}feed",
                      {"{http://www.w3.org/XML/1998/namespace}lang": "fr"})
    ET.SubElement(feed, f"{{{ATOM}}}title").text = title
    ET.SubElement(feed, f"{{{ATOM}}}id").text = f"{TAG}:editions"
    ET.SubElement(feed, f"{{{ATOM}}}link", {"rel": "self", "href": f"{base}editions.atom"})
    ET.SubElement(feed, f"{{{ATOM}}}link", {"href": f"{base}index.html"})
    newest = editions[shown[0]].date if shown else _dt.date(2026, 1, 1)
    stamp = updated or _dt.datetime.combine(newest, _dt.time(), _dt.UTC)
    ET.SubElement(feed, f"{{{ATOM}}}updated").text = stamp.isoformat()
    author = ET.SubElement(feed, f"{{{ATOM}}}author")
    ET.SubElement(author, f"{{{ATOM}}}name").text = "Escarmouche"
    for number in shown:
        edition = editions[number]
        entry = ET.SubElement(feed, f"{{{ATOM}}}entry")
        page = f"{base}book/editions/{page_name(number)}.html"
        ET.SubElement(entry, f"{{{ATOM}}}title").text = f"Édition {number}"
        ET.SubElement(entry, f"{{{ATOM}}}id").text = f"{TAG}:edition-{number}"
        ET.SubElement(entry, f"{{{ATOM}}}link", {"href": page})
        ET.SubElement(entry, f"{{{ATOM}}}link", {
            "rel": "related", "title": f"Errata de l’édition {number}",
            "href": f"{base}book/editions/{errata_name(number)}.html"})
        day = _dt.datetime.combine(edition.date, _dt.time(), _dt.UTC)
        ET.SubElement(entry, f"{{{ATOM}}}updated").text = day.isoformat()
        ET.SubElement(entry, f"{{{ATOM}}}summary").text = french_spaces(
            f"{' '.join(edition.summary.split())} ({counts(edition)}.)")
    ET.indent(feed)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(feed, encoding="unicode") \
        + "\n"
