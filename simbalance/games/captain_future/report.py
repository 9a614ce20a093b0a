"""Report hooks of captain-future: game-specific metrics and figures, pure functions of the DataFrame.

The board geometry comes from the run's config (``board.parse_map``): the games' ``held_mask_*`` /
``winner_mask_*`` bits are landing spaces in reading order and their ``body_*_<b>`` columns are
bodies in legend order.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from simbalance.core.aggregate import contiguous_columns
from simbalance.games.captain_future.board import parse_map


def _seats(games: pd.DataFrame) -> int:
    return sum(1 for c in games.columns if c.startswith("score_"))


def space_shares(games: pd.DataFrame | dict[str, np.ndarray], n_spaces: int, n: int | None = None
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Per landing space: share of games it ends held, and held by a winner (``games``: the frame,
    or its mask columns as arrays with ``n`` games)."""
    n = max(len(games) if n is None else n, 1)

    def bit_shares(prefix: str) -> np.ndarray:
        # Byte by byte: how often each byte value occurs, then which bits each value has set;
        # 16 passes over the column instead of one per bit.
        bits_of_value = (np.arange(256)[:, None] >> np.arange(8)) & 1  # [value, bit]
        counts = np.zeros(128)
        for w in range(2):
            words = np.ascontiguousarray(np.asarray(games[f"{prefix}_{w}"], dtype=np.uint64)).astype("<u8", copy=False)
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


def _body_tallies(columns: dict[str, np.ndarray], n_bodies: int, players: int) -> np.ndarray:
    """Per body, games counted by (full-control holder + 1, majority holder + 1, winners mask):
    one histogram per body from which every control share of the summary and the figure is a sum
    of counts (the same counts ``held_by_winner`` gives, with one pass over each column instead of
    one per share)."""
    holders, masks = players + 1, 1 << players
    winners = columns["winners"].astype(np.int32)
    tallies = np.empty((n_bodies, holders, holders, masks), dtype=np.int64)
    for b in range(n_bodies):
        key = (columns[f"body_full_{b}"].astype(np.int32) + 1) * (holders * masks) \
            + (columns[f"body_major_{b}"].astype(np.int32) + 1) * masks + winners
        tallies[b] = np.bincount(key, minlength=holders * holders * masks).reshape(holders, holders, masks)
    return tallies


def _winner_holds(players: int) -> np.ndarray:
    """[holder + 1, winners mask]: the holder (-1: nobody) is one of the winners."""
    return held_by_winner(np.arange(-1, players)[:, None], np.arange(1 << players)[None, :])


def _control_counts(tally: np.ndarray, players: int) -> dict[str, int]:
    """One body's games (integers) in full control, with a majority, with a majority but not full
    control, and each held by a winner, from its ``_body_tallies`` histogram."""
    holds = _winner_holds(players)
    return {
        "full_control": int(tally[1:].sum()),
        "majority": int(tally[:, 1:].sum()),
        "majority_not_full": int(tally[0, 1:].sum()),
        "full_control_by_winner": int(tally.sum(axis=1)[holds].sum()),
        "majority_by_winner": int(tally.sum(axis=0)[holds].sum()),
    }


def _columns(games: pd.DataFrame, n_bodies: int, players: int) -> dict[str, np.ndarray]:
    """The columns the summary reads, contiguous (core/aggregate.contiguous_columns: a run's columns
    are strided views into its records, several times slower to read one by one)."""
    fields = ("score", "ships_board", "ships_supply", "ships_lost", "full_control", "majorities",
              "attacks_majority", "attacks_present", "attacks_absent")
    names = [f"{field}_{s}" for field in fields for s in range(players)]
    names += ["simon_wright", "recall", "otto", "grag", "exchanges", "end_seat", "winners"]
    names += [f"body_{kind}_{b}" for b in range(n_bodies) for kind in ("full", "major")]
    names += [f"{prefix}_{w}" for prefix in ("held_mask", "winner_mask") for w in range(2)]
    return contiguous_columns(games, names)


def _mean(values: np.ndarray) -> float:
    """The column's mean as pandas gives it (a float64 sum of the values over their count), exactly:
    an integer column's sum is exact either way."""
    if values.dtype.kind in "iub":
        return float(int(values.sum(dtype=np.int64)) / len(values)) if len(values) else float("nan")
    return float(pd.Series(values).mean())


def summarize(games: pd.DataFrame, players: int, config: dict) -> dict:
    """Ships, attacks, events, and per body the share of games it ends fully controlled / with a
    majority, and controlled by the winner."""
    lay = parse_map(config)
    n = max(len(games), 1)
    seats = range(players)
    columns = _columns(games, len(lay.body_ids), players)
    out: dict = {}

    for field in ("score", "ships_board", "ships_supply", "ships_lost", "full_control", "majorities",
                  "attacks_majority", "attacks_present", "attacks_absent"):
        out[f"mean_{field}_by_seat"] = [_mean(columns[f"{field}_{s}"]) for s in seats]
    out["attacks_per_game"] = {
        cat: float(sum(int(columns[f"attacks_{cat}_{s}"].sum(dtype=np.int64)) for s in seats) / n)
        for cat in ("majority", "present", "absent")
    }
    out["events_per_game"] = {e: _mean(columns[e]) for e in ("simon_wright", "recall", "otto", "grag")}
    out["exchanges_per_game"] = _mean(columns["exchanges"])
    out["end_triggered_by_seat"] = [_mean(columns["end_seat"] == s) for s in seats]
    tallies = _body_tallies(columns, len(lay.body_ids), players)
    bodies = {}
    for b, bid in enumerate(lay.body_ids):
        counts = _control_counts(tallies[b], players)
        bodies[bid] = {key: float(counts[key] / n) for key in
                       ("full_control", "majority", "full_control_by_winner", "majority_by_winner")}
    out["bodies"] = bodies
    held, won = space_shares(columns, len(lay.space_body), n)
    out["space_held_share_mean"] = float(held.mean()) if len(held) else 0.0
    out["space_held_by_winner_share_mean"] = float(won.mean()) if len(won) else 0.0
    return out


