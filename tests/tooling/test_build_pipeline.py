"""The book's build read top to bottom (book/_ext/escarmouche_pipeline.py): the
extensions are set up in one order, every pass over the built pages is in one list, and
no extension places a pass of its own with a priority."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from book._ext import escarmouche_pipeline as pipeline
from tests.helpers import ROOT


class RecordingApp:
    """Enough of Sphinx's application for the extensions' ``setup``: it records the
    handlers they connect and the extensions they set up."""

    def __init__(self, load: bool = False) -> None:
        self.connected: list[tuple[str, Callable[..., Any], int]] = []
        self.extensions: list[str] = []
        self.load = load

    def connect(self, event: str, handler: Callable[..., Any], priority: int = 500) -> int:
        self.connected.append((event, handler, priority))
        return len(self.connected)

    def setup_extension(self, name: str) -> None:
        self.extensions.append(name)
        if self.load:
            importlib.import_module(name).setup(self)

    def __getattr__(self, name: str) -> Callable[..., None]:
        return lambda *args, **kwargs: None  # add_config_value, add_css_file…


def test_the_extensions_are_set_up_in_the_listed_order() -> None:
    app = RecordingApp()
    pipeline.setup(app)  # type: ignore[arg-type]
    assert app.extensions == list(pipeline.EXTENSIONS)
    # the three that were a letter apart are named by what they do
    assert not [n for n in app.extensions if n.rsplit(".", 1)[-1] in
                {"escarmouche_lite", "escarmouche_light", "escarmouche_live"}]


def test_the_passes_run_around_the_other_packages_handlers() -> None:
    app = RecordingApp()
    pipeline.setup(app)  # type: ignore[arg-type]
    finished = [(h, p) for e, h, p in app.connected if e == "build-finished"]
    assert [p for _, p in finished] == [pipeline.BEFORE_OTHERS, pipeline.AFTER_OTHERS]
    assert pipeline.BEFORE_OTHERS < 500 < pipeline.AFTER_OTHERS  # Sphinx's default
    ran: list[str] = []
    fake = [lambda a, e, n=n: ran.append(n) for n in ("a", "b", "c")]
    before = pipeline._group((fake[0], fake[1]))
    before(object(), None)  # type: ignore[arg-type]
    assert ran == ["a", "b"]


def test_no_extension_connects_a_pass_or_a_priority_of_its_own() -> None:
    """Set up through the pipeline, the book's extensions connect no ``build-finished``
    pass but the editions' feed (a file of its own, no page rewritten), and no handler
    with a priority: the order of the passes is the pipeline's list alone."""
    app = RecordingApp(load=True)
    for name in pipeline.EXTENSIONS:
        app.setup_extension(name)
    finished = [h.__name__ for e, h, _ in app.connected if e == "build-finished"]
    assert finished == ["write_feed"]
    ordered = [(e, h.__qualname__, p) for e, h, p in app.connected if p != 500]
    assert ordered == []
    # they are placed by the pipeline, with the two priorities of the passes
    placed = RecordingApp()
    pipeline.setup(placed)  # type: ignore[arg-type]
    assert sorted((e, h.__name__, p) for e, h, p in placed.connected) == sorted([
        ("build-finished", "run", pipeline.BEFORE_OTHERS),
        ("build-finished", "run", pipeline.AFTER_OTHERS),
        ("config-inited", "fill", pipeline.BEFORE_OTHERS),
        ("html-page-context", "tidy_assets", pipeline.AFTER_OTHERS),
        ("autodoc-process-docstring", "guard_docstring", pipeline.AFTER_OTHERS)])


def test_every_page_pass_is_a_named_function_in_one_list() -> None:
    passes = [p for p in pipeline.PAGE_PASSES if p != pipeline.OTHER_HANDLERS]
    assert pipeline.PAGE_PASSES.count(pipeline.OTHER_HANDLERS) == 1
    assert all(callable(p) and p.__doc__ for p in passes)
    names = [p.__name__ for p in passes if callable(p)]
    assert names == ["typeset_page_titles", "rewrite_site", "copy_notebooks",
                     "rewrite_pages", "merge_site", "keep_rule_ids_whole_in_pages"]
    # the notebooks are in JupyterLite's contents before its build; the stylesheets are
    # merged after the theme wrote pygments.css (both among the other handlers)
    split = pipeline.PAGE_PASSES.index(pipeline.OTHER_HANDLERS)
    assert names.index("copy_notebooks") < split <= names.index("merge_site")


def test_after_sphinx_each_step_once_the_pdf_before_the_offline_book() -> None:
    steps = [s.__name__ for s in pipeline.AFTER_SPHINX]
    assert steps == ["runtime_sizes", "book_pdf", "offline_book", "compressed_copies"]
    assert len(set(pipeline.AFTER_SPHINX)) == len(pipeline.AFTER_SPHINX)


def test_build_site_runs_the_steps_after_sphinx_in_order(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """tools/build_site.py runs the pipeline's steps after a good Sphinx build, each
    once, and none after a failed one."""
    from tools import build_site

    ran: list[str] = []
    for name in ("ensure_node_modules", "bundle_widget_js", "ensure_language_pack"):
        monkeypatch.setattr(build_site, name, lambda *a: tmp_path)
    monkeypatch.setattr(build_site, "build_project_wheel", lambda: tmp_path / "w.whl")
    monkeypatch.setattr(build_site, "assemble_lite_src", lambda wheel: None)
    monkeypatch.setattr(build_site, "ROOT", tmp_path)
    steps = tuple((lambda site, n=s.__name__: ran.append(n)) for s in pipeline.AFTER_SPHINX)
    monkeypatch.setattr(pipeline, "AFTER_SPHINX", steps)
    monkeypatch.setattr(build_site, "build_book", lambda langpack: 0)
    assert build_site.main([]) == 0
    assert ran == ["runtime_sizes", "book_pdf", "offline_book", "compressed_copies"]
    ran.clear()
    monkeypatch.setattr(build_site, "build_book", lambda langpack: 1)
    assert build_site.main([]) == 1
    assert ran == []


def test_the_book_config_loads_the_pipeline_alone() -> None:
    import yaml  # type: ignore[import-untyped]

    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    assert config["sphinx"]["local_extensions"] == {"book._ext.escarmouche_pipeline": "."}
    assert "escarmouche_jupyterlite_button_text" in config["sphinx"]["config"]
