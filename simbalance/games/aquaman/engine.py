"""aquaman engine: the contract (ENGINE), config -> arrays, record layout, strategy tables.

Version history (bump ENGINE_VERSION only when game behaviour changes):
1. First version: rules as pinned in docs/rules/aquaman.md.
2. Issue 17, trustworthy players. A fighter who cannot reveal now by default ends the fight before
   the reveal (nobody reveals, nobody wins; rules.cannot_reveal = "ends", variant empty-hand-loses
   restores version 1's "loses"). The heuristics break every tie between equally valued seats,
   squares, cards and suits uniformly from the game's stream (v1 took the first: the lowest seat,
   the first square or hand slot); value Power without the activated card (v1 counted it in its own
   suit, so about a quarter of Power activations swapped nothing) and swap every eligible card
   but the highest of its suit; neither fight nor Foe opponents who hold no card.
3. Whole-game metrics and loop detection (issue 21): the records gain core/whole_game.PROGRESS_FIELDS
   (progress: missions x (mission suits + 1) + the suits in hand, at most the mission's), and a game
   in which for ``rules.stalemate_window`` turns (default 800) nobody completes a mission or gets
   closer to one than he had been ends as a stalemate, reason ``no-mission`` (was a timeout at the
   cap: with ``rules.reshuffle = false`` an empty deck leaves the players nothing to collect).

Not a new version: the search players ``mcts`` and ``flat`` (simbalance/players), with the cards
whose place each seat has learnt tracked in the state (``cards[K_KNOWN]``: what the determinization
must keep). Games without a search seat are the same games.
"""

from __future__ import annotations

import sys

import numpy as np

from simbalance.core.config import get
from simbalance.core.config import require_bool
from simbalance.core.config import require_choice
from simbalance.core.config import require_int
from simbalance.core.config import seat_compensation
from simbalance.core.errors import ConfigError
from simbalance.core.records import MAX_SEATS
from simbalance.core.records import record_dtype
from simbalance.core.spec import CardSwap
from simbalance.core.spec import Engine
from simbalance.core.whole_game import PROGRESS_FIELDS
from simbalance.games.aquaman import card_value_nb
from simbalance.games.aquaman import play_nb
from simbalance.games.aquaman import search_nb
from simbalance.games.aquaman import state_nb
from simbalance.games.aquaman import validate_nb
from simbalance.games.aquaman.replay import replay
from simbalance.games.aquaman.replay import trace
from simbalance.games.aquaman.report import figures
from simbalance.games.aquaman.report import summarize
from simbalance.players import SEARCH_PARAMS
from simbalance.players import SEARCH_STRATEGIES

# card-value: how a player's own choices can link holding a card to winning (core/spec.CardSwap.selection;
# None: the deal and the play hand cards out blind)
CARD_SELECTION = "players choose which cards to keep, play and swap"

ENGINE_VERSION = 3
CHUNK_SIZE = 1 << 16
STRATEGIES = {"random": state_nb.S_RANDOM, "runner": state_nb.S_RUNNER, "raider": state_nb.S_RAIDER,
              **SEARCH_STRATEGIES}
# Each strategy's parameters in the order its code reads them (state_nb.P_*, players.SEARCH_PARAMS);
# configs bind by name.
STRATEGY_PARAMS = {"random": (), "runner": state_nb.HEURISTIC_PARAM_NAMES, "raider": state_nb.HEURISTIC_PARAM_NAMES,
                   **SEARCH_PARAMS}

