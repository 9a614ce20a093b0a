"""The rules of aquaman as jitted rule steps, in the order of a turn (docs/rules/aquaman.md).

A turn is a chain of steps (``STEP_*`` in state_nb). Each step does what the rule text says up to
the next choice a player makes, then either names the step that follows (``ctr[C_STEP]``) or asks
for a decision (``ask``: ``ctr[C_DECISION]``, ``ctr[C_TO_MOVE]``). The decision's option is applied
by the matching ``*_chosen``/``*_takes`` function here (play_nb.resolve picks it), which names the
next step in turn. No rule calls a strategy: the strategies answer the decisions in play_nb, so a
game can stop at any decision, be copied, and be played on (state_nb.clone).

Each step is its own function on (Game, State) so tests can arrange a board, hands and a deck
order by hand and check one rule's exact outcome. The steps of every turn (swim, land, missions,
end of turn) are inlined into play_nb's loop (see state_nb on why calls are kept few); the power,
fight and rest steps and the answers to rare decisions (companion, plot, foe, swap, strangeness)
are not: they run in a few turns only, and numba's compile time grows faster than the size of the
function it compiles, so each one inlined into the loop cost seconds of every cold compile (all of
them together about 50 s) and saved no measurable time per game (docs/architecture.md, "Compile
time").

Every event is logged for the replay with ``if log is not None: log_step(...)``; the kernel passes
None and numba compiles the logging away.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simbalance.core import whole_game
from simbalance.core.records import MAX_SEATS
from simbalance.core.rng import randint
from simbalance.core.rng import shuffle
from simbalance.games.aquaman.state_nb import AQUAMAN
from simbalance.games.aquaman.state_nb import C_ACT_CARD
from simbalance.games.aquaman.state_nb import C_ACT_RANK
from simbalance.games.aquaman.state_nb import C_BEST
from simbalance.games.aquaman.state_nb import C_DECISION
from simbalance.games.aquaman.state_nb import C_DECK
from simbalance.games.aquaman.state_nb import C_DICE
from simbalance.games.aquaman.state_nb import C_DISC
from simbalance.games.aquaman.state_nb import C_FIGHT_A
from simbalance.games.aquaman.state_nb import C_FIGHT_B
from simbalance.games.aquaman.state_nb import C_MISSION_ROUND
from simbalance.games.aquaman.state_nb import C_MOVER
from simbalance.games.aquaman.state_nb import C_PICKED
from simbalance.games.aquaman.state_nb import C_PLOT
from simbalance.games.aquaman.state_nb import C_PROGRESS
from simbalance.games.aquaman.state_nb import C_RESULT
from simbalance.games.aquaman.state_nb import C_REVEAL_A
from simbalance.games.aquaman.state_nb import C_REVEALS
from simbalance.games.aquaman.state_nb import C_SEEN
from simbalance.games.aquaman.state_nb import C_SLOT
from simbalance.games.aquaman.state_nb import C_STAMP
from simbalance.games.aquaman.state_nb import C_STEP
from simbalance.games.aquaman.state_nb import C_SUIT
from simbalance.games.aquaman.state_nb import C_SWAPS
from simbalance.games.aquaman.state_nb import C_TO_MOVE
from simbalance.games.aquaman.state_nb import C_TRACK
from simbalance.games.aquaman.state_nb import C_TURN
from simbalance.games.aquaman.state_nb import C_WINNER
from simbalance.games.aquaman.state_nb import CARD_RANK
from simbalance.games.aquaman.state_nb import CARD_SUIT
from simbalance.games.aquaman.state_nb import COMPANION
from simbalance.games.aquaman.state_nb import D_COMPANION
from simbalance.games.aquaman.state_nb import D_FOE
from simbalance.games.aquaman.state_nb import D_MISSION
from simbalance.games.aquaman.state_nb import D_MISSION_CARD
from simbalance.games.aquaman.state_nb import D_MISSION_SUIT
from simbalance.games.aquaman.state_nb import D_OPPONENT
from simbalance.games.aquaman.state_nb import D_PLOT
from simbalance.games.aquaman.state_nb import D_POWER
from simbalance.games.aquaman.state_nb import D_REST
from simbalance.games.aquaman.state_nb import D_REVEAL
from simbalance.games.aquaman.state_nb import D_STEAL
from simbalance.games.aquaman.state_nb import D_STRANGE
from simbalance.games.aquaman.state_nb import D_SWAP
from simbalance.games.aquaman.state_nb import D_SWIM
from simbalance.games.aquaman.state_nb import EV_ACTIVATE
from simbalance.games.aquaman.state_nb import EV_BOARD
from simbalance.games.aquaman.state_nb import EV_DEAL
from simbalance.games.aquaman.state_nb import EV_DISC
from simbalance.games.aquaman.state_nb import EV_DRAW
from simbalance.games.aquaman.state_nb import EV_EMPTY
from simbalance.games.aquaman.state_nb import EV_FIGHT
from simbalance.games.aquaman.state_nb import EV_FIGHT_END
from simbalance.games.aquaman.state_nb import EV_FOE
from simbalance.games.aquaman.state_nb import EV_INVALID
from simbalance.games.aquaman.state_nb import EV_KEEP
from simbalance.games.aquaman.state_nb import EV_LOCATION
from simbalance.games.aquaman.state_nb import EV_MISSION
from simbalance.games.aquaman.state_nb import EV_MOVE
from simbalance.games.aquaman.state_nb import EV_NO_REVEAL
from simbalance.games.aquaman.state_nb import EV_PLOT
from simbalance.games.aquaman.state_nb import EV_REVEAL
from simbalance.games.aquaman.state_nb import EV_ROLL
from simbalance.games.aquaman.state_nb import EV_SEA
from simbalance.games.aquaman.state_nb import EV_SEE
from simbalance.games.aquaman.state_nb import EV_STALEMATE
from simbalance.games.aquaman.state_nb import EV_STEAL
from simbalance.games.aquaman.state_nb import EV_STRANGE
from simbalance.games.aquaman.state_nb import EV_TAKE
from simbalance.games.aquaman.state_nb import EV_TIMEOUT
from simbalance.games.aquaman.state_nb import EV_TURN
from simbalance.games.aquaman.state_nb import EV_WIN
from simbalance.games.aquaman.state_nb import FOE
from simbalance.games.aquaman.state_nb import K_BOARD
from simbalance.games.aquaman.state_nb import K_BUF
from simbalance.games.aquaman.state_nb import K_DECK
from simbalance.games.aquaman.state_nb import K_DISC
from simbalance.games.aquaman.state_nb import K_HAND
from simbalance.games.aquaman.state_nb import K_KNOWN
from simbalance.games.aquaman.state_nb import KNOWN_ALL
from simbalance.games.aquaman.state_nb import LOCATION
from simbalance.games.aquaman.state_nb import N_POWERS
from simbalance.games.aquaman.state_nb import NO_DECISION
from simbalance.games.aquaman.state_nb import PLOT
from simbalance.games.aquaman.state_nb import POWER
from simbalance.games.aquaman.state_nb import R_AQUAMAN_DRAW
from simbalance.games.aquaman.state_nb import R_CANNOT_REVEAL
from simbalance.games.aquaman.state_nb import R_COMPANION_LOOK
from simbalance.games.aquaman.state_nb import R_CORNER
from simbalance.games.aquaman.state_nb import R_DISCARD_AFTER
from simbalance.games.aquaman.state_nb import R_FACES
from simbalance.games.aquaman.state_nb import R_LIMIT_SEAT
from simbalance.games.aquaman.state_nb import R_MISSION_SUITS
from simbalance.games.aquaman.state_nb import R_MISSIONS_PER_TURN
from simbalance.games.aquaman.state_nb import R_MISSIONS_TO_WIN
from simbalance.games.aquaman.state_nb import R_NDICE
from simbalance.games.aquaman.state_nb import R_NO_MISSION
from simbalance.games.aquaman.state_nb import R_NSUITS
from simbalance.games.aquaman.state_nb import R_PLAYERS
from simbalance.games.aquaman.state_nb import R_POWER_MIN
from simbalance.games.aquaman.state_nb import R_START_SEAT
from simbalance.games.aquaman.state_nb import R_SUIT_POWER
from simbalance.games.aquaman.state_nb import R_TIES_REPEAT
from simbalance.games.aquaman.state_nb import R_TURN_CAP
from simbalance.games.aquaman.state_nb import R_WINDOW
from simbalance.games.aquaman.state_nb import RESULT_INVALID
from simbalance.games.aquaman.state_nb import RESULT_STALEMATE
from simbalance.games.aquaman.state_nb import RESULT_TIMEOUT
from simbalance.games.aquaman.state_nb import REVEAL_ENDS
from simbalance.games.aquaman.state_nb import REVEAL_LOSES
from simbalance.games.aquaman.state_nb import SEA_CREATURE
from simbalance.games.aquaman.state_nb import ST_FIGHTS
from simbalance.games.aquaman.state_nb import ST_FOE_HITS
from simbalance.games.aquaman.state_nb import ST_STOLEN
from simbalance.games.aquaman.state_nb import ST_TAKEN
from simbalance.games.aquaman.state_nb import ST_USE
from simbalance.games.aquaman.state_nb import ST_WON
from simbalance.games.aquaman.state_nb import STEP_ACTIVATED
from simbalance.games.aquaman.state_nb import STEP_END_TURN
from simbalance.games.aquaman.state_nb import STEP_FIGHT_END
from simbalance.games.aquaman.state_nb import STEP_LAND
from simbalance.games.aquaman.state_nb import STEP_MISSION
from simbalance.games.aquaman.state_nb import STEP_MISSION_CARDS
from simbalance.games.aquaman.state_nb import STEP_OVER
from simbalance.games.aquaman.state_nb import STEP_POWER_SWAPS
from simbalance.games.aquaman.state_nb import STEP_REST
from simbalance.games.aquaman.state_nb import STEP_REVEAL
from simbalance.games.aquaman.state_nb import STEP_REVEAL_B
from simbalance.games.aquaman.state_nb import STEP_SWIM
from simbalance.games.aquaman.state_nb import STEP_TURN
from simbalance.games.aquaman.state_nb import STRANGENESS
from simbalance.games.aquaman.state_nb import V_HAND_N
from simbalance.games.aquaman.state_nb import V_MISSIONS
from simbalance.games.aquaman.state_nb import V_POS
from simbalance.games.aquaman.state_nb import V_SUIT
from simbalance.games.aquaman.state_nb import WHY_ACTIVATED
from simbalance.games.aquaman.state_nb import WHY_COMPANION
from simbalance.games.aquaman.state_nb import WHY_MISSION
from simbalance.games.aquaman.state_nb import WHY_POWER
from simbalance.games.aquaman.state_nb import WHY_REST
from simbalance.games.aquaman.state_nb import X_CAND
from simbalance.games.aquaman.state_nb import X_SUITS
from simbalance.games.aquaman.state_nb import add_card
from simbalance.games.aquaman.state_nb import discard
from simbalance.games.aquaman.state_nb import draw
from simbalance.games.aquaman.state_nb import draw_to_hand
from simbalance.games.aquaman.state_nb import log_step
from simbalance.games.aquaman.state_nb import pawns_at
from simbalance.games.aquaman.state_nb import remove_at
from simbalance.games.aquaman.validate_nb import check

# ---------------------------------------------------------------- where the game stands


@njit(cache=True, inline="always")
def ask(S, decision, seat):
    """Stop the rules: ``seat`` decides ``decision`` next."""
    S.ctr[C_DECISION] = decision
    S.ctr[C_TO_MOVE] = seat


@njit(cache=True, inline="always")
def then(S, step):
    """The rules go on with ``step``."""
    S.ctr[C_STEP] = step


@njit(cache=True, inline="always")
def progress_values(G, S):
    """The whole-game metrics' progress (docs/rules/aquaman.md, "Whole-game metrics") of every seat
    into ``ctr[C_PROGRESS + s]``: missions x (M + 1) + the suits in hand (at most M, the suits a
    mission needs), so that a mission more is worth more than any hand."""
    m = G.rules[R_MISSION_SUITS]
    for s in range(G.rules[R_PLAYERS]):
        suits = 0
        for k in range(G.rules[R_NSUITS]):
            suits += S.seat[s, V_SUIT + k] > 0
        S.ctr[C_PROGRESS + s] = S.seat[s, V_MISSIONS] * (m + 1) + min(suits, m)


@njit(cache=True, _nrt=False)
def progress_final(G, S, reason):
    """The whole-game metrics' last checkpoint. A call: once a game, from every step that ends one."""
    progress_values(G, S)
    whole_game.progress_end(S.ctr[C_TRACK:C_TRACK + whole_game.PROGRESS_SIZE],
                            S.ctr[C_PROGRESS:C_PROGRESS + MAX_SEATS], np.int64(1), S.ctr[C_TURN], reason)


