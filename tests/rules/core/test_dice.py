"""Tests of escarmouche.dice: notation, bounds, rolls, exact distributions (CORE-DICE)."""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Mapping
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from escarmouche import EscarmoucheError
from escarmouche import dice as D
from escarmouche.dice import (
    MAX_CONSTANT,
    MAX_DICE,
    MAX_EXACT_COST,
    MAX_EXPLODE_DEPTH,
    MAX_EXPRESSION_LENGTH,
    MAX_FACES,
    MAX_TERMS,
    Constant,
    DiceError,
    DiceSyntaxError,
    DiceTerm,
    Expression,
    ScriptedRolls,
    add_exploding_die,
    distribution,
    exact_cost,
    max_dice_total,
    maximum,
    mean,
    minimum,
    parse,
    probability,
    roll,
    with_advantage,
    with_disadvantage,
)
from escarmouche.model import DieRecord
from tests.helpers.proofreading import assert_refusal_shape

# --------------------------------------------------------------------------------------
# Parser: constructs.


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("2d8!+2", "2d8!+2"),
        ("2D8! + 2", "2d8!+2"),
        ("  d6  ", "1d6"),
        ("d%", "1d100"),
        ("3D%", "3d100"),
        ("1d100", "1d100"),
        ("2d12kh1", "2d12kh1"),
        ("2d12KH1", "2d12kh1"),
        ("2d12Kl1", "2d12kl1"),
        ("4d6kh3", "4d6kh3"),
        ("3d10!kl2", "3d10!kl2"),
        ("-1d4+3", "-1d4+3"),
        ("+1d4", "1d4"),
        ("\u22122d6 \u2212 3", "-2d6-3"),
        ("5", "5"),
        ("007", "7"),
        ("-0", "-0"),
        ("1d6+1d4-1d8+10", "1d6+1d4-1d8+10"),
        ("d1", "1d1"),
        ("d1000", "1d1000"),
    ],
)
def test_parse_canonical(text: str, canonical: str) -> None:
    expression = parse(text)
    assert str(expression) == canonical
    assert parse(canonical) == expression


def test_parse_builds_the_ast() -> None:
    assert parse("-2d8!kh1+3-d%") == Expression(
        (
            DiceTerm(2, 8, -1, True, ("h", 1)),
            Constant(3, 1),
            DiceTerm(1, 100, -1, False, None),
        )
    )


def test_parse_accepts_an_expression_and_caches_text() -> None:
    expression = parse("1d6")
    assert parse(expression) is expression
    assert parse("1d6") is expression  # lru cache on the text


def test_ast_values_are_frozen_and_hashable() -> None:
    expression = parse("2d6+1")
    with pytest.raises(AttributeError):
        expression.terms = ()  # type: ignore[misc]
    assert hash(expression) == hash(parse("2D6 + 1"))
    assert expression.dice_count == 2
    assert expression.dice_terms == (DiceTerm(2, 6),)


# --------------------------------------------------------------------------------------
# Parser: errors, with their position (0-based index in the text as given).


