"""The rules of captain-action as steps on the game state, named after the rule text
(docs/rules/captain-action.md, "Rules as simulated"; the state's layout is in state_nb).

Each step takes the run's read-only arrays ``ctx`` and one game's ``state`` and moves the game on by
one rule: set-up (``deal``), the start of a turn (``begin_turn``), the two ways of taking a card
(``draw_from_countdown``, ``take_from_discard_pile``), ``discard``, ``call``, the turn passing on
(``end_turn``) and the attack that ends every game (``end_game``). The steps decide nothing: the
decisions are the strategies' (strategies_nb), and play_nb strings both together. The steps of a
turn are inlined: a game is a few turns, and a call per step would cost more than the step;
``end_turn`` and ``end_game``, reached from several steps, are calls (inlined copies of them made
the cold compile much slower), and so is ``end_of_round``, the whole-game metrics' checkpoint.

``log``/``log_n``: the replay's event log (state_nb EV_*); None when not replaying (numba then
compiles the steps without a trace of the logging).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simbalance.core import whole_game
from simbalance.core.event_log import log_event
from simbalance.core.records import END_INVALID
from simbalance.core.records import END_STALEMATE
from simbalance.core.records import END_TIMEOUT
from simbalance.core.records import END_WIN
from simbalance.core.records import MAX_SEATS
from simbalance.games.captain_action.scoring_nb import hand_score
from simbalance.games.captain_action.state_nb import EV_CALL
from simbalance.games.captain_action.state_nb import EV_COUNTDOWN_OUT
from simbalance.games.captain_action.state_nb import EV_DEAL
from simbalance.games.captain_action.state_nb import EV_DISCARD
from simbalance.games.captain_action.state_nb import EV_DRAW
from simbalance.games.captain_action.state_nb import EV_FACE_UP
from simbalance.games.captain_action.state_nb import EV_INVALID
from simbalance.games.captain_action.state_nb import EV_SCORE
from simbalance.games.captain_action.state_nb import EV_STALEMATE
from simbalance.games.captain_action.state_nb import EV_TAKE
from simbalance.games.captain_action.state_nb import EV_TIMEOUT
from simbalance.games.captain_action.state_nb import EV_TURN
from simbalance.games.captain_action.state_nb import G_CALL_BEFORE
from simbalance.games.captain_action.state_nb import G_COMP_PTS
from simbalance.games.captain_action.state_nb import G_COUNTDOWN
from simbalance.games.captain_action.state_nb import G_HAND
from simbalance.games.captain_action.state_nb import G_PENALTY
from simbalance.games.captain_action.state_nb import G_PENALTY_ALL
from simbalance.games.captain_action.state_nb import G_PLAYERS
from simbalance.games.captain_action.state_nb import G_TAKE_BACK
from simbalance.games.captain_action.state_nb import G_TURN_CAP
from simbalance.games.captain_action.state_nb import G_WINDOW
from simbalance.games.captain_action.state_nb import PH_CALL_AFTER
from simbalance.games.captain_action.state_nb import PH_CALL_BEFORE
from simbalance.games.captain_action.state_nb import PH_DISCARD
from simbalance.games.captain_action.state_nb import PH_OVER
from simbalance.games.captain_action.state_nb import PH_SOURCE
from simbalance.games.captain_action.state_nb import R_DISCARD_LOOP
from simbalance.games.captain_action.state_nb import TRACK
from simbalance.games.captain_action.state_nb import V_BONUS
from simbalance.games.captain_action.state_nb import V_CALLER
from simbalance.games.captain_action.state_nb import V_CD_END
from simbalance.games.captain_action.state_nb import V_CD_POS
from simbalance.games.captain_action.state_nb import V_END
from simbalance.games.captain_action.state_nb import V_FORBID
from simbalance.games.captain_action.state_nb import V_HAND_SCORE
from simbalance.games.captain_action.state_nb import V_KNOWN
from simbalance.games.captain_action.state_nb import V_LAST_DRAWER
from simbalance.games.captain_action.state_nb import V_PHASE
from simbalance.games.captain_action.state_nb import V_PILE_N
from simbalance.games.captain_action.state_nb import V_PROGRESS
from simbalance.games.captain_action.state_nb import V_SCORE
from simbalance.games.captain_action.state_nb import V_SEAT
from simbalance.games.captain_action.state_nb import V_STEP
from simbalance.games.captain_action.state_nb import V_TAKES
from simbalance.games.captain_action.state_nb import V_TURNS
from simbalance.games.captain_action.state_nb import V_WINNERS
from simbalance.games.captain_action.validate_nb import cards_conserved
from simbalance.games.captain_action.validate_nb import legal_discard


@njit(cache=True, inline="always")
def deal(ctx, state, log, log_n):
    """Rules 1-2: deal hand_size cards each from ``order`` (card k to seat k % P), then the Countdown
    Deck, then one card face up to start the discard pile; the rest of the deck is not used. Seat 0
    (the youngest player) starts."""
    _, _, game_rules, _ = ctx
    _, gv, order, hand, pile, _, _ = state
    players = game_rules[G_PLAYERS]
    hand_size = game_rules[G_HAND]
    for k in range(players * hand_size):
        hand[k % players, k // players] = order[k]
        if log is not None:
            log_event(log, log_n, EV_DEAL, k % players, order[k], 0)
    gv[:] = 0
    gv[V_CD_POS] = players * hand_size
    gv[V_CD_END] = players * hand_size + game_rules[G_COUNTDOWN]
    pile[0] = order[gv[V_CD_END]]
    gv[V_PILE_N] = 1
    if log is not None:
        log_event(log, log_n, EV_FACE_UP, pile[0], 0, 0)
    gv[V_CALLER] = -1
    gv[V_LAST_DRAWER] = -1
    gv[V_END] = END_WIN  # until a step ends the game otherwise
    # a round: a turn per seat
    whole_game.progress_reset(gv[TRACK:TRACK + whole_game.PROGRESS_SIZE], players, players, gv[V_TURNS])
    begin_turn(ctx, state, log, log_n)


@njit(cache=True, inline="always")
def begin_turn(ctx, state, log, log_n):
    """Rules 2-4 and 9: the seat ``gv[V_SEAT]`` starts its turn (with a call first if calls come
    before drawing), unless the turn cap is reached: then the game is a timeout."""
    _, _, game_rules, _ = ctx
    gv = state[1]
    turns = gv[V_TURNS]
    if turns >= gv[TRACK + whole_game.PR_NEXT] and end_of_round(ctx, state, log, log_n):
        return
    if turns >= game_rules[G_TURN_CAP]:
        if log is not None:
            log_event(log, log_n, EV_TIMEOUT, turns, 0, 0)
        gv[V_END] = END_TIMEOUT
        end_game(ctx, state, log, log_n)
        return
    gv[V_STEP] = turns // game_rules[G_PLAYERS]  # the seat's own turn number: collector waits on it
    gv[V_FORBID] = -1
    if log is not None:
        log_event(log, log_n, EV_TURN, turns + 1, gv[V_SEAT], 0)
    gv[V_PHASE] = PH_CALL_BEFORE if game_rules[G_CALL_BEFORE] != 0 else PH_SOURCE


@njit(cache=True, inline="always")
def draw_from_countdown(ctx, state, log, log_n):
    """Rule 3: take the top card of the Countdown Deck into the drawn card's slot."""
    _, _, game_rules, _ = ctx
    _, gv, order, hand, _, _, _ = state
    seat = gv[V_SEAT]
    card = order[gv[V_CD_POS]]
    gv[V_CD_POS] += 1
    hand[seat, game_rules[G_HAND]] = card
    if log is not None:
        log_event(log, log_n, EV_DRAW, seat, card, gv[V_CD_END] - gv[V_CD_POS])
    gv[V_PHASE] = PH_DISCARD


