"""ipywidgets demos of Escarmouche (French labels). Depends on the engine, never the reverse."""

from __future__ import annotations

__all__: list[str] = []
