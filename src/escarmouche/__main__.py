"""``python -m escarmouche``: the command line (:mod:`escarmouche.cli`)."""

from escarmouche.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
