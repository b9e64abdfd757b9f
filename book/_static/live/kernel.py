"""The Python side of the book's live pages (runs in Pyodide, in a Web Worker).

``live-worker.mjs`` loads this module once Pyodide is up, puts the page's wheels on
``sys.path`` (:func:`use_wheels`: imported from their zip), then calls
:func:`setup` with a ``post(json, buffers)`` function that sends a message to the page.
It gives the page a tiny kernel, without IPython and without ipykernel:

- a minimal ``IPython`` stand-in (``get_ipython`` → ``None``, ``display``,
  ``clear_output``, ``HTML``/``SVG``/``Markdown``, ``InteractiveShell``): what
  ipywidgets imports and what the book's examples use. The real IPython would pull in
  jedi, prompt_toolkit, pygments and stack_data (≈ 6.5 MB of wheels, 0.4× a bare
  Pyodide boot);
- :func:`run_cell`: a notebook cell's code, with Jupyter's rules (the value of a last
  expression is shown, a trailing ``;`` hides it), its prints and displays sent to the
  page as outputs of that cell;
- widget comms through the ``comm`` package's documented hook (``comm.create_comm``):
  ipywidgets' messages go to the page's ``@jupyter-widgets/html-manager``; the page's
  messages come back through :func:`comm_msg`, and what Python sends while handling one
  names it as its parent (ipywidgets' ``echo_update`` needs that);
- the GM tracker's autosave: after each widget operation, the fight of every
  ``CombatTracker`` of the page (``tracker.encounter.to_json()``) goes to the page,
  which keeps it in the browser's storage; :func:`resume` imports it back with the
  tracker's own « Importer » (its JSON box and ``import_json``).

Everything here is plain CPython too: ``tests/faces/book/test_live_kernel.py`` drives
it without a browser.
"""

from __future__ import annotations

import ast
import io
import json
import marshal
import os
import sys
import traceback
import types
import zipimport
from collections.abc import Callable, Sequence
from importlib.resources.abc import TraversableResources
from importlib.util import MAGIC_NUMBER
from typing import Any

# Set before ipywidgets is imported (it reads it once). The page expects the echo of
# its own updates (see comm_msg); keep it on.
os.environ.setdefault("JUPYTER_WIDGETS_ECHO", "1")

Post = Callable[[str, Any], None]

_post: Post | None = None
_cell: int | None = None  # the cell whose outputs are being produced
_parent: str | None = None  # the page message being handled (comm replies name it)
_autosave_on = False
_saved: dict[str, str] = {}
NAMESPACE: dict[str, Any] = {"__name__": "__main__", "__builtins__": __builtins__}
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"


def send(message: dict[str, Any], buffers: Sequence[Any] | None = None) -> None:
    if _post is None:
        raise RuntimeError("kernel.setup() n’a pas été appelé")
    if _cell is not None and "cell" not in message:
        message["cell"] = _cell
    _post(json.dumps(message, default=str), list(buffers or []))


# --- rich output ------------------------------------------------------------------------

_REPRS = (
    ("text/html", "_repr_html_"),
    ("image/svg+xml", "_repr_svg_"),
    ("text/markdown", "_repr_markdown_"),
    ("text/latex", "_repr_latex_"),
    ("image/png", "_repr_png_"),
    ("application/json", "_repr_json_"),
)


