"""Property tests over every public entry point (the short form of ``make fuzz``).

For any generated input, following the grammar of what users type: it works or raises
EscarmoucheError (no other exception), finishes within the hang bound, and a refused
operation leaves the fight and the rng unchanged (CORE-ERR).
"""

from __future__ import annotations

import pytest

from tests.helpers.fuzz_targets import Report, Target, all_targets, fuzz

TARGETS = all_targets()


@pytest.mark.parametrize("target", TARGETS, ids=[t.name for t in TARGETS])
def test_any_input_works_or_is_refused_in_french_core_err(target: Target) -> None:
    report = Report()
    fuzz(target, 40, report, seed=1)
    assert report.inputs >= 20
    assert not report.crashes, report.crashes
    assert not report.hangs, report.hangs
    assert not report.state_changes, report.state_changes
