"""`simbalance solve`, issue 51 items 1, 3 and 5: the answer carries the setup the solve started from
(``command``, ``set``), candidates the engine refuses are skipped and counted, and knobs may be
choices, true/false rules and the game's variant files.

The planted game is a plug-in made on the spot (as tests/studies/test_solve.py's dice duel): two
players each roll one die of ``rules.die`` (6) faces, the higher total wins, equal totals share the
win. Player 1 adds ``rules.first_bonus`` (2) when ``rules.first_bonus_on`` (true); player 2 adds
``compensation.points.2`` (0) and the choice ``rules.second_bonus`` ("none", "one" or "two": 0, 1 or 2
points). **The known answers**: the two players win exactly alike (balance 1) exactly when player
2's bonus equals player 1's: ``second_bonus = "two"``, ``first_bonus_on = false``, the variant file
``fair`` (which turns the first bonus off), or ``compensation.points.2`` equal to the first bonus.
Any other difference of the bonuses leaves a gap of at least 11/36 (balance at most 0.70), so only
those meet ``balance >= 97%``. The variant ``long-die`` (a 12-sided die) still favours player 1.
The engine refuses a player 2 whose bonus beats player 1's by the die or more (player 2 would win
every game): a combination of knobs each playable alone.
"""

from __future__ import annotations

import json
import shlex

import numpy as np
import pytest
from plugin_duel import DUEL_KERNEL, plugin_game
from tiers import everyday_first
from typer.testing import CliRunner

import simbalance
from simbalance.analysis.solve import MEETS, Target, judge
from simbalance.cli.main import app
from simbalance.core.aggregate import WIN_UNITS, RunAggregate

runner = CliRunner()

SPEC = '''
from simbalance.core.spec import GameSpec

SPEC = GameSpec(id="rule-duel", title="Rule duel", summary="two dice and rules", min_players=2,
                max_players=4, engine="fake_rule_duel.engine", length_unit="rolls")
'''

ENGINE = '''
import numpy as np

from simbalance.core.config import require_bool, require_choice, require_int
from simbalance.core.errors import ConfigError

SECOND_BONUS = {"none": 0, "one": 1, "two": 2}


def prepare(cfg, players, validate):
    bonus = np.zeros(6, np.int64)
    if require_bool(cfg, "rules.first_bonus_on"):
        bonus[0] = require_int(cfg, "rules.first_bonus", 0, 100)
    for s in range(players):
        bonus[s] += require_int(cfg, f"compensation.points.{s + 1}", 0, 100)
    bonus[1] += SECOND_BONUS[require_choice(cfg, "rules.second_bonus", list(SECOND_BONUS))]
    die = require_int(cfg, "rules.die", 2, 100)
    if bonus[1] - bonus[0] >= die:
        raise ConfigError(f"player 2's bonus {bonus[1]} beats player 1's {bonus[0]} by a die of {die} or more: "
                          "player 2 would win every game")
    return bonus, np.int64(die)
''' + DUEL_KERNEL

CONFIG = '''
[game]
players = 2
strategies = ["random"]

[rules]
die = 6
first_bonus = 2
first_bonus_on = true
second_bonus = "none"

[compensation]
points = { 1 = 0, 2 = 0, 3 = 0, 4 = 0 }

[knobs]
"compensation.points.2" = [0, 4]

[strategies.random]
idea = "no decisions"
'''

VARIANTS = {
    "fair": 'description = "no first bonus"\n[rules]\nfirst_bonus_on = false\n',
    "long-die": 'description = "a twelve-sided die"\n[rules]\ndie = 12\n',
}


@pytest.fixture
def rule_duel(tmp_path, monkeypatch):
    """The rule duel as a plug-in game ``rule-duel``, with its variant files."""
    yield from plugin_game(monkeypatch, "rule-duel", "fake_rule_duel", SPEC, ENGINE, CONFIG, VARIANTS)


def _run_folder_judged(folder, targets: list[Target]) -> dict:
    """A `simbalance run` folder's seat wins judged against the targets (the solve's own test): the
    rule duel's games all last one roll and all have a winner (a tie shares it)."""
    summary = json.loads((folder / "summary.json").read_text())
    agg = RunAggregate(summary["players"], 1)
    agg.n = int(summary["n_games"])
    agg.outcomes[0] = agg.n
    agg.seat_win_units = np.array([round(s["wins"] * WIN_UNITS) for s in summary["seats"]], np.int64)
    agg.length_hist = np.array([0, agg.n])
    return judge(agg, targets)


