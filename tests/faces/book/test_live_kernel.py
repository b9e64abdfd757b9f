"""The Python side of the book's live pages (book/_static/live/kernel.py), under CPython.

In the browser, kernel.py runs in Pyodide inside a Web Worker; here it runs in a fresh
interpreter (a subprocess, so that no real IPython is imported before its stand-in) with
a ``post`` that records the messages the page would receive.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

from tests.helpers import ROOT

KERNEL = ROOT / "book" / "_static" / "live" / "kernel.py"

PRELUDE = f"""
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("escarmouche_live_kernel", {str(KERNEL)!r})
kernel = importlib.util.module_from_spec(spec)
sys.modules["escarmouche_live_kernel"] = kernel
spec.loader.exec_module(kernel)
messages = []
def post(text, buffers):
    messages.append(json.loads(text))
"""


def run(body: str) -> list[dict[str, Any]]:
    """Run ``body`` after the prelude; the messages the page got, in order."""
    code = PRELUDE + textwrap.dedent(body) + "\nprint(json.dumps(messages))\n"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    out: list[dict[str, Any]] = json.loads(done.stdout.strip().splitlines()[-1])
    return out


def test_cells_print_show_their_last_value_and_report_errors() -> None:
    got = run("""
        kernel.setup(post, widgets=False)
        kernel.run_cell(0, "x = 6 * 7\\nprint('x =', x)\\nx")
        kernel.run_cell(1, "x;")
        kernel.run_cell(2, "from IPython.display import HTML, display\\n"
                           "display(HTML('<b>gras</b>'))")
        kernel.run_cell(3, "1 / 0")
    """)
    by_cell: dict[int, list[dict[str, Any]]] = {}
    for message in got:
        by_cell.setdefault(message["cell"], []).append(message)
    assert [m["type"] for m in by_cell[0]] == ["stream", "stream", "stream", "stream",
                                               "display", "done"]
    assert "".join(m["text"] for m in by_cell[0] if m["type"] == "stream") == "x = 42\n"
    assert by_cell[0][-2]["data"]["text/plain"] == "42"
    assert [m["type"] for m in by_cell[1]] == ["done"]  # a trailing « ; » hides the value
    assert by_cell[2][0]["data"]["text/html"] == "<b>gras</b>"
    error = by_cell[3][0]
    assert error["ename"] == "ZeroDivisionError"
    assert "kernel.py" not in "".join(error["traceback"])  # the reader's frames only
    assert by_cell[3][-1] == {"type": "done", "ok": False, "cell": 3}


def test_the_ipython_stand_in_is_all_ipywidgets_needs() -> None:
    got = run("""
        kernel.setup(post, widgets=True)
        import IPython
        assert IPython._escarmouche and "jedi" not in sys.modules
        assert "prompt_toolkit" not in sys.modules
        kernel.run_cell(0, "import ipywidgets as w\\ns = w.IntSlider(value=3)\\ns")
    """)
    opens = [m for m in got if m["type"] == "comm_open"]
    assert opens and all(m["target_name"] == "jupyter.widget" for m in opens)
    assert all(m["metadata"]["version"].startswith("2.") for m in opens)
    shown = [m for m in got if m["type"] == "display"][-1]
    model_id = shown["data"]["application/vnd.jupyter.widget-view+json"]["model_id"]
    assert model_id == opens[-1]["comm_id"]


def test_page_updates_are_echoed_under_their_message_id_then_idle() -> None:
    got = run("""
        kernel.setup(post, widgets=True)
        kernel.run_cell(0, "import ipywidgets as w\\ns = w.IntSlider(value=3)\\n"
                           "t = w.HTML()\\ns.observe(lambda c: setattr(t, 'value', "
                           "f'vu {c.new}'), names='value')")
        comm_id = kernel.NAMESPACE["s"].comm.comm_id
        messages.clear()
        kernel.comm_msg(comm_id, "page-1", json.dumps(
            {"method": "update", "state": {"value": 9}, "buffer_paths": []}))
        assert kernel.NAMESPACE["t"].value == "vu 9"
    """)
    echo = [m for m in got if m["type"] == "comm_msg" and m["data"]["method"] == "echo_update"]
    assert echo and echo[0]["parent"] == "page-1"
    assert echo[0]["data"]["state"] == {"value": 9}
    update = [m for m in got if m["type"] == "comm_msg" and m["data"]["method"] == "update"]
    assert update[0]["data"]["state"]["value"] == "vu 9"
    assert got[-1] == {"type": "idle", "msg_id": "page-1"}


def test_the_tracker_autosaves_after_each_operation_and_resumes() -> None:
    got = run("""
        kernel.setup(post, widgets=True)
        kernel.run_cell(0, "from escarmouche_widgets import CombatTracker\\n"
                           "suivi = CombatTracker('d12', seed=12)")
        kernel.start_autosave()
        messages.clear()
        suivi = kernel.NAMESPACE["suivi"]
        comm_id = suivi.start_button.comm.comm_id
        kernel.comm_msg(comm_id, "clic-1", json.dumps({"method": "custom",
                                                       "content": {"event": "click"}}))
        kernel.comm_msg(comm_id, "clic-1b", json.dumps({"method": "custom",
                                                        "content": {"event": "foo"}}))
        saved = [m for m in messages if m["type"] == "autosave"]
        assert len(saved) == 1, saved  # nothing changed the second time
        before = suivi.status_text
        kernel.run_cell(1, "suivi2 = CombatTracker('rulebook', seed=1)")
        ok = kernel.resume("suivi2", saved[0]["json"])
        assert ok and kernel.NAMESPACE["suivi2"].status_text == before, (
            kernel.NAMESPACE["suivi2"].status_text, before)
    """)
    saved = [m for m in got if m["type"] == "autosave"]
    assert saved[0]["name"] == "suivi"
    assert saved[0]["summary"]["system"] == "d12"
    assert saved[0]["summary"]["events"] > 0


def _pyc(source: str, *, checked: bool) -> bytes:
    """An unchecked (or checked) hash-based pyc of this interpreter for ``source``."""
    from importlib._bootstrap_external import _code_to_hash_pyc  # type: ignore[attr-defined]
    from importlib.util import source_hash

    code = compile(source, "<wheel>", "exec")
    data: bytes = _code_to_hash_pyc(code, source_hash(source.encode()), checked=checked)
    return data


def test_the_page_wheels_import_from_their_zip_with_their_bytecode(tmp_path: Path) -> None:
    """kernel.use_wheels: the worker writes the page's wheels as they came and imports
    from them; a module's unchecked pyc in ``__pycache__`` is used (here its code differs
    from the source, to tell them apart), a module without one, or with a checked one, is
    compiled from its source; package data, metadata and tracebacks' source lines work."""
    import zipfile

    tag = sys.implementation.cache_tag
    wheel = tmp_path / "demo-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("demo/__init__.py", "WHERE = 'source'\n")
        z.writestr(f"demo/__pycache__/__init__.{tag}.pyc", _pyc("WHERE = 'pyc'\n", checked=False))
        z.writestr("demo/plain.py",
                   "WHERE = 'source'\n\ndef boom():\n    raise ValueError('ici')\n")
        z.writestr("demo/checked.py", "WHERE = 'source'\n")
        z.writestr(f"demo/__pycache__/checked.{tag}.pyc", _pyc("WHERE = 'pyc'\n", checked=True))
        z.writestr("demo/donnees.txt", "des dés\n")
        z.writestr("demo-1.0.dist-info/METADATA",
                   "Metadata-Version: 2.1\nName: demo\nVersion: 1.0\n")
    run(f"""
        import importlib.metadata, importlib.resources, pathlib, traceback
        kernel._DATA_DIR = {str(tmp_path / "donnees")!r}
        kernel.use_wheels([{str(wheel)!r}])
        import demo, demo.plain, demo.checked
        assert (demo.WHERE, demo.plain.WHERE, demo.checked.WHERE) == ("pyc", "source", "source")
        assert demo.__file__ == {str(wheel)!r} + "/demo/__init__.py", demo.__file__
        assert type(demo.__loader__).__name__ == "WheelImporter"
        assert importlib.resources.files("demo").joinpath("donnees.txt").read_text() == "des dés\\n"
        # a package's files are real paths, as the engine hands them out (example_rosters)
        folder = importlib.resources.files("demo")
        assert isinstance(folder, pathlib.Path), folder
        assert folder.is_relative_to({str(tmp_path / "donnees")!r})
        assert [p.name for p in folder.iterdir()] == ["donnees.txt"]
        assert open(str(folder / "donnees.txt"), encoding="utf-8").read() == "des dés\\n"
        assert importlib.metadata.version("demo") == "1.0"
        try:
            demo.plain.boom()
        except ValueError:
            assert "raise ValueError('ici')" in traceback.format_exc()
    """)
