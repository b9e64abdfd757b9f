// The size of the memory snapshot a reader's device keeps (book/_static/live/live-worker.mjs):
// the very Pyodide core the site ships, started once under Node.js with `_makeSnapshot`,
// its heap saved with `makeMemorySnapshot()` right after the interpreter's start, as the
// worker does, then gzipped (level 6, CompressionStream's default in browsers).
//
//   node tools/offline/snapshot_size.mjs <pyodide dir>   → {"bytes": …, "gz": …}
import { gzipSync } from "node:zlib";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [dir] = process.argv.slice(2);
if (!dir) {
  console.error("usage: snapshot_size.mjs <pyodide dir>");
  process.exit(2);
}
const indexURL = resolve(dir) + "/";
const { loadPyodide } = await import(pathToFileURL(join(indexURL, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL, _makeSnapshot: true, stdout: () => {} });
const snapshot = pyodide.makeMemorySnapshot();
console.log(JSON.stringify({ bytes: snapshot.length, gz: gzipSync(snapshot, { level: 6 }).length }));
