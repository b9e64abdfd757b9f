"""The Atelier's answer on one worker and on the pool of workers (``make bench-browser``,
``--plan pool``; bench/README.md, « bench_designer.py »).

In one fresh Chromium profile per device (desktop, then the 390 px phone context
``PHONE_DEVICE``), the runtime is first put in the service worker's cache as « Disponible
hors ligne » does (so that the pool's helpers start from this device's copy and its
snapshot, as a reader's would). Then, alternately, the Atelier page with
``?travailleurs=1`` (the page's worker plays alone) and ``?travailleurs=N`` (N helper
workers): « Activer », the option « plus haut jet de réussite critique » set to 10, the
default precision (± 2 points), « Simuler les combats »; timed by the page's own clock
from the click to the answer (« … ont suffi pour la précision demandée »), twice in the
same page: the first run pays for the helpers' start, the second finds them running. The
answers must be the same text (the numbers of one worker). A bare Pyodide boot
(``bare.html``: ``loadPyodide`` + ``1+1``, in the same profile) is the reference.

The ratio reported is one worker / pool (medians); the target (bench/README.md) is ≥ 1.6× with two
workers. On a machine of 2 shared cores, the two helpers and the page's own thread
compete with whatever else runs: the load average is printed before and after.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from tools.browser_kit import PHONE_DEVICE, SITE, SiteServer, launch_chromium

ANSWER = "combats par jeu de règles, graine 1"
WIDGET = "document.querySelector('.escarmouche-live-widget')"
#: a click on « Simuler les combats », timed in the page until the answer shows
TIME_RUN = """() => new Promise((resolve) => {
  const widget = WIDGET;
  const button = Array.from(widget.querySelectorAll('button'))
    .find((b) => b.innerText.includes('Simuler les combats'));
  const t0 = performance.now();
  let started = false;
  const timer = setInterval(() => {
    if (button.disabled) started = true;
    const text = widget.innerText;
    if (started && !button.disabled && text.includes(ANSWER)) {
      clearInterval(timer);
      resolve({ ms: performance.now() - t0, text });
    }
  }, 20);
  button.click();
})""".replace("WIDGET", WIDGET).replace("ANSWER", repr(ANSWER))


def _answer(text: str) -> str:
    start = text.index("Avec vos changements, ")
    return "\n".join(line for line in text[start:].splitlines()
                     if line.strip() and "processus du navigateur" not in line)


def atelier_runs(context: Any, base: str, workers: int, fights: int | None,
                 runs: int = 2) -> dict[str, Any]:
    """One Atelier page on ``workers`` workers: ``runs`` answers to the same question
    (± 2 points, or exactly ``fights`` fights per rule set)."""
    page = context.new_page()
    page.goto(f"{base}book/atelier.html?travailleurs={workers}")
    page.locator("#escarmouche-live .escarmouche-live-activate").click()
    page.wait_for_selector("#escarmouche-live[data-state=ready]", timeout=180_000)
    live = page.locator(".escarmouche-live-widget").first
    live.wait_for()
    field = live.locator(".widget-text", has_text="plus haut jet de réussite critique")
    field.locator("input").fill("10")
    field.locator("input").press("Enter")
    page.wait_for_function(
        f"() => {WIDGET}.querySelector('textarea').value.includes('after = 10')",
        timeout=60_000)
    if fights is not None:
        live.locator(".widget-dropdown", has_text="Précision").locator(
            "select").select_option(label="le nombre de combats indiqué")
        box = live.locator(".widget-text", has_text="Combats")
        box.locator("input").fill(str(fights))
        box.locator("input").press("Enter")
    times, texts = [], []
    for _ in range(runs):
        got = page.evaluate(TIME_RUN)
        times.append(got["ms"] / 1000)
        texts.append(_answer(got["text"]))
        page.wait_for_timeout(500)
    played = texts[-1].split(" combats par jeu de règles, graine 1")[0].rsplit(" ", 1)[-1]
    page.close()
    return {"first_s": times[0], "again_s": times[-1], "answer": texts[-1],
            "fights": played}


def measure_pool(repeat: int, fights: int | None, workers: int = 2) -> dict[str, Any]:
    """Desktop and phone, ``repeat`` alternating rounds of 1 worker and the pool."""
    from playwright.sync_api import sync_playwright

    from bench.bench_browser import bench_files, prime_runtime, time_bare

    results: dict[str, Any] = {}
    with sync_playwright() as playwright, \
            SiteServer(SITE, extra=bench_files()) as server:
        for device_name, device in (("desktop", None), ("phone", PHONE_DEVICE)):
            with launch_chromium(playwright, service_workers="allow",
                                 device=device) as context:
                prime_runtime(context, server.url)
                for round_ in range(repeat):
                    order = (1, workers) if round_ % 2 == 0 else (workers, 1)
                    for n in order:
                        got = atelier_runs(context, server.url, n, fights)
                        key = f"{device_name}-{n}"
                        results.setdefault(key, []).append(got)
                        print(f"  {key:<12} 1re réponse {got['first_s']:6.2f} s ; "
                              f"encore {got['again_s']:6.2f} s ({got['fights']} combats "
                              "par jeu de règles)", flush=True)
                    page = context.new_page()
                    bare = time_bare(page, server.url, own_clock=True)
                    page.close()
                    results.setdefault(f"{device_name}-bare", []).append({"total_s": bare})
                    print(f"  {device_name}-bare  {bare:6.2f} s", flush=True)
    return results


def summarise_pool(results: dict[str, Any], workers: int = 2) -> dict[str, Any]:
    summary: dict[str, Any] = {}
    for device in ("desktop", "phone"):
        one, pool = results.get(f"{device}-1"), results.get(f"{device}-{workers}")
        bare = results.get(f"{device}-bare")
        if not (one and pool and bare):
            continue
        row: dict[str, Any] = {"bare_s": round(statistics.median(
            s["total_s"] for s in bare), 2)}
        for name, samples in (("one", one), ("pool", pool)):
            for key in ("first_s", "again_s"):
                row[f"{name}_{key}"] = round(statistics.median(s[key] for s in samples), 2)
        row["same_answer"] = len({s["answer"] for s in one + pool}) == 1
        row["fights"] = one[-1]["fights"]
        for key in ("first_s", "again_s"):
            row[f"speedup_{key}"] = round(row[f"one_{key}"] / row[f"pool_{key}"], 2)
            row[f"pool_{key}_to_bare"] = round(row[f"pool_{key}"] / row["bare_s"], 2)
        summary[device] = row
    return summary


def report(summary: dict[str, Any], question: str, workers: int = 2) -> None:
    print(f"\nL’Atelier, {question} par jeu de règles : 1 travailleur contre {workers} "
          "(médianes, s ; « encore » : la même question une deuxième fois dans la page)")
    for device, row in summary.items():
        verdict = "atteint" if row["speedup_again_s"] >= 1.6 else "MANQUÉ"
        print(f"  {device:<8} Pyodide nu {row['bare_s']:5.2f} ; 1 travailleur "
              f"{row['one_first_s']:5.2f} puis {row['one_again_s']:5.2f} ; {workers} "
              f"travailleurs {row['pool_first_s']:5.2f} puis {row['pool_again_s']:5.2f} ; "
              f"gain {row['speedup_first_s']:.2f}× puis {row['speedup_again_s']:.2f}× "
              f"(objectif ≥ 1,6× : {verdict}) ; mêmes nombres : "
              f"{'oui' if row['same_answer'] else 'NON'} ; {row['fights']} combats")


def timed_main(repeat: int, fights: int | None) -> dict[str, Any]:
    start = time.perf_counter()
    summary = summarise_pool(measure_pool(repeat, fights))
    report(summary, question="± 2 points" if fights is None else f"{fights} combats")
    summary["wall_s"] = round(time.perf_counter() - start, 1)
    return summary
