"""The engine's one bounded memo: answers of pure functions, asked again and again by
automated play (bench/README.md).

Where ``functools.lru_cache`` fits (hashable arguments compared by value, a function of
nothing else) the engine uses it. :class:`Memo` is for the caches it does not fit, and
holds in one place what each of them needs:

* **bounded**: at most ``maxsize`` answers; when full, every answer is forgotten (cheaper
  per question than least-recently-used bookkeeping, and a fight asks the same few
  questions again within moments);
* **an owner by identity**: an answer may belong to one object (a rule set, a fight's
  stored value, a die plan) compared with ``is``, never with ``==``: a frozen
  dataclass would hash and compare every field at each question, and a mutable value
  is not hashable. The memo holds the owner beside its answer, so its ``id`` is not
  reused by another object while the answer is kept, and an answer is read back only
  for its own owner, whatever its key;
* **a source by identity**: answers computed from a module's table that a designer (or
  a test) may replace are all forgotten when the module's name for the table
  (``source``: the module's namespace and the name) holds another object.

A refusal is never an answer unless the caller stores it as a value on purpose, and
``None`` is never kept (it reads as « not known »: a function answering ``None`` is
asked again).

>>> squares: Memo[int] = Memo(2)
>>> squares.get(3) is None
True
>>> squares.put(3, 9), squares.get(3)
(9, 9)
>>> rules = object()
>>> squares.put(4, 16, rules) == squares.get(4, rules), squares.get(4, object())
(True, None)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import Any, Generic, TypeVar

__all__ = ["Memo"]

V = TypeVar("V")


class Memo(Generic[V]):
    """At most ``maxsize`` answers, by key and owner identity (:meth:`get`, :meth:`put`)
    or by owner alone (:meth:`of`); see the module."""

    __slots__ = ("_answers", "_maxsize", "_name", "_namespace", "_seen")

    def __init__(self, maxsize: int, source: tuple[Mapping[str, Any], str] | None = None
                 ) -> None:
        self._answers: dict[Hashable, tuple[object, V]] = {}
        self._maxsize = maxsize
        self._namespace: Mapping[str, Any] | None = None if source is None else source[0]
        self._name = "" if source is None else source[1]
        self._seen: object = None if source is None else source[0][source[1]]

    def get(self, key: Hashable, owner: object = None) -> V | None:
        """The answer kept for ``key`` and this very ``owner``, or ``None``."""
        if self._namespace is not None and self._namespace[self._name] is not self._seen:
            self._follow_source()
        hit = self._answers.get(key if owner is None else (key, id(owner)))
        if hit is not None and hit[0] is owner:
            return hit[1]
        return None

    def put(self, key: Hashable, answer: V, owner: object = None) -> V:
        """Keep ``answer`` for ``key`` and ``owner`` (forgetting every answer first when
        the memo is full), and return it."""
        if answer is not None:
            self._keep(key if owner is None else (key, id(owner)), owner, answer)
        return answer

    def of(self, owner: object, compute: Callable[[Any], V]) -> V:
        """``compute(owner)``, computed once per ``owner`` (by identity; no other key):
        what :func:`escarmouche.state.parsed` asks. ``None`` owns nothing (computed each
        time: its answer could not be told from a keyed answer without an owner)."""
        if owner is None:
            return compute(owner)
        if self._namespace is not None and self._namespace[self._name] is not self._seen:
            self._follow_source()
        hit = self._answers.get(id(owner))
        if hit is not None and hit[0] is owner:
            return hit[1]
        answer = compute(owner)
        if answer is not None:
            self._keep(id(owner), owner, answer)
        return answer

    def holds(self, owner: object) -> bool:
        """Whether an answer of :meth:`of` is kept for this very ``owner``."""
        hit = self._answers.get(id(owner))
        return hit is not None and owner is not None and hit[0] is owner

    def _keep(self, key: Hashable, owner: object, answer: V) -> None:
        """Keep one answer. Keys of different shapes never mislead: the owner kept beside
        each answer is compared with ``is`` before it is read."""
        self._follow_source()
        answers = self._answers
        if len(answers) >= self._maxsize:
            answers.clear()
        answers[key] = (owner, answer)

    def _follow_source(self) -> None:
        if self._namespace is None:
            return
        seen = self._namespace[self._name]
        if seen is not self._seen:  # the table was replaced: every answer is stale
            self._answers.clear()
            self._seen = seen

    def clear(self) -> None:
        """Forget every answer."""
        self._answers.clear()

    def __len__(self) -> int:
        return len(self._answers)
