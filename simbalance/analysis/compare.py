"""Variant effects: every metric as baseline, variant, difference with 95% CI and p-value.

All arms play the same game indices with the same seed (common random numbers): where the decks
agree the games start from the same shuffles, so a difference is measured game by game, which
cancels most of the luck. Each metric is a per-game quantity (a seat's share of the win, the
length, "ended by the cap"...); its difference is the mean of the per-game differences, with a
t interval and test. Holm's method corrects the p-values across the metrics of one variant.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from simbalance.analysis.findings import (
    HIGH,
    LOW,
    Finding,
    across,
    ci_text,
    elsewhere,
    ordered,
    pp,
    same_claim,
    severity,
)
from simbalance.analysis.stats import holm, student_half
from simbalance.core.records import END_STALEMATE, END_TIMEOUT, END_WIN, seat_share


@dataclass(frozen=True)
class Metric:
    name: str
    kind: str  # "share" (a rate, shown in percentage points) or the unit of a count ("turns")


def per_game_metrics(games: pd.DataFrame, players: int, slot_names: tuple[str, ...], unit: str,
                     paired=None, config: dict | None = None) -> dict[Metric, np.ndarray]:
    """Per-game values of every compared metric (the mean over games is the metric)."""
    winners = games["winners"].to_numpy()
    end = games["end"].to_numpy()
    out: dict[Metric, np.ndarray] = {}
    for s in range(players):
        out[Metric(f"win rate seat {s}", "share")] = seat_share(winners, s)
    if len(slot_names) > 1:
        for slot, name in enumerate(slot_names):
            wins = np.zeros(len(games))
            seats = np.zeros(len(games))
            for s in range(players):
                here = games[f"strategy_{s}"].to_numpy() == slot
                wins += np.where(here, seat_share(winners, s), 0.0)
                seats += here
            with np.errstate(invalid="ignore", divide="ignore"):
                out[Metric(f"win rate {name}", "share")] = np.where(seats > 0, wins / seats, np.nan)
    out[Metric("length", unit)] = games["length"].to_numpy(dtype=np.float64)
    out[Metric("timeouts", "share")] = (end == END_TIMEOUT).astype(np.float64)
    out[Metric("stalemates", "share")] = (end == END_STALEMATE).astype(np.float64)
    out[Metric("ties", "share")] = ((end == END_WIN) & (np.bitwise_count(winners) > 1)).astype(np.float64)
    if paired is not None:  # the engine's own per-game metrics (Engine.paired_metrics)
        for name, (kind, values) in paired(games, players, config or {}).items():
            out[Metric(name, kind)] = np.asarray(values, dtype=np.float64)
    return out


def paired_test(base: np.ndarray, variant: np.ndarray) -> dict:
    """Mean of per-game differences with a 95% t interval and a two-sided p-value."""
    d = variant - base
    d = d[~np.isnan(d)]
    n = len(d)
    mean = float(d.mean()) if n else float("nan")
    sd = float(d.std(ddof=1)) if n > 1 else 0.0
    if n < 2 or sd == 0.0:
        # Identical in every game (e.g. no timeouts in either arm): nothing to test.
        p = 1.0 if mean == 0.0 or n < 2 else 0.0
        return {"diff": mean, "ci_low": mean, "ci_high": mean, "p_value": p, "pairs": n, "tested": mean != 0.0}
    from scipy import stats  # here, not at the top: scipy.stats takes 0.6 s to import, and a run needs none

    se = sd / np.sqrt(n)
    half = float(student_half(sd, n))
    p = float(2 * stats.t.sf(abs(mean / se), n - 1))
    return {"diff": mean, "ci_low": mean - half, "ci_high": mean + half, "p_value": p, "pairs": n,
            "tested": True}


def balance_test(base_shares: np.ndarray, var_shares: np.ndarray) -> dict:
    """Balance (1 - largest gap between two seats): difference with CI from the per-game gaps.

    The gap of each arm is measured between its own best and worst seat, over its decided games
    (as in the run summary: timeouts must not shrink it); per game, the difference of the two arms'
    gaps (each scaled by its arm's share of decided games) has mean exactly gap_variant - gap_baseline.
    """
    def gap_per_game(shares):
        decided = max(float((shares.sum(axis=1) > 0).mean()), 1e-12)
        rates = shares.mean(axis=0)
        return (shares[:, int(np.argmax(rates))] - shares[:, int(np.argmin(rates))]) / decided

    res = paired_test(gap_per_game(var_shares), gap_per_game(base_shares))  # balance = -gap
    res["baseline"] = 1 - float(gap_per_game(base_shares).mean())
    res["value"] = 1 - float(gap_per_game(var_shares).mean())
    return res


def compare_arms(baseline, arms: dict, alpha: float) -> pd.DataFrame:
    """One row per (variant, metric): baseline, value, diff, CI, p, Holm p, significant."""
    plan = baseline.plan
    base_metrics = per_game_metrics(baseline.games, plan.players, plan.lineup.slot_names,
                                    plan.spec.length_unit, plan.engine.paired_metrics, plan.config)
    base_shares = np.stack([m for k, m in base_metrics.items() if k.name.startswith("win rate seat")], axis=1)
    rows = []
    for name, result in arms.items():
        metrics = per_game_metrics(result.games, result.plan.players, result.plan.lineup.slot_names,
                                   plan.spec.length_unit, plan.engine.paired_metrics, result.plan.config)
        var_shares = np.stack([m for k, m in metrics.items() if k.name.startswith("win rate seat")], axis=1)
        arm_rows = []
        bal = balance_test(base_shares, var_shares)
        arm_rows.append({"metric": "balance", "kind": "share", **bal})
        for metric, values in metrics.items():
            if metric not in base_metrics:
                continue
            base_values = base_metrics[metric]
            res = paired_test(base_values, values)
            arm_rows.append({
                "metric": metric.name, "kind": metric.kind,
                "baseline": float(np.nanmean(base_values)), "value": float(np.nanmean(values)), **res,
            })
        # The Holm family is the metrics that differ in at least one game.
        family = [r for r in arm_rows if r.pop("tested")]
        for r, p_adj in zip(family, holm(np.array([r["p_value"] for r in family])), strict=True):
            r["p_holm"] = float(p_adj)
        for r in arm_rows:
            r.setdefault("p_holm", 1.0)
            r["significant"] = bool(r["p_holm"] < alpha)
            rows.append({"variant": name, **r})
    cols = ["variant", "metric", "kind", "baseline", "value", "diff", "ci_low", "ci_high", "p_value", "p_holm",
            "significant", "pairs"]
    return pd.DataFrame(rows)[cols]


def identical_arm(name: str, changes: str, games: int, same_plan: bool, strategies: str) -> Finding:
    """A variant that changed no game: the why, as far as it can be known."""
    if same_plan:
        why = (f"with these settings the engine plays exactly the baseline's game: {changes} is a setting "
               "this player count never reads, or one equal to the baseline's")
    else:
        why = (f"it changes {changes}, but no game went differently: with these players ({strategies}) the "
               "situation the rule covers never arises, or they never use it")
    return Finding("variant_changes_nothing", HIGH,
                   f"Variant {name} changed nothing: all {games:,} games were identical to the baseline's "
                   f"(every metric 0.00 pp); {why}.", 0.0, (0.0, 0.0), "#arms")


def compare_findings(table: pd.DataFrame, th: dict, *, identical: dict[str, bool], same_plan: dict[str, bool],
                     changes: dict[str, str], games: int, strategies: str,
                     baseline: list[Finding] | None = None, arms: dict[str, list[Finding]] | None = None,
                     label: Callable[[str], str] = str) -> list[Finding]:
    """A comparison: arms that change no game (and why), each arm's largest significant change, the
    run findings an arm raises that the baseline does not, and the baseline's own high findings, which
    the designer came to fix (``baseline``, ``arms``: run findings)."""
    out = []
    arms = arms or {}
    # the baseline's high findings, which the designer came to fix, each said as far as the arms agree
    base_high = [b for b in baseline or [] if b.severity == HIGH]
    base_out = [across(b, {f"with {name}": found for name, found in arms.items()}, "in the baseline", "in every arm")
                for b in base_high]
    base_kinds = {b.kind for b in baseline or []}
    for name, part in table.groupby("variant", sort=False):
        if identical.get(name):
            out.append(identical_arm(name, changes.get(name, "its keys"), games, same_plan.get(name, False),
                                     strategies))
            continue
        sig = part[part["p_holm"] < th["alpha"]]
        if len(sig):
            # a change's size: a rate's in points, a count's (a length) as a share of the baseline's value
            scale = np.where(sig["kind"] == "share", 1.0, sig["baseline"].abs().replace(0.0, 1.0))
            top_i = int(np.argmax(sig["diff"].abs().to_numpy() / scale))
            top, size = sig.iloc[top_i], float(scale[top_i])
            fmt = pp if top["kind"] == "share" else (lambda v, k=top["kind"]: f"{v:+,.3g} {k}")
            more = f" and {len(sig) - 1} more metric{'s' if len(sig) > 2 else ''}" if len(sig) > 1 else ""
            out.append(Finding(
                "variant_effect",
                severity(top["diff"] / size, (top["ci_low"] / size, top["ci_high"] / size), th["change_min"]),
                f"Variant {name} changes {label(top['metric'])} by {fmt(top['diff'])} "
                f"({ci_text(top['ci_low'], top['ci_high'], fmt)}){more}.",
                float(top["diff"]), (float(top["ci_low"]), float(top["ci_high"])), "#every-metric"))
        for f in arms.get(name, []):
            # a problem the baseline does not have (unless low), or, whatever its severity, one that says
            # otherwise than the baseline's sentence above: that sentence leaves this arm out
            new = f.kind not in base_kinds and f.severity != LOW
            if new or any(b.kind == f.kind and not same_claim(f, b) for b in base_high):
                out.append(elsewhere(replace(f, text=f"With variant {name}: {f.text}")))
    return ordered(out + base_out)
