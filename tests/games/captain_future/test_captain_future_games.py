"""captain-future: whole games: the end sequence, invariants over many games, strategies, records."""

from __future__ import annotations

import math

import numpy as np
import pytest
from captain_future_helpers import Table, deck_order

import simbalance
from simbalance.core.records import END_TIMEOUT, END_WIN, win_shares
from simbalance.core.rng import seed_game
from simbalance.games.captain_future import state_nb as X
from simbalance.games.captain_future.play_nb import deal_and_begin, play_on
from simbalance.games.captain_future.state_nb import HEURISTIC_PARAMS, STONE_BODY

RANDOM, BUILDER, AGGRESSOR = 0, 1, 2
# A builder's parameters, one per name the heuristics read (HEURISTIC_PARAMS): the row must be that
# long, or the kernel reads past it.
PARAMS = np.array([0.5, 0.5, 0.6, 0.45, 0.1, 2.0, 2.0, 1.5, 3.0, 1.0, 1.0, 0.0])
assert len(PARAMS) == len(HEURISTIC_PARAMS)


def play_traced(t: Table, seed: int, cap: int = 400):
    """Play one game on ``t`` decision by decision, noting every turn; returns (end, turns, trace,
    order). A trace row per turn: seat, landings, attacks by category (3), the largest attack cost
    paid, the event played (0..3, -1 none), supply after the turn, the end seat after it, 1 in the
    final round."""
    seed_game(t.rng, np.uint64(seed), np.int64(0))
    order = deck_order(t.bd, t.rng)
    buf = np.zeros(X.ML, np.int64)
    seat_prm = np.tile(PARAMS, (t.players, 1))
    st = t.st
    deal_and_begin(t.bd, st, t.fs, t.rng, order, STONE_BODY, 0)
    rows = []
    while st[X.PHASE] != X.PH_OVER and len(rows) < cap:
        turn, seat, final = int(st[X.TURN]), int(st[X.SEAT]), int(st[X.FINAL_LEFT] > 0)
        att0 = st[X.ATT + seat * 4:X.ATT + seat * 4 + 3].copy()
        lands0, ev0 = int(st[X.LANDS]), st[X.EV:X.EV + 4].copy()
        while st[X.TURN] == turn and st[X.PHASE] != X.PH_OVER:
            play_on(t.bd, st, t.fs, buf, t.rng, seat_prm, 1, -1)
        if st[X.TURN] == turn:
            break  # the turn cap ended the game before this turn
        d = st[X.ATT + seat * 4:X.ATT + seat * 4 + 3] - att0
        costs = [int(t.bd[c]) for c, n in zip((X.COST_MAJ, X.COST_PRE, X.COST_ABS), d, strict=True) if n > 0]
        played = np.flatnonzero(st[X.EV:X.EV + 4] != ev0)
        rows.append([seat, int(st[X.LANDS]) - lands0, *d, max(costs, default=0),
                     int(played[-1]) if len(played) else -1, int(st[X.SUPPLY + seat]), int(st[X.END_SEAT]), final])
    return int(st[X.END]), int(st[X.TURN]), np.array(rows, np.int64).reshape(-1, 10), order


@pytest.mark.parametrize("strategies", [(RANDOM,) * 4, (BUILDER, AGGRESSOR, BUILDER, AGGRESSOR)])
def test_end_sequence_one_more_turn_for_everyone_else_without_3_card_attacks(strategies):
    seen_final_attack = 0
    for seed in range(12):
        t = Table(strategies=strategies, overrides={"ships.4": 22})
        end, turns, tr, _ = play_traced(t, seed)
        assert end == END_WIN
        trig = int(np.flatnonzero(tr[:, 8] >= 0)[0])  # the turn in which the end was triggered
        seat = int(tr[trig, 0])
        assert int(tr[trig, 8]) == seat  # triggered by the player on turn ...
        assert int(tr[trig, 7]) == 0 or int(tr[trig, 6]) == 1  # ... whose supply ran out (or a Recall)
        assert turns == trig + 1 + 3  # every other player plays once more, then the game ends
        assert list(tr[trig + 1:, 0]) == [(seat + i) % 4 for i in (1, 2, 3)]  # in seat order
        assert np.all(tr[trig + 1:, 9] == 1) and np.all(tr[:trig + 1, 9] == 0)
        assert np.all(tr[trig + 1:, 5] <= 2)  # no 3-card attacks in the final round
        assert np.all(tr[trig + 1:, 4] == 0)
        seen_final_attack += int(np.sum(tr[trig + 1:, 2:5]))
    assert seen_final_attack > 0  # the final-round check was exercised


