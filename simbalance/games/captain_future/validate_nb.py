"""captain-future's invariants, checked from scratch on one game's state (``--validate``).

``check_invariants(bd, st, work)`` recounts everything the rules keep live and compares: it only
reads ``st`` (its counting goes into ``work``, a scratch array of state_nb.WORK_SIZE int64), so a
validated game plays exactly as an unvalidated one. It returns 0 when every invariant holds, else
the number of the first one broken (``INVARIANTS`` names them). play_nb calls it after the deal,
after every event and every action slot and after the refill; a broken invariant ends the game with
``end = END_INVALID``.
"""

from __future__ import annotations

from numba import njit

from simbalance.games.captain_future.state_nb import BAWA
from simbalance.games.captain_future.state_nb import BAWH
from simbalance.games.captain_future.state_nb import BHOLD
from simbalance.games.captain_future.state_nb import BODY_BONUS
from simbalance.games.captain_future.state_nb import BODY_SIZE
from simbalance.games.captain_future.state_nb import BSEC
from simbalance.games.captain_future.state_nb import BTOP
from simbalance.games.captain_future.state_nb import CNT
from simbalance.games.captain_future.state_nb import COMP_PTS
from simbalance.games.captain_future.state_nb import COMP_SHIPS
from simbalance.games.captain_future.state_nb import CONQ
from simbalance.games.captain_future.state_nb import DECK
from simbalance.games.captain_future.state_nb import DISCARD
from simbalance.games.captain_future.state_nb import ELB
from simbalance.games.captain_future.state_nb import EMPTY_K
from simbalance.games.captain_future.state_nb import END_SEAT
from simbalance.games.captain_future.state_nb import EVENTS_LEFT
from simbalance.games.captain_future.state_nb import EVPT
from simbalance.games.captain_future.state_nb import FILLED
from simbalance.games.captain_future.state_nb import FINAL_LEFT
from simbalance.games.captain_future.state_nb import HAND
from simbalance.games.captain_future.state_nb import HAND_N
from simbalance.games.captain_future.state_nb import HANDS
from simbalance.games.captain_future.state_nb import INV_CARDS
from simbalance.games.captain_future.state_nb import INV_COUNTS
from simbalance.games.captain_future.state_nb import INV_EMPTY
from simbalance.games.captain_future.state_nb import INV_END_SEAT
from simbalance.games.captain_future.state_nb import INV_HAND
from simbalance.games.captain_future.state_nb import INV_OK
from simbalance.games.captain_future.state_nb import INV_OWNER
from simbalance.games.captain_future.state_nb import INV_SCORE
from simbalance.games.captain_future.state_nb import INV_SHIPS
from simbalance.games.captain_future.state_nb import INV_STONE
from simbalance.games.captain_future.state_nb import INV_SUMMARY
from simbalance.games.captain_future.state_nb import INV_TURN
from simbalance.games.captain_future.state_nb import MAJ_PTS
from simbalance.games.captain_future.state_nb import MB
from simbalance.games.captain_future.state_nb import MC
from simbalance.games.captain_future.state_nb import MK
from simbalance.games.captain_future.state_nb import MN
from simbalance.games.captain_future.state_nb import MP
from simbalance.games.captain_future.state_nb import MR
from simbalance.games.captain_future.state_nb import NB
from simbalance.games.captain_future.state_nb import NC
from simbalance.games.captain_future.state_nb import NCARDS
from simbalance.games.captain_future.state_nb import NDISC
from simbalance.games.captain_future.state_nb import NK
from simbalance.games.captain_future.state_nb import NL
from simbalance.games.captain_future.state_nb import NR
from simbalance.games.captain_future.state_nb import NSTACK
from simbalance.games.captain_future.state_nb import ONBOARD
from simbalance.games.captain_future.state_nb import OWNER
from simbalance.games.captain_future.state_nb import PASSES
from simbalance.games.captain_future.state_nb import PH_OVER
from simbalance.games.captain_future.state_nb import PHASE
from simbalance.games.captain_future.state_nb import PLAYERS
from simbalance.games.captain_future.state_nb import REMOVED
from simbalance.games.captain_future.state_nb import SCORE
from simbalance.games.captain_future.state_nb import SEAT
from simbalance.games.captain_future.state_nb import SHIP_PTS
from simbalance.games.captain_future.state_nb import SHIPS
from simbalance.games.captain_future.state_nb import SLOT
from simbalance.games.captain_future.state_nb import SLOTS
from simbalance.games.captain_future.state_nb import SP_BODY
from simbalance.games.captain_future.state_nb import SP_K
from simbalance.games.captain_future.state_nb import STACK
from simbalance.games.captain_future.state_nb import STONE_I
from simbalance.games.captain_future.state_nb import STONE_T
from simbalance.games.captain_future.state_nb import SUPPLY
from simbalance.games.captain_future.state_nb import TURN
from simbalance.games.captain_future.state_nb import TURN_CAP
from simbalance.games.captain_future.state_nb import W_CNT
from simbalance.games.captain_future.state_nb import W_ELB
from simbalance.games.captain_future.state_nb import W_EMPTY
from simbalance.games.captain_future.state_nb import W_KIND
from simbalance.games.captain_future.state_nb import W_ON
from simbalance.games.captain_future.state_nb import W_SC