@njit(cache=True, inline="always")
def game_over(G, S, result):
    """The game ends: ``result`` is the winner, RESULT_TIMEOUT, RESULT_STALEMATE or RESULT_INVALID;
    nobody is to move. The whole-game metrics take their last checkpoint."""
    S.ctr[C_RESULT] = result
    S.ctr[C_STEP] = STEP_OVER
    S.ctr[C_DECISION] = NO_DECISION
    S.ctr[C_TO_MOVE] = -1
    progress_final(G, S, np.int64(R_NO_MISSION) if result == RESULT_STALEMATE else np.int64(0))


@njit(cache=True, _nrt=False)
def end_of_round(G, S, log=None):
    """A round (a turn per seat) is over: the whole-game metrics' checkpoint, and the loop detection
    (rules.stalemate_window): a mission completed since the last progress, or a seat's progress
    beyond its own best so far (a suit it never held together with the others), is progress. True:
    no progress for the window's turns ended the game as a stalemate. A call: once a round."""
    progress_values(G, S)
    missions = 0
    better = False
    for s in range(G.rules[R_PLAYERS]):
        missions += S.seat[s, V_MISSIONS]
        better |= S.ctr[C_PROGRESS + s] > S.ctr[C_BEST + s]
        S.ctr[C_BEST + s] = max(S.ctr[C_BEST + s], S.ctr[C_PROGRESS + s])
    tr = S.ctr[C_TRACK:C_TRACK + whole_game.PROGRESS_SIZE]
    turn = S.ctr[C_TURN]
    if not whole_game.progress_round_of(tr, S.ctr[C_PROGRESS:C_PROGRESS + MAX_SEATS], np.int64(1), turn,
                                        better or missions > tr[whole_game.PR_MARK_A], G.rules[R_WINDOW],
                                        np.int64(missions), np.int64(0)):
        return False
    if log is not None:
        log_step(log, S, EV_STALEMATE, R_NO_MISSION, turn - tr[whole_game.PR_STALL_FROM], 0, 0)
    game_over(G, S, RESULT_STALEMATE)
    return True


