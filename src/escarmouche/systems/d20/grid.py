"""The square grid of the d20 system: squares, adjacency (the 8 neighbours, D20-OPP-2),
positions and movement (D20-ACT-1).

Positions are ``FighterState.flags["pos"]`` (``[x, y]``), given by the ``positions``
option of ``Encounter.start`` or placed by the GM (action ``placer``); without them, each
side stands on a column (side *i* at x = *i*, its members at y = 0, 1, 2 … in roster
order). A move goes to one of the 8 neighbouring squares per step, at most ``VD`` steps
(:attr:`Rules.default_speed`); enemies' squares cannot be entered; allies' squares can
be crossed but not ended on.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence

from escarmouche import checks
from escarmouche.errors import EscarmoucheError, IllegalActionError, invalid
from escarmouche.state import Ctx, FighterState
from escarmouche.systems.d20.narration import square_text
from escarmouche.systems.d20.rules import GRID_LIMIT, Rules, speed_of
from escarmouche.text.fmt import number, plural, quote

__all__ = [
    "NEIGHBOURS",
    "Square",
    "around",
    "check_path",
    "check_square",
    "distance",
    "greedy_path",
    "initial_positions",
    "is_adjacent",
    "need_position",
    "occupant",
    "path_fault",
    "path_towards",
    "position",
    "speed",
]

Square = tuple[int, int]

#: the 8 neighbouring squares (D20-OPP-2), in the order an automated move tries them
NEIGHBOURS: tuple[Square, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1),
                                  (-1, 1), (-1, -1))


def check_square(value: object, field: str, rule: str, who: str = "") -> Square:
    """A square ``[x, y]``: two integers within ±:data:`GRID_LIMIT`."""
    of = f" pour {who}" if who else ""
    if not (isinstance(value, list | tuple) and len(value) == 2
            and all(checks.is_int(v) for v in value)):
        raise invalid(field, value, rule, f"une case [x, y] (deux entiers) est attendue{of}")
    x, y = int(value[0]), int(value[1])
    if not (-GRID_LIMIT <= x <= GRID_LIMIT and -GRID_LIMIT <= y <= GRID_LIMIT):
        raise invalid(field, value, rule,
                      f"coordonnées entre {number(-GRID_LIMIT)} et {number(GRID_LIMIT)} "
                      f"attendues{of}")
    return x, y


def distance(a: Sequence[int], b: Sequence[int]) -> int:
    """The number of steps between two squares (diagonals count one)."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


@functools.lru_cache(maxsize=4096)
def around(square: Square) -> frozenset[Square]:
    """The squares adjacent to ``square``: the 8 at :func:`distance` 1 (D20-OPP-2), worked
    out once per square (what the rules kernel asks of every fighter's turn).

    >>> (1, 1) in around((0, 0)), (2, 0) in around((0, 0)), len(around((0, 0)))
    (True, False, 8)
    """
    x, y = square
    return frozenset([(x + dx, y + dy) for dx, dy in NEIGHBOURS])


def is_adjacent(a: Sequence[int], b: Sequence[int]) -> bool:
    """Whether two squares are adjacent: one of the 8 neighbouring squares (D20-OPP-2).

    >>> is_adjacent((0, 0), (1, 1)), is_adjacent((0, 0), (2, 0))
    (True, False)
    """
    return distance(check_square(a, "case", "D20-OPP-2"),
                    check_square(b, "case", "D20-OPP-2")) == 1


def position(f: FighterState) -> Square | None:
    """The square of a fighter, ``None`` when it is not on the grid."""
    p = f.flags.get("pos")
    if not isinstance(p, list):
        return None
    return int(str(p[0])), int(str(p[1]))


def need_position(f: FighterState, rule: str) -> Square:
    """The square of a fighter, or an :class:`IllegalActionError` when it has none."""
    p = position(f)
    if p is None:
        raise invalid("position", f.name, rule,
                      "position inconnue : placez-le sur la grille (option positions de "
                      "start() ou action « placer »)", kind=IllegalActionError)
    return p


def occupant(ctx: Ctx[Rules], square: Square, exclude: str) -> FighterState | None:
    """The standing fighter on ``square`` (other than ``exclude``), if any."""
    for f in ctx.state.fighters.values():
        if f.name != exclude and f.standing and position(f) == square:
            return f
    return None


def speed(f: FighterState, rules: Rules) -> int:
    """How many squares one move action covers: ``VD`` (:attr:`Rules.default_speed`)."""
    return speed_of(f.combatant, rules)


def initial_positions(ctx: Ctx[Rules], raw: object) -> dict[str, Square]:
    """The squares of the ``positions`` start option (or the default columns)."""
    out: dict[str, Square] = {}
    if raw is None:
        sides: list[str] = []
        counts: dict[str, int] = {}
        for f in ctx.state.fighters.values():
            if f.side not in sides:
                sides.append(f.side)
            out[f.name] = (sides.index(f.side), counts.get(f.side, 0))
            counts[f.side] = counts.get(f.side, 0) + 1
        return out
    squares: Mapping[object, object] = checks.mapping("positions", raw, "D20-OPP-2")
    taken: dict[Square, str] = {}
    for name, square in squares.items():
        who = checks.name_in("positions", name, ctx.state.fighters, "D20-OPP-2")
        sq = check_square(square, "positions", "D20-OPP-2", who)
        if sq in taken:
            raise invalid("positions", list(sq), "D20-OPP-2",
                          f"case déjà occupée par {quote(taken[sq])}, {quote(who)} ne peut "
                          "pas s’y placer")
        taken[sq] = who
        out[who] = sq
    return out


