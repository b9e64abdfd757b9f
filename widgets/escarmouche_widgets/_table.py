"""The tracker at the table: what the players may see, the tracker's own save
(the fight with its undo history and the fighters hidden from players), and import
errors a GM can act on.

Pure functions of an :class:`~escarmouche.encounter.Encounter`: no widget here.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import Any

from escarmouche import EscarmoucheError, filecheck, savefile
from escarmouche.encounter import Encounter
from escarmouche.errors import SaveError, old_name
from escarmouche.history import History
from escarmouche.model import Json
from escarmouche.savefile import parse_json
from escarmouche.state import ENVIRONMENT, FighterState
from escarmouche.text.fmt import de, join

from ._tracker_model import HideSteps

__all__ = ["PLAYER_CHANNEL", "TRACKER_SAVE", "health_word", "load_tracker_save",
           "load_tracker_save_steps",
           "player_view", "tracker_save"]

#: the ``BroadcastChannel`` the player view listens on (same device, no server)
PLAYER_CHANNEL = "escarmouche-joueurs"
#: the key that held the format number of the tracker's own save in formats 1 and 2
#: (format 3 names it ``format``, like every file, and is told from a fight export by
#: its ``combat``)
TRACKER_SAVE = "suivi"
#: the tracker's save format (suivi-4.schema.json: the fight and the states of its
#: history in the save format 2, French keys); formats 1 (no « caché » steps), 2
#: (``suivi``, English step keys) and 3 (the fight in the save format 1, English keys)
#: are read too, with a note
TRACKER_SAVE_VERSION = 4
TRACKER_SAVE_VERSIONS = (1, 2, 3, 4)
#: the step keys of the history and the « caché » steps, engine → file (format 3)
STEP_KEYS: Mapping[str, str] = {
    "done": "faites", "undone": "defaites", "label": "libelle", "at": "position",
    "before": "avant", "after": "apres", "added": "ajouts"}

#: what each part of a fight save holds, for a GM (import errors name these, not keys)
SAVE_PARTS: Mapping[str, str] = {
    "format": "le numéro de format", "system": "le système", "rules": "les options de règles",
    "fighters": "les combattants", "end_conditions": "les conditions de fin",
    "turn": "le numéro du tour", "started": "l’état du combat", "finished": "l’état du combat",
    "outcome": "l’état du combat", "order": "l’ordre du tour", "cursor": "l’ordre du tour",
    "activations": "l’ordre du tour", "effects": "les effets en cours", "log": "le journal",
    "system_state": "l’état propre au système", "next_effect_id": "les effets en cours",
}
#: the same parts under their names in a save of format 2 (CORE-LOG)
SAVE_PARTS = {**SAVE_PARTS, **{savefile.FILE_KEYS["save"][k]: v for k, v in SAVE_PARTS.items()}}


def health_word(fighter: FighterState) -> str:
    """How a fighter looks to the players, never the exact points: « indemne »,
    « blessure légère », « blessure grave », « hors de combat », « en fuite » (words that
    agree with any fighter: the engine does not know who is a man or a woman)."""
    if fighter.fled:
        return "en fuite"
    if fighter.out:
        return "hors de combat"
    shares = [fighter.tracks[k] / fighter.maxima[k] for k in fighter.tracks
              if fighter.maxima.get(k)]
    worst = min(shares, default=1.0)
    if worst >= 1:
        return "indemne"
    if worst > 0.5:
        return "blessure légère"
    if worst > 0:
        return "blessure grave"
    return "hors de combat"


def player_view(enc: Encounter | None, hidden: Iterable[str] = ()) -> dict[str, Json]:
    """What the players may see: the order, the current fighter, each fighter's look
    (:func:`health_word`); hidden fighters and exact points are left out."""
    secret = set(hidden)
    if enc is None or not enc.state.started:
        return {"titre": "En attente du combat", "tour": None, "actuel": None,
                "ordre": [], "fin": None}
    st = enc.state
    names = list(dict.fromkeys(n for n in st.order if n in st.fighters))
    names += [n for n in st.fighters if n not in names]
    current = st.current if not st.finished else None
    rows: list[Json] = []
    for name in names:
        if name in secret:
            continue
        rows.append({"nom": name, "camp": st.fighters[name].side,
                     "etat": health_word(st.fighters[name]), "actuel": name == current})
    if current in secret:
        current = None
    if current == ENVIRONMENT:
        current = "l’environnement"
    turn = f"{enc.system.turn_word.capitalize()} {st.turn}"
    # the sentence the players read, elided (« au tour d’Aldric »)
    moment = f"{turn}\u00a0: au tour {de(current)}." if current else turn
    return {"titre": enc.system.title or st.system, "tour": turn, "actuel": current,
            "phrase": moment, "ordre": rows, "fin": st.outcome if st.finished else None}


def tracker_save(enc: Encounter, history: History, hidden: Iterable[str],
                 hide_steps: HideSteps | None = None) -> str:
    """The tracker's own save: the fight (the published save format), its undo history,
    the fighters hidden from the players and the « caché » steps « Annuler » can take
    back (what the autosave keeps)."""
    steps = (hide_steps or HideSteps()).to_json()
    return json.dumps({"format": TRACKER_SAVE_VERSION,
                       "combat": savefile.to_file(enc.state.to_json()),
                       "historique": _steps(_states(history.to_json(), True), STEP_KEYS),
                       "caches": sorted(hidden), "masquages": _steps(steps, STEP_KEYS)},
                      ensure_ascii=False, sort_keys=True)


def _steps(data: Any, keys: Mapping[str, str]) -> Any:
    """The history or the « caché » steps with their keys renamed (``keys``): the lists
    of steps, then the keys of each step (not inside the fight states they hold)."""
    if not isinstance(data, Mapping):
        return data
    return {keys.get(k, k): [{keys.get(f, f): v for f, v in step.items()}
                             if isinstance(step, Mapping) else step for step in value]
            if isinstance(value, list) else value for k, value in data.items()}


def _states(data: Any, to_file: bool) -> Any:
    """The history (engine step keys) with the fight states and events of its steps in
    the save format 2 (``to_file``) or back in the engine's shape (CORE-LOG)."""
    if not isinstance(data, Mapping):
        return data

    def state(value: Any) -> Any:
        if not isinstance(value, Mapping):
            return value
        return (savefile.to_file(value) if to_file
                else savefile.from_file(value))

    def step(item: Any) -> Any:
        if not isinstance(item, Mapping):
            return item
        out = dict(item)
        for key in ("before", "after"):
            if key in out:
                out[key] = state(out[key])
        if "added" in out:
            out["added"] = savefile.rename_keys(out["added"], "event", to_file=to_file)
        return out

    return {k: [step(i) for i in v] if isinstance(v, list) else v for k, v in data.items()}


