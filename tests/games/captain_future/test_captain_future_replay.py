"""captain-future replays: the replayed game is exactly game I of the run, told move by move."""

from __future__ import annotations

import re

import numpy as np
import pytest
from typer.testing import CliRunner

import simbalance
from simbalance.api import plan_run
from simbalance.cli.main import app
from simbalance.core.errors import SimbalanceError
from simbalance.core.records import END_STALEMATE, END_TIMEOUT, END_WIN
from simbalance.games.captain_future import state_nb as R
from simbalance.games.captain_future.engine import replay
from simbalance.games.captain_future.replay import trace

SETUPS = [
    dict(players=4, strategies=None, rotate=False, overrides={}),  # builder x 4
    dict(players=4, strategies=["random"], rotate=False, overrides={}),
    dict(players=3, strategies=["aggressor", "builder", "random"], rotate=True, overrides={}),
    dict(players=2, strategies=["random", "aggressor"], rotate=True, overrides={}),
    dict(players=4, strategies=["builder", "aggressor", "random", "aggressor"], rotate=True,
         overrides={"rules.stone_start": "anywhere", "rules.events_per_turn": 2, "rules.actions_per_turn": 3}),
    dict(players=3, strategies=["random", "builder", "aggressor"], rotate=False,
         overrides={"rules.reshuffle_discards": False}),  # stalemates
    dict(players=4, strategies=["random"], rotate=False, overrides={"rules.turn_cap": 40}),  # timeouts
]


@pytest.mark.parametrize("setup", SETUPS)
def test_replay_plays_exactly_the_runs_game(setup):
    n = 40
    res = simbalance.simulate("captain-future", n, seed=11, **setup)
    plan = plan_run("captain-future", n, seed=11, **setup)
    players = plan.players
    for game in (0, 1, 13, 39):
        rec = res.records[game]
        out, events = trace(plan, game)
        for field in rec.dtype.names:  # every field: scores, length, end, ships, attacks, events, masks, ...
            assert np.array_equal(out[0][field], rec[field]), (game, field)
        kinds = events[:, 0]

        def per_seat(rows, col=1):
            return np.bincount(rows[:, col], minlength=players)[:players].tolist()

        def record(field):
            return [int(rec[field][s]) for s in range(players)]  # noqa: B023

        assert (kinds == R.EV_TURN).sum() == rec["length"]
        assert events[-1].tolist()[:3] == [R.EV_END, rec["end"], rec["length"]]
        for ev, field in ((R.EV_SIMON, "simon_wright"), (R.EV_RECALL, "recall"), (R.EV_OTTO, "otto"),
                          (R.EV_GRAG, "grag"), (R.EV_EXCHANGE, "exchanges")):
            assert (kinds == ev).sum() == rec[field], (game, field)
        attacks = events[kinds == R.EV_ATTACK]
        for cat, field in enumerate(("attacks_majority", "attacks_present", "attacks_absent")):
            assert per_seat(attacks[attacks[:, 4] == cat]) == record(field), (game, field)
        assert per_seat(attacks, 3) == record("ships_lost")
        triggers = events[kinds == R.EV_TRIGGER]
        assert triggers[:, 1].tolist() == ([rec["end_seat"]] if rec["end_seat"] >= 0 else [])
        # the words: every turn, in order, and the end (the text raises if it lost track of the board)
        lines = replay(plan, game)
        turns = [int(m.group(1)) for line in lines if (m := re.match(r"Turn (\d+)[ ,]", line))]
        assert turns == list(range(1, rec["length"] + 1))
        if rec["end"] == END_WIN:
            top = max(record("score"))
            winners = [s for s in range(players) if rec["score"][s] == top]
            assert lines[-1] == (f"Player {winners[0] + 1} ({plan.lineup.slot_names[rec['strategy'][winners[0]]]}) wins "
                                 f"with {top} points." if len(winners) == 1 else
                                 f"Players {', '.join(str(q + 1) for q in winners)} tie with {top} points and share the win.")
        elif rec["end"] == END_TIMEOUT:
            assert f"The turn cap ({rec['length']} turns) ends the game: a timeout, nobody wins (scores as they " \
                   "stand)." in lines
        else:
            assert rec["end"] == END_STALEMATE
            assert any("a stalemate, nobody wins" in line for line in lines)
        for s in range(players):
            assert any(line.startswith(f"  player {s + 1} (") and f": {rec['score'][s]} point" in line for line in lines)


