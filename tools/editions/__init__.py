"""The editions' repository side: what reads the book, runs its notebooks or rewrites
the repository, apart from the installable package (whose ``escarmouche.editions``
reads edition files and snapshots, and compares two editions' odds and duels, in the
browser as on the command line).

- :mod:`tools.editions.book`: the book read for its editions (notebook outputs, rule
  statements, ruling boxes) and the snapshot of the checkout now;
- :mod:`tools.editions.check`: edition files checked against the repository;
- :mod:`tools.editions.prose`: the book's prose that contradicts an edition;
- :mod:`tools.editions.sheets`: the errata sheets, the journal and the Atom feed;
- :mod:`tools.editions.pages`: the « Ce qui a changé » pages rewritten;
- :mod:`tools.editions.workflow`: draft, publish, withdraw; the notebooks re-run;
- :mod:`tools.editions.command`: ``escarmouche edition``, run on a checkout.
"""
