"""Local Sphinx extension: stored widgets drawn as static HTML (light demo pages).

A stored widget is drawn at build time as plain HTML (its HTML and SVG outputs as they
are, its controls as disabled HTML controls with their stored values), readable and
printable without any widget script, and the page loses the widget state. No page loads
a widget library (``_config.yml`` sets myst-nb's ``nb_ipywidgets_js`` to none):
``book/_static/live/live.js`` loads its own (``tools/widgets/live-manager.mjs``) when the
reader activates the page. Each drawn widget carries an « Activer pour jouer » button,
where a tap on its controls would otherwise do nothing.

Runs at ``build-finished`` after ``escarmouche_site``, which adds the snapshot notes
(the order: ``escarmouche_pipeline.PAGE_PASSES``).
"""

from __future__ import annotations

import hashlib
import html
import json
import re
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.util import logging

LOGGER = logging.getLogger(__name__)
VERSION = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:12]
PLAY = "Activer pour jouer"

_STATE = re.compile(
    r'\s*<script type="application/vnd\.jupyter\.widget-state\+json">(.*?)</script>', re.S)
_VIEW = re.compile(
    r'<script type="application/vnd\.jupyter\.widget-view\+json">(.*?)</script>', re.S)
#: The few rules the drawn widgets need (inline: no stylesheet on the critical path).
STYLE = """<style>
.esc-static-widget{display:flex;flex-direction:column;gap:.4rem;margin:.3rem 0}
.esc-static-widget .widget-hbox{display:flex;flex-wrap:wrap;gap:.4rem;align-items:center}
.esc-static-widget .widget-vbox{display:flex;flex-direction:column;gap:.4rem}
.esc-static-widget label{display:inline-flex;gap:.3rem;align-items:center;flex-wrap:wrap;
min-width:0;max-width:100%}
.esc-static-widget select{min-width:0;width:100%;text-overflow:ellipsis}
.esc-static-widget .widget-hbox>*{min-width:0;max-width:100%}
.esc-static-widget input,.esc-static-widget select,.esc-static-widget textarea,
.esc-static-widget .widget-button{font:inherit;min-height:2.75rem;min-width:2.75rem;
max-width:100%}
.esc-static-tab{margin:.5rem 0 .2rem}
.esc-static-play{align-self:flex-start;font:inherit;min-height:2.75rem;padding:.2rem .8rem;
border:1px solid #0a5d6b;border-radius:.3rem;background:#0a5d6b;color:#fff;
cursor:pointer}
@media print{.esc-static-play{display:none}}
</style>"""


def _ref(value: Any) -> str | None:
    if isinstance(value, str) and value.startswith("IPY_MODEL_"):
        return value[len("IPY_MODEL_"):]
    return None


