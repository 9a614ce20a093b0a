"""An aquaman game as resumable steps (``Resumable`` in core/spec.py), the kernel and ``trace_game``.

The rules (rules_nb) run step by step until a player must decide something; the game then waits,
with everything it needs to go on in its state (state_nb: the next step, the pending decision, the
seat to decide it). From there one can copy the state (``clone``), list the decision's options
(``legal_options``), take one (``apply_option``) or let the seats' strategies play on
(``play_out``). The kernel plays every game the same way: ``start``, ``play_out`` to the end,
``write_record``; so the fast path and the resumable path are one code. The decisions and their
option codes are listed in docs/rules/aquaman.md ("Decisions").

The replay (replay.py) plays a game with ``trace_game``, the kernel's own per-game code
(``play_one``) with an event log; the kernel passes None, so numba compiles every
``if log is not None`` away and the simulated games do not pay for the replay.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simbalance.core.kernel import begin_game
from simbalance.core.records import END_INVALID
from simbalance.core.records import END_STALEMATE
from simbalance.core.records import END_TIMEOUT
from simbalance.core.records import END_WIN
from simbalance.core.rng import seed_game
from simbalance.core.whole_game import PROGRESS_SIZE
from simbalance.core.whole_game import write_progress
from simbalance.games.aquaman.rules_nb import activation_ends
from simbalance.games.aquaman.rules_nb import begin_turn
from simbalance.games.aquaman.rules_nb import companion_keeps
from simbalance.games.aquaman.rules_nb import end_turn
from simbalance.games.aquaman.rules_nb import fight_begins
from simbalance.games.aquaman.rules_nb import fight_ends
from simbalance.games.aquaman.rules_nb import fight_round
from simbalance.games.aquaman.rules_nb import first_turn
from simbalance.games.aquaman.rules_nb import foe_chosen
from simbalance.games.aquaman.rules_nb import foe_targets
from simbalance.games.aquaman.rules_nb import game_over
from simbalance.games.aquaman.rules_nb import land
from simbalance.games.aquaman.rules_nb import mission_card_chosen
from simbalance.games.aquaman.rules_nb import mission_chosen
from simbalance.games.aquaman.rules_nb import mission_phase
from simbalance.games.aquaman.rules_nb import mission_suit_chosen
from simbalance.games.aquaman.rules_nb import next_mission_card
from simbalance.games.aquaman.rules_nb import opponents_at
from simbalance.games.aquaman.rules_nb import plot_chosen
from simbalance.games.aquaman.rules_nb import plot_targets
from simbalance.games.aquaman.rules_nb import power_chosen
from simbalance.games.aquaman.rules_nb import power_next_swap
from simbalance.games.aquaman.rules_nb import rest
from simbalance.games.aquaman.rules_nb import rest_discard_chosen
from simbalance.games.aquaman.rules_nb import reveal_chosen
from simbalance.games.aquaman.rules_nb import second_reveal
from simbalance.games.aquaman.rules_nb import setup_game
from simbalance.games.aquaman.rules_nb import steal_chosen
from simbalance.games.aquaman.rules_nb import strangeness_chosen
from simbalance.games.aquaman.rules_nb import strangeness_targets
from simbalance.games.aquaman.rules_nb import swap_chosen
from simbalance.games.aquaman.rules_nb import swim
from simbalance.games.aquaman.rules_nb import swim_chosen
from simbalance.games.aquaman.search_nb import determinize
from simbalance.games.aquaman.search_nb import evaluate
from simbalance.games.aquaman.search_nb import features
from simbalance.games.aquaman.search_nb import observe
from simbalance.games.aquaman.search_nb import outcome
from simbalance.games.aquaman.search_nb import policy
from simbalance.games.aquaman.state_nb import AQUAMAN
from simbalance.games.aquaman.state_nb import C_ACT_RANK
from simbalance.games.aquaman.state_nb import C_DECISION
from simbalance.games.aquaman.state_nb import C_FIGHT_A
from simbalance.games.aquaman.state_nb import C_FIGHT_B
from simbalance.games.aquaman.state_nb import C_REFILLS
from simbalance.games.aquaman.state_nb import C_RESULT
from simbalance.games.aquaman.state_nb import C_SEEN
from simbalance.games.aquaman.state_nb import C_STEP
from simbalance.games.aquaman.state_nb import C_SUIT
from simbalance.games.aquaman.state_nb import C_TO_MOVE
from simbalance.games.aquaman.state_nb import C_TRACK
from simbalance.games.aquaman.state_nb import C_TURN
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
from simbalance.games.aquaman.state_nb import FOE
from simbalance.games.aquaman.state_nb import K_BUF
from simbalance.games.aquaman.state_nb import K_HAND
from simbalance.games.aquaman.state_nb import LOCATION
from simbalance.games.aquaman.state_nb import PLOT
from simbalance.games.aquaman.state_nb import POWER
from simbalance.games.aquaman.state_nb import R_NDICE
from simbalance.games.aquaman.state_nb import R_NSUITS
from simbalance.games.aquaman.state_nb import R_PLAYERS
from simbalance.games.aquaman.state_nb import RESULT_INVALID
from simbalance.games.aquaman.state_nb import RESULT_STALEMATE
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
from simbalance.games.aquaman.state_nb import X_CAND
from simbalance.games.aquaman.state_nb import X_REACH
from simbalance.games.aquaman.state_nb import X_SUITS
from simbalance.games.aquaman.state_nb import Game
from simbalance.games.aquaman.state_nb import new_state
from simbalance.games.aquaman.state_nb import reachable
from simbalance.games.aquaman.strategies_nb import decide
from simbalance.players.common_nb import is_legal
from simbalance.players.common_nb import is_search
from simbalance.players.common_nb import new_search
from simbalance.players.common_nb import search_capacity
from simbalance.players.fit_eval_nb import record_positions as generic_record_positions
from simbalance.players.search_nb import search

# ---------------------------------------------------------------- the rules between two decisions


@njit(cache=True, inline="always")
def run_step(G, S, log=None):
    """Run the rule step in ``ctr[C_STEP]`` (the commonest first); it names the next step or asks
    for a decision."""
    step = S.ctr[C_STEP]
    if step == STEP_SWIM:
        swim(G, S, log)
    elif step == STEP_LAND:
        land(G, S, log)
    elif step == STEP_MISSION:
        mission_phase(G, S, log)
    elif step == STEP_REST:
        rest(G, S, log)
    elif step == STEP_END_TURN:
        end_turn(G, S, log)
    elif step == STEP_TURN:
        begin_turn(G, S, log)
    elif step == STEP_ACTIVATED:
        activation_ends(G, S, log)
    elif step == STEP_POWER_SWAPS:
        power_next_swap(G, S, log)
    elif step == STEP_REVEAL:
        fight_round(G, S, log)
    elif step == STEP_REVEAL_B:
        second_reveal(G, S, log)
    elif step == STEP_FIGHT_END:
        fight_ends(G, S, log)
    elif step == STEP_MISSION_CARDS:
        next_mission_card(G, S, log)


@njit(cache=True, inline="always")
def advance(G, S, log=None):
    """Run the rules until a decision is pending or the game is over (STEP_OVER asks nothing and
    names no step: the loop ends there)."""
    ctr = S.ctr
    while ctr[C_DECISION] < 0 and ctr[C_TO_MOVE] >= 0:
        run_step(G, S, log)


@njit(cache=True, inline="always")
def resolve(G, S, option, log=None):
    """Apply ``option`` to the pending decision (the rule step it belongs to names the next step
    or asks the next decision)."""
    ctr = S.ctr
    d = ctr[C_DECISION]
    ctr[C_DECISION] = -1
    seat = ctr[C_TO_MOVE]
    if d == D_SWIM:
        swim_chosen(G, S, option, log)
    elif d == D_POWER:
        power_chosen(G, S, option, log)
    elif d == D_REST:
        rest_discard_chosen(G, S, option, log)
    elif d == D_REVEAL:
        reveal_chosen(G, S, option, log)
    elif d == D_MISSION:
        mission_chosen(G, S, option, log)
    elif d == D_MISSION_SUIT:
        mission_suit_chosen(G, S, option, log)
    elif d == D_MISSION_CARD:
        mission_card_chosen(G, S, option, log)
    elif d == D_OPPONENT:
        fight_begins(G, S, option, log)
    elif d == D_STEAL:
        steal_chosen(G, S, option, log)
    elif d == D_SWAP:
        swap_chosen(G, S, option, log)
    elif d == D_COMPANION:
        companion_keeps(G, S, seat, option, log)
    elif d == D_PLOT:
        plot_chosen(G, S, seat, option, log)
    elif d == D_FOE:
        foe_chosen(G, S, seat, option, log)
    elif d == D_STRANGE:
        strangeness_chosen(G, S, seat, option, log)


# ---------------------------------------------------------------- Resumable


@njit(cache=True)
def start(G, S, seed, game, log=None):
    """Deal game ``game`` of ``seed`` into ``S`` and play on to the first decision. (The kernel's
    ``begin_game`` has keyed the stream already; keying it again here lets ``start`` stand alone
    and costs two multiplications.)"""
    seed_game(S.rng, seed, game)
    setup_game(G, S, log)
    first_turn(G, S)
    # The rules up to the first decision, in play_out's own copy of them: a second inlined copy
    # here cost 16 s of every cold compile. With no decision to make, no strategy is read: the
    # seats' strategies are empty views (no allocation, so that the kernel's game loop can run
    # without reference counting).
    play_out(G, S, S.ctr[:0], S.fbuf[:0], np.int64(0), log)


@njit(cache=True, _nrt=False)
def to_move(G, S):
    """The seat whose decision is pending; -1 once the game is over."""
    return S.ctr[C_TO_MOVE]


@njit(cache=True, _nrt=False)
def apply_option(G, S, option, log=None):
    """Take ``option`` (one that ``legal_options`` lists) and play on to the next decision."""
    resolve(G, S, option, log)
    play_out(G, S, S.ctr[:0], S.fbuf[:0], np.int64(0), log)


@njit(cache=True, _nrt=False)
def play_out(G, S, strat, par, max_decisions, log=None):
    """Let each seat's strategy (``strat[s]``, parameters ``par[s]``) decide, at most
    ``max_decisions`` times (-1: to the end). Returns the decisions made. Stops before a search
    player's decision (``play_searched`` asks the search for it).

    The whole game runs inside this loop (decide, resolve and the frequent rule steps and
    strategies are inlined; rules_nb says which are not), and every read of an array out of the
    Game/State tuples inside it would update a reference count that numba cannot prune in so
    branchy a loop; nothing here allocates, so it is compiled
    without reference counting (``_nrt=False``)."""
    made = 0
    ctr = S.ctr
    while True:
        advance(G, S, log)  # nothing to do while a decision is pending
        if ctr[C_TO_MOVE] < 0 or made == max_decisions or is_search(strat[ctr[C_TO_MOVE]]):
            return made
        option = decide(G, S, strat, par, log)
        resolve(G, S, option, log)
        made += 1


@njit(cache=True, inline="always")
def _list_hand(options, n):
    for i in range(n):
        options[i] = i
    return n


@njit(cache=True)
def legal_options(G, S, options):
    """The pending decision's options into ``options`` (codes in docs/rules/aquaman.md,
    "Decisions"); returns how many (0 once the game is over)."""
    ctr = S.ctr
    seat = ctr[C_TO_MOVE]
    d = ctr[C_DECISION]
    if seat < 0 or d < 0:
        return 0
    hand_n = S.seat[seat, V_HAND_N]
    if d == D_POWER:  # no power (-1), or any hand slot
        options[0] = -1
        for i in range(hand_n):
            options[1 + i] = i
        return hand_n + 1
    if d == D_SWAP or d == D_MISSION:  # no (0) or yes (1)
        options[0] = 0
        options[1] = 1
        return 2
    if d == D_REVEAL or d == D_REST:  # a slot of the deciding seat's hand
        return _list_hand(options, hand_n)
    if d == D_STEAL:  # a slot of the loser's hand
        return _list_hand(options, S.seat[ctr[C_FIGHT_A] + ctr[C_FIGHT_B] - seat, V_HAND_N])
    n = 0
    if d == D_COMPANION:  # a seen card (its index among them) lower than the Companion card
        for j in range(ctr[C_SEEN]):
            if G.card[CARD_RANK, S.cards[K_BUF, j]] < ctr[C_ACT_RANK]:
                options[n] = j
                n += 1
        return n
    if d == D_MISSION_SUIT:  # a held suit not picked yet
        for s in range(G.rules[R_NSUITS]):
            if S.seat[seat, V_SUIT + s] > 0 and S.scratch[X_SUITS, s] == 0:
                options[n] = s
                n += 1
        return n
    if d == D_MISSION_CARD:  # a hand slot holding a card of the suit being picked
        for i in range(hand_n):
            if G.card[CARD_SUIT, S.cards[K_HAND + seat, i]] == ctr[C_SUIT]:
                options[n] = i
                n += 1
        return n
    if d == D_SWIM:  # a square the rolled dice reach (each once)
        full = (1 << G.rules[R_NDICE]) - 1
        for j in range(reachable(G, S, S.seat[seat, V_POS])):
            cell = S.scratch[X_REACH + full, j] // 3
            new = True
            for k in range(n):
                if options[k] == cell:
                    new = False
                    break
            if new:
                options[n] = cell
                n += 1
        return n
    if d == D_PLOT:
        n = plot_targets(G, S, ctr[C_ACT_RANK])
    elif d == D_STRANGE:
        n = strangeness_targets(G, S, seat, ctr[C_ACT_RANK])
    elif d == D_FOE:
        n = foe_targets(G, S, seat)
    elif d == D_OPPONENT:
        n = opponents_at(G, S, seat, S.seat[seat, V_POS])
    for j in range(n):
        options[j] = S.scratch[X_CAND, j]
    return n


# ---------------------------------------------------------------- the record, the kernel


@njit(cache=True)
def write_record(G, S, out, i):
    """The finished game's record into ``out[i]`` (the kernel writes the game and strategy fields)."""
    players = G.rules[R_PLAYERS]
    result = S.ctr[C_RESULT]
    out[i].length = S.ctr[C_TURN]
    out[i].refills = S.ctr[C_REFILLS]
    if result >= 0:
        out[i].end = END_WIN
        out[i].winner = result
        out[i].winners = np.uint8(1) << np.uint8(result)
    elif result == RESULT_INVALID:
        out[i].end = END_INVALID
        out[i].winner = -1
        out[i].winners = 0
    elif result == RESULT_STALEMATE:
        out[i].end = END_STALEMATE
        out[i].winner = -1
        out[i].winners = 0
    else:
        out[i].end = END_TIMEOUT
        out[i].winner = -1
        out[i].winners = 0
    write_progress(out, i, S.ctr[C_TRACK:C_TRACK + PROGRESS_SIZE], np.int64(1) << result if result >= 0 else np.int64(0),
                   S.ctr[C_TURN])
    for s in range(players):
        out[i].missions[s] = S.seat[s, V_MISSIONS]
        out[i].hand_end[s] = S.seat[s, V_HAND_N]
        out[i].fights[s] = S.seat[s, ST_FIGHTS]
        out[i].fights_won[s] = S.seat[s, ST_WON]
        out[i].stolen[s] = S.seat[s, ST_STOLEN]
        out[i].taken[s] = S.seat[s, ST_TAKEN]
        out[i].foe_hits[s] = S.seat[s, ST_FOE_HITS]
        out[i].use_aquaman[s] = S.seat[s, ST_USE + AQUAMAN]
        out[i].use_companion[s] = S.seat[s, ST_USE + COMPANION]
        out[i].use_sea_creature[s] = S.seat[s, ST_USE + SEA_CREATURE]
        out[i].use_plot[s] = S.seat[s, ST_USE + PLOT]
        out[i].use_foe[s] = S.seat[s, ST_USE + FOE]
        out[i].use_power[s] = S.seat[s, ST_USE + POWER]
        out[i].use_strangeness[s] = S.seat[s, ST_USE + STRANGENESS]
        out[i].use_location[s] = S.seat[s, ST_USE + LOCATION]


