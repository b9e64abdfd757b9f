"""Build the book and, inside it, the offline JupyterLite site (``make book``).

The whole build, in order, is read in ``book/_ext/escarmouche_pipeline.py``. Steps, each
cached where it is cheap to tell that nothing changed:

1. ``npm ci`` (only when package-lock.json changed): the Pyodide core
   (``pyodide@314.0.6``), ipywidgets' controls and esbuild.
2. Bundle the live pages' widget manager into ``book/_static/vendor/`` (esbuild).
3. Build this repository's wheel (``escarmouche``, engine + widgets) in this run.
4. ``pip download`` the pure-Python wheels the Pyodide kernel needs
   (``tools/lite/requirements-pyodide.txt``; skipped when a stamp says they are there),
   and add Python 3.14 bytecode to them with the Pyodide of step 1 under Node.js
   (``tools/lite/precompile_wheels.mjs``; cached per wheel): the kernel then imports
   IPython without compiling it, about a second sooner. Pyodide's standard library gets
   the same for the modules a live page imports (``tools/lite/precompile_stdlib.mjs``):
   Python then starts in about half the time of a stock Pyodide.
5. Assemble the lite source folder ``_build/lite-src``: the committed ``lite/`` files,
   the Pyodide core plus a rewritten ``pyodide-lock.json`` and its wheels in
   ``static/pyodide/``, and the project, icepool and widget wheels in ``pypi/``.
6. ``jupyter-book build`` (warnings are errors): Sphinx with the book's extensions and
   their passes over the built pages (``escarmouche_pipeline.PAGE_PASSES``);
   jupyterlite-sphinx runs ``jupyter lite build`` among them and puts the site in
   ``_build/html/lite``, with JupyterLab's French language pack (``pip install
   --target``, on PYTHONPATH only).
7. The passes after Sphinx (``escarmouche_pipeline.AFTER_SPHINX``), once each: the live
   runtime's sizes in the pages, the whole-book PDF, the installable, offline book
   (manifest, icons, offline page, service worker), the gzip and Brotli copies.

The rewritten lock is the heart of the offline kernel: PyPI's wheels differ from
Pyodide's repackaged ones (other sha256), so the lock is rebuilt around the files we
actually serve with ``pyodide_lock.utils.add_wheels_to_spec`` (see BROWSER.md).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from escarmouche.cli.french import FrenchParser, parse_args

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "_build"
HTML = BUILD / "html"
LITE_TEMPLATE = ROOT / "lite"
LITE_SRC = BUILD / "lite-src"
WHEEL_CACHE = BUILD / "lite-wheels"
PROJECT_WHEELS = BUILD / "project-wheel"
PYC_CACHE = BUILD / "lite-wheels-pyc"
LANGPACK_DIR = BUILD / "lite-langpack"
#: JupyterLite's own menus and dialogs in French: the language pack is found by
#: ``jupyter lite build`` through PYTHONPATH (not installed in the venv), and
#: lite/overrides.json makes fr_FR the default locale.
LANGPACK = "jupyterlab-language-pack-fr-FR==4.5.post3"
PRECOMPILE_SCRIPT = ROOT / "tools" / "lite" / "precompile_wheels.mjs"
STDLIB_SCRIPT = ROOT / "tools" / "lite" / "precompile_stdlib.mjs"
STDLIB_CACHE = BUILD / "lite-stdlib"
#: the live pages' kernel, whose imports decide which standard modules are compiled
LIVE_KERNEL = ROOT / "book" / "_static" / "live" / "kernel.py"
NODE_MODULES = ROOT / "node_modules"
VENDOR = ROOT / "book" / "_static" / "vendor"
REQUIREMENTS = ROOT / "tools" / "lite" / "requirements-pyodide.txt"
KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
PYODIDE_VERSION = "314.0.6"

#: Pyodide core files the kernel needs (no source maps, no typings, no demo pages).
PYODIDE_CORE = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")

#: Wheels of the kernel's own helpers, shipped inside the Pyodide kernel labextension.
KERNEL_HELPERS = ("piplite", "pyodide_kernel", "ipykernel", "widgetsnbextension-4")

#: Wheels also copied to the lite ``pypi/`` index, so ``%pip install`` finds them.
PYPI_INDEX = ("comm", "ipywidgets", "jupyterlab_widgets", "icepool", "fastjsonschema")

#: Packages loaded by ``loadPyodide`` while the kernel boots (all from the rewritten
#: lock, fetched in parallel): the kernel's own needs, then the widgets and the engine.
#: The kernel skips its sequential ``piplite.install`` of any name listed here.
PRELOAD = (
    "micropip", "piplite", "ipykernel", "comm", "pyodide-kernel", "jedi", "ipython",
    "widgetsnbextension", "jupyterlab-widgets", "ipywidgets", "icepool", "fastjsonschema",
    "escarmouche",
)


def log(msg: str) -> None:
    print(f"[build_site] {msg}", flush=True)


def run(cmd: Sequence[str], **kwargs: Any) -> None:
    log("$ " + " ".join(str(c) for c in cmd))
    subprocess.run(list(cmd), check=True, **kwargs)


def sha(*parts: bytes) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(p)
    return h.hexdigest()[:16]


def venv_bin(name: str) -> str:
    return str(Path(sys.executable).parent / name)


def copy_if_changed(src: Path, dst: Path) -> bool:
    if dst.exists() and dst.stat().st_size == src.stat().st_size and (
        dst.read_bytes() == src.read_bytes()
    ):
        return False
    dst.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, dst)
    return True


# --- 1. npm --------------------------------------------------------------------------


def ensure_node_modules() -> None:
    """``npm ci`` once per package-lock.json (a stamp file in node_modules says so)."""
    lock = ROOT / "package-lock.json"
    stamp = NODE_MODULES / f".stamp-{sha(lock.read_bytes())}"
    if stamp.exists():
        return
    npm = shutil.which("npm")
    if npm is None:
        raise SystemExit("npm est introuvable : installez Node.js (≥ 18) et npm.")
    # --ignore-scripts: nothing here needs an install script (font-awesome's only prints).
    run([npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"],
        cwd=ROOT)
    stamp.touch()


# --- 2. the live pages' widget library -------------------------------------------------


#: The live pages' widget manager (ipywidgets' controls, without html-manager's
#: RequireJS, ipywidgets 7 copies, Output widget and JupyterLab rendermime).
WIDGET_ENTRY = ROOT / "tools" / "widgets" / "live-manager.mjs"
WIDGET_BUNDLE = VENDOR / "live-widgets.js"


def bundle_widget_js() -> None:
    """``book/_static/vendor/live-widgets.{js,css}`` and the icon fonts the stylesheet
    names, bundled and minified by esbuild from ``tools/widgets/live-manager.mjs``; done
    again only when the entry or the npm lock changed."""
    inputs = sha(WIDGET_ENTRY.read_bytes(), (ROOT / "package-lock.json").read_bytes())
    stamp = BUILD / f".widgets-{inputs}"
    if stamp.exists() and WIDGET_BUNDLE.is_file():
        return
    shutil.rmtree(VENDOR, ignore_errors=True)
    # Browsers take the first font format they read: every one reads woff2, so the
    # other formats Font Awesome's stylesheet names are left out (esbuild's empty loader).
    run([str(NODE_MODULES / ".bin" / "esbuild"), str(WIDGET_ENTRY), "--bundle", "--minify",
         "--format=iife", "--global-name=escarmoucheWidgets", "--target=es2020",
         "--log-level=warning", f"--outfile={WIDGET_BUNDLE}", "--asset-names=[name]-[hash]",
         "--loader:.woff2=file", *(f"--loader:.{ext}=empty" for ext in
                                   ("woff", "ttf", "eot", "svg"))], cwd=ROOT)
    BUILD.mkdir(exist_ok=True)
    for old in BUILD.glob(".widgets-*"):
        old.unlink()
    stamp.touch()


# --- 3. the project's wheel ------------------------------------------------------------


def build_project_wheel() -> Path:
    """This repository's wheel, built now (never a published version that can drift)."""
    shutil.rmtree(PROJECT_WHEELS, ignore_errors=True)
    run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir",
         str(PROJECT_WHEELS), str(ROOT)], stdout=subprocess.DEVNULL)
    wheels = sorted(PROJECT_WHEELS.glob("escarmouche-*-py3-none-any.whl"))
    if len(wheels) != 1:
        raise SystemExit(f"expected one escarmouche wheel, found {wheels}")
    return wheels[0]