RECORD_DTYPE = record_dtype([
    ("refills", np.int32),  # times the empty deck was refilled from the discard pile
    ("missions", np.int8, (MAX_SEATS,)),  # missions completed
    ("hand_end", np.int16, (MAX_SEATS,)),  # cards in hand when the game ended
    ("fights", np.int32, (MAX_SEATS,)),  # fights fought (as mover or as the one landed on)
    ("fights_won", np.int32, (MAX_SEATS,)),
    ("stolen", np.int32, (MAX_SEATS,)),  # cards taken from a beaten opponent
    ("taken", np.int32, (MAX_SEATS,)),  # board cards taken by landing
    ("foe_hits", np.int32, (MAX_SEATS,)),  # opponents' cards discarded by this seat's Foe
] + [(f"use_{name}", np.int32, (MAX_SEATS,)) for name in state_nb.POWER_NAMES]  # powers activated, per power
   + PROGRESS_FIELDS)  # the whole-game metrics and the stalemate reason (core/whole_game.py)
PROGRESS = ("missions x (mission suits + 1) + the suits in hand, at most the mission's: the missions first, "
            "then how close the hand is to the next")
STALEMATE_REASONS = {
    state_nb.R_NO_MISSION: ("no-mission", "nobody completed a mission or got closer to one than he had been, for "
                            "rules.stalemate_window turns"),
}

MAX_CARDS = 4096
MAX_CELLS = 1024


def _corners(rows: int, cols: int) -> list[int]:
    """Distinct corner squares in seat order: (0,0), (last,last), (0,last), (last,0)."""
    out: list[int] = []
    for r, c in ((0, 0), (rows - 1, cols - 1), (0, cols - 1), (rows - 1, 0)):
        cell = r * cols + c
        if cell not in out:
            out.append(cell)
    return out


def move_table(rows: int, cols: int, faces: int, clamp: bool) -> np.ndarray:
    """``move_to[cell, distance, direction]``: where a straight leg ends, -1 if it cannot go there."""
    table = np.full((rows * cols, faces + 1, 4), -1, dtype=np.int16)
    for r in range(rows):
        for c in range(cols):
            for d in range(1, faces + 1):
                for k in range(4):
                    r2, c2 = r + state_nb.DIR_DROW[k] * d, c + state_nb.DIR_DCOL[k] * d
                    if clamp:
                        r2, c2 = min(max(r2, 0), rows - 1), min(max(c2, 0), cols - 1)
                    if 0 <= r2 < rows and 0 <= c2 < cols and (r2, c2) != (r, c):
                        table[r * cols + c, d, k] = r2 * cols + c2
    return table


def adjacency_table(rows: int, cols: int, king: bool) -> np.ndarray:
    """``adj[cell, :]``: the squares adjacent to ``cell`` (-1 padded)."""
    steps = [(-1, 0), (1, 0), (0, -1), (0, 1)]
    if king:
        steps += [(-1, -1), (-1, 1), (1, -1), (1, 1)]
    table = np.full((rows * cols, len(steps)), -1, dtype=np.int16)
    for r in range(rows):
        for c in range(cols):
            k = 0
            for dr, dc in steps:
                if 0 <= r + dr < rows and 0 <= c + dc < cols:
                    table[r * cols + c, k] = (r + dr) * cols + c + dc
                    k += 1
    return table


def _suits(cfg: dict) -> tuple[list[str], list[int]]:
    suits = get(cfg, "deck.suits")
    powers = get(cfg, "deck.powers")
    if not isinstance(suits, list) or not suits or not all(isinstance(s, str) and s for s in suits):
        raise ConfigError(f"deck.suits = {suits!r}: expected a non-empty list of suit names")
    if len(suits) > 100:
        raise ConfigError(f"deck.suits: {len(suits)} suits; at most 100")
    if len(set(suits)) != len(suits):
        raise ConfigError(f"deck.suits = {suits!r}: suit names must be different")
    if not isinstance(powers, list) or len(powers) != len(suits):
        raise ConfigError(f"deck.powers = {powers!r}: expected one power per suit ({len(suits)} entries)")
    allowed = list(state_nb.POWER_NAMES) + ["none"]
    codes = []
    for name in powers:
        if name not in allowed:
            raise ConfigError(f"deck.powers: {name!r} is not a power; allowed {', '.join(allowed)}")
        codes.append(state_nb.NO_POWER if name == "none" else state_nb.POWER_NAMES.index(name))
    return suits, codes


