"""Demo « Équilibre » : a small balance simulation of a roster, live in the page.

N fights of the roster (:func:`escarmouche.simulation.simulate`, simulation mode, one
random stream per fight derived from the seed), under the system's options set in the
controls; shows the French table (win rates with their Wilson 95 % interval, rounds,
survivors, damage per round) and the charts. In the browser a fight costs milliseconds:
N is kept small (at most :data:`MAX_BROWSER_FIGHTS`) and the page says so; the command
line and local processes or a Dask cluster handle the large runs.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import Any

import ipywidgets as widgets

from escarmouche import Combatant
from escarmouche import simulation as sim
from escarmouche.encounter import Encounter
from escarmouche.options import Option
from escarmouche.systems import get
from escarmouche.text.fmt import plural
from escarmouche_widgets import _html as h
from escarmouche_widgets._controls import (
    SEED,
    Demo,
    button,
    labelled,
    number_box,
    option_control,
    option_labels,
    option_value,
)
from escarmouche_widgets._parse import NumberField

__all__ = ["MAX_BROWSER_FIGHTS", "BalanceDemo", "option_controls"]

#: the most fights the page plays at once (the browser runs one core, in Pyodide)
MAX_BROWSER_FIGHTS = 2_000
#: the fights box: 1 to :data:`MAX_BROWSER_FIGHTS` (CORE-ERR)
FIGHTS = NumberField("combats", 1, MAX_BROWSER_FIGHTS, "CORE-ERR")


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
    Valeur 0 refusée pour « combats » : un nombre entier entre 1 et 2000 est attendu
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
        self.run_button = button("Simuler", button_style="primary", icon="play")
        self.run_button.on_click(lambda _b: self.roll())
        self.widget = widgets.VBox([
            widgets.HTML(f"<b>Équilibre : {h.esc(self.system.title or self.system.name)}</b>"),
            labelled("Simulation", self.fights, self.seed),
            widgets.HTML(h.paragraph(
                f"Dans le navigateur, {plural(MAX_BROWSER_FIGHTS, 'combat')} au plus : "
                "l’intervalle de confiance reste large ; la ligne de commande "
                "(escarmouche simule) joue des centaines de milliers de combats.")),
            widgets.VBox(list(self.options.values())),
            self.run_button,
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

    def balance(self) -> sim.Balance:
        return sim.simulate(self._roster(), self.fights.integer, seed=self.seed.integer)

    def roll(self) -> bool:
        """Play the N fights and show the balance (or the French error, keeping the last
        balance)."""

        def compute() -> str:
            bal = self.balance()
            if self.title:
                bal = dataclasses.replace(bal, title=self.title)
            return h.join(bal.table()._repr_html_(), bal.outcome_svg(), bal.rounds_svg())

        return self._show(compute)
