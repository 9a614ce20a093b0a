"""aquaman engine: config -> arrays, record layout, kernel, report hooks, replay (trace + words).

Version history (bump ENGINE_VERSION only when game behaviour changes):
1. First version: rules as pinned in docs/rules/aquaman.md.
2. Issue 17, trustworthy players. A fighter who cannot reveal now by default ends the fight before
   the reveal (nobody reveals, nobody wins; rules.cannot_reveal = "ends", variant empty-hand-loses
   restores version 1's "loses"). The heuristics break every tie between equally valued seats,
   squares, cards and suits uniformly from the game's stream (v1 took the first: the lowest seat,
   the first square or hand slot); value Power without the activated card (v1 counted it in its own
   suit, so about a quarter of Power activations swapped nothing) and swap every eligible card
   but the highest of its suit; neither fight nor Foe opponents who hold no card.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from simbalance.core.config import get, require_bool, require_choice, require_int
from simbalance.core.errors import ConfigError
from simbalance.core.records import MAX_SEATS, record_dtype
from simbalance.games.aquaman.enums import (
    CANNOT_REVEAL_NAMES,
    CARD_RANK,
    CARD_SUIT,
    DIR_DCOL,
    DIR_DROW,
    HEURISTIC_PARAM_NAMES,
    N_RULES,
    NO_POWER,
    POWER_NAMES,
    R_AQUAMAN_DRAW,
    R_CANNOT_REVEAL,
    R_COLS,
    R_COMPANION_LOOK,
    R_CORNER,
    R_DISCARD_AFTER,
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
from simbalance.games.spec import Engine

ENGINE_VERSION = 2
CHUNK_SIZE = 1 << 16
STRATEGIES = {"random": S_RANDOM, "runner": S_RUNNER, "raider": S_RAIDER}
# Each heuristic's parameters in the order its code reads them (enums.P_*); configs bind by name.
STRATEGY_PARAMS = {"random": (), "runner": HEURISTIC_PARAM_NAMES, "raider": HEURISTIC_PARAM_NAMES}

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
    rules[R_CANNOT_REVEAL] = CANNOT_REVEAL_NAMES.index(
        require_choice(cfg, "rules.cannot_reveal", list(CANNOT_REVEAL_NAMES)))
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


def summarize(games: pd.DataFrame, players: int, config: dict) -> dict:
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


def figures(games: pd.DataFrame, players: int, config: dict, summary: dict) -> dict:
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


# ---------------------------------------------------------------- replay

DIRECTION_NAMES = ("up", "down", "left", "right")


def trace(plan, game: int) -> tuple[np.ndarray, np.ndarray]:
    """Play game ``game`` of the plan's run again with the kernel's own per-game code and return its
    record and its event log (rows of ``enums.EV_*``: kind, a, b, c, d, deck refills so far)."""
    import numba

    from simbalance.games.aquaman.enums import N_EV_COLS
    from simbalance.games.aquaman.rules_nb import trace_game

    if plan.kernel is not None and plan.kernel is not kernel:
        raise ConfigError("replay: a plug-in strategy file cannot be replayed; replay the built-in strategies")
    lineup = plan.lineup
    out = np.zeros(1, RECORD_DTYPE)
    # Games write `out[i].field`; as plain Python (NUMBA_DISABLE_JIT=1) that needs a recarray view.
    target = out.view(np.recarray) if numba.config.DISABLE_JIT else out
    log = np.zeros((4096, N_EV_COLS), np.int64)
    for _ in range(2):  # once more with a log of the right size when the first did not hold it all
        trace_game(target, np.int64(game), np.uint64(plan.seed), lineup.seats, lineup.slot_strategy,
                   lineup.slot_params, *plan.prepared, log)
        n_events = int(log[0, 0])
        if n_events < len(log):
            break
        log = np.zeros((n_events + 1, N_EV_COLS), np.int64)
    return out, log[1:int(log[0, 0]) + 1]


def _legs(dice: list[int], start: int, dest: int, move_to: np.ndarray, turn: bool) -> list[tuple[int, int, int]] | None:
    """One order of the dice and directions that ends the swim on ``dest``: (die, direction or -1
    for a skipped leg, square after the leg). The heuristics choose a square, not a path."""
    from itertools import permutations

    def go(cur: int, axis: int, rest: tuple[int, ...]) -> list | None:
        if not rest:
            return [] if cur == dest else None
        d = dice[rest[0]]
        moves = [(k, int(move_to[cur, d, k])) for k in range(4)
                 if move_to[cur, d, k] >= 0 and not (turn and 1 + (k >> 1) == axis)]
        if not moves:
            tail = go(cur, axis, rest[1:])
            return None if tail is None else [(d, -1, cur)] + tail
        for k, dst in moves:
            tail = go(dst, 1 + (k >> 1), rest[1:])
            if tail is not None:
                return [(d, k, dst)] + tail
        return None

    for order in permutations(range(len(dice))):
        path = go(start, 0, order)
        if path is not None:
            return path
    return None


def replay(plan, game: int) -> list[str]:
    """Game ``game`` of the plan's seed, move by move, in words."""
    from simbalance.games.aquaman import enums as e

    out, events = trace(plan, game)
    rec = out[0]
    rules, card, move_to = plan.prepared[0], plan.prepared[1], plan.prepared[2]
    suits, _ = _suits(plan.config)
    players = plan.players
    cols = int(rules[R_COLS])
    n_dice = int(rules[R_NDICE])
    turn_legs = bool(rules[R_TURN_LEGS])
    seats = plan.lineup.seats[game % len(plan.lineup.seats)]
    who = {s: f"seat {s} ({plan.lineup.slot_names[seats[s]]})" for s in range(players)}

    def name(c: int) -> str:
        return f"{suits[card[CARD_SUIT, c]]} {card[CARD_RANK, c]}" if c >= 0 else "nothing"

    def sq(cell: int) -> str:
        return f"({cell // cols},{cell % cols})"

    def leg(d: int, k: int, dst: int) -> str:
        return f"{d} {DIRECTION_NAMES[k]} to {sq(dst)}" if k >= 0 else f"{d} skipped (no legal direction)"

    hands: dict[int, list[int]] = {s: [] for s in range(players)}
    board: dict[int, int] = {}
    missions = [0] * players
    why = {e.WHY_COMPANION: "Companion: discards", e.WHY_POWER: "Power: discards",
           e.WHY_MISSION: "mission: discards", e.WHY_REST: "hand limit: discards"}
    power_names = list(POWER_NAMES) + ["no power"]
    lines = [f"aquaman, game {game} of seed {plan.seed}, {players} players: "
             + ", ".join(f"{who[s]} starts at {sq(int(rules[R_CORNER + s]))}" for s in range(players))
             + f". Squares are (row,col) from 0; a mission needs {int(rules[R_MISSION_SUITS])} suits, "
             f"{int(rules[R_MISSIONS_TO_WIN])} missions win, hand limit {int(rules[R_HAND_LIMIT])}."]
    refills = 0
    dice: list[int] = []
    legs: list[tuple[int, int, int]] = []
    dealt = False

    def hand(s: int) -> str:
        return ", ".join(name(c) for c in sorted(hands[s], key=lambda c: (card[CARD_SUIT, c], card[CARD_RANK, c])))

    for kind, a, b, c, d, ref in events.tolist():
        if ref > refills:
            refills = ref
            lines.append("    (the deck ran out: the discard pile is shuffled into a new deck)")
        if kind == e.EV_BOARD:
            board[a] = b
        elif kind == e.EV_DEAL:
            if not dealt:
                dealt = True
                lines.append("The board:")
                rows = int(rules[R_ROWS])
                for r in range(rows):
                    lines.append(f"  row {r}: " + " | ".join(name(board[r * cols + k]) for k in range(cols)))
            hands[a].append(b)
        elif kind == e.EV_TURN:
            if a == 1:
                for s in range(players):
                    lines.append(f"{who[s].capitalize()} is dealt: {hand(s) or 'no cards'}.")
            lines.append(f"Turn {a}, {who[b]}, hand: {hand(b) or 'empty'}; missions {missions[b]}.")
        elif kind == e.EV_ACTIVATE:
            hands[a].remove(b)
            lines.append(f"  uses {name(b)}: power {power_names[c]} (rank {card[CARD_RANK, b]}).")
        elif kind == e.EV_DRAW:
            if b >= 0:
                hands[a].append(b)
            extra = " (a third card: the first two summed below the Aquaman card)" if d else ""
            lines.append(f"    draws {name(b)}{extra}; {c} cards left in the deck.")
        elif kind == e.EV_SEE:
            lines.append(f"    looks at {name(b)}.")
        elif kind == e.EV_KEEP:
            if b >= 0:
                hands[a].append(b)
            lines.append(f"    keeps {name(b)}." if b >= 0 else "    keeps none (none is lower).")
        elif kind == e.EV_DISC:
            if c == e.WHY_ACTIVATED:
                lines.append(f"    {name(b)} goes to the discard pile.")
            elif c == e.WHY_COMPANION:
                lines.append(f"    discards {name(b)}.")
            else:
                hands[a].remove(b)
                lines.append(f"  {why[c]} {name(b)}.")
        elif kind == e.EV_SEA:
            if b < 0:
                lines.append("    the discard pile is empty: nothing to take.")
            elif c:
                hands[a].append(b)
                lines.append(f"    takes {name(b)} from the discard pile.")
            else:
                lines.append(f"    the discard pile's top card {name(b)} is not lower: nothing taken.")
        elif kind == e.EV_PLOT:
            lines.append(f"    targets square {sq(b)} ({name(board[b])})." if b >= 0
                         else "    no square qualifies: the swim is rolled.")
        elif kind == e.EV_FOE:
            if b < 0:
                lines.append("    no adjacent opponent with cards: no effect.")
            elif d:
                hands[b].remove(c)
                lines.append(f"    seat {b} reveals {name(c)}: lower, discarded.")
            else:
                lines.append(f"    seat {b} reveals {name(c)}: not lower, kept.")
        elif kind == e.EV_STRANGE:
            if b < 0:
                lines.append("    no adjacent card is lower: no effect.")
            else:
                hands[a].append(c)
                board[b] = d
                lines.append(f"    takes {name(c)} from square {sq(b)}; {name(d)} refills it.")
        elif kind == e.EV_LOCATION:
            if c == 0:
                lines.append(f"    shows the next {d} cards of the deck:")
            lines[-1] += (" " if c == 0 else ", ") + name(b)
        elif kind == e.EV_ROLL:
            dice = [b, c, d][:n_dice]
            legs = []
            lines.append(f"  rolls {', '.join(map(str, dice))}.")
        elif kind == e.EV_LEG:
            legs.append((a, b, d))
        elif kind == e.EV_MOVE:
            if d:
                lines.append(f"  swims to {sq(c)} by Plot, without rolling.")
            else:
                how = "order and directions chosen"
                if not legs:  # a heuristic chose the square: show one way there
                    legs = _legs(dice, b, c, move_to, turn_legs) or []
                    how = "one way there"
                path = "; ".join(leg(*x) for x in legs)
                lines.append(f"  swims {sq(b)} -> {sq(c)} ({how}: {path}).")
        elif kind == e.EV_TAKE:
            hands[a].append(c)
            board[b] = d
            lines.append(f"  takes {name(c)}; {name(d)} refills the square." if d >= 0
                         else f"  takes {name(c)}; the deck is empty, the square stays empty.")
        elif kind == e.EV_EMPTY:
            lines.append("  the square is empty: nothing to take.")
        elif kind == e.EV_FIGHT:
            lines.append(f"  fights seat {b} on the square:")
        elif kind == e.EV_REVEAL:
            for s, x in ((a, b), (c, d)):
                if x >= 0:
                    hands[s].remove(x)
            lines.append(f"    seat {a} reveals {name(b) if b >= 0 else 'no card (empty hand)'}, "
                         f"seat {c} reveals {name(d) if d >= 0 else 'no card (empty hand)'}"
                         + ("; a tie." if b >= 0 and d >= 0 and card[CARD_RANK, b] == card[CARD_RANK, d] else "."))
        elif kind == e.EV_STEAL:
            hands[b].remove(c)
            hands[a].append(c)
            lines.append(f"    seat {a} steals {name(c)} from seat {b}.")
        elif kind == e.EV_NO_REVEAL:
            empty = [s for s, k in ((a, b), (c, d)) if k == 0]
            lines.append("    " + " and ".join(f"seat {s}" for s in empty)
                         + (" has" if len(empty) == 1 else " have") + " no card to reveal: "
                         "the fight ends before the reveal.")
        elif kind == e.EV_FIGHT_END:
            if c < 0:
                lines.append("    nobody wins the fight.")
            else:
                lines.append(f"    seat {c} wins the fight.")
        elif kind == e.EV_MISSION:
            missions[a] = b
            lines.append(f"  completes mission {b}.")
        elif kind == e.EV_WIN:
            lines.append(f"Seat {a} wins with {missions[a]} missions on turn {b}.")
        elif kind == e.EV_TIMEOUT:
            lines.append(f"The turn cap ({a} turns) ends the game: nobody wins.")
        elif kind == e.EV_INVALID:
            lines.append(f"Validation: an invariant broke after turn {a}.")
    if [len(hands[s]) for s in range(players)] != [int(rec["hand_end"][s]) for s in range(players)]:
        raise RuntimeError(f"aquaman replay of game {game}: the event log lost track of a hand (a bug)")
    lines.append(f"At the end (the deck was refilled {int(rec['refills'])} times):")
    for s in range(players):
        lines.append(f"  {who[s]}: {int(rec['missions'][s])} missions, hand: {hand(s) or 'empty'}.")
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
    summarize=summarize,
    figures=figures,
    replay=replay,
    trace=trace,
)
