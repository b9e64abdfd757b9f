"""Demo « Équilibre » : a balance simulation of a roster, live in the page.

N fights of the roster (:func:`escarmouche.simulation.simulate_steps`, simulation mode,
one random stream per fight derived from the seed), under the system's options set in
the controls; shows the French table (win rates with their Wilson 95 % interval, rounds,
survivors, damage per round) and the charts.

In a live page the fights are played :data:`STEP` at a time, as an asyncio task: after
each step the progress bar moves and the kernel (Pyodide's, in the browser) is free to
receive a click, so « Arrêter » stops the run; the balance of the fights already played
is then shown (each fight has its own stream, so it is exactly the balance of those
first fights). Outside a running event loop (a script, a test, the book's build), the
same steps run at once.

When the options set in the controls differ from the roster's own rules, the same fights
are also played under the roster's rules, on the same dice, and the balance leads with
the paired difference, in the one sentence every face uses
(:meth:`escarmouche.simulation.Comparison.headline`: « Avec vos changements, « héros »
gagne 4,1 points de plus (± 1,2) … », and how many fights changed winner).
"""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator, Iterable, Iterator, Mapping
from typing import Any, TypeAlias

import ipywidgets as widgets

from escarmouche import Combatant
from escarmouche import simulation as sim
from escarmouche.encounter import Encounter
from escarmouche.options import Option
from escarmouche.systems import get
from escarmouche.text.fmt import number, plural
from escarmouche_widgets import _html as h
from escarmouche_widgets._controls import (
    SEED,
    Demo,
    labelled,
    number_box,
    option_control,
    option_labels,
    option_value,
)
from escarmouche_widgets._parse import NumberField
from escarmouche_widgets._pool import page_pool, pooled_steps
from escarmouche_widgets._stepper import STEP, Stepper, running_loop

__all__ = ["MAX_BROWSER_FIGHTS", "STEP", "BalanceDemo", "option_controls"]

#: the most fights the page plays in one run (the browser runs one core, in Pyodide)
MAX_BROWSER_FIGHTS = 100_000
#: the fights box: 1 to :data:`MAX_BROWSER_FIGHTS` (CORE-ERR)
FIGHTS = NumberField("combats", 1, MAX_BROWSER_FIGHTS, "CORE-ERR")
#: one step of a run: a balance, or (options changed) a paired comparison
Step: TypeAlias = sim.Balance | sim.Comparison


def option_controls(system: str, rules: Any = None) -> dict[str, widgets.Widget]:
    """One control per simple option of ``system``'s rules (a number, yes/no, a choice, a
    text: :func:`~escarmouche_widgets._controls.option_control`), by engine name,
    labelled from the option's declaration (:attr:`Option.title`), set to ``rules``
    (default: the system's default rules)."""
    sys_ = get(system)
    if rules is None:
        rules = sys_.default_rules()
    out: dict[str, widgets.Widget] = {}
    for spec in sys_.options():
        control = option_control(spec, getattr(rules, spec.name),
                                 layout=widgets.Layout(width="auto", max_width="100%"))
        if control is not None:
            out[spec.name] = control
    return out


