"""Every decision of aquaman, one jitted function per decision, branching on the strategy id;
``decide`` answers the pending decision of a game (play_nb.play_out asks it). ``decide``, the swim,
whether to play a mission and the rest discards are inlined into the game loop; the other answers
are compiled once as functions of their own (``_nrt=False``: they allocate nothing), which halves
the cold compile (rules_nb says why).

``random`` (S_RANDOM) is uniform at each step:

- power phase: uniform over "no power" and each card in hand (n+1 options); then, by power: Companion
  keeps a uniform one of the seen cards that are lower (none if none is), Plot a uniform legal target,
  Foe a uniform adjacent opponent, Power discards each eligible card on a fair coin, Strangeness a
  uniform eligible adjacent card;
- swim: a uniform order of the dice, then for each leg a uniform legal direction;
- fights: a uniform opponent when several share the square, a uniform card to reveal, a uniform card
  to steal;
- mission: when one is possible, a fair coin to play it, then uniform suits one at a time (a
  forced pick when the mission needs every suit held), and a uniform card of each chosen suit;
- rest: each excess discard uniform.

The heuristics ``runner`` (S_RUNNER) and ``raider`` (S_RAIDER) share one evaluator and differ in
parameters (configs/aquaman.toml, order in ``enums.HEURISTIC_PARAM_NAMES``):

- a card *gained* is worth ``need`` if its suit is missing from the hand, else ``spare``, plus
  ``rank * rank/ranks``; a card *held* is worth ``need`` if it is the only one of its suit, else
  ``spare``, plus the same rank term;
- swim: the reachable square of highest value: its card's gain, or for a square with opponents
  ``fight + edge * (2 * best_rank/ranks - 1)`` (a fight nobody can win, against opponents without
  cards or with none in one's own hand, gains nothing);
- power: the card whose power's estimated gain minus the card's held value is highest, used when
  that exceeds ``power_bar`` (the estimates are in ``choose_power``; ``foe`` values a Foe hit,
  ``swim_reach`` is how many board cards a rolled swim is assumed to choose from; Plot is only
  considered toward a card of a missing suit; Power is judged without the activated card);
- fight card: the highest ``fight_card * rank/ranks - held_value/need``; steal: the highest gain
  plus ``deny`` if it is the loser's only card of its suit; opponent (to fight or Foe):
  ``deny * missions + cards`` among those who hold a card;
- mission: always, with the lowest card of each suit (most-held suits first); rest: discard the
  card of lowest held value.

Every choice among equally valued options (seats, squares, hand slots, suits) is uniform, drawn
from the game's stream (``argmax_fair``): never the first one found, which would favour the lowest
seat or the first square.

Hot functions first bind the arrays they need to locals (``card = G.card`` ...) and pass plain
arrays to helpers: reading an array out of the Game/State tuples inside a loop makes numba update
a reference count on every pass.

The runner hunts missing suits and avoids fights (fight < 0); the raider seeks fights with high
cards, reveals high, steals what the loser needs and uses Foe.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simbalance.core.rng import randint
from simbalance.core.rng import shuffle
from simbalance.core.rng import wins_tie
from simbalance.games.aquaman.rules_nb import foe_targets
from simbalance.games.aquaman.rules_nb import opponents_at
from simbalance.games.aquaman.rules_nb import plot_targets
from simbalance.games.aquaman.rules_nb import strangeness_targets
from simbalance.games.aquaman.state_nb import AQUAMAN
from simbalance.games.aquaman.state_nb import C_ACT_RANK
from simbalance.games.aquaman.state_nb import C_DECISION
from simbalance.games.aquaman.state_nb import C_DICE
from simbalance.games.aquaman.state_nb import C_DISC
from simbalance.games.aquaman.state_nb import C_FIGHT_A
from simbalance.games.aquaman.state_nb import C_FIGHT_B
from simbalance.games.aquaman.state_nb import C_ORDER
from simbalance.games.aquaman.state_nb import C_SEEN
from simbalance.games.aquaman.state_nb import C_SLOT
from simbalance.games.aquaman.state_nb import C_SUIT
from simbalance.games.aquaman.state_nb import C_TO_MOVE
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
from simbalance.games.aquaman.state_nb import D_SWAP
from simbalance.games.aquaman.state_nb import D_SWIM
from simbalance.games.aquaman.state_nb import EV_LEG
from simbalance.games.aquaman.state_nb import FOE
from simbalance.games.aquaman.state_nb import K_BOARD
from simbalance.games.aquaman.state_nb import K_BUF
from simbalance.games.aquaman.state_nb import K_DISC
from simbalance.games.aquaman.state_nb import K_HAND
from simbalance.games.aquaman.state_nb import P_DENY
from simbalance.games.aquaman.state_nb import P_EDGE
from simbalance.games.aquaman.state_nb import P_FIGHT
from simbalance.games.aquaman.state_nb import P_FIGHT_CARD
from simbalance.games.aquaman.state_nb import P_FOE
from simbalance.games.aquaman.state_nb import P_NEED
from simbalance.games.aquaman.state_nb import P_POWER_BAR
from simbalance.games.aquaman.state_nb import P_RANK
from simbalance.games.aquaman.state_nb import P_SPARE
from simbalance.games.aquaman.state_nb import P_SWIM_REACH
from simbalance.games.aquaman.state_nb import PLOT
from simbalance.games.aquaman.state_nb import POWER
from simbalance.games.aquaman.state_nb import R_AQUAMAN_DRAW
from simbalance.games.aquaman.state_nb import R_CANNOT_REVEAL
from simbalance.games.aquaman.state_nb import R_COMPANION_LOOK
from simbalance.games.aquaman.state_nb import R_DISCARD_AFTER
from simbalance.games.aquaman.state_nb import R_NDICE
from simbalance.games.aquaman.state_nb import R_NSUITS
from simbalance.games.aquaman.state_nb import R_PLAYERS
from simbalance.games.aquaman.state_nb import R_RANKS
from simbalance.games.aquaman.state_nb import R_SUIT_POWER
from simbalance.games.aquaman.state_nb import R_TURN_LEGS
from simbalance.games.aquaman.state_nb import REVEAL_ENDS
from simbalance.games.aquaman.state_nb import S_RANDOM
from simbalance.games.aquaman.state_nb import SEA_CREATURE
from simbalance.games.aquaman.state_nb import STRANGENESS
from simbalance.games.aquaman.state_nb import V_HAND_N
from simbalance.games.aquaman.state_nb import V_MISSIONS
from simbalance.games.aquaman.state_nb import V_POS
from simbalance.games.aquaman.state_nb import V_SUIT
from simbalance.games.aquaman.state_nb import X_CAND
from simbalance.games.aquaman.state_nb import X_REACH
from simbalance.games.aquaman.state_nb import X_SUITS
from simbalance.games.aquaman.state_nb import best_rank
from simbalance.games.aquaman.state_nb import log_step
from simbalance.games.aquaman.state_nb import pawns_at
from simbalance.games.aquaman.state_nb import reachable

# ---------------------------------------------------------------- values shared by the heuristics


@njit(cache=True, inline="always")
def gain(card, seatv, ranks, seat, c, par):
    """What taking card ``c`` into ``seat``'s hand is worth."""
    v = par[P_NEED] if seatv[seat, V_SUIT + card[CARD_SUIT, c]] == 0 else par[P_SPARE]
    return v + par[P_RANK] * card[CARD_RANK, c] / ranks


