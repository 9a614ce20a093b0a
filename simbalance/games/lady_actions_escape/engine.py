"""lady-actions-escape engine: config -> arrays, record layout, kernel, report hooks.

Version history (bump ENGINE_VERSION only when game behaviour changes):
1. First version: rules as pinned in docs/rules/lady-actions-escape.md.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from simbalance.core.config import require_bool, require_int
from simbalance.core.errors import ConfigError
from simbalance.core.records import MAX_SEATS, record_dtype
from simbalance.decks.captain_action import DR_EVIL, KIND_CAPTAIN_WILD, KIND_DR_LING, KIND_NUMBERED, load_deck
from simbalance.games.lady_actions_escape.rules_nb import (
    G_DRAW,
    G_HAND,
    G_N_BG,
    G_PLAYERS,
    G_REVERSE,
    G_TURN_CAP,
    N_GAME_RULES,
    kernel,  # noqa: F401  (the engine's kernel)
    top_index,
)
from simbalance.games.lady_actions_escape.strategies_nb import (
    EFFECT_DRAW,
    EFFECT_NONE,
    EFFECT_REVERSE,
    INFO_BG,
    INFO_CH,
    INFO_EFFECT,
    INFO_WILD,
)

ENGINE_VERSION = 1
CHUNK_SIZE = 1 << 15
STRATEGIES = {"random": 0, "flexible": 1, "steer": 1, "blocker": 2}  # steer: flexible's code, other weights

LADY_ACTION = "Lady Action"
CAPTAIN_ACTION = "Captain Action"
MAX_CARDS = 64  # hands are 64-bit masks

RECORD_DTYPE = record_dtype([
    ("plays", np.int32, (MAX_SEATS,)),  # cards each seat played
    ("drawn", np.int32, (MAX_SEATS,)),  # cards each seat drew (Dr. Evil penalties included)
    ("cards_left", np.int8, (MAX_SEATS,)),  # cards in each hand when the game ended
    ("reversals", np.int32),  # Lady Actions played (direction reversed)
    ("draw_twos", np.int32),  # Dr. Evils played (everyone else drew)
    ("reshuffles", np.int32),  # times the discard pile was shuffled into a new draw pile
    ("passes", np.int32),  # turns in which a player could neither play nor draw
    ("wilds_played", np.int32),  # wildcards played
])


def game_deck(cfg: dict):
    """The lady-actions-escape deck: the whole Captain Action deck (53 cards by default)."""
    return load_deck(cfg["deck"])


def card_arrays(cfg: dict, deck) -> tuple:
    """``card_info`` (per card: background, character, wild flag, printed effect), the match masks
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
    card_effect = np.full(deck.size, EFFECT_NONE, dtype=np.int64)
    printed_evil = ((deck.kind == KIND_NUMBERED) & (deck.character == evil)) | (deck.kind == KIND_DR_LING)
    card_effect[printed_evil] = EFFECT_DRAW
    if lady >= 0:
        card_effect[(deck.kind == KIND_NUMBERED) & (deck.character == lady)] = EFFECT_REVERSE
    anywhere = card_wild | (anything & (card_effect != EFFECT_NONE))
    match = np.zeros((n_bg + 1) * (n_ch + 1), dtype=np.uint64)
    for bg in range(-1, n_bg):
        for ch in range(-1, n_ch):
            ok = anywhere | ((card_bg >= 0) & (card_bg == bg)) | ((card_ch >= 0) & (card_ch == ch))
            match[top_index(bg, ch, n_ch)] = _mask(np.flatnonzero(ok))
    kind_cards = np.array([_mask(np.flatnonzero(card_bg == b)) for b in range(n_bg)]
                          + [_mask(np.flatnonzero(card_ch == c)) for c in range(n_ch)], dtype=np.uint64)
    card_info = np.zeros((deck.size, 4), dtype=np.int64)
    card_info[:, INFO_BG] = card_bg
    card_info[:, INFO_CH] = card_ch
    card_info[:, INFO_WILD] = card_wild
    card_info[:, INFO_EFFECT] = card_effect
    return card_info, match, kind_cards


def _mask(cards) -> np.uint64:
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return np.uint64(m)