def path_fault(start: Square, path: Sequence[Square], steps: int,
               side_at: Callable[[Square], bool | None], *, ends: bool = True
               ) -> tuple[int, str] | None:
    """The first fault of a move along ``path`` (the squares entered, in order) from
    ``start`` by a fighter of speed ``steps``, or ``None`` when the move is legal
    (D20-ACT-1; the grid, D20-OPP-2): ``(-1, "longueur")`` when it has more squares
    than ``steps``, else ``(i, why)`` for the square ``i`` of ``path``: ``"voisine"``
    (not one of the 8 neighbours of the square before it), ``"ennemi"`` (an enemy
    stands on it), ``"allie"`` (an ally stands on it and the move ends there).
    ``side_at(square)`` says who stands on a square: ``None`` nobody, ``True`` an
    enemy, ``False`` an ally. ``ends``: the move ends on the last square of ``path``
    (false for the part of a move read so far). The engine's door (:func:`check_path`)
    words the fault; the rules kernel (:mod:`.kernel`) answers its refusal code from it.

    >>> path_fault((0, 0), [(1, 1), (2, 1)], 6, lambda s: None) is None
    True
    >>> path_fault((0, 0), [(2, 0)], 6, lambda s: None)
    (0, 'voisine')
    """
    if len(path) > steps:
        return -1, "longueur"
    before = start
    last = len(path) - 1 if ends else -1
    for i, sq in enumerate(path):
        if distance(before, sq) != 1:
            return i, "voisine"
        enemy = side_at(sq)
        if enemy is not None and (enemy or i == last):
            return i, "ennemi" if enemy else "allie"
        before = sq
    return None


def check_path(ctx: Ctx[Rules], mover: FighterState, raw: object) -> tuple[Square, ...]:
    """The squares of a move, start included (D20-ACT-1; grid: D20-OPP-2), checked by
    :func:`path_fault` and its fault worded in French."""
    start = need_position(mover, "D20-ACT-1")
    steps = speed(mover, ctx.rules)
    path = checks.sequence("chemin", raw, "D20-ACT-1", min_len=1)
    if len(path) > steps:
        raise invalid("chemin", len(path), "D20-ACT-1",
                      f"une action de mouvement déplace {mover.name} d’au plus sa vitesse, "
                      f"{plural(steps, 'case')}", kind=IllegalActionError)

    def side_at(sq: Square) -> bool | None:
        other = occupant(ctx, sq, mover.name)
        return None if other is None else other.side != mover.side

    def refuse(squares: list[Square], ends: bool) -> None:
        fault = path_fault(start, squares, steps, side_at, ends=ends)
        if fault is None:
            return
        i, why = fault
        sq = squares[i]
        step = f"chemin, pas {i + 1}"  # a reader's words, not « chemin[0] » (B127)
        if why == "voisine":
            before = squares[i - 1] if i else start
            raise invalid(step, list(sq), "D20-OPP-2",
                          f"cette case n’est pas voisine de {square_text(before)} ; "
                          "chaque pas mène à l’une des 8 cases voisines",
                          kind=IllegalActionError, display=square_text(sq))
        other = occupant(ctx, sq, mover.name)
        assert other is not None
        text = (f"la case est occupée par un ennemi, {other.name}" if why == "ennemi"
                else f"la case est celle de {other.name}, un allié, et l’on ne finit pas "
                     "son déplacement sur un allié")
        raise invalid(step, list(sq), "D20-ACT-1", text, kind=IllegalActionError,
                      display=square_text(sq))

    squares: list[Square] = []
    for i, item in enumerate(path):
        try:
            squares.append(check_square(item, f"chemin, pas {i + 1}", "D20-ACT-1",
                                        mover.name))
        except EscarmoucheError:
            refuse(squares, False)  # a fault before this square is told first
            raise
    refuse(squares, True)
    return (start, *squares)


def path_towards(ctx: Ctx[Rules], mover: FighterState, goal: Square) -> list[Square]:
    """A greedy path of at most ``VD`` steps towards ``goal`` (stopping next to it),
    through free squares only (an automated fighter's move, :func:`greedy_path`)."""
    here = position(mover)
    if here is None:
        return []
    return greedy_path(here, goal, speed(mover, ctx.rules),
                       lambda s: occupant(ctx, s, mover.name) is None)


def greedy_path(here: Square, goal: Square, steps: int, free: Callable[[Square], bool]
                ) -> list[Square]:
    """The automated move (an engine convenience): at most ``steps`` steps from ``here``
    towards ``goal``, stopping next to it; each step to the free neighbour (``free``)
    nearer the goal, the nearest first, then by the sum of the coordinate gaps, then in
    the order of :data:`NEIGHBOURS`; it stops where no free neighbour is nearer. The
    engine (:func:`path_towards`) and the rules kernel (:mod:`.kernel`) both call it.

    >>> greedy_path((0, 0), (3, 0), 6, lambda s: True)
    [(1, 0), (2, 0)]
    """
    path: list[Square] = []
    cur = here
    for _ in range(steps):
        gap = distance(cur, goal)
        if gap <= 1:
            break
        free_ = [s for dx, dy in NEIGHBOURS
                 if distance(s := (cur[0] + dx, cur[1] + dy), goal) < gap
                 and abs(s[0]) <= GRID_LIMIT and abs(s[1]) <= GRID_LIMIT and free(s)]
        if not free_:
            break
        cur = min(free_, key=lambda s: (distance(s, goal),
                                        abs(s[0] - goal[0]) + abs(s[1] - goal[1])))
        path.append(cur)
    return path
