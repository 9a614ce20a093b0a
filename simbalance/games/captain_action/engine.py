"""captain-action engine: config -> arrays, record layout, kernel, report hooks.

Version history (bump ENGINE_VERSION only when game behaviour changes):
1. First version: rules as pinned in docs/rules/captain-action.md.
2. Fair heuristics (issue 17): builder, bold and collector discard uniformly at random among the
   cards whose discard leaves the same best hand value (was: the first such card in hand order), one
   draw from the game's stream per tie; new heuristic ``collector`` (id 3).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from simbalance.core.config import require_bool, require_choice, require_int
from simbalance.core.errors import ConfigError
from simbalance.core.records import END_TIMEOUT, END_WIN, MAX_SEATS, record_dtype, win_shares
from simbalance.core.replay import trace_with_log
from simbalance.decks.captain_action import DR_EVIL, KIND_CAPTAIN_WILD, KIND_DR_LING, load_deck
from simbalance.games.captain_action.rules_nb import (
    G_CALL_BEFORE,
    G_COUNTDOWN,
    G_HAND,
    G_PENALTY,
    G_PENALTY_ALL,
    G_PLAYERS,
    G_TAKE_BACK,
    G_TURN_CAP,
    N_GAME_RULES,
    kernel,  # noqa: F401  (the engine's kernel)
)
from simbalance.games.captain_action.scoring_nb import (
    INFO_BG,
    INFO_CH,
    INFO_VAL,
    NO_SET,
    RULE_AB_CHAR,
    RULE_AB_POINTS,
    RULE_CH_VAL,
    RULE_MAX_WILD,
    RULE_MIN_NATURAL,
    RULE_N_BG,
    RULE_N_CH,
    RULE_N_WILD_CH,
    RULE_POINTS,
    RULE_SET_SIZE,
    WILD,
)
from simbalance.games.spec import Cards, Engine

ENGINE_VERSION = 2
CHUNK_SIZE = 1 << 17
STRATEGIES = {"random": 0, "builder": 1, "bold": 2, "collector": 3}
# Each heuristic's parameters in the order its code reads them (strategies_nb.P_*); configs bind by name.
STRATEGY_PARAMS = {
    "random": ("call",),
    "builder": ("take_gain", "pair_weight", "call_score", "call_slope"),
    "bold": ("take_gain", "pair_weight", "call_score"),
    "collector": ("take_gain", "pair_weight", "call_score", "call_slope", "min_turns"),
}

ACTION_BOY = "Action Boy"
UNLIMITED = 1 << 20  # rules.max_wilds_per_set = 0 means no cap
DR_LING_CHOICES = ["removed", "wild", "dr_evil"]
CALL_TIMINGS = ["after_discard", "before_draw"]
PENALTY_TO = ["all", "last_drawer"]
MAX_HAND = 30

RECORD_DTYPE = record_dtype([
    ("caller", np.int8),  # the seat that called "Let Justice Be Done!"; -1: nobody did
    ("countdown_left", np.int8),  # Countdown cards left when the game ended (the caller's bonus)
    ("countdown_out", np.int8),  # 1: the Countdown Deck ran out (attack with no bonus)
    ("score", np.int16, (MAX_SEATS,)),  # final score: sets, plus the bonus, minus any penalty
    ("hand_score", np.int16, (MAX_SEATS,)),  # the sets in the final hand alone
    ("takes", np.int16, (MAX_SEATS,)),  # cards taken from the discard pile
    ("hand_mask", np.uint64, (MAX_SEATS,)),  # bit c set when card c of the game deck ends in the hand
])


def game_deck(cfg: dict):
    """The captain-action deck: every numbered card and Captain Action wildcard; Dr. Ling per
    ``rules.dr_ling`` (removed by default)."""
    deck = load_deck(cfg["deck"])
    dr_ling = require_choice(cfg, "rules.dr_ling", DR_LING_CHOICES)
    keep = deck.kind != KIND_DR_LING
    if dr_ling != "removed":
        keep = np.ones(deck.size, dtype=bool)
    return deck.select(keep)


def card_labels(cfg: dict) -> tuple[list[str], dict[str, list[int]]]:
    """Labels of the game deck's cards (the bit order of ``hand_mask``) and their groups."""
    return game_deck(cfg).labels_and_groups()


