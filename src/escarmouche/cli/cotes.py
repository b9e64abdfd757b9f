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

from escarmouche import dice, systems
from escarmouche.cli._output import print_json, write_text
from escarmouche.cli.french import integer
from escarmouche.odds import exact_json
from escarmouche.render.svg import distribution_svg, outcome_bars_svg
from escarmouche.render.table import Table
from escarmouche.systems.describe import Situation, SituationParam
from escarmouche.text.fmt import fraction, number, percent

__all__ = ["add_parser", "run"]

HELP = "probabilités exactes d’une expression de dés ou d’une situation type"


def _description(situations: list[tuple[str, Situation]]) -> str:
    """The French description: the dice expressions, then each system's situations (as
    the systems declare them, ``System.situations``), then examples."""
    lines = ["Probabilités exactes, sans simulation.", "",
             "Une expression de dés (2d6+3, 1d20, 4d6kh3, 1d6!…) : la chance de chaque total,",
             "la moyenne, le minimum et le maximum ; --sortie F.svg dessine le graphique.",
             "Ou une situation type :"]
    for _, sit in situations:
        lines.append(f"  --{sit.name} {sit.metavar}".ljust(29) + sit.help)
        for param in sit.params:
            lines.append(f"      --{param.name}".ljust(29) + param.help)
    lines += ["", "Exemples :", "  escarmouche cotes 2d6+3",
              "  escarmouche cotes 1d20 --au-moins 15", "  escarmouche cotes 3d6 --sortie 3d6.svg"]
    lines += [f"  escarmouche cotes {sit.example}" for _, sit in situations if sit.example]
    return "\n".join(lines)


def _situations() -> list[tuple[str, Situation]]:
    """Every situation of every available system, with its system's name."""
    return [(name, sit) for name in systems.available()
            for sit in systems.get(name).situations()]


def _dest(name: str) -> str:
    return name.replace("-", "_")


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    situations = _situations()
    p: argparse.ArgumentParser = subparsers.add_parser(
        "cotes", help=HELP, description=_description(situations),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    what = p.add_mutually_exclusive_group(required=True)
    what.add_argument("expression", nargs="?", metavar="DÉS",
                      help="une expression de dés, par exemple 2d6+3")
    what.add_argument("--duel", metavar="FEUILLE",
                      help="les cotes exactes d’un duel (une feuille de combat ou un exemple "
                           "comme d100-duel, d20-duel, d12-duel, rulebook-duel)")
    params: dict[str, SituationParam] = {}
    for _, sit in situations:
        what.add_argument(f"--{sit.name}", type=integer, metavar=sit.metavar, help=sit.help)
        for param in sit.params:
            params.setdefault(param.name, param)
    for param in params.values():
        if param.flag:
            p.add_argument(f"--{param.name}", action="store_true", help=param.help)
        elif param.choices:
            p.add_argument(f"--{param.name}", choices=param.choices, default=param.default,
                           help=param.help)
        else:
            p.add_argument(f"--{param.name}", type=integer, metavar=param.metavar,
                           default=param.default, help=param.help)
    p.add_argument("--au-moins", type=integer, metavar="N",
                   help="la chance d’un total au moins égal à N (avec une expression)")
    p.add_argument("--sortie", metavar="F.svg",
                   help="écrit le graphique en SVG dans ce fichier")
    p.add_argument("--json", action="store_true", help="résultat en JSON (pour les scripts)")
    p.add_argument("--tours", type=integer, metavar="N", default=50,
                   help="avec --duel : la limite de rounds (50 par défaut)")
    p.set_defaults(_parser=p, _situations=situations)
    return p


def _given(args: argparse.Namespace, param: SituationParam) -> bool:
    value = getattr(args, _dest(param.name))
    return bool(value) if param.flag else value is not None and value != param.default


def _duel(args: argparse.Namespace) -> int:
    """``cotes --duel``: the exact odds of a two-fighter duel (:func:`escarmouche.exact.duel`):
    as fractions in JSON, where they are printed; in floats for the sentences, which
    show percents (the same computation, two to four times faster)."""
    from escarmouche.exact import duel

    result = duel(args.duel, max_turns=args.tours, exact=bool(args.json))
    if args.json:
        print_json(result.to_json())
    else:
        print(result.text())
    return 0


def run(args: argparse.Namespace) -> int:
    parser: argparse.ArgumentParser = args._parser
    situations: list[tuple[str, Situation]] = args._situations
    if getattr(args, "duel", None) is not None:
        return _duel(args)
    if args.expression is None:
        if args.au_moins is not None:
            parser.error("--au-moins ne s’emploie qu’avec une expression de dés")
        return _situation(args, situations)
    for _, sit in situations:
        for param in sit.params:
            if _given(args, param):
                parser.error(f"--{param.name} va avec --{sit.name}")
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
            "distribution": {str(v): exact_json(p) for v, p in dist.items()},
            "moyenne": exact_json(average), "minimum": min(dist), "maximum": max(dist),
        }
        if at_least is not None:
            out["au_moins"] = {"seuil": args.au_moins, **exact_json(at_least)}
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


def _situation(args: argparse.Namespace, situations: list[tuple[str, Situation]]) -> int:
    """A standard situation: its French table, its JSON and, with ``--sortie``, its
    outcomes as SVG bars."""
    parser: argparse.ArgumentParser = args._parser
    chosen = next(sit for _, sit in situations
                  if getattr(args, _dest(sit.name)) is not None)
    for _, sit in situations:
        for param in sit.params:
            if sit is not chosen and param not in chosen.params and _given(args, param):
                parser.error(f"--{param.name} va avec --{sit.name}")
    for param in chosen.params:
        if param.required and getattr(args, _dest(param.name)) is None:
            parser.error(f"--{chosen.name} et --{param.name} vont ensemble")
    params = {_dest(p.name): getattr(args, _dest(p.name)) for p in chosen.params}
    data, table, bars, title = chosen.compute(getattr(args, _dest(chosen.name)), params)
    if args.sortie:
        write_text(args.sortie, outcome_bars_svg(bars, title=title))
    if args.json:
        print_json(data)
        return 0
    print(table)
    if args.sortie:
        print(f"Graphique écrit dans {args.sortie}.")
    return 0