@njit(cache=True, inline="always")
def play_one(G, S, out, i, game, seed, lineups, slot_strategy, slot_params, strat, par, log, scratch):
    """Game ``game`` of the run into ``out[i]``: the body of the kernel (``log`` None) and of the
    replay (``trace_game``, with a log). ``scratch``: None (no search players: numba compiles the
    search away) or the search's scratch (``search_kernel``: a search seat's decisions are the
    search's)."""
    begin_game(S.rng, seed, game, out, i, lineups, slot_strategy, slot_params, G.rules[R_PLAYERS], strat, 0, par)
    start(G, S, seed, game, log)
    play_out(G, S, strat, par, np.int64(-1), log)
    if scratch is not None:
        if S.ctr[C_TO_MOVE] >= 0:  # stopped before a search seat's decision
            play_searched(G, S, seed, game, strat, par, scratch, log)
    elif S.ctr[C_TO_MOVE] >= 0:  # a search seat in the kernel without search: not a game
        game_over(G, S, np.int64(RESULT_INVALID))
    write_record(G, S, out, i)


@njit(cache=True, _nrt=False)
def play_games(G, S, out, lo, hi, first_game, seed, lineups, slot_strategy, slot_params, strat, par):
    """The block's games on its one state. Without reference counting (``_nrt=False``: it allocates
    nothing): with it, handing the state's arrays to the steps at every game cost 5 %."""
    for i in range(lo, hi):
        play_one(G, S, out, i, first_game + i, seed, lineups, slot_strategy, slot_params, strat, par, None, None)


