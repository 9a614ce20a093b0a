"""The whole-game metrics' tracker (core/whole_game.py) on planted progress sequences: exact lead
changes, decisiveness, comebacks, margins, drama and the loop detection, as docs/metrics.md defines
them."""

import numpy as np
import pytest
from numba import njit

from simbalance.core import whole_game as P
from simbalance.core.records import record_dtype

DTYPE = record_dtype(P.PROGRESS_FIELDS)


def _lanes(values):
    """The progress values as the MAX_SEATS lanes an engine's state holds (seats not in the game: 0)."""
    vals = np.zeros(6, np.int64)
    vals[: len(values)] = values
    return vals


@njit
def _write(out, tr, winners, length):
    P.write_progress(out, 0, tr, winners, length)


def play(rounds, final, winners, round_len=2, moved=None, window=0, holder=False, batched=False, tracker=None):
    """A game of ``len(final)`` seats whose progress is ``rounds[k]`` at the end of round k and
    ``final`` at the end (length: one more turn after the last round). ``holder``: the values are
    one-hot (one seat holds something) and go through the holder functions instead; ``batched``:
    the values go through the batched functions as minus counts. Returns (record, stalled at round k
    or None); ``tracker``: a list that gets the tracker at the end."""
    players = len(final)
    tr = np.zeros(P.PROGRESS_SIZE, np.int64)
    batch = np.full(P.BATCH_SIZE, -7, np.int64)  # what a game before left there
    if batched:
        P.progress_reset_batched(tr, batch, np.int64(players), np.int64(round_len), np.int64(0))
    else:
        P.progress_reset(tr, np.int64(players), np.int64(round_len), np.int64(0))
    stalled_at = None
    now = 0
    for k, values in enumerate(rounds):
        now += round_len
        assert now == tr[P.PR_NEXT]
        m = moved[k] if moved is not None else False
        if holder:
            stalled = P.progress_round_holder(tr, np.int64(values.index(1)), np.int64(now), m, np.int64(window),
                                              np.int64(k), np.int64(0))
        elif batched:
            stalled = P.progress_round_batched(tr, batch, -_lanes(values), np.int64(now), m, np.int64(window),
                                               np.int64(k), np.int64(0))
        else:
            stalled = P.progress_round_of(tr, _lanes(values), np.int64(1), np.int64(now), m, np.int64(window),
                                          np.int64(k), np.int64(0))
        if stalled and stalled_at is None:
            stalled_at = k
    length = now + 1
    if holder:
        P.progress_end_holder(tr, np.int64(final.index(1)), np.int64(length), np.int64(0))
    elif batched:
        P.progress_end_batched(tr, batch, -_lanes(final), np.int64(length), np.int64(0))
    else:
        P.progress_end(tr, _lanes(final), np.int64(1), np.int64(length), np.int64(0))
    if tracker is not None:
        tracker.append(tr)
    out = np.zeros(1, DTYPE)
    _write(out, tr, np.int64(winners), np.int64(length))
    return out[0], stalled_at


def test_planted_two_seat_race():
    # seat 1 trails, takes the lead, loses it, ties, takes it for good
    rec, _ = play([(1, 0), (1, 2), (3, 2), (3, 3), (3, 5)], final=(3, 9), winners=0b10)
    assert rec["checkpoints"] == 6  # five rounds and the end
    assert rec["lead_changes"] == 3  # 0 -> 1 -> 0 -> (tie) -> 1
    assert rec["leader_set_changes"] == 4  # {0} {1} {0} {0,1} {1} {1}: four changes
    assert rec["led_from"] == 10  # seat 1 led alone from the end of round 5 (length 10) on
    assert rec["comeback"] == 1  # last after round 1
    assert rec["winner_deficit"] == 1 + 0 + 1 + 0 + 0 + 0
    assert rec["margin_sum"] == 1 + 1 + 1 + 0 + 2 + 6
    assert rec["final_margin"] == 6
    assert (rec["leader_round_1"], rec["leader_round_2"], rec["leader_round_3"]) == (0, 1, 0)
    assert (rec["margin_round_1"], rec["margin_round_2"], rec["margin_round_3"]) == (1, 1, 1)
    assert rec["stalemate_reason"] == 0


def test_wire_to_wire_winner_and_a_runaway_leader():
    rec, _ = play([(2, 1, 0), (4, 1, 1), (6, 2, 1)], final=(9, 2, 1), winners=0b001)
    assert rec["lead_changes"] == 0 and rec["leader_set_changes"] == 0
    assert rec["led_from"] == 2  # from the first checkpoint
    assert rec["comeback"] == 0 and rec["winner_deficit"] == 0
    assert rec["final_margin"] == 7


