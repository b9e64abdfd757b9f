"""Fuzz targets shared by the property tests (``make test``) and ``make fuzz``.

Each :class:`Target` draws inputs with a Hypothesis strategy that follows the grammar of
what a user types (dice notation, saves, widget boxes, action parameters) and runs one
public entry point with them. The invariants checked for every input:

* **no crash**: it works, or it raises :class:`~escarmouche.EscarmoucheError`; any other
  exception is a crash (recorded with its input);
* **no hang**: each input finishes within :data:`HANG_SECONDS` of CPU time;
* **no change on refusal** (stateful targets): a refused operation leaves
  ``Encounter.to_json()`` and the rng exactly as they were.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import random
import signal
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from escarmouche import Combatant, Effect, EscarmoucheError, dice, systems
from escarmouche.encounter import Encounter
from escarmouche.render import distribution_svg, outcome_bars_svg, timeline_svg
from escarmouche.state import EndCondition
from escarmouche.text.fmt import number, percent
from tests.helpers import ROOT, golden_runner

#: an input that takes more CPU time than this is a hang
HANG_SECONDS = 5.0


class Hang(Exception):
    """Raised by the alarm when one input runs past :data:`HANG_SECONDS`."""


class StateChanged(AssertionError):
    """A refused operation changed the fight or the rng."""


@dataclasses.dataclass
class Report:
    """What one fuzz run found."""

    inputs: int = 0
    refused: int = 0
    crashes: dict[str, str] = dataclasses.field(default_factory=dict)
    hangs: dict[str, str] = dataclasses.field(default_factory=dict)
    state_changes: dict[str, str] = dataclasses.field(default_factory=dict)
    seconds: float = 0.0

    @property
    def clean(self) -> bool:
        return not (self.crashes or self.hangs or self.state_changes)


@dataclasses.dataclass(frozen=True)
class Target:
    name: str
    strategy: st.SearchStrategy[Any]
    run: Callable[[Any], object]


@contextmanager
def _deadline(seconds: float) -> Iterator[None]:
    def _raise(signum: int, frame: object) -> None:
        raise Hang(f"plus de {seconds} s")

    # CPU time of this process (ITIMER_PROF), not wall time: a busy machine (CI, other
    # jobs) must not turn a slow input into a « hang »
    previous = signal.signal(signal.SIGPROF, _raise)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) < 300 else text[:297] + "…"


def fuzz(target: Target, examples: int, report: Report, *, seed: int = 0) -> None:
    """Run ``target`` on ``examples`` generated inputs, recording into ``report``."""

    @settings(max_examples=examples, deadline=None, database=None, derandomize=False,
              phases=[Phase.generate], suppress_health_check=list(HealthCheck))
    @given(st.randoms(use_true_random=False), target.strategy)
    def body(_: random.Random, value: Any) -> None:
        report.inputs += 1
        try:
            with _deadline(HANG_SECONDS):
                target.run(value)
        except EscarmoucheError:
            report.refused += 1
        except Hang:
            report.hangs.setdefault(f"{target.name}: hang", _short(value))
        except StateChanged as err:
            report.state_changes.setdefault(f"{target.name}: {err}", _short(value))
        except Exception as err:
            where = traceback.extract_tb(err.__traceback__)[-1]
            key = f"{target.name}: {type(err).__name__} at {where.filename}:{where.lineno}"
            report.crashes.setdefault(key, f"{_short(value)}\n    {err}")

    start = time.perf_counter()
    random.seed(seed)
    body()
    report.seconds += time.perf_counter() - start


# -- strategies that follow the grammars ------------------------------------------------

_int_text = st.one_of(
    st.integers(-10**6, 10**6).map(str),
    st.integers(0, 9000).map(lambda n: "9" * n),
    st.sampled_from(["", "-", "+", "−3", "1e3", "0x1f", "١٢", "NaN", "inf", " 7 "]),
)

dice_term = st.builds(
    lambda n, faces, bang, keep: f"{n}d{faces}{bang}{keep}",
    st.one_of(st.just(""), st.integers(0, 2000).map(str), _int_text),
    st.one_of(st.integers(0, 1200).map(str), st.just("%"), _int_text),
    st.sampled_from(["", "!", "!!"]),
    st.one_of(st.just(""), st.builds(lambda k, m: f"{k}{m}", st.sampled_from(
        ["kh", "kl", "KH", "k", "h"]), st.integers(0, 30).map(str))),
)
dice_expression = st.one_of(
    st.lists(st.one_of(dice_term, _int_text), min_size=1, max_size=8).flatmap(
        lambda terms: st.lists(st.sampled_from(["+", "-", "−", " + ", "*", ""]),
                               min_size=len(terms), max_size=len(terms)).map(
            lambda ops: "".join(o + t for o, t in zip(ops, terms, strict=True)))),
    st.text(max_size=300),
)

json_leaf = st.one_of(st.none(), st.booleans(), st.integers(-10**40, 10**40),
                      st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=30))
json_value = st.recursive(json_leaf, lambda inner: st.lists(inner, max_size=4)
                          | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                          max_leaves=12)
name_text = st.one_of(st.sampled_from(["Aldric", "Grolk", "", " ", "environnement"]),
                      st.text(max_size=30), st.just("A" * 5000), st.just("\ud800"))


# -- saves -------------------------------------------------------------------------------

#: stats every system accepts, for the fallback roster of a system without golden file
_ALL_STATS = {"HAB": 50, "DIS": 40, "PMR": 40, "PV": 10, "Esprit": 10, "CC": 40, "CT": 40,
              "F": 30, "E": 30, "Ag": 30, "M": 4, "B": 10, "defense": 12, "init": 1,
              "attaque": 3}


@functools.cache
def _golden_fights() -> list[tuple[str, dict[str, Any]]]:
    """Two fights per system: its golden ones (rosters, options and start options that
    make sense for it), else a plain duel."""
    out = []
    for name in systems.NAMES:
        if (golden_runner.GOLDEN / f"{name}.json").exists():
            for fight in golden_runner.load(name)["fights"][:2]:
                out.append((name, fight))
        else:
            roster = [Combatant(n, side, _ALL_STATS).to_json()
                      for n, side in (("Aldric", "héros"), ("Grolk", "monstres"))]
            out.append((name, {"name": "duel", "roster": roster, "dice": []}))
    return out


def _fresh(name: str, fight: dict[str, Any]) -> Encounter:
    return golden_runner.build(systems.get(name), fight)


def _started(name: str, fight: dict[str, Any], seed: int) -> tuple[Encounter, random.Random]:
    enc = _fresh(name, fight)
    rng = random.Random(seed)
    enc.start(rng, **fight.get("start", {}))
    return enc, rng


def paths_of(node: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every path in a JSON tree (keys and indexes), the root first."""
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from paths_of(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from paths_of(v, (*prefix, i))


@st.composite
def mutated_save(draw: st.DrawFn) -> str:
    """A valid save of a real fight with one value replaced, one key dropped, or the text
    cut or doubled (the ways hand-edited and damaged files go wrong)."""
    fights = _golden_fights()
    name, fight = draw(st.sampled_from(fights))
    enc, rng = _started(name, fight, draw(st.integers(0, 10**6)))
    for _ in range(draw(st.integers(0, 4))):
        try:
            enc.end_activation(rng)
        except EscarmoucheError:
            break
    data = json.loads(enc.to_json())
    how = draw(st.sampled_from(["replace", "drop", "cut", "raw"]))
    if how in ("replace", "drop"):
        path = draw(st.sampled_from([p for p in paths_of(data) if p]))
        node = data
        for key in path[:-1]:
            node = node[key]
        if how == "drop" and isinstance(node, dict):
            del node[path[-1]]
        else:
            node[path[-1]] = draw(json_value)
    text = json.dumps(data, ensure_ascii=False)
    if how == "cut":
        text = text[: draw(st.integers(0, len(text)))]
    if how == "raw":
        text = draw(st.sampled_from(["[" * 3000, "9" * 5000, "[]", "{}", "null", '"x"']))
    return text


def _load_and_play(text: str) -> None:
    enc = Encounter.from_json(text)
    rng = random.Random(1)
    _atomic(lambda: enc.run(rng, max_turns=3), enc, rng)


# -- stateful operations -----------------------------------------------------------------

def _atomic(op: Callable[[], object], enc: Encounter, rng: random.Random) -> None:
    before, state = enc.to_json(), rng.getstate()
    try:
        op()
    except EscarmoucheError:
        if enc.to_json() != before:
            raise StateChanged("refused, but the fight changed") from None
        if rng.getstate() != state:
            raise StateChanged("refused, but the rng moved") from None
        raise


param_value = st.one_of(json_leaf, name_text, st.lists(json_leaf, max_size=3),
                        st.tuples(st.integers(-5, 5), st.integers(-5, 5)),
                        st.dictionaries(st.text(max_size=6), json_leaf, max_size=3))


@st.composite
def action_attempt(draw: st.DrawFn) -> tuple[Any, ...]:
    """A started fight, then an action by anyone (often legal-looking, sometimes junk)."""
    name, fight = draw(st.sampled_from(_golden_fights()))
    seed = draw(st.integers(0, 10**6))
    system = systems.get(name)
    catalogue = system.catalogue(system.rules_from_json(fight.get("rules", {})))
    names = [c["name"] for c in fight["roster"]]
    actor = draw(st.one_of(st.sampled_from(names), name_text, st.integers(), st.none()))
    known = st.sampled_from(sorted(catalogue)) if catalogue else st.just("attaquer")
    action = draw(st.one_of(known, known, st.text(max_size=12), st.integers()))
    spec = catalogue.get(action) if isinstance(action, str) else None
    keys = list(spec.params) if spec else []
    params = draw(st.dictionaries(
        st.one_of(st.sampled_from(keys) if keys else st.nothing(), st.text(max_size=8)),
        st.one_of(st.sampled_from(names), param_value), max_size=4))
    return name, fight, seed, actor, action, params


def _act(attempt: tuple[Any, ...]) -> None:
    name, fight, seed, actor, action, params = attempt
    enc, rng = _started(name, fight, seed)
    enc.end_activation(rng)
    who: Any = enc.current if actor is None else actor
    _atomic(lambda: enc.act(who, action, rng, **{str(k): v for k, v in params.items()}),
            enc, rng)


@st.composite
def start_attempt(draw: st.DrawFn) -> tuple[str, dict[str, Any], int, dict[str, Any]]:
    name, fight = draw(st.sampled_from(_golden_fights()))
    system = systems.get(name)
    options = draw(st.dictionaries(
        st.one_of(st.sampled_from(list(system.start_options) or ["x"]), st.text(max_size=8)),
        st.one_of(param_value, st.sampled_from([c["side"] for c in fight["roster"]])),
        max_size=3))
    return name, fight, draw(st.integers(0, 10**6)), options


def _start(attempt: tuple[str, dict[str, Any], int, dict[str, Any]]) -> None:
    name, fight, seed, options = attempt
    enc = _fresh(name, fight)
    rng = random.Random(seed)
    _atomic(lambda: enc.start(rng, **options), enc, rng)


def _rules(attempt: tuple[str, dict[str, Any]]) -> None:
    name, options = attempt
    system = systems.get(name)
    system.rules_from_json(options)


rules_attempt = st.sampled_from(systems.NAMES).flatmap(
    lambda name: st.tuples(st.just(name), st.dictionaries(
        st.one_of(st.sampled_from([f.name for f in dataclasses.fields(
            systems.get(name).rules_type)]), st.text(max_size=6)),
        json_value, max_size=3)))


# -- the widgets' parsers (what users type) ----------------------------------------------

def _widget_parsers() -> list[Target]:
    from escarmouche_widgets import _parse

    typed = st.one_of(st.text(max_size=200), _int_text, st.just("[" * 3000),
                      st.builds(lambda k, v: f"{k}={v}", st.text(max_size=6), _int_text))
    return [
        Target("widgets.parse_dice_list", typed, _parse.parse_dice_list),
        Target("widgets.parse_stats", typed, _parse.parse_stats),
        Target("widgets.parse_params", st.one_of(typed, st.builds(
            lambda k, v: f"{k}={json.dumps(v)}", st.sampled_from(["cible", "chemin", "x"]),
            json_value)), _parse.parse_params),
        Target("widgets.parse_int", typed, lambda t: _parse.parse_int(t, "bonus", -40, 40)),
        Target("widgets.load_encounter", mutated_save(),
               lambda t: __import__("escarmouche_widgets.tracker",
                                    fromlist=["load_encounter"]).load_encounter(t)),
    ]


# -- constructors and renderers ----------------------------------------------------------

def _combatant(kwargs: dict[str, Any]) -> None:
    Combatant(**kwargs)


combatant_kwargs = st.fixed_dictionaries(
    {"name": name_text, "side": name_text},
    optional={"stats": st.one_of(json_value, st.dictionaries(
        st.sampled_from(["PV", "HAB", "CC", "init", ""]), st.one_of(
            st.integers(-10**6, 10**6), json_leaf), max_size=4)),
        "skills": st.one_of(json_value, st.frozensets(st.text(max_size=10), max_size=3)),
        "traits": st.one_of(json_value, st.frozensets(st.sampled_from(
            ["nain", "alerte", "Nain", "hyperactivite", ""]), max_size=3))})

effect_args = st.tuples(st.one_of(st.text(max_size=5), st.integers()), name_text,
                        st.one_of(st.sampled_from(["debut_tour", "fin_tour", "debut_activation",
                                                   "jusqu_au_prochain_tour_de"]), json_leaf),
                        st.fixed_dictionaries({}, optional={
                            "bearer": st.one_of(name_text, json_leaf),
                            "remaining": json_leaf,
                            "per_tick": st.one_of(json_value, st.dictionaries(
                                st.text(max_size=4), json_leaf, max_size=3)),
                            "keywords": json_value, "kind": json_leaf,
                            "until_turn_of": st.one_of(name_text, json_leaf)}))

end_condition_args = st.tuples(st.one_of(st.sampled_from(
    ["camp_hors_combat", "combattant_hors_combat", "camp_en_fuite", "tours"]), json_value),
    st.one_of(name_text, json_leaf), st.fixed_dictionaries({}, optional={
        "side": json_leaf, "name": json_leaf, "turns": json_leaf}))

chance = st.one_of(st.fractions(0, 1), st.floats(), st.integers(-2, 10**7), json_leaf)


def core_targets() -> list[Target]:
    return [
        Target("dice.parse", dice_expression, dice.parse),
        Target("dice.roll", dice_expression, lambda e: dice.roll(e, random.Random(1))),
        Target("dice.distribution", dice_expression, dice.distribution),
        Target("dice.probability", st.tuples(dice_expression, st.one_of(
            st.tuples(st.sampled_from(["<", ">=", "==", "≤", "?"]), st.integers(-100, 100)),
            json_value)), lambda a: dice.probability(a[0], a[1])),
        Target("dice.ScriptedRolls", json_value, lambda v: dice.ScriptedRolls(v).randint(1, 6)),
        Target("Combatant", combatant_kwargs, _combatant),
        Target("Effect", effect_args, lambda a: Effect(a[0], a[1], a[2], **a[3])),
        Target("EndCondition", end_condition_args,
               lambda a: EndCondition(a[0], a[1], **a[2])),
        Target("render.percent", chance, percent),
        Target("render.number", chance, number),
        Target("render.distribution_svg", st.dictionaries(st.one_of(
            st.integers(-10**8, 10**8), json_leaf), chance, max_size=6),
            lambda d: distribution_svg(d, title="t")),
        Target("render.outcome_bars_svg", st.lists(st.tuples(name_text, chance), max_size=5),
               lambda items: outcome_bars_svg(items, title="t")),
        Target("render.timeline_svg", st.lists(st.tuples(name_text, st.lists(
            name_text, max_size=4)), max_size=4), lambda t: timeline_svg(t, title="t")),
        Target("Encounter.from_json", mutated_save(), _load_and_play),
        Target("Encounter.start", start_attempt(), _start),
        Target("Encounter.act", action_attempt(), _act),
        Target("System.rules_from_json", rules_attempt, _rules),
    ]


def all_targets() -> list[Target]:
    return core_targets() + _widget_parsers() + system_targets() + file_targets()


def run_all(examples: int, *, seed: int = 0, only: str = "") -> tuple[Report, dict[str, int]]:
    report = Report()
    per_target: dict[str, int] = {}
    for target in all_targets():
        if only and only not in target.name:
            continue
        before = report.inputs
        fuzz(target, examples, report, seed=seed)
        per_target[target.name] = report.inputs - before
    return report, per_target


__all__ = ["HANG_SECONDS", "Report", "Target", "all_targets", "fuzz", "run_all"]


# -- the systems' public functions (spec/API.md and their pure / rolling / odds functions) ----

_junk = st.one_of(json_leaf, st.integers(-200, 200), st.integers(-10**40, 10**40),
                  st.lists(json_leaf, max_size=3), st.sampled_from(
                      ["aucune", "parade", "esquive", "maximum", "explosif", "avantage",
                       "simple", "mouvement", "mineure", "libre", "1d8+2", "poison",
                       "quitte_case_adjacente", "attaque_distance", "tête", "d6", ""]))


def _roster_strategy() -> st.SearchStrategy[Any]:
    fighters = [Combatant.from_json(c) for _, fight in _golden_fights()
                for c in fight["roster"]]
    return st.one_of(st.lists(st.sampled_from(fighters), max_size=4, unique_by=lambda c: c.name),
                     _junk)


def _call(function: Callable[..., object]) -> Callable[[tuple[Any, ...]], object]:
    def run(args: tuple[Any, ...]) -> object:
        positional, rolls = args
        return function(*positional, **({"rng": random.Random(rolls)} if rolls else {}))
    return run


def system_targets() -> list[Target]:
    from escarmouche.systems import d12, d20, d100, rulebook

    roster = _roster_strategy()
    seeds = st.integers(0, 10**6)
    junk2 = st.tuples(_junk, _junk)
    rng = st.builds(lambda s: random.Random(s), seeds)
    return [
        Target("rulebook.d100_test", st.tuples(_junk, _junk), lambda a: rulebook.d100_test(*a)),
        Target("rulebook.initiative", st.tuples(roster, rng, st.one_of(st.none(), _junk)),
               lambda a: rulebook.initiative(a[0], a[1], surprise_by=a[2])),
        Target("rulebook.surprise", st.tuples(roster, roster, rng, _junk),
               lambda a: rulebook.surprise(a[0], a[1], a[2], unaware=a[3])),
        Target("d100.initiative", st.tuples(roster, rng), lambda a: d100.initiative(*a)),
        Target("d100.hit_location", _junk, d100.hit_location),
        Target("d100.damage", st.tuples(_junk, _junk, _junk, _junk),
               lambda a: d100.damage(*a)),
        Target("d100.attack_odds", st.tuples(_junk, _junk, _junk, _junk),
               lambda a: d100.attack_odds(a[0], defence=a[1], defence_target=a[2],
                                          ranged=a[3])),
        Target("d12.initiative", st.tuples(roster, rng, _junk, st.one_of(st.none(), _junk)),
               lambda a: d12.initiative(a[0], a[1], environment=a[2], ambush_by=a[3])),
        Target("d12.critical_damage_distribution", junk2,
               lambda a: d12.critical_damage_distribution(*a)),
        Target("d12.group_order_odds", roster, d12.group_order_odds),
        Target("d20.check_turn", st.tuples(st.one_of(st.lists(_junk, max_size=5), _junk),
                                           _junk),
               lambda a: d20.check_turn(a[0], action_points=a[1])),
        Target("d20.saving_throw", junk2, lambda a: d20.saving_throw(*a)),
        Target("d20.save_bonus", st.tuples(st.one_of(roster.map(
            lambda r: r[0] if isinstance(r, list) and r else r), _junk), _junk),
            lambda a: d20.save_bonus(*a)),
        Target("d20.opportunity_attack_allowed", junk2,
               lambda a: d20.opportunity_attack_allowed(*a)),
        Target("first_to_act_odds", st.tuples(st.sampled_from(
            [rulebook, d100, d20]), roster), lambda a: a[0].first_to_act_odds(a[1])),
    ]


# -- the files designers and GMs keep: rosters and editions (book/concepteurs.md; docs/cli.md) -----

_TEXT_OPS = ("supprime", "double", "remplace", "insere")
_TOML_JUNK = st.one_of(st.sampled_from(
    ["= 1", "[[camps]]", "[options]", "CC = 400", "nom = \"\"", "version = 2", "x = [",
     "caracteristiques = { PV = -3 }", "arme = \"bazooka\"", "politique = \"lâche\"",
     "position = [0, 0, 0]", "systeme = \"d7\"", "\"\\ud800\"", "1e999", "[[fin]]",
     "condition = \"tours\"", "reussite_critique_max = 101", "= = =", "\x00"]),
    st.text(max_size=30))


def _mutated_text(texts: list[str]) -> st.SearchStrategy[str]:
    """A real file with up to three line edits: a line removed, doubled, replaced or a
    line inserted, the new lines drawn from TOML pieces and random text."""
    def mutate(args: tuple[str, list[tuple[int, str, str]]]) -> str:
        text, edits = args
        lines = text.splitlines()
        for at, op, junk in edits:
            k = at % (len(lines) or 1)
            if op == "supprime" and lines:
                del lines[k]
            elif op == "double" and lines:
                lines.insert(k, lines[k])
            elif op == "remplace" and lines:
                key = lines[k].partition("=")[0]
                lines[k] = f"{key}= {junk}" if "=" in lines[k] else junk
            else:
                lines.insert(k, junk)
        return "\n".join(lines) + "\n"

    edit = st.tuples(st.integers(0, 500), st.sampled_from(_TEXT_OPS), _TOML_JUNK)
    return st.tuples(st.sampled_from(texts), st.lists(edit, max_size=3)).map(mutate)


def _play_roster(text: str) -> object:
    from escarmouche.roster import parse_roster
    from escarmouche.simulation import simulate

    roster = parse_roster(text, source="fuzz.toml")
    return simulate(roster, 2, seed=1, max_turns=3)


def _full_roster(text: str) -> object:
    """``Roster.play`` (the full engine, on the rules kernel where it narrates the fight)
    of a roster file: the engine's own save and dice for the same fight, or the same
    refusal (an AssertionError otherwise: a crash of the target)."""
    from escarmouche.roster import parse_roster

    roster = parse_roster(text, source="fuzz.toml")
    dice, engine_dice = random.Random(len(text)), random.Random(len(text))
    try:
        played = roster.play(dice, max_turns=4)
    except EscarmoucheError as refused:
        enc = roster.encounter()
        try:
            enc.start(engine_dice, **dict(roster.start_options))
            enc.run(engine_dice, max_turns=4, policy=roster.policies)
        except EscarmoucheError as err:
            if str(err) == str(refused):
                raise
        raise AssertionError("Roster.play refuse ce que le moteur accepte") from None
    enc = roster.encounter()
    enc.start(engine_dice, **dict(roster.start_options))
    enc.run(engine_dice, max_turns=4, policy=roster.policies)
    if played.to_json() != enc.to_json() or dice.getstate() != engine_dice.getstate():
        raise AssertionError("Roster.play n’est pas le combat du moteur")
    return played.outcome


def _solve_roster(text: str) -> object:
    from escarmouche.exact import duel
    from escarmouche.roster import parse_roster

    roster = parse_roster(text, source="fuzz.toml")
    return duel(roster, max_turns=2, exact=False).text()


def _load_edition(text: str) -> object:
    import tempfile

    from escarmouche.editions import load_edition

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "1.toml"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        return load_edition(path)


def file_targets() -> list[Target]:
    from escarmouche.roster import example_rosters

    rosters = [p.read_text(encoding="utf-8") for p in example_rosters().values()]
    root = ROOT
    editions = [p.read_text(encoding="utf-8") for p in sorted((root / "editions").glob("*.toml"))]
    return [
        Target("roster.parse_roster", _mutated_text(rosters), _play_roster),
        Target("roster.play", _mutated_text(rosters), _full_roster),
        Target("exact.duel", _mutated_text([t for p, t in zip(example_rosters(), rosters,
                                                                 strict=True)
                                            if p.endswith(("-duel", "-esquive",
                                                           "-bretteur"))]),
               _solve_roster),
        Target("editions.load_edition", _mutated_text(editions), _load_edition),
    ]


@functools.lru_cache(maxsize=1)
def sampled_refusals(examples: int = 25) -> tuple[EscarmoucheError, ...]:
    """The refusals of a broad, fixed sample: every target on ``examples`` generated
    inputs (derandomized: the same sample on every run). Crashes are ``test_fuzz``'s
    business and are left out. Cached: the typography and proofreading tests read the
    same sample."""
    errors: list[EscarmoucheError] = []

    def collector(target: Target) -> Callable[[], None]:
        @settings(max_examples=examples, deadline=None, database=None, derandomize=True,
                  phases=[Phase.generate], suppress_health_check=list(HealthCheck))
        @given(target.strategy)
        def collect(value: Any) -> None:
            try:
                target.run(value)
            except EscarmoucheError as err:
                errors.append(err)
            except Exception:
                pass

        return collect

    for target in all_targets():
        collector(target)()
    return tuple(errors)