@njit(cache=True, inline="always")
def take_from_discard_pile(ctx, state, log, log_n):
    """Rule 3: take the top card of the discard pile into the drawn card's slot; unless
    ``rules.take_back``, that card may not be discarded in the same turn."""
    _, _, game_rules, _ = ctx
    _, gv, _, hand, pile, _, _ = state
    seat = gv[V_SEAT]
    hand_size = game_rules[G_HAND]
    gv[V_PILE_N] -= 1
    card = pile[gv[V_PILE_N]]
    gv[V_TAKES + seat] += 1
    gv[V_KNOWN + seat] |= np.int64(1) << card  # taken face up: the table knows where it is
    if game_rules[G_TAKE_BACK] == 0:
        gv[V_FORBID] = hand_size
    hand[seat, hand_size] = card
    if log is not None:
        log_event(log, log_n, EV_TAKE, seat, card, 0)
    gv[V_PHASE] = PH_DISCARD


@njit(cache=True, inline="always")
def discard(ctx, state, slot, log, log_n):
    """Rule 3: discard the card in hand slot ``slot`` face up (the drawn card fills the gap). Rule 5:
    who drew the last Countdown card cannot call; the attack starts at once ("Dr. Evil got the
    jump"). Otherwise the turn goes on to the call (rule 4) or passes on."""
    _, _, game_rules, validate = ctx
    _, gv, _, hand, pile, _, _ = state
    seat = gv[V_SEAT]
    hand_size = game_rules[G_HAND]
    if validate and not legal_discard(ctx, state, slot):
        if log is not None:
            log_event(log, log_n, EV_INVALID, seat, slot, 0)
        gv[V_END] = END_INVALID
        end_game(ctx, state, log, log_n)
        return
    if log is not None:
        log_event(log, log_n, EV_DISCARD, seat, hand[seat, slot], 0)
    pile[gv[V_PILE_N]] = hand[seat, slot]
    gv[V_KNOWN + seat] &= ~(np.int64(1) << hand[seat, slot])
    gv[V_PILE_N] += 1
    hand[seat, slot] = hand[seat, hand_size]
    gv[V_TURNS] += 1
    if validate and not cards_conserved(ctx, state, np.bool_(False)):
        if log is not None:
            log_event(log, log_n, EV_INVALID, -1, 0, 0)
        gv[V_END] = END_INVALID
        end_game(ctx, state, log, log_n)
        return
    if gv[V_CD_POS] == gv[V_CD_END]:
        gv[V_LAST_DRAWER] = seat
        if log is not None:
            log_event(log, log_n, EV_COUNTDOWN_OUT, seat, 0, 0)
        end_game(ctx, state, log, log_n)
    elif game_rules[G_CALL_BEFORE] == 0:
        gv[V_PHASE] = PH_CALL_AFTER
    else:
        end_turn(ctx, state, log, log_n)


