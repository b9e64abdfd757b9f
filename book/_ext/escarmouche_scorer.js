/* Search scoring of the Escarmouche book (html_search_scorer, book/_ext/escarmouche_site.py).
 * Sphinx's defaults, plus one rule: the rules and the glossary come before the API
 * reference, whose objects otherwise outrank every page that only mentions the word. */
var Scorer = {
  score: (result) => {
    const [docname, _title, _anchor, _descr, score] = result;
    if (docname === "book/api") return score - 50;
    if (docname === "book/glossaire") return score + 8;
    if (/^book\/(rulebook|d100|d12|d20)\//.test(docname)) return score + 10;
    return score;
  },
  objNameMatch: 11,
  objPartialMatch: 6,
  objPrio: { 0: 15, 1: 5, 2: -5 },
  objPrioDefault: 0,
  title: 15,
  partialTitle: 7,
  term: 5,
  partialTerm: 2,
};
