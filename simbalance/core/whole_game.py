"""Whole-game metrics and loop detection, written once for every engine (docs/metrics.md,
"Whole-game metrics", and docs/architecture.md, "Progress and stalemates").

Each engine names a **progress measure** (per seat, higher is better: a score, minus the cards
left, ...) and keeps a tracker block of ``PROGRESS_SIZE`` int64 slots inside one of its int64 state
arrays (so ``clone`` copies it and a copy plays on to the same record). With ``tr`` the block (a
slice of that array: ``st[TRACK:TRACK + PROGRESS_SIZE]``), it calls:

- ``progress_reset(tr, players, round_len, now)`` when a game starts (``now``: the length so far, 0);
- at the end of every round (``now >= tr[PR_NEXT]``: a round is ``round_len`` turns of the game's
  length unit) ``stalled = progress_round_of(tr, vals, sign, now, moved, window, mark_a, mark_b)``:
  the round's checkpoint of the progress values ``sign * vals[s]`` (``vals``: MAX_SEATS entries of
  the engine's own state, e.g. the hand sizes with ``sign`` -1), and the loop detection: ``moved``
  is the engine's own sign that the game went somewhere in this round (a pair made, a card drawn
  from a deck that runs down, ...); a new best progress value of any seat counts as progress too.
  True once ``window`` turns (0: never) passed without progress: the engine then ends the game as
  ``END_STALEMATE`` with a reason code of its own (``mark_a``, ``mark_b``: two of its counters,
  kept here as they were at the last progress, so that it can tell what the stalled turns were
  made of). An engine whose progress measure is which seat holds something (find-dr-evil: 1 for
  the holder of Dr. Ling, 0 for the others) calls ``progress_round_holder(tr, holder, now, moved,
  window, mark_a, mark_b)`` instead: the same checkpoint of the one-hot values, a handful of
  operations, and the game's own loop never touches the tracker between rounds. An engine whose
  measure is minus a count per seat (lady-actions-escape: the cards held) calls
  ``progress_round_batched(tr, batch, counts, now, moved, window, mark_a, mark_b)``: the loop
  detection at once, the metrics of a batch of rounds in one call (``batch``: ``BATCH_SIZE`` more
  slots of its state, ``progress_reset_batched`` when a game starts);
- ``progress_end(tr, vals, sign, now, reason)`` (or ``progress_end_holder(tr, holder, now,
  reason)``, ``progress_end_batched(tr, batch, counts, now, reason)``) once the game is over: the
  last checkpoint (the end counts, also mid-round) and the stalemate reason (0: not a stalemate);
- ``write_progress(out, i, tr, winners, length)`` in ``write_record``.

Every step is integer arithmetic on the block: a game played on from a copy of its state reaches
the same record, and the same games give the same records on any thread count.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simbalance.core.bits import lowest_bit
from simbalance.core.records import MAX_SEATS

# The whole-game metrics are recorded (True), or only the loop detection runs (False: the record
# fields stay 0, as an engine without a tracker leaves them). Only benchmarks/ab_metrics.py sets it
# False, in a copy of the checkout, to measure what recording the metrics costs; numba compiles it
# as a constant, so the branches on it cost nothing.
RECORD_METRICS = True

ROUNDS_KEPT = 3  # the leader and the margin after rounds 1, 2, 3 are recorded
NO_ROUND = -2  # leader_round_k of a game that ended before round k (-1: no sole leader then)
LOWEST = -(1 << 62)

_at = 0


def _take(size: int) -> int:
    global _at
    at = _at
    _at += size
    return at


PR_SUM = _take(MAX_SEATS)  # per seat, the sum of its progress over the checkpoints
PR_BEST_SUM = _take(1)  # the sum of the best progress over the checkpoints (a seat's deficit: this - its sum)
PR_PLAYERS = _take(1)  # seats in the game
PR_ROUND_LEN = _take(1)  # turns per round
PR_NEXT = _take(1)  # the length at which the next round ends
PR_CHECKS = _take(1)  # checkpoints so far (rounds, then the end)
PR_ROUNDS = _take(1)  # rounds checked
PR_BEST = _take(1)  # the best progress at the last checkpoint
PR_LEADERS = _take(1)  # bit mask of the seats with the best progress at the last checkpoint (0: none yet)
PR_SOLE_AT = _take(1)  # the length from which the sole leader of the last checkpoint led alone (-1: a tie)
PR_LAST_SOLE = _take(1)  # the last seat that led alone (-1: nobody yet)
PR_CHANGES = _take(1)  # lead changes: another seat takes the lead alone
PR_SET_CHANGES = _take(1)  # changes of the set of leading seats between checkpoints (Ludii's lead change)
PR_WAS_LAST = _take(1)  # bit mask of the seats that were last at some checkpoint
PR_MARGIN = _take(1)  # the best progress minus the second best at the last checkpoint (0: a tie)
PR_MARGIN_SUM = _take(1)  # the sum of the margins over the checkpoints
PR_RECORD = _take(1)  # the best progress any seat has had
PR_STALL_FROM = _take(1)  # the length when progress was last made
PR_LONGEST = _take(1)  # the longest stretch of turns without progress
PR_MARK_A = _take(1)  # the engine's counters when progress was last made
PR_MARK_B = _take(1)
PR_REASON = _take(1)  # the stalemate reason (0: none)
PR_DONE = _take(1)  # 1 once progress_end has run
PR_LEADER_ROUND = _take(ROUNDS_KEPT)  # the sole leader after round k + 1 (-1: a tie, NO_ROUND: not reached)
PR_MARGIN_ROUND = _take(ROUNDS_KEPT)  # the margin after round k + 1 (-1: not reached)
PROGRESS_SIZE = _at

# The batch of the batched functions (progress_round_batched): ``BATCH_SIZE`` more int64 slots of
# the engine's state, apart from the tracker: the rounds stored (B_COUNT), then in BATCH_ROUNDS
# slots each the four seats' counts (B_COUNTS + s * BATCH_ROUNDS), the leading set, the sole leader
# and the margin the batch's metrics work out (B_LEADERS, B_SOLES, B_MARGINS) and the length at each
# round's end (B_NOW).
# Only B_COUNT is set when a game starts.
BATCH_ROUNDS = 16  # a power of 2
B_COUNT = 0
B_COUNTS = 1
B_LEADERS = B_COUNTS + 4 * BATCH_ROUNDS
B_SOLES = B_LEADERS + BATCH_ROUNDS
B_MARGINS = B_SOLES + BATCH_ROUNDS
B_NOW = B_MARGINS + BATCH_ROUNDS
BATCH_SIZE = B_NOW + BATCH_ROUNDS
BATCH_HIGH = 1 << 30  # above any count (an int32)

# The record fields every engine appends to its own (core.records.record_dtype(... + PROGRESS_FIELDS)).
PROGRESS_FIELDS = [
    ("checkpoints", np.int32),  # rounds checked, plus the end
    ("lead_changes", np.int32),  # times another seat took the lead alone
    ("leader_set_changes", np.int32),  # times the set of leading seats changed (Ludii's lead change)
    ("led_from", np.int32),  # the length from which the winner led alone to the end; -1: no single winner
    ("comeback", np.int8),  # 1: the winner was last at some checkpoint; 0: never; -1: no single winner
    ("winner_deficit", np.int32),  # sum over checkpoints of the best progress minus the winner's; -1: no single winner
    ("margin_sum", np.int32),  # sum over checkpoints of the leader's margin over the second
    ("final_margin", np.int32),  # the leader's margin over the second at the end (0: a tie)
    ("leader_round_1", np.int8),  # the sole leader after round 1 (-1: a tie; -2: the game ended before)
    ("leader_round_2", np.int8),
    ("leader_round_3", np.int8),
    ("margin_round_1", np.int32),  # the leader's margin after round 1 (-1: the game ended before)
    ("margin_round_2", np.int32),
    ("margin_round_3", np.int32),
    ("longest_stall", np.int32),  # the longest stretch of turns without progress (loop detection)
    ("stalemate_reason", np.int8),  # why the game is a stalemate (Engine.stalemate_reasons); 0: it is not
]


@njit(cache=True, forceinline=True, _nrt=False)
def progress_reset(tr, players, round_len, now):
    """A new game of ``players`` seats: nothing tracked yet, the first round ends ``round_len`` turns
    after ``now``."""
    for k in range(PROGRESS_SIZE):
        tr[k] = 0
    tr[PR_PLAYERS] = players
    tr[PR_ROUND_LEN] = round_len
    tr[PR_NEXT] = now + round_len
    tr[PR_SOLE_AT] = -1
    tr[PR_LAST_SOLE] = -1
    tr[PR_RECORD] = LOWEST
    tr[PR_STALL_FROM] = now
    for k in range(ROUNDS_KEPT):
        tr[PR_LEADER_ROUND + k] = NO_ROUND
        tr[PR_MARGIN_ROUND + k] = -1


@njit(cache=True, inline="always")
def _lane(vals, s, sign, players, v0):
    """Seat ``s``'s progress, or seat 0's for a seat not in the game (it then changes no best, worst
    or second best: the checkpoint works on MAX_SEATS lanes without a loop)."""
    return sign * vals[s] if s < players else v0


@njit(cache=True, forceinline=True, _nrt=False)
def _checkpoint(tr, vals, sign, now):
    """One checkpoint of the progress values ``sign * vals[s]``: leaders, lead changes, the seats
    last, the margin, the seats' running sums (drama), the best so far. Returns (new record, sole
    leader or -1, the margin).

    Straight-line code on MAX_SEATS = 6 lanes, selects and no branch: which seat leads is what the
    CPU cannot predict, and in the card games a round is a few dozen nanoseconds of play. A game of
    at most four seats (the common case, and a branch the CPU always predicts) passes seat 0's
    value in lanes 4 and 5, which the compiler then folds away. Inlined by LLVM (``forceinline``),
    not by numba: typed once for the per-round call and the end."""
    players = tr[PR_PLAYERS]
    v0 = sign * vals[0]
    v1 = _lane(vals, 1, sign, players, v0)
    v2 = _lane(vals, 2, sign, players, v0)
    v3 = _lane(vals, 3, sign, players, v0)
    if players <= 4:
        return _checkpoint_lanes(tr, players, now, v0, v1, v2, v3, v0, v0)
    return _checkpoint_lanes(tr, players, now, v0, v1, v2, v3, sign * vals[4], v0 if players < 6 else sign * vals[5])


@njit(cache=True, inline="always")
def _checkpoint_lanes(tr, players, now, v0, v1, v2, v3, v4, v5):
    """_checkpoint's work on the six lanes' values (a seat not in the game: seat 0's value, which
    changes no best, worst or second best)."""
    best = max(max(max(v0, v1), max(v2, v3)), max(v4, v5))
    record = best > tr[PR_RECORD]  # a new best is progress for the loop detection
    tr[PR_RECORD] = max(best, tr[PR_RECORD])
    if not RECORD_METRICS:
        return record, np.int64(-1), np.int64(0)
    worst = min(min(min(v0, v1), min(v2, v3)), min(v4, v5))
    full = (np.int64(1) << players) - 1
    leaders = full & (np.int64(v0 == best) | (np.int64(v1 == best) << 1) | (np.int64(v2 == best) << 2)
                      | (np.int64(v3 == best) << 3) | (np.int64(v4 == best) << 4) | (np.int64(v5 == best) << 5))
    lasts = full & (np.int64(v0 == worst) | (np.int64(v1 == worst) << 1) | (np.int64(v2 == worst) << 2)
                    | (np.int64(v3 == worst) << 3) | (np.int64(v4 == worst) << 4) | (np.int64(v5 == worst) << 5))
    second = max(max(max(LOWEST if v0 == best else v0, LOWEST if v1 == best else v1),
                     max(LOWEST if v2 == best else v2, LOWEST if v3 == best else v3)),
                 max(LOWEST if v4 == best else v4, LOWEST if v5 == best else v5))
    single = leaders & (leaders - 1) == 0
    margin = best - second if single and players > 1 else 0  # a tie for the lead: no margin
    tr[PR_SUM] += v0
    tr[PR_SUM + 1] += v1
    tr[PR_SUM + 2] += v2
    tr[PR_SUM + 3] += v3
    tr[PR_SUM + 4] += v4
    tr[PR_SUM + 5] += v5
    tr[PR_BEST] = best
    tr[PR_BEST_SUM] += best
    tr[PR_WAS_LAST] |= lasts if worst < best else 0
    sole = lowest_bit(leaders) if single else -1
    new = tr[PR_LEADERS] != leaders
    last_sole = tr[PR_LAST_SOLE]
    checks = tr[PR_CHECKS]
    tr[PR_SET_CHANGES] += new & (checks > 0)
    tr[PR_CHANGES] += new & single & (last_sole >= 0) & (sole != last_sole)
    tr[PR_SOLE_AT] = (now if single else -1) if new else tr[PR_SOLE_AT]  # a new stretch of leading alone
    tr[PR_LAST_SOLE] = sole if new & single else last_sole
    tr[PR_LEADERS] = leaders
    tr[PR_MARGIN] = margin
    tr[PR_MARGIN_SUM] += margin
    tr[PR_CHECKS] = checks + 1
    return record, sole, margin


@njit(cache=True, inline="always")
def _round_end(tr, now, record, sole, margin, moved, window, mark_a, mark_b):
    """What a round adds to its checkpoint: its leader and margin (rounds 1 to 3), and the loop
    detection. Returns True once ``window`` turns (> 0) passed without progress."""
    if RECORD_METRICS:
        k = tr[PR_ROUNDS]
        if k < ROUNDS_KEPT:
            tr[PR_LEADER_ROUND + k] = sole
            tr[PR_MARGIN_ROUND + k] = margin
        tr[PR_ROUNDS] = k + 1
    return _loop_detection(tr, now, record, moved, window, mark_a, mark_b)


@njit(cache=True, inline="always")
def _loop_detection(tr, now, record, moved, window, mark_a, mark_b):
    """The round's loop detection (``record``: a new best progress value). True once ``window``
    turns (> 0) passed without progress."""
    tr[PR_NEXT] = now + tr[PR_ROUND_LEN]
    progress = moved | record
    tr[PR_STALL_FROM] = now if progress else tr[PR_STALL_FROM]
    tr[PR_MARK_A] = mark_a if progress else tr[PR_MARK_A]
    tr[PR_MARK_B] = mark_b if progress else tr[PR_MARK_B]
    stall = now - tr[PR_STALL_FROM]
    tr[PR_LONGEST] = max(stall, tr[PR_LONGEST])
    return (window > 0) & (stall >= window)


@njit(cache=True, forceinline=True, _nrt=False)
def progress_round_of(tr, vals, sign, now, moved, window, mark_a, mark_b):
    """The end of a round at length ``now``: the checkpoint of the progress values: seat ``s``'s
    progress is ``sign * vals[s]`` (``vals``: MAX_SEATS entries of the engine's own state, e.g.
    its hand sizes with ``sign`` -1), then the loop detection. Progress is ``moved`` (the engine's
    own sign) or a new best progress of any seat; then ``mark_a`` and ``mark_b`` are kept. Returns
    True once ``window`` turns (> 0) have passed without progress."""
    record, sole, margin = _checkpoint(tr, vals, sign, now)
    return _round_end(tr, now, record, sole, margin, moved, window, mark_a, mark_b)


@njit(cache=True, forceinline=True, _nrt=False)
def _holder_checkpoint(tr, holder, now):
    """_checkpoint of the one-hot progress values of a seat that holds something (1 for
    ``holder``, 0 for every other seat), without reading them: the holder leads alone, by 1 when
    there are others, and every other seat is last. Returns (new record, sole leader, margin) as
    _checkpoint does. Only what changes from one checkpoint to the next is kept here (how often
    each seat held it, when the holder last changed, how often it did); the sums that follow from
    those are filled in by _holder_totals at the end (tests/core/test_whole_game.py checks that the
    records equal the generic checkpoint's)."""
    record = tr[PR_RECORD] < 1
    tr[PR_RECORD] = max(np.int64(1), tr[PR_RECORD])
    margin = np.int64(1) if tr[PR_PLAYERS] > 1 else np.int64(0)
    if not RECORD_METRICS:
        return record, holder, margin
    leaders = np.int64(1) << holder
    tr[PR_SUM + holder] += 1
    new = tr[PR_LEADERS] != leaders
    checks = tr[PR_CHECKS]
    tr[PR_SET_CHANGES] += new & (checks > 0)  # after the first checkpoint a new holder is a lead change too
    tr[PR_SOLE_AT] = now if new else tr[PR_SOLE_AT]
    tr[PR_LEADERS] = leaders
    tr[PR_CHECKS] = checks + 1
    return record, holder, margin


@njit(cache=True, inline="always")
def _holder_totals(tr):
    """What _checkpoint keeps at every checkpoint and _holder_checkpoint leaves to the end: every
    checkpoint's best is 1 and its margin the same, the leader alone is the holder (so every change
    of the leading set is a lead change), and a seat was last at some checkpoint unless it held the
    lead at all of them."""
    players = tr[PR_PLAYERS]
    checks = tr[PR_CHECKS]
    margin = np.int64(1) if players > 1 else np.int64(0)
    tr[PR_BEST] = 1
    tr[PR_BEST_SUM] = checks
    tr[PR_MARGIN] = margin
    tr[PR_MARGIN_SUM] = checks * margin
    tr[PR_CHANGES] = tr[PR_SET_CHANGES]
    tr[PR_LAST_SOLE] = lowest_bit(tr[PR_LEADERS])
    was_last = np.int64(0)
    for s in range(players):
        was_last |= np.int64(tr[PR_SUM + s] < checks) << s
    tr[PR_WAS_LAST] = was_last if players > 1 else 0


@njit(cache=True, forceinline=True, _nrt=False)
def progress_round_holder(tr, holder, now, moved, window, mark_a, mark_b):
    """progress_round_of for a progress measure that one seat holds at a time (1 for ``holder``,
    0 for the others; find-dr-evil: Dr. Ling): the engine finds the holder at the round's end, so
    that its own loop does not track the measure between rounds."""
    record, sole, margin = _holder_checkpoint(tr, holder, now)
    return _round_end(tr, now, record, sole, margin, moved, window, mark_a, mark_b)


@njit(cache=True, _nrt=False)
def _fold_batch(tr, batch):
    """The metrics of the checkpoints of the rounds in ``batch`` (progress_round_batched), as
    _checkpoint and _round_end take them at every round: first what each round gives alone (its
    best and worst, its leading set, its margin, the sums: a loop the compiler vectorizes across
    rounds, on int32 values), then what follows from one round to the next (the lead changes, since when
    the sole leader leads, rounds 1-3). The sums are minus the counts' (the progress is minus the
    count); the checkpoints, the first checkpoint's new leading set and the spare lanes' sums are
    left to _batch_totals. Empties the batch."""
    n = batch[B_COUNT] & (BATCH_ROUNDS - 1)
    n = BATCH_ROUNDS if n == 0 else n  # called with a full batch or at the end with some rounds
    b = batch  # the batch, in short
    players = tr[PR_PLAYERS]
    full = np.int32((1 << players) - 1)
    several = players > 1
    high = np.int32(BATCH_HIGH)
    zero = np.int32(0)
    s0 = s1 = s2 = s3 = np.int64(0)
    lo_sum = np.int64(0)
    margin_sum = np.int64(0)
    was_last = np.int32(0)
    for r in range(n):  # each round alone (vectorized)
        c0 = np.int32(b[B_COUNTS + r])
        c1 = np.int32(b[B_COUNTS + BATCH_ROUNDS + r])
        c2 = np.int32(b[B_COUNTS + 2 * BATCH_ROUNDS + r])
        c3 = np.int32(b[B_COUNTS + 3 * BATCH_ROUNDS + r])
        lo = min(min(c0, c1), min(c2, c3))  # the fewest: the best progress
        hi = max(max(c0, c1), max(c2, c3))
        e0, e1, e2, e3 = c0 == lo, c1 == lo, c2 == lo, c3 == lo
        leaders = full & (np.int32(e0) | (np.int32(e1) << 1) | (np.int32(e2) << 2) | (np.int32(e3) << 3))
        lasts = full & (np.int32(c0 == hi) | (np.int32(c1 == hi) << 1) | (np.int32(c2 == hi) << 2)
                        | (np.int32(c3 == hi) << 3))
        second = min(min(high if e0 else c0, high if e1 else c1), min(high if e2 else c2, high if e3 else c3))
        single = (leaders & (leaders - 1)) == 0
        margin = second - lo if single & several else zero  # a tie for the lead: no margin
        s0 += c0
        s1 += c1
        s2 += c2
        s3 += c3
        lo_sum += lo
        margin_sum += margin
        was_last |= lasts if hi > lo else zero
        b[B_LEADERS + r] = leaders
        b[B_SOLES + r] = (leaders >> 1) - (leaders >> 3) if single else np.int32(-1)  # 1, 2, 4, 8: 0 .. 3
        b[B_MARGINS + r] = margin
    tr[PR_SUM] -= s0
    tr[PR_SUM + 1] -= s1
    tr[PR_SUM + 2] -= s2
    tr[PR_SUM + 3] -= s3
    tr[PR_BEST_SUM] -= lo_sum
    tr[PR_MARGIN_SUM] += margin_sum
    tr[PR_WAS_LAST] |= was_last
    previous = tr[PR_LEADERS]
    last_sole = tr[PR_LAST_SOLE]
    changes = tr[PR_CHANGES]
    news = np.int64(0)
    last_new = np.int64(-1)
    for r in range(n):  # from one round to the next
        leaders = b[B_LEADERS + r]
        sole = b[B_SOLES + r]
        new = leaders != previous
        news += new
        last_new = r if new else last_new
        previous = leaders
        # a sole leader that also led alone at the round before is the last sole leader already:
        # no test of a new leading set needed
        changes += (sole >= 0) & (last_sole >= 0) & (sole != last_sole)
        last_sole = sole if sole >= 0 else last_sole
    if last_new >= 0:  # a new stretch of leading alone (or of no sole leader) began there
        tr[PR_SOLE_AT] = b[B_NOW + last_new] if b[B_SOLES + last_new] >= 0 else -1
    rounds = tr[PR_ROUNDS]
    for r in range(min(n, ROUNDS_KEPT - rounds)):  # rounds 1 to 3
        tr[PR_LEADER_ROUND + rounds + r] = b[B_SOLES + r]
        tr[PR_MARGIN_ROUND + rounds + r] = b[B_MARGINS + r]
    tr[PR_LEADERS] = previous
    tr[PR_LAST_SOLE] = last_sole
    tr[PR_CHANGES] = changes
    tr[PR_SET_CHANGES] += news  # the first checkpoint's new set is taken off by _batch_totals
    tr[PR_ROUNDS] = rounds + n
    batch[B_COUNT] = 0


@njit(cache=True, inline="always")
def _batch_totals(tr, batch):
    """The rest of the batch's metrics, and what _fold_batch leaves to the end: then the tracker
    is the one _checkpoint keeps at every round (but for the best and the margin of the last
    round, which the end's checkpoint replaces)."""
    if batch[B_COUNT] > 0:
        _fold_batch(tr, batch)
    rounds = tr[PR_ROUNDS]
    tr[PR_CHECKS] = rounds  # every checkpoint so far ended a round
    tr[PR_SET_CHANGES] -= rounds > 0  # the first checkpoint's new leading set is no change
    tr[PR_SUM + 4] = tr[PR_SUM]  # the spare lanes hold seat 0's progress
    tr[PR_SUM + 5] = tr[PR_SUM]


@njit(cache=True, forceinline=True, _nrt=False)
def progress_reset_batched(tr, batch, players, round_len, now):
    """progress_reset for the batched functions; ``batch``: BATCH_SIZE slots of the engine's state."""
    progress_reset(tr, players, round_len, now)
    batch[B_COUNT] = 0


@njit(cache=True, forceinline=True, _nrt=False)
def progress_round_batched(tr, batch, counts, now, moved, window, mark_a, mark_b):
    """progress_round_of(tr, counts, -1, now, ...) for a progress measure of minus a count per seat
    (lady-actions-escape: the cards held; ``counts``: MAX_SEATS entries of the engine's state), the
    checkpoints' metrics put off: a game of at most four seats takes the round's best (the loop
    detection's new record) now and stores its counts and length in ``batch``; a full batch of
    BATCH_ROUNDS rounds is worked out in one call (_fold_batch), and progress_end_batched takes the
    rest. The tracker's metrics are whole only then; the loop detection is the same, round by
    round (tests/core/test_whole_game.py: the same tracker and records as progress_round_of). In
    lady-actions-escape a round of four turns is about 200 ns of play, and the checkpoint taken
    round by round added 9 to 11 (BENCHMARKS.md, "Issue 21")."""
    players = tr[PR_PLAYERS]
    if players > 4:
        record, sole, margin = _checkpoint(tr, counts, np.int64(-1), now)
        return _round_end(tr, now, record, sole, margin, moved, window, mark_a, mark_b)
    c0 = counts[0]
    c1 = counts[1] if players > 1 else c0
    c2 = counts[2] if players > 2 else c0
    c3 = counts[3] if players > 3 else c0
    lo = min(min(c0, c1), min(c2, c3))
    record = -lo > tr[PR_RECORD]  # a new best is progress for the loop detection
    tr[PR_RECORD] = max(-lo, tr[PR_RECORD])
    if RECORD_METRICS:
        n = batch[B_COUNT] & (BATCH_ROUNDS - 1)
        batch[B_COUNTS + n] = c0
        batch[B_COUNTS + BATCH_ROUNDS + n] = c1
        batch[B_COUNTS + 2 * BATCH_ROUNDS + n] = c2
        batch[B_COUNTS + 3 * BATCH_ROUNDS + n] = c3
        batch[B_NOW + n] = now
        batch[B_COUNT] = n + 1
        if n == BATCH_ROUNDS - 1:
            _fold_batch(tr, batch)
    return _loop_detection(tr, now, record, moved, window, mark_a, mark_b)


@njit(cache=True, inline="always")
def _finish(tr, now, reason):
    """What the end adds to its checkpoint: the last stretch without progress, the reason."""
    stall = now - tr[PR_STALL_FROM]
    tr[PR_LONGEST] = max(stall, tr[PR_LONGEST])
    tr[PR_REASON] = reason
    tr[PR_DONE] = 1


@njit(cache=True, _nrt=False)
def progress_end(tr, vals, sign, now, reason):
    """The game is over at length ``now``: the last checkpoint, of the progress values ``sign *
    vals[s]``, and for a stalemate its reason. Only the first call counts. Not inlined: once a
    game."""
    if tr[PR_DONE] != 0:
        return
    _checkpoint(tr, vals, sign, now)
    _finish(tr, now, reason)


@njit(cache=True, _nrt=False)
def progress_end_batched(tr, batch, counts, now, reason):
    """progress_end(tr, counts, -1, now, reason) after progress_round_batched: the metrics of the
    rounds still in the batch, then the end's checkpoint."""
    if tr[PR_DONE] != 0:
        return
    if RECORD_METRICS and tr[PR_PLAYERS] <= 4:
        _batch_totals(tr, batch)
    _checkpoint(tr, counts, np.int64(-1), now)
    _finish(tr, now, reason)


@njit(cache=True, _nrt=False)
def progress_end_holder(tr, holder, now, reason):
    """progress_end for a measure that one seat holds at a time (progress_round_holder)."""
    if tr[PR_DONE] != 0:
        return
    _holder_checkpoint(tr, holder, now)
    if RECORD_METRICS:
        _holder_totals(tr)
    _finish(tr, now, reason)


@njit(cache=True, inline="always")
def write_progress(out, i, tr, winners, length):
    """The tracker's record fields into ``out[i]`` (``winners``: the game's winners bit mask)."""
    if not RECORD_METRICS:
        out[i].longest_stall = tr[PR_LONGEST]  # the loop detection's own fields
        out[i].stalemate_reason = tr[PR_REASON]
        return
    players = tr[PR_PLAYERS]
    out[i].checkpoints = tr[PR_CHECKS]
    out[i].lead_changes = tr[PR_CHANGES]
    out[i].leader_set_changes = tr[PR_SET_CHANGES]
    single = winners != 0 and (winners & (winners - 1)) == 0
    if single:
        w = 0
        for s in range(players):
            if winners == 1 << s:
                w = s
        led = tr[PR_LEADERS] == winners and tr[PR_SOLE_AT] >= 0
        out[i].led_from = tr[PR_SOLE_AT] if led else length
        out[i].comeback = (tr[PR_WAS_LAST] >> w) & 1
        out[i].winner_deficit = tr[PR_BEST_SUM] - tr[PR_SUM + w]
    else:
        out[i].led_from = -1
        out[i].comeback = -1
        out[i].winner_deficit = -1
    out[i].margin_sum = tr[PR_MARGIN_SUM]
    out[i].final_margin = tr[PR_MARGIN]
    out[i].leader_round_1 = tr[PR_LEADER_ROUND]
    out[i].leader_round_2 = tr[PR_LEADER_ROUND + 1]
    out[i].leader_round_3 = tr[PR_LEADER_ROUND + 2]
    out[i].margin_round_1 = tr[PR_MARGIN_ROUND]
    out[i].margin_round_2 = tr[PR_MARGIN_ROUND + 1]
    out[i].margin_round_3 = tr[PR_MARGIN_ROUND + 2]
    out[i].longest_stall = tr[PR_LONGEST]
    out[i].stalemate_reason = tr[PR_REASON]
