"""tools/build_offline.py: sizes in French, the manifest, the sizes written into pages and
the runtime's files (docs/hebergement.md). The service worker itself is tried in Chromium
(tests/browser/test_pocket.py)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tools import build_offline


def test_sizes_are_french_with_a_no_break_space() -> None:
    assert build_offline.taille(9_149_000) == "9,1\u00a0Mo"
    assert build_offline.taille(15_000_000) == "15\u00a0Mo"
    assert build_offline.taille(640_400) == "640\u00a0ko"
    assert build_offline.taille(12) == "1\u00a0ko"


def test_the_manifest_is_french_and_installable(tmp_path: Path) -> None:
    icons = [tmp_path / "_static" / "icons" / f"escarmouche-{n}.png" for n in (192, 512)]
    data = build_offline.manifest(icons, tmp_path)
    assert data["lang"] == "fr" and data["name"].startswith("Escarmouche")
    assert data["display"] == "standalone" and data["start_url"] == "./index.html"
    assert data["theme_color"] == build_offline.THEME_COLOUR
    sizes = {i["sizes"]: i["src"] for i in data["icons"] if i["type"] == "image/png"}
    assert sizes == {"192x192": "_static/icons/escarmouche-192.png",
                     "512x512": "_static/icons/escarmouche-512.png"}


def test_sizes_are_written_into_the_pages(tmp_path: Path) -> None:
    page = tmp_path / "book" / "page.html"
    page.parent.mkdir()
    page.write_text('<p>Le livre : <span data-esc-taille="livre">?</span>, '
                    '<span class="x" data-esc-taille="pdf">?</span>.</p>', encoding="utf-8")
    assert build_offline.fill_sizes(tmp_path, {"livre": "18\u00a0Mo", "pdf": "9\u00a0Mo"}) == 1
    assert page.read_text(encoding="utf-8") == (
        '<p>Le livre : <span data-esc-taille="livre">18\u00a0Mo</span>, '
        '<span class="x" data-esc-taille="pdf">9\u00a0Mo</span>.</p>')
    assert build_offline.fill_sizes(tmp_path, {"livre": "18\u00a0Mo", "pdf": "9\u00a0Mo"}) == 0
    page.write_text('<span data-esc-taille="inconnue">?</span>', encoding="utf-8")
    with pytest.raises(SystemExit, match="inconnue"):
        build_offline.fill_sizes(tmp_path, {})


def test_the_runtime_sizes_are_written_before_the_pdf_and_the_books_after(
        tmp_path: Path) -> None:
    """Before the PDF, only the runtime's sizes are written: the book's and the PDF's
    own spans keep their text until the PDF exists (each pass runs once)."""
    page = tmp_path / "page.html"
    page.write_text('<span data-esc-taille="runtime">?</span> '
                    '<span data-esc-taille="livre">?</span>', encoding="utf-8")
    sizes = {"runtime": "16\u00a0Mo", "livre": "18\u00a0Mo"}
    assert build_offline.fill_sizes(tmp_path, sizes, only=build_offline.RUNTIME_SIZES) == 1
    assert page.read_text(encoding="utf-8") == (
        '<span data-esc-taille="runtime">16\u00a0Mo</span> '
        '<span data-esc-taille="livre">?</span>')
    assert build_offline.fill_sizes(tmp_path, sizes, only=("livre", "pdf")) == 1
    assert page.read_text(encoding="utf-8").endswith(
        '<span data-esc-taille="livre">18\u00a0Mo</span>')


def test_the_runtime_is_what_the_worker_loads_and_is_named_by_its_lock(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / build_offline.PYODIDE_DIR
    folder.mkdir(parents=True)
    for name in build_offline.CORE[:-1]:
        (folder / name).write_bytes(b"core " + name.encode())
    packages = {
        "escarmouche": ["icepool", "ipywidgets", "ipython"],
        "icepool": [],
        "ipywidgets": ["comm", "traitlets", "ipython", "jupyterlab-widgets"],
        "comm": ["traitlets"],
        "traitlets": [],
        "ipython": ["jedi"],
        "jedi": [],
        "jupyterlab-widgets": [],
    }
    entries = {name: {"file_name": f"{name}-1-py3-none-any.whl", "depends": deps}
               for name, deps in packages.items()}
    for name in packages:
        (folder / f"{name}-1-py3-none-any.whl").write_bytes(b"wheel " * 100)
    lock = {"info": {}, "packages": entries}
    (folder / "pyodide-lock.json").write_text(json.dumps(lock), encoding="utf-8")
    monkeypatch.setattr(build_offline, "engine_packages", lambda: ["escarmouche", "icepool"])
    runtime = build_offline.runtime_manifest(tmp_path)
    # IPython and its dependencies stay out: the worker loads a stand-in
    assert sorted(runtime["packages"]) == ["comm", "escarmouche", "icepool", "ipywidgets",
                                           "traitlets"]
    assert runtime["packages"]["ipywidgets"]["depends"] == ["comm", "traitlets"]
    assert runtime["packages"]["escarmouche"]["depends"] == ["icepool", "ipywidgets"]
    assert runtime["cache"] == "escarmouche-runtime-" + runtime["version"][:16]
    files = runtime["core"] + list(runtime["packages"].values())
    assert runtime["bytes"] == sum(f["bytes"] for f in files)
    assert [f["file"] for f in runtime["core"]] == list(build_offline.CORE)


def test_the_snapshot_size_is_measured_once_per_pyodide_core(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``demarrage``: Node.js starts the site's core once (``snapshot_size.mjs``); the answer
    is kept by the core's hash, and a new core is measured again."""
    core = tmp_path / "site" / build_offline.PYODIDE_DIR
    core.mkdir(parents=True)
    for name in build_offline.CORE:
        (core / name).write_bytes(name.encode())
    calls: list[list[str]] = []

    def node(args: list[str], **_: object) -> subprocess.CompletedProcess[str]:
        calls.append(args)
        return subprocess.CompletedProcess(args, 0, '{"bytes": 31457408, "gz": 6238287}\n', "")

    monkeypatch.setattr(build_offline, "SNAPSHOT_CACHE", tmp_path / "cache")
    monkeypatch.setattr(subprocess, "run", node)
    monkeypatch.setattr(shutil, "which", lambda _: "/usr/bin/node")
    site = tmp_path / "site"
    assert build_offline.snapshot_size(site) == {"bytes": 31457408, "gz": 6238287}
    assert build_offline.snapshot_size(site)["gz"] == 6238287
    assert len(calls) == 1 and calls[0][1].endswith("snapshot_size.mjs")
    assert calls[0][2] == str(core)
    (core / "pyodide.asm.wasm").write_bytes(b"another build")
    build_offline.snapshot_size(site)
    assert len(calls) == 2
    assert build_offline.taille(build_offline.snapshot_size(site)["gz"]) == "6,2\u00a0Mo"
