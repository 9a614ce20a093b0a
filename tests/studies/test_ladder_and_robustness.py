"""The skill ladder and robustness studies: their statistics on planted tables, and end to end on
captain-action (its search players are fast: hundreds of games a second)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from claims import check_claims

from simbalance.analysis.findings import thresholds
from simbalance.analysis.ladder import LADDER_COLUMNS, ladder_findings, pair_share
from simbalance.analysis.robustness import conclusions, robustness_findings
from simbalance.core.errors import SimbalanceError
from simbalance.studies import ladder as ladder_study
from simbalance.studies.ladder import ladder, parse_budgets
from simbalance.studies.robustness import robustness

TH = thresholds({})


def ladder_table(rates, h2h):
    """Planted ladder rows: win rates against the heuristic (CI +-2 points) and head-to-head shares
    against the budget before (CI +-``half`` points) as (share, half)."""
    rows = []
    for i, rate in enumerate(rates):
        share, half = h2h[i - 1] if i else (float("nan"), float("nan"))
        rows.append({"budget": 8 * 4 ** i, "name": f"mcts@{8 * 4 ** i}", "win_rate": rate, "ci_low": rate - 0.02,
                     "ci_high": rate + 0.02, "decided_seat_games": 1000, "games": 1000, "h2h_share": share,
                     "h2h_ci_low": share - half, "h2h_ci_high": share + half, "h2h_games": 1000 if i else 0})
    return pd.DataFrame(rows, columns=LADDER_COLUMNS)


def kinds(found):
    return {f.kind for f in found}


def test_a_rising_ladder_that_beats_the_heuristic_raises_no_alarm():
    found = ladder_findings(ladder_table([0.22, 0.28, 0.33], [(0.58, 0.03), (0.6, 0.03)]), "mcts", "iterations",
                            "builder", 4, TH)
    assert kinds(found) == {"search_beats_heuristic"}
    assert "mcts with 32 iterations beats builder" in found[0].text


def test_a_flat_ladder_is_a_bug_said_plainly():
    found = ladder_findings(ladder_table([0.25, 0.25, 0.25], [(0.5, 0.02), (0.49, 0.02)]), "mcts", "iterations",
                            "builder", 4, TH)
    assert kinds(found) == {"ladder_flat", "heuristic_unbeaten"}
    assert found[0].severity == "high" and "does not get stronger" in found[0].text


def test_too_few_games_to_tell_is_not_called_a_bug():
    found = ladder_findings(ladder_table([0.25, 0.26], [(0.52, 0.09)]), "mcts", "iterations", "builder", 4, TH)
    assert "ladder_unclear" in kinds(found) and "ladder_flat" not in kinds(found)


def test_one_step_without_gain_among_rising_steps_is_low():
    found = ladder_findings(ladder_table([0.22, 0.3, 0.31], [(0.6, 0.03), (0.5, 0.03)]), "mcts", "iterations",
                            "builder", 4, TH)
    step = [f for f in found if f.kind == "ladder_step_no_gain"]
    assert len(step) == 1 and step[0].severity == "low" and step[0].text.startswith("128 iterations do not beat 32")


def test_pair_share_counts_the_seats_of_each_slot():
    # slot 0 at seat 0, slot 1 at seat 1, slot 2 at seats 2 and 3; slot 0 wins 2 games, slot 1 one
    games = pd.DataFrame({"winners": [0b0001, 0b0001, 0b0010, 0b0100, 0],
                          **{f"strategy_{s}": [min(s, 2)] * 5 for s in range(4)}})
    share, lo, hi = pair_share(games, 4, 0, 1)
    assert share == pytest.approx(2 / 3) and lo < share < hi


@pytest.mark.parametrize("text", ["8", "8,8", "32,8", "8,x", "0,8", "8,2.5"])
def test_bad_budgets_are_one_line(text):
    with pytest.raises(SimbalanceError, match="--budgets"):
        parse_budgets(text)


def test_budgets_parse():
    assert parse_budgets("8, 32,1e3") == [8, 32, 1000]


def test_the_ladder_end_to_end_on_captain_action(tmp_path):
    from simbalance.report.ladder_page import write_ladder_folder

    res = ladder("captain-action", "1,4,32", 1500, against="random")
    assert list(res.table["name"]) == ["mcts@1", "mcts@4", "mcts@32"]
    assert res.against == "random" and res.budget_param == "iterations"
    # against random players every budget wins more than its fair share, and no step loses to the
    # one before (captain-action is mostly decided by its first calls: with the root's sequential
    # halving, one iteration already weighs its own option against another, and the curve is
    # nearly flat; aquaman's ladder in docs/rules rises at every step)
    assert (res.table["ci_low"] > 0.25).all()
    assert (res.table["h2h_ci_high"].iloc[1:] > 0.5).all()
    folder = write_ladder_folder(res, tmp_path / "ladder", "simbalance ladder captain-action")
    html = (folder / "ladder.html").read_text()
    assert "id='findings'" in html and "id='ladder'" in html and "<img" in html
    assert json.loads((folder / "ladder.json").read_text())["ladder"][2]["budget"] == 32


def test_a_search_that_ignores_its_budget_is_found(monkeypatch):
    # Plant the bug: every budget's preset gets the same iterations. The ladder must say so.
    real = ladder_study.budget_preset
    monkeypatch.setattr(ladder_study, "budget_preset", lambda info, param, budget: real(info, param, 8))
    res = ladder("captain-action", "1,4,32", 3000, against="random")
    assert "ladder_flat" in kinds(res.findings())


def test_the_ladder_refuses_what_it_cannot_climb():
    with pytest.raises(SimbalanceError, match="no search players"):
        ladder("find-dr-evil", "1,2", 10)
    with pytest.raises(SimbalanceError, match="--against 'mcts'"):
        ladder("captain-action", "1,2", 10, against="mcts")
    with pytest.raises(SimbalanceError, match="--search 'builder'"):
        ladder("captain-action", "1,2", 10, search="builder")


def models_table(rows):
    cols = ["model", "games", "decided", "first_player", "fp_ci_low", "fp_ci_high", "favoured", "disfavoured"]
    return pd.DataFrame([dict(zip(cols, r, strict=True)) for r in rows], columns=cols)


def by_topic(found):
    return {c["topic"]: c for c in found}


def test_conclusions_that_hold_under_every_model():
    models = models_table([("random", 1000, 1000, 0.05, 0.03, 0.07, (0,), ()),
                           ("builder", 1000, 1000, 0.06, 0.04, 0.08, (0,), ())])
    said = by_topic(conclusions(models))
    assert all(c["verdict"] == "holds" for c in said.values())
    assert "advantage under every player model" in said["first player"]["text"]
    assert kinds(robustness_findings(list(said.values()), models, TH)) == {"robust_to_players"}


def test_a_first_player_effect_that_flips_is_high():
    models = models_table([("random", 1000, 1000, 0.05, 0.03, 0.07, (0,), (1,)),
                           ("builder", 1000, 1000, -0.06, -0.08, -0.04, (1,), (0,))])
    said = by_topic(conclusions(models))
    assert said["first player"]["verdict"] == "flips" and said["seats"]["verdict"] == "flips"
    assert said["first-player size"]["verdict"] == "differs"
    found = robustness_findings(list(said.values()), models, TH)
    assert {"players_flip_first_player", "players_flip_seats"} <= kinds(found)
    assert {f.severity for f in found if f.kind.startswith("players_flip")} == {"high"}
    assert "player 1: favoured with random, disfavoured with builder" in said["seats"]["text"]


def test_an_effect_shown_under_some_models_only_is_weaker():
    models = models_table([("random", 1000, 1000, 0.01, -0.01, 0.03, (), ()),
                           ("builder", 1000, 1000, 0.04, 0.02, 0.06, (0,), ())])
    said = by_topic(conclusions(models))
    assert said["first player"]["verdict"] == "weaker"
    assert "no measurable effect with random; an advantage with builder" in said["first player"]["text"]


def seats_table(shares: dict[str, list[float]], decided: dict[str, int]):
    rows = [{"model": m, "seat": s, "win_rate": r, "ci_low": np.nan, "ci_high": np.nan, "decided_games": decided[m]}
            for m, rates in shares.items() for s, r in enumerate(rates)]
    return pd.DataFrame(rows)


@pytest.mark.parametrize("strong, verdict, severity", [
    ([0.38, 0.23, 0.24, 0.15], "holds", None),  # the same gap, the same seats told apart
    ([0.26, 0.25, 0.25, 0.24], "smaller", "medium"),  # strong play rules out builder's 25 points
    ([0.15, 0.25, 0.25, 0.35], "reversed", "high"),  # clear of 0 the other way
    ([0.33, 0.25, 0.25, 0.17], "not settled", "low"),  # 60 games: neither
])
def test_the_seat_gap_under_strong_play_by_effect_size(strong, verdict, severity):
    """issue 53 item 4: robustness reads each model's seat gap against the search model's, by size."""
    games = 60 if verdict == "not settled" else 3000
    models = models_table([("builder", 20_000, 20_000, 0.15, 0.14, 0.16, (0,), (3,)),
                           ("mcts@100", games, games, strong[0] - 0.25, -0.5, 0.5, (), ())])
    seats = seats_table({"builder": [0.40, 0.25, 0.20, 0.15], "mcts@100": strong},
                        {"builder": 20_000, "mcts@100": games})
    gap = by_topic(conclusions(models, seats, ("mcts@100",)))["seat gap"]
    assert gap["verdict"] == verdict
    assert "all builder's gap (player 1 minus player 4, +25.0 points" in gap["text"]
    assert f"is {verdict.replace('holds', 'held')} under all mcts@100" in gap["text"]
    found = [f for f in robustness_findings([gap], models, TH) if "seat_gap" in f.kind]
    assert [f.severity for f in found] == ([severity] if severity else [])
    for f in found:  # its verdict kept (stats.held_up) and read again from its intervals
        assert [c.verdict for c in f.decided_by] == [verdict]
        check_claims(f)
    assert "seat gap" not in by_topic(conclusions(models))  # without a search model: nothing to read


def test_robustness_end_to_end_on_captain_action(tmp_path):
    from simbalance.report.robustness_page import write_robustness_folder

    res = robustness("captain-action", 3000, budget=8, search_n=200)
    assert list(res.models["model"]) == ["random", "builder", "bold", "collector", "mcts@8"]
    assert list(res.models["games"]) == [3000] * 4 + [200]
    # player 1 calls first: favoured whoever plays (the deliberate players call at once)
    assert by_topic(res.conclusions)["first player"]["verdict"] == "holds"
    seats = res.seats[res.seats["model"] == "builder"]
    assert np.isclose(seats["win_rate"].sum(), 1.0)  # every game decided: the seats' shares add up
    folder = write_robustness_folder(res, tmp_path / "rob", "simbalance robustness captain-action")
    html = (folder / "robustness.html").read_text()
    assert "id='conclusions'" in html and "all mcts@8" in html
    # 200 games do not bring every seat's CI within 3 points: the cap stopped it, and the page says so
    assert res.capped == ("mcts@8",) and "All mcts@8: the cap of 200 games stopped it before" in html
    saved = json.loads((folder / "robustness.json").read_text())
    assert saved["capped"] == ["mcts@8"] and saved["search_precision"] == 0.03 and saved["search_most"] == 200
    # each search model's fit (or the hand-written evaluation) in robustness.json, the manifest and the page
    assert list(saved["search_evaluations"]) == ["mcts@8"] and saved["search_evaluations"] == res.evaluations
    assert json.loads((folder / "manifest.json").read_text())["search_evaluations"] == res.evaluations
    assert "All mcts@8: its seats " in html
    with pytest.raises(SimbalanceError, match="--models: unknown strategy 'buidler'"):
        robustness("captain-action", 10, models="random,buidler")
    # a game without decisions has one player model: nothing to compare, said, never "holds under all 1"
    with pytest.raises(SimbalanceError, match=r"one player model only \(random\)"):
        robustness("find-dr-evil", 10)


def test_the_ladder_climbs_against_the_strongest_heuristic_by_default():
    from simbalance.studies.ladder import default_against

    heuristics = ["random", "flexible", "steer", "blocker"]
    assert default_against({"game": {"strategies": ["random"], "strongest": "blocker"}}, heuristics) == "blocker"
    assert default_against({"game": {"strategies": ["steer"]}}, heuristics) == "steer"
    assert default_against({"game": {"strategies": ["random"]}}, heuristics) == "flexible"
    with pytest.raises(SimbalanceError, match="game.strongest = 'blokker'"):
        default_against({"game": {"strongest": "blokker"}}, heuristics)


def with_yardstick(table, shares):
    """The planted ladder with head-to-head shares against the yardstick as (share, half) per budget."""
    table = table.copy()
    for i, (share, half) in enumerate(shares):
        table.loc[i, ["yard_share", "yard_ci_low", "yard_ci_high", "yard_games"]] = [share, share - half,
                                                                                     share + half, 1000]
    return table


def test_the_yardstick_findings():
    base = ladder_table([0.22, 0.28, 0.33], [(0.58, 0.03), (0.6, 0.03)])
    assert not {"search_beats_yardstick", "yardstick_beats_search", "yardstick_unclear"} & kinds(
        ladder_findings(base, "mcts", "iterations", "builder", 4, TH))  # no yardstick played: nothing said
    wins = ladder_findings(with_yardstick(base, [(0.5, 0.05), (0.6, 0.04), (0.62, 0.04)]), "mcts", "iterations",
                           "builder", 4, TH, yardstick="flat")
    beat = [f for f in wins if f.kind == "search_beats_yardstick"]
    assert len(beat) == 1 and "at 32, 128 iterations" in beat[0].text and "yardstick_beats_search" not in kinds(wins)
    loses = ladder_findings(with_yardstick(base, [(0.4, 0.05), (0.5, 0.04), (0.55, 0.1)]), "mcts", "iterations",
                            "builder", 4, TH, yardstick="flat")
    lost = [f for f in loses if f.kind == "yardstick_beats_search"]
    assert len(lost) == 1 and lost[0].severity == "high" and lost[0].text.startswith("flat beats mcts at 8 iterations")
    unclear = ladder_findings(with_yardstick(base, [(0.5, 0.05), (0.52, 0.06), (0.55, 0.1)]), "mcts", "iterations",
                              "builder", 4, TH, yardstick="flat")
    unbeaten = ladder_findings(ladder_table([0.22, 0.24, 0.25], [(0.58, 0.03), (0.6, 0.03)]), "mcts", "iterations",
                               "builder", 4, TH)
    assert "heuristic_unbeaten" in kinds(unbeaten)
    for f in [*wins, *loses, *unclear, *unbeaten]:  # every "beats" decided by its interval (issue 52 item 4)
        check_claims(f)
    assert {"yardstick_unclear"} == kinds(unclear) & {"search_beats_yardstick", "yardstick_beats_search",
                                                      "yardstick_unclear"}


def test_the_ladder_with_its_yardstick_end_to_end(tmp_path):
    from simbalance.report.ladder_page import write_ladder_folder

    res = ladder("captain-action", "2,16", 200, against="random", n_pairs=300, yardstick="flat")
    assert res.yardstick == "flat" and (res.table["yard_games"] == 300).all()
    assert res.table["yard_share"].between(0, 1).all()
    folder = write_ladder_folder(res, tmp_path / "ladder", "simbalance ladder captain-action --yardstick flat")
    html = (folder / "ladder.html").read_text()
    assert "head to head vs flat, same budget" in html
    assert json.loads((folder / "ladder.json").read_text())["yardstick"] == "flat"


def test_the_yardstick_preset_splits_its_budget_per_decision():
    from simbalance.core.lineup import all_strategies
    from simbalance.studies.run import plan_run

    base = plan_run("captain-action", 1)
    info = all_strategies(base.config, base.engine.strategies, base.engine.strategy_params)["flat"]
    preset = ladder_study.budget_preset(info, "playouts", 32, per_decision=True)
    assert preset["playouts"] == 32.0 and preset["per_decision"] == 1.0 and "per decision" in preset["idea"]
    assert "per option" in ladder_study.budget_preset(info, "playouts", 32)["idea"]


def test_a_bad_yardstick_is_one_line():
    with pytest.raises(SimbalanceError, match="--yardstick 'builder': not a one-step lookahead player"):
        ladder("captain-action", "1,2", 10, yardstick="builder")
    with pytest.raises(SimbalanceError, match="--yardstick flat: the yardstick is for the tree search"):
        ladder("captain-action", "1,2", 10, search="flat", yardstick="flat")


def test_robustness_takes_a_search_model_as_the_page_names_it():
    """Issue 41: --models mcts@32 was an unknown strategy unless --budget 32 was given too, though the
    page names the model so; the budget after @ is checked like --budget."""
    res = robustness("captain-action", 100, models="random,mcts@4", search_n=6, players=2)
    assert list(res.models["model"]) == ["random", "mcts@4"] and list(res.models["games"]) == [100, 6]
    with pytest.raises(SimbalanceError, match="--models mcts@0: the budget 0: allowed a whole number from 1"):
        robustness("captain-action", 10, models="random,mcts@0")
    with pytest.raises(SimbalanceError, match="--models mcts@lots: the budget after @ is a whole number"):
        robustness("captain-action", 10, models="random,mcts@lots")


def test_a_search_model_plays_until_its_precision():
    """Issue 38 item 3: a search model plays until every seat's 95% CI half-width is below
    --precision (core/execution's precision target, on growing chunks), --search-n the most."""
    from simbalance.core.execution import precision_reached

    res = robustness("captain-action", 200, models="random,mcts@8", precision=0.06)
    games = int(res.models.loc[res.models["model"] == "mcts@8", "games"].iloc[0])
    assert 100 <= games < 5000 and res.capped == () and res.search_n == 5000
    # the same games as a run of the same seed with that precision (the machinery is the run's)
    from simbalance.core.execution import RunOptions
    from simbalance.core.lineup import all_strategies
    from simbalance.core.rng import derive_seed
    from simbalance.studies.ladder import BUDGET_PARAMS, budget_preset
    from simbalance.studies.run import SimulationResult
    from simbalance.studies.settings import RunSettings

    settings = RunSettings.of("captain-action", seed=derive_seed(0, "robustness"))
    base = settings.plan(1)
    info = all_strategies(base.config, base.engine.strategies, base.engine.strategy_params)["mcts"]
    plan = settings.plan(5000, presets={"mcts@8": budget_preset(info, BUDGET_PARAMS["mcts"], 8)}, strategies=["mcts@8"])
    alone = SimulationResult.from_plan(plan, options=RunOptions(precision=0.06))
    assert alone.n_played == games and precision_reached(alone.aggregate, 0.06)
    with pytest.raises(SimbalanceError, match="--precision 0.5: allowed between 0 and 0.5"):
        robustness("captain-action", 10, precision=0.5)
