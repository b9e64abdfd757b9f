"""Prose values from the engine: MyST substitutions filled when the book is built.

A number that the book's prose takes from the engine (a threshold, a default, a bonus,
a modifier) is written ``{{ rb_crit_success_max }}`` in the page, never as a literal: at
``config-inited`` this extension reads every fact of :data:`FACTS` from the engine and
puts it, formatted in French, into ``myst_substitutions`` (and enables MyST's
``substitution`` extension). The JupyterLite copies of the notebooks get the same
values through :func:`substitute` (``book/_ext/escarmouche_jupyterlite.py``).

``tests/faces/book/test_facts.py`` is the drift test: every ``{{ name }}`` in the book is a
fact, every fact follows the engine (it changes when the engine's default changes), and
no page states a fact's value as a literal in the phrasings listed in :data:`PHRASINGS`.

Each getter reads the engine at call time (``System.default_rules()`` and the rules
modules' constants), so a changed default reaches the prose at the next build;
:func:`facts` can be given other default rules (an earlier edition's) instead.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from escarmouche.text import fmt


def _rb() -> Any:
    from escarmouche.systems.rulebook import rules
    return rules


def _d100() -> Any:
    from escarmouche.systems.d100 import rules
    return rules


def _d100_narration() -> Any:
    from escarmouche.systems.d100 import narration
    return narration


def _d12() -> Any:
    from escarmouche.systems.d12 import rules
    return rules


def _d12_odds() -> Any:
    from escarmouche.systems.d12 import odds
    return odds


def _d20() -> Any:
    from escarmouche.systems.d20 import rules
    return rules


def _defaults(system: str) -> Any:
    """The default rules the engine plays for ``system`` now (``System.default_rules``,
    from the option declarations): one source for the prose and the engine."""
    from escarmouche import systems

    return systems.get(system).default_rules()


#: the default rules a fact reads, by system name: the engine's (:func:`_defaults`), or
#: those :func:`facts` is given (a previous edition's)
Defaults = Callable[[str], Any]


def _modifier(value: int) -> str:
    """A modifier as the prose writes it: « −20 », « +5 »."""
    return fmt.signed(value)


def _only(n: int, noun: str) -> str:
    """« qu’une parade », « que deux parades », « aucune parade » (after « ne peut
    tenter »): the count in words, elided as French writes it."""
    words = fmt.counted(n, noun, feminine=True)
    if n == 0:
        return words  # « ne peut tenter aucune esquive »
    return ("qu’" if words[0] in "aeiouyéh" else "que ") + words


def _label(defaults: Defaults, system: str, option: str) -> str:
    """The French label of an option's default value (in ``defaults``), as its ``Rules``
    field declares it (:meth:`escarmouche.options.Option.value_label`)."""
    from escarmouche.options import find

    rules = defaults(system)
    return find(rules, option).value_label(getattr(rules, option))


#: name → a function that reads the value, in French, from the default rules it is given
#: (:data:`Defaults`) or from the engine's constants
FACTS: Mapping[str, Callable[[Defaults], str]] = {
    # Rulebook (RB-D100-1, RB-SURPRISE-2, RB-SPEED-3)
    "rb_crit_success_max": lambda d: fmt.number(d("rulebook").crit_success_max),
    "rb_crit_failure_min": lambda d: fmt.number(d("rulebook").crit_failure_min),
    "rb_surprise_aggregate": lambda d: _label(d, "rulebook", "surprise_aggregate"),
    "rb_hyperactive_slot": lambda d: _label(d, "rulebook", "hyperactive_slot"),
    # d100 (D100-TIME-1, D100-ATK-5, D100-RANGED-4/5, D100-PARRY-3, D100-DODGE-2, jumps)
    "d100_round_seconds": lambda d: fmt.number(_d100_narration().ROUND_SECONDS),
    "d100_rounds_per_minute": lambda d: fmt.number(_d100_narration().ROUNDS_PER_MINUTE),
    "d100_off_hand": lambda d: _modifier(d("d100").off_hand_modifier),
    "d100_into_melee": lambda d: _modifier(d("d100").shooting_into_melee_modifier),
    "d100_beyond_short": lambda d: _modifier(d("d100").beyond_short_range_modifier),
    "d100_desperate_shot": lambda d: fmt.number(d("d100").desperate_shot_modifier),
    "d100_max_range_factor": lambda d: fmt.number(d("d100").max_range_factor),
    "d100_parries_per_round": lambda d: fmt.number(d("d100").parries_per_round),
    "d100_dodges_per_round": lambda d: fmt.number(d("d100").dodges_per_round),
    "d100_parries_only": lambda d: _only(d("d100").parries_per_round, "parade"),
    "d100_dodges_only": lambda d: _only(d("d100").dodges_per_round, "esquive"),
    "d100_drop_step": lambda d: fmt.number(d("d100").drop_step),
    "d100_run_up": lambda d: fmt.number(d("d100").long_jump_run_up),
    "d100_failure_degree": lambda d: fmt.number(d("d100").failure_degree),
    # d12 (D12-TIME-1, D12-INIT-5, D12-CRIT-1/2)
    "d12_die": lambda d: fmt.number(_d12().ATTACK_DIE),
    "d12_environment_initiative": lambda d: fmt.number(_d12().ENVIRONMENT_INITIATIVE),
    "d12_turns_per_minute": lambda d: fmt.number(_d12().TURNS_PER_MINUTE),
    "d12_turn_seconds": lambda d: " à ".join(fmt.number(s) for s in _d12().TURN_SECONDS),
    "d12_default_weapon": lambda d: str(d("d12").default_weapon),
    "d12_max_rerolls": lambda d: fmt.plural(d("d12").max_initiative_rerolls, "relance"),
    "d12_max_roll_offs": lambda d: fmt.plural(d("d12").max_roll_off_rounds,
                                              "jet de départage", "jets de départage"),
    "d12_crit_odds": lambda d: fmt.percent(_d12_odds().critical_odds("normal")),
    "d12_crit_odds_advantage": lambda d: fmt.percent(_d12_odds().critical_odds("avantage")),
    "d12_crit_odds_disadvantage": lambda d: fmt.percent(_d12_odds().critical_odds("desavantage")),
    # d20 (D20-TIME-1, D20-END-1, D20-IMM-1)
    "d20_round_seconds": lambda d: fmt.number(_d20().ROUND_SECONDS),
    "d20_default_weapon": lambda d: str(d("d20").default_weapon),
    "d20_save_target": lambda d: fmt.number(d("d20").save_target),
    "d20_max_roll_offs": lambda d: fmt.plural(d("d20").max_roll_off_rounds,
                                              "jet de départage", "jets de départage"),
    "d20_dwarf_poison": lambda d: _modifier(_d20().RACIAL_SAVE_BONUSES["nain"]["poison"]),
    "d20_halfling_fear": lambda d: _modifier(_d20().RACIAL_SAVE_BONUSES["halfelin"]["terreur"]),
    "d20_immediate_reset": lambda d: _label(d, "d20", "immediate_reset"),
}

#: phrasings in which a fact would be written as a literal: the drift test fails when a
#: page matches one (the value must come from ``{{ name }}``). ``{n}`` is a number.
PHRASINGS: Mapping[str, tuple[str, ...]] = {
    "rb_crit_success_max": (r"(?:critique|D100)[^.\n]{{0,40}}de 1 à {n}\b",
                            r"de 1 à {n}\b[^.\n]{{0,20}}critique"),
    "rb_crit_failure_min": (r"résultat (?:est )?de {n} à 100\b", r"seuils par défaut : {n} et"),
    "d100_round_seconds": (r"à peu près à {n} secondes",),
    "d100_off_hand": (r"main non directrice[^.\n{{}}]{{0,40}}?{m}\b",),
    "d100_drop_step": (r"jet d’Ag tous les {n} m", r"test d’Ag par tranche[^.\n]{{0,20}} {n} m"),
    "d100_run_up": (r"élan d’au moins {n} m", r"course d’au moins {n} m"),
    "d12_turns_per_minute": (r"{n} tours font une minute",),
    "d20_save_target": (r"réussi sur {n} ou plus", r"réussite sur {n} ou plus"),
}

_NUMBER = r"\d+"
_MODIFIER = r"(?<!\w)[−+-]\d+"
_SUBSTITUTION = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")


def facts(rules: Mapping[str, Any] | None = None) -> dict[str, str]:
    """Every fact, read from the engine now, formatted in French. ``rules``, by system
    name, are read instead of that system's default rules (the previous edition's rules,
    when the edition tool finds which rule statements quote a changed default): passed
    by argument, the registry's systems are left alone."""
    given = dict(rules or {})

    def defaults(system: str) -> Any:
        return given[system] if system in given else _defaults(system)

    return {name: get(defaults) for name, get in FACTS.items()}


