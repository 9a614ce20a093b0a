"""captain-action decisions: one jitted function per decision point, branching on the strategy id.

Decision points (in turn order; docs/rules/captain-action.md, "Strategies"):
1. ``decide_call`` before drawing (only with ``rules.call_timing = "before_draw"``);
2. ``decide_source``: the top of the Countdown Deck or of the discard pile;
3. ``decide_discard``: which of the hand's cards (the drawn one included) goes on the discard pile;
4. ``decide_call`` after discarding (the default timing), while the Countdown Deck is not empty.

Hands are ``hand[seat, :H]`` plus, during a turn, the drawn card in ``hand[seat, H]``. Strategies
see only what their player sees: their own hand, the discard pile's top, the Countdown Deck's size
and the turn number.

Ids (engine.STRATEGIES): 0 random, 1 builder, 2 bold. ``SCRIPTED`` (-1) is for tests only: it plays
the codes in its parameter row, one per decision (see ``_script``).
"""

from __future__ import annotations

from numba import njit

from simbalance.core.rng import randint, uniform
from simbalance.games.captain_action.scoring_nb import RULE_SET_SIZE, add_card, best_score

RANDOM = 0
BUILDER = 1
BOLD = 2
SCRIPTED = -1

# Parameter positions (the order of the keys in configs/captain-action.toml).
P_RANDOM_CALL = 0  # random: chance of calling at each call decision
P_TAKE_GAIN = 0  # builder/bold: take the discard if it raises the hand's value by this much
P_PAIR_WEIGHT = 1  # builder/bold: value of one kind held one card short of a set
P_CALL_SCORE = 2  # builder/bold: call when score + bonus reaches this ...
P_CALL_SLOPE = 3  # builder: ... plus this much per card already drawn from the Countdown Deck

# Scripted codes, one per turn of the seat (all decisions of that turn read it): source (0 countdown,
# 1 discard pile) + 2 * discard slot + 100 * call.
SCRIPT_SLOT = 2
SCRIPT_CALL = 100


@njit(cache=True, inline="always")
def _script(params, step):
    return int(params[step])


@njit(cache=True)
def hand_value(bg_n, bg_v, ch_n, wilds, pair_weight, ch_val, wild_chars, rules, scratch):
    """A heuristic's value of a hand: its score now plus ``pair_weight`` per kind one short of a set."""
    score = best_score(bg_n, bg_v, ch_n, ch_val, wild_chars, wilds, rules, scratch)
    near = rules[RULE_SET_SIZE] - 1
    pairs = 0
    for b in range(bg_n.shape[0]):
        if bg_n[b] == near:
            pairs += 1
    for c in range(ch_n.shape[0]):
        if ch_n[c] == near:
            pairs += 1
    return score + pair_weight * pairs


@njit(cache=True)
def _load_counts(hand, seat, n, cards, counts, n_bg):
    """Counts of ``hand[seat, :n]`` into ``counts`` (bg_n | bg_v | ch_n); returns the wild count."""
    card_bg, card_ch, card_val, ch_scores = cards
    counts[:] = 0
    bg_n = counts[:n_bg]
    bg_v = counts[n_bg:2 * n_bg]
    ch_n = counts[2 * n_bg:]
    wilds = 0
    for i in range(n):
        wilds = add_card(hand[seat, i], 1, card_bg, card_ch, card_val, ch_scores, bg_n, bg_v, ch_n, wilds)
    return wilds


@njit(cache=True)
def best_discard(hand, seat, hand_size, forbid, extra_card, params, cards, score_args, counts, scratch):
    """The slot whose discard leaves the best-valued hand, and that value.

    The hand is ``hand[seat, :hand_size]`` plus ``extra_card`` (in slot ``hand_size``; -1: the card
    already there). ``forbid``: a slot that may not be discarded (-1: none).
    """
    card_bg, card_ch, card_val, ch_scores = cards
    ch_val, wild_chars, rules = score_args
    n_bg = (counts.shape[0] - ch_val.shape[0]) // 2
    if extra_card >= 0:
        hand[seat, hand_size] = extra_card
    wilds = _load_counts(hand, seat, hand_size + 1, cards, counts, n_bg)
    bg_n = counts[:n_bg]
    bg_v = counts[n_bg:2 * n_bg]
    ch_n = counts[2 * n_bg:]
    best = -1e18
    best_slot = 0
    for d in range(hand_size + 1):
        if d == forbid:
            continue
        card = hand[seat, d]
        w = add_card(card, -1, card_bg, card_ch, card_val, ch_scores, bg_n, bg_v, ch_n, wilds)
        v = hand_value(bg_n, bg_v, ch_n, w, params[P_PAIR_WEIGHT], ch_val, wild_chars, rules, scratch)
        add_card(card, 1, card_bg, card_ch, card_val, ch_scores, bg_n, bg_v, ch_n, w)
        if v > best:
            best = v
            best_slot = d
    return best_slot, best


@njit(cache=True)
def decide_source(sid, params, state, step, hand, seat, hand_size, top, cards, score_args, counts, scratch):
    """1 to take the discard pile's top card ``top``, 0 to draw from the Countdown Deck."""
    if sid == RANDOM:
        return randint(state, 2)
    if sid == SCRIPTED:
        return _script(params, step) % SCRIPT_SLOT
    # builder and bold: take the visible card when it improves the hand enough.
    ch_val, wild_chars, rules = score_args
    n_bg = (counts.shape[0] - ch_val.shape[0]) // 2
    wilds = _load_counts(hand, seat, hand_size, cards, counts, n_bg)
    now = hand_value(counts[:n_bg], counts[n_bg:2 * n_bg], counts[2 * n_bg:], wilds, params[P_PAIR_WEIGHT],
                     ch_val, wild_chars, rules, scratch)
    _, taken = best_discard(hand, seat, hand_size, hand_size, top, params, cards, score_args, counts, scratch)
    return 1 if taken - now >= params[P_TAKE_GAIN] else 0


@njit(cache=True)
def decide_discard(sid, params, state, step, hand, seat, hand_size, forbid, cards, score_args, counts, scratch):
    """The slot (0..hand_size, the drawn card in hand_size) to discard; never ``forbid``."""
    if sid == RANDOM:
        n_legal = hand_size + 1 if forbid < 0 else hand_size
        d = randint(state, n_legal)
        if forbid >= 0 and d >= forbid:
            d += 1
        return d
    if sid == SCRIPTED:
        return (_script(params, step) % SCRIPT_CALL) // SCRIPT_SLOT
    slot, _ = best_discard(hand, seat, hand_size, forbid, -1, params, cards, score_args, counts, scratch)
    return slot


@njit(cache=True)
def decide_call(sid, params, state, step, score, bonus, drawn):
    """Call "Let Justice Be Done!" now? ``score``: the hand's score, ``bonus``: the Countdown Deck's
    size, ``drawn``: cards already drawn from it."""
    if sid == RANDOM:
        return uniform(state) < params[P_RANDOM_CALL]
    if sid == SCRIPTED:
        return _script(params, step) >= SCRIPT_CALL
    if sid == BUILDER:
        # The table's hands change as the Countdown Deck runs down: the bar moves with it.
        return score + bonus >= params[P_CALL_SCORE] + params[P_CALL_SLOPE] * drawn
    # bold: a fixed bar that the early bonus clears easily, so it calls early with a thin hand.
    return score + bonus >= params[P_CALL_SCORE]
