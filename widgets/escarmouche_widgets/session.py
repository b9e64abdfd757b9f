"""The GM's table session: the fight the tracker follows, without any widget.

A :class:`TableSession` holds what the GM's tracker (:class:`~escarmouche_widgets.
tracker.CombatTracker`, its view) shows and changes: the
:class:`~escarmouche.encounter.Encounter`, its undo history
(:class:`~escarmouche.history.History`, with the « caché » toggles as steps,
:class:`~escarmouche_widgets._tracker_model.HideSteps`), the fighters hidden from the
players, the fight a new one replaced (« Annuler » brings it back), the question asked
before a fight under way is replaced, the player view's data and the tracker's save.

It has one method per GM step (start, next activation, act, undo, redo, finish, damage
and healing, effects, « caché », export, import, change of system, example group).
Each returns an :class:`Outcome`: the result in French HTML, or a refusal in French
(the engine's :class:`~escarmouche.errors.EscarmoucheError`, as a reader reads it). A
refused step changes nothing, neither the fight nor the dice (the engine's operations
are atomic and give the rng back its state, CORE-ERR). The same shape as
:mod:`escarmouche_widgets.d20_turn`: a model, pure functions that draw it
(:mod:`escarmouche_widgets._tracker_views`), and a widget that reads its controls into
calls.

A d100 fight driven by hand (the dice of a seeded rng, D100-ATK-1):

>>> import random
>>> from escarmouche import systems
>>> table = TableSession("d100")
>>> table.start(systems.get("d100").sample_roster, rng=random.Random(1)).ok
True
>>> table.encounter.current, table.target_param("Brune", "attaquer")
('Brune', 'cible')
>>> outcome = table.act("Grolk", "attaquer", target="Brune")  # not his turn
>>> outcome.ok, outcome.error.field, outcome.error.value
(False, 'acteur', 'Grolk')
>>> table.act("Brune", "attaquer", target="Grolk", rng=random.Random(2)).ok
True
>>> table.undo().result_text
'Annulé\\xa0: Brune\\xa0: Attaque standard (demi-action). «\\xa0Rétablir\\xa0» la refait.'
"""

from __future__ import annotations

import json
import random
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from escarmouche import Combatant, Effect, EscarmoucheError, Event, Timing, savefile
from escarmouche import systems as _systems
from escarmouche.dice import Rng
from escarmouche.encounter import Encounter
from escarmouche.errors import IllegalActionError, OldNameWarning, SaveError, invalid
from escarmouche.history import History
from escarmouche.model import timing_label
from escarmouche.systems.base import ActionSpec
from escarmouche.text.fmt import de, join
from escarmouche.text.typo import typographie, typographie_html
from escarmouche_widgets import _html as h
from escarmouche_widgets._parse import RosterRow, roster_rows
from escarmouche_widgets._table import (
    load_tracker_save_steps,
    player_view,
    tracker_save,
)
from escarmouche_widgets._tracker_model import HideSteps
from escarmouche_widgets._tracker_views import (
    action_label,
    events_html,
    example_rows,
    odds_chart,
)

#: ``RosterRow`` (a roster line as typed) and ``example_rows`` are the rows of
#: :attr:`Outcome.rows`, public here for the tools that drive a session
__all__ = ["Outcome", "Question", "RosterRow", "TableSession", "example_rows", "load_encounter",
           "timings"]


@dataclass(frozen=True, slots=True)
class Question:
    """What the session asks before a fight under way is replaced: ``what`` is
    ``"start"`` (a new fight) or ``"system"`` (another system, named ``system``); the
    French ``text`` and the label of the answer that replaces (``yes``)."""

    what: str
    text: str
    yes: str
    system: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", typographie(self.text))


