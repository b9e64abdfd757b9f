"""Build the book's notebooks from their jupytext MyST twins (``book_src`` → ``book``).

Every book page that holds code has one source, its twin under ``book_src/``:
``book_src/d100/attaque.md`` becomes ``book/d100/attaque.ipynb``, and so do the demo
pages (``book_src/demos/*.md``) and the browser check page
(``book_src/essai-navigateur.md``). The twins live in another folder on purpose: a twin
next to its notebook would make Sphinx find two files for one page (spec/BROWSER.md).
This is the one tool of ``make refresh``.

Usage (from the repository root, with the project's virtualenv)::

    python tools/book_notebooks.py               # convert and execute every twin
    python tools/book_notebooks.py d100/attaque   # only these pages
    python tools/book_notebooks.py --check       # twins and notebooks agree? (no kernel)
    python tools/book_notebooks.py --processus 1 # one kernel at a time (default: 2)

A notebook's cells (type, source, tags) come from its twin; it is rewritten only when
they changed. It is then executed in place with nbclient in the ``python3`` kernel of
this virtualenv (jupyter_client swaps the kernelspec's ``python`` for
``sys.executable``), with the notebook's folder as working directory, and its outputs
are stored (two notebooks at once by default, one kernel each: the client threads only
wait on their kernels); ``pytest --nbval book`` later re-executes it and compares, so the page a
reader sees is what the engine produces now. Code cells tagged ``nbval-ignore-output``
(the demos' widgets) are executed by nbval, their output not compared.

Each notebook carries, in its metadata (``escarmouche``: an editor's mark, never shown on
the reader's page), the twin it comes from and a digest of the cells made from it. A
notebook whose cells no longer match that digest was edited by hand: building it again
would lose the edit, so the tool refuses, naming the twin to edit instead (``--check``
says so too). A notebook without the mark (built before it existed) gets it at its next
build.

The notebook is written deterministically, so that re-running on an unchanged engine
changes no byte: fixed cell ids (``c000``, ``c001``…), no timings, no jupytext
metadata, consecutive prints of a cell merged into one output, the widget state stored
(``store_widget_state=True``, so that the static page renders the widgets) with its
model ids (random in the kernel) renamed in order of creation.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
import time
import uuid
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_EXCEPTION, Future, ThreadPoolExecutor, wait
from pathlib import Path
from typing import Any

import jupytext  # type: ignore[import-untyped]  # jupytext ships no type information
import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

from escarmouche.cli.french import FrenchParser, parse_args
from escarmouche.text.fmt import plural

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "book_src"
BOOK = ROOT / "book"

# nbformat's functions carry no annotations: typed aliases for mypy --strict.
nb_read: Callable[..., Any] = nbformat.read
nb_reads: Callable[..., Any] = nbformat.reads
nb_writes: Callable[..., str] = nbformat.writes
nb_from_dict: Callable[[Any], Any] = nbformat.from_dict
nb_validate: Callable[[Any], None] = nbformat.validate

KERNEL = "python3"
#: the kernelspec written in every notebook (the lite site swaps it for Pyodide's)
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": KERNEL}
TIMEOUT_S = 600  # per cell
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
HEX32 = re.compile(r"[0-9a-f]{32}")


def twins(pages: list[str] | None = None) -> list[Path]:
    """The twins to handle: all of ``book_src/**/*.md``, or those named (``d100/attaque``)."""
    if not pages:
        return sorted(SRC.rglob("*.md"))
    out = []
    for page in pages:
        name = page.removesuffix(".md").removesuffix(".ipynb")
        name = name.removeprefix("book_src/").removeprefix("book/")
        path = SRC / f"{name}.md"
        if not path.is_file():
            raise SystemExit(f"book_notebooks : pas de jumeau {path.relative_to(ROOT)}")
        out.append(path)
    return out


def notebooks() -> list[Path]:
    """Every notebook of the book (``book/**/*.ipynb``, hidden and build folders aside)."""
    return [
        p for p in sorted(BOOK.rglob("*.ipynb"))
        if not any(part.startswith((".", "_")) for part in p.relative_to(BOOK).parts)
    ]


def target(twin: Path) -> Path:
    """The notebook built from ``twin``."""
    return (BOOK / twin.relative_to(SRC)).with_suffix(".ipynb")


def twin_of(notebook: Path) -> Path:
    """The twin a notebook is built from."""
    return (SRC / notebook.relative_to(BOOK)).with_suffix(".md")


def convert(twin: Path) -> Any:
    """Read a twin as a clean notebook: fixed cell ids, only the kernelspec and the
    editor's mark kept."""
    nb = jupytext.read(twin, fmt="md:myst")
    nb.metadata = {"kernelspec": dict(KERNELSPEC), "language_info": {"name": "python"}}
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"c{i:03d}"
        tags = cell.get("metadata", {}).get("tags")
        cell["metadata"] = {"tags": list(tags)} if tags else {}
    mark(nb, twin)
    return nb


