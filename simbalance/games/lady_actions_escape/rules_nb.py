"""The rules of lady-actions-escape as one jitted function per game (docs/rules/lady-actions-escape.md).

``play_game`` takes the shuffled deck order as an array, so tests can deal a chosen order.

Hands are uint64 masks over card ids (at most 64 cards), so "which cards may I play?" is one AND:
``match[top]`` is the mask of every card that may be played on a top card standing for background
``bg`` and character ``ch`` (``top = (bg + 1) * (C + 1) + ch + 1``; -1: none, e.g. a Captain Action
0 without wildcards has no background). A played wildcard stands for what its player names.

Arrays from engine.prepare: ``card_info`` (per card: background, character, wild flag, printed
effect; columns INFO_* in strategies_nb), ``match``, ``kind_cards`` (masks of the cards of each
background, then of each character: strategies count their hand with them) and ``game_rules``
(indexed by the G_* constants below).

One game function, ``play_game`` (run by ``play_block``), serves the kernel, the tests
(``play_scripted``) and the replay (``trace_game``: the same game with every event logged). Seats
with strategy id PLUGIN_ID (a user's ``--strategy-file`` function) call the global
``plugin_choose``; ``make_plugin_kernel(fn)`` compiles copies of ``play_game``, ``play_block`` and
``kernel`` in which that name is ``fn``. A global, not a function argument: numba passes a function
argument as a pointer constant, and a kernel holding one cannot be cached.
"""

from __future__ import annotations

import types

import numpy as np
from numba import njit, prange

from simbalance.core.bits import popcount
from simbalance.core.event_log import log_event
from simbalance.core.kernel import begin_game, block_bounds, n_blocks
from simbalance.core.plugins import PLUGIN_ID
from simbalance.core.records import END_INVALID, END_STALEMATE, END_TIMEOUT, END_WIN
from simbalance.core.rng import randint, seed_game, shuffle, shuffled_range
from simbalance.games.lady_actions_escape.bits_nb import bit, has, nth_card
from simbalance.games.lady_actions_escape.strategies_nb import (
    EFFECT_DRAW,
    EFFECT_REVERSE,
    INFO_BG,
    INFO_CH,
    INFO_EFFECT,
    INFO_WILD,
    RANDOM,
    choose_card,
    name_background,
    name_character,
)

G_PLAYERS = 0
G_HAND = 1  # cards dealt to each player (5)
G_REVERSE = 2  # 1: a Lady Action reverses the direction of play
G_DRAW = 3  # cards every other player draws when a Dr. Evil is played (0: no effect)
G_TURN_CAP = 4  # turns (passes included) after which a game is a timeout
G_N_BG = 5  # backgrounds (kind_cards holds their masks first, then the characters')
G_LEADER = 6  # who leads the first card: LEADER_SEAT0, LEADER_ROTATE or LEADER_RANDOM
N_GAME_RULES = 7

# rules.first_leader (engine.FIRST_LEADERS, in this order)
LEADER_SEAT0 = 0  # seat 0 leads every game
LEADER_ROTATE = 1  # game g's first leader is seat (g // L) % players, L = the run's lineups (1: g % players)
LEADER_RANDOM = 2  # uniform at random from the game's stream (one draw after the shuffle)

# Replay log: one row per event, (kind, a, b, c). Kernels pass None: no log, no cost.
EV_DEAL = 0  # seat a is dealt card b
EV_TURN = 1  # turn a begins: seat b's turn
EV_PLAY = 2  # seat a plays card b (c = 1: leads it)
EV_DRAW = 3  # seat a draws card b (c = 0: cannot play; c = 1: Dr. Evil's penalty)
EV_NAME = 4  # seat a names the wildcard background b, character c
EV_REVERSE = 5  # the direction of play is now a (1 clockwise, -1 counter-clockwise)
EV_DRAW_EFFECT = 6  # seat a's Dr. Evil: every other player draws b cards
EV_RESHUFFLE = 7  # the discard pile but its top card (a cards) is shuffled into a new draw pile
EV_PASS = 8  # seat a can neither play nor draw: passes
EV_WIN = 9  # seat a has no cards left: wins
EV_STALEMATE = 10  # nobody could play for a full round
EV_TIMEOUT = 11  # the turn cap is reached
EV_INVALID = 12  # seat a broke a rule (card b; a plug-in's card that was not playable) or an invariant


@njit(cache=True)
def plugin_choose(hand, playable, top_background, top_character, hand_sizes, seat, direction, cards, state):
    """The decision of seats with strategy id PLUGIN_ID (engine.PLUGIN_DOC). The normal kernel has no
    such seat; ``make_plugin_kernel`` puts the user's function under this name."""
    return -1


