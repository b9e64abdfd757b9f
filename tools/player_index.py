"""The player's index (``book/index-joueur.md``): every rule ID and every term, linked.

Built from the book itself: each rule of ``spec/RULES.md`` with the page and section
where the book states it (its ``(label)=`` target in ``book_src/``), each term of the
glossary (``book/glossaire.md``) with the systems that use it. Run it after adding a rule
or a term; ``tests/faces/book/test_index.py`` fails when the page is not up to date.

    .venv/bin/python tools/player_index.py          # rewrite book/index-joueur.md
    .venv/bin/python tools/player_index.py --check  # exit 1 if it would change
"""

from __future__ import annotations

import re
import sys
import unicodedata
from pathlib import Path

from escarmouche import systems as registry
from escarmouche.cli.french import FrenchParser, parse_args

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "book" / "index-joueur.md"

def _short(title: str) -> str:
    """« Système d100 (CC/CT, localisation) » → « Système d100 »."""
    return title.split(" (", 1)[0]


#: (rule prefix, short title, package) of each built-in system, asked of the registry
SYSTEMS = tuple((registry.get(n).rule_prefix + "-", _short(registry.get(n).title), n)
                for n in registry.NAMES)
_RULE = re.compile(r"^- ([A-Z0-9]+(?:-[A-Z0-9]+)+)\b", re.M)
_LABEL = re.compile(r"^\(([a-z0-9]+(?:-[a-z0-9]+)+)\)=\n\*\*([A-Z0-9-]+)\*\*", re.M)
_HEADING = re.compile(r"^(#{1,2}) (.+)$", re.M)
_ENTRY = re.compile(r"^([^\s:][^\n]*)\n((?:  [^\n]*\n|\n)+)", re.M)
_ITALIC = re.compile(r"\*([^*\n]+)\*")
_SYSTEM_NAMES = tuple(title.removeprefix("Système ") for _, title, _ in SYSTEMS)


def rule_ids() -> list[str]:
    """The rule IDs of the systems, in the order of RULES.md (CORE- rules are the
    engine's, documented in the API reference)."""
    text = (ROOT / "spec" / "RULES.md").read_text(encoding="utf-8")
    return [r for r in _RULE.findall(text) if not r.startswith("CORE-")]


def rule_places() -> dict[str, tuple[str, str, str]]:
    """Rule ID → (label, docname, section title) where the book states it."""
    places: dict[str, tuple[str, str, str]] = {}
    for path in sorted((ROOT / "book_src").rglob("*.md")):
        text = path.read_text(encoding="utf-8")
        doc = path.relative_to(ROOT / "book_src").with_suffix("").as_posix()
        headings = [(m.start(), m.group(2).strip()) for m in _HEADING.finditer(text)]
        for m in _LABEL.finditer(text):
            section = [title for start, title in headings if start < m.start()]
            places.setdefault(m.group(2), (m.group(1), doc, section[-1] if section else ""))
    return places


def glossary_terms() -> list[tuple[str, str]]:
    """(term, systems) of the « Termes de jeu » glossary, sorted as a French index."""
    text = (ROOT / "book" / "glossaire.md").read_text(encoding="utf-8")
    block = text.split("```{glossary}", 1)[1].split("```", 1)[0]
    terms = []
    for m in _ENTRY.finditer(block):
        term, body = m.group(1).strip(), m.group(2)
        named = {name for italic in _ITALIC.findall(body)
                 for name in re.split(r"[,;. ]+", italic) if name in _SYSTEM_NAMES}
        systems = ", ".join(n for n in _SYSTEM_NAMES if n in named)
        terms.append((term, systems or "tous les systèmes"))
    return sorted(terms, key=lambda t: _sort_key(t[0]))


def _sort_key(term: str) -> str:
    """Accents and case ignored, as in a French index (« échec » between « E » and « F »)."""
    plain = unicodedata.normalize("NFD", term.casefold())
    return "".join(c for c in plain if not unicodedata.combining(c))


def render() -> str:
    places = rule_places()
    missing = [r for r in rule_ids() if r not in places]
    if missing:
        raise SystemExit("règles sans définition dans le livre : " + ", ".join(missing))
    out = [
        "# Index des règles et des termes",
        "",
        "L’index du joueur et du MJ : chaque règle du livre, avec la page et la section où",
        "elle est énoncée, puis chaque terme du {doc}`glossaire <glossaire>`. Les noms du",
        "moteur, pour qui programme, sont dans la {doc}`référence de l’API <api>`.",
        "",
        "<!-- Généré par tools/player_index.py : ne pas modifier à la main. -->",
        "",
    ]
    for prefix, title, name in SYSTEMS:
        out += [f"## {title}", "", "| Règle | Page | Section |", "|:---|:---|:---|"]
        for rule in rule_ids():
            if not rule.startswith(prefix):
                continue
            label, doc, section = places[rule]
            out.append(f"| {{ref}}`{rule} <{label}>` | {{doc}}`/book/{doc}` | {section} |")
        aide = f"book/{name}/aide-memoire"
        out += ["", f"Sur une page : {{doc}}`/{aide}`.", ""]
    out += ["## Termes", "", "| Terme | Systèmes |", "|:---|:---|"]
    for term, systems in glossary_terms():
        out.append(f"| {{term}}`{term}` | {systems} |")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = FrenchParser(description="Écrit l’index du joueur (book/index-joueur.md) : chaque "
                          "identifiant de règle et chaque terme, avec son lien.")
    parser.add_argument("--check", action="store_true",
                        help="ne rien écrire ; code 1 si la page n’est pas à jour")
    args = parse_args(parser, argv)
    text = render()
    current = TARGET.read_text(encoding="utf-8") if TARGET.is_file() else ""
    if args.check:
        if current != text:
            print("book/index-joueur.md n’est pas à jour : lancez tools/player_index.py",
                  file=sys.stderr)
            return 1
        return 0
    if current != text:
        TARGET.write_text(text, encoding="utf-8")
        print("book/index-joueur.md réécrit")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
