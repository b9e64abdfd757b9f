// The Web Worker of the book's live pages: Pyodide, the page's packages, and kernel.py.
//
// The page (live.js) posts one `init` message, then `run`, `comm_msg`, `comm_close`,
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
  // A second fetch of a file (the wheels are prefetched) is not counted twice.
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

/** The SHA-256 of a text, in hex (the page's lock is checked against its own build). */
async function sha256(text) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
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

function prefetch(lock, names, base) {
  const seen = new Set();
  const todo = [...names];
  while (todo.length) {
    const name = todo.pop();
    const entry = lock.packages[name];
    if (!entry || seen.has(name)) continue;
    seen.add(name);
    todo.push(...entry.depends);
    fetch(base + entry.file_name).then((r) => r.arrayBuffer()).catch(() => {});
  }
}

async function boot(init) {
  counting = !init.cached;
  const base = new URL(init.pyodide, self.location.href).href;
  let loadPyodide;
  try {
    ({ loadPyodide } = await import(base + "pyodide.mjs"));
  } catch (error) {
    return fail("python", error);
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
  // The wheels download while the wasm compiles (loadPackage then finds them cached).
  lock.then((text) => prefetch(JSON.parse(text), init.packages, base)).catch(() => {});
  const source = fetch(new URL(init.kernel, self.location.href)).then((r) => {
    if (!r.ok) throw new Error(`kernel.py : HTTP ${r.status}`);
    return r.text();
  });
  const started = performance.now();
  try {
    pyodide = await loadPyodide({
      indexURL: base,
      packageBaseUrl: base,
      lockFileContents: lock,
      fullStdLib: false,
      stdout: () => {},
      stderr: (text) => console.warn("[python]", text),
    });
  } catch (error) {
    return fail(error.step || "python", error);
  }
  if (init.interrupt) pyodide.setInterruptBuffer(init.interrupt);
  post({ type: "status", step: "python", ms: performance.now() - started });
  try {
    const t0 = performance.now();
    await pyodide.loadPackage(init.packages, { messageCallback: () => {}, errorCallback: (m) => console.warn(m) });
    pyodide.FS.writeFile("/home/pyodide/escarmouche_live_kernel.py", await source);
    pyodide.runPython("import sys\nif '/home/pyodide' not in sys.path: sys.path.insert(0, '/home/pyodide')");
    kernel = pyodide.pyimport("escarmouche_live_kernel");
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
    return fail("engine", error);
  }
  post({ type: "status", step: "ready", ms: performance.now() - started });
  while (queue.length) handle(queue.shift());
}

function handle({ message, buffers }) {
  try {
    switch (message.type) {
      case "run":
        kernel.run_cell(message.cell, message.code);
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
  if (message.type === "init") {
    message.interrupt = event.data.interrupt || null;
    boot(message);
    return;
  }
  const item = { message, buffers: event.data.buffers };
  if (kernel === null) queue.push(item);
  else handle(item);
};
