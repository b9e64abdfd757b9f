"""Re-execute the book's notebooks in place and store their outputs (``make refresh``).

Every ``.ipynb`` under ``book/`` (or the paths given) is run top to bottom with nbclient
in the ``python3`` kernel of this virtualenv (jupyter_client swaps the kernelspec's
``python`` for ``sys.executable``), with the notebook's folder as working directory.
Widget state is stored (``store_widget_state=True``) so the static book renders the
widgets, each as the cell that shows it left it (:class:`SnapshotClient`: later cells
that drive a demo do not change its stored picture), and only the models some cell
shows; execution timing metadata is not recorded, so that re-running an unchanged
notebook rewrites nothing. Widget model ids (random in the kernel) are renamed in order
of creation, so an unchanged notebook is rewritten byte for byte: a notebook is only
written when its content changed.

The stored outputs are the reference that ``make nbval`` and the browser tests compare
against: refresh after changing the engine on purpose, then review the diff.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
import uuid
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import nbformat
from nbclient import NotebookClient

# nbformat's functions carry no annotations: typed aliases for mypy --strict.
nb_reads: Callable[..., Any] = nbformat.reads
nb_writes: Callable[..., str] = nbformat.writes
nb_from_dict: Callable[[Any], Any] = nbformat.from_dict

ROOT = Path(__file__).resolve().parent.parent
BOOK = ROOT / "book"
KERNEL = "python3"
TIMEOUT_S = 600  # per cell
#: Cell metadata written by tools that is not part of the document.
VOLATILE_CELL_METADATA = ("execution", "collapsed", "scrolled")


def find_notebooks(paths: Iterable[Path]) -> list[Path]:
    out: list[Path] = []
    for path in paths:
        if path.is_dir():
            out.extend(
                p for p in sorted(path.rglob("*.ipynb"))
                if not any(part.startswith((".", "_build")) for part in p.parts)
            )
        elif path.suffix == ".ipynb":
            out.append(path)
        else:
            raise SystemExit(f"not a notebook nor a folder: {path}")
    return out


def normalise(nb: Any) -> None:
    """Deterministic metadata: no timings, the venv's python3 kernelspec."""
    for cell in nb.cells:
        for key in VOLATILE_CELL_METADATA:
            cell.metadata.pop(key, None)
    nb.metadata["kernelspec"] = {
        "display_name": "Python 3 (ipykernel)",
        "language": "python",
        "name": KERNEL,
    }
    info = nb.metadata.get("language_info")
    if isinstance(info, dict):
        # The patch level of the interpreter is noise in a diff.
        info.pop("version", None)


WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
HEX32 = re.compile(r"[0-9a-f]{32}")


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
        for model in model_closure(shown, self.widget_state):
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


def refresh(path: Path) -> bool:
    """Execute ``path`` in place; return whether its content changed."""
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
    client.execute()
    normalise(nb)
    nb = stable_widget_ids(nb, path.name)
    nbformat.validate(nb)
    after = nb_writes(nb) + "\n"
    if after == before:
        return False
    path.write_text(after, encoding="utf-8")
    return True


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("paths", nargs="*", type=Path, default=[BOOK],
                        help="notebooks or folders (default: book/)")
    args = parser.parse_args(argv)
    notebooks = find_notebooks(args.paths)
    if not notebooks:
        print("aucun carnet à réexécuter")
        return 0
    changed = 0
    for nb_path in notebooks:
        start = time.monotonic()
        did_change = refresh(nb_path)
        changed += did_change
        state = "mis à jour" if did_change else "inchangé"
        rel = nb_path.resolve().relative_to(ROOT) if nb_path.resolve().is_relative_to(
            ROOT) else nb_path
        print(f"{rel} : {state} ({time.monotonic() - start:.1f} s)", flush=True)
    print(f"{len(notebooks)} carnet(s) réexécuté(s), {changed} modifié(s).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
