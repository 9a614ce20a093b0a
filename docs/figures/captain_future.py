"""The numbers quoted in docs/rules/captain-future.md (`make docs-figures`; see docs/figures/run.py)."""

from __future__ import annotations

from functools import cache

from common import (
    compensation_passage,
    ladder_passage,
    lead_passage,
    robustness_passage,
    search_settings_passage,
    solve_passage,
    strength_at_cut_passage,
    tree_vs_flat_passage,
)
from common import pct as _pct

import simbalance
from simbalance.api import tournament
from simbalance.core.records import seat_share


@cache
def _default():
    return simbalance.simulate("captain-future", 200_000, seed=0)


def default_run() -> str:
    """The default lineup on the default rules: seats, ties, length, attacks and events."""
    n = 200_000
    res = _default()
    s = res.summary()
    g = res.games
    lineup = ", ".join(res.plan.lineup.describe())
    seats = " / ".join(_pct(row["win_rate"]) for row in s["seats"])
    fpa = s["first_player_advantage"]
    attacks = sum(s["game"]["attacks_per_game"].values())
    ev = s["game"]["events_per_game"]
    length = s["length"]
    return (f"Default run ({n:,} games, seed 0, 4 players, `{lineup}`): seats 0-3 win {seats} of the games; "
            f"{_pct(s['outcomes']['ties'])} are ties (shared wins), {_pct(s['outcomes']['timeouts'])} time out; "
            f"first-player advantage {100 * fpa['value']:+.1f} points (over decided games), balance "
            f"{s['balance']:.3f}. A game lasts {length['mean']:.0f} turns (p5-p95 {length['p5']:g}-{length['p95']:g}) "
            f"with {attacks:.0f} attacks, {ev['simon_wright']:.1f} Simon Wright, {ev['recall']:.1f} Recall, "
            f"{ev['otto']:.1f} Otto and {ev['grag']:.1f} GRAG per game. The last seats win more: the final "
            f"round gives them the last moves (seat 3 triggers the end in "
            f"{_pct(float((g['end_seat'] == 3).mean()))} of the games).")


def strategy_ranking() -> str:
    """A tournament of the heuristics and random, and each heuristic alone against the others."""
    n = 40_000
    t = tournament("captain-future", ["builder", "aggressor", "random"], n, seed=1)
    rows = ["| strategy | rating (Elo scale) | win rate per seat |", "|---|---|---|"]
    for _, r in t.ratings.iterrows():
        rate = t.strategies.set_index("strategy").loc[r["strategy"], "win_rate"]
        rows.append(f"| `{r['strategy']}` | {r['elo']:+.0f} ({r['ci_low']:+.0f} to {r['ci_high']:+.0f}) | {_pct(rate)} |")
    pairs = []
    for a, b in (("builder", "aggressor"), ("aggressor", "builder"), ("no_events", "builder")):
        res = simbalance.simulate("captain-future", 20_000, seed=2, strategies=[a, b, b, b], rotate=True)
        table = res.summary()["strategies"]
        rate = next(r["win_rate_decided"] for r in table if r["strategy"] == a)
        pairs.append(f"one `{a}` among three `{b}` wins {_pct(rate)} of the games (25% is fair)")
    return (f"Tournament ({n:,} games, every assignment of the three strategies to the 4 seats, seed 1):\n\n"
            + "\n".join(rows) + "\n\nRotated, 20,000 games each (seed 2): " + "; ".join(pairs) + ".")


def seat_ties() -> str:
    """How much the seat-order tie-breaks of engine v2 moved the seat rates (they are random now)."""
    res = simbalance.simulate("captain-future", 100_000, seed=3, strategies="builder")
    rates = [float(seat_share(res.games["winners"].to_numpy(), s).mean()) for s in range(4)]
    return ("With four `builder`s (100,000 games, seed 3) seats 0-3 win "
            + " / ".join(_pct(r) for r in rates) + " of the games.")


