"""Loop detection and the whole-game metrics in captain-future (issue 21)."""

import numpy as np

import simbalance
from simbalance.core.records import END_STALEMATE, END_TIMEOUT, END_WIN
from simbalance.games.captain_future.state_nb import R_NO_PROGRESS
from simbalance.studies.run import plan_run

SMALL = {"rules.stalemate_window": 12}  # random players go a dozen turns without progress now and then


def test_a_stretch_without_progress_is_a_named_stalemate():
    res = simbalance.simulate("captain-future", 20, seed=1, strategies="random", overrides=SMALL)
    g = res.games
    stalled = g[g["end"] == END_STALEMATE]
    assert len(stalled) >= 5
    assert (stalled["stalemate_reason"] == R_NO_PROGRESS).all() and (stalled["longest_stall"] == 12).all()
    (row,) = res.summary()["stalemates"]
    assert row["reason"] == "no-progress" and row["games"] == len(stalled)
    plan = plan_run("captain-future", 20, seed=1, strategies="random", overrides=SMALL)
    text = "\n".join(plan.engine.replay(plan, int(stalled.index[0])))
    assert "12 of them without progress (rules.stalemate_window): a stalemate, reason no-progress" in text
    # the same games without loop detection: those stalemates go on (here they all end)
    off = simbalance.simulate("captain-future", 20, seed=1, strategies="random",
                              overrides={"rules.stalemate_window": 0}).records
    assert np.isin(off["end"][stalled.index], [END_WIN, END_TIMEOUT]).all()
    assert off["end"][g["end"] != END_STALEMATE].tobytes() == res.records["end"][g["end"] != END_STALEMATE].tobytes()


def test_the_progress_measure_is_the_score():
    res = simbalance.simulate("captain-future", 60, seed=2)
    g = res.games
    won = g[(g["end"] == END_WIN) & (g["winner"] >= 0)]
    scores = won[[f"score_{s}" for s in range(4)]].to_numpy()
    second = np.sort(scores, axis=1)[:, -2]
    assert (won["final_margin"] == scores.max(axis=1) - second).all()
    assert (won["led_from"] <= won["length"]).all()
    assert (g["checkpoints"] == (g["length"] - 1) // 4 + 1).all()  # rounds of four turns, then the end


def test_a_full_board_without_affordable_attacks_is_a_stalemate_not_a_timeout():
    """Every landing space taken, every attack too dear, nobody out of ships: the players exchange
    cards for ever. Without loop detection the game runs to the cap."""
    kw = {"ships.4": 120, "rules.turn_cap": 1000, "rules.attack_cost_majority": 10,
          "rules.attack_cost_present": 10, "rules.attack_cost_absent": 10}
    rec = simbalance.simulate("captain-future", 1, seed=2, strategies="random", overrides=kw).records[0]
    assert rec["end"] == END_STALEMATE and rec["stalemate_reason"] == R_NO_PROGRESS and rec["length"] < 300
    off = simbalance.simulate("captain-future", 1, seed=2, strategies="random",
                              overrides={**kw, "rules.stalemate_window": 0}).records[0]
    assert off["end"] == END_TIMEOUT and off["length"] == 1000
