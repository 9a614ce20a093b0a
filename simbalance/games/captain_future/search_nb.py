"""What the search players (simbalance/players) need of captain-future: ``determinize``,
``outcome``, ``evaluate``, ``features`` (the fitted evaluation's: ``FEATURES``) and ``policy``
(docs/strategies.md).

What a seat sees: the board (every ship, the stone, the supplies, the scores), its own hand, the
size of every hand and of the stack, the discard pile (cards are played and exchanged face up) and
every count in the state (events played, attacks, turns). Hidden from it: the cards of the other
hands and the order of the stack. The secret stone's place is public here: every player sees its
effect at once (a blocked landing or attack), and the rules' strategies all read it.

The search asks ``play_nb.search_options`` for a decision's options, a subset of
``legal_options`` (play_nb says which and why).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simbalance.core.records import END_WIN
from simbalance.core.rng import next_u64
from simbalance.core.rng import shuffle
from simbalance.games.captain_future.rules_nb import can_attack
from simbalance.games.captain_future.rules_nb import can_exchange
from simbalance.games.captain_future.rules_nb import can_land
from simbalance.games.captain_future.rules_nb import grag_ok
from simbalance.games.captain_future.rules_nb import otto_ok
from simbalance.games.captain_future.rules_nb import recall_ok
from simbalance.games.captain_future.rules_nb import snapshot
from simbalance.games.captain_future.rules_nb import stone_blocks_attack
from simbalance.games.captain_future.rules_nb import stone_body
from simbalance.games.captain_future.rules_nb import stone_place
from simbalance.games.captain_future.rules_nb import taken_space
from simbalance.games.captain_future.state_nb import BODY_SIZE
from simbalance.games.captain_future.state_nb import BODY_SP
from simbalance.games.captain_future.state_nb import CNT
from simbalance.games.captain_future.state_nb import DISCARD
from simbalance.games.captain_future.state_nb import ELB
from simbalance.games.captain_future.state_nb import EMPTY_K
from simbalance.games.captain_future.state_nb import END
from simbalance.games.captain_future.state_nb import EV
from simbalance.games.captain_future.state_nb import EXCH
from simbalance.games.captain_future.state_nb import FILLED
from simbalance.games.captain_future.state_nb import FINAL_LEFT
from simbalance.games.captain_future.state_nb import HAND_N
from simbalance.games.captain_future.state_nb import HANDS
from simbalance.games.captain_future.state_nb import KJ
from simbalance.games.captain_future.state_nb import LANDS
from simbalance.games.captain_future.state_nb import MB
from simbalance.games.captain_future.state_nb import MBS
from simbalance.games.captain_future.state_nb import MK
from simbalance.games.captain_future.state_nb import MP
from simbalance.games.captain_future.state_nb import NB
from simbalance.games.captain_future.state_nb import NC
from simbalance.games.captain_future.state_nb import NCARDS
from simbalance.games.captain_future.state_nb import NK
from simbalance.games.captain_future.state_nb import NL
from simbalance.games.captain_future.state_nb import NR
from simbalance.games.captain_future.state_nb import NSTACK
from simbalance.games.captain_future.state_nb import ONBOARD
from simbalance.games.captain_future.state_nb import OPT_ATTACK
from simbalance.games.captain_future.state_nb import OPT_EXCHANGE
from simbalance.games.captain_future.state_nb import OPT_GRAG
from simbalance.games.captain_future.state_nb import OPT_LAND
from simbalance.games.captain_future.state_nb import OPT_NONE
from simbalance.games.captain_future.state_nb import OPT_OTTO
from simbalance.games.captain_future.state_nb import OPT_RECALL
from simbalance.games.captain_future.state_nb import OPT_SIMON
from simbalance.games.captain_future.state_nb import OWNER
from simbalance.games.captain_future.state_nb import PH_EVENT_BEFORE
from simbalance.games.captain_future.state_nb import PH_OVER
from simbalance.games.captain_future.state_nb import PH_SLOT
from simbalance.games.captain_future.state_nb import PHASE
from simbalance.games.captain_future.state_nb import PLAYERS
from simbalance.games.captain_future.state_nb import REMOVED
from simbalance.games.captain_future.state_nb import S_EV
from simbalance.games.captain_future.state_nb import S_EXCH
from simbalance.games.captain_future.state_nb import S_HAND
from simbalance.games.captain_future.state_nb import S_LANDS
from simbalance.games.captain_future.state_nb import S_OWN
from simbalance.games.captain_future.state_nb import SCORE
from simbalance.games.captain_future.state_nb import SEARCHERS
from simbalance.games.captain_future.state_nb import SEAT
from simbalance.games.captain_future.state_nb import SHIPS
from simbalance.games.captain_future.state_nb import SID
from simbalance.games.captain_future.state_nb import SLOT
from simbalance.games.captain_future.state_nb import SP_BODY
from simbalance.games.captain_future.state_nb import STACK
from simbalance.games.captain_future.state_nb import STONE_I
from simbalance.games.captain_future.state_nb import STONE_T
from simbalance.games.captain_future.state_nb import SUPPLY
from simbalance.games.captain_future.state_nb import TURN
from simbalance.games.captain_future.state_nb import W_KIND
from simbalance.games.captain_future.state_nb import option
from simbalance.games.captain_future.strategies_nb import do_event
from simbalance.games.captain_future.strategies_nb import do_slot
from simbalance.players.common_nb import fully_observed

# What a seat sees of another's move (the search's ``observe``, docs/strategies.md "Hidden moves"): every
# move is made in the open here (the cards are hidden, the moves are not).
observe = fully_observed


@njit(cache=True, _nrt=False)
def copy_position(ctx, dst, src):
    """The search's copy of a state (players/search_nb.py's ``copy_position`` hook): what a position
    needs, about 40% less than every array whole (copy_state's 67 KB, two or three times an
    iteration: an all-mcts@100 table 0.85 of the time with this copy, BENCHMARKS.md "Issue 56: the
    search players"). Left out, each never read before it is written in a copy:

    - the stack's and the discard pile's slots from the deck's size on (``MN`` each, the largest
      deck: no card is ever there, they are 0 in every state);
    - ``order``, the deck as shuffled for the deal (read by the deal only; ``determinize`` writes
      what it reads there);
    - ``work`` without validation (with it, the step checks' snapshots: copied whole);

    the heuristics' cache (``fs``) is copied whole: its records are valid by the board's versions in
    ``st``, which a copy brings along."""
    bd, validate = ctx
    st, fs, buf, rng, prm, work, _ = src
    d_st, d_fs, d_buf, d_rng, d_prm, d_work, _ = dst
    n_cards = bd[NCARDS]
    for j in range(STACK + n_cards):
        d_st[j] = st[j]
    for j in range(DISCARD, DISCARD + n_cards):
        d_st[j] = st[j]
    for j in range(fs.shape[0]):
        d_fs[j] = fs[j]
    for j in range(buf.shape[0]):
        d_buf[j] = buf[j]
    d_rng[0] = rng[0]
    for q in range(prm.shape[0]):
        for j in range(prm.shape[1]):
            d_prm[q, j] = prm[q, j]
    if validate:
        for j in range(work.shape[0]):
            d_work[j] = work[j]


# evaluate's softmax temperature, in points of score
EVAL_TEMPERATURE = 2.0


@njit(cache=True, _nrt=False)
def determinize(ctx, state, seat, rng):
    """Shuffle the cards ``seat`` cannot see (the other hands and the stack) among those places,
    each keeping its size; then re-key the game's own stream from ``rng``.

    The hidden cards are laid out kind by kind before the shuffle, so the result depends on which
    cards are hidden, never on where they really are: the same ``rng`` gives the same
    determinization of every state the seat cannot tell apart. The deck as dealt (``order``, read
    only by the deal) is the shuffle's buffer, and the stack's slots above its top (the cards drawn
    from it, now in hands) are cleared, so that no copy of the real hidden cards is left in the
    state. The heuristics' cache is kept: it holds values of the board alone (public)."""
    bd = ctx[0]
    st, _, _, srng, _, work, order = state
    P = bd[PLAYERS]
    n_kinds = bd[NK]
    for k in range(n_kinds):
        work[W_KIND + k] = 0
    for q in range(P):
        for k in range(n_kinds):
            work[W_KIND + k] += st[HANDS + q * MK + k] if q != seat else 0
    for j in range(st[NSTACK]):
        work[W_KIND + st[STACK + j]] += 1
    m = 0
    for k in range(n_kinds):
        for _ in range(work[W_KIND + k]):
            order[m] = k
            m += 1
    shuffle(rng, order, m)
    m = 0
    for q in range(P):
        if q == seat:
            continue
        for k in range(MK):
            st[HANDS + q * MK + k] = 0
        for _ in range(st[HAND_N + q]):
            st[HANDS + q * MK + order[m]] += 1
            m += 1
    for j in range(st[NSTACK]):
        st[STACK + j] = order[m]
        m += 1
    for j in range(st[NSTACK], bd[NCARDS]):
        st[STACK + j] = 0
    for j in range(order.shape[0]):
        order[j] = 0
    srng[0] = next_u64(rng)


@njit(cache=True, _nrt=False)
def outcome(ctx, state):
    """The finished game's winners (bit s: seat s shares the highest score); 0 for a timeout, a
    stalemate or an invalid game (as write_record)."""
    bd = ctx[0]
    st = state[0]
    if st[END] != END_WIN:
        return np.int64(0)
    top = st[SCORE]
    for q in range(1, bd[PLAYERS]):
        top = max(top, st[SCORE + q])
    winners = np.int64(0)
    for q in range(bd[PLAYERS]):
        if st[SCORE + q] == top:
            winners |= np.int64(1) << q
    return winners


@njit(cache=True, _nrt=False)
def evaluate(ctx, state, rew):
    """A play-out cut short: each seat's share of the win as a softmax of the scores as the board
    stands (temperature EVAL_TEMPERATURE points): a lead of a few points is likely but not sure to
    hold, and a cut play-out should still tell a 1-point lead from a 6-point one."""
    bd = ctx[0]
    st = state[0]
    P = bd[PLAYERS]
    top = st[SCORE]
    for q in range(1, P):
        top = max(top, st[SCORE + q])
    total = 0.0
    for q in range(P):
        rew[q] = np.exp((st[SCORE + q] - top) / EVAL_TEMPERATURE)
        total += rew[q]
    for q in range(P):
        rew[q] /= total


# The fitted evaluation's features of a seat (``features``; docs/strategies.md, "The fitted
# evaluation"). The conditional logit compares seats, so a feature that is the same for every seat
# (the turn, the game's progress p = 1 - the fewest ships in any supply / ships) would cancel:
# progress enters as weights on each term's early part (times 1 - p) and late part (times p). The
# score, which decides the winner, has both: what a point is worth moves linearly from the early
# weight at the start to the late one at the end, and a sign bound on both bounds it at every p.
# Majorities and the ship lead have only an early part: they are worth something while they may
# still turn into points, and by the end the points they earned are in the score (a late weight on
# them counted those points twice, and the fit gave the score's worth to them: issue 53, with
# `score`, `bonuses` and `score x progress` every fit held the score's weights at the bound 0, and
# the evaluation ignored the points). No ships in supply or on the board: fitted to heuristic
# games, they weighed a ship held back above a ship landed (at equal points, more ships on the
# board meant worse-placed ones), a lever for a search that maximizes the evaluation (mcts-100 at
# depth 10 won 10% of its seats with them, docs/strategies.md).
FEATURES = (
    "score_early",  # points as the board stands, times 1 - progress
    "score_late",  # points times progress
    "gap_early",  # score minus the best other score, times 1 - progress
    "gap_late",  # the gap times progress
    "majorities_early",  # bodies where the seat has strictly the most ships, times 1 - progress
    "lead_early",  # per body, the seat's ships minus the most of any other seat, summed, times 1 - progress
    "lost",  # ships attacked off the board (out of the game)
    "hand",  # cards in hand
    "landable",  # own cards naming an empty space (jokers included): landings in hand (own view)
)
# The sign each weight may take (1: at least 0, -1: at most 0, 0: either): what the rules say is
# good for a seat stays good in the fit, so that a search maximizing the evaluation is never led to
# give points away for a correlation of the heuristics' games (docs/strategies.md).
FEATURE_SIGNS = (1, 1, 1, 1, 1, 1, -1, 0, 0)


@njit(cache=True, _nrt=False)
def features(ctx, state, seat, out):
    """Seat ``seat``'s ``FEATURES`` into ``out``. Public: the board (ships, scores, the bodies'
    holders), every hand's size, the supplies and the ships lost; own view: the kinds of the cards
    in ``seat``'s own hand (``landable``). No other seat's cards are read."""
    bd = ctx[0]
    st = state[0]
    P = bd[PLAYERS]
    best_other = -(1 << 30)
    fewest = bd[SHIPS]
    for q in range(P):
        fewest = min(fewest, st[SUPPLY + q])
        if q != seat:
            best_other = max(best_other, st[SCORE + q])
    progress = 1.0 - fewest / max(1, bd[SHIPS])
    majorities = 0
    lead = 0
    for b in range(bd[NB]):
        mine = st[CNT + b * MP + seat]
        most = 0
        for q in range(P):
            if q != seat:
                most = max(most, st[CNT + b * MP + q])
        lead += mine - most
        majorities += 1 if mine > most else 0
    h = HANDS + seat * MK
    landable = st[h + bd[KJ]] if st[SUPPLY + seat] > 0 else 0
    for k in range(bd[KJ]):  # rows, columns, bodies: does the kind name an empty space?
        landable += st[h + k] if st[EMPTY_K + k] > 0 and st[SUPPLY + seat] > 0 else 0
    gap = st[SCORE + seat] - best_other
    early = 1.0 - progress
    out[0] = st[SCORE + seat] * early
    out[1] = st[SCORE + seat] * progress
    out[2] = gap * early
    out[3] = gap * progress
    out[4] = majorities * early
    out[5] = lead * early
    out[6] = st[REMOVED + seat]
    out[7] = st[HAND_N + seat]
    out[8] = landable


@njit(cache=True, _nrt=False)
def policy(ctx, state, sid, params):
    """The option heuristic ``sid`` takes at the pending decision: its own decision function
    (strategies_nb.do_slot / do_event, untouched) runs on ``state`` (a scratch copy: it is changed)
    and the option is read back from what changed, the way the replay's log reads a step."""
    bd = ctx[0]
    st, fs, buf, rng, seat_prm, work, _ = state
    p = st[SEAT]
    st[SID + p] = sid
    for j in range(seat_prm.shape[1]):
        seat_prm[p, j] = params[j] if j < params.shape[0] else 0.0
    st[SEARCHERS] = 0
    snapshot(bd, st, work, p)
    phase = st[PHASE]
    if phase == PH_SLOT:
        if not do_slot(sid, seat_prm[p], bd, st, fs, buf, rng, p, st[FINAL_LEFT] > 0):
            return option(OPT_NONE, 0, 0)
        s = taken_space(bd, st, work, p)
        if st[LANDS] != work[S_LANDS]:
            gone = 0
            for k in range(MK):
                if work[S_HAND + k] - st[HANDS + p * MK + k] == 1:
                    gone = k
            return option(OPT_LAND, gone, s)
        if st[EXCH] != work[S_EXCH]:
            drawn = st[STACK + st[NSTACK]]  # left just above the stack's new top
            gone = 0
            for k in range(MK):
                if work[S_HAND + k] - st[HANDS + p * MK + k] + (1 if k == drawn else 0) == 1:
                    gone = k
            return option(OPT_EXCHANGE, gone, 0)
        return option(OPT_ATTACK, 0, s)
    if not do_event(sid, seat_prm[p], bd, st, fs, rng, p, seat_prm, 0 if phase == PH_EVENT_BEFORE else 1):
        return option(OPT_NONE, 0, 0)
    e = 0
    for j in range(4):
        if st[EV + j] != work[S_EV + j]:
            e = j
    if e == 0:
        return option(OPT_SIMON, stone_place(bd, st[STONE_T], st[STONE_I]), 0)
    if e == 1:
        return option(OPT_RECALL, 0, 0)
    dst = taken_space(bd, st, work, p)
    if e == 3:
        return option(OPT_GRAG, dst, 0)
    src = -1
    for s in range(bd[NL]):
        if work[S_OWN + s] == p and st[OWNER + s] != p:
            src = s
    return option(OPT_OTTO, src, dst)


# ---- the search's options: a subset of legal_options ------------------------------------------


@njit(cache=True, _nrt=False, inline="always")
def _rot(st):
    """A start that moves with the position (turn, slot, phase): the candidates below take the
    first of equals from it, so that no space, card or body is first in every game."""
    return st[TURN] * 7 + st[SLOT] * 3 + st[PHASE]


@njit(cache=True, _nrt=False)
def _target(bd, st, p, b, rot):
    """The space of body ``b`` that GRAG or Otto brings ``p``'s ship to: the ship of the opponent
    with the most ships there (a swing for ``p``), else an empty space; -1 when the stone blocks
    the body or ``p`` holds all of it."""
    best = -1
    best_v = -1
    n = bd[BODY_SIZE + b]
    for jj in range(n):
        s = bd[BODY_SP + b * MBS + (jj + rot + b) % n]
        q = st[OWNER + s]
        if q == p or stone_blocks_attack(bd, st, s):
            continue
        v = 0 if q < 0 else 1 + st[CNT + b * MP + q]
        if v > best_v:
            best_v = v
            best = s
    return best


@njit(cache=True, _nrt=False)
def search_options(ctx, state, options):
    """The options the search weighs at the pending decision (a subset of ``legal_options``): the
    rule text allows hundreds (every card on every space it names, Otto's every pair of spaces), far
    more than a search of a few hundred play-outs can tell apart; these are one per body and kind
    of move, everything else the same:

    - a slot: per body, one landing (the row or column card naming the fewest empty spaces, else the
      body card, else a joker; the first empty space it names from a start that moves with the
      turn); every attack; one exchange (a card that names no empty space, else a row, column or
      body card, jokers and events last); the pass when nothing is legal;
    - an event: none; Simon Wright onto every other body (the stone protects a body; the heuristics
      move it to bodies only); Recall; GRAG per body (onto the ship of the opponent with the most
      ships there, else an empty space); Otto per body reached as GRAG's, from the body where ``p``
      has the fewest ships.

    Everything here is the seat's view (no card of another hand, no draw), so a determinization
    never changes the options of the searching seat."""
    bd = ctx[0]
    st = state[0]
    phase = st[PHASE]
    if phase == PH_OVER:
        return 0
    p = st[SEAT]
    h = HANDS + p * MK
    rot = _rot(st)
    B = bd[NB]
    n = 0
    if phase == PH_SLOT:
        final = st[FINAL_LEFT] > 0
        n_lines = bd[NR] + bd[NC]
        if st[SUPPLY + p] > 0:
            for b in range(B):
                if st[FILLED + b] == bd[BODY_SIZE + b] or b == stone_body(st):
                    continue
                k = -1
                fewest = 1 << 30
                for kk in range(n_lines):
                    line = (kk + rot) % n_lines
                    if st[h + line] > 0 and st[ELB + line * MB + b] > 0 and st[EMPTY_K + line] < fewest:
                        fewest = st[EMPTY_K + line]
                        k = line
                if k < 0:
                    k = n_lines + b if st[h + n_lines + b] > 0 else (bd[KJ] if st[h + bd[KJ]] > 0 else -1)
                if k < 0:
                    continue
                size = bd[BODY_SIZE + b]
                for jj in range(size):
                    s = bd[BODY_SP + b * MBS + (jj + rot) % size]
                    if can_land(bd, st, p, k, s):
                        options[n] = option(OPT_LAND, k, s)
                        n += 1
                        break
        for s in range(bd[NL]):
            if can_attack(bd, st, p, s, final):
                options[n] = option(OPT_ATTACK, 0, s)
                n += 1
        if can_exchange(bd, st, p):
            kx = -1
            least = 1 << 30
            n_kinds = bd[NK]
            for kk in range(n_kinds):
                k = (kk + rot) % n_kinds
                if st[h + k] == 0:
                    continue
                u = 2 if k >= bd[KJ] else (1 if st[EMPTY_K + k] > 0 else 0)
                if u < least:
                    least = u
                    kx = k
            options[n] = option(OPT_EXCHANGE, kx, 0)
            n += 1
        if n == 0:
            options[0] = option(OPT_NONE, 0, 0)
            n = 1
        return n
    options[0] = option(OPT_NONE, 0, 0)
    n = 1
    ks = bd[KJ] + 1
    if st[h + ks] > 0:
        cur = stone_place(bd, st[STONE_T], st[STONE_I])
        for b in range(B):
            place = bd[NR] + bd[NC] + b
            if place != cur:
                options[n] = option(OPT_SIMON, place, 0)
                n += 1
    if st[h + ks + 1] > 0 and recall_ok(bd, st):
        options[n] = option(OPT_RECALL, 0, 0)
        n += 1
    if st[h + ks + 3] > 0 and st[SUPPLY + p] > 0:
        for b in range(B):
            s = _target(bd, st, p, b, rot)
            if s >= 0 and grag_ok(bd, st, p, s):
                options[n] = option(OPT_GRAG, s, 0)
                n += 1
    if st[h + ks + 2] > 0 and st[ONBOARD + p] > 0:
        for b in range(B):
            dst = _target(bd, st, p, b, rot)
            if dst < 0:
                continue
            src = -1
            fewest = 1 << 30
            for ss in range(bd[NL]):
                s = (ss + rot) % bd[NL]
                c = st[CNT + bd[SP_BODY + s] * MP + p]
                if bd[SP_BODY + s] != b and otto_ok(bd, st, p, s, dst) and c < fewest:
                    fewest = c
                    src = s
            if src >= 0:
                options[n] = option(OPT_OTTO, src, dst)
                n += 1
    return n
