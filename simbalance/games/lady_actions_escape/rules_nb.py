"""The rules of lady-actions-escape, one jitted step per rule (docs/rules/lady-actions-escape.md,
"Rules"; the numbers below are the rule's).

Every step reads and writes the game's state (state_nb: ``rng``, ``masks``, ``st``) and the run's
read-only ``ctx`` = (card_info, match, kind_cards, game_rules, validate). ``match[top]`` is the mask
of every card that may be played on a top card standing for background ``bg`` and character ``ch``
(``top = state_nb.top_index(bg, ch, C)``; a played wildcard stands for what its player names).

The steps of a turn are inlined (``inline="always"``) into play_nb's game loop: a call passing this
many arrays would cost about as much as the rest of the turn (numba counts a reference to every
array argument). Each takes ``log``/``log_n``, the replay's event log (EV_*): None when not
replaying, and numba then compiles the step without a trace of the logging.
"""

from __future__ import annotations

from numba import njit

from simbalance.core.event_log import log_event
from simbalance.core.records import END_INVALID
from simbalance.core.records import END_STALEMATE
from simbalance.core.records import END_TIMEOUT
from simbalance.core.records import END_WIN
from simbalance.core.records import MAX_SEATS
from simbalance.core.rng import randint
from simbalance.core.rng import shuffle
from simbalance.core.whole_game import BATCH_SIZE
from simbalance.core.whole_game import PR_MARK_A
from simbalance.core.whole_game import PR_MARK_B
from simbalance.core.whole_game import PR_NEXT
from simbalance.core.whole_game import PR_REASON
from simbalance.core.whole_game import PR_STALL_FROM
from simbalance.core.whole_game import PROGRESS_SIZE
from simbalance.core.whole_game import progress_end_batched
from simbalance.core.whole_game import progress_reset_batched
from simbalance.core.whole_game import progress_round_batched
from simbalance.games.lady_actions_escape.state_nb import BATCH
from simbalance.games.lady_actions_escape.state_nb import DEALT
from simbalance.games.lady_actions_escape.state_nb import DIRECTION
from simbalance.games.lady_actions_escape.state_nb import DISC
from simbalance.games.lady_actions_escape.state_nb import DISC_N
from simbalance.games.lady_actions_escape.state_nb import DRAW
from simbalance.games.lady_actions_escape.state_nb import DRAW_EFFECTS
from simbalance.games.lady_actions_escape.state_nb import DRAW_N
from simbalance.games.lady_actions_escape.state_nb import DRAWN
from simbalance.games.lady_actions_escape.state_nb import EFFECT_DRAW
from simbalance.games.lady_actions_escape.state_nb import EFFECT_REVERSE
from simbalance.games.lady_actions_escape.state_nb import END
from simbalance.games.lady_actions_escape.state_nb import EV_DEAL
from simbalance.games.lady_actions_escape.state_nb import EV_DRAW
from simbalance.games.lady_actions_escape.state_nb import EV_DRAW_EFFECT
from simbalance.games.lady_actions_escape.state_nb import EV_INVALID
from simbalance.games.lady_actions_escape.state_nb import EV_NAME
from simbalance.games.lady_actions_escape.state_nb import EV_PASS
from simbalance.games.lady_actions_escape.state_nb import EV_PLAY
from simbalance.games.lady_actions_escape.state_nb import EV_RESHUFFLE
from simbalance.games.lady_actions_escape.state_nb import EV_REVERSE
from simbalance.games.lady_actions_escape.state_nb import EV_STALEMATE
from simbalance.games.lady_actions_escape.state_nb import EV_TIMEOUT
from simbalance.games.lady_actions_escape.state_nb import EV_TURN
from simbalance.games.lady_actions_escape.state_nb import EV_WIN
from simbalance.games.lady_actions_escape.state_nb import G_DEAL_SEAT
from simbalance.games.lady_actions_escape.state_nb import G_DEALT
from simbalance.games.lady_actions_escape.state_nb import G_DRAW
from simbalance.games.lady_actions_escape.state_nb import G_LEADER
from simbalance.games.lady_actions_escape.state_nb import G_N_BG
from simbalance.games.lady_actions_escape.state_nb import G_PLAYERS
from simbalance.games.lady_actions_escape.state_nb import G_REVERSE
from simbalance.games.lady_actions_escape.state_nb import G_TURN_CAP
from simbalance.games.lady_actions_escape.state_nb import G_WINDOW
from simbalance.games.lady_actions_escape.state_nb import HAND
from simbalance.games.lady_actions_escape.state_nb import HAND_N
from simbalance.games.lady_actions_escape.state_nb import INFO_BG
from simbalance.games.lady_actions_escape.state_nb import INFO_CH
from simbalance.games.lady_actions_escape.state_nb import INFO_EFFECT
from simbalance.games.lady_actions_escape.state_nb import INFO_WILD
from simbalance.games.lady_actions_escape.state_nb import LEADER_RANDOM
from simbalance.games.lady_actions_escape.state_nb import LEADER_ROTATE
from simbalance.games.lady_actions_escape.state_nb import PASSES
from simbalance.games.lady_actions_escape.state_nb import PASSES_IN_ROW
from simbalance.games.lady_actions_escape.state_nb import PHASE
from simbalance.games.lady_actions_escape.state_nb import PHASE_OVER
from simbalance.games.lady_actions_escape.state_nb import PHASE_PLAY
from simbalance.games.lady_actions_escape.state_nb import PLAYS
from simbalance.games.lady_actions_escape.state_nb import R_DR_EVIL_CHAIN
from simbalance.games.lady_actions_escape.state_nb import R_EVIL_LADY_CYCLE
from simbalance.games.lady_actions_escape.state_nb import R_NO_PLAY
from simbalance.games.lady_actions_escape.state_nb import R_RECYCLING
from simbalance.games.lady_actions_escape.state_nb import RESH_AT_ROUND
from simbalance.games.lady_actions_escape.state_nb import RESHUFFLES
from simbalance.games.lady_actions_escape.state_nb import REVERSALS
from simbalance.games.lady_actions_escape.state_nb import SEAT
from simbalance.games.lady_actions_escape.state_nb import TOP
from simbalance.games.lady_actions_escape.state_nb import TRACK
from simbalance.games.lady_actions_escape.state_nb import TURN
from simbalance.games.lady_actions_escape.state_nb import WILDS
from simbalance.games.lady_actions_escape.state_nb import WINNER
from simbalance.games.lady_actions_escape.state_nb import bit
from simbalance.games.lady_actions_escape.state_nb import has
from simbalance.games.lady_actions_escape.state_nb import top_index


