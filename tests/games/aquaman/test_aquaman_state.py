"""aquaman as resumable state (Resumable in core/spec.py): copy a game at any decision, list the
decision's options, take one, play on; docs/rules/aquaman.md ("Decisions") lists the option codes."""

from __future__ import annotations

import numpy as np
import pytest
from aquaman_helpers import RAIDER, RUNNER, arrange, card, cell, make

from simbalance.api import plan_run
from simbalance.games.aquaman.engine import ENGINE
from simbalance.games.aquaman.state_nb import (
    C_ACT_RANK,
    C_DECISION,
    C_DICE,
    C_FIGHT_A,
    C_FIGHT_B,
    C_MOVER,
    C_PICKED,
    C_SEEN,
    C_STEP,
    C_SUIT,
    C_TO_MOVE,
    C_WINNER,
    D_COMPANION,
    D_FOE,
    D_MISSION,
    D_MISSION_CARD,
    D_MISSION_SUIT,
    D_OPPONENT,
    D_PLOT,
    D_POWER,
    D_REST,
    D_REVEAL,
    D_STEAL,
    D_STRANGE,
    D_SWAP,
    D_SWIM,
    K_BUF,
    S_RAIDER,
    S_RANDOM,
    S_RUNNER,
    STEP_OVER,
    X_SUITS,
)
from simbalance.games.aquaman.strategies_nb import decide
from simbalance.testing import check_resumable_play_on

R = ENGINE.resumable
SEED = 11
LINEUPS = [
    dict(players=4, strategies=["runner", "raider", "random", "runner"], rotate=True, overrides={}),
    dict(players=3, strategies=["random", "raider", "random"], rotate=True,
         overrides={"rules.fight_ties": "once", "rules.activated_card": "before", "rules.legs": "turn",
                    "dice.count": 3, "rules.cannot_reveal": "loses", "rules.mission_suits": 6}),
    dict(players=2, strategies=["raider", "random"], rotate=True,
         overrides={"rules.cannot_reveal": "draws", "rules.adjacency": "king", "rules.hand_limit": 6}),
]


def seats_of(plan, game):
    """The seats' strategy ids and parameter rows for game ``game``, as the kernel gives them."""
    lineup = plan.lineup
    slots = lineup.seats[game % len(lineup.seats)]
    return (np.array([lineup.slot_strategy[s] for s in slots], np.int64),
            np.array([lineup.slot_params[s] for s in slots], np.float64), slots)


def record_of(plan, ctx, state, game, slots):
    """The record the kernel writes for the finished game in ``state``."""
    out = np.zeros(1, ENGINE.record_dtype)
    R.write_record(ctx, state, out, 0)
    out[0]["game"] = game
    out[0]["strategy"][: len(slots)] = slots
    return out[0]


@pytest.mark.parametrize("setup", LINEUPS, ids=["4p", "3p-variants", "2p-variants"])
def test_playing_on_from_a_copy_reproduces_the_kernels_game(setup):
    """The contract's check (simbalance.testing) on every lineup and variant, each of its games."""
    check_resumable_play_on(plan_run("aquaman", 12, seed=SEED, **setup), games=range(12))


@pytest.mark.parametrize("setup", LINEUPS, ids=["4p", "3p-variants", "2p-variants"])
def test_every_listed_option_is_legal_and_the_strategies_choose_among_them(setup):
    plan = plan_run("aquaman", 1, seed=SEED, **setup)
    ctx = R.context(*plan.prepared)
    options = np.zeros(R.max_options(ctx), np.int64)
    seen = set()
    for game in range(3):
        strat, par, _ = seats_of(plan, game)
        state = R.new_state(ctx)
        R.start(ctx, state, np.uint64(SEED), np.int64(game))
        while R.to_move(ctx, state) >= 0:
            assert R.check(ctx, state) == 0
            n = R.legal_options(ctx, state, options)
            listed = [int(x) for x in options[:n]]
            assert n >= 1 and len(set(listed)) == n, listed
            seen.add(int(state.ctr[C_DECISION]))
            for option in listed:
                copy = R.clone(state)
                R.apply_option(ctx, copy, option)
                assert R.check(ctx, copy) == 0, (int(state.ctr[C_DECISION]), option)
            # the seat's own strategy (also the random one) picks one of the listed options
            assert int(decide(ctx, R.clone(state), strat, par)) in listed, (int(state.ctr[C_DECISION]), listed)
            R.play_out(ctx, state, strat, par, 1)
        assert R.legal_options(ctx, state, options) == 0
    assert {D_POWER, D_SWIM, D_REVEAL} <= seen, seen
    if "rules.hand_limit" not in setup["overrides"]:  # with a hand limit of 6 missions are rare
        assert {D_MISSION, D_MISSION_SUIT, D_MISSION_CARD} <= seen, seen