# ---------------------------------------------------------------- legal targets (candidate lists)


@njit(cache=True, inline="always")
def plot_targets(G, S, rank):
    """Legal Plot squares into the candidate list: no pawn on it, a card lower than ``rank``."""
    card = G.card
    cards = S.cards
    seatv = S.seat
    scratch = S.scratch
    players = G.rules[R_PLAYERS]
    n = 0
    for cell in range(G.move_to.shape[0]):
        c = cards[K_BOARD, cell]
        if c >= 0 and card[CARD_RANK, c] < rank and pawns_at(seatv, cell, players, -1) == 0:
            scratch[X_CAND, n] = cell
            n += 1
    return n


@njit(cache=True, inline="always")
def strangeness_targets(G, S, seat, rank):
    """Adjacent squares whose card is lower than ``rank``, into the candidate list."""
    card = G.card
    adj = G.adj
    cards = S.cards
    scratch = S.scratch
    n = 0
    here = S.seat[seat, V_POS]
    for k in range(adj.shape[1]):
        cell = adj[here, k]
        if cell < 0:
            break
        c = cards[K_BOARD, cell]
        if c >= 0 and card[CARD_RANK, c] < rank:
            scratch[X_CAND, n] = cell
            n += 1
    return n


@njit(cache=True, inline="always")
def foe_targets(G, S, seat):
    """Opponents on a square adjacent to ``seat``'s pawn, into the candidate list."""
    adj = G.adj
    seatv = S.seat
    scratch = S.scratch
    n = 0
    here = seatv[seat, V_POS]
    for o in range(G.rules[R_PLAYERS]):
        if o == seat:
            continue
        for k in range(adj.shape[1]):
            cell = adj[here, k]
            if cell < 0:
                break
            if seatv[o, V_POS] == cell:
                scratch[X_CAND, n] = o
                n += 1
                break
    return n


