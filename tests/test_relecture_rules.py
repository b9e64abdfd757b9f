"""The fifth proofreading pass, part B (issue 25): the d100, d20 and d12 rule pages and
the engine sentences they print, read as a French rules editor would, seeds open.

Each test names the entry of ``spec/RELECTURE.md`` it holds (B100–B139). The helpers
come from ``tests/test_relecture.py`` (the refusal shape, the clauses of a line) and
``tests/test_typography.py`` (the typography checker).
"""

from __future__ import annotations

import random
import re

import pytest

from escarmouche import Combatant, EscarmoucheError
from escarmouche.dice.exact import probability
from escarmouche.encounter import Encounter
from tests.test_relecture import _sentences, _unquoted, top_level_colons
from tests.test_typography import problems


def assert_refusal_shape(err: EscarmoucheError) -> str:
    """The refusal shape « Valeur X refusée pour « champ » : pourquoi (RÈGLE). » (or
    « Action « … » refusée : … »): one sentence, one colon outside quotes, no Python
    (no ``=``, no brackets or braces, no straight quotes, no underscore), typeset."""
    text = str(err)
    assert text == err.refusal(), text
    plain = _unquoted(text)
    assert len(_sentences(text)) == 1, text
    assert top_level_colons(plain) == 1, text
    assert not re.search(r"[=\[\]{}\"_]", plain), text
    assert err.rule and text.endswith(f"({err.rule})."), text
    assert not problems(text), (text, problems(text))
    return text


# -- the two refusals a fuzz sample found ---------------------------------------------------


def test_b100_the_opportunity_attack_refusal_quotes_no_python_d20_opp_1() -> None:
    """B100: taken on its own, an opportunity attack was refused with Python in the
    sentence, « par exemple reactions=[{"par": "A", "type": "attaque_opportunite"}] »
    (and the dict's colons made three in one sentence)."""
    enc = Encounter("d20", [Combatant("A", "x", {"PV": 5}), Combatant("B", "y", {"PV": 5})])
    enc.start(random.Random(1), positions={"A": [0, 0], "B": [1, 0]})
    other = next(name for name in ("A", "B") if name != enc.current)
    with pytest.raises(EscarmoucheError) as caught:
        enc.act(other, "attaque_opportunite", random.Random(2))
    text = assert_refusal_shape(caught.value)
    assert text.startswith("Action «\u00a0Attaque d’opportunité\u00a0» refusée"), text
    assert "«\u00a0réactions\u00a0»" in text and f"faite par {other}" in text, text
    assert "D20-OPP-1" in text


@pytest.mark.parametrize("condition", [(">=",), (">=", "x"), (">=", True), {"a": 1},
                                       [">=", 3, 4], 3, "abc", None])
def test_b101_the_probability_condition_refusal_reads_as_a_sentence_core_dice(
        condition: object) -> None:
    """B101: a malformed condition of ``probability`` was refused with its repr, a dict
    « {« a » → 1} » (« » inside « ») and a Python example « (">=", 12) »; now the field
    is named « condition sur le total », a container is not quoted, the example is
    French."""
    with pytest.raises(EscarmoucheError) as caught:
        probability("1d6", condition)  # type: ignore[arg-type]
    text = assert_refusal_shape(caught.value)
    assert "«\u00a0condition sur le total\u00a0»" in text, text
    assert "«\u00a0>=\u00a0» et 12" in text, text
    assert text.count("«") == text.count("»") <= 3, text
