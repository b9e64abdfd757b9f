"""The dice notation (CORE-DICE): tokenizer, recursive-descent parser, :func:`parse`.

:func:`parse` turns a text such as ``2d8! + 2`` into an :class:`Expression` (cached);
a malformed text raises :class:`DiceSyntaxError`, whose message ends with the 0-based
position of the problem. :func:`check_expression` checks a dice expression typed by a
user (a weapon's damage) and names the field in its error. The notation is described in
:mod:`escarmouche.dice`.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from escarmouche.dice.expression import (
    MAX_DICE,
    MAX_EXPRESSION_LENGTH,
    RULE,
    Constant,
    DiceTerm,
    Expression,
    Term,
    _constant_problem,
    _count_problem,
    _error,
    _explode_problem,
    _faces_problem,
    _keep_problem,
    _show,
)
from escarmouche.errors import DiceError, field_label, invalid, shown

__all__ = ["DiceSyntaxError", "check_expression", "parse"]


class DiceSyntaxError(DiceError):
    """A dice expression that does not follow the notation (CORE-DICE).

    ``position`` is the 0-based index in the text of the character where the problem
    was found (the length of the text when it ends too early).
    """

    def __init__(self, text: str, position: int, why: str) -> None:
        self.position = position
        super().__init__(
            f"« {_show(text)} » : {why} (position {position}) ({RULE})",
            field="dés",
            value=text,
            rule=RULE,
        )


# --------------------------------------------------------------------------------------
# Tokenizer and recursive-descent parser.

_NUM, _D, _PCT, _BANG, _KH, _KL, _K, _PLUS, _MINUS, _END, _BAD = range(11)


@dataclass(frozen=True, slots=True)
class _Token:
    kind: int
    pos: int
    text: str


def _tokens(text: str) -> Iterator[_Token]:
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
        elif "0" <= c <= "9":
            j = i
            while j < n and "0" <= text[j] <= "9":
                j += 1
            yield _Token(_NUM, i, text[i:j])
            i = j
        elif c in "dD":
            yield _Token(_D, i, c)
            i += 1
        elif c in "kK":
            nxt = text[i + 1] if i + 1 < n else ""
            if nxt and nxt in "hHlL":
                yield _Token(_KH if nxt in "hH" else _KL, i, text[i : i + 2])
                i += 2
            else:
                yield _Token(_K, i, c)
                i += 1
        else:
            kind = {"%": _PCT, "!": _BANG, "+": _PLUS, "-": _MINUS, "\u2212": _MINUS}.get(c, _BAD)
            yield _Token(kind, i, c)
            i += 1
    yield _Token(_END, n, "")


class _Parser:
    """expression := [sign] term (sign term)* END
    term := NUM [dice] | dice ;  dice := D (NUM | '%') ['!'] [(KH | KL) NUM]
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.toks = list(_tokens(text))
        self.i = 0
        self.dice = 0

    @property
    def tok(self) -> _Token:
        return self.toks[self.i]

    def fail(self, pos: int, why: str) -> DiceSyntaxError:
        return DiceSyntaxError(self.text, pos, why)

    def expression(self) -> Expression:
        if self.tok.kind == _END:
            raise self.fail(self.tok.pos, "expression de dés vide")
        terms: list[Term] = []
        sign, after = 1, ""
        if self.tok.kind in (_PLUS, _MINUS):
            sign = -1 if self.tok.kind == _MINUS else 1
            after = self.tok.text
            self.i += 1
        while True:
            terms.append(self.term(sign, after))
            tok = self.tok
            if tok.kind == _END:
                return Expression(tuple(terms))
            if tok.kind in (_PLUS, _MINUS):
                sign = -1 if tok.kind == _MINUS else 1
                after = tok.text
                self.i += 1
                continue
            raise self.fail(tok.pos, self.unexpected_after_term(tok))

    def unexpected_after_term(self, tok: _Token) -> str:
        if tok.kind == _BANG:
            previous = self.toks[self.i - 1]
            if previous.kind == _BANG:
                return "« ! » en double : un dé explose au plus une fois par terme"
            if self.i >= 2 and self.toks[self.i - 2].kind in (_KH, _KL):
                return "« ! » doit précéder « kh »/« kl » (par exemple « 2d8!kh1 »)"
            return "« ! » inattendu, seul un dé peut exploser"
        if tok.kind == _K:
            return "« k » doit être suivi de « h » (plus hauts) ou « l » (plus bas)"
        if tok.kind in (_KH, _KL):
            return f"« {tok.text} » inattendu, un seul « kh »/« kl » par terme de dés"
        if tok.kind == _NUM:
            return f"nombre « {tok.text} » inattendu, « + » ou « - » attendu"
        return f"« {_show(tok.text)} » inattendu, « + », « - » ou la fin attendu"

    def number(self, tok: _Token, why: str) -> int:
        if len(tok.text) > 9:  # any such number is out of every bound
            raise self.fail(tok.pos, f"{why}, nombre {_show(tok.text, 20)} trop grand")
        return int(tok.text)

    def term(self, sign: int, after: str) -> Term:
        tok = self.tok
        start = tok.pos
        if tok.kind == _NUM:
            self.i += 1
            if self.tok.kind != _D:
                value = self.number(tok, "constante")
                problem = _constant_problem(value)
                if problem:
                    raise self.fail(tok.pos, problem)
                return Constant(value, sign)
            count = self.number(tok, "nombre de dés")
            problem = _count_problem(count)
            if problem:
                raise self.fail(tok.pos, problem)
        elif tok.kind == _D:
            count = 1
        elif tok.kind == _END:
            raise self.fail(tok.pos, f"terme manquant après « {after} »")
        else:
            raise self.fail(
                tok.pos,
                f"« {_show(tok.text)} » inattendu, un nombre ou un dé (« d6 », « 2d8 ») attendu",
            )
        d_tok = self.tok
        self.i += 1
        face_tok = self.tok
        if face_tok.kind == _NUM:
            faces = self.number(face_tok, "nombre de faces")
            problem = _faces_problem(faces)
            if problem:
                raise self.fail(face_tok.pos, problem)
        elif face_tok.kind == _PCT:
            faces = 100
        else:
            raise self.fail(face_tok.pos, f"nombre de faces manquant après « {d_tok.text} »")
        self.i += 1
        explode = False
        if self.tok.kind == _BANG:
            problem = _explode_problem(faces)
            if problem:
                raise self.fail(self.tok.pos, problem)
            explode = True
            self.i += 1
        keep: tuple[str, int] | None = None
        if self.tok.kind in (_KH, _KL):
            k_tok = self.tok
            self.i += 1
            n_tok = self.tok
            if n_tok.kind != _NUM:
                raise self.fail(
                    n_tok.pos, f"nombre de dés à garder manquant après « {k_tok.text} »"
                )
            kind = "h" if k_tok.kind == _KH else "l"
            n = self.number(n_tok, "nombre de dés à garder")
            problem = _keep_problem(kind, n, count)
            if problem:
                raise self.fail(n_tok.pos, problem)
            keep = (kind, n)
            self.i += 1
        self.dice += count
        if self.dice > MAX_DICE:
            raise self.fail(
                start, f"{self.dice} dés au total, au plus {MAX_DICE} dés par expression"
            )
        return DiceTerm(count, faces, sign, explode, keep)


