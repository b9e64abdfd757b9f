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
 * 4. After a widget's button (« Lancer »…), the answer to the tap (a question, a refusal,
 *    the widget's result; never merely the first change, such as the tracker's journal)
 *    is scrolled into view when it lands out of sight, with the tracker's turn order above
 *    it when both fit (book_src/demos/suivi-combat.md).
 * 5. A rule page with several rules gets its contents (« Sur cette page »), one entry per
 *    rule, and each rule ID becomes a link to its own anchor, to share (book_src/demos/suivi-combat.md): rule
 *    pages have no sections, so the theme shows no contents button there.
 * 6. The GM tracker's player view (book_src/demos/suivi-combat.md): « Ouvrir la vue des joueurs » opens
 *    _static/escarmouche-joueurs.html in a second window; the tracker (in the page's
 *    Python worker) posts what players may see on a BroadcastChannel, and this page
 *    answers a view that opens late with the last state it saw, and relays each state
 *    to the local server (tools/serve_site.py), where a tablet's player view reads it.
 * 7. The copy buttons of code cells (sphinx-copybutton, one button per cell) are added
 *    once the page is idle: the build moves its script tag here (data-idle-scripts on
 *    this script's tag, escarmouche_site.idle_copy_buttons), out of the chain of
 *    deferred scripts that runs before the page is ready. ClipboardJS stays a deferred
 *    script: a UMD bundle, it must run before RequireJS (which a live demo loads) or it
 *    would call an anonymous define().
 */
(function () {
  "use strict";
  const STATIC = document.currentScript ? new URL(".", document.currentScript.src).href : "";
  const IDLE = ((document.currentScript && document.currentScript.dataset.idleScripts) || "")
    .split(" ").filter(Boolean);
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
  /** The answer to a tap in a live widget (book_src/demos/suivi-combat.md): a question asked (the tracker's
   * « Remplacer le combat ? »), else a refusal, else the widget's result (``esc-result``),
   * else the first change that is not a journal; never merely the first change. */
  function answerOf(root, changed) {
    const visible = (node) => node && node.getClientRects().length > 0;
    const confirm = root.querySelector(".esc-tracker-confirm");
    if (visible(confirm) && changed.some((n) => confirm.contains(n))) return confirm;
    const alert = changed.find((n) => n.closest("[role=alert]") || n.querySelector("[role=alert]"));
    if (alert) return alert;
    const result = changed.find((n) => n.closest(".esc-result"));
    if (result) return result.closest(".esc-result");
    return changed.find((n) => !n.querySelector(".esc-tracker-log")) || null;
  }
  /** Bring ``target`` into view, with the tracker's turn order above it when both fit on
   * the screen under the sticky header; nothing moves when it is already in view. */
  function bringIntoView(target, root) {
    const header = 72;
    const height = window.innerHeight;
    const box = target.getBoundingClientRect();
    if (box.top >= header && box.bottom <= height) return;
    let top = box.top;
    const order = root.querySelector(".esc-tracker-turn");
    if (order && !order.contains(target) &&
        order.getBoundingClientRect().top < box.top) {
      const o = order.getBoundingClientRect();
      if (box.bottom - o.top <= height - header) top = o.top;
      else if (box.height < height - header) top = box.bottom - (height - header) + 8;
    }
    window.scrollBy({ top: top - header, behavior: "instant" });
    document.documentElement.dataset.escFollowed = String(Math.round(top - header));
  }
  function followResults() {
    let pending = null;
    let quiet = null;
    const finish = (mine) => {
      if (pending !== mine) return;
      pending = null;
      const target = answerOf(mine.root, mine.changed);
      // the whole answer is drawn (the order's rows, the result), then measured
      if (target) requestAnimationFrame(() => bringIntoView(target, mine.root));
    };
    document.addEventListener("click", (event) => {
      const button = event.target.closest && event.target.closest(".jupyter-widgets button");
      const root = button && (button.closest(".escarmouche-live-widget") ||
                              button.closest(".cell_output"));
      if (!root) return;
      // once the tap is dispatched: a tap live.js refused while a step runs (a double
      // tap) leaves the answer awaited as it was
      setTimeout(() => {
        if (event.escarmoucheRefused) return;
        const mine = { root: root, until: Date.now() + 15000, changed: [] };
        pending = mine;
        // a live page says when Python has answered the tap and the page shows it all
        const live = window.escarmoucheLive;
        if (live && live.settled) {
          mine.live = true;
          live.settled().then(() => finish(mine));
        }
      }, 0);
    }, true);
    new MutationObserver((records) => {
      if (!pending) return;
      if (Date.now() > pending.until) { pending = null; return; }
      const mine = pending;
      records.forEach((record) => {
        const node = record.target.nodeType === 1 ? record.target : record.target.parentElement;
        const html = node && node.closest(".widget-html-content");
        if (html && mine.root.contains(html) && html.textContent.trim() &&
            !mine.changed.includes(html)) mine.changed.push(html);
      });
      if (!mine.live && mine.changed.length) {  // no Python to wait for: once it is quiet
        clearTimeout(quiet);
        quiet = setTimeout(() => finish(mine), 150);
      }
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  }
  const RULE_ID = /^[A-Z0-9]+(-[A-Z0-9]+)+$/;
  function ruleContents() {
    const article = document.querySelector("article.bd-article");
    if (!article) return;
    // Drawn at build (escarmouche_site.rule_contents): the links fold the box once used.
    const built = article.querySelector("details.esc-page-contents");
    if (built) {
      built.addEventListener("click", (event) => {
        if (event.target.closest("ol a")) built.open = false;
      });
      return;
    }
    const rules = Array.from(article.querySelectorAll("p[id] > strong:first-child"))
      .filter((strong) => RULE_ID.test(strong.textContent.trim()));
    if (rules.length < 3) return;
    const list = document.createElement("ol");
    rules.forEach((strong) => {
      const id = strong.parentElement.id;
      const code = strong.textContent.trim();
      // the rule ID itself becomes the link to share
      const own = document.createElement("a");
      own.className = "esc-rule-anchor";
      own.href = "#" + id;
      own.title = "Lien vers la règle " + code + " (à partager)";
      strong.parentNode.insertBefore(own, strong);
      own.appendChild(strong);
      const title = own.parentElement.querySelectorAll("strong")[1];
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = "#" + id;
      link.textContent = code + (title ? " — " + title.textContent.trim().replace(/\.$/, "") : "");
      item.appendChild(link);
      list.appendChild(item);
    });
    const box = document.createElement("details");
    box.className = "esc-page-contents";
    const summary = document.createElement("summary");
    summary.textContent = "Sur cette page\u00a0: " + rules.length + " règles";
    box.appendChild(summary);
    box.appendChild(list);
    list.addEventListener("click", (event) => {
      if (event.target.closest("a")) box.open = false;
    });
    const title = article.querySelector("h1");
    if (title) title.insertAdjacentElement("afterend", box);
  }
  /** The player view through the local server (book_src/demos/suivi-combat.md): the last state is posted to
   * ``/__joueurs__/etat`` (tools/serve_site.py relays it to a tablet of the same
   * network); one post at a time, the newest kept; a host without it (a 404, a 405)
   * ends the tries. Nothing goes to any other address. */
  function relayToServer() {
    if (!/^https?:$/.test(location.protocol) || !STATIC) return () => {};
    const url = new URL("../__joueurs__/etat", STATIC).href;
    let waiting = null;
    let busy = false;
    let off = false;
    const send = () => {
      if (busy || off || waiting === null) return;
      const body = waiting;
      waiting = null;
      busy = true;
      fetch(url, { method: "POST", body: body, headers: { "Content-Type": "application/json" },
                   cache: "no-store" })
        .then((answer) => { if (answer.status === 404 || answer.status === 405 || answer.status === 501) off = true; },
              () => {})
        .finally(() => { busy = false; send(); });
    };
    return (state) => { waiting = state; send(); };
  }
  function playerView() {
    document.addEventListener("click", (event) => {
      const link = event.target.closest && event.target.closest("a.esc-player-link");
      if (!link || !STATIC) return;
      event.preventDefault();
      window.open(new URL("escarmouche-joueurs.html", STATIC).href, "escarmouche-joueurs");
    });
    if (!("BroadcastChannel" in window)) return;
    const channel = new BroadcastChannel("escarmouche-joueurs");
    const relay = relayToServer();
    let last = null;
    channel.onmessage = (message) => {
      let data = message.data;
      try { data = typeof data === "string" ? JSON.parse(data) : data; } catch (e) { return; }
      if (data && data.type === "etat") {
        last = message.data;
        // only the tracker's page relays (the players' window also hears the channel)
        if (document.querySelector(".esc-player-link")) {
          relay(typeof last === "string" ? last : JSON.stringify(last));
        }
      } else if (data && data.type === "bonjour" && last !== null) channel.postMessage(last);
    };
  }
  /** Links that need the network or the book's server (JupyterLite is not kept on the
   * device; the feed is for a reader online) say so, and are dimmed while offline
   * (book_src/demos/suivi-combat.md). */
  function networkLinks() {
    const links = Array.from(document.querySelectorAll(
      'a.escarmouche-lite-button, a[href$="editions.atom"]'));
    if (!links.length) return;
    links.forEach((link) => {
      const said = "demande le réseau ou le serveur du livre";
      link.title = link.title ? `${link.title} (${said})` : said;
    });
    const follow = () => {
      links.forEach((link) => {
        const off = navigator.onLine === false;
        link.classList.toggle("esc-needs-network", off);
        if (off) link.setAttribute("aria-disabled", "true");
        else link.removeAttribute("aria-disabled");
        let note = link.querySelector(".esc-offline-note");
        if (off && !note) {
          note = document.createElement("span");
          note.className = "esc-offline-note";
          note.textContent = " (hors ligne\u00a0: indisponible)";
          link.appendChild(note);
        } else if (!off && note) note.remove();
      });
    };
    follow();
    window.addEventListener("online", follow);
    window.addEventListener("offline", follow);
  }
  /** The scripts the build moved out of the page's start (7), in order, when idle. */
  function loadWhenIdle() {
    if (!IDLE.length) return;
    const load = () => {
      IDLE.forEach((src) => {
        const tag = document.createElement("script");
        tag.src = src;
        tag.async = false; // in their order
        document.head.appendChild(tag);
      });
    };
    const idle = () => {
      if ("requestIdleCallback" in window) window.requestIdleCallback(load, { timeout: 2000 });
      else setTimeout(load, 200);
    };
    if (document.readyState === "complete") idle();
    else window.addEventListener("load", idle);
  }
  function start() {
    loadWhenIdle();
    wireToggles(".primary-toggle");
    wireToggles(".secondary-toggle");
    printAddress();
    agreeSearchSummary();
    followResults();
    ruleContents();
    playerView();
    networkLinks();
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
