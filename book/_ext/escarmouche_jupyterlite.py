"""Local Sphinx extension: the offline JupyterLite glue of the Escarmouche book.

- Every page built from a notebook (``.ipynb``) gets an « Ouvrir le carnet complet »
  link-button under its title; it opens the same notebook live in JupyterLite's
  Notebook app (``lite/notebooks/index.html?path=<docname>.ipynb``), in a new tab.
- Those notebooks are copied, outputs cleared, into jupyterlite-sphinx's contents
  folder right before its ``jupyter lite build`` (also on incremental builds, where
  no directive is re-read), each with a first cell that says in French how to run it.
- No page links a stylesheet or script from another host: jupyterlite-sphinx adds a
  Google Fonts stylesheet to every page; it is dropped here (the site runs offline).
  Inline scripts that Jupyter Book adds twice are kept once (no SyntaxError).

jupyterlite-sphinx's own ``{notebooklite}`` directive would need a line in every
notebook, and sphinx-book-theme's JupyterLite launch button hides in a menu and needs
a repository URL: one extension that handles every notebook page is simpler.
"""

from __future__ import annotations

import hashlib
import html
import posixpath
import re
from pathlib import Path
from typing import Any
from urllib.parse import quote

import nbformat
from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util import logging

from escarmouche.text.typo import typographie_markdown

LOGGER = logging.getLogger(__name__)
LITE_DIR = "lite"  # where jupyterlite-sphinx puts the site inside the HTML output
CSS = "escarmouche-lite.css"
#: Assets from another host that are dropped without a word (decorative only).
KNOWN_EXTERNAL = ("https://fonts.googleapis.com/",)
#: Changes to this file must rebuild every page (Sphinx compares extension versions).
VERSION = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:12]
#: The one kernel of the lite site (the book's notebooks name the CPython ``python3``).
PYODIDE_KERNELSPEC = {"name": "python", "display_name": "Python (Pyodide)", "language": "python"}


def _is_notebook(app: Sphinx, docname: str) -> bool:
    return Path(app.env.doc2path(docname)).suffix == ".ipynb"


def lite_url(docname: str) -> str:
    """The URL, relative to the page of ``docname``, of its live notebook."""
    depth = docname.count("/")
    prefix = "/".join([".."] * depth + [LITE_DIR])
    path = quote(f"{docname}.ipynb")
    return posixpath.join(prefix, "notebooks", f"index.html?path={path}")


def add_button(app: Sphinx, doctree: nodes.document) -> None:
    """``doctree-read``: a link-button under the title of every notebook page."""
    docname = app.env.docname
    if not _is_notebook(app, docname):
        return
    text = html.escape(app.config.escarmouche_jupyterlite_button_text)
    title = html.escape(app.config.escarmouche_jupyterlite_button_title)
    raw = nodes.raw(
        "",
        f'<p class="escarmouche-lite"><a class="escarmouche-lite-button" '
        f'href="{html.escape(lite_url(docname))}" target="_blank" rel="noopener" '
        f'title="{title}">▶ {text}</a></p>',
        format="html",
    )
    insert_under_title(doctree, raw)


def insert_under_title(doctree: nodes.document, node: nodes.Node) -> None:
    """Put ``node`` right under the page's title (or first, on a page without one); the
    three book extensions place their bars and boxes there."""
    section = next(iter(doctree.findall(nodes.section)), None)
    if section is not None and section.children and isinstance(section[0], nodes.title):
        section.insert(1, node)
    else:
        doctree.insert(0, node)


_ROLE = re.compile(r"\{(?:ref|term|doc|numref)\}`([^`]*)`")
_TARGET = re.compile(r"^\([A-Za-z0-9_.:-]+\)=[ \t]*\n?", re.MULTILINE)
_ADMONITION = re.compile(r"^```\{admonition\}[ \t]*([^\n]*)\n(.*?)^```[ \t]*$",
                         re.MULTILINE | re.DOTALL)


def _role_text(match: re.Match[str]) -> str:
    inner = match.group(1).strip()
    label = re.sub(r"\s*<[^>]*>$", "", inner) or inner.strip("<>")
    return f"**{label}**" if re.fullmatch(r"[A-Z0-9]+(-[A-Z0-9]+)+", label) else label


def _admonition(match: re.Match[str]) -> str:
    body = [line for line in match.group(2).splitlines() if not line.startswith(":")]
    while body and not body[0].strip():
        body.pop(0)
    quoted = "\n".join(f"> {line}" if line.strip() else ">" for line in body)
    return f"> **{match.group(1).strip()}**\n>\n{quoted}"


