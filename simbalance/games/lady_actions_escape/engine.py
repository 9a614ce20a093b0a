"""lady-actions-escape engine: the contract (ENGINE), config -> arrays, the record layout.

Version history (bump ENGINE_VERSION only when game behaviour changes):
1. First version: rules as pinned in docs/rules/lady-actions-escape.md.
2. Fair heuristics (issue 17): flexible, steer, blocker (and the naming of a plug-in's wildcards)
   choose uniformly at random among equally valued cards, backgrounds and characters (was: the
   lowest card id, the first kind in deck order), one draw from the game's stream per tie; new key
   ``rules.first_leader`` ("seat0", the default and the old behaviour, "rotate": seat (g // lineups) %
   players leads game g, or "random").
3. Whole-game metrics and loop detection (issue 21): the records gain core/whole_game.PROGRESS_FIELDS
   (progress: minus the cards held), and a game in which the discard pile is reshuffled in every
   round while no seat gets below the fewest cards held so far, for ``rules.stalemate_window``
   turns (default 1,000), ends as a stalemate with its reason (``dr-evil-chain``,
   ``dr-evil-lady-action-cycle``, ``recycling``); the full round of passes is reason ``no-play``.
   Games that used to reach the turn cap in such a loop now end as stalemates, earlier.

Not a new version: the search players ``mcts`` and ``flat`` (simbalance/players). Games without a
search seat are the same games.
"""

from __future__ import annotations

import sys

import numpy as np

from simbalance.core.compensation import deal_order
from simbalance.core.config import require_bool
from simbalance.core.config import require_choice
from simbalance.core.config import require_int
from simbalance.core.config import seat_compensation
from simbalance.core.errors import ConfigError
from simbalance.core.records import MAX_SEATS
from simbalance.core.records import record_dtype
from simbalance.core.spec import Cards
from simbalance.core.spec import CardSwap
from simbalance.core.spec import Engine
from simbalance.core.spec import UserStrategy
from simbalance.core.whole_game import PROGRESS_FIELDS
from simbalance.games.lady_actions_escape import card_value_nb
from simbalance.games.lady_actions_escape import play_nb
from simbalance.games.lady_actions_escape import search_nb
from simbalance.games.lady_actions_escape import state_nb
from simbalance.games.lady_actions_escape import validate_nb
from simbalance.games.lady_actions_escape.deck import can_ever_play
from simbalance.games.lady_actions_escape.deck import card_arrays
from simbalance.games.lady_actions_escape.deck import game_deck
from simbalance.games.lady_actions_escape.replay import replay
from simbalance.games.lady_actions_escape.replay import trace
from simbalance.games.lady_actions_escape.report import card_labels
from simbalance.games.lady_actions_escape.report import card_masks
from simbalance.games.lady_actions_escape.report import figures
from simbalance.games.lady_actions_escape.report import summarize
from simbalance.games.lady_actions_escape.user_strategy import USER_STRATEGY_DOC
from simbalance.games.lady_actions_escape.user_strategy import build_user_strategy_kernel
from simbalance.games.lady_actions_escape.user_strategy import sample_decisions
from simbalance.players import SEARCH_PARAMS
from simbalance.players import SEARCH_STRATEGIES

# card-value: how a player's own choices can link holding a card to winning (core/spec.CardSwap.selection;
# None: the deal and the play hand cards out blind)
CARD_SELECTION = "players choose which cards to lead, play and name"

ENGINE_VERSION = 3
CHUNK_SIZE = 1 << 15
# steer: flexible's code, other weights; mcts and flat: the search players (simbalance/players)
STRATEGIES = {"random": 0, "flexible": 1, "steer": 1, "blocker": 2, **SEARCH_STRATEGIES}
# Each heuristic's parameters in the order its code reads them (state_nb.P_*); configs bind by name.
STRATEGY_PARAMS = {
    "random": (),
    "flexible": ("bg_weight", "char_weight", "wild_hold"),
    "steer": ("bg_weight", "char_weight", "wild_hold"),
    "blocker": ("bg_weight", "char_weight", "wild_hold", "danger", "weapon_hold"),
    **SEARCH_PARAMS,
}

FIRST_LEADERS = ["seat0", "rotate", "random"]  # state_nb.LEADER_* in this order

