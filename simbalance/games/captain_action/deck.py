"""The captain-action deck as the config makes it, and what its cards score.

``engine.prepare`` turns these into the kernel's arrays; the report and the replay name cards by the
same deck, and ``score_hand`` scores with the same arrays. (Not in engine.py: the report and the
replay are hooks of the engine and must not import it.)
"""

from __future__ import annotations

import numpy as np

from simbalance.core.config import require_choice
from simbalance.core.config import require_int
from simbalance.decks.captain_action import DR_EVIL
from simbalance.decks.captain_action import KIND_CAPTAIN_WILD
from simbalance.decks.captain_action import KIND_DR_LING
from simbalance.decks.captain_action import load_deck
from simbalance.games.captain_action import state_nb

ACTION_BOY = "Action Boy"
UNLIMITED = 1 << 20  # rules.max_wilds_per_set = 0 means no cap
DR_LING_CHOICES = ["removed", "wild", "dr_evil"]
MAX_HAND = 30


def game_deck(cfg: dict):
    """The captain-action deck: every numbered card and Captain Action wildcard; Dr. Ling per
    ``rules.dr_ling`` (removed by default)."""
    deck = load_deck(cfg["deck"])
    dr_ling = require_choice(cfg, "rules.dr_ling", DR_LING_CHOICES)
    keep = deck.kind != KIND_DR_LING
    if dr_ling != "removed":
        keep = np.ones(deck.size, dtype=bool)
    return deck.select(keep)


def scoring_arrays(cfg: dict, deck) -> tuple[np.ndarray, np.ndarray]:
    """``card_info`` (per card: background, character or state_nb.WILD / state_nb.NO_SET, points in a set) and the
    scoring rule vector ``srules`` (layouts in state_nb)."""
    points = require_int(cfg, "rules.points_per_card", 0, 1000)
    ab_points = require_int(cfg, "rules.points_per_action_boy", 0, 1000)
    dr_ling = require_choice(cfg, "rules.dr_ling", DR_LING_CHOICES)
    set_size = require_int(cfg, "rules.set_size", 1, MAX_HAND)
    naturals = require_int(cfg, "rules.naturals_per_set", 1, set_size)
    max_wild = require_int(cfg, "rules.max_wilds_per_set", 0, MAX_HAND)
    evil = deck.character_index(DR_EVIL)
    ab = deck.characters.index(ACTION_BOY) if ACTION_BOY in deck.characters else -1
    n_bg, n_ch = len(deck.backgrounds), len(deck.characters)
    ch_val = [0 if c == evil else (ab_points if c == ab else points) for c in range(n_ch)]
    wild_chars = [c for c in range(n_ch) if c != evil]

    card_info = np.zeros((deck.size, 3), dtype=np.int64)
    card_info[:, state_nb.INFO_BG] = deck.background
    for card in range(deck.size):
        ch = int(deck.character[card])
        if deck.kind[card] == KIND_CAPTAIN_WILD or (deck.kind[card] == KIND_DR_LING and dr_ling == "wild"):
            card_info[card, state_nb.INFO_CH] = state_nb.WILD
        elif ch == evil:
            card_info[card, state_nb.INFO_CH] = state_nb.NO_SET  # Dr. Evil (and a plain Dr. Ling) is in no set at all
        else:
            card_info[card, state_nb.INFO_CH] = ch
            card_info[card, state_nb.INFO_VAL] = ch_val[ch]

    srules = np.zeros(state_nb.RULE_CH_VAL + n_ch + len(wild_chars), dtype=np.int64)
    srules[state_nb.RULE_SET_SIZE] = set_size
    srules[state_nb.RULE_MIN_NATURAL] = naturals
    srules[state_nb.RULE_MAX_WILD] = UNLIMITED if max_wild == 0 else max_wild
    srules[state_nb.RULE_POINTS] = points
    srules[state_nb.RULE_AB_POINTS] = ab_points
    srules[state_nb.RULE_AB_CHAR] = ab
    srules[state_nb.RULE_N_BG] = n_bg
    srules[state_nb.RULE_N_CH] = n_ch
    srules[state_nb.RULE_N_WILD_CH] = len(wild_chars)
    srules[state_nb.RULE_CH_VAL:state_nb.RULE_CH_VAL + n_ch] = ch_val
    srules[state_nb.RULE_CH_VAL + n_ch:] = wild_chars
    return card_info, srules
