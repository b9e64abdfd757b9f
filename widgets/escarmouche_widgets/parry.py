"""Demo « Parade et esquive » (system d100): one attack resolved step by step.

Attacker (CC, CT, weapon, hand, range) and defender (CC, Ag, E, B, armour, the skill
« esquive », a prepared parry, two weapons, surprised) in; out: the target numbers with
each modifier, the attack, the defence, the hit location, the damage and the GM's
sentence (D100-ATK-4), the dice, the rule IDs, and the exact distribution of the
outcome (miss, parried, dodged, wounds per location) from
:func:`escarmouche.systems.d100.attack_distribution`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import ipywidgets as widgets

from escarmouche import Combatant
from escarmouche.systems import d100
from escarmouche.systems.d100.rules import ARMOUR_MAX
from escarmouche.text.fmt import percent
from escarmouche_widgets import _charts
from escarmouche_widgets import _html as h
from escarmouche_widgets._controls import WIDE, Demo, DiceControls, button, labelled, number_box
from escarmouche_widgets._parse import NumberField


def stat_field(key: str, whose: str) -> NumberField:
    """The box of a d100 stat: its bounds and rule as :data:`d100.STATS` declares them."""
    lo, hi, rule = d100.STATS[key]
    return NumberField(f"{key} {whose}", lo, hi, rule)


#: the boxes that are not stats: armour points (D100-ATK-3), the GM's modifier (D100-ATK-1;
#: D100-RANGED-6 for a ranged weapon, the engine's bounds), the distance in metres (a
#: decimal is meant, D100-RANGED-5)
ARMOUR = NumberField("armure du défenseur", 0, ARMOUR_MAX, "D100-ATK-3")
HEAD_ARMOUR = NumberField("armure de la tête", 0, ARMOUR_MAX, "D100-ATK-3",
                          empty="comme ailleurs")
GM_MODIFIER = NumberField("modificateur du MJ", -100, 100, "D100-ATK-1")
DISTANCE = NumberField("distance (m)", 0, 1_000_000, "D100-RANGED-5", decimal=True)

__all__ = ["Fighters", "ParryDodgeDemo", "odds_html", "setup_of", "steps_html"]

@dataclass(frozen=True, slots=True)
class Fighters:
    """Everything the controls hold, as one hashable value (the odds cache key)."""

    att_cc: int
    att_ct: int
    weapon: str
    hand: str
    distance: int | float
    target_engaged: bool
    gm_modifier: int
    def_cc: int
    def_ag: int
    def_e: int
    def_b: int
    armour: int
    head_armour: int | None
    dodge_skill: bool
    defence: str
    parry_prepared: bool
    two_weapons: bool
    main_weapon: str
    off_weapon: str
    surprised: bool


def setup_of(f: Fighters) -> d100.AttackSetup:
    """The engine's checked attack setup (French errors for anything illegal)."""
    attacker = Combatant("Attaquant", "attaque", {"CC": f.att_cc, "CT": f.att_ct})
    stats = {"CC": f.def_cc, "Ag": f.def_ag, "E": f.def_e, "B": f.def_b, "PA": f.armour}
    if f.head_armour is not None:
        stats["PA_tete"] = f.head_armour
    defender = Combatant("Défenseur", "défense", stats,
                         skills={"esquive"} if f.dodge_skill else frozenset())
    if f.two_weapons:
        d100.check_two_weapons(f.main_weapon, f.off_weapon)  # D100-TWO-1
    weapon = d100.get_weapon(f.weapon)
    guard = d100.Guard(parry_prepared=f.parry_prepared, two_weapons=f.two_weapons,
                       surprised=f.surprised)
    return d100.attack_setup(
        attacker, defender, weapon.id, hand=f.hand, defence=f.defence, guard=guard,
        distance=f.distance if weapon.ranged else None,
        target_engaged=f.target_engaged if weapon.ranged else False,
        gm_modifier=f.gm_modifier,
    )


def steps_html(result: d100.AttackResult) -> str:
    """The attack step by step, as a GM reads it (the engine's :meth:`AttackResult.steps`)."""
    return h.bullet_list(result.steps())


