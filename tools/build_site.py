"""Build the book (warnings are errors). The offline JupyterLite part is added by tools/lite."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    jb = Path(sys.executable).parent / "jupyter-book"
    cmd = [str(jb), "build", str(ROOT), "-W", "-n", "--keep-going"]
    return subprocess.call(cmd, cwd=ROOT)


if __name__ == "__main__":
    raise SystemExit(main())