@njit(cache=True, inline="always")
def next_seat(seat, direction, players):
    """The seat after ``seat`` in the direction of play."""
    s = seat + direction
    if s >= players:
        return s - players
    if s < 0:
        return s + players
    return s


@njit(cache=True, inline="always")
def end_game(st, end, winner, reason):
    """The game is over (END_*; a stalemate's ``reason``, R_*): nobody is to move any more. The
    whole-game metrics take their last checkpoint in ``finish_progress``, once the game loop is left:
    a call to it at every place a game ends would be part of the game loop's machine code (and the
    loop's code would differ with and without the metrics)."""
    st[END] = end
    st[WINNER] = winner
    st[PHASE] = PHASE_OVER
    st[TRACK + PR_REASON] = reason


@njit(cache=True, inline="always")
def finish_progress(st):
    """The whole-game metrics' last checkpoint of a game that is over (``end_game``): nothing moved
    since it ended, so the hand sizes and the length are the end's."""
    progress_end_batched(st[TRACK:TRACK + PROGRESS_SIZE], st[BATCH:BATCH + BATCH_SIZE], st[HAND_N:HAND_N + MAX_SEATS],
                         st[TURN], st[TRACK + PR_REASON])  # the measure: minus the cards held


@njit(cache=True, inline="always")
def first_leader(rng, game_rules, rotation):
    """Rule 2, "the first leader" (rules.first_leader): seat 0, seat ``rotation % players``
    (rotation = the game's round through the run's lineups, so that every lineup of a rotated run is
    led from every seat equally often), or a seat drawn from the game's stream."""
    players = game_rules[G_PLAYERS]
    leader = game_rules[G_LEADER]
    if leader == LEADER_ROTATE:
        return rotation % players
    if leader == LEADER_RANDOM:
        return randint(rng, players)
    return 0


