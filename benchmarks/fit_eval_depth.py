"""Strength and speed of a search seat whose play-outs are cut, scored by the hand-written
evaluation or by the fitted one (issue 38 item 1; docs/strategies.md, "The fitted evaluation").

    python -m benchmarks.fit_eval_depth [GAME] [--n 400] [--depths 0,10,20,40] [--preset mcts-100]
        [--against aggressor] [--threads 1] [--evaluations hand,fitted]

Plays ``simbalance run GAME --strategies PRESET,AGAINST,... --rotate --set presets.PRESET.depth=D``
for every depth, once with ``search.evaluation=hand`` and once with the fit (depth 0: once, no
evaluation is used), all on the same seed, and prints a markdown table: the search seats' win share
(95% CI) and games/s of play. Not part of `make bench` (minutes of search games).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path


def one(game: str, n: int, preset: str, against: str, players: int, depth: int, evaluation: str, threads: int,
        out: Path) -> dict:
    lineup = ",".join([preset] + [against] * (players - 1))
    cmd = [sys.executable, "-m", "simbalance.cli.main", "run", game, "--n", str(n), "--strategies", lineup, "--rotate",
           "--set", f"presets.{preset}.depth={depth}", "--set", f"search.evaluation={evaluation}",
           "--threads", str(threads), "--out", str(out)]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    summary = json.loads((out / "summary.json").read_text())
    manifest = json.loads((out / "manifest.json").read_text())
    row = next(r for r in summary["strategies"] if r["strategy"] == preset)
    return {"depth": depth, "evaluation": evaluation if depth > 0 else "(none: to the end)",
            "win": row["win_rate"], "lo": row["ci_low"], "hi": row["ci_high"], "games_per_s": manifest["games_per_s"]}


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("game", nargs="?", default="captain-future")
    parser.add_argument("--n", type=int, default=400)
    parser.add_argument("--depths", default="0,10,20,40")
    parser.add_argument("--preset", default="mcts-100")
    parser.add_argument("--against", default="aggressor")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--evaluations", default="hand,fitted", help="at a depth above 0: hand, fitted or both")
    args = parser.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for depth in (int(d) for d in args.depths.split(",")):
            for evaluation in (args.evaluations.split(",") if depth > 0 else ("fitted",)):
                row = one(args.game, args.n, args.preset, args.against, args.players, depth, evaluation, args.threads,
                          Path(tmp) / f"d{depth}-{evaluation}")
                rows.append(row)
                print(f"depth {depth} {evaluation}: {row['win']:.1%} {row['games_per_s']:.1f} games/s", file=sys.stderr)
    print(f"`python -m benchmarks.fit_eval_depth {' '.join(argv)}`: {args.preset} in one seat against "
          f"{args.players - 1} {args.against}, seats rotated, seed 0, {args.threads} thread(s); fair share "
          f"{1 / args.players:.0%}.\n")
    print("| depth | evaluation at the cut | search seats' win share (95% CI) | games/s |")
    print("|---:|---|---:|---:|")
    for r in rows:
        print(f"| {r['depth']} | {r['evaluation']} | {r['win']:.1%} ({r['lo']:.1%} to {r['hi']:.1%}) | "
              f"{r['games_per_s']:.1f} |")


if __name__ == "__main__":
    main(sys.argv[1:])