def test_a_tie_for_the_lead_is_no_lead_change_and_no_margin():
    rec, _ = play([(1, 1), (2, 1), (2, 2), (3, 2)], final=(4, 2), winners=0b01)
    assert rec["lead_changes"] == 0  # seat 0 is the only seat that ever led alone
    assert rec["leader_set_changes"] == 3  # {0,1} {0} {0,1} {0} {0}
    assert rec["led_from"] == 8  # led alone again from round 4 (length 8)
    assert rec["leader_round_1"] == -1 and rec["margin_round_1"] == 0
    assert rec["comeback"] == 0  # level is not last


def test_no_single_winner():
    rec, _ = play([(1, 0), (1, 1)], final=(2, 2), winners=0b11)
    assert rec["led_from"] == -1 and rec["comeback"] == -1 and rec["winner_deficit"] == -1
    assert rec["final_margin"] == 0
    rec, _ = play([(1, 0)], final=(1, 0), winners=0)  # a timeout
    assert rec["led_from"] == -1


def test_a_game_shorter_than_three_rounds():
    rec, _ = play([(0, 1)], final=(0, 3), winners=0b10)
    assert rec["leader_round_1"] == 1 and rec["leader_round_2"] == P.NO_ROUND == -2
    assert rec["margin_round_2"] == -1 and rec["checkpoints"] == 2


def test_a_winner_who_does_not_lead_at_the_end_is_decided_at_the_end():
    rec, _ = play([(0, 1)], final=(1, 1), winners=0b01)  # e.g. a tie broken by a rule the measure ignores
    assert rec["led_from"] == 3  # the game's length


def test_the_holder_functions_give_the_records_of_the_one_hot_values():
    rounds = [(1, 0, 0), (1, 0, 0), (1, 0, 0), (0, 1, 0), (0, 1, 0), (0, 0, 1), (0, 0, 1), (0, 0, 1)]
    a, _ = play(rounds, final=(0, 0, 1), winners=0b100)
    b, _ = play(rounds, final=(0, 0, 1), winners=0b100, holder=True)
    assert a.tobytes() == b.tobytes()
    assert a["lead_changes"] == 2 and a["winner_deficit"] == 5 and a["led_from"] == 12
    rng = np.random.default_rng(7)
    for players in (1, 2, 4, 6):
        for _ in range(100):
            seq = [tuple(int(s == h) for s in range(players)) for h in rng.integers(0, players, rng.integers(1, 9))]
            moved = [bool(m) for m in rng.integers(0, 2, len(seq) - 1)]
            winners = int(1 << seq[-1].index(1)) if rng.random() < 0.8 else 0
            args = dict(rounds=seq[:-1], final=seq[-1], winners=winners, moved=moved, window=4)
            a, stall_a = play(**args)
            b, stall_b = play(**args, holder=True)
            assert a.tobytes() == b.tobytes() and stall_a == stall_b


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_the_batched_functions_give_the_tracker_and_records_of_the_generic_ones(players):
    """progress_round_batched / progress_end_batched (minus counts, the metrics worked out a batch
    of rounds at a time) against progress_round_of / progress_end: the same tracker at the end,
    the same record and the same stall, for games shorter and longer than a batch and ending
    mid-batch, with ties, leads changing hands and long stretches without progress."""
    rng = np.random.default_rng(100 + players)
    for trial in range(300):
        n_rounds = int(rng.integers(0, 3 * P.BATCH_ROUNDS + 3))
        top = int(rng.choice([2, 4, 30]))  # few values: many ties; many: few
        seq = [tuple(-int(v) for v in rng.integers(0, top, players)) for _ in range(n_rounds + 1)]
        moved = [bool(m) for m in rng.random(n_rounds) < 0.1]
        best = max(seq[-1])
        winners = sum(1 << s for s in range(players) if seq[-1][s] == best) if rng.random() < 0.9 else 0
        args = dict(rounds=seq[:-1], final=seq[-1], winners=winners, moved=moved, window=int(rng.choice([0, 6, 20])),
                    round_len=players)
        tr_a, tr_b = [], []
        a, stall_a = play(**args, tracker=tr_a)
        b, stall_b = play(**args, batched=True, tracker=tr_b)
        assert a.tobytes() == b.tobytes(), (trial, a, b)
        assert stall_a == stall_b
        assert (tr_a[0] == tr_b[0]).all(), (trial, tr_a[0], tr_b[0])


