"""The designer's workshop « Atelier » (book/concepteurs.md): pick a system, change any of its
options (French labels), see the standard odds before (the edition's defaults) and after
(your options) side by side, with charts, and export the option set as the
``[[changements]]`` blocks of an edition file.

Every number comes from :mod:`escarmouche.editions` (the same tables as the « Ce qui a
changé » pages). A value the rules refuse shows its French message above the result,
which stays as it was.

>>> atelier = Atelier("d20")
>>> atelier.controls["save_target"].value = 12
>>> [line for line in atelier.snippet_text.splitlines()
...  if line.startswith(("option", "apres"))]
['option = "seuil_sauvegarde"', 'apres = 12']
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import ipywidgets as widgets

from escarmouche import simulation as sim
from escarmouche import systems
from escarmouche.editions.data import Change, change_to_toml
from escarmouche.editions.page import comparison_html
from escarmouche.errors import EscarmoucheError, invalid
from escarmouche.exact import MAX_FIGHTERS
from escarmouche.model import Json, jsonable
from escarmouche.options import Option
from escarmouche.roster import example_rosters, load_roster
from escarmouche.simulation.sequential import play_batch
from escarmouche.text.fmt import de, fixed, number, percent, plural
from escarmouche_widgets import _atelier_exact as ex
from escarmouche_widgets import _html as h
from escarmouche_widgets._controls import (
    WIDE,
    ErrorBanner,
    button,
    number_box,
    option_control,
    option_labels,
    option_value,
    typeset_labels,
)
from escarmouche_widgets._parse import NumberField
from escarmouche_widgets._pool import page_pool, pooled_steps
from escarmouche_widgets._stepper import STEP, Stepper, running_loop

__all__ = ["ATELIER_FIGHTS", "MAX_ATELIER_FIGHTS", "PRECISION_CHOICES", "Atelier"]

#: fights per rule set (without, with the changes) in the Atelier's fights: at most
#: that many when stopping at a precision, exactly that many otherwise
ATELIER_FIGHTS = 20_000
MAX_ATELIER_FIGHTS = 100_000
#: the fights box: 1 to :data:`MAX_ATELIER_FIGHTS` (CORE-ERR)
FIGHTS = NumberField("combats", 1, MAX_ATELIER_FIGHTS, "CORE-ERR")

_ROSTERS: dict[str, Any] = {}

#: the precision menu: points (the run stops once every side's difference is known that
#: well), or ``None`` for exactly the number of fights in the box
PRECISION_CHOICES: tuple[tuple[str, float | None], ...] = (
    *((f"± {p} point{'s' if p >= 2 else ''}", float(p)) for p in sim.PRECISIONS),
    ("le nombre de combats indiqué", None))


def _rosters(system: str) -> dict[str, Any]:
    """The example roster files of ``system``, by name (read once)."""
    if not _ROSTERS:
        for name, path in sorted(example_rosters().items()):
            _ROSTERS[name] = load_roster(path)
    return {n: r for n, r in _ROSTERS.items() if r.system == system}


def _steps(run: sim.CompareRun) -> Iterator[sim.Comparison]:
    """The run's steps, each batch played here (one worker), in fight order."""
    for job in run.jobs:
        yield run.add(play_batch(job))
        if run.over:
            return


def _played(c: sim.Comparison) -> int:
    return c.a.n + c.b.n


def _defaults(system: str) -> dict[str, Json]:
    sys_obj = systems.get(system)
    data: dict[str, Json] = json.loads(json.dumps(
        sys_obj.rules_to_json(sys_obj.default_rules()), default=jsonable))
    return data


def _change(system: str, spec: Option, before: Json, after: Json) -> Change:
    """One option changed, as an edition file's ``[[changements]]`` block names it: its
    French key, its rule IDs and a French text to review."""
    text = (f"{spec.title} : la valeur par défaut passe {de(spec.value_label(before))} à "
            f"{spec.value_label(after)}.")
    return Change("option-default", spec.rules, text, system, spec.key, before, after)


