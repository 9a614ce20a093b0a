"""Helpers shared by the docs figure scripts (docs/figures/<game>.py)."""

from __future__ import annotations


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def strategy_share(result, name: str) -> float:
    """The win rate per seat played by strategy ``name`` in a run, over all games (ties 1/k)."""
    return float(next(r["win_rate"] for r in result.summary()["strategies"] if r["strategy"] == name))


def lead_passage(result, what: str) -> str:
    """The whole-game metrics of a run (summary()["lead"], docs/metrics.md) in one passage: lead
    changes, decisiveness, comebacks, drama and how often the leader after rounds 1 and 3 wins."""
    lead = result.summary()["lead"]
    r1, r3 = lead["rounds"][0], lead["rounds"][2]

    def num(x) -> str:
        return "n/a" if x is None else f"{x:.2f}"

    def leader(row) -> str:
        if not row["decided_with_sole_leader"]:
            return "n/a"
        return (f"{pct(row['leader_wins'])} (95% CI {pct(row['ci_low'])} to {pct(row['ci_high'])}, "
                f"{row['decided_with_sole_leader']:,} games)")

    return (
        f"Whole-game metrics ({what}; progress: {lead['progress']}; docs/metrics.md): "
        f"{lead['lead_changes_mean']:.2f} lead changes per game, the lead changing hands at "
        f"{pct(lead['lead_change_rate'])} of the checkpoints (Ludii's lead change); the winner leads for good "
        f"after {pct(lead['decisiveness'])} of the game on average (decisiveness), was never behind in "
        f"{pct(lead['never_behind'])} of the games and was last at some point in {pct(lead['comeback_wins'])} "
        f"(comeback wins); drama {num(lead['drama'])}. The sole leader after round 1 wins {leader(r1)}, after "
        f"round 3 {leader(r3)}, against a fair {pct(r1['fair_share'])}; mean lead margin after round 1 "
        f"{num(r1['mean_margin'])}, after round 3 {num(r3['mean_margin'])}, at the end {num(lead['final_margin'])}."
    )
