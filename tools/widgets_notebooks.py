"""Write and execute the book's demo pages (``book/demos/*.ipynb``).

Each page is described below (:data:`PAGES`): a French introduction, a cell that builds
and displays the demo, and checked cells whose printed output nbval compares (the demo's
text after a scripted click, with a fixed seed or manual dice). The cells that display
widgets are tagged ``nbval-ignore-output``: widget model ids change at every run, but
nbval still executes them.

Usage (from the repository root, with the project's virtualenv)::

    python tools/widgets_notebooks.py            # every page
    python tools/widgets_notebooks.py initiative  # only these pages

A page's notebook is rewritten only when its cells changed here; it is then executed
in place by ``tools/refresh_notebooks.py`` (nbclient, ``store_widget_state=True`` so the
static page renders the widgets, stable widget ids), which writes it only when an output
changed.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import nbformat

ROOT = Path(__file__).resolve().parent.parent
DEMOS = ROOT / "book" / "demos"

# nbformat ships no type information: typed aliases of what is used here.
nb_new: Callable[..., Any] = nbformat.v4.new_notebook
nb_markdown: Callable[..., Any] = nbformat.v4.new_markdown_cell
nb_code: Callable[..., Any] = nbformat.v4.new_code_cell
nb_read: Callable[..., Any] = nbformat.read
nb_write: Callable[..., None] = nbformat.write


def _refresh(path: Path) -> bool:
    """``tools/refresh_notebooks.refresh``: execute in place, store the widget state."""
    sys.path.insert(0, str(ROOT / "tools"))
    refresh: Callable[[Path], bool] = importlib.import_module("refresh_notebooks").refresh
    return refresh(path)

IGNORE = ["nbval-ignore-output"]
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python",
              "name": "python3"}


@dataclass(frozen=True)
class Cell:
    kind: str  # "markdown" | "code"
    source: str
    tags: list[str] = field(default_factory=list)


def md(text: str) -> Cell:
    return Cell("markdown", text.strip())


def code(text: str) -> Cell:
    """A checked code cell (nbval compares its output)."""
    return Cell("code", text.strip())


def widget(text: str) -> Cell:
    """A cell that displays widgets: executed by nbval, its output not compared."""
    return Cell("code", text.strip(), list(IGNORE))


@dataclass(frozen=True)
class Page:
    slug: str
    cells: list[Cell]



STATIC = (
    "Sur cette page, la démonstration montre l’état enregistré lors de la construction du "
    "livre ; pour la manipuler, ouvrez la page dans le navigateur avec le bouton "
    "« Essayer dans le navigateur » : Python y tourne dans votre navigateur, hors ligne."
)

DICE = (
    "Deux façons de lancer les dés : une **graine** (le même nombre redonne les mêmes dés, "
    "pour refaire ou partager un résultat ; « Nouvelle graine » en tire une autre), ou les "
    "**dés manuels** : cochez la case et tapez les résultats de vrais dés, séparés par des "
    "virgules ou des espaces, dans l’ordre où la règle les lance. Une saisie invalide "
    "(un nom vide, une caractéristique hors bornes, un dé manquant) est signalée en "
    "français au-dessus du résultat, qui reste affiché."
)

PAGES = [
    Page("initiative", [
        md(f"""
# Démonstration : l’initiative

Un même groupe, quatre façons de décider qui agit en premier. Choisissez un système,
modifiez le groupe (nom, camp, caractéristiques `NOM=valeur`, traits), puis lancez
l’initiative. La démonstration montre l’ordre sous forme de frise — tours 0, 1 et 2 pour
le système Rulebook ({{ref}}`RB-INIT-3 <rb-init-3>`, {{ref}}`RB-INIT-4 <rb-init-4>`,
effets de vitesse {{ref}}`RB-SPEED-3 <rb-speed-3>`), ordre des groupes avec
l’environnement pour le système d12 ({{ref}}`D12-INIT-5 <d12-init-5>`), ordre des rounds
pour les systèmes d100 et d20 —, explique chaque égalité, liste les dés lancés et les
règles appliquées, et donne les chances exactes d’agir en premier.

Chaque système lit ses propres caractéristiques dans le même groupe : `HAB` (Rulebook),
`Ag` (d100), `init` (d12 et d20).

{DICE}

