"""Draft, publish and document an edition of the book: what the CLI subcommand
``escarmouche edition`` (:mod:`escarmouche.cli.edition`) calls, and ``make edition``
(``tools/edition.py``) through it.

Usage (from the repository root, with the project's virtualenv)::

    python tools/edition.py                # draft the next edition, refresh the notebooks,
                                           # rebuild the « Ce qui a changé » pages
    python tools/edition.py --sans-carnets # the same without refreshing the notebooks
    python tools/edition.py --publier      # freeze the draft: write editions/<n>/
    python tools/edition.py --publier --refaire  # rewrite the newest snapshot
    python tools/edition.py --pages        # only rebuild the « Ce qui a changé » pages

The last published edition is the highest ``n`` with a snapshot folder
``editions/<n>/`` (rules, rule texts, stored outputs of the book's examples). The draft
``editions/<n+1>.toml`` lists every option default that differs from that snapshot
(engine defaults now) and every rule text of ``spec/RULES.md`` added, revised or
removed; a text the designer already wrote for the same change is kept. Its page
``book/editions/edition-<n+1>.md`` compares the snapshot with the engine now, until
``--publier`` freezes it. Messages are in French; the functions are importable. The
dependency goes one way: the command line imports this module, never the reverse.

A checkout without a published edition has nothing to draft from:

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as folder:
...     (Path(folder) / "editions").mkdir()
...     try:
...         draft(Path(folder))
...     except SystemExit as err:
...         print(err)
Aucune édition publiée : lancez d’abord « python tools/edition.py --publier ».
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

from escarmouche.editions.data import (
    SUMMARY_PLACEHOLDER,
    Change,
    Edition,
    Snapshot,
    edition_to_toml,
    load_edition,
    option_changes,
    rule_text_changes,
)
from escarmouche.editions.repo import edition_files, last_published, snapshot
from tools.editions.book import book_facts, book_rule_texts, ruling_texts, take_snapshot
from tools.editions.prose import (
    Contradiction,
    ToReview,
    contradictions,
    example_lead_ins,
    examples_to_review,
)

__all__ = [
    "all_or_nothing",
    "archive_pdf",
    "book_contradictions",
    "book_reviews",
    "draft",
    "merge_written",
    "pdf_missing",
    "pdf_name",
    "printed_boxes",
    "publish",
    "refresh_notebooks",
    "touched_pages",
    "withdraw",
]


def draft(root: Path, *, today: dt.date | None = None,
          current: Snapshot | None = None) -> Edition | None:
    """Write ``editions/<n+1>.toml`` from the difference between the last published
    snapshot and ``current`` (default: the engine and ``spec/RULES.md`` now); ``None``
    when nothing differs (the file is then left alone)."""
    from tools.editions.check import check_repository

    check_repository(root, draft_after=False)  # at the door: nothing written on a fault
    last = last_published(root)
    before = snapshot(root, last)
    if before is None:
        raise SystemExit("Aucune édition publiée : lancez d’abord "
                         "« python tools/edition.py --publier ».")
    now = current or take_snapshot(root)
    options = option_changes(before.rules, now.rules)
    if current is None:
        options = [quoting(root, c, before, now) for c in options]
    # a rule whose text changed only because it quotes a changed default is shown, text
    # before and after, under that option's change: one change, not two
    quoted = {rule for change in options for rule in change.rules}
    changes = options + [c for c in rule_text_changes(before.texts, now.texts)
                         if not set(c.rules) <= quoted]
    path = root / "editions" / f"{last + 1}.toml"
    summary = SUMMARY_PLACEHOLDER
    if path.exists():
        old = load_edition(path)
        summary = old.summary
        changes = merge_written(changes, old.changes)
    if not changes:
        return None
    edition = Edition(last + 1, today or dt.date.today(), summary, tuple(changes))
    path.write_text(edition_to_toml(edition), encoding="utf-8")
    load_edition(path)  # what was written must read back
    return edition


def quoting(root: Path, change: Change, before: Snapshot, now: Snapshot) -> Change:
    """``change`` with the rules it rewrote added to its rules: those whose statement in
    the book reads this option's value (a ``{{ … }}`` fact) and so went back to the
    previous edition's text when only this option is set back. A rule page that quotes
    an option it does not declare (D100-TWO-2 quotes the off-hand modifier of
    D100-ATK-5) is then shown under that option's change, not as a separate revision."""
    from escarmouche import systems
    from tools.editions.check import engine_name

    if not (change.system and change.option) or change.before is None:
        return change
    name = engine_name(change.system, change.option)
    if name is None:
        return change
    system = systems.get(change.system)
    then = dataclasses.replace(system.default_rules(),
                               **{name: system.option(name).from_json(
                                   before.rules[change.system][name], field=name)})
    # the book's facts read ``then`` for this system, given by argument: the registry's
    # system is left alone
    texts = book_rule_texts(root, book_facts(root, {change.system: then}))
    extra = [r for r, text in now.texts.items() if r not in change.rules
             and texts.get(r) != text and texts.get(r) == before.texts.get(r)]
    return dataclasses.replace(change, rules=change.rules + tuple(extra))


