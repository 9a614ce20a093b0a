"""captain-action replays: the replayed game is exactly game I of the run, told in words."""

import numpy as np
import pytest
from typer.testing import CliRunner

import simbalance
from simbalance.api import plan_run
from simbalance.cli.main import app
from simbalance.games.captain_action import state_nb as r
from simbalance.games.captain_action.replay import replay, trace

SETUPS = [
    dict(players=4, strategies=["random"], rotate=False, overrides={}),
    dict(players=4, strategies=["builder", "random", "bold", "random"], rotate=True, overrides={}),
    dict(players=3, strategies=["builder", "random", "random"], rotate=True,
         overrides={"strategies.random.call": 0.0, "rules.call_timing": "before_draw", "rules.take_back": True}),
    dict(players=2, strategies=["random"], rotate=False,
         overrides={"strategies.random.call": 0.0, "rules.countdown_penalty": 5, "rules.penalty_to": "last_drawer"}),
    dict(players=2, strategies=["random"], rotate=False, overrides={"strategies.random.call": 0.0,
                                                                    "rules.turn_cap": 4}),  # timeouts
]


@pytest.mark.parametrize("setup", SETUPS)
def test_replay_plays_exactly_the_runs_game(setup):
    n = 60
    res = simbalance.simulate("captain-action", n, seed=11, **setup)
    plan = plan_run("captain-action", n, seed=11, **setup)
    for game in (0, 1, 7, 37, 59):
        rec = res.records[game]
        out, events = trace(plan, game)
        assert out[0] == rec  # every field: winner(s), length, caller, scores, hands, ...
        kinds = events[:, 0]
        assert (kinds == r.EV_DISCARD).sum() == rec["length"]
        assert (kinds == r.EV_CALL).sum() == (rec["caller"] >= 0)
        assert (kinds == r.EV_COUNTDOWN_OUT).sum() == rec["countdown_out"]
        takes = np.bincount(events[kinds == r.EV_TAKE, 1], minlength=plan.players)
        assert takes.tolist() == [int(rec["takes"][s]) for s in range(plan.players)]
        scores = events[kinds == r.EV_SCORE]
        assert scores[:, 2].tolist() == [int(rec["hand_score"][s]) for s in range(plan.players)]
        assert scores[:, 3].tolist() == [int(rec["score"][s]) for s in range(plan.players)]
        lines = replay(plan, game)
        if rec["winner"] >= 0:
            assert lines[-1].startswith(f"Player {rec['winner'] + 1} (") and " wins with " in lines[-1]
        elif rec["end"] == 0:
            assert " tie with " in lines[-1]
        else:
            assert lines[-1] == "A timeout: nobody wins."


def test_replay_follows_every_card():
    # The hands the replay rebuilds from its events are the hands the record ends with.
    setup = dict(strategies=["builder", "random", "random", "random"], rotate=True,
                 overrides={"strategies.random.call": 0.05})
    plan = plan_run("captain-action", 1, seed=2, **setup)
    for game in range(6):
        out, events = trace(plan, game)
        hands = {s: set() for s in range(4)}
        for ev, a, b, _ in events.tolist():
            if ev in (r.EV_DEAL, r.EV_DRAW, r.EV_TAKE):
                hands[a].add(b)
            elif ev == r.EV_DISCARD:
                hands[a].remove(b)
        for s in range(4):
            assert sum(1 << c for c in hands[s]) == int(out[0]["hand_mask"][s])


def test_replay_command_prints_the_game():
    res = CliRunner().invoke(app, ["replay", "captain-action", "--seed", "2", "--game", "3", "--strategies",
                                   "builder,random,random,random", "--rotate"])
    assert res.exit_code == 0, (res.output, res.exception)
    lines = res.output.splitlines()
    assert lines[0].startswith("captain-action, game 3 of seed 2, 4 players; player 1 starts")
    assert lines[1].startswith("Player 1 is dealt 8 cards: ")
    assert lines[5].startswith("The Countdown Deck holds 10 cards; ")
    assert lines[6].startswith("Turn 1, player 1 (")
    g = simbalance.simulate("captain-action", 4, seed=2, strategies=["builder", "random", "random", "random"],
                            rotate=True).records[3]
    assert lines[-1].startswith(f"Player {g['winner'] + 1} (") and f"with {g['score'][g['winner']]} points" in lines[-1]
