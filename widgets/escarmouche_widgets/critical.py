"""Demo « Options de critique » (system d12): the three critical options side by side.

Weapon dice, attack bonus, target defence and advantage in; out: one attack rolled
(the dice, the rule IDs), the exact chances to miss, hit and crit, the three options'
damage distributions as charts, and which option pays best (D12-CRIT-1, D12-CRIT-2,
D12-ADV-1, D12-EXPLODE-1). Every number comes from :mod:`escarmouche.systems.d12`.
"""

from __future__ import annotations

import functools
from typing import Any

import ipywidgets as widgets

from escarmouche.systems import d12
from escarmouche.systems.d12.rules import BONUS_RANGE, DEFENCE_RANGE
from escarmouche.text.fmt import number, percent, plural
from escarmouche_widgets import _charts
from escarmouche_widgets import _html as h
from escarmouche_widgets._controls import WIDE, Demo, DiceControls, button, labelled, number_box
from escarmouche_widgets._parse import NumberField
from escarmouche_widgets._record import Recorder

#: the attack bonus and the target's defence, as the d12 rules bound them (D12-CRIT-1)
BONUS = NumberField("bonus d’attaque", *BONUS_RANGE, "D12-CRIT-1")
DEFENCE = NumberField("défense de la cible", *DEFENCE_RANGE, "D12-CRIT-1")

__all__ = ["CriticalDemo", "attack_html", "odds_html"]


def _option_title(option: str) -> str:
    o = d12.CRITICAL_OPTIONS[option]
    return f"({o.letter}) {o.label}"


@functools.lru_cache(maxsize=64)
def odds_html(weapon: str, bonus: int, defence: int, mode: str) -> str:
    """The exact odds of one attack and the value of each critical option (cached: the
    same inputs are computed once)."""
    hit = d12.hit_odds(bonus=bonus, defence=defence, mode=mode)
    crit = d12.critical_odds(mode)
    outcomes = _charts.bars(
        [("raté", 1 - hit), ("touché (sans critique)", hit - crit),
         ("critique (12 naturel)", crit)],
        f"Une attaque {d12.MODE_LABELS[d12.Mode(mode)]} contre la défense {defence}",
    )
    charts = [
        _charts.distribution(
            d12.critical_damage_distribution(weapon, o), _option_title(o),
            xlabel=f"Dégâts du critique ({weapon})",
        )
        for o in d12.CRITICAL_OPTIONS
    ]
    values = d12.critical_option_values(weapon, bonus=bonus, defence=defence, mode=mode)
    best = values.best
    rows = [
        (_option_title(v.option), number(v.critical_damage), number(v.next_attack_gain),
         number(v.decision_value), number(v.attack_damage))
        for v in values
    ]
    rules = ["D12-CRIT-1", "D12-CRIT-2", "D12-EXPLODE-1"]
    if mode != "normal":
        rules.insert(1, "D12-ADV-1")
    return "".join([
        h.section("Chances exactes", h.paragraph(
            f"Touché : {percent(hit)} (dont critique : {percent(crit)}) ; "
            f"raté : {percent(1 - hit)}.")),
        outcomes,
        h.section("Les trois options d’un critique", _charts.side_by_side(*charts)),
        h.table(("Option", "Dégâts moyens du critique", "Gain sur l’attaque suivante",
                 "Valeur au moment du 12", "Dégâts moyens de l’attaque"), rows),
        h.paragraph(
            f"L’option qui rapporte le plus : <b>{h.esc(_option_title(best.option))}</b> "
            f"({number(best.decision_value)} points en moyenne au moment du critique).",
            raw=True),
        h.notice("Gain de (c) : une attaque de même profil contre la cible avant son "
                 "prochain tour, avec l’avantage, comparée à la même attaque sans lui."),
        h.rules_line(rules, label="Règles"),
    ])


