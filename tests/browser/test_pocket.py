"""The book in a pocket (docs/hebergement.md): installable, offline after one visit, updated
on request.

Each test has its own Chromium profile with the service worker allowed (the other
browser tests block it: tools/browser_kit.launch_chromium) and its own server:

- one visit, the runtime downloaded on consent (« Disponible hors ligne », its size
  said first) and Python's memory snapshot made, then the server stopped and the context
  offline: five pages, the search, an aide-mémoire printed, the PDF, the offline page, a
  demo activated from the snapshot and the GM tracker used, then a spoilt snapshot
  dropped and made again;
- a new build published: « Nouvelle édition disponible », « Recharger », the old
  runtime caches removed;
- a page of one build with the lock (wheels) of another: it refuses to run and says why.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.browser.live_page import NEXT_BUTTON, READY_MS, configure, worker_page
from tools.browser_kit import PHONE_DEVICE, SITE, SiteServer, launch_chromium

pytestmark = pytest.mark.browser

#: Until this page is controlled by an activated service worker (its precache complete).
CONTROLLED = """async () => {
  const controlled = (async () => {
    const reg = await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise((r) => navigator.serviceWorker.addEventListener(
        'controllerchange', r, {once: true}));
    }
    const active = reg.active;
    if (active.state !== 'activated') {
      await new Promise((r) => active.addEventListener('statechange',
        () => active.state === 'activated' && r()));
    }
    return active.state;
  })();
  const late = new Promise((r) => setTimeout(() => r('aucun service worker en 60 s'), 60000));
  return Promise.race([controlled, late]);
}"""
RECORD_TEXT = """
window.__texts = [];
new MutationObserver(() => {
  document.querySelectorAll('.escarmouche-offline-text, .escarmouche-live-status').forEach((s) => {
    const last = window.__texts[window.__texts.length - 1];
    if (last !== s.textContent) window.__texts.push(s.textContent);
  });
}).observe(document, {subtree: true, childList: true, characterData: true});
"""
OFFLINE_PAGES = (
    "book/index.html",
    "book/d100/attaque.html",
    "book/glossaire.html",
    "book/d12/aide-memoire.html",
    "book/demos/initiative.html",
)


def _pdf() -> Path:
    found = sorted(SITE.glob("escarmouche-edition-*.pdf"))
    assert found, "make book builds the PDF"
    return found[-1]


#: The memory snapshot's entry in the runtime's cache: its size in bytes, or null.
SNAPSHOT_ENTRY = """async () => {
  const live = window.escarmoucheLive;
  const cache = await caches.open(window.escarmoucheOffline.runtimeCacheName(live.config.runtime));
  const keys = (await cache.keys()).map((r) => r.url).filter((u) => u.includes("snapshot"));
  if (keys.length !== 1) return keys.length ? keys : null;
  return (await (await cache.match(keys[0])).arrayBuffer()).byteLength;
}"""
#: Replace the stored snapshot with a well-formed gzip of something that is no snapshot.
SPOIL_SNAPSHOT = """async () => {
  const live = window.escarmoucheLive;
  const cache = await caches.open(window.escarmoucheOffline.runtimeCacheName(live.config.runtime));
  const url = (await cache.keys()).map((r) => r.url).find((u) => u.includes("snapshot"));
  const junk = new Blob([new Uint8Array(4096).fill(7)]).stream()
    .pipeThrough(new CompressionStream("gzip"));
  await cache.put(url, new Response(await new Response(junk).arrayBuffer()));
  return url;
}"""


def _activate(page: Any) -> str:
    """« Activer », then the first widget's answer to a new value; how Python started."""
    page.locator("#escarmouche-live .escarmouche-live-activate").click()
    page.wait_for_selector("#escarmouche-live[data-live=ready]", timeout=READY_MS)
    widget = page.locator(".escarmouche-live-widget").first
    handle = widget.locator(".noUi-handle").first
    handle.wait_for(timeout=30_000)
    handle.press("ArrowRight")  # 50 → 51: Python answers
    page.evaluate("window.escarmoucheLive.settled()")
    answer = widget.locator(".widget-html-content").first.inner_text()
    assert "51\u202f% de chances" in answer, answer
    started: str = page.evaluate("window.escarmoucheLive.timings.snapshot")
    return started


