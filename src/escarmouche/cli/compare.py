"""``escarmouche compare``: two option sets, two rosters or two editions, on the same
dice (common random numbers), with the paired difference of win rates.

>>> from escarmouche.cli import main
>>> main(["compare", "rulebook-duel", "--avec", "reussite_critique_max=20", "-n", "30"]
...      )  # doctest: +ELLIPSIS
Duel sur le pont de cordes : A contre B, 30 combats sur les mêmes dés (graine 0) ; ...
...
A : les règles du fichier ; B : reussite_critique_max = 20.
0
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from escarmouche import systems
from escarmouche.cli._french import integer
from escarmouche.cli._output import print_json, write_text
from escarmouche.cli._sim import (
    add_run_arguments,
    option_changes,
    progress_bar,
    run_options,
    with_changes,
)
from escarmouche.cli.combat import load
from escarmouche.errors import invalid
from escarmouche.roster import Roster
from escarmouche.text.fmt import join

__all__ = ["add_parser", "run"]

HELP = "compare deux jeux d’options, deux fichiers ou deux éditions sur les mêmes dés"
DESCRIPTION = """\
Joue N combats sous deux jeux de règles, A et B, sur les mêmes dés : le combat i
tire ses dés du même flux des deux côtés, et un jet de plus d’un côté ne décale
pas l’autre. Donne, par camp, les victoires sous A et sous B et l’écart B − A en
points avec son intervalle de confiance à 95 % (apparié).

B est au choix :
  un second fichier d’effectifs (mêmes camps) ;
  --avec CHAMP=VALEUR        le même fichier avec ces options changées ;
  --edition N                A = les règles publiées de l’édition N, B = celles du
                             moteur aujourd’hui (les options que le fichier fixe
                             lui-même restent les siennes ; dépôt : --depot).

Exemples :
  escarmouche compare rulebook-duel --avec reussite_critique_max=10 -n 20000
  escarmouche compare d100-duel d100-duel-v2.toml --processus 4
  escarmouche compare d12-escarmouche --edition 1 --json"""


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = subparsers.add_parser(
        "compare", help=HELP, description=DESCRIPTION)
    p.add_argument("fichier", metavar="FICHIER",
                   help="le fichier d’effectifs A (.toml) ou le nom d’un exemple fourni")
    p.add_argument("fichier_b", nargs="?", metavar="FICHIER_B",
                   help="un second fichier d’effectifs, B (mêmes camps)")
    p.add_argument("--avec", action="append", default=[], metavar="CHAMP=VALEUR",
                   help="B = A avec cette option changée (répétable)")
    p.add_argument("--edition", type=integer, metavar="N",
                   help="A sous les règles publiées de l’édition N, B sous celles d’aujourd’hui")
    p.add_argument("--depot", default=".", metavar="DOSSIER",
                   help="le dépôt du livre, qui contient editions/ (défaut : ici)")
    add_run_arguments(p, fights=1000)
    p.set_defaults(_parser=p)
    return p


def _edition_rules(roster: Roster, root: Path, number: int) -> Any:
    """The roster's rules as edition ``number`` published them: its system's defaults
    then, with the options the roster sets itself (those that differ from today's
    defaults) kept."""
    from escarmouche.editions.repo import snapshot

    snap = snapshot(root, number)
    if snap is None:
        raise invalid("edition", number, "CORE-ERR", "pas d’instantané publié dans "
                      f"{root / 'editions' / str(number)}", label="--edition")
    system = systems.get(roster.system)
    if roster.system not in snap.rules:
        raise invalid("edition", number, "CORE-ERR",
                      f"le système {roster.system} n’y figure pas", label="--edition")
    today = system.rules_to_json(system.default_rules())
    mine = system.rules_to_json(roster.rules)
    data = dict(snap.rules[roster.system])
    data.update({k: v for k, v in mine.items() if json.dumps(v) != json.dumps(today.get(k))})
    return system.rules_from_json(data)


def run(args: argparse.Namespace) -> int:
    parser: argparse.ArgumentParser = args._parser
    chosen = [bool(args.fichier_b), bool(args.avec), args.edition is not None]
    if sum(chosen) != 1:
        parser.error("donnez B d’une seule façon : FICHIER_B, --avec ou --edition")
    options = run_options(args)
    a = load(args.fichier)
    if args.fichier_b:
        b = load(args.fichier_b)
        labels = ("A", "B")
        legend = f"A : {a.source} ; B : {b.source}."
    elif args.avec:
        b = with_changes(a, args.avec)
        labels = ("A", "B")
        changed = join(f"{k} = {v}" for k, v in option_changes(args.avec).items())
        legend = f"A : les règles du fichier ; B : {changed}."
    else:
        a = a.with_rules(_edition_rules(a, Path(args.depot), args.edition))
        b = load(args.fichier)
        labels = (f"éd. {args.edition}", "auj.")
        legend = (f"éd. {args.edition} : les règles publiées de l’édition {args.edition} ; "
                  "auj. : celles du moteur aujourd’hui.")
    from escarmouche.simulation import compare

    with progress_bar(args.combats, "Paires de combats", quiet=args.json) as progress:
        result = compare(a, b, args.combats, progress=progress, labels=labels, **options)
    if args.sortie:
        write_text(args.sortie, result.svg())
    if args.json:
        print_json(result.to_json())
        return 0
    print(result.table())
    print(legend)
    if args.sortie:
        print(f"Graphique écrit dans {args.sortie}.")
    return 0
