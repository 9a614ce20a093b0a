"""Skill against luck (Jaffe et al. 2012): agency and restricted play, and a plain verdict.

- Agency: each heuristic alone against random players (seats rotated): its per-seat win rate
  against the fair share 1/P. A game of pure luck gives every strategy the fair share.
- Restricted play: a preset that takes one ability away from a strategy (``restricts = "X"`` in
  the game's presets, e.g. a player who never calls) alone against the full strategy X: how much
  the ability is worth.
"""

from __future__ import annotations

import pandas as pd

from simbalance.analysis.findings import HIGH, LOW, Finding, ci_text, ordered, pct
from simbalance.analysis.stats import APART, cleared

LUCK_EDGE = 0.01  # below one point of edge over random, a decision does not matter
SOME_SKILL = 0.05
MUCH_SKILL = 0.15


def verdict(has_decisions: bool, agency: pd.DataFrame, players: int) -> str:
    fair = 1.0 / players
    if not has_decisions:
        return (f"Pure luck: the game has no decisions, so every strategy wins its fair share ({fair:.0%}); "
                "only the deal and the seat matter.")
    if agency.empty:
        return "No heuristic to measure: only `random` is defined for this game."
    best = agency.sort_values("win_rate", ascending=False).iloc[0]
    edge = best["win_rate"] - fair
    lo = best["ci_low"] - fair
    text = (f"the best heuristic, {best['strategy']}, wins {best['win_rate']:.1%} against random players "
            f"where {fair:.0%} is fair (edge {edge:+.1%}, 95% CI from {lo:+.1%})")
    if lo <= 0 or edge < LUCK_EDGE:
        return f"Luck: no strategy tested beats random play; {text}."
    if edge < SOME_SKILL:
        return f"Mostly luck, a little skill: {text}."
    if edge < MUCH_SKILL:
        return f"Skill and luck: {text}."
    return f"Skill dominates: {text}."


def skill_findings(agency: pd.DataFrame, restricted: pd.DataFrame, players: int, th: dict,
                   has_decisions: bool = True) -> list[Finding]:
    """A restricted strategy that beats the full one ('not playing events wins more'), and decisions
    that do not matter (no heuristic beats random players)."""
    fair = 1.0 / players
    out = []
    for _, r in restricted.iterrows():
        beats = cleared(r["win_rate"], r["ci_low"], r["ci_high"], fair, f"beats the full {r['against']}")
        if beats.verdict == APART:
            out.append(Finding(
                "restricted_wins", HIGH,
                f"{r['strategy']} ({r['against']} with one ability taken away) beats the full {r['against']}: "
                f"{pct(r['win_rate'])} of its seats win ({ci_text(r['ci_low'], r['ci_high'])}), where {pct(fair)} "
                f"is fair. Not using that ability wins more.", float(r["win_rate"]),
                (float(r["ci_low"]), float(r["ci_high"])), "#restricted", decided_by=(beats,)))
    # each strategy against the fair share, by its interval: "no strategy beats random players" only
    # when none is clear of it
    each = tuple(cleared(r["win_rate"], r["ci_low"], r["ci_high"], fair, f"{r['strategy']} beats random players")
                 for _, r in agency.iterrows())
    if has_decisions and len(agency) and (agency["ci_low"] <= fair).all():  # (an unknown CI says nothing)
        best = agency.sort_values("win_rate", ascending=False).iloc[0]
        out.append(Finding(
            "decisions_do_not_matter", HIGH,
            f"No strategy beats random players: the best, {best['strategy']}, wins {pct(best['win_rate'])} "
            f"({ci_text(best['ci_low'], best['ci_high'])}) where {pct(fair)} is fair. Decisions do not matter.",
            float(best["win_rate"]), (float(best["ci_low"]), float(best["ci_high"])), "#agency", decided_by=each))
    strong = agency[agency["ci_low"] - fair >= th["dominance_margin"]] if len(agency) else agency
    if len(strong) and not out:
        best = strong.sort_values("win_rate", ascending=False).iloc[0]
        out.append(Finding(
            "skill_matters", LOW,
            f"Skill matters: {best['strategy']} wins {pct(best['win_rate'])} against random players "
            f"({ci_text(best['ci_low'], best['ci_high'])}) where {pct(fair)} is fair.",
            float(best["win_rate"]), (float(best["ci_low"]), float(best["ci_high"])), "#agency"))
    return ordered(out)
