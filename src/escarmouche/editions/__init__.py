"""Editions of the book as data, and what changed between two of them, in words and in
odds: the edition file and its schema (:mod:`~escarmouche.editions.data`), the standard
situations of each system (:mod:`~escarmouche.editions.odds`), simulated duels
(:mod:`~escarmouche.editions.duels`) and the French « Ce qui a changé » page
(:mod:`~escarmouche.editions.page`). Reading the book of a checkout (a snapshot, its
rule statements, its notebooks) and rewriting the repository (drafts, publication, the
generated pages) is the repository's tooling, ``tools/editions/``: not in this package.

>>> from escarmouche.systems import d20
>>> KINDS["new-ruling"], option_label(d20.SYSTEM, "seuil_sauvegarde")
('interprétation nouvelle', 'seuil du jet de sauvegarde (D20-END-1)')
"""

from escarmouche.editions.data import (
    FORMAT,
    KINDS,
    Change,
    Edition,
    Snapshot,
    change_to_toml,
    current_rules,
    edition_to_toml,
    load_edition,
    option_changes,
    parse_edition,
    parse_rules_text,
    rule_text_changes,
    rulings,
    schema,
)
from escarmouche.editions.duels import Duels, duel_outcomes, wilson
from escarmouche.editions.odds import OddsTable, compare, option_label, standard_odds, value_label

__all__ = [
    "FORMAT",
    "KINDS",
    "Change",
    "Duels",
    "Edition",
    "OddsTable",
    "Snapshot",
    "change_to_toml",
    "compare",
    "current_rules",
    "duel_outcomes",
    "edition_to_toml",
    "load_edition",
    "option_changes",
    "option_label",
    "parse_edition",
    "parse_rules_text",
    "rule_text_changes",
    "rulings",
    "schema",
    "standard_odds",
    "value_label",
    "wilson",
]
