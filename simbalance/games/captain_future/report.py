"""Report hooks of captain-future: game-specific metrics and figures, pure functions of the DataFrame.

The board geometry comes from the run's config (``board.parse_map``): the games' ``held_mask_*`` /
``winner_mask_*`` bits are landing spaces in reading order and their ``body_*_<b>`` columns are
bodies in legend order.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from simbalance.games.captain_future.board import parse_map


def _seats(games: pd.DataFrame) -> int:
    return sum(1 for c in games.columns if c.startswith("score_"))


def space_shares(games: pd.DataFrame, n_spaces: int) -> tuple[np.ndarray, np.ndarray]:
    """Per landing space: share of games it ends held, and held by a winner."""
    n = max(len(games), 1)

    def bit_shares(prefix: str) -> np.ndarray:
        # Byte by byte: how often each byte value occurs, then which bits each value has set;
        # 16 passes over the column instead of one per bit.
        bits_of_value = (np.arange(256)[:, None] >> np.arange(8)) & 1  # [value, bit]
        counts = np.zeros(128)
        for w in range(2):
            words = np.ascontiguousarray(games[f"{prefix}_{w}"].to_numpy(np.uint64)).astype("<u8", copy=False)
            as_bytes = words.view(np.uint8).reshape(-1, 8)  # little-endian: byte j holds bits 8j..8j+7
            for j in range(8):
                tally = np.bincount(as_bytes[:, j], minlength=256)
                counts[64 * w + 8 * j:64 * w + 8 * j + 8] = tally @ bits_of_value
        return counts[:n_spaces] / n

    return bit_shares("held_mask"), bit_shares("winner_mask")


def held_by_winner(seat: np.ndarray, winners: np.ndarray) -> np.ndarray:
    """Per game: the body's holder (``seat``, -1: nobody) is one of the winners (the ``winners``
    bit mask, so a tied winner counts too; ``winner`` is -1 on ties)."""
    return (seat >= 0) & (((winners >> np.maximum(seat, 0)) & 1) == 1)


def summarize(games: pd.DataFrame, players: int, config: dict) -> dict:
    """Ships, attacks, events, and per body the share of games it ends fully controlled / with a
    majority, and controlled by the winner."""
    lay = parse_map(config)
    n = max(len(games), 1)
    seats = range(players)
    out: dict = {}

    def per_seat_mean(field: str) -> list[float]:
        return [float(games[f"{field}_{s}"].mean()) for s in seats]

    for field in ("score", "ships_board", "ships_supply", "ships_lost", "full_control", "majorities",
                  "attacks_majority", "attacks_present", "attacks_absent"):
        out[f"mean_{field}_by_seat"] = per_seat_mean(field)
    out["attacks_per_game"] = {
        cat: float(sum(games[f"attacks_{cat}_{s}"].sum() for s in seats) / n)
        for cat in ("majority", "present", "absent")
    }
    out["events_per_game"] = {e: float(games[e].mean()) for e in ("simon_wright", "recall", "otto", "grag")}
    out["exchanges_per_game"] = float(games["exchanges"].mean())
    out["end_triggered_by_seat"] = [float((games["end_seat"] == s).mean()) for s in seats]
    winners = games["winners"].to_numpy().astype(np.int64)
    bodies = {}
    for b, bid in enumerate(lay.body_ids):
        full = games[f"body_full_{b}"].to_numpy()
        major = games[f"body_major_{b}"].to_numpy()
        bodies[bid] = {
            "full_control": float(np.count_nonzero(full >= 0) / n),
            "majority": float(np.count_nonzero(major >= 0) / n),
            "full_control_by_winner": float(np.count_nonzero(held_by_winner(full, winners)) / n),
            "majority_by_winner": float(np.count_nonzero(held_by_winner(major, winners)) / n),
        }
    out["bodies"] = bodies
    held, won = space_shares(games, len(lay.space_body))
    out["space_held_share_mean"] = float(held.mean()) if len(held) else 0.0
    out["space_held_by_winner_share_mean"] = float(won.mean()) if len(won) else 0.0
    return out


def _heat(ax, lay, values, title, fig, vmax=1.0):
    grid = np.full((len(lay.row_labels), len(lay.col_labels)), np.nan)
    grid[lay.space_row, lay.space_col] = values
    im = ax.imshow(grid, vmin=0.0, vmax=vmax, cmap="viridis")
    ax.set_xticks(range(len(lay.col_labels)), lay.col_labels)
    ax.set_yticks(range(len(lay.row_labels)), lay.row_labels)
    ax.set_title(title)
    for s in range(len(values)):
        letter = lay.body_ids[lay.space_body[s]][:2]
        ax.text(lay.space_col[s], lay.space_row[s], f"{letter}\n{values[s]:.2f}", ha="center", va="center",
                fontsize=6, color="white" if values[s] < 0.6 * vmax else "black")
    fig.colorbar(im, ax=ax, shrink=0.8)


def figures(games: pd.DataFrame, players: int, config: dict, summary: dict) -> dict[str, Figure]:
    """Board heatmaps (share of games each space ends held, and held by a winner) and the control
    rate per body (full control, majority, and by the winner)."""
    lay = parse_map(config)
    held, won = space_shares(games, len(lay.space_body))
    fig = Figure(figsize=(12, 5.5), layout="constrained")
    ax1, ax2 = fig.subplots(1, 2)
    _heat(ax1, lay, held, "share of games the space ends held", fig)
    _heat(ax2, lay, won, "share of games the space ends held by the winner (own scale)", fig,
          vmax=max(float(won.max()) if len(won) else 0.0, 0.01))
    figs = {"captain_future_board": fig}

    n = max(len(games), 1)
    winners = games["winners"].to_numpy().astype(np.int64)
    rows = []
    for b in range(len(lay.body_ids)):
        full = games[f"body_full_{b}"].to_numpy()
        major = games[f"body_major_{b}"].to_numpy()
        rows.append((
            np.count_nonzero(full >= 0) / n,
            np.count_nonzero((major >= 0) & (full < 0)) / n,
            np.count_nonzero(held_by_winner(major, winners)) / n,
        ))
    arr = np.array(rows)
    fig2 = Figure(figsize=(10, 4.5), layout="constrained")
    ax = fig2.subplots()
    x = np.arange(len(lay.body_ids))
    ax.bar(x, arr[:, 0], label="fully controlled")
    ax.bar(x, arr[:, 1], bottom=arr[:, 0], label="majority (not full)")
    ax.plot(x, arr[:, 2], "k_", markersize=18, mew=2, label="controlled by the winner")
    ax.set_xticks(x, [f"{bid}\n({cls})" for bid, cls in zip(lay.body_ids, lay.body_classes, strict=True)],
                  fontsize=8)
    ax.set_ylim(0, 1)
    ax.set_ylabel("share of games")
    ax.set_title("control of each body at the end")
    ax.legend(fontsize=8)
    figs["captain_future_bodies"] = fig2
    return figs
