"""Output helpers shared by the subcommands: JSON for scripts, files written safely."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from escarmouche.errors import EscarmoucheError, invalid, os_reason

__all__ = ["check_writable", "print_json", "write_text"]


def print_json(data: Any) -> None:
    """``data`` as JSON on stdout (UTF-8, French text kept as is)."""
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=1, sort_keys=False) + "\n")


def _refused(path: str, err: OSError) -> EscarmoucheError:
    return invalid("sortie", path, "CORE-ERR", f"écriture impossible ({os_reason(err)})",
                   label="--sortie")


def write_text(path: str, text: str) -> None:
    """Write ``text`` to ``path`` (UTF-8); a French error if it cannot be written."""
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as err:
        raise _refused(path, err) from None


def check_writable(path: str | None) -> None:
    """Refuse now, before any work, an output file that could not be written later: it
    is opened for appending (and removed again if it did not exist), so that a long
    simulation never ends on « écriture impossible »."""
    if not path:
        return
    target = Path(path)
    existed = target.exists()
    try:
        with target.open("a", encoding="utf-8"):
            pass
    except OSError as err:
        raise _refused(path, err) from None
    if not existed:
        target.unlink(missing_ok=True)
