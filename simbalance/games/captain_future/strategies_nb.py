"""Decisions of captain-future: one jitted function per decision point, branching on the strategy id.

Decision points (docs/rules/captain-future.md, "Strategies"):
- ``do_slot``: one action slot: land, attack or exchange (a slot is always used while one is legal);
- ``do_event``: before and after the slots: play one event card (with its targets) or none;
- ``recall_choice``: when anyone plays Recall, which of his own ships each player sends home.

``random`` is uniform at each step. The heuristics share one evaluation of a body: the player's
points there minus a weighted sum of the opponents' points (``opp_weight`` spread over the
opponents, plus ``leader_weight`` on the current score leader among them), plus ``full_weight`` x
the full-control points x the share of the body held while nobody else has a ship there. A move is
worth the change of that evaluation, minus ``card_weight`` per card it costs.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simbalance.core.bits import lowest_bit
from simbalance.core.bits import popcount
from simbalance.core.rng import randint
from simbalance.core.rng import wins_tie
from simbalance.games.captain_future.rules_nb import attack_cost
from simbalance.games.captain_future.rules_nb import attackable
from simbalance.games.captain_future.rules_nb import body_space
from simbalance.games.captain_future.rules_nb import can_exchange
from simbalance.games.captain_future.rules_nb import discard_card
from simbalance.games.captain_future.rules_nb import exchange
from simbalance.games.captain_future.rules_nb import grag
from simbalance.games.captain_future.rules_nb import hand
from simbalance.games.captain_future.rules_nb import kind_of
from simbalance.games.captain_future.rules_nb import land
from simbalance.games.captain_future.rules_nb import move_stone
from simbalance.games.captain_future.rules_nb import n_stone_places
from simbalance.games.captain_future.rules_nb import naming_cards
from simbalance.games.captain_future.rules_nb import otto
from simbalance.games.captain_future.rules_nb import play_event_card
from simbalance.games.captain_future.rules_nb import recall_ok
from simbalance.games.captain_future.rules_nb import recall_ship
from simbalance.games.captain_future.rules_nb import resolve_attack
from simbalance.games.captain_future.rules_nb import stone_blocks_attack
from simbalance.games.captain_future.rules_nb import stone_blocks_landing
from simbalance.games.captain_future.rules_nb import stone_body
from simbalance.games.captain_future.rules_nb import stone_place
from simbalance.games.captain_future.rules_nb import take_action
from simbalance.games.captain_future.state_nb import AGGRESSOR
from simbalance.games.captain_future.state_nb import BAWA
from simbalance.games.captain_future.state_nb import BAWH
from simbalance.games.captain_future.state_nb import BD_ORDERED
from simbalance.games.captain_future.state_nb import BODY_BONUS
from simbalance.games.captain_future.state_nb import BODY_LINES
from simbalance.games.captain_future.state_nb import BODY_SIZE
from simbalance.games.captain_future.state_nb import BVER
from simbalance.games.captain_future.state_nb import C_GAIN
from simbalance.games.captain_future.state_nb import C_VER
from simbalance.games.captain_future.state_nb import C_WS
from simbalance.games.captain_future.state_nb import C_WV
from simbalance.games.captain_future.state_nb import CACHE
from simbalance.games.captain_future.state_nb import CNT
from simbalance.games.captain_future.state_nb import CONQ
from simbalance.games.captain_future.state_nb import COST_ABS
from simbalance.games.captain_future.state_nb import COST_MAJ
from simbalance.games.captain_future.state_nb import COST_PRE
from simbalance.games.captain_future.state_nb import CREC
from simbalance.games.captain_future.state_nb import ELB
from simbalance.games.captain_future.state_nb import EMPTY_K
from simbalance.games.captain_future.state_nb import END_SEAT
from simbalance.games.captain_future.state_nb import FD
from simbalance.games.captain_future.state_nb import FILLED
from simbalance.games.captain_future.state_nb import FINAL_MAX
from simbalance.games.captain_future.state_nb import FQ
from simbalance.games.captain_future.state_nb import FV
from simbalance.games.captain_future.state_nb import FW
from simbalance.games.captain_future.state_nb import FWS
from simbalance.games.captain_future.state_nb import HAND_N
from simbalance.games.captain_future.state_nb import HANDS
from simbalance.games.captain_future.state_nb import KIND_N
from simbalance.games.captain_future.state_nb import KIND_SP
from simbalance.games.captain_future.state_nb import KJ
from simbalance.games.captain_future.state_nb import LINE_B
from simbalance.games.captain_future.state_nb import LINE_NB
from simbalance.games.captain_future.state_nb import MAJ_PTS
from simbalance.games.captain_future.state_nb import MB
from simbalance.games.captain_future.state_nb import MK
from simbalance.games.captain_future.state_nb import ML
from simbalance.games.captain_future.state_nb import MP
from simbalance.games.captain_future.state_nb import NB
from simbalance.games.captain_future.state_nb import NC
from simbalance.games.captain_future.state_nb import NK
from simbalance.games.captain_future.state_nb import NL
from simbalance.games.captain_future.state_nb import NR
from simbalance.games.captain_future.state_nb import ONBOARD
from simbalance.games.captain_future.state_nb import OPT_ATTACK
from simbalance.games.captain_future.state_nb import OPT_EXCHANGE
from simbalance.games.captain_future.state_nb import OPT_LAND
from simbalance.games.captain_future.state_nb import OPT_NONE
from simbalance.games.captain_future.state_nb import OWNER
from simbalance.games.captain_future.state_nb import P_CARD
from simbalance.games.captain_future.state_nb import P_CHEAP
from simbalance.games.captain_future.state_nb import P_EVENTS
from simbalance.games.captain_future.state_nb import P_EXCH
from simbalance.games.captain_future.state_nb import P_FULL
from simbalance.games.captain_future.state_nb import P_GRAG
from simbalance.games.captain_future.state_nb import P_HOLD
from simbalance.games.captain_future.state_nb import P_LEADER
from simbalance.games.captain_future.state_nb import P_OPP
from simbalance.games.captain_future.state_nb import P_OTTO
from simbalance.games.captain_future.state_nb import P_RECALL
from simbalance.games.captain_future.state_nb import P_SIMON
from simbalance.games.captain_future.state_nb import PLAYERS
from simbalance.games.captain_future.state_nb import RANDOM
from simbalance.games.captain_future.state_nb import SCORE
from simbalance.games.captain_future.state_nb import SHIP_PTS
from simbalance.games.captain_future.state_nb import SID
from simbalance.games.captain_future.state_nb import SP_BODY
from simbalance.games.captain_future.state_nb import SP_COL
from simbalance.games.captain_future.state_nb import SP_ROW
from simbalance.games.captain_future.state_nb import STONE_BODY
from simbalance.games.captain_future.state_nb import STONE_COL
from simbalance.games.captain_future.state_nb import STONE_I
from simbalance.games.captain_future.state_nb import STONE_ROW
from simbalance.games.captain_future.state_nb import STONE_T
from simbalance.games.captain_future.state_nb import SUPPLY
from simbalance.games.captain_future.state_nb import T_LANDS
from simbalance.games.captain_future.state_nb import TOP_BONUS

NEG = -1e18
# Values closer than this are equally good: two victims worth the same come out of the evaluation's
# sums in different orders and can differ in the last bits, which must not decide between seats.
TIE = 1e-9


@njit(cache=True, _nrt=False, inline="always")
def _scan_step(rng, v, best, ties):
    """One step of a scan for the highest value with a fair tie-break: (take this option?, best,
    ties). A value above ``best`` is a new best; one within TIE of it is the ``ties``-th equal
    option and is taken with probability 1/ties (core/rng.wins_tie), so every equal option is
    kept with the same chance whatever the scan order."""
    if v > best + TIE:
        return True, v, 1
    ties += 1
    return wins_tie(rng, ties), best, ties


@njit(cache=True, _nrt=False, inline="always")
def _bodies_of(bd, st, q):
    """The bodies holding a ship of ``q``, as a bit mask (bit b: body b) from one pass without
    branches: a loop over them visits them lowest first, the order of a loop over all bodies,
    without a branch per body on whether ``q`` is there (a coin flip to the CPU)."""
    held = np.int64(0)
    for b in range(bd[NB]):
        held |= np.int64(st[CNT + b * MP + q] > 0) << b
    return held


JOKER_KEEP = 0.2  # a joker spent on a landing: it could have paid for any attack
BODY_CARD_KEEP = 0.05  # a body card names more spaces than a row or column card


# ---- random -----------------------------------------------------------------------------------

@njit(cache=True, _nrt=False)
def _count_cards(st, p, lo, hi, need_empty):
    """Cards (not kinds) in ``p``'s hand among kinds lo..hi-1; with ``need_empty`` only kinds that
    name an empty landable space."""
    total = 0
    for k in range(lo, hi):
        if need_empty and st[EMPTY_K + k] == 0:
            continue
        total += st[HANDS + p * MK + k]
    return total


@njit(cache=True, _nrt=False)
def _kth_card(st, p, lo, hi, need_empty, r):
    for k in range(lo, hi):
        if need_empty and st[EMPTY_K + k] == 0:
            continue
        r -= st[HANDS + p * MK + k]
        if r < 0:
            return k
    return -1


@njit(cache=True, _nrt=False)
def random_land(bd, st, rng, p):
    """Land: a card uniformly among the cards that can land, then a space uniformly among the empty
    landable spaces it names."""
    total = _count_cards(st, p, np.int64(0), bd[KJ] + 1, np.bool_(True))
    k = _kth_card(st, p, np.int64(0), bd[KJ] + 1, np.bool_(True), randint(rng, total))
    r = randint(rng, st[EMPTY_K + k])
    for j in range(bd[KIND_N + k]):
        s = bd[KIND_SP + k * ML + j]
        if st[OWNER + s] < 0 and not stone_blocks_landing(bd, st, s):
            if r == 0:
                land(bd, st, p, k, s)
                return
            r -= 1


@njit(cache=True, _nrt=False)
def random_pay(bd, st, rng, p, s, n):
    """Pay ``n`` cards naming ``s``, each uniformly among the naming cards left in hand."""
    for _ in range(n):
        r = randint(rng, naming_cards(bd, st, p, s))
        for j in range(4):
            k = kind_of(bd, s, j)
            if r < hand(st, p, k):
                discard_card(st, p, k)
                break
            r -= hand(st, p, k)


@njit(cache=True, _nrt=False)
def list_attacks(bd, st, p, final, out):
    """Every space ``p`` can attack now, into ``out``; returns how many."""
    n = 0
    if st[SUPPLY + p] == 0:
        return 0
    sb = stone_body(st)
    for b in range(bd[NB]):
        if st[FILLED + b] != bd[BODY_SIZE + b] or b == sb:
            continue
        cost = attack_cost(bd, st, p, b)
        if final and cost > bd[FINAL_MAX]:
            continue
        for j in range(bd[BODY_SIZE + b]):
            s = body_space(bd, b, j)
            if attackable(bd, st, p, s) and naming_cards(bd, st, p, s) >= cost:
                out[n] = s
                n += 1
    return n


@njit(cache=True, _nrt=False)
def random_slot(bd, st, buf, rng, p, final):
    """Action type uniformly among the legal ones (land, attack, exchange); then its own steps."""
    can_l = st[SUPPLY + p] > 0 and _count_cards(st, p, np.int64(0), bd[KJ] + 1, np.bool_(True)) > 0
    n_att = list_attacks(bd, st, p, final, buf)
    can_x = can_exchange(bd, st, p)
    n_types = int(can_l) + int(n_att > 0) + int(can_x)
    if n_types == 0:
        return False
    t = randint(rng, n_types)
    if can_l:
        if t == 0:
            random_land(bd, st, rng, p)
            return True
        t -= 1
    if n_att > 0:
        if t == 0:
            s = buf[randint(rng, n_att)]
            random_pay(bd, st, rng, p, s, attack_cost(bd, st, p, bd[SP_BODY + s]))
            resolve_attack(bd, st, p, s)
            return True
    # exchange: a card uniformly from the hand
    k = _kth_card(st, p, np.int64(0), bd[NK], np.bool_(False), randint(rng, st[HAND_N + p]))
    exchange(bd, st, rng, p, k)
    return True


@njit(cache=True, _nrt=False)
def _count_spaces(bd, st, p, own):
    """Spaces holding ``p``'s ship (own) or not (not own), where the stone does not block attacks:
    Otto's sources / Otto's and GRAG's targets."""
    n = 0
    for s in range(bd[NL]):
        if (st[OWNER + s] == p) == own and not stone_blocks_attack(bd, st, s):
            n += 1
    return n


