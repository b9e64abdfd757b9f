"""The ``escarmouche`` command line (docs/cli.md): French help and errors, exit codes (0 ok,
1 refused input, 2 usage), ``--json``, ``--sortie``. Its entry point runs in this process
(:func:`cli`); the installed console script and ``python -m escarmouche`` are run as
processes by the first two tests."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from escarmouche import dice
from escarmouche.cli import SUBCOMMANDS, main
from escarmouche.cli.french import FRENCH
from escarmouche.roster import example_rosters
from escarmouche.systems.d100.odds import attack_odds
from tests.helpers import ROOT

SCRIPT = Path(sys.executable).with_name("escarmouche")


def cli(*args: str, script: bool = False, cwd: Path | None = None
        ) -> subprocess.CompletedProcess[str]:
    """Run the command line with ``args``: :func:`escarmouche.cli.main` in this process,
    its output captured (a second each saved: the interpreter's start and the engine's
    import), or the installed entry point in its own process (``script=True``)."""
    if script:
        env = {**os.environ, "PYTHONIOENCODING": "utf-8", "LC_ALL": "C.UTF-8"}
        return subprocess.run([str(SCRIPT), *args], capture_output=True, text=True,
                              timeout=120, env=env, cwd=cwd, check=False)
    out, err = io.StringIO(), io.StringIO()
    here = Path.cwd()
    try:
        if cwd is not None:
            os.chdir(cwd)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(args))
    finally:
        os.chdir(here)
    return subprocess.CompletedProcess(list(args), code, out.getvalue(), err.getvalue())


#: argparse's English texts, cut into the words a leak would show
ENGLISH = sorted({piece.strip() for key, value in FRENCH.items() if key != value
                  for piece in re.split(r"%\(\w+\)[rs]|%[rs]|\n", key)
                  if len(piece.strip()) >= 5
                  and not any(piece.strip() in french for french in FRENCH.values())}
                 | {"usage:", "error:", "help", "choose from", "arguments are required",
                    "invalid", "positional", "optional"})


def assert_french(text: str) -> None:
    for english in ENGLISH:
        found = re.search(rf"(?<!\w){re.escape(english)}(?!\w)", text, re.IGNORECASE)
        assert not found, f"English argparse text {english!r} in:\n{text}"


@pytest.mark.skipif(not SCRIPT.exists(), reason="the entry point is installed by make venv")
def test_the_installed_entry_point_runs() -> None:
    done = cli("cotes", "1d6", "--json", script=True)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["distribution"]["6"]["fraction"] == "1/6"
    assert cli(script=True).returncode == 2


def test_python_dash_m_runs_the_same_command_line() -> None:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "LC_ALL": "C.UTF-8"}
    done = subprocess.run([sys.executable, "-m", "escarmouche", "cotes", "2d6+3"],
                          capture_output=True, text=True, timeout=120, env=env, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout == cli("cotes", "2d6+3").stdout
    assert subprocess.run([sys.executable, "-m", "escarmouche", "simule"], env=env,
                          capture_output=True, timeout=120, check=False).returncode == 2


@pytest.mark.parametrize("args", [[], *[[name] for name in SUBCOMMANDS]])
def test_help_is_french(args: list[str]) -> None:
    done = cli(*args, "--help")
    assert done.returncode == 0
    assert done.stdout.startswith("utilisation\u00a0: escarmouche")
    assert "affiche cette aide et s’arrête" in done.stdout
    assert "options\u00a0:" in done.stdout and "options:" not in done.stdout
    assert_french(done.stdout + done.stderr)


USAGE_ERRORS = [
    [],                                      # no subcommand
    ["joue"],                                # unknown subcommand
    ["cotes"],                               # missing expression or situation
    ["cotes", "1d6", "--test-rulebook", "50"],  # mutually exclusive
    ["cotes", "1d6", "--pas-une-option"],    # unrecognised
    ["cotes", "--test-rulebook", "beaucoup"],  # not an integer
    ["cotes", "--attaque-d100", "45", "--defense", "bouclier"],  # invalid choice
    ["cotes", "--test-rulebook"],            # expected one argument
    ["cotes", "--test-rulebook", "50", "--au-moins", "3"],
    ["cotes", "1d6", "--contre", "12"],
    ["cotes", "--attaque-d12", "3"],         # --contre missing
    ["cotes", "--test-rulebook", "40", "--tir"],
    ["combat"],                              # missing file
    ["combat", "d100-duel", "--graine", "1", "--des", "4"],
]


@pytest.mark.parametrize("args", USAGE_ERRORS, ids=[" ".join(a) or "rien" for a in USAGE_ERRORS])
def test_usage_errors_are_french_with_exit_code_2(args: list[str]) -> None:
    done = cli(*args)
    assert done.returncode == 2, done.stderr
    assert "erreur\u00a0:" in done.stderr and "utilisation\u00a0:" in done.stderr
    assert_french(done.stderr)
    assert done.stdout == ""


INPUT_ERRORS = [
    (["cotes", "2d"], "CORE-DICE"),
    (["cotes", "1d6", "--sortie", "/dossier/absent/x.svg"], "sortie"),
    (["combat", "absent.toml"], "illisible"),
    (["combat", "d100-duel", "--politique", "furieux"], "politique inconnue"),
    (["combat", "d100-duel", "--politique", "elfes=prudent"], "aucun camp"),
    (["combat", "d12-escarmouche", "--des", "1,2"], "CORE-RNG"),
    (["combat", "d12-escarmouche", "--des", "un,deux"], "CORE-RNG"),
]


@pytest.mark.parametrize(("args", "expected"), INPUT_ERRORS,
                         ids=[" ".join(a) for a, _ in INPUT_ERRORS])
def test_refused_input_exits_1_in_french(args: list[str], expected: str) -> None:
    done = cli(*args)
    assert done.returncode == 1, done.stderr
    assert done.stderr.startswith("escarmouche\u00a0: erreur\u00a0:")
    assert expected in done.stderr
    assert "Traceback" not in done.stderr
    assert_french(done.stderr)


def test_a_bad_roster_file_names_its_line(tmp_path: Path) -> None:
    """CORE-ERR (docs/cli.md): a bad roster file gets a French error naming the line and the field,
    and nothing runs (no narration on stdout)."""
    text = example_rosters()["d100-duel"].read_text(encoding="utf-8")
    bad = tmp_path / "duel.toml"
    bad.write_text(text.replace("CC = 40", "CC = 400"), encoding="utf-8")
    done = cli("combat", str(bad), "--graine", "1")
    assert done.returncode == 1
    assert ("duel.toml, ligne 27, champ «\u00a0camps[1].combattants[0].caracteristiques.CC"
            "\u00a0»") in done.stderr
    assert done.stdout == ""


def test_cotes_expression_matches_the_engine(tmp_path: Path) -> None:
    """CORE-DICE: the odds printed are the engine's exact distribution; --sortie writes
    its SVG chart."""
    done = cli("cotes", "2d6+3", "--json", "--au-moins", "10", "--sortie",
               str(tmp_path / "d.svg"))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    exact = dice.distribution("2d6+3")
    assert {int(k): Fraction(v["fraction"]) for k, v in out["distribution"].items()} == exact
    assert Fraction(out["moyenne"]["fraction"]) == dice.mean("2d6+3")
    assert Fraction(out["au_moins"]["fraction"]) == sum(p for v, p in exact.items() if v >= 10)
    svg = (tmp_path / "d.svg").read_text(encoding="utf-8")
    assert svg.startswith("<svg") and "2d6+3" in svg
    text = cli("cotes", "2d6+3").stdout
    assert "Moyenne\u00a0: 10" in text and "16,7" in text


def test_cotes_situations() -> None:
    """D100-ATK-1, D100-PARRY-2, RB-D100-1: the standard situations give the engine's odds."""
    done = cli("cotes", "--attaque-d100", "45", "--defense", "parade", "--seuil-defense", "40",
               "--json")
    out = json.loads(done.stdout)
    expected = attack_odds(45, defence="parade", defence_target=40)
    assert Fraction(out["porte"]["fraction"]) == expected.lands
    rulebook = json.loads(cli("cotes", "--test-rulebook", "55", "--json").stdout)
    assert Fraction(rulebook["reussite"]["fraction"]) == Fraction(55, 100)
    assert "RB-D100-1" in cli("cotes", "--test-rulebook", "55").stdout