def test_loop_detection_counts_turns_without_progress():
    # two seats, rounds of 2 turns; progress: a new best value, or the engine's own sign (moved)
    rounds = [(1, 0), (2, 0), (2, 1), (2, 1), (2, 2), (2, 2), (2, 1), (2, 2)]
    moved = [False, False, False, False, False, True, False, False]
    rec, stalled = play(rounds, final=(2, 2), winners=0, moved=moved)
    # turns without progress at the rounds' ends (lengths 2, 4, ..., 16): new bests at rounds 1 and 2,
    # moved at round 6: 0, 0, 2, 4, 6, 0, 2, 4; at the end (length 17): 5
    assert rec["longest_stall"] == 6 and stalled is None
    assert play(rounds, final=(2, 2), winners=0, moved=moved, window=6)[1] == 4  # round 5
    assert play(rounds, final=(2, 2), winners=0, moved=moved, window=4)[1] == 3  # round 4
    assert play(rounds, final=(2, 2), winners=0, moved=moved, window=7)[1] is None  # round 6 moved first


def test_marks_keep_the_engines_counters_at_the_last_progress():
    tr = np.zeros(P.PROGRESS_SIZE, np.int64)
    P.progress_reset(tr, np.int64(2), np.int64(2), np.int64(0))
    vals = _lanes((1, 0))
    P.progress_round_of(tr, vals, np.int64(1), np.int64(2), False, np.int64(0), np.int64(7), np.int64(3))  # a new best
    P.progress_round_of(tr, vals, np.int64(1), np.int64(4), False, np.int64(0), np.int64(9), np.int64(5))  # no progress
    assert (tr[P.PR_MARK_A], tr[P.PR_MARK_B], tr[P.PR_STALL_FROM]) == (7, 3, 2)
    P.progress_round_of(tr, vals, np.int64(1), np.int64(6), True, np.int64(0), np.int64(11), np.int64(6))
    assert (tr[P.PR_MARK_A], tr[P.PR_MARK_B], tr[P.PR_STALL_FROM]) == (11, 6, 6)


def test_only_the_first_end_counts():
    tr = np.zeros(P.PROGRESS_SIZE, np.int64)
    P.progress_reset(tr, np.int64(2), np.int64(2), np.int64(0))
    P.progress_end(tr, _lanes((1, 0)), np.int64(1), np.int64(1), np.int64(3))
    P.progress_end(tr, _lanes((1, 0)), np.int64(1), np.int64(5), np.int64(0))
    assert tr[P.PR_CHECKS] == 1 and tr[P.PR_REASON] == 3


@pytest.mark.parametrize("players", [2, 3, 6])
def test_random_sequences_match_a_plain_python_reference(players):
    """Against a direct transcription of the definitions (docs/metrics.md) on random sequences."""
    rng = np.random.default_rng(players)
    for _ in range(200):
        n_rounds = int(rng.integers(0, 9))
        seq = [tuple(int(v) for v in rng.integers(0, 4, players)) for _ in range(n_rounds + 1)]
        rounds, final = seq[:-1], seq[-1]
        best = max(final)
        winners = sum(1 << s for s in range(players) if final[s] == best) if rng.random() < 0.9 else 0
        rec, _ = play(rounds, final, winners)
        checks = seq
        lengths = [2 * (k + 1) for k in range(n_rounds)] + [2 * n_rounds + 1]
        sole = [c.index(max(c)) if c.count(max(c)) == 1 else -1 for c in checks]
        leader_sets = [frozenset(s for s in range(players) if c[s] == max(c)) for c in checks]
        changes, last = 0, -1
        for s in sole:
            if s >= 0:
                changes += last >= 0 and s != last
                last = s
        assert rec["lead_changes"] == changes
        assert rec["leader_set_changes"] == sum(a != b for a, b in zip(leader_sets, leader_sets[1:], strict=False))
        margins = [0 if c.count(max(c)) > 1 else max(c) - sorted(c)[-2] for c in checks]
        assert rec["margin_sum"] == sum(margins) and rec["final_margin"] == margins[-1]
        for k in range(3):
            assert rec[f"leader_round_{k + 1}"] == (sole[k] if k < n_rounds else -2)
        if winners and winners & (winners - 1) == 0:
            w = winners.bit_length() - 1
            assert rec["winner_deficit"] == sum(max(c) - c[w] for c in checks)
            assert rec["comeback"] == any(c[w] == min(c) < max(c) for c in checks)
            run = len(checks)
            while run > 0 and sole[run - 1] == w:
                run -= 1
            assert rec["led_from"] == (lengths[run] if run < len(checks) else lengths[-1])
        else:
            assert rec["led_from"] == -1