@njit(cache=True, inline="always")
def held(card, seatv, ranks, seat, c, par):
    """What keeping card ``c`` (in ``seat``'s hand) is worth."""
    v = par[P_NEED] if seatv[seat, V_SUIT + card[CARD_SUIT, c]] == 1 else par[P_SPARE]
    return v + par[P_RANK] * card[CARD_RANK, c] / ranks


@njit(cache=True, inline="always")
def missing_share(seatv, n_suits, seat):
    missing = 0
    for s in range(n_suits):
        if seatv[seat, V_SUIT + s] == 0:
            missing += 1
    return missing / n_suits


@njit(cache=True, inline="always")
def argmax_fair(S, best, best_v, n_best, cand, v):
    """One step of a scan for the highest ``v``: returns the new (best, best_v, n_best).

    Ties are broken uniformly at random (``core.rng.wins_tie``: reservoir sampling over the
    ``n_best`` equal-best candidates seen so far, from the game's own stream ``S.rng``), never
    toward the first candidate (the lowest seat, square or hand slot). A draw is made only on a tie,
    and the stream is read from the state only then: reading an array out of the state tuple costs
    a reference count, which in these hot scans cost aquaman 20 % of its speed. Start with
    ``best, best_v, n_best = -1, 0.0, 0``.
    """
    if best < 0 or v > best_v:
        return cand, v, 1
    if v == best_v:
        n_best += 1
        if wins_tie(S.rng, n_best):
            return cand, v, n_best
    return best, best_v, n_best


