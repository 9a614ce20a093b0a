"""Figures of a run: each a pure function of DataFrames (or summary dicts), returning a Figure.

They use matplotlib's object API (``Figure``), not pyplot's global state, so they are safe to call
from anywhere and many times.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from simbalance.analysis.labels import metric_label

COLORS = ("#3b6ea8", "#d1495b", "#edae49", "#00798c", "#66a182", "#8d6a9f")
TARGET_COLOR = "#b7e4c7"  # the designer's targets, drawn as bands


def win_rates(table: pd.DataFrame, label: str, fair: float | None, title: str) -> Figure:
    """Bars of win rate with 95% CI whiskers; a dashed line at the fair share."""
    fig = Figure(figsize=(6.0, 3.6), layout="constrained")
    ax = fig.add_subplot()
    x = np.arange(len(table))
    rates = table["win_rate"].to_numpy()
    # Wilson bounds can sit a rounding error on the wrong side of a rate of exactly 0 or 1.
    err = np.clip(np.vstack([rates - table["ci_low"].to_numpy(), table["ci_high"].to_numpy() - rates]), 0, None)
    ax.bar(x, rates, color=[COLORS[i % len(COLORS)] for i in range(len(table))], yerr=err, capsize=6)
    if fair is not None:
        ax.axhline(fair, color="0.3", linestyle="--", linewidth=1, label=f"fair share {fair:.1%}")
        ax.legend(loc="upper right", frameon=False)
    ax.set_xticks(x, [str(v) for v in table[label]])
    ax.set_xlabel(label)
    ax.set_ylabel("win rate (95% CI)")
    ax.yaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
    ax.set_ylim(0, max(0.05, float(table["ci_high"].max()) * 1.25))
    for xi, r in zip(x, rates, strict=True):
        ax.annotate(f"{r:.1%}", (xi, r), xytext=(0, 3), textcoords="offset points", ha="center", fontsize=8)
    ax.set_title(title)
    return fig


def length_histogram(hist: pd.DataFrame, unit: str) -> Figure:
    """Histogram of game length (columns ``length``, ``games``, ``undecided``) with the median and
    the 5th and 95th percentiles marked; games without a winner in red."""
    fig = Figure(figsize=(6.0, 3.6), layout="constrained")
    ax = fig.add_subplot()
    hist = hist[hist["games"].cumsum() > 0]
    hist = hist.iloc[: int(np.flatnonzero(hist["games"].to_numpy())[-1]) + 1]
    length = hist["length"].to_numpy()
    games = hist["games"].to_numpy()
    undecided = hist["undecided"].to_numpy()
    if len(length) > 120:  # wide ranges: merge into about 60 bins
        width = int(np.ceil(len(length) / 60))
        groups = (length - length[0]) // width
        length = length[0] + np.unique(groups) * width
        games = np.bincount(groups, weights=games)
        undecided = np.bincount(groups, weights=undecided)
    else:
        width = 1
    ax.bar(length, games - undecided, width=width, align="edge" if width > 1 else "center", color=COLORS[0],
           label="games with a winner")
    if undecided.any():
        ax.bar(length, undecided, bottom=games - undecided, width=width, align="edge" if width > 1 else "center",
               color=COLORS[1], label="timeouts / stalemates")
    total = hist["games"].to_numpy()
    cum = np.cumsum(total)
    marks: dict[float, list[int]] = {}  # percentiles on the same length share one line and one label
    for q in (5, 50, 95):
        marks.setdefault(float(hist["length"].to_numpy()[int(np.searchsorted(cum, q / 100 * cum[-1]))]), []).append(q)
    for i, (v, qs) in enumerate(sorted(marks.items())):
        ax.axvline(v, color="0.2", linestyle="-" if 50 in qs else ":", linewidth=1)
        ax.annotate(" = ".join(f"p{q}" for q in qs) + f": {v:g}", (v, 1), xycoords=("data", "axes fraction"),
                    xytext=(4, -13 - 13 * i), textcoords="offset points", fontsize=9,
                    bbox={"boxstyle": "square,pad=0.1", "facecolor": "white", "edgecolor": "none", "alpha": 0.8})
    ax.set_xlabel(f"game length ({unit})")
    ax.set_ylabel("games")
    ax.set_title("How long games last")
    ax.legend(loc="center right", frameon=False, fontsize=9)
    return fig


def forest(table: pd.DataFrame, title: str) -> Figure:
    """Differences to the baseline with 95% CIs, one row per metric and a colour per variant.

    Rates are in percentage points (left panel); counts such as length in their unit (right).
    Filled markers are significant after Holm's correction.
    """
    kinds = ["share"] + sorted(k for k in table["kind"].unique() if k != "share")
    kinds = [k for k in kinds if (table["kind"] == k).any()]
    metrics = {k: list(dict.fromkeys(table.loc[table["kind"] == k, "metric"])) for k in kinds}
    rows = max(len(m) for m in metrics.values())
    variants = list(dict.fromkeys(table["variant"]))
    widths = [3 if k == "share" else 1.6 for k in kinds]
    fig = Figure(figsize=(2.2 + sum(widths) * 1.6, 1.2 + 0.38 * rows * max(1, len(variants) * 0.6)),
                 layout="constrained")
    axes = fig.subplots(1, len(kinds), squeeze=False, gridspec_kw={"width_ratios": widths})[0]
    step = 0.8 / max(1, len(variants))
    for ax, kind in zip(axes, kinds, strict=True):
        names = metrics[kind]
        scale = 100.0 if kind == "share" else 1.0
        for v, variant in enumerate(variants):
            part = table[(table["kind"] == kind) & (table["variant"] == variant)].set_index("metric")
            for m, metric in enumerate(names):
                if metric not in part.index:
                    continue
                row = part.loc[metric]
                y = m + (v - (len(variants) - 1) / 2) * step
                color = COLORS[v % len(COLORS)]
                ax.errorbar(row["diff"] * scale, y,
                            xerr=[[max(0.0, (row["diff"] - row["ci_low"]) * scale)],
                                  [max(0.0, (row["ci_high"] - row["diff"]) * scale)]],
                            fmt="o", color=color, mfc=color if row["significant"] else "white", capsize=3,
                            label=variant if m == 0 else None)
        ax.axvline(0, color="0.4", linewidth=1)
        ax.set_yticks(range(len(names)), [metric_label(m) for m in names])
        ax.set_ylim(len(names) - 0.5, -0.5)  # first metric on top
        ax.set_xlabel("difference (percentage points)" if kind == "share" else f"difference ({kind})")
        ax.grid(axis="x", color="0.9")
    axes[0].plot([], [], "o", color="0.3", label="filled: significant (Holm)")
    axes[0].plot([], [], "o", color="0.3", mfc="white", label="hollow: not significant")
    axes[0].legend(loc="best", fontsize=8, frameon=False)
    fig.suptitle(title)
    return fig


def sweep_lines(table: pd.DataFrame, key: str, players: int, unit: str, targets: dict | None = None) -> Figure:
    """Players' win rates, balance and mean length against one swept key, with 95% CI bands; the
    targets (balance at least ``balance_min``, median length in ``length_median``) as green bands."""
    fig = Figure(figsize=(12, 3.8), layout="constrained")
    ax_win, ax_bal, ax_len = fig.subplots(1, 3)
    x = table[key].to_numpy()
    numeric = np.issubdtype(x.dtype, np.number)
    pos = x if numeric else np.arange(len(x))
    for s in range(players):
        color = COLORS[s % len(COLORS)]
        ax_win.plot(pos, table[f"win_rate_seat_{s}"], "o-", color=color, label=f"player {s + 1}", markersize=3)
        ax_win.fill_between(pos, table[f"win_rate_seat_{s}_ci_low"], table[f"win_rate_seat_{s}_ci_high"],
                            color=color, alpha=0.2)
    ax_win.axhline(1 / players, color="0.4", linestyle="--", linewidth=1)
    ax_win.yaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
    ax_win.set_title("win rate by player (95% CI)")
    ax_win.legend(fontsize=8, frameon=False)
    targets = targets or {}
    if targets.get("balance_min", 1.0) < 1.0:
        ax_bal.axhspan(targets["balance_min"], 1.0, color=TARGET_COLOR, alpha=0.35,
                       label=f"target: at least {targets['balance_min']:.0%}")
    ax_bal.plot(pos, table["balance"], "o-", color=COLORS[0], markersize=3)
    ax_bal.yaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
    ax_bal.set_title("balance (1 − largest gap between players)")
    if targets.get("balance_min", 1.0) < 1.0:
        ax_bal.legend(fontsize=8, frameon=False)
    if "length_median" in targets:
        low, high = targets["length_median"]
        ax_len.axhspan(low, high, color=TARGET_COLOR, alpha=0.35, label=f"target median {low:g} to {high:g}")
    ax_len.plot(pos, table["length_mean"], "o-", color=COLORS[3], markersize=3, label="mean")
    ax_len.fill_between(pos, table["length_mean_ci_low"], table["length_mean_ci_high"], color=COLORS[3], alpha=0.2)
    ax_len.plot(pos, table["length_median"], "s--", color="0.4", markersize=3, label="median")
    ax_len.set_title(f"game length ({unit})")
    ax_len.legend(fontsize=8, frameon=False)
    for ax in (ax_win, ax_bal, ax_len):
        ax.set_xlabel(key)
        if not numeric or (np.issubdtype(x.dtype, np.integer) and len(x) <= 16):
            ax.set_xticks(pos, [str(v) for v in x])
        ax.grid(color="0.92")
    return fig


def sweep_heatmap(table: pd.DataFrame, key_x: str, key_y: str, metric: str, label: str,
                  on_target: pd.Series | None = None) -> Figure:
    """A metric over a two-key grid, each cell annotated; the cells that meet the targets
    (``on_target``, a boolean per row of ``table``) outlined in green."""
    pivot = table.pivot(index=key_y, columns=key_x, values=metric)
    fig = Figure(figsize=(2.4 + 0.8 * pivot.shape[1], 1.6 + 0.5 * pivot.shape[0]), layout="constrained")
    ax = fig.add_subplot()
    im = ax.imshow(pivot.to_numpy(dtype=float), cmap="viridis", aspect="auto")
    ax.set_xticks(range(pivot.shape[1]), [str(c) for c in pivot.columns])
    ax.set_yticks(range(pivot.shape[0]), [str(i) for i in pivot.index])
    ax.set_xlabel(key_x)
    ax.set_ylabel(key_y)
    values = pivot.to_numpy(dtype=float)
    mid = np.nanmean(values)
    for (r, c), v in np.ndenumerate(values):
        ax.text(c, r, f"{v:.3g}", ha="center", va="center", fontsize=8, color="white" if v < mid else "black")
    if on_target is not None and on_target.any():
        hits = table.assign(_hit=on_target.to_numpy()).pivot(index=key_y, columns=key_x, values="_hit")
        from matplotlib.patches import Rectangle

        for (r, c), hit in np.ndenumerate(hits.to_numpy(dtype=bool)):
            if hit:  # white under black: visible on every colour of the map
                for color, width, style in (("white", 4.0, "-"), ("black", 1.6, "--")):
                    ax.add_patch(Rectangle((c - 0.42, r - 0.42), 0.84, 0.84, fill=False, edgecolor=color,
                                           linewidth=width, linestyle=style))
        label = f"{label}\n(outlined: meets the targets)"
    fig.colorbar(im, ax=ax, shrink=0.8)
    ax.set_title(label)
    return fig


def card_impact_bars(table: pd.DataFrame, kind: str, title: str) -> Figure:
    """Win-rate difference when a seat has each card (vs not), with 95% CIs, sorted."""
    part = table[(table["kind"] == kind) & (table["level"] == "card")].dropna(subset=["difference"])
    part = part.sort_values("difference")
    fig = Figure(figsize=(7.0, 1.2 + 0.24 * len(part)), layout="constrained")
    ax = fig.add_subplot()
    y = np.arange(len(part))
    d = part["difference"].to_numpy() * 100
    err = np.clip(np.vstack([d - part["ci_low"].to_numpy() * 100, part["ci_high"].to_numpy() * 100 - d]), 0, None)
    colors = [COLORS[1] if v < 0 else COLORS[0] for v in d]
    ax.barh(y, d, xerr=err, color=colors, capsize=2)
    ax.plot(part["difference_length_adjusted"].to_numpy() * 100, y, "k|", markersize=8,
            label="adjusted for game length")
    ax.set_yticks(y, part["subject"].tolist(), fontsize=8)
    ax.axvline(0, color="0.3", linewidth=1)
    ax.set_xlabel("win rate with the card − without (percentage points, 95% CI)")
    ax.legend(fontsize=8, frameon=False, loc="lower right")
    ax.set_title(title)
    return fig


def matchup_heatmap(matchups: pd.DataFrame, names: list[str], fair: float) -> Figure:
    """A's per-seat win rate against B (rows A, columns B); the diagonal is the fair share."""
    k = len(names)
    grid = np.full((k, k), np.nan)
    for _, r in matchups.iterrows():
        grid[names.index(r["strategy"]), names.index(r["opponent"])] = r["win_rate"]
    fig = Figure(figsize=(1.6 + 1.1 * k, 1.2 + 0.9 * k), layout="constrained")
    ax = fig.add_subplot()
    span = max(0.05, float(np.nanmax(np.abs(grid - fair)))) if np.isfinite(grid).any() else 0.05
    im = ax.imshow(grid, cmap="RdBu", vmin=fair - span, vmax=fair + span)
    for (r, c), v in np.ndenumerate(grid):
        ax.text(c, r, "—" if np.isnan(v) else f"{v:.1%}", ha="center", va="center", fontsize=8)
    ax.set_xticks(range(k), names, rotation=30, ha="right")
    ax.set_yticks(range(k), names)
    ax.set_xlabel("against")
    ax.set_ylabel("strategy")
    fig.colorbar(im, ax=ax, shrink=0.8, format=lambda v, _: f"{v:.0%}")
    ax.set_title(f"win rate per seat, decided A-and-B-only games (fair {fair:.0%})")
    return fig