@njit(cache=True, _nrt=False)
def deal(ctx, state, order, rotation, log, log_n):
    """Rules 1-2: deal ``hand_size`` cards each (card k of the shuffled ``order`` to seat k % P; with
    seat compensation, to the seat prepare wrote at G_DEAL_SEAT + k); the rest is the draw pile,
    ``order[-1]`` on top. The first leader is to play; play starts clockwise.

    ``order`` may be the discard pile's space of ``st`` (play_nb.start shuffles the deck there): it
    is read before the discard pile is used."""
    game_rules = ctx[3]
    rng, masks, st = state
    n_cards = order.shape[0]
    players = game_rules[G_PLAYERS]
    dealt = game_rules[G_DEALT]
    masks[:] = 0
    st[:DRAW] = 0  # every counter and per-seat count (the piles come last in the layout)
    for k in range(dealt):
        s = game_rules[G_DEAL_SEAT + k]
        masks[HAND + s] |= bit(order[k])
        st[HAND_N + s] += 1
        if log is not None:
            log_event(log, log_n, EV_DEAL, s, order[k], 0)
    for s in range(players):
        masks[DEALT + s] = masks[HAND + s]
    for k in range(dealt, n_cards):
        st[DRAW + k - dealt] = order[k]
    st[DRAW_N] = n_cards - dealt
    st[SEAT] = first_leader(rng, game_rules, rotation)
    progress_reset_batched(st[TRACK:TRACK + PROGRESS_SIZE], st[BATCH:BATCH + BATCH_SIZE], players, players,
                           st[TURN])  # a round: a turn per seat
    st[DIRECTION] = 1  # clockwise
    st[TOP] = 0  # the index of "nothing": the leader plays any card
    st[WINNER] = -1
    st[END] = END_WIN
    st[PHASE] = PHASE_PLAY


@njit(cache=True, inline="always")
def stalemate_reason(st, turns):
    """What the ``turns`` turns without progress were made of (docs/rules/lady-actions-escape.md,
    "Stalemates"): Dr. Evils answered with Dr. Evils, Dr. Evils and Lady Actions in turn, or else
    the discard pile recycled every round."""
    evils = st[DRAW_EFFECTS] - st[TRACK + PR_MARK_A]
    ladies = st[REVERSALS] - st[TRACK + PR_MARK_B]
    if 3 * evils >= 2 * turns:
        return R_DR_EVIL_CHAIN
    if 3 * (evils + ladies) >= 2 * turns:
        return R_EVIL_LADY_CYCLE
    return R_RECYCLING


@njit(cache=True, _nrt=False)
def end_of_round(st, window, log, log_n):
    """A round (a turn per seat) is over: the whole-game metrics' checkpoint and the loop detection
    (rules.stalemate_window). Progress: a round in which the discard pile was not reshuffled, or a
    seat holding fewer cards than any seat had held so far. False: no progress for the window's
    turns ends the game as a stalemate, with what the stalled turns were made of as its reason."""
    moved = st[RESHUFFLES] == st[RESH_AT_ROUND]
    st[RESH_AT_ROUND] = st[RESHUFFLES]
    # The progress measure (docs/rules/lady-actions-escape.md, "Whole-game metrics"): minus the cards
    # each seat holds, fewer is better; the checkpoints' metrics are worked out a batch of rounds at
    # a time.
    if not progress_round_batched(st[TRACK:TRACK + PROGRESS_SIZE], st[BATCH:BATCH + BATCH_SIZE],
                                  st[HAND_N:HAND_N + MAX_SEATS], st[TURN], moved, window, st[DRAW_EFFECTS],
                                  st[REVERSALS]):
        return True
    turns = st[TURN] - st[TRACK + PR_STALL_FROM]
    reason = stalemate_reason(st, turns)
    end_game(st, END_STALEMATE, -1, reason)
    if log is not None:
        log_event(log, log_n, EV_STALEMATE, reason, turns, 0)
    return False