{STATIC}
"""),
        widget("""
from escarmouche_widgets import InitiativeDemo

demo = InitiativeDemo("rulebook", seed=7)
demo.widget
"""),
        md("""
## Le même calcul, sans cliquer

Les cellules suivantes pilotent la démonstration comme le ferait un lecteur : elles
cochent « dés manuels », tapent des dés et appuient sur le bouton. Aldric fait 3
(réussite critique : il joue au tour 0), Grolk 98 (échec critique : rien avant le
tour 2).
"""),
        code("""
demo.dice.manual.value = True
demo.dice.dice.value = "3, 40, 98, 20"
demo.roll_button.click()
print(demo.result_text)
"""),
        code("print(demo.odds_text)"),
        md("""
Le même groupe dans le système d12, avec l’environnement à 12 : les monstres (13)
passent devant, les héros (12) aussi, car l’environnement perd les égalités.
"""),
        code("""
demo.dice.dice.value = "9, 9, 12, 2"
demo.system.value = "d12"
demo.environment.value = True
print(demo.result_text)
print(demo.odds_text)
"""),
    ]),
    Page("surprise", [
        md(f"""
# Démonstration : les rounds de surprise

Les quatre systèmes traitent la surprise chacun à sa façon. Sur un même groupe, la
démonstration montre qui agit avant les autres, quand, et pourquoi :

- Rulebook : test opposé DIS contre PMR ({{ref}}`RB-SURPRISE-2 <rb-surprise-2>`), puis le
  tour 0 des attaquants ({{ref}}`RB-SURPRISE-3 <rb-surprise-3>`) ;
- d100 : le MJ décide ; au round 1 seuls les adversaires des surpris agissent
  ({{ref}}`D100-SURPRISE-1 <d100-surprise-1>`) ;
- d12 : le tour bonus des attaquants et des défenseurs « alerte »
  ({{ref}}`D12-SURPRISE-2 <d12-surprise-2>`) ;
- d20 : le texte ne prévoit pas de surprise.

Indiquez le camp qui attaque, si les défenseurs ignorent sa présence, et, pour le
Rulebook, la valeur retenue pour chaque groupe (option). Les dés sont lancés système après
système, dans l’ordre du livre ; décochez un système pour l’écarter (pratique avec des dés
manuels).

{DICE}

{STATIC}
"""),
        widget("""
from escarmouche_widgets import SurpriseDemo

demo = SurpriseDemo(seed=3)
demo.widget
"""),
        md("""
## Le même calcul, sans cliquer

Avec la graine 3, les quatre systèmes côte à côte :
"""),
        code("print(demo.result_text)"),
        md("""
Le Rulebook seul, avec des dés tapés : Grolk (DIS 30, la plus basse des attaquants) fait
10, Aldric (PMR 55, la plus haute des défenseurs) fait 90 ; la surprise réussit, mais
Grolk rate critiquement son initiative (97) et ne joue pas au tour 0.
"""),
        code("""
for nom, case in demo.systems.items():
    case.value = nom == "rulebook"
demo.dice.manual.value = True
demo.dice.dice.value = "10, 90, 20, 30, 97, 40"
demo.roll_button.click()
print(demo.result_text)
"""),
    ]),
    Page("parade-esquive", [
        md(f"""
# Démonstration : parade et esquive (d100)

Une attaque du système d100, pas à pas : seuil d’attaque avec chaque modificateur
({{ref}}`D100-ATK-1 <d100-atk-1>`, main non directrice {{ref}}`D100-ATK-5 <d100-atk-5>`,
portées {{ref}}`D100-RANGED-5 <d100-ranged-5>`), jet d’attaque, parade
({{ref}}`D100-PARRY-2 <d100-parry-2>`) ou esquive ({{ref}}`D100-DODGE-1 <d100-dodge-1>`),
localisation par inversion des chiffres ({{ref}}`D100-ATK-2 <d100-atk-2>`), dégâts
({{ref}}`D100-ATK-3 <d100-atk-3>`) et la phrase du MJ. Sous le résultat, la distribution
exacte de l’issue : manquée, parée, esquivée, et les blessures zone par zone.

Une parade demande une parade préparée ou une arme dans chaque main ; une esquive, la
compétence « esquive » ; un projectile ne se pare ni ne s’esquive ; un défenseur surpris
ne se défend pas. Le moteur refuse le reste, en français.