class BalanceDemo(Demo):
    """Controls: ``fights`` (N), ``seed``, ``options`` (name → control), ``run_button``.

    ``roster`` is a list of :class:`Combatant` (or, once roster files are in, a roster:
    anything with ``encounter()``); ``start`` the start options of the fight.

    >>> from escarmouche import Combatant
    >>> demo = BalanceDemo("d20", [Combatant("Brune", "héros", {"PV": 12}),
    ...                            Combatant("Grolk", "orques", {"PV": 9})], fights=20)
    >>> "20 combats" in demo.result_text, demo.error_text
    (True, '')
    >>> demo.fights.value = 0
    >>> demo.run_button.click()
    >>> print(demo.error_text)  # doctest: +NORMALIZE_WHITESPACE
    Valeur 0 refusée pour « combats » : un nombre entier entre 1 et 100 000 est attendu
    (CORE-ERR).
    """

    def __init__(self, system: str, roster: Iterable[Combatant] | Any, *,
                 fights: int = 200, seed: int = 1, start: Mapping[str, Any] | None = None,
                 title: str = "") -> None:
        super().__init__()
        self.system = get(system)
        self.roster = roster if hasattr(roster, "encounter") else tuple(roster)
        self.start = dict(start or {})
        self.title = title
        self.fights = number_box(FIGHTS, fights, "Combats :", width="12em")
        self.seed = number_box(SEED, seed, "Graine :", width="14em")
        given = getattr(self.roster, "rules", None)
        self.base_rules = (given if isinstance(given, self.system.rules_type)
                           else self.system.default_rules())
        self.options = option_controls(self.system.name, self.base_rules)
        self.stepper = Stepper("Simuler")
        self.run_button, self.stop_button = self.stepper.run_button, self.stepper.stop_button
        self.progress = self.stepper.progress
        self.run_button.on_click(lambda _b: self.launch())
        self.widget = widgets.VBox([
            widgets.HTML(f"<b>Équilibre : {h.esc(self.system.title or self.system.name)}</b>"),
            labelled("Simulation", self.fights, self.seed),
            widgets.HTML(h.paragraph(
                f"Dans le navigateur, {plural(MAX_BROWSER_FIGHTS, 'combat')} au plus, "
                f"joués par paquets de {number(STEP)} : la barre avance et « Arrêter » "
                "garde le bilan des combats déjà joués ; la ligne de commande (escarmouche "
                "simule) en joue des millions, sur plusieurs cœurs.")),
            widgets.VBox(list(self.options.values())),
            self.stepper.widget,
            self.banner.widget,
            self.output,
        ])
        self.banner.labels = option_labels(self.system.options())
        self.roll()

    def rules(self) -> Any:
        """The rules set in the controls, from the roster's (checked by the system:
        French errors naming the option's French key)."""
        specs: dict[str, Option] = {o.name: o for o in self.system.options()}
        chosen = {specs[name].key: option_value(specs[name], control)
                  for name, control in self.options.items()}
        return self.system.rules_from_keys(chosen, base=self.base_rules)

    def _roster(self) -> Any:
        rules = self.rules()
        if hasattr(self.roster, "with_rules"):
            return self.roster.with_rules(rules)
        enc = Encounter(self.system, self.roster, rules=rules)
        fixed = sim.as_roster(enc)
        return dataclasses.replace(fixed, start_options=self.start) if self.start else fixed

    def _base_roster(self) -> Any:
        """The roster under its own rules (what « vos changements » are compared with)."""
        if hasattr(self.roster, "with_rules"):
            return self.roster.with_rules(self.base_rules)
        fixed = sim.as_roster(Encounter(self.system, self.roster, rules=self.base_rules))
        return dataclasses.replace(fixed, start_options=self.start) if self.start else fixed

    def _steps(self) -> Iterator[Step]:
        """The balances of the run set in the controls, one per :data:`STEP` fights
        (checked now: a French error before anything is played); with options changed,
        the paired comparisons with the roster's own rules."""
        n = self.fights.integer
        roster = self._roster()
        changed = self.rules() != self.base_rules
        base = self._base_roster() if changed else None
        steps = _steps_of(base, roster, n, self.seed.integer)
        first = next(steps)  # the roster, the seed … checked by the engine
        return _chain(first, steps)

    def _run(self) -> sim.CompareRun | sim.SimulateRun:
        """The run of :meth:`_steps`, for the page's pool of workers (same batches, same
        numbers)."""
        n, seed = self.fights.integer, self.seed.integer
        roster = self._roster()
        if self.rules() != self.base_rules:
            return sim.CompareRun(self._base_roster(), roster, n, seed=seed, step=STEP,
                                  labels=("sans vos changements", "avec vos changements"))
        return sim.SimulateRun(roster, n, seed=seed, step=STEP)

    def balance(self) -> sim.Balance:
        """The balance of the N fights set in the controls, all played now."""
        *_, last = self._steps()
        return last.b if isinstance(last, sim.Comparison) else last

    def _html(self, step: Step, asked: int) -> str:
        head = ""
        bal = step.b if isinstance(step, sim.Comparison) else step
        if isinstance(step, sim.Comparison):
            head = h.paragraph(f"<b>{h.esc(step.headline('vos changements'))}</b>", raw=True)
        if self.title:
            bal = dataclasses.replace(bal, title=self.title)
        stopped = (h.notice(f"Arrêté après {plural(bal.n, 'combat')} sur {number(asked)} : "
                            "le bilan est celui des combats joués.")
                   if bal.n < asked else "")
        return h.join(stopped, head, bal.table()._repr_html_(), bal.outcome_svg(),
                      bal.rounds_svg())

    def roll(self) -> bool:
        """Play the N fights now and show the balance (or the French error, keeping the
        last balance)."""

        def compute() -> str:
            asked = self.fights.integer
            return self._html(self.stepper.run_now(self._steps(), _fights, asked), asked)

        return self._show(compute)

    def launch(self) -> bool:
        """« Simuler » : in a running event loop (a live page), play the fights step by
        step as a task (:class:`~escarmouche_widgets._stepper.Stepper`: progress,
        « Arrêter ») ; otherwise play them now (:meth:`roll`)."""
        loop = running_loop()
        if self.stepper.running:
            return False
        if loop is None:
            return self.roll()
        pool = page_pool()
        if pool is None:
            steps: Iterator[Step] | AsyncIterator[Step] | None = self.banner.guard(self._steps)
        else:  # several workers: the page's pool plays the batches, merged here in order
            run = self.banner.guard(self._run)
            steps = None if run is None else pooled_steps(
                run, pool, lambda done: self.stepper.show(done, self.fights.integer))
        if steps is None:
            return False
        asked = self.fights.integer
        self.stepper.start(loop, steps, _fights, asked,
                           lambda last: self._show(lambda: self._html(last, asked)),
                           lambda err: self.banner.show(err.refusal(self.banner.labels)))
        return True

    def stop(self) -> None:
        """« Arrêter »."""
        self.stepper.stop()


def _steps_of(base: Any, roster: Any, n: int, seed: int) -> Iterator[Step]:
    """The paired comparisons with ``base`` (when given), else the plain balances."""
    if base is not None:
        yield from sim.compare_steps(base, roster, n, seed=seed, step=STEP,
                                     labels=("sans vos changements", "avec vos changements"))
    else:
        yield from sim.simulate_steps(roster, n, seed=seed, step=STEP)


def _fights(step: Step) -> int:
    return step.a.n if isinstance(step, sim.Comparison) else step.n


def _chain(first: Step, rest: Iterator[Step]) -> Iterator[Step]:
    yield first
    yield from rest