def rules_array(cfg: dict, players: int) -> np.ndarray:
    """The validated config as the kernel's ``rules`` integers (indices in ``enums``)."""
    suits, _ = _suits(cfg)
    rules = np.zeros(state_nb.N_RULES, dtype=np.int64)
    rules[state_nb.R_PLAYERS] = players
    rules[state_nb.R_NSUITS] = len(suits)
    rules[state_nb.R_RANKS] = require_int(cfg, "deck.ranks", 0, 100)  # 0: the deck check below says why not
    rules[state_nb.R_ROWS] = require_int(cfg, "board.rows", 1, 32)
    rules[state_nb.R_COLS] = require_int(cfg, "board.cols", 1, 32)
    rules[state_nb.R_NDICE] = require_int(cfg, "dice.count", 1, 3)
    rules[state_nb.R_FACES] = require_int(cfg, "dice.faces", 1, 100)
    rules[state_nb.R_START_HAND] = require_int(cfg, "rules.start_hand", 0, 1000)
    rules[state_nb.R_HAND_LIMIT] = require_int(cfg, "rules.hand_limit", 0, 1000)
    rules[state_nb.R_POWER_MIN] = require_int(cfg, "rules.power_min_hand", 1, 1000)
    rules[state_nb.R_MISSIONS_TO_WIN] = require_int(cfg, "rules.missions_to_win", 1, 100)
    rules[state_nb.R_MISSION_SUITS] = require_int(cfg, "rules.mission_suits", 1, 1000)
    rules[state_nb.R_MISSIONS_PER_TURN] = require_int(cfg, "rules.missions_per_turn", 1, 100)
    rules[state_nb.R_TURN_CAP] = require_int(cfg, "rules.turn_cap", 1, 10**6)
    rules[state_nb.R_WINDOW] = require_int(cfg, "rules.stalemate_window", 0, 10**6)
    rules[state_nb.R_AQUAMAN_DRAW] = require_int(cfg, "rules.aquaman_draw", 0, 100)
    rules[state_nb.R_COMPANION_LOOK] = require_int(cfg, "rules.companion_look", 0, 100)
    rules[state_nb.R_RESHUFFLE] = int(require_bool(cfg, "rules.reshuffle"))
    rules[state_nb.R_TIES_REPEAT] = int(require_choice(cfg, "rules.fight_ties", ["repeat", "once"]) == "repeat")
    rules[state_nb.R_CANNOT_REVEAL] = state_nb.CANNOT_REVEAL_NAMES.index(
        require_choice(cfg, "rules.cannot_reveal", list(state_nb.CANNOT_REVEAL_NAMES)))
    rules[state_nb.R_DISCARD_AFTER] = int(require_choice(cfg, "rules.activated_card", ["after", "before"]) == "after")
    rules[state_nb.R_TURN_LEGS] = int(require_choice(cfg, "rules.legs", ["free", "turn"]) == "turn")
    require_choice(cfg, "rules.leg_off_board", ["skip", "clamp"])
    require_choice(cfg, "rules.adjacency", ["orthogonal", "king"])

    n_cards = len(suits) * int(rules[state_nb.R_RANKS])
    cells = int(rules[state_nb.R_ROWS] * rules[state_nb.R_COLS])
    if n_cards > MAX_CARDS:
        raise ConfigError(f"deck: {len(suits)} suits x {rules[state_nb.R_RANKS]} ranks = {n_cards} cards; at most {MAX_CARDS}")
    corners = _corners(int(rules[state_nb.R_ROWS]), int(rules[state_nb.R_COLS]))
    if players > len(corners):
        raise ConfigError(
            f"board.rows x board.cols = {rules[state_nb.R_ROWS]} x {rules[state_nb.R_COLS]}: {len(corners)} distinct corners "
            f"for {players} players; every pawn needs its own corner"
        )
    need = cells + players * int(rules[state_nb.R_START_HAND])
    if n_cards >= need:  # seat compensation: a seat dealt more (fewer) cards than rules.start_hand
        extra = seat_compensation(cfg, "cards", players, -int(rules[state_nb.R_START_HAND]), n_cards - need)
        if cells + sum(extra) + players * int(rules[state_nb.R_START_HAND]) > n_cards:
            seat = max(range(players), key=lambda s: extra[s])
            raise ConfigError(f"compensation.cards.{seat + 1} = {extra[seat]}: the hands and the board would need "
                              f"{need + sum(extra)} cards (compensation.cards.* = {extra}); the deck has {n_cards}")
    if n_cards < need:
        raise ConfigError(
            f"deck: {n_cards} cards ({len(suits)} suits x {rules[state_nb.R_RANKS]} ranks) cannot fill the {cells} "
            f"squares and deal {rules[state_nb.R_START_HAND]} to each of {players} players ({need} needed)"
        )
    if rules[state_nb.R_MISSION_SUITS] > len(suits):
        raise ConfigError(
            f"rules.mission_suits = {rules[state_nb.R_MISSION_SUITS]}: a mission cannot need more suits than the "
            f"deck's {len(suits)}"
        )
    return rules