def test_error_message_format_of_the_spec() -> None:
    with pytest.raises(DiceSyntaxError) as info:
        parse("3d")
    assert str(info.value) == (
        "«\u00a03d\u00a0»\u00a0: nombre de faces manquant après «\u00a0d\u00a0» (position 2) "
         "(CORE-DICE)"
    )
    assert info.value.position == 2
    assert info.value.rule == "CORE-DICE"
    assert isinstance(info.value, DiceError)
    assert isinstance(info.value, EscarmoucheError)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    ("text", "position", "fragment"),
    [
        ("", 0, "expression de dés vide"),
        ("   ", 3, "expression de dés vide"),
        ("d", 1, "nombre de faces manquant après «\u00a0d\u00a0»"),
        ("2D", 2, "nombre de faces manquant après «\u00a0D\u00a0»"),
        ("1dx", 2, "nombre de faces manquant après «\u00a0d\u00a0»"),
        ("2d0", 2, "un dé a de 1 à 1000 faces, pas 0"),
        ("2d1001", 2, "un dé a de 1 à 1000 faces, pas 1001"),
        ("0d6", 0, "il faut au moins un dé par terme, pas 0"),
        ("1001d6", 0, "1001 dés, au plus 1000 dés par expression"),
        ("1d6kh3", 5, "impossible de garder 3 dés sur 1"),
        ("2d6kl0", 5, "impossible de garder 0 dé sur 2"),
        ("1d6kh", 5, "nombre de dés à garder manquant après «\u00a0kh\u00a0»"),
        ("2d6k1", 3, ("«\u00a0k\u00a0» doit être suivi de «\u00a0h\u00a0» (plus hauts) ou "
                      "«\u00a0l\u00a0» (plus bas)")),
        ("1d6!!", 4, "«\u00a0!\u00a0» en double"),
        ("2d6kh1!", 6, "«\u00a0!\u00a0» doit précéder «\u00a0kh\u00a0»/«\u00a0kl\u00a0»"),
        ("2d6kh1kl1", 6, "un seul «\u00a0kh\u00a0»/«\u00a0kl\u00a0» par terme"),
        ("5!", 1, "«\u00a0!\u00a0» inattendu, seul un dé peut exploser"),
        ("1d1!", 3, "un d1 ne peut pas exploser"),
        ("1d6x", 3, ("«\u00a0x\u00a0» inattendu, «\u00a0+\u00a0», «\u00a0-\u00a0» ou la fin "
                     "attendu")),
        ("1d6 2", 4, "nombre «\u00a02\u00a0» inattendu"),
        ("1d6+", 4, "terme manquant après «\u00a0+\u00a0»"),
        ("-", 1, "terme manquant après «\u00a0-\u00a0»"),
        ("1d6++2", 4, "«\u00a0+\u00a0» inattendu, un nombre ou un dé"),
        ("x", 0, "«\u00a0x\u00a0» inattendu"),
        ("1d%%", 3, "«\u00a0%\u00a0» inattendu"),
        ("1000001", 0, "constante 1000001 hors des bornes 0–1000000"),
        ("99999999999d6", 0, "nombre 99999999999 trop grand"),
        ("500d6+501d6", 6, "1001 dés au total, au plus 1000 dés par expression"),
        ("1d6\x00", 3, "«\u00a0\N{REPLACEMENT CHARACTER}\u00a0» inattendu"),
    ],
)
def test_parse_errors(text: str, position: int, fragment: str) -> None:
    with pytest.raises(DiceSyntaxError) as info:
        parse(text)
    message = str(info.value)
    assert info.value.position == position
    assert f"(position {position}) (CORE-DICE)" in message
    assert fragment in message


def test_parse_rejects_non_text() -> None:
    with pytest.raises(DiceError, match="un texte est attendu"):
        parse(12)  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------
# Bounds (CORE-DICE), at the limit and one past it.


def test_bound_dice_count() -> None:
    assert parse(f"{MAX_DICE}d6").dice_count == MAX_DICE
    assert parse("500d6+500d6").dice_count == MAX_DICE
    with pytest.raises(DiceError):
        parse(f"{MAX_DICE + 1}d6")
    with pytest.raises(DiceError):
        parse("500d6+500d6+d4")


def test_bound_faces() -> None:
    assert parse(f"d{MAX_FACES}").terms[0] == DiceTerm(1, MAX_FACES)
    with pytest.raises(DiceError):
        parse(f"d{MAX_FACES + 1}")


def test_bound_constant() -> None:
    assert parse(f"-{MAX_CONSTANT}").terms == (Constant(MAX_CONSTANT, -1),)
    with pytest.raises(DiceError):
        parse(f"{MAX_CONSTANT + 1}")


