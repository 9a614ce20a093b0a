"""The state of one aquaman game and the card moves every rule is made of.

A game is two named tuples of arrays:

- ``Game`` (read-only, from ``engine.prepare``): the ``rules`` integers (indices in ``enums``), each
  card's suit and rank, each suit's power, the move table (``move_to[cell, distance, direction]``,
  -1 where a leg cannot go), the adjacency table (``adj[cell, :]``, -1 padded) and the corner of
  every seat.
- ``State`` (rewritten every game, allocated once per block): deck, discard pile, board, pawns,
  hands with per-suit counts, missions, counters, per-seat statistics, the game's RNG and scratch.

Card ids run ``0 .. n_cards-1``; the deck's top card is ``deck[ctr[C_DECK] - 1]`` and the discard
pile's top card is ``disc[ctr[C_DISC] - 1]``. An empty square holds -1.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from simbalance.core.rng import shuffle
from simbalance.games.aquaman.enums import (
    C_DECK, C_DISC, C_REFILLS, N_CTR, N_STATS, R_COLS, R_NDICE, R_NSUITS, R_PLAYERS, R_RESHUFFLE, R_ROWS,
)

Game = namedtuple("Game", ["rules", "card_suit", "card_rank", "suit_power", "move_to", "adj", "corners"])
State = namedtuple("State", [
    "deck", "disc", "board", "pos", "hand", "hand_n", "suit_cnt", "missions", "ctr", "stats", "rng",
    "buf", "cand", "reach_stamp", "reach_list", "reach_n", "dice", "order",
])


@njit(cache=True)
def new_state(rules, n_cards):
    """Scratch for one block of games (every field is reset by ``setup_game``)."""
    players = rules[R_PLAYERS]
    cells = rules[R_ROWS] * rules[R_COLS]
    masks = 1 << rules[R_NDICE]
    return State(
        np.empty(n_cards, np.int16),
        np.empty(n_cards, np.int16),
        np.full(cells, -1, np.int16),
        np.zeros(players, np.int32),
        np.empty((players, n_cards), np.int16),
        np.zeros(players, np.int32),
        np.zeros((players, rules[R_NSUITS]), np.int16),
        np.zeros(players, np.int32),
        np.zeros(N_CTR, np.int64),
        np.zeros((players, N_STATS), np.int32),
        np.zeros(1, np.uint64),
        np.empty(n_cards, np.int16),
        np.empty(max(cells, n_cards), np.int32),
        np.zeros((masks, cells), np.int64),
        np.empty((masks, cells), np.int32),
        np.zeros(masks, np.int32),
        np.zeros(rules[R_NDICE], np.int32),
        np.zeros(rules[R_NDICE], np.int32),
    )


@njit(cache=True)
def draw(G, S):
    """The deck's top card, or -1. An empty deck is first refilled by shuffling the discard pile."""
    if S.ctr[C_DECK] == 0 and G.rules[R_RESHUFFLE] != 0 and S.ctr[C_DISC] > 0:
        n = S.ctr[C_DISC]
        S.deck[:n] = S.disc[:n]
        S.ctr[C_DISC] = 0
        S.ctr[C_DECK] = n
        S.ctr[C_REFILLS] += 1
        shuffle(S.rng, S.deck, n)
    if S.ctr[C_DECK] == 0:
        return -1
    S.ctr[C_DECK] -= 1
    return np.int64(S.deck[S.ctr[C_DECK]])


@njit(cache=True, inline="always")
def discard(S, card):
    S.disc[S.ctr[C_DISC]] = card
    S.ctr[C_DISC] += 1


@njit(cache=True, inline="always")
def add_card(G, S, seat, card):
    S.hand[seat, S.hand_n[seat]] = card
    S.hand_n[seat] += 1
    S.suit_cnt[seat, G.card_suit[card]] += 1


@njit(cache=True, inline="always")
def remove_at(G, S, seat, i):
    """Take the card in hand slot ``i`` out of ``seat``'s hand (the last card fills the gap)."""
    card = np.int64(S.hand[seat, i])
    last = S.hand_n[seat] - 1
    S.hand[seat, i] = S.hand[seat, last]
    S.hand_n[seat] = last
    S.suit_cnt[seat, G.card_suit[card]] -= 1
    return card


@njit(cache=True, inline="always")
def draw_to_hand(G, S, seat):
    """Draw one card into ``seat``'s hand; returns it (-1 when deck and discard are empty)."""
    card = draw(G, S)
    if card >= 0:
        add_card(G, S, seat, card)
    return card


@njit(cache=True, inline="always")
def pawns_at(S, cell, players, seat):
    """How many pawns other than ``seat``'s stand on ``cell``."""
    n = 0
    for s in range(players):
        if s != seat and S.pos[s] == cell:
            n += 1
    return n


@njit(cache=True, inline="always")
def best_rank(G, S, seat):
    best = 0
    for i in range(S.hand_n[seat]):
        r = G.card_rank[S.hand[seat, i]]
        if r > best:
            best = r
    return best


@njit(cache=True, inline="always")
def _push(S, mask, cell, stamp):
    if S.reach_stamp[mask, cell] != stamp:
        S.reach_stamp[mask, cell] = stamp
        S.reach_list[mask, S.reach_n[mask]] = cell
        S.reach_n[mask] += 1


@njit(cache=True)
def reachable(G, S, start):
    """Every square the rolled ``S.dice`` can end on from ``start``, any order, any directions.

    Layer by layer over the set of dice used so far (a bit mask): each die moves one leg in a legal
    direction, or is skipped when no direction is legal. Returns the count; the squares are
    ``S.reach_list[full_mask, :count]``.
    """
    nd = G.rules[R_NDICE]
    full = (1 << nd) - 1
    S.ctr[4] += 1  # C_STAMP: a fresh stamp marks "seen" without clearing the tables
    stamp = S.ctr[4]
    S.reach_n[:] = 0
    _push(S, 0, start, stamp)
    for mask in range(full):  # a mask is always processed after all its subsets
        for j in range(S.reach_n[mask]):
            cell = S.reach_list[mask, j]
            for k in range(nd):
                bit = 1 << k
                if mask & bit:
                    continue
                d = S.dice[k]
                moved = False
                for direction in range(4):
                    dst = G.move_to[cell, d, direction]
                    if dst >= 0:
                        moved = True
                        _push(S, mask | bit, dst, stamp)
                if not moved:
                    _push(S, mask | bit, cell, stamp)
    return S.reach_n[full]