def _changed_text(spec: Option, before: Json, after: Json) -> str:
    """« seuil du jet de sauvegarde (10 → 12, D20-END-1) »."""
    rules = "".join(f", {r}" for r in spec.rules)
    return f"{spec.label} ({spec.value_label(before)} → {spec.value_label(after)}{rules})"


class Atelier:
    """Controls: ``system`` (dropdown), ``controls`` (one widget per option, by its
    engine name), ``reset_button``; ``result_text`` (the odds as text), ``snippet_text``
    (the TOML export, options named by their French key), ``error_text`` (the French
    message shown, ``""`` when none); ``stepper`` runs the chosen roster's fights
    without and with the changes (``fights_text``), and ``exact_button`` (« Calcul
    exact ») solves it exactly when it is a duel (``exact_text``: each side's chance, the
    draw, the cap, the mean length and the exact difference in points)."""

    def __init__(self, system: str = systems.DEFAULT) -> None:
        systems.get(system)
        self.banner = ErrorBanner()
        self.system = widgets.Dropdown(
            options=[(systems.get(name).title or name, name) for name in systems.available()],
            value=system, description="Système :", style=WIDE)
        self.controls: dict[str, widgets.Widget] = {}
        self.specs: dict[str, Option] = {}
        self.options_box = widgets.VBox()
        self.reset_button = button("Revenir aux règles de l’édition", icon="undo")
        self.output = widgets.HTML()
        self.snippet = widgets.Textarea(
            value="", description="Fiche d’édition (TOML) :", style=WIDE,
            layout=widgets.Layout(width="100%", height="12em"))
        self.fixed = widgets.HTML()
        self.roster = widgets.Dropdown(options=[], description="Combat :", style=WIDE)
        self.fights = number_box(FIGHTS, ATELIER_FIGHTS, "Combats (au plus) :", width="14em")
        self.precision = widgets.Dropdown(options=list(PRECISION_CHOICES), value=2.0,
                                          description="Précision :", style=WIDE)
        self.stepper = Stepper("Simuler les combats")
        self.stepper.run_button.on_click(lambda _b: self.launch())
        self.fights_output = widgets.HTML(value=h.paragraph(
            "Appuyez sur « Simuler les combats » : le combat choisi est joué sans puis "
            "avec vos changements, sur les mêmes dés, jusqu’à la précision choisie."))
        self.exact_button = button("Calcul exact", icon="calculator",
                                   tooltip="les chances exactes du duel, sans simulation")
        self.exact_button.on_click(lambda _b: self.launch_exact())
        self.exact_output = widgets.HTML()
        self.exact_task: Any = None
        self.roster.observe(lambda _c: self._exact_refresh(), names="value")
        self.system.observe(lambda _c: self._build(), names="value")
        self.reset_button.on_click(lambda _b: self._build())
        self.widget = widgets.VBox([
            widgets.HTML("<b>Atelier du concepteur : les règles de l’édition, puis les "
                         "vôtres</b>"),
            self.system, self.options_box, self.fixed, self.reset_button,
            self.banner.widget, self.output, self.snippet,
            widgets.HTML(h.paragraph(
                f"Des combats entiers : un fichier d’effectifs du système, joué sans puis "
                f"avec vos changements sur les mêmes dés, par paquets de {number(STEP)} ; "
                "l’écart est mesuré combat par combat (apparié) et la série s’arrête dès "
                "qu’il est connu à la précision choisie ; la barre avance et « Arrêter » "
                "garde le bilan des combats déjà joués.")),
            self.roster, self.precision, self.fights, self.stepper.widget,
            self.fights_output, self.exact_button, self.exact_output,
        ])
        typeset_labels(self.widget)  # not a Demo: its labels are typeset here
        self._build()

    # -- the option controls -------------------------------------------------------------

    def _build(self) -> None:
        name = str(self.system.value)
        sys_obj = systems.get(name)
        self.banner.labels = option_labels(sys_obj.options())
        self.defaults = _defaults(name)
        self.controls = {}
        self.specs = {}
        skipped = []
        for spec in sys_obj.options():
            control = option_control(spec, self.defaults[spec.name])
            if control is None:
                skipped.append(spec.label)
                continue
            control.observe(lambda _c: self.update(), names="value")
            self.controls[spec.name] = control
            self.specs[spec.name] = spec
        self.options_box.children = list(self.controls.values())
        typeset_labels(self.options_box)  # the controls of the system just chosen
        kept = self.roster.value
        rosters = _rosters(name)
        self.roster.options = [(f"{r.title} ({n})", n) for n, r in rosters.items()]
        self.roster.value = kept if kept in rosters else next(iter(rosters), None)
        self.fixed.value = h.notice(
            "Options non modifiables ici (des tables) : " + ", ".join(skipped) + "."
        ) if skipped else ""
        self.update()

    # -- computing -------------------------------------------------------------------------

    def options(self) -> dict[str, Json]:
        """The option values set in the controls (JSON keyed by engine names, as
        ``System.rules_to_json``)."""
        out: dict[str, Json] = {}
        for option, control in self.controls.items():
            out[option] = option_value(self.specs[option], control)
        return out

    def update(self) -> bool:
        """Recompute the comparison and the export; on a refused value show its French
        message and keep the previous result."""
        name = str(self.system.value)
        sys_obj = systems.get(name)

        def compute() -> tuple[str, str]:
            chosen = self.options()
            changed = {k: v for k, v in chosen.items() if v != self.defaults[k]}
            after = sys_obj.rules_from_keys({self.specs[k].key: v for k, v in changed.items()})
            before = sys_obj.default_rules()
            changes = [_change(name, self.specs[k], self.defaults[k], v)
                       for k, v in changed.items()]
            snippet = "\n".join(change_to_toml(c) for c in changes)
            head = (h.paragraph("Aucune option changée : les deux colonnes sont les "
                                "règles de l’édition.") if not changes else
                    h.paragraph("Options changées : " + ", ".join(
                        _changed_text(self.specs[k], self.defaults[k], v)
                        for k, v in changed.items()) + "."))
            if not sys_obj.standard_odds(before):
                return head + h.paragraph(
                    "Ce système ne décrit aucune situation type : pas de chances à "
                    "comparer."), snippet
            return head + comparison_html(name, before, after), snippet

        try:
            shown = self.banner.guard(compute)
        except (TypeError, ValueError) as err:  # a value the rules object itself refuses
            if isinstance(err, EscarmoucheError):
                raise
            self.banner.show(f"Valeur refusée par les règles ({err}).")
            return False
        if shown is None:
            return False
        self.output.value, self.snippet.value = shown
        self._exact_refresh()
        return True

    # -- whole fights, without and with the changes ---------------------------------------

    def _fight_run(self) -> sim.CompareRun:
        """The run set in the controls: the paired comparison of the chosen roster
        without and with the changed options (the same dice: one stream per fight),
        until the precision chosen is reached. Checked now: a French error before
        anything is played."""
        n = self.fights.integer
        name = str(self.system.value)
        roster = _rosters(name).get(str(self.roster.value))
        if roster is None:
            raise invalid("combat", self.roster.value, "CORE-ERR",
                          "aucun fichier d’effectifs fourni pour ce système")
        changed = {self.specs[k].key: v for k, v in self.options().items()
                   if v != self.defaults[k]}
        after = roster.with_options(**changed) if changed else roster
        return sim.CompareRun(roster, after, n, seed=1, step=STEP,
                              precision=self.precision.value,
                              labels=("sans vos changements", "avec vos changements"))

    def _fights_html(self, c: sim.Comparison, asked: int, workers: int = 1) -> str:
        before, after = c.a, c.b
        rows = []
        shown0, shown1 = before.shown_rates(), after.shown_rates()
        for side in before.sides:
            (_, lo0, hi0), (_, lo1, hi1) = before.win_rate(side), after.win_rate(side)
            diff, low, high = c.interval(side)
            rows.append((side, f"{shown0[side]} [{percent(lo0)} ; {percent(hi0)}]",
                         f"{shown1[side]} [{percent(lo1)} ; {percent(hi1)}]",
                         f"{'+' if diff > 0 else '−' if diff < 0 else ''}"
                         f"{fixed(abs(round(diff * 100, 1)), 1)} [{fixed(round(low * 100, 1), 1)}"
                         f" ; {fixed(round(high * 100, 1), 1)}]"))
        done = c.reached and (c.precision is not None or before.n >= asked)
        stopped = ("" if done or before.n >= asked else
                   h.notice(f"Arrêté après {plural(before.n, 'combat')} par jeu de règles sur "
                            f"{number(asked)} : le bilan est celui des combats joués."))
        return h.join(
            stopped,
            h.paragraph(f"<b>{h.esc(c.headline('vos changements'))}</b>", raw=True),
            h.paragraph(f"{before.title} : {plural(before.n, 'combat')} par jeu de règles, "
                        "graine 1, les mêmes dés des deux côtés ; victoires de chaque camp "
                        "avec, entre crochets, leur intervalle de confiance à 95 % ; écart "
                        "en points, mesuré combat par combat, avec le sien."),
            h.paragraph(f"Combats répartis entre {workers} processus du navigateur, mis en "
                        "commun dans l’ordre des combats : les mêmes nombres qu’avec un "
                        "seul.") if workers > 1 else "",
            # the variant automated play adds to the text (the Rulebook's declared
            # damage), said wherever simulated fights show (book/concepteurs.md)
            h.notice(before.note) if before.note else "",
            h.table(("Camp", "Sans vos changements", "Avec vos changements",
                     "Écart (points, IC 95 %)"), rows),
            h.paragraph(after.precision()))

    def play_fights(self) -> bool:
        """Play the fights now (no event loop to hand back to) and show them."""

        def compute() -> str:
            asked = self.fights.integer
            return self._fights_html(
                self.stepper.run_now(_steps(self._fight_run()), _played, 2 * asked), asked)

        shown = self.banner.guard(compute)
        if shown is None:
            return False
        self.fights_output.value = shown
        return True

    def launch(self) -> bool:
        """« Simuler les combats » : step by step as a task in a live page (progress,
        « Arrêter »), else at once (:meth:`play_fights`)."""
        loop = running_loop()
        if self.stepper.running:
            return False
        if loop is None:
            return self.play_fights()
        run = self.banner.guard(self._fight_run)
        if run is None:
            return False
        asked = self.fights.integer
        pool = page_pool()
        steps: Iterator[sim.Comparison] | AsyncIterator[sim.Comparison]
        if pool is None:
            steps, workers = _steps(run), 1
        else:  # several workers: the page's pool plays the batches, merged here in order
            steps, workers = pooled_steps(run, pool, lambda done: self.stepper.show(
                2 * done, 2 * asked)), int(pool.size())

        def done(last: sim.Comparison) -> None:
            self.fights_output.value = self._fights_html(last, asked, workers)

        self.stepper.start(loop, steps, _played, 2 * asked, done,
                           lambda err: self.banner.show(err.refusal(self.banner.labels)))
        return True

    # -- a duel solved exactly, without and with the changes -----------------------------

    def _exact_plan(self) -> tuple[ex.Key, Any, ex.Key, Any, list[str]]:
        """What « Calcul exact » solves: the chosen roster under the edition's rules and
        under the options changed (their keys and rosters, and the changes in words),
        as :meth:`_fight_run` plays them. Checked now: a French error before any solve."""
        name = str(self.system.value)
        roster = _rosters(name).get(str(self.roster.value))
        if roster is None:
            raise invalid("combat", self.roster.value, "CORE-ERR",
                          "aucun fichier d’effectifs fourni pour ce système")
        chosen = {k: v for k, v in self.options().items() if v != self.defaults[k]}
        changed = {self.specs[k].key: v for k, v in chosen.items()}
        texts = [_changed_text(self.specs[k], self.defaults[k], v) for k, v in chosen.items()]
        after = roster.with_options(**changed) if changed else roster
        return (ex.exact_key(name, str(self.roster.value), {}), roster,
                ex.exact_key(name, str(self.roster.value), changed), after, texts)

    def _exact_show(self, plan: tuple[ex.Key, Any, ex.Key, Any, list[str]],
                    before: Any, after: Any) -> bool:
        """Draw the answers (an :class:`~escarmouche.exact.ExactDuel` each, or a French
        refusal) under the fights; ``True`` when both were solved."""
        base_key, roster, key, _after_roster, texts = plan
        refused = before if isinstance(before, str) else after if isinstance(after, str) \
            else None
        if refused is not None:
            self.exact_output.value = ex.refusal_html(refused)
            return False
        self.exact_output.value = ex.exact_html(
            before, None if key == base_key else after, texts, roster)
        return True

    def _exact_refresh(self) -> None:
        """After a change of option or roster: the answer already worked out for the
        new choice, else what « Calcul exact » would do (off for a crowd)."""
        if self.exact_task is not None:
            return  # the running solve draws its own answer
        try:
            plan = self._exact_plan()
        except (TypeError, ValueError):  # refused values: the banner says it
            return
        base_key, roster, key, _, _ = plan
        before, after = ex.kept(base_key), ex.kept(key)
        count = ex.fighters(roster)
        self.exact_button.disabled = count > MAX_FIGHTERS
        if before is not None and after is not None:
            self._exact_show(plan, before, after)
            return
        word = systems.get(str(self.system.value)).turn_word
        self.exact_output.value = ex.hint_html(count, word)

    def exact_answer(self) -> bool:
        """« Calcul exact » now (no event loop to hand back to): the duel solved
        without then with the changes, shown beside the fights; a refusal in French."""
        try:
            plan = self._exact_plan()
        except EscarmoucheError as err:
            self.exact_output.value = ex.refusal_html(err.refusal(self.banner.labels))
            return False
        base_key, roster, key, after, _ = plan
        labels = self.banner.labels
        before = ex.solve(base_key, roster, labels)
        solved = before if isinstance(before, str) else ex.solve(key, after, labels)
        return self._exact_show(plan, before, solved)

    def launch_exact(self) -> bool:
        """« Calcul exact » : in a live page, a task that hands the page back between the
        two solves (and, outside the browser, solves in a thread), the button off while
        it runs; else at once (:meth:`exact_answer`)."""
        loop = running_loop()
        if self.exact_task is not None:
            return False
        if loop is None:
            return self.exact_answer()
        try:
            plan = self._exact_plan()
        except EscarmoucheError as err:
            self.exact_output.value = ex.refusal_html(err.refusal(self.banner.labels))
            return False
        self.exact_button.disabled = True
        self.exact_task = loop.create_task(self._exact_steps(loop, plan))
        return True

    async def _exact_steps(self, loop: asyncio.AbstractEventLoop,
                           plan: tuple[ex.Key, Any, ex.Key, Any, list[str]]) -> None:
        base_key, roster, key, after, _ = plan
        labels = self.banner.labels

        async def off_page(step: str, solve: Callable[[], Any]) -> Any:
            self.exact_output.value = ex.busy_html(step)
            await asyncio.sleep(0)  # the page draws the line before the solve
            if sys.platform == "emscripten":  # no threads: the page waits for the solve
                return solve()
            return await loop.run_in_executor(None, solve)

        try:
            before = await off_page("règles de l’édition",
                                    lambda: ex.solve(base_key, roster, labels))
            solved = before
            if not isinstance(before, str) and key != base_key:
                solved = await off_page("avec vos changements",
                                        lambda: ex.solve(key, after, labels))
            self._exact_show(plan, before, solved)
        finally:
            self.exact_task = None
            self.exact_button.disabled = ex.fighters(roster) > MAX_FIGHTERS

    @property
    def exact_text(self) -> str:
        return h.text_of(self.exact_output.value)

    @property
    def fights_text(self) -> str:
        return h.text_of(self.fights_output.value)

    # -- what the reader sees ----------------------------------------------------------------

    @property
    def result_text(self) -> str:
        return h.text_of(self.output.value)

    @property
    def snippet_text(self) -> str:
        return str(self.snippet.value)

    @property
    def error_text(self) -> str:
        return self.banner.message

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)  # type: ignore[no-untyped-call]