@functools.lru_cache(maxsize=64)
def odds_html(f: Fighters) -> str:
    """The exact distribution of the attack's outcome (computed once per setup by the
    engine, :func:`escarmouche.systems.d100.attack_distribution`; laid out here)."""
    out = d100.attack_distribution(setup_of(f))
    items = out.items()
    zones = out.location_table()
    return "".join([
        h.section("Chances exactes", h.paragraph(out.summary())),
        _charts.side_by_side(
            _charts.bars(items, "Issue de l’attaque"),
            _charts.distribution(out.wounds, "Blessures infligées", xlabel="Blessures",
                                 highlight=lambda w: w > 0),
        ),
        h.table(zones.headers, zones.rows),
        h.paragraph("Issues : " + " ; ".join(f"{n} {percent(p)}" for n, p in items) + "."),
    ])


class ParryDodgeDemo(Demo):
    """Controls: attacker ``att_cc``, ``att_ct``, ``weapon``, ``hand``, ``distance``,
    ``target_engaged``, ``gm_modifier``; defender ``def_cc``, ``def_ag``, ``def_e``,
    ``def_b``, ``armour``, ``dodge_skill``, ``defence``, ``parry_prepared``,
    ``two_weapons`` (with ``main_weapon``/``off_weapon``), ``surprised``; ``dice``;
    ``roll_button`` (« Attaquer »)."""

    def __init__(self, *, seed: int = 1) -> None:
        super().__init__()


        weapons = [(w.label + (" (tir)" if w.ranged else ""), w.id)
                   for w in d100.WEAPONS.values()]
        self.att_cc = number_box(stat_field("CC", "de l’attaquant"), 45, "CC :")
        self.att_ct = number_box(stat_field("CT", "de l’attaquant"), 35, "CT :")
        self.weapon = widgets.Dropdown(options=weapons, value="arme_a_une_main",
                                       description="Arme :", style=WIDE)
        off_hand = d100.SYSTEM.option("malus_main_non_directrice")
        self.hand = widgets.ToggleButtons(style={"button_width": "auto"},
            options=[("main directrice", "directrice"),
                     (f"main non directrice ({off_hand.value_label(off_hand.default)})",
                      "non_directrice")],
            value="directrice")
        self.distance = number_box(DISTANCE, 20, "Distance (m) :", width="12em")
        self.target_engaged = widgets.Checkbox(value=False, indent=False,
                                               description="cible engagée au corps à corps")
        self.gm_modifier = number_box(GM_MODIFIER, 0, "Modif. du MJ :")
        self.def_cc = number_box(stat_field("CC", "du défenseur"), 38, "CC :")
        self.def_ag = number_box(stat_field("Ag", "du défenseur"), 42, "Ag :")
        self.def_e = number_box(stat_field("E", "du défenseur"), 40, "E :")
        self.def_b = number_box(stat_field("B", "du défenseur"), 12, "B :")
        self.armour = number_box(ARMOUR, 1, "Armure :")
        self.head_armour = number_box(HEAD_ARMOUR, "", "Armure tête :", width="14em")
        self.head_armour.placeholder = "comme ailleurs"
        self.dodge_skill = widgets.Checkbox(value=True, indent=False,
                                            description="compétence « esquive »")
        self.defence = widgets.ToggleButtons(style={"button_width": "auto"},
            options=[("aucune", "aucune"), ("parade", "parade"), ("esquive", "esquive")],
            value="parade")
        self.parry_prepared = widgets.Checkbox(value=True, indent=False,
                                               description="parade préparée (demi-action)")
        self.two_weapons = widgets.Checkbox(value=False, indent=False,
                                            description="une arme dans chaque main")
        self.main_weapon = widgets.Dropdown(
            options=[(d100.WEAPONS[w].label, w) for w in sorted(d100.WEAPONS)],
            value="arme_a_une_main", description="directrice :", style=WIDE)
        self.off_weapon = widgets.Dropdown(
            options=[(d100.WEAPONS[w].label, w) for w in sorted(d100.WEAPONS)],
            value="dague", description="non directrice :", style=WIDE)
        self.surprised = widgets.Checkbox(value=False, indent=False,
                                          description="surpris (round 1)")
        self.dice = DiceControls(seed)
        self.roll_button = button("Attaquer", button_style="primary",
                                          icon="crosshairs")
        self.odds = widgets.HTML()
        self.roll_button.on_click(lambda _b: self.roll())
        self.dice.new_seed_button.on_click(lambda _b: self.reroll())
        self._inputs = (
            self.att_cc, self.att_ct, self.weapon, self.hand, self.distance,
            self.target_engaged, self.gm_modifier, self.def_cc, self.def_ag, self.def_e,
            self.def_b, self.armour, self.head_armour, self.dodge_skill, self.defence,
            self.parry_prepared, self.two_weapons, self.main_weapon, self.off_weapon,
            self.surprised,
        )
        for control in self._inputs:
            control.observe(self._changed, names="value")
        self.ranged_box = widgets.HBox([self.distance, self.target_engaged])
        self.two_box = widgets.HBox([self.main_weapon, self.off_weapon])
        self.widget = widgets.VBox([
            widgets.HTML("<b>Parade et esquive (système d100)</b>"),
            labelled("Attaquant", self.att_cc, self.att_ct, self.weapon, self.gm_modifier),
            labelled("", self.hand),
            labelled("", self.ranged_box),
            labelled("Défenseur", self.def_cc, self.def_ag, self.def_e, self.def_b,
                     self.armour, self.head_armour),
            labelled("Défense", self.defence, self.dodge_skill),
            labelled("", self.parry_prepared, self.two_weapons, self.surprised),
            labelled("", self.two_box),
            labelled("Dés", self.dice.widget),
            self.roll_button,
            self.banner.widget,
            self.output,
            self.odds,
        ])
        self._layout()
        self.roll()

    def fighters(self) -> Fighters:
        head = self.head_armour.number
        distance = self.distance.number
        assert distance is not None and (head is None or isinstance(head, int))
        return Fighters(
            self.att_cc.integer, self.att_ct.integer, str(self.weapon.value),
            str(self.hand.value), distance, bool(self.target_engaged.value),
            self.gm_modifier.integer, self.def_cc.integer, self.def_ag.integer,
            self.def_e.integer, self.def_b.integer, self.armour.integer, head,
            bool(self.dodge_skill.value), str(self.defence.value),
            bool(self.parry_prepared.value), bool(self.two_weapons.value),
            str(self.main_weapon.value), str(self.off_weapon.value),
            bool(self.surprised.value),
        )

    def _layout(self) -> None:
        ranged = d100.get_weapon(str(self.weapon.value)).ranged
        self.ranged_box.layout.display = "" if ranged else "none"
        self.two_box.layout.display = "" if self.two_weapons.value else "none"

    def _changed(self, change: Any = None) -> None:
        self._layout()
        self.update_odds()

    def update_odds(self) -> bool:
        """Recompute the exact outcome distribution for the controls as set."""

        def compute() -> str:
            return h.join(odds_html(self.fighters()))

        html = self.banner.guard(compute)
        if html is None:
            return False
        self.odds.value = html
        return True

    def roll(self) -> bool:
        """Roll one attack (attack d100, defence d100 if it hits, damage d10 if it lands)."""

        def compute() -> tuple[str, str]:
            fighters = self.fighters()
            setup = setup_of(fighters)
            rng = self.dice.rng()
            result = d100.roll_attack(setup, rng)
            parts = [
                h.section(f"Une attaque, pas à pas ({self.dice.describe()})",
                          steps_html(result)),
                h.paragraph(f"<b>{h.esc(result.sentence)}</b>", raw=True),
                h.dice_line([(d.faces, d.value, d.purpose) for d in result.dice]),
                h.rules_line(result.rules),
            ]
            note = self.dice.leftover(rng)
            if note:
                parts.append(h.notice(note))
            return h.join(*parts), h.join(odds_html(fighters))

        return self._show_with_odds(compute)
