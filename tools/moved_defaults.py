"""The unit suite with every declared default moved at once (``make defauts-deplaces``,
a step of ``make test``).

A designer may publish any accepted value of any option; the test suite must follow.
On a scratch clone of this checkout, every option declaration (``option(…)`` on a
``Rules`` field, ``src/escarmouche/systems/<system>/rules.py``) gets another value its
declaration accepts (:func:`escarmouche.options.another_value`: the other boolean, the
next or previous whole number, another choice), all at once; then the unit and property
tests run in that clone's own interpreter. A test that assumes a default must pin it
(``Rules(…)``) or compute its expectation from the rules in force.

Left out, by marker, are the tests that compare the committed book with the engine
(``published``: the book's notebooks, the last published edition's snapshot): under moved
defaults the book is a draft, which ``make revision`` drafts and publishes for real.

Usage::

    python tools/moved_defaults.py              # move, then run the suite
    python tools/moved_defaults.py --liste      # only print the moved values
    python tools/moved_defaults.py --garder DIR # keep the clone in DIR
"""

from __future__ import annotations

import importlib.util
import inspect
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from escarmouche import systems
from escarmouche.cli.french import FrenchParser, parse_args
from escarmouche.options import another_value

ROOT = Path(__file__).resolve().parents[1]

#: what runs in the clone: the unit and property tests, on both cores; not the checks of
#: exact odds against 100 000 sampled fights (``sampling``), which compare two readings
#: of the same rules and so cannot turn red for a moved default
TESTS = ("-n", "2", "-m", "not browser and not book and not published and not sampling")


def _revision() -> object:
    spec = importlib.util.spec_from_file_location("_revision_tool", ROOT / "tools" /
                                                  "revision.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def moved() -> list[tuple[str, str, str, str]]:
    """Every option with another accepted value: (rules file relative to the checkout,
    the option's French key, the new default as Python source, « old → new »)."""
    out = []
    for name in systems.NAMES:
        system = systems.get(name)
        rules = system.default_rules()
        path = Path(inspect.getsourcefile(type(rules)) or "").resolve()
        for o in system.options():
            value = getattr(rules, o.name)
            other = another_value(o, value)
            if other is None:
                continue
            rel = path.relative_to(ROOT / "src").as_posix()
            out.append((f"src/{rel}", o.key, repr(other), f"{value!r} → {other!r}"))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = FrenchParser(description="Lance les tests unitaires avec toutes les valeurs "
                          "par défaut déplacées à la fois, sur un clone jetable.")
    parser.add_argument("--liste", action="store_true",
                        help="affiche seulement les valeurs déplacées")
    parser.add_argument("--garder", metavar="DOSSIER",
                        help="garde le clone dans ce dossier (vide ou absent)")
    args = parse_args(parser, argv)
    changes = moved()
    if args.liste:
        for file, key, _, shown in changes:
            print(f"{key} : {shown} ({file})")
        return 0
    revision = _revision()
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="escarmouche-defauts-") as tmp:
        clone = Path(args.garder) if args.garder else Path(tmp) / "depot"
        revision.clone_checkout(clone)  # type: ignore[attr-defined]
        for file, key, value, _ in changes:
            revision.set_default(clone / file, key, value)  # type: ignore[attr-defined]
        print(f"— {len(changes)} valeurs par défaut déplacées à la fois.", flush=True)
        env = revision._env(clone)  # type: ignore[attr-defined]
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p",
                               "no:cacheprovider", *TESTS], cwd=clone, env=env,
                              check=False)
        took = time.monotonic() - start
        if done.returncode != 0:
            print(f"défauts déplacés : des tests supposent encore une valeur par défaut "
                  f"({took:.0f} s) ; fixez-la (Rules(…)) ou calculez-la depuis les règles "
                  "en vigueur.", file=sys.stderr)
            return 1
    print(f"Défauts déplacés : la suite reste verte, en {took:.0f} s.")
    return 0


if __name__ == "__main__":
    shutil.disk_usage(ROOT)  # the checkout is there
    sys.exit(main())
