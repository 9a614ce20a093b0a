"""`simbalance solve` (issue 39): the smallest change of a game's knobs that meets the targets.

The planted game is a plug-in made on the spot (as tests/test_plugin_games.py makes them): a dice
duel of two players, each rolling one die; the higher total wins, equal totals share the win.
Player 1 adds ``rules.first_bonus`` (2) to the roll, player 2 adds ``compensation.points.2``
(0 today). **The known answer**: with ``compensation.points.2 = 2`` both totals have the same
distribution, so the two players win exactly alike (balance 1); at 1 or 3 the gap is exactly
11/36 (player 1's share 23.5/36 with ties shared, or the other way round), at 0 or 4 it is 20/36:
within the knob's range 0 to 4 only 2 meets balance >= 97%.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from plugin_duel import DUEL_KERNEL, plugin_game
from typer.testing import CliRunner

import simbalance
from simbalance.analysis.solve import (
    MEETS,
    Target,
    balance_test,
    candidates,
    change_size,
    describe_change,
    judge,
    parse_knob,
    parse_target,
)
from simbalance.cli.main import app
from simbalance.core.aggregate import WIN_UNITS, RunAggregate
from simbalance.core.config import load_config
from simbalance.core.errors import ConfigError

runner = CliRunner()

DUEL_SPEC = '''
from simbalance.core.spec import GameSpec

SPEC = GameSpec(id="dice-duel", title="Dice duel", summary="two dice, the higher wins", min_players=2,
                max_players=4, engine="fake_duel.engine", length_unit="rolls")
'''

DUEL_ENGINE = '''
import numpy as np

from simbalance.core.config import require_int


def prepare(cfg, players, validate):
    bonus = np.zeros(6, np.int64)
    bonus[0] = require_int(cfg, "rules.first_bonus", 0, 100)
    for s in range(players):
        bonus[s] += require_int(cfg, f"compensation.points.{s + 1}", 0, 100)
    return bonus, np.int64(require_int(cfg, "rules.die", 2, 100))
''' + DUEL_KERNEL

DUEL_CONFIG = '''
[game]
players = 2
strategies = ["random"]

[rules]
die = 6
first_bonus = 2

[compensation]
points = { 1 = 0, 2 = 0, 3 = 0, 4 = 0 }

[knobs]
"compensation.points.2" = [0, 4]

[strategies.random]
idea = "no decisions"
'''


@pytest.fixture
def duel(tmp_path, monkeypatch):
    """The dice duel as a plug-in game ``dice-duel``."""
    yield from plugin_game(tmp_path, monkeypatch, "dice-duel", "fake_duel", DUEL_SPEC, DUEL_ENGINE, DUEL_CONFIG)


def test_the_planted_game_gives_its_known_answer(duel):
    """The solver finds compensation.points.2 = 2 (the known fair value), verified on fresh games
    with balance 1 inside its CI, and nothing else meets."""
    res = simbalance.solve(duel, ["balance=0.97:1"], None, verify_n=20_000, start_n=200, seed=5, threads=1)
    assert res.today["verdict"] != MEETS
    chosen = res.chosen
    assert chosen is not None and chosen.change == {"compensation.points.2": 2}
    bal = chosen.judged["tests"][0]
    assert bal["ci_low"] <= 1.0 <= bal["ci_high"] + 1e-12 and bal["ci_low"] >= 0.97
    assert chosen.words == "Give player 2 two more points"
    met = res.candidates[res.candidates["verdict"] == MEETS]
    assert list(met["compensation.points.2"]) == [2]
    solution = res.solution()
    assert solution["changes"] == {"compensation.points.2": 2} and solution["set"] == "--set compensation.points.2=2"
    assert solution["verified"] and solution["meets"] and not solution["interrupted"]
    kinds = [f.kind for f in res.findings()]
    assert kinds[0] == "solution"
    today_found, changed_found = res.changed_game_findings()  # the run's own findings, on the fresh games
    gone = {f.kind for f in today_found} - {f.kind for f in changed_found}
    assert "seat_imbalance" in gone, (today_found, changed_found)
    said = solution["findings_of_the_changed_game"]
    assert [f["kind"] for f in said["changed"]] == [f.kind for f in changed_found]


def test_a_game_that_meets_its_targets_needs_no_change_and_no_search(duel):
    res = simbalance.solve(duel, ["balance=0.95:1"], None, verify_n=20_000, seed=1, threads=1,
                           overrides={"compensation.points.2": 2})
    assert res.no_change_needed and len(res.candidates) == 0 and res.answers == []
    assert [f.kind for f in res.findings()] == ["no_change_needed"]
    valued = simbalance.solve(duel, ["balance=0.95:1"], None, verify_n=20_000, seed=1, threads=1,
                              overrides={"compensation.points.2": 2},
                              card_values={"game": duel, "priority": [{"card": "six", "value": 0.2}]})
    assert "no knob counts a valued card" in " ".join(valued.notes)  # the duel's knobs are compensation only


def test_the_same_seed_gives_the_same_search_and_answer_on_any_threads(duel):
    kw = dict(verify_n=4000, start_n=100, seed=9, models=False)
    a = simbalance.solve(duel, ["balance=0.97:1"], ["compensation.points.2=0:4", "rules.die=4:8"], threads=1, **kw)
    b = simbalance.solve(duel, ["balance=0.97:1"], ["compensation.points.2=0:4", "rules.die=4:8"], threads=2, **kw)
    assert a.candidates.equals(b.candidates)
    assert [x.change for x in a.answers] == [x.change for x in b.answers]
    assert a.solution()["metrics"] == b.solution()["metrics"]


def test_no_answer_names_the_knob_at_the_edge_of_its_range(duel):
    res = simbalance.solve(duel, ["balance=0.97:1"], ["compensation.points.2=0:1"], verify_n=2000, start_n=100,
                           seed=2, threads=1)
    assert res.chosen is None
    text = " ".join(f.text for f in res.findings())
    assert "No change found" in text and "compensation.points.2 sits at the top of its range" in text
    assert "--knob compensation.points.2=0:2" in text


def test_ctrl_c_keeps_the_best_so_far(duel, tmp_path):
    """A KeyboardInterrupt through the progress display in the middle of the search: the result is
    marked interrupted, what met the targets so far is kept unverified, and the folder is written."""
    calls = {"n": 0}

    def progress(label):
        def show(done, total, seconds):
            if "rung 2" in label:
                raise KeyboardInterrupt
        calls["n"] += 1
        return show

    res = simbalance.solve(duel, ["balance=0.9:1"], ["compensation.points.2=0:4"], verify_n=2000, start_n=400,
                           seed=3, threads=1, progress=progress)
    assert res.interrupted and res.chosen is None
    assert len(res.candidates) == 4 and (res.candidates["games"] == 400).all()  # rung 1 kept
    from simbalance.report.solve_page import write_solve_folder

    folder = write_solve_folder(res, tmp_path / "out", "test")
    solution = json.loads((folder / "solution.json").read_text())
    assert solution["interrupted"] and not solution["verified"]
    assert (folder / "solve.html").read_text().count("Interrupted") >= 1


BAD = {
    "unknown metric": (["--target", "fairness=0.9:1"], "--target fairness: unknown metric"),
    "inverted target": (["--target", "balance=1:0.9"], "the range is inverted"),
    "empty knob range": (["--knob", "rules.pick_cap=10:10"], "the range is empty"),
    "inverted knob range": (["--knob", "rules.pick_cap=100:10"], "the range is inverted"),
    "knob not in config": (["--knob", "rules.nope=1:2"], "unknown config key 'rules.nope'"),
    "knob true/false given numbers": (["--knob", "rules.repeat_after_pair=0:1"], "rules.repeat_after_pair is true or false"),
    "budget": (["--budget", "soon"], "--budget soon"),
    "card values missing": (["--card-values", "/nonexistent/card_value.json"], "--card-values /nonexistent/card_value.json: cannot read it"),
}


@pytest.mark.parametrize("case", BAD)
def test_bad_inputs_are_one_line_exit_2_and_nothing_written(case, tmp_path):
    args, words = BAD[case]
    out = tmp_path / "out"
    extra = [] if "--knob" in args else ["--knob", "rules.first_card_to=0:3"]
    res = runner.invoke(app, ["solve", "find-dr-evil", *args, *extra, "--out", str(out)])
    assert res.exit_code == 2, res.output
    lines = [line for line in res.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and words in lines[0], res.output
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_targets_and_knobs_parse_typed_like_their_keys():
    cfg = load_config("captain-future")
    knob = parse_knob("ships.4=24:36", cfg)
    assert knob.values == tuple(range(24, 37)) and knob.today == 30
    assert parse_knob("rules.hand_size=8:12:2", cfg).values == (8, 10, 12)
    with pytest.raises(ConfigError, match="takes whole numbers"):
        parse_knob("cards.joker=4.5:12", cfg)
    assert parse_target("length_median=55:65", 4) == Target("length_median", 55.0, 65.0)
    with pytest.raises(ConfigError, match="seat 4 does not play"):
        parse_target("win_rate_seat_4=0:1", 4)
    two = candidates([parse_knob("ships.4=29:31", cfg), parse_knob("cards.joker=7:9", cfg)], 2)
    assert two == [{"ships.4": a, "cards.joker": b} for a in (29, 31) for b in (7, 9)]
    by_key = {k.key: k for k in [parse_knob("ships.4=24:36", cfg)]}
    assert change_size({"ships.4": 27}, by_key) == (1, 0.25)
    assert describe_change({"compensation.ships.1": 2}, today={"compensation.ships.1": 0}) == \
        "Give player 1 two more ships"


def _agg(wins: np.ndarray) -> RunAggregate:
    agg = RunAggregate(len(wins), 1)
    agg.n = int(wins.sum())
    agg.outcomes[0] = agg.n
    agg.seat_win_units = wins.astype(np.int64) * WIN_UNITS
    agg.length_hist = np.array([0, agg.n])
    return agg


def test_the_balance_interval_covers_the_true_balance():
    """The pair-by-pair interval covers the true balance at least 95% of the time, also where the
    plug-in estimate is biased most (every seat equal: the largest gap of the noise is never 0)."""
    rng = np.random.default_rng(1)
    for probs in ([0.25] * 4, [0.347, 0.201, 0.25, 0.202]):
        probs = np.array(probs)
        truth = 1 - (probs.max() - probs.min())
        covered = 0
        for _ in range(400):
            r = balance_test(_agg(rng.multinomial(2000, probs)), 0.97, 1.0)
            covered += r["ci_low"] <= truth <= r["ci_high"]
        assert covered / 400 >= 0.93


def test_holm_across_targets_and_each_ci_inside():
    agg = _agg(np.array([5000, 5000]))
    one = judge(agg, [Target("balance", 0.97, 1.0)])
    assert one["verdict"] == MEETS and one["tests"][0]["ci_low"] >= 0.97
    both = judge(agg, [Target("balance", 0.97, 1.0), Target("length_median", 0.5, 1.5)])
    assert both["verdict"] == MEETS and all(math.isclose(t["p_holm"], t["p_holm"]) for t in both["tests"])
    missed = judge(agg, [Target("balance", 0.97, 1.0), Target("length_median", 3, 5)])
    assert missed["verdict"] == "does not meet" and missed["shortfall"] > 0


def test_the_command_writes_the_page_and_a_solution_ready_for_set(duel, tmp_path):
    out = tmp_path / "solve"
    res = runner.invoke(app, ["solve", duel, "--target", "balance=0.97:1", "--verify-n", "2e4", "--start-n", "200",
                              "--threads", "1", "--seed", "5", "--out", str(out)], env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    assert "Give player 2 two more points (verified: meets every target): --set compensation.points.2=2" in res.output
    solution = json.loads((out / "solution.json").read_text())
    assert solution["set"] == "--set compensation.points.2=2" and solution["verified"] and solution["meets"]
    assert {"solve.html", "solution.json", "candidates.parquet", "findings.json", "frontier.png"} <= \
        {p.name for p in out.iterdir()}
    page = (out / "solve.html").read_text()
    assert page.index("Findings") < page.index("Give player 2 two more points") < page.index("frontier")
    assert page.index("frontier") < page.index("The changed game's findings") < page.index("Every candidate tried")
    again = simbalance.simulate(duel, 20_000, seed=1, overrides={"compensation.points.2": 2}, threads=1)
    assert again.summary()["balance"] > 0.97  # the --set line plays the balanced game


def test_budgets_read_as_times():
    from simbalance.studies.solve import parse_budget

    assert [parse_budget(b) for b in ("20m", "90s", "1h", "1h30m", 45)] == [1200, 90, 3600, 5400, 45]
    for bad in ("soon", "0s", "-5m", ""):
        with pytest.raises(simbalance.api.SimbalanceError, match="--budget"):
            parse_budget(bad)


def test_a_stage_too_large_grows_from_the_best_of_the_last():
    from simbalance.analysis.solve import extend

    cfg = load_config("captain-future")
    knobs = [parse_knob("ships.4=29:31", cfg), parse_knob("cards.joker=7:9", cfg), parse_knob("cards.otto=2:4", cfg)]
    grown = extend([{"cards.joker": 9}, {"ships.4": 29}], knobs, 5)
    assert grown == [{"ships.4": 29, "cards.joker": 9}, {"ships.4": 31, "cards.joker": 9},
                     {"cards.joker": 9, "cards.otto": 2}, {"cards.joker": 9, "cards.otto": 4},
                     {"ships.4": 29, "cards.joker": 7}]


def test_the_solver_grows_a_large_stage_from_the_best_candidates(duel, monkeypatch):
    """With room for 3 candidates a stage, the two-knob stage holds 3 changes grown from the
    one-knob stage's best (the fair compensation first)."""
    import simbalance.studies.solve as study

    monkeypatch.setattr(study, "STAGE_MOST", 3)
    res = simbalance.solve(duel, ["balance=0.97:1"], ["compensation.points.2=0:4", "rules.die=4:8"], verify_n=4000,
                           start_n=200, seed=4, threads=1, models=False, max_keys=2)
    two = res.candidates[res.candidates["keys_changed"] == 2]
    assert len(two) == 3 and (two["compensation.points.2"] == 2).all()