@njit(cache=True, _nrt=False)
def _kth_space(bd, st, p, r, own):
    for s in range(bd[NL]):
        if (st[OWNER + s] == p) == own and not stone_blocks_attack(bd, st, s):
            if r == 0:
                return s
            r -= 1
    return -1


@njit(cache=True, _nrt=False)
def random_event(bd, st, fs, rng, p, seat_prm):
    """Uniformly among "no event" and every event card in hand that has a legal use; then its
    targets uniformly (Simon Wright: any other place; Otto: own ship, then destination; GRAG: space).
    Recall needs a ship on the board; Otto an own ship and a target; GRAG a ship in supply."""
    ks = bd[KJ] + 1
    h = HANDS + p * MK
    if st[h + ks] + st[h + ks + 1] + st[h + ks + 2] + st[h + ks + 3] == 0:
        return False
    n_src = 0
    n_open = 0
    if st[h + ks + 2] + st[h + ks + 3] > 0:
        n_src = _count_spaces(bd, st, p, np.bool_(True))
        n_open = _count_spaces(bd, st, p, np.bool_(False))
    w_simon = st[h + ks]
    w_recall = st[h + ks + 1] if recall_ok(bd, st) else 0
    w_otto = st[h + ks + 2] if (n_src > 0 and n_open > 0) else 0
    w_grag = st[h + ks + 3] if (st[SUPPLY + p] > 0 and n_open > 0) else 0
    r = randint(rng, 1 + w_simon + w_recall + w_otto + w_grag)
    if r == 0:
        return False
    r -= 1
    # the targets are drawn before the card is played (it changes nothing they depend on)
    a1 = -1
    a2 = -1
    if r < w_simon:
        e = 0
        cur = stone_place(bd, st[STONE_T], st[STONE_I])
        a1 = randint(rng, n_stone_places(bd) - 1)
        if a1 >= cur:
            a1 += 1
    elif r < w_simon + w_recall:
        e = 1
    elif r < w_simon + w_recall + w_otto:
        e = 2
        a1 = _kth_space(bd, st, p, randint(rng, n_src), np.bool_(True))
        a2 = _kth_space(bd, st, p, randint(rng, n_open), np.bool_(False))
    else:
        e = 3
        a1 = _kth_space(bd, st, p, randint(rng, n_open), np.bool_(False))
    play_event(bd, st, fs, rng, p, seat_prm, e, a1, a2)
    return True


