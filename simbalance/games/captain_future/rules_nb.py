"""The rules of captain-future as small jitted functions on one game's state (docs/rules/captain-future.md).

A game's state is the flat int64 array ``st`` and the board is ``bd`` (offsets in state_nb.py), so
tests can arrange any position by hand and call one rule at a time. Strategies (strategies_nb.py)
decide; the functions here check and apply.

Bookkeeping kept live, because every decision reads it:
- ``CNT`` ships of each player on each body, ``FILLED`` ships on each body (conquered = full);
- ``EMPTY_K`` for every trajectory card kind: the empty spaces it names that a ship may land on now
  (the stone on a body blocks landing there), so "can this card land?" is one lookup.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simbalance.core.rng import randint
from simbalance.core.rng import shuffle
from simbalance.games.captain_future.state_nb import ATT
from simbalance.games.captain_future.state_nb import BAWA
from simbalance.games.captain_future.state_nb import BAWH
from simbalance.games.captain_future.state_nb import BHOLD
from simbalance.games.captain_future.state_nb import BODY_BONUS
from simbalance.games.captain_future.state_nb import BODY_SIZE
from simbalance.games.captain_future.state_nb import BODY_SP
from simbalance.games.captain_future.state_nb import BSEC
from simbalance.games.captain_future.state_nb import BTOP
from simbalance.games.captain_future.state_nb import BVER
from simbalance.games.captain_future.state_nb import CAT_ABSENT
from simbalance.games.captain_future.state_nb import CAT_MAJORITY
from simbalance.games.captain_future.state_nb import CAT_PRESENT
from simbalance.games.captain_future.state_nb import CLOCK
from simbalance.games.captain_future.state_nb import CNT
from simbalance.games.captain_future.state_nb import COMP_PTS
from simbalance.games.captain_future.state_nb import CONQ
from simbalance.games.captain_future.state_nb import COST_ABS
from simbalance.games.captain_future.state_nb import COST_MAJ
from simbalance.games.captain_future.state_nb import COST_PRE
from simbalance.games.captain_future.state_nb import DECK
from simbalance.games.captain_future.state_nb import DISCARD
from simbalance.games.captain_future.state_nb import ELB
from simbalance.games.captain_future.state_nb import EMPTY_K
from simbalance.games.captain_future.state_nb import END_SEAT
from simbalance.games.captain_future.state_nb import EV
from simbalance.games.captain_future.state_nb import EXCH
from simbalance.games.captain_future.state_nb import FILLED
from simbalance.games.captain_future.state_nb import FINAL_MAX
from simbalance.games.captain_future.state_nb import HAND
from simbalance.games.captain_future.state_nb import HAND_N
from simbalance.games.captain_future.state_nb import HANDS
from simbalance.games.captain_future.state_nb import KJ
from simbalance.games.captain_future.state_nb import LANDS
from simbalance.games.captain_future.state_nb import MAJ_PTS
from simbalance.games.captain_future.state_nb import MB
from simbalance.games.captain_future.state_nb import MBS
from simbalance.games.captain_future.state_nb import MK
from simbalance.games.captain_future.state_nb import MP
from simbalance.games.captain_future.state_nb import NB
from simbalance.games.captain_future.state_nb import NC
from simbalance.games.captain_future.state_nb import NCARDS
from simbalance.games.captain_future.state_nb import NDISC
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
from simbalance.games.captain_future.state_nb import PLAYERS
from simbalance.games.captain_future.state_nb import PTS
from simbalance.games.captain_future.state_nb import REMOVED
from simbalance.games.captain_future.state_nb import RESHUFFLE
from simbalance.games.captain_future.state_nb import S_ATT
from simbalance.games.captain_future.state_nb import S_END
from simbalance.games.captain_future.state_nb import S_EV
from simbalance.games.captain_future.state_nb import S_EXCH
from simbalance.games.captain_future.state_nb import S_HAND
from simbalance.games.captain_future.state_nb import S_LANDS
from simbalance.games.captain_future.state_nb import S_NDISC
from simbalance.games.captain_future.state_nb import S_NSTACK
from simbalance.games.captain_future.state_nb import S_OWN
from simbalance.games.captain_future.state_nb import S_STONE
from simbalance.games.captain_future.state_nb import SCORE
from simbalance.games.captain_future.state_nb import SHIP_PTS
from simbalance.games.captain_future.state_nb import SP_BODY
from simbalance.games.captain_future.state_nb import SP_COL
from simbalance.games.captain_future.state_nb import SP_K
from simbalance.games.captain_future.state_nb import SP_ROW
from simbalance.games.captain_future.state_nb import STACK
from simbalance.games.captain_future.state_nb import STONE_ANY
from simbalance.games.captain_future.state_nb import STONE_BODY
from simbalance.games.captain_future.state_nb import STONE_COL
from simbalance.games.captain_future.state_nb import STONE_I
from simbalance.games.captain_future.state_nb import STONE_ROW
from simbalance.games.captain_future.state_nb import STONE_T
from simbalance.games.captain_future.state_nb import SUPPLY
from simbalance.games.captain_future.state_nb import T_LANDS
from simbalance.games.captain_future.state_nb import option
from simbalance.games.captain_future.state_nb import reset_state

# ---- the set-up --------------------------------------------------------------------------------

@njit(cache=True, _nrt=False)
def shuffle_deck(bd, rng, order):
    """The deck (its card kinds) into ``order``, shuffled."""
    n = bd[NCARDS]
    for j in range(n):
        order[j] = bd[DECK + j]
    shuffle(rng, order, n)


@njit(cache=True, _nrt=False)
def first_stone(bd, rng):
    """The stone's first place (type, index): a random body (default), or a random row, column or
    body (rules.stone_start = "anywhere")."""
    if bd[STONE_ANY]:
        place = randint(rng, n_stone_places(bd))
        if place < bd[NR]:
            return STONE_ROW, place
        if place < bd[NR] + bd[NC]:
            return STONE_COL, place - bd[NR]
        return STONE_BODY, place - bd[NR] - bd[NC]
    return STONE_BODY, randint(rng, bd[NB])


@njit(cache=True, _nrt=False)
def set_up(bd, st, stone_t, stone_i):
    """The board before the deal: no ship, full supplies, no cards anywhere (state_nb.reset_state),
    the stone on its first place, and every space empty (landable unless the stone's body)."""
    reset_state(bd, st)
    st[STONE_T] = stone_t
    st[STONE_I] = stone_i
    for s in range(bd[NL]):
        b = bd[SP_BODY + s]
        st[ELB + kind_of(bd, s, 0) * MB + b] += 1
        st[ELB + kind_of(bd, s, 1) * MB + b] += 1
    recount_empty(bd, st)


# ---- small accessors ----------------------------------------------------------------------------

@njit(cache=True, _nrt=False, inline="always")
def cnt(st, b, p):
    return st[CNT + b * MP + p]


@njit(cache=True, _nrt=False, inline="always")
def hand(st, p, k):
    return st[HANDS + p * MK + k]


@njit(cache=True, _nrt=False, inline="always")
def body_space(bd, b, j):
    return bd[BODY_SP + b * MBS + j]


@njit(cache=True, _nrt=False, inline="always")
def kind_of(bd, s, j):
    """The j-th card kind naming space s: 0 its row, 1 its column, 2 its body, 3 the joker."""
    return bd[SP_K + 4 * s + j]


@njit(cache=True, _nrt=False, inline="always")
def conquered(bd, st, b):
    return st[FILLED + b] == bd[BODY_SIZE + b]


# ---- the secret stone -------------------------------------------------------------------------

@njit(cache=True, _nrt=False, inline="always")
def stone_blocks_attack(bd, st, s):
    """On a row or column the stone blocks attacks there; on a body, attacks (and landings) there."""
    t = st[STONE_T]
    i = st[STONE_I]
    if t == STONE_ROW:
        return bd[SP_ROW + s] == i
    if t == STONE_COL:
        return bd[SP_COL + s] == i
    return bd[SP_BODY + s] == i


@njit(cache=True, _nrt=False, inline="always")
def stone_body(st):
    """The body the stone sits on, or -1."""
    return st[STONE_I] if st[STONE_T] == STONE_BODY else -1


@njit(cache=True, _nrt=False, inline="always")
def stone_blocks_landing(bd, st, s):
    return st[STONE_T] == STONE_BODY and bd[SP_BODY + s] == st[STONE_I]


@njit(cache=True, _nrt=False)
def recount_empty(bd, st):
    st[EMPTY_K:EMPTY_K + MK] = 0
    for s in range(bd[NL]):
        if st[OWNER + s] < 0 and not stone_blocks_landing(bd, st, s):
            for j in range(4):
                st[EMPTY_K + kind_of(bd, s, j)] += 1


@njit(cache=True, _nrt=False)
def n_stone_places(bd):
    return bd[NR] + bd[NC] + bd[NB]


@njit(cache=True, _nrt=False)
def stone_place(bd, t, i):
    """Stone places numbered 0..R+C+B-1: rows, then columns, then bodies."""
    if t == STONE_ROW:
        return i
    if t == STONE_COL:
        return bd[NR] + i
    return bd[NR] + bd[NC] + i


@njit(cache=True, _nrt=False)
def move_stone(bd, st, place):
    """Put the stone on place ``place`` (see stone_place)."""
    old_b = stone_body(st)
    if place < bd[NR]:
        st[STONE_T] = STONE_ROW
        st[STONE_I] = place
    elif place < bd[NR] + bd[NC]:
        st[STONE_T] = STONE_COL
        st[STONE_I] = place - bd[NR]
    else:
        st[STONE_T] = STONE_BODY
        st[STONE_I] = place - bd[NR] - bd[NC]
    # Only a stone on a body blocks landings: the empty spaces of the body it left become landable,
    # those of the body it reached no longer are (the same counts as recount_empty, by difference).
    new_b = stone_body(st)
    if old_b != new_b:
        _shift_empty(bd, st, old_b, 1)
        _shift_empty(bd, st, new_b, -1)


@njit(cache=True, _nrt=False, inline="always")
def _shift_empty(bd, st, b, d):
    """Add ``d`` to the landable-space counts of the card kinds naming each empty space of body
    ``b`` (nothing for b = -1)."""
    if b < 0:
        return
    for j in range(bd[BODY_SIZE + b]):
        s = bd[BODY_SP + b * MBS + j]
        if st[OWNER + s] < 0:
            for i in range(4):
                st[EMPTY_K + kind_of(bd, s, i)] += d


# ---- ships ------------------------------------------------------------------------------------

@njit(cache=True, _nrt=False, inline="always")
def body_changed(bd, st, b):
    """Refresh body ``b``'s live summary (largest counts, majority holder, bonus) and the scores."""
    old = st[BAWH + b]
    if old >= 0:
        st[SCORE + old] -= st[BAWA + b]
    top = 0
    second = 0
    best = -1
    for q in range(bd[PLAYERS]):
        c = st[CNT + b * MP + q]
        gt = c > top  # selects, not branches: the counts are coin flips to the CPU
        second = top if gt else max(second, c)
        best = q if gt else best
        top = c if gt else top
    hold = best if top > second else -1
    st[CLOCK] += 1
    st[BVER + b] = st[CLOCK]
    st[BTOP + b] = top
    st[BSEC + b] = second
    st[BHOLD + b] = hold
    award = 0
    if hold >= 0:
        award = bd[BODY_BONUS + b] if top == bd[BODY_SIZE + b] else bd[MAJ_PTS]
        st[SCORE + hold] += award
    st[BAWH + b] = hold
    st[BAWA + b] = award
    # the conquered bodies as a bit mask: the attack search visits them without a mispredicted
    # branch per body on whether each is full
    bit = np.int64(1) << b
    st[CONQ] = (st[CONQ] & ~bit) | (bit if st[FILLED + b] == bd[BODY_SIZE + b] else 0)


@njit(cache=True, _nrt=False)
def put_ship(bd, st, p, s):
    """A ship of ``p`` onto the empty space ``s`` (from wherever the caller took it)."""
    b = bd[SP_BODY + s]
    st[OWNER + s] = p
    st[ELB + kind_of(bd, s, 0) * MB + b] -= 1
    st[ELB + kind_of(bd, s, 1) * MB + b] -= 1
    st[CNT + b * MP + p] += 1
    st[FILLED + b] += 1
    st[ONBOARD + p] += 1
    st[SCORE + p] += bd[SHIP_PTS]
    body_changed(bd, st, b)
    if not stone_blocks_landing(bd, st, s):
        for j in range(4):
            st[EMPTY_K + kind_of(bd, s, j)] -= 1


@njit(cache=True, _nrt=False)
def lift_ship(bd, st, s):
    """Take the ship off ``s``; returns its owner (the caller decides where the ship goes)."""
    q = st[OWNER + s]
    b = bd[SP_BODY + s]
    st[OWNER + s] = -1
    st[ELB + kind_of(bd, s, 0) * MB + b] += 1
    st[ELB + kind_of(bd, s, 1) * MB + b] += 1
    st[CNT + b * MP + q] -= 1
    st[FILLED + b] -= 1
    st[ONBOARD + q] -= 1
    st[SCORE + q] -= bd[SHIP_PTS]
    body_changed(bd, st, b)
    if not stone_blocks_landing(bd, st, s):
        for j in range(4):
            st[EMPTY_K + kind_of(bd, s, j)] += 1
    return q


@njit(cache=True, _nrt=False)
def place_from_supply(bd, st, p, s):
    """A ship of ``p`` from his supply onto empty ``s``. The placement that empties a supply
    triggers the end (once: a later Recall does not undo it)."""
    st[SUPPLY + p] -= 1
    put_ship(bd, st, p, s)
    if st[SUPPLY + p] == 0 and st[END_SEAT] < 0:
        st[END_SEAT] = p


# ---- cards ------------------------------------------------------------------------------------

@njit(cache=True, _nrt=False, inline="always")
def draw_card(bd, st, rng, p):
    """Draw the top card of the stack into ``p``'s hand; an empty stack is refilled by shuffling the
    discard pile (rules.reshuffle_discards). Returns False when nothing can be drawn."""
    if st[NSTACK] == 0:
        nd = st[NDISC]
        if bd[RESHUFFLE] == 0 or nd == 0:
            return False
        for j in range(nd):
            st[STACK + j] = st[DISCARD + j]
        # Fisher-Yates in place (as simbalance.core.rng.shuffle, on a part of the state array)
        for j in range(nd - 1, 0, -1):
            r = STACK + randint(rng, j + 1)
            tmp = st[STACK + j]
            st[STACK + j] = st[r]
            st[r] = tmp
        st[NSTACK] = nd
        st[NDISC] = 0
    n = st[NSTACK] - 1
    k = st[STACK + n]
    st[NSTACK] = n
    st[HANDS + p * MK + k] += 1
    st[HAND_N + p] += 1
    return True


@njit(cache=True, _nrt=False)
def discard_card(st, p, k):
    st[HANDS + p * MK + k] -= 1
    st[HAND_N + p] -= 1
    st[DISCARD + st[NDISC]] = k
    st[NDISC] += 1


@njit(cache=True, _nrt=False)
def refill_hand(bd, st, rng, p):
    while st[HAND_N + p] < bd[HAND]:
        if not draw_card(bd, st, rng, p):
            break


@njit(cache=True, _nrt=False)
def deal(bd, st, order):
    """Deal from the shuffled deck ``order`` (card kinds): card k goes to seat k % P until every
    hand is full; the rest is the stack, ``order[P * hand size]`` on top."""
    P = bd[PLAYERS]
    n_deal = P * bd[HAND]
    for k in range(n_deal):
        p = k % P
        st[HANDS + p * MK + order[k]] += 1
        st[HAND_N + p] += 1
    n = bd[NCARDS]
    for j in range(n - n_deal):
        st[STACK + j] = order[n - 1 - j]
    st[NSTACK] = n - n_deal
    st[NDISC] = 0


@njit(cache=True, _nrt=False)
def can_exchange(bd, st, p):
    """An exchange needs a card to discard and one to draw (the discarded card itself may come back
    through the reshuffle)."""
    if st[HAND_N + p] == 0:
        return False
    return st[NSTACK] > 0 or bd[RESHUFFLE] != 0


@njit(cache=True, _nrt=False)
def exchange(bd, st, rng, p, k):
    discard_card(st, p, k)
    draw_card(bd, st, rng, p)
    st[EXCH] += 1


# ---- landing ----------------------------------------------------------------------------------

@njit(cache=True, _nrt=False, inline="always")
def names_space(bd, k, s):
    """Does card kind ``k`` name space ``s`` (its row, its column, its body, or a joker)?"""
    return k == kind_of(bd, s, 0) or k == kind_of(bd, s, 1) or k == kind_of(bd, s, 2) or k == bd[KJ]


@njit(cache=True, _nrt=False, inline="always")
def naming_cards(bd, st, p, s):
    """Cards in ``p``'s hand that name space ``s``."""
    h = HANDS + p * MK
    return (st[h + kind_of(bd, s, 0)] + st[h + kind_of(bd, s, 1)] + st[h + kind_of(bd, s, 2)]
            + st[h + bd[KJ]])


@njit(cache=True, _nrt=False)
def can_land(bd, st, p, k, s):
    """Landing: one trajectory card naming an empty landing space not on the stone's body."""
    return (0 <= k <= bd[KJ] and hand(st, p, k) > 0 and st[SUPPLY + p] > 0 and st[OWNER + s] < 0
            and names_space(bd, k, s) and not stone_blocks_landing(bd, st, s))


@njit(cache=True, _nrt=False)
def land(bd, st, p, k, s):
    discard_card(st, p, k)
    place_from_supply(bd, st, p, s)
    st[T_LANDS] += 1
    st[LANDS] += 1


# ---- attacks ----------------------------------------------------------------------------------

@njit(cache=True, _nrt=False, inline="always")
def majority_holder(bd, st, b):
    """The player with strictly more ships on body ``b`` than anyone else, or -1."""
    return st[BHOLD + b]


@njit(cache=True, _nrt=False, inline="always")
def attack_category(bd, st, p, b):
    if majority_holder(bd, st, b) == p:
        return CAT_MAJORITY
    if cnt(st, b, p) > 0:
        return CAT_PRESENT
    return CAT_ABSENT


@njit(cache=True, _nrt=False, inline="always")
def attack_cost(bd, st, p, b):
    """Cards an attack on body ``b`` costs ``p`` now (majority recomputed live)."""
    cat = attack_category(bd, st, p, b)
    if cat == CAT_MAJORITY:
        return bd[COST_MAJ]
    if cat == CAT_PRESENT:
        return bd[COST_PRE]
    return bd[COST_ABS]


@njit(cache=True, _nrt=False, inline="always")
def attackable(bd, st, p, s):
    """A foreign ship on a conquered body, not protected by the stone (cards not checked)."""
    q = st[OWNER + s]
    if q < 0 or q == p:
        return False
    return conquered(bd, st, bd[SP_BODY + s]) and not stone_blocks_attack(bd, st, s)


@njit(cache=True, _nrt=False)
def can_attack(bd, st, p, s, final):
    """Can ``p`` attack ``s`` now? ``final``: another player triggered the end and this is ``p``'s
    last turn, where attacks above rules.final_round_max_attack_cost ("no three card attacks") are
    not allowed."""
    if st[SUPPLY + p] == 0 or not attackable(bd, st, p, s):
        return False
    cost = attack_cost(bd, st, p, bd[SP_BODY + s])
    if final and cost > bd[FINAL_MAX]:
        return False
    return naming_cards(bd, st, p, s) >= cost


@njit(cache=True, _nrt=False)
def resolve_attack(bd, st, p, s):
    """The board part of an attack (the caller pays the cards): the attacked ship leaves the game
    and a ship from ``p``'s supply takes its place."""
    cat = attack_category(bd, st, p, bd[SP_BODY + s])
    st[ATT + p * 4 + cat] += 1
    q = lift_ship(bd, st, s)
    st[REMOVED + q] += 1
    place_from_supply(bd, st, p, s)


@njit(cache=True, _nrt=False)
def attack(bd, st, p, s):
    """``p`` attacks ``s``, paying the cards that name it the least useful first (the heuristics'
    payment, and an option's: state_nb.OPT_ATTACK)."""
    pay_named_cheapest(bd, st, p, s, attack_cost(bd, st, p, bd[SP_BODY + s]))
    resolve_attack(bd, st, p, s)


@njit(cache=True, _nrt=False)
def pay_named_cheapest(bd, st, p, s, n):
    """Pay ``n`` cards naming ``s``, the least useful first: the row or column card that names fewer
    empty spaces, then the other, then the body card, jokers last."""
    kr = kind_of(bd, s, 0)
    kc = kind_of(bd, s, 1)
    if st[EMPTY_K + kc] < st[EMPTY_K + kr]:
        kr, kc = kc, kr
    left = n
    for j in range(4):
        k = kr if j == 0 else (kc if j == 1 else kind_of(bd, s, j))
        while left > 0 and hand(st, p, k) > 0:
            discard_card(st, p, k)
            left -= 1


# ---- events -----------------------------------------------------------------------------------

@njit(cache=True, _nrt=False)
def play_event_card(bd, st, p, k):
    """Discard the event card ``k`` and count it (the caller applies its effect)."""
    discard_card(st, p, k)
    st[EV + k - bd[KJ] - 1] += 1


@njit(cache=True, _nrt=False)
def otto_ok(bd, st, p, src, dst):
    """Otto moves ``p``'s ship from ``src`` to another space not holding his own ship, swapping with
    the ship there; neither space may be one where the stone blocks attacks."""
    return (st[OWNER + src] == p and dst != src and st[OWNER + dst] != p
            and not stone_blocks_attack(bd, st, src) and not stone_blocks_attack(bd, st, dst))


@njit(cache=True, _nrt=False)
def otto(bd, st, p, src, dst):
    q = st[OWNER + dst]
    lift_ship(bd, st, src)
    if q >= 0:
        lift_ship(bd, st, dst)
        put_ship(bd, st, q, src)
    put_ship(bd, st, p, dst)


@njit(cache=True, _nrt=False)
def grag_ok(bd, st, p, s):
    """GRAG: a ship from supply onto any space not holding one's own ship, where the stone does not
    block attacks."""
    return st[SUPPLY + p] > 0 and st[OWNER + s] != p and not stone_blocks_attack(bd, st, s)


@njit(cache=True, _nrt=False)
def grag(bd, st, p, s):
    q = st[OWNER + s]
    if q >= 0:
        lift_ship(bd, st, s)
        st[SUPPLY + q] += 1  # returned to its owner, who may land it again
    place_from_supply(bd, st, p, s)


@njit(cache=True, _nrt=False)
def recall_ok(bd, st):
    """Recall has a use: a ship on the board (anyone's)."""
    for q in range(bd[PLAYERS]):
        if st[ONBOARD + q] > 0:
            return True
    return False


@njit(cache=True, _nrt=False)
def recall_ship(bd, st, s):
    """Recall: the ship on ``s`` goes back to its owner's supply (the stone does not matter)."""
    q = lift_ship(bd, st, s)
    st[SUPPLY + q] += 1


# ---- scoring ----------------------------------------------------------------------------------

@njit(cache=True, _nrt=False)
def body_points(bd, st, b):
    """Points of every player on body ``b`` into st[PTS..]: ships, plus full control (all spaces
    his) or a strict majority on a body nobody fully controls."""
    top = 0
    second = 0
    best = -1
    for q in range(bd[PLAYERS]):
        c = st[CNT + b * MP + q]
        st[PTS + q] = c * bd[SHIP_PTS]
        if c > top:
            second = top
            top = c
            best = q
        elif c > second:
            second = c
    if top == bd[BODY_SIZE + b]:
        st[PTS + best] += bd[BODY_BONUS + b]
    elif top > second:
        st[PTS + best] += bd[MAJ_PTS]


@njit(cache=True, _nrt=False)
def scores(bd, st, out):
    """Every player's score (kept live) into ``out``."""
    for q in range(bd[PLAYERS]):
        out[q] = st[SCORE + q]


@njit(cache=True, _nrt=False)
def scores_recomputed(bd, st, out):
    """Every player's score from scratch (tests check it against the live scores)."""
    for q in range(bd[PLAYERS]):
        out[q] = bd[COMP_PTS + q]  # seat compensation: the points a seat starts with
    for b in range(bd[NB]):
        body_points(bd, st, b)
        for q in range(bd[PLAYERS]):
            out[q] += st[PTS + q]


# ---- a slot, carried out; what a decision allows -------------------------------------------------

@njit(cache=True, _nrt=False, inline="always")
def take_action(bd, st, rng, p, act, k, s):
    """Carry out an action slot of ``p``: ``act`` OPT_LAND (card kind ``k`` on space ``s``),
    OPT_ATTACK (space ``s``) or OPT_EXCHANGE (a card of kind ``k``); OPT_NONE is a pass. Returns
    whether the player did something."""
    if act == OPT_LAND:
        land(bd, st, p, k, s)
    elif act == OPT_ATTACK:
        attack(bd, st, p, s)
    elif act == OPT_EXCHANGE:
        exchange(bd, st, rng, p, k)
    else:
        return False
    return True


@njit(cache=True, _nrt=False)
def slot_options(bd, st, p, final, out):
    """Every option of ``p``'s action slot into ``out`` (codes state_nb.option); returns how many.
    ``final``: ``p``'s last turn after another player triggered the end. The rule text: a landing
    with any trajectory card in hand on any empty space it names (not on the stone's body), an attack
    on any ship the player can attack now, an exchange of any card kind in hand; a pass only when
    none of these is legal."""
    n = 0
    for k in range(bd[KJ] + 1):
        if st[HANDS + p * MK + k] == 0:
            continue
        for s in range(bd[NL]):
            if can_land(bd, st, p, k, s):
                out[n] = option(OPT_LAND, k, s)
                n += 1
    for s in range(bd[NL]):
        if can_attack(bd, st, p, s, final):
            out[n] = option(OPT_ATTACK, 0, s)
            n += 1
    if can_exchange(bd, st, p):
        for k in range(bd[NK]):
            if st[HANDS + p * MK + k] > 0:
                out[n] = option(OPT_EXCHANGE, k, 0)
                n += 1
    if n == 0:
        out[0] = option(OPT_NONE, 0, 0)
        n = 1
    return n


@njit(cache=True, _nrt=False)
def event_options(bd, st, p, out):
    """Every option of ``p``'s event decision into ``out``; returns how many: no event, then each
    event card in hand with each of its legal uses (Simon Wright: every other place of the stone;
    Recall: once, if a ship is on the board; Otto: every own ship and space allowed by otto_ok;
    GRAG: every space allowed by grag_ok)."""
    ks = bd[KJ] + 1
    h = HANDS + p * MK
    out[0] = option(OPT_NONE, 0, 0)
    n = 1
    if st[h + ks] > 0:
        cur = stone_place(bd, st[STONE_T], st[STONE_I])
        for place in range(n_stone_places(bd)):
            if place != cur:
                out[n] = option(OPT_SIMON, place, 0)
                n += 1
    if st[h + ks + 1] > 0 and recall_ok(bd, st):
        out[n] = option(OPT_RECALL, 0, 0)
        n += 1
    if st[h + ks + 2] > 0:
        for src in range(bd[NL]):
            if st[OWNER + src] != p:
                continue
            for dst in range(bd[NL]):
                if otto_ok(bd, st, p, src, dst):
                    out[n] = option(OPT_OTTO, src, dst)
                    n += 1
    if st[h + ks + 3] > 0:
        for s in range(bd[NL]):
            if grag_ok(bd, st, p, s):
                out[n] = option(OPT_GRAG, s, 0)
                n += 1
    return n


# ---- what a step changed: a snapshot before it (the replay's log and the search's policy) -------

@njit(cache=True, _nrt=False)
def snapshot(bd, st, work, p):
    """What an action of ``p`` can change, into work[W_LOG..]: the replay's log and the search's
    policy read a step back from it."""
    for s in range(bd[NL]):
        work[S_OWN + s] = st[OWNER + s]
    for k in range(MK):
        work[S_HAND + k] = st[HANDS + p * MK + k]
    work[S_NSTACK] = st[NSTACK]
    work[S_NDISC] = st[NDISC]
    work[S_LANDS] = st[LANDS]
    work[S_EXCH] = st[EXCH]
    for c in range(3):
        work[S_ATT + c] = st[ATT + p * 4 + c]
    work[S_STONE] = stone_place(bd, st[STONE_T], st[STONE_I])
    work[S_END] = st[END_SEAT]
    for e in range(4):
        work[S_EV + e] = st[EV + e]


@njit(cache=True, _nrt=False, inline="always")
def taken_space(bd, st, work, p):
    """The space that is ``p``'s now and was not before (-1: none)."""
    for s in range(bd[NL]):
        if st[OWNER + s] == p and work[S_OWN + s] != p:
            return s
    return -1