def mimebundle(obj: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """The MIME bundle Jupyter would show for ``obj`` (``_repr_mimebundle_`` first)."""
    data: dict[str, Any] = {}
    metadata: dict[str, Any] = {}
    method = getattr(obj, "_repr_mimebundle_", None)
    if callable(method) and not isinstance(obj, type):
        got = method(include=None, exclude=None)
        if isinstance(got, tuple):
            got, metadata = got[0], dict(got[1] or {})
        data.update(got or {})
    for mime, name in _REPRS:
        method = getattr(obj, name, None)
        if mime in data or not callable(method) or isinstance(obj, type):
            continue
        value = method()
        if isinstance(value, tuple):
            value, meta = value
            metadata[mime] = meta
        if value is not None:
            data[mime] = value
    if "text/plain" not in data:
        data["text/plain"] = repr(obj)
    return data, metadata


def display(*objs: Any, raw: bool = False, **_kwargs: Any) -> None:
    """``IPython.display.display``: each object becomes an output of the running cell."""
    for obj in objs:
        if raw:
            data, metadata = dict(obj), {}
        else:
            data, metadata = mimebundle(obj)
        send({"type": "display", "data": data, "metadata": metadata})


def clear_output(wait: bool = False) -> None:
    send({"type": "clear", "wait": wait})


class DisplayObject:
    """``IPython.display.HTML``/``SVG``/``Markdown``: text shown with one MIME type."""

    mime = "text/plain"

    def __init__(self, data: str | None = None, **_kwargs: Any) -> None:
        self.data = data or ""

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        return {self.mime: self.data, "text/plain": f"<{type(self).__name__} object>"}


class HTML(DisplayObject):
    mime = "text/html"


class SVG(DisplayObject):
    mime = "image/svg+xml"


class Markdown(DisplayObject):
    mime = "text/markdown"


class Pretty(DisplayObject):
    mime = "text/plain"


class InteractiveShell:
    """Only what ``ipywidgets.widget_output`` asks of the class: there is no shell."""

    @classmethod
    def initialized(cls) -> bool:
        return False

    @classmethod
    def instance(cls) -> None:
        return None


def get_ipython() -> None:
    return None


def install_ipython_stand_in() -> None:
    """``IPython``, ``IPython.display``, ``IPython.core.{display,interactiveshell}``."""
    if "IPython" in sys.modules and not getattr(sys.modules["IPython"], "_escarmouche", False):
        return  # the real one is there (CPython tests with IPython installed)
    names = {
        "IPython": {"get_ipython": get_ipython, "display": display},
        "IPython.display": {"display": display, "clear_output": clear_output, "HTML": HTML,
                            "SVG": SVG, "Markdown": Markdown, "Pretty": Pretty,
                            "DisplayObject": DisplayObject},
        "IPython.core": {},
        "IPython.core.display": {"display": display, "HTML": HTML, "SVG": SVG,
                                 "Markdown": Markdown, "DisplayObject": DisplayObject},
        "IPython.core.interactiveshell": {"InteractiveShell": InteractiveShell},
        "IPython.core.getipython": {"get_ipython": get_ipython},
    }
    for name, attrs in names.items():
        module = types.ModuleType(name, "Escarmouche's minimal IPython stand-in (live pages)")
        module.__dict__.update(attrs)
        module._escarmouche = True  # type: ignore[attr-defined]
        if "." not in name or name == "IPython.core":
            module.__path__ = []
        sys.modules[name] = module
    sys.modules["IPython"].__version__ = "0+escarmouche"  # type: ignore[attr-defined]
    sys.modules["IPython"].core = sys.modules["IPython.core"]  # type: ignore[attr-defined]
    sys.modules["IPython"].display = sys.modules["IPython.display"]  # type: ignore[attr-defined]


# --- cells ------------------------------------------------------------------------------


class _Stream(io.TextIOBase):
    def __init__(self, name: str) -> None:
        self.name = name

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if text:
            send({"type": "stream", "name": self.name, "text": text})
        return len(text)


def _split(code: str) -> tuple[ast.Module, ast.Expression | None]:
    """The cell's statements, and its last expression when its value is to be shown."""
    tree = ast.parse(code, "<cellule>", "exec")
    last: ast.Expression | None = None
    if tree.body and isinstance(tree.body[-1], ast.Expr) and not code.rstrip().endswith(";"):
        last = ast.Expression(tree.body.pop().value)  # type: ignore[attr-defined]
    return tree, last


def _traceback(exc: BaseException) -> list[str]:
    """The traceback without this module's frames (the reader's code only)."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename == __file__:
        tb = tb.tb_next
    return traceback.format_exception(type(exc), exc, tb)


def run_cell(cell: int, code: str) -> bool:
    """Run one cell; its outputs go to the page, then a ``done`` message. True if it ran."""
    global _cell
    _cell = cell
    old = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _Stream("stdout"), _Stream("stderr")
    ok = True
    try:
        tree, last = _split(code)
        exec(compile(tree, "<cellule>", "exec"), NAMESPACE)
        if last is not None:
            value = eval(compile(last, "<cellule>", "eval"), NAMESPACE)
            if value is not None:
                NAMESPACE["_"] = value
                data, metadata = mimebundle(value)
                send({"type": "display", "data": data, "metadata": metadata, "result": True})
    except BaseException as exc:  # the reader's code: show every error, keep the kernel
        ok = False
        send({"type": "error", "ename": type(exc).__name__, "evalue": str(exc),
              "traceback": _traceback(exc)})
    finally:
        sys.stdout, sys.stderr = old
        send({"type": "done", "ok": ok})
        _cell = None
    if _autosave_on:
        autosave()
    return ok


# --- widget comms -----------------------------------------------------------------------


def _page_comm_class() -> type:
    from comm.base_comm import BaseComm

    class PageComm(BaseComm):  # type: ignore[misc]
        """A comm whose other end is the page's widget manager."""

        def publish_msg(self, msg_type: str, data: Any = None, metadata: Any = None,
                        buffers: Any = None, **keys: Any) -> None:
            message = {"type": msg_type, "comm_id": self.comm_id, "data": data or {},
                       "metadata": metadata or {}, "parent": _parent}
            if msg_type == "comm_open":
                message["target_name"] = keys.get("target_name") or self.target_name
            send(message, [bytes(b) for b in buffers or []])

    return PageComm


def install_comm() -> None:
    import comm

    page_comm = _page_comm_class()

    def create_comm(*args: Any, **kwargs: Any) -> Any:
        return page_comm(*args, **kwargs)

    comm.create_comm = create_comm


def _bytes(buffer: Any) -> memoryview:
    to_bytes = getattr(buffer, "to_bytes", None)  # a JsProxy of a Uint8Array
    return memoryview(to_bytes() if callable(to_bytes) else bytes(buffer))


def comm_msg(comm_id: str, msg_id: str, data: str | dict[str, Any],
             buffers: Sequence[Any] = ()) -> None:
    """A message from a widget of the page; then ``idle`` (the page's throttle waits)."""
    global _parent
    import comm

    if isinstance(data, str):
        data = json.loads(data)

    _parent = msg_id
    try:
        target = comm.get_comm_manager().get_comm(comm_id)
        if target is not None:
            target.handle_msg({
                "header": {"msg_id": msg_id, "msg_type": "comm_msg"},
                "parent_header": {}, "metadata": {},
                "content": {"comm_id": comm_id, "data": data},
                "buffers": [_bytes(b) for b in buffers],
            })
    except KeyboardInterrupt:  # « Interrompre » under a long step: stopped, not failed
        pass
    finally:
        _parent = None
        send({"type": "idle", "msg_id": msg_id})
    if _autosave_on:
        autosave()


def comm_close(comm_id: str) -> None:
    import comm

    manager = comm.get_comm_manager()
    target = manager.get_comm(comm_id)
    if target is not None:
        target.handle_close({"content": {"comm_id": comm_id, "data": {}}})


# --- the GM tracker's autosave ------------------------------------------------------------


def trackers() -> list[tuple[str, Any]]:
    """The page's ``CombatTracker`` objects, by variable name."""
    module = sys.modules.get("escarmouche_widgets.tracker")
    cls = getattr(module, "CombatTracker", None)
    if cls is None:
        return []
    return [(name, value) for name, value in NAMESPACE.items()
            if isinstance(value, cls) and not name.startswith("_")]


def autosave() -> None:
    """Send each tracker's fight to the page when it changed since the last save."""
    for name, tracker in trackers():
        enc = getattr(tracker, "encounter", None)
        if enc is None:
            continue
        try:
            # the tracker's own save keeps the undo history and the hidden fighters
            save = getattr(tracker, "save_text", None)
            text = save() if callable(save) else enc.to_json()
        except Exception:  # an engine that cannot save now must not break the page
            continue
        if _saved.get(name) == text:
            continue
        _saved[name] = text
        send({"type": "autosave", "name": name, "json": text, "summary": {
            "system": getattr(enc.state, "system", ""),
            "turn": getattr(enc, "turn", None),
            "turn_word": getattr(getattr(enc, "system", None), "turn_word", "tour"),
            "events": len(getattr(enc.state, "log", [])),
            "fighters": len(getattr(enc.state, "fighters", {})),
        }})


def start_autosave() -> None:
    """From now on, save after every cell and every widget operation (not before: the
    page's own cells must not overwrite a fight waiting to be resumed)."""
    global _autosave_on
    _autosave_on = True
    for name, tracker in trackers():
        enc = getattr(tracker, "encounter", None)
        if enc is not None:
            save = getattr(tracker, "save_text", None)
            _saved[name] = save() if callable(save) else enc.to_json()


def resume(name: str, text: str) -> bool:
    """Import a saved fight into the tracker ``name`` (else the page's first tracker)
    with the tracker's own « Importer »."""
    found = trackers()
    chosen = [t for t in found if t[0] == name] or found[:1]
    for found_name, tracker in chosen:
        tracker.json.value = text
        ok = bool(tracker.import_json())
        if ok:
            _saved[found_name] = text
        return ok
    return False


# --- the page's wheels, imported from their zip ------------------------------------------


class WheelImporter(zipimport.zipimporter):
    """zipimport for a pure-Python wheel on ``sys.path``, with the wheel's bytecode.

    A wheel is a zip file, and Python imports a pure-Python package straight from a zip
    on ``sys.path``; the worker writes the page's wheels to the file system as they came
    and imports from them, instead of ``loadPackage`` unpacking each (about 1 000 files,
    0.2–0.4 s: bench/README-browser.md). But ``zipimport`` looks for ``mod.pyc`` beside
    ``mod.py``, while the site's wheels keep their bytecode in ``__pycache__`` (unchecked
    hash-based pycs of this very Python, tools/lite/precompile_wheels.mjs), where an
    unpacked install finds it: without this class every module would be compiled from
    source. Sources stay in the zip, so tracebacks still show code lines. A package's data
    files are real files (:class:`_DataFiles`).
    """

    def _toc(self) -> Any:
        """The zip's table of contents (``_get_files()`` from Python 3.13, ``_files``
        before: Pyodide has 3.14, the tests run this module under the project's CPython)."""
        get = getattr(self, "_get_files", None)
        return get() if get is not None else self._files

    def _paths(self, fullname: str) -> tuple[str, str] | None:
        """The module's source and bytecode paths in the zip, if it has a source."""
        name = fullname.rpartition(".")[2]
        base = self.prefix + name
        files = self._toc()
        if f"{base}/__init__.py" in files:
            return f"{base}/__init__.py", f"{base}/__pycache__/__init__.{_TAG}.pyc"
        if f"{base}.py" in files:
            return f"{base}.py", f"{self.prefix}__pycache__/{name}.{_TAG}.pyc"
        return None

    def get_filename(self, fullname: str) -> str:
        # zipimport finds the file name by compiling the module: not needed to name it
        paths = self._paths(fullname)
        if paths is None:
            return str(super().get_filename(fullname))
        return f"{self.archive}/{paths[0]}"

    def get_code(self, fullname: str) -> Any:
        paths = self._paths(fullname)
        if paths is not None and paths[1] in self._toc():
            data = self.get_data(paths[1])
            # an unchecked hash-based pyc of this Python (PEP 552, flags 1): used as is,
            # as the import system does; anything else is compiled from the source
            if data[:4] == MAGIC_NUMBER and int.from_bytes(data[4:8], "little") == 1:
                return marshal.loads(memoryview(data)[16:])
        return super().get_code(fullname)


    def get_resource_reader(self, fullname: str) -> Any:
        """A package's files as real paths (:class:`_DataFiles`): the engine hands out a
        file of its own as a ``pathlib.Path`` (``roster.example_rosters``), which a path
        inside a zip cannot be."""
        if not self.is_package(fullname):
            return super().get_resource_reader(fullname)
        return _DataFiles(self.archive, self.prefix + fullname.rpartition(".")[2] + "/")


_TAG = sys.implementation.cache_tag
#: where the data files of the page's wheels are written, by wheel
_DATA_DIR = "/home/pyodide/donnees"


class _DataFiles(TraversableResources):
    """``importlib.resources.files(package)`` for a package imported from a wheel: its data
    files (everything but modules and bytecode: rosters, schemas…) written once, on first
    use, under :data:`_DATA_DIR`, and read from there as from an unpacked install."""

    def __init__(self, archive: str, prefix: str) -> None:
        self.archive = archive
        self.prefix = prefix

    def files(self) -> Any:
        import pathlib
        import zipfile

        root = pathlib.Path(_DATA_DIR, os.path.basename(self.archive))
        folder = root / self.prefix
        if not folder.is_dir():
            with zipfile.ZipFile(self.archive) as z:
                for name in z.namelist():
                    if (name.startswith(self.prefix) and not name.endswith((".py", ".pyc", "/"))
                            and "/__pycache__/" not in name):
                        target = root / name
                        target.parent.mkdir(parents=True, exist_ok=True)
                        target.write_bytes(z.read(name))
            folder.mkdir(parents=True, exist_ok=True)
        return folder


def _wheel_hook(path: str) -> WheelImporter:
    if not (path.endswith(".whl") or ".whl/" in path):
        raise ImportError("pas une roue")
    return WheelImporter(path)


def use_wheels(paths: Sequence[str]) -> None:
    """Import the packages of these wheel files (already on the file system) from them."""
    if _wheel_hook not in sys.path_hooks:
        sys.path_hooks.insert(0, _wheel_hook)
    sys.path[0:0] = [p for p in paths if p not in sys.path]
    sys.path_importer_cache.clear()


# --- boot -------------------------------------------------------------------------------


def setup(post: Post, widgets: bool) -> None:
    """Install the stand-in and the comm hook; import what the page needs."""
    global _post
    _post = post
    install_ipython_stand_in()
    if widgets:
        install_comm()
        import ipywidgets  # noqa: F401  (the import is the point: it takes the time now)
    import escarmouche  # noqa: F401


def play_batch(job: str) -> str:
    """A helper worker of the page's pool (live-worker.mjs ``makePool``): one batch of a
    long run, from its JSON job to its tallies as JSON."""
    from escarmouche.simulation.sequential import play_batch_json

    return play_batch_json(job)
