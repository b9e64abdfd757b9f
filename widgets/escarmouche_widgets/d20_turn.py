"""Demo « Le tour d20 »: one creature's turn, phase by phase (system d20).

Brune stands next to Grolk, Vex watches from afar. Her turn: ongoing damage, then
regeneration (D20-START-1); her actions within the budget, with the action points
(D20-ACT-1..3); Grolk's opportunity attack when she leaves his side or shoots next to
him (D20-OPP-*); Vex's immediate interrupt against her attack (D20-IMM-*); the saving
throws and the effects that end with her turn (D20-END-1/2). Everything runs in an
:class:`~escarmouche.encounter.Encounter` of the d20 system: the widget only sets the
scene and reads the log.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import ipywidgets as widgets

from escarmouche import Combatant, Effect, Event, Timing, checks
from escarmouche.encounter import Encounter
from escarmouche.errors import invalid
from escarmouche.systems import d20
from escarmouche.systems.d20 import rules as d20_rules
from escarmouche.text.fmt import join, number, percent, quote
from escarmouche.text.typo import typographie
from escarmouche_widgets import _charts
from escarmouche_widgets import _html as h
from escarmouche_widgets._controls import WIDE, Demo, DiceControls, button, labelled, number_box
from escarmouche_widgets._parse import NumberField, fold_ident

#: the scene's number boxes, bounded as the d20 rules bound them
HP = NumberField("PV de Brune", *d20_rules.HP_RANGE, "CORE-ERR")
ACTION_POINTS = NumberField("points d’action", 0, d20_rules.MAX_ACTION_POINTS, "D20-ACT-3")
POINTS_SPENT = NumberField("points d’action dépensés", 0, d20_rules.MAX_ACTION_POINTS,
                           "D20-ACT-3")
ONGOING = NumberField("dégâts continus", 0, d20_rules.HP_RANGE[1], "D20-START-1")
REGENERATION = NumberField("régénération", 0, d20_rules.HP_RANGE[1], "D20-START-1")

__all__ = ["ACTOR", "D20TurnDemo", "Scene", "TurnResult", "play_turn"]

ACTOR = "Brune"
ENEMY = "Grolk"  # adjacent: the opportunity attack
CASTER = "Vex"  # far: the immediate interrupt
POSITIONS = {ACTOR: [0, 0], ENEMY: [1, 0], CASTER: [6, 0]}

#: the actions the demo knows (ids of :data:`escarmouche.systems.d20.ACTIONS`)
TURN_ACTIONS = ("deplacement", "attaquer", "degainer", "ouvrir_porte", "simple", "mouvement",
                "mineure", "parler", "lacher_objet", "libre")
#: each action as a reader types it (in French, accents included; it folds to its id)
TYPED: dict[str, str] = {
    "deplacement": "déplacement", "attaquer": "attaquer", "degainer": "dégainer",
    "ouvrir_porte": "ouvrir porte", "simple": "simple", "mouvement": "mouvement",
    "mineure": "mineure", "parler": "parler", "lacher_objet": "lâcher objet", "libre": "libre",
}

INTERRUPTS: dict[str, str] = {
    "": "pas d’interruption",
    "arret": "interruption : « Bouclier de force » annule l’attaque",
    "attaque": "interruption : Vex frappe Brune avant son attaque",
}


@dataclass(frozen=True, slots=True)
class Scene:
    """The controls' values (hashable)."""

    hp: int = 20
    trait: str = "nain"
    action_points: int = 1
    ongoing: int = 3
    keyword: str = "poison"
    ongoing_save: bool = True
    regeneration: int = 2
    dazed: bool = True
    actions: tuple[str, ...] = ("deplacement", "attaquer", "degainer")
    points_spent: int = 0
    opportunity: bool = True
    interrupt: str = "arret"


#: an action typed by its label (« Ouvrir une porte ») is that action too
_LABELLED = {fold_ident(d20.ACTIONS[a].label): a for a in TURN_ACTIONS if a in d20.ACTIONS}


def parse_actions(text: str) -> tuple[str, ...]:
    """``"déplacement, attaquer, dégainer"`` → action ids (French error if unknown)."""
    out = []
    for raw in (p for p in text.replace(";", ",").split(",") if p.strip()):
        ident = fold_ident(raw)
        ident = _LABELLED.get(ident, ident)
        if ident not in TURN_ACTIONS:
            raise invalid("actions", raw.strip(), "D20-ACT-1",
                          "action inconnue, à choisir parmi "
                          f"{join([quote(t) for t in TYPED.values()], last='ou')}")
        out.append(ident)
    return tuple(out)