@njit(cache=True, inline="always")
def top_index(bg, ch, n_ch):
    """Index into ``match`` of a top card standing for background ``bg``, character ``ch``."""
    return (bg + 1) * (n_ch + 1) + ch + 1


@njit(cache=True, inline="always")
def _next_seat(seat, direction, players):
    s = seat + direction
    if s >= players:
        return s - players
    if s < 0:
        return s + players
    return s


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
def _conserved(hands, hand_n, players, draw, disc, ctr, n_cards):
    """Validation: every card is in exactly one place, and the hand sizes match the hands."""
    seen = np.zeros(n_cards, np.int64)
    for s in range(players):
        if popcount(hands[s]) != hand_n[s]:
            return False
        for c in range(n_cards):
            if has(hands[s], c):
                seen[c] += 1
    for k in range(ctr[0]):
        seen[draw[k]] += 1
    for k in range(ctr[1]):
        seen[disc[k]] += 1
    for c in range(n_cards):
        if seen[c] != 1:
            return False
    return True


@njit(cache=True)
def play_game(state, order, seat_sid, seat_params, card_info, match, kind_cards, game_rules, hands, hand_n, draw,
              disc, ctr, steps, seat_stats, out, i, rotation, validate, log, log_n):
    """Deal ``order`` and play one game; write its record into ``out[i]``.

    ``rotation``: the game's round through the run's lineups (game // lineups); with
    ``rules.first_leader = "rotate"`` seat ``rotation % players`` leads, so that every lineup of a
    rotated run is led from every seat equally often.

    ``log``/``log_n``: the replay's event log (EV_*); None when not replaying (numba then compiles
    the game without a trace of the logging).

    Scratch: ``hands`` uint64[P], ``hand_n``/``steps`` int64[P], ``draw``/``disc`` int64[n_cards],
    ``ctr`` int64[3], ``seat_stats`` int64[P, 2] (plays, cards drawn). With ``validate`` every turn
    is checked (legal play, cards conserved); a broken invariant ends the game with
    ``end = END_INVALID``.
    """
    n_cards = order.shape[0]
    players = game_rules[G_PLAYERS]
    hand_size = game_rules[G_HAND]
    n_draw = game_rules[G_DRAW]
    reverse_on = game_rules[G_REVERSE] != 0
    turn_cap = game_rules[G_TURN_CAP]
    n_bg = game_rules[G_N_BG]
    n_ch = kind_cards.shape[0] - n_bg
    hands[:] = 0
    hand_n[:] = 0
    steps[:] = 0
    seat_stats[:, :] = 0

    # Deal hand_size cards each (card k to seat k % P); the rest is the draw pile, order[-1] on top.
    for k in range(players * hand_size):
        hands[k % players] |= bit(order[k])
        hand_n[k % players] += 1
        if log is not None:
            log_event(log, log_n, EV_DEAL, k % players, order[k], 0)
    for s in range(players):
        out[i].dealt_mask[s] = hands[s]
    ctr[0] = 0
    for k in range(players * hand_size, n_cards):
        draw[ctr[0]] = order[k]
        ctr[0] += 1
    ctr[1] = 0
    ctr[2] = 0

    leader = game_rules[G_LEADER]
    if leader == LEADER_ROTATE:
        seat = rotation % players
    elif leader == LEADER_RANDOM:
        seat = randint(state, players)
    else:
        seat = 0  # the first leader
    direction = 1  # clockwise
    top = 0  # index into match of what the discard pile's top card stands for
    turns = 0
    passes_in_row = 0
    reversals = 0
    draw_effects = 0
    wilds = 0
    passes = 0
    end = END_WIN
    winner = -1
    while True:
        if turns >= turn_cap:
            end = END_TIMEOUT
            break
        sid = seat_sid[seat]
        turns += 1
        if log is not None:
            log_event(log, log_n, EV_TURN, turns, seat, 0)

        # Play a card: the leader any card; the others a matching one, or draw until one matches.
        options = hands[seat] if turns == 1 else hands[seat] & match[top]
        card = -1
        if options != 0:
            if sid == RANDOM:
                # choose_card's random branch, inline: a call passing this many arrays costs about
                # as much as the rest of the turn (numba counts references to every array argument).
                card = nth_card(options, randint(state, popcount(options)))
            elif sid == PLUGIN_ID:
                card = plugin_choose(hands[seat], options, top // (n_ch + 1) - 1, top % (n_ch + 1) - 1, hand_n, seat,
                              direction, card_info, state)
                if card < 0 or card >= n_cards or not has(options, card):
                    end = END_INVALID  # engine.plugin_kernel turns this into a clear error
                    if log is not None:
                        log_event(log, log_n, EV_INVALID, seat, card, 0)
                    break
            else:
                card = choose_card(sid, seat_params[seat], state, steps[seat], hands[seat], options, popcount(options),
                                   card_info, kind_cards, n_bg, hand_n[_next_seat(seat, direction, players)],
                                   hand_n[_next_seat(seat, -direction, players)])
            steps[seat] += 1
            if validate and (card < 0 or card >= n_cards or not has(options, card)):
                end = END_INVALID
                if log is not None:
                    log_event(log, log_n, EV_INVALID, seat, card, 0)
                break
        else:
            while True:
                if ctr[0] > 0:  # the common case, inline: a call passing four arrays costs more
                    ctr[0] -= 1
                    drawn = draw[ctr[0]]
                else:
                    reshuffles = ctr[2]
                    drawn = _draw(state, draw, ctr, disc)
                    if log is not None:
                        if ctr[2] != reshuffles:
                            log_event(log, log_n, EV_RESHUFFLE, ctr[0] + 1, 0, 0)
                if drawn < 0:
                    break  # nothing left to draw: he passes
                if log is not None:
                    log_event(log, log_n, EV_DRAW, seat, drawn, 0)
                seat_stats[seat, 1] += 1
                hands[seat] |= bit(drawn)
                hand_n[seat] += 1
                if has(match[top], drawn):
                    card = drawn
                    break
        if card < 0:
            if log is not None:
                log_event(log, log_n, EV_PASS, seat, 0, 0)
            passes += 1
            passes_in_row += 1
            if passes_in_row >= players:
                end = END_STALEMATE  # a full round in which nobody could play
                break
            seat = _next_seat(seat, direction, players)
            continue
        passes_in_row = 0
        if log is not None:
            log_event(log, log_n, EV_PLAY, seat, card, turns == 1)
        hands[seat] &= ~bit(card)
        hand_n[seat] -= 1
        disc[ctr[1]] = card
        ctr[1] += 1
        seat_stats[seat, 0] += 1
        if card_info[card, INFO_WILD]:
            wilds += 1
            params = seat_params[seat]
            bg = name_background(sid, params, state, steps[seat], hands[seat], kind_cards, n_bg)
            steps[seat] += 1
            ch = name_character(sid, params, state, steps[seat], hands[seat], kind_cards, n_bg)
            steps[seat] += 1
            top = top_index(bg, ch, n_ch)
            if log is not None:
                log_event(log, log_n, EV_NAME, seat, bg, ch)
        else:
            top = top_index(card_info[card, INFO_BG], card_info[card, INFO_CH], n_ch)
        if hand_n[seat] == 0:
            winner = seat  # escaped: the game ends at once
            if log is not None:
                log_event(log, log_n, EV_WIN, seat, 0, 0)
            break

        # The printed card's effect: Lady Action reverses, Dr. Evil slows everybody else down.
        effect = card_info[card, INFO_EFFECT]
        if effect == EFFECT_REVERSE and reverse_on:
            direction = -direction
            reversals += 1
            if log is not None:
                log_event(log, log_n, EV_REVERSE, direction, 0, 0)
        elif effect == EFFECT_DRAW and n_draw > 0:
            draw_effects += 1
            if log is not None:
                log_event(log, log_n, EV_DRAW_EFFECT, seat, n_draw, 0)
            s = seat
            for _ in range(players - 1):
                s = _next_seat(s, direction, players)
                for _ in range(n_draw):
                    if ctr[0] > 0:
                        ctr[0] -= 1
                        drawn = draw[ctr[0]]
                    else:
                        reshuffles = ctr[2]
                        drawn = _draw(state, draw, ctr, disc)
                        if log is not None:
                            if ctr[2] != reshuffles:
                                log_event(log, log_n, EV_RESHUFFLE, ctr[0] + 1, 0, 0)
                    if drawn < 0:
                        break  # a player draws as many as exist
                    if log is not None:
                        log_event(log, log_n, EV_DRAW, s, drawn, 1)
                    seat_stats[s, 1] += 1
                    hands[s] |= bit(drawn)
                    hand_n[s] += 1
        if validate and not _conserved(hands, hand_n, players, draw, disc, ctr, n_cards):
            end = END_INVALID
            if log is not None:
                log_event(log, log_n, EV_INVALID, -1, -1, 0)
            break
        seat = _next_seat(seat, direction, players)

    if log is not None:
        if end == END_STALEMATE:
            log_event(log, log_n, EV_STALEMATE, 0, 0, 0)
        elif end == END_TIMEOUT:
            log_event(log, log_n, EV_TIMEOUT, turns, 0, 0)
    out[i].length = turns
    out[i].end = end
    out[i].reversals = reversals
    out[i].draw_twos = draw_effects
    out[i].reshuffles = ctr[2]
    out[i].passes = passes
    out[i].wilds_played = wilds
    for s in range(players):
        out[i].cards_left[s] = hand_n[s]
        out[i].hand_mask[s] = hands[s]
        out[i].plays[s] = seat_stats[s, 0]
        out[i].drawn[s] = seat_stats[s, 1]
    if end == END_WIN:
        out[i].winner = winner
        out[i].winners = 1 << winner
    else:
        out[i].winner = -1
        out[i].winners = 0


