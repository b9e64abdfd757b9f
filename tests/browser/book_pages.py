"""The book's pages and notebooks, and how a live notebook's outputs compare to the stored.

Comparison rules (generic over every notebook under ``book/``):

- Outputs are compared per code cell, in order, after merging consecutive stream
  outputs of the same name (JupyterLab merges them on screen).
- For a rich output the one MIME type JupyterLab shows is compared: widgets must be
  rendered (and carry no error), images by their data, every other type by its text
  (the DOM's ``textContent``; stored HTML is parsed by the same browser) with all
  whitespace removed.
- Cells tagged ``nbval-ignore-output`` or ``nbval-skip`` must run without error and
  show as many widgets as they stored; their outputs are not compared (as with nbval).
"""

from __future__ import annotations

import base64
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import nbformat

ROOT = Path(__file__).resolve().parents[2]
BOOK = ROOT / "book"
IGNORE_TAGS = frozenset({"nbval-ignore-output", "nbval-skip"})
WIDGET = "application/vnd.jupyter.widget-view+json"
#: JupyterLab's preference among the MIME types of one output (richest first).
MIME_ORDER = (
    WIDGET, "application/javascript", "text/html", "text/markdown", "text/latex",
    "image/svg+xml", "image/png", "image/jpeg", "image/gif", "application/pdf",
    "text/plain",
)
STREAM_MIME = {"stdout": "application/vnd.jupyter.stdout",
               "stderr": "application/vnd.jupyter.stderr"}
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def book_docnames(suffixes: Iterable[str] = (".ipynb", ".md")) -> list[str]:
    """Docnames (``book/essai-navigateur``) of the book's source pages."""
    out = []
    for path in sorted(BOOK.rglob("*")):
        rel = path.relative_to(ROOT)
        if path.suffix not in suffixes or any(
            part.startswith(("_", ".")) for part in rel.parts[1:]
        ):
            continue
        out.append(rel.with_suffix("").as_posix())
    return out


@dataclass(frozen=True)
class Expected:
    mime: str
    text: str
    error: bool = False


@dataclass(frozen=True)
class Cell:
    index: int
    source: str
    outputs: tuple[Expected, ...]
    compare: bool
    raises: bool


def squash(text: str) -> str:
    return "".join(ANSI.sub("", text).split())


def _joined(value: Any) -> str:
    return "".join(value) if isinstance(value, list) else str(value)


def expected_output(output: Any) -> Expected:
    kind = output["output_type"]
    if kind == "stream":
        return Expected(STREAM_MIME[output["name"]], _joined(output["text"]))
    if kind == "error":
        return Expected("application/vnd.jupyter.stderr",
                        f"{output['ename']}: {output['evalue']}", error=True)
    data = output["data"]
    mime = next((m for m in MIME_ORDER if m in data), next(iter(data)))
    value = data[mime]
    if mime == WIDGET:
        return Expected(mime, "")
    return Expected(mime, _joined(value) if not isinstance(value, dict) else "")


def merge_streams(outputs: Iterable[Any]) -> list[Any]:
    merged: list[Any] = []
    for out in outputs:
        if (out["output_type"] == "stream" and merged
                and merged[-1]["output_type"] == "stream"
                and merged[-1]["name"] == out["name"]):
            merged[-1] = {**merged[-1], "text": _joined(merged[-1]["text"])
                          + _joined(out["text"])}
        else:
            merged.append(out)
    return merged


def stored_cells(docname: str) -> list[Cell]:
    nb: Any = nbformat.read(ROOT / f"{docname}.ipynb", as_version=4)  # type: ignore[no-untyped-call]
    cells = []
    for index, cell in enumerate(c for c in nb.cells if c.cell_type == "code"):
        tags = set(cell.metadata.get("tags", []))
        cells.append(Cell(
            index=index,
            source=cell.source,
            outputs=tuple(expected_output(o) for o in merge_streams(cell.outputs)),
            compare=not tags & IGNORE_TAGS,
            raises="raises-exception" in tags,
        ))
    return cells


def live_image(src: str) -> str:
    """The data of an ``<img src="data:...">`` as text (SVG) or base64 (bitmaps)."""
    head, _, data = src.partition(",")
    if head.endswith(";base64"):
        if "svg" in head:
            return base64.b64decode(data).decode("utf-8")
        return data
    return unquote(data)


def compare_cell(cell: Cell, live: dict[str, Any], html_text: Callable[[str], str]) -> list[str]:
    """Differences between a stored code cell and the same cell run live.

    ``html_text`` turns stored HTML into the text the browser makes of it (its
    ``textContent``), which is what the live output is compared with.
    """
    problems: list[str] = []
    where = f"cellule de code n° {cell.index + 1}"
    errors = [o for o in live["outputs"] if "Traceback" in o["text"]
              or o["text"].lstrip().startswith(("Error displaying widget", "Erreur"))]
    if errors and not cell.raises:
        return [f"{where} : erreur à l’exécution :\n{errors[0]['text'][:2000]}"]
    if not cell.compare:
        # Outputs not compared (nbval-ignore-output: widget model ids change at each
        # run), but a cell that showed widgets must show them live too.
        wanted = sum(o.mime == WIDGET for o in cell.outputs)
        shown = sum(bool(o["widgets"]) for o in live["outputs"])
        if shown < wanted:
            return [f"{where} : {shown} widget(s) affiché(s) sur {wanted}"]
        return []
    got = live["outputs"]
    if len(got) != len(cell.outputs):
        return [f"{where} : {len(got)} sortie(s) au lieu de {len(cell.outputs)} :\n"
                f"  attendu : {[o.mime for o in cell.outputs]}\n"
                f"  obtenu  : {[(o['mime'], o['text'][:200]) for o in got]}"]
    for n, (want, have) in enumerate(zip(cell.outputs, got, strict=True), start=1):
        label = f"{where}, sortie {n} ({want.mime})"
        if want.mime == WIDGET:
            if not have["widgets"]:
                problems.append(f"{label} : aucun widget affiché ({have['text'][:200]!r})")
            continue
        if want.mime.startswith("image/"):
            data = live_image(have.get("img") or "")
            if squash(data) != squash(want.text):
                problems.append(f"{label} : image différente")
            continue
        if want.error:
            if squash(want.text) not in squash(have["text"]):
                problems.append(f"{label} : autre erreur\n  attendu : {want.text!r}\n"
                                f"  obtenu  : {have['text'][:1000]!r}")
            continue
        if have["mime"] and have["mime"] != want.mime:
            problems.append(f"{label} : affichée en {have['mime']}")
        text = html_text(want.text) if want.mime == "text/html" else want.text
        if squash(have["text"]) != squash(text):
            problems.append(f"{label} : texte différent\n  attendu : {text[:500]!r}\n"
                            f"  obtenu  : {have['text'][:500]!r}")
    return problems