def check_expression(
    value: object,
    *,
    field: str = "arme",
    who: str = "",
    rule: str = RULE,
    check: Callable[[str], object] = lambda text: parse(text),
) -> str:
    """A dice expression typed by a user (a weapon's damage, say), checked: returned
    unchanged, or a :class:`DiceError` naming the field, the owner ``who``, the value and
    ``rule`` (besides CORE-DICE). ``check`` may add a system's own requirement."""
    label = field_label(field) + (f" de {who}" if who else "")
    if not isinstance(value, str):
        raise invalid(field, value, rule, "une expression de dés est attendue, par exemple "
                      "« 1d8+2 »", kind=DiceError, label=label)
    try:
        check(value)
    except DiceError as err:
        # the parser's message begins with the expression itself (« « 1d8+ » : … »):
        # said once, in the head (« Valeur « 1d8+ » refusée pour « arme » : terme … »)
        why = re.sub(r"^«[^»]*»[\s\u00a0]*:\s*", "", str(err)).rstrip(".")
        for cited in (RULE, rule):
            why = why.removesuffix(f"({cited})").rstrip()
        rules = RULE if rule == RULE else f"{RULE}, {rule}"
        refusal = invalid(field, value, rules, why, kind=DiceError, label=label)
        refusal.rule = rule
        raise refusal from None
    return value


def parse(expr: str | Expression) -> Expression:
    """Parse dice notation into an :class:`Expression` (an ``Expression`` is returned as is).

    >>> str(parse("2D8! + 2")), str(parse("d%")), str(parse("2d12KH1"))
    ('2d8!+2', '1d100', '2d12kh1')

    Raises :class:`DiceSyntaxError` for malformed text and :class:`DiceError` for a
    text longer than :data:`MAX_EXPRESSION_LENGTH`. Results are cached.
    """
    if isinstance(expr, Expression):
        return expr
    if not isinstance(expr, str):
        raise _error(
            "expression de dés",
            f"un texte est attendu, pas {shown(expr)} ({type(expr).__name__})",
            expr,
        )
    return _parse_cached(expr)


@functools.lru_cache(maxsize=1024)
def _parse_cached(text: str) -> Expression:
    if len(text) > MAX_EXPRESSION_LENGTH:
        raise _error(
            f"« {_show(text)} »",
            f"expression trop longue ({len(text)} caractères, au plus {MAX_EXPRESSION_LENGTH})",
            text,
        )
    return _Parser(text).expression()
