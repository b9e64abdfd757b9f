"""The French « Ce qui a changé » page of an edition (MyST Markdown with HTML blocks),
built from the edition file and by running the engine under the rules before and after.

:func:`render_page` takes the edition, the snapshot of the previous edition (``None`` for
the first one) and the snapshot of this one, and writes: the changes with their rule IDs
and kinds, each touched rule's text before and after with a word-level diff
(``<del>``/``<ins>``), the changed options in French, the standard odds of each touched
system before and after (cells whose change passes
:data:`~escarmouche.editions.odds.THRESHOLD` in bold), bar charts side by side, the
simulated duels, the example duel solved exactly before and after
(:mod:`~escarmouche.editions.exact_duels`), and the book examples whose stored output
changed.

>>> word_diff("roll 1d100 and compare", "roll 1d100 then compare")
'roll 1d100 <del>and</del> <ins>then</ins> compare'
"""

from __future__ import annotations

import dataclasses
import difflib
import html
import re
from collections.abc import Mapping, Sequence
from typing import Any

from escarmouche.editions.data import FLAGS, Change, Edition, Snapshot, role_text, rulings
from escarmouche.editions.duels import duel_note, duel_outcomes, paired_duels, situation_duels
from escarmouche.editions.exact_duels import exact_duel_lines
from escarmouche.editions.odds import (
    OddsTable,
    TableDiff,
    compare,
    option_label,
    standard_odds,
    value_label,
)
from escarmouche.model import Json
from escarmouche.render.svg import outcome_bars_svg
from escarmouche.systems import display_name as system_name
from escarmouche.text.fmt import join, plural, quote

__all__ = [
    "DUELS",
    "SEED",
    "comparison_html",
    "french_spaces",
    "page_name",
    "plain_text",
    "render_page",
    "render_span",
    "rules_from_snapshot",
    "span_name",
    "system_name",
    "word_diff",
]

#: duels simulated per rule set on a page, and their seed
DUELS = 200
SEED = 2026

NBSP = "\u00a0"
_MONTHS = ("janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août",
           "septembre", "octobre", "novembre", "décembre")


def french_spaces(markdown: str) -> str:
    """French typography on the prose lines of a Markdown page: a no-break space before
    « : » and inside « », a narrow one before « ; », « ! » and « ? ». Code (fences and
    backquoted spans) and HTML lines are left alone.

    >>> french_spaces("Voir « `a : b` » : oui ; non")
    'Voir «\u00a0`a : b`\u00a0»\u00a0: oui\u202f; non'
    """
    out, fence = [], False
    for line in markdown.split("\n"):
        if line.startswith("```"):
            fence = not fence
        if fence or line.startswith(("```", "<")):
            out.append(line)
            continue
        parts = re.split(r"(`[^`]*`)", line)
        for i in range(0, len(parts), 2):
            p = re.sub(r" :(?=\s|$)", "\u00a0:", parts[i])
            p = re.sub(r" ([;!?])(?=\s|$)", "\u202f\\1", p)
            parts[i] = p.replace("« ", "«\u00a0").replace(" »", "\u00a0»")
        out.append("".join(parts))
    return "\n".join(out)


def page_name(number: int) -> str:
    """The page of edition ``number`` in the book (``book/editions/edition-<n>.md``)."""
    return f"edition-{number}"


def word_diff(before: str, after: str) -> str:
    """The two texts merged word by word, HTML-escaped: removed words in ``<del>``,
    added words in ``<ins>``."""
    a, b = before.split(), after.split()
    out: list[str] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if op == "equal":
            out.append(html.escape(" ".join(a[i1:i2])))
            continue
        if i2 > i1:
            out.append(f"<del>{html.escape(' '.join(a[i1:i2]))}</del>")
        if j2 > j1:
            out.append(f"<ins>{html.escape(' '.join(b[j1:j2]))}</ins>")
    return " ".join(out)


def rules_from_snapshot(system: str, data: Mapping[str, Json]) -> Any:
    """A system's ``Rules`` from a snapshot's JSON; options equal to the ``Rules`` class
    defaults are left to them (so tables of objects, such as d12's actions, need no
    conversion when they did not change)."""
    import json

    from escarmouche import systems
    from escarmouche.model import jsonable

    sys_obj = systems.get(system)
    base = json.loads(json.dumps(sys_obj.rules_to_json(sys_obj.rules_type()),
                                 default=jsonable))
    # an option the engine no longer has cannot be replayed: it is left out
    changed = {k: v for k, v in data.items() if k in base and base[k] != v}
    return sys_obj.rules_from_json(changed)