@njit(cache=True, inline="always")
def begin_turn(ctx, st, log, log_n):
    """The end of a round (its checkpoint, the loop detection), rule 9's turn cap, then the next turn
    begins (passes count as turns). False: a stalemate or the cap ends the game."""
    if st[TURN] >= st[TRACK + PR_NEXT] and not end_of_round(st, ctx[3][G_WINDOW], log, log_n):
        return False
    if st[TURN] >= ctx[3][G_TURN_CAP]:
        end_game(st, END_TIMEOUT, -1, 0)
        if log is not None:
            log_event(log, log_n, EV_TIMEOUT, st[TURN], 0, 0)
        return False
    st[TURN] += 1
    if log is not None:
        log_event(log, log_n, EV_TURN, st[TURN], st[SEAT], 0)
    return True


@njit(cache=True, inline="always")
def playable(ctx, state, seat):
    """Rules 2-4: the cards ``seat`` may play, as a mask: the leader any card of his hand, the others
    a card matching the top card's background or character (or a wildcard)."""
    hand = state[1][HAND + seat]
    st = state[2]
    if st[TURN] == 1:
        return hand
    return hand & ctx[1][st[TOP]]


@njit(cache=True, _nrt=False)
def refill_draw_pile(rng, st, log, log_n):
    """Rule 5: an empty draw pile is refilled by shuffling the discard pile except its top card.
    False when there is nothing to shuffle (the discard pile holds its top card only)."""
    if st[DISC_N] <= 1:
        return False
    n = st[DISC_N] - 1
    for k in range(n):
        st[DRAW + k] = st[DISC + k]
    st[DISC] = st[DISC + n]
    st[DISC_N] = 1
    shuffle(rng, st[DRAW:DRAW + n], n)
    st[DRAW_N] = n
    st[RESHUFFLES] += 1
    if log is not None:
        log_event(log, log_n, EV_RESHUFFLE, n, 0, 0)
    return True


@njit(cache=True, inline="always")
def draw_card(rng, st, log, log_n):
    """The top card of the draw pile (refilled when empty); -1 when nothing can be drawn."""
    if st[DRAW_N] == 0 and not refill_draw_pile(rng, st, log, log_n):
        return -1
    st[DRAW_N] -= 1
    return st[DRAW + st[DRAW_N]]


@njit(cache=True, inline="always")
def take_card(state, seat, card):
    """``card`` goes into the hand of ``seat`` (counted as drawn)."""
    state[1][HAND + seat] |= bit(card)
    st = state[2]
    st[HAND_N + seat] += 1
    st[DRAWN + seat] += 1


@njit(cache=True, inline="always")
def draw_until_playable(ctx, state, seat, log, log_n):
    """Rule 5: a player who cannot play draws one card at a time until he draws a playable card,
    which he must play (returned); -1 when nothing is left to draw."""
    rng, masks, st = state
    fits = ctx[1][st[TOP]]
    while True:
        card = draw_card(rng, st, log, log_n)
        if card < 0:
            return -1
        if log is not None:
            log_event(log, log_n, EV_DRAW, seat, card, 0)
        take_card(state, seat, card)
        if has(fits, card):
            return card