def ratings_bars(ratings: pd.DataFrame) -> Figure:
    fig = Figure(figsize=(5.5, 1.0 + 0.45 * len(ratings)), layout="constrained")
    ax = fig.add_subplot()
    part = ratings.iloc[::-1]
    y = np.arange(len(part))
    err = np.clip(np.vstack([part["elo"] - part["ci_low"], part["ci_high"] - part["elo"]]), 0, None)
    ax.barh(y, part["elo"], xerr=err, color=[COLORS[i % len(COLORS)] for i in range(len(part))], capsize=4)
    ax.set_yticks(y, part["strategy"].tolist())
    ax.axvline(0, color="0.3", linewidth=1)
    ax.set_xlabel("Bradley-Terry rating, Elo scale (95% bootstrap CI)")
    ax.set_title("Ratings")
    return fig


def ladder_curve(table: pd.DataFrame, fair: float, against: str, budget_param: str,
                 yardstick: str | None = None) -> Figure:
    """The skill ladder: each budget's win rate against the heuristic (95% CI band, fair share
    dashed) and its head-to-head share against the budget before it (50% dashed), and against the
    yardstick at the same budget when it was played, budgets on a log axis."""
    fig = Figure(figsize=(9.0, 3.6), layout="constrained")
    left, right = fig.subplots(1, 2)
    x = table["budget"].to_numpy(dtype=float)
    left.fill_between(x, table["ci_low"], table["ci_high"], color=COLORS[0], alpha=0.25, linewidth=0)
    left.plot(x, table["win_rate"], marker="o", color=COLORS[0])
    left.axhline(fair, color="0.3", linestyle="--", linewidth=1, label=f"fair share {fair:.0%}")
    left.set_title(f"against {against} (per seat, decided games)")
    left.set_ylabel("win rate (95% CI)")
    steps = table.iloc[1:]
    if len(steps) and steps["h2h_games"].gt(0).any():
        sx = steps["budget"].to_numpy(dtype=float)
        share = steps["h2h_share"].to_numpy()
        err = np.clip(np.vstack([share - steps["h2h_ci_low"].to_numpy(), steps["h2h_ci_high"].to_numpy() - share]),
                      0, None)
        right.errorbar(sx, share, yerr=err, marker="o", capsize=5, color=COLORS[1], linestyle="none",
                       label="against the budget before")
    yard = table[table["yard_games"] > 0] if yardstick is not None and "yard_games" in table else table.iloc[:0]
    if len(yard):
        yx = yard["budget"].to_numpy(dtype=float) * 1.08  # beside the other series' point
        share = yard["yard_share"].to_numpy()
        err = np.clip(np.vstack([share - yard["yard_ci_low"].to_numpy(), yard["yard_ci_high"].to_numpy() - share]),
                      0, None)
        right.errorbar(yx, share, yerr=err, marker="s", capsize=5, color=COLORS[2], linestyle="none",
                       label=f"against {yardstick}, same budget")
    right.axhline(0.5, color="0.3", linestyle="--", linewidth=1, label="even 50%")
    right.set_title("head to head" if len(yard) else "head to head against the budget before it")
    right.set_ylabel("share of the wins (95% CI)")
    for ax in (left, right):
        ax.set_xscale("log")
        ax.set_xticks(x, [f"{int(v):,}" for v in x])
        ax.minorticks_off()
        ax.set_xlabel(budget_param + " per decision")
        ax.yaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
        ax.legend(loc="lower right", frameon=False)
    return fig