# ---- heuristics: evaluation -------------------------------------------------------------------

@njit(cache=True, _nrt=False, inline="always")
def _weights(bd, st, fs, p, prm):
    """The score leaders among the opponents (a bit mask: opponents tied for the lead are all
    leaders, and share ``leader_weight`` equally, so no seat is the leader for being seated first),
    and the weight of each opponent's points in FW."""
    P = bd[PLAYERS]
    # the top score among the opponents, then who has it: selects, not branches (which opponent
    # leads is a coin flip to the CPU; this runs at every heuristic decision)
    top = -(1 << 30)
    for q in range(P):
        top = max(top, st[SCORE + q]) if q != p else top
    leaders = 0
    for q in range(P):
        leaders |= np.int64((q != p) & (st[SCORE + q] == top)) << q
    stamp = p * (1 << MP) + leaders  # which weights these are (they depend on the leaders only)
    if fs[FWS] == stamp:
        return leaders  # FW holds them already (reset_cache clears the stamp between games)
    n_lead = 0
    for q in range(P):
        n_lead += (leaders >> q) & 1
    for q in range(P):
        fs[FW + q] = 0.0 if q == p else prm[P_OPP] / (P - 1)
        if (leaders >> q) & 1:
            fs[FW + q] += prm[P_LEADER] / n_lead
    fs[FWS] = stamp
    return leaders


@njit(cache=True, _nrt=False)
def reset_cache(fs):
    for i in range(MP * MB * FQ):
        fs[CACHE + i * CREC + C_VER] = -1.0
        fs[CACHE + i * CREC + C_WS] = -1.0
    fs[FWS] = -1.0  # the players' parameters may differ in the next game


@njit(cache=True, _nrt=False, inline="always")
def _potential(bd, b, mine, others, w_full):
    """Progress towards full control of a body nobody else is on."""
    size = bd[BODY_SIZE + b]
    progress = w_full * bd[BODY_BONUS + b] * mine / size
    return progress if (others == 0) & (0 < mine) & (mine < size) else 0.0  # a select, not a branch


@njit(cache=True, _nrt=False, inline="always")
def _deltas(bd, st, fs, b, add, rem, out):
    """Every player's change of points on body ``b`` (into fs[out + q]) when player ``add`` gets one
    more ship there and player ``rem`` one fewer (-1: nobody). The "before" side is the body's live
    summary. All MP seats: the seats beyond the game's hold no ship and get a change of 0, and a
    loop of constant length is unrolled (it runs about 800 times a game, on stale bodies)."""
    size = bd[BODY_SIZE + b]
    c0 = CNT + b * MP
    top = 0
    second = 0
    best = -1
    sp = bd[SHIP_PTS]
    for q in range(MP):
        # selects, not branches (the counts are coin flips to the CPU)
        change = int(q == add) - int(q == rem)
        c = st[c0 + q] + change
        fs[out + q] = change * sp
        gt = c > top
        second = top if gt else max(second, c)
        best = q if gt else best
        top = c if gt else top
    hb = st[BAWH + b]
    if hb >= 0:
        fs[out + hb] -= st[BAWA + b]
    if top > second:
        fs[out + best] += bd[BODY_BONUS + b] if top == size else bd[MAJ_PTS]


@njit(cache=True, _nrt=False, inline="always")
def cached_gain(bd, st, fs, b, p, q, w_full):
    """Value for ``p`` of a change on body ``b``: q = -1 his ship lands on an empty space, q != p his
    ship replaces q's, q = p his ship leaves. The evaluation (module docstring) of the change is
    his own points and progress minus the opponents' points weighted by FW (call _weights first).
    The points part is cached per body until the body changes, independent of the weights."""
    c = CACHE + ((p * MB + b) * FQ + q + 1) * CREC  # this change's record
    e = c + C_GAIN  # [own change incl. progress, then the points change of each player]
    fresh = fs[c + C_VER] != st[BVER + b]
    if fresh:
        add = -1 if q == p else p
        rem = -1 if q < 0 else q
        _deltas(bd, st, fs, b, add, rem, e + 1)
        mine = st[CNT + b * MP + p]
        others = st[FILLED + b] - mine
        before = _potential(bd, b, mine, others, w_full)
        after = _potential(bd, b, mine + int(add == p) - int(rem == p), others - int((rem >= 0) & (rem != p)), w_full)
        fs[e] = fs[e + 1 + p] + after - before
        fs[c + C_VER] = st[BVER + b]
    elif fs[c + C_WS] == fs[FWS]:
        return fs[c + C_WV]  # same body, same weights: the value itself
    v = fs[e]
    # every seat's term in seat order, as always (the value must not move by a bit: ties are broken
    # on it); the seats beyond the game's add 0 (no change, no weight) and make the loop's length
    # a constant, which unrolls
    for o in range(MP):
        v -= fs[FW + o] * fs[e + 1 + o]  # FW of p himself is 0
    fs[c + C_WV] = v
    fs[c + C_WS] = fs[FWS]
    return v


