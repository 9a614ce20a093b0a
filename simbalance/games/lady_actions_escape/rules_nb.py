"""The rules of lady-actions-escape as one jitted function per game (docs/rules/lady-actions-escape.md).

``play_game`` takes the shuffled deck order as an array, so tests can deal a chosen order.

Matching is one AND of bit masks: a card's mask has bit ``b`` for its background and bit
``CH_SHIFT + c`` for its character (every bit for a card playable on anything); the top of the
discard pile has the bits of what must be matched (a played wildcard: the named ones).

Per card (arrays from engine.prepare): ``card_bg``/``card_ch`` (-1: none), ``card_mask``,
``card_wild`` (its player names a background and a character), ``card_effect`` (EFFECT_*: what the
printed card does). ``game_rules`` is indexed by the G_* constants below.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from simbalance.core.kernel import block_bounds, n_blocks
from simbalance.core.records import END_INVALID, END_STALEMATE, END_TIMEOUT, END_WIN
from simbalance.core.rng import seed_game, shuffle
from simbalance.games.lady_actions_escape.strategies_nb import (
    EFFECT_DRAW,
    EFFECT_REVERSE,
    choose_card,
    name_background,
    name_character,
    playable,
)

CH_SHIFT = 16  # character bits start here in a match mask

G_PLAYERS = 0
G_HAND = 1  # cards dealt to each player (5)
G_REVERSE = 2  # 1: a Lady Action reverses the direction of play
G_DRAW = 3  # cards every other player draws when a Dr. Evil is played (0: no effect)
G_TURN_CAP = 4  # turns (passes included) after which a game is a timeout
G_N_BG = 5  # backgrounds a wildcard may name
G_N_CH = 6  # characters a wildcard may name
N_GAME_RULES = 7


@njit(cache=True, inline="always")
def top_mask_of(bg, ch):
    m = np.int64(0)
    if bg >= 0:
        m |= np.int64(1) << bg
    if ch >= 0:
        m |= np.int64(1) << (CH_SHIFT + ch)
    return m


@njit(cache=True, inline="always")
def _add(hand, hand_n, cnt_bg, cnt_ch, card_bg, card_ch, seat, card):
    hand[seat, hand_n[seat]] = card
    hand_n[seat] += 1
    if card_bg[card] >= 0:
        cnt_bg[seat, card_bg[card]] += 1
    if card_ch[card] >= 0:
        cnt_ch[seat, card_ch[card]] += 1


@njit(cache=True, inline="always")
def _remove_at(hand, hand_n, cnt_bg, cnt_ch, card_bg, card_ch, seat, j):
    card = hand[seat, j]
    last = hand_n[seat] - 1
    hand[seat, j] = hand[seat, last]
    hand_n[seat] = last
    if card_bg[card] >= 0:
        cnt_bg[seat, card_bg[card]] -= 1
    if card_ch[card] >= 0:
        cnt_ch[seat, card_ch[card]] -= 1
    return card


@njit(cache=True)
def _draw(state, draw, ctr, disc):
    """The top card of the draw pile, refilled from the discard pile (all but its top card,
    shuffled) when empty; -1 when nothing can be drawn. ``ctr``: [draw_n, disc_n, reshuffles]."""
    if ctr[0] == 0:
        if ctr[1] <= 1:
            return -1
        n = ctr[1] - 1
        for k in range(n):
            draw[k] = disc[k]
        disc[0] = disc[n]
        ctr[1] = 1
        shuffle(state, draw, n)
        ctr[0] = n
        ctr[2] += 1
    ctr[0] -= 1
    return draw[ctr[0]]


@njit(cache=True)
def _conserved(hand, hand_n, players, draw, disc, ctr, n_cards, cnt_bg, cnt_ch, card_bg, card_ch):
    """Validation: every card is in exactly one place, and the hand counts match the hands."""
    seen = np.zeros(n_cards, np.int64)
    for s in range(players):
        for j in range(hand_n[s]):
            seen[hand[s, j]] += 1
    for k in range(ctr[0]):
        seen[draw[k]] += 1
    for k in range(ctr[1]):
        seen[disc[k]] += 1
    for c in range(n_cards):
        if seen[c] != 1:
            return False
    for s in range(players):
        for b in range(cnt_bg.shape[1]):
            k = 0
            for j in range(hand_n[s]):
                if card_bg[hand[s, j]] == b:
                    k += 1
            if k != cnt_bg[s, b]:
                return False
        for c in range(cnt_ch.shape[1]):
            k = 0
            for j in range(hand_n[s]):
                if card_ch[hand[s, j]] == c:
                    k += 1
            if k != cnt_ch[s, c]:
                return False
    return True


@njit(cache=True)
def play_game(state, order, seat_sid, seat_params, card_bg, card_ch, card_mask, card_wild, card_effect,
              game_rules, hand, hand_n, cnt_bg, cnt_ch, draw, disc, ctr, steps, out, i, validate):
    """Deal ``order`` and play one game; write its record into ``out[i]``.

    Scratch: ``hand`` int64[P, n_cards], ``hand_n``/``steps`` int64[P], ``cnt_bg``/``cnt_ch``
    int64[P, B or C], ``draw``/``disc`` int64[n_cards], ``ctr`` int64[3]. With ``validate`` every
    turn is checked (legal play, cards conserved); a broken invariant ends the game with
    ``end = END_INVALID``.
    """
    n_cards = order.shape[0]
    players = game_rules[G_PLAYERS]
    hand_size = game_rules[G_HAND]
    n_draw = game_rules[G_DRAW]
    hand_n[:] = 0
    cnt_bg[:, :] = 0
    cnt_ch[:, :] = 0
    steps[:] = 0
    for s in range(players):
        out[i].plays[s] = 0
        out[i].drawn[s] = 0

    # Deal hand_size cards each (card k to seat k % P); the rest is the draw pile, order[-1] on top.
    for k in range(players * hand_size):
        _add(hand, hand_n, cnt_bg, cnt_ch, card_bg, card_ch, k % players, order[k])
    ctr[0] = 0
    for k in range(players * hand_size, n_cards):
        draw[ctr[0]] = order[k]
        ctr[0] += 1
    ctr[1] = 0
    ctr[2] = 0

    seat = 0  # the first leader
    direction = 1  # clockwise
    top = np.int64(0)  # match mask of the discard pile's top
    lead = True
    turns = 0
    passes_in_row = 0
    reversals = 0
    draw_effects = 0
    wilds = 0
    passes = 0
    end = END_WIN
    winner = -1
    while True:
        if turns >= game_rules[G_TURN_CAP]:
            end = END_TIMEOUT
            break
        sid = seat_sid[seat]
        params = seat_params[seat]
        turns += 1

        # Play a card: the leader any card; the others a matching one, or draw until one matches.
        j = -1
        n = hand_n[seat]
        if lead:
            j = choose_card(sid, params, state, steps[seat], hand, n, seat, True, top, card_mask, card_bg,
                            card_ch, card_wild, card_effect, cnt_bg, cnt_ch, hand_n, players, direction)
            steps[seat] += 1
        else:
            can = False
            for k in range(n):
                if playable(hand[seat, k], top, card_mask):
                    can = True
                    break
            if can:
                j = choose_card(sid, params, state, steps[seat], hand, n, seat, False, top, card_mask, card_bg,
                                card_ch, card_wild, card_effect, cnt_bg, cnt_ch, hand_n, players, direction)
                steps[seat] += 1
                if validate and (j < 0 or j >= n or not playable(hand[seat, j], top, card_mask)):
                    end = END_INVALID
                    break
            else:
                while True:
                    card = _draw(state, draw, ctr, disc)
                    if card < 0:
                        break  # nothing left to draw: he passes
                    out[i].drawn[seat] += 1
                    _add(hand, hand_n, cnt_bg, cnt_ch, card_bg, card_ch, seat, card)
                    if playable(card, top, card_mask):
                        j = hand_n[seat] - 1
                        break
        if j < 0:
            passes += 1
            passes_in_row += 1
            if passes_in_row >= players:
                end = END_STALEMATE  # a full round in which nobody could play
                break
            seat = (seat + direction) % players
            continue
        passes_in_row = 0
        lead = False
        card = _remove_at(hand, hand_n, cnt_bg, cnt_ch, card_bg, card_ch, seat, j)
        disc[ctr[1]] = card
        ctr[1] += 1
        out[i].plays[seat] += 1
        if card_wild[card]:
            wilds += 1
            bg = name_background(sid, params, state, steps[seat], seat, game_rules[G_N_BG], cnt_bg)
            steps[seat] += 1
            ch = name_character(sid, params, state, steps[seat], seat, game_rules[G_N_CH], cnt_ch)
            steps[seat] += 1
            top = top_mask_of(bg, ch)
        else:
            top = top_mask_of(card_bg[card], card_ch[card])
        if hand_n[seat] == 0:
            winner = seat  # escaped: the game ends at once
            break

        # The printed card's effect: Lady Action reverses, Dr. Evil slows everybody else down.
        effect = card_effect[card]
        if effect == EFFECT_REVERSE and game_rules[G_REVERSE] != 0:
            direction = -direction
            reversals += 1
        elif effect == EFFECT_DRAW and n_draw > 0:
            draw_effects += 1
            s = seat
            for _ in range(players - 1):
                s = (s + direction) % players
                for _ in range(n_draw):
                    card = _draw(state, draw, ctr, disc)
                    if card < 0:
                        break  # a player draws as many as exist
                    out[i].drawn[s] += 1
                    _add(hand, hand_n, cnt_bg, cnt_ch, card_bg, card_ch, s, card)
        if validate and not _conserved(hand, hand_n, players, draw, disc, ctr, n_cards, cnt_bg, cnt_ch, card_bg,
                                       card_ch):
            end = END_INVALID
            break
        seat = (seat + direction) % players

    out[i].length = turns
    out[i].end = end
    out[i].reversals = reversals
    out[i].draw_twos = draw_effects
    out[i].reshuffles = ctr[2]
    out[i].passes = passes
    out[i].wilds_played = wilds
    for s in range(players):
        out[i].cards_left[s] = hand_n[s]
    if end == END_WIN:
        out[i].winner = winner
        out[i].winners = 1 << winner
    else:
        out[i].winner = -1
        out[i].winners = 0


@njit(cache=True, parallel=True)
def kernel(out, first_game, seed, lineups, slot_strategy, slot_params, card_bg, card_ch, card_mask, card_wild,
           card_effect, game_rules, validate):
    n = out.shape[0]
    n_cards = card_bg.shape[0]
    players = game_rules[G_PLAYERS]
    blocks = n_blocks(n)
    for b in prange(blocks):
        lo, hi = block_bounds(n, blocks, b)
        state = np.zeros(1, np.uint64)
        order = np.empty(n_cards, np.int64)
        hand = np.empty((players, n_cards), np.int64)
        hand_n = np.zeros(players, np.int64)
        steps = np.zeros(players, np.int64)
        cnt_bg = np.zeros((players, game_rules[G_N_BG]), np.int64)
        cnt_ch = np.zeros((players, game_rules[G_N_CH]), np.int64)
        draw = np.empty(n_cards, np.int64)
        disc = np.empty(n_cards, np.int64)
        ctr = np.zeros(3, np.int64)
        seat_sid = np.empty(players, np.int64)
        seat_params = np.empty((players, slot_params.shape[1]), np.float64)
        for i in range(lo, hi):
            game = first_game + i
            seed_game(state, seed, game)
            out[i].game = game
            lineup = lineups[game % lineups.shape[0]]
            for s in range(players):
                out[i].strategy[s] = lineup[s]
                seat_sid[s] = slot_strategy[lineup[s]]
                seat_params[s, :] = slot_params[lineup[s], :]
            for c in range(n_cards):
                order[c] = c
            shuffle(state, order, n_cards)
            play_game(state, order, seat_sid, seat_params, card_bg, card_ch, card_mask, card_wild, card_effect,
                      game_rules, hand, hand_n, cnt_bg, cnt_ch, draw, disc, ctr, steps, out, i, validate)


@njit(cache=True)
def play_scripted(order, seat_sid, seat_params, card_bg, card_ch, card_mask, card_wild, card_effect, game_rules,
                  seed, game, out):
    """Tests: play one game from a chosen deck order with chosen strategies per seat (validated)."""
    n_cards = order.shape[0]
    players = game_rules[G_PLAYERS]
    state = np.zeros(1, np.uint64)
    seed_game(state, seed, game)
    play_game(state, order.copy(), seat_sid, seat_params, card_bg, card_ch, card_mask, card_wild, card_effect,
              game_rules, np.empty((players, n_cards), np.int64), np.zeros(players, np.int64),
              np.zeros((players, game_rules[G_N_BG]), np.int64), np.zeros((players, game_rules[G_N_CH]), np.int64),
              np.empty(n_cards, np.int64), np.empty(n_cards, np.int64), np.zeros(3, np.int64),
              np.zeros(players, np.int64), out, 0, True)