@dataclass(frozen=True, slots=True)
class Outcome:
    """The answer to one GM step: ``ok`` and the result as French HTML (``html``), or
    the refusal (``ok`` false) as a reader reads it (``message``, from the engine's
    ``error``, which names the field, the value and the rule). ``events`` are what the
    step added to the log; ``saved`` the JSON of an export or an import; ``rows`` the
    roster the view shows after the step (an example group, an imported fight's);
    ``asked`` the question put before the step replaces a fight under way."""

    ok: bool
    html: str = ""
    message: str = ""
    error: EscarmoucheError | None = None
    events: tuple[Event, ...] = ()
    saved: str = ""
    rows: tuple[RosterRow, ...] | None = None
    asked: Question | None = None

    @property
    def result_text(self) -> str:
        """The result as plain text (``""`` for a refusal)."""
        return h.text_of(self.html)

    def __post_init__(self) -> None:
        # French typography once, here: every face shows the result as it is
        object.__setattr__(self, "html", typographie_html(self.html))

    @classmethod
    def refused(cls, error: EscarmoucheError) -> Outcome:
        return cls(False, message=error.refusal(), error=error)


def load_encounter(text: str) -> Encounter:
    """An encounter from its JSON save (an export, or the tracker's own save); a
    corrupted save raises a French :class:`~escarmouche.errors.SaveError` that says
    what is wrong in a GM's words."""
    # the text, the published schema and the consistency are all checked there
    return load_tracker_save_steps(text)[0]


def timings(system: str) -> list[tuple[str, str]]:
    """The effect moments in ``system``'s words (« au début du tour du porteur », « au
    début de l’activation du porteur » in the Rulebook), with their values."""
    chosen = _systems.get(system)
    return [(timing_label(t, turn_word=chosen.turn_word,
                          activation_word=chosen.activation_word), t.value) for t in Timing]


#: the refusal of a step that needs a fight when none has begun (CORE-ERR)
def _no_fight() -> EscarmoucheError:
    return invalid("combat", None, "CORE-ERR", "composez le groupe et appuyez d’abord sur "
                   "« Commencer le combat »", kind=IllegalActionError)


