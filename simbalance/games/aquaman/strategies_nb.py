"""Every decision of aquaman, one jitted function per decision, branching on the strategy id.

``random`` (S_RANDOM) is uniform at each step:

- power phase: uniform over "no power" and each card in hand (n+1 options); then, by power: Companion
  keeps a uniform one of the seen cards that are lower (none if none is), Plot a uniform legal target,
  Foe a uniform adjacent opponent, Power discards each eligible card on a fair coin, Strangeness a
  uniform eligible adjacent card;
- swim: a uniform order of the dice, then for each leg a uniform legal direction;
- fights: a uniform opponent when several share the square, a uniform card to reveal, a uniform card
  to steal;
- mission: when one is possible, a fair coin to play it, then (if a mission needs fewer suits than
  exist) uniform suits one at a time, and a uniform card of each chosen suit;
- rest: each excess discard uniform.

The heuristics ``runner`` (S_RUNNER) and ``raider`` (S_RAIDER) share one evaluator and differ in
parameters (configs/aquaman.toml, order in ``enums.HEURISTIC_PARAM_NAMES``):

- a card *gained* is worth ``need`` if its suit is missing from the hand, else ``spare``, plus
  ``rank * rank/ranks``; a card *held* is worth ``need`` if it is the only one of its suit, else
  ``spare``, plus the same rank term;
- swim: the reachable square of highest value: its card's gain, or for a square with opponents
  ``fight + edge * (2 * best_rank/ranks - 1)``;
- power: the card whose power's estimated gain minus the card's held value is highest, used when
  that exceeds ``power_bar`` (estimates below in ``_power_gain``; ``foe`` values a Foe hit,
  ``swim_reach`` is how many board cards a normal swim is assumed to choose from);
- fight card: the highest ``fight_card * rank/ranks - held_value/need``; steal: the highest gain
  plus ``deny`` if it is the loser's only card of its suit; opponent: ``deny * missions + cards``;
- mission: always, with the lowest card of each suit (most-held suits first); rest: discard the
  card of lowest held value.

The runner hunts missing suits and avoids fights (fight < 0); the raider seeks fights with high
cards, reveals high, steals what the loser needs and uses Foe.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simbalance.core.rng import randint, shuffle, uniform
from simbalance.games.aquaman.enums import (
    AQUAMAN, C_DECK, C_DISC, COMPANION, FOE, LOCATION, P_DENY, P_EDGE, P_FIGHT, P_FIGHT_CARD, P_FOE,
    P_NEED, P_POWER_BAR, P_RANK, P_SPARE, P_SWIM_REACH, PLOT, POWER, R_AQUAMAN_DRAW, R_COMPANION_LOOK,
    R_DISCARD_AFTER, R_MISSION_SUITS, R_NDICE, R_NSUITS, R_PLAYERS, R_RANKS, S_RANDOM, SEA_CREATURE,
    STRANGENESS,
)
from simbalance.games.aquaman.state_nb import best_rank, pawns_at, reachable

# ---------------------------------------------------------------- values shared by the heuristics


@njit(cache=True, inline="always")
def card_gain(G, S, seat, card, par):
    """What taking ``card`` into ``seat``'s hand is worth."""
    v = par[P_NEED] if S.suit_cnt[seat, G.card_suit[card]] == 0 else par[P_SPARE]
    return v + par[P_RANK] * G.card_rank[card] / G.rules[R_RANKS]


@njit(cache=True, inline="always")
def held_value(G, S, seat, card, par):
    """What keeping ``card`` (in ``seat``'s hand) is worth."""
    v = par[P_NEED] if S.suit_cnt[seat, G.card_suit[card]] == 1 else par[P_SPARE]
    return v + par[P_RANK] * G.card_rank[card] / G.rules[R_RANKS]


@njit(cache=True, inline="always")
def _missing_share(G, S, seat):
    n = G.rules[R_NSUITS]
    missing = 0
    for s in range(n):
        if S.suit_cnt[seat, s] == 0:
            missing += 1
    return missing / n


@njit(cache=True, inline="always")
def unknown_card_value(G, S, seat, par):
    """The expected gain of an unseen card."""
    pm = _missing_share(G, S, seat)
    return pm * par[P_NEED] + (1.0 - pm) * par[P_SPARE] + par[P_RANK] * 0.5


@njit(cache=True, inline="always")
def _argmax_or_none(best, best_v, cand, v):
    if best < 0 or v > best_v:
        return cand, v
    return best, best_v


# ---------------------------------------------------------------- power phase