def test_after_one_visit_the_book_works_with_the_network_off(
        playwright: Any, artifacts: Path) -> None:
    with worker_page(playwright) as (context, page, errors):
        page.add_init_script(RECORD_TEXT)
        with SiteServer(SITE) as server:
            url = server.url
            page.goto(url + "book/index.html")
            assert page.evaluate(CONTROLLED) == "activated"
            manifest = page.evaluate(
                "fetch(document.querySelector('link[rel=manifest]').href).then(r => r.json())")
            assert manifest["lang"] == "fr" and manifest["short_name"] == "Escarmouche"
            assert {"192x192", "512x512"} <= {i["sizes"] for i in manifest["icons"]}
            assert page.locator('meta[name="theme-color"]').get_attribute("content")
            # Chromium's own installability check (Lighthouse 12 no longer has one).
            cdp = context.new_cdp_session(page)
            assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
            cdp.detach()

            # The live runtime, on consent: its size first, then progress, then cached.
            page.goto(url + "book/essai-navigateur.html")
            # the page's own sizes (the « Activer » bar carries its own: its first time)
            sizes = page.locator(
                "span[data-esc-taille]:not(#escarmouche-live span)").all_inner_texts()
            assert len(sizes) == 5 and all(s.endswith(("Mo", "ko")) for s in sizes), sizes
            box = page.locator(".esc-offline-control .escarmouche-offline")
            box.wait_for()
            page.wait_for_selector(".esc-offline-control .escarmouche-offline[data-state=offer]")
            offer = box.locator(".escarmouche-offline-text").inner_text()
            assert "Mo" in offer and "compressés" in offer, offer
            box.get_by_role("button", name="Disponible hors ligne").click()
            page.wait_for_selector(".esc-offline-control .escarmouche-offline[data-state=cached]",
                                   timeout=READY_MS)
            texts = page.evaluate("window.__texts")
            assert any(t.startswith("Téléchargement\u00a0: ") and " sur " in t
                       for t in texts), texts
            assert "Python est enregistré sur cet appareil" in box.inner_text()
            # and Python's memory snapshot, made on the device (nothing downloaded)
            assert "Préparation du démarrage rapide de Python…" in texts, texts
            snapshot = page.evaluate(SNAPSHOT_ENTRY)
            assert isinstance(snapshot, int) and snapshot > 1_000_000, snapshot
        # The server is gone and the context is offline.
        context.set_offline(True)
        for path in OFFLINE_PAGES:
            response = page.goto(url + path)
            assert response is not None and response.ok, path
            page.locator("article h1").first.wait_for(timeout=10_000)
        page.goto(url + "search.html?q=parade")
        page.wait_for_function("() => /pages? trouvées?/.test("
                               "(document.querySelector('.search-summary') || {}).textContent)",
                               timeout=30_000)
        assert page.locator("#search-results li").count() >= 3

        page.goto(url + "book/d100/aide-memoire.html")
        page.emulate_media(media="print")
        sheet = page.pdf(format="A4")
        assert sheet.startswith(b"%PDF") and len(sheet) > 10_000
        page.emulate_media(media="screen")
        pdf = _pdf()
        got = page.evaluate(f"fetch('{url}{pdf.name}').then(async r => "
                            "[r.status, (await r.arrayBuffer()).byteLength])")
        assert got == [200, pdf.stat().st_size]

        page.goto(url + "lite/lab/index.html")
        assert "Vous êtes hors ligne" in page.locator("h1").inner_text()
        assert "Python est enregistré sur cet appareil" in page.inner_text("body")

        # A demo, live with the network off, and the tracker's autosave.
        page.goto(url + "book/demos/suivi-combat.html")
        bar = page.locator("#escarmouche-live")
        # The bar is drawn with the first-time size; once the page knows the runtime is
        # cached (an async Cache Storage look-up), the size goes.
        page.wait_for_function(
            "() => document.querySelector('#escarmouche-live .escarmouche-live-activate')"
            ".textContent === '▶ Activer'", timeout=10_000)
        assert bar.locator(".escarmouche-live-first").count() == 0
        bar.locator(".escarmouche-live-activate").click()
        page.wait_for_selector("#escarmouche-live[data-live=ready]", timeout=READY_MS)
        assert page.evaluate("window.escarmoucheLive.timings.snapshot") == "restored"
        live = page.locator(".escarmouche-live-widget").first
        # the tracker opens with no fight under way (book_src/demos/suivi-combat.md): start
        # one, then a step
        live.get_by_role("button", name="Commencer le combat").click()
        live.get_by_role("button", name=NEXT_BUTTON).click()
        page.wait_for_selector("#escarmouche-live[data-saved]", timeout=30_000)
        page.screenshot(path=artifacts / "pocket-offline-suivi.png", full_page=True)

        # A snapshot that does not restore is dropped: Python starts normally, the page
        # answers, and a good snapshot replaces the bad one.
        page.evaluate(SPOIL_SNAPSHOT)
        assert page.evaluate(SNAPSHOT_ENTRY) < 10_000
        page.goto(url + "book/essai-navigateur.html")
        assert _activate(page) == "made"
        page.wait_for_function("() => window.escarmoucheLive.timings.snapshotBytes > 0",
                               timeout=60_000)
        assert page.evaluate(SNAPSHOT_ENTRY) > 1_000_000
        assert errors == []