def _play(command: str, tmp_path, name: str, *, seed: int | None = None, drop: str | None = None) -> list[str]:
    """Run a solution's ``command`` (a `simbalance run ...` line) as the CLI does, on another seed or
    without one of its options; returns its arguments as played."""
    args = shlex.split(command)
    assert args[:2] == ["simbalance", "run"], command
    args = args[1:]
    if seed is not None:
        args[args.index("--seed") + 1] = str(seed)
    if drop is not None:
        at = args.index(drop)
        del args[at - 1: at + 1]  # the option and its value
    res = runner.invoke(app, [*args, "--threads", "1", "--quiet", "--no-games", "--out", str(tmp_path / name)])
    assert res.exit_code == 0, res.output
    return args


# ---------------------------------------------------------------- item 1: the answer's command and set
BALANCE = [Target("balance", 0.97, 1.0)]


def test_the_answer_carries_the_set_the_solve_started_from(rule_duel, tmp_path):
    """Started from ``--set rules.first_bonus=1``, the fair compensation is 1 (not 2): solution.json's
    ``set`` and ``command`` hold the base --set with the change; the command replays the verification
    exactly, meets the target on a new seed, and misses it with the base --set dropped (player 1's
    bonus back at 2 against a compensation of 1: a gap of 11/36)."""
    out = tmp_path / "solve"
    res = runner.invoke(app, ["solve", rule_duel, "--target", "balance=0.97:1", "--knob", "compensation.points.2=0:4",
                              "--set", "rules.first_bonus=1", "--verify-n", "2e4", "--start-n", "200", "--threads",
                              "1", "--seed", "3", "--models", "random", "--out", str(out)], env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    solution = json.loads((out / "solution.json").read_text())
    assert solution["changes"] == {"compensation.points.2": 1} and solution["meets"]
    assert solution["set"] == "--set rules.first_bonus=1 --set compensation.points.2=1"
    command = solution["command"]
    assert command.startswith(f"simbalance run {rule_duel} --n 20000 --seed {solution['setup']['verify_seed']} ")
    assert "--set rules.first_bonus=1 --set compensation.points.2=1" in command
    assert "solve_command" in solution  # the solve itself (under pytest: pytest's argv)
    assert f"play it: {command}" in res.output
    page = (out / "solve.html").read_text()
    assert page.index("Findings") < page.index(command) < page.index("Today's rules")  # near the headline

    _play(command, tmp_path, "same")  # the verification itself, game for game
    replay = json.loads((tmp_path / "same" / "summary.json").read_text())
    assert replay["balance"] == pytest.approx(solution["metrics"][0]["value"], abs=1e-12)
    _play(command, tmp_path, "fresh", seed=12345)
    assert _run_folder_judged(tmp_path / "fresh", BALANCE)["verdict"] == MEETS
    played = _play(command, tmp_path, "without", seed=12345, drop="rules.first_bonus=1")
    assert "rules.first_bonus=1" not in played
    missed = _run_folder_judged(tmp_path / "without", BALANCE)
    assert missed["verdict"] == "does not meet" and missed["tests"][0]["value"] < 0.75


def test_the_command_carries_players_strategies_rotate_config_and_variants(rule_duel, tmp_path):
    """Every setting the solve started from is in the command, in the order a run applies them."""
    config = tmp_path / "mine.toml"
    config.write_text(CONFIG)
    res = simbalance.solve(rule_duel, ["balance=0.9:1"], ["compensation.points.2=0:4"], verify_n=4000, start_n=200,
                           seed=2, threads=1, models=False, players=2, config=str(config), variants=["long-die"],
                           overrides=["rules.first_bonus=1"], strategies="random", rotate=True)
    solution = res.solution()
    assert solution["setup"] == {"config": str(config), "players": 2, "variants": ["long-die"],
                                 "overrides": ["rules.first_bonus=1"], "strategies": "random", "rotate": True,
                                 "verify_seed": solution["setup"]["verify_seed"]}
    change = solution["changes"]
    assert change == {"compensation.points.2": 1}
    # read from the verification's own plan (studies/run.run_command): --players 2 is the config's own
    assert solution["command"] == (
        f"simbalance run rule-duel --n 4000 --seed {solution['setup']['verify_seed']} --config {config} "
        "--variant long-die --strategies random --rotate --set rules.first_bonus=1 --set compensation.points.2=1")
    three = simbalance.solve(rule_duel, ["balance=0:1"], ["compensation.points.2=0:4"], verify_n=1000, seed=2,
                             threads=1, models=False, players=3)
    assert three.no_change_needed and " --players 3" in three.solution()["command"]
    assert [a["command"] for a in solution["answers"]][0] == solution["command"]


def test_a_base_set_of_a_knobs_own_key_gives_way_to_the_change(rule_duel):
    res = simbalance.solve(rule_duel, ["balance=0.97:1"], ["compensation.points.2=0:4"], verify_n=20_000,
                           start_n=200, seed=1, threads=1, models=False, overrides=["compensation.points.2=4"])
    assert res.knobs[0].today == 4 and res.chosen.change == {"compensation.points.2": 2}
    assert res.solution()["set"] == "--set compensation.points.2=2"


@pytest.mark.exhaustive
def test_the_command_meets_on_fresh_games_at_the_rate_the_page_claims(rule_duel, tmp_path):
    """Over ten solve seeds, the answer's command run on a new seed meets the target every time the
    solve says it meets with 95% confidence (the planted answer is exactly fair: its fresh runs meet
    at least 95% of the time), and the base --set is in every command."""
    met = 0
    for seed in range(10):
        res = simbalance.solve(rule_duel, ["balance=0.97:1"], ["compensation.points.2=0:4"], verify_n=20_000,
                               start_n=200, seed=seed, threads=1, models=False, overrides=["rules.first_bonus=1"])
        solution = res.solution()
        assert solution["meets"] and "--set rules.first_bonus=1" in solution["command"]
        _play(solution["command"], tmp_path, f"fresh{seed}", seed=1000 + seed)
        met += _run_folder_judged(tmp_path / f"fresh{seed}", BALANCE)["verdict"] == MEETS
    assert met >= 9, met


# ------------------------------------------------------------------ item 3: combinations the engine refuses
def test_a_combination_the_engine_refuses_is_skipped_and_counted(rule_duel, tmp_path):
    """compensation.points.2 = 4 and rules.die = 2 are each playable with today's other rules, but
    together player 2's bonus (4) beats player 1's (2) by the die: the engine refuses the pair. It
    is never played, counted in a note on the page and in solution.json, and the solve completes."""
    res = simbalance.solve(rule_duel, ["balance=0.97:1"], ["compensation.points.2=3:4", "rules.die=2:3"],
                           verify_n=2000, start_n=100, seed=1, threads=1, models=False, max_keys=2, answers=1)
    assert [s["changes"] for s in res.skipped] == [{"compensation.points.2": 4, "rules.die": 2}]
    assert "beats player 1's 2 by a die of 2" in res.skipped[0]["reason"]
    pairs = res.candidates[res.candidates["keys_changed"] == 2]
    assert len(pairs) == 3 and not ((pairs["compensation.points.2"] == 4) & (pairs["rules.die"] == 2)).any()
    note = next(n for n in res.notes if "skipped" in n)
    assert note.startswith("1 candidate skipped before any game: the engine refuses the combination")
    from simbalance.report.solve_page import write_solve_folder

    folder = write_solve_folder(res, tmp_path / "out", "test")
    solution = json.loads((folder / "solution.json").read_text())
    assert solution["skipped"]["count"] == 1 and note in solution["notes"]
    assert "1 candidate skipped before any game" in (folder / "solve.html").read_text()


# every game (about 6 s each once compiled: the suite's compile-first compiles the slow two first)
DEFAULT_KNOB_GAMES = ["find-dr-evil", "captain-action", "lady-actions-escape", "aquaman", "captain-future"]
# each game's default lineup's strategy: the one player model these short searches play (the default
# models add every heuristic and the search player; tests/studies/test_solve.py plays those)
DEFAULT_STRATEGY = {"find-dr-evil": "random", "captain-action": "builder", "lady-actions-escape": "random",
                    "aquaman": "runner", "captain-future": "aggressor"}


@pytest.mark.parametrize("game", everyday_first(sorted(DEFAULT_KNOB_GAMES, key=lambda g: g != "captain-action")))
def test_every_games_default_knobs_and_targets_complete(game, tmp_path):
    """The config's own [knobs] with its own [targets], on a short budget: exit 0 and the folder
    written (issue 51: find-dr-evil's default knobs crashed the race with "compensation.cards.1 = 3:
    seat 4 would be dealt 0 cards", a combination whose every knob end is valid alone)."""
    out = tmp_path / "solve"
    budget = "2m" if game == "find-dr-evil" else "6s"
    res = runner.invoke(app, ["solve", game, "--budget", budget, "--models", DEFAULT_STRATEGY[game], "--verify-n", "1000",
                              "--start-n", "50", "--answers", "1", "--threads", "1", "--seed", "0", "--out", str(out)])
    assert res.exit_code == 0, res.output
    solution = json.loads((out / "solution.json").read_text())
    assert solution["skipped"]["count"] == len(solution["skipped"]["first"]) or solution["skipped"]["count"] > 5


def test_find_dr_evils_starving_deal_is_skipped_and_counted(tmp_path):
    """Three seats given three more cards each leave seat 4 none: every knob's end is playable alone,
    the combination is not. A target no change can settle (balance 99.9 %) makes the search reach
    the stage of three knobs, where that combination is skipped before any game, counted and said."""
    out = tmp_path / "solve"
    res = runner.invoke(app, ["solve", "find-dr-evil", "--target", "balance=0.999:1",
                              *[a for k in (1, 2, 3) for a in ("--knob", f"compensation.cards.{k}=0:3")],
                              "--models", "random", "--verify-n", "400", "--start-n", "50", "--answers", "1",
                              "--threads", "1", "--seed", "0", "--budget", "2m", "--out", str(out)])
    assert res.exit_code == 0, res.output
    solution = json.loads((out / "solution.json").read_text())
    assert not solution["budget_spent"] and solution["skipped"]["count"] == 1
    assert solution["skipped"]["first"][0]["changes"] == {f"compensation.cards.{k}": 3 for k in (1, 2, 3)}
    assert "seat 4 would be dealt 0 cards" in solution["skipped"]["first"][0]["reason"]
    assert any("skipped before any game" in n for n in solution["notes"])


# ------------------------------------------------- item 5: choices, true/false rules and variant files as knobs
@pytest.mark.parametrize("knob, answer, words", [
    ("rules.second_bonus=none,one,two", {"rules.second_bonus": "two"}, """--set 'rules.second_bonus="two"'"""),
    ("rules.first_bonus_on", {"rules.first_bonus_on": False}, "--set rules.first_bonus_on=false"),
    ("rules.first_bonus_on=true,false", {"rules.first_bonus_on": False}, "--set rules.first_bonus_on=false"),
    ("variant=long-die,fair", {"variant": "fair"}, "--variant fair"),
    ("variant", {"variant": "fair"}, "--variant fair"),
])
def test_choices_flags_and_variants_are_searched_like_numbers(rule_duel, knob, answer, words):
    """Each kind's exactly fair value is the one change found and verified (the others leave a gap
    of 11/36 or more); the answer's set plays it, on several seeds."""
    for seed in (1, 2):
        res = simbalance.solve(rule_duel, ["balance=0.97:1"], [knob], verify_n=20_000, start_n=200, seed=seed,
                               threads=1, models=False)
        assert res.chosen is not None and res.chosen.change == answer, (seed, res.candidates)
        met = res.candidates[res.candidates["verdict"] == MEETS]
        assert len(met) == 1
        solution = res.solution()
        assert solution["set"] == words and words in solution["command"] and solution["changes"] == answer
        assert res.chosen.size == (1, 1.0)  # a change of a choice, a flag or a variant is one key at full distance


def test_smallest_counts_a_choice_as_one_knob_at_full_distance(rule_duel):
    """Fewest keys first, then the distance: a choice, a true/false rule or a variant file changed
    is one key at distance 1 (the whole range), whichever value it takes; a number's move is its
    share of the range (2 of 0:4 is 0.5): the number's half-range move comes first."""
    from simbalance.analysis.solve import candidates, change_size, parse_knob
    from simbalance.core.config import load_config

    cfg = load_config(rule_duel)
    knobs = [parse_knob(k, cfg, rule_duel) for k in ("compensation.points.2=0:4", "rules.second_bonus=none,one,two",
                                                     "rules.first_bonus_on", "variant=fair,long-die")]
    by_key = {k.key: k for k in knobs}
    assert change_size({"rules.second_bonus": "one"}, by_key) == change_size({"rules.second_bonus": "two"}, by_key) \
        == change_size({"rules.first_bonus_on": False}, by_key) == change_size({"variant": "fair"}, by_key) == (1, 1.0)
    assert change_size({"compensation.points.2": 2}, by_key) == (1, 0.5)
    assert change_size({"compensation.points.2": 4, "variant": "fair"}, by_key) == (2, 2.0)
    ones = sorted(candidates(knobs, 1), key=lambda c: change_size(c, by_key))
    assert ones[:2] == [{"compensation.points.2": 1}, {"compensation.points.2": 2}]
    assert {"rules.second_bonus": "none"} not in ones and {"rules.first_bonus_on": True} not in ones  # today's
    assert len(ones) == 4 + 2 + 1 + 2


def test_the_knobs_table_takes_choices_flags_and_variants(rule_duel, tmp_path):
    config = tmp_path / "mine.toml"
    config.write_text(CONFIG.replace('"compensation.points.2" = [0, 4]',
                                     '"rules.second_bonus" = ["none", "one", "two"]\n'
                                     '"rules.first_bonus_on" = [true, false]\nvariant = ["long-die", "fair"]'))
    res = simbalance.solve(rule_duel, ["balance=0.97:1"], None, verify_n=20_000, start_n=200, seed=1, threads=1,
                           models=False, config=str(config), max_keys=1)
    assert [(k.key, k.kind) for k in res.knobs] == [("rules.second_bonus", "choice"),
                                                    ("rules.first_bonus_on", "true/false"), ("variant", "variant")]
    met = res.candidates[res.candidates["verdict"] == MEETS]
    fair = {"rules.second_bonus from \"none\" to \"two\"", "rules.first_bonus_on from true to false",
            "the variant fair"}  # equally small: which of them the race keeps is the race's (issue 51 item 2)
    assert len(met) >= 1 and set(met["change"]) <= fair
    assert res.chosen is not None and res.chosen.words in fair
    assert res.solution()["knobs"][2]["values"] == ["long-die", "fair"]
    from simbalance.report.solve_page import write_solve_folder

    write_solve_folder(res, tmp_path / "out", "test")  # the candidates' table holds words, flags and numbers
    assert set(met["change"]) <= set(__import__("pandas").read_parquet(tmp_path / "out" / "candidates.parquet")["change"])


BAD_KNOBS = {
    "unknown choice value": ("rules.second_bonus=none,three",
                             "rules.second_bonus = three is not a playable rule: rules.second_bonus = 'three': allowed "
                             "'none', 'one', 'two'"),
    "unknown variant": ("variant=fair,short", "'short' is not a variant of rule-duel; known: fair, long-die"),
    "a flag given numbers": ("rules.first_bonus_on=0:1", "rules.first_bonus_on is true or false (today true); give "
                             "--knob rules.first_bonus_on=true,false (or just --knob rules.first_bonus_on)"),
    "a choice without values": ("rules.second_bonus", "rules.second_bonus is a choice (today 'none'); give its values"),
    "only today's value": ("rules.second_bonus=none", "no value but today's"),
    "a number given a list": ("rules.die=4,6", "rules.die is a number; give --knob rules.die=LO:HI"),
}


@pytest.mark.parametrize("case", BAD_KNOBS)
def test_bad_knobs_of_every_kind_are_one_line_exit_2_and_nothing_written(rule_duel, case, tmp_path):
    knob, words = BAD_KNOBS[case]
    out = tmp_path / "out"
    res = runner.invoke(app, ["solve", rule_duel, "--target", "balance=0.97:1", "--knob", knob, "--threads", "1",
                              "--out", str(out)], env={"COLUMNS": "400"})
    assert res.exit_code == 2, res.output
    lines = [line for line in res.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and words in lines[0], res.output
    assert not out.exists()


def test_a_knobs_table_of_the_wrong_form_is_one_line(rule_duel, tmp_path):
    from simbalance.core.config import knobs_of, load_config
    from simbalance.core.errors import ConfigError

    cfg = load_config(rule_duel)
    for table, words in ((["none", 1], "rules.second_bonus is a choice (today 'none'); give the values to try"),
                         ([1, 2], "rules.second_bonus is a choice")):
        with pytest.raises(ConfigError, match=words.replace("(", r"\(").replace(")", r"\)")):
            knobs_of({**cfg, "knobs": {"rules.second_bonus": table}})
    with pytest.raises(ConfigError, match="expected a list of the game's variant names"):
        knobs_of({**cfg, "knobs": {"variant": "fair"}})
    with pytest.raises(ConfigError, match="give the values to try, e.g. \\[true, false\\]"):
        knobs_of({**cfg, "knobs": {"rules.first_bonus_on": [0, 1]}})


def test_knobs_of_every_kind_give_the_same_search_on_any_threads(rule_duel):
    kw = dict(verify_n=4000, start_n=100, seed=9, models=False)
    knobs = ["rules.second_bonus=none,one,two", "rules.first_bonus_on", "variant", "compensation.points.2=0:4"]
    a = simbalance.solve(rule_duel, ["balance=0.97:1"], knobs, threads=1, **kw)
    b = simbalance.solve(rule_duel, ["balance=0.97:1"], knobs, threads=2, **kw)
    assert a.candidates.equals(b.candidates) and len(a.candidates) > 9
    assert [x.change for x in a.answers] == [x.change for x in b.answers]
    assert a.solution()["command"] == b.solution()["command"]


from test_new_game import installed  # noqa: E402,F401  (the new-game scaffold as a plug-in, not compiled)


def _edge_hint(game: str, knob_text: str, at: str) -> str:
    """The no-solution finding's text when the closest change sits at ``at`` ("low" or "high") of
    ``knob_text``'s range, with the engine's own check of a suggested end (studies/solve.plays_on)."""
    import pandas as pd

    from simbalance.analysis.solve import OPEN, parse_knob, solve_findings
    from simbalance.core.config import load_config
    from simbalance.studies.settings import RunSettings
    from simbalance.studies.solve import plays_on

    knob = parse_knob(knob_text, load_config(game), game)
    closest = pd.DataFrame([{knob.key: getattr(knob, at), "verdict": OPEN, "games": 400, "shortfall": 0.02,
                             "balance": 0.95, "balance_ci_low": 0.93, "balance_ci_high": 0.97}])
    today = {"verdict": OPEN, "tests": [], "models": {}}
    found = solve_findings(targets=[Target("balance", 0.97, 1.0)], knobs=[knob], today=today, answers=[],
                           closest=closest, interrupted=False, game=game, side_effects={}, budget_spent=True,
                           unsettled=1, plays=plays_on(RunSettings.of(game), dict(strategies=None, rotate=False)))
    return next(f.text for f in found if f.kind == "no_solution")


def test_a_wider_range_is_suggested_only_up_to_an_end_the_engine_plays_captain_future():
    """captain-future refuses 0 actions a turn (allowed 1 to 10): a closest change at the bottom of
    rules.actions_per_turn=1:3 gets no hint (the arithmetic said "try 0:3", which the engine
    refuses); at the top, the range's width beyond it (1:5, which plays). The hand size's bottom
    (8:12, width 4) suggests 4, which plays."""
    assert "rules.actions_per_turn sits at the bottom" not in _edge_hint(
        "captain-future", "rules.actions_per_turn=1:3", "low")
    assert "try a wider one, --knob rules.actions_per_turn=1:5." in _edge_hint(
        "captain-future", "rules.actions_per_turn=1:3", "high")
    assert "--knob rules.hand_size=4:12." in _edge_hint("captain-future", "rules.hand_size=8:12", "low")


def test_a_wider_range_is_suggested_only_up_to_an_end_the_engine_plays_new_game(installed):  # noqa: F811
    """The new-game scaffold's rules.hand_size = [2, 6]: the arithmetic said "try 0:6", the engine
    refuses a hand of 0 cards; the hint shrinks to the widest end it plays (checked here by planning,
    as the solver checks every knob's ends)."""
    from simbalance.studies.settings import RunSettings
    from simbalance.studies.solve import changed_setup, refusal

    text = _edge_hint("trick-race", "rules.hand_size=2:6", "low")
    assert "--knob rules.hand_size=0:6" not in text
    suggested = int(text.split("--knob rules.hand_size=")[1].split(":")[0])
    assert 0 < suggested < 2
    assert refusal(changed_setup(RunSettings.of("trick-race"), {"rules.hand_size": suggested}, 0), {}) is None
    assert refusal(changed_setup(RunSettings.of("trick-race"), {"rules.hand_size": 0}, 0), {}) is not None