def _tracker_version(data: Mapping[str, Any]) -> int | None:
    """The format of a tracker save (3: ``format`` beside ``combat``; 1 and 2: the old
    key ``suivi``, read with a note naming ``format``), or ``None`` for a fight export."""
    if TRACKER_SAVE in data:
        version = data.get(TRACKER_SAVE)
        if version in (1, 2) and type(version) is int:
            old_name(TRACKER_SAVE, f"{TRACKER_SAVE} = {version}",
                     f"format = {TRACKER_SAVE_VERSION}", "CORE-LOG", what="clé",
                     where="sauvegarde du suivi", stacklevel=4)
            return version
        return 0
    if "combat" in data:
        version = data.get("format")
        if version == 3 and type(version) is int:
            combat = data.get("combat")
            savefile.old_note(combat if isinstance(combat, Mapping) else {},
                              "sauvegarde du suivi, combat", stacklevel=5)
        return version if version in (3, 4) and type(version) is int else 0
    return None


def load_tracker_save(text: str) -> tuple[Encounter, History, set[str]]:
    """A fight from an export (:meth:`Encounter.to_json`) or from the tracker's own save
    (:func:`tracker_save`); a fault raises a French error a GM can act on."""
    enc, history, hidden, _ = load_tracker_save_steps(text)
    return enc, history, hidden