# ---------------------------------------------------------------- power phase


@njit(cache=True, inline="always")
def _best_cell(G, S, seat, par, n):
    """The candidate square whose card gains most, and that gain."""
    card = G.card
    cards = S.cards
    seatv = S.seat
    scratch = S.scratch
    ranks = G.rules[R_RANKS]
    best, best_v, n_best = -1, 0.0, 0
    for j in range(n):
        cell = scratch[X_CAND, j]
        v = gain(card, seatv, ranks, seat, cards[K_BOARD, cell], par)
        best, best_v, n_best = argmax_fair(S, best, best_v, n_best, cell, v)
    return best, best_v


@njit(cache=True, inline="always")
def _plot_missing(G, S, seat):
    """Legal Plot squares (no pawn) holding a card of a suit ``seat`` lacks, into the candidate
    list: the heuristics only Plot toward such a card (any other never beats a swim)."""
    card = G.card
    cards = S.cards
    seatv = S.seat
    scratch = S.scratch
    players = G.rules[R_PLAYERS]
    n = 0
    for cell in range(G.move_to.shape[0]):
        c = cards[K_BOARD, cell]
        if c >= 0 and seatv[seat, V_SUIT + card[CARD_SUIT, c]] == 0 and pawns_at(seatv, cell, players, -1) == 0:
            scratch[X_CAND, n] = cell
            n += 1
    return n


@njit(cache=True, inline="always")
def _best_below(G, S, seat, par, row, n):
    """``fbuf[row, r]``: the best gain among the ``n`` candidate squares' cards lower than rank
    ``r``; -1e300 where there is none."""
    card = G.card
    cards = S.cards
    seatv = S.seat
    scratch = S.scratch
    fbuf = S.fbuf
    ranks = G.rules[R_RANKS]
    for r in range(ranks + 2):
        fbuf[row, r] = -1e300
    for j in range(n):
        c = cards[K_BOARD, scratch[X_CAND, j]]
        g = gain(card, seatv, ranks, seat, c, par)
        if g > fbuf[row, card[CARD_RANK, c] + 1]:
            fbuf[row, card[CARD_RANK, c] + 1] = g
    for r in range(1, ranks + 2):
        if fbuf[row, r - 1] > fbuf[row, r]:
            fbuf[row, r] = fbuf[row, r - 1]