RECORD_DTYPE = record_dtype([
    ("plays", np.int32, (MAX_SEATS,)),  # cards each seat played
    ("drawn", np.int32, (MAX_SEATS,)),  # cards each seat drew (Dr. Evil penalties included)
    ("cards_left", np.int8, (MAX_SEATS,)),  # cards in each hand when the game ended
    ("dealt_mask", np.uint64, (MAX_SEATS,)),  # bit c set when card c of the game deck was dealt to the seat
    ("hand_mask", np.uint64, (MAX_SEATS,)),  # bit c set when card c is in the seat's hand at the end
    ("reversals", np.int32),  # Lady Actions played (direction reversed)
    ("draw_twos", np.int32),  # Dr. Evils played (everyone else drew)
    ("reshuffles", np.int32),  # times the discard pile was shuffled into a new draw pile
    ("passes", np.int32),  # turns in which a player could neither play nor draw
    ("wilds_played", np.int32),  # wildcards played
    *PROGRESS_FIELDS,  # the whole-game metrics and the stalemate reason (core/whole_game.py)
])
PROGRESS = "minus the cards held: the seat with the fewest cards leads"
STALEMATE_REASONS = {
    state_nb.R_NO_PLAY: ("no-play", "a full round in which nobody could play or draw (rule 9)"),
    state_nb.R_DR_EVIL_CHAIN: ("dr-evil-chain", "dr-evil chain: Dr. Evil answered with Dr. Evil, penalty draws recycle the "
                               "discard pile and nobody gets closer to going out"),
    state_nb.R_EVIL_LADY_CYCLE: ("dr-evil-lady-action-cycle", "Dr. Evil and Lady Action in turn: reversals send the "
                                 "penalty back, penalty draws recycle the discard pile and nobody gets closer to going out"),
    state_nb.R_RECYCLING: ("recycling", "the discard pile is reshuffled every round and nobody gets closer to going out"),
}


def prepare(cfg: dict, players: int, validate: bool = False) -> tuple:
    deck = game_deck(cfg)
    if players > MAX_SEATS:
        raise ConfigError(f"game.players = {players}: at most {MAX_SEATS}")
    if deck.size > state_nb.MAX_CARDS:
        raise ConfigError(f"deck: {deck.size} lady-actions-escape cards; at most {state_nb.MAX_CARDS} are supported")
    card_info, match, kind_cards = card_arrays(cfg, deck)
    if not can_ever_play(card_info[:, state_nb.INFO_BG], card_info[:, state_nb.INFO_CH], match, len(deck.characters)):
        raise ConfigError("deck: no card of this deck can ever follow another; every game would stall")
    hand_size = require_int(cfg, "rules.hand_size", 1, 100)
    if hand_size == 1:  # any card may be led: the leader's only card ends the game before anyone else plays
        raise ConfigError("rules.hand_size = 1: no game can be played: the first leader would lead its only card "
                          "and win every game at once; allowed 2 to 100")
    if players * hand_size > deck.size:
        raise ConfigError(
            f"rules.hand_size = {hand_size}: {players} players need {players * hand_size} cards "
            f"but the deck has {deck.size}"
        )
    # Seat compensation (docs/rules/lady-actions-escape.md, "Seat compensation"): cards dealt to a seat
    # beyond (below) hand_size come from (stay on) the draw pile; every seat is dealt at least 1.
    extra = seat_compensation(cfg, "cards", players, 1 - hand_size, deck.size - players * hand_size)
    hands = [hand_size + e for e in extra]
    if sum(hands) > deck.size:
        seat = max(range(players), key=lambda s: extra[s])
        raise ConfigError(f"compensation.cards.{seat + 1} = {extra[seat]}: the hands would need {sum(hands)} "
                          f"cards (compensation.cards.* = {extra}); the deck has {deck.size}")
    deal = deal_order(hands)
    game_rules = np.zeros(state_nb.N_GAME_RULES, dtype=np.int64)
    game_rules[state_nb.G_PLAYERS] = players
    game_rules[state_nb.G_HAND] = hand_size
    game_rules[state_nb.G_REVERSE] = require_bool(cfg, "rules.reverse")
    game_rules[state_nb.G_DRAW] = require_int(cfg, "rules.draw_penalty", 0, 100)
    game_rules[state_nb.G_TURN_CAP] = require_int(cfg, "rules.turn_cap", 1, 10**7)
    game_rules[state_nb.G_WINDOW] = require_int(cfg, "rules.stalemate_window", 0, 10**7)
    game_rules[state_nb.G_N_BG] = len(deck.backgrounds)
    game_rules[state_nb.G_LEADER] = FIRST_LEADERS.index(require_choice(cfg, "rules.first_leader", FIRST_LEADERS))
    game_rules[state_nb.G_DEALT] = deal.size
    game_rules[state_nb.G_DEAL_SEAT:state_nb.G_DEAL_SEAT + deal.size] = deal
    return card_info, match, kind_cards, game_rules, np.bool_(validate)


def user_strategy_sample(players: int) -> list[tuple]:
    """Engine.user_strategy.sample: decisions to probe a user's function on (user_strategy.py)."""
    return sample_decisions(prepare, players)


def user_strategy_kernel(fn):
    """Engine.user_strategy.kernel: the kernel around a user's strategy ``fn`` (user_strategy.py)."""
    return build_user_strategy_kernel(fn, prepare, RECORD_DTYPE)


ENGINE = Engine.of_game(sys.modules[__name__], play_nb, state_nb, validate_nb, search_nb,
                        summarize=summarize, figures=figures, cards=Cards(card_labels, card_masks), replay=replay,
                        trace=trace, user_strategy=UserStrategy(user_strategy_kernel, USER_STRATEGY_DOC,
                                                      user_strategy_sample),
                        card_swap=CardSwap.of_game(card_value_nb, selection=CARD_SELECTION))