def shape(nb: Any) -> list[tuple[str, str, list[str]]]:
    """What a twin decides of a notebook: each cell's type, source and tags."""
    return [(c.cell_type, c.source, list(c.get("metadata", {}).get("tags", [])))
            for c in nb.cells]


#: the notebook metadata key of the editor's mark
MARK = "escarmouche"


def digest(nb: Any) -> str:
    """A digest of the cells a twin decides (:func:`shape`)."""
    text = json.dumps(shape(nb), ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def mark(nb: Any, twin: Path) -> None:
    """Write the editor's mark in the notebook's metadata: the twin it is generated from
    and the digest of its cells (never shown on the reader's page)."""
    name = twin.relative_to(ROOT).as_posix() if twin.is_relative_to(ROOT) else str(twin)
    nb.metadata[MARK] = {
        "genere_depuis": name,
        "cellules": digest(nb),
        "note": f"Carnet généré depuis {name} par tools/book_notebooks.py : modifiez ce "
                "jumeau, pas ce carnet.",
    }


def hand_edited(nb: Any) -> bool:
    """The notebook's cells changed since it was generated (its mark's digest differs);
    ``False`` for a notebook without the mark."""
    stored = nb.metadata.get(MARK, {}).get("cellules")
    return bool(stored) and stored != digest(nb)


def hand_edit_refusal(out: Path, twin: Path) -> str:
    """The French refusal of a notebook edited by hand, naming its twin."""
    where = out.relative_to(ROOT).as_posix() if out.is_relative_to(ROOT) else str(out)
    name = twin.relative_to(ROOT).as_posix() if twin.is_relative_to(ROOT) else str(twin)
    page = name.removeprefix("book_src/").removesuffix(".md")
    return (f"{where} a été modifié à la main depuis sa génération : ses cellules viennent "
            f"de son jumeau {name}. Reportez-y la modification (ou annulez-la : git checkout "
            f"{where}), puis relancez tools/book_notebooks.py {page}.")


def check(paths: list[Path] | None = None) -> list[str]:
    """The problems found, without a kernel: a twin without notebook, a notebook that
    drifted from its twin, and (when checking every twin) a notebook without twin."""
    problems = []
    for twin in paths if paths is not None else twins():
        out = target(twin)
        if not out.is_file():
            problems.append(f"{out.relative_to(ROOT)} manque (jumeau {twin.relative_to(ROOT)}) :"
                            " lancez make refresh")
            continue
        current = nb_read(out, as_version=4)
        if shape(convert(twin)) != shape(current) and hand_edited(current):
            problems.append(hand_edit_refusal(out, twin))
        elif shape(convert(twin)) != shape(current):
            problems.append(
                f"{out.relative_to(ROOT)} ne correspond plus à {twin.relative_to(ROOT)} : "
                "lancez make refresh"
            )
    if paths is None:
        problems.extend(orphans())
    return problems


def orphans() -> list[str]:
    """The notebooks of the book without a twin (each one needs its source)."""
    return [f"{nb.relative_to(ROOT)} n’a pas de jumeau {twin_of(nb).relative_to(ROOT)} "
            "(la source de chaque carnet du livre)"
            for nb in notebooks() if not twin_of(nb).is_file()]


def normalise(nb: Any) -> None:
    """Deterministic metadata: no timings, the venv's python3 kernelspec."""
    for cell in nb.cells:
        for key in ("execution", "collapsed", "scrolled"):
            cell.metadata.pop(key, None)
    nb.metadata["kernelspec"] = dict(KERNELSPEC)
    info = nb.metadata.get("language_info")
    if isinstance(info, dict):
        # The patch level of the interpreter is noise in a diff.
        info.pop("version", None)


def coalesce_streams(nb: Any) -> None:
    """Merge consecutive outputs of one stream (stdout or stderr) into one.

    How the kernel splits a cell's printing into messages depends on timing; merged,
    the stored output does not (nbval and the browser tests merge them too).
    """
    for cell in nb.cells:
        merged: list[Any] = []
        for out in cell.get("outputs", []):
            last = merged[-1] if merged else None
            if (out.output_type == "stream" and last is not None
                    and last.output_type == "stream" and last.name == out.name):
                last.text += out.text
            else:
                merged.append(out)
        if "outputs" in cell:
            cell.outputs = merged


def stable_widget_ids(nb: Any, name: str) -> Any:
    """Rename the widget model ids in creation order: ``uuid5(name, index)``."""
    state = nb.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    ids = [key for key in state if HEX32.fullmatch(key)]
    if not ids:
        return nb
    renames = {old: uuid.uuid5(uuid.NAMESPACE_URL, f"{name}#{i}").hex
               for i, old in enumerate(ids)}
    text = HEX32.sub(lambda m: renames.get(m.group(0), m.group(0)),
                     json.dumps(nb, ensure_ascii=False))
    return nb_from_dict(json.loads(text))


WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
MODEL_REF = re.compile(r"IPY_MODEL_([0-9a-f]{32})")


def model_closure(roots: Iterable[str], states: dict[str, Any]) -> set[str]:
    """The models ``roots`` show, and every model they reference (children, layout,
    style...), through the ``IPY_MODEL_<id>`` strings of their states."""
    seen: set[str] = set()
    todo = list(roots)
    while todo:
        model = todo.pop()
        if model in seen or model not in states:
            continue
        seen.add(model)
        todo.extend(MODEL_REF.findall(json.dumps(states[model], default=str)))
    return seen


def shown_models(cell: Any) -> list[str]:
    return [out["data"][WIDGET_VIEW]["model_id"] for out in cell.get("outputs", [])
            if out.get("output_type") in {"display_data", "execute_result"}
            and WIDGET_VIEW in out.get("data", {})]


class SnapshotClient(NotebookClient):
    """Stores, for each widget a cell shows, the state it had when that cell ended.

    nbclient stores the state every model has at the end of the notebook: a demo shown
    in cell 2 and driven by cells 3 to 6 (« roll », another system...) would show, in
    the static book, what cell 6 left. Here each shown widget (and every model it
    references) is snapshotted right after the cell that shows it; models no cell
    shows are left out of the stored state.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, on_cell_executed=self._snapshot, **kwargs)
        self.snapshots: dict[str, dict[str, Any]] = {}

    def _snapshot(self, cell: Any, cell_index: int, execute_reply: Any) -> None:
        shown = shown_models(cell)
        closure = model_closure(shown, self.widget_state)
        # in creation order (the kernel's), never a set's: ids are renamed by position
        for model in [m for m in self.widget_state if m in closure]:
            self.snapshots[model] = json.loads(json.dumps(self.widget_state[model],
                                                          default=str))

    def set_widgets_metadata(self) -> None:
        super().set_widgets_metadata()
        stored = self.nb.metadata.get("widgets", {}).get(WIDGET_STATE)
        if not stored:
            return
        kept = {}
        for model, state in self.snapshots.items():
            if "_model_name" not in state or model not in stored["state"]:
                continue
            entry = dict(stored["state"][model])
            entry["state"] = self._serialize_widget_state(state)["state"]
            kept[model] = entry
        stored["state"] = kept


#: how a failed example starts its line, for ``make edition`` to find it in the output
FAILED = "ÉCHEC\u00a0: "


class ExampleFailed(Exception):
    """A cell of a book notebook raised: the French message names the page, the cell, the
    reason and the twin to edit."""


class HandEdited(ExampleFailed):
    """A book notebook was edited by hand since it was generated: building it again would
    lose the edit; the French message names the twin to edit instead."""


def failure(path: Path, nb: Any, err: CellExecutionError) -> str:
    """The French account of a failed example: the notebook, the rank of its failing code
    cell and that cell's first line, the reason (the engine's French message, or the
    Python error's name) and the twin to edit."""
    rank, first = 0, ""
    for cell in nb.cells:
        if cell.get("cell_type") != "code":
            continue
        rank += 1
        if any(o.get("output_type") == "error" for o in cell.get("outputs", [])):
            first = next((line for line in cell.get("source", "").splitlines()
                          if line.strip() and not line.startswith("#")), "")
            break
    ename, evalue = getattr(err, "ename", ""), str(getattr(err, "evalue", "")).strip()
    ours = ename in {"EscarmoucheError", "ParameterError", "IllegalActionError",
                     "DiceError", "RuleBoundError", "SaveError", "RosterError"}
    reason = evalue if ours and evalue else f"erreur Python {ename} ({evalue})"
    where = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)
    twin = twin_of(path)
    twin_name = twin.relative_to(ROOT).as_posix() if twin.is_relative_to(ROOT) else str(twin)
    shown = f" (« {first.strip()[:60]} »)" if first else ""
    # three sentences, not a chain of colons: where, why, what to do
    why = reason.rstrip(".")
    return (f"{FAILED}{where}, cellule de code n° {rank}{shown}. {why[:1].upper()}{why[1:]}. "
            f"Corrigez cet exemple dans son jumeau {twin_name}.")


