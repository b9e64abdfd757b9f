"""``escarmouche simule``: the balance of a roster over many fights, or a sweep of an
option grid.

>>> from escarmouche.cli import main
>>> main(["simule", "rulebook-duel", "-n", "40", "--graine", "1"])  # doctest: +ELLIPSIS
Duel sur le pont de cordes : 40 combats (Rulebook, graine 1) ; ...
Camp | Victoires (IC 95 % de Wilson) | ...
...
0
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from escarmouche.cli._output import print_json, write_text
from escarmouche.cli._sim import (
    add_edition_arguments,
    add_run_arguments,
    edition_rules,
    progress_bar,
    run_options,
    value,
    with_changes,
)
from escarmouche.cli.combat import load
from escarmouche.errors import invalid
from escarmouche.text.fmt import plural

__all__ = ["SINGLE_FIGHTS", "add_parser", "run"]

#: fights of a balance without a grid when --combats is not given
SINGLE_FIGHTS = 1000

HELP = "bilan d’un combat sur de nombreux combats (victoires, durée, santé)"
DESCRIPTION = """\
Joue N fois le combat d’un fichier d’effectifs, en mode simulation (mêmes issues
que le moteur complet, sans récit), et dresse son bilan par camp : taux de
victoire avec son intervalle de confiance à 95 % (Wilson), survivants, santé
restante, dégâts par tour, durée des combats.

Chaque combat i tire ses dés d’un flux propre (graine, i) : le résultat ne dépend
que de la graine, jamais du nombre de processus ni de la grappe.

--option CHAMP=VALEUR change une option des règles (clés françaises des fichiers
d’effectifs). --grille CHAMP=V1,V2,… balaie une grille d’options (répétable : le
produit des grilles) sur les mêmes flux de dés : chaque point est comparé au premier
combat par combat (écart apparié, en points, et combats qui ont changé de
vainqueur), et la série s’arrête dès que chaque écart est connu à ± 2 points
(--precision POINTS pour une autre précision ; --combats N pour N combats par point
exactement). Sans grille, N combats (défaut : 1 000). --exact, pour un duel, ajoute
ses cotes exactes (sans simulation) : sous le bilan, ou avec --grille à chaque point,
en courbe sans intervalle.

Tous les cœurs de la machine travaillent dès que la série est assez longue
(--processus 1 pour un seul), avec les mêmes résultats.

Exemples :
  escarmouche simule d100-duel -n 10000
  escarmouche simule d100-duel -n 100000 --processus 4
  escarmouche simule d100-duel -n 20000 --exact
  escarmouche simule rulebook-duel --grille reussite_critique_max=1,5,10,20
  escarmouche simule d100-duel --grille parades_par_round=0,1,2 --exact --sortie b.svg
  escarmouche simule d12-escarmouche --dask tcp://ordonnanceur:8786 -n 1000000
  escarmouche simule mon-combat.toml --json > bilan.json"""


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = subparsers.add_parser(
        "simule", help=HELP, description=DESCRIPTION)
    p.add_argument("fichier", metavar="FICHIER",
                   help="le fichier d’effectifs (.toml) ou le nom d’un exemple fourni")
    add_run_arguments(p, fights=None, precision=True)
    p.add_argument("--option", action="append", default=[], metavar="CHAMP=VALEUR",
                   help="change une option des règles (répétable)")
    p.add_argument("--grille", action="append", default=[], metavar="CHAMP=V1,V2,…",
                   help="balaie ces valeurs d’une option (répétable)")
    p.add_argument("--exact", action="store_true",
                   help="un duel : ses cotes exactes (sans simulation) à côté du bilan "
                        "simulé ; avec --grille, à chaque point (une courbe, sans "
                        "intervalle)")
    add_edition_arguments(p, against=False)
    p.set_defaults(_parser=p)
    return p


def _grid(roster: Any, items: list[str]) -> dict[str, list[Any]]:
    """``["reussite_critique_max=1,5,10"]`` as ``{"crit_success_max": [1, 5, 10]}``: the
    French keys the system's options declare (an unknown one is refused with the list)."""
    from escarmouche.systems import get

    system = get(roster.system)
    grid: dict[str, list[Any]] = {}
    for item in items:
        key, sep, text = item.partition("=")
        values = [value(v.strip()) for v in text.split(",") if v.strip()]
        if not sep or not key.strip() or not values:
            raise invalid("grille", item, "CORE-ERR", "CHAMP=V1,V2,… est attendu, par "
                          "exemple reussite_critique_max=1,5,10", label="--grille")
        spec = system.option(key.strip())
        if spec.key != key.strip():
            raise invalid("grille", key.strip(), "CORE-ERR", "option inconnue ; sa clé "
                          f"française est « {spec.key} »", label="--grille")
        grid[spec.name] = values
    return grid


def run(args: argparse.Namespace) -> int:
    roster = load(args.fichier)
    if args.edition is not None:
        roster = roster.with_rules(edition_rules(roster, Path(args.depot), args.edition))
    roster = with_changes(roster, args.option)
    if args.precision is not None and not args.grille:
        args._parser.error("--precision : avec --grille (ou escarmouche compare), pour "
                           "connaître un écart à ± POINTS près")
    if args.exact and args.json:
        args._parser.error("--exact : le bilan JSON garde son schéma ; les cotes exactes "
                           "en JSON : escarmouche cotes --duel FICHIER --json")
    options = run_options(args)
    grid = _grid(roster, args.grille) if args.grille else {}
    exact: Any = None
    if args.exact:  # refused (French, CORE-ERR) before any fight is played
        turns = options["max_turns"] or 50
        if grid:  # the duel solved at each point of the grid: a curve, no interval
            from escarmouche.simulation import exact_sweep

            points = 1
            for values in grid.values():
                points *= len(values)
            with progress_bar(points, "Calcul exact", quiet=args.json,
                              unit=" point") as solved:
                exact = exact_sweep(roster, grid, max_turns=turns, policy=options["policy"],
                                    progress=solved)
        else:
            from escarmouche.exact import duel

            exact = duel(roster, max_turns=turns, policy=options["policy"])
    from escarmouche.simulation import simulate, sweep

    if grid:
        from escarmouche.simulation.comparison import run_plan

        cap, _rate = run_plan(args.combats, args.precision)
        points = 1
        for values in grid.values():
            points *= len(values)
        with progress_bar(cap * points if _rate is None else None, "Balayage",
                          quiet=args.json) as progress:
            result: Any = sweep(roster, grid, args.combats, progress=progress,
                                precision=args.precision, **options)
    else:
        fights = args.combats if args.combats is not None else SINGLE_FIGHTS
        with progress_bar(fights, "Combats", quiet=args.json) as progress:
            result = simulate(roster, fights, progress=progress, **options)
    if args.sortie:
        chart = result.svg()
        if grid and exact is not None:  # the exact curve under the sampled bars
            from escarmouche.render.simsvg import stack_svg

            chart = stack_svg([chart, exact.svg()], title="Balayage simulé et exact")
        write_text(args.sortie, chart)
    if args.json:
        print_json(result.to_json())
        return 0
    if args.grille and result.headline():
        print(result.headline())
    print(result.table())
    if exact is not None and grid:
        print(exact)
    elif exact is not None:
        print(exact.text())
        print(exact.beside(result))
    if args.sortie:
        print(f"Graphiques écrits dans {args.sortie}.")
    elif not args.grille:
        print(f"({plural(fights, 'combat')} ; --sortie F.svg dessine les issues et "
              "la durée.)")
    return 0
