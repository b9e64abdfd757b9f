"""What ``simule`` and ``compare`` share: the run options (fights, seed, workers, Dask),
option changes typed as ``CHAMP=VALEUR``, and the progress bar.

The progress bar is tqdm's (``pip install escarmouche[cli]``): well kept, pure Python,
with an ETA, and it turns itself off when stderr is not a terminal (``disable=None``), so
scripts and ``--json`` see only their output. Without tqdm the run goes on, silently.
"""

from __future__ import annotations

import argparse
import contextlib
import tomllib
from collections.abc import Iterator
from typing import Any

from escarmouche.cli._french import integer
from escarmouche.cli._output import check_writable
from escarmouche.errors import invalid
from escarmouche.roster import Roster

__all__ = ["add_run_arguments", "option_changes", "progress_bar", "run_options", "value",
           "with_changes"]

#: bounds of the command line (the engine has its own, CORE-ERR)
MAX_PROCESSES = 256

BAR_FORMAT = ("{desc} : {percentage:3.0f} % |{bar}| {n_fmt}/{total_fmt} "
              "[{elapsed} écoulées, encore {remaining}]")


def add_run_arguments(p: argparse.ArgumentParser, *, fights: int) -> None:
    """The options of a batch of fights: how many, which seed, on what."""
    p.add_argument("-n", "--combats", type=integer, default=fights, metavar="N",
                   help=f"nombre de combats (défaut : {fights})")
    p.add_argument("--graine", type=integer, default=0, metavar="N",
                   help="la graine de la série (défaut : 0) ; même graine, mêmes résultats, "
                        "quel que soit le nombre de processus")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--processus", type=integer, default=1, metavar="N",
                       help="joue les combats dans N processus locaux (défaut : 1)")
    where.add_argument("--dask", metavar="ADRESSE",
                       help="joue les combats sur une grappe Dask (ordonnanceur "
                            "tcp://hôte:8786 ; pip install escarmouche[cluster])")
    p.add_argument("--politique", metavar="NOM",
                   help="la politique de tous les camps (sinon celle de chaque camp)")
    p.add_argument("--tours-max", type=integer, default=50, metavar="N",
                   help="un combat s’arrête après N tours (défaut : 50)")
    p.add_argument("--json", action="store_true", help="résultat en JSON (pour les scripts)")
    p.add_argument("--sortie", metavar="F.svg", help="écrit les graphiques dans ce fichier SVG")


def run_options(args: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments of :func:`escarmouche.simulation.simulate` and its kin."""
    if not 1 <= args.processus <= MAX_PROCESSES:
        args._parser.error(f"--processus : entre 1 et {MAX_PROCESSES}")
    # the output file is checked before the work starts, not after it
    check_writable(args.sortie)
    return {"seed": args.graine, "processes": args.processus, "dask": args.dask,
            "policy": args.politique, "max_turns": args.tours_max}


def value(text: str) -> Any:
    """A value typed on the command line: a TOML value (10, -5, true, "texte", [1, 2]),
    or else the text itself (« weakest »)."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def option_changes(items: list[str]) -> dict[str, Any]:
    """``["reussite_critique_max=10", …]`` as ``{"reussite_critique_max": 10, …}``."""
    out: dict[str, Any] = {}
    for item in items:
        key, sep, text = item.partition("=")
        if not sep or not key.strip():
            raise invalid("option", item, "CORE-ERR", "CHAMP=VALEUR est attendu, par "
                          "exemple reussite_critique_max=10", label="--option")
        out[key.strip()] = value(text.strip())
    return out


def with_changes(roster: Roster, items: list[str]) -> Roster:
    changes = option_changes(items)
    return roster.with_options(**changes) if changes else roster


@contextlib.contextmanager
def progress_bar(total: int, label: str, *, quiet: bool) -> Iterator[Any]:
    """A ``progress(done, total)`` callback drawing a tqdm bar on stderr (none when
    ``quiet``, when stderr is not a terminal, or without tqdm)."""
    try:
        from tqdm import tqdm
    except ImportError:
        tqdm = None
    if quiet or tqdm is None:
        yield None
        return
    bar = tqdm(total=total, desc=label, unit=" combat", bar_format=BAR_FORMAT,
               disable=None, leave=False)
    try:
        def advance(done: int, _total: int) -> None:
            bar.update(done - bar.n)

        yield advance
    finally:
        bar.close()