def merge_written(fresh: list[Change], written: tuple[Change, ...]) -> list[Change]:
    """The changes of a new draft (``fresh``), with what the designer already wrote in
    the previous draft (``written``) kept: the summary and each change's text. A text
    is never dropped: a written change that no longer applies is kept, flagged
    ``no-longer-applies``, and one whose values moved since it was written is flagged
    ``values-changed``; a text the tool generated itself is simply regenerated."""
    by_key = {c.key: c for c in written}
    out = []
    for change in fresh:
        prev = by_key.pop(change.key, None)
        if prev is None and change.kind in ("revised-rule", "changed-ruling"):
            # the designer re-kinded a rewording as a clarification: the same change
            prev = by_key.pop(("clarification", ",".join(change.rules)), None)
            if prev is not None:
                change = dataclasses.replace(change, kind=prev.kind)
        if prev is None or _generated(prev):
            out.append(change)
            continue
        moved = (prev.before, prev.after) != (change.before, change.after)
        flag = "values-changed" if moved else prev.flag
        out.append(dataclasses.replace(change, text=prev.text, flag=flag))
    out += [dataclasses.replace(c, flag="no-longer-applies") for c in by_key.values()
            if not _generated(c)]
    return out


def _generated(change: Change) -> bool:
    """Whether a change's text is the one the drafting tool writes for it (nothing the
    designer wrote would be lost by regenerating it)."""
    from tools.editions.check import generated_text

    return generated_text(change)


def _baseline(root: Path, edition: Edition) -> tuple[int, Snapshot | None]:
    """The edition ``edition`` is measured against (the last published one before it)
    and its snapshot, ``None`` when there is none."""
    last = last_published(root)
    if edition.number <= last:
        last = edition.number - 1
    return last, snapshot(root, last) if last > 0 else None


def book_contradictions(root: Path, edition: Edition) -> list[Contradiction]:
    """What the book now says against ``edition``'s changes
    (:func:`~tools.editions.prose.contradictions`), compared with the last
    published edition."""
    _, before = _baseline(root, edition)
    if before is None:
        return []
    return contradictions(before, take_snapshot(root), edition.changes,
                          example_lead_ins(root / "book"), printed_boxes(root))


def book_reviews(root: Path, edition: Edition) -> list[ToReview]:
    """The examples to re-read before publishing ``edition``
    (:func:`~tools.editions.prose.examples_to_review`): their output changed since
    the last published edition, the text of their page did not (:func:`touched_pages`),
    and the edition file does not list them in ``reviewed``."""
    last, before = _baseline(root, edition)
    if before is None:
        return []
    return examples_to_review(before, take_snapshot(root), touched=touched_pages(root, last),
                              reviewed=edition.reviewed)


def touched_pages(root: Path, number: int) -> set[str]:
    """The pages (``d12/initiative``) whose source ``book_src/<page>.md`` changed since
    edition ``number`` was published (the commit that wrote its snapshot, through git;
    uncommitted edits count). Empty without git or without that commit."""
    def git(*args: str) -> str:
        done = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True,
                              check=False)
        return done.stdout if done.returncode == 0 else ""

    commit = git("log", "-1", "--format=%H", "--", f"editions/{number}/outputs.json").strip()
    if not commit:
        return set()
    names = git("diff", "--name-only", commit, "--", "book_src").split()
    names += git("ls-files", "--others", "--exclude-standard", "--", "book_src").split()
    return {n.removeprefix("book_src/").removesuffix(".md") for n in names
            if n.endswith(".md")}


