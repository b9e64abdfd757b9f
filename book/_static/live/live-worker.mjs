// The Web Worker of the book's live pages: Pyodide, the page's packages, and kernel.py.
//
// The page (live.js) may post `prepare` (the worker made before any click imports Pyodide's
// small loader, nothing more), then posts one `init` message, then `run`, `comm_msg`, `comm_close`,
// `autosave_start` and `resume` messages; everything goes both ways as JSON strings
// (binary widget buffers ride alongside, as transferred ArrayBuffers). Messages that
// arrive before Python is ready wait in a queue.
//
// Only what the page needs is loaded: the site's Pyodide core and the wheels of the
// JupyterLite lock (lite/static/pyodide/), with a lock rewritten here so that
// ipywidgets depends on comm and traitlets only (kernel.py installs a minimal IPython
// stand-in) and the engine on icepool only.

let pyodide = null;
let kernel = null;
const queue = [];
/** Stores Python's memory snapshot made at this start, once (null: none to store). */
let keepSnapshot = null;

// Every byte Pyodide, the lock and the wheels bring in is counted for the page's progress
// line (« 2,3 Mo sur 9,1 Mo, encore 12 s environ »), in posts at most every 100 ms, when
// they are downloaded. From this device's cache (the page says so: `init.cached`) nothing
// is counted and every response goes to Pyodide untouched: a Response made here (or a
// tee of one) carries no code cache, and V8 then compiles pyodide.asm.wasm anew on every
// visit instead of reusing the code it compiled on an earlier one (bench/README-browser.md).
const realFetch = self.fetch.bind(self);
let counting = true;
let counted = 0;
let lastPost = 0;
function count(n, force) {
  counted += n;
  const now = performance.now();
  if (force || now - lastPost > 100) {
    lastPost = now;
    post({ type: "bytes", done: counted });
  }
}
const countedUrls = new Set();
self.fetch = async (input, init) => {
  const response = await realFetch(input, init);
  if (!counting) return response;
  const url = String(input.url || input);
  // A second fetch of a file (loadPackage after fetchWheels) is not counted twice.
  if (!response.body || countedUrls.has(url)) return response;
  countedUrls.add(url);
  const counter = new TransformStream({
    transform(chunk, controller) {
      count(chunk.byteLength, false);
      controller.enqueue(chunk);
    },
    flush() {
      count(0, true);
    },
  });
  return new Response(response.body.pipeThrough(counter), {
    status: response.status, statusText: response.statusText, headers: response.headers,
  });
};

// Python's start from a memory snapshot (bench/README-browser.md). Pyodide can save its
// heap right after the interpreter has started (`_makeSnapshot`, `makeMemorySnapshot`)
// and start from that heap later (`_loadSnapshot`), which skips the interpreter's own
// start: 0.4 s instead of 1.7–4 s here. Only the bare interpreter can be saved (Pyodide
// cannot yet keep loaded packages, pyodide #6418): the packages and imports come after,
// as without it. The snapshot is made on this device, by the very Pyodide files it is
// restored with, the first time Python starts while the runtime is kept in this device's
// cache (or when the reader asks for « Disponible hors ligne »), and kept gzipped in that
// cache, which is named by build: nothing is downloaded for it, and a new edition drops it
// with the rest. A snapshot that does not restore is deleted and Python starts normally.
const SNAPSHOT_FILE = "escarmouche-python-snapshot.gz";

/** The runtime's cache, when it exists (opening one would create it). */
async function runtimeCache(init) {
  if (!init.cache || !self.caches) return null;
  try {
    return (await caches.has(init.cache)) ? await caches.open(init.cache) : null;
  } catch {
    return null;
  }
}