@njit(cache=True, _nrt=False)
def choose_power(G, S, seat, sid, par):
    """The hand slot of the card to activate, or -1 for no power (only asked with enough cards).

    Heuristics: each card's power is judged by an estimate of what it brings minus the card's held
    value (``e`` is the value of an unseen card, ``pm`` the share of suits missing):
    Aquaman ``e`` per card drawn (the third with P(a + b < r) = (r-1)(r-2) / 2R^2); Companion the
    chance one of the seen cards is lower, times a need/spare mix; Sea Creature the top discard's
    gain; Plot the best legal square's gain minus a normal swim's (the best of ``swim_reach``
    cards); Foe ``foe`` x the chance the revealed card is lower; Power ``e`` minus the held value
    of each spare card it would swap; Strangeness the best adjacent card's gain; Location nothing.
    """
    seatv = S.seat
    n = seatv[seat, V_HAND_N]
    if sid == S_RANDOM:
        k = randint(S.rng, n + 1)
        return k if k < n else -1
    card = G.card
    rules = G.rules
    cards = S.cards
    fbuf = S.fbuf
    ranks = rules[R_RANKS]
    need = par[P_NEED]
    spare = par[P_SPARE]
    rank_w = par[P_RANK]
    pm = missing_share(seatv, rules[R_NSUITS], seat)
    e = pm * need + (1.0 - pm) * spare + rank_w * 0.5
    have_plot = False
    have_strange = False
    foe_adjacent = -1
    best, best_v, n_best = -1, 0.0, 0
    for i in range(n):
        c = cards[K_HAND + seat, i]
        power = rules[R_SUIT_POWER + card[CARD_SUIT, c]]
        rank = np.int64(card[CARD_RANK, c])  # int64: rank products overflow int8
        g = 0.0
        if power == AQUAMAN:
            p3 = (rank - 1) * (rank - 2) / (2.0 * ranks * ranks)
            g = e * (rules[R_AQUAMAN_DRAW] + p3)
        elif power == COMPANION:
            q = (rank - 1) / ranks
            look = rules[R_COMPANION_LOOK]
            p_any = 1.0 - (1.0 - q) ** look
            pm_any = 1.0 - (1.0 - pm) ** (look * q + 1e-9)
            g = p_any * (pm_any * need + (1.0 - pm_any) * spare + rank_w * q * 0.5)
        elif power == SEA_CREATURE:
            if rules[R_DISCARD_AFTER] != 0 and S.ctr[C_DISC] > 0:
                top = cards[K_DISC, S.ctr[C_DISC] - 1]
                if card[CARD_RANK, top] < rank:
                    g = gain(card, seatv, ranks, seat, top, par)
        elif power == PLOT:
            if pm > 0.0:  # a Plot to a card of a suit already held never beats a swim
                if not have_plot:
                    _best_below(G, S, seat, par, 0, _plot_missing(G, S, seat))
                    have_plot = True
                best_plot = fbuf[0, min(rank, ranks + 1)]
                if best_plot > -1e299:
                    miss = (1.0 - pm) ** par[P_SWIM_REACH]
                    g = best_plot - ((1.0 - miss) * need + miss * spare + rank_w * 0.75)
        elif power == FOE:
            if foe_adjacent < 0:
                foe_adjacent = 1 if _foe_can_hit(G, S, seat) else 0
            if foe_adjacent == 1:
                g = par[P_FOE] * (rank - 1) / ranks
        elif power == POWER:
            # the activated card leaves the hand first: judge the swaps as power_discards will make
            # them, without it (its suit one card shorter, perhaps missing)
            own = card[CARD_SUIT, c]
            pm_after = pm + (1.0 / rules[R_NSUITS] if seatv[seat, V_SUIT + own] == 1 else 0.0)
            e_after = pm_after * need + (1.0 - pm_after) * spare + rank_w * 0.5
            for j in range(n):
                cj = cards[K_HAND + seat, j]
                if j != i and card[CARD_RANK, cj] <= rank and _outranked(card, cards, seatv, seat, cj, c):
                    v = spare + rank_w * card[CARD_RANK, cj] / ranks  # held value of a card not its suit's last
                    if v < e_after:
                        g += e_after - v
        elif power == STRANGENESS:
            if not have_strange:
                _best_below(G, S, seat, par, 1, strangeness_targets(G, S, seat, ranks + 1))
                have_strange = True
            best_strange = fbuf[1, min(rank, ranks + 1)]
            if best_strange > -1e299:
                g = best_strange
        # LOCATION shows cards the heuristics do not remember; NO_POWER does nothing
        best, best_v, n_best = argmax_fair(S, best, best_v, n_best, i, g - held(card, seatv, ranks, seat, c, par))
    if best >= 0 and best_v > par[P_POWER_BAR]:
        return best
    return -1


@njit(cache=True, _nrt=False)
def choose_companion_keep(G, S, seat, sid, par, n_seen, rank):
    """Which of the seen cards (scratch pile ``K_BUF[:n_seen]``) to keep, lower than ``rank``; -1 if none is."""
    card = G.card
    cards = S.cards
    seatv = S.seat
    ranks = G.rules[R_RANKS]
    n_low = 0
    for j in range(n_seen):
        if card[CARD_RANK, cards[K_BUF, j]] < rank:
            n_low += 1
    if n_low == 0:
        return -1
    best, best_v, n_best = -1, 0.0, 0
    pick = randint(S.rng, n_low) if sid == S_RANDOM else -1
    for j in range(n_seen):
        c = cards[K_BUF, j]
        if card[CARD_RANK, c] < rank:
            if sid == S_RANDOM:
                if pick == 0:
                    return j
                pick -= 1
            else:
                best, best_v, n_best = argmax_fair(S, best, best_v, n_best, j, gain(card, seatv, ranks, seat, c, par))
    return best


