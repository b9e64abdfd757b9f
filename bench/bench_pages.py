"""Weight of the static book per page type, and Lighthouse's mobile scores (issue 15).

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

Targets (issue 15): a rule page under 300 KB transferred, performance ≥ 95,
accessibility 100.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tools.browser_kit import CHROMIUM, SITE, SiteServer, launch_chromium  # noqa: E402

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


def lighthouse(site: Path = SITE) -> list[dict[str, Any]]:
    """Lighthouse 12.2.3, mobile, one run per page (npm ci in bench/lighthouse once)."""
    npm = shutil.which("npm")
    if npm is None:
        raise SystemExit("npm est introuvable")
    binary = LIGHTHOUSE_DIR / "node_modules" / ".bin" / "lighthouse"
    if not binary.exists():
        subprocess.run([npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund",
                        "--loglevel=error"], cwd=LIGHTHOUSE_DIR, check=True)
    rows: list[dict[str, Any]] = []
    env = {**os.environ, "CHROME_PATH": str(CHROMIUM)}
    with SiteServer(site) as server, tempfile.TemporaryDirectory() as tmp:
        for kind, path in PAGE_TYPES:
            report = Path(tmp) / "report.json"
            flags = ("--headless=new --no-sandbox --disable-gpu --no-first-run "
                     "--disable-dev-shm-usage --disable-background-networking "
                     "--disable-component-update --disable-sync")
            cmd = [str(binary), server.url + path, "--quiet", "--output=json",
                   f"--output-path={report}", f"--chrome-flags={flags}",
                   "--only-categories=performance,accessibility", "--locale=fr"]
            done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
            if done.returncode != 0 or not report.is_file():
                rows.append({"type": kind, "page": path, "error": done.stderr[-500:]})
                continue
            data = json.loads(report.read_text(encoding="utf-8"))
            audits = data["audits"]
            rows.append({
                "type": kind, "page": path,
                "performance": round(100 * (data["categories"]["performance"]["score"] or 0)),
                "accessibility": round(
                    100 * (data["categories"]["accessibility"]["score"] or 0)),
                "fcp": audits["first-contentful-paint"]["numericValue"] / 1000,
                "lcp": audits["largest-contentful-paint"]["numericValue"] / 1000,
                "tbt": audits["total-blocking-time"]["numericValue"],
                "failed_a11y": [a for a, v in audits.items()
                                if v.get("score") == 0 and a in a11y_ids(data)],
            })
    return rows


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


def a11y_ids(data: dict[str, Any]) -> set[str]:
    refs = data["categories"]["accessibility"]["auditRefs"]
    return {r["id"] for r in refs}


def kb(n: int) -> str:
    return f"{n / 1024:,.0f}".replace(",", "\u202f") + "\u202fKo"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--lighthouse", action="store_true",
                        help="Lighthouse mobile scores instead of the bytes")
    parser.add_argument("--json", type=Path, help="also write the rows to this file")
    args = parser.parse_args(argv)
    if not any(SITE.rglob("*.html.gz")):
        print("site non compressé : lancez `make book`", file=sys.stderr)
        return 2
    status = 0
    if args.lighthouse:
        rows = lighthouse()
        print("| type de page | page | performance | accessibilité | FCP (s) | LCP (s) "
              "| TBT (ms) | audits a11y en échec |")
        print("|---|---|---:|---:|---:|---:|---:|---|")
        for r in rows:
            if "error" in r:
                print(f"| {r['type']} | `{r['page']}` | erreur : {r['error']!r} |")
                status = 1
                continue
            print(f"| {r['type']} | `{r['page']}` | {r['performance']} | {r['accessibility']} "
                  f"| {r['fcp']:.1f} | {r['lcp']:.1f} | {r['tbt']:.0f} "
                  f"| {', '.join(r['failed_a11y']) or '—'} |")
        errors = installability()
        print("\nInstallable (Chromium, Page.getInstallabilityErrors, service worker "
              f"actif) : {'oui' if not errors else 'NON : ' + ', '.join(errors)}.")
        status = status or (1 if errors else 0)
    else:
        rows = weigh()
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