{DICE}

{STATIC}
"""),
        widget("""
from escarmouche_widgets import ParryDodgeDemo

demo = ParryDodgeDemo(seed=5)
demo.widget
"""),
        md("""
## Le même calcul, sans cliquer

L’attaque fait 30 (touche, CC 45), la parade 77 (échoue, CC 38) ; 30 inversé donne 03 :
la tête ; le d10 fait 4.
"""),
        code("""
demo.dice.manual.value = True
demo.dice.dice.value = "30, 77, 4"
demo.roll_button.click()
print(demo.result_text)
print(demo.odds_text)
"""),
        md("Le même coup, esquivé (Ag 42) :"),
        code("""
demo.defence.value = "esquive"
demo.dice.dice.value = "30, 40"
demo.roll_button.click()
print(demo.result_text)
"""),
    ]),
    Page("critiques", [
        md(f"""
# Démonstration : les options de critique (d12)

Sur un 12 naturel ({{ref}}`D12-CRIT-2 <d12-crit-2>`), l’attaquant choisit : (a) dégâts
maximum, (b) un dé supplémentaire explosif ({{ref}}`D12-EXPLODE-1 <d12-explode-1>`), ou
(c) l’avantage pour la prochaine attaque contre la cible ({{ref}}`D12-ADV-1 <d12-adv-1>`).
Donnez les dés de dégâts de l’arme (par exemple `1d8+2`), le bonus d’attaque, la défense
de la cible et le mode du jet : la démonstration lance une attaque, puis montre côte à
côte la distribution exacte des dégâts de chaque option et celle qui rapporte le plus.

{DICE}

{STATIC}
"""),
        widget("""
from escarmouche_widgets import CriticalDemo

demo = CriticalDemo("1d8+2", bonus=3, defence=14, seed=2)
demo.widget
"""),
        md("""
## Le même calcul, sans cliquer

Un 12 naturel, l’option (b) : deux d8 explosifs ; le premier fait 8 et explose (8, puis
3), le second fait 5.
"""),
        code("""
demo.option.value = "explosif"
demo.dice.manual.value = True
demo.dice.dice.value = "12, 8, 8, 3, 5"
demo.roll_button.click()
print(demo.result_text)
print(demo.odds_text)
"""),
    ]),
    Page("tour-d20", [
        md(f"""
# Démonstration : le tour d20

Le tour de Brune, phase par phase. Au début du tour, les dégâts continus puis la
régénération ({{ref}}`D20-START-1 <d20-start-1>`) ; puis ses actions, dans le budget d’un
tour (une simple, un mouvement, une mineure, avec substitutions et points d’action :
{{ref}}`D20-ACT-2 <d20-act-2>`, {{ref}}`D20-ACT-3 <d20-act-3>`) ; Grolk, à son contact,
tente une attaque d’opportunité quand elle s’éloigne ou tire près de lui
({{ref}}`D20-OPP-2 <d20-opp-2>`) ; Vex l’interrompt ({{ref}}`D20-IMM-2 <d20-imm-2>`) ;
enfin les jets de sauvegarde et les effets qui finissent avec son tour
({{ref}}`D20-END-1 <d20-end-1>`, {{ref}}`D20-END-2 <d20-end-2>`). Un nain gagne +5 contre
le poison, un halfelin +5 contre la terreur.

Tapez les actions du tour séparées par des virgules (par exemple
`déplacement, attaque, dégainer`) : un budget dépassé est refusé avec la règle en cause.

{DICE}

{STATIC}
"""),
        widget("""
from escarmouche_widgets import D20TurnDemo

demo = D20TurnDemo(seed=4)
demo.widget
"""),
        md("""
## Le même calcul, sans cliquer

Initiative 15, 5 et 4 : Brune joue d’abord. Grolk frappe d’opportunité (20, puis 3
dégâts) quand elle s’éloigne ; le « Bouclier de force » de Vex annule son attaque ; son
jet de sauvegarde contre le poison fait 12, + 5 pour une naine.
"""),
        code("""
demo.dice.manual.value = True
demo.dice.dice.value = "15 5 4 20 3 12"
demo.roll_button.click()
print(demo.result_text)
print(demo.odds_text)
"""),
        md("Deux attaques dans le même tour ne tiennent pas dans le budget :"),
        code("""
