"""captain-action engine: the contract (``ENGINE``), the record layout, the strategies' names and
parameters, and ``prepare`` (config -> the kernel's arrays).

Version history (bump ENGINE_VERSION only when game behaviour changes):
1. First version: rules as pinned in docs/rules/captain-action.md.
2. Fair heuristics (issue 17): builder, bold and collector discard uniformly at random among the
   cards whose discard leaves the same best hand value (was: the first such card in hand order), one
   draw from the game's stream per tie; new heuristic ``collector`` (id 3).
3. Whole-game metrics and loop detection (issue 21): the records gain core/whole_game.PROGRESS_FIELDS
   (progress: the sets in each hand as they stand, at the end the final score), and a game in
   which nobody draws from the Countdown Deck for ``rules.stalemate_window`` turns ends as a
   stalemate, reason ``discard-loop`` (was: a timeout at the turn cap).

Not a new version: the search players ``mcts`` and ``flat`` (simbalance/players), with the cards
each seat took from the discard pile tracked in the state (what the others know of its hand). Games
without a search seat are the same games.
"""

from __future__ import annotations

import sys

import numpy as np

from simbalance.core.config import require_bool
from simbalance.core.config import require_choice
from simbalance.core.config import require_int
from simbalance.core.config import seat_points
from simbalance.core.errors import ConfigError
from simbalance.core.records import MAX_SEATS
from simbalance.core.records import record_dtype
from simbalance.core.spec import Cards
from simbalance.core.spec import CardSwap
from simbalance.core.spec import Engine
from simbalance.core.whole_game import PROGRESS_FIELDS
from simbalance.games.captain_action import card_value_nb
from simbalance.games.captain_action import play_nb
from simbalance.games.captain_action import search_nb
from simbalance.games.captain_action import state_nb
from simbalance.games.captain_action import validate_nb
from simbalance.games.captain_action.deck import MAX_HAND
from simbalance.games.captain_action.deck import game_deck
from simbalance.games.captain_action.deck import scoring_arrays
from simbalance.games.captain_action.replay import replay
from simbalance.games.captain_action.replay import trace
from simbalance.games.captain_action.report import card_labels
from simbalance.games.captain_action.report import card_masks
from simbalance.games.captain_action.report import figures
from simbalance.games.captain_action.report import summarize
from simbalance.players import SEARCH_PARAMS
from simbalance.players import SEARCH_STRATEGIES

# card-value: how a player's own choices can link holding a card to winning (core/spec.CardSwap.selection;
# None: the deal and the play hand cards out blind)
CARD_SELECTION = "players choose which cards to keep (each draw and discard)"

ENGINE_VERSION = 3
CHUNK_SIZE = 1 << 17
STRATEGIES = {"random": state_nb.RANDOM, "builder": state_nb.BUILDER, "bold": state_nb.BOLD,
              "collector": state_nb.COLLECTOR, **SEARCH_STRATEGIES}
# Each heuristic's parameters in the order its code reads them (state_nb.P_*); configs bind by name.
STRATEGY_PARAMS = {
    "random": ("call",),
    "builder": ("take_gain", "pair_weight", "call_score", "call_slope"),
    "bold": ("take_gain", "pair_weight", "call_score"),
    "collector": ("take_gain", "pair_weight", "call_score", "call_slope", "min_turns"),
    **SEARCH_PARAMS,
}
CALL_TIMINGS = ["after_discard", "before_draw"]
PENALTY_TO = ["all", "last_drawer"]