def _can_ever_play(card_bg, card_ch, match, n_ch) -> bool:
    """Can some card follow some other card? (Otherwise every game is a stalemate.)"""
    for a in range(len(card_bg)):
        others = int(match[top_index(int(card_bg[a]), int(card_ch[a]), n_ch)]) & ~(1 << a)
        if others:
            return True
    return False


def prepare(cfg: dict, players: int, validate: bool = False) -> tuple:
    deck = game_deck(cfg)
    if players > MAX_SEATS:
        raise ConfigError(f"game.players = {players}: at most {MAX_SEATS}")
    if deck.size > MAX_CARDS:
        raise ConfigError(f"deck: {deck.size} lady-actions-escape cards; at most {MAX_CARDS} are supported")
    card_info, match, kind_cards = card_arrays(cfg, deck)
    if not _can_ever_play(card_info[:, INFO_BG], card_info[:, INFO_CH], match, len(deck.characters)):
        raise ConfigError("deck: no card of this deck can ever follow another; every game would stall")
    hand_size = require_int(cfg, "rules.hand_size", 1, 100)
    if players * hand_size > deck.size:
        raise ConfigError(
            f"rules.hand_size = {hand_size}: {players} players need {players * hand_size} cards "
            f"but the deck has {deck.size}"
        )
    game_rules = np.zeros(N_GAME_RULES, dtype=np.int64)
    game_rules[G_PLAYERS] = players
    game_rules[G_HAND] = hand_size
    game_rules[G_REVERSE] = require_bool(cfg, "rules.reverse")
    game_rules[G_DRAW] = require_int(cfg, "rules.draw_penalty", 0, 100)
    game_rules[G_TURN_CAP] = require_int(cfg, "rules.turn_cap", 1, 10**7)
    game_rules[G_N_BG] = len(deck.backgrounds)
    return card_info, match, kind_cards, game_rules, np.bool_(validate)


# ---------------------------------------------------------------------------------------------
# Report hooks


def _cols(games: pd.DataFrame, field: str, players: int) -> list[str]:
    return [f"{field}_{s}" for s in range(players) if f"{field}_{s}" in games]


def summarize(games: pd.DataFrame, players: int) -> dict:
    """Plays, reversals, Dr. Evil draws, reshuffles, passes and cards left per seat."""
    if len(games) == 0:
        return {}
    out = {}
    for field in ("reversals", "draw_twos", "reshuffles", "passes", "wilds_played"):
        out[f"{field}_mean"] = float(games[field].mean())
    out["share_with_reshuffle"] = float((games["reshuffles"] > 0).mean())
    for field in ("plays", "drawn", "cards_left"):
        out[f"{field}_mean_by_seat"] = [float(games[c].mean()) for c in _cols(games, field, players)]
    left = games[_cols(games, "cards_left", players)].to_numpy()
    finished = games["end"].to_numpy() == 0
    if finished.any():
        # Cards the losers still held: how close the race was.
        losers = left[finished]
        out["cards_left_losers_mean"] = float(losers[losers > 0].mean()) if (losers > 0).any() else 0.0
    return out


def figures(games: pd.DataFrame, summary: dict) -> dict:
    """Cards left in the losers' hands, and the game's event counts."""
    from matplotlib.figure import Figure

    players = sum(1 for c in games.columns if c.startswith("cards_left_"))
    left = games[[f"cards_left_{s}" for s in range(players)]].to_numpy()
    losers = left[(games["end"].to_numpy() == 0)[:, None] & (left > 0)]
    fig = Figure(figsize=(6, 3.5))
    ax = fig.add_subplot()
    if losers.size:
        values, counts = np.unique(losers, return_counts=True)
        ax.bar(values, counts / counts.sum())
    ax.set_xlabel("cards left in a losing hand at the end")
    ax.set_ylabel("share of losing hands")
    ax.set_title("lady-actions-escape: how close the others were")
    figs = {"lady_actions_escape_cards_left": fig}

    fig = Figure(figsize=(6, 3.5))
    ax = fig.add_subplot()
    names = ["reversals", "draw_twos", "reshuffles", "passes", "wilds_played"]
    ax.bar(names, [games[n].mean() for n in names])
    ax.set_ylabel("per game (mean)")
    ax.set_title("lady-actions-escape: events per game")
    figs["lady_actions_escape_events"] = fig
    return figs
