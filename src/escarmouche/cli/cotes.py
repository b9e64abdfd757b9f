"""``escarmouche cotes``: exact odds of a dice expression, or of a standard situation.

>>> from escarmouche.cli import main
>>> main(["cotes", "1d4+1"])
Chances exactes de 1d4+1
Total | Chance | Fraction
2 | 25,0 % | 1/4
3 | 25,0 % | 1/4
4 | 25,0 % | 1/4
5 | 25,0 % | 1/4
Moyenne : 3,5 ; minimum : 2 ; maximum : 5.
0
"""

from __future__ import annotations

import argparse
from fractions import Fraction
from typing import Any

from escarmouche import dice
from escarmouche.cli._french import integer
from escarmouche.cli._output import print_json, write_text
from escarmouche.render.svg import distribution_svg, outcome_bars_svg
from escarmouche.render.table import Table
from escarmouche.text.fmt import fraction, number, percent

__all__ = ["add_parser", "run"]

HELP = "probabilités exactes d’une expression de dés ou d’une situation type"
DESCRIPTION = """\
Probabilités exactes, sans simulation.

Une expression de dés (2d6+3, 1d20, 4d6kh3, 1d6!…) : la chance de chaque total,
la moyenne, le minimum et le maximum ; --sortie F.svg dessine le graphique.
Ou une situation type :
  --test-rulebook HAB        un test D100 sous une caractéristique (RB-D100-1)
  --attaque-d100 SEUIL       une attaque d100 de seuil final SEUIL (CC ou CT
                             modifiée, D100-ATK-1), avec --defense et --seuil-defense
  --attaque-d12 BONUS        une attaque d12 de bonus BONUS contre --contre DÉFENSE,
                             normale, avec avantage et avec désavantage (D12-CRIT-1)
  --sauvegarde-d20 BONUS     un jet de sauvegarde d20 avec BONUS (D20-END-1)

Exemples :
  escarmouche cotes 2d6+3
  escarmouche cotes 1d20 --au-moins 15
  escarmouche cotes 3d6 --sortie 3d6.svg
  escarmouche cotes --test-rulebook 55
  escarmouche cotes --attaque-d100 45 --defense parade --seuil-defense 40
  escarmouche cotes --attaque-d12 3 --contre 12
  escarmouche cotes --sauvegarde-d20 2"""


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = subparsers.add_parser(
        "cotes", help=HELP, description=DESCRIPTION)
    what = p.add_mutually_exclusive_group(required=True)
    what.add_argument("expression", nargs="?", metavar="DÉS",
                      help="une expression de dés, par exemple 2d6+3")
    what.add_argument("--test-rulebook", type=integer, metavar="HAB",
                      help="un test D100 du Rulebook sous HAB (ou une autre caractéristique)")
    what.add_argument("--attaque-d100", type=integer, metavar="SEUIL",
                      help="une attaque d100 de seuil final SEUIL")
    what.add_argument("--attaque-d12", type=integer, metavar="BONUS",
                      help="une attaque d12 de bonus BONUS (avec --contre)")
    what.add_argument("--sauvegarde-d20", type=integer, metavar="BONUS",
                      help="un jet de sauvegarde d20 avec ce bonus")
    p.add_argument("--contre", type=integer, metavar="DÉFENSE",
                   help="la défense visée par l’attaque d12")
    p.add_argument("--defense", choices=("aucune", "parade", "esquive"), default="aucune",
                   help="la défense opposée à l’attaque d100 (défaut : aucune)")
    p.add_argument("--seuil-defense", type=integer, default=0, metavar="SEUIL",
                   help="le seuil de la parade (CC) ou de l’esquive (Ag)")
    p.add_argument("--tir", action="store_true", help="l’attaque d100 est un tir")
    p.add_argument("--au-moins", type=integer, metavar="N",
                   help="ajoute la chance d’obtenir au moins N avec l’expression")
    p.add_argument("--sortie", metavar="F.svg",
                   help="écrit le graphique en SVG dans ce fichier (la distribution de "
                        "l’expression, ou les issues de la situation)")
    p.add_argument("--json", action="store_true", help="résultat en JSON (pour les scripts)")
    p.set_defaults(_parser=p)
    return p


def _exact(p: Fraction) -> dict[str, Any]:
    return {"fraction": f"{p.numerator}/{p.denominator}", "valeur": float(p)}


def run(args: argparse.Namespace) -> int:
    parser: argparse.ArgumentParser = args._parser
    if args.expression is None:
        if args.au_moins is not None:
            parser.error("--au-moins ne s’emploie qu’avec une expression de dés")
        return _situation(args)
    if args.defense != "aucune" or args.seuil_defense or args.tir:
        parser.error("--defense, --seuil-defense et --tir vont avec --attaque-d100")
    if args.contre is not None:
        parser.error("--contre va avec --attaque-d12")
    dist = dice.distribution(args.expression)
    canonical = str(dice.parse(args.expression))
    average = dice.mean(args.expression)
    at_least = None
    if args.au_moins is not None:
        at_least = sum((p for v, p in dist.items() if v >= args.au_moins), Fraction(0))
    if args.sortie:
        write_text(args.sortie, distribution_svg(dist, title=f"Distribution de {canonical}",
                                                 xlabel="Total"))
    if args.json:
        out: dict[str, Any] = {
            "expression": canonical,
            "distribution": {str(v): _exact(p) for v, p in dist.items()},
            "moyenne": _exact(average), "minimum": min(dist), "maximum": max(dist),
        }
        if at_least is not None:
            out["au_moins"] = {"seuil": args.au_moins, **_exact(at_least)}
        print_json(out)
        return 0
    rows = [(v, percent(p), fraction(p)) for v, p in dist.items()]
    print(Table(("Total", "Chance", "Fraction"), rows, f"Chances exactes de {canonical}"))
    print(f"Moyenne\u00a0: {number(average)} ; minimum\u00a0: {min(dist)} ; "
          f"maximum\u00a0: {max(dist)}.")
    if at_least is not None:
        print(f"Au moins {args.au_moins}\u00a0: {percent(at_least)} ({fraction(at_least)}).")
    if args.sortie:
        print(f"Graphique écrit dans {args.sortie}.")
    return 0