# --- 4. the kernel's wheels ------------------------------------------------------------


def requirement_lines() -> list[str]:
    lines = []
    for raw in REQUIREMENTS.read_text(encoding="utf-8").splitlines():
        line = raw.split("#", 1)[0].strip()
        if line:
            lines.append(line)
    return lines


def download_kernel_wheels() -> list[Path]:
    """Pure-Python wheels for Python 3.14 from PyPI, once per requirements file."""
    stamp = WHEEL_CACHE / f".stamp-{sha(REQUIREMENTS.read_bytes())}"
    if not stamp.exists():
        shutil.rmtree(WHEEL_CACHE, ignore_errors=True)
        WHEEL_CACHE.mkdir(parents=True)
        run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
             "--only-binary=:all:", "--python-version", "3.14", "--implementation", "py",
             "--dest", str(WHEEL_CACHE), "-r", str(REQUIREMENTS)])
        stamp.touch()
    wheels = sorted(WHEEL_CACHE.glob("*.whl"))
    if len(wheels) != len(requirement_lines()):
        raise SystemExit(f"{WHEEL_CACHE}: {len(wheels)} wheels for "
                         f"{len(requirement_lines())} requirements; delete it and retry")
    return wheels


def kernel_helper_wheels() -> list[Path]:
    """piplite, the ipykernel shim, pyodide-kernel and the widgetsnbextension shim."""
    if importlib.util.find_spec("jupyterlite_pyodide_kernel") is None:
        raise SystemExit("jupyterlite-pyodide-kernel manque : make venv")
    pypi = (Path(sys.prefix) / "share" / "jupyter" / "labextensions" / "@jupyterlite"
            / "pyodide-kernel-extension" / "static" / "pypi")
    out = []
    for prefix in KERNEL_HELPERS:
        found = sorted(pypi.glob(f"{prefix}*-py3-none-any.whl"))
        if len(found) != 1:
            raise SystemExit(f"{pypi}: expected one {prefix} wheel, found {found}")
        out.append(found[0])
    return out