def test_replay_tells_every_kind_of_event():
    plan = plan_run("captain-future", 3, seed=5, strategies=["random"])
    text = "\n".join(line for game in range(3) for line in replay(plan, game))
    for words in ("The deal:", "The secret stone starts on", "lands on ", " with the row ", " with the column ",
                  " with a joker", "attacks ", "as the majority holder", "with a ship of its own there",
                  "with no ship of its own there", "exchanges ", "plays Simon Wright: the secret stone moves from",
                  "plays Recall: every player sends", "plays Otto: its ship on", "plays GRAG: a ship from its supply",
                  "goes back to its supply", "placed its last ship: everyone else plays one more turn", "(final round)",
                  "the stack ran out", "is conquered", "draws ", "in full control", "has the majority", "Scores:"):
        assert words in text, words
    stalled = plan_run("captain-future", 1, seed=5, players=3, strategies=["random", "builder", "aggressor"],
                       overrides={"rules.reshuffle_discards": False})
    text = "\n".join(replay(stalled, 0))
    assert "can do nothing legal: passes its 2 action slots." in text and "the stack is empty: its hand stays" in text


def test_replay_command_prints_a_readable_game():
    res = CliRunner().invoke(app, ["replay", "captain-future", "--seed", "3", "--game", "5"])
    assert res.exit_code == 0, (res.output, res.exception)
    lines = res.output.splitlines()
    assert lines[0].startswith("captain-future, game 5 of seed 3, 4 players: player 1 (aggressor), player 2 (aggressor)")
    assert lines[1] == "The deal:" and lines[2].startswith("  player 1 (aggressor): ")
    assert lines[6].startswith("The secret stone starts on ")
    assert lines[7].startswith("Turn 1, player 1 (aggressor): 0 points, 30 ships in supply; hand: ")
    rec = simbalance.simulate("captain-future", 6, seed=3).records[5]
    assert f"The game ends after {rec['length']} turns." in lines
    assert sum(line.startswith("Turn ") for line in lines) == rec["length"]


def test_an_out_of_range_game_is_a_clean_error():
    res = CliRunner().invoke(app, ["replay", "captain-future", "--seed", "3", "--game", "-1"])
    assert res.exit_code == 2 and res.output.strip() == "error: --game -1: game indices start at 0"
    res = CliRunner().invoke(app, ["replay", "captain-future", "--game", str(2**64)])
    assert res.exit_code == 2 and res.output.startswith(f"error: game {2**64}: out of range")
    plan = plan_run("captain-future", 10, seed=3)
    for bad in (10, -1, 2**70):
        with pytest.raises(SimbalanceError, match="out of range; the run has games 0 to 9"):
            replay(plan, bad)
    with pytest.raises(SimbalanceError, match="expected a game index"):
        replay(plan, 1.5)


def test_a_long_game_outgrows_the_first_log():
    # No attack is affordable and nobody can run out of ships: a timeout after 1000 turns (without
    # loop detection, which ends such a game as a stalemate: test_captain_future_stalemates.py).
    kw = dict(strategies=["random"], overrides={"ships.4": 120, "rules.turn_cap": 1000, "rules.attack_cost_majority": 10,
                                                "rules.attack_cost_present": 10, "rules.attack_cost_absent": 10,
                                                "rules.stalemate_window": 0})
    rec = simbalance.simulate("captain-future", 1, seed=2, **kw).records[0]
    plan = plan_run("captain-future", 1, seed=2, **kw)
    out, events = trace(plan, 0)
    assert len(events) > 4096 and rec["end"] == END_TIMEOUT  # more than the first log held
    assert np.array_equal(out[0], rec)
    assert sum(line.startswith("Turn ") for line in replay(plan, 0)) == 1000
