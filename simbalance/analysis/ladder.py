"""The skill ladder's statistics: a search player at rising budgets against a heuristic and against
the budget before it (docs/strategies.md).

- Against the heuristic: the search seat's win rate per seat over decided games, with its Wilson
  interval, held against the fair share 1/P (as every comparison with 1/P: docs/metrics.md).
- Against the budget before it: the head-to-head share of the wins, r_b / (r_b + r_prev), from
  the games where both budgets sit at the table (analysis/tournament.head_to_head): 50 % is even
  whatever the other seats hold.
- Against the yardstick (``--yardstick flat``): the same head-to-head share against the other
  search player at the same budget (``flat`` with as many play-outs per decision as ``mcts`` has
  iterations): the tree search must beat one-step lookahead.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from simbalance.analysis.findings import HIGH, LOW, MEDIUM, Finding, ci_text, ordered, pct
from simbalance.analysis.stats import cleared
from simbalance.analysis.tournament import head_to_head, seat_matrix

LADDER_COLUMNS = ["budget", "name", "win_rate", "ci_low", "ci_high", "decided_seat_games", "games",
                  "h2h_share", "h2h_ci_low", "h2h_ci_high", "h2h_games",
                  "yard_share", "yard_ci_low", "yard_ci_high", "yard_games"]


def slot_wins_and_seats(games: pd.DataFrame, players: int, slot: int) -> tuple[np.ndarray, np.ndarray]:
    """Per game: the win share of the seats that play slot ``slot``, and how many seats play it."""
    slots, shares = seat_matrix(games, players)
    mine = slots == slot
    return (shares * mine).sum(axis=1), mine.sum(axis=1).astype(np.float64)


def pair_share(games: pd.DataFrame, players: int, a: int, b: int) -> tuple[float, float, float]:
    """Slot ``a``'s head-to-head share against slot ``b`` with its 95 % interval, over the decided
    games (a game without a winner says nothing about who is stronger)."""
    decided = games[games["winners"] != 0]
    aw, asn = slot_wins_and_seats(decided, players, a)
    bw, bsn = slot_wins_and_seats(decided, players, b)
    return head_to_head(aw, asn, bw, bsn)


def _budget(value, param: str) -> str:
    """``8 iterations``, ``1 iteration``."""
    return f"{int(value):,} {param if int(value) != 1 else param.removesuffix('s')}"


def ladder_findings(table: pd.DataFrame, search: str, budget_param: str, against: str, players: int,
                    th: dict, yardstick: str | None = None) -> list[Finding]:
    """The skill ladder (analysis/ladder.py): a curve that does not rise (a search that ignores its
    budget is a bug), single steps that buy nothing, the first budget that beats the heuristic, or
    none; with a yardstick, the budgets at which the tree search beats one-step lookahead at the
    same budget, or loses to it."""
    fair = 1.0 / players
    out = []
    steps = table.iloc[1:]
    steps = steps[steps["h2h_games"] > 0]
    rising = steps["h2h_ci_low"] > 0.5
    # a step "shows no gain" when even the top of its CI is below an even share plus the smallest
    # gain worth a budget step; otherwise the games were too few to tell
    flat = steps["h2h_ci_high"] < 0.5 + th["ladder_gain_min"]
    shares = ", ".join(pct(v) for v in steps["h2h_share"])
    last = steps.iloc[-1] if len(steps) else None
    if len(steps) and not rising.any() and flat.all():
        out.append(Finding(
            "ladder_flat", HIGH,
            f"{search} does not get stronger with its budget: no budget beats the one before it head to head "
            f"(shares {shares}, where 50% is even; none gains {pct(th['ladder_gain_min'], 0)}). A search player that "
            f"does not improve with more {budget_param} is a bug, or the game leaves it little to decide against "
            f"{against}.", float(last["h2h_share"]), (float(last["h2h_ci_low"]), float(last["h2h_ci_high"])),
            "#ladder"))
    elif len(steps) and not rising.any():
        out.append(Finding(
            "ladder_unclear", MEDIUM,
            f"Too few games to tell whether {search} gets stronger with its budget: no budget beats the one before "
            f"it head to head (shares {shares}, where 50% is even), but the 95% CIs are too wide to rule out a gain. "
            "Play more games (--n-pairs).", float(last["h2h_share"]),
            (float(last["h2h_ci_low"]), float(last["h2h_ci_high"])), "#ladder"))
    else:
        for (_, r), prev in zip(steps[~rising].iterrows(), table["budget"].shift(1)[steps[~rising].index], strict=True):
            out.append(Finding(
                "ladder_step_no_gain", LOW,
                f"{_budget(r['budget'], budget_param)} do not beat {int(prev):,}: a head-to-head share of "
                f"{pct(r['h2h_share'])} ({ci_text(r['h2h_ci_low'], r['h2h_ci_high'])}), where 50% is even. "
                "More budget buys little here (or the games were too few to tell).",
                float(r["h2h_share"]), (float(r["h2h_ci_low"]), float(r["h2h_ci_high"])), "#ladder"))
    beats = table[table["ci_low"] > fair]
    if len(beats):
        r = beats.iloc[0]
        claim = f"{search} with {_budget(r['budget'], budget_param)} beats {against}"
        out.append(Finding(
            "search_beats_heuristic", LOW,
            f"{claim}: {pct(r['win_rate'])} of its seats "
            f"win ({ci_text(r['ci_low'], r['ci_high'])}) where {pct(fair)} is fair. Balance measured with {against} "
            "players may change under stronger play (simbalance robustness).", float(r["win_rate"]),
            (float(r["ci_low"]), float(r["ci_high"])), "#ladder",
            decided_by=(cleared(r["win_rate"], r["ci_low"], r["ci_high"], fair, claim),)))
    elif len(table):
        r = table.sort_values("win_rate").iloc[-1]
        out.append(Finding(
            "heuristic_unbeaten", MEDIUM,
            f"No budget of {search} beats {against}: the best, {_budget(r['budget'], budget_param)}, wins "
            f"{pct(r['win_rate'])} of its seats ({ci_text(r['ci_low'], r['ci_high'])}) where {pct(fair)} is fair. "
            "Either the heuristic plays this game well, or the search needs more budget or a better rollout.",
            float(r["win_rate"]), (float(r["ci_low"]), float(r["ci_high"])), "#ladder",
            decided_by=tuple(cleared(b["win_rate"], b["ci_low"], b["ci_high"], fair,
                                     f"{search} with {_budget(b['budget'], budget_param)} beats {against}")
                             for _, b in table.iterrows())))
    if yardstick is not None and "yard_games" in table:
        out.extend(_yardstick_findings(table[table["yard_games"] > 0], search, budget_param, yardstick))
    return ordered(out)


def _yardstick_findings(yard: pd.DataFrame, search: str, budget_param: str, yardstick: str) -> list[Finding]:
    """The tree search against one-step lookahead at the same budget (both as many play-outs per
    decision): a budget at which the lookahead wins is a high finding (the tree adds nothing or
    harms: a bug, or a game whose decisions the first step settles); the budgets where the tree
    wins, one low finding; neither shown, one low finding that the games were too few."""
    if not len(yard):
        return []
    shares = ", ".join(f"{pct(r['yard_share'])} at {int(r['budget']):,}" for _, r in yard.iterrows())
    loses = yard[yard["yard_ci_high"] < 0.5]
    wins = yard[yard["yard_ci_low"] > 0.5]
    out = []
    for _, r in loses.iterrows():
        claim = f"{yardstick} beats {search} at {_budget(r['budget'], budget_param)}"
        out.append(Finding(
            "yardstick_beats_search", HIGH,
            f"{claim}: {search} takes only "
            f"{pct(r['yard_share'])} of the wins between them ({ci_text(r['yard_ci_low'], r['yard_ci_high'])}), "
            f"where 50% is even, at the same budget per decision (flat's split evenly among the options, at least one "
            "play-out each: more than the budget where a decision has more options). The tree search is weaker than "
            "one-step lookahead here: a bug, or a game whose decisions the first step settles.",
            float(r["yard_share"]), (float(r["yard_ci_low"]), float(r["yard_ci_high"])), "#ladder",
            decided_by=(cleared(r["yard_share"], r["yard_ci_low"], r["yard_ci_high"], 0.5, claim, "below"),)))
    if len(wins):
        r = wins.iloc[-1]
        out.append(Finding(
            "search_beats_yardstick", LOW,
            f"{search} beats {yardstick} at the same budget at {', '.join(f'{int(b):,}' for b in wins['budget'])} "
            f"{budget_param} (head-to-head shares: {shares}; 50% is even): the tree search earns its cost.",
            float(r["yard_share"]), (float(r["yard_ci_low"]), float(r["yard_ci_high"])), "#ladder",
            decided_by=tuple(cleared(w["yard_share"], w["yard_ci_low"], w["yard_ci_high"], 0.5,
                                     f"{search} beats {yardstick} at the same budget") for _, w in wins.iterrows())))
    elif not len(loses):
        r = yard.iloc[-1]
        out.append(Finding(
            "yardstick_unclear", LOW,
            f"{search} is not shown to beat {yardstick} at the same budget (head-to-head shares: {shares}; 50% is "
            "even): the 95% CIs take in an even share. Play more games (--n-pairs) to tell.",
            float(r["yard_share"]), (float(r["yard_ci_low"]), float(r["yard_ci_high"])), "#ladder"))
    return out