def test_to_move_is_minus_one_exactly_when_the_game_is_over():
    setup = LINEUPS[0]
    plan = plan_run("aquaman", 1, seed=SEED, **setup)
    ctx = R.context(*plan.prepared)
    for game in range(4):
        strat, par, _ = seats_of(plan, game)
        state = R.new_state(ctx)
        R.start(ctx, state, np.uint64(SEED), np.int64(game))
        whole = R.clone(state)
        total = R.play_out(ctx, whole, strat, par, -1)
        made = 0
        while True:
            over = state.ctr[C_STEP] == STEP_OVER
            assert (R.to_move(ctx, state) == -1) == over
            if over:
                break
            assert R.play_out(ctx, state, strat, par, 1) == 1
            made += 1
        assert made == total  # one decision at a time is the same game as all at once
        assert R.play_out(ctx, state, strat, par, 5) == 0  # nothing is left to decide
        assert R.to_move(ctx, whole) == -1
        # stopping after 3 decisions leaves a decision pending
        state = R.new_state(ctx)
        R.start(ctx, state, np.uint64(SEED), np.int64(game))
        assert R.play_out(ctx, state, strat, par, 3) == 3 and R.to_move(ctx, state) >= 0


# ---------------------------------------------------------------- hand-made positions


def pending(G, S, decision, seat=0):
    """``seat`` (moving) is asked ``decision``; returns the listed options."""
    S.ctr[C_MOVER] = seat
    S.ctr[C_DECISION] = decision
    S.ctr[C_TO_MOVE] = seat
    options = np.zeros(R.max_options(G), np.int64)
    n = R.legal_options(G, S, options)
    return [int(x) for x in options[:n]]