@njit(cache=True, inline="always")
def opponents_at(G, S, seat, cell):
    """The opponents of ``seat`` on ``cell``, in seat order, into the candidate list."""
    seatv = S.seat
    scratch = S.scratch
    n = 0
    for o in range(G.rules[R_PLAYERS]):
        if o != seat and seatv[o, V_POS] == cell:
            scratch[X_CAND, n] = o
            n += 1
    return n


# ---------------------------------------------------------------- set-up


@njit(cache=True)
def reset(G, S):
    """Empty every place: no cards anywhere, pawns in their corners, counters at zero.

    The reachable-square stamp keeps counting across games: the stamp tables are not cleared, so a
    stamp must never be reused.
    """
    stamp = S.ctr[C_STAMP]
    S.ctr[:] = 0
    S.ctr[C_STAMP] = stamp
    S.ctr[C_ACT_CARD] = -1  # no activated card waits for the discard pile
    S.cards[:, :] = -1
    S.cards[K_KNOWN, :] = 0
    S.seat[:, :] = 0
    for s in range(G.rules[R_PLAYERS]):
        S.seat[s, V_POS] = G.rules[R_CORNER + s]


@njit(cache=True)
def setup_game(G, S, log=None):
    """Shuffle the deck, deal one card face up on every square, pawns to corners, deal hands."""
    reset(G, S)
    n_cards = G.card.shape[1]
    for c in range(n_cards):
        S.cards[K_DECK, c] = c
    shuffle(S.rng, S.cards[K_DECK], n_cards)
    S.ctr[C_DECK] = n_cards
    for cell in range(G.move_to.shape[0]):
        S.cards[K_BOARD, cell] = draw(G, S)
        if log is not None:
            log_step(log, S, EV_BOARD, cell, S.cards[K_BOARD, cell], 0, 0)
    deal_rounds = 0  # every seat gets rules.start_hand, one at a time; seat compensation may add or take some
    for s in range(G.rules[R_PLAYERS]):
        deal_rounds = max(deal_rounds, G.rules[R_START_SEAT + s])
    for r in range(deal_rounds):
        for s in range(G.rules[R_PLAYERS]):
            if r >= G.rules[R_START_SEAT + s]:
                continue
            c = draw_to_hand(G, S, s)
            if log is not None:
                log_step(log, S, EV_DEAL, s, c, 0, 0)


@njit(cache=True, inline="always")
def first_turn(G, S):
    """After the deal seat 0 moves first; with validation the dealt position is checked first. The
    whole-game metrics start: a round is a turn per seat."""
    S.ctr[C_MOVER] = 0
    S.ctr[C_DECISION] = NO_DECISION
    whole_game.progress_reset(S.ctr[C_TRACK:C_TRACK + whole_game.PROGRESS_SIZE], G.rules[R_PLAYERS], G.rules[R_PLAYERS],
                              S.ctr[C_TURN])
    then(S, STEP_TURN)
    if G.validate and check(G, S) != 0:
        game_over(G, S, RESULT_INVALID)


# ---------------------------------------------------------------- the turn begins


@njit(cache=True, inline="always")
def begin_turn(G, S, log=None):
    """The end of a round (its checkpoint and the loop detection), the turn cap (a timeout), then a
    new turn of the seat to move. With enough cards in hand, the power phase asks which card to
    activate (or none)."""
    if S.ctr[C_TURN] >= S.ctr[C_TRACK + whole_game.PR_NEXT] and end_of_round(G, S, log):
        return
    if S.ctr[C_TURN] >= G.rules[R_TURN_CAP]:
        if log is not None:
            log_step(log, S, EV_TIMEOUT, S.ctr[C_TURN], 0, 0, 0)
        game_over(G, S, RESULT_TIMEOUT)
        return
    S.ctr[C_TURN] += 1
    seat = S.ctr[C_MOVER]
    if log is not None:
        log_step(log, S, EV_TURN, S.ctr[C_TURN], seat, 0, 0)
    S.ctr[C_PLOT] = -1
    S.ctr[C_MISSION_ROUND] = 0
    then(S, STEP_SWIM)
    if S.seat[seat, V_HAND_N] >= G.rules[R_POWER_MIN]:
        ask(S, D_POWER, seat)


# ---------------------------------------------------------------- 1. power phase


@njit(cache=True, inline="always")
def power_aquaman(G, S, seat, rank, log=None):
    """Draw 2; if their ranks sum below ``rank``, draw a third."""
    total = 0
    for _ in range(G.rules[R_AQUAMAN_DRAW]):
        c = draw_to_hand(G, S, seat)
        if log is not None:
            log_step(log, S, EV_DRAW, seat, c, S.ctr[C_DECK], 0)
        if c >= 0:
            total += np.int64(G.card[CARD_RANK, c])
    if total < rank:
        c = draw_to_hand(G, S, seat)
        if log is not None:
            log_step(log, S, EV_DRAW, seat, c, S.ctr[C_DECK], 1)


@njit(cache=True, _nrt=False)
def companion_keeps(G, S, seat, keep, log=None):
    """Companion keeps seen card ``keep`` (-1: none) and discards the other seen cards."""
    n = S.ctr[C_SEEN]
    if log is not None:
        log_step(log, S, EV_KEEP, seat, S.cards[K_BUF, keep] if keep >= 0 else -1, 0, 0)
    for j in range(n):
        if j == keep:
            add_card(G.card, S.cards, S.seat, seat, S.cards[K_BUF, j])
        else:
            discard(S.cards, S.ctr, S.cards[K_BUF, j])
            if log is not None:
                log_step(log, S, EV_DISC, seat, S.cards[K_BUF, j], WHY_COMPANION, 0)
    S.ctr[C_SEEN] = 0
    then(S, STEP_ACTIVATED)