def _check_strategy_params(cfg: dict) -> None:
    for name in ("runner", "raider"):
        table = cfg.get("strategies", {}).get(name, {})
        need = table.get("need", 1.0)
        if not isinstance(need, (int, float)) or need <= 0:
            raise ConfigError(f"strategies.{name}.need = {need!r}: must be a number > 0")


def prepare(cfg: dict, players: int, validate: bool = False) -> tuple:
    """The kernel's extra arguments; ``validate`` checks every invariant after every turn."""
    rules = rules_array(cfg, players)
    _check_strategy_params(cfg)
    _, codes = _suits(cfg)
    n_suits, ranks = int(rules[state_nb.R_NSUITS]), int(rules[state_nb.R_RANKS])
    rows, cols = int(rules[state_nb.R_ROWS]), int(rules[state_nb.R_COLS])
    corners = _corners(rows, cols)[:players]
    start = int(rules[state_nb.R_START_HAND])
    hands = [start + e for e in seat_compensation(cfg, "cards", players, -start, 1000)]  # checked in rules_array
    limit = int(rules[state_nb.R_HAND_LIMIT])
    limits = [limit + e for e in seat_compensation(cfg, "hand_limit", players, -limit, 1000 - limit)]
    rules = np.concatenate([rules, np.full(4, -1, np.int64), np.zeros(8, np.int64), np.array(codes, np.int64)])
    rules[state_nb.R_CORNER:state_nb.R_CORNER + players] = corners
    rules[state_nb.R_START_SEAT:state_nb.R_START_SEAT + players] = hands
    rules[state_nb.R_LIMIT_SEAT:state_nb.R_LIMIT_SEAT + players] = limits
    card = np.empty((2, n_suits * ranks), dtype=np.int8)
    card[state_nb.CARD_SUIT] = np.repeat(np.arange(n_suits), ranks)
    card[state_nb.CARD_RANK] = np.tile(np.arange(1, ranks + 1), n_suits)
    move_to = move_table(rows, cols, int(rules[state_nb.R_FACES]), get(cfg, "rules.leg_off_board") == "clamp")
    adj = adjacency_table(rows, cols, get(cfg, "rules.adjacency") == "king")
    return (rules, card, move_to, adj, np.bool_(validate))


ENGINE = Engine.of_game(sys.modules[__name__], play_nb, state_nb, validate_nb, search_nb,
                        summarize=summarize, figures=figures, replay=replay, trace=trace,
                        card_swap=CardSwap.of_game(card_value_nb, selection=CARD_SELECTION))