@njit(cache=True)
def plot_targets(G, S, rank):
    """Legal Plot squares into ``S.cand``: no pawn on it, a card lower than ``rank``. Returns count."""
    players = G.rules[R_PLAYERS]
    n = 0
    for cell in range(S.board.shape[0]):
        c = S.board[cell]
        if c >= 0 and G.card_rank[c] < rank and pawns_at(S, cell, players, -1) == 0:
            S.cand[n] = cell
            n += 1
    return n


@njit(cache=True)
def strangeness_targets(G, S, seat, rank):
    """Adjacent squares whose card is lower than ``rank``, into ``S.cand``. Returns count."""
    n = 0
    here = S.pos[seat]
    for k in range(G.adj.shape[1]):
        cell = G.adj[here, k]
        if cell < 0:
            break
        c = S.board[cell]
        if c >= 0 and G.card_rank[c] < rank:
            S.cand[n] = cell
            n += 1
    return n


@njit(cache=True)
def foe_targets(G, S, seat):
    """Opponents on a square adjacent to ``seat``'s pawn, into ``S.cand``. Returns count."""
    n = 0
    here = S.pos[seat]
    for o in range(G.rules[R_PLAYERS]):
        if o == seat:
            continue
        for k in range(G.adj.shape[1]):
            cell = G.adj[here, k]
            if cell < 0:
                break
            if S.pos[o] == cell:
                S.cand[n] = o
                n += 1
                break
    return n


@njit(cache=True)
def _best_cell(G, S, seat, par, n):
    best, best_v = -1, 0.0
    for j in range(n):
        cell = S.cand[j]
        best, best_v = _argmax_or_none(best, best_v, cell, card_gain(G, S, seat, S.board[cell], par))
    return best, best_v


@njit(cache=True)
def _power_gain(G, S, seat, par, power, rank):
    """The heuristics' estimate of what activating ``power`` at ``rank`` brings (before its cost)."""
    ranks = G.rules[R_RANKS]
    e = unknown_card_value(G, S, seat, par)
    if power == AQUAMAN:
        # a third card when the drawn ranks sum below `rank`: P(a + b < r) = (r-1)(r-2) / (2 R^2)
        p3 = (rank - 1) * (rank - 2) / (2.0 * ranks * ranks)
        return e * (G.rules[R_AQUAMAN_DRAW] + p3)
    if power == COMPANION:
        q = (rank - 1) / ranks
        look = G.rules[R_COMPANION_LOOK]
        p_any = 1.0 - (1.0 - q) ** look
        pm = _missing_share(G, S, seat)
        pm_any = 1.0 - (1.0 - pm) ** (look * q + 1e-9)
        return p_any * (pm_any * par[P_NEED] + (1.0 - pm_any) * par[P_SPARE] + par[P_RANK] * q * 0.5)
    if power == SEA_CREATURE:
        if G.rules[R_DISCARD_AFTER] == 0 or S.ctr[C_DISC] == 0:
            return 0.0
        top = S.disc[S.ctr[C_DISC] - 1]
        return card_gain(G, S, seat, top, par) if G.card_rank[top] < rank else 0.0
    if power == PLOT:
        n = plot_targets(G, S, rank)
        if n == 0:
            return 0.0
        best, best_v = _best_cell(G, S, seat, par, n)
        pm = _missing_share(G, S, seat)
        miss = (1.0 - pm) ** par[P_SWIM_REACH]
        swim = (1.0 - miss) * par[P_NEED] + miss * par[P_SPARE] + par[P_RANK] * 0.75
        return best_v - swim
    if power == FOE:
        n = foe_targets(G, S, seat)
        return par[P_FOE] * (rank - 1) / ranks if n > 0 else 0.0
    if power == POWER:
        gain = 0.0
        for i in range(S.hand_n[seat]):
            c = S.hand[seat, i]
            if G.card_rank[c] <= rank and S.suit_cnt[seat, G.card_suit[c]] >= 2:
                v = held_value(G, S, seat, c, par)
                if v < e:
                    gain += e - v
        return gain
    if power == STRANGENESS:
        n = strangeness_targets(G, S, seat, rank)
        if n == 0:
            return 0.0
        best, best_v = _best_cell(G, S, seat, par, n)
        return best_v
    return 0.0  # LOCATION shows cards the heuristics do not remember; NO_POWER does nothing


@njit(cache=True)
def choose_power(G, S, seat, sid, par):
    """The hand slot of the card to activate, or -1 for no power (only asked with enough cards)."""
    n = S.hand_n[seat]
    if sid == S_RANDOM:
        k = randint(S.rng, n + 1)
        return k if k < n else -1
    best, best_v = -1, 0.0
    for i in range(n):
        c = S.hand[seat, i]
        power = G.suit_power[G.card_suit[c]]
        v = _power_gain(G, S, seat, par, power, G.card_rank[c]) - held_value(G, S, seat, c, par)
        best, best_v = _argmax_or_none(best, best_v, i, v)
    if best >= 0 and best_v > par[P_POWER_BAR]:
        return best
    return -1