@njit(cache=True, _nrt=False)
def _value_shift(bd, st, fs, b, p, q):
    """Value for ``p`` of one more ship of another player ``q`` on body ``b`` (Otto's displaced
    ship), not cached."""
    _deltas(bd, st, fs, b, q, -1, FD)
    v = 0.0
    for o in range(bd[PLAYERS]):
        v += fs[FD + o] if o == p else -fs[FW + o] * fs[FD + o]
    return v


@njit(cache=True, _nrt=False)
def _usefulness(bd, st, p, k, events):
    """How much a heuristic wants to keep a card kind (an exchange discards the least useful). A
    row, column or body card is worth most while it names an empty space (a landing), and still
    something while it names another player's ship on a conquered body (it pays for an attack);
    event cards are worth nothing to a player who never plays events."""
    kj = bd[KJ]
    if k < kj:
        if st[EMPTY_K + k] > 0:
            return 1.0
        for j in range(bd[KIND_N + k]):
            s = bd[KIND_SP + k * ML + j]
            b = bd[SP_BODY + s]
            q = st[OWNER + s]
            if q >= 0 and q != p and st[FILLED + b] == bd[BODY_SIZE + b]:
                return 0.5
        return 0.0
    if k == kj:
        return 5.0
    if not events:
        return 0.0
    if k == kj + 1:  # Simon Wright
        return 1.5
    if k == kj + 2:  # Recall
        return 0.2
    if k == kj + 3:  # Otto
        return 2.0
    return 3.0  # GRAG


@njit(cache=True, _nrt=False, inline="always")
def _open_space(bd, st, rng, p, b, q, cost):
    """A space of body ``b`` holding ``q``'s ship (q = -1: empty) where the stone does not block
    attacks and, if ``cost`` > 0, that ``p``'s hand can pay ``cost`` cards for, uniformly among
    those (they are worth the same to the evaluation); -1 if none. The spaces that qualify as a
    bit mask (bit j: the body's j-th space) from a pass without branches (which space qualifies is
    a coin flip to the CPU), then the pick among them with the draws of a scan that keeps the i-th
    one found with probability 1/i (_open_pick)."""
    # stone_blocks_attack as selects: the row, column or body it blocks (-1: none of that kind)
    t = st[STONE_T]
    i = st[STONE_I]
    row = i if t == STONE_ROW else -1
    col = i if t == STONE_COL else -1
    if t == STONE_BODY and b == i:
        return -1
    ok = np.int64(0)
    if cost == 0:
        for j in range(bd[BODY_SIZE + b]):
            s = body_space(bd, b, j)
            ok |= np.int64((st[OWNER + s] == q) & (bd[SP_ROW + s] != row) & (bd[SP_COL + s] != col)) << j
    else:
        for j in range(bd[BODY_SIZE + b]):
            s = body_space(bd, b, j)
            ok |= np.int64((st[OWNER + s] == q) & (bd[SP_ROW + s] != row) & (bd[SP_COL + s] != col)
                           & (naming_cards(bd, st, p, s) >= cost)) << j
    r = _open_pick(rng, popcount(ok))
    if r < 0:
        return -1
    for _ in range(r):
        ok &= ok - 1
    return body_space(bd, b, lowest_bit(ok))


@njit(cache=True, _nrt=False, inline="always")
def _open_count(bd, st, b, q):
    """How many spaces of body ``b`` hold ``q``'s ship (q = -1: empty) where the stone does not
    block attacks: the spaces _open_space chooses among when nothing is paid. With the stone on a
    body (always, unless the variant or a random player puts it on a row or column) the live
    counts say it; on a row or column, count them."""
    if st[STONE_T] == STONE_BODY:
        if b == st[STONE_I]:
            return 0
        return bd[BODY_SIZE + b] - st[FILLED + b] if q < 0 else st[CNT + b * MP + q]
    n = 0
    for j in range(bd[BODY_SIZE + b]):
        s = body_space(bd, b, j)
        n += (st[OWNER + s] == q) & (not stone_blocks_attack(bd, st, s))
    return n


@njit(cache=True, _nrt=False, inline="always")
def _open_pick(rng, n):
    """Which of ``n`` equally good spaces (the order of _nth_open; -1: none) is taken, with the
    draws _open_space makes while it scans them: the space found i-th (i >= 2) replaces the one
    kept with probability 1/i. Searches that compare many options draw this for every option that
    could be the best, but need the space itself only for the one they take (_nth_open)."""
    found = -1 if n == 0 else 0
    for i in range(2, n + 1):
        found = i - 1 if wins_tie(rng, i) else found  # a select: the draw is made either way
    return found


@njit(cache=True, _nrt=False)
def _nth_open(bd, st, b, q, r):
    """The ``r``-th (from 0) space of body ``b`` that holds ``q``'s ship (q = -1: empty) where the
    stone does not block attacks, in the body's order (the order _open_space scans)."""
    for j in range(bd[BODY_SIZE + b]):
        s = body_space(bd, b, j)
        if st[OWNER + s] == q and not stone_blocks_attack(bd, st, s):
            if r == 0:
                return s
            r -= 1
    return -1


# ---- heuristics: the slot -----------------------------------------------------------------------