demo.actions.value = "attaque, attaque"
demo.roll_button.click()
print(demo.error_text)
"""),
    ]),
    Page("suivi-combat", [
        md(f"""
# Démonstration : le suivi de combat du MJ

Un outil de table pour les quatre systèmes : le groupe, l’initiative (lancée avec une
graine ou tapée en dés manuels), l’activation suivante, les actions de chacun, les effets
avec leur moment ({{ref}}`RB-TIME-1 <rb-time-1>` à {{ref}}`RB-TIME-3 <rb-time-3>`,
{{ref}}`D20-START-1 <d20-start-1>`), les dégâts et les soins, le journal en français.

L’onglet « Sauvegarde » exporte le combat en JSON (à copier ou à télécharger) et
l’importe de nouveau : rien n’est perdu si la page est rechargée. Les options de départ
propres à chaque système s’écrivent `clé=valeur`, par exemple
`environment=oui, ambush_by=monstres` pour le système d12.

{DICE}

{STATIC}
"""),
        widget("""
from escarmouche_widgets import CombatTracker

suivi = CombatTracker("d12", seed=12)
suivi.widget
"""),
        md("""
## Le même calcul, sans cliquer

Un combat d12 avec l’environnement. Avec la graine 12, aucun groupe n’atteint 12 :
l’environnement agit d’abord ({ref}`D12-INIT-5 <d12-init-5>`), puis Aldric attaque Grolk.
"""),
        code("""
suivi.start_options.value = "environment=oui"
suivi.start_button.click()
print(suivi.result_text)
suivi.next_button.click()
suivi.target.value = "Grolk"
suivi.act_button.click()
print(suivi.result_text)
print(suivi.status_text)
"""),
        md("""
Un poison sur Grolk, qui agit au début de chacune de ses activations ; puis le combat est
exporté, continue, et la sauvegarde le remet exactement où il en était — comme après un
rechargement de la page.
"""),
        code("""
suivi.effect_name.value = "poison"
suivi.effect_bearer.value = "Grolk"
suivi.effect_per_tick.value = "PV=-2"
suivi.effect_duration.value = 3
suivi.effect_button.click()
suivi.export_button.click()
sauvegarde = suivi.json.value
avant = suivi.status_text

suivi.next_button.click()
suivi.next_button.click()
print(suivi.result_text)

suivi.json.value = sauvegarde
suivi.import_button.click()
print(suivi.result_text)
print(suivi.status_text == avant)
print(suivi.log_text)
"""),
    ]),
]


def notebook(page: Page) -> Any:
    nb = nb_new()
    nb.metadata = {"kernelspec": dict(KERNELSPEC), "language_info": {"name": "python"}}
    for i, cell in enumerate(page.cells):
        new = nb_markdown(cell.source) if cell.kind == "markdown" else nb_code(cell.source)
        new["id"] = f"{page.slug}-{i:02d}"
        if cell.tags:
            new["metadata"]["tags"] = list(cell.tags)
        nb.cells.append(new)
    return nb


def _shape(nb: Any) -> list[tuple[str, str, list[str]]]:
    return [(c["cell_type"], c["source"], list(c.get("metadata", {}).get("tags", [])))
            for c in nb.cells]


def write(page: Page) -> Path:
    """Write the page's notebook when its cells changed (outputs are kept otherwise)."""
    path = DEMOS / f"{page.slug}.ipynb"
    fresh = notebook(page)
    if path.exists():
        old = nb_read(path, as_version=4)
        if _shape(old) == _shape(fresh):
            return path
    path.parent.mkdir(parents=True, exist_ok=True)
    nb_write(fresh, path)
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("pages", nargs="*", help="slugs (default: every page)")
    args = parser.parse_args(argv)
    known = {p.slug: p for p in PAGES}
    unknown = [s for s in args.pages if s not in known]
    if unknown:
        raise SystemExit(f"pages inconnues : {', '.join(unknown)} ; pages : "
                         f"{', '.join(known)}")
    for page in [known[s] for s in args.pages] or PAGES:
        path = write(page)
        changed = _refresh(path)
        print(f"{path.relative_to(ROOT)} : {'mis à jour' if changed else 'inchangé'}",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
