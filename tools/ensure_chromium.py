"""Make sure Debian's Chromium is installed for the browser tests (``make browser``).

Playwright (from PyPI) drives ``/usr/bin/chromium``; ``playwright install`` is never
used (it downloads a browser build from a CDN, which this project cannot reach).
When the binary is missing, this installs the apt packages ``chromium`` and
``chromium-driver`` (plus ``fonts-liberation`` so screenshots show text), without
recommends and without any question: as root directly, otherwise through ``sudo -n``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

CHROMIUM = Path(os.environ.get("ESCARMOUCHE_CHROMIUM", "/usr/bin/chromium"))
PACKAGES = ("chromium", "chromium-driver", "fonts-liberation")
APT_TIMEOUT_S = 1200


def version(binary: Path) -> str | None:
    try:
        out = subprocess.run([str(binary), "--version"], capture_output=True, text=True,
                             timeout=60, check=True)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


def privileged(cmd: list[str]) -> list[str]:
    if os.geteuid() == 0:
        return cmd
    sudo = shutil.which("sudo")
    if sudo is None:
        raise SystemExit(
            f"Chromium manque ({CHROMIUM}) et il faut être root pour l’installer : "
            f"apt-get install -y {' '.join(PACKAGES)}")
    return [sudo, "-n", *cmd]


def install() -> None:
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive", "NEEDRESTART_MODE": "a"}
    apt = shutil.which("apt-get")
    if apt is None:
        raise SystemExit("apt-get est introuvable : installez Chromium à la main.")
    steps = [
        [apt, "update", "-qq"],
        [apt, "install", "-y", "-qq", "--no-install-recommends",
         "-o", "Dpkg::Options::=--force-confdef", "-o", "Dpkg::Options::=--force-confold",
         *PACKAGES],
    ]
    for step in steps:
        cmd = privileged(step)
        print("[ensure_chromium] $ " + " ".join(cmd), flush=True)
        subprocess.run(cmd, check=True, env=env, stdin=subprocess.DEVNULL,
                       timeout=APT_TIMEOUT_S)


def main() -> int:
    found = version(CHROMIUM)
    if found is None:
        install()
        found = version(CHROMIUM)
    if found is None:
        print(f"[ensure_chromium] {CHROMIUM} ne démarre pas après l’installation",
              file=sys.stderr)
        return 1
    print(f"[ensure_chromium] {found} ({CHROMIUM})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
