"""The tracker's views (:mod:`escarmouche_widgets.tracker`): the fight at a glance, one
operation's events, the log, the initiative odds, the save as a file. Pure functions of
the encounter, with no widget: the table session (:mod:`escarmouche_widgets.session`)
draws its results with them."""

from __future__ import annotations

import base64
from collections.abc import Sequence

from escarmouche import Event, Timing
from escarmouche import systems as _systems
from escarmouche.encounter import Encounter
from escarmouche.model import timing_label
from escarmouche.systems.base import ENVIRONMENT
from escarmouche.text.fmt import de, signed
from escarmouche_widgets import _html as h
from escarmouche_widgets._initiative_views import initiative_odds
from escarmouche_widgets._parse import RosterRow, roster_rows

__all__ = ["SAVE_NAME", "action_label", "download_link", "events_html",
           "example_rows", "log_html", "odds_chart", "stats_hint", "status_html"]

SAVE_NAME = "combat-escarmouche.json"


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


def action_label(label: str, cost: str) -> str:
    """An action as the tracker lists it, its cost in one parenthesis: « Attaque standard
    (demi-action) », « Attaquer (PV ou Esprit, action) »; a cost the label already says is
    not said twice (« Placer sur la grille (MJ) », « Action simple (autre) »).

    >>> action_label("Attaquer (PV ou Esprit)", "action")
    'Attaquer (PV ou Esprit, action)'
    >>> action_label("Action simple (autre)", "action simple")
    'Action simple (autre)'
    """
    if not cost or cost.casefold() in label.casefold():
        return label
    if label.endswith(")"):
        return f"{label[:-1]}, {cost})"
    return f"{label} ({cost})"


def stats_hint(system: str) -> str:
    """What an empty stats box suggests: the stats of the system's example fighter
    (« PV=12, attaque=3, defense=12, init=2 » in d12), never another system's."""
    rows = example_rows(system)
    return rows[0].stats if rows else "NOM=valeur"


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
            ("N°", "Effet", "Porteur", "Quand", "Reste", "À chaque fois",
             "Fin sur jet de sauvegarde"), erows)))
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
        # a box that scrolls from its end: the newest line shows first
        '<div class="esc-tracker-log" style="max-height: 18em; overflow: auto; '
        'display: flex; flex-direction: column-reverse">'
        '<pre style="white-space: pre-wrap; font-size: 13px; margin: 0">'
        f"{h.esc(text)}</pre></div></details>"
    )
