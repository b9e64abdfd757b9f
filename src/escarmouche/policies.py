"""Tactics for automated fights: named, pluggable policies (``Encounter.run``).

A fight played by :meth:`escarmouche.encounter.Encounter.run` asks each fighter's
policy, again and again during its activation, which of the candidate moves of its
system (:meth:`escarmouche.systems.base.System.moves`) to play next, until the policy
passes (``None``) or :data:`MAX_CHOICES` choices were made. The system builds only moves
it can play now, and the engine plays each one through ``Encounter.act`` (so every rule
check applies). While a move is built, the system may ask *another* fighter's policy
for an out-of-turn choice (:meth:`Policy.react`): the d100 defender's parry or dodge,
the d20 opportunity attacks and immediate actions (an attacked halfling's « Deuxième
chance », kind ``"action_immediate"``).

Four policies are built in:

« agressif » (``agressif``)
    carries on an extended action, then attacks, then reloads, moves towards the enemy
    and spends limited resources (d20 action points) to attack again; never prepares a
    defence; takes every reaction offered (the first defence the system lists, every
    opportunity attack, every immediate action).
« prudent » (``prudent``)
    carries on an extended action, reloads first, then plays the safe move if the system
    marks one (``"sur"``: the d12 critical option (a) « dégâts maximum »), attacks, then
    prepares a defence (d100 parry) and moves; keeps its limited resources; defends
    like « agressif ».
« par défaut » (``par_defaut``)
    plays as « agressif », but leaves to the rules the choices they make when a move
    does not name them (the d12 default critical option, D12-CRIT-2).
« au hasard » (``au_hasard``)
    any candidate move, drawn at random, and random reactions; it draws from its own rng
    (``tactics_rng``), never from the dice.

The default policy of every built-in system is « agressif » (:func:`default_policy`): it
is the choice ``auto_action`` made before policies existed, played for the whole
action budget (a d100 pistol is reloaded in the same turn it fired, D100-ACT-4).

A policy is any object with ``name``, ``label``, ``choose`` and ``react``
(:class:`Policy`); :func:`register_policy` makes it available by name (roster files,
the command line):

>>> sorted(POLICIES)
['agressif', 'au_hasard', 'par_defaut', 'prudent']
>>> get_policy("prudent").label
'prudent'
>>> get_policy("téméraire")  # doctest: +NORMALIZE_WHITESPACE
Traceback (most recent call last):
  ...
escarmouche.errors.ParameterError: Valeur « téméraire » refusée pour « politique » : politique
inconnue ; politiques : « agressif », « au_hasard », « par_defaut » ou « prudent » (CORE-ERR).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar, runtime_checkable

from escarmouche.errors import invalid
from escarmouche.systems.base import Move
from escarmouche.text.fmt import join, quote

__all__ = [
    "MAX_CHOICES",
    "POLICIES",
    "Policy",
    "RandomPolicy",
    "TagPolicy",
    "default_policy",
    "get_policy",
    "policy_table",
    "register_policy",
    "resolve_policies",
    "tactics_rng_for",
]

T = TypeVar("T")

#: the most choices a policy makes in one activation (bounded automated play)
MAX_CHOICES = 12


@runtime_checkable
class Policy(Protocol):
    """What ``Encounter.run`` needs of a tactics policy.

    ``choose(moves, rng)`` returns one of ``moves`` (never empty) or ``None`` to end the
    activation; ``react(kind, options, rng)`` returns one of ``options`` (never empty,
    in the system's order of preference). ``rng`` is the tactics rng (a stream of its
    own, never the dice): a deterministic policy ignores it.
    """

    @property
    def name(self) -> str: ...

    @property
    def label(self) -> str: ...

    def choose(self, moves: Sequence[Move], rng: Any) -> Move | None: ...

    def react(self, kind: str, options: Sequence[str], rng: Any) -> str: ...


@dataclass(frozen=True)
class TagPolicy:
    """A deterministic policy: the first move carrying the first tag of ``prefer`` that
    any move carries (the system's order breaks ties); moves with none of these tags are
    never played. Reactions: the system's first option, except the kinds listed in
    ``decline`` (then the last option, « none »). With ``by_default``, the move is played
    without the choices the rules make themselves when it names none
    (:meth:`Move.by_default`: the d12 critical option)."""

    name: str
    label: str
    doc: str
    prefer: tuple[str, ...]
    decline: frozenset[str] = frozenset()
    by_default: bool = False

    def choose(self, moves: Sequence[Move], rng: Any) -> Move | None:
        def first(tag: str) -> Move | None:
            for m in moves:
                if tag in m.tags:
                    return m
            return None

        move = self.pick(first)
        if move is None:
            return None
        return move.by_default() if self.by_default else move

    def pick(self, first: Callable[[str], T | None]) -> T | None:
        """The policy's choice, asked tag by tag: ``first(tag)`` is the first candidate
        carrying ``tag`` (``None``: none does); the answer for the first tag of
        ``prefer`` that has one. :meth:`choose` asks it of a list of moves, a rules
        kernel of its generator of legal moves (which stops at the first)."""
        for tag in self.prefer:
            found = first(tag)
            if found is not None:
                return found
        return None

    def pick_tagged(self, moves: Iterable[tuple[Any, ...]]) -> tuple[Any, ...] | None:
        """:meth:`pick` over a rules kernel's candidates, tuples whose first item is
        the move's tag: each tag's first move, then the policy's choice among them. The
        first move carrying the policy's first tag is its choice whatever follows, so the
        candidates are read no further (a kernel's generator of legal moves is lazy)."""
        top = self.prefer[0] if self.prefer else None
        firsts: dict[Any, tuple[Any, ...]] = {}
        for m in moves:
            tag = m[0]
            if tag == top:
                return m
            if tag not in firsts:
                firsts[tag] = m
        return self.pick(firsts.get)

    def react(self, kind: str, options: Sequence[str], rng: Any) -> str:
        return options[-1] if kind in self.decline else options[0]


@dataclass(frozen=True)
class RandomPolicy:
    """Any move, uniformly at random, or an end to the activation with probability
    ``1 / (moves + 1)``; random reactions. Draws only from the tactics rng."""

    name: str = "au_hasard"
    label: str = "au hasard"
    doc: str = ("joue un coup au hasard parmi les coups possibles (ou s’arrête), et réagit "
                "au hasard ; ses tirages viennent d’un générateur à part, jamais des dés")

    def choose(self, moves: Sequence[Move], rng: Any) -> Move | None:
        pick = int(rng.randint(0, len(moves)))
        return None if pick == len(moves) else moves[pick]

    def react(self, kind: str, options: Sequence[str], rng: Any) -> str:
        return options[int(rng.randint(0, len(options) - 1))]


AGGRESSIVE = TagPolicy(
    "agressif", "agressif",
    "poursuit une action étendue, attaque, recharge, avance vers l’ennemi et dépense ses "
    "ressources (points d’action) pour attaquer encore ; ne prépare jamais de défense",
    ("suite", "attaque", "recharge", "deplacement", "effort"),
)
CAUTIOUS = TagPolicy(
    "prudent", "prudent",
    "poursuit une action étendue, recharge d’abord, attaque (en d12 avec l’option "
    "critique sûre, dégâts maximum), puis prépare sa défense (parade) et avance ; garde "
    "ses ressources (points d’action)",
    ("suite", "recharge", "sur", "attaque", "defense", "deplacement"),
)



BY_DEFAULT = TagPolicy(
    "par_defaut", "par défaut",
    "joue comme « agressif », mais laisse aux règles les choix qu’elles font d’elles-mêmes "
    "quand on ne les nomme pas (en d12, l’option critique par défaut)",
    AGGRESSIVE.prefer, AGGRESSIVE.decline, by_default=True,
)

#: the registry, by name (:func:`register_policy` adds to it)
POLICIES: dict[str, Policy] = {p.name: p for p in (AGGRESSIVE, CAUTIOUS, BY_DEFAULT,
                                                   RandomPolicy())}

def register_policy(policy: Policy) -> Policy:
    """Make ``policy`` available by its name (replacing none: a name is taken once)."""
    if not isinstance(policy, Policy):
        raise invalid("politique", type(policy).__name__, "CORE-ERR",
                      "il faut name, label, choose() et react()")
    if not isinstance(policy.name, str) or not policy.name or len(policy.name) > 40:
        raise invalid("politique", policy.name, "CORE-ERR", "un nom court est attendu")
    if policy.name in POLICIES and POLICIES[policy.name] is not policy:
        raise invalid("politique", policy.name, "CORE-ERR", "ce nom est déjà pris")
    POLICIES[policy.name] = policy
    return policy


def get_policy(name: object) -> Policy:
    """The registered policy ``name`` (a French error otherwise)."""
    if isinstance(name, str) and name in POLICIES:
        return POLICIES[name]
    raise invalid("politique", name, "CORE-ERR",
                  f"politique inconnue ; politiques : "
                  f"{join([quote(p) for p in sorted(POLICIES)], last='ou')}")


def default_policy(system: str) -> str:
    """The name of the default policy of ``system``, as the system declares it
    (``System.default_policy``); « agressif » for a name no registry knows."""
    from escarmouche.errors import EscarmoucheError
    from escarmouche.systems import get

    try:
        return get(system).default_policy
    except EscarmoucheError:
        return "agressif"


def resolve_policies(system: str, sides: Sequence[str],
                     policy: str | Policy | Mapping[str, str | Policy] | None
                     ) -> dict[str, Policy]:
    """The policy of each side: ``None`` gives each side the system's default; a name or
    a :class:`Policy` applies to every side; a mapping side → name (or policy) sets some
    sides, the others keeping the default. An unknown side or name is refused."""
    default = get_policy(default_policy(system))
    if policy is None:
        return dict.fromkeys(sides, default)
    if isinstance(policy, str):
        return dict.fromkeys(sides, get_policy(policy))
    if isinstance(policy, Mapping):
        out = dict.fromkeys(sides, default)
        for side, chosen in policy.items():
            if side not in out:
                raise invalid("camp", side, "CORE-ERR",
                              f"aucun combattant de ce camp ; les camps sont "
                              f"{join([quote(s) for s in sides])}")
            # a name first: the Protocol check of a Policy is slow, and a name never is one
            out[side] = get_policy(chosen) if isinstance(chosen, str) else (
                chosen if _registered(chosen) or isinstance(chosen, Policy)
                else get_policy(chosen))
        return out
    if isinstance(policy, Policy):
        return dict.fromkeys(sides, policy)
    raise invalid("politique", type(policy).__name__, "CORE-ERR",
                  "un nom de politique, une politique ou un dictionnaire camp → politique "
                  "est attendu")


def _registered(policy: object) -> bool:
    """Whether ``policy`` is one of the registered policies (a Policy already checked)."""
    return any(policy is p for p in POLICIES.values())


def tactics_rng_for(dice_state: object) -> random.Random:
    """The default tactics rng of a fight: seeded from the dice rng's *state* (read, not
    drawn from), so that the same seed gives the same fight and the dice stream is never
    touched.

    >>> a = tactics_rng_for(random.Random(7).getstate())
    >>> b = tactics_rng_for(random.Random(7).getstate())
    >>> a.random() == b.random()
    True
    """
    digest = hashlib.sha256(repr(dice_state).encode("utf-8")).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def policy_table() -> Any:
    """The registered policies as a French table (name, label, what it does)."""
    from escarmouche.render.table import Table

    rows = [(p.name, p.label, str(getattr(p, "doc", ""))) for p in POLICIES.values()]
    return Table(("Nom", "Politique", "Ce qu’elle fait"), rows, "Politiques de tactique")