def test_option_counts_in_hand_made_positions():
    G, S = make()
    # power phase with 5 cards: no power, or any of the 5 -> 6 options
    arrange(G, S, hands={0: ["A1", "C2", "X3", "P4", "F5"]})
    assert pending(G, S, D_POWER) == [-1, 0, 1, 2, 3, 4]
    # swim from (0,0) with 3 and 5: 3 then 5 gives (3,5) and (5,3), 5 then 3 gives (2,0) and (0,2)
    # (the other directions leave the board) -> 4 squares
    arrange(G, S)
    S.ctr[C_DICE], S.ctr[C_DICE + 1] = 3, 5
    assert sorted(pending(G, S, D_SWIM)) == sorted(cell(G, *rc) for rc in ((3, 5), (5, 3), (2, 0), (0, 2)))
    # Plot 5: a free square with a lower card: A3 at (2,2); C2 at (4,4) has a pawn; X7 is not lower -> 1
    arrange(G, S, board={(2, 2): "A3", (4, 4): "C2", (5, 5): "X7"}, pos={1: (4, 4)})
    S.ctr[C_ACT_RANK] = 5
    assert pending(G, S, D_PLOT) == [cell(G, 2, 2)]
    # Foe from (3,3): seat 1 at (3,4) and seat 2 at (2,3) are adjacent, seat 3 at (4,4) diagonal -> 2
    arrange(G, S, hands={1: ["A3"], 2: ["C3"], 3: ["X3"]}, pos={0: (3, 3), 1: (3, 4), 2: (2, 3), 3: (4, 4)})
    assert sorted(pending(G, S, D_FOE)) == [1, 2]
    # Strangeness 8 from (3,3): X5 at (2,3) adjacent and lower; C2 two away, A1 diagonal -> 1
    arrange(G, S, board={(2, 3): "X5", (3, 5): "C2", (4, 4): "A1"}, pos={0: (3, 3)})
    S.ctr[C_ACT_RANK] = 8
    assert pending(G, S, D_STRANGE) == [cell(G, 2, 3)]
    # Companion 8 saw A5, X3, P12, F6: the three lower ones may be kept (their places among the seen)
    arrange(G, S, hands={0: ["A1"]})
    for j, x in enumerate(["A5", "X3", "P12", "F6"]):
        S.cards[K_BUF, j] = card(G, x)
    S.ctr[C_SEEN], S.ctr[C_ACT_RANK] = 4, 8
    assert pending(G, S, D_COMPANION) == [0, 1, 3]
    # Power: keep (0) or swap (1) the card asked about; a mission now: no (0) or yes (1)
    assert pending(G, S, D_SWAP) == [0, 1] and pending(G, S, D_MISSION) == [0, 1]
    # three pawns on (3,3): the mover may fight either of the other two -> 2
    arrange(G, S, hands={0: ["A9"], 1: ["C3"], 2: ["X1"]}, pos={0: (3, 3), 1: (3, 3), 2: (3, 3)})
    assert pending(G, S, D_OPPONENT) == [1, 2]
    # a fighter with 3 cards reveals any of them -> 3; the winner steals any of the loser's 2 -> 2
    arrange(G, S, hands={0: ["A9", "C7", "X1"], 1: ["F3", "O2"]})
    S.ctr[C_FIGHT_A], S.ctr[C_FIGHT_B], S.ctr[C_WINNER] = 0, 1, 0
    assert pending(G, S, D_REVEAL) == [0, 1, 2] and pending(G, S, D_STEAL) == [0, 1]
    # rest with 12 cards (limit 10): any of the 12 is discarded first -> 12
    cards = ["A1", "A2", "A3", "A4", "C5", "X6", "P7", "F8", "O9", "S10", "L11", "L12"]
    arrange(G, S, hands={0: cards})
    assert pending(G, S, D_REST) == list(range(12))
    # a mission card of suit A (Aquaman) from that hand, which holds A1 to A4 (slots 0-3): any -> 4
    S.ctr[C_SUIT] = 0
    assert pending(G, S, D_MISSION_CARD) == [0, 1, 2, 3]


def test_mission_suit_options_in_a_six_suit_mission():
    G, S = make(rules__mission_suits=6)
    arrange(G, S, hands={0: ["A1", "A5", "C2", "X3", "P4", "F5", "O6", "S7", "L8"]})
    # all 8 suits held, none picked yet -> 8; after A and L are picked -> the other 6
    for s in range(8):
        S.scratch[X_SUITS, s] = 0
    S.ctr[C_PICKED] = 0
    assert pending(G, S, D_MISSION_SUIT) == list(range(8))
    S.scratch[X_SUITS, 0] = S.scratch[X_SUITS, 7] = 1
    S.ctr[C_PICKED] = 2
    assert pending(G, S, D_MISSION_SUIT) == [1, 2, 3, 4, 5, 6]


@pytest.mark.parametrize("sid,par", [(S_RANDOM, np.zeros_like(RUNNER)), (S_RUNNER, RUNNER), (S_RAIDER, RAIDER)])
def test_a_strategys_choice_in_a_hand_made_position_is_listed(sid, par):
    G, S = make()
    strat = np.full(4, sid, np.int64)
    pars = np.array([par] * 4)
    for seed in range(20):
        arrange(G, S, board={(3, 5): "X9", (5, 3): "A16"}, hands={0: ["A2", "C2"]}, pos={1: (3, 5)}, seed=seed)
        S.ctr[C_DICE], S.ctr[C_DICE + 1] = 3, 5
        listed = pending(G, S, D_SWIM)
        assert int(decide(G, S, strat, pars)) in listed
