"""Where the CPU goes while a live page starts: Chromium's own trace, per thread.

One cold sample of ``bench_browser.py``'s ``live`` kind (« Activer » tapped when painted)
or of its ``bare`` page, traced with the DevTools protocol (``Tracing``), then the busy
time of each of the browser's threads in 500 ms slices after navigation: the page's main
thread, the worker's, V8's wasm compile threads (``ThreadPoolForegroundWorker``), the
compositor's. A thread that is busy while Python starts takes a core from it (two, on
the bench's machine). This is how the CSS animation of the busy ring was found
(bench/README-browser.md, « A still page while Python starts »).

    .venv/bin/python bench/trace_live.py live [--phone] [--out trace.json]
"""

from __future__ import annotations

import argparse
import collections
import json
from pathlib import Path
from typing import Any

from bench.bench_browser import (
    FIRST_RESULT,
    LIVE_PAGE,
    LIVE_RESULT,
    TAP_AT_PAINT,
    TIMEOUT_MS,
    bench_files,
)
from tools.browser_kit import PHONE_DEVICE, SiteServer, launch_chromium

ROOT = Path(__file__).resolve().parent.parent

CATEGORIES = "devtools.timeline,v8,v8.wasm,toplevel"
SLICE_MS = 500
TOP_LEVEL = {"ThreadControllerImpl::RunTask", "RunTask", "ThreadPool_RunTask"}


def trace(kind: str, phone: bool) -> tuple[list[dict[str, Any]], Any]:
    """The trace events of one cold sample, and what the page reported."""
    from playwright.sync_api import sync_playwright

    events: list[dict[str, Any]] = []
    done: list[bool] = []
    with sync_playwright() as playwright, \
            SiteServer(extra=bench_files()) as server, \
            launch_chromium(playwright, device=PHONE_DEVICE if phone else None) as context:
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.on("Tracing.dataCollected", lambda e: events.extend(e["value"]))
        cdp.on("Tracing.tracingComplete", lambda e: done.append(True))
        cdp.send("Tracing.start", {"categories": CATEGORIES, "transferMode": "ReportEvents"})
        if kind == "live":
            page.add_init_script(TAP_AT_PAINT % (json.dumps(FIRST_RESULT),
                                                 json.dumps(LIVE_RESULT)))
            page.goto(f"{server.url}{LIVE_PAGE.lstrip('/')}", wait_until="commit")
            page.wait_for_function("() => window.__result !== undefined",
                                   timeout=TIMEOUT_MS, polling=50)
            report = page.evaluate("[window.__tapped, window.__result, "
                                   "window.escarmoucheLive.timings]")
        else:
            page.goto(f"{server.url}__bench__/bare.html")
            page.wait_for_function("() => window.__bare && window.__bare.value === 2",
                                   timeout=TIMEOUT_MS, polling=20)
            report = page.evaluate("window.__bare")
        cdp.send("Tracing.end")
        while not done:
            page.wait_for_timeout(100)
    return events, report


def busy_by_thread(events: list[dict[str, Any]]) -> dict[str, collections.Counter[int]]:
    """Milliseconds of top-level tasks per thread and per slice after the first request
    (a task counts in the slice where it starts)."""
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events
             if e.get("name") == "thread_name"}
    starts = [e["ts"] for e in events if e.get("name") == "ResourceSendRequest"]
    t0 = min(starts) if starts else min(e["ts"] for e in events if "ts" in e)
    busy: dict[str, collections.Counter[int]] = collections.defaultdict(collections.Counter)
    for e in events:
        if e.get("ph") == "X" and e.get("name") in TOP_LEVEL:
            thread = names.get((e["pid"], e["tid"]), str(e["tid"]))
            busy[thread][int((e["ts"] - t0) / 1000 // SLICE_MS)] += e.get("dur", 0) / 1000
    return busy


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("kind", choices=("live", "bare"))
    parser.add_argument("--phone", action="store_true", help="the 390 px phone context")
    parser.add_argument("--out", type=Path, help="also keep the raw trace (JSON)")
    args = parser.parse_args(argv)
    events, report = trace(args.kind, args.phone)
    if args.out:
        args.out.write_text(json.dumps(events), encoding="utf-8")
    print(json.dumps(report, ensure_ascii=False))
    busy = busy_by_thread(events)
    slices = max((max(c) for c in busy.values() if c), default=0) + 1
    print(f"{'thread':30} {'total ms':>8} | busy ms per {SLICE_MS} ms after navigation")
    for thread, counts in sorted(busy.items(), key=lambda kv: -sum(kv[1].values())):
        total = sum(counts.values())
        if total >= 50:
            row = " ".join(f"{counts.get(i, 0):5.0f}" for i in range(slices))
            print(f"{thread[:30]:30} {total:8.0f} | {row}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
