"""The kernels of ``simbalance card-value`` (studies/card_value.py, docs/card_value.md): the paired
play-outs that value a card (the same state with and without it) and a decision (every option
from the same state), written once for every game over the resumable steps (core/spec.Resumable)
and the game's card-swap hooks (core/spec.CardSwap).

Each game calls them through entry points of its own that name its steps once (its
``card_value_nb.value_cards`` and ``value_decisions``; the study picks them with
``players.game_kernel``): numba caches those, where these kernels called from Python with the
game's functions as arguments would be compiled again in every process. They are
``inline="always"`` (numba copies their code into the entry point): a call that stayed a call
would pass the game's functions as their addresses in this process, which numba refuses to cache
("dynamic globals"); LLVM's ``forceinline`` avoids that too, but captain-action's entry point then
took 7.5 minutes to compile (wall, on a loaded machine) against seconds. They hold no GIL: the study plays blocks of states on threads. State ``k``'s randomness is
keyed by ``(seed, k)`` alone, so the same seed gives the same values on any thread count.

**Sampling a state.** State ``k`` is a point of game ``k`` of ``seed`` (seats: ``lineups[k %
len(lineups)]``): the game is played once to learn its length ``L`` in decisions, then started
again and stopped before decision ``d``, drawn uniformly in its phase's third of the game
(``phase`` 0, 1, 2: decisions ``[L p / 3, L (p + 1) / 3)``).

**Common random numbers.** Play-out ``j`` of state ``k`` re-keys every copy's own stream with the
same word (``rekey``), so the copy with the card and the copy without it, or the copies after two
options, draw the same numbers as long as their games draw alike.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simbalance.core.rng import GOLDEN, mix64, next_u64, randint, seed_game
from simbalance.players.common_nb import shares

SALT_PICK = np.uint64(0x5EED0001)
SALT_PLAY = np.uint64(0x5EED0002)
SALT_SWAP = np.uint64(0x5EED0003)


@njit(inline="always")
def _seats(lineups, slot_strategy, slot_params, game, sid, prm):
    n_lineups = lineups.shape[0]
    for s in range(sid.shape[0]):
        slot = lineups[game % n_lineups, s]
        sid[s] = slot_strategy[slot]
        for j in range(prm.shape[1]):
            prm[s, j] = slot_params[slot, j]


@njit(inline="always")
def _block_rows(players, slot_params):
    """What a block of states reuses: each seat's strategy id and parameters (``_seats`` fills them
    per state), the state-picking stream and a key for ``rekey`` or ``determinize``."""
    sid = np.zeros(players, np.int64)
    prm = np.zeros((players, slot_params.shape[1]), np.float64)
    return sid, prm, np.zeros(1, np.uint64), np.zeros(1, np.uint64)


@njit(inline="always")
def _sample_state(start, play_out, ctx, state, sid, prm, seed, k, phase, rng):
    """State ``k`` (module doc, "Sampling a state") into ``state``: returns (game length in
    decisions, the decision stopped before); (0, -1) for a game with no decision."""
    start(ctx, state, seed, k)
    length = play_out(ctx, state, sid, prm, np.int64(-1))
    if length <= 0:
        return length, np.int64(-1)
    lo = (length * phase) // 3
    hi = max(lo + 1, (length * (phase + 1)) // 3)
    hi = min(hi, length)
    lo = min(lo, hi - 1)
    d = lo + randint(rng, hi - lo)
    start(ctx, state, seed, k)
    play_out(ctx, state, sid, prm, np.int64(d))
    return length, d


@njit(nogil=True, inline="always")
def value_cards(start, play_out, to_move, clone, held, swap, rekey, outcome, ctx, state, block, out):
    """States ``lo .. hi - 1`` (``phases[k - lo]``: state k's phase 0, 1, 2): at each, every card
    ``c`` with ``want[c]`` held by any seat ``s`` is valued by ``playouts`` paired play-outs: the
    state as it is and a copy with ``c`` swapped out (``swap``, a fresh draw per play-out), both
    re-keyed alike; row ``k - lo``, column ``i`` of the outputs: the seat, the card, the last card
    swapped in, the mean of ``s``'s share with minus without over the play-outs whose swap found a
    card (``out_ok``), and ``out_n``: the columns used."""
    # the block's inputs and its outputs come as two tuples: a game's entry point passes them on whole
    lineups, slot_strategy, slot_params, seed, lo, hi, phases, playouts, want, held_buf = block
    out_length, out_decision, out_mover, out_seat, out_card, out_in, out_diff, out_ok, out_n = out
    players = lineups.shape[1]
    width = out_seat.shape[1]
    sid, prm, rng, key = _block_rows(players, slot_params)
    srng = np.zeros(1, np.uint64)
    rew = np.zeros(players, np.float64)
    base = np.zeros((playouts, players), np.float64)
    keys = np.zeros(playouts, np.uint64)
    for k in range(lo, hi):
        r = k - lo
        out_n[r] = 0
        _seats(lineups, slot_strategy, slot_params, k, sid, prm)
        seed_game(rng, seed ^ SALT_PICK, k)
        length, d = _sample_state(start, play_out, ctx, state, sid, prm, seed, k, phases[r], rng)
        out_length[r] = length
        out_decision[r] = d
        mover = to_move(ctx, state) if d >= 0 else -1
        out_mover[r] = mover
        if mover < 0:
            continue
        n = 0
        for s in range(players):
            m = held(ctx, state, s, held_buf)
            for i in range(m):
                if want[held_buf[i]] and n < width:
                    out_seat[r, n] = s
                    out_card[r, n] = held_buf[i]
                    n += 1
        out_n[r] = n
        if n == 0:
            continue
        seed_game(rng, seed ^ SALT_PLAY, k)
        for j in range(playouts):
            keys[j] = next_u64(rng)
            copy = clone(state)
            key[0] = keys[j]
            rekey(copy, key)
            play_out(ctx, copy, sid, prm, np.int64(-1))
            shares(outcome(ctx, copy), rew, players)
            for s in range(players):
                base[j, s] = rew[s]
        for i in range(n):
            s = out_seat[r, i]
            total = 0.0
            ok = 0
            for j in range(playouts):
                copy = clone(state)
                srng[0] = mix64(keys[j] ^ SALT_SWAP) + np.uint64(i) * GOLDEN
                came = swap(ctx, copy, s, out_card[r, i], srng)
                if came < 0:
                    continue
                out_in[r, i] = came
                key[0] = keys[j]
                rekey(copy, key)
                play_out(ctx, copy, sid, prm, np.int64(-1))
                shares(outcome(ctx, copy), rew, players)
                total += base[j, s] - rew[s]
                ok += 1
            out_ok[r, i] = ok
            out_diff[r, i] = total / ok if ok > 0 else 0.0


@njit(nogil=True, inline="always")
def value_decisions(start, play_out, to_move, legal_options, apply_option, clone, determinize, outcome,
                    option_kind, ctx, state, block, out):
    """Decisions ``lo .. hi - 1``, sampled as states are (module doc). At each, the pending
    decision's options are sorted by kind (``option_kind``: a slot decision may offer land, attack
    and exchange options at once); for every kind with at least two options, up to ``cap`` of them
    (drawn uniformly when there are more) are each applied to the same ``playouts``
    determinizations from the mover's view (``determinize``, which re-keys the stream too: every
    option plays on with the same draws) and played out. Row ``k - lo``, column ``kind``: the
    options tried (0 or 1: the kind was not valued there), the best and the worst option's mean
    share of the mover's win, and ``out_split``: the spread measured apart from the choice (the best
    and the worst option picked on the even play-outs and their difference measured on the odd
    ones, and the other way round, averaged: no upward bias from picking the largest of noisy
    means; with one play-out, the plain spread). ``out_mover``: -1 where no decision was sampled."""
    lineups, slot_strategy, slot_params, seed, lo, hi, phases, playouts, cap, options, chosen = block
    out_mover, out_options, out_best, out_worst, out_split = out
    players = lineups.shape[1]
    n_kinds = out_options.shape[1]
    sid, prm, rng, key = _block_rows(players, slot_params)
    rew = np.zeros(players, np.float64)
    keys = np.zeros(playouts, np.uint64)
    got = np.zeros((cap, playouts), np.float64)
    for k in range(lo, hi):
        r = k - lo
        for kind in range(n_kinds):
            out_options[r, kind] = 0
        _seats(lineups, slot_strategy, slot_params, k, sid, prm)
        seed_game(rng, seed ^ SALT_PICK, k)
        _, d = _sample_state(start, play_out, ctx, state, sid, prm, seed, k, phases[r], rng)
        mover = to_move(ctx, state) if d >= 0 else -1
        out_mover[r] = mover
        if mover < 0:
            continue
        n_all = legal_options(ctx, state, options)
        pick = np.zeros(1, np.uint64)
        pick[0] = rng[0]
        seed_game(rng, seed ^ SALT_PLAY, k)
        for j in range(playouts):
            keys[j] = next_u64(rng)
        for kind in range(n_kinds):
            n = 0
            for i in range(n_all):
                if option_kind(ctx, state, options[i]) == kind:
                    chosen[n] = options[i]
                    n += 1
            for i in range(min(n, cap)):  # a uniform sample of cap options: a partial shuffle
                t = i + randint(pick, n - i)
                chosen[i], chosen[t] = chosen[t], chosen[i]
            n = min(n, cap)
            out_options[r, kind] = n
            if n < 2:
                continue
            for j in range(playouts):
                key[0] = keys[j]
                det = clone(state)
                determinize(ctx, det, mover, key)
                for i in range(n):
                    copy = clone(det)
                    apply_option(ctx, copy, chosen[i])
                    play_out(ctx, copy, sid, prm, np.int64(-1))
                    shares(outcome(ctx, copy), rew, players)
                    got[i, j] = rew[mover]
            best = -1.0
            worst = 2.0
            for i in range(n):
                m = 0.0
                for j in range(playouts):
                    m += got[i, j]
                best = max(best, m / playouts)
                worst = min(worst, m / playouts)
            out_best[r, kind] = best
            out_worst[r, kind] = worst
            out_split[r, kind] = best - worst
            if playouts >= 2:
                split = 0.0
                for half in range(2):
                    hi_i, lo_i, hi_m, lo_m = 0, 0, -1.0, 2.0
                    for i in range(n):
                        m = 0.0
                        for j in range(half, playouts, 2):
                            m += got[i, j]
                        if m > hi_m:
                            hi_i, hi_m = i, m
                        if m < lo_m:
                            lo_i, lo_m = i, m
                    diff = 0.0
                    c = 0
                    for j in range(1 - half, playouts, 2):
                        diff += got[hi_i, j] - got[lo_i, j]
                        c += 1
                    split += diff / c
                out_split[r, kind] = split / 2