def execute(path: Path) -> bool:
    """Execute the notebook ``path`` in place; return whether its content changed. A
    failing cell raises :class:`ExampleFailed` and leaves the file as it was."""
    before = path.read_text(encoding="utf-8")
    nb = nb_reads(before, as_version=4)
    client = SnapshotClient(
        nb,
        kernel_name=KERNEL,
        timeout=TIMEOUT_S,
        startup_timeout=120,
        resources={"metadata": {"path": str(path.parent)}},
        store_widget_state=True,
        record_timing=False,
    )
    try:
        client.execute()
    except CellExecutionError as err:
        raise ExampleFailed(failure(path, nb, err)) from None
    coalesce_streams(nb)
    normalise(nb)
    nb = stable_widget_ids(nb, path.name)
    nb_validate(nb)
    after = nb_writes(nb) + "\n"
    if after == before:
        return False
    path.write_text(after, encoding="utf-8")
    return True


def build(twin: Path) -> bool:
    """Write the twin's notebook when its cells changed, then execute it in place."""
    out = target(twin)
    nb = convert(twin)
    changed = False
    current = nb_read(out, as_version=4) if out.is_file() else None
    if current is not None and shape(current) != shape(nb) and hand_edited(current):
        raise HandEdited(hand_edit_refusal(out, twin))
    if current is None or shape(current) != shape(nb):
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(nb_writes(nb) + "\n", encoding="utf-8")
        changed = True
    elif current.metadata.get(MARK) != nb.metadata[MARK]:
        # a notebook built before the mark existed (or moved): marked now, cells kept
        current.metadata[MARK] = nb.metadata[MARK]
        out.write_text(nb_writes(current) + "\n", encoding="utf-8")
        changed = True
    return execute(out) or changed