@pytest.mark.parametrize("situation", [["--test-rulebook", "55"], ["--attaque-d100", "45"],
                                       ["--attaque-d12", "2", "--contre", "11"],
                                       ["--sauvegarde-d20", "1"]])
def test_cotes_situation_chart(tmp_path: Path, situation: list[str]) -> None:
    """--sortie writes the situation's outcomes as SVG bars, each with its tooltip."""
    out = tmp_path / "s.svg"
    done = cli("cotes", *situation, "--sortie", str(out))
    assert done.returncode == 0, done.stderr
    svg = out.read_text(encoding="utf-8")
    assert svg.startswith("<svg") and svg.count("<title>") >= 3


def test_cotes_d12_attack_and_d20_save() -> None:
    """D12-CRIT-1, D12-ADV-1, D20-END-1: the odds printed are the engine's."""
    from escarmouche.systems.d12.odds import hit_odds
    from escarmouche.systems.d20.odds import save_odds

    d12 = json.loads(cli("cotes", "--attaque-d12", "3", "--contre", "12", "--json").stdout)
    for mode, exact in d12["touche"].items():
        assert Fraction(exact["fraction"]) == hit_odds(bonus=3, defence=12, mode=mode)
    d20 = json.loads(cli("cotes", "--sauvegarde-d20", "2", "--json").stdout)
    assert Fraction(d20["reussite"]["fraction"]) == save_odds(2).success