# What each code check_invariants returns (state_nb.INV_*) means.
INVARIANTS = {
    INV_SHIPS: "ships not conserved: supply + on board + removed by attacks differs from the ships per player, "
               "or a count is negative",
    INV_OWNER: "a landing space is held by no seat of the game",
    INV_COUNTS: "the live ship counts (per body and player, per body, per player on the board) disagree with "
                "the landing spaces",
    INV_SUMMARY: "a body's live summary (largest counts, majority holder, bonus, whether it is conquered) disagrees "
                 "with a recount",
    INV_SCORE: "the live scores disagree with a recomputation from the board",
    INV_STONE: "the secret stone is not on a row, column or body of the board",
    INV_EMPTY: "the live count of empty (landable) spaces per card kind, or per line and body, disagrees with "
               "a recount",
    INV_HAND: "a hand holds more cards than the hand size, or a negative count",
    INV_CARDS: "the cards in hands, stack and discard pile are not the deck",
    INV_END_SEAT: "the end was triggered by no seat of the game",
    INV_TURN: "where the game stands (turn, seat, phase of the turn, action slot, events left, final round, "
              "passes) is no position of a game",
}

@njit(cache=True, _nrt=False)
def check_invariants(bd, st, work):
    """0 when every invariant of captain-future holds on ``st``, else the first broken (INV_*)."""
    P = bd[PLAYERS]
    L = bd[NL]
    B = bd[NB]
    # ships: conserved per player, no negative counts
    for q in range(MP):
        work[W_ON + q] = 0
        if q >= P:
            if st[SUPPLY + q] != 0 or st[ONBOARD + q] != 0 or st[REMOVED + q] != 0:
                return INV_SHIPS
            continue
        if st[SUPPLY + q] < 0 or st[ONBOARD + q] < 0 or st[REMOVED + q] < 0:
            return INV_SHIPS
        if st[SUPPLY + q] + st[ONBOARD + q] + st[REMOVED + q] != bd[SHIPS] + bd[COMP_SHIPS + q]:
            return INV_SHIPS
    # the landing spaces, counted per body and player
    for i in range(MB * MP):
        work[W_CNT + i] = 0
    for s in range(L):
        q = st[OWNER + s]
        if q < -1 or q >= P:
            return INV_OWNER
        if q >= 0:
            work[W_CNT + bd[SP_BODY + s] * MP + q] += 1
            work[W_ON + q] += 1
    for q in range(P):
        if work[W_ON + q] != st[ONBOARD + q]:
            return INV_COUNTS
    for b in range(B):
        filled = 0
        for q in range(MP):
            c = work[W_CNT + b * MP + q]
            if c != st[CNT + b * MP + q]:
                return INV_COUNTS
            filled += c
        if filled != st[FILLED + b] or filled > bd[BODY_SIZE + b]:
            return INV_COUNTS
        if ((st[CONQ] >> b) & 1) != (filled == bd[BODY_SIZE + b]):  # the conquered bodies' bit mask
            return INV_SUMMARY
    # per body: the live summary, and the scores from scratch
    for q in range(P):
        work[W_SC + q] = work[W_ON + q] * bd[SHIP_PTS] + bd[COMP_PTS + q]
    for b in range(B):
        top = 0
        second = 0
        best = -1
        for q in range(P):
            c = work[W_CNT + b * MP + q]
            if c > top:
                second = top
                top = c
                best = q
            elif c > second:
                second = c
        hold = best if top > second else -1
        award = 0
        if hold >= 0:
            award = bd[BODY_BONUS + b] if top == bd[BODY_SIZE + b] else bd[MAJ_PTS]
            work[W_SC + hold] += award
        if (st[BTOP + b] != top or st[BSEC + b] != second or st[BHOLD + b] != hold or st[BAWH + b] != hold
                or st[BAWA + b] != award):
            return INV_SUMMARY
    for q in range(P):
        if work[W_SC + q] != st[SCORE + q]:
            return INV_SCORE
    # the stone, and the empty spaces each card kind can land on
    t = st[STONE_T]
    i = st[STONE_I]
    if not ((t == 0 and 0 <= i < bd[NR]) or (t == 1 and 0 <= i < bd[NC]) or (t == 2 and 0 <= i < B)):
        return INV_STONE
    for k in range(MK):
        work[W_EMPTY + k] = 0
    for s in range(L):
        if st[OWNER + s] < 0 and not (t == 2 and bd[SP_BODY + s] == i):
            for j in range(4):
                work[W_EMPTY + bd[SP_K + 4 * s + j]] += 1
    for k in range(MK):
        if work[W_EMPTY + k] != st[EMPTY_K + k]:
            return INV_EMPTY
    for j in range((MR + MC) * MB):
        work[W_ELB + j] = 0
    for s in range(L):
        if st[OWNER + s] < 0:
            for j in range(2):
                work[W_ELB + bd[SP_K + 4 * s + j] * MB + bd[SP_BODY + s]] += 1
    for j in range((MR + MC) * MB):
        if work[W_ELB + j] != st[ELB + j]:
            return INV_EMPTY
    # cards: hands within the hand size; hands + stack + discard pile = the deck, kind by kind
    nk = bd[NK]
    for q in range(MP):
        n = 0
        for k in range(MK):
            c = st[HANDS + q * MK + k]
            if c < 0 or (k >= nk and c != 0):
                return INV_HAND
            n += c
        if n != st[HAND_N + q] or n > (bd[HAND] if q < P else 0):
            return INV_HAND
    n_stack = st[NSTACK]
    n_disc = st[NDISC]
    if n_stack < 0 or n_disc < 0 or n_stack > MN or n_disc > MN:
        return INV_CARDS
    for k in range(MK):
        work[W_KIND + k] = 0
    for c in range(bd[NCARDS]):
        work[W_KIND + bd[DECK + c]] += 1
    for j in range(n_stack):
        k = st[STACK + j]
        if k < 0 or k >= nk:
            return INV_CARDS
        work[W_KIND + k] -= 1
    for j in range(n_disc):
        k = st[DISCARD + j]
        if k < 0 or k >= nk:
            return INV_CARDS
        work[W_KIND + k] -= 1
    for k in range(MK):
        left = work[W_KIND + k]
        for q in range(P):
            left -= st[HANDS + q * MK + k]
        if left != 0:
            return INV_CARDS
    if st[END_SEAT] < -1 or st[END_SEAT] >= P:
        return INV_END_SEAT
    # where the game stands (play_nb's loop goes on from there)
    if not (0 <= st[SEAT] < P and 0 <= st[PHASE] <= PH_OVER and 0 <= st[SLOT] < max(bd[SLOTS], 1)
            and 0 <= st[EVENTS_LEFT] <= bd[EVPT] and -1 <= st[FINAL_LEFT] < P and 0 <= st[PASSES] <= P
            and 0 <= st[TURN] <= bd[TURN_CAP]):
        return INV_TURN
    return INV_OK


@njit(cache=True)
def check(ctx, state):
    """The engine's own validation (the resumable ``check``): 0 when every invariant holds, else
    the first broken (INV_*)."""
    return check_invariants(ctx[0], state[0], state[5])