def card_masks(games: pd.DataFrame, players: int, config: dict) -> dict[str, list[np.ndarray]]:
    """The cards each seat held at the end (the card-impact table adjusts for game length)."""
    return {"held at the end": [games[f"hand_mask_{s}"].to_numpy() for s in range(players)]}


def scoring_arrays(cfg: dict, deck) -> tuple[np.ndarray, np.ndarray]:
    """``card_info`` (per card: background, character or WILD / NO_SET, points in a set) and the
    scoring rule vector ``srules`` (layout in scoring_nb)."""
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
    card_info[:, INFO_BG] = deck.background
    for card in range(deck.size):
        ch = int(deck.character[card])
        if deck.kind[card] == KIND_CAPTAIN_WILD or (deck.kind[card] == KIND_DR_LING and dr_ling == "wild"):
            card_info[card, INFO_CH] = WILD
        elif ch == evil:
            card_info[card, INFO_CH] = NO_SET  # Dr. Evil (and a plain Dr. Ling) is in no set at all
        else:
            card_info[card, INFO_CH] = ch
            card_info[card, INFO_VAL] = ch_val[ch]

    srules = np.zeros(RULE_CH_VAL + n_ch + len(wild_chars), dtype=np.int64)
    srules[RULE_SET_SIZE] = set_size
    srules[RULE_MIN_NATURAL] = naturals
    srules[RULE_MAX_WILD] = UNLIMITED if max_wild == 0 else max_wild
    srules[RULE_POINTS] = points
    srules[RULE_AB_POINTS] = ab_points
    srules[RULE_AB_CHAR] = ab
    srules[RULE_N_BG] = n_bg
    srules[RULE_N_CH] = n_ch
    srules[RULE_N_WILD_CH] = len(wild_chars)
    srules[RULE_CH_VAL:RULE_CH_VAL + n_ch] = ch_val
    srules[RULE_CH_VAL + n_ch:] = wild_chars
    return card_info, srules


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
    game_rules = np.zeros(N_GAME_RULES, dtype=np.int64)
    game_rules[G_PLAYERS] = players
    game_rules[G_HAND] = hand_size
    game_rules[G_COUNTDOWN] = countdown
    game_rules[G_TAKE_BACK] = require_bool(cfg, "rules.take_back")
    game_rules[G_CALL_BEFORE] = require_choice(cfg, "rules.call_timing", CALL_TIMINGS) == "before_draw"
    game_rules[G_PENALTY] = require_int(cfg, "rules.countdown_penalty", 0, 1000)
    game_rules[G_PENALTY_ALL] = require_choice(cfg, "rules.penalty_to", PENALTY_TO) == "all"
    game_rules[G_TURN_CAP] = require_int(cfg, "rules.turn_cap", 1, 30000)  # records count in int16
    for name in STRATEGIES:
        table = cfg.get("strategies", {}).get(name, {})
        if name == "random":
            p = table.get("call", 0.5)
            if not isinstance(p, (int, float)) or not 0 <= p <= 1:
                raise ConfigError(f"strategies.random.call = {p!r}: a probability from 0 to 1")
    return card_info, srules, game_rules, np.bool_(validate)


# ---------------------------------------------------------------------------------------------
# Report hooks


def _seat_cols(games: pd.DataFrame, field: str, players: int) -> list[str]:
    return [f"{field}_{s}" for s in range(players) if f"{field}_{s}" in games]