@njit(cache=True)
def choose_companion_keep(G, S, seat, sid, par, n_seen, rank):
    """Which of the seen cards ``S.buf[:n_seen]`` to keep (lower than ``rank``), or -1 if none is."""
    n_low = 0
    for j in range(n_seen):
        if G.card_rank[S.buf[j]] < rank:
            n_low += 1
    if n_low == 0:
        return -1
    if sid == S_RANDOM:
        pick = randint(S.rng, n_low)
        for j in range(n_seen):
            if G.card_rank[S.buf[j]] < rank:
                if pick == 0:
                    return j
                pick -= 1
    best, best_v = -1, 0.0
    for j in range(n_seen):
        if G.card_rank[S.buf[j]] < rank:
            best, best_v = _argmax_or_none(best, best_v, j, card_gain(G, S, seat, S.buf[j], par))
    return best


@njit(cache=True)
def choose_plot_target(G, S, seat, sid, par, rank):
    """The Plot square (chosen before rolling), or -1 when no square qualifies."""
    n = plot_targets(G, S, rank)
    if n == 0:
        return -1
    if sid == S_RANDOM:
        return S.cand[randint(S.rng, n)]
    best, best_v = _best_cell(G, S, seat, par, n)
    return best


@njit(cache=True)
def _opponent_score(S, o, par):
    return par[P_DENY] * S.missions[o] + S.hand_n[o]


@njit(cache=True)
def choose_foe_target(G, S, seat, sid, par):
    """The adjacent opponent Foe targets, or -1 when none is adjacent."""
    n = foe_targets(G, S, seat)
    if n == 0:
        return -1
    if sid == S_RANDOM:
        return S.cand[randint(S.rng, n)]
    best, best_v = -1, 0.0
    for j in range(n):
        o = S.cand[j]
        best, best_v = _argmax_or_none(best, best_v, o, _opponent_score(S, o, par))
    return best


@njit(cache=True)
def power_discards(G, S, seat, sid, par, card):
    """Power: discard ``card`` (rank already checked to be allowed) for a replacement?"""
    if sid == S_RANDOM:
        return randint(S.rng, 2) == 1
    return (S.suit_cnt[seat, G.card_suit[card]] >= 2
            and held_value(G, S, seat, card, par) < unknown_card_value(G, S, seat, par))


@njit(cache=True)
def choose_strangeness_target(G, S, seat, sid, par, rank):
    """The adjacent square whose card Strangeness takes, or -1 when none qualifies."""
    n = strangeness_targets(G, S, seat, rank)
    if n == 0:
        return -1
    if sid == S_RANDOM:
        return S.cand[randint(S.rng, n)]
    best, best_v = _best_cell(G, S, seat, par, n)
    return best


# ---------------------------------------------------------------- swim


@njit(cache=True)
def random_swim(G, S, start):
    """Uniform order of the dice, then a uniform legal direction per leg (no legal one: skipped)."""
    nd = G.rules[R_NDICE]
    for k in range(nd):
        S.order[k] = k
    shuffle(S.rng, S.order, nd)
    cur = start
    for j in range(nd):
        d = S.dice[S.order[j]]
        legal = 0
        for direction in range(4):
            if G.move_to[cur, d, direction] >= 0:
                legal += 1
        if legal == 0:
            continue
        pick = randint(S.rng, legal)
        for direction in range(4):
            dst = G.move_to[cur, d, direction]
            if dst >= 0:
                if pick == 0:
                    cur = dst
                    break
                pick -= 1
    return cur


@njit(cache=True)
def square_value(G, S, seat, par, cell, top_rank):
    """The heuristics' value of ending the swim on ``cell``."""
    if pawns_at(S, cell, G.rules[R_PLAYERS], seat) > 0:
        return par[P_FIGHT] + par[P_EDGE] * (2.0 * top_rank / G.rules[R_RANKS] - 1.0)
    c = S.board[cell]
    if c < 0:
        return 0.0
    return card_gain(G, S, seat, c, par)


@njit(cache=True)
def choose_swim(G, S, seat, sid, par):
    """Where ``seat``'s pawn ends its swim with the rolled ``S.dice``."""
    start = S.pos[seat]
    if sid == S_RANDOM:
        return random_swim(G, S, start)
    n = reachable(G, S, start)
    full = (1 << G.rules[R_NDICE]) - 1
    top_rank = best_rank(G, S, seat)
    best, best_v = -1, 0.0
    for j in range(n):
        cell = S.reach_list[full, j]
        best, best_v = _argmax_or_none(best, best_v, cell, square_value(G, S, seat, par, cell, top_rank))
    return best