@njit(cache=True, inline="always")
def call(ctx, state, log, log_n):
    """Rule 4: "Let Justice Be Done!": the attack starts at once; the caller's bonus is the number
    of cards left in the Countdown Deck."""
    gv = state[1]
    left = gv[V_CD_END] - gv[V_CD_POS]
    gv[V_CALLER] = gv[V_SEAT]
    gv[V_BONUS] = left
    if log is not None:
        log_event(log, log_n, EV_CALL, gv[V_SEAT], left, 0)
    end_game(ctx, state, log, log_n)


@njit(cache=True, _nrt=False)
def end_of_round(ctx, state, log, log_n):
    """A round (a turn per seat) is over: the whole-game metrics' checkpoint of every hand's sets as
    they stand (docs/rules/captain-action.md, "Whole-game metrics"), and the loop detection
    (rules.stalemate_window): a card drawn from the Countdown Deck since the last progress is
    progress. True: no Countdown card for the window's turns ended the game as a stalemate (every
    player keeps taking the discard pile's top card). Not inlined: once a round, and most games end
    in their first."""
    card_info, srules, game_rules, _ = ctx
    _, gv, _, hand, _, cnt, scratch = state
    hand_size = game_rules[G_HAND]
    for s in range(game_rules[G_PLAYERS]):
        gv[V_PROGRESS + s] = hand_score(hand, s, hand_size, card_info, srules, cnt, scratch)
    tr = gv[TRACK:TRACK + whole_game.PROGRESS_SIZE]
    turns = gv[V_TURNS]
    if not whole_game.progress_round_of(tr, gv[V_PROGRESS:V_PROGRESS + MAX_SEATS], np.int64(1), turns,
                                        gv[V_CD_POS] > tr[whole_game.PR_MARK_A], game_rules[G_WINDOW], gv[V_CD_POS],
                                        np.int64(0)):
        return False
    if log is not None:
        log_event(log, log_n, EV_STALEMATE, R_DISCARD_LOOP, turns - tr[whole_game.PR_STALL_FROM], 0)
    gv[V_END] = END_STALEMATE
    end_game(ctx, state, log, log_n)
    return True


