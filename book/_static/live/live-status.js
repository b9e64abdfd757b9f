/* Escarmouche — the live bar's status: every sentence the bar says (loading, « Prêt »,
 * errors, the file:// message, the first download's size) and how it shows them (the
 * status line, its busy ring, the line of buttons and commands under it).
 * A part of the live pages (book/_static/live/live.js): loaded just before live.js
 * (deferred, in order; book/_ext/escarmouche_live_pages.py), it only registers its factory,
 * which live.js calls with the page's context (`page`: the helpers it shares, and
 * getters for what changes, the runtime and the bar).
 */
(function () {
  "use strict";
  var parts = (window.escarmoucheLiveParts = window.escarmoucheLiveParts || {});

  parts.status = function (page) {
    var el = page.el;
    var shared = page.shared;
    var config = page.config;
    var NBSP = page.NBSP; // before :, inside « »
    var NNBSP = shared.NNBSP; // before ; ! ?

    /** The statuses of an activation, in order (« Prêt » then says what the page offers). */
    var STEPS = {
      python: "Chargement de Python…",
      engine: "Chargement du moteur…",
      ready: "Exécution des exemples…",
      // as soon as the first example answers (the examples below it follow)
      first: "Prêt" + NBSP + ": la première démonstration répond" + NNBSP +
        "; les exemples suivants se relancent…",
    };

    var bar = null;
    var button = null;
    var statusLine = null;
    var extra = null;

    function q(text) {
      return "«" + NBSP + text + NBSP + "»";
    }

    /** The bar's nodes, once the DOM is there (live.js's readPage). */
    function attach(theBar) {
      bar = theBar;
      button = bar.querySelector(".escarmouche-live-activate");
      statusLine = bar.querySelector(".escarmouche-live-status");
      extra = bar.querySelector(".escarmouche-live-extra");
    }

    function setStatus(text, state) {
      statusLine.textContent = text;
      bar.setAttribute("data-state", state);
      tick(state === "busy");
    }

    // The busy ring turns by a quarter twice a second, moved from here rather than by
    // a CSS animation: a running animation makes the compositor draw 60 frames a second,
    // about a quarter of a core in a phone's or a laptop's software compositing, taken
    // from Python's start while it runs (bench/README-browser.md, « A still page while
    // Python starts »). Not at all where the reader asks for less motion.
    var ticker = null;
    var turns = 0;
    function tick(on) {
      if (on && !ticker && !(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches)) {
        ticker = setInterval(function () {
          turns = (turns + 1) % 4;
          statusLine.style.setProperty("--escarmouche-live-turn", String(turns));
        }, 500);
      } else if (!on && ticker) {
        clearInterval(ticker);
        ticker = null;
      }
    }

    function clearExtra() {
      extra.textContent = "";
    }

    /** A step of the activation (STEPS), with the download's progress when there is one. */
    function loading(step, progress) {
      setStatus(STEPS[step] + (progress ? " " + progress + "." : ""), "busy");
    }

    /** « Prêt » as soon as the first example answers. */
    function firstReady() {
      setStatus(STEPS.first, "ready");
    }

    /** « Prêt » once every example has run: what the page offers. */
    function ready() {
      var text = "Prêt" + NBSP + ": la page est vivante.";
      if (config.widgets) text += " Les démonstrations répondent.";
      text += " Modifiez un exemple puis " + q("Exécuter") + " (Maj+Entrée).";
      if (config.tracker) text += " Le combat est enregistré dans ce navigateur après chaque opération.";
      setStatus(text, "ready");
    }

    /** From a folder (file://): the command that serves the book. */
    function fromFolder() {
      button.disabled = true;
      // Nothing to download from a folder: the button loses its first-time size.
      var size = button.querySelector(".escarmouche-live-size");
      if (size) button.removeChild(size);
      setStatus(
        "Le mode interactif a besoin d’un petit serveur web" + NBSP + ": ouvert depuis un " +
        "dossier (file://), le navigateur refuse de lancer Python. La lecture, elle, " +
        "fonctionne. Dans le dossier du livre, lancez" + NBSP + ":",
        "file"
      );
      extra.appendChild(el("code", { className: "escarmouche-live-command", text: config.serve_command }));
      extra.appendChild(el("span", { text: " puis ouvrez " }));
      extra.appendChild(el("code", { text: "http://127.0.0.1:8000/" }));
      extra.appendChild(el("span", { text: " (depuis le dépôt" + NBSP + ": " }));
      extra.appendChild(el("code", { text: "make serve" }));
      extra.appendChild(el("span", { text: ")." }));
      // JupyterLite needs the same server: its link would open a blank page.
      Array.prototype.forEach.call(document.querySelectorAll("a.escarmouche-lite-button"), function (link) {
        link.addEventListener("click", function (event) {
          event.preventDefault();
          bar.scrollIntoView({ block: "center" });
          bar.classList.add("escarmouche-live-flash");
        });
        link.title = "Le carnet complet a lui aussi besoin du serveur (voir le message ci-dessus).";
      });
    }

    /** The page is of another edition than the site's Python: « Recharger ». */
    function newEdition() {
      setStatus("Nouvelle édition disponible" + NBSP + ": cette page date d’une autre " +
        "édition que le Python de ce site. Rechargez la page pour lire la nouvelle " +
        "édition" + NNBSP + "; ses exemples tourneront alors.", "error");
      clearExtra();
      var reload = el("button", { type: "button", className: "escarmouche-live-reload" }, ["Recharger"]);
      reload.addEventListener("click", function () {
        location.reload();
      });
      extra.appendChild(reload);
      button.disabled = true;
    }

    /** Python or the engine failed to load: « Réessayer » calls ``retry``. */
    function failed(error, retry) {
      var where = error && error.step === "engine" ? "du moteur" : "de Python";
      setStatus("Échec du chargement " + where + NBSP + ": " + ((error && error.message) || error) + ".", "error");
      clearExtra();
      var again = el("button", { type: "button", className: "escarmouche-live-retry" }, ["Réessayer"]);
      again.addEventListener("click", function () {
        clearExtra();
        retry();
      });
      extra.appendChild(again);
      button.disabled = false;
    }

    /** Python was stopped and started again (an example that looped without end). */
    function restarted() {
      clearExtra();
      extra.appendChild(el("span", {
        className: "escarmouche-live-restarted",
        text: "Python a été redémarré" + NBSP + ": l’exemple tournait sans fin, et ce site " +
          "ne permet pas de l’interrompre autrement. Les exemples de la page ont été relancés" +
          (config.tracker ? " et le combat enregistré reprend." : "."),
      }));
    }

    /** The size of the first « Activer » (escarmouche-offline.js knows what is cached), or
     * none where the runtime cannot be kept. */
    function offerOffline() {
      var firstTime = bar.querySelector(".escarmouche-live-first");
      var buttonSize = bar.querySelector(".escarmouche-live-size");
      var dropFirstTime = function () {
        [firstTime, buttonSize].forEach(function (node) {
          if (node && node.parentNode) node.parentNode.removeChild(node);
        });
      };
      var offline = shared;
      if (location.protocol === "file:") {
        dropFirstTime();
        return;
      }
      offline.plan(config.packages).then(function (p) {
        if (bar.getAttribute("data-state") !== "off") return;
        if (p.cached) {
          dropFirstTime();
          return;
        }
        // What is left to fetch (part of it may be cached already).
        if (buttonSize) buttonSize.textContent = " (" + offline.size(p.todoBytes) + ")";
        button.setAttribute("aria-label", "Activer" + NBSP + ": télécharge " + offline.size(p.todoBytes) +
          " (" + offline.size(p.todoGz) + " compressés) la première fois");
        if (firstTime) {
          firstTime.textContent = " La première fois, Python est téléchargé" + NBSP + ": " +
            offline.size(p.todoBytes) + " (" + offline.size(p.todoGz) + " compressés), puis gardé sur cet appareil.";
        }
      }, dropFirstTime);
    }

    return {
      STEPS: STEPS, attach: attach, set: setStatus, loading: loading, firstReady: firstReady,
      ready: ready, fromFolder: fromFolder, newEdition: newEdition, failed: failed,
      restarted: restarted, offerOffline: offerOffline,
    };
  };
})();