@njit(cache=True, nogil=True)
def kernel(out, lo, hi, first_game, seed, lineups, slot_strategy, slot_params, rules, card, move_to, adj, validate):
    """Games ``lo .. hi - 1`` of the chunk (core/kernel.py), on one state."""
    G = Game(rules, card, move_to, adj, validate)
    players = rules[R_PLAYERS]
    S = new_state(G)
    strat = np.zeros(players, np.int64)
    par = np.zeros((players, slot_params.shape[1]), np.float64)
    play_games(G, S, out, lo, hi, first_game, seed, lineups, slot_strategy, slot_params, strat, par)


@njit(cache=True)
def trace_game(out, game, seed, lineups, slot_strategy, slot_params, rules, card, move_to, adj, validate, log,
               log_n):
    """Game ``game`` of a run again, exactly as the kernel plays it, into ``out[0]`` with every event
    in ``log`` (``core.replay.trace_with_log`` sizes it; kinds ``EV_*`` in state_nb)."""
    G = Game(rules, card, move_to, adj, validate)
    S = new_state(G)
    strat = np.zeros(rules[R_PLAYERS], np.int64)
    par = np.zeros((rules[R_PLAYERS], slot_params.shape[1]), np.float64)
    log_n[0] = 0  # a second try (with a larger log) counts from zero again
    play_one(G, S, out, np.int64(0), game, seed, lineups, slot_strategy, slot_params, strat, par, (log, log_n), None)


