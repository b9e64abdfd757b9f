"""The fixture of the edition tests that need a scratch repository
(:func:`tests.helpers.editions.scratch_copy`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.editions import scratch_copy


@pytest.fixture
def copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A temporary repository: edition 1 and its snapshot (with one stored book example),
    spec/RULES.md, a one-cell book whose output changed, and engine defaults with one
    option changed per system."""
    return scratch_copy(tmp_path, monkeypatch)
