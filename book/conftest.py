"""Readable nbval failures for the book's notebooks (issue 17).

nbval compares each cell's stored output with the one the engine gives now, and reports a
difference in English, as a pytest ``left == right`` comparison in which the freshly
computed value appears as « - » — backwards for a designer who just changed a rule. Here,
every nbval cell item of the book reports instead, in French:

- « attendu (sortie enregistrée) » — what the notebook stores, what the reader sees;
- « obtenu (moteur) » — what the engine produces now;
- the lines that differ, « - » for the stored line and « + » for the engine's, with that
  legend; then the advice to run ``make refresh`` (or ``make edition``) when the change
  is wanted.

Only the wording of the failure changes: nbval decides what passes, as before.
"""

from __future__ import annotations

import atexit
import difflib
import itertools
import shutil
import tempfile
import types
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import pytest


def _fr(text: str) -> str:
    """French typography for this file's own sentences: no-break space before « : » and
    inside « », narrow no-break space before « ; »."""
    return (text.replace(" :", "\u00a0:").replace("« ", "«\u00a0").replace(" »", "\u00a0»")
            .replace(" ;", "\u202f;"))


def _text(value: object) -> str:
    text = value if isinstance(value, str) else "".join(value) if isinstance(
        value, list) else repr(value)
    return text if len(text) < 4000 else text[:4000] + "\n[…]"


def _lines(outputs: Iterable[Mapping[str, Any]], skip: Iterable[str],
           plain_first: bool = True) -> list[str]:
    """Each output as readable lines: its kind (stream, data type), then its text; with
    ``plain_first``, an output that has a ``text/plain`` form shows only that one (the
    HTML form of a table says the same thing, less readably)."""
    skipped = set(skip)
    out: list[str] = []
    for o in outputs:
        data = o.get("data") or {}
        if plain_first and "text/plain" in data:
            skipped_here = skipped | (set(data) - {"text/plain"})
        else:
            skipped_here = skipped
        if o.get("output_type") == "stream":
            out += [f"[{o.get('name', 'stdout')}]", *_text(o.get("text", "")).splitlines()]
        elif o.get("output_type") == "error":
            out += [f"[erreur] {o.get('ename', '')} : {o.get('evalue', '')}"]
        for kind, value in data.items():
            if kind in skipped_here:
                continue
            out.append(f"[{kind}]")
            out += _text(value).splitlines()
    return out


def french_report(stored: Iterable[Mapping[str, Any]], engine: Iterable[Mapping[str, Any]],
                  skip: Iterable[str] = ()) -> list[str]:
    """The French explanation of a stored output that differs from the engine's.

    >>> report = french_report([{"output_type": "stream", "name": "stdout", "text": "3\\n"}],
    ...                        [{"output_type": "stream", "name": "stdout", "text": "2\\n"}])
    >>> report[0]
    'La sortie de cette cellule a changé.'
    >>> [line for line in report if line in ("- 3", "+ 2")]
    ['- 3', '+ 2']
    """
    skip, stored, engine = list(skip), list(stored), list(engine)
    expected, obtained = _lines(stored, skip), _lines(engine, skip)
    if expected == obtained:  # the difference is in another form (HTML…): show them all
        expected, obtained = (_lines(stored, skip, plain_first=False),
                              _lines(engine, skip, plain_first=False))
    report = ["La sortie de cette cellule a changé.", "",
              _fr("attendu (sortie enregistrée dans le carnet, ce que lit le lecteur) :"),
              *(f"    {line}" for line in expected or ["(aucune sortie)"]), "",
              _fr("obtenu (moteur, maintenant) :"),
              *(f"    {line}" for line in obtained or ["(aucune sortie)"]), "",
              _fr("Lignes qui diffèrent (« - » : attendu, sortie enregistrée ; « + » : "
                  "obtenu, moteur) :")]
    for line in difflib.ndiff(expected, obtained):
        if line[:1] in "-+":
            report.append(line.rstrip())
    report += ["", _fr("Si ce changement est voulu (une règle ou une option a changé), "
                       "régénérez les carnets : « make refresh » (ou « make edition » pour "
                       "préparer l’édition suivante), puis relisez le diff des sorties.")]
    return report


def _french_compare(original: Callable[..., bool]) -> Callable[..., bool]:
    def compare_outputs(self: Any, test: Any, ref: Any, skip_compare: Any = None) -> bool:
        ok = original(test, ref, skip_compare)
        if not ok:
            skip = list(skip_compare or self.parent.skip_compare)
            self.comparison_traceback = french_report(ref, test, skip)
        return ok
    return compare_outputs


def _french_failure(original: Callable[..., Any]) -> Callable[..., Any]:
    def repr_failure(self: Any, excinfo: pytest.ExceptionInfo[BaseException]) -> Any:
        exc: Any = excinfo.value
        if type(exc).__name__ == "NbCellError" and str(exc) == "Cell outputs differ":
            return "\n".join([
                _fr(f"Cellule {exc.cell_num} : la sortie enregistrée et celle du moteur "
                    "diffèrent."), "", _fr("Code de la cellule :"), str(exc.source), "",
                str(exc.inner_traceback or "")])
        return original(excinfo)
    return repr_failure


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Give every nbval cell item the French comparison and failure report."""
    for item in items:
        if type(item).__name__ != "IPyNbCell" or not hasattr(item, "compare_outputs"):
            continue
        cell: Any = item
        cell.compare_outputs = types.MethodType(_french_compare(cell.compare_outputs), cell)
        cell.repr_failure = types.MethodType(_french_failure(cell.repr_failure), cell)


# Kernels over Unix sockets, not TCP ports. jupyter_client picks a kernel's five TCP ports by
# binding and releasing them, and the kernel binds them a moment later: with two pytest-xdist
# workers starting kernels at once, the other worker's kernel (or any outgoing connection) can
# take a port in between, and the kernel dies before replying to kernel_info (seen in CI:
# « Kernel died before replying to kernel_info », all of d100/tirs's cells in error). A socket
# file in a directory of this process's own cannot be taken by anyone else.
_IPC_DIR = tempfile.mkdtemp(prefix="escarmouche-nbval-")
atexit.register(shutil.rmtree, _IPC_DIR, ignore_errors=True)
_IPC_NAMES = (f"{_IPC_DIR}/k{n}" for n in itertools.count())


def _start_kernel_over_ipc(startup_timeout: float = 60, kernel_name: str = "python",
                           **kwargs: Any) -> tuple[Any, Any]:
    """nbval's own ``start_new_kernel``, with ``transport="ipc"`` on the manager."""
    from nbval import kernel as nbval_kernel

    km = nbval_kernel.KernelManager(
        kernel_name=kernel_name, kernel_spec_manager=nbval_kernel.NbvalKernelspecManager(),
        transport="ipc", ip=next(_IPC_NAMES))
    km.start_kernel(**kwargs)
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=startup_timeout)
    except RuntimeError:
        kc.stop_channels()
        km.shutdown_kernel()
        raise
    return km, kc


def pytest_configure(config: pytest.Config) -> None:
    if config.pluginmanager.hasplugin("nbval"):
        from nbval import kernel as nbval_kernel

        nbval_kernel.start_new_kernel = _start_kernel_over_ipc
