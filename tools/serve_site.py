"""Serve the built site on http://127.0.0.1:PORT/ (``make serve``), offline.

The standard ``python -m http.server`` would do, except for the MIME types that
JupyterLite and Pyodide need on every system (``.mjs``, ``.wasm``) and the
precompressed copies (``x.br``, ``x.gz``, written by ``tools/precompress.py``), sent
with ``Content-Encoding`` and ``Vary: Accept-Encoding`` to a browser that accepts
them. Every response says ``Cache-Control: no-cache``: a second visit revalidates each
file (a 304, no body) instead of trusting an hour-old copy, so a rebuilt site is never
half stale (the lock and its wheels must match); bench/README-browser.md shows it costs
no time on loopback. The book's service worker (sw.js) works here as on any host.
Every response also carries the cross-origin isolation headers (COOP/COEP), so that
« Interrompre » stops a looping example in place (``--sans-isolation`` to try the site
as a host without them serves it).

``--reseau`` (opt-in, said when it starts) listens on every interface of this machine,
not only 127.0.0.1: a tablet on the same local network opens the players' view from the
address printed, and follows the GM's tracker through this server (the GM's page posts
what players may see to ``/__joueurs__/etat``, the players' page reads it there; nothing
goes to any outside service). Anyone on that network can then read the book, and the
players' view.
"""

from __future__ import annotations

import socket
import sys
import time
from pathlib import Path

from escarmouche.cli.french import FrenchParser, parse_args
from tools.browser_kit import SITE, SiteServer

PLAYERS_PAGE = "_static/escarmouche-joueurs.html"


def lan_address() -> str | None:
    """This machine's address on its local network (no packet is sent: a UDP socket
    is only pointed at a documentation address to learn the interface), or None."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))
            address = str(probe.getsockname()[0])
        except OSError:
            address = ""
    if address and not address.startswith("127."):
        return address
    try:
        found = socket.gethostbyname(socket.gethostname())
    except OSError:
        return None
    return None if found.startswith("127.") else found


def main(argv: list[str] | None = None) -> int:
    parser = FrenchParser(
        description="Sert le site construit sur http://127.0.0.1:PORT/, hors ligne.")
    parser.add_argument("--port", type=int, default=8000, help="le port (par défaut : 8000)")
    parser.add_argument("--cache", type=int, default=0,
                        help="durée de cache (Cache-Control max-age) en secondes ; "
                        "par défaut 0 : no-cache")
    parser.add_argument("--dir", type=Path, default=SITE, metavar="DOSSIER",
                        help="le site construit (par défaut : _build/html)")
    parser.add_argument("--reseau", action="store_true",
                        help="écoute aussi sur le réseau local (pas seulement 127.0.0.1)\u00a0: "
                        "une tablette de la table ouvre la vue des joueurs à l’adresse "
                        "affichée\u202f; tout appareil de ce réseau peut alors lire le site")
    parser.add_argument("--sans-isolation", action="store_true",
                        help="sans les en-têtes COOP et COEP (« Interrompre » "
                        "redémarre alors Python)")
    args = parse_args(parser, argv)
    if not (args.dir / "index.html").is_file():
        print(f"{args.dir} : aucun site construit ; lancez `make book`.", file=sys.stderr)
        return 2
    host = "0.0.0.0" if args.reseau else "127.0.0.1"
    with SiteServer(args.dir, port=args.port, cache_seconds=args.cache, quiet=False,
                    isolated=not args.sans_isolation, host=host) as server:
        print(f"Escarmouche : {server.url} (Ctrl+C pour arrêter)", flush=True)
        if args.reseau:
            address = lan_address()
            where = (f"http://{address}:{server.port}/{PLAYERS_PAGE}" if address else
                     f"http://<adresse de cet ordinateur>:{server.port}/{PLAYERS_PAGE}")
            print("Réseau local\u00a0: le site est servi à tout appareil de ce réseau "
                  "(--reseau).\nVue des joueurs, sur la tablette de la table\u00a0: "
                  f"{where}", flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            print("\narrêt.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
