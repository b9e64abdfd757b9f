"""A GM's combat tracker for any rule system, on top of :class:`escarmouche.encounter.Encounter`.

Roster, initiative (rolled with a seed or typed as manual dice), the next activation,
actions, effects with their timing, damage and healing, the French log, and a JSON
export/import so that nothing is lost on a reload (``Encounter.to_json``/``from_json``).

The widget holds no fight logic: every button calls one atomic operation of the
encounter; a rejected operation shows the engine's French message and changes nothing.
"""

from __future__ import annotations

import base64
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import ipywidgets as widgets

from escarmouche import Combatant, Effect, EscarmoucheError, Event, Timing
from escarmouche import systems as _systems
from escarmouche.encounter import Encounter
from escarmouche.model import TIMING_LABELS, timing_label
from escarmouche.systems.base import ENVIRONMENT
from escarmouche.text.fmt import de, signed
from escarmouche_widgets import _html as h
from escarmouche_widgets._controls import (
    WIDE,
    Demo,
    DiceControls,
    RosterEditor,
    button,
    labelled,
    number_box,
)
from escarmouche_widgets._initiative_views import initiative_odds
from escarmouche_widgets._parse import (
    NumberField,
    RosterRow,
    parse_idents,
    parse_params,
    parse_stats,
    roster_rows,
)

__all__ = ["CombatTracker", "load_encounter"]

SAVE_NAME = "combat-escarmouche.json"
#: the parameter that names an action's target (« cible », in every system)
TARGET_PARAMS = ("cible",)
#: the damage or healing box: what ``Encounter.adjust`` accepts (CORE-ERR), never clamped
AMOUNT = NumberField("valeur des dégâts ou des soins", 0, 100_000, "CORE-ERR")
#: the duration box: 0 (no end) or what an effect accepts, 1–10 000 (CORE-ERR)
DURATION = NumberField("durée de l’effet", 0, 10_000, "CORE-ERR")
_TIMINGS = [(TIMING_LABELS[t], t.value) for t in Timing]
_NO_ONE = "(aucun)"


def load_encounter(text: str) -> Encounter:
    """An encounter from its JSON save; a corrupted save raises a French
    :class:`~escarmouche.errors.SaveError` naming the path in the file."""
    if not text.strip():
        raise EscarmoucheError(
            "Sauvegarde vide : collez le JSON exporté, ou choisissez un fichier (CORE-LOG).",
            field="sauvegarde", value="", rule="CORE-LOG",
        )
    # the text, the published schema and the consistency are all checked there
    return Encounter.from_json(text)


def download_link(text: str, filename: str = SAVE_NAME) -> str:
    """A link that saves ``text`` as a file, in the live page and the static one."""
    payload = base64.b64encode(text.encode("utf-8")).decode("ascii")
    return (
        f'<a download="{h.esc(filename)}" href="data:application/json;charset=utf-8;'
        f'base64,{payload}">⬇ Télécharger {h.esc(filename)}</a>'
    )


def example_rows(system: str) -> list[RosterRow]:
    """The system's example roster (:attr:`System.sample_roster`), as editable rows."""
    return roster_rows(_systems.get(system).sample_roster)


def odds_chart(enc: Encounter) -> str:
    """The exact initiative odds of the fight's roster, as its system gives them
    (:meth:`System.first_to_act`; ``""`` when it gives none)."""
    combatants = tuple(f.combatant for f in enc.state.fighters.values())
    odds = initiative_odds(enc.system, combatants, enc.rules,
                           enc.system.initiative_options_of(enc.state))
    return h.join(odds) if odds else ""


