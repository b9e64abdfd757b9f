"""``escarmouche combat``: play and narrate one fight of a roster file.

The file is a roster (TOML, see the book's « Format des fichiers d’effectifs ») or the
name of a packaged example (``escarmouche combat --exemples`` lists them). The dice come
from ``--graine N`` (the same seed gives the same fight) or are typed by hand with
``--des 12,57,3``; the tactics of « au hasard » draw from a stream of their own.

>>> from escarmouche.cli import main
>>> main(["combat", "rulebook-duel", "--graine", "3", "--tours-max", "1"]
...      )  # doctest: +ELLIPSIS
Duel sur le pont de cordes (système Rulebook, graine 3)
...
Issue : ...
0
"""

from __future__ import annotations

import argparse
import random
import re
from typing import Any

from escarmouche.cli._output import print_json
from escarmouche.cli.french import NBSP, integer
from escarmouche.encounter import MAX_RUN_TURNS
from escarmouche.errors import invalid
from escarmouche.policies import POLICIES
from escarmouche.render.table import Table
from escarmouche.rng import ScriptedRolls
from escarmouche.roster import Roster, example_rosters, load_roster, open_roster
from escarmouche.systems import display_name
from escarmouche.text.fmt import join, quote

__all__ = ["add_parser", "load", "run"]

HELP = "joue et raconte un combat décrit par un fichier d’effectifs"
DESCRIPTION = """\
Joue un combat automatique, du début à la fin, et le raconte en français.

FICHIER est un fichier d’effectifs TOML, ou le nom d’un exemple fourni
(--exemples les liste). Les dés viennent de --graine N (même graine, même
combat) ou sont donnés à la main avec --des. Chaque camp suit sa politique
de tactique (celle du fichier, ou --politique).

Exemples :
  escarmouche combat d100-duel --graine 7
  escarmouche combat mon-combat.toml --des 12,57,3,88
  escarmouche combat d100-escarmouche --politique héros=prudent --politique orques=au_hasard
  escarmouche combat d20-escarmouche --json"""


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = subparsers.add_parser(
        "combat", help=HELP, description=DESCRIPTION)
    p.add_argument("fichier", nargs="?", metavar="FICHIER",
                   help="le fichier d’effectifs (.toml) ou le nom d’un exemple fourni")
    dice = p.add_mutually_exclusive_group()
    dice.add_argument("--graine", type=integer, metavar="N",
                      help="la graine des dés (par défaut : tirée au hasard, et affichée)")
    dice.add_argument("--des", metavar="D1,D2,…",
                      help="les dés à la main, dans l’ordre où le combat les lance")
    p.add_argument("--politique", action="append", default=[], metavar="[CAMP=]NOM",
                   help="la politique de tous les camps, ou d’un camp (répétable) ; "
                        f"politiques{NBSP}: {join(sorted(POLICIES), last='ou')}")
    p.add_argument("--tours-max", type=integer, default=50, metavar="N",
                   help="arrête le combat après N tours (défaut : 50)")
    p.add_argument("--regles", action="store_true",
                   help="cite les règles appliquées à chaque ligne du récit")
    p.add_argument("--exemples", action="store_true",
                   help="liste les fichiers d’exemple fournis et s’arrête")
    p.add_argument("--json", action="store_true", help="résultat en JSON (pour les scripts)")
    p.set_defaults(_parser=p)
    return p


def load(name: str) -> Roster:
    """A roster file, or a packaged example by name (:func:`escarmouche.roster.open_roster`)."""
    return open_roster(name)


def _dice(text: str) -> ScriptedRolls:
    if not re.fullmatch(r"\s*-?\d+(\s*,\s*-?\d+)*\s*", text):
        raise invalid("des", text, "CORE-RNG", "une liste d’entiers séparés par des "
                      "virgules est attendue, par exemple 12,57,3", label="--des")
    return ScriptedRolls([int(v) for v in text.split(",")])


def _policies(roster: Roster, given: list[str]) -> dict[str, str]:
    chosen = dict(roster.policies)
    for item in given:
        side, _, name = item.rpartition("=")
        if name not in POLICIES:
            raise invalid("politique", name, "CORE-ERR", "politique inconnue, à choisir parmi "
                          f"{join([quote(p) for p in sorted(POLICIES)], last='ou')}",
                          label="--politique")
        if not side:
            chosen = dict.fromkeys(chosen, name)
        elif side in chosen:
            chosen[side] = name
        else:
            raise invalid("politique", side, "CORE-ERR",
                          f"aucun camp de ce nom parmi {join([quote(s) for s in chosen])}",
                          label="--politique")
    return chosen


def run(args: argparse.Namespace) -> int:
    parser: argparse.ArgumentParser = args._parser
    if args.exemples:
        rows = []
        for name, path in example_rosters().items():
            roster = load_roster(path)
            rows.append((name, roster.system, roster.title, str(len(roster.combatants))))
        print(Table(("Nom", "Système", "Titre", "Combattants"), rows, "Exemples fournis"))
        return 0
    if args.fichier is None:
        parser.error("le fichier d’effectifs est obligatoire (ou --exemples)")
    if not 1 <= args.tours_max <= MAX_RUN_TURNS:
        parser.error(f"--tours-max : entre 1 et {MAX_RUN_TURNS}")
    roster = load(args.fichier)
    policies = _policies(roster, args.politique)
    seed = None
    if args.des is not None:
        rng: Any = _dice(args.des)
        tactics = random.Random("escarmouche-tactique-des")
    else:
        seed = args.graine if args.graine is not None else random.SystemRandom().randrange(10**6)
        rng = random.Random(seed)
        tactics = random.Random(f"escarmouche-tactique-{seed}")
    # the full engine (every die and sentence), on the system's rules kernel where it
    # narrates the fight (Roster.play)
    enc = roster.play(rng, max_turns=args.tours_max, policy=policies, tactics_rng=tactics)
    fighters = [enc.fighter(c.name) for c in roster.combatants]
    if args.json:
        print_json({
            "titre": roster.title, "systeme": roster.system, "graine": seed,
            "politiques": policies, "issue": enc.outcome, "tours": enc.turn,
            "combattants": [{"nom": f.name, "camp": f.side, "pistes": dict(f.tracks),
                             "debout": f.standing} for f in fighters],
            "journal": [e.to_json() for e in enc.log],
        })
        return 0
    origin = "dés à la main" if seed is None else f"graine {seed}"
    print(f"{roster.title or roster.source} (système {display_name(roster.system)}, {origin})")
    print("Politiques" + NBSP + ": " + join(f"{side} {quote(name)}"
                                             for side, name in policies.items()) + ".")
    print(enc.journal(rules=True) if args.regles else enc.narration())
    rows = [(f.name, f.side, ", ".join(f"{k} {v}" for k, v in f.tracks.items()),
             "debout" if f.standing else ("en fuite" if f.fled else "hors de combat"))
            for f in fighters]
    print(Table(("Combattant", "Camp", "Reste", "État"), rows, "Bilan"))
    print(f"Issue{NBSP}: {enc.outcome}.")
    return 0