/** The stored snapshot's bytes (a promise, ungzipped while the wasm compiles), or null. */
async function storedSnapshot(init, base) {
  if (!init.cached || typeof DecompressionStream !== "function") return null;
  const cache = await runtimeCache(init);
  const hit = cache && await cache.match(base + SNAPSHOT_FILE).catch(() => null);
  if (!hit) return null;
  return new Response(hit.body.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
}

/** Keep `snapshot` (gzipped) in the runtime's cache, if this device keeps the runtime. */
async function storeSnapshot(init, base, snapshot) {
  if (typeof CompressionStream !== "function") return 0;
  const cache = await runtimeCache(init);
  if (!cache) return 0;
  const gz = await new Response(new Blob([snapshot]).stream()
    .pipeThrough(new CompressionStream("gzip"))).arrayBuffer();
  await cache.put(base + SNAPSHOT_FILE, new Response(gz, {
    headers: { "Content-Type": "application/gzip", "Content-Length": String(gz.byteLength) },
  }));
  return gz.byteLength;
}

/** Whether the runtime's cache holds the core's large files (`init.core`): the page's
 * own check (escarmouche-offline.js `runtimeCached`), made here when the page did not
 * wait for it (`init.cached` null). */
async function runtimeCachedHere(init, base) {
  const cache = await runtimeCache(init);
  if (!cache) return false;
  const hits = await Promise.all((init.core || []).map((file) => cache.match(base + file).catch(() => null)));
  return hits.length > 0 && hits.every(Boolean);
}

async function dropSnapshot(init, base) {
  const cache = await runtimeCache(init);
  if (cache) await cache.delete(base + SNAPSHOT_FILE).catch(() => false);
}

/** Pyodide started from this device's snapshot if there is one that restores, else
 * normally, ready to save a new snapshot (`made` says which; `snapshot`: the heap to save
 * once the page is live). */
async function startPython(loadPyodide, options, init, base) {
  const stored = await storedSnapshot(init, base).catch(() => null);
  if (stored) {
    try {
      const py = await loadPyodide({ ...options, _loadSnapshot: stored });
      // Every restore starts from the same heap: reseed what was seeded when it was saved.
      py.runPython("import sys\nif 'random' in sys.modules: sys.modules['random'].seed()");
      return { py, made: "restored", snapshot: null };
    } catch (error) {
      console.warn("[escarmouche live] snapshot", error);
      await dropSnapshot(init, base);
    }
  }
  const keep = Boolean(init.cache) && init.makeSnapshot !== false
    && typeof CompressionStream === "function";
  const py = await loadPyodide({ ...options, _makeSnapshot: keep });
  let snapshot = null;
  if (keep) {
    try {
      snapshot = py.makeMemorySnapshot();
    } catch (error) {
      console.warn("[escarmouche live] snapshot", error);
    }
  }
  return { py, made: snapshot ? "made" : "none", snapshot };
}

/** The SHA-256 of a text, in hex (the page's lock is checked against its own build). */
/** The SHA-256 of bytes, in hex (a wheel checked against the lock). */
async function sha256Bytes(bytes) {
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

async function sha256(text) {
  return sha256Bytes(new TextEncoder().encode(text));
}

function post(message, buffers) {
  const transfer = (buffers || []).map((b) => b.buffer || b);
  self.postMessage({ json: JSON.stringify(message), buffers: buffers || [] }, transfer);
}

function fail(step, error) {
  post({ type: "boot_error", step, message: String((error && error.message) || error) });
}

/** The JupyterLite lock, trimmed to what a live page imports. */
function rewriteLock(text, keep) {
  const lock = JSON.parse(text);
  const packages = lock.packages;
  const deps = {
    ipywidgets: ["comm", "traitlets"],
    comm: ["traitlets"],
  };
  for (const [name, entry] of Object.entries(packages)) {
    if (deps[name]) entry.depends = deps[name].filter((d) => d in packages);
  }
  if (packages.escarmouche) {
    // The wheel's metadata lists the notebook stack (ipywidgets, IPython…): the live
    // page adds ipywidgets itself when it has widgets.
    packages.escarmouche.depends = packages.escarmouche.depends.filter((d) => keep.includes(d));
  }
  return JSON.stringify(lock);
}

/** The wheels of `names` and of their dependencies in the lock, fetched (while the wasm
 * compiles) and checked against the lock's SHA-256 (the lock is this build's: a wheel of
 * another build is refused as an edition error). Resolves with [{file, bytes}], or null
 * when one of them is not a pure-Python wheel (then loadPackage installs them all). */
function fetchWheels(lock, names, base) {
  const seen = new Set();
  const todo = [...names];
  const entries = [];
  while (todo.length) {
    const name = todo.pop();
    const entry = lock.packages[name];
    if (!entry || seen.has(name)) continue;
    seen.add(name);
    todo.push(...entry.depends);
    entries.push(entry);
  }
  const pure = entries.every((e) => /-none-any\.whl$/.test(e.file_name) && e.sha256);
  return Promise.all(entries.map(async (entry) => {
    const response = await fetch(base + entry.file_name);
    if (!response.ok) throw new Error(`${entry.file_name} : HTTP ${response.status}`);
    const bytes = await response.arrayBuffer();
    if (!pure) return null;
    if (await sha256Bytes(bytes) !== entry.sha256) {
      const error = new Error(`${entry.file_name} n’est pas celle du verrou`);
      error.step = "edition";
      throw error;
    }
    return { file: entry.file_name, bytes };
  })).then((wheels) => (pure ? wheels : null));
}

/** Where the page's wheels are written, and imported from (kernel.py: use_wheels). */
const WHEELS_DIR = "/home/pyodide/roues";

/** Pyodide's small loader module (18 KB), imported once: when the page prepares this
 * worker before any click (« prepare »), or at the start of the boot. */
let loader = null;
function importLoader(base) {
  if (!loader || loader.base !== base) {
    loader = { base, module: import(base + "pyodide.mjs") };
    loader.module.catch(() => {});
  }
  return loader.module;
}

async function boot(init) {
  const base = new URL(init.pyodide, self.location.href).href;
  const loading = importLoader(base);
  if (init.cached === null) init.cached = await runtimeCachedHere(init, base).catch(() => false);
  counting = !init.cached;
  let loadPyodide;
  try {
    ({ loadPyodide } = await loading);
  } catch (error) {
    return fail("python", error);
  }
  if (counting) {
    // The core's two modules are imported, not fetched: the page adds their sizes to the
    // bytes counted here once they are in. Pyodide's own import of its module is this
    // very URL (one module map entry, one download), started here a moment earlier.
    post({ type: "imported", file: "pyodide.mjs" });
    import(base + "pyodide.asm.mjs").then(
      () => post({ type: "imported", file: "pyodide.asm.mjs" }), () => {});
  }
  const lockText = fetch(base + "pyodide-lock.json").then((r) => {
    if (!r.ok) throw new Error(`pyodide-lock.json : HTTP ${r.status}`);
    return r.text();
  });
  // A page of one build never runs the wheels of another (old pages, new wheels, or the
  // reverse): the lock must be the one the page was built with. Checked while the wasm
  // compiles; loadPyodide waits for the lock, so no package loads before the check.
  const lock = lockText.then(async (text) => {
    if (init.runtime) {
      const found = await sha256(text);
      if (found !== init.runtime) {
        const error = new Error(`verrou ${found.slice(0, 12)} au lieu de ${init.runtime.slice(0, 12)}`);
        error.step = "edition";
        throw error;
      }
    }
    return rewriteLock(text, init.packages);
  });
  // The wheels download while the wasm compiles; pure-Python ones are then imported from
  // their zip (kernel.py: use_wheels), with no unpacking.
  const wheels = lock.then((text) => fetchWheels(JSON.parse(text), init.packages, base));
  wheels.catch(() => {});
  const source = fetch(new URL(init.kernel, self.location.href)).then((r) => {
    if (!r.ok) throw new Error(`kernel.py : HTTP ${r.status}`);
    return r.text();
  });
  const started = performance.now();
  let start;
  try {
    start = await startPython(loadPyodide, {
      indexURL: base,
      packageBaseUrl: base,
      lockFileContents: lock,
      fullStdLib: false,
      stdout: () => {},
      stderr: (text) => console.warn("[python]", text),
    }, init, base);
  } catch (error) {
    return fail(error.step || "python", error);
  }
  pyodide = start.py;
  if (init.snapshotOnly) {
    // « Disponible hors ligne »: the snapshot, stored before anything else; then the
    // packages and imports of a live page, run once so that V8 compiles the wasm's hot
    // code and keeps it (its code cache, written a few seconds after the code has run:
    // bench/README-browser.md); then « warmed », and the page stops this worker.
    const heap = start.snapshot;
    start.snapshot = null;
    const bytes = heap ? await storeSnapshot(init, base, heap).catch(() => 0) : 0;
    post({ type: "snapshot", made: start.made, bytes });
  }
  if (init.interrupt) pyodide.setInterruptBuffer(init.interrupt);
  post({ type: "status", step: "python", ms: performance.now() - started, snapshot: start.made });
  try {
    const t0 = performance.now();
    const zipped = await wheels;
    if (!zipped) {
      await pyodide.loadPackage(init.packages, { messageCallback: () => {}, errorCallback: (m) => console.warn(m) });
    } else {
      pyodide.FS.mkdirTree(WHEELS_DIR);
      for (const wheel of zipped) {
        pyodide.FS.writeFile(`${WHEELS_DIR}/${wheel.file}`, new Uint8Array(wheel.bytes));
      }
    }
    if (!init.helper) pyodide.registerJsModule("escarmouche_pool", makePool(init));
    pyodide.FS.writeFile("/home/pyodide/escarmouche_live_kernel.py", await source);
    pyodide.runPython("import sys\nif '/home/pyodide' not in sys.path: sys.path.insert(0, '/home/pyodide')");
    kernel = pyodide.pyimport("escarmouche_live_kernel");
    if (zipped) {
      const paths = pyodide.toPy(zipped.map((wheel) => `${WHEELS_DIR}/${wheel.file}`));
      kernel.use_wheels(paths);
      paths.destroy();
    }
    const send = (json, buffers) => {
      let bufs = [];
      if (buffers && buffers.length) {
        bufs = buffers.toJs();
      }
      if (buffers && buffers.destroy) buffers.destroy();
      post(JSON.parse(json), bufs);
    };
    const t1 = performance.now();
    kernel.setup(send, Boolean(init.widgets));
    post({ type: "timing", packages: t1 - t0, imports: performance.now() - t1 });
  } catch (error) {
    return fail(error.step || "engine", error);
  }
  post({ type: "status", step: "ready", ms: performance.now() - started });
  if (init.snapshotOnly) {
    setTimeout(() => post({ type: "warmed" }), 3000);
    return;
  }
  while (queue.length) handle(queue.shift());
  if (start.snapshot) {
    // Saved once the page has run its examples (it says « keep_snapshot »), or 5 s after
    // Python is ready: gzip and the cache write take ~0.7 s of this worker, which would
    // otherwise delay the page's first results.
    const heap = start.snapshot;
    start.snapshot = null;
    keepSnapshot = () => {
      keepSnapshot = null;
      storeSnapshot(init, base, heap).then((bytes) => {
        if (bytes) post({ type: "snapshot", made: "stored", bytes });
      }, (error) => console.warn("[escarmouche live] snapshot", error));
    };
    setTimeout(() => keepSnapshot && keepSnapshot(), 5000);
  }
}

// --- the pool of helper workers (bench/README-browser.md) ------------------------------------------------
//
// A long run (the Atelier's fights) is played in batches on helper workers: this very
// module, started by this worker with the page's `init` (no widgets, no snapshot made, no
// interrupt buffer), each booting Python from the runtime this device already keeps (the
// same cache, the snapshot when there is one). Python sees them as the module
// `escarmouche_pool` (widgets/escarmouche_widgets/_pool.py): `size()`, the helpers it may
// start (`init.workers`, from the page: navigator.hardwareConcurrency − 1, at most 4, 2 on
// a phone or under 4 GB); `play(job)`, a promise of one batch's tallies as JSON; `cancel()`,
// the batches not started are dropped (« Arrêter », or the precision reached: a helper
// finishes the batch it plays, a few tenths of a second, and waits for the next run).
// The helpers start at the first `play`, never before, and stay for the next run.

function makePool(init) {
  const size = Math.max(1, Math.min(8, Number(init.workers) || 1));
  const helpers = [];
  const waiting = [];
  let seq = 0;

  function start() {
    const worker = new Worker(self.location.href, { type: "module" });
    const helper = { worker, ready: false, job: null };
    worker.onmessage = (event) => {
      const message = JSON.parse(event.data.json);
      if (message.type === "status" && message.step === "ready") {
        helper.ready = true;
      } else if (message.type === "batch_done" && helper.job && helper.job.id === message.id) {
        const job = helper.job;
        helper.job = null;
        job.resolve(message.result);
      } else if (message.type === "boot_error" || message.type === "worker_error") {
        const job = helper.job;
        helper.job = null;
        helper.failed = true;
        if (job) job.reject(new Error(`travailleur : ${message.message}`));
      }
      pump();
    };
    worker.onerror = (event) => {
      event.preventDefault();
      helper.failed = true;
      if (helper.job) helper.job.reject(new Error("un travailleur s’est arrêté"));
      helper.job = null;
      pump();
    };
    const helperInit = { ...init, widgets: false, makeSnapshot: false, snapshotOnly: false,
      interrupt: null, helper: true, workers: 1 };
    worker.postMessage({ json: JSON.stringify(helperInit), buffers: [] });
    helpers.push(helper);
  }

  function pump() {
    for (const helper of helpers) {
      if (!waiting.length) return;
      if (!helper.ready || helper.job || helper.failed) continue;
      helper.job = waiting.shift();
      helper.worker.postMessage({ json: JSON.stringify({ type: "batch", id: helper.job.id, job: helper.job.json }) });
    }
    if (waiting.length && helpers.length && helpers.every((h) => h.failed)) {
      while (waiting.length) waiting.shift().reject(new Error("aucun travailleur n’a démarré"));
    }
  }

  return {
    size: () => size,
    play(json) {
      while (helpers.length < size) start();
      return new Promise((resolve, reject) => {
        waiting.push({ id: ++seq, json, resolve, reject });
        pump();
      });
    },
    cancel() {
      waiting.length = 0;
    },
    started: () => helpers.filter((h) => h.ready).length,
  };
}

function handle({ message, buffers }) {
  try {
    switch (message.type) {
      case "run":
        kernel.run_cell(message.cell, message.code);
        break;
      case "batch": // a helper of the pool: one batch of fights
        post({ type: "batch_done", id: message.id, result: kernel.play_batch(message.job) });
        break;
      case "comm_msg": {
        const bufs = (buffers || []).map((b) => new Uint8Array(b));
        kernel.comm_msg(message.comm_id, message.msg_id, JSON.stringify(message.data), bufs);
        break;
      }
      case "comm_close":
        kernel.comm_close(message.comm_id);
        break;
      case "autosave_start":
        kernel.start_autosave();
        break;
      case "keep_snapshot":
        if (keepSnapshot) keepSnapshot();
        break;
      case "resume": {
        const ok = kernel.resume(message.name, message.json);
        post({ type: "resumed", ok: Boolean(ok), name: message.name });
        break;
      }
      default:
        console.warn("live-worker: unknown message", message.type);
    }
  } catch (error) {
    post({ type: "worker_error", message: String((error && error.message) || error), cell: message.cell });
  }
}

self.onmessage = (event) => {
  const message = JSON.parse(event.data.json);
  if (message.type === "prepare") {
    importLoader(new URL(message.pyodide, self.location.href).href);
    return;
  }
  if (message.type === "init") {
    message.interrupt = event.data.interrupt || null;
    boot(message);
    return;
  }
  const item = { message, buffers: event.data.buffers };
  if (kernel === null) queue.push(item);
  else handle(item);
};