class Drawer:
    """Draws the widgets of one page's stored state as HTML."""

    def __init__(self, state: dict[str, Any]) -> None:
        self.state = state
        self.unknown: set[str] = set()

    def model(self, model_id: str | None) -> dict[str, Any]:
        entry = self.state.get(model_id or "", {})
        return entry.get("state", {}) if isinstance(entry, dict) else {}

    def hidden(self, widget: dict[str, Any]) -> bool:
        layout = self.model(_ref(widget.get("layout")))
        return layout.get("display") == "none" or layout.get("visibility") == "hidden"

    @staticmethod
    def label(widget: dict[str, Any]) -> str:
        text = str(widget.get("description") or "")
        if widget.get("description_allow_html"):
            return text
        return html.escape(text)

    def labelled(self, widget: dict[str, Any], control: str) -> str:
        label = self.label(widget)
        if not label:
            # No description: the control is named by its placeholder (never by its
            # title alone, which screen readers may skip: axe label-title-only).
            name = str(widget.get("placeholder") or "").strip("\u200b ") or "champ"
            named = html.escape(f"{name} ({PLAY.lower()})", quote=True)
            return control.replace(" disabled ", f' aria-label="{named}" disabled ', 1)
        return f"<label>{label} {control}</label>"

    def draw(self, model_id: str | None) -> str:
        widget = self.model(model_id)
        if not widget or self.hidden(widget):
            return ""
        name = str(widget.get("_model_name", ""))
        off = f'disabled title="{PLAY}"'
        if name in {"VBoxModel", "HBoxModel", "BoxModel", "GridBoxModel"}:
            kind = "widget-vbox" if name != "HBoxModel" else "widget-hbox"
            inner = "".join(self.draw(_ref(c)) for c in widget.get("children", []))
            return f'<div class="widget-box {kind}">{inner}</div>'
        if name in {"TabModel", "AccordionModel", "StackModel"}:
            titles = list(widget.get("titles") or widget.get("_titles") or [])
            parts = []
            for i, child in enumerate(widget.get("children", [])):
                title = titles[i] if i < len(titles) and isinstance(titles, list) else ""
                # a bold line, not a heading: the page's outline stays the author's
                heading = (f'<p class="esc-static-tab"><strong>{html.escape(str(title))}'
                           "</strong></p>") if title else ""
                parts.append(heading + self.draw(_ref(child)))
            return f'<div class="esc-static-tabs">{"".join(parts)}</div>'
        if name in {"HTMLModel", "HTMLMathModel"}:
            value = str(widget.get("value") or "")
            if not value.strip("\u200b "):
                return ""
            label = self.label(widget)
            head = f'<span class="widget-label">{label}</span> ' if label else ""
            return (f'<div class="widget-html">{head}<div class="widget-html-content">'
                    f"{value}</div></div>")
        if name == "LabelModel":
            return f'<span class="widget-label">{html.escape(str(widget.get("value", "")))}</span>'
        if name == "ButtonModel":
            return (f'<button type="button" class="widget-button" {off}>'
                    f"{html.escape(str(widget.get('description', '')))}</button>")
        if name in {"TextModel", "IntTextModel", "FloatTextModel", "BoundedIntTextModel",
                    "BoundedFloatTextModel", "PasswordModel"}:
            kind = "text" if name in {"TextModel", "PasswordModel"} else "number"
            value = html.escape(str(widget.get("value", "")), quote=True)
            placeholder = html.escape(str(widget.get("placeholder") or "").strip("\u200b"),
                                      quote=True)
            control = (f'<input type="{kind}" class="widget-text" value="{value}" '
                       f'placeholder="{placeholder}" {off}>')
            return self.labelled(widget, control)
        if name == "TextareaModel":
            control = (f'<textarea class="widget-textarea" rows="3" {off}>'
                       f"{html.escape(str(widget.get('value', '')))}</textarea>")
            return self.labelled(widget, control)
        if name in {"DropdownModel", "SelectModel", "RadioButtonsModel"}:
            index = widget.get("index")
            options = "".join(
                f'<option{" selected" if i == index else ""}>{html.escape(str(o))}</option>'
                for i, o in enumerate(widget.get("_options_labels", [])))
            control = f'<select class="widget-dropdown" {off}>{options}</select>'
            return self.labelled(widget, control)
        if name == "ToggleButtonsModel":
            index = widget.get("index")
            buttons = "".join(
                f'<button type="button" class="widget-button" aria-pressed='
                f'"{"true" if i == index else "false"}" {off}>{html.escape(str(o))}</button>'
                for i, o in enumerate(widget.get("_options_labels", [])))
            head = f'<span class="widget-label">{self.label(widget)}</span>' \
                if widget.get("description") else ""
            return f'<div class="widget-hbox widget-toggle-buttons">{head}{buttons}</div>'
        if name in {"CheckboxModel", "ToggleButtonModel"}:
            checked = " checked" if widget.get("value") else ""
            return (f'<label><input type="checkbox"{checked} {off}> '
                    f"{self.label(widget)}</label>")
        if name in {"IntSliderModel", "FloatSliderModel"}:
            value = widget.get("value", 0)
            control = (f'<input type="range" min="{widget.get("min", 0)}" '
                       f'max="{widget.get("max", 100)}" value="{value}" {off}> '
                       f"<output>{html.escape(str(value))}</output>")
            return self.labelled(widget, control)
        if name in {"IntProgressModel", "FloatProgressModel"}:
            value, top = widget.get("value", 0), widget.get("max", 100)
            label = self.label(widget)
            named = "" if label else ' aria-label="progression"'
            control = (f'<progress max="{html.escape(str(top))}" '
                       f'value="{html.escape(str(value))}"{named}></progress>')
            return f"<label>{label} {control}</label>" if label else control
        if name == "FileUploadModel":
            text = html.escape(str(widget.get("description") or "Charger"))
            return f'<button type="button" class="widget-button" {off}>{text}</button>'
        if name == "OutputModel":
            return "".join(_output(o) for o in widget.get("outputs", []))
        self.unknown.add(name)
        return ""


