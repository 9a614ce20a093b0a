"""The rules of aquaman as jitted functions, in the order of a turn (docs/rules/aquaman.md).

Each phase is its own function on (Game, State) so tests can arrange a board, hands and a deck
order by hand and check one rule's exact outcome. Decisions come from ``strategies_nb``; every seat
decides with its own strategy, also outside its turn (fight cards, and nothing else is asked of an
opponent).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from simbalance.core.kernel import block_bounds, n_blocks
from simbalance.core.records import END_TIMEOUT, END_WIN
from simbalance.core.rng import randint, seed_game, shuffle
from simbalance.games.aquaman.enums import (
    AQUAMAN, C_DECK, C_DISC, C_REFILLS, C_TURN, COMPANION, FOE, LOCATION, PLOT, POWER, R_AQUAMAN_DRAW,
    R_COLS, R_COMPANION_LOOK, R_DISCARD_AFTER, R_EMPTY_LOSES, R_FACES, R_HAND_LIMIT, R_MISSION_SUITS,
    R_MISSIONS_PER_TURN, R_MISSIONS_TO_WIN, R_NDICE, R_NSUITS, R_PLAYERS, R_POWER_MIN, R_ROWS,
    R_START_HAND, R_TIES_REPEAT, R_TURN_CAP, SEA_CREATURE, ST_FIGHTS, ST_FOE_HITS, ST_STOLEN, ST_TAKEN,
    ST_USE, ST_WON, STRANGENESS,
)
from simbalance.games.aquaman.state_nb import (
    Game, add_card, discard, draw, draw_to_hand, new_state, pawns_at, remove_at,
)
from simbalance.games.aquaman.strategies_nb import (
    choose_companion_keep, choose_fight_card, choose_fight_opponent, choose_foe_target, choose_mission,
    choose_mission_cards, choose_plot_target, choose_power, choose_rest_discard, choose_steal,
    choose_strangeness_target, choose_swim, power_discards,
)

# ---------------------------------------------------------------- set-up


@njit(cache=True)
def reset(G, S):
    """Empty every place: no cards anywhere, pawns in their corners, counters at zero."""
    S.ctr[:] = 0
    S.board[:] = -1
    S.hand_n[:] = 0
    S.suit_cnt[:, :] = 0
    S.missions[:] = 0
    S.stats[:, :] = 0
    for s in range(G.rules[R_PLAYERS]):
        S.pos[s] = G.corners[s]


@njit(cache=True)
def setup_game(G, S):
    """Shuffle the deck, deal one card face up on every square, pawns to corners, deal hands."""
    reset(G, S)
    n_cards = G.card_suit.shape[0]
    for c in range(n_cards):
        S.deck[c] = c
    shuffle(S.rng, S.deck, n_cards)
    S.ctr[C_DECK] = n_cards
    for cell in range(S.board.shape[0]):
        S.board[cell] = draw(G, S)
    for _ in range(G.rules[R_START_HAND]):
        for s in range(G.rules[R_PLAYERS]):
            draw_to_hand(G, S, s)


# ---------------------------------------------------------------- 1. power phase


@njit(cache=True)
def power_aquaman(G, S, seat, rank):
    """Draw 2; if their ranks sum below ``rank``, draw a third."""
    total = 0
    for _ in range(G.rules[R_AQUAMAN_DRAW]):
        c = draw_to_hand(G, S, seat)
        if c >= 0:
            total += G.card_rank[c]
    if total < rank:
        draw_to_hand(G, S, seat)


@njit(cache=True)
def power_companion(G, S, seat, sid, par, rank):
    """Look at the next 4: keep one lower than ``rank`` (none if none is), discard the others."""
    n = 0
    for _ in range(G.rules[R_COMPANION_LOOK]):
        c = draw(G, S)
        if c < 0:
            break
        S.buf[n] = c
        n += 1
    keep = choose_companion_keep(G, S, seat, sid, par, n, rank)
    for j in range(n):
        if j == keep:
            add_card(G, S, seat, S.buf[j])
        else:
            discard(S, S.buf[j])


@njit(cache=True)
def power_sea_creature(G, S, seat, rank):
    """Take the top card of the discard pile if it is lower than ``rank``."""
    if S.ctr[C_DISC] > 0:
        top = S.disc[S.ctr[C_DISC] - 1]
        if G.card_rank[top] < rank:
            S.ctr[C_DISC] -= 1
            add_card(G, S, seat, top)


@njit(cache=True)
def power_foe(G, S, seat, sid, par, rank):
    """An adjacent opponent reveals a random card; lower than ``rank``: it is discarded."""
    target = choose_foe_target(G, S, seat, sid, par)
    if target < 0 or S.hand_n[target] == 0:
        return
    i = randint(S.rng, S.hand_n[target])
    if G.card_rank[S.hand[target, i]] < rank:
        discard(S, remove_at(G, S, target, i))
        S.stats[seat, ST_FOE_HITS] += 1


@njit(cache=True)
def power_power(G, S, seat, sid, par, rank):
    """Discard any cards not higher than ``rank`` (the player chooses), then draw as many."""
    x = 0
    # downwards: removing slot i moves the last card, already decided, into it
    for i in range(S.hand_n[seat] - 1, -1, -1):
        c = S.hand[seat, i]
        if G.card_rank[c] <= rank and power_discards(G, S, seat, sid, par, c):
            discard(S, remove_at(G, S, seat, i))
            x += 1
    for _ in range(x):
        draw_to_hand(G, S, seat)


@njit(cache=True)
def power_strangeness(G, S, seat, sid, par, rank):
    """Take an adjacent board card lower than ``rank``; refill its square from the deck."""
    cell = choose_strangeness_target(G, S, seat, sid, par, rank)
    if cell < 0:
        return
    add_card(G, S, seat, S.board[cell])
    S.board[cell] = draw(G, S)


@njit(cache=True)
def location_shows(G, S, rank):
    """Location shows the next min(rank, deck size) cards, never reshuffling; nothing moves."""
    return min(rank, S.ctr[C_DECK])


@njit(cache=True)
def activate(G, S, seat, sid, par, i):
    """Discard hand slot ``i`` to use its suit's power. Returns the Plot target square or -1.

    By default the activated card reaches the discard pile after its power resolves (so Sea
    Creature takes the card that was on top before); rules.activated_card = "before" discards it
    first.
    """
    card = remove_at(G, S, seat, i)
    rank = G.card_rank[card]
    power = G.suit_power[G.card_suit[card]]
    after = G.rules[R_DISCARD_AFTER] != 0
    if not after:
        discard(S, card)
    if power < 8:
        S.stats[seat, ST_USE + power] += 1
    target = -1
    if power == AQUAMAN:
        power_aquaman(G, S, seat, rank)
    elif power == COMPANION:
        power_companion(G, S, seat, sid, par, rank)
    elif power == SEA_CREATURE:
        power_sea_creature(G, S, seat, rank)
    elif power == PLOT:
        target = choose_plot_target(G, S, seat, sid, par, rank)
    elif power == FOE:
        power_foe(G, S, seat, sid, par, rank)
    elif power == POWER:
        power_power(G, S, seat, sid, par, rank)
    elif power == STRANGENESS:
        power_strangeness(G, S, seat, sid, par, rank)
    elif power == LOCATION:
        location_shows(G, S, rank)
    if after:
        discard(S, card)
    return target


# ---------------------------------------------------------------- 2. swim


@njit(cache=True)
def roll(G, S):
    for k in range(G.rules[R_NDICE]):
        S.dice[k] = 1 + randint(S.rng, G.rules[R_FACES])


# ---------------------------------------------------------------- 3. action


@njit(cache=True)
def fight(G, S, a, b, strat, par):
    """``a`` fights ``b``. Returns the winner or -1. Revealed cards are discarded; the winner steals.

    Both choose their card at once (a choice depends only on the chooser's own hand). High rank
    wins; a tie makes both reveal again (once only with rules.fight_ties = "once"). A player who
    cannot reveal loses (with rules.cannot_reveal = "draws", nobody wins); if neither can, nobody
    wins.
    """
    S.stats[a, ST_FIGHTS] += 1
    S.stats[b, ST_FIGHTS] += 1
    winner = -1
    reveals = 0
    while True:
        ca = -1
        cb = -1
        if S.hand_n[a] > 0:
            ca = remove_at(G, S, a, choose_fight_card(G, S, a, strat[a], par[a]))
            discard(S, ca)
        if S.hand_n[b] > 0:
            cb = remove_at(G, S, b, choose_fight_card(G, S, b, strat[b], par[b]))
            discard(S, cb)
        reveals += 1
        if ca < 0 and cb < 0:
            break
        if ca < 0 or cb < 0:
            if G.rules[R_EMPTY_LOSES] != 0:
                winner = b if ca < 0 else a
            break
        ra = G.card_rank[ca]
        rb = G.card_rank[cb]
        if ra != rb:
            winner = a if ra > rb else b
            break
        if G.rules[R_TIES_REPEAT] == 0 and reveals >= 2:
            break
    if winner >= 0:
        loser = b if winner == a else a
        S.stats[winner, ST_WON] += 1
        if S.hand_n[loser] > 0:
            j = choose_steal(G, S, winner, strat[winner], par[winner], loser)
            add_card(G, S, winner, remove_at(G, S, loser, j))
            S.stats[winner, ST_STOLEN] += 1
    return winner


@njit(cache=True)
def land(G, S, seat, strat, par):
    """The pawn lands on its square: fight an opponent there, else take the card and refill."""
    cell = S.pos[seat]
    if pawns_at(S, cell, G.rules[R_PLAYERS], seat) > 0:
        opp = choose_fight_opponent(G, S, seat, strat[seat], par[seat], cell)
        fight(G, S, seat, opp, strat, par)
        return
    c = S.board[cell]
    if c >= 0:
        add_card(G, S, seat, c)
        S.stats[seat, ST_TAKEN] += 1
        S.board[cell] = draw(G, S)


# ---------------------------------------------------------------- 4. mission


@njit(cache=True)
def can_mission(G, S, seat):
    held = 0
    for s in range(G.rules[R_NSUITS]):
        if S.suit_cnt[seat, s] > 0:
            held += 1
    return held >= G.rules[R_MISSION_SUITS]


@njit(cache=True)
def play_mission(G, S, seat, sid, par):
    """Discard one card of each of the mission's suits (the strategy picks which)."""
    k = choose_mission_cards(G, S, seat, sid, par)
    for j in range(k):
        c = S.buf[j]
        for i in range(S.hand_n[seat]):
            if S.hand[seat, i] == c:
                discard(S, remove_at(G, S, seat, i))
                break
    S.missions[seat] += 1


# ---------------------------------------------------------------- a whole turn


@njit(cache=True)
def rest(G, S, seat, sid, par):
    """Discard down to the hand limit."""
    while S.hand_n[seat] > G.rules[R_HAND_LIMIT]:
        discard(S, remove_at(G, S, seat, choose_rest_discard(G, S, seat, sid, par)))


@njit(cache=True)
def play_turn(G, S, seat, strat, par):
    """One turn of ``seat``'s five phases. Returns True when the seat has won."""
    sid = strat[seat]
    p = par[seat]
    # 1. power
    plot = -1
    if S.hand_n[seat] >= G.rules[R_POWER_MIN]:
        i = choose_power(G, S, seat, sid, p)
        if i >= 0:
            plot = activate(G, S, seat, sid, p, i)
    # 2. swim (a Plot target replaces the roll)
    if plot >= 0:
        S.pos[seat] = plot
    else:
        roll(G, S)
        S.pos[seat] = choose_swim(G, S, seat, sid, p)
    # 3. action
    land(G, S, seat, strat, par)
    # 4. mission
    for _ in range(G.rules[R_MISSIONS_PER_TURN]):
        if not can_mission(G, S, seat) or not choose_mission(G, S, seat, sid, p):
            break
        play_mission(G, S, seat, sid, p)
        if S.missions[seat] >= G.rules[R_MISSIONS_TO_WIN]:
            return True
    # 5. rest
    rest(G, S, seat, sid, p)
    return False


@njit(cache=True)
def play_game(G, S, strat, par):
    """Play from a set-up position until a win or the turn cap. Returns the winner or -1."""
    players = G.rules[R_PLAYERS]
    cap = G.rules[R_TURN_CAP]
    seat = 0
    while S.ctr[C_TURN] < cap:
        S.ctr[C_TURN] += 1
        if play_turn(G, S, seat, strat, par):
            return seat
        seat = (seat + 1) % players
    return -1


@njit(cache=True)
def write_record(G, S, out, i, winner):
    players = G.rules[R_PLAYERS]
    out[i].length = S.ctr[C_TURN]
    out[i].refills = S.ctr[C_REFILLS]
    if winner >= 0:
        out[i].end = END_WIN
        out[i].winner = winner
        out[i].winners = np.uint8(1) << np.uint8(winner)
    else:
        out[i].end = END_TIMEOUT
        out[i].winner = -1
        out[i].winners = 0
    for s in range(players):
        out[i].missions[s] = S.missions[s]
        out[i].hand_end[s] = S.hand_n[s]
        out[i].fights[s] = S.stats[s, ST_FIGHTS]
        out[i].fights_won[s] = S.stats[s, ST_WON]
        out[i].stolen[s] = S.stats[s, ST_STOLEN]
        out[i].taken[s] = S.stats[s, ST_TAKEN]
        out[i].foe_hits[s] = S.stats[s, ST_FOE_HITS]
        out[i].use_aquaman[s] = S.stats[s, ST_USE + 0]
        out[i].use_companion[s] = S.stats[s, ST_USE + 1]
        out[i].use_sea_creature[s] = S.stats[s, ST_USE + 2]
        out[i].use_plot[s] = S.stats[s, ST_USE + 3]
        out[i].use_foe[s] = S.stats[s, ST_USE + 4]
        out[i].use_power[s] = S.stats[s, ST_USE + 5]
        out[i].use_strangeness[s] = S.stats[s, ST_USE + 6]
        out[i].use_location[s] = S.stats[s, ST_USE + 7]


@njit(cache=True, parallel=True)
def kernel(out, first_game, seed, lineups, slot_strategy, slot_params, rules, card_suit, card_rank, suit_power,
           move_to, adj, corners):
    G = Game(rules, card_suit, card_rank, suit_power, move_to, adj, corners)
    players = rules[R_PLAYERS]
    n = out.shape[0]
    blocks = n_blocks(n)
    for b in prange(blocks):
        lo, hi = block_bounds(n, blocks, b)
        S = new_state(rules, card_suit.shape[0])
        strat = np.zeros(players, np.int64)
        par = np.zeros((players, slot_params.shape[1]), np.float64)
        for i in range(lo, hi):
            game = first_game + i
            seed_game(S.rng, seed, game)
            out[i].game = game
            lineup = lineups[game % lineups.shape[0]]
            for s in range(players):
                out[i].strategy[s] = lineup[s]
                strat[s] = slot_strategy[lineup[s]]
                par[s, :] = slot_params[lineup[s], :]
            setup_game(G, S)
            winner = play_game(G, S, strat, par)
            write_record(G, S, out, i, winner)