def load_tracker_save_steps(text: str) -> tuple[Encounter, History, set[str], HideSteps]:
    """:func:`load_tracker_save`, with the « caché » steps of the save (none for an
    export or a save of format 1)."""
    if not text.strip():
        raise EscarmoucheError(
            "Sauvegarde vide : collez le JSON exporté, ou choisissez un fichier (CORE-LOG).",
            field="sauvegarde", value="", rule="CORE-LOG",
        )
    try:
        data = parse_json(text)
        version = _tracker_version(data) if isinstance(data, Mapping) else None
        if isinstance(data, Mapping) and version is not None:
            if version not in TRACKER_SAVE_VERSIONS or not isinstance(
                    data.get("combat"), Mapping):
                raise SaveError(
                    "Sauvegarde d’un suivi d’une version inconnue : exportez de nouveau le "
                    "combat (CORE-LOG).", field="sauvegarde", value=None, rule="CORE-LOG")
            # the published schema of the tracker's save (suivi-<version>.schema.json)
            problem = filecheck.validate(f"suivi-{version}", data)
            if problem is not None:
                raise SaveError(problem.message("CORE-LOG", root="sauvegarde"),
                                field=problem.path or "sauvegarde", value=problem.value,
                                rule="CORE-LOG")
            if version >= 3:  # French step keys: the engine's own names again
                back = {v: k for k, v in STEP_KEYS.items()}
                history_data = _steps(data.get("historique"), back)
                if version == 4:  # the fight states in the save format 2 (CORE-LOG)
                    history_data = _states(history_data, False)
                data = {**data, "historique": history_data,
                        "masquages": _steps(data.get("masquages"), back)}
            enc = Encounter.from_json(data["combat"])
            history = History.from_json(data.get("historique"), len(enc.state.log))
            hidden = {str(n) for n in data.get("caches", ()) if n in enc.state.fighters}
            steps = HideSteps.from_json(data.get("masquages"), history,
                                        list(enc.state.fighters))
            return enc, history, hidden, steps
        return savefile.loads(data), History(), set(), HideSteps()
    except SaveError as err:
        raise for_the_gm(err) from None


def for_the_gm(err: SaveError) -> SaveError:
    """A save error said in a GM's words: what is missing or foreign, never a list of
    JSON keys; other messages (already about the fight) are kept."""
    message = str(err)
    missing = re.search(r"il manque les? champs?\s*(.*)\(CORE-LOG\)", message)
    if missing:
        keys = re.findall(r"«\s*([a-z_]+)\s*»", missing.group(1))
        parts = list(dict.fromkeys(SAVE_PARTS.get(k, "une partie du combat") for k in keys))
        shown = parts[:3]
        if len(parts) > 3:
            shown.append(f"{len(parts) - 3} autres parties")
        return SaveError(
            "Sauvegarde incomplète : ce texte n’est qu’une partie d’une sauvegarde de "
            f"combat ; il y manque {join(shown)} (CORE-LOG). Exportez de nouveau le combat "
            "(« Exporter ») et collez tout le texte.",
            field="sauvegarde", value=None, rule="CORE-LOG")
    if "champ inconnu" in message:
        return SaveError(
            f"Sauvegarde refusée, champ « {err.field} » : ce texte n’est pas une sauvegarde "
            "de combat d’Escarmouche (il contient un élément qu’elle n’a pas) ; collez le "
            "texte d’« Exporter (JSON) » (CORE-LOG).",
            field="sauvegarde", value=err.field, rule="CORE-LOG")
    return err