def status_html(enc: Encounter | None) -> str:
    """The fight at a glance: turn, order (current slot marked), fighters, effects."""
    if enc is None:
        return h.paragraph("Aucun combat en cours : composez le groupe et cliquez sur "
                           "« Commencer le combat ».")
    st = enc.state
    word = enc.system.turn_word
    parts: list[str] = []
    title = enc.system.title or st.system
    if not st.started:
        parts.append(h.paragraph(f"{title} : combat pas encore commencé."))
    elif st.finished:
        parts.append(h.paragraph(f"{title} — combat terminé : {st.outcome}."))
    else:
        who = st.current or "—"
        whose = de(who)[: -len(who)] if st.current else "de "  # « d’ » or « de »
        if st.current == ENVIRONMENT:
            whose = "de l’"
        moment = ("au tour" if enc.system.activation_word == "tour"
                  else f"à l’{enc.system.activation_word}")
        parts.append(h.paragraph(
            f"{title} — {word} {st.turn}, {moment} {whose}<b>{h.esc(who)}</b>.",
            raw=True,
        ))
    if st.started and st.order:
        slots = []
        for i, name in enumerate(st.order):
            label = h.esc(name)
            if i == st.cursor and not st.finished:
                label = f"<b>▶ {label}</b>"
            elif i < st.cursor:
                label = f'<span style="color: #888">{label}</span>'
            slots.append(label)
        parts.append(h.paragraph(f"Ordre du {word} {st.turn} : " + " → ".join(slots),
                                 raw=True))
    rows = []
    for f in st.fighters.values():
        known = list(enc.system.tracks)
        keys = sorted(f.tracks, key=lambda k: (known.index(k) if k in known else len(known),
                                               k))
        tracks = ", ".join(f"{k} {f.tracks[k]}/{f.maxima.get(k, f.tracks[k])}"
                           for k in keys) or "—"
        state = "hors de combat" if f.out else "en fuite" if f.fled else "debout"
        effects = ", ".join(
            f"{e.name} ({e.id})" for e in st.effects if e.bearer == f.name
        ) or "—"
        rows.append((f.name, f.side, tracks, state, effects))
    parts.append(h.table(("Combattant", "Camp", "Pistes", "État", "Effets"), rows))
    if st.effects:
        erows = []
        for e in st.effects:
            when = timing_label(e.timing, turn_word=enc.system.turn_word,
                                activation_word=enc.system.activation_word)
            if e.timing is Timing.UNTIL_NEXT_TURN_OF and e.until_turn_of:
                when = f"{when.removesuffix(' de')} {de(e.until_turn_of)}"
            left = "sans fin" if e.remaining is None else str(e.remaining)
            tick = ", ".join(f"{k} {signed(v)}" for k, v in e.per_tick.items()) or "—"
            erows.append((e.id, e.name, e.bearer or "global", when, left, tick,
                          "oui" if e.save_ends else "non"))
        parts.append(h.section("Effets en cours", h.table(
            ("Id", "Effet", "Porteur", "Quand", "Reste", "Par tic", "Fin sur JS"), erows)))
    return h.join(*parts)


def events_html(events: Sequence[Event], heading: str) -> str:
    """What one operation did: its French lines, the dice rolled, the rule IDs."""
    lines = [e.text for e in events if e.kind != "des"]
    dice = [(d.faces, d.value, d.purpose) for e in events for d in e.dice]
    rules = [r for e in events for r in e.rules]
    return h.join(
        h.section(heading, h.bullet_list(lines) if lines else h.paragraph("Rien ne change.")),
        h.dice_line(dice),
        h.rules_line(rules),
    )


def log_html(enc: Encounter | None) -> str:
    if enc is None or not enc.state.log:
        return ""
    text = enc.narration()
    return (
        "<details open><summary><b>Journal du combat</b></summary>"
        '<pre style="max-height: 18em; overflow: auto; white-space: pre-wrap; '
        f'font-size: 13px">{h.esc(text)}</pre></details>'
    )


