"""The exact duels in Pyodide (bench/bench_browser_exact.py, ``make bench-browser --plan
exact``), run short: the site's wheel solves each system's example duel to 6 rounds in
the browser, and its law is CPython's to the fraction (CORE-DICE: the solver draws no
die, so both Pythons must agree exactly), in fractions and in floats."""

from __future__ import annotations

from typing import Any

import pytest

from bench.bench_browser_exact import DUELS, bench_files, browser_run, solve
from tools.browser_kit import SITE, SiteServer

pytestmark = pytest.mark.browser


def test_the_exact_duels_are_the_same_in_pyodide_core_dice(page: Any) -> None:
    with SiteServer(SITE, extra=bench_files()) as server:
        found = browser_run(page.context, server.url, DUELS, 6)
    here = solve(DUELS, 6)
    assert list(found) == list(DUELS)
    for name in DUELS:
        assert found[name]["loi"] == here[name]["loi"], name
        assert found[name]["flottants"] == pytest.approx(here[name]["flottants"],
                                                         abs=1e-12), name
        assert sum(found[name]["flottants"].values()) == pytest.approx(1)
        assert found[name]["fractions_s"] > 0
    assert page.errors == []