@njit(cache=True, _nrt=False)
def end_turn(ctx, state, log, log_n):
    """Rule 2: play goes clockwise. Not inlined (nor reference counted), like ``end_game``: two
    steps end a turn, and each inlined copy of the next turn's start made the compile slower."""
    _, _, game_rules, _ = ctx
    gv = state[1]
    gv[V_SEAT] = (gv[V_SEAT] + 1) % game_rules[G_PLAYERS]
    begin_turn(ctx, state, log, log_n)


@njit(cache=True, _nrt=False)
def end_game(ctx, state, log, log_n):
    """Rules 6-8, the attack: every hand is scored; the caller adds the bonus, a countdown penalty
    is subtracted; the best total wins (ties share). A timeout or an invalid game (``gv[V_END]``, set
    by the step that ends it; END_WIN otherwise) has no winner.

    Not inlined: it runs once per game, and six steps end a game (inlining it six times over made
    the engine's cold compile nearly twice as slow). Without reference counting, as play_on."""
    card_info, srules, game_rules, _ = ctx
    _, gv, _, hand, _, cnt, scratch = state
    players = game_rules[G_PLAYERS]
    hand_size = game_rules[G_HAND]
    caller = gv[V_CALLER]
    last_drawer = gv[V_LAST_DRAWER]
    best = -(1 << 30)
    for s in range(players):
        hs = hand_score(hand, s, hand_size, card_info, srules, cnt, scratch)
        total = hs + game_rules[G_COMP_PTS + s]  # seat compensation (0: the rules as printed)
        if s == caller:
            total += gv[V_BONUS]
        if last_drawer >= 0 and (game_rules[G_PENALTY_ALL] != 0 or s == last_drawer):
            total -= game_rules[G_PENALTY]
        gv[V_HAND_SCORE + s] = hs
        gv[V_SCORE + s] = total
        if log is not None:
            log_event(log, log_n, EV_SCORE, s, hs, total)
        best = max(best, total)
    winners = 0
    if gv[V_END] == END_WIN:
        for s in range(players):
            if gv[V_SCORE + s] == best:
                winners |= 1 << s
    gv[V_WINNERS] = winners
    gv[V_PHASE] = PH_OVER
    # The whole-game metrics' last checkpoint: the scores that decide the game.
    whole_game.progress_end(gv[TRACK:TRACK + whole_game.PROGRESS_SIZE], gv[V_SCORE:V_SCORE + MAX_SEATS], np.int64(1),
                            gv[V_TURNS], np.int64(R_DISCARD_LOOP) if gv[V_END] == END_STALEMATE else np.int64(0))

