/* Escarmouche — the widget bridge: the page end of ipywidgets' comms, and the
 * widget library the page loads on « Activer ».
 * A part of the live pages (book/_static/live/live.js): loaded just before live.js
 * (deferred, in order; book/_ext/escarmouche_live_pages.py), it only registers its factory,
 * which live.js calls with the page's context (`page`: the helpers it shares, and
 * getters for what changes, the runtime and the bar).
 */
(function () {
  "use strict";
  var parts = (window.escarmoucheLiveParts = window.escarmoucheLiveParts || {});

  parts.widgets = function (page) {
    var el = page.el;
    var NBSP = page.NBSP;
    var mark = page.mark;

    var bridge = {
      manager: null,
      comms: {},
      pending: {},
      chain: Promise.resolve(),
      counter: 0,
      // widget messages sent to Python and not yet answered (« idle »): see settled()
      inflight: 0,

      load: function () {
        if (this.manager) return this.manager;
        this.manager = loadWidgetLibrary().then(function (library) {
          return new library.LiveManager({
            // Widgets are created by Python only; a page-made model gets a dead comm.
            createComm: function (target, modelId) {
              return new PageComm(modelId || "page-" + bridge.counter++, target);
            },
            unknown: function (module, version, name) {
              return "module de widget inconnu" + NBSP + ": " + module + " " + version + " (" + name + ")";
            },
          });
        });
        this.manager.catch(function () {});
        return this.manager;
      },

      newId: function () {
        this.counter += 1;
        return "page-" + Date.now().toString(36) + "-" + this.counter;
      },

      fromKernel: function (message, buffers) {
        var self = this;
        var msg = {
          header: { msg_id: this.newId(), msg_type: message.type },
          parent_header: { msg_id: message.parent || "" },
          metadata: message.metadata || {},
          content: { comm_id: message.comm_id, target_name: message.target_name, data: message.data },
          buffers: buffers,
        };
        if (message.type === "comm_open") {
          var comm = new PageComm(message.comm_id, message.target_name);
          this.comms[message.comm_id] = comm;
          if (message.target_name !== "jupyter.widget") return;
          this.chain = this.chain.then(function () {
            return self.manager;
          }).then(function (manager) {
            // Not awaited: messages for this comm wait in PageComm until the model listens.
            manager.handle_comm_open(comm, msg).catch(function (e) {
              console.error("[escarmouche live] widget", e);
            });
          });
        } else {
          var target = this.comms[message.comm_id];
          if (!target) return;
          this.chain = this.chain.then(function () {
            if (message.type === "comm_msg") target.deliver(msg);
            else target.closed(msg);
          });
        }
      },

      idle: function (msgId) {
        if (this.inflight > 0) this.inflight -= 1;
        var callbacks = this.pending[msgId];
        delete this.pending[msgId];
        if (callbacks && callbacks.iopub && callbacks.iopub.status) {
          this.chain = this.chain.then(function () {
            callbacks.iopub.status({
              header: { msg_type: "status" },
              parent_header: { msg_id: msgId },
              metadata: {},
              content: { execution_state: "idle" },
            });
          });
        }
      },

      render: function (modelId, host) {
        return this.manager.then(function (manager) {
          return manager.get_model(modelId).then(function (model) {
            return manager.create_view(model);
          }).then(function (view) {
            return manager.display_view(view, host);
          });
        }).then(function () {
          mark("first-widget");
          host.setAttribute("data-live", "rendered");
        }, function (error) {
          host.textContent = "Ce widget n’a pas pu s’afficher" + NBSP + ": " + error;
          host.setAttribute("data-live", "error");
        });
      },
    };

    /** The widget library: @jupyter-widgets/controls under a manager of its own
     * (tools/widgets/live-manager.mjs, bundled by tools/build_site.py), its stylesheet and
     * Font Awesome's. A light demo page (book/_ext/escarmouche_static_widgets.py) loads it only
     * when the reader activates the page. */
    var LIBRARY = {
      script: new URL("../vendor/live-widgets.js", page.STATIC).href,
      sheet: new URL("../vendor/live-widgets.css", page.STATIC).href,
    };
    var libraryLoad = null;
    var libraryFetched = false;
    function loadWidgetLibrary() {
      if (window.escarmoucheWidgets) return Promise.resolve(window.escarmoucheWidgets);
      if (libraryLoad) return libraryLoad;
      var sheet = el("link", { rel: "stylesheet", href: LIBRARY.sheet });
      document.head.appendChild(sheet);
      libraryLoad = new Promise(function (resolve, reject) {
        var tag = document.createElement("script");
        tag.src = LIBRARY.script;
        tag.onload = function () {
          mark("widget-library");
          if (window.escarmoucheWidgets) resolve(window.escarmoucheWidgets);
          else reject(new Error("bibliothèque des widgets illisible (live-widgets.js)"));
        };
        tag.onerror = function () {
          reject(new Error("bibliothèque des widgets introuvable (live-widgets.js)"));
        };
        document.head.appendChild(tag);
      });
      libraryLoad.catch(function () {
        libraryLoad = null;
        sheet.remove();
      });
      return libraryLoad;
    }

    /** Fetches the library's files without running them (bridge.load runs them). */
    function preloadWidgetLibrary() {
      if (libraryFetched || libraryLoad || window.escarmoucheWidgets) return;
      libraryFetched = true;
      // low priority: after Python's own files, which the worker asks for at the same time
      document.head.appendChild(el("link", { rel: "preload", as: "script", fetchpriority: "low",
                                             href: LIBRARY.script }));
      document.head.appendChild(el("link", { rel: "preload", as: "style", fetchpriority: "low",
                                             href: LIBRARY.sheet }));
    }

    /** The page end of a comm, as @jupyter-widgets/base's IClassicComm expects it. */
    function PageComm(commId, targetName) {
      this.comm_id = commId;
      this.target_name = targetName;
      this._onMsg = null;
      this._onClose = null;
      this._queue = [];
    }
    PageComm.prototype.open = function () {
      return "";
    };
    PageComm.prototype.send = function (data, callbacks, metadata, buffers) {
      var msgId = bridge.newId();
      var runtime = page.runtime();
      if (callbacks) bridge.pending[msgId] = callbacks;
      if (runtime) bridge.inflight += 1;
      if (runtime) runtime.post({ type: "comm_msg", comm_id: this.comm_id, msg_id: msgId, data: data }, buffers);
      return msgId;
    };
    PageComm.prototype.close = function () {
      var runtime = page.runtime();
      if (runtime) runtime.post({ type: "comm_close", comm_id: this.comm_id });
      return bridge.newId();
    };
    PageComm.prototype.on_msg = function (callback) {
      this._onMsg = callback;
      var queued = this._queue;
      this._queue = [];
      queued.forEach(function (msg) { callback(msg); });
    };
    PageComm.prototype.on_close = function (callback) {
      this._onClose = callback;
    };
    PageComm.prototype.deliver = function (msg) {
      if (this._onMsg) return this._onMsg(msg);
      this._queue.push(msg);
    };
    PageComm.prototype.closed = function (msg) {
      if (this._onClose) this._onClose(msg);
    };

    return { bridge: bridge, preload: preloadWidgetLibrary };
  };
})();