def french_date(edition: Edition) -> str:
    d = edition.date
    day = "1er" if d.day == 1 else str(d.day)
    return f"{day}{NBSP}{_MONTHS[d.month - 1]} {d.year}"


def _html_table(diff: TableDiff | None, table: OddsTable) -> str:
    head = "".join(f"<th>{html.escape(c)}</th>" for c in table.columns)
    rows = []
    for r, (label, values) in enumerate(table.rows):
        cells = [f"<th>{html.escape(label)}</th>"]
        for c, value in enumerate(values):
            if diff is None:
                cells.append(f"<td>{html.escape(table.show(value))}</td>")
                continue
            before, after, strong = diff.cells[r][c]
            if before == after:
                cells.append(f"<td>{html.escape(table.show(after))}</td>")
                continue
            text = (f"<del>{html.escape(table.show(before))}</del> → "
                    f"<ins>{html.escape(table.show(after))}</ins>")
            cells.append(f'<td class="esc-ed-strong"><strong>{text}</strong></td>' if strong
                         else f"<td>{text}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    # a wide table scrolls inside its own frame on a phone, never the page (focusable,
    # so that a keyboard can scroll it too)
    return (f'<div class="esc-ed-scroll" tabindex="0" role="region" '
            f'aria-label="{html.escape(table.title, quote=True)}">'
            f'<table class="esc-ed-table"><thead><tr>{head}</tr></thead><tbody>'
            + "".join(rows) + "</tbody></table></div>")


def _chart(table: OddsTable, caption: str, column: int = 0) -> str:
    items = [(label, values[column]) for label, values in table.rows]
    svg = outcome_bars_svg(items, title=f"{table.columns[column + 1]} ({caption})",
                           width=420).replace("<svg ", '<svg style="max-width: 100%; '
                                              'height: auto" ', 1)
    return (f'<figure style="flex: 1 1 18rem; min-width: 0; margin: 0">{svg}'
            f"<figcaption>{html.escape(caption)}</figcaption></figure>")


def _odds_section(system: str, before: Any | None, after: Any,
                  texts: Mapping[str, str]) -> list[str]:
    new_tables = standard_odds(system, after)
    diffs = ({d.after.key: d for d in compare(standard_odds(system, before), new_tables)}
             if before is not None else {})
    out = []
    for table in new_tables:
        diff = diffs.get(table.key)
        rules = join([_rule_link(r, texts) for r in table.rules])
        note = ""
        if diff is not None:
            limit = ("5 % de la chance d’avant" if table.kind == "rare" else
                     "au moins un point de pourcentage, ou 5 % d’une moyenne")
            note = (f" Écart notable ({limit}) en gras." if diff.highlighted else
                    (" Des valeurs changent, sous le seuil de mise en évidence."
                     if diff.changed else " Aucune valeur ne change."))
        out += [f"#### {table.title}", "", f"Règles appliquées{NBSP}: {rules}.{note}", "",
                _html_table(diff, table), ""]
        if table.kind == "percent":
            if diff is not None and diff.changed:
                column = max(range(len(table.columns) - 1), key=lambda c: max(
                    abs(a - b) for row in diff.cells for b, a, _ in [row[c]]))
                out += ['<div class="esc-ed-pair">' + _chart(diff.before, "avant", column)
                        + _chart(table, "après", column) + "</div>", ""]
            elif diff is None:
                out += ['<div class="esc-ed-pair">' + _chart(table, "cette édition")
                        + "</div>", ""]
    return out


def comparison_html(system: str, before: Any, after: Any) -> str:
    """The standard odds of ``system`` under two rule sets as one HTML fragment (the
    Atelier): per situation, a table « avant → après » (notable changes in bold) and,
    for probabilities, the two charts side by side."""
    parts = []
    for d in compare(standard_odds(system, before), standard_odds(system, after)):
        table = d.after
        status = ("écart notable en gras" if d.highlighted else
                  "des valeurs changent, sous le seuil" if d.changed else "aucun changement")
        parts.append(f"<h4>{html.escape(table.title)}</h4><p>Règles appliquées{NBSP}: "
                     f"{html.escape(join(list(table.rules)))} ; {status}.</p>"
                     + _html_table(d, table))
        if table.kind == "percent":
            column = max(range(len(table.columns) - 1), key=lambda c: max(
                abs(a - b) for row in d.cells for b, a, _ in [row[c]]))
            parts.append('<div class="esc-ed-pair" style="display: flex; flex-wrap: wrap; '
                         'gap: 8px">' + _chart(d.before, "avant", column)
                         + _chart(table, "après", column) + "</div>")
    return "".join(parts)


def _duels_section(system: str, before: Any | None, after: Any, n: int, seed: int
                   ) -> list[str]:
    new = duel_outcomes(system, after, n, seed)
    lines = ["#### Duels simulés", "",
             f"Une vétérane contre une recrue, jusqu’à la fin du combat ; "
             f"{plural(n, 'duel')} par jeu de règles, graine {seed} (les mêmes dés pour "
             "chaque jeu de règles) ; intervalle de confiance à 95\u202f% (Wilson pour la "
             "victoire, loi normale pour la durée).", ""]
    note = duel_note(system, after)
    if note:  # a simulation variant, not in the text: said wherever it shows
        lines[2:2] = [f"*{note}*", ""]
    if before is None:
        return [*lines, f"- {_cap(new.summary())}.", ""]
    old = duel_outcomes(system, before, n, seed)
    paired = paired_duels(system, before, after, n, seed)
    # « Avant, victoire … : 56 % », not « Avant : victoire … : 56 % » (one colon a clause)
    lines += [f"- Avant, {old.summary()}.", f"- Après, {new.summary()}.",
              f"- {paired.verdict()}", ""]
    return lines + _bounds(before, after) + _situations(system, before, after, n, seed,
                                                        paired.acted > 0)


def _bounds(before: Any, after: Any) -> list[str]:
    """One sentence per changed option that is a safety bound of the engine, not a rule
    (``option(bound=…)``): no duel meets it, and the page says why instead of leaving
    « ne joue dans aucun duel » unexplained."""
    from escarmouche.options import options_of

    out = []
    for o in options_of(after):
        if o.bound and getattr(before, o.name) != getattr(after, o.name):
            out += [f"{quote(_cap(o.label))} ({', '.join(o.rules)}) est une borne de sûreté "
                    f"du moteur, non une règle{NBSP}: {o.bound}. Elle ne change un combat "
                    "qu’une fois atteinte, ce qu’un duel rencontre rarement ; les chances "
                    "exactes ci-dessus, dans une mêlée de plusieurs camps, donnent la "
                    "probabilité de l’atteindre.", ""]
    return out


def _situations(system: str, before: Any, after: Any, n: int, seed: int,
                standard_acted: bool) -> list[str]:
    """The situation duels (``System.situation_duels``) in which the change acted, each
    with its paired verdict; when none did, one sentence saying so."""
    played = situation_duels(system, before, after, n, seed)
    if not played:
        return []
    acting = [(duel, p) for duel, p in played if p.acted]
    if not acting:
        names = join([quote(duel.title) for duel, _ in played])
        also = "" if standard_acted else " non plus"
        return [f"Le changement ne joue dans aucun duel de situation{also} ({names}).", ""]
    lines = ["Duels de situation, où jouent des règles que le duel type ne rencontre pas, "
             f"sur les mêmes dés avant et après{NBSP}:", ""]
    for duel, p in acting:
        who = f"du camp {quote(duel.counted_side)}"
        lines.append(f"- **{duel.title}.** {_cap(duel.situation)}. {p.verdict(who)}")
    return [*lines, ""]


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _inline(text: str) -> str:
    """A rule statement's inline Markdown (``**strong**``, ``*em*``, ```code```) as
    escaped HTML; what sits in code is left as it is.

    >>> _inline("Les **décomptes globaux**, *un* et `a*b`")
    'Les <strong>décomptes globaux</strong>, <em>un</em> et <code>a*b</code>'
    """
    out = []
    for i, part in enumerate(re.split(r"(`[^`]+`)", text)):
        if i % 2:
            out.append(f"<code>{html.escape(part[1:-1])}</code>")
            continue
        part = html.escape(part)
        part = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", part)
        out.append(re.sub(r"\*([^*]+)\*", r"<em>\1</em>", part))
    return "".join(out)


def _rule_text_block(rule: str, before: Mapping[str, str] | None, after: Mapping[str, str]
                     ) -> list[str]:
    old = before.get(rule) if before is not None else None
    new = after.get(rule)
    if old is None and new is None:
        return [f"*{rule}{NBSP}: le livre n’énonce pas cette règle.*", ""]
    if old is None or new is None or old == new:
        text = _inline(new if new is not None else old or "")
        which = " (texte retiré)" if new is None else ""
        return [f'<p class="esc-ed-rule"><strong>{rule}</strong>{which} — {text}</p>', ""]
    diff = word_diff(plain_text(old), plain_text(new))
    return [f'<p class="esc-ed-rule"><strong>{rule}</strong> — {diff}</p>', ""]


def plain_text(text: str) -> str:
    """A text without its Markdown marks (``**``, ``*``, backquotes) and with each MyST
    role (``{ref}`label <target>```) reduced to what it shows, for a place that prints
    text as it is (a word diff, the « Modifié dans l’édition n » line under a rule):
    a mark left in would show as a bare asterisk.

    >>> plain_text("Les **décomptes** et `x`, voir {ref}`D100-PARRY-3 <d100-parry-3>`")
    'Les décomptes et x, voir D100-PARRY-3'
    """
    return re.sub(r"\*\*([^*]+)\*\*|\*([^*]+)\*|`([^`]+)`",
                  lambda m: next(g for g in m.groups() if g is not None), role_text(text))


def _rule_link(rule: str, texts: Mapping[str, str]) -> str:
    """A link to the rule's anchor in the book (``(rb-d100-1)=``) when it exists."""
    return f"{{ref}}`{rule} <{rule.lower()}>`" if rule in texts else rule


#: the kinds of change whose text is a ruling's box, read after its rule
RULING_KINDS = frozenset({"new-ruling", "changed-ruling"})


def _change_block(change: Change, before: Snapshot | None, after: Snapshot) -> list[str]:
    links = [_rule_link(r, after.texts) for r in change.rules]
    out = [f"### {_cap(change.kind_label)}{NBSP}: {join(links)}", "",
           change.text, ""]
    if change.flag:
        out += ["```{warning}", f"À relire{NBSP}: {FLAGS[change.flag]}.", "```", ""]
    if change.kind == "option-default" and change.system and change.option:
        out += [
            "| Système | Option | Avant | Après |", "|---|---|---|---|",
            f"| {system_name(change.system)} | {option_label(change.system, change.option)} | "
            f"{value_label(change.system, change.option, change.before)} | "
            f"{value_label(change.system, change.option, change.after)} |", ""]
        # the rules that quote this value: their text, before and after
        quoting = [r for r in change.rules if before is not None
                   and before.texts.get(r) != after.texts.get(r)]
        if quoting:
            out += ["La règle, telle que le livre l’énonce, mots retirés barrés, mots "
                    f"ajoutés soulignés{NBSP}:", ""]
            for rule in quoting:
                out += _rule_text_block(rule, before.texts if before else None, after.texts)
    else:
        stated = ["La règle, telle que le livre l’énonce"
                  + (", mots retirés barrés, mots ajoutés soulignés" if before else "")
                  + NBSP + ":", ""]
        for rule in change.rules:
            stated += _rule_text_block(rule, before.texts if before else None, after.texts)
        if change.kind in RULING_KINDS:
            # a ruling's text is its box, which follows the rule in the book and says
            # « la règle ci-dessus »: the rule first, as the book prints them
            out[2:2] = stated
        else:
            out += stated
    return out


def _systems_touched(changes: Sequence[Change]) -> list[str]:
    from escarmouche.systems import available, by_rule_prefix

    touched: set[str | None] = {c.system for c in changes if c.system}
    touched |= {by_rule_prefix(r) for c in changes for r in c.rules}
    return [s for s in available() if s in touched]


def _pre(text: str) -> str:
    """Text for a ``<pre>`` kept on one source line (an empty line would end the HTML
    block of the Markdown page): escaped, newlines as ``&#10;``."""
    return html.escape(text).replace("\n", "&#10;")


def _examples(before: Snapshot, after: Snapshot, rules: str = "de cette édition"
              ) -> list[str]:
    """The book examples whose stored output differs, before and after; ``rules`` says
    whose rules give the new output (« de l’édition 3 qu’avec celles de l’édition 1 »
    on a page that spans editions)."""
    keys = [k for k in after.outputs if k in before.outputs
            and before.outputs[k] != after.outputs[k]]
    out = ["## Exemples du livre dont la sortie a changé", ""]
    if not keys:
        return [*out, "Aucun exemple du livre ne donne une autre sortie.", ""]
    out += [f"{plural(len(keys), 'exemple')} du livre donnent une autre sortie avec les "
            f"règles {rules}" + NBSP + ":" if len(keys) > 1 else
            f"Un exemple du livre donne une autre sortie avec les règles {rules}"
            + NBSP + ":", ""]
    for key in keys:
        page, cell = key.split("#")
        old_text, new_text = before.outputs[key], after.outputs[key]
        lines = []
        for line in difflib.ndiff(old_text.splitlines(), new_text.splitlines()):
            if line.startswith("- "):
                lines.append(f"<del>{html.escape(line)}</del>")
            elif line.startswith("+ "):
                lines.append(f"<ins>{html.escape(line)}</ins>")
        # the page by its title, linked (« d100/parade-esquive » is a file name)
        out += [f"### {{doc}}`/book/{page}`, cellule de code {cell}", "",
                '<div class="esc-ed-pair">'
                f"<figure><figcaption>Avant</figcaption><pre>{_pre(old_text)}"
                "</pre></figure>"
                f"<figure><figcaption>Après</figcaption><pre>{_pre(new_text)}"
                "</pre></figure></div>", "",
                "Les lignes qui diffèrent, « - » avant et « + » après" + NBSP + ":", "",
                '<pre class="esc-ed-lines">' + "&#10;".join(lines) + "</pre>", ""]
    return out


def span_name(first: int, last: int) -> str:
    """The page comparing edition ``first`` with edition ``last``
    (``book/editions/entre-<first>-et-<last>.md``)."""
    return f"entre-{first}-et-{last}"


def render_span(first: int, editions: Sequence[Edition], before: Snapshot,
                after: Snapshot, *, duels: int = DUELS, seed: int = SEED) -> str:
    """« Ce qui a changé entre l’édition A et l’édition B »: the snapshot of edition
    ``first`` (A) against that of the last of ``editions`` (B, the editions after A, in
    order), every change of those editions, each named with its edition, and the odds,
    duels and examples of A against B."""
    last = editions[-1]
    changes = tuple(dataclasses.replace(c, text=f"*Édition {e.number}.* {c.text}")
                    for e in editions for c in e.changes)
    # what the page is, then each edition as the journal gives it (date and summary)
    intro = "\n".join(
        [f"Tous les changements de l’édition{NBSP}{first} à l’édition{NBSP}{last.number} "
         f"réunis, et leurs conséquences{NBSP}: les règles de l’édition{NBSP}{first} "
         f"comparées à celles de l’édition{NBSP}{last.number}.", ""]
        + [f"- **Édition {e.number}** du {french_date(e)}. {' '.join(e.summary.split())}"
           for e in editions])
    span = Edition(last.number, last.date, intro, changes)
    heading = (f"({span_name(first, last.number)})=",
               f"# Ce qui a changé entre l’édition{NBSP}{first} et l’édition{NBSP}"
               f"{last.number}")
    return render_page(span, before, after, duels=duels, seed=seed, heading=heading,
                       since=first)


def render_page(edition: Edition, before: Snapshot | None, after: Snapshot, *,
                duels: int = DUELS, seed: int = SEED,
                heading: tuple[str, str] | None = None, since: int | None = None) -> str:
    """The page of ``edition`` (see the module docstring); ``before`` is the snapshot of
    the previous edition, ``None`` for the first one; ``heading`` (the anchor and the
    title) is given for a page that spans several editions (:func:`render_span`)."""
    from escarmouche.systems import TITLES

    n = edition.number
    anchor, title = heading or (f"(edition-{n})=", f"# Ce qui a changé dans l’édition{NBSP}{n}")
    intro = (f"**Édition {n}** du {french_date(edition)}. "
             f"{' '.join(edition.summary.split())}" if heading is None
             else edition.summary)
    lines = [anchor, title, "",
             f"% Produced by `escarmouche edition` from editions/{n}.toml, running the "
             "engine under the rules before and after: do not edit by hand.", "",
             intro, ""]
    changes = edition.changes
    if before is None:
        ruling_ids = [r for c in changes if c.kind == "new-ruling" for r in c.rules]
        lines += ["## Interprétations retenues", "",
                  f"Première édition{NBSP}: chaque règle y est nouvelle. Là où les textes "
                  "sources se taisent ou se contredisent, cette édition retient une "
                  f"interprétation ({plural(len(ruling_ids), 'interprétation')} ici, "
                  "chacune sous l’énoncé de sa règle ; le livre signale celles-ci, et "
                  "quelques autres, par l’encadré "
                  f"{quote('Interprétation retenue')})" + NBSP + ":", ""]
        for change in changes:
            lines += _change_block(change, None, after)
        systems_shown = list(TITLES)
    else:
        from escarmouche.editions.data import is_bound

        ruled = [c for c in changes if not is_bound(c)]
        bounds = [c for c in changes if is_bound(c)]
        lines += ["## Les changements", ""]
        if not ruled:
            lines += ["Cette édition ne change aucune règle.", ""]
        for change in ruled:
            lines += _change_block(change, before, after)
        if bounds:
            lines += ["## Bornes de sûreté du moteur", "",
                      "Ces options ne sont pas des règles\u00a0: elles bornent le travail "
                      "du moteur là où le texte répète un jet tant que l’égalité dure ; "
                      "la borne atteinte, l’égalité se règle au sort.", ""]
        for change in bounds:
            lines += _change_block(change, before, after)
        systems_shown = _systems_touched(changes)
    lines += ["## Conséquences mécaniques", ""]
    if before is None:
        lines += ["Les chances exactes des situations types de chaque système, calculées "
                  "par le moteur avec les règles de cette édition, et des duels simulés.", ""]
    elif not systems_shown:
        lines += ["Aucun système n’est touché.", ""]
    else:
        lines += ["Les chances exactes des situations types de chaque système touché, "
                  "avant et après (les valeurs qui changent sont écrites « avant → "
                  "après »), et des duels simulés sous chaque jeu de règles.", ""]
    for system in systems_shown:
        after_rules = rules_from_snapshot(system, after.rules[system])
        before_rules = (rules_from_snapshot(system, before.rules[system])
                        if before is not None else None)
        lines += [f"### {TITLES[system]}", ""]
        options = [c for c in changes if c.system == system and c.kind == "option-default"]
        if options and before is not None:
            lines += ["Options changées" + NBSP + ": " + join(
                [option_label(system, c.option or "") for c in options]) + ".", ""]
        lines += _odds_section(system, before_rules, after_rules, after.texts)
        lines += _duels_section(system, before_rules, after_rules, duels, seed)
        if before_rules is not None:
            lines += exact_duel_lines(system, before_rules, after_rules)
    if before is not None:
        lines += _examples(before, after, "de cette édition" if since is None else
                           f"de l’édition{NBSP}{n} qu’avec celles de l’édition{NBSP}{since}")
    return french_spaces("\n".join(lines).rstrip() + "\n")


def first_edition_changes(texts: Mapping[str, str],
                          explanations: Mapping[str, str] | None = None) -> list[Change]:
    """Edition 1's changes: every ruling of the specification as a « new ruling », with
    the French text of the book's « Interprétation retenue » box when ``explanations``
    has it (:func:`tools.editions.book.ruling_texts`)."""
    out = []
    for rule in rulings(texts):
        if explanations and explanations.get(rule):
            text = explanations[rule]
        elif "original edition" in texts[rule]:
            text = (f"Fait de l’édition originale retenu pour {rule} (absent du texte "
                    "source ; l’encadré « Interprétation retenue » du livre le détaille).")
        else:
            text = (f"Interprétation retenue pour {rule} (le texte source se tait ou reste "
                    "ambigu ; l’encadré « Interprétation retenue » du livre la détaille).")
        out.append(Change("new-ruling", (rule,), text))
    return out
