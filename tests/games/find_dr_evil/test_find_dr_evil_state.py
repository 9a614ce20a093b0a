"""find-dr-evil as resumable state (core/spec.Resumable): copy a game at any pick and play on.

A decision is a pick; its options are the slots of the offerer's hand (docs/rules/find-dr-evil.md,
"Decisions"). The kernel's records are the reference: every path through the resumable steps must
give the same record, byte for byte.
"""

import numpy as np
import pytest

from simbalance.api import plan_run
from simbalance.core.records import END_INVALID, END_TIMEOUT, END_WIN
from simbalance.games.find_dr_evil.engine import ENGINE, RECORD_DTYPE
from simbalance.games.find_dr_evil.play_nb import scripted_rules, start_scripted
from simbalance.games.find_dr_evil.state_nb import (
    END,
    IN_PLAY,
    OFFERER,
    RUNNING,
    S_COUNT,
    S_HAND,
    S_INFO,
    S_RNG,
    WINNER,
)
from simbalance.games.find_dr_evil.strategies_nb import random_pick
from simbalance.games.find_dr_evil.validate_nb import CARDS_LOST, HANDS_OK, POSE_HELD_TWICE
from simbalance.testing import check_resumable_play_on

R = ENGINE.resumable
N = 60  # games per setup

# (players, overrides): table sizes and the rule variants that change who picks next
SETUPS = [
    (2, {}),
    (3, {}),
    (4, {}),
    (6, {}),
    (4, {"rules.repeat_after_pair": False}),
    (3, {"rules.repeat_min_holders": 2, "rules.first_card_to": 0}),
    (4, {"rules.pick_cap": 12}),  # some games end as timeouts
]


def _setup(players, overrides, seed=7):
    plan = plan_run("find-dr-evil", N, players=players, seed=seed, overrides=overrides, validate=True)
    lineup = plan.lineup
    out = np.zeros(N, RECORD_DTYPE)
    ENGINE.kernel(out, np.int64(0), np.int64(N), np.int64(0), np.uint64(seed), lineup.seats, lineup.slot_strategy,
                  lineup.slot_params, *plan.prepared)
    return plan, out


def _seats(plan, game):
    """The seats' strategy ids and parameters, as begin_game gives them to the kernel's game."""
    lineup = plan.lineup
    slots = lineup.seats[game % len(lineup.seats)]
    return lineup.slot_strategy[slots].astype(np.int64), lineup.slot_params[slots]


def _record(plan, ctx, state, game):
    """The record of a finished state, with the game and strategy fields the kernel writes itself."""
    rec = np.zeros(1, RECORD_DTYPE)
    R.write_record(ctx, state, rec, 0)
    rec["game"][0] = game
    rec["strategy"][0, : plan.players] = plan.lineup.seats[game % len(plan.lineup.seats)]
    return rec[0]


def _started(plan, ctx, game):
    state = R.new_state(ctx)
    R.start(ctx, state, np.uint64(plan.seed), np.int64(game))
    return state


@pytest.mark.parametrize(("players", "overrides"), SETUPS)
def test_playing_on_from_a_copy_reproduces_the_kernels_record(players, overrides):
    """The contract's check (simbalance.testing) on every setup, each of its N games."""
    plan, kernel_out = _setup(players, overrides)
    assert (kernel_out["end"] != END_INVALID).all()
    if "rules.pick_cap" in overrides:
        assert (kernel_out["end"] == END_TIMEOUT).any() and (kernel_out["end"] == END_WIN).any()
    check_resumable_play_on(plan, games=range(N))


