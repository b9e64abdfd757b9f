"""Weight of the static book per page type, and Lighthouse's mobile scores (bench/README-pages.md).

``make bench-pages`` — for each page type, a cold Chromium profile loads the page from
the precompressed site (tools/precompress.py, served as ``make serve`` serves it) until
the network is idle and its static widgets are drawn; the server counts the bytes it
sent (bodies, compressed as sent) and the files' own sizes (uncompressed).

``make bench-lighthouse`` — the same pages through Lighthouse 12.2.3 (npm, in
``bench/lighthouse/``; 13 needs Node 22), mobile preset (simulated slow 4G, 4× CPU
slowdown), on Debian's Chromium: performance, accessibility, first and largest
contentful paint. Not part of ``make test`` (about a minute per page on 2 cores).
Then the book's installability, from Chromium itself (``Page.getInstallabilityErrors``
with the service worker active; Lighthouse 12 has no PWA audits any more).

Targets (bench/README-pages.md): a rule page under 300 KB transferred, performance ≥ 95,
accessibility 100.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from tools.browser_kit import CHROMIUM, SITE, SiteServer, launch_chromium

ROOT = Path(__file__).resolve().parent.parent

#: One page per type: (type, path).
PAGE_TYPES = (
    ("accueil", "book/index.html"),
    ("page de règles (carnet)", "book/d100/attaque.html"),
    ("page de règles (courte)", "book/d12/surprise.html"),
    ("démonstration (widgets)", "book/demos/initiative.html"),
    ("démonstration (suivi du MJ)", "book/demos/suivi-combat.html"),
    ("glossaire", "book/glossaire.html"),
    ("référence de l’API", "book/api.html"),
    ("recherche", "search.html?q=initiative"),
)
RULE_PAGE_BUDGET = 300 * 1024
LIGHTHOUSE_DIR = ROOT / "bench" / "lighthouse"
WIDGET_VIEW = 'script[type="application/vnd.jupyter.widget-view+json"]'


def _file_size(site: Path, url: str) -> int:
    path = unquote(urlsplit(url).path).lstrip("/")
    target = site / path
    if target.is_dir():
        target = target / "index.html"
    return target.stat().st_size if target.is_file() else 0


def weigh(site: Path = SITE) -> list[dict[str, Any]]:
    from playwright.sync_api import sync_playwright

    rows: list[dict[str, Any]] = []
    with SiteServer(site) as server, sync_playwright() as driver:
        for kind, path in PAGE_TYPES:
            with launch_chromium(driver) as context:
                urls: list[str] = []
                context.on("request", lambda r, urls=urls: urls.append(r.url))
                page = context.new_page()
                page.set_viewport_size({"width": 390, "height": 844})
                before = server.httpd.bytes_sent
                page.goto(server.url + path, wait_until="load")
                views = page.locator(WIDGET_VIEW).count()
                if views:
                    page.wait_for_function(
                        "n => document.querySelectorAll('.jupyter-widgets').length >= n",
                        arg=views, timeout=60_000)
                page.wait_for_load_state("networkidle")
                sent = server.httpd.bytes_sent - before
                local = [u for u in urls if u.startswith(server.url)]
                raw = sum(_file_size(site, u) for u in local)
                rows.append({"type": kind, "page": path, "requests": len(local),
                             "sent": sent, "raw": raw, "widgets": views})
    return rows


#: Audits that cost points, kept per run (opportunities and diagnostics in the report).
COST_AUDITS = ("render-blocking-resources", "unused-css-rules", "unused-javascript",
               "font-display", "mainthread-work-breakdown", "bootup-time",
               "largest-contentful-paint-element", "critical-request-chains")


def _lighthouse_once(binary: Path, url: str, env: dict[str, str], report: Path,
                     slowdown: float = 4.0) -> dict[str, Any]:
    flags = ("--headless=new --no-sandbox --disable-gpu --no-first-run "
             "--disable-dev-shm-usage --disable-background-networking "
             "--disable-component-update --disable-sync")
    cmd = [str(binary), url, "--quiet", "--output=json",
           f"--output-path={report}", f"--chrome-flags={flags}",
           "--only-categories=performance,accessibility", "--locale=fr",
           f"--throttling.cpuSlowdownMultiplier={slowdown:.2f}"]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    if done.returncode != 0 or not report.is_file():
        return {"error": done.stderr[-500:]}
    data = json.loads(report.read_text(encoding="utf-8"))
    report.unlink()
    audits = data["audits"]
    costs = {}
    for name in COST_AUDITS:
        audit = audits.get(name) or {}
        details = audit.get("details") or {}
        costs[name] = {"score": audit.get("score"),
                       "savings_ms": (details.get("overallSavingsMs")
                                      or audit.get("numericValue")),
                       "display": audit.get("displayValue", ""),
                       "items": [{k: v for k, v in item.items()
                                  if k in ("url", "totalBytes", "wastedBytes", "wastedMs",
                                           "total", "scripting", "groupLabel", "duration")}
                                 for item in (details.get("items") or [])[:12]
                                 if isinstance(item, dict)]}
    return {
        "benchmark_index": (data.get("environment") or {}).get("benchmarkIndex"),
        "slowdown": slowdown,
        "performance": round(100 * (data["categories"]["performance"]["score"] or 0)),
        "accessibility": round(100 * (data["categories"]["accessibility"]["score"] or 0)),
        "fcp": audits["first-contentful-paint"]["numericValue"] / 1000,
        "lcp": audits["largest-contentful-paint"]["numericValue"] / 1000,
        "tbt": audits["total-blocking-time"]["numericValue"],
        "si": audits["speed-index"]["numericValue"] / 1000,
        "failed_a11y": [a for a, v in audits.items()
                        if v.get("score") == 0 and a in a11y_ids(data)],
        "costs": costs,
    }


def calibrated_slowdown(benchmark_index: float) -> float:
    """The CPU slowdown that makes this machine a mid-tier phone, from Lighthouse's own
    ``benchmarkIndex``: the formula of the calculator that Lighthouse's
    ``docs/throttling.md`` points to (patrickhulce/lighthouse-cpu-throttling-calculator:
    800 → 2×, 1 300 → 3×, 1 533 → 4×, 2 000 → 6×, linear in between; 150 → 1×).
    The default 4× assumes a fast desktop (index about 1 500); on a slower host it
    slows a slow CPU four times more, and Lighthouse itself warns that the score then
    suffers."""
    if benchmark_index >= 1300:
        return 3 + (benchmark_index - 1300) / 233
    if benchmark_index >= 800:
        return 2 + (benchmark_index - 800) / 500
    return max(1.0, 1 + (benchmark_index - 150) / 650)


def lighthouse(site: Path = SITE, repeat: int = 1, only: Sequence[str] = (),
               slowdown: float | None = None) -> tuple[list[dict[str, Any]], float, float]:
    """Lighthouse 12.2.3, mobile: ``repeat`` rounds over the page types (alternating:
    each round visits every page once, so a burst of load hits every type alike); one
    row per page with the median and the range of each figure (npm ci once).

    ``slowdown`` is Lighthouse's CPU multiplier; ``None`` calibrates it first: one
    warm-up run of the home page (not counted) reads the machine's ``benchmarkIndex``
    and :func:`calibrated_slowdown` turns it into the multiplier. Returns the rows, the
    multiplier and the index it came from (NaN when given)."""
    npm = shutil.which("npm")
    if npm is None:
        raise SystemExit("npm est introuvable")
    binary = LIGHTHOUSE_DIR / "node_modules" / ".bin" / "lighthouse"
    if not binary.exists():
        subprocess.run([npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund",
                        "--loglevel=error"], cwd=LIGHTHOUSE_DIR, check=True)
    pages = [(k, p) for k, p in PAGE_TYPES if not only or any(o in p for o in only)]
    runs: dict[str, list[dict[str, Any]]] = {p: [] for _, p in pages}
    env = {**os.environ, "CHROME_PATH": str(CHROMIUM)}
    index = float("nan")
    with SiteServer(site) as server, tempfile.TemporaryDirectory() as tmp:
        if slowdown is None:
            warm = _lighthouse_once(binary, server.url + PAGE_TYPES[0][1], env,
                                    Path(tmp) / "report.json")
            if "error" in warm or not warm.get("benchmark_index"):
                raise SystemExit("étalonnage impossible : " + warm.get("error", "pas d’indice"))
            index = float(warm["benchmark_index"])
            slowdown = round(calibrated_slowdown(index), 1)
        for _ in range(repeat):
            for _kind, path in pages:
                runs[path].append(_lighthouse_once(binary, server.url + path, env,
                                                   Path(tmp) / "report.json", slowdown))
    rows: list[dict[str, Any]] = []
    for kind, path in pages:
        good = [r for r in runs[path] if "error" not in r]
        if not good:
            rows.append({"type": kind, "page": path, "error": runs[path][0]["error"]})
            continue
        row: dict[str, Any] = {"type": kind, "page": path, "runs": good,
                               "failed_a11y": sorted({a for r in good
                                                      for a in r["failed_a11y"]})}
        for key in ("performance", "accessibility", "fcp", "lcp", "tbt", "si",
                    "benchmark_index"):
            values = [r[key] for r in good]
            row[key] = statistics.median(values)
            row[key + "_range"] = (min(values), max(values))
        rows.append(row)
    return rows, slowdown, index


#: Lighthouse targets (bench/README-pages.md): every run of the page type at or above the score.
TARGETS = (("page de règles", 95), ("démonstration", 90))


def lighthouse_verdicts(rows: Sequence[dict[str, Any]]) -> list[str]:
    """One French line per target: met when every run of every page of that type
    scores at or above it, and accessibility is 100."""
    lines = []
    for prefix, floor in TARGETS:
        scores = [run["performance"] for r in rows if r["type"].startswith(prefix)
                  and "runs" in r for run in r["runs"]]
        if not scores:
            continue
        verdict = "atteint" if min(scores) >= floor else "MANQUÉ"
        lines.append(f"Objectif « {prefix} ≥ {floor} à chaque passage » : {verdict} "
                     f"({min(scores)}–{max(scores)}).")
    a11y = [run["accessibility"] for r in rows if "runs" in r for run in r["runs"]]
    if a11y:
        verdict = "atteint" if min(a11y) == 100 else "MANQUÉ"
        lines.append(f"Objectif « accessibilité 100 » : {verdict}.")
    return lines


def _slowdown_arg(text: str) -> str:
    """``--cpu-slowdown``: ``auto`` or a multiplier from 1 to 20."""
    if text != "auto":
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"« {text} » : un nombre ou auto") from None
        if not 1 <= value <= 20:
            raise argparse.ArgumentTypeError(f"« {text} » : entre 1 et 20")
    return text


def _fr(x: float) -> str:
    return f"{x:.1f}".replace(".", ",")


def installability(site: Path = SITE) -> list[str]:
    """Chromium's own installability errors for the book (``Page.getInstallabilityErrors``,
    once the service worker controls the page): Lighthouse 12 dropped its PWA audits."""
    from playwright.sync_api import sync_playwright

    with SiteServer(site) as server, sync_playwright() as driver, \
            launch_chromium(driver, service_workers="allow") as context:
        page = context.new_page()
        page.goto(server.url + "book/index.html")
        page.wait_for_function("async () => !!(await navigator.serviceWorker.ready).active "
                               "&& !!navigator.serviceWorker.controller", timeout=60_000)
        cdp = context.new_cdp_session(page)
        errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    return [str(e.get("errorId", e)) for e in errors]


def _spread(row: dict[str, Any], key: str, fmt: str) -> str:
    low, high = row[key + "_range"]
    text = fmt.format(row[key])
    if low != high:
        text += f" ({fmt.format(low)}–{fmt.format(high)})"
    return text


def _load() -> str:
    """The machine's load average (1, 5, 15 min), as ``uptime`` shows it."""
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def a11y_ids(data: dict[str, Any]) -> set[str]:
    refs = data["categories"]["accessibility"]["auditRefs"]
    return {r["id"] for r in refs}


