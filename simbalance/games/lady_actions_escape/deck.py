"""The lady-actions-escape deck and the card table the kernel reads (config -> arrays).

The game plays the whole Captain Action deck (simbalance/decks); ``card_arrays`` turns it, with the
rules' wildcard and effect settings, into what the rules look up: per card its background,
character, wild flag, printed effect and number, and per top card the mask of the cards that may
follow it.
"""

from __future__ import annotations

import numpy as np

from simbalance.core.config import require_bool
from simbalance.core.errors import ConfigError
from simbalance.decks.captain_action import DR_EVIL
from simbalance.decks.captain_action import KIND_CAPTAIN_WILD
from simbalance.decks.captain_action import KIND_DR_LING
from simbalance.decks.captain_action import KIND_NUMBERED
from simbalance.decks.captain_action import load_deck
from simbalance.games.lady_actions_escape import state_nb

LADY_ACTION = "Lady Action"
CAPTAIN_ACTION = "Captain Action"


def game_deck(cfg: dict):
    """The lady-actions-escape deck: the whole Captain Action deck (53 cards by default)."""
    return load_deck(cfg["deck"])


def card_arrays(cfg: dict, deck) -> tuple:
    """``card_info`` (per card: background, character, wild flag, printed effect, printed number), the match masks
    per top card, and ``kind_cards`` (the masks of each background's, then each character's cards)."""
    wildcards = require_bool(cfg, "rules.wildcards")
    anything = require_bool(cfg, "rules.effects_play_on_anything")
    n_bg, n_ch = len(deck.backgrounds), len(deck.characters)
    evil = deck.character_index(DR_EVIL)
    lady = deck.characters.index(LADY_ACTION) if LADY_ACTION in deck.characters else -1
    card_bg = deck.background.astype(np.int64)
    card_ch = deck.character.astype(np.int64)
    card_wild = np.zeros(deck.size, dtype=np.bool_)
    captain = deck.kind == KIND_CAPTAIN_WILD
    if wildcards:
        card_wild[captain | (deck.kind == KIND_DR_LING)] = True
        card_ch[deck.kind == KIND_DR_LING] = -1  # a wild stands for nobody until it is named
    elif captain.any():
        if CAPTAIN_ACTION not in deck.characters:
            raise ConfigError(
                f"rules.wildcards = false: the Captain Action 0 cards become {CAPTAIN_ACTION!r}, "
                f"but deck.characters has no such character"
            )
        card_ch[captain] = deck.characters.index(CAPTAIN_ACTION)
    card_effect = np.full(deck.size, state_nb.EFFECT_NONE, dtype=np.int64)
    printed_evil = ((deck.kind == KIND_NUMBERED) & (deck.character == evil)) | (deck.kind == KIND_DR_LING)
    card_effect[printed_evil] = state_nb.EFFECT_DRAW
    if lady >= 0:
        card_effect[(deck.kind == KIND_NUMBERED) & (deck.character == lady)] = state_nb.EFFECT_REVERSE
    anywhere = card_wild | (anything & (card_effect != state_nb.EFFECT_NONE))
    match = np.zeros((n_bg + 1) * (n_ch + 1), dtype=np.uint64)
    for bg in range(-1, n_bg):
        for ch in range(-1, n_ch):
            ok = anywhere | ((card_bg >= 0) & (card_bg == bg)) | ((card_ch >= 0) & (card_ch == ch))
            match[state_nb.top_index(bg, ch, n_ch)] = _mask(np.flatnonzero(ok))
    kind_cards = np.array([_mask(np.flatnonzero(card_bg == b)) for b in range(n_bg)]
                          + [_mask(np.flatnonzero(card_ch == c)) for c in range(n_ch)], dtype=np.uint64)
    card_info = np.zeros((deck.size, state_nb.N_INFO), dtype=np.int64)
    card_info[:, state_nb.INFO_BG] = card_bg
    card_info[:, state_nb.INFO_CH] = card_ch
    card_info[:, state_nb.INFO_WILD] = card_wild
    card_info[:, state_nb.INFO_EFFECT] = card_effect
    card_info[:, state_nb.INFO_NUMBER] = deck.number
    return card_info, match, kind_cards


def _mask(cards) -> np.uint64:
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return np.uint64(m)


def can_ever_play(card_bg, card_ch, match, n_ch) -> bool:
    """Can some card follow some other card? (Otherwise every game is a stalemate.)"""
    for a in range(len(card_bg)):
        others = int(match[state_nb.top_index(int(card_bg[a]), int(card_ch[a]), n_ch)]) & ~(1 << a)
        if others:
            return True
    return False
