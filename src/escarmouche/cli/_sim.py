"""What ``simule`` and ``compare`` share: the run options (fights or precision, seed,
workers, Dask),
option changes typed as ``CHAMP=VALEUR``, and the progress bar.

The progress bar is tqdm's (``pip install escarmouche[cli]``): well kept, pure Python,
with an ETA, and it turns itself off when stderr is not a terminal (``disable=None``), so
scripts and ``--json`` see only their output. Without tqdm the run goes on, silently.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import tomllib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from escarmouche.cli._output import check_writable
from escarmouche.cli.french import integer
from escarmouche.errors import invalid
from escarmouche.roster import Roster
from escarmouche.systems import get
from escarmouche.text.fmt import join, quote

__all__ = ["Once", "add_edition_arguments", "add_run_arguments", "edition_rules",
           "option_changes", "pinned", "pinned_note", "points", "progress_bar",
           "published_rules", "run_options", "value", "with_changes"]

#: bounds of the command line (the engine has its own, CORE-ERR)
MAX_PROCESSES = 256

BAR_FORMAT = ("{desc} : {percentage:3.0f} % |{bar}| {n_fmt}/{total_fmt} "
              "[{elapsed} écoulées, encore {remaining}]")
#: a run that stops at a precision: the fights played so far, no percentage
OPEN_FORMAT = "{desc} : {n_fmt} combats [{elapsed} écoulées]"


def points(text_value: str) -> float:
    """A precision in points, « 2 », « 2,5 » or « ± 2 » (checked by the engine)."""
    return float(text_value.strip().lstrip("±").strip().replace(",", "."))


points.__name__ = "nombre de points attendu"


def add_run_arguments(p: argparse.ArgumentParser, *, fights: int | None,
                      precision: bool = False) -> None:
    """The options of a batch of fights: how many (or, with ``precision``, how precise),
    which seed, on what."""
    if precision:
        p.add_argument("-n", "--combats", type=integer, default=None, metavar="N",
                       help="nombre de combats par jeu de règles ; seul, exactement N "
                            "combats ; avec --precision, N au plus")
        p.add_argument("--precision", type=points, default=None, metavar="POINTS",
                       help="s’arrête dès que l’écart est connu à ± POINTS (défaut : 2 "
                            "points si --combats n’est pas donné ; 1 ou 5 par exemple)")
    else:
        p.add_argument("-n", "--combats", type=integer, default=fights, metavar="N",
                       help=f"nombre de combats (défaut : {fights})")
    p.add_argument("--graine", type=integer, default=0, metavar="N",
                   help="la graine de la série (défaut : 0) ; même graine, mêmes résultats, "
                        "quel que soit le nombre de processus")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--processus", type=integer, default=None, metavar="N",
                       help="joue les combats dans N processus locaux (défaut : tous les "
                            "cœurs dès que la série est assez longue ; 1 pour un seul)")
    where.add_argument("--dask", metavar="ADRESSE",
                       help="joue les combats sur une grappe Dask (ordonnanceur "
                            "tcp://hôte:8786 ; pip install escarmouche[cluster])")
    p.add_argument("--politique", metavar="NOM",
                   help="la politique de tous les camps (sinon celle de chaque camp)")
    p.add_argument("--tours-max", type=integer, default=50, metavar="N",
                   help="un combat s’arrête après N tours (défaut : 50)")
    p.add_argument("--json", action="store_true", help="résultat en JSON (pour les scripts)")
    p.add_argument("--sortie", metavar="F.svg", help="écrit les graphiques dans ce fichier SVG")


def run_options(args: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments of :func:`escarmouche.simulation.simulate` and its kin."""
    if args.processus is not None and not 1 <= args.processus <= MAX_PROCESSES:
        args._parser.error(f"--processus : entre 1 et {MAX_PROCESSES}")
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
def progress_bar(total: int | None, label: str, *, quiet: bool, unit: str = " combat"
                 ) -> Iterator[Any]:
    """A ``progress(done, total)`` callback drawing a tqdm bar on stderr (none when
    ``quiet``, when stderr is not a terminal, or without tqdm), counting ``unit``s.
    ``total`` ``None``: a run that stops at a precision, whose length is not known (a
    count, no percentage)."""
    try:
        from tqdm import tqdm
    except ImportError:
        tqdm = None
    if quiet or tqdm is None:
        yield None
        return
    bar = tqdm(total=total, desc=label, unit=unit,
               bar_format=BAR_FORMAT if total is not None else OPEN_FORMAT,
               disable=None, leave=False)
    try:
        def advance(done: int, _total: int) -> None:
            bar.update(done - bar.n)

        yield advance
    finally:
        bar.close()