def test_a_new_build_says_so_and_takes_over_on_reload(playwright: Any) -> None:
    with launch_chromium(playwright, service_workers="allow") as context, \
            SiteServer(SITE) as server:
        configure(context)
        page = context.new_page()
        page.goto(server.url + "book/glossaire.html")
        assert page.evaluate(CONTROLLED) == "activated"
        page.evaluate("caches.open('escarmouche-runtime-0ld').then("
                      "c => c.put('/ancien', new Response('x')))")
        assert page.locator(".escarmouche-update").count() == 0
        # A new build is published: another sw.js (Workbox writes a new one per build).
        server.set_extra("/sw.js", (SITE / "sw.js").read_bytes() + b"\n// build 2\n")
        page.reload()
        prompt = page.locator(".escarmouche-update")
        prompt.wait_for(timeout=60_000)
        assert "Nouvelle édition disponible." in prompt.inner_text()
        with page.expect_navigation(timeout=60_000):
            prompt.get_by_role("button", name="Recharger").click()
        page.wait_for_load_state()
        assert page.evaluate(CONTROLLED) == "activated"
        page.wait_for_function(
            "async () => !(await caches.keys()).includes('escarmouche-runtime-0ld')",
            timeout=30_000)
        assert page.locator(".escarmouche-update").count() == 0


def test_a_page_never_runs_the_wheels_of_another_build(page: Any) -> None:
    lock = SITE / "lite" / "static" / "pyodide" / "pyodide-lock.json"
    newer = json.loads(lock.read_bytes())
    newer["info"]["escarmouche"] = "une édition plus récente"
    with SiteServer(SITE, extra={
            "/lite/static/pyodide/pyodide-lock.json": json.dumps(newer).encode()}) as server:
        page.goto(server.url + "book/essai-navigateur.html")
        stored = page.locator("div.cell .cell_output").first.inner_text()
        bar = page.locator("#escarmouche-live")
        bar.locator(".escarmouche-live-activate").click()
        page.wait_for_selector("#escarmouche-live[data-state=error]", timeout=READY_MS)
        status = bar.locator(".escarmouche-live-status").inner_text()
        assert status.startswith("Nouvelle édition disponible\u00a0: "), status
        assert bar.get_by_role("button", name="Recharger").is_visible()
        assert page.locator(".escarmouche-live-output").count() == 0
        assert page.locator("div.cell .cell_output").first.inner_text() == stored
        assert page.evaluate("window.escarmoucheLive.timings['worker-ready']") is None


def test_interrupt_stops_an_endless_example_and_the_fight_survives(
        page: Any, site_url: str) -> None:
    """Without cross-origin isolation (this server sends no COOP/COEP), « Interrompre »
    restarts Python: the page answers meanwhile, and the tracker's saved fight resumes."""
    page.goto(f"{site_url}book/demos/suivi-combat.html")
    page.evaluate("localStorage.removeItem('escarmouche-live:suivi:book/demos/suivi-combat')")
    bar = page.locator("#escarmouche-live")
    bar.locator(".escarmouche-live-activate").click()
    page.wait_for_selector("#escarmouche-live[data-live=ready]", timeout=READY_MS)
    live = page.locator(".escarmouche-live-widget").first
    # the tracker opens with no fight under way (book_src/demos/suivi-combat.md): start one,
    # then play a step; each operation is saved (``data-saved`` holds the time): wait for
    # the step's save
    live.get_by_role("button", name="Commencer le combat").click()
    page.wait_for_selector("#escarmouche-live[data-saved]", timeout=30_000)
    first = bar.get_attribute("data-saved")
    live.get_by_role("button", name=NEXT_BUTTON).click()
    page.wait_for_function(
        "t => document.querySelector('#escarmouche-live').dataset.saved !== t",
        arg=first, timeout=30_000)
    log = live.locator(".widget-html-content").last.inner_text()

    cell = page.locator("div.cell").filter(has=page.locator("textarea.escarmouche-live-code")).last
    toggle = cell.locator("details.hide > summary")
    if toggle.count() and not cell.locator("textarea.escarmouche-live-code").is_visible():
        toggle.first.click()
    cell.locator("textarea.escarmouche-live-code").fill("while True:\n    pass")
    cell.get_by_role("button", name="▶ Exécuter").click()
    stop = cell.get_by_role("button", name="■ Interrompre")
    stop.wait_for()
    page.wait_for_timeout(300)
    assert page.evaluate("() => { const t = performance.now(); return 6 * 7; }") == 42
    stop.click()
    restarted = bar.locator(".escarmouche-live-restarted")
    restarted.wait_for(timeout=READY_MS)
    assert restarted.inner_text().startswith("Python a été redémarré\u00a0: ")
    page.wait_for_function(
        "() => document.querySelector('.escarmouche-live-status').textContent"
        ".includes('le combat a repris')", timeout=READY_MS)
    live = page.locator(".escarmouche-live-widget").first
    assert live.locator(".widget-html-content").last.inner_text() == log
    assert page.errors == []