def replay_example() -> str:
    """`simbalance replay captain-future --seed 3 --game 5`, abridged: the start, a stretch of the
    middle and the end."""
    from simbalance.api import plan_run

    plan = plan_run("captain-future", 6, seed=3)
    lines = plan.engine.replay(plan, 5)
    turns = [i for i, line in enumerate(lines) if line.startswith("Turn ")]
    mid = turns[len(turns) // 2]
    end = next(i for i, line in enumerate(lines) if line.startswith("The game ends"))
    shown = lines[:turns[0] + 4] + ["..."] + lines[mid:turns[turns.index(mid) + 2]] + ["..."] + lines[end:]
    return "`simbalance replay captain-future --seed 3 --game 5`:\n\n```\n" + "\n".join(shown) + "\n```"


def lead() -> str:
    res = _default()
    stalls = res.games["longest_stall"]
    return lead_passage(res, "the default run") + (
        f" Loop detection never fires in it: the longest stretch without progress is {stalls.max()} turns "
        f"(median {stalls.median():.0f}), against a window of {res.plan.config['rules']['stalemate_window']}.")


def ladder() -> str:
    return ladder_passage("captain-future", "8,32,128", 120, yardstick="flat")


def robustness() -> str:
    return robustness_passage("captain-future", 10_000, 100, 5000)


def presets() -> str:
    return search_settings_passage("captain-future", [
        ("`mcts-100` (100 iterations, `confidence` 1, play-outs cut at 20, the fitted evaluation)", "mcts-100", {}),
        ("`mcts-100` with `confidence` 0", "mcts-100", {"confidence": 0.0}),
        ("`mcts-100` with `confidence` 2.5", "mcts-100", {"confidence": 2.5}),
        ("`mcts-100` with `depth` 10", "mcts-100", {"depth": 10.0}),
        ("`mcts-100` with `depth` 40", "mcts-100", {"depth": 40.0}),
        ("`mcts-100` with play-outs to the end (`depth` 0)", "mcts-100", {"depth": 0.0}),
        ("`flat`, 8 play-outs an option, cut at 20", "flat", {}),
    ], 400, seed=3)


FIGURES = {"lead": lead, "replay-example": replay_example, "default-run": default_run, "strategy-ranking": strategy_ranking,
           "seat-ties": seat_ties, "ladder": ladder, "robustness": robustness, "presets": presets}


def fitted_evaluation() -> str:
    from common import fitted_evaluation_passage

    return fitted_evaluation_passage("captain-future")


FIGURES["fitted-evaluation"] = fitted_evaluation


def seat_compensation() -> str:
    """How far each compensation kind moves the seats (docs/rules/captain-future.md, "Seat compensation")."""
    p = "compensation.points."
    return compensation_passage("captain-future", [
        {}, {p + "4": -1}, {p + "4": -2}, {p + "4": -3}, {p + "4": -4},
        {"compensation.later_seat_points": -1}, {"compensation.later_seat_points": -2},
        {"compensation.ships.4": -1}, {"compensation.ships.4": 1},
        {p + "4": -4, p + "3": -1, p + "2": 1},
    ], 20_000)


FIGURES["seat-compensation"] = seat_compensation


def solve_example() -> str:
    """`simbalance solve` on the default players: the config's [knobs] (the seat compensation)
    once the game declares them, the ship count and hand size until then."""
    from simbalance.core.config import load_config

    knobs = None if load_config("captain-future").get("knobs") else ["ships.4=24:36", "rules.hand_size=8:12"]
    return solve_passage("captain-future", ["balance=0.97:1"], knobs, strategies="aggressor", budget="20m", seed=1)


FIGURES["solve"] = solve_example


def strength_at_cut() -> str:
    """docs/strategies.md, "Strength at a cut": the presets' table's runs where they meet (400 games, seed 3)."""
    return strength_at_cut_passage("captain-future", "mcts-100", [0, 10, 20, 40], 400, seed=3)


FIGURES["strength-at-cut"] = strength_at_cut


TREE_BUDGETS = [32, 100, 400]
TREE_VARIANTS = [  # issue 53 item 2: what the tree below the root adds over one-step look-ahead
    ("as the preset is (`widening` 1: `ceil(sqrt(visits))` children a node)", {}),
    ("no tree below the root (`widening` 0.0001: one child a node, its mover's own choice)", {"widening": 0.0001}),
]


def tree_vs_flat() -> str:
    return tree_vs_flat_passage("captain-future", TREE_BUDGETS, TREE_VARIANTS, 200, seed=2)


FIGURES["tree-vs-flat"] = tree_vs_flat