@pytest.mark.parametrize("name", sorted(example_rosters()))
def test_combat_same_seed_same_fight(name: str) -> None:
    a = cli("combat", name, "--graine", "5", "--json")
    b = cli("combat", name, "--graine", "5", "--json")
    assert a.returncode == 0, a.stderr
    assert a.stdout == b.stdout
    out = json.loads(a.stdout)
    assert out["graine"] == 5 and out["issue"] and out["journal"]
    text = cli("combat", name, "--graine", "5")
    assert text.returncode == 0 and "Issue\u00a0:" in text.stdout and "Bilan" in text.stdout


def test_combat_manual_dice_and_policies() -> None:
    """CORE-RNG: the dice typed by hand are the dice of the fight (the log shows them in
    order); a policy given on the command line replaces the file's."""
    rolls = "5,3," + ",".join(["99"] * 30)
    done = cli("combat", "d100-duel", "--des", rolls, "--tours-max", "2", "--json",
               "--politique", "orques=prudent")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    drawn = [d[1] for e in out["journal"] for d in e["dice"]]
    assert drawn == [int(v) for v in rolls.split(",")][: len(drawn)]
    assert out["politiques"] == {"héros": "prudent", "orques": "prudent"}
    assert out["graine"] is None


def test_examples_listed() -> None:
    done = cli("combat", "--exemples")
    assert done.returncode == 0
    for name in example_rosters():
        assert name in done.stdout