def test_final_round_allows_3_card_attacks_in_the_variant():
    costs = []
    for seed in range(40):
        t = Table(overrides={"ships.4": 22, "rules.final_round_max_attack_cost": 3})
        end, turns, tr, _ = play_traced(t, seed)
        costs.extend(tr[turns - 3:, 5])
    assert max(costs) == 3


def test_invariants_over_random_and_heuristic_games():
    """Ships conserved among supply, board and removed; 66 cards among hands and piles; the board
    summary consistent; every game ends."""
    for strategies in ((RANDOM,) * 4, (BUILDER, AGGRESSOR, RANDOM, BUILDER)):
        for seed in range(40):
            t = Table(strategies=strategies)
            end, turns, tr, order = play_traced(t, seed)
            assert end == END_WIN and 0 < turns < 300
            st = t.st
            for q in range(4):
                assert st[X.SUPPLY + q] + st[X.ONBOARD + q] + st[X.REMOVED + q] == 30
                assert st[X.SUPPLY + q] >= 0
                assert np.count_nonzero(st[X.OWNER:X.OWNER + 72] == q) == st[X.ONBOARD + q]
            assert st[X.HAND_N:X.HAND_N + 4].sum() + st[X.NSTACK] + st[X.NDISC] == 66
            kinds = np.concatenate([st[X.STACK:X.STACK + st[X.NSTACK]], st[X.DISCARD:X.DISCARD + st[X.NDISC]]])
            held = np.zeros(X.MK, np.int64)
            np.add.at(held, kinds, 1)
            for q in range(4):
                held += st[X.HANDS + q * X.MK:X.HANDS + (q + 1) * X.MK]
                assert st[X.HANDS + q * X.MK:X.HANDS + (q + 1) * X.MK].min() >= 0
            assert np.array_equal(held, np.bincount(order, minlength=X.MK))
            for b in range(12):
                row = st[X.CNT + b * X.MP:X.CNT + b * X.MP + 4]
                assert row.sum() == st[X.FILLED + b] <= t.bd[X.BODY_SIZE + b]
            assert st[X.END_SEAT] >= 0


def test_timeouts_are_recorded_not_dropped():
    res = simbalance.simulate("captain-future", 40, strategies="random", seed=3, overrides={"rules.turn_cap": 20})
    g = res.games
    assert len(g) == 40 and (g["end"] == END_TIMEOUT).all()
    assert (g["winner"] == -1).all() and (g["winners"] == 0).all() and (g["length"] == 20).all()
    assert (g["end_seat"] == -1).all()


def test_records_are_consistent_and_deterministic():
    res = simbalance.simulate("captain-future", 300, strategies=["builder", "aggressor", "random", "builder"],
                              seed=11)
    g = res.games
    again = simbalance.simulate("captain-future", 300, strategies=["builder", "aggressor", "random", "builder"],
                                seed=11, threads=1, chunk_size=77).games
    assert g.equals(again)
    assert (g["end"] == END_WIN).all()
    seats = range(4)
    for s in seats:
        assert ((g[f"ships_board_{s}"] + g[f"ships_supply_{s}"] + g[f"ships_lost_{s}"]) == 30).all()
    held = sum(g[f"held_mask_{w}"].map(lambda x: int(x).bit_count()) for w in (0, 1))
    assert (held == sum(g[f"ships_board_{s}"] for s in seats)).all()
    # the winner has the top score; ties share the win
    scores = np.stack([g[f"score_{s}"] for s in seats], axis=1)
    top = scores.max(axis=1)
    bits = np.stack([(g["winners"].to_numpy() >> s) & 1 for s in seats], axis=1).astype(bool)
    assert np.array_equal(bits, scores == top[:, None])
    won = sum(g[f"winner_mask_{w}"].map(lambda x: int(x).bit_count()) for w in (0, 1))
    single = g["winner"] >= 0
    board_of_winner = np.choose(g["winner"].clip(0), [g[f"ships_board_{s}"] for s in seats])
    assert (won[single] == board_of_winner[single]).all()
    # per-body control agrees with per-seat counts
    full = np.stack([g[f"body_full_{b}"] for b in range(12)], axis=1)
    for s in seats:
        assert ((full == s).sum(axis=1) == g[f"full_control_{s}"]).all()
    assert (g[[f"body_full_{b}" for b in range(12, 16)]] == -1).all().all()
    assert g[["simon_wright", "recall", "otto", "grag"]].to_numpy().sum() > 0