@njit(cache=True, inline="always")
def power_companion(G, S, seat, rank, log=None):
    """Look at the next 4: keep one lower than ``rank`` (the player chooses; none if none is),
    discard the others."""
    n = 0
    for _ in range(G.rules[R_COMPANION_LOOK]):
        c = draw(G, S)
        if c < 0:
            break
        S.cards[K_BUF, n] = c
        n += 1
        if log is not None:
            log_step(log, S, EV_SEE, seat, c, 0, 0)
    S.ctr[C_SEEN] = n
    for j in range(n):
        if G.card[CARD_RANK, S.cards[K_BUF, j]] < rank:
            ask(S, D_COMPANION, seat)
            return
    companion_keeps(G, S, seat, np.int64(-1), log)


@njit(cache=True, inline="always")
def power_sea_creature(G, S, seat, rank, log=None):
    """Take the top card of the discard pile if it is lower than ``rank``."""
    if S.ctr[C_DISC] > 0:
        top = S.cards[K_DISC, S.ctr[C_DISC] - 1]
        taken = G.card[CARD_RANK, top] < rank
        if taken:
            S.ctr[C_DISC] -= 1
            add_card(G.card, S.cards, S.seat, seat, top)
            S.cards[K_KNOWN, top] = KNOWN_ALL  # taken face up
        if log is not None:
            log_step(log, S, EV_SEA, seat, top, 1 if taken else 0, 0)
    elif log is not None:
        log_step(log, S, EV_SEA, seat, -1, 0, 0)


@njit(cache=True, _nrt=False)
def plot_chosen(G, S, seat, cell, log=None):
    """Plot: the pawn will swim to ``cell`` without rolling (-1: no square qualified, it rolls)."""
    S.ctr[C_PLOT] = cell
    if log is not None:
        log_step(log, S, EV_PLOT, seat, cell, 0, 0)
    then(S, STEP_ACTIVATED)


@njit(cache=True, _nrt=False)
def foe_chosen(G, S, seat, target, log=None):
    """Foe: ``target`` (-1: nobody adjacent) reveals a random card; lower than the Foe card: it is
    discarded."""
    then(S, STEP_ACTIVATED)
    if target < 0 or S.seat[target, V_HAND_N] == 0:
        if log is not None:
            log_step(log, S, EV_FOE, seat, target, -1, 0)
        return
    i = randint(S.rng, S.seat[target, V_HAND_N])
    hit = G.card[CARD_RANK, S.cards[K_HAND + target, i]] < S.ctr[C_ACT_RANK]
    if log is not None:
        log_step(log, S, EV_FOE, seat, target, S.cards[K_HAND + target, i], 1 if hit else 0)
    if hit:
        discard(S.cards, S.ctr, remove_at(G.card, S.cards, S.seat, target, i))
        S.seat[seat, ST_FOE_HITS] += 1
    else:  # revealed to the table and kept
        S.cards[K_KNOWN, S.cards[K_HAND + target, i]] = KNOWN_ALL


@njit(cache=True)
def power_next_swap(G, S, log=None):
    """Power: the next hand card, from the last slot down, not higher than the Power card asks
    whether to swap it; when none is left, draw as many cards as were discarded. (Downwards:
    removing slot i moves the last card, already decided, into it.)"""
    seat = S.ctr[C_MOVER]
    slot = S.ctr[C_SLOT]
    while slot >= 0 and G.card[CARD_RANK, S.cards[K_HAND + seat, slot]] > S.ctr[C_ACT_RANK]:
        slot -= 1
    S.ctr[C_SLOT] = slot
    if slot >= 0:
        ask(S, D_SWAP, seat)
        return
    for _ in range(S.ctr[C_SWAPS]):
        c = draw_to_hand(G, S, seat)
        if log is not None:
            log_step(log, S, EV_DRAW, seat, c, S.ctr[C_DECK], 0)
    then(S, STEP_ACTIVATED)


@njit(cache=True, _nrt=False)
def swap_chosen(G, S, swap, log=None):
    """Power: discard the card in slot C_SLOT (``swap`` 1) or keep it (0); then the next slot."""
    seat = S.ctr[C_MOVER]
    slot = S.ctr[C_SLOT]
    if swap != 0:
        c = S.cards[K_HAND + seat, slot]
        discard(S.cards, S.ctr, remove_at(G.card, S.cards, S.seat, seat, slot))
        S.ctr[C_SWAPS] += 1
        if log is not None:
            log_step(log, S, EV_DISC, seat, c, WHY_POWER, 0)
    S.ctr[C_SLOT] = slot - 1
    then(S, STEP_POWER_SWAPS)


@njit(cache=True, _nrt=False)
def strangeness_chosen(G, S, seat, cell, log=None):
    """Strangeness: take the card of adjacent ``cell`` (-1: none qualifies, no effect); refill its
    square from the deck."""
    then(S, STEP_ACTIVATED)
    if cell < 0:
        if log is not None:
            log_step(log, S, EV_STRANGE, seat, -1, -1, -1)
        return
    taken = S.cards[K_BOARD, cell]
    add_card(G.card, S.cards, S.seat, seat, taken)
    S.cards[K_KNOWN, taken] = KNOWN_ALL  # taken face up
    S.cards[K_BOARD, cell] = draw(G, S)
    if log is not None:
        log_step(log, S, EV_STRANGE, seat, cell, taken, S.cards[K_BOARD, cell])


@njit(cache=True, inline="always")
def location_shows(G, S, rank):
    """Location shows the next min(rank, deck size) cards, never reshuffling; nothing moves."""
    return min(rank, S.ctr[C_DECK])