def test_with_cross_origin_isolation_interrupt_stops_python_in_place(page: Any) -> None:
    """As ``make serve`` serves it (COOP/COEP): a KeyboardInterrupt, no restart."""
    with SiteServer(SITE, isolated=True) as server:
        page.goto(server.url + "book/essai-navigateur.html")
        assert page.evaluate("crossOriginIsolated") is True
        bar = page.locator("#escarmouche-live")
        bar.locator(".escarmouche-live-activate").click()
        page.wait_for_selector("#escarmouche-live[data-live=ready]", timeout=READY_MS)
        cell = page.locator("div.cell").first
        code = cell.locator("textarea.escarmouche-live-code")
        code.fill("n = 0\nwhile True:\n    n += 1")
        cell.get_by_role("button", name="▶ Exécuter").click()
        stop = cell.get_by_role("button", name="■ Interrompre")
        stop.wait_for()
        page.wait_for_timeout(300)
        stop.click()
        # book_src/demos/suivi-combat.md: said as « interrompu », neither a failure nor
        # Python's KeyboardInterrupt
        stopped = cell.locator(".escarmouche-live-interrupted")
        stopped.wait_for(timeout=30_000)
        assert stopped.inner_text().startswith("Interrompu\u00a0: ")
        page.wait_for_function("() => !document.querySelector('div.cell')"
                               ".getAttribute('data-live').startsWith('running')")
        note = cell.locator(".escarmouche-live-cell-status").inner_text()
        assert note == "interrompu.", note
        assert "KeyboardInterrupt" not in cell.inner_text()
        assert cell.locator(".escarmouche-live-error").count() == 0
        assert bar.locator(".escarmouche-live-restarted").count() == 0
        code.fill("print('encore là :', n > 0)")
        code.press("Shift+Enter")
        page.wait_for_function(
            "() => document.querySelector('div.cell .escarmouche-live-output')"
            ".innerText.replace(/[\\u00a0\\u202f]/g, ' ').includes('encore là : True')",
            timeout=30_000)
        assert page.errors == []


#: Resolves once the page's own prestart check has had time to finish (it asked the
#: Cache Storage first), with whether the page started Python before any click.
PRESTARTED = """async () => {
  const live = window.escarmoucheLive;
  await window.escarmoucheOffline.runtimeCached(live.config.runtime, live.config.pyodide);
  await new Promise((r) => setTimeout(r, 500));
  return "worker-start" in live.timings;
}"""
IPHONE = """Object.defineProperty(Navigator.prototype, "userAgent", {get: () =>
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148"});"""
LOW_BATTERY = """navigator.getBattery = () => Promise.resolve({charging: false, level: 0.1});"""


def test_a_phone_starts_python_early_only_from_the_cache(playwright: Any) -> None:
    """A phone starts Python before the click only once the runtime is in its cache (the
    reader asked for it), never on iOS nor on a low battery that is not charging, and a
    prestarted Python that was not used stops when the page goes to the background."""
    with launch_chromium(playwright, service_workers="allow", device=PHONE_DEVICE) as context:
        configure(context)
        with SiteServer(SITE) as server:
            demo = server.url + "book/demos/initiative.html"
            page = context.new_page()
            page.goto(demo)
            assert page.evaluate(CONTROLLED) == "activated"
            assert page.evaluate(PRESTARTED) is False  # nothing cached: nothing starts
            page.evaluate("() => window.escarmoucheOffline.download().then(() => true)")

            page.goto(demo)
            page.wait_for_function("() => 'worker-start' in window.escarmoucheLive.timings",
                                   timeout=10_000)
            assert page.get_attribute("#escarmouche-live", "data-prestart") == "1"
            page.evaluate("""() => {
              Object.defineProperty(document, "visibilityState", {value: "hidden",
                                                                  configurable: true});
              document.dispatchEvent(new Event("visibilitychange"));
            }""")
            assert page.get_attribute("#escarmouche-live", "data-prestart") is None
            page.close()

            for refusal in (IPHONE, LOW_BATTERY):
                tab = context.new_page()
                tab.add_init_script(refusal)
                tab.goto(demo)
                assert tab.evaluate(PRESTARTED) is False, refusal
                # nor does « Disponible hors ligne » start Python there for the snapshot
                affords = tab.evaluate("window.escarmoucheOffline.affordsPython()")
                assert affords is (refusal is not IPHONE), refusal
                tab.close()