class TableSession:
    """The fight at the GM's table and its history, one method per GM step; see the
    module docstring. ``system`` is the system chosen for the next fight (the example
    group's), ``seed`` the seed of the dice when a step is given no rng: step ``n`` of
    a fight rolls with ``Random(f"{seed}:{n}")``, so the same seed replays the same
    fight, even after an export and an import (CORE-RNG)."""

    def __init__(self, system: str = _systems.DEFAULT, *, seed: int = 1) -> None:
        _systems.get(system)  # an unknown system is refused at once, in French
        self.system = system
        self.seed = seed
        self.encounter: Encounter | None = None
        self.history = History()
        #: the fighters kept from the player view
        self.hidden: set[str] = set()
        #: the « caché » toggles as undoable steps, beside ``history``
        self.hide_steps = HideSteps()
        #: the fight a new one replaced, with its history and hidden fighters
        self.previous: tuple[Encounter, History, set[str]] | None = None
        #: the question put before a fight under way is replaced (``None``: none)
        self.asking: Question | None = None
        #: the exact initiative odds of the fight's roster (HTML, ``""``: none)
        self.chart = ""

    # -- what the views read ---------------------------------------------------------

    @property
    def under_way(self) -> bool:
        """A fight has begun and is not over."""
        enc = self.encounter
        return enc is not None and enc.state.started and not enc.state.finished

    @property
    def undo_label(self) -> str | None:
        """What « Annuler » takes back now (``None``: nothing)."""
        if self.hide_steps.next_undo(self.history) is None and self._brings_back():
            return "le nouveau combat"
        return self.hide_steps.undo_label(self.history)

    def _brings_back(self) -> bool:
        """« Annuler » now takes back the start of a fight that replaced another."""
        return self.previous is not None and len(self.history.done) <= 1

    @property
    def redo_label(self) -> str | None:
        """What « Rétablir » puts back now (``None``: nothing)."""
        return self.hide_steps.redo_label(self.history)

    def order(self) -> list[str]:
        """The fighters in turn order (then those the order leaves out)."""
        enc = self.encounter
        if enc is None:
            return []
        names = list(dict.fromkeys(n for n in enc.state.order if n in enc.state.fighters))
        return names + [n for n in enc.state.fighters if n not in names]

    def turn_sentence(self) -> str:
        """Where the fight stands, in one French sentence (``""``: no fight)."""
        enc = self.encounter
        if enc is None:
            return ""
        st = enc.state
        if not st.started:
            return "Combat pas encore commencé."
        if st.finished:
            return typographie(f"Combat terminé : {st.outcome}. « Annuler » le rouvre.")
        return typographie(f"{enc.system.turn_word.capitalize()} {st.turn} : au tour "
                           f"{de(st.current) if st.current else 'de —'}.")

    def action_spec(self, actor: str, action: str | None) -> ActionSpec | None:
        """``action`` as ``actor`` is offered it now, else as the rules define it (the
        engine then says why it is refused); ``None``: no such action."""
        enc = self.encounter
        if enc is None or not action:
            return None
        offered = next((s for s in enc.actions(actor) if s.id == action), None)
        return offered or enc.system.catalogue(enc.rules).get(action)

    def action_params(self, actor: str, action: str | None) -> tuple[str, ...]:
        """The parameters ``actor``'s ``action`` takes (none for an unknown action)."""
        spec = self.action_spec(actor, action)
        return spec.params if spec is not None else ()

    def target_param(self, actor: str, action: str | None) -> str | None:
        """The parameter that names the action's target, as its system declares it
        (:attr:`System.target_params`); ``None`` when the action takes none."""
        if self.encounter is None:
            return None
        params = self.action_params(actor, action)
        return next((p for p in self.encounter.system.target_params if p in params), None)

    def player_view(self) -> dict[str, Any]:
        """What the players may see (:func:`~escarmouche_widgets._table.player_view`)."""
        return player_view(self.encounter, self.hidden)

    @property
    def player_json(self) -> str:
        """The player view as the second window receives it (JSON)."""
        return json.dumps({"type": "etat", **self.player_view()}, ensure_ascii=False)

    def save(self) -> Outcome:
        """The tracker's own save (the autosave: the fight, its undo history, the hidden
        fighters and the « caché » steps) in ``saved``; « Importer » reads it back."""
        if self.encounter is None:
            return Outcome.refused(_no_fight())
        return Outcome(True, saved=tracker_save(self.encounter, self.history, self.hidden,
                                                self.hide_steps))

    # -- the GM's steps --------------------------------------------------------------

    def load_example(self) -> Outcome:
        """The example group of the chosen system (:attr:`System.sample_roster`)."""
        return Outcome(True, rows=tuple(example_rows(self.system)))

    def change_system(self, system: str, *, confirmed: bool = False) -> Outcome:
        """Choose the system of the next fight, with its example group; asked first
        while a fight is under way (which stays playable until a new one starts)."""
        if system == self.system:
            return Outcome(True)

        def step() -> Outcome:
            _systems.get(system)
            if self.under_way and not confirmed:
                self.asking = Question(
                    "system", "Un combat est en cours : changer de système remplace le "
                    "groupe par celui du nouveau système. Le combat en cours reste jouable "
                    "jusqu’à « Commencer le combat ».", "Changer de système", system)
                return Outcome(True, asked=self.asking)
            self.system, self.asking = system, None
            return self.load_example()

        return _guarded(step)

    def dismiss(self) -> Question | None:
        """Answer the question put (« Garder le combat en cours »): returns it."""
        asked, self.asking = self.asking, None
        return asked

    def start(self, combatants: Iterable[Combatant], options: Mapping[str, Any] | None = None,
              *, rng: Rng | None = None, replace: bool = False, source: str = "") -> Outcome:
        """Build the roster, roll initiative (``options``: the system's start options)
        and start the first activation. A fight under way is replaced only once the GM
        said so (``replace``): otherwise the session asks (:attr:`asking`) and changes
        nothing else; « Annuler » then brings the replaced fight back. ``source`` says
        where the dice came from (« graine 3 »), in the result's heading."""

        def step() -> Outcome:
            enc = Encounter(self.system, list(combatants))
            if self.under_way and not replace:
                # the roster and the options are sound: now ask
                self.asking = Question(
                    "start", "Un combat est en cours : en commencer un nouveau ? « Annuler » "
                    "pourra ramener le combat en cours.", "Remplacer le combat")
                return Outcome(True, h.paragraph(
                    "Un combat est en cours : confirmez ou gardez-le (en haut du suivi)."),
                    asked=self.asking)
            history = History()
            chosen = dict(options or {})
            dice = rng if rng is not None else random.Random(f"{self.seed}:0")
            events = history.run(enc, "Début du combat", lambda: enc.start(dice, **chosen))
            chart = odds_chart(enc)
            if self.encounter is not None and self.encounter.state.started:
                self.previous = (self.encounter, self.history, self.hidden)
            self.encounter, self.history, self.hidden = enc, history, set()
            self.hide_steps, self.chart, self.asking = HideSteps(), chart, None
            heading = f"Début du combat ({source})" if source else "Début du combat"
            return Outcome(True, events_html(events, heading), events=tuple(events))

        return _guarded(step)

    def next_activation(self, *, rng: Rng | None = None) -> Outcome:
        """End the current activation and start the next one (« Au suivant »)."""
        return self._step(lambda enc: enc.system.next_label,
                          lambda enc, dice: enc.end_activation(dice), rng)

    def act(self, actor: str, action: str | None, params: Mapping[str, Any] | None = None,
            *, target: str | None = None, rng: Rng | None = None) -> Outcome:
        """``actor`` takes ``action`` with ``params``; ``target`` fills the action's
        target parameter (:meth:`target_param`) when ``params`` leave it out."""
        chosen = dict(params or {})
        param = self.target_param(actor, action)
        if param and target:
            chosen.setdefault(param, target)

        def label(enc: Encounter) -> str:
            if not action:
                raise invalid("action", None, "CORE-ERR",
                              f"{actor} ne peut rien faire maintenant",
                              kind=IllegalActionError)
            spec = self.action_spec(actor, action)
            return f"{actor} : {action_label(spec.label, spec.cost) if spec else action}"

        return self._step(label, lambda enc, dice: enc.act(actor, str(action), dice, **chosen),
                          rng)

    def finish(self) -> Outcome:
        """End the fight (« Terminer le combat »): « Annuler » reopens it."""
        return self._step(lambda _enc: "Fin du combat", lambda enc, _dice: enc.finish())

    def adjust(self, who: str | None, track: str | None, amount: int, *,
               heal: bool = False) -> Outcome:
        """Damage (or heal, ``heal``) ``who``'s ``track`` by ``amount`` (a GM's
        adjustment, CORE-ERR)."""
        kind = "soins" if heal else "dégâts"
        delta = amount if heal else -amount
        return self._step(lambda _enc: f"{kind.capitalize()} : {who}",
                          # nothing chosen: the engine names what is missing
                          lambda enc, _dice: enc.adjust(cast(str, who or None),
                                                        cast(str, track or None), delta,
                                                        reason=kind))

    def adjust_points(self, who: str, delta: int) -> Outcome:
        """− / + on a fighter's row: its first track loses or gains ``delta``."""
        enc = self.encounter
        if enc is None:
            return Outcome.refused(_no_fight())
        if who not in enc.state.fighters:
            return self.adjust(who, None, abs(delta), heal=delta >= 0)
        tracks = list(enc.state.fighters[who].tracks)
        known = [t for t in enc.system.tracks if t in tracks] or tracks
        return self.adjust(who, known[0] if known else None, abs(delta), heal=delta >= 0)

    def add_preset(self, name: str | None, who: str | None) -> Outcome:
        """Put the system's preset ``name`` (:attr:`System.effect_presets`) on ``who``."""

        def effect(enc: Encounter) -> Effect:
            presets = enc.system.effect_presets
            preset = next((p for p in presets if p.name == name), None)
            if preset is None:
                raise invalid("effet", name, "CORE-ERR", "effets prêts de ce système : "
                              + (join([p.name for p in presets]) or "aucun"))
            if not who:
                raise invalid("porteur", None, "CORE-ERR",
                              "choisissez le combattant qui porte l’effet")
            return preset.effect(who)

        return self._effect(effect, lambda e: f"Effet ajouté : {e.name} ({e.bearer})")

    def add_effect(self, name: str, *, timing: Timing | str = Timing.ACTIVATION_START,
                   bearer: str | None = None, duration: int | None = None,
                   until_turn_of: str | None = None,
                   per_tick: Mapping[str, int] | None = None, save_ends: bool = False,
                   keywords: Iterable[str] = ()) -> Outcome:
        """Add a free effect; its kind is its system's (:meth:`System.effect_kind`)."""

        def effect(enc: Encounter) -> Effect:
            ticks = dict(per_tick or {})
            return Effect(id="", name=name.strip(), timing=Timing(timing), bearer=bearer,
                          remaining=duration or None, until_turn_of=until_turn_of,
                          per_tick=ticks, save_ends=save_ends, keywords=frozenset(keywords),
                          kind=enc.system.effect_kind(ticks))

        return self._effect(effect, lambda e: f"Effet ajouté : {e.name}")

    def remove_effect(self, effect_id: str | None) -> Outcome:
        """Remove the effect under way ``effect_id``."""
        return self._step(lambda _enc: "Effet retiré",
                          lambda enc, _dice: enc.remove_effect(cast(str, effect_id or None)))

    def set_hidden(self, who: str, hidden: bool) -> Outcome:
        """Keep a fighter from the player view (or show it again): an undoable step."""
        enc = self.encounter
        if enc is None:
            return Outcome.refused(_no_fight())
        if who not in enc.state.fighters:
            return Outcome.refused(invalid("combattant", who, "CORE-ERR",
                                           "inconnu dans ce combat"))
        if (who in self.hidden) != hidden:
            (self.hidden.add if hidden else self.hidden.discard)(who)
            self.hide_steps.record(self.history, who, hidden)
        return Outcome(True)

    def undo(self) -> Outcome:
        """Undo the last step, a « caché » toggle or a finished fight included; the
        first step of a fight that replaced another brings that one back whole."""
        if self.encounter is None:
            return Outcome.refused(_no_fight())
        hidden = self.hide_steps.undo(self.history, self.hidden)
        if hidden is not None:
            return Outcome(True, h.paragraph(f"Annulé : {hidden}. « Rétablir » le refait."))
        if self.previous is not None and self._brings_back():
            self.encounter, self.history, self.hidden = self.previous
            self.previous, self.hide_steps = None, HideSteps()
            self.chart = odds_chart(self.encounter)
            return Outcome(True, h.paragraph("Annulé : le nouveau combat. Le combat qu’il "
                                             "remplaçait est revenu tel qu’il était."))
        enc = self.encounter
        return _guarded(lambda: Outcome(True, h.paragraph(
            f"Annulé : {self.history.undo(enc)}. « Rétablir » la refait.")))

    def redo(self) -> Outcome:
        """Redo the last step undone."""
        enc = self.encounter
        if enc is None:
            return Outcome.refused(_no_fight())

        def step() -> Outcome:
            label = self.hide_steps.redo(self.history, self.hidden)
            return Outcome(True, h.paragraph(
                f"Rétabli : {label if label is not None else self.history.redo(enc)}."))

        return _guarded(step)

    def export(self) -> Outcome:
        """The fight as JSON (``saved``: the save file of format 2,
        :func:`escarmouche.savefile.dumps`)."""
        enc = self.encounter
        if enc is None:
            return Outcome.refused(_no_fight())
        return Outcome(True, h.join(h.paragraph(
            f"Combat exporté ({len(enc.state.log)} événements) : copiez le JSON ci-dessous "
            "ou téléchargez le fichier ; « Importer » le restaure tel quel.")),
            saved=savefile.dumps(enc))

    def import_text(self, text: str) -> Outcome:
        """Restore a fight from an export or from the tracker's own save (its undo
        history, hidden fighters and « caché » steps with it); the chosen system becomes
        the fight's, and ``rows`` its roster."""

        def step() -> Outcome:
            # an old save still loads; its note (the new names) is said to the GM
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always", OldNameWarning)
                enc, history, hidden, hide_steps = load_tracker_save_steps(text)
            notes = [h.paragraph(str(w.message)) for w in caught
                     if isinstance(w.message, OldNameWarning)]
            chart = odds_chart(enc)
            self.encounter, self.history, self.hidden = enc, history, hidden
            self.hide_steps, self.previous, self.chart = hide_steps, None, chart
            self.system, self.asking = enc.state.system, None
            rows = roster_rows(f.combatant for f in enc.state.fighters.values())
            return Outcome(True, h.join(h.paragraph(
                f"Combat restauré : {len(enc.state.fighters)} combattants, "
                f"{len(enc.state.log)} événements, {enc.system.turn_word} {enc.turn}."),
                *notes), saved=text, rows=tuple(rows))

        return _guarded(step)

    def import_file(self, raw: bytes, name: str | None = None) -> Outcome:
        """Restore a fight from a saved file's bytes (UTF-8 JSON, CORE-LOG)."""
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            return Outcome.refused(invalid("sauvegarde", name, "CORE-LOG",
                                           "un fichier JSON en UTF-8 est attendu",
                                           kind=SaveError))
        return self.import_text(text)

    # -- helpers ---------------------------------------------------------------------

    def _rng(self, rng: Rng | None) -> Rng:
        """``rng``, else the seed's dice for this step of the fight (CORE-RNG)."""
        if rng is not None:
            return rng
        step = len(self.encounter.state.log) if self.encounter is not None else 0
        return random.Random(f"{self.seed}:{step}")

    def _step(self, label: Callable[[Encounter], str],
              operation: Callable[[Encounter, Rng], Sequence[Event]],
              rng: Rng | None = None) -> Outcome:
        """One atomic operation of the fight as an undoable step, its events shown."""
        enc = self.encounter
        if enc is None:
            return Outcome.refused(_no_fight())

        def step() -> Outcome:
            heading = label(enc)
            dice = self._rng(rng)
            done = len(self.history.done)
            events = self.history.run(enc, heading, lambda: operation(enc, dice))
            if len(self.history.done) != done:
                self.hide_steps.fight_step_taken()
            return Outcome(True, events_html(events, heading), events=tuple(events))

        return _guarded(step)

    def _effect(self, build: Callable[[Encounter], Effect],
                label: Callable[[Effect], str]) -> Outcome:
        enc = self.encounter
        if enc is None:
            return Outcome.refused(_no_fight())
        try:
            effect = build(enc)
        except EscarmoucheError as err:
            return Outcome.refused(err)
        return self._step(lambda _enc: label(effect),
                          lambda e, _dice: e.add_effect(effect))


def _guarded(step: Callable[[], Outcome]) -> Outcome:
    """``step``'s outcome, or its refusal as a value (the engine's French message)."""
    try:
        return step()
    except EscarmoucheError as err:
        return Outcome.refused(err)