def kb(n: int) -> str:
    return f"{n / 1024:,.0f}".replace(",", "\u202f") + "\u202fKo"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--lighthouse", action="store_true",
                        help="Lighthouse mobile scores instead of the bytes")
    parser.add_argument("--repeat", type=int, default=3,
                        help="Lighthouse rounds over the pages (median of the rounds)")
    parser.add_argument("--only", nargs="*", default=(),
                        help="only the pages whose path contains one of these")
    parser.add_argument("--no-install-check", action="store_true",
                        help="skip the installability check")
    parser.add_argument("--dir", type=Path, default=SITE,
                        help="the built site (default _build/html; a variant to compare)")
    parser.add_argument("--json", type=Path, help="also write the rows to this file")
    parser.add_argument("--cpu-slowdown", default="4", type=_slowdown_arg,
                        help="Lighthouse's CPU multiplier: a number (default 4, "
                             "Lighthouse's mobile preset and the targets' measure), or "
                             "auto: calibrated on this machine's benchmarkIndex, as "
                             "Lighthouse's docs/throttling.md advises, to compare machines")
    args = parser.parse_args(argv)
    if not any(args.dir.rglob("*.html.gz")):
        print("site non compressé : lancez `make book`", file=sys.stderr)
        return 2
    status = 0
    if args.lighthouse:
        given = None if args.cpu_slowdown == "auto" else float(args.cpu_slowdown)
        rows, slowdown, index = lighthouse(args.dir, repeat=args.repeat, only=args.only,
                                           slowdown=given)
        print(f"Lighthouse mobile, médiane de {args.repeat} passage(s) alternés "
              "(min–max) ; charge de la machine : " + _load())
        if given is None:
            print(f"Ralentissement du processeur : {_fr(slowdown)}×, étalonné sur "
                  f"l’indice de cette machine ({index:.0f} ; 4× suppose environ 1 500, "
                  "un ordinateur de bureau rapide).")
        else:
            print(f"Ralentissement du processeur : {_fr(slowdown)}× (donné).")
        print("| type de page | page | performance | accessibilité | FCP (s) | LCP (s) "
              "| TBT (ms) | audits a11y en échec |")
        print("|---|---|---:|---:|---:|---:|---:|---|")
        for r in rows:
            if "error" in r:
                print(f"| {r['type']} | `{r['page']}` | erreur : {r['error']!r} |")
                status = 1
                continue
            print(f"| {r['type']} | `{r['page']}` | {_spread(r, 'performance', '{:.0f}')} "
                  f"| {r['accessibility']:.0f} | {_spread(r, 'fcp', '{:.1f}')} "
                  f"| {_spread(r, 'lcp', '{:.1f}')} | {_spread(r, 'tbt', '{:.0f}')} "
                  f"| {', '.join(r['failed_a11y']) or '—'} |")
        indexes = [x for r in rows if "runs" in r for x in
                   (run.get("benchmark_index") for run in r["runs"]) if x]
        if indexes:
            print(f"\nIndice de la machine (benchmarkIndex) pendant les passages : "
                  f"{min(indexes):.0f}–{max(indexes):.0f}.")
            if given is not None and min(indexes) < 1300:
                print(f"Attention : sous 1 300, la machine est plus lente que ce que "
                      f"{_fr(slowdown)}× suppose (Lighthouse le signale dans son rapport) ; "
                      "--cpu-slowdown auto l’étalonne pour comparer avec une autre machine.")
        for verdict in lighthouse_verdicts(rows):
            print(verdict)
            status = status or (1 if "MANQUÉ" in verdict else 0)
        if not args.no_install_check:
            errors = installability()
            print("\nInstallable (Chromium, Page.getInstallabilityErrors, service worker "
                  f"actif) : {'oui' if not errors else 'NON : ' + ', '.join(errors)}.")
            status = status or (1 if errors else 0)
    else:
        rows = weigh(args.dir)
        print("| type de page | page | requêtes | transféré (compressé) | non compressé "
              "| widgets |")
        print("|---|---|---:|---:|---:|---:|")
        for r in rows:
            print(f"| {r['type']} | `{r['page']}` | {r['requests']} | {kb(r['sent'])} "
                  f"| {kb(r['raw'])} | {r['widgets']} |")
        rule = next(r for r in rows if r["page"] == "book/d100/attaque.html")
        verdict = "atteint" if rule["sent"] < RULE_PAGE_BUDGET else "MANQUÉ"
        print(f"\nObjectif « page de règles < 300 Ko transférés » : {verdict} "
              f"({kb(rule['sent'])}).")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1, ensure_ascii=False), encoding="utf-8")
    return status


if __name__ == "__main__":
    threading.excepthook = lambda args: None  # a closed tab's late request is no error
    raise SystemExit(main())
