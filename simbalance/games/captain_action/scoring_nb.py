"""Set scoring of captain-action, jitted (docs/rules/captain-action.md, "Scoring").

A hand is scored from counts, not from its card list, so the engine can ask "what if I swapped this
card for that one?" by changing two counts. ``cnt`` is int64[3, W]:

- ``cnt[BG_N, b]`` / ``cnt[BG_V, b]``: how many natural cards of background ``b`` can be in a set,
  and what they are worth together (an Action Boy is worth more);
- ``cnt[CH_N, c]``: how many natural cards show character ``c``;

plus the number of wildcards. Natural cards of a character in no set (Dr. Evil) count nowhere, not
even for their background.

Wildcards are the only hard part: each takes a character and a background, jointly chosen to
maximise the score. Enumerating identities per wild is 12**w; instead this enumerates how many wilds
go to each background (a composition of w into B parts) and, separately, how many take each
character (a composition of w into K parts). The two sides interact only through the Action Boy
wilds: an Action Boy wild adds its extra value to the background set it sits in, so the background
side is summarised by ``best_bg[F]`` = best background total with F wilds inside formed background
sets, and the character side adds ``extra * min(a, F)`` for its ``a`` Action Boy wilds (they go to
formed background sets first). With a cap on wilds per set a wild may have to stay out of every set
(it takes the identity Dr. Evil), hence the outer loop over ``z`` such wilds.

Cards are described by ``card_info`` (int64[n_cards, 3]: background, character, points; character
WILD for a wildcard, NO_SET for a card in no set) and the rules by one int64 vector ``srules``
(RULE_* in state_nb, then the points per card of each character, then the characters a wild may take).
Few, packed arrays on purpose: numba counts a reference for every array passed to a function, and
in this hot code that costs more than the arithmetic.
"""

from __future__ import annotations

from numba import njit

from simbalance.games.captain_action.state_nb import BG_N
from simbalance.games.captain_action.state_nb import BG_V
from simbalance.games.captain_action.state_nb import CH_N
from simbalance.games.captain_action.state_nb import INFO_BG
from simbalance.games.captain_action.state_nb import INFO_CH
from simbalance.games.captain_action.state_nb import INFO_VAL
from simbalance.games.captain_action.state_nb import RULE_AB_CHAR
from simbalance.games.captain_action.state_nb import RULE_AB_POINTS
from simbalance.games.captain_action.state_nb import RULE_CH_VAL
from simbalance.games.captain_action.state_nb import RULE_MAX_WILD
from simbalance.games.captain_action.state_nb import RULE_MIN_NATURAL
from simbalance.games.captain_action.state_nb import RULE_N_BG
from simbalance.games.captain_action.state_nb import RULE_N_CH
from simbalance.games.captain_action.state_nb import RULE_N_WILD_CH
from simbalance.games.captain_action.state_nb import RULE_POINTS
from simbalance.games.captain_action.state_nb import RULE_SET_SIZE
from simbalance.games.captain_action.state_nb import WILD

NEG = -(1 << 40)


@njit(cache=True, inline="always")
def _next_composition(parts, k):
    """Advance ``parts[:k]`` to the next composition of its sum into k parts; False when done.

    Starts from ``[u, 0, ..., 0]`` and ends after ``[0, ..., 0, u]``.
    """
    i = k - 2
    while i >= 0 and parts[i] == 0:
        i -= 1
    if i < 0:
        return False
    parts[i] -= 1
    tail = parts[k - 1]
    parts[k - 1] = 0
    parts[i + 1] = tail + 1
    return True


@njit(cache=True, inline="always")
def _formed(natural, wild, set_size, min_natural, max_wild):
    return natural >= min_natural and natural + wild >= set_size and wild <= max_wild


@njit(cache=True)
def best_score(cnt, wilds, srules, scratch):
    """The best score of a hand given its counts (module docstring). ``scratch``: int64 work array
    of at least ``B + K + wilds + 1`` entries.

    Kept small so that it inlines into the heuristics' loops: the enumeration for hands with
    wildcards is a separate function."""
    if wilds > 1:
        return _best_score_wild(cnt, wilds, srules, scratch)
    if wilds == 1:
        return _best_score_one_wild(cnt, srules)
    set_size = srules[RULE_SET_SIZE]
    min_nat = srules[RULE_MIN_NATURAL]
    total = 0
    for b in range(srules[RULE_N_BG]):
        if cnt[BG_N, b] >= set_size and cnt[BG_N, b] >= min_nat:
            total += cnt[BG_V, b]
    for c in range(srules[RULE_N_CH]):
        if cnt[CH_N, c] >= set_size and cnt[CH_N, c] >= min_nat:
            total += cnt[CH_N, c] * srules[RULE_CH_VAL + c]
    return total