def printed_boxes(root: Path) -> dict[str, str]:
    """The « Interprétation retenue » box of each rule as the book prints it now: the
    engine's values filled in (``{{ … }}``)."""
    fill = book_facts(root)
    return {rule: fill(text) if fill else text for rule, text in ruling_texts(root).items()}


def publish(root: Path, *, again: bool = False,
            build_pdf: Callable[[int], None] | None = None) -> int:
    """Freeze the newest edition: write its snapshot ``editions/<n>/``; its number.
    ``build_pdf(n)``, when given, builds the book's PDF of edition ``n`` (the previous
    one) when it is neither archived nor built, once every check passed, so that it is
    archived (:func:`archive_pdf`) before the new edition replaces it.
    ``again``: rewrite the snapshot of an edition already published (after a change of
    the book's examples that is not a change of rules, so that the next edition's page
    lists only what the rules changed)."""
    numbers = edition_files(root)
    if not numbers:
        raise SystemExit("Aucune fiche d’édition dans editions/.")
    newest = max(numbers)
    from tools.editions.check import check_repository

    editions = check_repository(root, publishing=True)
    found = book_contradictions(root, editions[newest])
    if found:
        raise SystemExit("Le livre contredit l’édition " + str(newest) + "\u00a0:\n"
                         + "\n".join(f"- {c}" for c in found)
                         + "\nRien n’a été publié.")
    unread = [] if again else book_reviews(root, editions[newest])
    if unread:
        raise SystemExit(
            f"{_count_examples(len(unread))} à relire avant de publier l’édition {newest} "
            "(leur sortie a changé, le texte de leur page non)\u00a0:\n"
            + "\n".join(f"- {r}" for r in unread)
            + f"\nRelisez chacun\u00a0: corrigez son texte dans book_src/, ou ajoutez-le à "
            f"« relus » dans editions/{newest}.toml s’il reste juste. Rien n’a été publié.")
    if last_published(root) >= newest and not again:
        raise SystemExit(f"L’édition {newest} est déjà publiée (--refaire réécrit son "
                         "instantané).")
    if build_pdf is not None and not again and pdf_missing(root, newest - 1):
        build_pdf(newest - 1)
    archive_pdf(root, newest - 1)
    take_snapshot(root).write(root / "editions" / str(newest))
    return newest


def withdraw(root: Path, number: int) -> int:
    """Withdraw the publication of edition ``number`` (``escarmouche edition
    --depublier N``): its snapshot ``editions/<n>/`` is removed, its file
    ``editions/<n>.toml`` is a draft again, and the pages that compared it as published
    (« entre … et n ») are removed; :func:`~tools.editions.pages.build_pages` then
    rewrites its page, its errata sheet and the journal as they were before publishing.
    Only the last publication may be withdrawn, while no later draft exists, and never
    the first edition. Returns the edition then last published."""
    import shutil

    from escarmouche.editions.page import span_name

    last = last_published(root)
    if number != last:
        raise SystemExit(
            f"L’édition {number} n’est pas la dernière publiée" + (
                f" (la dernière est la {last})" if last else " (aucune ne l’est)")
            + " : seule la dernière publication se retire. Rien n’a été retiré.")
    if number <= 1:
        raise SystemExit("L’édition 1 ne se retire pas : le livre n’aurait plus "
                         "d’édition publiée. Rien n’a été retiré.")
    later = [n for n in edition_files(root) if n > number]
    if later:
        raise SystemExit(
            f"Le brouillon editions/{min(later)}.toml suit l’édition {number} : "
            "supprimez-le d’abord (il a été rédigé contre elle). Rien n’a été retiré.")
    shutil.rmtree(root / "editions" / str(number))
    for first in range(1, number):
        (root / "book" / "editions" / f"{span_name(first, number)}.md").unlink(
            missing_ok=True)
    return last_published(root)


def _count_examples(n: int) -> str:
    return f"{n} exemple{'s' if n > 1 else ''}"


def pdf_name(number: int) -> str:
    """The whole-book PDF of edition ``number`` (``tools/build_pdf.py`` writes it)."""
    return f"escarmouche-edition-{number}.pdf"


