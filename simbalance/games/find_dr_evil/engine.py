"""find-dr-evil engine: config -> arrays, record layout, kernel.

Version history (bump ENGINE_VERSION only when game behaviour changes):
1. First version: rules as pinned in docs/rules/find-dr-evil.md.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from simbalance.core.config import require_bool, require_int
from simbalance.core.errors import ConfigError
from simbalance.core.records import MAX_SEATS, record_dtype
from simbalance.decks.captain_action import DR_EVIL, KIND_CAPTAIN_WILD, KIND_DR_LING, load_deck
from simbalance.games.find_dr_evil.rules_nb import (  # noqa: F401  (kernel: the engine's kernel)
    FIRST_CARD_TO,
    N_RULES,
    PICK_CAP,
    REPEAT_AFTER_PAIR,
    REPEAT_MIN_HOLDERS,
    kernel,
)
from simbalance.games.spec import Cards, Engine

ENGINE_VERSION = 1
CHUNK_SIZE = 1 << 18
STRATEGIES = {"random": 0}  # no decisions: every strategy plays the same
STRATEGY_PARAMS = {"random": ()}
HAS_DECISIONS = False

RECORD_DTYPE = record_dtype([
    ("ling_dealt", np.int8),  # the seat dealt Dr. Ling
    ("kept", np.int8, (MAX_SEATS,)),  # cards left after the opening discards
    ("dealt_mask", np.uint64, (MAX_SEATS,)),  # bit c set when card c of the game deck was dealt to the seat
])


def game_deck(cfg: dict):
    """The find-dr-evil deck: every numbered card that is not Dr. Evil, plus Dr. Ling."""
    deck = load_deck(cfg["deck"])
    evil = deck.character_index(DR_EVIL)
    keep = ((deck.kind != KIND_CAPTAIN_WILD) & (deck.character != evil)) | (deck.kind == KIND_DR_LING)
    return deck.select(keep)


def prepare(cfg: dict, players: int, validate: bool = False) -> tuple:
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
    if deck.size > 64:
        raise ConfigError(f"deck: {deck.size} find-dr-evil cards; at most 64 are supported")
    rules = np.zeros(N_RULES, dtype=np.int64)
    rules[PICK_CAP] = require_int(cfg, "rules.pick_cap", 1, 10**9)
    rules[FIRST_CARD_TO] = require_int(cfg, "rules.first_card_to", 0, players - 1)
    rules[REPEAT_AFTER_PAIR] = require_bool(cfg, "rules.repeat_after_pair")
    rules[REPEAT_MIN_HOLDERS] = require_int(cfg, "rules.repeat_min_holders", 2, 6)
    card_pose = deck.pose.astype(np.int64)
    ling = int(np.flatnonzero(deck.kind == KIND_DR_LING)[0])
    card_pose[ling] = deck.n_poses  # Dr. Ling is a pose of its own: it never pairs
    return (card_pose, np.int64(ling), np.int64(deck.n_poses + 1), np.int64(players), rules,
            np.bool_(validate))


def summarize(games: pd.DataFrame, players: int, config: dict) -> dict:
    """Win rate by the seat dealt Dr. Ling: the deal decides the game."""
    won_with_ling = (games["winner"] == games["ling_dealt"]).mean()
    return {"share_won_by_seat_dealt_dr_ling": float(won_with_ling)}


def card_labels(cfg: dict) -> tuple[list[str], dict[str, list[int]]]:
    """Labels of the game deck's cards (the bit order of ``dealt_mask``) and their groups."""
    return game_deck(cfg).labels_and_groups()


def card_masks(games: pd.DataFrame, players: int, config: dict) -> dict[str, list[np.ndarray]]:
    """The cards each seat was dealt (no survivor bias: every game deals every card)."""
    return {"dealt": [games[f"dealt_mask_{s}"].to_numpy() for s in range(players)]}


def replay(plan, game: int) -> list[str]:
    """Game ``game`` of the plan's seed, move by move, in words."""
    from simbalance.games.find_dr_evil.rules_nb import EV_DEAL, EV_PAIR, EV_PICK, EV_WIN, trace_game

    card_pose, ling, _, players, rules, _ = plan.prepared
    deck = game_deck(plan.config)
    out = np.zeros(1, RECORD_DTYPE)
    log = np.zeros((4 * deck.size + 4 * int(rules[PICK_CAP]) + 8, 4), np.int64)
    log_n = np.zeros(1, np.int64)
    trace_game(card_pose, ling, players, rules, np.uint64(plan.seed), np.int64(game), out, log, log_n)
    name = deck.label
    dealt: dict[int, list[str]] = {}
    lines = [f"find-dr-evil, game {game} of seed {plan.seed}, {int(players)} players; seat 0 deals."]
    events = log[: log_n[0]]
    k = 0
    while k < len(events) and events[k, 0] in (EV_DEAL, EV_PAIR):
        kind, a, b, c = events[k]
        if kind == EV_DEAL:
            dealt.setdefault(int(a), []).append(name(int(b)))
        k += 1
    for seat in sorted(dealt):
        lines.append(f"Seat {seat} is dealt {len(dealt[seat])} cards: {', '.join(dealt[seat])}.")
    for kind, a, b, c in events[:k]:
        if kind == EV_PAIR:
            lines.append(f"Seat {a} discards the pair {name(int(b))} + {name(int(c))}.")
    for seat in range(int(players)):
        lines.append(f"Seat {seat} keeps {int(out[0]['kept'][seat])} cards.")
    picks = 0
    for kind, a, b, c in events[k:]:
        if kind == EV_PICK:
            picks += 1
            lines.append(f"Pick {picks}: seat {a} draws {name(int(c))} from seat {b}.")
        elif kind == EV_PAIR:
            lines.append(f"  ... and discards the pair {name(int(b))} + {name(int(c))}.")
        elif kind == EV_WIN:
            lines.append(f"Only Dr. Ling is left: seat {a} holds him and wins after {picks} picks.")
        else:
            lines.append(f"The pick cap ({int(rules[PICK_CAP])}) is reached: a timeout, nobody wins.")
    return lines


ENGINE = Engine(
    version=ENGINE_VERSION,
    record_dtype=RECORD_DTYPE,
    strategies=STRATEGIES,
    strategy_params=STRATEGY_PARAMS,
    prepare=prepare,
    kernel=kernel,
    module=__name__,
    chunk_size=CHUNK_SIZE,
    has_decisions=False,
    summarize=summarize,
    cards=Cards(card_labels, card_masks),
    replay=replay,
)
