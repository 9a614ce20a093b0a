"""The search players before and after a change, side by side, with the strength check beside each
speed-up (issue 38).

    git worktree add /tmp/before <commit>
    python -m benchmarks.search_ab /tmp/before [--games a,b] [--rounds 3] [--strength 400] [--write]

**Speed**: per game, one ``mcts@100`` seat among three of the game's strongest heuristic (the
ladder's ``default_against``), 4 players, seats rotated, all threads, warm cache; and for
captain-future an all-``mcts@100`` table. The two checkouts play in turn, each in a fresh process
that imports its own package (as benchmarks/ab.py), ``--rounds`` times; the table gives the median
games/s of each and the median ratio now/before. ``mcts@100`` is each checkout's own ``mcts`` with
100 iterations: whatever its depth, evaluation and root rule are there.

**Strength** (this checkout only: one game cannot seat two checkouts): ``mcts@100`` as it is now
against ``mcts@100`` played to the end (``depth = 0``: the play-outs of the checkout before, where
the speed-up comes from a depth cut), two heuristic seats beside them, seats rotated, ``--strength``
games. The head-to-head share is the new player's wins among the games either of the two won
(Wilson 95 % CI); "at least as strong" when the CI reaches 50 %.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
THIS_TREE = str(ROOT)
GAMES = ("captain-future", "aquaman", "lady-actions-escape", "captain-action")
# games per measurement: about 10 s at the old speed, the first few games of a block compile nothing
N = {"captain-future": 100, "aquaman": 300, "lady-actions-escape": 300, "captain-action": 20_000}
ALL_SEARCH = {"captain-future": 24}
BUDGET = 100

PROBE = """
import json, sys, time
import simbalance
from simbalance.core.lineup import all_strategies
from simbalance.studies.ladder import budget_preset, default_against
from simbalance.studies.run import SimulationResult, plan_run
game, n, tree, all_search = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4] == "1"
assert simbalance.__file__.startswith(tree), f"{simbalance.__file__} is not from {tree}"
base = plan_run(game, 1, players=4)
infos = all_strategies(base.config, base.engine.strategies, base.engine.strategy_params)
heuristics = [k for k, i in infos.items() if not i.preset and not base.engine.is_search(i.base)]
against = default_against(base.config, heuristics)
presets = {"mcts@%d": budget_preset(infos["mcts"], "iterations", %d)}
seats = ["mcts@%d"] * 4 if all_search else ["mcts@%d", against, against, against]
plan = plan_run(game, n, players=4, seed=1, strategies=seats, rotate=True, presets=presets)
SimulationResult.from_plan(plan_run(game, 8, players=4, seed=1, strategies=seats, rotate=True, presets=presets))
t = time.perf_counter()
games = SimulationResult.from_plan(plan).games
rate = n / (time.perf_counter() - t)
won = decided = 0
for winner, row in zip(games["winner"], games.itertuples()):
    if winner >= 0:  # one winner (ties and timeouts: neither)
        decided += 1
        won += getattr(row, f"strategy_name_{winner}") == "mcts@%d"
print(json.dumps({"games_per_s": rate, "against": against, "won": int(won), "decided": decided}))
""".replace("%d", str(BUDGET))


def measure(game: str, tree: str, all_search: bool) -> dict:
    """games/s of one measurement in a fresh process importing simbalance from ``tree`` only."""
    tree = os.path.abspath(tree)
    n = ALL_SEARCH[game] if all_search else N[game]
    out = subprocess.run([sys.executable, "-P", "-c", PROBE, game, str(n), tree, "1" if all_search else "0"],
                         env=dict(os.environ, PYTHONPATH=tree), capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def speed_rows(before: str, games: list[str], rounds: int) -> list[str]:
    rows = ["| game | table | games/s before | games/s now | ratio now/before | search seat's wins, before | "
            "search seat's wins, now |", "|---|---|---|---|---|---|---|"]
    for game in games:
        for all_search in (False, True) if game in ALL_SEARCH else (False,):
            old, new, ratios, against = [], [], [], ""
            wins = {"before": [0, 0], "now": [0, 0]}
            for r in range(rounds):
                o = measure(game, before, all_search)
                m = measure(game, THIS_TREE, all_search)
                old.append(o["games_per_s"])
                new.append(m["games_per_s"])
                ratios.append(new[-1] / old[-1])
                against = m["against"]
                for side, got in (("before", o), ("now", m)):
                    wins[side][0] += got["won"]
                    wins[side][1] += got["decided"]
                print(f"{game} {'all mcts' if all_search else 'one mcts'} round {r + 1}: before {old[-1]:,.1f}, "
                      f"now {new[-1]:,.1f} games/s", flush=True)
            table = f"4 x mcts@{BUDGET}" if all_search else f"mcts@{BUDGET} + 3 x {against}"
            shares = " | ".join(_share(*wins[side], all_search) for side in ("before", "now"))
            rows.append(f"| {game} | {table} | {statistics.median(old):,.1f} | {statistics.median(new):,.1f} | "
                        f"{statistics.median(ratios):.2f} | {shares} |")
    return rows


def _share(won: int, decided: int, all_search: bool) -> str:
    """The search seat's share of the decided games it played, with its Wilson 95% CI (every
    round's games; an all-search table: none, every seat is the same player)."""
    if all_search or not decided:
        return ""
    from scipy.stats import binomtest

    ci = binomtest(won, decided).proportion_ci(method="wilson")
    return f"{won / decided:.1%} ({ci.low:.1%} to {ci.high:.1%}), {decided:,} games"


