"""aquaman engine: config -> arrays, record layout, kernel, report hooks.

Version history (bump ENGINE_VERSION only when game behaviour changes):
1. First version: rules as pinned in docs/rules/aquaman.md.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from simbalance.core.config import get, require_bool, require_choice, require_int
from simbalance.core.errors import ConfigError
from simbalance.core.records import MAX_SEATS, record_dtype
from simbalance.games.aquaman.enums import (
    CARD_RANK,
    CARD_SUIT,
    DIR_DCOL,
    DIR_DROW,
    N_RULES,
    NO_POWER,
    POWER_NAMES,
    R_AQUAMAN_DRAW,
    R_COLS,
    R_COMPANION_LOOK,
    R_CORNER,
    R_DISCARD_AFTER,
    R_EMPTY_LOSES,
    R_FACES,
    R_HAND_LIMIT,
    R_MISSION_SUITS,
    R_MISSIONS_PER_TURN,
    R_MISSIONS_TO_WIN,
    R_NDICE,
    R_NSUITS,
    R_PLAYERS,
    R_POWER_MIN,
    R_RANKS,
    R_RESHUFFLE,
    R_ROWS,
    R_START_HAND,
    R_TIES_REPEAT,
    R_TURN_CAP,
    R_TURN_LEGS,
    S_RAIDER,
    S_RANDOM,
    S_RUNNER,
)
from simbalance.games.aquaman.rules_nb import kernel  # noqa: F401  (the engine's kernel)

ENGINE_VERSION = 1
CHUNK_SIZE = 1 << 16
STRATEGIES = {"random": S_RANDOM, "runner": S_RUNNER, "raider": S_RAIDER}

RECORD_DTYPE = record_dtype([
    ("refills", np.int32),  # times the empty deck was refilled from the discard pile
    ("missions", np.int8, (MAX_SEATS,)),  # missions completed
    ("hand_end", np.int16, (MAX_SEATS,)),  # cards in hand when the game ended
    ("fights", np.int32, (MAX_SEATS,)),  # fights fought (as mover or as the one landed on)
    ("fights_won", np.int32, (MAX_SEATS,)),
    ("stolen", np.int32, (MAX_SEATS,)),  # cards taken from a beaten opponent
    ("taken", np.int32, (MAX_SEATS,)),  # board cards taken by landing
    ("foe_hits", np.int32, (MAX_SEATS,)),  # opponents' cards discarded by this seat's Foe
] + [(f"use_{name}", np.int32, (MAX_SEATS,)) for name in POWER_NAMES])  # powers activated, per power

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
                    r2, c2 = r + DIR_DROW[k] * d, c + DIR_DCOL[k] * d
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
    allowed = list(POWER_NAMES) + ["none"]
    codes = []
    for name in powers:
        if name not in allowed:
            raise ConfigError(f"deck.powers: {name!r} is not a power; allowed {', '.join(allowed)}")
        codes.append(NO_POWER if name == "none" else POWER_NAMES.index(name))
    return suits, codes


def rules_array(cfg: dict, players: int) -> np.ndarray:
    """The validated config as the kernel's ``rules`` integers (indices in ``enums``)."""
    suits, _ = _suits(cfg)
    rules = np.zeros(N_RULES, dtype=np.int64)
    rules[R_PLAYERS] = players
    rules[R_NSUITS] = len(suits)
    rules[R_RANKS] = require_int(cfg, "deck.ranks", 1, 100)
    rules[R_ROWS] = require_int(cfg, "board.rows", 1, 32)
    rules[R_COLS] = require_int(cfg, "board.cols", 1, 32)
    rules[R_NDICE] = require_int(cfg, "dice.count", 1, 3)
    rules[R_FACES] = require_int(cfg, "dice.faces", 1, 100)
    rules[R_START_HAND] = require_int(cfg, "rules.start_hand", 0, 1000)
    rules[R_HAND_LIMIT] = require_int(cfg, "rules.hand_limit", 0, 1000)
    rules[R_POWER_MIN] = require_int(cfg, "rules.power_min_hand", 1, 1000)
    rules[R_MISSIONS_TO_WIN] = require_int(cfg, "rules.missions_to_win", 1, 100)
    rules[R_MISSION_SUITS] = require_int(cfg, "rules.mission_suits", 1, 1000)
    rules[R_MISSIONS_PER_TURN] = require_int(cfg, "rules.missions_per_turn", 1, 100)
    rules[R_TURN_CAP] = require_int(cfg, "rules.turn_cap", 1, 10**6)
    rules[R_AQUAMAN_DRAW] = require_int(cfg, "rules.aquaman_draw", 0, 100)
    rules[R_COMPANION_LOOK] = require_int(cfg, "rules.companion_look", 0, 100)
    rules[R_RESHUFFLE] = int(require_bool(cfg, "rules.reshuffle"))
    rules[R_TIES_REPEAT] = int(require_choice(cfg, "rules.fight_ties", ["repeat", "once"]) == "repeat")
    rules[R_EMPTY_LOSES] = int(require_choice(cfg, "rules.cannot_reveal", ["loses", "draws"]) == "loses")
    rules[R_DISCARD_AFTER] = int(require_choice(cfg, "rules.activated_card", ["after", "before"]) == "after")
    rules[R_TURN_LEGS] = int(require_choice(cfg, "rules.legs", ["free", "turn"]) == "turn")
    require_choice(cfg, "rules.leg_off_board", ["skip", "clamp"])
    require_choice(cfg, "rules.adjacency", ["orthogonal", "king"])

    n_cards = len(suits) * int(rules[R_RANKS])
    cells = int(rules[R_ROWS] * rules[R_COLS])
    if n_cards > MAX_CARDS:
        raise ConfigError(f"deck: {len(suits)} suits x {rules[R_RANKS]} ranks = {n_cards} cards; at most {MAX_CARDS}")
    corners = _corners(int(rules[R_ROWS]), int(rules[R_COLS]))
    if players > len(corners):
        raise ConfigError(
            f"board.rows x board.cols = {rules[R_ROWS]} x {rules[R_COLS]}: {len(corners)} distinct corners "
            f"for {players} players; every pawn needs its own corner"
        )
    need = cells + players * int(rules[R_START_HAND])
    if n_cards < need:
        raise ConfigError(
            f"deck: {n_cards} cards ({len(suits)} suits x {rules[R_RANKS]} ranks) cannot fill the {cells} "
            f"squares and deal {rules[R_START_HAND]} to each of {players} players ({need} needed)"
        )
    if rules[R_MISSION_SUITS] > len(suits):
        raise ConfigError(
            f"rules.mission_suits = {rules[R_MISSION_SUITS]}: a mission cannot need more suits than the "
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
    n_suits, ranks = int(rules[R_NSUITS]), int(rules[R_RANKS])
    rows, cols = int(rules[R_ROWS]), int(rules[R_COLS])
    corners = _corners(rows, cols)[:players]
    rules = np.concatenate([rules, np.full(4, -1, np.int64), np.array(codes, np.int64)])
    rules[R_CORNER:R_CORNER + players] = corners
    card = np.empty((2, n_suits * ranks), dtype=np.int8)
    card[CARD_SUIT] = np.repeat(np.arange(n_suits), ranks)
    card[CARD_RANK] = np.tile(np.arange(1, ranks + 1), n_suits)
    move_to = move_table(rows, cols, int(rules[R_FACES]), get(cfg, "rules.leg_off_board") == "clamp")
    adj = adjacency_table(rows, cols, get(cfg, "rules.adjacency") == "king")
    return (rules, card, move_to, adj, np.bool_(validate))


# ---------------------------------------------------------------- report hooks


def _seat_frame(games: pd.DataFrame, players: int) -> pd.DataFrame:
    """One row per (game, seat) with the seat's win share and power uses."""
    from simbalance.core.records import win_shares

    shares = win_shares(games["winners"].to_numpy(), players)
    parts = []
    for s in range(players):
        part = {"seat": np.full(len(games), s), "win": shares[:, s], "slot": games[f"strategy_{s}"].to_numpy()}
        for name in POWER_NAMES:
            part[name] = games[f"use_{name}_{s}"].to_numpy()
        for field in ("missions", "fights", "fights_won", "stolen", "taken", "foe_hits"):
            part[field] = games[f"{field}_{s}"].to_numpy()
        parts.append(pd.DataFrame(part))
    return pd.concat(parts, ignore_index=True)


def summarize(games: pd.DataFrame, players: int) -> dict:
    """Missions, fights, steals, per strategy slot the same per seat and game, and per power its use
    and the win rate of players who used it (a correlation, not an effect)."""
    seats = _seat_frame(games, players)
    n = max(len(games), 1)
    fights = seats["fights"].sum() / 2  # every fight has two sides
    out = {
        "mean_missions_per_seat": float(seats["missions"].mean()),
        "fights_per_game": float(fights / n),
        "share_of_fights_decided": float(seats["fights_won"].sum() / fights) if fights else None,
        "cards_stolen_per_game": float(seats["stolen"].sum() / n),
        "deck_refills_per_game": float(games["refills"].mean()),
        "by_strategy_slot": {},
        "powers": {},
    }
    for slot, part in seats.groupby("slot"):
        fought = part["fights"].sum()
        out["by_strategy_slot"][str(int(slot))] = {
            "missions_per_seat_game": float(part["missions"].mean()),
            "fights_per_seat_game": float(part["fights"].mean()),
            "fights_won_share": float(part["fights_won"].sum() / fought) if fought else None,
            "stolen_per_seat_game": float(part["stolen"].mean()),
            "board_cards_per_seat_game": float(part["taken"].mean()),
            "foe_hits_per_seat_game": float(part["foe_hits"].mean()),
            "power_uses_per_seat_game": {name: float(part[name].mean()) for name in POWER_NAMES},
        }
    for name in POWER_NAMES:
        used = seats[name] > 0
        out["powers"][name] = {
            "uses_per_seat_game": float(seats[name].mean()),
            "share_of_seats_using": float(used.mean()),
            "win_rate_when_used": float(seats.loc[used, "win"].mean()) if used.any() else None,
            "win_rate_when_not_used": float(seats.loc[~used, "win"].mean()) if (~used).any() else None,
        }
    return out


def figures(games: pd.DataFrame, summary: dict) -> dict:
    """``aquaman_powers``: uses per seat and game of each power, and the win rate of seats that used it."""
    from matplotlib.figure import Figure

    players = sum(1 for c in games.columns if c.startswith("use_aquaman_"))
    seats = _seat_frame(games, players)
    x = np.arange(len(POWER_NAMES))
    uses = [seats[n].mean() for n in POWER_NAMES]
    used_wr = [seats.loc[seats[n] > 0, "win"].mean() if (seats[n] > 0).any() else np.nan for n in POWER_NAMES]
    not_wr = [seats.loc[seats[n] == 0, "win"].mean() if (seats[n] == 0).any() else np.nan for n in POWER_NAMES]
    fig = Figure(figsize=(10, 4.2), layout="constrained")
    ax1, ax2 = fig.subplots(1, 2)
    ax1.bar(x, uses, color="tab:blue")
    ax1.set_xticks(x, POWER_NAMES, rotation=40, ha="right")
    ax1.set_ylabel("uses per player per game")
    ax1.set_title("Power use")
    w = 0.4
    ax2.bar(x - w / 2, used_wr, w, label="used it", color="tab:green")
    ax2.bar(x + w / 2, not_wr, w, label="did not", color="tab:gray")
    ax2.axhline(1 / players, color="k", lw=0.8, ls="--", label=f"1/{players}")
    ax2.set_xticks(x, POWER_NAMES, rotation=40, ha="right")
    ax2.set_ylabel("win rate")
    ax2.set_title("Win rate of players who used the power")
    ax2.legend(fontsize=8)
    return {"aquaman_powers": fig}
