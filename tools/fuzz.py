"""``make fuzz``: a long fuzz run over every public entry point (tests/helpers/fuzz_targets.py).

Prints a summary (inputs, refusals, crashes, hangs, state changes, per target) and exits
non-zero when anything other than a clean French refusal was found::

    .venv/bin/python tools/fuzz.py --exemples 4000 --graine 1
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "widgets")]

from escarmouche.cli.french import FrenchParser, parse_args  # noqa: E402
from tests.helpers.fuzz_targets import HANG_SECONDS, all_targets, run_all  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = FrenchParser(description="Fuzz de toutes les entrées publiques du moteur.",
                          prog="make fuzz")
    parser.add_argument("--exemples", type=int, default=2800,
                        help="entrées générées par cible (défaut : 2800)")
    parser.add_argument("--graine", type=int, default=0, help="graine du générateur")
    parser.add_argument("--cible", default="", help="ne lancer que les cibles dont le nom "
                        "contient ce texte")
    args = parse_args(parser, argv)
    targets = [t for t in all_targets() if args.cible in t.name]
    print(f"Fuzz : {len(targets)} cibles × {args.exemples} entrées, graine {args.graine}, "
          f"délai par entrée {HANG_SECONDS} s", flush=True)
    report, per_target = run_all(args.exemples, seed=args.graine, only=args.cible)
    width = max(map(len, per_target), default=10)
    for name, count in per_target.items():
        print(f"  {name:<{width}}  {count:>7} entrées")
    print(f"Entrées : {report.inputs} ; refus propres (EscarmoucheError) : {report.refused} ; "
          f"durée : {report.seconds:.0f} s")
    print(f"Plantages : {len(report.crashes)} ; blocages : {len(report.hangs)} ; "
          f"changements d’état sur refus : {len(report.state_changes)}")
    for title, found in (("PLANTAGE", report.crashes), ("BLOCAGE", report.hangs),
                         ("ÉTAT CHANGÉ", report.state_changes)):
        for key, example in found.items():
            print(f"{title} {key}\n    {example}")
    return 0 if report.clean else 1


if __name__ == "__main__":
    raise SystemExit(main())