@njit(cache=True)
def activate(G, S, seat, i, log=None):
    """Discard hand slot ``i`` to use its suit's power. A power with a choice asks for it (its
    ``*_chosen`` function goes on); the others resolve at once.

    By default the activated card reaches the discard pile after its power resolves (so Sea
    Creature takes the card that was on top before; it waits in C_ACT_CARD): rules.activated_card
    = "before" discards it first.
    """
    card = remove_at(G.card, S.cards, S.seat, seat, i)
    rank = np.int64(G.card[CARD_RANK, card])
    power = G.rules[R_SUIT_POWER + G.card[CARD_SUIT, card]]
    if log is not None:
        log_step(log, S, EV_ACTIVATE, seat, card, power, 0)
    S.ctr[C_ACT_RANK] = rank
    if G.rules[R_DISCARD_AFTER] != 0:
        S.ctr[C_ACT_CARD] = card
    else:
        S.ctr[C_ACT_CARD] = -1
        discard(S.cards, S.ctr, card)
        if log is not None:
            log_step(log, S, EV_DISC, seat, card, WHY_ACTIVATED, 0)
    if power < N_POWERS:
        S.seat[seat, ST_USE + power] += 1
    then(S, STEP_ACTIVATED)
    if power == AQUAMAN:
        power_aquaman(G, S, seat, rank, log)
    elif power == COMPANION:
        power_companion(G, S, seat, rank, log)
    elif power == SEA_CREATURE:
        power_sea_creature(G, S, seat, rank, log)
    elif power == PLOT:
        if plot_targets(G, S, rank) > 0:
            ask(S, D_PLOT, seat)
        else:
            plot_chosen(G, S, seat, np.int64(-1), log)
    elif power == FOE:
        if foe_targets(G, S, seat) > 0:
            ask(S, D_FOE, seat)
        else:
            foe_chosen(G, S, seat, np.int64(-1), log)
    elif power == POWER:
        S.ctr[C_SLOT] = S.seat[seat, V_HAND_N] - 1
        S.ctr[C_SWAPS] = 0
        then(S, STEP_POWER_SWAPS)
    elif power == STRANGENESS:
        if strangeness_targets(G, S, seat, rank) > 0:
            ask(S, D_STRANGE, seat)
        else:
            strangeness_chosen(G, S, seat, np.int64(-1), log)
    elif power == LOCATION:
        shown = location_shows(G, S, rank)
        for j in range(shown):  # the seat now knows these places of the deck
            S.cards[K_KNOWN, S.cards[K_DECK, S.ctr[C_DECK] - 1 - j]] |= np.int16(1 << seat)
        if log is not None:
            for j in range(shown):
                log_step(log, S, EV_LOCATION, seat, S.cards[K_DECK, S.ctr[C_DECK] - 1 - j], j, shown)


@njit(cache=True, inline="always")
def power_chosen(G, S, slot, log=None):
    """The power phase: activate hand slot ``slot``, or no power (-1)."""
    if slot >= 0:
        activate(G, S, S.ctr[C_MOVER], slot, log)
    else:
        then(S, STEP_SWIM)


@njit(cache=True, inline="always")
def activation_ends(G, S, log=None):
    """The power has resolved: the activated card goes to the discard pile now (unless it went
    before); then the swim."""
    card = S.ctr[C_ACT_CARD]
    if card >= 0:
        discard(S.cards, S.ctr, card)
        S.ctr[C_ACT_CARD] = -1
        if log is not None:
            log_step(log, S, EV_DISC, S.ctr[C_MOVER], card, WHY_ACTIVATED, 0)
    then(S, STEP_SWIM)


# ---------------------------------------------------------------- 2. swim


@njit(cache=True, inline="always")
def roll(G, S):
    for k in range(G.rules[R_NDICE]):
        S.ctr[C_DICE + k] = 1 + randint(S.rng, G.rules[R_FACES])


@njit(cache=True, inline="always")
def swim(G, S, log=None):
    """A Plot target replaces the roll; otherwise roll the dice and ask where the swim ends."""
    seat = S.ctr[C_MOVER]
    plot = S.ctr[C_PLOT]
    if plot >= 0:
        start = S.seat[seat, V_POS]
        S.seat[seat, V_POS] = plot
        if log is not None:
            log_step(log, S, EV_MOVE, seat, start, plot, 1)
        then(S, STEP_LAND)
        return
    roll(G, S)
    if log is not None:
        log_step(log, S, EV_ROLL, seat, S.ctr[C_DICE], S.ctr[C_DICE + 1], S.ctr[C_DICE + 2])
    ask(S, D_SWIM, seat)


@njit(cache=True, inline="always")
def swim_chosen(G, S, cell, log=None):
    """The pawn swims to ``cell`` (a square the rolled dice reach)."""
    seat = S.ctr[C_MOVER]
    start = S.seat[seat, V_POS]
    S.seat[seat, V_POS] = cell
    if log is not None:
        log_step(log, S, EV_MOVE, seat, start, cell, 0)
    then(S, STEP_LAND)


# ---------------------------------------------------------------- 3. action


@njit(cache=True, inline="always")
def land(G, S, log=None):
    """The pawn lands on its square: with opponents there, ask which to fight; else take the card
    and refill the square."""
    seat = S.ctr[C_MOVER]
    cell = S.seat[seat, V_POS]
    if pawns_at(S.seat, cell, G.rules[R_PLAYERS], seat) > 0:
        ask(S, D_OPPONENT, seat)
        return
    c = S.cards[K_BOARD, cell]
    if c >= 0:
        add_card(G.card, S.cards, S.seat, seat, c)
        S.cards[K_KNOWN, c] = KNOWN_ALL  # taken face up
        S.seat[seat, ST_TAKEN] += 1
        S.cards[K_BOARD, cell] = draw(G, S)
        if log is not None:
            log_step(log, S, EV_TAKE, seat, cell, c, S.cards[K_BOARD, cell])
    elif log is not None:
        log_step(log, S, EV_EMPTY, seat, cell, 0, 0)
    then(S, STEP_MISSION)