# ---------------------------------------------------------------- search players (simbalance/players)


@njit(cache=True, _nrt=False)
def search_option(G, S, strat, par, seed, game, decision, scratch):
    """The option the search seat to move takes (players/search_nb.search with this game's steps)."""
    return search(to_move, legal_options, apply_option, play_out, determinize, outcome, evaluate, features, policy,
                  observe, G, S, strat, par, seed, game, decision, scratch)


@njit(cache=True, nogil=True)
def record_positions(ctx, state, block, out):
    """``simbalance fit-eval``'s recording kernel (players/fit_eval_nb.record_positions) with this
    game's steps named once: numba caches this call, not the generic kernel called from Python."""
    generic_record_positions(start, to_move, play_out, outcome, evaluate, features, ctx, state, block, out)


@njit(cache=True)
def new_search_scratch(G, slot_strategy, slot_params, weights):
    """The search players' scratch for a block (players/common_nb.new_search)."""
    n_options = max(G.card.shape[1], G.move_to.shape[0]) + 1  # max_options
    return new_search(G, new_state, n_options, G.rules[R_PLAYERS], slot_params.shape[1],
                      search_capacity(slot_strategy, slot_params), weights)


@njit(cache=True)
def play_searched(G, S, seed, game, strat, par, scratch, log):
    """The game on from a search seat's decision: the search picks, the strategies play on to the
    next search decision, until the end. With validation, an option the decision does not list
    ends the game as invalid."""
    options = scratch[3]
    decision = 0
    while S.ctr[C_TO_MOVE] >= 0:
        option = search_option(G, S, strat, par, seed, game, np.int64(decision), scratch)
        decision += 1
        if G.validate and not is_legal(legal_options, G, S, options, option):
            game_over(G, S, np.int64(RESULT_INVALID))
            return
        resolve(G, S, option, log)
        play_out(G, S, strat, par, np.int64(-1), log)


