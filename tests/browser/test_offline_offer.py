"""The offline offer on the home page says when the book has finished saving (docs/hebergement.md).

A fresh profile with the service worker allowed (the other browser tests block it):
the home page's « Garder le livre et Python sur cet appareil » is tapped; the page then

- asks the browser for persistent storage (``navigator.storage.persist``, recorded by an
  init script that wraps it) and says the answer once Python is saved;
- says « Le livre est enregistré sur cet appareil » only once the service worker is
  active, that is once its precache is complete: at that moment a page of the book is
  in the precache, and the message was not there before the worker was active.

About 16 MB precached and the runtime downloaded from 127.0.0.1: 10–30 s here.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.live_page import READY_MS, worker_page

pytestmark = pytest.mark.browser

OFFER = "Garder le livre et Python sur cet appareil"

#: Records each call of ``navigator.storage.persist`` (and its answer), and whether the
#: service worker was active when the page first said the book is saved.
RECORD = """
(() => {
  window.__persist = [];
  const storage = navigator.storage;
  if (storage && storage.persist) {
    const persist = storage.persist.bind(storage);
    storage.persist = () => persist().then((granted) => {
      window.__persist.push(granted);
      return granted;
    });
  }
  window.__bookSaidWhen = null;
  new MutationObserver(() => {
    const said = document.querySelector('.escarmouche-offline-book');
    if (window.__bookSaidWhen === null && said && said.textContent.trim()) {
      const reg = navigator.serviceWorker && navigator.serviceWorker.getRegistration();
      window.__bookSaidWhen = 'pending';
      Promise.resolve(reg).then((r) => {
        window.__bookSaidWhen = r && r.active ? r.active.state : 'no active worker';
      });
    }
  }).observe(document, { subtree: true, childList: true, characterData: true });
})();
"""

#: Whether a page of the book is in the service worker's precache (workbox keys carry a
#: ``__WB_REVISION__`` query, hence ``ignoreSearch``).
IN_PRECACHE = """async (url) => {
  const names = (await caches.keys()).filter((n) => n.includes('precache'));
  for (const name of names) {
    const cache = await caches.open(name);
    if (await cache.match(url, { ignoreSearch: true })) return name;
  }
  return null;
}"""


def test_the_offer_says_when_the_book_is_saved_and_asks_to_persist(
        playwright: Any, site_url: str) -> None:
    with worker_page(playwright) as (_context, page, errors):
        page.add_init_script(RECORD)
        page.goto(site_url + "index.html")
        slot = page.locator(".esc-offline-control", has=page.locator(".escarmouche-offline"))
        box = slot.locator(".escarmouche-offline")
        page.wait_for_selector(".esc-offline-control .escarmouche-offline[data-state=offer]")
        said = slot.locator(".escarmouche-offline-book")
        # nothing is saved yet: the page does not say it is
        assert said.inner_text().strip() == ""
        assert page.evaluate("window.__persist") == []

        box.get_by_role("button", name=OFFER).click()
        page.wait_for_selector(".esc-offline-control .escarmouche-offline[data-state=cached]",
                               timeout=READY_MS)
        text = box.locator(".escarmouche-offline-text").inner_text()
        assert "Python est enregistré sur cet appareil" in text, text
        # the page asked for persistent storage, once, and says the answer
        asked = page.evaluate("window.__persist")
        assert len(asked) == 1, asked
        answer = ("Le navigateur le gardera même à court de place." if asked[0]
                  else "Le navigateur pourra l’effacer s’il manque de place.")
        assert answer in text, text

        # the book: said once the service worker's precache is complete
        page.wait_for_function(
            "() => /Le livre est enregistré sur cet appareil/.test(document.querySelector("
            "'.esc-offline-control .escarmouche-offline-book').textContent)",
            timeout=READY_MS)
        page.wait_for_function("() => window.__bookSaidWhen && "
                               "window.__bookSaidWhen !== 'pending'")
        assert page.evaluate("window.__bookSaidWhen") in ("activating", "activated")
        assert page.evaluate(IN_PRECACHE, site_url + "book/d100/attaque.html")
        assert page.evaluate(IN_PRECACHE, site_url + "book/demos/suivi-combat.html")
        assert "ses pages s’ouvrent sans réseau" in said.inner_text()
        assert errors == []