# ---------------------------------------------------------------- fights


@njit(cache=True)
def choose_fight_opponent(G, S, seat, sid, par, cell):
    """Which of the opponents on ``cell`` to fight."""
    players = G.rules[R_PLAYERS]
    n = 0
    for o in range(players):
        if o != seat and S.pos[o] == cell:
            S.cand[n] = o
            n += 1
    if sid == S_RANDOM:
        return S.cand[randint(S.rng, n)]
    best, best_v = -1, 0.0
    for j in range(n):
        o = S.cand[j]
        best, best_v = _argmax_or_none(best, best_v, o, _opponent_score(S, o, par))
    return best


@njit(cache=True)
def choose_fight_card(G, S, seat, sid, par):
    """The hand slot of the card ``seat`` reveals (hand not empty)."""
    n = S.hand_n[seat]
    if sid == S_RANDOM:
        return randint(S.rng, n)
    ranks = G.rules[R_RANKS]
    best, best_v = -1, 0.0
    for i in range(n):
        c = S.hand[seat, i]
        v = par[P_FIGHT_CARD] * G.card_rank[c] / ranks - held_value(G, S, seat, c, par) / par[P_NEED]
        best, best_v = _argmax_or_none(best, best_v, i, v)
    return best


@njit(cache=True)
def choose_steal(G, S, seat, sid, par, loser):
    """The slot in ``loser``'s hand of the card the winner takes (loser's hand not empty)."""
    n = S.hand_n[loser]
    if sid == S_RANDOM:
        return randint(S.rng, n)
    best, best_v = -1, 0.0
    for i in range(n):
        c = S.hand[loser, i]
        v = card_gain(G, S, seat, c, par)
        if S.suit_cnt[loser, G.card_suit[c]] == 1:
            v += par[P_DENY]
        best, best_v = _argmax_or_none(best, best_v, i, v)
    return best


# ---------------------------------------------------------------- mission and rest


@njit(cache=True)
def choose_mission(G, S, seat, sid, par):
    """Play a mission now (asked only when one is possible)?"""
    if sid == S_RANDOM:
        return randint(S.rng, 2) == 1
    return True


@njit(cache=True)
def choose_mission_cards(G, S, seat, sid, par):
    """Fill ``S.buf[:k]`` with the mission's cards, one of each of k = mission_suits held suits."""
    n_suits = G.rules[R_NSUITS]
    k = G.rules[R_MISSION_SUITS]
    # S.cand[:n_suits] marks the chosen suits (1) among the held ones
    for s in range(n_suits):
        S.cand[s] = 0
    for j in range(k):
        if sid == S_RANDOM:
            held = 0
            for s in range(n_suits):
                if S.suit_cnt[seat, s] > 0 and S.cand[s] == 0:
                    held += 1
            pick = randint(S.rng, held)
            for s in range(n_suits):
                if S.suit_cnt[seat, s] > 0 and S.cand[s] == 0:
                    if pick == 0:
                        S.cand[s] = 1
                        break
                    pick -= 1
        else:  # the most-held suit first: the mission costs it least
            best, best_n = -1, 0
            for s in range(n_suits):
                if S.suit_cnt[seat, s] > best_n and S.cand[s] == 0:
                    best, best_n = s, S.suit_cnt[seat, s]
            S.cand[best] = 1
    j = 0
    for s in range(n_suits):
        if S.cand[s] == 0:
            continue
        if sid == S_RANDOM:
            pick = randint(S.rng, S.suit_cnt[seat, s])
            for i in range(S.hand_n[seat]):
                c = S.hand[seat, i]
                if G.card_suit[c] == s:
                    if pick == 0:
                        S.buf[j] = c
                        break
                    pick -= 1
        else:  # the lowest card of the suit: high cards win fights and power stronger
            low, low_r = -1, 1 << 30
            for i in range(S.hand_n[seat]):
                c = S.hand[seat, i]
                if G.card_suit[c] == s and G.card_rank[c] < low_r:
                    low, low_r = c, G.card_rank[c]
            S.buf[j] = low
        j += 1
    return k


@njit(cache=True)
def choose_rest_discard(G, S, seat, sid, par):
    """The hand slot of the next card discarded down to the hand limit."""
    n = S.hand_n[seat]
    if sid == S_RANDOM:
        return randint(S.rng, n)
    best, best_v = -1, 0.0
    for i in range(n):
        v = -held_value(G, S, seat, S.hand[seat, i], par)
        best, best_v = _argmax_or_none(best, best_v, i, v)
    return best