@njit(cache=True, inline="always")
def _pick_cell(G, S, seat, sid, par, n):
    """One of the ``n`` squares in the candidate list (scratch row X_CAND), -1 when there is none:
    the random player's any, the heuristics' the one whose card gains ``seat`` most (_best_cell)."""
    if n == 0:
        return -1
    if sid == S_RANDOM:
        return S.scratch[X_CAND, randint(S.rng, n)]
    best, best_v = _best_cell(G, S, seat, par, n)
    return best


@njit(cache=True, _nrt=False)
def choose_plot_target(G, S, seat, sid, par, rank):
    """The Plot square (chosen before rolling), or -1 when no square qualifies."""
    return _pick_cell(G, S, seat, sid, par, plot_targets(G, S, rank))


@njit(cache=True, inline="always")
def _opponent_score(seatv, o, par):
    """How much the heuristics like to fight or Foe opponent ``o``: ``deny * missions + cards``; an
    opponent without cards cannot reveal (a fight or a Foe against him gains nothing): -1, below
    every opponent who holds a card."""
    if seatv[o, V_HAND_N] == 0:
        return -1.0
    return par[P_DENY] * seatv[o, V_MISSIONS] + seatv[o, V_HAND_N]


@njit(cache=True, inline="always")
def _foe_can_hit(G, S, seat):
    """Whether an adjacent opponent holds a card (the heuristics' Foe needs one to hit)."""
    scratch = S.scratch
    seatv = S.seat
    for j in range(foe_targets(G, S, seat)):
        if seatv[scratch[X_CAND, j], V_HAND_N] > 0:
            return True
    return False


@njit(cache=True, inline="always")
def _pick_opponent(S, n, sid, par):
    """One of the ``n`` opponents in the candidate list (scratch row X_CAND): the random player's
    any, the heuristics' the one ``_opponent_score`` rates highest (ties uniform)."""
    scratch = S.scratch
    if sid == S_RANDOM:
        return scratch[X_CAND, randint(S.rng, n)]
    seatv = S.seat
    best, best_v, n_best = -1, 0.0, 0
    for j in range(n):
        o = scratch[X_CAND, j]
        best, best_v, n_best = argmax_fair(S, best, best_v, n_best, o, _opponent_score(seatv, o, par))
    return best


@njit(cache=True, _nrt=False)
def choose_foe_target(G, S, seat, sid, par):
    """The adjacent opponent Foe targets, or -1 when none is adjacent."""
    n = foe_targets(G, S, seat)
    if n == 0:
        return -1
    return _pick_opponent(S, n, sid, par)


@njit(cache=True, inline="always")
def _outranked(card, cards, seatv, seat, c, skip):
    """Whether ``seat`` holds a card of ``c``'s suit ranked above ``c``, card ``skip`` not counted."""
    suit = card[CARD_SUIT, c]
    for k in range(seatv[seat, V_HAND_N]):
        ck = cards[K_HAND + seat, k]
        if ck != skip and card[CARD_SUIT, ck] == suit and card[CARD_RANK, ck] > card[CARD_RANK, c]:
            return True
    return False


@njit(cache=True, _nrt=False)
def power_discards(G, S, seat, sid, par, c):
    """Power: discard card ``c`` (its rank is allowed) for a replacement?

    Heuristics: when its held value is below an unseen card's and a higher card of its suit stays in
    hand (the highest of each suit is kept, so a suit is never emptied and the choice does not depend
    on the order the hand is gone through; the activated card has already left the hand).
    """
    if sid == S_RANDOM:
        return randint(S.rng, 2) == 1
    card = G.card
    seatv = S.seat
    ranks = G.rules[R_RANKS]
    pm = missing_share(seatv, G.rules[R_NSUITS], seat)
    e = pm * par[P_NEED] + (1.0 - pm) * par[P_SPARE] + par[P_RANK] * 0.5
    return _outranked(card, S.cards, seatv, seat, c, -1) and held(card, seatv, ranks, seat, c, par) < e