@njit(cache=True)
def fight_begins(G, S, b, log=None):
    """The mover fights opponent ``b``. Both reveal a card of their choice (a choice depends only
    on the chooser's own hand, so the mover's is asked first); revealed cards are discarded."""
    a = S.ctr[C_MOVER]
    S.seat[a, ST_FIGHTS] += 1
    S.seat[b, ST_FIGHTS] += 1
    if log is not None:
        log_step(log, S, EV_FIGHT, a, b, 0, 0)
    S.ctr[C_FIGHT_A] = a
    S.ctr[C_FIGHT_B] = b
    S.ctr[C_REVEALS] = 0
    S.ctr[C_WINNER] = -1
    then(S, STEP_REVEAL)


@njit(cache=True)
def fight_decided(G, S, winner, log=None):
    """The fight is over (``winner`` -1: nobody won). The winner steals a card of his choice from
    the loser's hand, if it holds one."""
    S.ctr[C_WINNER] = winner
    then(S, STEP_FIGHT_END)
    if winner >= 0:
        loser = S.ctr[C_FIGHT_A] + S.ctr[C_FIGHT_B] - winner
        S.seat[winner, ST_WON] += 1
        for i in range(S.seat[loser, V_HAND_N]):  # the winner looks at the loser's whole hand
            S.cards[K_KNOWN, S.cards[K_HAND + loser, i]] |= np.int16(1 << winner)
        if S.seat[loser, V_HAND_N] > 0:
            ask(S, D_STEAL, winner)


@njit(cache=True)
def reveals_compared(G, S, ca, cb, log=None):
    """Both have revealed (-1: had no card). High rank wins; a tie makes both reveal again (once
    only with rules.fight_ties = "once"). With rules.cannot_reveal = "loses" the one who could not
    reveal loses; with "draws" nobody wins; if neither could, nobody wins."""
    a = S.ctr[C_FIGHT_A]
    b = S.ctr[C_FIGHT_B]
    S.ctr[C_REVEALS] += 1
    if log is not None:
        log_step(log, S, EV_REVEAL, a, ca, b, cb)
    if ca < 0 and cb < 0:
        fight_decided(G, S, np.int64(-1), log)
    elif ca < 0 or cb < 0:
        winner = -1
        if G.rules[R_CANNOT_REVEAL] == REVEAL_LOSES:
            winner = b if ca < 0 else a
        fight_decided(G, S, winner, log)
    elif G.card[CARD_RANK, ca] != G.card[CARD_RANK, cb]:
        fight_decided(G, S, a if G.card[CARD_RANK, ca] > G.card[CARD_RANK, cb] else b, log)
    elif G.rules[R_TIES_REPEAT] == 0 and S.ctr[C_REVEALS] >= 2:
        fight_decided(G, S, np.int64(-1), log)
    else:
        then(S, STEP_REVEAL)


@njit(cache=True)
def second_reveal(G, S, log=None):
    """The opponent reveals (asked), or has no card to reveal."""
    b = S.ctr[C_FIGHT_B]
    if S.seat[b, V_HAND_N] > 0:
        ask(S, D_REVEAL, b)
    else:
        reveals_compared(G, S, S.ctr[C_REVEAL_A], np.int64(-1), log)


@njit(cache=True)
def fight_round(G, S, log=None):
    """A round of reveals. When one of them has no card to reveal (hand sizes are public), by
    default (rules.cannot_reveal = "ends") the fight ends before the reveal: nobody reveals, nobody
    wins (also after a tie). Otherwise the mover reveals first (asked), or has no card."""
    a = S.ctr[C_FIGHT_A]
    b = S.ctr[C_FIGHT_B]
    if G.rules[R_CANNOT_REVEAL] == REVEAL_ENDS and (S.seat[a, V_HAND_N] == 0 or S.seat[b, V_HAND_N] == 0):
        if log is not None:
            log_step(log, S, EV_NO_REVEAL, a, S.seat[a, V_HAND_N], b, S.seat[b, V_HAND_N])
        fight_decided(G, S, np.int64(-1), log)
    elif S.seat[a, V_HAND_N] > 0:
        ask(S, D_REVEAL, a)
    else:
        S.ctr[C_REVEAL_A] = -1
        second_reveal(G, S, log)


@njit(cache=True)
def reveal_chosen(G, S, slot, log=None):
    """The deciding fighter reveals (and discards) the card in his hand slot ``slot``."""
    seat = S.ctr[C_TO_MOVE]
    c = remove_at(G.card, S.cards, S.seat, seat, slot)
    discard(S.cards, S.ctr, c)
    if seat == S.ctr[C_FIGHT_A]:
        S.ctr[C_REVEAL_A] = c
        then(S, STEP_REVEAL_B)
    else:
        reveals_compared(G, S, S.ctr[C_REVEAL_A], c, log)


@njit(cache=True)
def steal_chosen(G, S, slot, log=None):
    """The winner takes the card in the loser's hand slot ``slot``."""
    winner = S.ctr[C_WINNER]
    loser = S.ctr[C_FIGHT_A] + S.ctr[C_FIGHT_B] - winner
    c = remove_at(G.card, S.cards, S.seat, loser, slot)
    add_card(G.card, S.cards, S.seat, winner, c)
    S.cards[K_KNOWN, c] = np.int16((1 << winner) | (1 << loser))  # the others did not see which
    S.seat[winner, ST_STOLEN] += 1
    if log is not None:
        log_step(log, S, EV_STEAL, winner, loser, c, 0)
    then(S, STEP_FIGHT_END)


