"""aquaman's report: the summary and the figure of power use (ENGINE.summarize, ENGINE.figures)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from simbalance.games.aquaman.state_nb import POWER_NAMES


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
