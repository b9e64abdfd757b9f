"""Output helpers shared by the subcommands: JSON for scripts, files written safely."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from escarmouche.errors import ParameterError

__all__ = ["print_json", "write_text"]


def print_json(data: Any) -> None:
    """``data`` as JSON on stdout (UTF-8, French text kept as is)."""
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=1, sort_keys=False) + "\n")


def write_text(path: str, text: str) -> None:
    """Write ``text`` to ``path`` (UTF-8); a French error if it cannot be written."""
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as err:
        raise ParameterError(f"sortie = « {path} » : écriture impossible "
                             f"({err.strerror or 'erreur'}) (CORE-ERR)", field="sortie",
                             value=path, rule="CORE-ERR") from None