@pytest.mark.parametrize(("players", "overrides"), SETUPS)
def test_pick_by_pick_every_listed_option_is_legal_and_the_strategy_chooses_among_them(players, overrides):
    plan, kernel_out = _setup(players, overrides, seed=31)
    ctx = R.context(*plan.prepared)
    options = np.zeros(R.max_options(ctx), np.int64)
    for game in range(0, N, 3):
        state = _started(plan, ctx, game)
        decisions = 0
        while True:
            seat = R.to_move(ctx, state)
            info = state[S_INFO]
            # to_move is -1 exactly when the game is over
            assert (seat == -1) == (info[END] != RUNNING)
            n = R.legal_options(ctx, state, options)
            if seat == -1:
                assert n == 0
                break
            assert R.check(ctx, state) == HANDS_OK
            offerer = int(info[OFFERER])
            # a blind pick: one option per card the offerer holds, each a slot of his hand
            assert n == state[S_COUNT][offerer] > 0
            assert sorted(options[:n]) == list(range(n))
            for option in options[:n]:
                trial = R.clone(state)
                R.apply_option(ctx, trial, option)
                assert R.check(ctx, trial) == HANDS_OK
                assert trial[S_INFO][END] != END_INVALID
                assert trial[S_INFO][IN_PLAY] in (info[IN_PLAY], info[IN_PLAY] - 2)  # a pick moves one card, a pair drops two
            # the random strategy's own pick, with the draw play_out makes: one of the listed options
            choice = random_pick(state[S_RNG], state[S_COUNT][offerer])
            assert choice in options[:n]
            R.apply_option(ctx, state, choice)
            decisions += 1
        assert decisions == kernel_out[game]["length"]
        assert _record(plan, ctx, state, game).tobytes() == kernel_out[game].tobytes(), game
        assert R.play_out(ctx, state, *_seats(plan, game), -1) == 0  # over: nothing left to decide


# ---- hand-made positions ---------------------------------------------------------------------
# A small deck: poses A, B, C with two or four cards each, Dr. Ling a pose of his own.
# The scripted deal gives card k of ``order_for(hands)`` to seat (k + 1) % P, as the rules' deal.
A1, A2, B1, B2, C1, C2, LING, A3, A4 = range(9)
POSE = np.array([0, 0, 1, 1, 2, 2, 3, 0, 0], dtype=np.int64)


def order_for(hands):
    queues = [list(h) for h in hands]
    order, k = [], 0
    while any(queues):
        order.append(queues[(k + 1) % len(hands)].pop(0))
        k += 1
    return np.array(order, dtype=np.int64)


def scripted(hands, cap=10_000, repeat=True, repeat_min=3, seed=0):
    rules = scripted_rules(cap, repeat, repeat_min)
    ctx = R.context(POSE, LING, POSE.max() + 1, len(hands), rules, True)
    return ctx, start_scripted(ctx, order_for(hands), np.uint64(seed), np.int64(0))


def n_options(ctx, state):
    return R.legal_options(ctx, state, np.zeros(R.max_options(ctx), np.int64))


def test_hand_made_three_player_game_option_counts():
    # Deal: seat 0 A1 B1, seat 1 A2 B2 C1, seat 2 Ling C2; nobody holds a pair, so nothing is
    # discarded. Seat 0 offers first (rule 3), seat 1 picks: 2 options (A1 or B1).
    ctx, state = scripted([[A1, B1], [A2, B2, C1], [LING, C2]])
    assert (R.to_move(ctx, state), state[S_INFO][OFFERER], n_options(ctx, state)) == (1, 0, 2)
    # Either card pairs (seat 1 holds A2 and B2); three players hold cards, so seat 1 picks again
    # from seat 0 (rule 5): 1 option, seat 0's last card.
    R.apply_option(ctx, state, 0)
    assert (R.to_move(ctx, state), state[S_INFO][OFFERER], n_options(ctx, state)) == (1, 0, 1)
    # That pairs too; seat 0 is out, so the turn passes: seat 1 (C1 only) offers to seat 2: 1 option.
    R.apply_option(ctx, state, 0)
    assert (R.to_move(ctx, state), state[S_INFO][OFFERER], n_options(ctx, state)) == (2, 1, 1)
    # Seat 2 pairs C1 with C2 and is left with Dr. Ling alone: over, no options, seat 2 won.
    R.apply_option(ctx, state, 0)
    assert (R.to_move(ctx, state), n_options(ctx, state)) == (-1, 0)
    assert (state[S_INFO][END], state[S_INFO][WINNER]) == (END_WIN, 2)


