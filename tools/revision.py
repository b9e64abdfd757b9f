"""A designer's revision played end to end on a scratch clone (``make revision``).

The revision of book/concepteurs.md: the d100 parries per round 1 → 2, the d12 default critical
option « maximum » → « explosif », the Rulebook critical success 5 → 8, one default per
system as a designer changes it: in the option's declaration (``src/…/rules.py``). On a
clone of this checkout, in a temporary folder, the script then does what « Pour les
concepteurs » says, and fails at the first step that breaks:

1. ``escarmouche edition`` (``make edition``): every example re-run, the draft written;
2. the designer's words: a summary and a text for each change, flags removed;
3. ``escarmouche edition --publier``: no contradiction between the book and the change;
4. a second revision on top (:data:`SECOND`: the d12 cap on rerolls, the d20 immediate
   action, the Rulebook group value, and a rewording of D12-INIT-5 published as a
   clarification), drafted, written and published the same way, each example listed
   « à relire » marked as read;
5. the test suite (unit and property tests, doctests): green under the rules of both,
   the engine's own tests left to ``make defauts-deplaces`` (:data:`ENGINE_ONLY`).

Step 1 has run every example of the book under the new rules, all or nothing, and stored
what they print; nbval would only run them again and compare them with themselves (the
tree's own nbval, in ``make test``, checks that they replay), so the revision leaves it
out. The unit suite runs on both cores (pytest-xdist).

It prints each step with its time, in French, and exits non-zero when one fails. The
checkout itself is never touched.

Usage::

    python tools/revision.py               # the whole revision, then the tests
    python tools/revision.py --garder DIR  # the clone kept in DIR, to look at it
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from escarmouche.cli.french import FrenchParser, parse_args

ROOT = Path(__file__).resolve().parents[1]

#: the revision: (rules file, the option's French key, the new default as Python source)
CHANGES: tuple[tuple[str, str, str], ...] = (
    ("src/escarmouche/systems/d100/rules.py", "parades_par_round", "2"),
    ("src/escarmouche/systems/d12/rules.py", "option_critique", '"explosif"'),
    ("src/escarmouche/systems/rulebook/rules.py", "reussite_critique_max", "8"),
)

#: the second revision, on top of the first: three other options (a safety bound among
#: them) and a rewording of D12-INIT-5, published as a clarification (book/concepteurs.md)
SECOND: tuple[tuple[str, str, str], ...] = (
    ("src/escarmouche/systems/d12/rules.py", "relances_initiative_max", "5"),
    ("src/escarmouche/systems/d20/rules.py", "retour_action_immediate", '"debut_du_round"'),
    ("src/escarmouche/systems/rulebook/rules.py", "valeur_groupe_surprise", '"moyenne"'),
)
#: the rewording: (page, old words, new words) of a rule's statement
REWORDING = ("book_src/d12/initiative.md", "ils sont automatiquement placés à l’initiative",
             "ils prennent d’office l’initiative")

#: The engine's own tests, every file under ``tests/rules/`` (one folder per system, and
#: ``core`` for the CORE-* rules): they read neither the book nor an edition, only the rules in
#: force, and ``make defauts-deplaces`` runs them with every default moved at once. The
#: revision leaves them out and runs what reads the tree it published (the book, the
#: editions, the tools, the widgets): 30 s of make test's 15 minutes.
#: tests/tooling/test_makefile.py checks that none of them reads the book or the editions.
ENGINE_ONLY = ("tests/rules/*/test_*.py",)

#: what the tests run after publishing (the browser and book builds are make test's)
TESTS = ("-n", "2", "-m", "not browser and not book",
         *(f"--ignore-glob={glob}" for glob in ENGINE_ONLY))


def set_default(path: Path, key: str, value: str) -> None:
    """Rewrite the default of the option whose declaration carries ``key="<key>"``: the
    first argument of its ``option(`` call."""
    text = path.read_text(encoding="utf-8")
    at = text.index(f'key="{key}"')
    start = text.rindex("option(", 0, at) + len("option(")
    m = re.compile(r"\s*([^,]+),").match(text, start)
    if m is None:
        raise SystemExit(f"révision : pas de valeur par défaut lisible pour {key} dans {path}")
    text = text[: m.start(1)] + value + text[m.end(1):]
    path.write_text(text, encoding="utf-8")


def step(title: str, argv: Sequence[str], cwd: Path, env: dict[str, str]) -> None:
    print(f"— {title}…", flush=True)
    start = time.monotonic()
    done = subprocess.run(list(argv), cwd=cwd, env=env, check=False)
    took = time.monotonic() - start
    if done.returncode != 0:
        raise SystemExit(f"révision : l’étape « {title} » a échoué ({took:.0f} s).")
    print(f"  fait en {took:.0f} s.", flush=True)


def write_words(clone: Path, summary: str) -> None:
    """The designer's words in the draft: a summary, a text per change (publishing
    refuses the tool's placeholders), no flag left."""
    draft = max((p for p in (clone / "editions").glob("*.toml") if p.stem.isdigit()),
                key=lambda p: int(p.stem))
    done = subprocess.run(
        [sys.executable, "-c", _WRITE_WORDS, str(draft), summary], cwd=clone,
        env=_env(clone), check=False)
    if done.returncode != 0:
        raise SystemExit("révision : le brouillon n’a pas pu être rédigé.")
    text = draft.read_text(encoding="utf-8")
    text = re.sub(r"(?m)^flag = .*\n", "", text)
    text = re.sub(r"(?m)^# À relire.*\n", "", text)
    draft.write_text(text, encoding="utf-8")


#: run in the clone's interpreter: each generated text replaced by the designer's
_WRITE_WORDS = """
import dataclasses, sys
from pathlib import Path
from escarmouche.editions.data import edition_to_toml, load_edition
from tools.editions.check import generated_text
from tools.editions.workflow import book_reviews
path = Path(sys.argv[1])
edition = load_edition(path)
# a revised statement that only rewords its rule is recorded as a clarification
changes = tuple(dataclasses.replace(
    c, text=c.text + " Relu et voulu par le concepteur.",
    kind="clarification" if c.kind == "revised-rule" else c.kind)
    if generated_text(c) else c for c in edition.changes)
# every example « à relire » read: its text stays right under the new rules
read = tuple(r.cell for r in book_reviews(path.parent.parent, edition))
print(f"  {len(read)} exemples à relire, marqués relus.")
path.write_text(edition_to_toml(dataclasses.replace(
    edition, summary=sys.argv[2], changes=changes, reviewed=edition.reviewed + read)),
    encoding="utf-8")
"""


def _env(clone: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(clone), str(clone / "src"), str(clone / "widgets"),
                                         env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return env


def run(clone: Path) -> None:
    env = _env(clone)
    python = sys.executable
    for file, key, value in CHANGES:
        set_default(clone / file, key, value)
        print(f"— {key} = {value} ({file})")
    step("make edition : carnets réexécutés, brouillon écrit",
         [python, "tools/edition.py", "--duels", "50"], clone, env)
    write_words(clone, "Deux parades par round, critiques explosifs au d12, réussites "
                "critiques jusqu’à 8 au Rulebook.")
    step("publication de l’édition", [python, "tools/edition.py", "--publier", "--sans-pdf"],
         clone, env)
    step("pages « Ce qui a changé » de l’édition publiée",
         [python, "tools/edition.py", "--pages", "--duels", "50"], clone, env)
    # the second revision: other options, a bound, and a rewording
    for file, key, value in SECOND:
        set_default(clone / file, key, value)
        print(f"— {key} = {value} ({file})")
    page, old, new = REWORDING
    text = (clone / page).read_text(encoding="utf-8")
    if old not in text:
        raise SystemExit(f"révision : « {old} » est introuvable dans {page}")
    (clone / page).write_text(text.replace(old, new, 1), encoding="utf-8")
    print(f"— reformulation dans {page}")
    step("seconde révision : make edition",
         [python, "tools/edition.py", "--duels", "50"], clone, env)
    write_words(clone, "Cinq relances au plus au d12, l’action immédiate revient à chaque "
                "round au d20, la moyenne des groupes pour la surprise au Rulebook, et une "
                "reformulation de D12-INIT-5.")
    step("publication de la seconde édition",
         [python, "tools/edition.py", "--publier", "--sans-pdf"],
         clone, env)
    step("pages des éditions publiées",
         [python, "tools/edition.py", "--pages", "--duels", "50"], clone, env)
    step("tests unitaires, de propriétés et doctests sous les règles des deux éditions",
         [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", *TESTS], clone, env)


def clone_checkout(clone: Path) -> None:
    """A clone of this checkout in ``clone``, with its uncommitted changes, and the
    shared folder next to it when there is one."""
    subprocess.run(["git", "clone", "--quiet", "--local", str(ROOT), str(clone)],
                   check=True)
    # the working tree as it is, uncommitted changes included
    for rel in subprocess.run(["git", "ls-files", "-m", "-o", "--exclude-standard"],
                              cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout.splitlines():
        src = ROOT / rel
        if src.is_file():
            (clone / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, clone / rel)
    shared = ROOT.parent / "shared"
    if shared.exists() and not (clone.parent / "shared").exists():
        (clone.parent / "shared").symlink_to(shared)


def main(argv: Sequence[str] | None = None) -> int:
    parser = FrenchParser(description="Joue de bout en bout, sur un clone jetable, la "
                          "révision d’un concepteur.")
    parser.add_argument("--garder", metavar="DOSSIER",
                        help="garde le clone dans ce dossier (vide ou absent)")
    args = parse_args(parser, argv)
    with tempfile.TemporaryDirectory(prefix="escarmouche-revision-") as tmp:
        clone = Path(args.garder) if args.garder else Path(tmp) / "depot"
        clone_checkout(clone)
        start = time.monotonic()
        run(clone)
        print(f"Révision jouée de bout en bout en {time.monotonic() - start:.0f} s : rien ne "
              "casse, rien ne contredit, la suite reste verte.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
