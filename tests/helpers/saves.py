"""Old save files made from new ones, for the tests that read them back (CORE-LOG)."""

from __future__ import annotations

from typing import Any

from escarmouche import savefile

__all__ = ["suivi_3"]


def suivi_3(data: dict[str, Any]) -> dict[str, Any]:
    """A tracker save of format 4 as format 3 wrote it: the fight, and the states and
    events of its history, in the save format 1 (the engine's English keys)."""
    def step(item: dict[str, Any]) -> dict[str, Any]:
        out = dict(item)
        for key in ("avant", "apres"):
            if key in out:
                out[key] = savefile.from_file(out[key])
        if "ajouts" in out:
            out["ajouts"] = savefile.rename_keys(out["ajouts"], "event", to_file=False)
        return out

    history = {k: [step(i) for i in v] if isinstance(v, list) else v
               for k, v in data["historique"].items()}
    return {**data, "format": 3, "combat": savefile.from_file(data["combat"]),
            "historique": history}