class CombatTracker(Demo):
    """The GM's tracker. Controls are attributes (``system``, ``roster``, ``dice``,
    ``start_button``, ``next_button``, ``act_button`` …) so a test can drive it."""

    def __init__(self, system: str = _systems.DEFAULT, rows: Iterable[RosterRow] | None = None,
                 *, systems: Sequence[str] | None = None, seed: int = 1) -> None:
        super().__init__()
        self.encounter: Encounter | None = None
        self._target_param: str | None = None
        offered = _systems.available() if systems is None else tuple(systems)
        self.system = widgets.Dropdown(
            options=[(_systems.get(n).title or n, n) for n in offered], value=system,
            description="Système :", style=WIDE, layout=widgets.Layout(width="28em"),
        )
        self.roster = RosterEditor(
            rows if rows is not None else example_rows(system), with_skills=True,
        )
        self.dice = DiceControls(seed)
        self.start_options = widgets.Text(
            description="Options de départ :", style=WIDE,
            placeholder=_systems.get(system).start_hint, layout=widgets.Layout(width="30em"),
        )
        self.start_button = button("Commencer le combat",
                                           button_style="primary", icon="play")
        self.load_roster_button = button("Groupe d’exemple",
                                                 tooltip="le groupe d’exemple du système")
        # the fight
        self.actor = widgets.Dropdown(description="Acteur :", style=WIDE, options=[])
        self.action = widgets.Dropdown(description="Action :", style=WIDE, options=[])
        self.target = widgets.Dropdown(description="Cible :", style=WIDE, options=[])
        self.params = widgets.Text(description="Paramètres :", style=WIDE,
                                   placeholder="clé=valeur, …")
        self.act_button = button("Agir", icon="bolt")
        self.next_button = button("Activation suivante",
                                          icon="step-forward")
        self.finish_button = button("Terminer le combat", icon="flag")
        # damage and healing
        self.damage_who = widgets.Dropdown(description="Qui :", style=WIDE, options=[])
        self.damage_track = widgets.Dropdown(description="Piste :", style=WIDE, options=[])
        self.damage_amount = number_box(AMOUNT, 1, "Valeur :", width="10em")
        self.damage_kind = widgets.ToggleButtons(style={"button_width": "auto"},
                                                 options=["dégâts", "soins"], value="dégâts")
        self.damage_button = button("Appliquer", icon="heartbeat")
        # effects
        self.effect_name = widgets.Text(description="Effet :", style=WIDE,
                                        placeholder="poison")
        self.effect_bearer = widgets.Dropdown(description="Porteur :", style=WIDE,
                                              options=[])
        self.effect_timing = widgets.Dropdown(description="Moment :", style=WIDE,
                                              options=_TIMINGS,
                                              value=Timing.ACTIVATION_START.value)
        self.effect_until = widgets.Dropdown(description="Jusqu’au tour de :", style=WIDE,
                                             options=[])
        self.effect_duration = number_box(DURATION, 3, "Durée (0 = sans fin) :", width="14em")
        self.effect_per_tick = widgets.Text(description="Par tic :", style=WIDE,
                                            placeholder="PV=-2")
        self.effect_save = widgets.Checkbox(description="prend fin sur un jet de sauvegarde",
                                            indent=False)
        self.effect_keywords = widgets.Text(description="Mots-clés :", style=WIDE,
                                            placeholder="poison, terreur")
        self.effect_button = button("Ajouter l’effet", icon="plus")
        self.effect_remove = widgets.Dropdown(description="Effet en cours :", style=WIDE,
                                              options=[])
        self.effect_remove_button = button("Retirer l’effet",
                                                   icon="minus")
        # save and restore
        self.json = widgets.Textarea(
            placeholder="la sauvegarde JSON du combat", layout=widgets.Layout(
                width="100%", height="8em"),
        )
        self.export_button = button("Exporter (JSON)", icon="download")
        self.import_button = button("Importer (JSON)", icon="upload")
        self.upload = widgets.FileUpload(accept=".json,application/json", multiple=False,
                                         description="Importer un fichier")
        self.download = widgets.HTML("")
        # views
        self.status = widgets.HTML(status_html(None))
        self.chart = widgets.HTML("")
        self.log = widgets.HTML("")

        self.system.observe(self._on_system, names="value")
        self.load_roster_button.on_click(lambda _b: self.load_example())
        self.start_button.on_click(lambda _b: self.start())
        self.next_button.on_click(lambda _b: self.next_activation())
        self.act_button.on_click(lambda _b: self.do_action())
        self.finish_button.on_click(lambda _b: self.finish())
        self.damage_button.on_click(lambda _b: self.apply_damage())
        self.effect_button.on_click(lambda _b: self.add_effect())
        self.effect_remove_button.on_click(lambda _b: self.remove_effect())
        self.export_button.on_click(lambda _b: self.export())
        self.import_button.on_click(lambda _b: self.import_json())
        self.upload.observe(self._on_upload, names="value")
        self.actor.observe(self._on_actor, names="value")
        self.action.observe(self._on_action, names="value")
        self.damage_who.observe(self._on_damage_who, names="value")

        tabs = widgets.Tab(children=[
            widgets.VBox([
                widgets.HBox([self.actor, self.action]),
                widgets.HBox([self.target, self.params]),
                widgets.HBox([self.act_button, self.next_button, self.finish_button]),
            ]),
            widgets.VBox([
                widgets.HBox([self.damage_who, self.damage_track]),
                widgets.HBox([self.damage_amount, self.damage_kind, self.damage_button]),
            ]),
            widgets.VBox([
                widgets.HBox([self.effect_name, self.effect_bearer]),
                widgets.HBox([self.effect_timing, self.effect_until]),
                widgets.HBox([self.effect_duration, self.effect_per_tick]),
                widgets.HBox([self.effect_keywords, self.effect_save]),
                self.effect_button,
                widgets.HBox([self.effect_remove, self.effect_remove_button]),
            ]),
            widgets.VBox([
                widgets.HBox([self.export_button, self.import_button, self.upload]),
                self.download, self.json,
            ]),
        ])
        for i, title in enumerate(("Tour", "Dégâts et soins", "Effets", "Sauvegarde")):
            tabs.set_title(i, title)
        self.tabs = tabs
        self.widget = widgets.VBox([
            self.system,
            self.roster.widget,
            self.load_roster_button,
            labelled("Dés", self.dice.widget),
            widgets.HTML("<small>Avec les dés manuels, tapez avant chaque opération "
                         "(début du combat, action, activation suivante) les dés qu’elle "
                         "lance, dans l’ordre de la règle ; avec une graine, le même combat "
                         "se rejoue à l’identique, même après un export et un import."
                         "</small>"),
            widgets.HBox([self.start_options, self.start_button]),
            self.banner.widget,
            self.status,
            self.chart,
            tabs,
            self.output,
            self.log,
        ])
        self._refresh()

    @property
    def status_text(self) -> str:
        """The fight at a glance, as text (turn, order, fighters, effects)."""
        return h.text_of(self.status.value)

    @property
    def log_text(self) -> str:
        """The French log of the fight, as text."""
        return h.text_of(self.log.value)

    # -- helpers -------------------------------------------------------------------------

    def _running(self) -> Encounter:
        if self.encounter is None:
            raise EscarmoucheError(
                "Aucun combat en cours : composez le groupe et cliquez d’abord sur "
                "« Commencer le combat » (CORE-ERR).",
                field="combat", value=None, rule="CORE-ERR",
            )
        return self.encounter

    def _rng(self, enc: Encounter | None) -> random.Random | Any:
        """Manual dice, or a rng derived from the seed and the log's length: the same
        seed replays the same fight, even after an export and an import."""
        if self.dice.manual.value:
            return self.dice.rng()
        step = len(enc.state.log) if enc is not None else 0
        return random.Random(f"{self.dice.seed_value()}:{step}")

    def _after(self, events: Sequence[Event], heading: str, rng: object = None) -> str:
        note = self.dice.leftover(rng)
        html = events_html(events, heading)
        if note:
            html = html[:-len("</div>")] + h.notice(note) + "</div>"
        self._refresh()
        return html

    def _refresh(self) -> None:
        """Bring every view and every choice list in line with the encounter."""
        enc = self.encounter
        self.status.value = status_html(enc)
        self.log.value = log_html(enc)
        names = list(enc.state.fighters) if enc is not None else []
        current = enc.current if enc is not None else None
        _set_options(self.actor, names, current if current in names else None)
        _set_options(self.target, names, None)
        _set_options(self.damage_who, names, None)
        _set_options(self.effect_bearer, [_NO_ONE, *names, ENVIRONMENT], None)
        _set_options(self.effect_until, [_NO_ONE, *names], None)
        effects = [(f"{e.id} · {e.name}" + (f" ({e.bearer})" if e.bearer else ""), e.id)
                   for e in (enc.state.effects if enc is not None else [])]
        _set_options(self.effect_remove, effects, None)
        self._on_actor()
        self._on_damage_who()

    def _on_actor(self, change: Any = None) -> None:
        enc = self.encounter
        specs = enc.actions(self.actor.value) if enc is not None and self.actor.value else []
        options = [(s.label + (f" ({s.cost})" if s.cost else ""), s.id) for s in specs]
        _set_options(self.action, options, None)
        self._on_action()

    def _on_action(self, change: Any = None) -> None:
        enc = self.encounter
        params: tuple[str, ...] = ()
        if enc is not None and self.actor.value:
            for spec in enc.actions(self.actor.value):
                if spec.id == self.action.value:
                    params = spec.params
        self._target_param = next((p for p in TARGET_PARAMS if p in params), None)
        self.target.layout.display = "" if self._target_param else "none"
        others = [p for p in params if p != self._target_param]
        self.params.placeholder = ", ".join(f"{p}=…" for p in others) or "clé=valeur, …"

    def _on_damage_who(self, change: Any = None) -> None:
        enc = self.encounter
        tracks: list[str] = []
        if enc is not None and self.damage_who.value in enc.state.fighters:
            tracks = list(enc.state.fighters[self.damage_who.value].tracks)
        _set_options(self.damage_track, tracks, None)

    def _on_system(self, change: Any = None) -> None:
        self.start_options.placeholder = _systems.get(self.system.value).start_hint
        self.load_example()

    def _on_upload(self, change: Any = None) -> None:
        files = self.upload.value
        if not files:
            return
        item = files[0] if isinstance(files, (tuple, list)) else next(iter(files.values()))
        content = item["content"]
        raw = content.tobytes() if isinstance(content, memoryview) else bytes(content)

        def compute() -> str:
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise EscarmoucheError(
                    "Fichier de sauvegarde illisible : un fichier JSON en UTF-8 est attendu "
                    "(CORE-LOG).", field="sauvegarde", value=item.get("name"), rule="CORE-LOG",
                ) from None
            self.json.value = text
            return self._import(text)

        self._show(compute)

    # -- the operations (one per button) -------------------------------------------------

    def load_example(self) -> None:
        """Replace the roster by the example roster of the chosen system."""
        self.roster.set_rows(example_rows(str(self.system.value)))

    def start(self) -> bool:
        """Build the roster, roll (or read) initiative and start the first activation."""

        def compute() -> str:
            combatants: list[Combatant] = self.roster.combatants()
            options = parse_params(self.start_options.value)
            enc = Encounter(self.system.value, combatants)
            rng = self._rng(None)
            events = enc.start(rng, **options)
            chart = odds_chart(enc)
            self.encounter = enc
            self.chart.value = chart
            self.json.value = ""
            self.download.value = ""
            return self._after(events, f"Début du combat ({self.dice.describe()})", rng)

        return self._show(compute)

    def next_activation(self) -> bool:
        """End the current activation and start the next one."""

        def compute() -> str:
            enc = self._running()
            rng = self._rng(enc)
            events = enc.end_activation(rng)
            return self._after(events, "Activation suivante", rng)

        return self._show(compute)

    def do_action(self) -> bool:
        """The chosen actor takes the chosen action (target and parameters)."""

        def compute() -> str:
            enc = self._running()
            if not self.action.value:
                raise EscarmoucheError(
                    f"Aucune action possible : « {self.actor.value} » ne peut rien faire "
                    "maintenant (CORE-ERR).", field="action", value=None, rule="CORE-ERR",
                )
            params = parse_params(self.params.value)
            if self._target_param and self.target.value:
                params.setdefault(self._target_param, self.target.value)
            rng = self._rng(enc)
            events = enc.act(str(self.actor.value), str(self.action.value), rng, **params)
            return self._after(events, f"{self.actor.value} : {self.action.label}", rng)

        return self._show(compute)

    def finish(self) -> bool:
        def compute() -> str:
            enc = self._running()
            return self._after(enc.finish(), "Fin du combat")

        return self._show(compute)

    def apply_damage(self) -> bool:
        """Damage (or heal) a track by the value typed (a GM adjustment)."""

        def compute() -> str:
            enc = self._running()
            who, track = self.damage_who.value, self.damage_track.value
            if not who or not track:
                raise EscarmoucheError(
                    "Aucune piste choisie : choisissez un combattant et une piste (CORE-ERR).",
                    field="piste", value=None, rule="CORE-ERR",
                )
            amount = self.damage_amount.integer
            delta = -amount if self.damage_kind.value == "dégâts" else amount
            events = enc.adjust(str(who), str(track), delta, reason=str(self.damage_kind.value))
            return self._after(events, f"{self.damage_kind.value.capitalize()} : {who}")

        return self._show(compute)

    def add_effect(self) -> bool:
        """Add the effect described by the « Effets » controls."""

        def compute() -> str:
            enc = self._running()
            name = self.effect_name.value.strip()
            if not name:
                raise EscarmoucheError(
                    "Effet sans nom : donnez un nom à l’effet, par exemple « poison » "
                    "(CORE-ERR).", field="effet", value="", rule="CORE-ERR",
                )
            bearer = None if self.effect_bearer.value == _NO_ONE else self.effect_bearer.value
            until = None if self.effect_until.value == _NO_ONE else self.effect_until.value
            duration = self.effect_duration.integer
            effect = Effect(
                id="",
                name=name,
                timing=Timing(self.effect_timing.value),
                bearer=bearer,
                remaining=duration or None,
                until_turn_of=until,
                per_tick=parse_stats(self.effect_per_tick.value, name),
                save_ends=bool(self.effect_save.value),
                keywords=parse_idents(self.effect_keywords.value),
                kind=_effect_kind(parse_stats(self.effect_per_tick.value, name)),
            )
            return self._after(enc.add_effect(effect), f"Effet ajouté : {name}")

        return self._show(compute)

    def remove_effect(self) -> bool:
        def compute() -> str:
            enc = self._running()
            if not self.effect_remove.value:
                raise EscarmoucheError(
                    "Aucun effet à retirer : aucun effet n’est en cours (CORE-ERR).",
                    field="effet", value=None, rule="CORE-ERR",
                )
            return self._after(enc.remove_effect(str(self.effect_remove.value)),
                               "Effet retiré")

        return self._show(compute)

    def export(self) -> bool:
        """Write the fight as JSON in the text box and offer it as a file."""

        def compute() -> str:
            enc = self._running()
            text = enc.to_json()
            self.json.value = text
            self.download.value = download_link(text)
            return h.join(h.paragraph(
                f"Combat exporté ({len(enc.state.log)} événements) : copiez le JSON ci-dessous "
                "ou téléchargez le fichier ; « Importer » le restaure tel quel."))

        return self._show(compute)

    def import_json(self) -> bool:
        """Restore the fight from the JSON in the text box."""
        return self._show(lambda: self._import(self.json.value))

    def _import(self, text: str) -> str:
        enc = load_encounter(text)
        self.chart.value = odds_chart(enc)
        if enc.state.system in [v for _, v in self.system.options]:
            self.system.value = enc.state.system
        self.encounter = enc
        self.roster.set_rows(roster_rows(f.combatant for f in enc.state.fighters.values()))
        self._refresh()
        return h.join(h.paragraph(
            f"Combat restauré : {len(enc.state.fighters)} combattants, "
            f"{len(enc.state.log)} événements, {enc.system.turn_word} {enc.turn}."))


def _effect_kind(per_tick: Mapping[str, int]) -> str:
    """« dégâts continus » or « régénération » when the effect only hurts or only heals."""
    values = list(per_tick.values())
    if values and all(v < 0 for v in values):
        return "degats_continus"
    if values and all(v > 0 for v in values):
        return "regeneration"
    return "generique"


def _set_options(dropdown: widgets.Dropdown, options: Sequence[str | tuple[str, str]],
                 prefer: str | None) -> None:
    """Replace a dropdown's options (values or ``(label, value)`` pairs), keeping its
    value when still offered, else ``prefer``, else the first option."""
    old = dropdown.value
    options = list(options)
    values = [o[1] if isinstance(o, tuple) else o for o in options]
    if list(dropdown.options) != options:
        dropdown.options = options
    if prefer is not None and prefer in values:
        dropdown.value = prefer
    elif old in values:
        dropdown.value = old
    elif values:
        dropdown.value = values[0]