@njit(cache=True)
def play_block(out, lo, hi, first_game, seed, lineups, slot_strategy, slot_params, card_info, match, kind_cards,
               game_rules, validate, log, log_n):
    """Games ``first_game + lo .. first_game + hi - 1`` into ``out[lo:hi]``, with one set of scratch
    arrays: the body of every kernel (the normal one and those around a plug-in) and of the replay."""
    n_cards = card_info.shape[0]
    players = game_rules[G_PLAYERS]
    state = np.zeros(1, np.uint64)
    order = np.empty(n_cards, np.int64)
    hands = np.zeros(players, np.uint64)
    hand_n = np.zeros(players, np.int64)
    steps = np.zeros(players, np.int64)
    draw = np.empty(n_cards, np.int64)
    disc = np.empty(n_cards, np.int64)
    ctr = np.zeros(3, np.int64)
    seat_stats = np.zeros((players, 2), np.int64)
    seat_sid = np.empty(players, np.int64)
    seat_params = np.empty((players, slot_params.shape[1]), np.float64)
    for i in range(lo, hi):
        begin_game(state, seed, first_game + i, out, i, lineups, slot_strategy, slot_params, players, seat_sid, 0,
                   seat_params)
        shuffled_range(state, order, n_cards)
        play_game(state, order, seat_sid, seat_params, card_info, match, kind_cards, game_rules, hands, hand_n, draw,
                  disc, ctr, steps, seat_stats, out, i, (first_game + i) // lineups.shape[0], validate, log, log_n)


@njit(cache=True, parallel=True)
def kernel(out, first_game, seed, lineups, slot_strategy, slot_params, card_info, match, kind_cards, game_rules,
           validate):
    n = out.shape[0]
    blocks = n_blocks(n)
    for b in prange(blocks):
        lo, hi = block_bounds(n, blocks, b)
        play_block(out, lo, hi, first_game, seed, lineups, slot_strategy, slot_params, card_info, match, kind_cards,
                   game_rules, validate, None, None)


def _rebound(func, **names):
    """A copy of the Python function behind ``func`` that reads ``names`` as globals."""
    py = getattr(func, "py_func", func)  # the function itself under NUMBA_DISABLE_JIT
    return types.FunctionType(py.__code__, {**py.__globals__, **names}, py.__name__, py.__defaults__,
                              py.__closure__)


def make_plugin_kernel(fn):
    """The kernel and the replay with ``fn`` as ``plugin_choose``: the same code, compiled (on first
    call, once per process) for this function. engine.plugin_kernel checks ``fn`` first."""
    game = njit(_rebound(play_game, plugin_choose=fn))
    block = njit(_rebound(play_block, play_game=game))
    return njit(parallel=True)(_rebound(kernel, play_block=block)), njit(_rebound(trace_game, play_block=block))


@njit(cache=True)
def play_scripted(order, seat_sid, seat_params, card_info, match, kind_cards, game_rules, seed, game, out):
    """Tests: play one game from a chosen deck order with chosen strategies per seat (validated); a
    rotating first leader is seat ``game % players``."""
    n_cards = order.shape[0]
    players = game_rules[G_PLAYERS]
    state = np.zeros(1, np.uint64)
    seed_game(state, seed, game)
    play_game(state, order.copy(), seat_sid, seat_params, card_info, match, kind_cards, game_rules,
              np.zeros(players, np.uint64), np.zeros(players, np.int64),
              np.empty(n_cards, np.int64), np.empty(n_cards, np.int64), np.zeros(3, np.int64),
              np.zeros(players, np.int64), np.zeros((players, 2), np.int64), out, 0, game, True,
              None, None)


@njit(cache=True)
def trace_game(lineups, slot_strategy, slot_params, card_info, match, kind_cards, game_rules, seed, game, out, log,
               log_n):
    """Replay: game ``game`` of ``seed`` into ``out[0]``, played by the kernels' own ``play_block``
    (validated), every event in ``log``; ``log_n[0]``: the number of events."""
    log_n[0] = 0
    play_block(out, 0, 1, game, seed, lineups, slot_strategy, slot_params, card_info, match, kind_cards, game_rules,
               True, log, log_n)
