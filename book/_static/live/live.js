/* Escarmouche — the book's live pages (book/_ext/escarmouche_live_pages.py adds this script to
 * every page with example cells).
 *
 * « Activer » makes the page itself live: Python (Pyodide) runs in a Web Worker
 * (live-worker.mjs + kernel.py), the page's cells run again in order, their outputs
 * replace the stored ones in place, and ipywidgets' comms are bridged to the
 * widget manager the page loads on activation (tools/widgets/live-manager.mjs, after
 * ipywidgets' own web example): the stored static widgets give way to live ones.
 * Then each example cell can be edited and run again (« Exécuter », Maj+Entrée).
 *
 * The runtime may start while the page is read only when it is already in this device's
 * cache (pages with widgets, or any page once the reader has used live mode, when the
 * connection and the device allow): nothing large is downloaded without a click.
 * Before that click, « Activer » says how much it will download; while Python loads,
 * the status line counts the bytes and the time left (escarmouche-offline.js knows
 * the runtime's files and sizes). A page refuses a runtime of another build (the worker
 * checks the lock's SHA-256): it says « Nouvelle édition disponible » and offers to
 * reload. An error offers « Réessayer ».
 * The GM tracker's fight is saved in the browser's storage after every operation, and
 * a reload offers to resume it. From file:// a message says which command to run.
 */
