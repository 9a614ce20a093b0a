"""Balance under several player models: do the seat conclusions hold whoever plays?

A *player model* is one strategy at every seat (all random, all of one heuristic, all of a search
player at one budget). For each model: every seat's share of the decided games with its Wilson
interval (docs/metrics.md: held against the fair share 1/P, so over decided games), and the
first-player effect (player 1's share minus 1/P).

The conclusions a balance report draws, each checked across the models:
- **the first-player effect**: its direction (an advantage, a disadvantage: CI clear of 0; or
  none: CI across 0), and its size (the two models furthest apart, their difference against its
  own 95 % margin);
- **the seats that are favoured or disfavoured** (CI above or below the fair share).
A conclusion *holds* when every model draws the same one. It *flips* when two models draw
opposite ones (an advantage under one, a disadvantage under another); it is *weaker* when it shows
under some models and not under others (a model with fewer games, such as a search model, may
simply lack the power to show it: the words name the models).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from simbalance.analysis.findings import HIGH, LOW, MEDIUM, Finding, ordered
from simbalance.analysis.labels import player
from simbalance.core.aggregate import RunAggregate, wilson

SEAT_COLUMNS = ["model", "seat", "win_rate", "ci_low", "ci_high", "decided_games"]
MODEL_COLUMNS = ["model", "games", "decided", "first_player", "fp_ci_low", "fp_ci_high", "favoured", "disfavoured"]


def model_tables(model: str, agg: RunAggregate) -> tuple[pd.DataFrame, dict]:
    """One model's seat rows (SEAT_COLUMNS) and its summary row (MODEL_COLUMNS)."""
    p = agg.players
    fair = 1.0 / p
    decided = agg.decided
    lo, hi = wilson(agg.seat_wins, decided) if decided else (np.full(p, np.nan), np.full(p, np.nan))
    rate = agg.seat_wins / decided if decided else np.full(p, np.nan)
    seats = pd.DataFrame({"model": model, "seat": np.arange(p), "win_rate": rate, "ci_low": lo, "ci_high": hi,
                          "decided_games": decided}, columns=SEAT_COLUMNS)
    row = {"model": model, "games": int(agg.n), "decided": int(decided),
           "first_player": float(rate[0] - fair), "fp_ci_low": float(lo[0] - fair), "fp_ci_high": float(hi[0] - fair),
           "favoured": tuple(int(s) for s in np.flatnonzero(lo > fair)),
           "disfavoured": tuple(int(s) for s in np.flatnonzero(hi < fair))}
    return seats, row


def direction(lo: float, hi: float) -> str:
    """'advantage', 'disadvantage' or 'none' (the CI crosses 0)."""
    if lo > 0:
        return "advantage"
    if hi < 0:
        return "disadvantage"
    return "none"


