"""Standard odds benchmark: what one Atelier update computes, system by system.

``System.standard_odds(rules)`` runs twice per Atelier update (before and after) and
once per system on an edition page; in Pyodide it must stay well under a second. The
peer, measured in this same run, is the whole Atelier update it belongs to:
:func:`escarmouche.editions.page.comparison_html` (both lists of odds, the comparison,
the tables and charts in French). ``ratio = odds / update``: the share of one list of
odds in an update (at most 1/2, since an update computes two). Medians of alternating
runs (odds, update, odds, update…), so that a load spike on the shared machine hits
both sides.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

from escarmouche import systems
from escarmouche.editions import page
from escarmouche.editions.odds import compare

REPEAT = 15


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main() -> None:
    print(f"{'système':9} {'cotes (ms)':>11} {'mise à jour (ms)':>17} {'ratio':>6}  tableaux")
    for name in systems.NAMES:
        target = systems.get(name)
        rules: Any = target.default_rules()
        tables = target.standard_odds(rules)

        def odds(target: Any = target, rules: Any = rules) -> object:
            return target.standard_odds(rules)

        def render(name: str = name, rules: Any = rules) -> object:
            return page.comparison_html(name, rules, rules)

        ours, peer = [], []
        for _ in range(REPEAT):
            ours.append(timed(odds))
            peer.append(timed(render))
        o, p = statistics.median(ours), statistics.median(peer)
        cells = sum(len(v) for t in tables for _, v in t.rows)
        assert compare(tables, tables)  # the same tables pair up
        print(f"{name:9} {o * 1000:11.2f} {p * 1000:17.2f} {o / p:6.2f}  "
              f"{len(tables)} ({cells} cases)")


if __name__ == "__main__":
    main()