(function () {
  "use strict";

  var script = document.currentScript;
  var STATIC = new URL("./", script.src);
  // Shared with escarmouche-offline.js, which runs just before this script (both
  // deferred, in order): the DOM helper, the French spaces, the runtime's cache check.
  var shared = window.escarmoucheOffline;
  var NBSP = shared.NBSP; // before :, inside « »
  var el = shared.el;
  var USED_KEY = "escarmouche-live:utilise";
  /** Milliseconds since navigation at each step (bench/bench_browser.py reads them). */
  var timings = {};

  function mark(name) {
    if (!(name in timings)) timings[name] = Math.round(performance.now());
  }

  function storage() {
    try {
      var s = window.localStorage;
      s.getItem("x");
      return s;
    } catch (e) {
      return null;
    }
  }

  // --- the page ---------------------------------------------------------------------

  // What the <head> knows (the script tag's data-live-* attributes): enough to start
  // Python before the rest of the page is parsed.
  var boot = script.dataset;
  var config = {
    pyodide: boot.livePyodide,
    packages: (boot.livePackages || "").split(",").filter(Boolean),
    widgets: boot.liveWidgets === "1",
    prestart: boot.livePrestart === "1",
    runtime: boot.liveRuntime || "",
  };
  var bar = null;
  var button = null;
  /** The page's code cells, in order, each with its source (from the notebook). */
  var cells = [];

  /** Once the DOM is there: the bar, the page's cells; false when there is nothing to do. */
  function readPage() {
    bar = document.getElementById("escarmouche-live");
    var configNode = document.getElementById("escarmouche-live-config");
    if (!bar || !configNode) return false;
    var page = JSON.parse(configNode.textContent);
    Object.keys(page).forEach(function (key) {
      config[key] = page[key];
    });
    button = bar.querySelector(".escarmouche-live-activate");
    status.attach(bar);
    bar.hidden = false;
    var domCells = Array.prototype.slice.call(document.querySelectorAll("div.cell"));
    var shown = 0;
    config.cells.forEach(function (cell, index) {
      var node = cell.dom ? domCells[shown++] || null : null;
      cells.push({ index: index, source: cell.source, original: cell.source, node: node });
    });
    if (location.protocol === "file:") {
      status.fromFolder(); // from a folder: the command that serves the book
      return false;
    }
    return true;
  }

  // --- the runtime (the worker) --------------------------------------------------------------

  var runtime = null;

  function Runtime(cached) {
    var self = this;
    // a new worker: nothing is outstanding (messages to a stopped one are never answered)
    if (bridge) bridge.inflight = 0;
    this.step = "python";
    this.bytes = 0; // bytes the worker fetched (« bytes »)
    this.imported = []; // the core's modules it imported (« imported »)
    this.listeners = [];
    this.comms = {};
    this.runs = {};
    this.seq = 0;
    mark("worker-start");
    this.worker = takeSpareWorker();
    if (!this.worker) {
      // a worker made now imports Pyodide's loader while the page looks for the runtime in
      // this device's cache (the init message waits for that answer)
      this.worker = shared.liveWorker();
      prepare(this.worker);
    }
    this.ready = new Promise(function (resolve, reject) {
      self._resolve = resolve;
      self._reject = reject;
    });
    this.ready.catch(function () {});
    // Kept once Python is up, or once the start failed: what waits for the interpreter
    // but not for the engine (the widget library) starts then.
    this.up = new Promise(function (resolve) {
      self._up = resolve;
    });
    this.worker.onmessage = function (event) {
      var buffers = (event.data.buffers || []).map(function (b) {
        return new DataView(b.buffer || b);
      });
      self.dispatch(JSON.parse(event.data.json), buffers);
    };
    this.worker.onerror = function (event) {
      event.preventDefault();
      self.failed(self.step, event.message || "le processus de Python s’est arrêté");
    };
    // « Interrompre »: with cross-origin isolation, Pyodide's interrupt buffer raises
    // KeyboardInterrupt in the running cell; otherwise the worker is restarted.
    this.interruptBuffer = window.crossOriginIsolated && typeof SharedArrayBuffer === "function"
      ? new Uint8Array(new SharedArrayBuffer(1)) : null;
    // Whether the runtime comes from this device's cache decides how the worker treats
    // pyodide.asm.wasm (live-worker.mjs): untouched, so that the browser reuses the code
    // it compiled on an earlier visit, or counted for the progress line of a download.
    // Making Python's memory snapshot holds a second copy of its heap for a few seconds,
    // which a device that cannot afford an unasked start does not do (restoring costs
    // less), nor a page that no service worker controls (nothing would keep the runtime,
    // so nothing would keep the snapshot either).
    // Unknown (undefined) here, it is looked for by the worker: asked from this page, the
    // answer waited for the page's turn, behind the theme's scripts (0.17–0.34 s after a
    // tap as the page loads, on the bench's machine).
    this.post(shared.workerInit({
      pyodide: config.pyodide,
      runtime: config.runtime,
      packages: config.packages,
      widgets: config.widgets,
      cached: cached === undefined ? null : cached,
      interrupt: this.interruptBuffer,
      makeSnapshot: shared.affordsPython() && Boolean(navigator.serviceWorker && navigator.serviceWorker.controller),
    }));
  }

  Runtime.prototype.post = function (message, buffers) {
    if (message.type === "init") {
      mark("worker-init");
      // Sent as is (structured clone): a SharedArrayBuffer is shared, not copied.
      this.worker.postMessage({ json: JSON.stringify(message), buffers: [], interrupt: message.interrupt });
      return;
    }
    var bufs = (buffers || []).map(function (b) {
      var view = b instanceof ArrayBuffer ? new Uint8Array(b) : new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
      return view.slice().buffer;
    });
    this.worker.postMessage({ json: JSON.stringify(message), buffers: bufs }, bufs);
  };

  Runtime.prototype.failed = function (step, message) {
    if (this.error) return;
    this.error = { step: step, message: message };
    this._reject(this.error);
    this._up();
    this.listeners.forEach(function (fn) { fn("error"); });
    var runs = this.runs;
    this.runs = {};
    Object.keys(runs).forEach(function (cell) {
      runs[cell].error({ ename: "Python s’est arrêté", evalue: message, traceback: [] });
      runs[cell].done({ ok: false });
    });
  };

  Runtime.prototype.dispatch = function (message, buffers) {
    var self = this;
    switch (message.type) {
      case "status":
        mark("worker-" + message.step);
        if (message.snapshot) timings.snapshot = message.snapshot;
        this.step = message.step === "python" ? "engine" : "ready";
        this._up();
        if (message.step === "ready") this._resolve(this);
        this.listeners.forEach(function (fn) { fn(self.step); });
        break;
      case "bytes":
        this.bytes = message.done;
        this.listeners.forEach(function (fn) { fn("bytes"); });
        break;
      case "imported":
        if (this.imported.indexOf(message.file) < 0) this.imported.push(message.file);
        this.listeners.forEach(function (fn) { fn("bytes"); });
        break;
      case "timing":
        timings.packagesMs = Math.round(message.packages);
        timings.importsMs = Math.round(message.imports);
        break;
      case "snapshot":
        timings.snapshotBytes = message.bytes;
        break;
      case "boot_error":
        this.failed(message.step, message.message);
        break;
      case "worker_error":
        console.error("[escarmouche live]", message.message);
        if (message.cell !== undefined && this.runs[message.cell]) {
          this.runs[message.cell].error({ ename: "Erreur", evalue: message.message, traceback: [] });
          this.runs[message.cell].done({ ok: false });
        }
        break;
      case "stream":
      case "display":
      case "clear":
      case "error":
      case "done":
        var run = this.runs[message.cell];
        if (run) run[message.type](message);
        break;
      case "comm_open":
      case "comm_msg":
      case "comm_close":
        bridge.fromKernel(message, buffers);
        break;
      case "idle":
        bridge.idle(message.msg_id);
        break;
      case "autosave":
        tracker.save(message);
        break;
      case "resumed":
        tracker.resumed(message);
        break;
    }
  };


  /** « prepare »: the worker imports Pyodide's loader now (live-worker.mjs). */
  function prepare(worker) {
    worker.postMessage({ json: JSON.stringify({ type: "prepare", pyodide: new URL(config.pyodide, location.href).href }),
                         buffers: [] });
  }

  /** The worker the page made while it was parsed (escarmouche_live_pages.EARLY_WORKER), with
   * Pyodide's small loader imported (33 KB with the worker's own module, nothing of
   * Python): « Activer » then starts Python at once instead of after the worker's start
   * and two requests in a row (0.3–0.45 s on the bench's machine while the page loads).
   * Taken once, if it is still sound; else the runtime makes a new one. */
  function takeSpareWorker() {
    var worker = window.escarmoucheSpareWorker || null;
    window.escarmoucheSpareWorker = null;
    if (worker && worker.failed) {
      worker.terminate();
      return null;
    }
    if (worker) worker.onerror = null;
    return worker;
  }

  /** The runtime (started if need be); cached: known to be in this device's cache. */
  function startRuntime(cached) {
    if (runtime === null || runtime.error) {
      if (runtime) runtime.worker.terminate();
      runtime = new Runtime(cached);
    }
    return runtime;
  }

  // --- the parts (live-status.js, live-bridge.js, live-cells.js, live-tracker.js,
  // live-steps.js) -------------------------------------------------------------------------

  // Each part registered a factory before this script ran; the page's context gives them
  // the shared helpers, and getters for what this script changes (the runtime, the bar).
  var parts = window.escarmoucheLiveParts;
  var page = {
    shared: shared, el: el, NBSP: NBSP, STATIC: STATIC, config: config, mark: mark,
    storage: storage, activate: activate, interrupt: interrupt,
    settled: settled,
    runtime: function () { return runtime; },
    bar: function () { return bar; },
  };
  var status = parts.status(page);
  page.setStatus = status.set;
  var widgets = parts.widgets(page);
  var bridge = widgets.bridge;
  var preloadWidgetLibrary = widgets.preload;
  page.bridge = bridge;
  var liveCells = parts.cells(page);
  var runCell = liveCells.runCell;
  var makeEditable = liveCells.makeEditable;
  var tracker = parts.tracker(page);
  var stepTaps = parts.steps(page).listen;


  // --- « Interrompre » ------------------------------------------------------------------------

  /** Stop the cell that runs (an edited example that loops forever); the note to show. */
  function interrupt(cell) {
    var rt = runtime;
    if (!rt) return "";
    if (rt.interruptBuffer) {
      rt.interruptBuffer[0] = 2; // SIGINT: KeyboardInterrupt in the running cell
      cell.interrupted = true; // its end says « interrompu », not a failure
      return "interrompu.";
    }
    // No cross-origin isolation (most static hosts): Python cannot be interrupted from the
    // page, so its worker is stopped and a new one runs the page's examples again; the
    // tracker's fight, saved after every operation, is resumed.
    cell.interrupted = true;
    rt.worker.terminate();
    rt.failed("engine", "interrompu");
    cell.source = cell.original;
    runtime = null;
    activation = null;
    if (config.tracker) tracker.wanted = tracker.read();
    activate().then(function () {
      status.restarted();
    });
    return "interrompu" + NBSP + ": Python redémarre (voir en haut de la page).";
  }


  // --- activation -----------------------------------------------------------------------------

  var activation = null;

  function showError(error) {
    if (error && error.step === "edition") {
      status.newEdition();
      if (runtime) runtime.worker.terminate();
      return;
    }
    status.failed(error, function retry() {
      activation = null;
      if (runtime) runtime.worker.terminate();
      runtime = null;
      bridge.manager = null;
      activate();
    });
  }

  function activate() {
    if (activation) return activation;
    mark("click");
    var s = storage();
    if (s) s.setItem(USED_KEY, "1");
    button.disabled = true;
    button.setAttribute("aria-pressed", "true");
    document.documentElement.classList.add("escarmouche-live-on");
    var rt = startRuntime();
    var started = performance.now();
    var total = 0;
    var moduleBytes = {};
    shared.plan(config.packages).then(function (p) {
      // The same total as the button's: every file of the runtime. The worker counts what
      // it fetches, and says when it has imported one of the core's two modules (an
      // import is no fetch), whose size comes from here. Nothing is counted when the
      // runtime comes from this device's cache.
      if (p.cached) return;
      total = p.bytes;
      p.files.forEach(function (f) {
        if (/\.mjs$/.test(f.url)) moduleBytes[f.url.split("/").pop()] = f.bytes;
      });
    }, function () {});
    var done = function () {
      return rt.imported.reduce(function (a, file) { return a + (moduleBytes[file] || 0); },
                                rt.bytes);
    };
    var show = function (step) {
      if (step === "error") return;
      if (step === "bytes") step = rt.step;
      var progress = step === "python" && total && done()
        ? shared.progressText(Math.min(done(), total), total, started) : "";
      status.loading(step, progress);
    };
    show(rt.step);
    rt.listeners.push(show);
    var waits = [rt.ready];
    // The widget library is fetched now but run once Python is up: on a device with few
    // cores its script would slow Python's start, while it runs beside the imports.
    if (config.widgets) {
      preloadWidgetLibrary();
      waits.push(rt.up.then(function () { return bridge.load(); }));
    }
    activation = Promise.all(waits).then(function () {
      mark("runtime-ready");
      var chain = Promise.resolve();
      cells.forEach(function (cell, i) {
        chain = chain.then(function () {
          return runCell(cell, cell.source);
        }).then(function (ok) {
          // « Prêt » as soon as the first example answers: the page's first result is
          // live, and the examples below it follow (each editable once it has run). The
          // tracker's page waits for all of them: its saved fight resumes after them.
          if (!rt.error) makeEditable(cell);
          if (ok && !config.tracker && i < cells.length - 1 && cell.node &&
              !bar.hasAttribute("data-first")) {
            bar.setAttribute("data-first", "ready");
            mark("first-ready");
            status.firstReady();
          }
        });
      });
      return chain;
    }).then(function () {
      if (rt.error) throw rt.error;
      mark("cells-done");
      rt.post({ type: "keep_snapshot" }); // the worker may now save Python's start
      button.hidden = true;
      status.ready();
      bar.setAttribute("data-live", "ready");
      tracker.afterActivation();
    }, function (error) {
      showError(error);
    });
    // The book's precache (16 MB, escarmouche-offline.js) waits for « Prêt », not only
    // for Python: started when the engine was imported, it competed with the page's
    // cells and first widgets, still before « Prêt » (bench_browser.py --plan ready).
    if (shared.holdPrecache) shared.holdPrecache(activation);
    return activation;
  }

  /** The live runtime of this build is in this device's cache (the service worker's). */
  function runtimeCached() {
    return shared.runtimeCached(config.runtime, config.pyodide);
  }

  /** A connection that allows a download the reader did not ask for (not metered, fast). */
  function goodLink() {
    var c = navigator.connection;
    if (!c) return true;
    return !c.saveData && (!c.effectiveType || c.effectiveType === "4g") && c.type !== "cellular";
  }

  /** A phone or a narrow screen. */
  function phone() {
    return /iPhone|iPad|iPod|Android/.test(navigator.userAgent) || window.matchMedia("(max-width: 40em)").matches;
  }

  /** Start Python early when it is likely to be used and the device can afford it
   * (and only from the cache, which holds the runtime only once the reader asked for
   * it: « Disponible hors ligne » or a first « Activer »; see runtimeCached). */
  function mayPrestart() {
    if (!config.prestart) return false;
    var s = storage();
    var used = s && s.getItem(USED_KEY) === "1";
    if (!config.widgets && !used) return false;
    var c = navigator.connection;
    if (c && (c.saveData || /2g/.test(c.effectiveType || ""))) return false;
    // not on iOS nor with under 4 GB of memory (escarmouche-offline.js says why)
    return shared.affordsPython();
  }

  /** Phones: not on a battery under 20 % that is not charging (where the browser says). */
  function batteryAllows() {
    if (!phone() || typeof navigator.getBattery !== "function") return Promise.resolve(true);
    return navigator.getBattery().then(function (b) {
      return b.charging || b.level >= 0.2;
    }, function () {
      return true;
    });
  }

  /** Python from the cache before the click, where mayPrestart allows it. A phone does
   * the same work as a desktop, once per visit of a page with demonstrations: the wasm
   * (compiled code reused from V8's cache after one use), Python restored from its memory
   * snapshot (0.4–0.5 s, where one was made) or started (1.7–4 s of CPU), the packages
   * and imports (0.3–0.4 s); but it gives the memory back: a prestarted Python that was
   * not used is stopped when the page is hidden. */
  var prestartAsked = false;
  function prestart() {
    if (prestartAsked || location.protocol === "file:" || !mayPrestart()) return;
    prestartAsked = true;
    Promise.all([runtimeCached(), batteryAllows()]).then(function (ok) {
      if (!ok[0] || !ok[1] || runtime) return;
      var rt = startRuntime(true);
      rt.prestarted = true;
      if (shared.holdPrecache) shared.holdPrecache(rt.ready);
      if (bar) bar.setAttribute("data-prestart", "1");
      // Python started from the cache: the widget library runs once it is up, beside the
      // imports, so that « Activer » finds both ready.
      if (config.widgets) {
        rt.up.then(function () {
          if (!rt.error) bridge.load();
        });
      }
    });
    if (!phone()) return;
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState !== "hidden" || !runtime || !runtime.prestarted || activation) return;
      runtime.worker.terminate();
      runtime = null;
      if (bar) bar.removeAttribute("data-prestart");
    });
  }

  function main() {
    if (!readPage()) return;
    button.addEventListener("click", function () {
      activate();
    });
    // The bar is painted before this script runs: a tap it did not see yet counts.
    var early = button.getAttribute("data-early") === "1";
    button.removeAttribute("data-early");
    // The bar is drawn whole at build (escarmouche_live_pages.bar_html): its first sentence
    // and the sizes are already there, so nothing moves when this script runs.
    bar.setAttribute("data-state", "off");
    tracker.offer();
    stepTaps();
    if (runtime) bar.setAttribute("data-prestart", "1");
    // Light demo pages: « Activer pour jouer » on each drawn widget; the widget library
    // is fetched (and Python started, when already cached) once a demo scrolls into view
    // on a link that allows it. The library runs on « Activer », once Python is up.
    Array.prototype.forEach.call(document.querySelectorAll(".esc-static-play"), function (play) {
      play.addEventListener("click", function () {
        bar.scrollIntoView({ block: "nearest" });
        activate();
      });
    });
    var firstDemo = document.querySelector(".esc-static-widget");
    if (firstDemo && "IntersectionObserver" in window && goodLink()) {
      var seen = new IntersectionObserver(function (entries) {
        if (!entries.some(function (e) { return e.isIntersecting; })) return;
        seen.disconnect();
        preloadWidgetLibrary();
        prestart();
      });
      seen.observe(firstDemo);
    }
    status.offerOffline(); // the first « Activer »'s size
    if (early) activate();
  }

  mark("script");
  prestart();
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", main);
  else main();
  /** A promise kept once Python has answered every widget message sent so far and the
   * page's DOM shows what it answered (a button pressed, then its result shown): what a
   * script driving the page waits for, instead of a fixed delay. */
  function settled() {
    return new Promise(function (resolve) {
      (function check() {
        if (bridge.inflight > 0) return void setTimeout(check, 20);
        bridge.chain.then(function () {
          // a task later (not a frame: a page in the background gets none), the views the
          // answers changed are in the DOM; an answer may also have released a message
          // the widget library held back
          setTimeout(function () {
            if (bridge.inflight > 0) check();
            else resolve(true);
          }, 0);
        });
      })();
    });
  }

  window.escarmoucheLive = { activate: activate, config: config, cells: cells, timings: timings,
                             settled: settled };
})();