def _list(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _verdict(kinds: list[str], neutral: str) -> str:
    """'holds' (every model the same), 'flips' (opposite directions under two models) or 'weaker'
    (shown under some models, not under others: a model with fewer games may lack the power)."""
    if len(set(kinds)) == 1:
        return "holds"
    return "flips" if len(set(kinds) - {neutral}) > 1 else "weaker"


def conclusions(models: pd.DataFrame) -> list[dict]:
    """The seat conclusions across the models: ``{"topic", "verdict", "text"}`` each, verdict
    ``holds``, ``weaker`` or ``flips`` (``_verdict``; the first-player size: ``holds`` or
    ``differs``), in plain words naming the models."""
    out = []
    if models.empty:
        return out
    names = list(models["model"])
    dirs = [direction(lo, hi) for lo, hi in zip(models["fp_ci_low"], models["fp_ci_high"], strict=True)]
    sizes = ", ".join(f"{100 * v:+.1f} pp ({m})" for m, v in zip(names, models["first_player"], strict=True))
    verdict = _verdict(dirs, "none")
    if verdict == "holds":
        what = {"advantage": "an advantage", "disadvantage": "a disadvantage", "none": "no measurable effect"}[dirs[0]]
        text = f"Player 1 has {what} under every player model: {sizes}."
    else:
        by = "; ".join(f"{'no measurable effect' if d == 'none' else 'an ' + d if d == 'advantage' else 'a ' + d} "
                       f"with {m}" for m, d in zip(names, dirs, strict=True))
        text = f"Whether player 1 is favoured depends on the players: {by} ({sizes})."
    out.append({"topic": "first player", "verdict": verdict, "text": text})
    # the size: the two models furthest apart, their difference against its own 95% margin
    se = (models["fp_ci_high"] - models["fp_ci_low"]).to_numpy() / (2 * 1.96)
    hi_i, lo_i = int(models["first_player"].idxmax()), int(models["first_player"].idxmin())
    span = float(models["first_player"][hi_i] - models["first_player"][lo_i])
    margin = 1.96 * float(np.hypot(se[hi_i], se[lo_i]))
    lo_m, hi_m = names[lo_i], names[hi_i]
    out.append({"topic": "first-player size", "verdict": "holds" if span <= margin else "differs",
                "text": (f"Its size differs by {100 * span:.1f} pp at most ({lo_m} to {hi_m}), within the 95% margin "
                         f"of that difference (±{100 * margin:.1f} pp)." if span <= margin else
                         f"Its size depends on who plays: from {100 * models['first_player'][lo_i]:+.1f} pp ({lo_m}) "
                         f"to {100 * models['first_player'][hi_i]:+.1f} pp ({hi_m}), a difference beyond its 95% "
                         f"margin (±{100 * margin:.1f} pp).")})
    seats_status = []
    for fav, dis in zip(models["favoured"], models["disfavoured"], strict=True):
        seats_status.append({s: "favoured" for s in fav} | {s: "disfavoured" for s in dis})
    seats = sorted({s for st in seats_status for s in st})  # a seat that never stands out holds
    steady, moving, flips = [], [], []
    for s in seats:
        kinds = [st.get(s, "neither") for st in seats_status]
        v = _verdict(kinds, "neither")
        if v == "holds":
            steady.append(f"{player(s)} {kinds[0]}")
            continue
        groups = {}
        for m, k in zip(names, kinds, strict=True):
            groups.setdefault(k, []).append(m)
        words = ", ".join(f"{k} with {_list(ms)}" for k, ms in groups.items())
        (flips if v == "flips" else moving).append(f"{player(s)}: {words}")
    if not moving and not flips:
        text = ("The same seats stand out under every model: " + (_list(steady) if steady else
                "none is favoured or disfavoured (CI clear of the fair share)") + ".")
        out.append({"topic": "seats", "verdict": "holds", "text": text})
    else:
        text = ("Which seats are favoured or disfavoured (CI clear of the fair share) depends on the players: "
                + "; ".join(flips + moving) + "." + (f" Under every model: {_list(steady)}." if steady else ""))
        out.append({"topic": "seats", "verdict": "flips" if flips else "weaker", "text": text})
    return out


def robustness_findings(conclusions: list[dict], models: pd.DataFrame, th: dict) -> list[Finding]:
    """Robustness (analysis/robustness.py): a seat conclusion that flips with the players (high),
    one that shows only under some of them or a first-player size that differs (medium); when every
    one holds, one finding says so (low)."""
    out = []
    for c in conclusions:
        if c["verdict"] == "holds":
            continue
        severity = HIGH if c["verdict"] == "flips" else MEDIUM
        kind = "players_flip_" if c["verdict"] == "flips" else "depends_on_players_"
        out.append(Finding(kind + c["topic"].replace(" ", "_").replace("-", "_"), severity,
                           c["text"] + " A balance verdict on this holds only for the players it was measured with.",
                           dig_in="#models"))
    if conclusions and not out:
        out.append(Finding("robust_to_players", LOW,
                           f"The seat conclusions hold under all {len(models)} player models. "
                           + " ".join(c["text"] for c in conclusions if c["topic"] in ("first player", "seats")),
                           dig_in="#models"))
    return ordered(out)