def test_a_knob_this_player_count_never_reads_is_left_out_or_refused(duel):
    """compensation.points.3 is player 3's, and the duel has two players: the same games at both ends."""
    res = simbalance.solve(duel, ["balance=0.97:1"], ["compensation.points.3=0:2", "compensation.points.2=0:4"],
                           verify_n=20_000, start_n=200, seed=5, threads=1)
    assert [k.key for k in res.knobs] == ["compensation.points.2"]
    assert res.notes and res.notes[0].startswith("compensation.points.3: changes nothing with 2 players")
    assert res.chosen.change == {"compensation.points.2": 2}
    with pytest.raises(ConfigError, match="no knob changes the games with 2 players: compensation.points.3 is not"):
        simbalance.solve(duel, ["balance=0.97:1"], ["compensation.points.3=0:2"], verify_n=1000, threads=1)


def test_the_command_interrupted_writes_what_it_knows_and_exits_130(duel, tmp_path, monkeypatch):
    import simbalance.cli.terminal as terminal

    class Stopping:
        def __init__(self, label):
            self.label = label

        def __call__(self, done, total, seconds):
            if "rung 2" in self.label:
                raise KeyboardInterrupt

    monkeypatch.setattr(terminal, "RichProgress", Stopping)
    out = tmp_path / "solve"
    res = runner.invoke(app, ["solve", duel, "--target", "balance=0.97:1", "--verify-n", "2e4", "--start-n", "400",
                              "--threads", "1", "--out", str(out)])
    assert res.exit_code == 130, res.output
    solution = json.loads((out / "solution.json").read_text())
    assert solution["interrupted"] and len(solution["candidates"]) == 4