def plain_markdown(source: str) -> str:
    """MyST that JupyterLab's Markdown does not know, made readable live: cross-reference
    roles become their text (rule IDs in bold), anchors ``(id)=`` disappear, admonitions
    become block quotes with their title; the prose gets French typography, as the
    static page does (``escarmouche_typo``)."""
    source = _ADMONITION.sub(_admonition, source)
    source = _TARGET.sub("", source)
    return typographie_markdown(_ROLE.sub(_role_text, source))


_SUBSTITUTION = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")


def _substitute(app: Sphinx, source: str) -> str:
    """MyST substitutions (``{{ name }}``, the engine's values from escarmouche_facts)
    replaced by their text, as the book page shows them."""
    table = getattr(app.config, "myst_substitutions", None) or {}
    return _SUBSTITUTION.sub(lambda m: str(table.get(m.group(1), m.group(0))), source)


def copy_notebooks(app: Sphinx, exception: Exception | None) -> None:
    """``build-finished`` (before jupyterlite-sphinx's, escarmouche_pipeline): fill its
    contents folder."""
    if exception is not None or app.builder.format != "html":
        return
    contents = Path(app.srcdir) / app.config.jupyterlite_content_dir
    count = 0
    for docname in sorted(app.env.found_docs):
        if not _is_notebook(app, docname):
            continue
        nb = nbformat.read(app.env.doc2path(docname), as_version=4)
        for cell in nb.cells:
            if cell.cell_type == "code":
                cell.outputs = []
                cell.execution_count = None
            elif cell.cell_type == "markdown":
                cell.source = plain_markdown(_substitute(app, cell.source))
        nb.cells.insert(0, nbformat.v4.new_markdown_cell(HOW_TO_RUN,
                                                         id="escarmouche-mode-d-emploi"))
        # Stored widget state only renders the static page; live, the kernel makes it.
        nb.metadata.pop("widgets", None)
        nb.metadata["kernelspec"] = PYODIDE_KERNELSPEC
        target = contents / f"{docname}.ipynb"
        target.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, target)
        count += 1
    LOGGER.info("[escarmouche_jupyterlite] %d %s ready for JupyterLite", count,
                "notebook" if count == 1 else "notebooks")


#: The first cell of every notebook in JupyterLite: how to run it (nothing runs by itself).
HOW_TO_RUN = (
    "> **Pour faire tourner ce carnet\u00a0:** menu *Exécution* › *Exécuter toutes les "
    "cellules* (ou Maj+Entrée, cellule par cellule). Python tourne dans votre navigateur, "
    "hors ligne\u202f; le premier lancement prend quelques secondes. Pour jouer avec les "
    "exemples sans quitter le livre, revenez à sa page et cliquez sur «\u00a0Activer\u00a0»."
)


_WARNED: set[str] = set()


def tidy_assets(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """``html-page-context``: no stylesheet or script from another host, none twice.

    Jupyter Book 1 on Sphinx 7.4 emits sphinx-thebe's and sphinx-togglebutton's inline
    scripts twice per page; the second ``const THEBE_JS_URL`` throws a SyntaxError.
    Any other asset from another host (MathJax from its CDN, say) is dropped with a
    warning, which fails the ``-W`` build: vendor it into book/_static instead.
    """
    for key in ("css_files", "script_files"):
        files = context.get(key)
        if not files:
            continue
        seen: set[tuple[str, str]] = set()
        kept = []
        for asset in files:
            filename = str(getattr(asset, "filename", asset) or "")
            attributes = getattr(asset, "attributes", {}) or {}
            ident = (filename, repr(sorted(attributes.items())))
            if "://" in filename:
                if not filename.startswith(KNOWN_EXTERNAL) and filename not in _WARNED:
                    _WARNED.add(filename)
                    LOGGER.warning("[escarmouche_jupyterlite] %s vient d’un autre hôte : retiré "
                                   "(le site doit marcher hors ligne ; copiez-le dans "
                                   "book/_static)", filename)
                continue
            if ident in seen:
                continue
            seen.add(ident)
            kept.append(asset)
        files[:] = kept


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_config_value("escarmouche_jupyterlite_button_text", "Ouvrir le carnet complet",
                         "html")
    app.add_config_value(
        "escarmouche_jupyterlite_button_title",
        "Ouvre ce carnet dans JupyterLite\u00a0: Python tourne dans votre navigateur, aucun "
        "serveur ne calcule à votre place.",
        "html",
    )
    app.connect("doctree-read", add_button)
    app.add_css_file(CSS)
    return {"version": VERSION, "parallel_read_safe": True, "parallel_write_safe": True}