def test_bound_length() -> None:
    text = "1" + "+1" * ((MAX_EXPRESSION_LENGTH - 1) // 2)
    assert len(text) == MAX_EXPRESSION_LENGTH - 1
    parse(text)
    parse(text + " ")
    with pytest.raises(DiceError, match="expression trop longue"):
        parse(text + "  ")


def test_bound_terms() -> None:
    assert len(Expression((Constant(1),) * MAX_TERMS).terms) == MAX_TERMS
    with pytest.raises(DiceError):
        Expression((Constant(1),) * (MAX_TERMS + 1))
    assert len(parse("+".join(["1"] * MAX_TERMS)).terms) == MAX_TERMS


@pytest.mark.parametrize(
    "build",
    [
        lambda: DiceTerm(0, 6),
        lambda: DiceTerm(1, 0),
        lambda: DiceTerm(MAX_DICE + 1, 6),
        lambda: DiceTerm(1, 1, explode=True),
        lambda: DiceTerm(1, 6, keep=("h", 2)),
        lambda: DiceTerm(2, 6, keep=("x", 1)),
        lambda: DiceTerm(2, 6, keep="h1"),  # type: ignore[arg-type]
        lambda: DiceTerm(2, 6, sign=2),
        lambda: DiceTerm(2, 6, sign=True),
        lambda: DiceTerm(2.0, 6),  # type: ignore[arg-type]
        lambda: DiceTerm(2, 6, explode=1),  # type: ignore[arg-type]
        lambda: Constant(-1),
        lambda: Constant(MAX_CONSTANT + 1),
        lambda: Constant(True),
        lambda: Expression(()),
        lambda: Expression((DiceTerm(600, 6), DiceTerm(401, 6))),
        lambda: Expression(("1d6",)),  # type: ignore[arg-type]
    ],
)
def test_ast_validates_its_bounds(build: object) -> None:
    assert callable(build)
    with pytest.raises(DiceError):
        build()


# --------------------------------------------------------------------------------------
# ScriptedRolls and exact rolls.


def test_scripted_rolls_out_of_range_and_exhausted() -> None:
    with pytest.raises(EscarmoucheError, match="hors de 1–6"):
        roll("1d6", ScriptedRolls([7]))
    with pytest.raises(EscarmoucheError, match="hors de 1–6"):
        roll("1d6", ScriptedRolls([0]))
    with pytest.raises(EscarmoucheError, match="plus aucun résultat"):
        roll("2d6", ScriptedRolls([3]))
    rng = ScriptedRolls([3, 4, 5])
    assert roll("2d6", rng).total == 7
    assert rng.used == 2 and rng.remaining == 1


@pytest.mark.parametrize(
    ("expr", "values", "total", "text"),
    [
        ("1d100", [37], 37, "1d100 : [37] = 37"),
        ("2d12kh1", [7, 3], 7, "2d12kh1 : [7, (3)] = 7"),
        ("2d12kl1", [7, 3], 3, "2d12kl1 : [(7), 3] = 3"),
        ("2d12kh1", [5, 5], 5, "2d12kh1 : [5, (5)] = 5"),
        ("2d12kl1", [5, 5], 5, "2d12kl1 : [5, (5)] = 5"),
        ("4d6kh3", [1, 6, 1, 4], 11, "4d6kh3 : [1, 6, (1), 4] = 11"),
        ("2d8!+2", [8, 8, 3, 5], 26, "2d8!+2 : [8!+8!+3, 5] + 2 = 26"),
        ("1d8!+2", [7], 9, "1d8!+2 : [7] + 2 = 9"),
        ("-1d4+3-2d6kl1", [2, 5, 1], 0, "-1d4+3-2d6kl1 : −[2] + 3 − [(5), 1] = 0"),
        ("2d6!kh1", [6, 2, 5], 8, "2d6!kh1 : [6!+2, (5)] = 8"),
        ("2d6!kl1", [6, 2, 5], 5, "2d6!kl1 : [(6!+2), 5] = 5"),
        ("10", [], 10, "10 : 10 = 10"),
    ],
)
def test_roll_with_scripted_values(expr: str, values: list[int], total: int, text: str) -> None:
    rng = ScriptedRolls(values)
    result = roll(expr, rng)
    assert result.total == total
    assert str(result) == text
    assert rng.remaining == 0


def test_roll_draw_order_and_records() -> None:
    """Terms left to right, dice in order, explosion draws right after their die."""
    result = roll("1d6!+2d4kh1-1", ScriptedRolls([6, 2, 3, 4]))
    assert result.draws == ((6, 6), (6, 2), (4, 3), (4, 4))
    assert [d.value for d in result.dice] == [8, 3, 4]
    assert [d.kept for d in result.dice] == [True, False, True]
    assert [t.total for t in result.terms] == [8, 4, -1]
    assert result.total == 11
    assert result.records("dégâts") == (
        DieRecord(6, 6, "dégâts"),
        DieRecord(6, 2, "dégâts"),
        DieRecord(4, 3, "dégâts"),
        DieRecord(4, 4, "dégâts"),
    )


def test_d12_explode_1_cap_keeps_the_last_draw_as_it_is() -> None:
    """D12-EXPLODE-1: at most MAX_EXPLODE_DEPTH extra draws; the last one is not rerolled."""
    sixes = [6] * (MAX_EXPLODE_DEPTH + 2)
    rng = ScriptedRolls(sixes)
    result = roll("1d6!", rng)
    assert rng.used == MAX_EXPLODE_DEPTH + 1  # the extra scripted 6 is never drawn
    assert result.total == 6 * (MAX_EXPLODE_DEPTH + 1) == maximum("1d6!")
    (die,) = result.dice
    assert die.capped
    assert str(result).endswith("6!+6] = 126")

    rng = ScriptedRolls([6] * MAX_EXPLODE_DEPTH + [3])
    result = roll("1d6!", rng)
    assert result.total == 6 * MAX_EXPLODE_DEPTH + 3
    assert not result.dice[0].capped


def test_d12_explode_1_cap_in_the_distribution() -> None:
    """D12-EXPLODE-1: the top total is reached by 1 + MAX_EXPLODE_DEPTH maxima only."""
    dist = distribution("1d6!")
    top = 6 * (MAX_EXPLODE_DEPTH + 1)
    assert max(dist) == top
    assert dist[top] == Fraction(1, 6 ** (MAX_EXPLODE_DEPTH + 1))
    # One below the top: MAX_EXPLODE_DEPTH sixes then a 5.
    assert dist[top - 1] == Fraction(1, 6 ** (MAX_EXPLODE_DEPTH + 1))
    # Totals that are multiples of 6 below the cap cannot happen (a 6 always explodes).
    assert 6 not in dist and 12 not in dist
    assert dist[7] == Fraction(1, 36)


def test_roll_rejects_something_that_is_not_an_rng() -> None:
    with pytest.raises(EscarmoucheError, match="CORE-RNG"):
        roll("1d6", 42)  # type: ignore[arg-type]


def test_roll_accepts_an_expression_and_random() -> None:
    expression = parse("3d6+1")
    a = roll(expression, random.Random(42))
    b = roll("3d6+1", random.Random(42))
    assert a == b
    assert a.expression is expression
    assert isinstance(random.Random(), D.Rng)


# --------------------------------------------------------------------------------------
# Exact distributions.


def _brute_force(expr: str) -> dict[int, Fraction]:
    """The law of ``roll``'s total, by walking every possible sequence of draws."""

    class Need(Exception):
        def __init__(self, faces: int) -> None:
            self.faces = faces

    class Prefix:
        def __init__(self, draws: tuple[int, ...]) -> None:
            self.draws = draws
            self.i = 0

        def randint(self, a: int, b: int) -> int:
            if self.i == len(self.draws):
                raise Need(b)
            self.i += 1
            return self.draws[self.i - 1]

    law: dict[int, Fraction] = defaultdict(Fraction)
    stack: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    while stack:
        prefix, p = stack.pop()
        try:
            total = roll(expr, Prefix(prefix)).total
        except Need as need:
            for v in range(1, need.faces + 1):
                stack.append(((*prefix, v), p / need.faces))
            continue
        law[total] += p
    return dict(law)


@pytest.mark.parametrize(
    "expr", ["1d2!", "2d3!kh1", "2d2!kl1", "1d3!-1d2+1", "3d2kh2", "3d3kl2", "-2d2!"]
)
def test_distribution_agrees_with_every_sequence_of_draws(expr: str) -> None:
    """roll and distribution share the explosion and keep semantics (D12-EXPLODE-1)."""
    assert dict(distribution(expr)) == _brute_force(expr)


def test_distribution_known_values() -> None:
    assert distribution("2d6")[7] == Fraction(1, 6)
    assert distribution("2d12kh1")[12] == Fraction(23, 144)
    assert distribution("2d12kl1")[1] == Fraction(23, 144)
    assert dict(distribution("d%")) == {v: Fraction(1, 100) for v in range(1, 101)}
    assert dict(distribution("7")) == {7: Fraction(1)}
    assert dict(distribution("1d4-10")) == {v: Fraction(1, 4) for v in range(-9, -5)}
    assert dict(distribution("-1d2")) == {-2: Fraction(1, 2), -1: Fraction(1, 2)}
    assert distribution("4d6kh3")[18] == Fraction(21, 1296)


def test_distribution_is_read_only_sorted_and_cached() -> None:
    dist = distribution("3d6")
    assert isinstance(dist, Mapping)
    with pytest.raises(TypeError):
        dist[3] = Fraction(0)  # type: ignore[index]
    assert list(dist) == sorted(dist)
    assert distribution("3D6") is dist
    assert distribution(parse("3d6")) is dist
    D.clear_caches()
    assert distribution("3d6") == dist


def test_distribution_cost_guard() -> None:
    for expr in ("1000d1000", "100d100", "20d20!", "5d30!kh3", "1000d20!kh1", "1d1000!+1d1000!"):
        assert exact_cost(expr) > MAX_EXACT_COST
        with pytest.raises(DiceError, match="calcul exact trop coûteux"):
            distribution(expr)
    for expr in ("10d10!", "20d20", "1d1000!", "4d6kh3", "2d20!kh1", "1000d1000kh1"):
        assert exact_cost(expr) <= MAX_EXACT_COST
    assert sum(distribution("10d10!").values()) == 1
    assert sum(distribution("20d20").values()) == 1


def test_cost_guard_still_allows_mean_and_bounds() -> None:
    assert mean("1000d1000") == 1000 * Fraction(1001, 2)
    assert minimum("1000d1000") == 1000
    assert maximum("1000d1000") == 1000 * 1000
    assert roll("1000d1000", random.Random(0)).total in range(1000, 1_000_001)


def test_mean_probability_minimum_maximum() -> None:
    assert mean("1d6") == Fraction(7, 2)
    assert mean("2d6+3") == 10
    for expr in ("1d6!", "2d20kh1", "3d8!kl2-2", "1d10!-1d4"):
        dist = distribution(expr)
        assert mean(expr) == sum(v * p for v, p in dist.items())
        assert minimum(expr) == min(dist)
        assert maximum(expr) == max(dist)
    assert probability("1d12+3", (">=", 12)) == Fraction(1, 3)
    assert probability("1d12+3", ("≥", 12)) == Fraction(1, 3)
    assert probability("1d6", ("==", 6)) == Fraction(1, 6)
    assert probability("1d6", ("!=", 6)) == Fraction(5, 6)
    assert probability("1d6", ("<", 3)) == Fraction(1, 3)
    assert probability("2d6", lambda total: total % 2 == 0) == Fraction(1, 2)
    with pytest.raises(DiceError, match="«\u00a0~\u00a0» refusée pour"
                                        " «\u00a0comparaison\u00a0»\u00a0: comparaison inconnue"):
        probability("1d6", ("~", 3))


# --------------------------------------------------------------------------------------
# Transformations (D12-ADV-1, D12-CRIT-2).


def test_d12_adv_1_advantage_and_disadvantage() -> None:
    assert str(with_advantage("1d12+3")) == "2d12kh1+3"
    assert str(with_disadvantage("1d12+3")) == "2d12kl1+3"
    assert str(with_advantage("5+1d12!-1d4")) == "5+2d12!kh1-1d4"
    # One advantage and one disadvantage cancel; advantage does not stack.
    assert str(with_advantage(with_disadvantage("1d12+3"))) == "1d12+3"
    assert str(with_disadvantage(with_advantage("1d12"))) == "1d12"
    assert str(with_advantage("2d12kh1")) == "2d12kh1"
    with pytest.raises(DiceError, match="l’avantage s’applique à un seul dé"):
        with_advantage("2d6")
    with pytest.raises(DiceError, match="aucun dé"):
        with_disadvantage("5")


def test_d12_adv_1_roll_and_distribution_agree() -> None:
    expression = with_advantage("1d12+2")
    assert roll(expression, ScriptedRolls([4, 11])).total == 13
    assert distribution(expression)[14] == Fraction(23, 144)


def test_d12_crit_2_maximum_and_exploding_die() -> None:
    assert max_dice_total("1d8+2") == 10
    assert max_dice_total("2d12kh1+1") == 13
    assert max_dice_total("-1d4+5") == 1
    assert max_dice_total("1d6!") == 6  # no explosion
    assert str(add_exploding_die("1d8+2")) == "2d8!+2"
    assert str(add_exploding_die("1d6+1d4")) == "2d6!+1d4!"
    assert str(add_exploding_die("3+2d6kh1")) == "3+3d6!kh1"
    with pytest.raises(DiceError, match="d1 ne peut pas exploser"):
        add_exploding_die("1d6+1d1")
    with pytest.raises(DiceError, match="aucun dé"):
        add_exploding_die("4")
    with pytest.raises(DiceError, match="au plus 1000"):
        add_exploding_die("1000d6")


# --------------------------------------------------------------------------------------
# Properties.

_ALPHABET = "0123456789dD%!kKhHlL+-\u2212 x"


@settings(max_examples=400, deadline=1000)
@given(st.one_of(st.text(max_size=40), st.text(alphabet=_ALPHABET, max_size=40)))
def test_any_text_parses_or_raises_a_package_error(text: str) -> None:
    try:
        expression = parse(text)
    except EscarmoucheError:
        return
    canonical = str(expression)
    if len(canonical) <= MAX_EXPRESSION_LENGTH:
        assert parse(canonical) == expression
    roll(expression, random.Random(0))


@settings(max_examples=50, deadline=3000)
@given(st.text(alphabet=_ALPHABET, min_size=150, max_size=300))
def test_long_texts_never_hang(text: str) -> None:
    try:
        expression = parse(text)
    except EscarmoucheError:
        return
    roll(expression, random.Random(0))
    try:
        distribution(expression)
    except DiceError as err:
        assert "calcul exact trop coûteux" in str(err)


@st.composite
def small_terms(draw: st.DrawFn) -> Constant | DiceTerm:
    sign = draw(st.sampled_from([1, 1, -1]))
    if draw(st.integers(0, 3)) == 0:
        return Constant(draw(st.integers(0, 12)), sign)
    count = draw(st.integers(1, 3))
    faces = draw(st.integers(1, 8))
    explode = faces >= 2 and draw(st.booleans())
    keep = None
    if draw(st.booleans()):
        keep = (draw(st.sampled_from(["h", "l"])), draw(st.integers(1, count)))
    return DiceTerm(count, faces, sign, explode, keep)


small_expressions = st.lists(small_terms(), min_size=1, max_size=3).map(
    lambda terms: Expression(tuple(terms))
)


def _spell(expression: Expression, data: st.DataObject) -> str:
    """A non-canonical spelling of the expression: random case, spaces, d% and dX."""
    parts = []
    for i, term in enumerate(expression.terms):
        sep = "-" if term.sign < 0 else ("+" if i else data.draw(st.sampled_from(["", "+"])))
        space = data.draw(st.sampled_from(["", " ", "  "]))
        if isinstance(term, Constant):
            text = str(term.value)
        else:
            count = "" if term.count == 1 and data.draw(st.booleans()) else str(term.count)
            faces = "%" if term.faces == 100 else str(term.faces)
            text = f"{count}{data.draw(st.sampled_from('dD'))}{faces}"
            text += "!" if term.explode else ""
            if term.keep:
                k = data.draw(st.sampled_from(["k", "K"]))
                kind = data.draw(st.sampled_from([term.keep[0], term.keep[0].upper()]))
                text += f"{k}{kind}{term.keep[1]}"
        parts.append(f"{space}{sep}{space}{text}")
    return "".join(parts)


@settings(max_examples=150, deadline=5000, suppress_health_check=[HealthCheck.too_slow])
@given(small_expressions, st.data())
def test_grammar_strategy_round_trips(expression: Expression, data: st.DataObject) -> None:
    text = _spell(expression, data)
    assert parse(text) == expression
    assert parse(str(expression)) == expression


@settings(max_examples=120, deadline=5000, suppress_health_check=[HealthCheck.too_slow])
@given(small_expressions, st.integers(0, 2**32))
def test_distribution_invariants(expression: Expression, seed: int) -> None:
    dist = distribution(expression)
    assert sum(dist.values()) == 1
    assert all(p > 0 for p in dist.values())
    assert list(dist) == sorted(dist)
    assert min(dist) == minimum(expression)
    assert max(dist) == maximum(expression)
    assert mean(expression) == sum(v * p for v, p in dist.items())
    rng = random.Random(seed)
    for _ in range(20):
        assert roll(expression, rng).total in dist
    assert roll(expression, random.Random(seed)) == roll(expression, random.Random(seed))


@settings(max_examples=100, deadline=2000)
@given(small_expressions, st.integers(0, 2**32))
def test_roll_keeps_every_die(expression: Expression, seed: int) -> None:
    result = roll(expression, random.Random(seed))
    assert len(result.dice) == expression.dice_count
    for term_roll in result.terms:
        term = term_roll.term
        if isinstance(term, DiceTerm):
            kept = [d for d in term_roll.dice if d.kept]
            assert len(kept) == term.kept
            assert term_roll.total == term.sign * sum(d.value for d in kept)
            if term.keep is not None:
                dropped = [d.value for d in term_roll.dice if not d.kept]
                for value in dropped:
                    if term.keep[0] == "h":
                        assert all(value <= d.value for d in kept)
                    else:
                        assert all(value >= d.value for d in kept)
            for die in term_roll.dice:
                assert len(die.draws) <= 1 + MAX_EXPLODE_DEPTH
                assert all(1 <= v <= term.faces for v in die.draws)
                assert all(v == term.faces for v in die.draws[:-1])
    assert result.total == sum(t.total for t in result.terms)
    replay = roll(expression, ScriptedRolls(v for _, v in result.draws))
    assert replay == result


def test_check_expression_names_field_owner_and_rule_core_dice() -> None:
    """CORE-DICE: a typed dice expression is returned unchanged or refused in French,
    naming the field, its owner, the value and the rule."""
    from escarmouche.dice import check_expression

    assert check_expression("1d8+2") == "1d8+2"
    with pytest.raises(DiceError) as err:
        check_expression("1d8+", who="Grolk", rule="D12-CRIT-2")
    text = str(err.value)
    assert text.startswith("Valeur «\u00a01d8+\u00a0» refusée pour «\u00a0arme de Grolk\u00a0»"
                           "\u00a0: ") and text.endswith("(CORE-DICE, D12-CRIT-2).")
    assert err.value.rule == "D12-CRIT-2"
    with pytest.raises(DiceError, match="une expression de dés est attendue"):
        check_expression(8)

    def no_explosion(text: str) -> None:
        if "!" in text:
            raise DiceError("explosion interdite (CORE-DICE)")

    with pytest.raises(DiceError, match="explosion interdite"):
        check_expression("1d6!", check=no_explosion)


# -- the two refusals a fuzz sample found ---------------------------------------------------


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


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(count=st.integers(1, 3), faces=st.sampled_from([2, 3, 4, 6, 8]),
       explode=st.booleans(), keep=st.sampled_from(["", "kh1", "kl1"]),
       constant=st.integers(-3, 3))
def test_draw_law_is_the_distribution_with_draws_that_roll_it_core_dice(
        count: int, faces: int, explode: bool, keep: str, constant: int) -> None:
    """CORE-DICE, D12-EXPLODE-1: ``draw_law`` has ``distribution``'s chances, one
    total each, and each total's draws, rolled through ``ScriptedRolls``, give that
    total with every draw used (what the exact duel solver replays)."""
    if keep and count < 2:
        keep = ""
    if keep and explode:  # kept dice × exploding chains: under the bound at two dice
        count = 2
    expr = f"{count}d{faces}{'!' if explode else ''}{keep}{constant:+d}"
    law = D.draw_law(expr)
    assert {t: p for p, t, _ in law} == dict(D.distribution(expr))
    assert sum(p for p, _, _ in law) == 1
    for _, total, draws in law:
        scripted = ScriptedRolls(list(draws))
        assert D.roll(expr, scripted).total == total
        assert scripted.remaining == 0
