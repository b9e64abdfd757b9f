"""What ``simule`` and roster files refuse, and what they report, as a user meets them:
a fight needs two sides (CORE-END-1), capped fights last the cap, the output file is
checked before the work, operating-system errors read in French, a misspelt key is named
with the nearest known one, and the JSON report says what it counts (its schema,
``schemas/bilan-2.schema.json``) (CORE-ERR)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from escarmouche import Combatant, filecheck, simulation
from escarmouche.cli import main
from escarmouche.encounter import Encounter
from escarmouche.errors import EscarmoucheError, RosterError
from escarmouche.roster import example_rosters, load_roster, parse_roster
from tests.helpers import ROOT

DUEL = example_rosters()["d100-duel"].read_text(encoding="utf-8")

ONE_SIDE = """\
version = 1
systeme = "d20"

[[camps]]
nom = "héros"
[[camps.combattants]]
nom = "Brune"
caracteristiques = { PV = 12 }
[[camps.combattants]]
nom = "Aldric"
caracteristiques = { PV = 10 }
"""


def test_a_fight_needs_two_sides_core_end_1() -> None:
    """CORE-END-1: a roster with one side would be « won » in every fight without a
    blow; it is refused, naming the line of ``camps``, and so is a one-side encounter."""
    with pytest.raises(RosterError, match=r"ligne 4.*au moins deux camps.*CORE-END-1"):
        parse_roster(ONE_SIDE)
    lonely = Encounter("d20", [Combatant("Brune", "héros", {"PV": 12}),
                               Combatant("Aldric", "héros", {"PV": 10})])
    with pytest.raises(EscarmoucheError, match="au moins deux camps"):
        simulation.simulate(lonely, 5)


def test_capped_fights_last_the_cap_core_end_1() -> None:
    """CORE-END-1: a fight stopped by the turn limit lasted that many turns, not one more,
    and it is counted as stopped, not won."""
    tough = Encounter("d20", [Combatant("Brune", "héros", {"PV": 500}),
                              Combatant("Grolk", "orques", {"PV": 500})])
    result = simulation.simulate(tough, 12, seed=3, max_turns=2)
    assert set(result.rounds) == {2}
    assert result.timeouts == 12 and not result.wins


def test_the_output_file_is_checked_before_the_work(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """CORE-ERR: an output file that cannot be written is refused at once, in French,
    before a long run; a writable one is not left behind when it did not exist."""
    started = time.perf_counter()
    code = main(["simule", "d100-duel", "-n", "1000000",
                 "--sortie", str(tmp_path / "absent" / "x.svg")])
    assert code == 1 and time.perf_counter() - started < 5
    err = capsys.readouterr().err
    assert "fichier ou dossier introuvable" in err and "No such file" not in err
    fine = tmp_path / "ok.svg"
    from escarmouche.cli._output import check_writable

    check_writable(str(fine))
    assert not fine.exists()


def test_operating_system_errors_read_in_french(tmp_path: Path) -> None:
    """CORE-ERR: a missing roster file, or a folder given as one, says why in French."""
    with pytest.raises(RosterError, match="fichier ou dossier introuvable") as missing:
        load_roster(tmp_path / "absent.toml")
    assert "No such" not in str(missing.value)
    with pytest.raises(RosterError, match="c’est un dossier"):
        load_roster(tmp_path)


def test_a_misspelt_key_is_named_with_the_nearest_known_one() -> None:
    """CORE-ERR: « caracteristique » (without s) is named as the unknown key, with the
    key it stands for, on its own line; a misspelt option key too."""
    text = DUEL.replace("caracteristiques = {", "caracteristique = {", 1)
    with pytest.raises(RosterError) as err:
        parse_roster(text, source="duel.toml")
    message = str(err.value)
    assert "caracteristique » : champ inconnu" in message.replace("\u00a0", " ")
    assert "vouliez-vous dire «\u00a0caracteristiques\u00a0»" in message
    assert err.value.line == text.splitlines().index(
        next(x for x in text.splitlines() if x.strip().startswith("caracteristique ="))) + 1
    with pytest.raises(RosterError, match=r"vouliez-vous dire «\s?parades_par_round"):
        parse_roster(DUEL.replace("[options]\n", "[options]\nparades_par_rond = 2\n", 1))


def test_the_json_report_says_what_it_counts(capsys: pytest.CaptureFixture[str]) -> None:
    """CORE-ERR: the report follows its published schema; damage is given both ways, and
    what one side deals is what the others take."""
    assert main(["simule", "d12-duel", "-n", "20", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["format"] == 2 and filecheck.validate("bilan-2", report) is None
    # format 1 had no number: the same report without it is a format-1 report
    assert filecheck.validate("bilan-1", {k: v for k, v in report.items()
                                        if k not in ("format", "egalites_au_sort")}) is None
    sides = report["camps"]
    for name, side in sides.items():
        others = sum(s["degats_subis"] for n, s in sides.items() if n != name)
        assert side["degats_infliges"] == others
    broken = {**report, "camps": {"x": {"victoires": "beaucoup"}}}
    assert filecheck.validate("bilan-2", broken) is not None


@pytest.fixture
def two_editions(tmp_path: Path) -> Path:
    """A book repository with two published editions: edition 2 allows two parries per
    round in d100 (D100-PARRY-3) and makes the d12 critical explode (D12-CRIT-2)."""
    root = ROOT
    for n in (1, 2):
        (tmp_path / "editions" / str(n)).mkdir(parents=True)
        for name in ("rules.json", "rules-text.json", "outputs.json"):
            data = json.loads((root / "editions" / "1" / name).read_text(encoding="utf-8"))
            if n == 2 and name == "rules.json":
                data["d100"]["parries_per_round"] = 2
                data["d12"]["critical_option"] = "explosif"
            (tmp_path / "editions" / str(n) / name).write_text(
                json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return tmp_path


def test_any_two_editions_compare_d100_parry_3(two_editions: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """D100-PARRY-3: ``compare --edition 1 --contre 2`` plays the same fights under both
    published rule sets; a roster that names the changed option in its file keeps it,
    and the legend says that the change cannot show there."""
    depot = ["--depot", str(two_editions)]
    assert main(["compare", "d100-duel", "--edition", "1", "--contre", "2", "-n", "6",
                 *depot]) == 0
    out = " ".join(capsys.readouterr().out.replace("\u00a0", " ").split())
    assert "éd. 1 : les règles publiées de l’édition 1 ; éd. 2 : celles de l’édition 2." in out
    assert "Le fichier fixe lui-même l’option « parades_par_round », que les deux " \
           "éditions règlent autrement : ce changement ne peut pas y jouer." in out
    assert main(["compare", "d12-duel", "--edition", "1", "--contre", "2", "-n", "6",
                 "--json", *depot]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["libelles"] == ["éd. 1", "éd. 2"]


@pytest.mark.parametrize(("argv", "refused"), [
    (["--edition", "1", "--edition", "2"], "--edition : une seule fois"),
    (["--contre", "2"], "--contre B : avec --edition A"),
    (["--edition", "7"], "pas d’édition publiée sous ce numéro ; la dernière publiée est la 2"),
])
def test_edition_arguments_are_checked_core_err(two_editions: Path, argv: list[str],
                                                refused: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """CORE-ERR: a repeated ``--edition`` is refused (not silently the last), ``--contre``
    needs ``--edition``, and an edition that was never published is named."""
    code = main(["compare", "d100-duel", *argv, "-n", "2", "--depot", str(two_editions)])
    assert code != 0
    err = " ".join(capsys.readouterr().err.replace("\u00a0", " ").replace("\u202f", " ")
                   .split())
    assert refused in err, err


def test_simule_plays_a_published_edition_d12_crit_2(two_editions: Path,
                                                     capsys: pytest.CaptureFixture[str]
                                                     ) -> None:
    """D12-CRIT-2: ``simule --edition N`` plays the roster under edition N's published
    rules: the same fights as the roster with those rules, seed for seed."""
    from escarmouche import systems

    assert main(["simule", "d12-duel", "--edition", "2", "-n", "8", "--json",
                 "--depot", str(two_editions)]) == 0
    got = json.loads(capsys.readouterr().out)
    roster = load_roster(example_rosters()["d12-duel"])
    rules = systems.get("d12").rules_from_json(
        json.loads((two_editions / "editions" / "2" / "rules.json").read_text("utf-8"))["d12"])
    expected = simulation.simulate(roster.with_rules(rules), 8)
    assert got == json.loads(json.dumps(expected.to_json()))