@njit(cache=True, _nrt=False)
def choose_strangeness_target(G, S, seat, sid, par, rank):
    """The adjacent square whose card Strangeness takes, or -1 when none qualifies."""
    return _pick_cell(G, S, seat, sid, par, strangeness_targets(G, S, seat, rank))


# ---------------------------------------------------------------- swim


@njit(cache=True, inline="always")
def random_swim(G, S, start, log=None):
    """Uniform order of the dice, then a uniform legal direction per leg (no legal one: skipped)."""
    move_to = G.move_to
    ctr = S.ctr
    rng = S.rng
    nd = G.rules[R_NDICE]
    turn = G.rules[R_TURN_LEGS] != 0
    for k in range(nd):
        ctr[C_ORDER + k] = k
    shuffle(rng, ctr[C_ORDER:C_ORDER + nd], nd)
    cur = start
    axis = 0
    for j in range(nd):
        d = ctr[C_DICE + ctr[C_ORDER + j]]
        legal = 0
        for direction in range(4):
            if move_to[cur, d, direction] >= 0 and not (turn and 1 + (direction >> 1) == axis):
                legal += 1
        if legal == 0:
            if log is not None:
                log_step(log, S, EV_LEG, d, -1, cur, cur)
            continue
        pick = randint(rng, legal)
        for direction in range(4):
            dst = move_to[cur, d, direction]
            if dst >= 0 and not (turn and 1 + (direction >> 1) == axis):
                if pick == 0:
                    if log is not None:
                        log_step(log, S, EV_LEG, d, direction, cur, dst)
                    cur = dst
                    axis = 1 + (direction >> 1)
                    break
                pick -= 1
    return cur


@njit(cache=True, inline="always")
def choose_swim(G, S, seat, sid, par, log=None):
    """Where ``seat``'s pawn ends its swim with the rolled dice.

    Heuristics: the reachable square of highest value: its card's gain, or with opponents on it
    ``fight + edge * (2 * best_rank/ranks - 1)``; an empty square is worth 0. A fight that cannot be
    won against anyone (no opponent there holds a card, or the mover holds none) gains nothing: by
    default it ends before the reveal and the square is worth 0; with rules.cannot_reveal "loses" or
    "draws" the mover's revealed card is spent for nothing (minus its held value). Equally valued
    squares are chosen uniformly.
    """
    seatv = S.seat
    start = seatv[seat, V_POS]
    if sid == S_RANDOM:
        return random_swim(G, S, start, log)
    n = reachable(G, S, start)
    card = G.card
    cards = S.cards
    scratch = S.scratch
    ranks = G.rules[R_RANKS]
    players = G.rules[R_PLAYERS]
    full = (1 << G.rules[R_NDICE]) - 1
    mine = seatv[seat, V_HAND_N]
    fight_v = par[P_FIGHT] + par[P_EDGE] * (2.0 * best_rank(card, cards, seatv, seat) / ranks - 1.0)
    idle_v = 0.0  # a fight nobody can win
    if mine > 0 and G.rules[R_CANNOT_REVEAL] != REVEAL_ENDS:
        idle_v = -_reveal_cost(card, cards, seatv, seat, par, ranks)
    best, best_v, n_best = -1, 0.0, 0
    for j in range(n):
        cell = scratch[X_REACH + full, j] // 3
        if pawns_at(seatv, cell, players, seat) > 0:
            v = fight_v if mine > 0 and _holders_at(seatv, cell, players, seat) > 0 else idle_v
        else:
            c = cards[K_BOARD, cell]
            v = gain(card, seatv, ranks, seat, c, par) if c >= 0 else 0.0
        best, best_v, n_best = argmax_fair(S, best, best_v, n_best, cell, v)
    return best


# ---------------------------------------------------------------- fights


@njit(cache=True, inline="always")
def _fight_card_score(card, seatv, ranks, seat, c, par):
    return par[P_FIGHT_CARD] * card[CARD_RANK, c] / ranks - held(card, seatv, ranks, seat, c, par) / par[P_NEED]