# -- simule, compare, edition -------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(example_rosters()))
def test_simule_runs_on_every_example_and_matches_the_engine(name: str) -> None:
    """``simule`` on each packaged roster gives the balance the engine's own
    ``simulate`` gives for the same seed (CORE-RNG)."""
    from escarmouche.roster import load_roster
    from escarmouche.simulation import simulate

    done = cli("simule", name, "-n", "30", "--graine", "4", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    expected = simulate(load_roster(example_rosters()[name]), 30, seed=4).to_json()
    assert data == json.loads(json.dumps(expected))
    assert sum(s["victoires"] for s in data["camps"].values()) + data["nuls"] \
        + data["limite_de_tours"] == 30


def test_simule_same_result_in_processes(tmp_path: Path) -> None:
    one = cli("simule", "d100-duel", "-n", "80", "--graine", "2", "--json")
    two = cli("simule", "d100-duel", "-n", "80", "--graine", "2", "--processus", "2", "--json",
              "--sortie", str(tmp_path / "bilan.svg"))
    assert one.returncode == two.returncode == 0, two.stderr
    assert json.loads(one.stdout) == json.loads(two.stdout)
    assert (tmp_path / "bilan.svg").read_text(encoding="utf-8").startswith("<svg")


def test_simule_french_table_and_grid() -> None:
    done = cli("simule", "rulebook-duel", "-n", "50", "--grille", "reussite_critique_max=1,20")
    assert done.returncode == 0, done.stderr
    assert "Plus haut jet de réussite critique" in done.stdout
    assert re.search(r"^20 \| \d", done.stdout, re.M), done.stdout
    assert "crit_success_max" not in done.stdout
    assert_french(done.stdout + done.stderr)


def test_simule_refuses_a_bad_option_in_french() -> None:
    done = cli("simule", "rulebook-duel", "-n", "10", "--option", "reussite_critique_max=-3")
    assert done.returncode == 1
    assert "erreur" in done.stderr and "RB-D100-1" in done.stderr, done.stderr
    assert done.stdout == ""
    assert cli("simule", "rulebook-duel", "-n", "0").returncode == 1
    usage = cli("simule", "rulebook-duel", "--processus", "2", "--dask", "tcp://x:1")
    assert usage.returncode == 2
    assert_french(usage.stderr)


def test_compare_with_an_option_is_paired_and_matches_the_engine() -> None:
    """``compare --avec`` plays both rule sets on the same dice: fights whose outcome
    did not change cancel out (CORE-RNG, RB-D100-1)."""
    from escarmouche.roster import load_roster
    from escarmouche.simulation import compare

    done = cli("compare", "rulebook-duel", "--avec", "reussite_critique_max=20", "-n", "120",
               "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    roster = load_roster(example_rosters()["rulebook-duel"])
    expected = compare(roster, roster.with_options(reussite_critique_max=20), 120).to_json()
    assert data == json.loads(json.dumps(expected))
    text = cli("compare", "rulebook-duel", "--avec", "reussite_critique_max=20", "-n", "120")
    assert "Écart B − A" in text.stdout and "reussite_critique_max = 20" in text.stdout


def test_compare_against_the_published_edition() -> None:
    """Today's rules are those of the last published edition: no difference at all."""
    done = cli("compare", "d12-escarmouche", "--edition", "1", "-n", "40", "--json",
               cwd=ROOT)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert all(d["seulement_a"] == d["seulement_b"] == 0 for d in data["ecarts"].values())
    missing = cli("compare", "d12-escarmouche", "--edition", "99", "-n", "10",
                  cwd=ROOT)
    assert missing.returncode == 1 and "pas d’édition publiée sous ce numéro" in missing.stderr


def test_compare_needs_one_b() -> None:
    done = cli("compare", "rulebook-duel")
    assert done.returncode == 2
    assert "une seule façon" in done.stderr
    assert_french(done.stderr)


def test_edition_outside_a_book_checkout(tmp_path: Path) -> None:
    done = cli("edition", "--depot", str(tmp_path), "--pages")
    assert done.returncode == 2
    assert "editions/" in done.stderr
    assert_french(done.stderr)


def test_edition_from_the_package_alone_says_it_needs_a_checkout(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The work of ``escarmouche edition`` is the repository's tooling
    (``tools/editions/``), not in the wheel: without it (an installed wheel, a folder
    that is not a checkout), the command says so in French, naming itself, and writes
    nothing (exit code 1)."""
    (tmp_path / "editions").mkdir()
    monkeypatch.setitem(sys.modules, "tools.editions.command", None)  # not importable
    done = cli("edition", "--depot", str(tmp_path), "--pages")
    assert done.returncode == 1
    assert done.stderr.startswith("escarmouche edition\u00a0: ")
    assert "tools/editions/" in done.stderr and "make edition" in done.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["editions"]
    assert_french(done.stderr)


def test_edition_from_the_package_uses_the_checkout_it_is_given(tmp_path: Path) -> None:
    """An installed wheel run on a checkout (``--depot``) takes that checkout's tooling:
    here a stand-in ``tools/editions/command.py``, in an interpreter whose path holds
    the package but not this repository's root."""
    (tmp_path / "editions").mkdir()
    tools = tmp_path / "tools" / "editions"
    tools.mkdir(parents=True)
    (tmp_path / "tools" / "__init__.py").write_text("", encoding="utf-8")
    (tools / "__init__.py").write_text("", encoding="utf-8")
    (tools / "command.py").write_text(
        "def run(args):\n    print('outil du dépôt', args.pages)\n    return 0\n",
        encoding="utf-8")
    root = str(ROOT)
    code = ("import sys\n"
            # no checkout's tools on the path (the editable install may name one)
            "import os\n"
            f"sys.path[:] = [p for p in sys.path if p not in ('', {root!r}) and not "
            "os.path.isdir(os.path.join(p, 'tools', 'editions'))]\n"
            "from escarmouche.cli import main\n"
            f"sys.exit(main(['edition', '--depot', {str(tmp_path)!r}, '--pages']))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path.parent, check=False)
    assert (done.returncode, done.stdout) == (0, "outil du dépôt True\n"), done.stderr


def test_compare_says_how_many_fights_the_changed_rules_touched() -> None:
    """A comparison says in how many paired fights the changed rules played (the fight
    ends otherwise: winner, length or wounds); none: it says so, not a bare 0,0."""
    root = ROOT
    same = cli("compare", "d12-escarmouche", "--edition", "1", "--contre", "1", "-n", "30",
               cwd=root)
    assert same.returncode == 0, same.stderr
    line = same.stdout.splitlines()[0].replace("\u00a0", " ").replace("\u202f", " ")
    assert line.startswith("Aucun des 30 combats ne finit autrement"), line
    assert "les règles changées n’y ont jamais joué, d’où un écart nul" in line
    data = json.loads(cli("compare", "d12-escarmouche", "--edition", "1", "--contre", "1",
                          "-n", "30", "--json", cwd=root).stdout)
    assert data["combats_touches"] == 0
    moved = cli("compare", "rulebook-duel", "--avec", "reussite_critique_max=20", "-n", "120")
    head = moved.stdout.splitlines()[0].replace("\u00a0", " ").replace("\u202f", " ")
    touched = json.loads(cli("compare", "rulebook-duel", "--avec", "reussite_critique_max=20",
                             "-n", "120", "--json").stdout)["combats_touches"]
    assert 0 < touched <= 120
    assert f"Les règles changées ont joué dans {touched} combats sur 120" in head
