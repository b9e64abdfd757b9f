"""``escarmouche compare``: two option sets, two rosters or two editions, on the same
dice (common random numbers), with the paired difference of win rates.

>>> from escarmouche.cli import main
>>> main(["compare", "rulebook-duel", "--avec", "reussite_critique_max=20", "-n", "30"]
...      )  # doctest: +ELLIPSIS
Avec reussite_critique_max = 20, « héros » gagne ...
Duel sur le pont de cordes : A contre B, 30 combats sur les mêmes dés (graine 0) ; ...
...
A : les règles du fichier ; B : reussite_critique_max = 20.
0
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from escarmouche import systems
from escarmouche.cli._output import print_json, write_text
from escarmouche.cli._sim import (
    add_edition_arguments,
    add_run_arguments,
    edition_rules,
    option_changes,
    pinned_note,
    progress_bar,
    published_rules,
    run_options,
    with_changes,
)
from escarmouche.cli.combat import load
from escarmouche.text.fmt import join

__all__ = ["add_parser", "run"]

HELP = "compare deux jeux d’options, deux fichiers ou deux éditions sur les mêmes dés"
DESCRIPTION = """\
Joue les mêmes combats sous deux jeux de règles, A et B, sur les mêmes dés : le
combat i tire ses dés du même flux des deux côtés, et un jet de plus d’un côté ne
décale pas l’autre. Dit d’abord, en une phrase, combien de points de victoires B
fait gagner ou perdre à chaque camp, à ± combien près (intervalle de confiance à
95 % apparié), et combien de combats ont changé de vainqueur ; puis le tableau.

Par défaut la série s’arrête dès que l’écart est connu à ± 2 points (--precision
POINTS pour une autre précision ; l’arrêt se décide sur la dispersion des
combats, jamais sur l’écart lui-même, et l’intervalle reste honnête) ;
--combats N joue exactement N
combats. Tous les cœurs de la machine travaillent dès que la série est assez longue
(--processus 1 pour un seul), avec les mêmes résultats. Deux fichiers qui
n’alignent pas le même nombre de combattants ne s’apparient pas : l’écart est
alors mesuré sans appariement, et la phrase le dit.

B est au choix :
  un second fichier d’effectifs (mêmes camps) ;
  --avec CHAMP=VALEUR        le même fichier avec ces options changées ;
  --edition A                A = les règles publiées de l’édition A, B = celles du
                             moteur aujourd’hui (les options que le fichier fixe
                             lui-même restent les siennes ; dépôt : --depot) ;
  --edition A --contre B     A et B = les règles publiées des éditions A et B.

Exemples :
  escarmouche compare rulebook-duel --avec reussite_critique_max=10
  escarmouche compare rulebook-duel --avec reussite_critique_max=10 --precision 1
  escarmouche compare rulebook-duel --avec reussite_critique_max=10 -n 20000
  escarmouche compare d100-duel d100-duel-v2.toml --processus 4
  escarmouche compare d12-escarmouche --edition 1 --json
  escarmouche compare d100-duel --edition 1 --contre 2"""


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = subparsers.add_parser(
        "compare", help=HELP, description=DESCRIPTION)
    p.add_argument("fichier", metavar="FICHIER",
                   help="le fichier d’effectifs A (.toml) ou le nom d’un exemple fourni")
    p.add_argument("fichier_b", nargs="?", metavar="FICHIER_B",
                   help="un second fichier d’effectifs, B (mêmes camps)")
    p.add_argument("--avec", action="append", default=[], metavar="CHAMP=VALEUR",
                   help="B = A avec cette option changée (répétable)")
    add_edition_arguments(p, against=True)
    add_run_arguments(p, fights=None, precision=True)
    p.set_defaults(_parser=p)
    return p


def run(args: argparse.Namespace) -> int:
    parser: argparse.ArgumentParser = args._parser
    if args.contre is not None and args.edition is None:
        parser.error("--contre B : avec --edition A")
    chosen = [bool(args.fichier_b), bool(args.avec), args.edition is not None]
    if sum(chosen) != 1:
        parser.error("donnez B d’une seule façon : FICHIER_B, --avec ou --edition")
    options = run_options(args)
    a = load(args.fichier)
    if args.fichier_b:
        b = load(args.fichier_b)
        labels = ("A", "B")
        variant = "B plutôt qu’avec A"
        legend = f"A : {a.source} ; B : {b.source}."
    elif args.avec:
        b = with_changes(a, args.avec)
        labels = ("A", "B")
        changed = join(f"{k} = {v}" for k, v in option_changes(args.avec).items())
        variant = changed
        legend = f"A : les règles du fichier ; B : {changed}."
    else:
        root = Path(args.depot)
        base = load(args.fichier)
        a = base.with_rules(edition_rules(base, root, args.edition))
        first = f"éd. {args.edition} : les règles publiées de l’édition {args.edition}"
        system = systems.get(base.system)
        if args.contre is None:
            b = base
            labels = (f"éd. {args.edition}", "auj.")
            variant = f"les règles d’aujourd’hui plutôt qu’avec l’édition {args.edition}"
            legend = f"{first} ; auj. : celles du moteur aujourd’hui."
            other = system.rules_to_json(system.default_rules())
        else:
            b = base.with_rules(edition_rules(base, root, args.contre))
            labels = (f"éd. {args.edition}", f"éd. {args.contre}")
            variant = (f"l’édition {args.contre} plutôt qu’avec l’édition "
                       f"{args.edition}")
            legend = f"{first} ; éd. {args.contre} : celles de l’édition {args.contre}."
            other = published_rules(base.system, root, args.contre)
        note = pinned_note(base, published_rules(base.system, root, args.edition), other)
        legend = f"{legend} {note}".strip()
    from escarmouche.simulation import compare
    from escarmouche.simulation.comparison import run_plan

    cap, _rate = run_plan(args.combats, args.precision)
    with progress_bar(cap if _rate is None else None, "Paires de combats",
                      quiet=args.json) as progress:
        result = compare(a, b, args.combats, progress=progress, labels=labels,
                         precision=args.precision, **options)
    if args.sortie:
        write_text(args.sortie, result.svg())
    if args.json:
        print_json(result.to_json())
        return 0
    print(result.headline(variant, touched=True, rules=not args.fichier_b))
    print(result.table())
    print(legend)
    if args.sortie:
        print(f"Graphique écrit dans {args.sortie}.")
    return 0
