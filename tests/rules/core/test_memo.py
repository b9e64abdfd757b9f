"""The engine's one bounded memo (``escarmouche.memo.Memo``): an answer is read back only
for its own key and its own owner (by identity), never after its source table was
replaced, never beyond the bound, and ``None`` is never kept."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from escarmouche.memo import Memo
from escarmouche.systems.d20.rules import Rules


def test_an_answer_belongs_to_its_owner_by_identity() -> None:
    """Two equal rule sets are two owners: neither reads the other's answer."""
    memo: Memo[str] = Memo(16)
    mine, equal = Rules(), Rules()
    assert mine == equal and mine is not equal
    memo.put("clé", "à moi", mine)
    assert memo.get("clé", mine) == "à moi"
    assert memo.get("clé", equal) is None
    assert memo.get("clé") is None  # no owner is an owner of its own
    memo.put("clé", "sans propriétaire")
    assert memo.get("clé") == "sans propriétaire"
    assert memo.get("clé", mine) == "à moi"


def test_a_replaced_source_forgets_every_answer() -> None:
    """Answers computed from a table are forgotten when the table is replaced, and kept
    again for the new one."""
    module = {"TABLE": {"simple": ("simple",)}}
    memo: Memo[int] = Memo(16, (module, "TABLE"))
    memo.put("clé", 1)
    assert memo.get("clé") == 1
    module["TABLE"] = {"simple": ("simple",)}  # equal, but another object
    assert memo.get("clé") is None
    memo.put("clé", 2)
    assert memo.get("clé") == 2


def test_a_put_after_the_source_changed_keeps_only_the_new_answer() -> None:
    module = {"TABLE": object()}
    memo: Memo[int] = Memo(16, (module, "TABLE"))
    memo.put("ancienne", 1)
    module["TABLE"] = object()
    memo.put("nouvelle", 2)
    assert memo.get("ancienne") is None
    assert memo.get("nouvelle") == 2
    owner = object()
    assert memo.of(owner, lambda _: 3) == 3
    module["TABLE"] = object()
    assert memo.of(owner, lambda _: 4) == 4


def test_keys_of_every_shape_never_mislead() -> None:
    """A key without an owner may equal the key an owned answer is kept under, and an
    ``int`` key may equal an owner's ``id``: the owner kept beside each answer decides."""
    memo: Memo[str] = Memo(16)
    owner = object()
    memo.put("clé", "à lui", owner)
    assert memo.get(("clé", id(owner))) is None
    memo.of(owner, lambda _: "le sien")
    assert memo.get(id(owner)) is None
    assert memo.get("clé", owner) == "à lui" and memo.of(owner, lambda _: "") == "le sien"
    memo.put(id(None), "sans propriétaire")
    assert memo.of(None, lambda _: "calculé") == "calculé"
    assert not memo.holds(None)


def test_none_is_never_kept() -> None:
    memo: Memo[int | None] = Memo(16)
    assert memo.put("clé", None) is None
    assert len(memo) == 0


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 8), st.lists(st.integers(0, 20), max_size=60))
def test_bounded_and_never_a_wrong_answer(maxsize: int, keys: list[int]) -> None:
    """At most ``maxsize`` answers; a key reads its own answer or nothing."""
    memo: Memo[int] = Memo(maxsize)
    for k in keys:
        known = memo.get(k)
        assert known is None or known == k * k
        if known is None:
            assert memo.put(k, k * k) == k * k
        assert len(memo) <= maxsize
    memo.clear()
    assert len(memo) == 0


def test_an_answer_of_its_owner_alone_is_computed_once_per_owner() -> None:
    """``of`` (what ``state.parsed`` asks): one computation per owner, by identity; two
    equal owners are two; ``holds`` says which are kept; never mixed with keyed answers."""
    memo: Memo[tuple[str, ...]] = Memo(16)
    calls: list[object] = []

    def parse(data: dict[str, list[str]]) -> tuple[str, ...]:
        calls.append(data)
        return tuple(data["ordre"])

    first, equal = {"ordre": ["Brune"]}, {"ordre": ["Brune"]}
    assert not memo.holds(first)
    assert memo.of(first, parse) == ("Brune",)
    assert memo.of(first, parse) is memo.of(first, parse)
    assert memo.holds(first) and not memo.holds(equal)
    assert memo.of(equal, parse) == ("Brune",)
    assert calls == [first, equal]
    assert memo.get(None, first) is None  # a keyed question is another question
