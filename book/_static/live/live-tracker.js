/* Escarmouche — the GM tracker's autosave: the fight saved in the browser after
 * every operation, and the offer to resume it after a reload.
 * A part of the live pages (book/_static/live/live.js): loaded just before live.js
 * (deferred, in order; book/_ext/escarmouche_live_pages.py), it only registers its factory,
 * which live.js calls with the page's context (`page`: the helpers it shares, and
 * getters for what changes, the runtime and the bar).
 */
(function () {
  "use strict";
  var parts = (window.escarmoucheLiveParts = window.escarmoucheLiveParts || {});

  parts.tracker = function (page) {
    var el = page.el;
    var NBSP = page.NBSP;
    var config = page.config;
    var storage = page.storage;
    var shared = page.shared;
    var SAVE_PREFIX = "escarmouche-live:suivi:";

    var tracker = {
      offered: null,

      key: function () {
        return SAVE_PREFIX + config.page;
      },

      read: function () {
        var s = storage();
        if (!s) return null;
        try {
          return JSON.parse(s.getItem(this.key()) || "null");
        } catch (e) {
          return null;
        }
      },

      save: function (message) {
        var s = storage();
        if (!s) return;
        var record = { name: message.name, json: message.json, summary: message.summary, saved: Date.now() };
        try {
          s.setItem(this.key(), JSON.stringify(record));
          page.bar().setAttribute("data-saved", String(record.saved));
        } catch (e) {
          console.warn("[escarmouche live] sauvegarde impossible", e);
        }
      },

      describe: function (record) {
        var s = record.summary || {};
        var when = new Date(record.saved);
        var time = when.getHours() + NBSP + "h" + NBSP + String(when.getMinutes()).padStart(2, "0");
        var date = when.toLocaleDateString("fr-FR", { day: "numeric", month: "long" });
        return "Un combat enregistré dans ce navigateur le " + date + " à " + time +
          " (" + (s.system || "?") + ", " + (s.turn_word || "tour") + " " + s.turn + ", " +
          s.events + " événements) peut reprendre où il en était.";
      },

      /** Before activation: offer to resume (which activates the page). */
      offer: function () {
        if (!config.tracker) return;
        var record = this.read();
        if (!record || !record.json) return;
        this.offered = record;
        var box = el("div", { className: "escarmouche-live-resume", role: "region", "aria-label": "Reprendre le combat" });
        var yes = el("button", { type: "button", className: "escarmouche-live-resume-yes" }, ["Reprendre le combat"]);
        var no = el("button", { type: "button", className: "escarmouche-live-resume-no" }, ["Ignorer"]);
        box.appendChild(el("p", { text: this.describe(record) }));
        box.appendChild(el("p", {}, [yes, " ", no]));
        // Offered where the fight is: just above the tracker, scrolled into view (book_src/demos/suivi-combat.md),
        // not in the bar at the top of the page, off-screen above the frozen snapshot.
        var snapshot = document.querySelector(".esc-static-widget");
        var cellNode = snapshot && snapshot.closest("div.cell");
        var output = cellNode && cellNode.querySelector(".cell_output");
        if (output) output.parentNode.insertBefore(box, output);
        else page.bar().appendChild(box);
        if (!location.hash) {
          if ("scrollRestoration" in history) history.scrollRestoration = "manual";
          box.scrollIntoView({ block: "start" });
        }
        var self = this;
        yes.addEventListener("click", function () {
          yes.disabled = no.disabled = true;
          self.wanted = record;
          box.remove();
          // Already live (the reader pressed « Activer » first): resume at once.
          if (page.bar().getAttribute("data-live") === "ready") self.applyWanted();
          else page.activate();
        });
        no.addEventListener("click", function () {
          self.offered = null;
          box.remove();
        });
      },

      afterActivation: function () {
        if (!config.tracker) return;
        // The GM's page offers to keep the book and Python on this device, with the size
        // (book_src/demos/suivi-combat.md), in the bar at the top of the tracker's page.
        if (config.tracker && shared.control) {
          var keep = el("div", { className: "esc-offline-control escarmouche-live-keep",
                                 "data-label": "Garder le livre et Python sur cet appareil" });
          page.bar().appendChild(keep);
          shared.control(keep, config.packages);
        }

        if (this.wanted) this.applyWanted();
        else page.runtime().post({ type: "autosave_start" });
      },

      applyWanted: function () {
        var record = this.wanted;
        this.wanted = null;
        page.setStatus("Reprise du combat…", "busy");
        page.runtime().post({ type: "resume", name: record.name, json: record.json });
      },

      resumed: function (message) {
        page.runtime().post({ type: "autosave_start" });
        if (message.ok) {
          page.setStatus("Prêt" + NBSP + ": le combat a repris où il en était. Il est enregistré dans ce navigateur après chaque opération.", "ready");
        } else {
          page.setStatus("Prêt, mais le combat enregistré n’a pas pu être repris (voir le message du suivi).", "ready");
        }
      },
    };

    return tracker;
  };
})();