def summarize(games: pd.DataFrame, players: int, config: dict) -> dict:
    """Who called, the Countdown at the call, countdown run-outs, scores per seat, hand scores."""
    n = len(games)
    if n == 0:
        return {}
    called = games["caller"] >= 0
    out: dict = {
        "share_called": float(called.mean()),
        "share_countdown_out": float((games["countdown_out"] == 1).mean()),
        "call_share_by_seat": [float((games["caller"] == s).mean()) for s in range(players)],
        "countdown_left_at_call_mean": float(games.loc[called, "countdown_left"].mean()) if called.any() else None,
        "countdown_left_at_call_hist": {
            int(k): int(v) for k, v in games.loc[called, "countdown_left"].value_counts().sort_index().items()
        },
        "score_mean_by_seat": [float(games[c].mean()) for c in _seat_cols(games, "score", players)],
        "hand_score_mean_by_seat": [float(games[c].mean()) for c in _seat_cols(games, "hand_score", players)],
        "takes_mean_by_seat": [float(games[c].mean()) for c in _seat_cols(games, "takes", players)],
    }
    hs = games[_seat_cols(games, "hand_score", players)].to_numpy().ravel()
    values, counts = np.unique(hs, return_counts=True)
    out["hand_score_hist"] = {int(v): int(c) for v, c in zip(values, counts, strict=True)}
    out["hand_score_percentiles"] = {str(q): float(np.percentile(hs, q)) for q in (5, 25, 50, 75, 95)}
    if called.any():
        # A caller tied with k - 1 others wins 1/k, as in every win rate (docs/architecture.md, "Ties").
        shares = win_shares(games.loc[called, "winners"].to_numpy(), players)
        caller = games.loc[called, "caller"].to_numpy().astype(np.int64)
        out["share_caller_wins"] = float(shares[np.arange(len(caller)), caller].mean())
    # Per strategy slot: how often its seats call, and their mean score.
    strat_cols = _seat_cols(games, "strategy", players)
    if strat_cols:
        slots = np.unique(games[strat_cols].to_numpy())
        by_slot = {}
        for slot in slots:
            seat_is = games[strat_cols].to_numpy() == slot
            scores = games[_seat_cols(games, "score", players)].to_numpy()
            calls = np.zeros_like(seat_is)
            caller = games["caller"].to_numpy()
            for s in range(players):
                calls[:, s] = caller == s
            by_slot[int(slot)] = {
                "score_mean": float(scores[seat_is].mean()),
                "calls_per_game": float((calls & seat_is).sum() / max(1, seat_is.any(axis=1).sum())),
            }
        out["by_strategy_slot"] = by_slot
    return out


def figures(games: pd.DataFrame, players: int, config: dict, summary: dict) -> dict:
    """Final-hand score distribution, and the Countdown Deck's size at the call."""
    from matplotlib.figure import Figure

    figs = {}
    players = sum(1 for c in games.columns if c.startswith("hand_score_"))
    hs = games[[f"hand_score_{s}" for s in range(players)]].to_numpy().ravel()
    fig = Figure(figsize=(6, 3.5))
    ax = fig.add_subplot()
    values, counts = np.unique(hs, return_counts=True)
    ax.bar(values, counts / counts.sum(), width=3)
    ax.set_xlabel("final hand score (sets only)")
    ax.set_ylabel("share of hands")
    ax.set_title("captain-action: final-hand scores")
    figs["captain_action_hand_scores"] = fig

    called = games["caller"] >= 0
    fig = Figure(figsize=(6, 3.5))
    ax = fig.add_subplot()
    if called.any():
        left = games.loc[called, "countdown_left"].value_counts().sort_index()
        ax.bar(left.index.to_numpy(), left.to_numpy() / len(games))
    ax.set_xlabel("Countdown cards left at the call (the caller's bonus)")
    ax.set_ylabel("share of games")
    ax.set_title(f"captain-action: calls ({called.mean():.0%} of games; rest: countdown out or timeout)")
    figs["captain_action_calls"] = fig
    return figs


# ---------------------------------------------------------------------------------------------
# Replay


def trace(plan, game: int) -> tuple[np.ndarray, np.ndarray]:
    """Play game ``game`` of the plan's run again (the kernel's own code, validated) and return its
    record and its event log (rows of rules_nb.EV_*)."""
    from simbalance.games.captain_action.rules_nb import trace_game

    lineup = plan.lineup
    return trace_with_log(
        lambda target, log, log_n: trace_game(lineup.seats, lineup.slot_strategy, lineup.slot_params,
                                              *plan.prepared[:3], np.uint64(plan.seed), np.int64(game), target,
                                              log, log_n),
        RECORD_DTYPE, 4, rows=1024)