RECORD_DTYPE = record_dtype([
    ("caller", np.int8),  # the seat that called "Let Justice Be Done!"; -1: nobody did
    ("countdown_left", np.int8),  # Countdown cards left when the game ended (the caller's bonus)
    ("countdown_out", np.int8),  # 1: the Countdown Deck ran out (attack with no bonus)
    ("score", np.int16, (MAX_SEATS,)),  # final score: sets, plus the bonus, minus any penalty
    ("hand_score", np.int16, (MAX_SEATS,)),  # the sets in the final hand alone
    ("takes", np.int16, (MAX_SEATS,)),  # cards taken from the discard pile
    ("hand_mask", np.uint64, (MAX_SEATS,)),  # bit c set when card c of the game deck ends in the hand
    *PROGRESS_FIELDS,  # the whole-game metrics and the stalemate reason (core/whole_game.py)
])
PROGRESS = "the sets in the hand as it stands (at the end: the final score, bonus and penalty included)"
STALEMATE_REASONS = {
    state_nb.R_DISCARD_LOOP: ("discard-loop", "nobody drew from the Countdown Deck for rules.stalemate_window turns: every "
                              "player keeps taking the discard pile's top card and nobody calls"),
}


def prepare(cfg: dict, players: int, validate: bool = False) -> tuple:
    deck = game_deck(cfg)
    if len(deck.backgrounds) > 16 or len(deck.characters) > 16:
        raise ConfigError("deck: captain-action supports at most 16 backgrounds and 16 characters")
    if deck.size > 64:
        raise ConfigError(f"deck: {deck.size} captain-action cards; at most 64 are supported")
    if players > MAX_SEATS:
        raise ConfigError(f"game.players = {players}: at most {MAX_SEATS}")
    hand_size = require_int(cfg, "rules.hand_size", 1, MAX_HAND)
    countdown = require_int(cfg, "rules.countdown", 1, 64)
    needed = players * hand_size + countdown + 1
    if needed > deck.size:
        raise ConfigError(
            f"rules.hand_size = {hand_size}, rules.countdown = {countdown}: {players} players need "
            f"{players} x {hand_size} + {countdown} + 1 = {needed} cards but the deck has {deck.size}"
        )
    card_info, srules = scoring_arrays(cfg, deck)
    game_rules = np.zeros(state_nb.N_GAME_RULES, dtype=np.int64)
    game_rules[state_nb.G_PLAYERS] = players
    game_rules[state_nb.G_HAND] = hand_size
    game_rules[state_nb.G_COUNTDOWN] = countdown
    game_rules[state_nb.G_TAKE_BACK] = require_bool(cfg, "rules.take_back")
    game_rules[state_nb.G_CALL_BEFORE] = require_choice(cfg, "rules.call_timing", CALL_TIMINGS) == "before_draw"
    game_rules[state_nb.G_PENALTY] = require_int(cfg, "rules.countdown_penalty", 0, 1000)
    game_rules[state_nb.G_PENALTY_ALL] = require_choice(cfg, "rules.penalty_to", PENALTY_TO) == "all"
    game_rules[state_nb.G_TURN_CAP] = require_int(cfg, "rules.turn_cap", 1, 30000)  # records count in int16
    game_rules[state_nb.G_WINDOW] = require_int(cfg, "rules.stalemate_window", 0, 30000)
    # Seat compensation (docs/rules/captain-action.md, "Seat compensation"): points added at the attack.
    game_rules[state_nb.G_COMP_PTS:state_nb.G_COMP_PTS + players] = seat_points(cfg, players)
    for name in STRATEGIES:
        table = cfg.get("strategies", {}).get(name, {})
        if name == "random":
            p = table.get("call", 0.5)
            if not isinstance(p, (int, float)) or not 0 <= p <= 1:
                raise ConfigError(f"strategies.random.call = {p!r}: a probability from 0 to 1")
    return card_info, srules, game_rules, np.bool_(validate)


ENGINE = Engine.of_game(sys.modules[__name__], play_nb, state_nb, validate_nb, search_nb,
                        summarize=summarize, figures=figures, cards=Cards(card_labels, card_masks), replay=replay,
                        trace=trace, card_swap=CardSwap.of_game(card_value_nb, selection=CARD_SELECTION))
