"""Loop detection and the whole-game metrics in aquaman (issue 21)."""

import numpy as np

import simbalance
from simbalance.core.records import END_STALEMATE, END_TIMEOUT, END_WIN
from simbalance.games.aquaman.state_nb import R_NO_MISSION
from simbalance.studies.run import plan_run

NO_RESHUFFLE = {"rules.reshuffle": False}  # an empty deck stays empty: some tables run out of cards to collect


def test_a_table_with_nothing_left_to_collect_is_a_named_stalemate():
    res = simbalance.simulate("aquaman", 300, seed=1, overrides=NO_RESHUFFLE)
    g = res.games
    stalled = g[g["end"] == END_STALEMATE]
    assert 3 <= len(stalled) <= 30
    assert (stalled["stalemate_reason"] == R_NO_MISSION).all() and (stalled["longest_stall"] == 800).all()
    assert (g.loc[g["end"] != END_STALEMATE, "end"] == END_WIN).all()
    (row,) = res.summary()["stalemates"]
    assert row["reason"] == "no-mission" and row["games"] == len(stalled)
    off = simbalance.simulate("aquaman", 300, seed=1, overrides={**NO_RESHUFFLE, "rules.stalemate_window": 0})
    assert (off.records["end"][stalled.index] == END_TIMEOUT).all()
    kept = g["end"] != END_STALEMATE
    assert off.records[kept.to_numpy()].tobytes() == res.records[kept.to_numpy()].tobytes()
    plan = plan_run("aquaman", 300, seed=1, overrides=NO_RESHUFFLE)
    text = "\n".join(plan.engine.replay(plan, int(stalled.index[0])))
    assert "No progress for 800 turns (rules.stalemate_window): a stalemate, reason no-mission" in text


def test_the_progress_measure_counts_missions_first():
    res = simbalance.simulate("aquaman", 200, seed=2)
    g = res.games
    won = g[g["end"] == END_WIN]
    assert (won["led_from"] <= won["length"]).all() and (won["final_margin"] > 0).all()
    # the winner's third mission is worth more than any hand of two missions: 3 x 9 > 2 x 9 + 8
    missions = won[[f"missions_{s}" for s in range(4)]].to_numpy()
    others = np.sort(missions, axis=1)[:, -2]
    assert (won["final_margin"] >= 9 * (3 - others) - 8).all()
    assert (g["checkpoints"] == (g["length"] - 1) // 4 + 1).all()
