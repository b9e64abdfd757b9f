/* Escarmouche: site behaviour that the theme lacks (book/_ext/escarmouche_site.py).
 *
 * 1. Every ☰ (chapters) and table-of-contents button works. pydata-sphinx-theme and
 *    sphinx-book-theme wire only the first `.primary-toggle` / `.secondary-toggle` of
 *    the page, which is a hidden one in the book theme's layout: a click on any other
 *    button is forwarded to that first one, whose handlers open the drawer (below
 *    992 px) or fold the sidebar (above).
 * 2. The print footer carries the page's address.
 * 3. The search summary agrees in number (Sphinx's French catalogue writes
 *    « page(s) »): « 1 page trouvée », « 12 pages trouvées ».
 */
(function () {
  "use strict";
  function wireToggles(selector) {
    const all = Array.from(document.querySelectorAll(selector));
    const first = all[0];
    all.slice(1).forEach((button) => {
      button.setAttribute("aria-haspopup", "dialog");
      button.addEventListener("click", (event) => {
        event.preventDefault();
        event.stopPropagation();
        first.click();
      });
    });
  }
  function printAddress() {
    const slot = document.querySelector(".esc-print-address");
    if (slot && !slot.dataset.fixed) slot.textContent = window.location.href.split("#")[0];
  }
  function agreeSearchSummary() {
    // Sphinx writes the summary once the last hit is shown; whatever its catalogue says
    // (« … 12 page(s) correspondant … »), the sentence is rewritten with agreement
    const results = document.getElementById("search-results");
    if (!results) return;
    new MutationObserver(() => {
      const summary = results.querySelector(".search-summary");
      const found = summary && summary.textContent.match(/(\d+)\s*page\(s\)/);
      if (!found) return;
      const n = Number(found[1]);
      summary.textContent = n === 1
        ? "Recherche terminée\u00a0: 1 page trouvée."
        : `Recherche terminée\u00a0: ${n} pages trouvées.`;
    }).observe(results, { childList: true, subtree: true, characterData: true });
  }
  function start() {
    wireToggles(".primary-toggle");
    wireToggles(".secondary-toggle");
    printAddress();
    agreeSearchSummary();
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