def _output(output: dict[str, Any]) -> str:
    data = output.get("data") or {}
    if "text/html" in data:
        return f'<div class="output text_html">{_text(data["text/html"])}</div>'
    if "image/svg+xml" in data:
        return f'<div class="output text_html">{_text(data["image/svg+xml"])}</div>'
    text = output.get("text") or data.get("text/plain") or ""
    return f"<pre>{html.escape(_text(text))}</pre>" if text else ""


def _text(value: Any) -> str:
    return "".join(value) if isinstance(value, list) else str(value)


def lighten(text: str) -> tuple[str, set[str]]:
    """One built page with its stored widgets drawn as HTML and no widget library."""
    found = _STATE.search(text)
    if found is None or not _VIEW.search(text):
        return text, set()
    state = json.loads(found.group(1)).get("state", {})
    drawer = Drawer(state)

    def view(match: re.Match[str]) -> str:
        model_id = json.loads(match.group(1)).get("model_id")
        # "output" like every stored output of a cell (the page typography test reads
        # prose only; outputs are the engine's, checked where they are made).
        return (f'<div class="output esc-static-widget jupyter-widgets" data-model-id='
                f'"{html.escape(str(model_id), quote=True)}">'
                f'<button type="button" class="esc-static-play">▶ {PLAY}</button>'
                f"{drawer.draw(model_id)}</div>")

    text = _VIEW.sub(view, text)
    text = _STATE.sub("", text, count=1)
    text = text.replace("</head>", STYLE + "\n</head>", 1)
    return text, drawer.unknown


def rewrite_pages(app: Sphinx, exception: Exception | None) -> None:
    """``build-finished``: every page with stored widgets, lightened."""
    if exception is not None or app.builder.format != "html":
        return
    out = Path(app.outdir)
    unknown: set[str] = set()
    count = 0
    for page in out.rglob("*.html"):
        if page.is_relative_to(out / "lite") or page.is_relative_to(out / "_static"):
            continue
        text = page.read_text(encoding="utf-8")
        new, missing = lighten(text)
        unknown |= missing
        if new != text:
            page.write_text(new, encoding="utf-8")
            count += 1
    if unknown:
        LOGGER.warning("[escarmouche_static_widgets] widgets sans dessin statique : %s",
                       ", ".join(sorted(unknown)))
    LOGGER.info("[escarmouche_static_widgets] %d page(s) de démonstration allégée(s)", count)


def outdated(app: Sphinx, env: Any, added: set[str], changed: set[str],
             removed: set[str]) -> list[str]:
    """``env-get-outdated``: every page again when this file changed (a drawn page has
    lost its widget state: only a fresh write can draw it anew)."""
    if getattr(env, "escarmouche_static_widgets_version", None) == VERSION:
        return []
    env.escarmouche_static_widgets_version = VERSION
    return sorted(env.found_docs)


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("env-get-outdated", outdated)
    return {"version": VERSION, "parallel_read_safe": True, "parallel_write_safe": True}