def test_card_values_put_the_deck_knobs_of_the_cards_worth_most_first():
    """Issue 40 item 5: card-value's priority orders the deck knobs (the counts of the cards worth
    most first, then every other knob in its own order); a rule key names no card."""
    from simbalance.analysis.solve import default_knobs, knob_cards, order_by_card_values
    from simbalance.core.config import load_config

    cf = default_knobs(load_config("captain-future"))
    priority = [{"card": "GRAG", "value": -0.09}, {"card": "joker", "value": 0.05}, {"card": "row A", "value": 0.01},
                {"card": "Recall", "value": 0.002}]
    ordered, said = order_by_card_values(cf, priority)
    keys = [k.key for k in ordered]
    assert keys[:3] == ["cards.grag", "cards.joker", "cards.recall"]
    assert sorted(keys) == sorted(k.key for k in cf) and keys[3:] == [k.key for k in cf if k.key not in keys[:3]]
    assert "cards.grag (GRAG: -9.0 pts)" in said
    assert knob_cards("deck.wildcards.captain_action", ["Captain Action 1 (periwinkle)", "Captain Action wildcard 0"]) \
        == ["Captain Action wildcard 0"]
    assert knob_cards("rules.hand_size", ["hand"]) == [] and knob_cards("compensation.points.1", ["points 1"]) == []
    same, none = order_by_card_values(cf, [{"card": "Dr. Ling wildcard", "value": 0.15}])
    assert same == cf and none is None


def test_card_values_of_another_game_are_one_line(tmp_path):
    path = tmp_path / "card_value.json"
    path.write_text(json.dumps({"game": "captain-action", "priority": []}))
    out = tmp_path / "out"
    res = runner.invoke(app, ["solve", "find-dr-evil", "--knob", "rules.first_card_to=0:3", "--card-values", str(path),
                              "--out", str(out)])
    assert res.exit_code == 2 and "the card values of 'captain-action', not of 'find-dr-evil'" in res.output, res.output
    assert not out.exists()