@njit(cache=True, _nrt=False, inline="always")
def _best_landing(bd, st, fs, p, w_full, card_w, off, lines_in_hand):
    """The best landing (value, OPT_LAND or OPT_NONE, card kind, space): the value of one more ship
    depends on the body only (cached per body); the card spent costs card_weight, plus a little for
    a body card and more for a joker. So look at the row and column cards in hand (their empty
    spaces), then the body cards, then a joker on the best body; ties go to whichever comes first
    from the random start ``off``. Draws nothing."""
    B = bd[NB]
    sb = stone_body(st)
    h = HANDS + p * MK
    best = NEG
    act = OPT_NONE
    a_k = -1
    a_s = -1
    n_lines = bd[NR] + bd[NC]
    off_l = off % n_lines
    k0 = n_lines  # the body cards
    has_joker = st[h + bd[KJ]] > 0
    # Whether a card is in hand or a space is free is a coin flip to the CPU: the loops below
    # filter with arithmetic and bit masks instead of branches (a mispredicted branch costs ~15
    # cycles). Bit k: an empty space on line k (lines_in_hand: a row or column card of kind k).
    lines_open = 0
    empty_k = st[EMPTY_K:EMPTY_K + MK]  # (a view indexed from 0: see lines_in_hand)
    for k in range(n_lines):
        lines_open |= np.int64(empty_k[k] > 0) << k
    usable_lines = lines_in_hand & lines_open
    # The value of a ship arriving on every body a card in hand can land on (NEG elsewhere: no
    # landing there, or none with these cards): the bodies not conquered but the stone's, as a bit
    # mask (no branch per body on whether it is full: a coin flip to the CPU); without a joker only
    # those a usable row or column or a body card in hand names. The value is cached (cached_gain):
    # one not asked now is computed from the same body when it is asked, so skipping it changes
    # no value and draws nothing.
    for b in range(B):
        fs[FV + b * FQ] = NEG
    todo = ((np.int64(1) << B) - 1) & ~st[CONQ]
    if sb >= 0:
        todo &= ~(np.int64(1) << sb)
    if not has_joker:
        reach = 0
        for b in range(B):
            reach |= np.int64(((bd[BODY_LINES + b] & usable_lines) != 0) | (st[h + k0 + b] > 0)) << b
        todo &= reach
    while todo != 0:
        b = lowest_bit(todo)
        todo &= todo - 1
        fs[FV + b * FQ] = cached_gain(bd, st, fs, b, p, -1, w_full) - card_w
    # The usable lines from the random start line on: rotate so that bit 0 is line off_l.
    usable = np.uint64(usable_lines)
    todo = (usable >> np.uint64(off_l)) | ((usable << np.uint64(n_lines - off_l - 1)) << np.uint64(1))
    todo &= np.uint64(0xFFFFFFFFFFFFFFFF) >> np.uint64(64 - n_lines)
    while todo != 0:
        k = lowest_bit(todo) + off_l
        todo &= todo - np.uint64(1)
        if k >= n_lines:
            k -= n_lines
        # The best body with an empty space on this line (kept live per line and body) ...
        top = NEG
        for jb in range(bd[LINE_NB + k]):
            b = bd[LINE_B + k * MB + jb]
            v = fs[FV + b * FQ]  # loaded first, so that the next line is a select, not a branch
            top = max(top, v if st[ELB + k * MB + b] > 0 else NEG)
        if top <= best:
            continue
        # ... and the first empty space of such a body from the random start: the space a scan
        # of the whole line keeping the first strictly best value finds. The line's spaces that
        # qualify as a bit mask (bit j: its j-th space; a row or column has at most 32) from a
        # pass without branches, rotated so that bit 0 is the start (there is one: ``top`` is the
        # value of a body with an empty space on this line).
        n = bd[KIND_N + k]
        j0 = off % n
        ok = np.int64(0)
        for j in range(n):
            s = bd[KIND_SP + k * ML + j]
            v = fs[FV + bd[SP_BODY + s] * FQ]
            ok |= np.int64((st[OWNER + s] < 0) & (v == top)) << j
        ok = (ok >> j0) | ((ok << (n - j0)) & ((np.int64(1) << n) - 1))
        j = lowest_bit(ok) + j0
        if j >= n:
            j -= n
        best = top
        act = OPT_LAND
        a_k = k
        a_s = bd[KIND_SP + k * ML + j]
    for i in range(B):
        b = i + off % B
        if b >= B:
            b -= B
        v = fs[FV + b * FQ]  # NEG where no landing is possible: it never beats best
        v_card = v - BODY_CARD_KEEP if st[h + k0 + b] > 0 else NEG
        if v_card > best:
            best = v_card
            act = OPT_LAND
            a_k = k0 + b
            a_s = -1 - b  # a space of body b, chosen below
        v_joker = v - JOKER_KEEP if has_joker else NEG
        if v_joker > best:
            best = v_joker
            act = OPT_LAND
            a_k = bd[KJ]
            a_s = -1 - b
    if act == OPT_LAND and a_s < 0:
        # a body card or a joker: an empty space of that body, from a random start
        b = -1 - a_s
        size = bd[BODY_SIZE + b]
        j0 = off % size
        for jj in range(size):
            j = jj + j0
            if j >= size:
                j -= size
            s = body_space(bd, b, j)
            if st[OWNER + s] < 0:
                a_s = s
                break
    return best, act, a_k, a_s


@njit(cache=True, _nrt=False, inline="always")
def _best_attack(sid, prm, bd, st, fs, rng, p, final, best, ties, act, a_s, lines_in_hand):
    """The attacks, against ``best`` so far (ties: how many options are worth it): (best, ties,
    act, space), act OPT_ATTACK if one is taken."""
    w_full = prm[P_FULL]
    card_w = prm[P_CARD]
    sb = stone_body(st)
    h = HANDS + p * MK
    # Attacks: the value depends on the body and the victim (cached), the cost on the body;
    # a space that the stone leaves open and the hand can pay is looked for only for a value
    # that beats the best so far. The conquered bodies but the stone's, lowest first, as a bit
    # mask (the order of a loop over all bodies, without a branch per body on whether it is full:
    # a coin flip to the CPU)
    todo = st[CONQ] & ~(np.int64(1) << sb) if sb >= 0 else st[CONQ]
    while todo != 0:
        b = lowest_bit(todo)
        todo &= todo - 1
        if st[CNT + b * MP + p] == bd[BODY_SIZE + b]:
            continue
        cost = attack_cost(bd, st, p, b)
        if final and cost > bd[FINAL_MAX]:
            continue
        # which victims the hand can pay for: with enough body cards and jokers, all of them;
        # otherwise those with a space whose row and column cards make up the difference
        hb = st[h + bd[NR] + bd[NC] + b] + st[h + bd[KJ]]
        pay_any = hb >= cost
        payable = 0
        if not pay_any and bd[BODY_LINES + b] & lines_in_hand == 0:
            continue  # short of body cards and jokers, and no row or column card in hand helps
        if not pay_any:
            for j in range(bd[BODY_SIZE + b]):  # (a conquered body: every space holds a ship)
                s = body_space(bd, b, j)
                q = st[OWNER + s]
                ok = ((q != p) & (hb + st[h + kind_of(bd, s, 0)] + st[h + kind_of(bd, s, 1)] >= cost)
                      & (not stone_blocks_attack(bd, st, s)))
                payable |= ok << q
            if payable == 0:
                continue
        # the victims, as a bit mask visited lowest seat first (the order of a loop over the
        # seats, without a branch per seat on who is there)
        victims = 0
        for o in range(MP):
            victims |= np.int64(st[CNT + b * MP + o] > 0) << o
        victims &= ~(np.int64(1) << p)
        if not pay_any:
            victims &= payable
        while victims != 0:
            q = lowest_bit(victims)
            victims &= victims - 1
            v = cached_gain(bd, st, fs, b, p, q, w_full) - card_w * cost
            if sid == AGGRESSOR and cost <= prm[P_CHEAP]:
                v += 1000.0
            if v < best - TIE:
                continue
            s = _open_space(bd, st, rng, p, b, q, 0 if pay_any else cost)
            if s < 0:
                continue
            take, best, ties = _scan_step(rng, v, best, ties)  # equal attacks: uniformly at random
            if not take:
                continue
            act = OPT_ATTACK
            a_s = s
    return best, ties, act, a_s


