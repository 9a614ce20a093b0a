"""The rules of aquaman as jitted functions, in the order of a turn (docs/rules/aquaman.md).

Each phase is its own function on (Game, State) so tests can arrange a board, hands and a deck
order by hand and check one rule's exact outcome. Decisions come from ``strategies_nb``; every seat
decides with its own strategy, also outside its turn (its fight card). The phase functions are
inlined into ``play_turn`` (one compiled turn; see state_nb on why calls are kept few), except
``activate`` and ``fight``: they run in at most half of the turns and are large, so compiling them
once (shared by the turn and the tests) saves more compile time than their calls cost.

The replay (engine.replay) plays a game with ``trace_game``, the kernel's own per-game code
(``play_one``) with an event log (``log``, enums.EV_*); the kernel passes None, so numba compiles
every ``if log is not None`` away and the simulated games do not pay for the replay.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simbalance.core.rng import randint, shuffle
from simbalance.games.aquaman.state_nb import (
    AQUAMAN,
    C_DECK,
    C_DICE,
    C_DISC,
    C_STAMP,
    CARD_RANK,
    CARD_SUIT,
    COMPANION,
    EV_ACTIVATE,
    EV_BOARD,
    EV_DEAL,
    EV_DISC,
    EV_DRAW,
    EV_EMPTY,
    EV_FIGHT,
    EV_FIGHT_END,
    EV_FOE,
    EV_KEEP,
    EV_LOCATION,
    EV_MISSION,
    EV_NO_REVEAL,
    EV_PLOT,
    EV_REVEAL,
    EV_SEA,
    EV_SEE,
    EV_STEAL,
    EV_STRANGE,
    EV_TAKE,
    FOE,
    K_BOARD,
    K_BUF,
    K_DECK,
    K_DISC,
    K_HAND,
    LOCATION,
    N_POWERS,
    PLOT,
    POWER,
    R_AQUAMAN_DRAW,
    R_CANNOT_REVEAL,
    R_COMPANION_LOOK,
    R_CORNER,
    R_DISCARD_AFTER,
    R_FACES,
    R_HAND_LIMIT,
    R_MISSION_SUITS,
    R_NDICE,
    R_NSUITS,
    R_PLAYERS,
    R_START_HAND,
    R_SUIT_POWER,
    R_TIES_REPEAT,
    REVEAL_ENDS,
    REVEAL_LOSES,
    SEA_CREATURE,
    ST_FIGHTS,
    ST_FOE_HITS,
    ST_STOLEN,
    ST_TAKEN,
    ST_USE,
    ST_WON,
    STRANGENESS,
    V_HAND_N,
    V_MISSIONS,
    V_POS,
    V_SUIT,
    WHY_ACTIVATED,
    WHY_COMPANION,
    WHY_MISSION,
    WHY_POWER,
    WHY_REST,
    add_card,
    discard,
    draw,
    draw_to_hand,
    log_step,
    pawns_at,
    remove_at,
)
from simbalance.games.aquaman.strategies_nb import (
    choose_companion_keep,
    choose_fight_card,
    choose_fight_opponent,
    choose_foe_target,
    choose_mission_cards,
    choose_plot_target,
    choose_rest_discard,
    choose_steal,
    choose_strangeness_target,
    power_discards,
)

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
    S.cards[:, :] = -1
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
    for _ in range(G.rules[R_START_HAND]):
        for s in range(G.rules[R_PLAYERS]):
            c = draw_to_hand(G, S, s)
            if log is not None:
                log_step(log, S, EV_DEAL, s, c, 0, 0)


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


@njit(cache=True, inline="always")
def power_companion(G, S, seat, sid, par, rank, log=None):
    """Look at the next 4: keep one lower than ``rank`` (none if none is), discard the others."""
    n = 0
    for _ in range(G.rules[R_COMPANION_LOOK]):
        c = draw(G, S)
        if c < 0:
            break
        S.cards[K_BUF, n] = c
        n += 1
        if log is not None:
            log_step(log, S, EV_SEE, seat, c, 0, 0)
    keep = choose_companion_keep(G, S, seat, sid, par, n, rank)
    if log is not None:
        log_step(log, S, EV_KEEP, seat, S.cards[K_BUF, keep] if keep >= 0 else -1, 0, 0)
    for j in range(n):
        if j == keep:
            add_card(G.card, S.cards, S.seat, seat, S.cards[K_BUF, j])
        else:
            discard(S.cards, S.ctr, S.cards[K_BUF, j])
            if log is not None:
                log_step(log, S, EV_DISC, seat, S.cards[K_BUF, j], WHY_COMPANION, 0)


@njit(cache=True, inline="always")
def power_sea_creature(G, S, seat, rank, log=None):
    """Take the top card of the discard pile if it is lower than ``rank``."""
    if S.ctr[C_DISC] > 0:
        top = S.cards[K_DISC, S.ctr[C_DISC] - 1]
        taken = G.card[CARD_RANK, top] < rank
        if taken:
            S.ctr[C_DISC] -= 1
            add_card(G.card, S.cards, S.seat, seat, top)
        if log is not None:
            log_step(log, S, EV_SEA, seat, top, 1 if taken else 0, 0)
    elif log is not None:
        log_step(log, S, EV_SEA, seat, -1, 0, 0)


@njit(cache=True, inline="always")
def power_foe(G, S, seat, sid, par, rank, log=None):
    """An adjacent opponent reveals a random card; lower than ``rank``: it is discarded."""
    target = choose_foe_target(G, S, seat, sid, par)
    if target < 0 or S.seat[target, V_HAND_N] == 0:
        if log is not None:
            log_step(log, S, EV_FOE, seat, target, -1, 0)
        return
    i = randint(S.rng, S.seat[target, V_HAND_N])
    hit = G.card[CARD_RANK, S.cards[K_HAND + target, i]] < rank
    if log is not None:
        log_step(log, S, EV_FOE, seat, target, S.cards[K_HAND + target, i], 1 if hit else 0)
    if hit:
        discard(S.cards, S.ctr, remove_at(G.card, S.cards, S.seat, target, i))
        S.seat[seat, ST_FOE_HITS] += 1


@njit(cache=True, inline="always")
def power_power(G, S, seat, sid, par, rank, log=None):
    """Discard any cards not higher than ``rank`` (the player chooses), then draw as many."""
    x = 0
    # downwards: removing slot i moves the last card, already decided, into it
    for i in range(S.seat[seat, V_HAND_N] - 1, -1, -1):
        c = S.cards[K_HAND + seat, i]
        if G.card[CARD_RANK, c] <= rank and power_discards(G, S, seat, sid, par, c):
            discard(S.cards, S.ctr, remove_at(G.card, S.cards, S.seat, seat, i))
            x += 1
            if log is not None:
                log_step(log, S, EV_DISC, seat, c, WHY_POWER, 0)
    for _ in range(x):
        c = draw_to_hand(G, S, seat)
        if log is not None:
            log_step(log, S, EV_DRAW, seat, c, S.ctr[C_DECK], 0)


@njit(cache=True, inline="always")
def power_strangeness(G, S, seat, sid, par, rank, log=None):
    """Take an adjacent board card lower than ``rank``; refill its square from the deck."""
    cell = choose_strangeness_target(G, S, seat, sid, par, rank)
    if cell < 0:
        if log is not None:
            log_step(log, S, EV_STRANGE, seat, -1, -1, -1)
        return
    taken = S.cards[K_BOARD, cell]
    add_card(G.card, S.cards, S.seat, seat, taken)
    S.cards[K_BOARD, cell] = draw(G, S)
    if log is not None:
        log_step(log, S, EV_STRANGE, seat, cell, taken, S.cards[K_BOARD, cell])


@njit(cache=True, inline="always")
def location_shows(G, S, rank):
    """Location shows the next min(rank, deck size) cards, never reshuffling; nothing moves."""
    return min(rank, S.ctr[C_DECK])


@njit(cache=True)
def activate(G, S, seat, sid, par, i, log=None):
    """Discard hand slot ``i`` to use its suit's power. Returns the Plot target square or -1.

    By default the activated card reaches the discard pile after its power resolves (so Sea
    Creature takes the card that was on top before); rules.activated_card = "before" discards it
    first.
    """
    card = remove_at(G.card, S.cards, S.seat, seat, i)
    rank = np.int64(G.card[CARD_RANK, card])
    power = G.rules[R_SUIT_POWER + G.card[CARD_SUIT, card]]
    after = G.rules[R_DISCARD_AFTER] != 0
    if log is not None:
        log_step(log, S, EV_ACTIVATE, seat, card, power, 0)
    if not after:
        discard(S.cards, S.ctr, card)
        if log is not None:
            log_step(log, S, EV_DISC, seat, card, WHY_ACTIVATED, 0)
    if power < N_POWERS:
        S.seat[seat, ST_USE + power] += 1
    target = -1
    if power == AQUAMAN:
        power_aquaman(G, S, seat, rank, log)
    elif power == COMPANION:
        power_companion(G, S, seat, sid, par, rank, log)
    elif power == SEA_CREATURE:
        power_sea_creature(G, S, seat, rank, log)
    elif power == PLOT:
        target = choose_plot_target(G, S, seat, sid, par, rank)
        if log is not None:
            log_step(log, S, EV_PLOT, seat, target, 0, 0)
    elif power == FOE:
        power_foe(G, S, seat, sid, par, rank, log)
    elif power == POWER:
        power_power(G, S, seat, sid, par, rank, log)
    elif power == STRANGENESS:
        power_strangeness(G, S, seat, sid, par, rank, log)
    elif power == LOCATION:
        shown = location_shows(G, S, rank)
        if log is not None:
            for j in range(shown):
                log_step(log, S, EV_LOCATION, seat, S.cards[K_DECK, S.ctr[C_DECK] - 1 - j], j, shown)
    if after:
        discard(S.cards, S.ctr, card)
        if log is not None:
            log_step(log, S, EV_DISC, seat, card, WHY_ACTIVATED, 0)
    return target


# ---------------------------------------------------------------- 2. swim


@njit(cache=True, inline="always")
def roll(G, S):
    for k in range(G.rules[R_NDICE]):
        S.ctr[C_DICE + k] = 1 + randint(S.rng, G.rules[R_FACES])


# ---------------------------------------------------------------- 3. action


@njit(cache=True, inline="always")
def _reveal(G, S, seat, strat, par):
    """``seat`` reveals (and discards) a card of its choice; -1 if its hand is empty."""
    if S.seat[seat, V_HAND_N] == 0:
        return -1
    c = remove_at(G.card, S.cards, S.seat, seat, choose_fight_card(G, S, seat, strat[seat], par[seat]))
    discard(S.cards, S.ctr, c)
    return c


@njit(cache=True)
def fight(G, S, a, b, strat, par, log=None):
    """``a`` fights ``b``. Returns the winner or -1. Revealed cards are discarded; the winner steals.

    Both choose their card at once (a choice depends only on the chooser's own hand). High rank
    wins; a tie makes both reveal again (once only with rules.fight_ties = "once"). When one of them
    has no card to reveal (hand sizes are public), by default the fight ends before the reveal:
    nobody reveals, nobody wins (also after a tie). With rules.cannot_reveal = "loses" the other
    reveals and the one who cannot loses; with "draws" the other reveals and nobody wins. If
    neither can reveal, nobody wins.
    """
    S.seat[a, ST_FIGHTS] += 1
    S.seat[b, ST_FIGHTS] += 1
    if log is not None:
        log_step(log, S, EV_FIGHT, a, b, 0, 0)
    winner = -1
    reveals = 0
    ends = G.rules[R_CANNOT_REVEAL] == REVEAL_ENDS
    while True:
        if ends and (S.seat[a, V_HAND_N] == 0 or S.seat[b, V_HAND_N] == 0):
            if log is not None:
                log_step(log, S, EV_NO_REVEAL, a, S.seat[a, V_HAND_N], b, S.seat[b, V_HAND_N])
            break
        ca = _reveal(G, S, a, strat, par)
        cb = _reveal(G, S, b, strat, par)
        reveals += 1
        if log is not None:
            log_step(log, S, EV_REVEAL, a, ca, b, cb)
        if ca < 0 and cb < 0:
            break
        if ca < 0 or cb < 0:
            if G.rules[R_CANNOT_REVEAL] == REVEAL_LOSES:
                winner = b if ca < 0 else a
            break
        ra = G.card[CARD_RANK, ca]
        rb = G.card[CARD_RANK, cb]
        if ra != rb:
            winner = a if ra > rb else b
            break
        if G.rules[R_TIES_REPEAT] == 0 and reveals >= 2:
            break
    if winner >= 0:
        loser = b if winner == a else a
        S.seat[winner, ST_WON] += 1
        if S.seat[loser, V_HAND_N] > 0:
            j = choose_steal(G, S, winner, strat[winner], par[winner], loser)
            c = remove_at(G.card, S.cards, S.seat, loser, j)
            add_card(G.card, S.cards, S.seat, winner, c)
            S.seat[winner, ST_STOLEN] += 1
            if log is not None:
                log_step(log, S, EV_STEAL, winner, loser, c, 0)
    if log is not None:
        log_step(log, S, EV_FIGHT_END, a, b, winner, reveals)
    return winner


@njit(cache=True, inline="always")
def land(G, S, seat, strat, par, log=None):
    """The pawn lands on its square: fight an opponent there, else take the card and refill."""
    cell = S.seat[seat, V_POS]
    if pawns_at(S.seat, cell, G.rules[R_PLAYERS], seat) > 0:
        opp = choose_fight_opponent(G, S, seat, strat[seat], par[seat], cell)
        fight(G, S, seat, opp, strat, par, log)
        return
    c = S.cards[K_BOARD, cell]
    if c >= 0:
        add_card(G.card, S.cards, S.seat, seat, c)
        S.seat[seat, ST_TAKEN] += 1
        S.cards[K_BOARD, cell] = draw(G, S)
        if log is not None:
            log_step(log, S, EV_TAKE, seat, cell, c, S.cards[K_BOARD, cell])
    elif log is not None:
        log_step(log, S, EV_EMPTY, seat, cell, 0, 0)


# ---------------------------------------------------------------- 4. mission


@njit(cache=True, inline="always")
def can_mission(G, S, seat):
    held = 0
    for s in range(G.rules[R_NSUITS]):
        if S.seat[seat, V_SUIT + s] > 0:
            held += 1
    return held >= G.rules[R_MISSION_SUITS]


@njit(cache=True, inline="always")
def play_mission(G, S, seat, sid, par, log=None):
    """Discard one card of each of the mission's suits (the strategy picks which)."""
    k = choose_mission_cards(G, S, seat, sid, par)
    for j in range(k):
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


# ---------------------------------------------------------------- 5. rest


@njit(cache=True, inline="always")
def rest(G, S, seat, sid, par, log=None):
    """Discard down to the hand limit."""
    while S.seat[seat, V_HAND_N] > G.rules[R_HAND_LIMIT]:
        c = remove_at(G.card, S.cards, S.seat, seat, choose_rest_discard(G, S, seat, sid, par))
        discard(S.cards, S.ctr, c)
        if log is not None:
            log_step(log, S, EV_DISC, seat, c, WHY_REST, 0)
