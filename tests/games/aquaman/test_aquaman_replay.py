"""aquaman replays: the replayed game is exactly game I of the run, told in words."""

from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

import simbalance
from simbalance.api import plan_run
from simbalance.cli.main import app
from simbalance.games.aquaman import state_nb as e
from simbalance.games.aquaman.replay import replay, trace

SETUPS = [
    dict(players=4, strategies=None, rotate=False, overrides={}),
    dict(players=4, strategies=["raider", "random", "runner", "random"], rotate=True, overrides={}),
    dict(players=3, strategies=["random", "raider", "random"], rotate=True,
         overrides={"rules.fight_ties": "once", "rules.activated_card": "before", "rules.legs": "turn",
                    "dice.count": 3, "rules.leg_off_board": "clamp", "rules.cannot_reveal": "loses"}),
    dict(players=2, strategies=["random", "raider"], rotate=True,
         overrides={"rules.cannot_reveal": "draws", "rules.adjacency": "king", "rules.reshuffle": False}),
    dict(players=4, strategies=["random"], rotate=False, overrides={"rules.turn_cap": 30}),  # timeouts
]


@pytest.mark.parametrize("setup", SETUPS)
def test_replay_plays_exactly_the_runs_game(setup):
    n = 40
    res = simbalance.simulate("aquaman", n, seed=11, **setup)
    plan = plan_run("aquaman", n, seed=11, **setup)
    players = plan.players
    for game in (0, 1, 13, 39):
        rec = res.records[game]
        out, events = trace(plan, game)
        for field in rec.dtype.names:  # every field: winner(s), length, missions, fights, power uses, ...
            assert np.array_equal(out[0][field], rec[field]), (game, field)
        kinds = events[:, 0]
        count = lambda rows, col=1: np.bincount(rows[:, col], minlength=players).tolist()  # noqa: E731
        record = lambda field: [int(rec[field][s]) for s in range(players)]  # noqa: B023, E731
        assert (kinds == e.EV_TURN).sum() == rec["length"]
        assert count(events[kinds == e.EV_MISSION]) == record("missions")
        assert count(events[kinds == e.EV_TAKE]) == record("taken")
        assert count(events[kinds == e.EV_STEAL]) == record("stolen")
        fights = events[kinds == e.EV_FIGHT]
        assert (np.array(count(fights, 1)) + np.array(count(fights, 2))).tolist() == record("fights")
        ends = events[(kinds == e.EV_FIGHT_END) & (events[:, 3] >= 0)]
        assert count(ends, 3) == record("fights_won")
        assert count(events[(kinds == e.EV_FOE) & (events[:, 4] == 1)]) == record("foe_hits")
        for p, power in enumerate(e.POWER_NAMES):
            assert count(events[(kinds == e.EV_ACTIVATE) & (events[:, 3] == p)]) == record(f"use_{power}")
        assert (events[-1, 5] if len(events) else 0) == rec["refills"]
        lines = replay(plan, game)  # raises if the hands it follows do not end as the record's
        assert sum(line.startswith("Turn ") for line in lines) == rec["length"]
        if rec["winner"] >= 0:
            assert f"Player {rec['winner'] + 1} wins with 3 missions on turn {rec['length']}." in lines
        else:
            assert f"The turn cap ({rec['length']} turns) ends the game: nobody wins." in lines


def test_replay_tells_every_kind_of_event():
    # Over a few games every power, fight, steal, mission, discard and deck refill is told.
    plan = plan_run("aquaman", 1, seed=3, strategies=["random", "raider", "random", "runner"], rotate=True,
                    overrides={"rules.hand_limit": 6})
    text = "\n".join(line for game in range(8) for line in replay(plan, game))
    # missions are rare with a hand limit of 6: one game of the same lineup with the default limit
    text += "\n".join(replay(plan_run("aquaman", 1, seed=3, strategies=["random", "raider", "random", "runner"],
                                      rotate=True), 0))
    for words in ("power aquaman", "power companion", "power sea_creature", "power plot", "power foe",
                  "power power", "power strangeness", "power location", "rolls ", "order and directions chosen",
                  "one way there", " reveals ", " steals ", " wins the fight", "completes mission",
                  "hand limit: discards", "the deck ran out", "takes ", " refills the square", "a tie", "skipped",
                  "no card to reveal: the fight ends before the reveal"):
        assert words in text, words


def test_replay_shows_the_random_players_legs():
    plan = plan_run("aquaman", 1, seed=5, strategies=["random"])
    lines = replay(plan, 0)
    rolls = [i for i, line in enumerate(lines) if line.startswith("  rolls ")]
    assert rolls
    for i in rolls:
        dice = lines[i][len("  rolls "):-1].split(", ")
        swim = lines[i + 1]
        legs = swim[swim.index("chosen: ") + len("chosen: "):-2].split("; ")
        assert sorted(leg.split()[0] for leg in legs) == sorted(dice)


def test_replay_command_prints_the_game():
    args = ["replay", "aquaman", "--seed", "4", "--game", "2", "--players", "3", "--strategies",
            "runner,random,raider", "--rotate"]
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 0, (res.output, res.exception)
    lines = res.output.splitlines()
    assert lines[0].startswith("aquaman, game 2 of seed 4, 3 players: player 1 (random) starts at (0,0)")
    assert lines[1] == "The board:"
    assert lines[10].startswith("Player 1 (random) is dealt: ")
    assert lines[13].startswith("Turn 1, player 1 (random), hand: ")
    g = simbalance.simulate("aquaman", 3, players=3, seed=4, strategies=["runner", "random", "raider"],
                            rotate=True).records[2]
    assert f"Player {g['winner'] + 1} wins with 3 missions on turn {g['length']}." in lines