@njit(cache=True, _nrt=False, inline="always")
def _cheap_attacks_first(sid, prm, bd):
    """Can the aggressor look for an attack before any landing? When every attack costs at most
    ``cheap_cost`` (each is then worth 1000 more) and no value of a change comes near 1000, an
    attack with a space to take beats every landing, and whether one is taken, which and with
    which draws does not depend on the best landing: the landing need only be searched when no
    attack is taken (a third of the aggressor's slots attack). The bound on a value: every
    player's points on a body change by at most a ship and twice the bonus and majority points,
    weighted by at most 1 for the player and |opp_weight| + |leader_weight| for all opponents
    together, plus the progress term."""
    if sid != AGGRESSOR:
        return False
    top_cost = max(bd[COST_MAJ], bd[COST_PRE], bd[COST_ABS])
    if top_cost > prm[P_CHEAP]:
        return False
    bonus = bd[TOP_BONUS]  # (no body's is negative)
    swing = abs(bd[SHIP_PTS]) + 2 * (bonus + abs(bd[MAJ_PTS]))
    vmax = swing * (1.0 + abs(prm[P_OPP]) + abs(prm[P_LEADER])) + abs(prm[P_FULL]) * bonus
    card = abs(prm[P_CARD])
    return 1000.0 - vmax - card * top_cost > vmax + card + 1.0



@njit(cache=True, _nrt=False)
def heuristic_slot(sid, prm, bd, st, fs, rng, p, final):
    """Take the best of: the best landing, the best attack, an exchange (see module docstring).
    The aggressor takes any attack costing at most ``cheap_cost`` cards before anything else."""
    w_full = prm[P_FULL]
    card_w = prm[P_CARD]
    _weights(bd, st, fs, p, prm)
    best = NEG
    ties = 1  # how many options found so far are worth ``best`` (the attacks' random tie-break)
    act = OPT_NONE  # or OPT_LAND, OPT_ATTACK, OPT_EXCHANGE (take_action)
    a_k = -1
    a_s = -1
    h = HANDS + p * MK
    if st[SUPPLY + p] > 0:
        off = randint(rng, 1 << 30)  # one random start for the landing's lines, their spaces and the bodies
        lines_in_hand = 0  # bit k: a row or column card of kind k in hand (selects, not branches)
        # The hand as a view indexed from 0: numba adds the array's length to a negative index,
        # and LLVM cannot tell that h + k is never negative, so st[h + k] in this loop compiled
        # to a gather of 8 lanes (slow) instead of contiguous loads.
        hand_p = st[h:h + MK]
        for k in range(bd[NR] + bd[NC]):
            lines_in_hand |= np.int64(hand_p[k] > 0) << k
        first = _cheap_attacks_first(sid, prm, bd)
        # landing then attacks; or (see _cheap_attacks_first) attacks, then the landing only if no
        # attack was taken: one call site each, so that each is compiled once
        for step in range(3):
            if step == 1:
                best, ties, act, a_s = _best_attack(sid, prm, bd, st, fs, rng, p, final, best, ties, act, a_s,
                                                    lines_in_hand)
            elif (step == 0 and not first) or (step == 2 and first and act == OPT_NONE):
                best, act, a_k, a_s = _best_landing(bd, st, fs, p, w_full, card_w, off, lines_in_hand)
    if best < prm[P_EXCH] and can_exchange(bd, st, p):
        least = 1e9
        kx = -1
        n_least = 0
        events = prm[P_EVENTS] >= 0.5
        # the kinds in hand, lowest first, as bit masks of 64 kinds each (no branch per kind on
        # whether it is in hand: a coin flip to the CPU; a hand holds a few of the ~40 kinds)
        hand_p = st[h:h + MK]  # (a view indexed from 0: see lines_in_hand)
        nk = bd[NK]
        for lo in range(0, nk, 64):
            held = np.int64(0)
            for k in range(lo, min(nk, lo + 64)):
                held |= np.int64(hand_p[k] > 0) << (k - lo)
            while held != 0:
                k = lowest_bit(held) + lo
                held &= held - 1
                u = _usefulness(bd, st, p, k, events)
                if u < least:
                    least = u
                    kx = k
                    n_least = 1
                elif u == least:
                    n_least += 1
                    if wins_tie(rng, n_least):
                        kx = k
        v = prm[P_EXCH] - least
        if v > best:
            best = v
            act = OPT_EXCHANGE
            a_k = kx
    return take_action(bd, st, rng, p, act, a_k, a_s)


# ---- heuristics: events -------------------------------------------------------------------------

@njit(cache=True, _nrt=False, inline="always")
def _bounds_hold(bd, prm):
    """Whether _arrival_bound and _otto_extra_bound are upper bounds: no weight is negative, and no
    majority is worth more than full control (BD_ORDERED; scores are never negative). True of the
    rule text's scores and of every heuristic's parameters; elsewhere every body is searched, as in
    engine v4."""
    return (bd[BD_ORDERED] == 1) & (prm[P_OPP] >= 0) & (prm[P_LEADER] >= 0)


@njit(cache=True, _nrt=False, inline="always")
def _top_weight(fs):
    """The heaviest weight FW on an opponent's points (call _weights first)."""
    w_top = 0.0
    for o in range(MP):  # (FW of the player himself is 0)
        w_top = max(w_top, fs[FW + o])
    return w_top


@njit(cache=True, _nrt=False, inline="always")
def _arrival_bound(bd, st, p, b, w_full, w_top):
    """An upper bound on the value (cached_gain) of ``p``'s ship arriving on body ``b``, on an empty
    space or in place of any other player's ship (where _bounds_hold), from the body's live summary:
    the ship's points and the displaced player's loss of one (at the heaviest weight ``w_top``), the
    progress term's largest change, the award ``p`` can win (full control when one more ship fills
    the body, else a majority) and the award its holder loses, if that is an opponent. Every other
    term of the value is <= 0."""
    bonus = bd[BODY_BONUS + b]
    win = bonus if st[CNT + b * MP + p] + 1 == bd[BODY_SIZE + b] else bd[MAJ_PTS]
    hb = st[BAWH + b]
    lose = w_top * st[BAWA + b] if (hb >= 0) & (hb != p) else 0.0
    return bd[SHIP_PTS] * (1.0 + w_top) + abs(w_full) * bonus + win + lose


@njit(cache=True, _nrt=False, inline="always")
def _otto_extra_bound(bd, w_full, w_top):
    """An upper bound on what Otto adds to its target's value (where _bounds_hold): the own ship's
    leaving (_best_otto's source: the ship's points lost, at most the progress term's largest change
    gained; no award is won by leaving) and the displaced ship's arrival on the source body
    (_value_shift: at most the majority an opponent holder loses; no opponent holds full control
    of a body the player has a ship on)."""
    return -bd[SHIP_PTS] + abs(w_full) * bd[TOP_BONUS] + w_top * bd[MAJ_PTS]


