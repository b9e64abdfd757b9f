"""What the browser tests, the benchmark and ``make serve`` share.

- :class:`SiteServer`: a threaded static HTTP server on 127.0.0.1 (free port), with
  the MIME types JupyterLite and Pyodide need (``.mjs``, ``.wasm``, ``.whl``...).
- :func:`launch_chromium`: Playwright driving Debian's ``/usr/bin/chromium`` with the
  flags that work as root and offline, in a fresh profile.
- :class:`RequestLog`: records every request a browser context makes and aborts any
  that would leave 127.0.0.1.
- :func:`run_all_cells` and friends: drive a notebook in JupyterLite's Notebook app.
"""

from __future__ import annotations

import contextlib
import email.utils
import functools
import http.server
import json
import os
import re
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import quote, urlsplit

from escarmouche.cli.french import FrenchParser, parse_args

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "_build" / "html"
CHROMIUM = Path(os.environ.get("ESCARMOUCHE_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-dev-shm-usage",
)
#: Offline at the network level, without Playwright routes (a route turns the HTTP
#: cache off): no host name resolves, and whatever is not loopback goes to a dead proxy.
OFFLINE_ARGS = (
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
    "--proxy-server=http://127.0.0.1:9",
)
LOCAL_HOSTS = frozenset({"127.0.0.1"})

MIME_TYPES = {
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".wasm": "application/wasm",
    ".json": "application/json",
    ".ipynb": "application/json",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".svg": "image/svg+xml",
    ".woff": "font/woff",
    ".woff2": "font/woff2",
    ".webmanifest": "application/manifest+json",
}


def built_site(description: str, argv: Sequence[str] | None = None) -> Path | None:
    """The ``--dir`` of a build step that works on the built site (``_build/html`` by
    default), or None, after saying so in French, when no site is built there
    (tools/build_offline.py, tools/precompress.py)."""
    parser = FrenchParser(description=description)
    parser.add_argument("--dir", type=Path, default=SITE, metavar="DOSSIER",
                        help="le site construit (par défaut : _build/html)")
    folder: Path = parse_args(parser, argv).dir
    if not (folder / "index.html").is_file():
        print(f"{folder} : aucun site construit ; lancez `make book`.", file=sys.stderr)
        return None
    return folder


#: Where the GM's page posts the player view and where the players' page reads it
#: (docs/hebergement.md, « La vue des joueurs »): the local server relays it between
#: devices, without any outside service.
PLAYERS_PATH = "/__joueurs__/etat"
#: The largest player view accepted (a few hundred fighters' names and looks).
MAX_PLAYER_VIEW = 64 * 1024
#: How long a players' page waits for a newer view before asking again (seconds).
PLAYERS_WAIT = 10.0


class _Players:
    """The last player view the GM's page posted, and its version; a reader waits for a
    newer one (a long poll: one request per change, not one a second)."""

    def __init__(self) -> None:
        self.changed = threading.Condition()
        self.version = 0
        self.body: bytes | None = None

    def put(self, body: bytes) -> None:
        with self.changed:
            self.version += 1
            self.body = body
            self.changed.notify_all()

    def newer_than(self, version: int, wait: float) -> tuple[int, bytes | None]:
        with self.changed:
            self.changed.wait_for(lambda: self.version != version, timeout=wait)
            return self.version, self.body


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    players: _Players
    #: A page asks for its 15–40 files at once: the standard library's backlog of 5
    #: dropped connections, which the browser retried a second later.
    request_queue_size = 128
    bytes_sent = 0  # body bytes served (file bodies and in-memory extras)
    hits = 0

    def count(self, size: int) -> None:
        with _COUNT_LOCK:
            self.bytes_sent += size
            self.hits += 1


_COUNT_LOCK = threading.Lock()


class _Handler(http.server.SimpleHTTPRequestHandler):
    server: _Server
    #: Connections kept open between requests, as any static host keeps them (HTTP/1.0
    #: made the browser open one per file, six at a time).
    protocol_version = "HTTP/1.1"
    # A class attribute in the stdlib too, hence no ClassVar (mypy) and no RUF012.
    extensions_map: dict[str, str] = {  # noqa: RUF012
        **http.server.SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}
    cache_seconds: ClassVar[int] = 0
    #: Cross-origin isolation (COOP/COEP): « Interrompre » then stops Python in place.
    isolated: ClassVar[bool] = False
    #: Extra files served from memory, by URL path (``/__bench__/bare.html``).
    extra: ClassVar[dict[str, bytes]] = {}

    def do_POST(self) -> None:
        """The GM's page posts the player view (JSON of type « etat »)."""
        if self.path.split("?", 1)[0] != PLAYERS_PATH:
            self.send_error(404)
            return
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = -1
        if not 0 < length <= MAX_PLAYER_VIEW:
            self.send_error(413 if length > 0 else 411)
            return
        body = self.rfile.read(length)
        try:
            data = json.loads(body)
        except ValueError:
            data = None
        if not isinstance(data, dict) or data.get("type") != "etat":
            self.send_error(400)
            return
        self.server.players.put(body)
        self.send_response(204)
        self.end_headers()

    def _players(self) -> None:
        """``GET /__joueurs__/etat?depuis=N``: the player view once newer than version N
        (or after :data:`PLAYERS_WAIT` seconds), as ``{"version": …, "etat": …}``."""
        query = self.path.partition("?")[2]
        known = 0
        for part in query.split("&"):
            key, _, value = part.partition("=")
            if key == "depuis" and value.isdigit():
                known = int(value)
        version, body = self.server.players.newer_than(known, PLAYERS_WAIT)
        state = body.decode("utf-8") if body is not None else "null"
        payload = f'{{"version": {version}, "etat": {state}}}'.encode()
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # the page left
            self.send_response(200)
            self.send_header("Content-Type", "application/json; charset=utf-8")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0]
        if path == PLAYERS_PATH:
            self._players()
            return
        body = self.extra.get(path)
        if body is None:
            super().do_GET()
            return
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        self.server.count(len(body))

    def send_head(self) -> Any:
        """A precompressed copy (``x.br``, ``x.gz``: tools/precompress.py) when the
        browser accepts it and the copy is not older than the file."""
        path = self.translate_path(self.path)
        sent = _precompressed(self, path)
        return sent if sent is not None else super().send_head()

    def copyfile(self, source: Any, outputfile: Any) -> None:
        size = 0
        while chunk := source.read(256 * 1024):
            outputfile.write(chunk)
            size += len(chunk)
        self.server.count(size)

    def end_headers(self) -> None:
        if self.cache_seconds:
            self.send_header("Cache-Control", f"public, max-age={self.cache_seconds}")
        else:
            self.send_header("Cache-Control", "no-cache")
        if self.isolated:
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        if os.environ.get("ESCARMOUCHE_HTTP_LOG"):
            super().log_message(format, *args)


