/* Escarmouche — the page's cells made live: each run's outputs drawn in place, and
 * each example made editable (« Exécuter », « Rétablir », « Interrompre »).
 * A part of the live pages (book/_static/live/live.js): loaded just before live.js
 * (deferred, in order; book/_ext/escarmouche_live_pages.py), it only registers its factory,
 * which live.js calls with the page's context (`page`: the helpers it shares, and
 * getters for what changes, the runtime and the bar).
 */
(function () {
  "use strict";
  var parts = (window.escarmoucheLiveParts = window.escarmoucheLiveParts || {});

  parts.cells = function (page) {
    var el = page.el;
    var NBSP = page.NBSP;
    var config = page.config;
    var bridge = page.bridge;
    var WIDGET_MIME = "application/vnd.jupyter.widget-view+json";

    function stripAnsi(text) {
      return text.replace(/\x1b\[[0-9;]*[A-Za-z]/g, "");
    }

    /** One run of one cell: its outputs go to a fresh area, swapped in at the end. */
    function CellRun(cell) {
      this.cell = cell;
      this.area = el("div", { className: "cell_output docutils container escarmouche-live-output" });
      this.widgets = [];
      this.lastStream = null;
      var self = this;
      this.finished = new Promise(function (resolve) {
        self._finish = resolve;
      });
    }
    CellRun.prototype.stream = function (message) {
      if (this.lastStream && this.lastStream.name === message.name) {
        this.lastStream.pre.textContent += message.text;
        return;
      }
      var pre = el("pre", { text: message.text });
      var cls = "output stream" + (message.name === "stderr" ? " stderr" : "");
      this.area.appendChild(el("div", { className: cls }, [el("div", { className: "highlight" }, [pre])]));
      this.lastStream = { name: message.name, pre: pre };
    };
    CellRun.prototype.display = function (message) {
      this.lastStream = null;
      var data = message.data;
      var node;
      if (data[WIDGET_MIME] && config.widgets) {
        node = el("div", { className: "output widget escarmouche-live-widget", "data-live": "pending" });
        this.widgets.push({ id: data[WIDGET_MIME].model_id, host: node });
      } else if (data["text/html"] !== undefined) {
        node = el("div", { className: "output text_html" });
        node.innerHTML = data["text/html"];
      } else if (data["image/svg+xml"] !== undefined) {
        node = el("div", { className: "output text_html" });
        node.innerHTML = data["image/svg+xml"];
      } else if (data["image/png"] !== undefined) {
        node = el("div", { className: "output" }, [el("img", { src: "data:image/png;base64," + data["image/png"], alt: "" })]);
      } else {
        var text = data["text/markdown"] !== undefined ? data["text/markdown"] : data["text/plain"];
        node = el("div", { className: "output text_plain" }, [el("div", { className: "highlight" }, [el("pre", { text: text })])]);
      }
      this.area.appendChild(node);
    };
    CellRun.prototype.clear = function () {
      this.area.textContent = "";
      this.widgets = [];
      this.lastStream = null;
    };
    CellRun.prototype.error = function (message) {
      this.lastStream = null;
      if (message.ename === "KeyboardInterrupt") {
        // « Interrompre »: said as such, not as a failure with Python's name for it
        this.area.appendChild(el("div", { className: "output escarmouche-live-interrupted", role: "status" }, [
          el("p", { text: "Interrompu" + NBSP + ": l’exemple a été arrêté à votre demande." }),
        ]));
        return;
      }
      var title = "Erreur" + NBSP + ": " + message.ename + (message.evalue ? NBSP + ": " + message.evalue : "");
      var box = el("div", { className: "output error escarmouche-live-error", role: "alert" }, [
        el("p", { text: title }),
      ]);
      if (message.traceback && message.traceback.length) {
        box.appendChild(el("details", {}, [
          el("summary", { text: "Détails (trace Python)" }),
          el("pre", { text: stripAnsi(message.traceback.join("")) }),
        ]));
      }
      this.area.appendChild(box);
    };
    CellRun.prototype.done = function (message) {
      if (this.finishedOnce) return;
      this.finishedOnce = true;
      var runtime = page.runtime();
      if (runtime && runtime.runs[this.cell.index] === this) delete runtime.runs[this.cell.index];
      var cell = this.cell;
      var old = cell.output;
      if (old && old.parentNode) {
        old.parentNode.replaceChild(this.area, old);
      } else if (cell.node) {
        cell.node.appendChild(this.area);
      }
      cell.output = this.area;
      if (!this.area.childNodes.length) this.area.classList.add("escarmouche-live-empty");
      var rendering = this.widgets.map(function (w) {
        return bridge.render(w.id, w.host);
      });
      var self = this;
      Promise.all(rendering).then(function () {
        self._finish(message.ok);
      });
    };

    function runCell(cell, source) {
      var rt = page.runtime();
      var run = new CellRun(cell);
      return rt.ready.then(function () {
        if (rt.interruptBuffer) rt.interruptBuffer[0] = 0;
        if (!cell.output && cell.node) cell.output = cell.node.querySelector(".cell_output");
        if (!cell.node) run.area.hidden = true;
        rt.runs[cell.index] = run;
        if (cell.node) cell.node.setAttribute("data-live", "running");
        rt.post({ type: "run", cell: cell.index, code: source });
        return run.finished;
      }).then(function (ok) {
        if (cell.node) cell.node.setAttribute("data-live", ok ? "ok" : "error");
        return ok;
      });
    }

    // --- editable cells ---------------------------------------------------------------------

    function makeEditable(cell) {
      var input = cell.node && cell.node.querySelector(".cell_input");
      if (!input || input.querySelector("textarea")) return;
      var highlight = input.querySelector("div.highlight") || input.firstElementChild;
      var area = el("textarea", {
        className: "escarmouche-live-code",
        spellcheck: "false",
        autocapitalize: "off",
        autocomplete: "off",
        "aria-label": "Code de l’exemple (modifiable)",
      });
      area.value = cell.source.replace(/\n$/, "");
      function fit() {
        area.style.height = "auto";
        area.style.height = area.scrollHeight + 2 + "px";
      }
      var runButton = el("button", { type: "button", className: "escarmouche-live-run", title: "Maj+Entrée" }, ["▶ Exécuter"]);
      var reset = el("button", { type: "button", className: "escarmouche-live-reset" }, ["Rétablir"]);
      var stop = el("button", { type: "button", className: "escarmouche-live-interrupt", hidden: "" }, ["■ Interrompre"]);
      var note = el("span", { className: "escarmouche-live-cell-status", "aria-live": "polite" });
      var tools = el("div", { className: "escarmouche-live-tools" }, [runButton, stop, reset, note]);
      function run() {
        runButton.disabled = true;
        stop.hidden = false;
        stop.disabled = false;
        note.textContent = "en cours…";
        cell.source = area.value;
        runCell(cell, area.value).then(function (ok) {
          // interrupted: the note already says « interrompu » (interrupt())
          if (!cell.interrupted) note.textContent = ok ? "" : "l’exemple a échoué (voir ci-dessous)";
          cell.interrupted = false;
          stop.hidden = true;
          runButton.disabled = false;
        });
      }
      stop.addEventListener("click", function () {
        stop.disabled = true;
        note.textContent = page.interrupt(cell);
      });
      runButton.addEventListener("click", run);
      reset.addEventListener("click", function () {
        area.value = cell.original.replace(/\n$/, "");
        fit();
      });
      area.addEventListener("input", fit);
      area.addEventListener("keydown", function (event) {
        if (event.key === "Enter" && (event.shiftKey || event.ctrlKey || event.metaKey)) {
          event.preventDefault();
          run();
        }
      });
      if (highlight) highlight.hidden = true;
      input.appendChild(area);
      input.appendChild(tools);
      fit();
    }

    return { runCell: runCell, makeEditable: makeEditable };
  };
})();