def _situation(args: argparse.Namespace) -> int:
    """A standard situation: its French table, its JSON and, with ``--sortie``, its
    outcomes as SVG bars."""
    parser: argparse.ArgumentParser = args._parser
    d100_only = args.defense != "aucune" or args.seuil_defense or args.tir
    if args.attaque_d100 is None and d100_only:
        parser.error("--defense, --seuil-defense et --tir vont avec --attaque-d100")
    if (args.attaque_d12 is None) != (args.contre is None):
        parser.error("--attaque-d12 et --contre vont ensemble")
    if args.attaque_d12 is not None:
        data, table, bars, title = _d12(args)
    elif args.sauvegarde_d20 is not None:
        data, table, bars, title = _d20(args)
    elif args.test_rulebook is not None:
        data, table, bars, title = _rulebook(args)
    else:
        data, table, bars, title = _d100(args)
    if args.sortie:
        write_text(args.sortie, outcome_bars_svg(bars, title=title))
    if args.json:
        print_json(data)
        return 0
    print(table)
    if args.sortie:
        print(f"Graphique écrit dans {args.sortie}.")
    return 0


Situation = tuple[dict[str, Any], Any, list[tuple[str, Fraction]], str]


def _rulebook(args: argparse.Namespace) -> Situation:
    from escarmouche.systems.rulebook.odds import d100_odds

    odds = d100_odds(args.test_rulebook)
    data = {"situation": "test_rulebook", "caracteristique": args.test_rulebook,
            "reussite_critique": _exact(odds.critical_success),
            "reussite": _exact(odds.success), "echec": _exact(odds.failure),
            "echec_critique": _exact(odds.critical_failure), "regles": ["RB-D100-1"]}
    bars = [("réussite critique", odds.critical_success),
            ("réussite ordinaire", odds.success - odds.critical_success),
            ("échec ordinaire", odds.failure - odds.critical_failure),
            ("échec critique", odds.critical_failure)]
    return data, odds.table(), bars, f"Test D100 sous {args.test_rulebook} (RB-D100-1)"


def _d100(args: argparse.Namespace) -> Situation:
    from escarmouche.systems.d100.odds import attack_odds

    result = attack_odds(args.attaque_d100, defence=args.defense,
                         defence_target=args.seuil_defense, ranged=args.tir)
    data = {"situation": "attaque_d100", "seuil": args.attaque_d100, "defense": args.defense,
            "seuil_defense": args.seuil_defense, "tir": args.tir,
            "touche": _exact(result.hit), "defendue": _exact(result.defended),
            "porte": _exact(result.lands), "manquee": _exact(result.miss),
            "regles": ["D100-ATK-1", "D100-PARRY-1", "D100-DODGE-1"]}
    defence = "" if args.defense == "aucune" else f", {args.defense} à {args.seuil_defense}"
    title = f"Attaque d100 à {args.attaque_d100}{defence} (D100-ATK-1)"
    bars = [("manquée", result.miss), ("défendue", result.defended), ("porte", result.lands)]
    return data, result.table(title), bars, title


def _d12(args: argparse.Namespace) -> Situation:
    from escarmouche.systems.d12.odds import hit_odds, hit_odds_table
    from escarmouche.systems.d12.rules import MODE_LABELS, Mode

    chances = {m: hit_odds(bonus=args.attaque_d12, defence=args.contre, mode=m) for m in Mode}
    data = {"situation": "attaque_d12", "bonus": args.attaque_d12, "defense": args.contre,
            "touche": {m.value: _exact(p) for m, p in chances.items()},
            "modes": {m.value: MODE_LABELS[m] for m in Mode},
            "regles": ["D12-CRIT-1", "D12-CRIT-2", "D12-ADV-1"]}
    bars = [(f"touche, {MODE_LABELS[m]}", p) for m, p in chances.items()]
    title = f"Attaque d12, bonus {args.attaque_d12} contre défense {args.contre} (D12-CRIT-1)"
    return data, hit_odds_table(args.attaque_d12, [args.contre]), bars, title


def _d20(args: argparse.Namespace) -> Situation:
    from escarmouche.systems.d20.odds import save_odds

    save = save_odds(args.sauvegarde_d20)
    data = {"situation": "sauvegarde_d20", "bonus": save.bonus, "seuil": save.target,
            "reussite": _exact(save.success), "echec": _exact(save.failure),
            "regles": list(save.rules)}
    title = f"Jet de sauvegarde d20, bonus {args.sauvegarde_d20} (D20-END-1)"
    return data, save.table(), save.bars(), title