def replay(plan, game: int) -> list[str]:
    """Game ``game`` of the plan's seed, move by move, in words."""
    from simbalance.games.captain_action import rules_nb as r
    from simbalance.games.captain_action.scoring_nb import RULE_N_BG, RULE_N_CH, hand_score

    out, events = trace(plan, game)
    rec = out[0]
    card_info, srules, game_rules, _ = plan.prepared
    deck = game_deck(plan.config)
    card = deck.label
    players, hand_size = plan.players, int(game_rules[G_HAND])
    seats = plan.lineup.seats[game % len(plan.lineup.seats)]
    who = {s: f"seat {s} ({plan.lineup.slot_names[seats[s]]})" for s in range(players)}
    hands: dict[int, list[int]] = {s: [] for s in range(players)}
    cnt = np.zeros((3, max(int(srules[RULE_N_BG]), int(srules[RULE_N_CH]))), np.int64)
    scratch = np.zeros(int(srules[RULE_N_BG] + srules[RULE_N_CH]) + deck.size + 1, np.int64)

    def worth(seat: int) -> int:
        h = np.array([hands[seat]], np.int64)
        return int(hand_score(h, 0, h.shape[1], card_info, srules, cnt, scratch))

    timing = "after discarding" if not game_rules[G_CALL_BEFORE] else "before drawing"
    lines = [f"captain-action, game {game} of seed {plan.seed}, {players} players; seat 0 starts, play goes "
             f"clockwise; a call comes {timing}."]
    turn: list[str] = []
    for ev, a, b, c in events.tolist():
        if ev == r.EV_DEAL:
            hands[a].append(b)
        elif ev == r.EV_FACE_UP:
            for s in range(players):
                lines.append(f"Seat {s} is dealt {hand_size} cards: {', '.join(card(x) for x in hands[s])} "
                             f"(worth {worth(s)}).")
            lines.append(f"The Countdown Deck holds {int(game_rules[G_COUNTDOWN])} cards; {card(a)} starts the "
                         "discard pile.")
        elif ev == r.EV_TURN:
            turn = [f"Turn {a}, {who[b]}:"]
        elif ev == r.EV_DRAW:
            hands[a].append(b)
            turn.append(f"draws {card(b)} from the Countdown Deck ({c} left),")
        elif ev == r.EV_TAKE:
            hands[a].append(b)
            turn.append(f"takes {card(b)} from the discard pile,")
        elif ev == r.EV_DISCARD:
            hands[a].remove(b)
            turn.append(f"discards {card(b)}; hand worth {worth(a)}.")
            lines.append(" ".join(turn))
            turn = []
        elif ev == r.EV_CALL:
            if turn and len(turn) == 1:  # a call before drawing
                lines.append(turn[0])
            lines.append(f"Seat {a} calls \"Let Justice Be Done!\" with {b} Countdown cards left: a bonus of {b}.")
            turn = []
        elif ev == r.EV_COUNTDOWN_OUT:
            penalty = int(game_rules[G_PENALTY])
            whom = "every player loses" if game_rules[G_PENALTY_ALL] else f"seat {a} loses"
            lines.append(f"Seat {a} drew the last Countdown card: Dr. Evil attacks, nobody has a bonus"
                         + (f", {whom} {penalty} points." if penalty else "."))
        elif ev == r.EV_SCORE:
            if a == 0:
                lines.append("Attack! The hands are scored:" if rec["end"] == 0 else "The hands at the end:")
            lines.append(f"  Seat {a}: {', '.join(card(x) for x in hands[a])}: sets worth {b}, total {c}.")
        elif ev == r.EV_TIMEOUT:
            lines.append(f"The turn cap ({a} turns) is reached.")
        elif ev == r.EV_INVALID:
            lines.append("Invalid game: " + (f"seat {a} discarded slot {b}, which it may not." if a >= 0
                                             else "the cards are no longer all accounted for."))
    if rec["end"] == END_TIMEOUT:
        lines.append("A timeout: nobody wins.")
    elif rec["end"] == END_WIN:
        winners = [s for s in range(players) if int(rec["winners"]) >> s & 1]
        best = int(rec["score"][winners[0]])
        if len(winners) == 1:
            lines.append(f"{who[winners[0]].capitalize()} wins with {best} points after {_turns(rec)}.")
        else:
            tied = ", ".join(str(s) for s in winners)
            lines.append(f"Seats {tied} tie with {best} points after {_turns(rec)}.")
    return lines


def _turns(rec) -> str:
    n = int(rec["length"])
    return f"{n} turn" if n == 1 else f"{n} turns"


ENGINE = Engine(
    version=ENGINE_VERSION,
    record_dtype=RECORD_DTYPE,
    strategies=STRATEGIES,
    strategy_params=STRATEGY_PARAMS,
    prepare=prepare,
    kernel=kernel,
    module=__name__,
    chunk_size=CHUNK_SIZE,
    summarize=summarize,
    figures=figures,
    cards=Cards(card_labels, card_masks),
    replay=replay,
    trace=trace,
)