class Once(argparse.Action):
    """An option that may be given once: a repeated ``--edition`` is refused instead of
    silently keeping the last one."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        if getattr(namespace, self.dest, None) is not None:
            parser.error(f"{option_string} : une seule fois ; pour comparer deux éditions, "
                         "--edition A --contre B")
        setattr(namespace, self.dest, values)


def add_edition_arguments(p: argparse.ArgumentParser, *, against: bool) -> None:
    """``--edition N`` (and ``--contre M`` for a comparison) and ``--depot``."""
    if against:
        p.add_argument("--edition", type=integer, metavar="A", action=Once,
                       help="A sous les règles publiées de l’édition A (B : celles "
                            "d’aujourd’hui, ou de --contre)")
        p.add_argument("--contre", type=integer, metavar="B", action=Once,
                       help="avec --edition A : B sous les règles publiées de l’édition B")
    else:
        p.add_argument("--edition", type=integer, metavar="N", action=Once,
                       help="joue sous les règles publiées de l’édition N (défaut : "
                            "celles du moteur aujourd’hui)")
    p.add_argument("--depot", default=".", metavar="DOSSIER",
                   help="le dépôt du livre, qui contient editions/ (défaut : ici)")


def published_rules(system: str, root: Path, number: int) -> dict[str, Any]:
    """The default rules (JSON) edition ``number`` published for ``system``."""
    from escarmouche.editions.repo import last_published, snapshot

    snap = snapshot(root, number)
    if snap is None:
        last = last_published(root)
        known = (f"la dernière publiée est la {last}" if last
                 else "aucune n’est publiée dans ce dépôt (--depot)")
        raise invalid("edition", number, "CORE-ERR", "pas d’édition publiée sous ce "
                      f"numéro ; {known}", label="--edition")
    if system not in snap.rules:
        raise invalid("edition", number, "CORE-ERR", f"le système {system} n’y figure pas",
                      label="--edition")
    return dict(snap.rules[system])


def edition_rules(roster: Roster, root: Path, number: int) -> Any:
    """The roster's rules as edition ``number`` published them: its system's defaults
    then, with the options the roster sets itself (those that differ from today's
    defaults) kept."""
    system = get(roster.system)
    data = published_rules(roster.system, root, number)
    data.update(pinned(roster))
    return system.rules_from_json(data)


def pinned(roster: Roster) -> dict[str, Any]:
    """The options a roster file sets itself (JSON, by engine name): those its
    ``[options]`` table names (a file that says ``parades_par_round = 1`` keeps 1 under
    any edition), or, for a roster built in code, those that differ from today's
    defaults."""
    system = get(roster.system)
    mine = system.rules_to_json(roster.rules)
    named = [k.split(".", 1)[1] for k in roster._lines if k.startswith("options.")]
    if named:
        names = {system.option(k).name for k in named}
        return {k: v for k, v in mine.items() if k in names}
    today = system.rules_to_json(system.default_rules())
    return {k: v for k, v in mine.items() if json.dumps(v) != json.dumps(today.get(k))}


def pinned_note(roster: Roster, a: Mapping[str, Any], b: Mapping[str, Any]) -> str:
    """A French sentence naming the options that differ between two rule sets (JSON) but
    that the roster fixes itself, so that no difference between them can show; empty
    when there are none."""
    system = get(roster.system)
    fixed = pinned(roster)
    keys = [system.option(k).key for k in a
            if k in fixed and json.dumps(a.get(k)) != json.dumps(b.get(k))]
    if not keys:
        return ""
    names = join([quote(k) for k in keys])
    verb = "fixe lui-même l’option" if len(keys) == 1 else "fixe lui-même les options"
    return (f"Le fichier {verb} {names}, que les deux éditions règlent autrement : ce "
            "changement ne peut pas y jouer.")
