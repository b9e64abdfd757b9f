"""The repository's tooling: the book's build (``build_site``, ``build_pdf``,
``build_offline``, ``precompress``), the browser kit the tests and benchmarks share
(``browser_kit``), the edition workflow's scripts. Not part of the installable package:
the editable install (``make venv``) puts the repository's root on the path, so these
are imported as ``tools.<name>``; each script also runs as ``python -m tools.<name>`` or
``python tools/<name>.py``."""
