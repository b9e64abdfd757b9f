"""The site's Python standard library: Pyodide's own, with the modules a live page imports
compiled to bytecode (tools/lite/precompile_stdlib.mjs, built by ``make book``).

- Nothing of Pyodide's zip is lost or changed: each module is there as its source or as
  an unchecked hash-based pyc of Python 3.14 (PEP 552), every other file byte for byte.
- Started under Node.js from the built site (as a live page starts it: the page's wheels,
  kernel.py's set-up, the initiative demo), Python imports every standard module it
  needed from bytecode: no module a live page imports is compiled in the browser.

These read the built site, so they run in the browser step of ``make test``, after the
book is built.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from tools.browser_kit import SITE

ROOT = Path(__file__).resolve().parents[2]
STOCK = ROOT / "node_modules" / "pyodide" / "python_stdlib.zip"
PYODIDE = SITE / "lite" / "static" / "pyodide"
BUILT = PYODIDE / "python_stdlib.zip"
KERNEL = ROOT / "book" / "_static" / "live" / "kernel.py"

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not BUILT.is_file() or not STOCK.is_file(),
                                 reason="le site n’est pas construit (make book)")]

#: Under Node.js, the site's Pyodide as a live page starts it; then the standard modules
#: imported and where each came from.
PROBE = r"""
import { readFileSync } from "node:fs";
const [base, kernel, ...wheels] = process.argv.slice(2);
const { loadPyodide } = await import(base + "pyodide.mjs");
const py = await loadPyodide({ indexURL: base });
py.FS.mkdirTree("/wheels");
for (const w of wheels) py.FS.writeFile("/wheels/" + w, readFileSync(base + w));
py.FS.writeFile("/home/pyodide/escarmouche_live_kernel.py", readFileSync(kernel, "utf8"));
console.log(py.runPython(`
import json, sys
sys.path.insert(0, "/home/pyodide")
import escarmouche_live_kernel as kernel
kernel.use_wheels(["/wheels/" + w for w in ${JSON.stringify(wheels)}])
kernel.setup(lambda *args: None, True)
from escarmouche_widgets import InitiativeDemo
InitiativeDemo("rulebook", seed=7).widget
# frozen modules (abc, codecs, os…) keep a __file__ in the zip but come from the
# interpreter itself: only what zipimport loaded counts
json.dumps(sorted(m.__file__ for m in list(sys.modules.values())
                  if (getattr(m, "__file__", None) or "").startswith("/lib/python314.zip/")
                  and type(m.__loader__).__name__ == "zipimporter"))
`));
"""


def test_the_sites_standard_library_is_pyodides_with_its_imported_modules_compiled() -> None:
    stock = zipfile.ZipFile(STOCK)
    built = zipfile.ZipFile(BUILT)
    names = set(built.namelist())
    compiled = 0
    for info in stock.infolist():
        name = info.filename
        if name.endswith(".py") and name not in names:
            pyc = built.read(name[:-3] + ".pyc")
            # Python 3.14's magic number (the wheels' bytecode has the same), then the
            # flags of an unchecked hash-based pyc
            assert pyc[:4] == (3627).to_bytes(2, "little") + b"\r\n", name
            assert int.from_bytes(pyc[4:8], "little") == 1, name
            compiled += 1
        else:
            assert built.read(name) == stock.read(info), name
    assert len(names) == len(stock.namelist())
    assert 100 < compiled < len(stock.namelist()) / 2  # the imported ones, not all


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js absent")
def test_a_live_page_imports_no_standard_module_from_source(tmp_path: Path) -> None:
    lock = json.loads((PYODIDE / "pyodide-lock.json").read_text(encoding="utf-8"))
    wheels = [lock["packages"][name]["file_name"] for name in
              ("escarmouche", "fastjsonschema", "icepool", "ipywidgets", "comm", "traitlets")]
    probe = tmp_path / "probe.mjs"
    probe.write_text(PROBE, encoding="utf-8")
    run = subprocess.run(["node", str(probe), f"{PYODIDE}/", str(KERNEL), *wheels],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    files = json.loads(run.stdout.strip().splitlines()[-1])
    assert any(f.endswith("/dataclasses.pyc") for f in files), files
    from_source = [f for f in files if f.endswith(".py")]
    assert from_source == [], from_source