def main(argv: list[str] | None = None) -> int:
    parser = FrenchParser(description="Construit les carnets du livre à partir de leurs "
                          "jumeaux MyST (book_src → book) et les exécute.")
    parser.add_argument("pages", nargs="*",
                        help="pages, par exemple d100/attaque (par défaut : toutes)")
    parser.add_argument("--check", action="store_true", help="compare seulement, n’exécute rien")
    parser.add_argument("--processus", type=int, default=2, choices=range(1, 9),
                        metavar="N", help="carnets exécutés à la fois (1 à 8, 2 par défaut)")
    args = parse_args(parser, argv)
    paths = twins(args.pages)
    if args.check:
        problems = check(paths if args.pages else None)
        for p in problems:
            print(p)
        return 1 if problems else 0
    changed = 0

    def timed(twin: Path) -> tuple[bool, float]:
        start = time.monotonic()
        return build(twin), time.monotonic() - start

    # the kernels are processes: threads that wait on them run N notebooks at once; the
    # first failure stops the others being started (those running finish, untouched
    # when they fail, and make edition works on a scratch copy anyway)
    with ThreadPoolExecutor(max_workers=args.processus) as pool:
        futures: dict[Future[tuple[bool, float]], Path] = {
            pool.submit(timed, twin): twin for twin in paths}
        pending = set(futures)
        while pending:
            done, pending = wait(pending, return_when=FIRST_EXCEPTION)
            for future in sorted(done, key=lambda f: str(futures[f])):
                err = future.exception()
                if isinstance(err, ExampleFailed):
                    for other in pending:
                        other.cancel()
                    print(err, file=sys.stderr, flush=True)
                    return 3
                if err is not None:
                    raise err
                did_change, took = future.result()
                changed += did_change
                state = "mis à jour" if did_change else "inchangé"
                print(f"{target(futures[future]).relative_to(ROOT)} : {state} ({took:.1f} s)",
                      flush=True)
    built = "construit" if len(paths) < 2 else "construits"
    touched = "modifié" if changed < 2 else "modifiés"
    print(f"{plural(len(paths), 'carnet')} {built}, {changed} {touched}.")
    lost = orphans()
    for p in lost:
        print(p)
    return 1 if lost else 0


if __name__ == "__main__":
    sys.exit(main())