def test_report_hooks():
    from simbalance.games.captain_future import engine

    res = simbalance.simulate("captain-future", 200, seed=5)
    summ = engine.summarize(res.games, 4, res.plan.config)
    assert set(summ["bodies"]) == {"uranus", "neptune", "saturn", "jupiter", "mercury", "venus", "earth", "mars",
                                   "luna", "phobos", "io", "titan"}
    assert 0 < summ["space_held_share_mean"] <= 1
    figs = engine.figures(res.games, 4, res.plan.config, summ)
    assert set(figs) == {"captain_future_board", "captain_future_bodies"}


@pytest.mark.parametrize("heuristic", ["builder", "aggressor"])
def test_each_heuristic_beats_random_in_a_4_player_rotation(heuristic):
    n = 240
    res = simbalance.simulate("captain-future", n, strategies=[heuristic, "random", "random", "random"],
                              rotate=True, seed=17)
    g = res.games
    shares = win_shares(g["winners"].to_numpy(), 4)
    slots = np.stack([g[f"strategy_{s}"] for s in range(4)], axis=1)
    h_share = shares[slots == 0].sum() / n  # slot 0 is the heuristic
    z = (h_share - 0.25) / math.sqrt(0.25 * 0.75 / n)
    assert z > 3.0, (heuristic, h_share)


def test_space_shares_count_every_bit_of_both_mask_words():
    import numpy as np
    import pandas as pd

    from simbalance.games.captain_future.report import space_shares

    rng = np.random.default_rng(5)
    n = 3000
    cols = {f"{p}_{w}": rng.integers(0, 2**63, n, dtype=np.uint64) * np.uint64(2) + rng.integers(0, 2, n, dtype=np.uint64)
            for p in ("held_mask", "winner_mask") for w in range(2)}
    held, won = space_shares(pd.DataFrame(cols), 100)
    for s in (0, 1, 7, 8, 63, 64, 65, 99):
        bit = np.uint64(1) << np.uint64(s % 64)
        assert held[s] == np.count_nonzero(cols[f"held_mask_{s // 64}"] & bit) / n
        assert won[s] == np.count_nonzero(cols[f"winner_mask_{s // 64}"] & bit) / n
    assert held.shape == won.shape == (100,)


@pytest.mark.parametrize("players,seed,strategies", [(2, 1, "random"), (3, 2, "builder"), (4, 3, None), (4, 4, "random")])
def test_the_summary_read_once_gives_each_share_as_counted_game_by_game(players, seed, strategies):
    """summarize reads its columns once (contiguous, one histogram per body: issue 56); each share
    must be the one counted game by game with pandas, as before, to the last bit (ties counted for
    every tied winner, games where nobody holds a body, every seat count)."""
    import pandas as pd

    from simbalance.games.captain_future import engine
    from simbalance.games.captain_future.board import parse_map
    from simbalance.games.captain_future.report import held_by_winner

    kw = {"strategies": strategies} if strategies else {}
    res = simbalance.simulate("captain-future", 400, seed=seed, players=players, threads=1, **kw)
    g = res.games
    summ = engine.summarize(g, players, res.plan.config)
    n = len(g)
    winners = g["winners"].to_numpy().astype(np.int64)
    assert np.bitwise_count(winners).max() > 1 or strategies != "random"  # a tie is among the planted games
    for b, bid in enumerate(parse_map(res.plan.config).body_ids):
        full, major = g[f"body_full_{b}"].to_numpy(), g[f"body_major_{b}"].to_numpy()
        assert summ["bodies"][bid] == {
            "full_control": float(np.count_nonzero(full >= 0) / n),
            "majority": float(np.count_nonzero(major >= 0) / n),
            "full_control_by_winner": float(np.count_nonzero(held_by_winner(full, winners)) / n),
            "majority_by_winner": float(np.count_nonzero(held_by_winner(major, winners)) / n)}
    for field in ("score", "ships_lost", "attacks_absent"):
        assert summ[f"mean_{field}_by_seat"] == [float(g[f"{field}_{s}"].mean()) for s in range(players)]
    assert summ["events_per_game"] == {e: float(g[e].mean()) for e in ("simon_wright", "recall", "otto", "grag")}
    assert summ["end_triggered_by_seat"] == [float((g["end_seat"] == s).mean()) for s in range(players)]
    assert summ["attacks_per_game"]["present"] == float(sum(g[f"attacks_present_{s}"].sum()
                                                            for s in range(players)) / n)
    assert pd.Series(summ["mean_score_by_seat"]).notna().all()