@njit(cache=True, _nrt=False)
def _targets(bd, st, fs, rng, p, w_full, floor):
    """The best space for one of ``p``'s ships to arrive on with GRAG or Otto (an empty space or
    another player's ship, where the stone does not block attacks) and its value; equally good
    targets uniformly at random. Only bodies where an arrival can be worth ``floor`` are searched
    (_arrival_bound; NEG: all): a target below it is never played, so the best target is the same
    whenever one can be played, and a body that cannot reach it costs no value and no draw. Sets
    FV[b, q + 1] to the value of arriving on body b in place of q's ship (q = -1: an empty space)
    for every arrival searched (others keep stale values: only the best target's is read)."""
    B = bd[NB]
    sb = stone_body(st)
    w_top = _top_weight(fs)
    best = NEG
    best_b = -1  # the best target: body, occupant, and which of his open spaces there
    best_q = -1
    best_r = -1
    ties = 0
    # The bodies whose bound reaches the floor (the stone's excepted), as a bit mask from one pass
    # without branches (whether a body's bound reaches it is a coin flip to the CPU), then visited
    # lowest first: the order of a loop over the bodies.
    todo = np.int64(0)
    for b in range(B):
        todo |= (np.int64(_arrival_bound(bd, st, p, b, w_full, w_top) < floor) ^ 1) << b
    if sb >= 0:
        todo &= ~(np.int64(1) << sb)
    while todo != 0:
        b = lowest_bit(todo)
        todo &= todo - 1
        # Who can be displaced, as a bit mask (bit 0: an empty space, bit q + 1: seat q's ship, never
        # p's own), visited lowest bit first: the order of the loop over -1..P-1 it replaces, without
        # a branch per seat on who is there (a coin flip to the CPU).
        c0 = CNT + b * MP
        occ = np.int64(st[FILLED + b] < bd[BODY_SIZE + b])
        for o in range(MP):
            occ |= np.int64(st[c0 + o] > 0) << (o + 1)
        occ &= ~(np.int64(1) << (p + 1))
        while occ != 0:
            q = lowest_bit(occ) - 1
            occ &= occ - 1
            v = cached_gain(bd, st, fs, b, p, q, w_full)
            fs[FV + b * FQ + q + 1] = v
            if v >= best - TIE:
                r = _open_pick(rng, _open_count(bd, st, b, q))  # the space's draws, as _open_space
                if r >= 0:
                    take, best, ties = _scan_step(rng, v, best, ties)
                    if take:
                        best_b = b
                        best_q = q
                        best_r = r
    if best_b < 0:
        return -1, best
    return _nth_open(bd, st, best_b, best_q, best_r), best


@njit(cache=True, _nrt=False)
def _best_otto(bd, st, fs, rng, p, w_full, t_s):
    """The best Otto move (source, destination, value) to the best target ``t_s`` of _targets: the
    own ship leaves the body where that costs least (not the target's body; equally cheap sources
    uniformly at random); the displaced ship's arrival there is counted too."""
    tb = bd[SP_BODY + t_s]
    tq = st[OWNER + t_s]
    sb = stone_body(st)
    ba = -1
    bv = NEG
    src = -1
    ties = 0
    todo = _bodies_of(bd, st, p) & ~(np.int64(1) << tb)
    if sb >= 0:
        todo &= ~(np.int64(1) << sb)
    while todo != 0:
        a = lowest_bit(todo)
        todo &= todo - 1
        v = cached_gain(bd, st, fs, a, p, p, w_full)
        if v >= bv - TIE:
            r = _open_pick(rng, _open_count(bd, st, a, p))  # the space's draws, as _open_space
            if r >= 0:
                take, bv, ties = _scan_step(rng, v, bv, ties)
                if take:
                    ba = a
                    src = r
    if ba < 0:
        return -1, -1, NEG
    src = _nth_open(bd, st, ba, p, src)
    v = fs[FV + tb * FQ + tq + 1] + bv
    if tq >= 0:
        v += _value_shift(bd, st, fs, ba, p, tq)
    return src, t_s, v


@njit(cache=True, _nrt=False, inline="always")
def _protection(bd, st, p, b, other):
    """What the stone on conquered body ``b`` protects for ``p``: his ships there count +1, the
    others' ``-other`` each (a body not conquered cannot be attacked: 0)."""
    mine = st[CNT + b * MP + p]
    v = mine - other * (bd[BODY_SIZE + b] - mine)
    return v if st[FILLED + b] == bd[BODY_SIZE + b] else 0.0  # a select, not a branch


@njit(cache=True, _nrt=False)
def _best_stone(bd, st, fs, rng, p, prm):
    """The body where the stone protects the most (see _protection), and how much more than where
    it is now (a row or column: the same sum over its spaces on conquered bodies). Returns
    (place, gain); the heuristics move the stone to bodies only."""
    other = prm[P_OPP] / (bd[PLAYERS] - 1)
    t = st[STONE_T]
    i = st[STONE_I]
    if t == STONE_BODY:
        cur = _protection(bd, st, p, i, other)
    else:
        k = i if t == STONE_ROW else bd[NR] + i  # the row or column card kind lists its spaces
        cur = 0.0
        for j in range(bd[KIND_N + k]):
            s = bd[KIND_SP + k * ML + j]
            q = st[OWNER + s]
            b = bd[SP_BODY + s]
            if q >= 0 and st[FILLED + b] == bd[BODY_SIZE + b]:
                cur += 1.0 if q == p else -other
    best = -1
    bv = NEG
    ties = 0
    for b in range(bd[NB]):
        if t == STONE_BODY and b == i:
            continue
        v = _protection(bd, st, p, b, other)
        if v >= bv - TIE:
            take, bv, ties = _scan_step(rng, v, bv, ties)
            if take:
                best = b
    if best < 0:
        return -1, NEG
    return stone_place(bd, np.int64(STONE_BODY), best), bv - cur


BOUND_SLACK = 1e-6  # a body whose bound is this close below the floor is searched all the same


@njit(cache=True, _nrt=False)
def _target_floor(bd, fs, prm, has_g, has_o, last):
    """The least value a GRAG or Otto target must have to be played (heuristic_event's thresholds:
    GRAG gains at least grag_min, Otto at least otto_min, both more than 0; in the last turn, more
    than 0), less what Otto can add to its target; NEG (search every body) where the bounds do not
    hold."""
    if not _bounds_hold(bd, prm):
        return NEG
    floor = 1e18
    if has_g:
        floor = 0.0 if last else max(prm[P_GRAG], 0.0)
    if has_o:
        need = 0.0 if last else max(prm[P_OTTO], 0.0)
        floor = min(floor, need - _otto_extra_bound(bd, prm[P_FULL], _top_weight(fs)))
    return floor - BOUND_SLACK


