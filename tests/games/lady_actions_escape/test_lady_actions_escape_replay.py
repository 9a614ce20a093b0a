"""lady-actions-escape replays: the replayed game is exactly game I of the run, told in words."""

import numpy as np
import pytest
from typer.testing import CliRunner

import simbalance
from simbalance.api import plan_run
from simbalance.cli.main import app
from simbalance.games.lady_actions_escape import state_nb as r
from simbalance.games.lady_actions_escape.replay import replay, trace

SETUPS = [
    dict(players=4, strategies=["random"], rotate=False, overrides={}),
    dict(players=4, strategies=["blocker", "random", "flexible", "random"], rotate=True, overrides={}),
    dict(players=3, strategies=["steer", "random", "random"], rotate=True,
         overrides={"rules.hand_size": 3, "rules.draw_penalty": 4}),
    dict(players=2, strategies=["random"], rotate=False, overrides={"rules.turn_cap": 40}),  # timeouts
]


@pytest.mark.parametrize("setup", SETUPS)
def test_replay_plays_exactly_the_runs_game(setup):
    n = 60
    res = simbalance.simulate("lady-actions-escape", n, seed=11, **setup)
    plan = plan_run("lady-actions-escape", n, seed=11, **setup)
    for game in (0, 1, 7, 37, 59):
        out, events = trace(plan, game)
        assert out[0] == res.records[game]  # every field: winner, length, plays, draws, cards left, ...
        played = np.bincount(events[events[:, 0] == r.EV_PLAY, 1], minlength=plan.players)
        assert played.tolist() == [int(res.records[game]["plays"][s]) for s in range(plan.players)]
        assert (events[:, 0] == r.EV_TURN).sum() == res.records[game]["length"]
        lines = replay(plan, game)
        winner = int(res.records[game]["winner"])
        if winner >= 0:
            assert lines[-2].startswith(f"Player {winner + 1} has played its last card") and "wins after" in lines[-2]
        else:
            assert "nobody wins" in lines[-2]


def test_replay_logs_every_card_movement_of_a_long_game():
    # A long game: draws, Dr. Evil penalties and reshuffles; the log accounts for every card.
    plan = plan_run("lady-actions-escape", 1, seed=3, strategies=["blocker", "random", "random", "random"],
                    rotate=True)
    out, events = trace(plan, 20)  # engine v2; with v1 game 2 was this long
    assert out[0]["reshuffles"] > 0 and len(events) > 4096  # more than the first log held
    kinds = events[:, 0]
    assert (kinds == r.EV_RESHUFFLE).sum() == out[0]["reshuffles"]
    assert (kinds == r.EV_REVERSE).sum() == out[0]["reversals"]
    assert (kinds == r.EV_DRAW_EFFECT).sum() == out[0]["draw_twos"]
    assert (kinds == r.EV_NAME).sum() == out[0]["wilds_played"]
    for s in range(4):
        dealt = ((kinds == r.EV_DEAL) & (events[:, 1] == s)).sum()
        drew = ((kinds == r.EV_DRAW) & (events[:, 1] == s)).sum()
        assert drew == out[0]["drawn"][s]
        assert dealt + drew - out[0]["plays"][s] == out[0]["cards_left"][s]


def test_replay_command_prints_the_game():
    res = CliRunner().invoke(app, ["replay", "lady-actions-escape", "--seed", "4", "--game", "3", "--strategies",
                                   "flexible,random,random,random", "--rotate"])
    assert res.exit_code == 0, (res.output, res.exception)
    lines = res.output.splitlines()
    assert lines[0] == "lady-actions-escape, game 3 of seed 4, 4 players; player 1 leads, play starts clockwise."
    assert lines[1].startswith("Player 1 is dealt 5 cards: ")
    assert any(line.startswith("Turn 1, player 1 (") and " leads " in line for line in lines)
    g = simbalance.simulate("lady-actions-escape", 4, seed=4, strategies=["flexible", "random", "random", "random"],
                            rotate=True).records[3]
    assert f"wins after {g['length']} turns." in res.output and f"player {g['winner'] + 1} (" in lines[-2]
