"""What the tests share, imported as plain modules (none of it is a test, nor a conftest).

- ``tests.helpers.d100``, ``.d12``, ``.d20``, ``.rulebook``: the fighters, rosters and
  started fights of one system's rule tests;
- ``tests.helpers.rule_ids``: the rule IDs of ``spec/RULES.md`` and the rulings' snapshot;
- ``tests.helpers.editions``: edition files written and reviewed in a scratch tree, the
  edition tool, the values tried per option;
- ``tests.helpers.kernels``: a fight by the full engine and by a rules kernel, compared;
- ``tests.helpers.saves``: old save files made from new ones;
- ``tests.helpers.widgets``: the toy tracker's rows, the static-widget extension;
- ``tests.helpers.golden_runner``: the one runner of the golden fights (``tests/golden/``);
- ``tests.helpers.fuzz_targets``: every public entry point, fed mutated input;
- ``tests.helpers.proofreading``: the readers of the proofreading tests (the clauses of a
  sentence, the boxes and stored outputs of the book).
- ``tests.helpers.typography``: the typography checker every text is read through
  (``problems``).

This module gives the repository's root and the rule-ID patterns, built from the registry
(:mod:`escarmouche.systems`): each system declares its rule prefix (``System.rule_prefix``),
so a fifth built-in system's IDs are matched with no test to edit.
"""

from __future__ import annotations

import re
from pathlib import Path

from escarmouche import systems

#: the repository's root (the folder holding ``tests/``, ``spec/``, ``book/``)
ROOT = Path(__file__).resolve().parents[2]

#: the rule-ID prefixes of the built-in systems, in book order (``RB``, ``D100`` …)
SYSTEM_PREFIXES: tuple[str, ...] = tuple(systems.get(n).rule_prefix for n in systems.NAMES)
#: the same, with the engine's own ``CORE-*`` rules
RULE_PREFIXES: tuple[str, ...] = ("CORE", *SYSTEM_PREFIXES)

#: a regex group matching one system prefix: ``(?:RB|D100|D12|D20)``
SYSTEM_PREFIX = "(?:" + "|".join(re.escape(p) for p in SYSTEM_PREFIXES) + ")"
#: a regex group matching one prefix, the engine's ``CORE`` included
RULE_PREFIX = "(?:" + "|".join(re.escape(p) for p in RULE_PREFIXES) + ")"