@njit(cache=True, inline="always")
def _reveal_cost(card, cards, seatv, seat, par, ranks):
    """The held value of the card ``seat`` would reveal (an estimate: the first of equal cards)."""
    best_c, best_v = -1, 0.0
    for i in range(seatv[seat, V_HAND_N]):
        c = cards[K_HAND + seat, i]
        v = _fight_card_score(card, seatv, ranks, seat, c, par)
        if best_c < 0 or v > best_v:
            best_c, best_v = c, v
    return held(card, seatv, ranks, seat, best_c, par)


@njit(cache=True, inline="always")
def _holders_at(seatv, cell, players, seat):
    """How many opponents of ``seat`` on ``cell`` hold a card (could reveal one)."""
    n = 0
    for o in range(players):
        if o != seat and seatv[o, V_POS] == cell and seatv[o, V_HAND_N] > 0:
            n += 1
    return n


@njit(cache=True, _nrt=False)
def choose_fight_opponent(G, S, seat, sid, par, cell):
    """Which of the opponents on ``cell`` to fight."""
    return _pick_opponent(S, opponents_at(G, S, seat, cell), sid, par)


@njit(cache=True, _nrt=False)
def choose_fight_card(G, S, seat, sid, par):
    """The hand slot of the card ``seat`` reveals (hand not empty)."""
    seatv = S.seat
    n = seatv[seat, V_HAND_N]
    if sid == S_RANDOM:
        return randint(S.rng, n)
    card = G.card
    cards = S.cards
    ranks = G.rules[R_RANKS]
    best, best_v, n_best = -1, 0.0, 0
    for i in range(n):
        c = cards[K_HAND + seat, i]
        v = _fight_card_score(card, seatv, ranks, seat, c, par)
        best, best_v, n_best = argmax_fair(S, best, best_v, n_best, i, v)
    return best


@njit(cache=True, _nrt=False)
def choose_steal(G, S, seat, sid, par, loser):
    """The slot in ``loser``'s hand of the card the winner takes (loser's hand not empty)."""
    seatv = S.seat
    n = seatv[loser, V_HAND_N]
    if sid == S_RANDOM:
        return randint(S.rng, n)
    card = G.card
    cards = S.cards
    ranks = G.rules[R_RANKS]
    best, best_v, n_best = -1, 0.0, 0
    for i in range(n):
        c = cards[K_HAND + loser, i]
        v = gain(card, seatv, ranks, seat, c, par)
        if seatv[loser, V_SUIT + card[CARD_SUIT, c]] == 1:
            v += par[P_DENY]
        best, best_v, n_best = argmax_fair(S, best, best_v, n_best, i, v)
    return best


# ---------------------------------------------------------------- mission and rest


@njit(cache=True, inline="always")
def choose_mission(G, S, seat, sid, par):
    """Play a mission now (asked only when one is possible)?"""
    if sid == S_RANDOM:
        return randint(S.rng, 2) == 1
    return True


@njit(cache=True, _nrt=False)
def choose_mission_suit(G, S, seat, sid, par):
    """The next suit the mission uses: a held suit not picked yet (scratch row X_SUITS marks the
    picked ones). The heuristics take the most-held suit first: the mission costs it least (equally
    held: a uniform one)."""
    seatv = S.seat
    scratch = S.scratch
    n_suits = G.rules[R_NSUITS]
    if sid == S_RANDOM:
        n_held = 0
        for s in range(n_suits):
            if seatv[seat, V_SUIT + s] > 0 and scratch[X_SUITS, s] == 0:
                n_held += 1
        pick = randint(S.rng, n_held)
        for s in range(n_suits):
            if seatv[seat, V_SUIT + s] > 0 and scratch[X_SUITS, s] == 0:
                if pick == 0:
                    return s
                pick -= 1
    best, best_v, n_best = -1, 0.0, 0
    for s in range(n_suits):
        if seatv[seat, V_SUIT + s] > 0 and scratch[X_SUITS, s] == 0:
            best, best_v, n_best = argmax_fair(S, best, best_v, n_best, s, np.float64(seatv[seat, V_SUIT + s]))
    return best


