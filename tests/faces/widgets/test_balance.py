"""Demo « Équilibre » (balance simulation in the page), driven through its Python API."""

from __future__ import annotations

import asyncio

from escarmouche_widgets.balance import MAX_BROWSER_FIGHTS, STEP, BalanceDemo, option_controls

from escarmouche import Combatant
from escarmouche import simulation as sim
from escarmouche.encounter import Encounter
from escarmouche.systems import NAMES
from escarmouche.text.fmt import number, plural

DUEL = [
    Combatant("Aldric", "héros", {"CC": 45, "CT": 30, "F": 35, "E": 30, "Ag": 40, "M": 4,
                                   "B": 12}, skills={"esquive"}),
    Combatant("Grolk", "orques", {"CC": 40, "CT": 20, "F": 40, "E": 40, "Ag": 25, "M": 4,
                                  "B": 11}),
]


def test_shows_the_same_balance_as_the_engine() -> None:
    """The page's table is simulate()'s, for the same seed and N (CORE-RNG)."""
    demo = BalanceDemo("d100", DUEL, fights=30, seed=4)
    expected = sim.simulate(Encounter("d100", DUEL), 30, seed=4)
    assert demo.error_text == ""
    for side in ("héros", "orques"):
        rate = expected.table().rows[[r[0] for r in expected.table().rows].index(side)][1]
        assert str(rate) in demo.result_text
    assert demo.output.value.count("<svg") == 2
    assert f"{plural(MAX_BROWSER_FIGHTS, 'combat')} au plus" in str(
        demo.widget.children[2].value)
    assert demo.progress.value == demo.progress.max == 30


def test_an_option_changes_the_rules_d100_dodge_2() -> None:
    """D100-DODGE-2: two dodges per round for everyone; the demo plays those rules."""
    demo = BalanceDemo("d100", DUEL, fights=25, seed=2)
    demo.options["dodges_per_round"].value = 2
    demo.run_button.click()
    assert demo.rules().dodges_per_round == 2
    rules = demo.rules()
    expected = sim.simulate(Encounter("d100", DUEL, rules=rules), 25, seed=2)
    assert str(expected.table().rows[0][1]) in demo.result_text


def test_bad_values_show_a_french_error_and_keep_the_result_core_err() -> None:
    demo = BalanceDemo("d100", DUEL, fights=10, seed=1)
    before = demo.result_text
    demo.fights.value = MAX_BROWSER_FIGHTS + 1
    demo.run_button.click()
    assert f"Valeur {number(MAX_BROWSER_FIGHTS + 1)} refusée pour «\u00a0combats\u00a0»" in (
        demo.error_text)
    assert "(CORE-ERR)" in demo.error_text
    assert demo.result_text == before
    demo.fights.value = 10
    demo.options["parries_per_round"].value = 11  # D100-PARRY-3: 0 to 10
    demo.run_button.click()
    assert demo.error_text.startswith(
        "Valeur 11 refusée pour «\u00a0parades par round\u00a0»\u00a0:")
    assert "(D100-PARRY-3)" in demo.error_text and demo.result_text == before


def test_every_system_has_option_controls() -> None:
    for name in NAMES:
        assert option_controls(name)


def test_a_roster_file_drives_the_demo() -> None:
    """A roster file (its title, rules, start options and policies) plays as simulate()
    plays it (CORE-END-1 counts)."""
    import dataclasses

    from escarmouche.roster import example_rosters, load_roster

    base = load_roster(example_rosters()["d12-escarmouche"])
    roster = base.with_rules(dataclasses.replace(base.rules, default_weapon="1d10"))
    demo = BalanceDemo(roster.system, roster, fights=15, seed=3)
    assert demo.options["default_weapon"].value == "1d10"
    assert demo.rules() == roster.rules
    assert demo.error_text == ""
    expected = sim.simulate(roster, 15, seed=3)
    assert str(expected.table().title) in demo.result_text


def test_a_live_run_plays_by_steps_and_stops_with_the_fights_played_core_rng() -> None:
    """In a running event loop (a live page) « Simuler » plays STEP fights at a time as a
    task, the progress bar following; « Arrêter » keeps the balance of the fights
    played, which is exactly simulate() of that many fights (CORE-RNG)."""
    demo = BalanceDemo("d20", [Combatant("Brune", "héros", {"PV": 12}),
                               Combatant("Grolk", "orques", {"PV": 9})], fights=10, seed=5)
    demo.fights.value = 3 * STEP
    seen: list[int] = []

    async def live() -> None:
        assert demo.launch()
        assert demo.run_button.disabled and not demo.stop_button.disabled
        while demo.progress.value < STEP:
            await asyncio.sleep(0)
        seen.append(demo.progress.value)
        demo.stop_button.click()
        while demo.stepper.running:
            await asyncio.sleep(0)

    asyncio.run(live())
    played = seen[0]
    assert played < 3 * STEP and not demo.run_button.disabled
    assert f"Arrêté après {number(played)} combats sur {number(3 * STEP)}" in demo.result_text
    expected = sim.simulate(Encounter("d20", [Combatant("Brune", "héros", {"PV": 12}),
                                              Combatant("Grolk", "orques", {"PV": 9})]),
                            played, seed=5)
    assert str(expected.table().rows[0][1]) in demo.result_text


def test_a_live_run_refused_at_the_door_shows_a_french_error_core_err() -> None:
    demo = BalanceDemo("d20", [Combatant("Brune", "héros", {"PV": 12}),
                               Combatant("Grolk", "orques", {"PV": 9})], fights=10, seed=5)
    demo.fights.value = 0

    async def live() -> None:
        assert not demo.launch()

    asyncio.run(live())
    assert demo.error_text.startswith("Valeur 0 refusée pour «\u00a0combats\u00a0»")
    assert not demo.stepper.running


def test_changed_options_lead_with_the_paired_difference() -> None:
    """bench/README.md, « bench_designer.py »: options changed in the controls are compared
    with the roster's own rules on the same dice; the balance leads with the paired
    headline, the one sentence of compare() (fixed number of fights: the paired Wald
    interval)."""
    from escarmouche import simulation as sim
    from escarmouche.roster import example_rosters, load_roster

    roster = load_roster(example_rosters()["rulebook-duel"])
    demo = BalanceDemo(roster.system, roster, fights=400, seed=3)
    assert "gagne" not in demo.result_text  # nothing changed: a plain balance
    demo.options["crit_success_max"].value = 20
    demo.run_button.click()
    assert demo.error_text == ""
    c = sim.compare(roster, roster.with_options(reussite_critique_max=20), 400, seed=3,
                    processes=1, labels=("sans vos changements", "avec vos changements"))
    assert c.headline("vos changements") in demo.result_text
    assert demo.balance() == c.b
