/* Escarmouche — one tap, one step: a second tap on a live widget's step button while
 * Python answers the first is not queued (« Python calcule… », « Interrompre »).
 * A part of the live pages (book/_static/live/live.js): loaded just before live.js
 * (deferred, in order; book/_ext/escarmouche_live_pages.py), it only registers its factory,
 * which live.js calls with the page's context (`page`: the helpers it shares, and
 * getters for what changes, the runtime and the bar).
 */
(function () {
  "use strict";
  var parts = (window.escarmoucheLiveParts = window.escarmoucheLiveParts || {});

  parts.steps = function (page) {
    var el = page.el;

    // A step button of a live widget (« Agir », « Au suivant », « Lancer »…, not a one-tap
    // choice) sends one message to Python. Until Python has answered it and the page shows
    // the answer, a tap on any step button is not queued behind it: a double tap plays
    // once, and another tap (or a step that lasts) shows « Python calcule… » with
    // « Interrompre » under the button that runs.
    var STEP_BUTTON = ".escarmouche-live-widget button.jupyter-button:not(.widget-toggle-button)";
    var step = null;

    function stepTaps() {
      document.addEventListener("click", function (event) {
        var tapped = event.target.closest && event.target.closest(STEP_BUTTON);
        var bar = page.bar();
        if (!tapped || !page.runtime() || bar.getAttribute("data-live") !== "ready") return;
        if (step) {
          event.preventDefault();
          event.stopImmediatePropagation();
          event.escarmoucheRefused = true; // escarmouche-site.js keeps awaiting the first tap's answer
          step.refused += 1;
          bar.setAttribute("data-refused-taps", String(Number(bar.getAttribute("data-refused-taps") || 0) + 1));
          // the same button again at once is a double tap: ignored without a word
          if (tapped !== step.button || Date.now() - step.since > 600) showBusy();
          return;
        }
        var mine = { button: tapped, since: Date.now(), note: null, refused: 0 };
        step = mine;
        tapped.setAttribute("aria-busy", "true");
        mine.timer = setTimeout(showBusy, 800); // a long step says so by itself
        setTimeout(function () {
          page.settled().then(function () { endStep(mine); });
        }, 0);
      }, true);
    }

    function showBusy() {
      if (!step || step.note) return;
      var mine = step;
      var stop = el("button", { type: "button", className: "escarmouche-live-interrupt" }, ["■ Interrompre"]);
      var text = el("span", { text: "Python calcule… " });
      var note = el("div", { className: "escarmouche-live-busy", role: "status" }, [text, stop]);
      stop.addEventListener("click", function () {
        stop.disabled = true;
        var said = page.interrupt({ source: "", original: "" });
        text.textContent = said.charAt(0).toUpperCase() + said.slice(1) + " ";
        mine.keep = true;
      });
      var box = mine.button.closest(".widget-hbox") || mine.button;
      box.parentNode.insertBefore(note, box.nextSibling);
      mine.note = note;
    }

    function endStep(mine) {
      if (step !== mine) return;
      clearTimeout(mine.timer);
      mine.button.removeAttribute("aria-busy");
      var runtime = page.runtime();
      if (runtime && runtime.interruptBuffer) runtime.interruptBuffer[0] = 0;
      step = null;
      var note = mine.note;
      if (!note) return;
      if (mine.keep) setTimeout(function () { note.remove(); }, 4000);
      else note.remove();
    }

    return { listen: stepTaps };
  };
})();
