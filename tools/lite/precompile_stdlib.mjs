// Python's standard library as the live pages use it: the modules they import, compiled
// to Python 3.14 bytecode by the very Pyodide the browser runs (Node.js, offline).
//
//   node tools/lite/precompile_stdlib.mjs <pyodide dir> <kernel.py> <output zip> <wheel>...
//
// Pyodide ships `python_stdlib.zip` as sources: every module Python imports, while it
// starts and then for the page, is compiled in the browser first (about half of a bare
// start's CPU time on the bench's machine: bench/README-browser.md). This script starts
// that Pyodide, imports what a live page imports (its kernel, ipywidgets, the engine and
// the widgets, every submodule of both), and writes the same zip where each of the
// standard modules so imported is an *unchecked* hash-based pyc (PEP 552) instead of its
// source: `random.pyc` beside where `random.py` was, which zipimport loads without
// compiling or checking anything. The other modules (about 390 of 560) stay sources, so
// the zip grows by the bytecode of the imported ones only. Tracebacks through a compiled
// module show no source line. Output is deterministic (the entries' order and dates kept).
import { readFileSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, kernelPath, outZip, ...wheels] = process.argv.slice(2);
if (!pyodideDir || !kernelPath || !outZip || wheels.length === 0) {
  console.error("usage: precompile_stdlib.mjs <pyodide dir> <kernel.py> <output zip> <wheel>...");
  process.exit(2);
}
const dir = resolve(pyodideDir);
const { loadPyodide } = await import(pathToFileURL(join(dir, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: dir + "/" });
pyodide.FS.mkdirTree("/wheels");
const paths = wheels.map((wheel) => {
  const target = `/wheels/${basename(wheel)}`;
  pyodide.FS.writeFile(target, new Uint8Array(readFileSync(wheel)));
  return target;
});
pyodide.FS.writeFile("/home/pyodide/escarmouche_live_kernel.py", readFileSync(kernelPath, "utf8"));

pyodide.runPython(`
import importlib, importlib.util, io, pkgutil, sys, warnings, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

STDLIB = "/lib/python314.zip/"

def used_modules(wheels):
    """The standard library's files a live page has imported once it is up."""
    sys.path.insert(0, "/home/pyodide")
    import escarmouche_live_kernel as kernel
    kernel.use_wheels(list(wheels))
    kernel.setup(lambda *args: None, True)
    import escarmouche, escarmouche_widgets
    for package in (escarmouche, escarmouche_widgets):
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            try:
                importlib.import_module(info.name)
            except BaseException:  # a module for another platform (Dask…): not a page's
                pass
    # frozen modules (abc, codecs, os…) name a file in the zip but come from the
    # interpreter itself: only what zipimport loaded
    return {m.__file__[len(STDLIB):] for m in list(sys.modules.values())
            if (getattr(m, "__file__", None) or "").startswith(STDLIB)
            and type(m.__loader__).__name__ == "zipimporter"}

def compiled_zip(stock, used):
    """The stock zip with each used module's source replaced by its bytecode."""
    zin = zipfile.ZipFile(io.BytesIO(stock.to_bytes()))
    out = io.BytesIO()
    count = 0
    with zipfile.ZipFile(out, "w") as zout:
        for info in zin.infolist():
            data = zin.read(info)
            if info.filename in used and info.filename.endswith(".py"):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    code = compile(data, STDLIB + info.filename, "exec", dont_inherit=True)
                pyc = _code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False)
                target = zipfile.ZipInfo(info.filename[:-3] + ".pyc", date_time=info.date_time)
                target.external_attr = info.external_attr
                zout.writestr(target, pyc, compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
                count += 1
            else:
                zout.writestr(info, data, compress_type=info.compress_type)
    return out.getvalue(), count
`);
try {
  const used = pyodide.globals.get("used_modules")(pyodide.toPy(paths));
  const stock = new Uint8Array(readFileSync(join(dir, "python_stdlib.zip")));
  const result = pyodide.globals.get("compiled_zip")(stock, used);
  const [bytes, count] = result.toJs();
  writeFileSync(outZip, bytes);
  console.log(`[precompile] python_stdlib.zip: ${count} modules compiled, ` +
              `${stock.length} → ${bytes.length} bytes`);
} catch (error) {
  // Pyodide's errors carry the traceback in their message (the stack is the whole
  // minified runtime): the message alone says what failed
  console.error(`[precompile] python_stdlib.zip: ${String(error.message).slice(-2000)}`);
  process.exit(1);
}