@dataclass
class TurnResult:
    """Brune's turn: the events of each phase, the budget and the encounter."""

    encounter: Encounter
    before: list[Event]
    start: list[Event]
    actions: list[Event]
    end: list[Event]
    plan: d20.TurnPlan


def _roster(scene: Scene) -> list[Combatant]:
    traits = {scene.trait} if scene.trait else set()
    return [
        Combatant(ACTOR, "héros", {"PV": scene.hp, "init": 2, "attaque": 5, "defense": 14,
                                    "PA": scene.action_points}, traits=traits),
        Combatant(ENEMY, "monstres", {"PV": 30, "init": 1, "attaque": 4, "defense": 12}),
        Combatant(CASTER, "monstres", {"PV": 18, "init": 3, "attaque": 3, "defense": 13}),
    ]


def _effects(scene: Scene) -> list[Effect]:
    out: list[Effect] = []
    if scene.ongoing:
        out.append(Effect(
            "", f"{scene.keyword.capitalize()} ({scene.ongoing} par tour)",
            Timing.ACTIVATION_START, bearer=ACTOR, kind="degats_continus",
            per_tick={"PV": -scene.ongoing}, save_ends=scene.ongoing_save,
            keywords=frozenset({scene.keyword}),
        ))
    if scene.regeneration:
        out.append(Effect("", "Régénération", Timing.ACTIVATION_START, bearer=ACTOR,
                          kind="regeneration", per_tick={"PV": scene.regeneration}))
    if scene.dazed:
        out.append(Effect("", "Hébété (jusqu’à la fin de son tour)", Timing.ACTIVATION_END,
                          bearer=ACTOR, remaining=1))
    return out


def play_turn(scene: Scene, rng: Any) -> TurnResult:
    """Set the scene, roll initiative, play the others' turns until Brune's, then hers."""
    checks.integer("dégâts continus", scene.ongoing, lo=0, hi=d20_rules.HP_RANGE[1],
                   rule="D20-START-1")
    checks.integer("régénération", scene.regeneration, lo=0, hi=d20_rules.HP_RANGE[1],
                   rule="D20-START-1")
    plan = d20.plan_turn(scene.actions, action_points=scene.points_spent, who=ACTOR)
    enc = Encounter(d20.SYSTEM, _roster(scene))
    for effect in _effects(scene):
        enc.add_effect(effect)
    before = enc.start(rng, positions=POSITIONS)
    for _ in range(len(POSITIONS)):
        if enc.current == ACTOR:
            break
        before += enc.end_activation(rng)
    log = enc.log
    first = max(i for i, e in enumerate(log) if e.kind == "activation" and e.actor == ACTOR)
    start = log[first:]
    before = log[:first]
    actions: list[Event] = []
    for _ in range(scene.points_spent):
        actions += enc.act(ACTOR, "point_action", rng)
    for action in scene.actions:
        if not enc.fighter(ACTOR).standing:
            break
        # an allowance is used only by a reaction that took place (D20-OPP-1, D20-IMM-1)
        opportunity_left = scene.opportunity and d20.can_react(enc.state, ENEMY,
                                                               "attaque_opportunite")
        interrupt_left = bool(scene.interrupt) and d20.can_react(enc.state, CASTER,
                                                                 "interruption")
        params: dict[str, Any] = {}
        reactions: list[dict[str, Any]] = []
        here = enc.fighter(ACTOR).flags["pos"]
        near_enemy = d20.is_adjacent(here, enc.fighter(ENEMY).flags["pos"])
        if action == "deplacement":
            params["chemin"] = [[here[0] - 1, here[1]]]
            trigger = "quitte_case_adjacente"
        elif action == "attaquer":
            params.update(cible=CASTER, portee="distance", arme="1d8")
            trigger = "attaque_distance"
            if interrupt_left:
                reactions.append({"par": CASTER, "type": "interruption",
                                  "effet": scene.interrupt,
                                  "nom": "Bouclier de force" if scene.interrupt == "arret"
                                  else "Trait de feu"})
        else:
            params["description"] = d20.ACTIONS[action].label.lower()
            trigger = ""
        if opportunity_left and trigger and d20.opportunity_attack_allowed(trigger, near_enemy):
            reactions.append({"par": ENEMY, "type": "attaque_opportunite"})
        if reactions:
            params["reactions"] = reactions
        actions += enc.act(ACTOR, action, rng, **params)
    end = enc.end_activation(rng)
    cut = next((i for i, e in enumerate(end) if e.kind in ("activation", "debut_tour")),
               len(end))
    return TurnResult(enc, before, start, actions, end[:cut], plan)