#: Precompressed copies, best first: (file suffix, Content-Encoding).
PRECOMPRESSED = ((".br", "br"), (".gz", "gzip"))


def _precompressed(handler: _Handler, path: str) -> Any:
    """Open and announce ``path``'s compressed copy, or None (the plain file is sent)."""
    if not os.path.isfile(path):
        return None
    accepted = {part.split(";", 1)[0].strip().lower()
                for part in handler.headers.get("Accept-Encoding", "").split(",")}
    for suffix, encoding in PRECOMPRESSED:
        packed = path + suffix
        if encoding not in accepted or not os.path.isfile(packed):
            continue
        stat = os.stat(path)
        if os.stat(packed).st_mtime < stat.st_mtime:
            continue  # stale: the file changed after the copy was made
        since = handler.headers.get("If-Modified-Since")
        if since and "If-None-Match" not in handler.headers:
            with contextlib.suppress(TypeError, ValueError, IndexError, OverflowError):
                if email.utils.parsedate_to_datetime(since).timestamp() >= int(stat.st_mtime):
                    handler.send_response(304)
                    handler.send_header("Vary", "Accept-Encoding")
                    handler.end_headers()
                    return None if handler.command == "HEAD" else _EMPTY()
        body = open(packed, "rb")  # noqa: SIM115  (closed by the stdlib after copyfile)
        handler.send_response(200)
        handler.send_header("Content-Type", handler.guess_type(path))
        handler.send_header("Content-Encoding", encoding)
        handler.send_header("Content-Length", str(os.fstat(body.fileno()).st_size))
        handler.send_header("Vary", "Accept-Encoding")
        handler.send_header("Last-Modified", handler.date_time_string(int(stat.st_mtime)))
        handler.end_headers()
        return body
    return None