def test_hand_made_first_offerer_without_cards_and_three_of_a_pose():
    # Seat 0 is dealt the pair A1 A2 and discards it: out at once. Seat 1 (B1 Ling C1) offers
    # first, seat 2 (B2 C2) picks: 3 options.
    ctx, state = scripted([[A1, A2], [B1, LING, C1], [B2, C2]])
    assert (R.to_move(ctx, state), state[S_INFO][OFFERER], n_options(ctx, state)) == (2, 1, 3)
    # Two players, three A's for seat 0: it keeps A3 and B1 (2 cards), seat 1 keeps A4 B2 Ling
    # after discarding C1 C2. Seat 0 offers, seat 1 picks: 2 options.
    ctx, state = scripted([[A1, A2, A3, B1], [A4, B2, LING, C1, C2]])
    assert (R.to_move(ctx, state), state[S_INFO][OFFERER], n_options(ctx, state)) == (1, 0, 2)


def test_hand_made_two_player_game_passes_the_turn_after_a_pair():
    # Seat 0 A1 B1, seat 1 A2 B2 Ling: seat 1 picks from seat 0, 2 options; each pairs, but with two
    # players the turn passes (repeat_min_holders 3): seat 1 offers its 2 cards (B or A, and Ling)
    # to seat 0: 2 options.
    for option in (0, 1):
        ctx, state = scripted([[A1, B1], [A2, B2, LING]])
        assert (R.to_move(ctx, state), n_options(ctx, state)) == (1, 2)
        R.apply_option(ctx, state, option)
        assert (R.to_move(ctx, state), state[S_INFO][OFFERER], n_options(ctx, state)) == (0, 1, 2)
    # With repeat_min_holders 2 seat 1 picks again from seat 0: 1 option.
    ctx, state = scripted([[A1, B1], [A2, B2, LING]], repeat_min=2)
    R.apply_option(ctx, state, 0)
    assert (R.to_move(ctx, state), state[S_INFO][OFFERER], n_options(ctx, state)) == (1, 0, 1)


def test_a_deal_that_leaves_only_dr_ling_has_no_decision():
    ctx, state = scripted([[A1, A2], [LING, B1, B2]])
    assert (R.to_move(ctx, state), n_options(ctx, state)) == (-1, 0)
    assert R.play_out(ctx, state, np.zeros(2, np.int64), np.zeros((2, 1)), -1) == 0
    assert (state[S_INFO][END], state[S_INFO][WINNER]) == (END_WIN, 1)


def test_play_out_stops_after_max_decisions_and_at_the_pick_cap():
    sid, prm = np.zeros(2, np.int64), np.zeros((2, 1))
    ctx, state = scripted([[A1, B1], [A2, B2, LING]], cap=1)
    assert R.play_out(ctx, state, sid, prm, 0) == 0 and R.to_move(ctx, state) == 1
    assert R.play_out(ctx, state, sid, prm, 5) == 1  # the cap ends the game after the first pick
    assert (R.to_move(ctx, state), state[S_INFO][END], state[S_INFO][WINNER]) == (-1, END_TIMEOUT, -1)
    ctx, state = scripted([[A1, B1], [A2, B2, LING]])
    assert R.play_out(ctx, state, sid, prm, 1) == 1 and R.to_move(ctx, state) >= 0


def test_check_finds_a_broken_hand():
    ctx, state = scripted([[A1, B1], [A2, B2, C1], [LING, C2]])
    assert R.check(ctx, state) == HANDS_OK
    broken = R.clone(state)
    broken[S_HAND][0, 1] = A3  # seat 0 now holds A1 and A3: a pose twice
    assert R.check(ctx, broken) == POSE_HELD_TWICE
    assert R.check(ctx, state) == HANDS_OK  # the clone did not share the hands
    lost = R.clone(state)
    lost[S_INFO][IN_PLAY] += 2
    assert R.check(ctx, lost) == CARDS_LOST