def pdf_missing(root: Path, number: int) -> bool:
    """Edition ``number`` is published but its PDF is neither archived nor built."""
    folder = root / "editions" / str(number)
    return (number >= 1 and (folder / "rules.json").exists()
            and not (folder / pdf_name(number)).exists()
            and not (root / "_build" / "html" / pdf_name(number)).is_file())


def archive_pdf(root: Path, number: int) -> Path | None:
    """Keep the PDF of edition ``number`` in its snapshot folder
    (``editions/<n>/escarmouche-edition-<n>.pdf``), from the last build of the book, when
    it is there and not archived yet: the book's archive serves it after the next
    edition replaces it. The archived file, or ``None``."""
    import shutil

    folder = root / "editions" / str(number)
    built = root / "_build" / "html" / pdf_name(number)
    kept = folder / pdf_name(number)
    if number < 1 or not (folder / "rules.json").exists():
        return None
    if not kept.exists() and built.is_file():
        shutil.copyfile(built, kept)
    return kept if kept.exists() else None


#: what a scratch copy of the book needs to re-run its notebooks
_SCRATCH = ("tools", "book_src", "book")


def refresh_notebooks(root: Path) -> list[Path]:
    """Every notebook of ``root/book`` rebuilt from its twin and executed
    (``tools/book_notebooks.py``), first in a scratch copy: the notebooks of ``root`` are
    replaced only when every one ran. A failing example stops everything with a French
    message that names the page, the cell, the reason and the twin to edit, and leaves
    ``root`` as it was. Returns the notebooks that changed."""
    import shutil
    import tempfile

    with tempfile.TemporaryDirectory(prefix="escarmouche-edition-") as folder:
        scratch = Path(folder)
        for name in _SCRATCH:
            if (root / name).is_dir():
                shutil.copytree(root / name, scratch / name, symlinks=True,
                                ignore=shutil.ignore_patterns("_build", ".ipynb_checkpoints",
                                                              "__pycache__"))
        done = subprocess.run([sys.executable, str(scratch / "tools" / "book_notebooks.py")],
                              cwd=scratch, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise SystemExit(_failure(done.stdout + "\n" + done.stderr, scratch, root))
        changed = []
        for path in sorted((scratch / "book").rglob("*.ipynb")):
            target = root / path.relative_to(scratch)
            if not target.exists() or target.read_bytes() != path.read_bytes():
                changed.append(target)
        for target in changed:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(scratch / target.relative_to(root), target)
    return changed


def _failure(output: str, scratch: Path, root: Path) -> str:
    """The French failure of a scratch run: the failed example's line when there is one
    (``tools/book_notebooks.py`` starts it with « ÉCHEC : »), else the end of the output;
    paths of the scratch copy read as paths of the repository."""
    lines = [line.replace(str(scratch) + "/", "") for line in output.splitlines()
             if line.strip()]
    failed = [line for line in lines if line.startswith("ÉCHEC")]
    told = failed[0] if failed else "ÉCHEC\u00a0: la réexécution des carnets a échoué\u00a0: " \
        + " ".join(lines[-3:])
    return (f"{told}\nRien n’a été écrit\u00a0: les carnets, le brouillon et les pages de "
            f"{root} sont tels qu’ils étaient.")


@contextlib.contextmanager
def all_or_nothing(root: Path) -> Iterator[None]:
    """The files ``make edition`` writes (the notebooks, the edition files, the « Ce qui
    a changé » pages) restored as they were if the block raises."""
    kept: dict[Path, bytes | None] = {}
    patterns = [("book", "**/*.ipynb"), ("editions", "*.toml"), ("book/editions", "*.md")]
    for folder, pattern in patterns:
        for path in (root / folder).glob(pattern):
            if "_build" not in path.parts:
                kept[path] = path.read_bytes()
    try:
        yield
    except BaseException:
        for folder, pattern in patterns:
            for path in (root / folder).glob(pattern):
                if path not in kept and "_build" not in path.parts:
                    path.unlink()  # written by the failed run
        for path, data in kept.items():
            if data is not None and (not path.exists() or path.read_bytes() != data):
                path.write_bytes(data)
        raise