@njit(cache=True, _nrt=False)
def heuristic_event(sid, prm, bd, st, fs, rng, p, seat_prm, phase):
    """Heuristics consider events after their slots only (phase 1). Play the event with the largest
    margin over its threshold, if any: GRAG / Otto when they gain at least grag_min / otto_min (in
    the player's last turn: anything positive), Simon Wright when the stone protects simon_min more
    elsewhere, Recall when recall_gap points behind the leader (to delay the end), not in the last
    turn. GRAG, Otto and Simon Wright are only looked at in turns without a landing (they are kept
    for the fight over conquered bodies) and in the last turn. ``play_events`` = 0: never any event,
    in any turn (restricted play); the switches read >= 0.5 as on."""
    if phase == 0 or prm[P_EVENTS] < 0.5:
        return False
    ks = bd[KJ] + 1
    h = HANDS + p * MK
    has_s = st[h + ks] > 0
    has_r = st[h + ks + 1] > 0
    has_o = st[h + ks + 2] > 0
    has_g = st[h + ks + 3] > 0 and st[SUPPLY + p] > 0
    last = st[END_SEAT] >= 0
    # when GRAG, Otto and Simon Wright are looked at: with hold_events, only in turns without a
    # landing and in the last turn; without, in every turn
    window = last or st[T_LANDS] == 0 or prm[P_HOLD] < 0.5
    if not ((window and (has_s or has_o or has_g)) or (has_r and not last)):
        return False  # nothing to consider: skip the evaluation
    w_full = prm[P_FULL]
    leaders = _weights(bd, st, fs, p, prm)
    best = 0.0
    choice = -1
    a1 = -1
    a2 = -1
    if (has_g or has_o) and window:
        t_s, t_v = _targets(bd, st, fs, rng, p, w_full, _target_floor(bd, fs, prm, has_g, has_o, last))
        if has_g and t_s >= 0 and t_v > 0:
            m = t_v if last else t_v - prm[P_GRAG]
            if m >= best:
                best = m
                choice = 3
                a1 = t_s
        if has_o and t_s >= 0:
            src, dst, v = _best_otto(bd, st, fs, rng, p, w_full, t_s)
            m = v if last else v - prm[P_OTTO]
            if src >= 0 and v > 0 and m >= best:
                best = m
                choice = 2
                a1 = src
                a2 = dst
    if has_s and window:
        place, gain = _best_stone(bd, st, fs, rng, p, prm)
        m = gain - prm[P_SIMON]
        if place >= 0 and m >= best:
            best = m
            choice = 0
            a1 = place
    if has_r and not last and choice < 0:
        lead_score = 0
        ships = st[ONBOARD + p]
        for q in range(bd[PLAYERS]):
            if (leaders >> q) & 1:
                lead_score = st[SCORE + q]
                ships += st[ONBOARD + q]
        if lead_score - st[SCORE + p] >= prm[P_RECALL] and ships > 0:
            choice = 1
    if choice < 0:
        return False
    play_event(bd, st, fs, rng, p, seat_prm, choice, a1, a2)
    return True


# ---- Recall: every player chooses his own ship --------------------------------------------------

@njit(cache=True, _nrt=False)
def recall_choice(sid, prm, bd, st, fs, rng, q):
    """The space of the ship ``q`` sends home (-1: none on the board). Random: uniformly among his
    ships. Heuristics: the ship whose loss costs the least."""
    if st[ONBOARD + q] == 0:
        return -1
    if sid == RANDOM:
        r = randint(rng, st[ONBOARD + q])
        for s in range(bd[NL]):
            if st[OWNER + s] == q:
                if r == 0:
                    return s
                r -= 1
        return -1
    _weights(bd, st, fs, q, prm)
    best = NEG
    best_b = -1
    ties = 0
    todo = _bodies_of(bd, st, q)
    while todo != 0:
        b = lowest_bit(todo)
        todo &= todo - 1
        v = cached_gain(bd, st, fs, b, q, q, prm[P_FULL])  # q's ship leaves b
        if v >= best - TIE:
            take, best, ties = _scan_step(rng, v, best, ties)
            if take:
                best_b = b
    # his ship on that body, uniformly among his ships there
    found = -1
    ties = 0
    for j in range(bd[BODY_SIZE + best_b]):
        s = body_space(bd, best_b, j)
        if st[OWNER + s] == q:
            ties += 1
            if ties == 1 or wins_tie(rng, ties):
                found = s
    return found


@njit(cache=True, _nrt=False)
def do_recall(bd, st, fs, rng, p, seat_prm):
    """Recall: from the player who played it on, in seat order, each player sends one ship home,
    chosen by his own strategy."""
    P = bd[PLAYERS]
    for i in range(P):
        q = (p + i) % P
        s = recall_choice(st[SID + q], seat_prm[q], bd, st, fs, rng, q)
        if s >= 0:
            recall_ship(bd, st, s)


@njit(cache=True, _nrt=False)
def play_event(bd, st, fs, rng, p, seat_prm, e, a1, a2):
    """``p`` plays event card ``e`` (0 Simon Wright, 1 Recall, 2 Otto, 3 GRAG) with its targets:
    Simon Wright moves the stone to place ``a1``; Recall lets every player send a ship home (each by
    his own strategy); Otto moves ``p``'s ship on ``a1`` to ``a2``; GRAG puts a ship on ``a1``."""
    play_event_card(bd, st, p, bd[KJ] + 1 + e)
    if e == 0:
        move_stone(bd, st, a1)
    elif e == 1:
        do_recall(bd, st, fs, rng, p, seat_prm)
    elif e == 2:
        otto(bd, st, p, a1, a2)
    else:
        grag(bd, st, p, a1)


# ---- dispatch ---------------------------------------------------------------------------------

@njit(cache=True, _nrt=False, inline="always")
def do_slot(sid, prm, bd, st, fs, buf, rng, p, final):
    if sid == RANDOM:
        return random_slot(bd, st, buf, rng, p, final)
    return heuristic_slot(sid, prm, bd, st, fs, rng, p, final)


@njit(cache=True, _nrt=False, inline="always")
def do_event(sid, prm, bd, st, fs, rng, p, seat_prm, phase):
    """``phase`` 0: before the slots, 1: after them. Inlined into the turn, so the heuristics'
    phase-0 call (they play events after their slots only) costs a comparison, not a call."""
    if sid == RANDOM:
        return random_event(bd, st, fs, rng, p, seat_prm)
    if phase == 0:
        return False
    return heuristic_event(sid, prm, bd, st, fs, rng, p, seat_prm, phase)
