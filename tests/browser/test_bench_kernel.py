"""The rules kernels' bench page in Pyodide (bench/bench_browser_kernel.py, ``make
bench-browser --plan noyau``), run small: the site's wheel installs from the site's lock,
the floors and the measure import in Pyodide, and every floor agrees with its kernel
fight by fight there too (CORE-RNG: the same seeds give the same fights in CPython and
in Pyodide, the floors being held to the kernels in CPython by bench_simulation)."""

from __future__ import annotations

from typing import Any

import pytest

from bench.bench_browser_kernel import bench_files, browser_run
from bench.kernel_floors import DUELS
from tools.browser_kit import SITE, SiteServer

pytestmark = pytest.mark.browser


def test_the_kernel_bench_page_measures_in_pyodide(page: Any) -> None:
    """CORE-RNG: the four duels' floors and kernels agree on 30 seeds in Pyodide; the
    page gives a time per fight for each and their ratio."""
    with SiteServer(SITE, extra=bench_files()) as server:
        found = browser_run(page.context, server.url, fights=20, passes=1, check=30)
    assert list(found) == list(DUELS)
    for duel, row in found.items():
        assert row["ecarts"] == 0, duel
        assert row["plancher_us"] > 0 and row["noyau_us"] > 0, duel
        assert row["rapport"] == pytest.approx(row["noyau_us"] / row["plancher_us"],
                                               rel=0.05), duel
    assert page.errors == []