@njit(cache=True, inline="always")
def pass_turn(ctx, st, seat, log, log_n):
    """Rule 5's pass (nothing could be drawn), and rule 9: a full round in which every player passes
    is a stalemate. False when the game is over."""
    if log is not None:
        log_event(log, log_n, EV_PASS, seat, 0, 0)
    st[PASSES] += 1
    st[PASSES_IN_ROW] += 1
    players = ctx[3][G_PLAYERS]
    if st[PASSES_IN_ROW] >= players:
        end_game(st, END_STALEMATE, -1, R_NO_PLAY)
        if log is not None:
            log_event(log, log_n, EV_STALEMATE, R_NO_PLAY, players, 0)
        return False
    st[SEAT] = next_seat(seat, st[DIRECTION], players)
    return True


@njit(cache=True, inline="always")
def play_card(ctx, state, seat, card, bg, ch, log, log_n):
    """Rules 3-4: ``seat`` plays ``card`` from his hand onto the discard pile; the next card must
    match it, or, for a wildcard, the background ``bg`` and character ``ch`` its player names."""
    card_info = ctx[0]
    masks, st = state[1], state[2]
    st[PASSES_IN_ROW] = 0
    if log is not None:
        log_event(log, log_n, EV_PLAY, seat, card, st[TURN] == 1)
    masks[HAND + seat] &= ~bit(card)
    st[HAND_N + seat] -= 1
    st[DISC + st[DISC_N]] = card
    st[DISC_N] += 1
    st[PLAYS + seat] += 1
    n_ch = ctx[2].shape[0] - ctx[3][G_N_BG]
    if card_info[card, INFO_WILD]:
        st[WILDS] += 1
        st[TOP] = top_index(bg, ch, n_ch)
        if log is not None:
            log_event(log, log_n, EV_NAME, seat, bg, ch)
    else:
        st[TOP] = top_index(card_info[card, INFO_BG], card_info[card, INFO_CH], n_ch)


@njit(cache=True, inline="always")
def escaped(st, seat, log, log_n):
    """Rule 8: the first player with no cards wins; the game ends at once."""
    if st[HAND_N + seat] != 0:
        return False
    end_game(st, END_WIN, seat, 0)
    if log is not None:
        log_event(log, log_n, EV_WIN, seat, 0, 0)
    return True


@njit(cache=True, inline="always")
def card_effect(ctx, state, seat, card, log, log_n):
    """Rules 6-7, the printed card's effect: a Lady Action reverses the direction of play; a Dr. Evil
    makes every other player draw ``draw_penalty`` cards, starting with the next player in the
    current direction (a player draws as many as exist)."""
    game_rules = ctx[3]
    rng, st = state[0], state[2]
    effect = ctx[0][card, INFO_EFFECT]
    if effect == EFFECT_REVERSE and game_rules[G_REVERSE] != 0:
        st[DIRECTION] = -st[DIRECTION]
        st[REVERSALS] += 1
        if log is not None:
            log_event(log, log_n, EV_REVERSE, st[DIRECTION], 0, 0)
    elif effect == EFFECT_DRAW and game_rules[G_DRAW] > 0:
        n_draw = game_rules[G_DRAW]
        players = game_rules[G_PLAYERS]
        st[DRAW_EFFECTS] += 1
        if log is not None:
            log_event(log, log_n, EV_DRAW_EFFECT, seat, n_draw, 0)
        s = seat
        for _ in range(players - 1):
            s = next_seat(s, st[DIRECTION], players)
            for _ in range(n_draw):
                drawn = draw_card(rng, st, log, log_n)
                if drawn < 0:
                    break
                if log is not None:
                    log_event(log, log_n, EV_DRAW, s, drawn, 1)
                take_card(state, s, drawn)


@njit(cache=True, inline="always")
def invalid_play(st, seat, card, log, log_n):
    """A card that may not be played (a plug-in's, a script's, or under validation any seat's) ends
    the game as END_INVALID; ``seat`` -1: an invariant broke."""
    end_game(st, END_INVALID, -1, 0)
    if log is not None:
        log_event(log, log_n, EV_INVALID, seat, card, 0)