class _EMPTY:
    """The body of a 304: nothing to copy."""

    def read(self, size: int = -1) -> bytes:
        return b""

    def close(self) -> None:
        pass


class SiteServer:
    """Serve ``directory`` on ``http://127.0.0.1:<port>/`` from a background thread
    (on every interface of this machine with ``host="0.0.0.0"``: ``serve_site.py
    --reseau``), with the players' view relayed at :data:`PLAYERS_PATH`."""

    def __init__(self, directory: Path = SITE, port: int = 0, cache_seconds: int = 0,
                 quiet: bool = True, extra: dict[str, bytes] | None = None,
                 isolated: bool = False, host: str = "127.0.0.1") -> None:
        self.extra: dict[str, bytes] = dict(extra or {})
        attrs = {"cache_seconds": cache_seconds, "extra": self.extra, "isolated": isolated}
        handler = functools.partial(type("Handler", (_Handler,), attrs),
                                    directory=str(directory))
        if not quiet:
            os.environ.setdefault("ESCARMOUCHE_HTTP_LOG", "1")
        self.httpd = _Server((host, port), handler)
        self.httpd.players = _Players()
        self.port = self.httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}/"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True,
                                        name=f"site-server-{self.port}")

    def set_extra(self, path: str, body: bytes) -> None:
        """Serve ``body`` at ``path`` from now on (a file of a newer build, in a test)."""
        self.extra[path] = body

    def __enter__(self) -> SiteServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self._thread.join(timeout=10)


@dataclass
class RequestLog:
    """Every URL a browser context asked for; with ``block``, those off 127.0.0.1 are
    aborted by a Playwright route (which also turns Chromium's HTTP cache off)."""

    requests: list[str] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)

    def attach(self, context: Any, block: bool = True) -> None:
        context.on("request", lambda request: self.requests.append(request.url))
        if block:
            context.route("**/*", self._route)

    def _route(self, route: Any) -> None:
        url = route.request.url
        if is_local(url):
            route.continue_()
        else:
            self.blocked.append(url)
            route.abort("blockedbyclient")

    def external(self) -> list[str]:
        return sorted({u for u in self.requests if not is_local(u)} | set(self.blocked))


def is_local(url: str) -> bool:
    parts = urlsplit(url)
    if parts.scheme in {"data", "blob", "about"}:
        return True
    return parts.scheme in {"http", "https", "ws"} and parts.hostname in LOCAL_HOSTS


#: A 390 px phone (Playwright's Pixel 7 with the 390 × 844 viewport of the book's phone
#: tests): a phone's user agent, touch and pixel density, so that pages behave as on one.
PHONE_DEVICE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "screen": {"width": 390, "height": 844},
    "device_scale_factor": 2.625,
    "is_mobile": True,
    "has_touch": True,
    "user_agent": ("Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 "
                   "(KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36"),
}


@contextlib.contextmanager
def launch_chromium(playwright: Any, extra_args: tuple[str, ...] = (),
                    service_workers: str = "block", device: dict[str, Any] | None = None
                    ) -> Iterator[Any]:
    """A headless Chromium in a fresh profile (one per call), offline, closed on exit.

    The book's service worker (sw.js) is blocked unless ``service_workers="allow"``: it
    precaches the whole book (PDF included) after the first page, which would blur what a
    test or a benchmark measures of one page; tests/browser/test_pocket.py allows it.
    ``device``: context options that replace the desktop ones (``PHONE_DEVICE``)."""
    if not CHROMIUM.exists():
        raise RuntimeError(f"{CHROMIUM} manque : lancez tools/ensure_chromium.py")
    with tempfile.TemporaryDirectory(prefix="escarmouche-chromium-") as profile:
        context = playwright.chromium.launch_persistent_context(
            profile,
            executable_path=str(CHROMIUM),
            headless=True,
            args=[*CHROMIUM_ARGS, *OFFLINE_ARGS, *extra_args],
            **{"viewport": {"width": 1280, "height": 900}, **(device or {})},
            locale="fr-FR",
            timeout=60_000,
            service_workers=service_workers,
        )
        try:
            yield context
        finally:
            context.close()