@njit(cache=True, inline="always")
def _best_score_one_wild(cnt, srules):
    """best_score for a hand holding exactly one wildcard: the score without it plus the best gain
    over its identities (character c, background b), which is the sum of what it adds to the
    background set and to the character set (each either grows or is completed by it)."""
    set_size = srules[RULE_SET_SIZE]
    min_nat = srules[RULE_MIN_NATURAL]
    n_bg = srules[RULE_N_BG]
    n_ch = srules[RULE_N_CH]
    base = 0
    gain_pts = 0  # best background gain of a wild worth points_per_card ...
    gain_ab = 0  # ... and of one worth points_per_action_boy
    pts = srules[RULE_POINTS]
    ab_pts = srules[RULE_AB_POINTS]
    for b in range(n_bg):
        n = cnt[BG_N, b]
        if n >= set_size and n >= min_nat:
            base += cnt[BG_V, b]
            gain_pts = max(gain_pts, pts)
            gain_ab = max(gain_ab, ab_pts)
        elif n >= min_nat and n + 1 >= set_size:
            gain_pts = max(gain_pts, cnt[BG_V, b] + pts)
            gain_ab = max(gain_ab, cnt[BG_V, b] + ab_pts)
    best_gain = 0  # a wild that joins no set gains nothing
    for j in range(srules[RULE_N_WILD_CH]):
        c = srules[RULE_CH_VAL + n_ch + j]
        val = srules[RULE_CH_VAL + c]
        gain = gain_ab if c == srules[RULE_AB_CHAR] else gain_pts
        n = cnt[CH_N, c]
        if n >= set_size and n >= min_nat:
            gain += val
        elif n >= min_nat and n + 1 >= set_size:
            gain += (n + 1) * val
        best_gain = max(best_gain, gain)
    for c in range(n_ch):
        n = cnt[CH_N, c]
        if n >= set_size and n >= min_nat:
            base += n * srules[RULE_CH_VAL + c]
    return base + best_gain


@njit(cache=True)
def _best_score_wild(cnt, wilds, srules, scratch):
    """best_score for a hand holding wildcards: the enumeration of the module docstring."""
    set_size = srules[RULE_SET_SIZE]
    min_nat = srules[RULE_MIN_NATURAL]
    max_wild = srules[RULE_MAX_WILD]
    n_bg = srules[RULE_N_BG]
    n_ch = srules[RULE_N_CH]
    pts = srules[RULE_POINTS]
    extra = srules[RULE_AB_POINTS] - pts
    ab_char = srules[RULE_AB_CHAR]
    k = srules[RULE_N_WILD_CH]
    wild_ch0 = RULE_CH_VAL + n_ch  # srules[wild_ch0 + j]: the j-th character a wild may take
    m = scratch[:n_bg]
    kc = scratch[n_bg:n_bg + k]
    best_bg = scratch[n_bg + k:n_bg + k + wilds + 1]
    # With no cap on wilds per set, every wild may as well join a set: no wild stays out.
    z_max = 0 if max_wild >= wilds else wilds
    best = 0
    for z in range(z_max + 1):
        u = wilds - z
        # Background side: best_bg[F] over every split of the u wilds between backgrounds.
        for f_in in range(u + 1):
            best_bg[f_in] = NEG
        for b in range(n_bg):
            m[b] = 0
        m[0] = u
        while True:
            f = 0
            inside = 0
            for b in range(n_bg):
                if _formed(cnt[BG_N, b], m[b], set_size, min_nat, max_wild):
                    f += cnt[BG_V, b]
                    inside += m[b]
            f += pts * inside
            if f > best_bg[inside]:
                best_bg[inside] = f
            if not _next_composition(m, n_bg):
                break
        # Character side: every split of the u wilds between the characters a wild may take.
        for j in range(k):
            kc[j] = 0
        if k > 0:
            kc[0] = u
        while True:
            g = 0
            a = 0
            for j in range(k):
                c = srules[wild_ch0 + j]
                if c == ab_char:
                    a = kc[j]
                if _formed(cnt[CH_N, c], kc[j], set_size, min_nat, max_wild):
                    g += (cnt[CH_N, c] + kc[j]) * srules[RULE_CH_VAL + c]
            top = NEG
            for f_in in range(u + 1):
                if best_bg[f_in] > NEG:
                    v = best_bg[f_in] + extra * min(a, f_in)
                    if v > top:
                        top = v
            if g + top > best:
                best = g + top
            if k == 0 or not _next_composition(kc, k):
                break
    return best


@njit(cache=True, inline="always")
def shift_card(cnt, card_info, card, sign):
    """Add (sign=1) or remove (sign=-1) one card's counts; returns the change in wildcards."""
    c = card_info[card, INFO_CH]
    if c == WILD:
        return sign
    if c >= 0:
        b = card_info[card, INFO_BG]
        if b >= 0:
            cnt[BG_N, b] += sign
            cnt[BG_V, b] += sign * card_info[card, INFO_VAL]
        cnt[CH_N, c] += sign
    return 0


@njit(cache=True)
def count_hand(hand, seat, n, card_info, cnt):
    """Fill ``cnt`` from ``hand[seat, :n]``; returns the number of wildcards."""
    for r in range(3):
        for k in range(cnt.shape[1]):
            cnt[r, k] = 0
    wilds = 0
    for i in range(n):
        card = hand[seat, i]
        c = card_info[card, INFO_CH]
        if c == WILD:
            wilds += 1
        elif c >= 0:
            b = card_info[card, INFO_BG]
            if b >= 0:
                cnt[BG_N, b] += 1
                cnt[BG_V, b] += card_info[card, INFO_VAL]
            cnt[CH_N, c] += 1
    return wilds


@njit(cache=True)
def hand_score(hand, seat, n, card_info, srules, cnt, scratch):
    """The best score of ``hand[seat, :n]`` (card ids)."""
    wilds = count_hand(hand, seat, n, card_info, cnt)
    return best_score(cnt, wilds, srules, scratch)
