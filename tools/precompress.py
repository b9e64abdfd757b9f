"""Precompress the built site (``make book``, last step): ``x.gz`` and ``x.br`` next to x.

Every text-like file (HTML, CSS, JavaScript, JSON, SVG, WebAssembly, notebooks...) of at
least ``MIN_SIZE`` bytes gets a gzip copy (level 9, no timestamp, so a rebuild of the
same file gives the same bytes) and a Brotli copy, kept only when they are smaller
by ``MIN_SAVING``. ``tools/serve_site.py`` (and the tests' server) send them with
``Content-Encoding`` to a browser that accepts it; any static host can do the same.

Cached: a copy newer than its source is kept; copies whose source is gone are removed.
Brotli's best quality is slow: quality 11 for the book's files up to ``BR_MAX_Q11``
bytes (pages, stylesheets, scripts), 5 for bigger ones and for JupyterLite's hundreds
of files, which keeps a fresh build's compression to about 15 s of one core. Source
maps are left alone.
"""

from __future__ import annotations

import gzip
import time
from pathlib import Path

import brotli  # type: ignore[import-untyped]

from escarmouche.text.fmt import plural
from tools.browser_kit import built_site

ROOT = Path(__file__).resolve().parent.parent

SITE = ROOT / "_build" / "html"
SUFFIXES = frozenset({
    ".html", ".css", ".js", ".mjs", ".json", ".svg", ".wasm", ".txt", ".xml",
    ".ipynb", ".ttf", ".eot", ".ico", ".md", ".py", ".webmanifest",
})
MIN_SIZE = 1024
MIN_SAVING = 0.9  # keep a copy only if it is under 90 % of the original
BR_MAX_Q11 = 256 * 1024
ENCODINGS = {".gz": "gzip", ".br": "br"}


def compress(data: bytes, suffix: str, best: bool = True) -> bytes:
    if suffix == ".gz":
        return gzip.compress(data, compresslevel=9, mtime=0)
    quality = 11 if best and len(data) <= BR_MAX_Q11 else 5
    out: bytes = brotli.compress(data, quality=quality)
    return out


def precompress(site: Path) -> tuple[int, int, int]:
    """(files compressed now, copies removed, files considered)."""
    made = removed = considered = 0
    for path in sorted(site.rglob("*")):
        if not path.is_file():
            continue
        if path.suffix in ENCODINGS:
            source = path.with_suffix("")
            if not source.is_file():
                path.unlink()
                removed += 1
            continue
        if path.suffix not in SUFFIXES or path.stat().st_size < MIN_SIZE:
            continue
        considered += 1
        data = None
        for suffix in ENCODINGS:
            target = path.with_name(path.name + suffix)
            if target.is_file() and target.stat().st_mtime >= path.stat().st_mtime:
                continue
            data = data if data is not None else path.read_bytes()
            packed = compress(data, suffix, best=not path.is_relative_to(site / "lite"))
            if len(packed) <= MIN_SAVING * len(data):
                target.write_bytes(packed)
                made += 1
            else:
                target.unlink(missing_ok=True)
    return made, removed, considered


def main(argv: list[str] | None = None) -> int:
    site = built_site(__doc__.split("\n", 1)[0], argv)
    if site is None:
        return 2
    report(site)
    return 0


def report(site: Path) -> None:
    """:func:`precompress`, and what it did, in French (a step of ``make book``)."""
    start = time.monotonic()
    made, removed, considered = precompress(site)
    print(f"[precompress] {plural(made, 'copie compressée', 'copies compressées')} "
          f"({plural(removed, 'copie retirée', 'copies retirées')}) pour "
          f"{plural(considered, 'fichier texte', 'fichiers texte')}, en "
          f"{time.monotonic() - start:.1f} s", flush=True)


if __name__ == "__main__":
    raise SystemExit(main())