def lite_notebook_url(base: str, docname: str) -> str:
    """The live notebook of the book page ``docname`` (as the page's button links it)."""
    return f"{base}lite/notebooks/index.html?path={quote(docname + '.ipynb')}"


# --- driving JupyterLite's Notebook app --------------------------------------------------

#: JavaScript evaluated in the page: the state of every cell of the open notebook.
CELLS_JS = """() => Array.from(document.querySelectorAll('.jp-Notebook .jp-Cell')).map(c => ({
  code: c.classList.contains('jp-CodeCell'),
  prompt: (c.querySelector('.jp-InputPrompt') || {}).textContent || '',
  outputs: Array.from(c.querySelectorAll('.jp-OutputArea-output')).map(o => {
    const typed = o.hasAttribute('data-mime-type') ? o : o.querySelector('[data-mime-type]');
    const img = o.querySelector('img');
    return {
      mime: typed ? typed.getAttribute('data-mime-type') : '',
      text: o.textContent,
      widgets: o.querySelectorAll('.jupyter-widgets').length,
      img: img ? img.src : '',
    };
  }),
}))"""


#: The « Exécution » menu of the Notebook app (English when no language pack is there).
RUN_MENU = re.compile(r"^(Exécution|Run)$")

HTML_TEXT_JS = """(markup) => {
  const div = document.createElement('div');
  div.innerHTML = markup;
  return div.textContent;
}"""


def wait_for_notebook(page: Any, timeout_s: float = 60) -> None:
    """Until the notebook's cells are on screen."""
    page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=timeout_s * 1000)


def run_all_cells(page: Any, timeout_s: float = 120) -> list[dict[str, Any]]:
    """Run every cell (the « Exécution » menu's run-all entry); wait for the end.

    The menu entry is disabled until the notebook is ready, and a click on it can be
    lost while the app is still starting: the click is repeated until a cell starts.
    """
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    wait_for_notebook(page, timeout_s)
    deadline = time.monotonic() + timeout_s
    while not _started(page.evaluate(CELLS_JS)):
        if time.monotonic() > deadline:
            raise TimeoutError(f"Run All Cells never started in {timeout_s} s")
        page.keyboard.press("Escape")
        page.locator(".lm-MenuBar-itemLabel", has_text=RUN_MENU).first.click()
        item = page.locator('.lm-Menu-item[data-command="runmenu:run-all"]').first
        item.wait_for(timeout=10_000)
        if "lm-mod-disabled" in (item.get_attribute("class") or ""):
            page.keyboard.press("Escape")
            page.wait_for_timeout(250)
            continue
        item.click()
        try:
            page.wait_for_function(
                f"() => ({_STARTED_JS})(({CELLS_JS})())", timeout=10_000)
        except PlaywrightTimeout:  # a lost click: try again until the deadline
            continue
    return wait_until_run(page, max(1.0, deadline - time.monotonic()))


_STARTED_JS = "cells => cells.some(c => c.code && /[0-9*]/.test(c.prompt))"


def _started(cells: list[dict[str, Any]]) -> bool:
    return any(c["code"] and any(ch.isdigit() or ch == "*" for ch in c["prompt"])
               for c in cells)


def wait_until_run(page: Any, timeout_s: float) -> list[dict[str, Any]]:
    """Until every code cell ran, or the run stopped on an error."""
    deadline = time.monotonic() + timeout_s
    cells: list[dict[str, Any]] = []
    while time.monotonic() < deadline:
        cells = page.evaluate(CELLS_JS)
        prompts = [c["prompt"] for c in cells if c["code"]]
        busy = any("*" in p for p in prompts)
        failed = any(o["mime"] == "application/vnd.jupyter.stderr" and "Traceback" in o["text"]
                     for c in cells for o in c["outputs"])
        if prompts and not busy and (all(_ran(p) for p in prompts) or failed):
            return cells
        page.wait_for_timeout(100)
    raise TimeoutError(f"cells not run after {timeout_s} s: {cells}")


def _ran(prompt: str) -> bool:
    inner = prompt.strip().removeprefix("[").removesuffix("]:").strip()
    return inner.isdigit()