def seats_by_model(seats: pd.DataFrame, fair: float) -> Figure:
    """Each player model's win rate per seat (decided games, 95% CI), seats side by side per model,
    players numbered from 1; the fair share dashed."""
    models = list(dict.fromkeys(seats["model"]))
    p = int(seats["seat"].max()) + 1
    fig = Figure(figsize=(max(6.0, 1.2 * len(models) + 2), 3.6), layout="constrained")
    ax = fig.add_subplot()
    width = 0.8 / p
    for s in range(p):
        rows = seats[seats["seat"] == s].set_index("model").loc[models]
        rates = rows["win_rate"].to_numpy()
        err = np.clip(np.vstack([rates - rows["ci_low"].to_numpy(), rows["ci_high"].to_numpy() - rates]), 0, None)
        ax.bar(np.arange(len(models)) + (s - (p - 1) / 2) * width, rates, width, yerr=err, capsize=3,
               color=COLORS[s % len(COLORS)], label=f"player {s + 1}")
    ax.axhline(fair, color="0.3", linestyle="--", linewidth=1)
    ax.set_xticks(np.arange(len(models)), [f"all {m}" for m in models])
    ax.set_ylabel("win rate, decided games (95% CI)")
    ax.yaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
    ax.legend(loc="upper right", frameon=False, ncols=min(p, 6), fontsize=8)
    ax.set_ylim(0, max(0.05, float(seats["ci_high"].max()) * 1.3))
    ax.set_title("Win rate per seat under each player model")
    return fig


