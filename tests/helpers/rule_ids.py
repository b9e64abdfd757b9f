"""The rule IDs of ``spec/RULES.md`` as the tests read them: every rule of a built-in
system in its order (:data:`RULE_IDS`), and the snapshot of those marked as rulings
(:data:`RULING_IDS`, :data:`ORIGINAL_EDITION_IDS`), which ``tests/faces/book/
test_coverage.py`` holds equal to RULES.md."""

from __future__ import annotations

import re

from tests.helpers import ROOT, SYSTEM_PREFIX

__all__ = ["ID", "ORIGINAL_EDITION_IDS", "RULE_IDS", "RULING_IDS"]

ID = rf"{SYSTEM_PREFIX}-[A-Z0-9]+-\d+"

#: every rule of a built-in system in spec/RULES.md, in its order, read from it (a fifth
#: system's rules are found by its prefix, ``System.rule_prefix``)
RULE_IDS: tuple[str, ...] = tuple(re.findall(
    rf"^- ({ID})\b", (ROOT / "spec" / "RULES.md").read_text(encoding="utf-8"), flags=re.M))

#: the rules RULES.md marks as a ruling, an option or a fact of the original edition:
#: each needs an « Interprétation retenue » admonition in its paragraph
RULING_IDS: tuple[str, ...] = (
    "RB-D100-1", "RB-INIT-2", "RB-INIT-4", "RB-SURPRISE-2", "RB-SURPRISE-3", "RB-TIME-1",
    "RB-MOVE-1", "RB-SPEED-1", "RB-SPEED-2", "RB-SPEED-3", "RB-END-2", "RB-END-3",
    "D100-INIT-2", "D100-SURPRISE-1", "D100-ACT-3", "D100-ATK-2", "D100-ATK-3", "D100-ATK-5",
    "D100-PARRY-1", "D100-PARRY-3", "D100-RANGED-5", "D100-JUMP-1", "D100-JUMP-2",
    "D12-INIT-2", "D12-INIT-3", "D12-INIT-4", "D12-INIT-6", "D12-SURPRISE-2", "D12-CRIT-1",
    "D12-CRIT-2", "D12-ADV-1", "D12-EXPLODE-1", "D12-ACT-1",
    "D20-INIT-1", "D20-INIT-2", "D20-START-1", "D20-ACT-3", "D20-END-1", "D20-OPP-1",
    "D20-OPP-2", "D20-IMM-1",
)

#: the rulings that state facts of the original edition: their admonition says so
ORIGINAL_EDITION_IDS: tuple[str, ...] = ("D100-ACT-3", "D20-INIT-1", "D20-OPP-2",
                                         "D20-IMM-1")
