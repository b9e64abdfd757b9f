/* Escarmouche: where the static widgets' bundle finds its files (book/_ext/escarmouche_site.py
 * puts this script between require.js and embed-amd.js, all three deferred, in order).
 *
 * embed-amd.js computes its public path from the RequireJS URL of its modules, which by
 * default is relative to the page (book/demos/@jupyter-widgets/…): its fonts then 404.
 * Both module prefixes are mapped to _static/vendor/, where tools/build_site.py copies
 * the bundle and its fonts. */
(function () {
  "use strict";
  const vendor = new URL("vendor", document.currentScript.src).href;
  window.require.config({
    paths: {
      "@jupyter-widgets": vendor,
      "@jupyter-widgets/html-manager/dist": vendor,
    },
  });
})();