def solve_frontier(table: pd.DataFrame, answers: list[str]) -> Figure:
    """Change size against the worst shortfall left (how far the estimates miss the targets, under
    the player model where they miss most), one point per candidate solve tried (``table``: columns
    ``change``, ``keys_changed``, ``distance``, ``shortfall``, ``verdict``, ``pareto``), the
    search's answers (``answers``: their ``change`` words) starred, the Pareto front (no candidate
    smaller, shorter of the targets and of the kept metrics at once) ringed and joined."""
    fig = Figure(figsize=(7, 4), layout="constrained")
    ax = fig.subplots()
    ax.axhline(0, color=TARGET_COLOR, linewidth=3, alpha=0.6, label="on every target")
    if len(table):
        size = table["keys_changed"].to_numpy() - 1 + table["distance"].to_numpy()
        left = table["shortfall"].to_numpy(dtype=np.float64)
        left = np.where(np.isfinite(left), left, np.nan)
        markers = {"meets": ("o", COLORS[4]), "does not meet": ("x", COLORS[1]), "not settled": (".", "0.5")}
        for verdict, (marker, color) in markers.items():
            here = (table["verdict"] == verdict).to_numpy()
            if here.any():
                ax.scatter(size[here], left[here], marker=marker, color=color, s=28, label=f"{verdict} (search)")
        if "pareto" in table:
            front = table["pareto"].to_numpy(dtype=bool)
            if front.any():
                order = np.argsort(size[front], kind="stable")
                ax.plot(size[front][order], left[front][order], color="0.3", linewidth=0.8, linestyle="--", zorder=1)
                ax.scatter(size[front], left[front], s=110, facecolor="none", edgecolor="black", linewidth=0.9,
                           label="Pareto front (size, shortfall, kept metrics)", zorder=2)
        chosen = table["change"].isin(answers).to_numpy()
        if chosen.any():
            ax.scatter(size[chosen], left[chosen], marker="*", s=180, color=COLORS[2], edgecolor="black",
                       linewidth=0.6, label="answers", zorder=3)
    ax.set_xlabel("change size: knobs changed − 1 + distance (each knob's move as a share of its range)")
    ax.set_ylabel("worst shortfall left (0: on every target)")
    ax.set_title("the frontier: change size against the shortfall left")
    ax.grid(color="0.92")
    ax.legend(fontsize=8, frameon=False)
    return fig