@njit(cache=True, _nrt=False)
def choose_mission_card(G, S, seat, sid, par, suit):
    """The hand slot of the mission's card of ``suit``. The heuristics give the lowest card of the
    suit (the first of equals): high cards win fights and power stronger."""
    card = G.card
    cards = S.cards
    seatv = S.seat
    if sid == S_RANDOM:
        pick = randint(S.rng, seatv[seat, V_SUIT + suit])
        for i in range(seatv[seat, V_HAND_N]):
            if card[CARD_SUIT, cards[K_HAND + seat, i]] == suit:
                if pick == 0:
                    return i
                pick -= 1
    low, low_r = -1, 1 << 30
    for i in range(seatv[seat, V_HAND_N]):
        c = cards[K_HAND + seat, i]
        if card[CARD_SUIT, c] == suit and card[CARD_RANK, c] < low_r:
            low, low_r = i, card[CARD_RANK, c]
    return low


@njit(cache=True, inline="always")
def choose_rest_discard(G, S, seat, sid, par):
    """The hand slot of the next card discarded down to the hand limit."""
    seatv = S.seat
    n = seatv[seat, V_HAND_N]
    if sid == S_RANDOM:
        return randint(S.rng, n)
    card = G.card
    cards = S.cards
    ranks = G.rules[R_RANKS]
    best, best_v, n_best = -1, 0.0, 0
    for i in range(n):
        v = -held(card, seatv, ranks, seat, cards[K_HAND + seat, i], par)
        best, best_v, n_best = argmax_fair(S, best, best_v, n_best, i, v)
    return best


# ---------------------------------------------------------------- the pending decision


@njit(cache=True, inline="always")
def decide(G, S, strat, par, log=None):
    """The option (play_nb.legal_options' codes) that the deciding seat's strategy takes at the
    pending decision; ``strat``/``par`` are every seat's strategy id and parameter row."""
    seat = S.ctr[C_TO_MOVE]
    return decide_as(G, S, strat[seat], par[seat], log)


@njit(cache=True, inline="always")
def decide_as(G, S, sid, p, log=None):
    """The option strategy ``sid`` (parameters ``p``) takes for the deciding seat at the pending
    decision. The most frequent decisions come first."""
    ctr = S.ctr
    seat = ctr[C_TO_MOVE]
    d = ctr[C_DECISION]
    if d == D_SWIM:
        return np.int64(choose_swim(G, S, seat, sid, p, log))
    if d == D_POWER:
        return np.int64(choose_power(G, S, seat, sid, p))
    if d == D_REST:
        return np.int64(choose_rest_discard(G, S, seat, sid, p))
    if d == D_REVEAL:
        return np.int64(choose_fight_card(G, S, seat, sid, p))
    if d == D_MISSION:
        return np.int64(1 if choose_mission(G, S, seat, sid, p) else 0)
    if d == D_MISSION_SUIT:
        return np.int64(choose_mission_suit(G, S, seat, sid, p))
    if d == D_MISSION_CARD:
        return np.int64(choose_mission_card(G, S, seat, sid, p, ctr[C_SUIT]))
    if d == D_OPPONENT:
        return np.int64(choose_fight_opponent(G, S, seat, sid, p, S.seat[seat, V_POS]))
    if d == D_STEAL:
        return np.int64(choose_steal(G, S, seat, sid, p, ctr[C_FIGHT_A] + ctr[C_FIGHT_B] - seat))
    if d == D_SWAP:
        c = S.cards[K_HAND + seat, ctr[C_SLOT]]
        return np.int64(1 if power_discards(G, S, seat, sid, p, c) else 0)
    if d == D_COMPANION:
        return np.int64(choose_companion_keep(G, S, seat, sid, p, ctr[C_SEEN], ctr[C_ACT_RANK]))
    if d == D_PLOT:
        return np.int64(choose_plot_target(G, S, seat, sid, p, ctr[C_ACT_RANK]))
    if d == D_FOE:
        return np.int64(choose_foe_target(G, S, seat, sid, p))
    return np.int64(choose_strangeness_target(G, S, seat, sid, p, ctr[C_ACT_RANK]))  # D_STRANGE
