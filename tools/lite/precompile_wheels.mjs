// Add Python 3.14 bytecode to pure-Python wheels, compiled by the very Pyodide the
// browser runs (Node.js runs the npm package's pyodide.mjs, offline).
//
//   node tools/lite/precompile_wheels.mjs <pyodide dir> <output dir> <wheel>...
//
// Every module `pkg/mod.py` gains `pkg/__pycache__/mod.cpython-314.pyc`, an *unchecked*
// hash-based pyc (PEP 552): the import system uses it without comparing mtimes (a
// wheel unpacked in the browser has fresh mtimes) and without hashing the source.
// The sources stay, so tracebacks still show code lines. RECORD lists the new files.
// In the browser, `import IPython` then skips compiling ~400 modules (about half of its
// import time: see bench/README-browser.md). Output is deterministic.
import { readFileSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, outDir, ...wheels] = process.argv.slice(2);
if (!pyodideDir || !outDir || wheels.length === 0) {
  console.error("usage: precompile_wheels.mjs <pyodide dir> <output dir> <wheel>...");
  process.exit(2);
}
const { loadPyodide } = await import(pathToFileURL(join(resolve(pyodideDir), "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: resolve(pyodideDir) + "/" });

pyodide.runPython(`
import base64, csv, hashlib, importlib.util, io, posixpath, sys, warnings, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

TAG = sys.implementation.cache_tag

def _row(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return [name, f"sha256={digest}", str(len(data))]

def precompile(src) -> tuple[bytes, int]:
    zin = zipfile.ZipFile(io.BytesIO(src.to_bytes()))
    names = zin.namelist()
    record = next(n for n in names if n.endswith(".dist-info/RECORD"))
    out = io.BytesIO()
    added = []
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            data = zin.read(info)
            if info.filename == record:
                continue
            zout.writestr(info, data, compress_type=zipfile.ZIP_DEFLATED)
            name = info.filename
            if not name.endswith(".py") or "/tests/" in name or name.startswith("tests/"):
                continue
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    code = compile(data, name, "exec", dont_inherit=True)
            except (SyntaxError, ValueError):
                continue
            pyc = _code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False)
            folder, base = posixpath.split(name)
            target = posixpath.join(folder, "__pycache__", f"{base[:-3]}.{TAG}.pyc")
            target_info = zipfile.ZipInfo(target, date_time=info.date_time)
            target_info.external_attr = info.external_attr
            zout.writestr(target_info, pyc, compress_type=zipfile.ZIP_DEFLATED)
            added.append(_row(target, pyc))
        rows = list(csv.reader(io.StringIO(zin.read(record).decode("utf-8"))))
        text = io.StringIO()
        csv.writer(text, lineterminator="\\n").writerows(rows + added)
        info = zipfile.ZipInfo(record, date_time=zin.getinfo(record).date_time)
        zout.writestr(info, text.getvalue().encode("utf-8"), compress_type=zipfile.ZIP_DEFLATED)
    return out.getvalue(), len(added)
`);
const precompile = pyodide.globals.get("precompile");
for (const wheel of wheels) {
  try {
    const result = precompile(new Uint8Array(readFileSync(wheel)));
    const [bytes, count] = result.toJs();
    result.destroy();
    writeFileSync(join(outDir, basename(wheel)), bytes);
    console.log(`[precompile] ${basename(wheel)}: ${count} modules`);
  } catch (error) {
    console.error(`[precompile] ${basename(wheel)}: ${error.message}`);
    process.exit(1);
  }
}