@njit(cache=True, inline="always")
def play_search_games(G, S, out, lo, hi, first_game, seed, lineups, slot_strategy, slot_params, strat, par, scratch):
    """``play_games`` with search players (with reference counting: the search's scratch is a
    tuple of arrays handed down at every decision). Inlined into search_kernel: as a function of
    its own, its compile optimized the whole search's machine code once more (numba optimizes
    each compiled function with every function it calls linked in), 12 of aquaman's 88 CPU s of
    compiling search_kernel (docs/architecture.md, "Tests")."""
    for i in range(lo, hi):
        play_one(G, S, out, i, first_game + i, seed, lineups, slot_strategy, slot_params, strat, par, None, scratch)


@njit(cache=True, nogil=True)
def search_kernel(out, lo, hi, first_game, seed, lineups, slot_strategy, slot_params, rules, card, move_to, adj,
                  validate, weights):
    """``kernel`` for a run with search players (compiled only when one is seated: the search adds
    to the cold compile)."""
    G = Game(rules, card, move_to, adj, validate)
    players = rules[R_PLAYERS]
    S = new_state(G)
    strat = np.zeros(players, np.int64)
    par = np.zeros((players, slot_params.shape[1]), np.float64)
    play_search_games(G, S, out, lo, hi, first_game, seed, lineups, slot_strategy, slot_params, strat, par,
                      new_search_scratch(G, slot_strategy, slot_params, weights))


@njit(cache=True)
def trace_search_game(out, game, seed, lineups, slot_strategy, slot_params, rules, card, move_to, adj, validate, log,
                      log_n, weights):
    """``trace_game`` for a run with search players."""
    G = Game(rules, card, move_to, adj, validate)
    S = new_state(G)
    strat = np.zeros(rules[R_PLAYERS], np.int64)
    par = np.zeros((rules[R_PLAYERS], slot_params.shape[1]), np.float64)
    log_n[0] = 0
    play_one(G, S, out, np.int64(0), game, seed, lineups, slot_strategy, slot_params, strat, par, (log, log_n),
             new_search_scratch(G, slot_strategy, slot_params, weights))


def context(rules, card, move_to, adj, validate):
    """The game's read-only arrays (``Resumable.context``) from ``engine.prepare``'s output."""
    return Game(rules, card, move_to, adj, np.bool_(validate))


def max_options(G) -> int:
    """The most options a decision can have: a hand slot for every card and no power, or every
    square."""
    return max(G.card.shape[1], G.move_to.shape[0]) + 1