def _lines(events: Sequence[Event]) -> list[str]:
    return [e.text for e in events if e.kind not in ("des", "activation")]


def _dice(events: Sequence[Event]) -> list[tuple[int, int, str]]:
    return [(d.faces, d.value, d.purpose or e.kind) for e in events for d in e.dice]


def turn_html(result: TurnResult, source: str) -> str:
    enc = result.encounter
    actor = enc.fighter(ACTOR)
    order = next((e.text for e in result.before if e.kind == "initiative"), "")
    rules = [r for e in (*result.start, *result.actions, *result.end) for r in e.rules]
    rules += list(result.plan.rules)
    return "".join([
        h.section(f"Le tour de {ACTOR} ({source})", h.paragraph(order)),
        h.section("1. Début du tour (D20-START-1)", h.bullet_list(_lines(result.start))),
        h.section("2. Actions (D20-ACT-1 à 3, opportunité, interruption)",
                  h.table(("Action", "Catégorie", "Emplacement occupé"),
                          result.plan.rows())
                  + h.bullet_list(_lines(result.actions) or ["Aucune action."])),
        h.section("3. Fin du tour (D20-END-1, D20-END-2)",
                  h.bullet_list(_lines(result.end))),
        h.paragraph(f"{ACTOR} finit son tour à {actor.tracks['PV']} PV"
                    + (" (hors de combat)." if not actor.standing else ".")),
        h.dice_line(_dice([*result.start, *result.actions, *result.end]),
                    label="Dés lancés pendant le tour"),
        h.dice_line(_dice(result.before), label="Dés d’initiative"),
        h.rules_line(rules),
    ])


@functools.lru_cache(maxsize=32)
def odds_html(trait: str, keyword: str, save_ends: bool) -> str:
    """Exact odds of the saving throw against the ongoing damage and of its duration."""
    actor = Combatant(ACTOR, "héros", traits={trait} if trait else set())
    bonus = d20.save_bonus(actor, {keyword})
    save = d20.save_odds(bonus)
    duration = d20.duration_odds(bonus, max_turns=6)
    note = "" if save_ends else (
        " (Ici l’effet ne prend pas fin sur une sauvegarde : aucun jet ne sera fait.)")
    return "".join([
        h.section("Chances exactes", h.paragraph(
            f"Jet de sauvegarde contre « {keyword} » : 1d20 {'+' if bonus >= 0 else '−'} "
            f"{number(abs(bonus))} ≥ "
            f"{number(save.target)} réussit avec {percent(save.success)} de chances "
            f"(D20-END-1) ; l’effet dure en moyenne {duration.mean_text()}.{note}")),
        _charts.side_by_side(
            _charts.bars(save.bars(), "Jet de sauvegarde (D20-END-1)"),
            _charts.bars(duration.bars(), "Durée de l’effet (fin de tour)"),
        ),
        h.paragraph("Durée : " + " ; ".join(f"{n} {percent(p)}" for n, p in duration.bars())
                    + "."),
    ])


