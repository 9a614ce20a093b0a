"""find-dr-evil engine: the contract (ENGINE), config -> arrays, the record layout.

Version history (bump ENGINE_VERSION only when game behaviour changes):
1. First version: rules as pinned in docs/rules/find-dr-evil.md.
2. Whole-game metrics and loop detection (issue 21): the records gain core/whole_game.PROGRESS_FIELDS
   (progress: who holds Dr. Ling), and a game without a pair for ``rules.stalemate_window`` picks
   ends as a stalemate (reason ``no-pair``; never seen with the defaults: the same games as v1).
"""

from __future__ import annotations

import sys

import numpy as np

from simbalance.core.compensation import deal_order
from simbalance.core.compensation import spread
from simbalance.core.config import require_bool
from simbalance.core.config import require_int
from simbalance.core.config import seat_compensation
from simbalance.core.errors import ConfigError
from simbalance.core.records import MAX_SEATS
from simbalance.core.records import record_dtype
from simbalance.core.spec import Cards
from simbalance.core.spec import CardSwap
from simbalance.core.spec import Engine
from simbalance.core.whole_game import PROGRESS_FIELDS
from simbalance.decks.captain_action import KIND_DR_LING
from simbalance.games.find_dr_evil import card_value_nb
from simbalance.games.find_dr_evil import play_nb
from simbalance.games.find_dr_evil import state_nb
from simbalance.games.find_dr_evil import validate_nb
from simbalance.games.find_dr_evil.deck import game_deck
from simbalance.games.find_dr_evil.replay import replay
from simbalance.games.find_dr_evil.replay import trace
from simbalance.games.find_dr_evil.report import card_labels
from simbalance.games.find_dr_evil.report import card_masks
from simbalance.games.find_dr_evil.report import summarize

# card-value: how a player's own choices can link holding a card to winning (core/spec.CardSwap.selection;
# None: the deal and the play hand cards out blind)
CARD_SELECTION = None

ENGINE_VERSION = 2
CHUNK_SIZE = 1 << 18
STRATEGIES = {"random": state_nb.RANDOM}  # no decisions: every strategy plays the same
STRATEGY_PARAMS = {"random": ()}

RECORD_DTYPE = record_dtype([
    ("ling_dealt", np.int8),  # the seat dealt Dr. Ling
    ("kept", np.int8, (MAX_SEATS,)),  # cards left after the opening discards
    ("dealt_mask", np.uint64, (MAX_SEATS,)),  # bit c set when card c of the game deck was dealt to the seat
    *PROGRESS_FIELDS,  # the whole-game metrics (core/whole_game.py)
])
PROGRESS = "holds Dr. Ling (1) or not (0): the seat that would win if the game stopped now"
STALEMATE_REASONS = {
    state_nb.R_NO_PAIR: ("no-pair", "no pair was made in rules.stalemate_window picks: the same cards pass round and round"),
}


def prepare(cfg: dict, players: int, validate: bool = False) -> tuple:
    """The kernel's arguments after its common ones: (card_pose, ling, n_pose_ids, players, rules,
    validate), the order of the game's context (state_nb.py)."""
    deck = game_deck(cfg)
    n_ling = int(np.sum(deck.kind == KIND_DR_LING))
    if n_ling != 1:
        raise ConfigError(f"deck.wildcards.dr_ling = {n_ling}: find-dr-evil needs exactly 1 Dr. Ling")
    poses, counts = np.unique(deck.pose[deck.kind != KIND_DR_LING], return_counts=True)
    for pose, cnt in zip(poses, counts, strict=True):
        if cnt % 2:
            raise ConfigError(
                f"deck.poses.{deck.pose_ids[pose]}: {cnt} cards; find-dr-evil needs an even number of "
                "cards in every pose (or a pair could never be made and the game could not end)"
            )
    if deck.size == n_ling:  # no pair: no game could be played, every deal would decide it
        raise ConfigError(
            f"deck: the find-dr-evil deck is Dr. Ling alone (deck.removed = {cfg['deck'].get('removed', [])}), and "
            "no game can be played: every deal would end the game before the first pick, won by the seat dealt "
            "Dr. Ling; keep at least one pair"
        )
    if deck.size > 64:
        raise ConfigError(f"deck: {deck.size} find-dr-evil cards; at most 64 are supported")
    rules = np.zeros(state_nb.N_RULES, dtype=np.int64)
    rules[state_nb.PICK_CAP] = require_int(cfg, "rules.pick_cap", 1, 10**9)
    rules[state_nb.FIRST_CARD_TO] = require_int(cfg, "rules.first_card_to", 0, players - 1)
    rules[state_nb.REPEAT_AFTER_PAIR] = require_bool(cfg, "rules.repeat_after_pair")
    rules[state_nb.REPEAT_MIN_HOLDERS] = require_int(cfg, "rules.repeat_min_holders", 2, 6)
    rules[state_nb.STALEMATE_WINDOW] = require_int(cfg, "rules.stalemate_window", 0, 10**9)
    # Seat compensation (docs/rules/find-dr-evil.md, "Seat compensation"): a seat dealt more (fewer)
    # cards than the printed deal gives it; the difference from (to) the seats without compensation.
    first = int(rules[state_nb.FIRST_CARD_TO])
    printed = [len(range((s - first) % players, deck.size, players)) for s in range(players)]
    extra = seat_compensation(cfg, "cards", players, -deck.size, deck.size)
    if any(extra):
        counts = spread(printed, extra, deck.size, first)
        for s in range(players):
            if counts[s] < 1:
                blame = s if extra[s] else max(range(players), key=lambda q: extra[q])
                raise ConfigError(f"compensation.cards.{blame + 1} = {extra[blame]}: seat {s + 1} would be dealt "
                                  f"{counts[s]} cards of {deck.size} (the printed deal gives {printed}); every seat "
                                  "needs at least 1")
        rules[state_nb.DEAL_GIVEN] = 1
        rules[state_nb.DEAL_SEAT:state_nb.DEAL_SEAT + deck.size] = deal_order(counts, first)
    card_pose = deck.pose.astype(np.int64)
    ling = int(np.flatnonzero(deck.kind == KIND_DR_LING)[0])
    card_pose[ling] = deck.n_poses  # Dr. Ling is a pose of its own: it never pairs
    return (card_pose, np.int64(ling), np.int64(deck.n_poses + 1), np.int64(players), rules,
            np.bool_(validate))


# Every pick is a decision of the picking seat: which slot of the offerer's hand to take
# (docs/rules/find-dr-evil.md, "Decisions"). Blind, so the game still has no informed decisions.
ENGINE = Engine.of_game(sys.modules[__name__], play_nb, state_nb, validate_nb, has_decisions=False,
                        summarize=summarize, cards=Cards(card_labels, card_masks), replay=replay, trace=trace,
                        card_swap=CardSwap.of_game(card_value_nb, selection=CARD_SELECTION))