def attack_html(outcome: d12.AttackOutcome, draws: list[tuple[int, int, str]], source: str,
                note: str = "") -> str:
    """One attack as a GM reads it: the roll, the damage, the dice, the rules."""
    lines = [f"Attaque : {outcome.attack.explain()}."]
    if outcome.damage is not None:
        if outcome.option is not None:
            lines.append(f"Option choisie : {_option_title(outcome.option)}.")
        lines.append(f"Dégâts ({outcome.damage.detail}), soit "
                     f"{plural(outcome.dealt, 'point')} de dégâts.")
        if outcome.grants_advantage:
            lines.append("La prochaine attaque contre la cible, avant son prochain tour, "
                         "se fera avec avantage (D12-CRIT-2 (c)).")
    else:
        lines.append("Aucun dégât.")
    parts = [h.section(f"Attaque lancée ({source})", h.bullet_list(lines)),
             h.dice_line(draws), h.rules_line(outcome.rules)]
    if note:
        parts.append(h.notice(note))
    return "".join(parts)


class CriticalDemo(Demo):
    """Controls: ``weapon``, ``bonus``, ``defence``, ``mode``, ``option``, ``dice``;
    buttons ``roll_button`` (« Attaquer ») and ``dice.new_seed_button``."""

    def __init__(self, weapon: str = "1d8+2", bonus: int = 3, defence: int = 14,
                 mode: str = "normal", option: str = "maximum", seed: int = 1) -> None:
        super().__init__()
        self.weapon = widgets.Text(value=weapon, description="Arme (dés de dégâts) :",
                                   style=WIDE, continuous_update=False)
        self.bonus = number_box(BONUS, bonus, "Bonus d’attaque :", width="14em")
        self.defence = number_box(DEFENCE, defence, "Défense de la cible :", width="16em")
        self.mode = widgets.ToggleButtons(style={"button_width": "auto"},
            options=[(label, m.value) for m, label in d12.MODE_LABELS.items()], value=mode,
        )
        self.option = widgets.Dropdown(
            options=[(_option_title(o), o) for o in d12.CRITICAL_OPTIONS], value=option,
            description="Sur un 12 naturel :", style=WIDE,
        )
        self.dice = DiceControls(seed)
        self.roll_button = button("Attaquer", button_style="primary",
                                          icon="bolt")
        self.odds = widgets.HTML()
        for control in (self.weapon, self.bonus, self.defence, self.mode):
            control.observe(self._changed, names="value")
        self.roll_button.on_click(lambda _b: self.roll())
        self.dice.new_seed_button.on_click(lambda _b: self.reroll())
        self.widget = widgets.VBox([
            widgets.HTML("<b>Options de critique (système d12)</b>"),
            widgets.HBox([self.weapon, self.bonus, self.defence],
                         layout=widgets.Layout(flex_flow="row wrap")),
            labelled("Jet d’attaque", self.mode),
            self.option,
            labelled("Dés", self.dice.widget),
            self.roll_button,
            self.banner.widget,
            self.output,
            self.odds,
        ])
        self.update_odds()
        self.roll()

    def _inputs(self) -> tuple[str, int, int, str]:
        return (self.weapon.value.strip(), self.bonus.integer, self.defence.integer,
                str(self.mode.value))

    def _changed(self, change: Any = None) -> None:
        self.update_odds()

    def update_odds(self) -> bool:
        """Recompute the exact odds for the current inputs (once per change)."""

        def compute() -> str:
            return odds_html(*self._inputs())

        html = self.banner.guard(compute)
        if html is None:
            return False
        self.odds.value = html
        return True

    def roll(self) -> bool:
        """Roll one attack (and its damage) with the seed or the typed dice."""

        def compute() -> str:
            weapon, bonus, defence, mode = self._inputs()
            rng = Recorder(self.dice.rng())
            outcome = d12.roll_attack_outcome(rng, weapon=weapon, bonus=bonus,
                                              defence=defence, mode=mode,
                                              option=str(self.option.value))
            n_attack = len(outcome.attack.dice)
            draws = rng.labelled([(0, "attaque"), (n_attack, "dégâts")])
            return h.join(attack_html(outcome, draws, self.dice.describe(),
                                      self.dice.leftover(rng.inner)))

        return self._show(compute)