def ensure_language_pack() -> Path:
    """The French language pack of JupyterLab, once per pinned version."""
    stamp = LANGPACK_DIR / f".stamp-{sha(LANGPACK.encode())}"
    if not stamp.exists():
        shutil.rmtree(LANGPACK_DIR, ignore_errors=True)
        run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
             "--target", str(LANGPACK_DIR), LANGPACK])
        stamp.touch()
    return LANGPACK_DIR


# --- 5. the lite source folder ---------------------------------------------------------


def write_lock(core_lock: Path, wheels: list[Path], dest: Path) -> list[str]:
    """A pyodide-lock.json listing exactly the wheels in ``dest`` (names returned)."""
    from pyodide_lock import PyodideLockSpec
    from pyodide_lock.utils import add_wheels_to_spec

    data = json.loads(core_lock.read_text(encoding="utf-8"))
    # Snag 1: pyodide-lock 0.1.2 requires info.version, which the 314 lock lacks.
    added_version = "version" not in data["info"]
    data["info"].setdefault("version", PYODIDE_VERSION)
    # Only what we serve: an entry whose wheel is missing would 404 in the browser.
    data["packages"] = {}
    spec = add_wheels_to_spec(PyodideLockSpec(**data), [dest / w.name for w in wheels],
                              base_path=dest)
    out: dict[str, Any] = spec.model_dump()
    if added_version:
        del out["info"]["version"]
    (dest / "pyodide-lock.json").write_text(
        json.dumps(out, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return sorted(out["packages"])


def sync_dir(dest: Path, files: Iterable[Path]) -> None:
    """Make ``dest`` hold exactly ``files`` (copied when changed)."""
    dest.mkdir(parents=True, exist_ok=True)
    keep = set()
    for src in files:
        copy_if_changed(src, dest / src.name)
        keep.add(src.name)
    for path in dest.iterdir():
        if path.is_file() and path.name not in keep:
            path.unlink()


def lite_config(preload: Sequence[str]) -> dict[str, Any]:
    """The committed lite/jupyter-lite.json, completed with the kernel's settings."""
    config: dict[str, Any] = json.loads(
        (LITE_TEMPLATE / "jupyter-lite.json").read_text(encoding="utf-8"))
    data = config.setdefault("jupyter-config-data", {})
    plugins = data.setdefault("litePluginSettings", {})
    kernel = plugins.setdefault(KERNEL_PLUGIN, {})
    kernel["disablePyPIFallback"] = True
    if preload:
        kernel.setdefault("loadPyodideOptions", {})["packages"] = list(preload)
    return config


def precompile(wheels: list[Path]) -> list[Path]:
    """The same wheels with Python 3.14 bytecode added (tools/lite/precompile_wheels.mjs).

    Compiled by the Pyodide of node_modules under Node.js, so the bytecode matches the
    browser's interpreter exactly. Cached per input wheel and script version.
    """
    script = PRECOMPILE_SCRIPT.read_bytes()
    core = (NODE_MODULES / "pyodide" / "pyodide.asm.wasm").stat().st_size
    out: list[Path] = []
    todo: dict[Path, Path] = {}
    for wheel in wheels:
        key = sha(wheel.read_bytes(), script, str(core).encode())
        target = PYC_CACHE / key / wheel.name
        out.append(target)
        if not target.exists():
            todo[wheel] = target
    if todo:
        node = shutil.which("node")
        if node is None:
            raise SystemExit("node est introuvable : installez Node.js (≥ 18).")
        staging = PYC_CACHE / ".staging"
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir(parents=True)
        run([node, str(PRECOMPILE_SCRIPT), str(NODE_MODULES / "pyodide"), str(staging),
             *map(str, todo)], stdout=subprocess.DEVNULL)
        for wheel, target in todo.items():
            target.parent.mkdir(parents=True, exist_ok=True)
            (staging / wheel.name).replace(target)
        shutil.rmtree(staging)
        noun = "wheel" if len(todo) == 1 else "wheels"
        log(f"precompiled {len(todo)} {noun} to Python 3.14 bytecode")
    used = {target.parent for target in out}
    for stale in PYC_CACHE.iterdir():
        if stale not in used:
            shutil.rmtree(stale)
    return out


def precompile_stdlib(kernel_wheels: list[Path]) -> Path:
    """Pyodide's ``python_stdlib.zip`` with the modules a live page imports compiled to
    Python 3.14 bytecode (tools/lite/precompile_stdlib.mjs): Python then starts and
    imports the engine without compiling them in the browser. Cached per stock zip,
    script, live kernel and wheels (the engine's wheel decides what is imported)."""
    stock = NODE_MODULES / "pyodide" / "python_stdlib.zip"
    key = sha(stock.read_bytes(), STDLIB_SCRIPT.read_bytes(), LIVE_KERNEL.read_bytes(),
              *(w.read_bytes() for w in kernel_wheels))
    target = STDLIB_CACHE / key / stock.name
    if not target.exists():
        node = shutil.which("node")
        if node is None:
            raise SystemExit("node est introuvable : installez Node.js (≥ 18).")
        shutil.rmtree(STDLIB_CACHE, ignore_errors=True)
        target.parent.mkdir(parents=True)
        staging = target.with_suffix(".staging")
        run([node, str(STDLIB_SCRIPT), str(NODE_MODULES / "pyodide"), str(LIVE_KERNEL),
             str(staging), *map(str, kernel_wheels)])
        staging.replace(target)
    return target


def plain_kernel_wheels(project_wheel: Path) -> list[Path]:
    """Every wheel the kernel gets, as downloaded or built (before precompile)."""
    return [*download_kernel_wheels(), *kernel_helper_wheels(), project_wheel]


def assemble_lite_src(project_wheel: Path) -> None:
    pyodide_pkg = NODE_MODULES / "pyodide"
    plain = plain_kernel_wheels(project_wheel)
    kernel_wheels = precompile(plain)
    static = LITE_SRC / "static" / "pyodide"
    core = [pyodide_pkg / f for f in PYODIDE_CORE if f != "python_stdlib.zip"]
    sync_dir(static, [*core, precompile_stdlib(kernel_wheels), *kernel_wheels])
    names = write_lock(pyodide_pkg / "pyodide-lock.json", kernel_wheels, static)
    missing = [n for n in PRELOAD if n not in names]
    if missing:
        raise SystemExit(f"preloaded packages missing from the lock: {missing}")
    index = [w for w in plain if w.name.split("-")[0] in PYPI_INDEX]
    sync_dir(LITE_SRC / "pypi", [*index, project_wheel])
    for extra in LITE_TEMPLATE.iterdir():
        if extra.is_file() and extra.name not in {"jupyter-lite.json", "README.md"}:
            copy_if_changed(extra, LITE_SRC / extra.name)
    config = lite_config(PRELOAD)
    (LITE_SRC / "jupyter-lite.json").write_text(
        json.dumps(config, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    log(f"lite source ready: {len(names)} packages in the lock, all preloaded")


# --- 6. the book -----------------------------------------------------------------------


def build_book(langpack: Path) -> int:
    stamp = HTML / "lite" / "jupyter-lite.json"
    stamp.unlink(missing_ok=True)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        p for p in (str(langpack), os.environ.get("PYTHONPATH", "")) if p)}
    cmd = [venv_bin("jupyter-book"), "build", str(ROOT), "-W", "-n", "--keep-going"]
    log("$ " + " ".join(cmd))
    status = subprocess.call(cmd, cwd=ROOT, env=env)
    if not stamp.exists():
        # jupyterlite-sphinx silences `jupyter lite build` and, when it fails, hides the
        # cause behind an UnboundLocalError: run it again, visibly, to show the cause.
        log("the JupyterLite build failed; again, with its own output:")
        subprocess.call([sys.executable, "-m", "jupyter", "lite", "build",
                         "--lite-dir", str(LITE_SRC), "--contents", str(ROOT / "_contents"),
                         "--output-dir", str(BUILD / "lite-debug")], cwd=ROOT, env=env)
        status = status or 1
    return status


def main(argv: Sequence[str] | None = None) -> int:
    parse_args(FrenchParser(
        description="Construit le livre et, dedans, le site JupyterLite hors ligne."), argv)
    start = time.monotonic()
    os.chdir(ROOT)
    ensure_node_modules()
    bundle_widget_js()
    wheel = build_project_wheel()
    assemble_lite_src(wheel)
    status = build_book(ensure_language_pack())
    log(f"Sphinx done in {time.monotonic() - start:.1f} s (status {status}): {HTML}")
    if status != 0:
        return status
    from book._ext.escarmouche_pipeline import AFTER_SPHINX

    for step in AFTER_SPHINX:
        step(HTML)
    log(f"done in {time.monotonic() - start:.1f} s: {HTML}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