class D20TurnDemo(Demo):
    """Controls: ``hp``, ``trait``, ``action_points`` (Brune), ``ongoing``, ``keyword``,
    ``ongoing_save``, ``regeneration``, ``dazed`` (her effects), ``actions`` (text),
    ``points_spent``, ``opportunity`` (Grolk), ``interrupt`` (Vex), ``dice``;
    ``roll_button`` (« Jouer le tour »)."""

    def __init__(self, scene: Scene = Scene(), *, seed: int = 1) -> None:
        super().__init__()

        self.hp = number_box(HP, scene.hp, "PV :", width="8em")
        self.trait = widgets.Dropdown(options=[("aucun", ""), ("nain", "nain"),
                                               ("halfelin", "halfelin")],
                                      value=scene.trait, description="Trait :", style=WIDE)
        self.action_points = number_box(ACTION_POINTS, scene.action_points,
                                        "Points d’action :", width="12em")
        self.ongoing = number_box(ONGOING, scene.ongoing, "Dégâts continus :", width="12em")
        self.keyword = widgets.Dropdown(options=["poison", "terreur", "feu"],
                                        value=scene.keyword, description="type :",
                                        style=WIDE)
        self.ongoing_save = widgets.Checkbox(value=scene.ongoing_save, indent=False,
                                             description="(sauvegarde pour y mettre fin)")
        self.regeneration = number_box(REGENERATION, scene.regeneration, "Régénération :",
                                       width="12em")
        self.dazed = widgets.Checkbox(value=scene.dazed, indent=False,
                                      description="hébétée jusqu’à la fin de son tour")
        self.actions = widgets.Text(value=", ".join(TYPED[a] for a in scene.actions),
                                    description="Actions du tour :", style=WIDE,
                                    layout=widgets.Layout(width="34em"))
        self.points_spent = number_box(POINTS_SPENT, scene.points_spent,
                                       "Points d’action dépensés :", width="16em")
        self.opportunity = widgets.Checkbox(
            value=scene.opportunity, indent=False,
            description="Grolk (adjacent) tente une attaque d’opportunité")
        self.interrupt = widgets.Dropdown(
            options=[(typographie(label), key) for key, label in INTERRUPTS.items()],
            value=scene.interrupt, description="Vex :", style=WIDE,
            layout=widgets.Layout(width="34em"))
        self.dice = DiceControls(seed)
        self.roll_button = button("Jouer le tour",
                                          button_style="primary", icon="play")
        self.odds = widgets.HTML()
        self.roll_button.on_click(lambda _b: self.roll())
        self.dice.new_seed_button.on_click(lambda _b: self.reroll())
        for control in (self.trait, self.keyword, self.ongoing_save):
            control.observe(self._changed, names="value")
        help_text = (
            "<small>Actions possibles : " + ", ".join(TYPED.values()) + ". Dés manuels, dans "
            "l’ordre : un d20 d’initiative par combattant (Brune, Grolk, Vex) ; puis, action "
            "après action, l’interruption de Vex, l’attaque d’opportunité de Grolk et "
            "l’attaque de Brune (un d20, puis les dés de dégâts si elle touche) ; enfin un "
            "d20 par jet de sauvegarde.</small>")
        self.widget = widgets.VBox([
            widgets.HTML("<b>Le tour d’une créature (système d20)</b>"),
            labelled("Brune", self.hp, self.trait, self.action_points),
            labelled("Effets", self.ongoing, self.keyword, self.ongoing_save),
            labelled("", self.regeneration, self.dazed),
            labelled("Son tour", self.actions, self.points_spent),
            labelled("Réactions", self.opportunity, self.interrupt),
            widgets.HTML(help_text),
            labelled("Dés", self.dice.widget),
            self.roll_button,
            self.banner.widget,
            self.output,
            self.odds,
        ])
        self.roll()

    def scene(self) -> Scene:
        return Scene(
            self.hp.integer, str(self.trait.value), self.action_points.integer,
            self.ongoing.integer, str(self.keyword.value), bool(self.ongoing_save.value),
            self.regeneration.integer, bool(self.dazed.value),
            parse_actions(self.actions.value), self.points_spent.integer,
            bool(self.opportunity.value), str(self.interrupt.value),
        )

    def _changed(self, change: Any = None) -> None:
        html = self.banner.guard(lambda: h.join(odds_html(
            str(self.trait.value), str(self.keyword.value), bool(self.ongoing_save.value))))
        if html is not None:
            self.odds.value = html

    def roll(self) -> bool:
        """Play Brune's turn with the seed or the typed dice."""

        def compute() -> tuple[str, str]:
            scene = self.scene()
            rng = self.dice.rng()
            result = play_turn(scene, rng)
            parts = [turn_html(result, self.dice.describe())]
            note = self.dice.leftover(rng)
            if note:
                parts.append(h.notice(note))
            return (h.join(*parts),
                    h.join(odds_html(scene.trait, scene.keyword, scene.ongoing_save)))

        return self._show_with_odds(compute)