@njit(cache=True, inline="always")
def fight_ends(G, S, log=None):
    if log is not None:
        log_step(log, S, EV_FIGHT_END, S.ctr[C_FIGHT_A], S.ctr[C_FIGHT_B], S.ctr[C_WINNER], S.ctr[C_REVEALS])
    then(S, STEP_MISSION)


# ---------------------------------------------------------------- 4. mission


@njit(cache=True, inline="always")
def can_mission(G, S, seat):
    held = 0
    for s in range(G.rules[R_NSUITS]):
        if S.seat[seat, V_SUIT + s] > 0:
            held += 1
    return held >= G.rules[R_MISSION_SUITS]


@njit(cache=True, inline="always")
def mission_phase(G, S, log=None):
    """While the turn allows another mission and the hand holds enough suits: ask whether to play
    one now; else the rest phase."""
    seat = S.ctr[C_MOVER]
    if S.ctr[C_MISSION_ROUND] < G.rules[R_MISSIONS_PER_TURN] and can_mission(G, S, seat):
        ask(S, D_MISSION, seat)
    else:
        then(S, STEP_REST)


@njit(cache=True, inline="always")
def mission_chosen(G, S, play, log=None):
    """Play a mission (``play`` 1): first its suits are picked, one at a time; or not now (0)."""
    if play == 0:
        then(S, STEP_REST)
        return
    for s in range(G.rules[R_NSUITS]):
        S.scratch[X_SUITS, s] = 0
    S.ctr[C_PICKED] = 0
    ask(S, D_MISSION_SUIT, S.ctr[C_MOVER])


@njit(cache=True, inline="always")
def mission_suit_chosen(G, S, suit, log=None):
    """The mission uses ``suit``; when all its suits are picked, one card of each is picked, in suit
    order."""
    S.scratch[X_SUITS, suit] = 1
    S.ctr[C_PICKED] += 1
    if S.ctr[C_PICKED] < G.rules[R_MISSION_SUITS]:
        ask(S, D_MISSION_SUIT, S.ctr[C_MOVER])
        return
    S.ctr[C_PICKED] = 0
    S.ctr[C_SUIT] = -1
    then(S, STEP_MISSION_CARDS)


@njit(cache=True)
def mission_played(G, S, log=None):
    """Discard the picked cards (cards[K_BUF], one of each of the mission's suits): a mission is
    done. The one that reaches rules.missions_to_win wins the game at once."""
    seat = S.ctr[C_MOVER]
    for j in range(G.rules[R_MISSION_SUITS]):
        c = S.cards[K_BUF, j]
        for i in range(S.seat[seat, V_HAND_N]):
            if S.cards[K_HAND + seat, i] == c:
                discard(S.cards, S.ctr, remove_at(G.card, S.cards, S.seat, seat, i))
                if log is not None:
                    log_step(log, S, EV_DISC, seat, c, WHY_MISSION, 0)
                break
    S.seat[seat, V_MISSIONS] += 1
    if log is not None:
        log_step(log, S, EV_MISSION, seat, S.seat[seat, V_MISSIONS], 0, 0)
    if S.seat[seat, V_MISSIONS] >= G.rules[R_MISSIONS_TO_WIN]:
        if log is not None:
            log_step(log, S, EV_WIN, seat, S.ctr[C_TURN], 0, 0)
        game_over(G, S, seat)
        return
    S.ctr[C_MISSION_ROUND] += 1
    then(S, STEP_MISSION)


@njit(cache=True, inline="always")
def next_mission_card(G, S, log=None):
    """Ask for the card of the next picked suit; when every picked suit has its card, play it."""
    for s in range(S.ctr[C_SUIT] + 1, G.rules[R_NSUITS]):
        if S.scratch[X_SUITS, s] != 0:
            S.ctr[C_SUIT] = s
            ask(S, D_MISSION_CARD, S.ctr[C_MOVER])
            return
    mission_played(G, S, log)


@njit(cache=True, inline="always")
def mission_card_chosen(G, S, slot, log=None):
    """The card in hand slot ``slot`` (of suit C_SUIT) goes into the mission; the hand keeps it
    until every card is picked."""
    S.cards[K_BUF, S.ctr[C_PICKED]] = S.cards[K_HAND + S.ctr[C_MOVER], slot]
    S.ctr[C_PICKED] += 1
    then(S, STEP_MISSION_CARDS)


# ---------------------------------------------------------------- 5. rest


@njit(cache=True, _nrt=False)
def rest(G, S, log=None):
    """Discard down to the hand limit, one card (asked) at a time; then the turn ends."""
    seat = S.ctr[C_MOVER]
    if S.seat[seat, V_HAND_N] > G.rules[R_LIMIT_SEAT + seat]:  # rules.hand_limit, with seat compensation
        ask(S, D_REST, seat)
    else:
        then(S, STEP_END_TURN)


@njit(cache=True, _nrt=False)
def rest_discard_chosen(G, S, slot, log=None):
    seat = S.ctr[C_MOVER]
    c = remove_at(G.card, S.cards, S.seat, seat, slot)
    discard(S.cards, S.ctr, c)
    if log is not None:
        log_step(log, S, EV_DISC, seat, c, WHY_REST, 0)
    then(S, STEP_REST)


@njit(cache=True, inline="always")
def end_turn(G, S, log=None):
    """With validation, the invariants are checked after every turn; then the next seat's turn."""
    if G.validate and check(G, S) != 0:
        if log is not None:
            log_step(log, S, EV_INVALID, S.ctr[C_TURN], 0, 0, 0)
        game_over(G, S, RESULT_INVALID)
        return
    S.ctr[C_MOVER] = (S.ctr[C_MOVER] + 1) % G.rules[R_PLAYERS]
    then(S, STEP_TURN)
