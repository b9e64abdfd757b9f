/* Escarmouche: site behaviour that the theme lacks (book/_ext/escarmouche_site.py).
 *
 * 1. Every ☰ (chapters) and table-of-contents button works. pydata-sphinx-theme and
 *    sphinx-book-theme wire only the first `.primary-toggle` / `.secondary-toggle` of
 *    the page, which is a hidden one in the book theme's layout: a click on any other
 *    button is forwarded to that first one, whose handlers open the drawer (below
 *    992 px) or fold the sidebar (above).
 * 2. The print footer carries the page's address.
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
  function start() {
    wireToggles(".primary-toggle");
    wireToggles(".secondary-toggle");
    printAddress();
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