def phrasing_patterns() -> dict[str, list[re.Pattern[str]]]:
    """The :data:`PHRASINGS` as compiled patterns (any number in place of ``{n}``)."""
    return {name: [re.compile(p.format(n=_NUMBER, m=_MODIFIER)) for p in patterns]
            for name, patterns in PHRASINGS.items()}


def substitute(text: str, values: Mapping[str, str] | None = None) -> str:
    """``text`` with every ``{{ name }}`` of a fact replaced by its value (others kept)."""
    table = facts() if values is None else values
    return _SUBSTITUTION.sub(lambda m: table.get(m.group(1), m.group(0)), text)


def names_used(text: str) -> list[str]:
    """The substitution names that ``text`` uses, in order."""
    return _SUBSTITUTION.findall(text)


def fill(app: Any, config: Any) -> None:
    """``config-inited``: the facts into ``myst_substitutions``, the extension enabled."""
    substitutions = dict(getattr(config, "myst_substitutions", None) or {})
    substitutions.update(facts())
    config.myst_substitutions = substitutions
    extensions = list(getattr(config, "myst_enable_extensions", None) or [])
    if "substitution" not in extensions:
        extensions.append("substitution")
        config.myst_enable_extensions = extensions


#: the style of the aide-mémoire pages, which are made mostly of these facts
AIDE_MEMOIRE_CSS = "escarmouche-aide-memoire.css"


def setup(app: Any) -> dict[str, Any]:
    app.add_css_file(AIDE_MEMOIRE_CSS)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