def board_figure(lay, bodies: dict, classes: dict) -> Figure:
    """The board as it is drawn: every landing space in its place, each body outlined and named in
    full with its class and points, coloured by how often a winner ends in full control of it; the
    numbers under each name: full control at the end, and full control by a winner."""
    from matplotlib import colormaps
    from matplotlib.cm import ScalarMappable
    from matplotlib.collections import LineCollection
    from matplotlib.colors import Normalize
    from matplotlib.patches import Rectangle

    rows, cols = len(lay.row_labels), len(lay.col_labels)
    share = np.array([bodies[b]["full_control_by_winner"] for b in lay.body_ids])
    norm = Normalize(vmin=float(share.min()), vmax=max(float(share.max()), float(share.min()) + 0.01))
    cmap = colormaps["YlGnBu"]
    fig = Figure(figsize=(0.62 * cols + 2.2, 0.62 * rows + 1.0), layout="constrained")
    ax = fig.add_subplot()
    body_at = {(int(r), int(c)): int(b) for r, c, b in zip(lay.space_row, lay.space_col, lay.space_body, strict=True)}
    # The empty places and the bodies' edges are drawn as one artist each (a plot call per
    # segment made the board the report's slowest figure); they look as the segments did: drawn
    # above the spaces, with the lines' own projecting caps.
    empty, edges = [], []
    for r in range(rows):
        for c in range(cols):
            b = body_at.get((r, c))
            if b is None:
                empty.append((c, r))
                continue
            ax.add_patch(Rectangle((c - 0.5, r - 0.5), 1, 1, facecolor=cmap(norm(share[b])), edgecolor="white",
                                   linewidth=0.6))
            for dr, dc, x0, y0, x1, y1 in ((-1, 0, -0.5, -0.5, 0.5, -0.5), (1, 0, -0.5, 0.5, 0.5, 0.5),
                                           (0, -1, -0.5, -0.5, -0.5, 0.5), (0, 1, 0.5, -0.5, 0.5, 0.5)):
                if body_at.get((r + dr, c + dc)) != b:  # the body's edge
                    edges.append([(c + x0, r + y0), (c + x1, r + y1)])
    if empty:
        ax.plot(*zip(*empty, strict=True), ".", color="0.8", markersize=3)
    ax.add_collection(LineCollection(edges, colors="0.15", linewidths=1.6, capstyle="projecting", zorder=2))
    for b, (bid, name, cls) in enumerate(zip(lay.body_ids, lay.body_names, lay.body_classes, strict=True)):
        here = lay.space_body == b
        x, y = float(lay.space_col[here].mean()), float(lay.space_row[here].mean())
        dark = norm(share[b]) > 0.55
        ax.text(x, y, f"{name}\n{cls}, {classes.get(cls, '?')} pts\nfull {bodies[bid]['full_control']:.0%}\n"
                f"winner {share[b]:.0%}", ha="center", va="center", fontsize=7.5, linespacing=1.15,
                color="white" if dark else "black", fontweight="bold")
    ax.set_xlim(-0.5, cols - 0.5)
    ax.set_ylim(rows - 0.5, -0.5)
    ax.set_aspect("equal")
    ax.set_xticks(range(cols), lay.col_labels)
    ax.set_yticks(range(rows), lay.row_labels)
    ax.tick_params(length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    fig.colorbar(ScalarMappable(norm, cmap), ax=ax, shrink=0.7, format=lambda v, _: f"{v:.0%}",
                 label="games a winner ends in full control")
    ax.set_title("The board: under each body, full control at the end (full) and by a winner (winner)",
                 fontsize=10)
    return fig


def figures(games: pd.DataFrame, players: int, config: dict, summary: dict) -> dict[str, Figure]:
    """The board with each body's control (named in full), and the control rate per body (full
    control, majority, and by the winner)."""
    lay = parse_map(config)
    bodies = (summary.get("game") or {}).get("bodies") or summarize(games, players, config)["bodies"]
    figs = {"captain_future_board": board_figure(lay, bodies, config["board"]["classes"])}

    n = max(len(games), 1)
    tallies = _body_tallies(_columns(games, len(lay.body_ids), players), len(lay.body_ids), players)
    rows = []
    for b in range(len(lay.body_ids)):
        counts = _control_counts(tallies[b], players)
        rows.append((counts["full_control"] / n, counts["majority_not_full"] / n, counts["majority_by_winner"] / n))
    arr = np.array(rows)
    fig2 = Figure(figsize=(10, 4.5), layout="constrained")
    ax = fig2.subplots()
    x = np.arange(len(lay.body_ids))
    ax.bar(x, arr[:, 0], label="fully controlled")
    ax.bar(x, arr[:, 1], bottom=arr[:, 0], label="majority (not full)")
    ax.plot(x, arr[:, 2], "k_", markersize=18, mew=2, label="controlled by the winner")
    ax.set_xticks(x, [f"{name}\n({cls})" for name, cls in zip(lay.body_names, lay.body_classes, strict=True)],
                  fontsize=9)
    ax.set_ylim(0, 1)
    ax.set_ylabel("share of games")
    ax.set_title("control of each body at the end")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False)
    figs["captain_future_bodies"] = fig2
    return figs
