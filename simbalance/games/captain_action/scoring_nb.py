"""Set scoring of captain-action, jitted (docs/rules/captain-action.md, "Scoring").

A hand is scored from counts, not from its card list, so the engine can ask "what if I swapped this
card for that one?" by changing two counts:

- ``bg_n[b]`` / ``bg_v[b]``: how many natural cards of background ``b`` can be in a set, and what they
  are worth together (an Action Boy is worth more);
- ``ch_n[c]``: how many natural cards show character ``c`` (always 0 for a character in no set);
- ``wilds``: how many wildcards the hand holds.

Natural cards of a character in no set (Dr. Evil) count nowhere, not even for their background.

Wildcards are the only hard part: each takes a character and a background, jointly chosen to
maximise the score. Enumerating identities per wild is 12**w; instead this enumerates how many wilds
go to each background (a composition of w into B parts) and, separately, how many take each
character (a composition of w into K parts). The two sides interact only through the Action Boy
wilds: an Action Boy wild adds its extra value to the background set it sits in, so the background
side is summarised by ``best_bg[F]`` = best background total with F wilds inside formed background
sets, and the character side adds ``extra * min(a, F)`` for its ``a`` Action Boy wilds (they go to
formed background sets first). With a cap on wilds per set a wild may have to stay out of every set
(it takes the identity Dr. Evil), hence the outer loop over ``z`` such wilds.

``rules`` is an int64 vector (see RULE_* below) so the kernel signature stays short.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# Indices into the scoring rule vector built by engine.prepare (and by score_hand).
RULE_SET_SIZE = 0  # cards needed for a set (3)
RULE_MIN_NATURAL = 1  # natural cards of its own kind a set needs (2)
RULE_MAX_WILD = 2  # wildcards allowed in one set (a large number: unlimited)
RULE_POINTS = 3  # points per card in a set (4)
RULE_AB_POINTS = 4  # points per Action Boy in a set (8)
RULE_AB_CHAR = 5  # character index of Action Boy (-1: the deck has none)
N_SCORE_RULES = 6

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


@njit(cache=True)
def _formed(natural, wild, rules):
    return (natural >= rules[RULE_MIN_NATURAL] and natural + wild >= rules[RULE_SET_SIZE]
            and wild <= rules[RULE_MAX_WILD])


@njit(cache=True)
def best_score(bg_n, bg_v, ch_n, ch_val, wild_chars, wilds, rules, scratch):
    """The best score of a hand given its counts (module docstring).

    ``ch_val[c]``: points per card of character c; ``wild_chars``: the characters a wild may take
    that can be in a set; ``scratch``: int64 work array of at least ``B + K + wilds + 1`` entries.
    """
    n_bg = bg_n.shape[0]
    n_ch = ch_n.shape[0]
    if wilds == 0:
        total = 0
        for b in range(n_bg):
            if _formed(bg_n[b], 0, rules):
                total += bg_v[b]
        for c in range(n_ch):
            if _formed(ch_n[c], 0, rules):
                total += ch_n[c] * ch_val[c]
        return total

    pts = rules[RULE_POINTS]
    extra = rules[RULE_AB_POINTS] - pts
    ab_char = rules[RULE_AB_CHAR]
    k = wild_chars.shape[0]
    m = scratch[:n_bg]
    kc = scratch[n_bg:n_bg + k]
    best_bg = scratch[n_bg + k:n_bg + k + wilds + 1]
    # With no cap on wilds per set, every wild may as well join a set: no wild stays out.
    z_max = 0 if rules[RULE_MAX_WILD] >= wilds else wilds
    best = 0
    for z in range(z_max + 1):
        u = wilds - z
        # Background side: best_bg[F] over every split of the u wilds between backgrounds.
        best_bg[:] = NEG
        m[:] = 0
        m[0] = u
        while True:
            f = 0
            inside = 0
            for b in range(n_bg):
                if _formed(bg_n[b], m[b], rules):
                    f += bg_v[b]
                    inside += m[b]
            f += pts * inside
            if f > best_bg[inside]:
                best_bg[inside] = f
            if not _next_composition(m, n_bg):
                break
        # Character side: every split of the u wilds between characters.
        kc[:] = 0
        if k > 0:
            kc[0] = u
        while True:
            g = 0
            a = 0
            for j in range(k):
                c = wild_chars[j]
                if c == ab_char:
                    a = kc[j]
            for c in range(n_ch):
                kj = 0
                for j in range(k):
                    if wild_chars[j] == c:
                        kj = kc[j]
                if _formed(ch_n[c], kj, rules):
                    g += (ch_n[c] + kj) * ch_val[c]
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
def add_card(card, sign, card_bg, card_ch, card_val, ch_scores, bg_n, bg_v, ch_n, wilds):
    """Add (sign=1) or remove (sign=-1) one card's contribution to the counts; returns new wilds."""
    c = card_ch[card]
    if c < 0:  # a wildcard
        return wilds + sign
    if ch_scores[c]:
        b = card_bg[card]
        if b >= 0:
            bg_n[b] += sign
            bg_v[b] += sign * card_val[card]
        ch_n[c] += sign
    return wilds


@njit(cache=True)
def hand_score(hand, n, card_bg, card_ch, card_val, ch_scores, ch_val, wild_chars, rules, counts, scratch):
    """The best score of ``hand[:n]`` (card ids). ``counts``: int64 work array of 2B + C entries."""
    n_bg = (counts.shape[0] - ch_val.shape[0]) // 2
    bg_n = counts[:n_bg]
    bg_v = counts[n_bg:2 * n_bg]
    ch_n = counts[2 * n_bg:]
    counts[:] = 0
    wilds = 0
    for i in range(n):
        wilds = add_card(hand[i], 1, card_bg, card_ch, card_val, ch_scores, bg_n, bg_v, ch_n, wilds)
    return best_score(bg_n, bg_v, ch_n, ch_val, wild_chars, wilds, rules, scratch)
