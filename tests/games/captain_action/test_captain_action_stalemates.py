"""Loop detection in captain-action (issue 21): players who never draw from the Countdown Deck and
never call are ended as a stalemate named ``discard-loop``; the progress measure is the hand's sets."""

import simbalance
from simbalance.core.records import END_STALEMATE, END_TIMEOUT, END_WIN
from simbalance.games.captain_action.state_nb import R_DISCARD_LOOP
from simbalance.studies.run import plan_run

# builders that take the discard pile's top card whatever it brings and never call
LOOP = {"strategies.builder.take_gain": -100, "strategies.builder.call_score": 1000}


def test_a_table_that_only_takes_the_discard_pile_is_a_named_stalemate():
    res = simbalance.simulate("captain-action", 200, seed=3, overrides=LOOP)
    g = res.games
    stalled = g[g["end"] == END_STALEMATE]
    assert len(stalled) >= 190
    assert (stalled["stalemate_reason"] == R_DISCARD_LOOP).all() and (stalled["winner"] == -1).all()
    assert (stalled["longest_stall"] == 100).all()  # the default window
    assert (stalled["countdown_left"] == 10).all()  # nobody ever drew from the Countdown Deck
    (row,) = res.summary()["stalemates"]
    assert row["reason"] == "discard-loop" and row["games"] == len(stalled)
    off = simbalance.simulate("captain-action", 200, seed=3, overrides={**LOOP, "rules.stalemate_window": 0})
    assert (off.records["end"][g["end"] == END_STALEMATE] == END_TIMEOUT).all()


def test_the_replay_tells_the_stalemate():
    plan = plan_run("captain-action", 1, seed=3, overrides=LOOP)
    text = "\n".join(plan.engine.replay(plan, 0))
    assert "No Countdown card drawn in 100 turns" in text and "reason discard-loop" in text
    assert text.endswith("A stalemate: nobody wins.")


def test_the_progress_measure_is_the_hands_sets_and_the_final_score():
    res = simbalance.simulate("captain-action", 2000, seed=4, strategies="collector")
    g = res.games
    won = g[(g["end"] == END_WIN) & (g["winner"] >= 0)]
    best_other = won[[f"score_{s}" for s in range(4)]].apply(
        lambda row: sorted(row)[-2], axis=1)
    assert (won["final_margin"] == won[[f"score_{s}" for s in range(4)]].max(axis=1) - best_other).all()
    assert (won["led_from"] <= won["length"]).all()
    # collectors wait three turns each: every game reaches round 2, so the leader then is recorded
    assert (g["leader_round_2"] != -2).all()