def strength_row(game: str, n: int) -> str:
    """This checkout's ``mcts@100`` against ``mcts@100`` at depth 0, head to head (module doc)."""
    from scipy.stats import binomtest

    from simbalance.core.lineup import all_strategies
    from simbalance.studies.ladder import budget_preset, default_against
    from simbalance.studies.run import SimulationResult, plan_run

    base = plan_run(game, 1, players=4)
    infos = all_strategies(base.config, base.engine.strategies, base.engine.strategy_params)
    heuristics = [k for k, i in infos.items() if not i.preset and not base.engine.is_search(i.base)]
    against = default_against(base.config, heuristics)
    new = budget_preset(infos["mcts"], "iterations", BUDGET)
    full = {**new, "depth": 0.0, "idea": f"mcts with {BUDGET} iterations, play-outs to the end"}
    presets = {"new": new, "full": full}
    plan = plan_run(game, n, players=4, seed=7, strategies=["new", "full", against, against], rotate=True,
                    presets=presets)
    games = SimulationResult.from_plan(plan).games
    wins = {name: 0 for name in presets}
    for winner, row in zip(games["winner"], games.itertuples(), strict=True):
        if winner >= 0:  # one winner (ties and timeouts: neither)
            name = getattr(row, f"strategy_name_{winner}")
            if name in wins:
                wins[name] += 1
    both = wins["new"] + wins["full"]
    ci = binomtest(wins["new"], max(1, both)).proportion_ci(method="wilson")
    verdict = "at least as strong" if ci.high >= 0.5 else "**weaker**"
    return (f"| {game} | depth {new.get('depth', 0.0):g} | {n:,} | {wins['new']:,} | {wins['full']:,} | "
            f"{wins['new'] / both:.1%} ({ci.low:.1%} to {ci.high:.1%}) | {verdict} |")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("before", help="the other checkout (a git worktree of the commit before)")
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--strength", type=int, default=400, help="games of the head-to-head (0: none)")
    parser.add_argument("--strength-games", default="captain-future",
                        help="the games whose head to head is played (where the cut changed: to the end before)")
    parser.add_argument("--write", action="store_true", help="write the tables into BENCHMARKS.md")
    args = parser.parse_args()
    games = args.games.split(",")
    rows = speed_rows(args.before, games, args.rounds)
    text = [f"`python -m benchmarks.search_ab {args.before} --rounds {args.rounds}` ({os.cpu_count()} cores, 4 players, "
            "seats rotated, all threads, medians of the rounds; the search seat's share of the decided games "
            "it played in all rounds, 95% CI, fair 25%):", "", *rows]
    if args.strength:
        text += ["", f"Strength, this checkout: `mcts@{BUDGET}` now against `mcts@{BUDGET}` with play-outs to the "
                 "end (depth 0), two heuristic seats beside them, rotated; the head-to-head share is the new "
                 "player's wins among the games either won alone (95 % CI):", "",
                 "| game | mcts now | games | wins, now | wins, depth 0 | head-to-head share | verdict |",
                 "|---|---|---|---|---|---|---|"]
        text += [strength_row(game, args.strength) for game in args.strength_games.split(",")]
    print("\n".join(text))
    if args.write:
        from benchmarks.profile import write_into

        write_into(ROOT / "BENCHMARKS.md", "\n".join(text), "search-ab")


if __name__ == "__main__":
    main()
