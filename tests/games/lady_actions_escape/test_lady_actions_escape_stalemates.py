"""Loop detection in lady-actions-escape (issue 21): the Dr. Evil chain of four `steer`s is ended
as a stalemate and named, at a fixed seed; such games never end otherwise; and the whole-game
metrics' progress measure is minus the cards held."""

import numpy as np

import simbalance
from simbalance.core.records import END_STALEMATE, END_TIMEOUT, END_WIN
from simbalance.games.lady_actions_escape import state_nb as S
from simbalance.studies.run import plan_run

SEED = 21  # four steers: games 1, 6, 7, 9, 10, 11 are Dr. Evil chains, game 3 a Dr. Evil / Lady Action cycle


def test_the_dr_evil_chain_is_detected_and_named():
    res = simbalance.simulate("lady-actions-escape", 12, seed=SEED, strategies="steer")
    g = res.games
    chain = g.index[g["stalemate_reason"] == S.R_DR_EVIL_CHAIN].tolist()
    assert chain == [1, 6, 7, 9, 10, 11]
    assert g.loc[3, "stalemate_reason"] == S.R_EVIL_LADY_CYCLE
    assert (g.loc[chain, "end"] == END_STALEMATE).all() and (g.loc[chain, "winner"] == -1).all()
    # the window (1,000 turns by default) of turns without progress, then the game ends
    assert (g.loc[chain, "longest_stall"] == 1000).all()
    # almost every turn a Dr. Evil and a reshuffle: penalty draws pull the discard pile back
    assert (g.loc[chain, "draw_twos"] > 0.8 * g.loc[chain, "length"]).all()
    assert (g.loc[chain, "reshuffles"] > 0.8 * g.loc[chain, "length"]).all()
    rows = {row["reason"]: row for row in res.summary()["stalemates"]}
    assert rows["dr-evil-chain"]["games"] == 6 and rows["dr-evil-chain"]["code"] == S.R_DR_EVIL_CHAIN
    assert rows["dr-evil-chain"]["description"].startswith("dr-evil chain: ")
    assert "penalty draws recycle the discard pile" in rows["dr-evil-chain"]["description"]
    assert rows["dr-evil-lady-action-cycle"]["games"] == 1


def test_the_replay_names_the_chain_and_its_turns_are_dr_evils():
    plan = plan_run("lady-actions-escape", 12, seed=SEED, strategies="steer")
    record, events = plan.engine.trace(plan, 1)
    assert record["stalemate_reason"][0] == S.R_DR_EVIL_CHAIN
    last = events[events[:, 0] == S.EV_STALEMATE]
    assert last.tolist() == [[S.EV_STALEMATE, S.R_DR_EVIL_CHAIN, 1000, 0]]
    turns = np.cumsum(events[:, 0] == S.EV_TURN)
    stalled = turns > record["length"][0] - 1000
    evils = int((events[stalled, 0] == S.EV_DRAW_EFFECT).sum())
    assert evils >= 2 * 1000 // 3  # the reason's rule: two thirds of the window's turns or more
    text = "\n".join(plan.engine.replay(plan, 1))
    assert "No progress for 1000 turns" in text and "Reason dr-evil-chain: dr-evil chain:" in text


def test_without_the_window_the_chains_never_end():
    """The same games without loop detection: every stalemate of the window runs to the cap, at
    5,000 turns and at 50,000 alike; every other game is the same game, field for field."""
    on = simbalance.simulate("lady-actions-escape", 12, seed=SEED, strategies="steer").records
    for cap in (5_000, 50_000):
        off = simbalance.simulate("lady-actions-escape", 12, seed=SEED, strategies="steer",
                                  overrides={"rules.stalemate_window": 0, "rules.turn_cap": cap}).records
        stalled = on["end"] == END_STALEMATE
        assert (off["end"][stalled] == END_TIMEOUT).all() and (off["length"][stalled] == cap).all()
        assert off[~stalled].tobytes() == on[~stalled].tobytes()


def test_the_progress_measure_is_minus_the_cards_held():
    res = simbalance.simulate("lady-actions-escape", 300, seed=3)
    g = res.games
    won = g[g["end"] == END_WIN]
    # the winner holds no card at the end: it leads alone, by the fewest cards of the others
    fewest = np.min([won[f"cards_left_{s}"].where(won["winner"] != s, 99) for s in range(4)], axis=0)
    assert (won["final_margin"] == fewest).all()
    assert (won["led_from"] <= won["length"]).all() and (won["led_from"] > 0).all()
    # a round: four turns, checked when the next turn begins; then the end (a round that ends the
    # game is checked once, as its end)
    assert (g["checkpoints"] == (g["length"] - 1) // 4 + 1).all()
    assert res.summary()["lead"]["progress"] == res.plan.engine.progress
