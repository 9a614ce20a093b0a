"""What the rules alone cost against the players: one engine's kernel with random players at every
seat and with its default lineup, in CPU time per game and per turn.

    python -m benchmarks.rules_cost [GAME] [--n 20000] [--rounds 7]

One process plays the same ``--n`` games (seed 1, one thread, 4 players) with each lineup in turn,
``--rounds`` times, timing the kernel (``core.runner.play_chunk``) with ``time.process_time`` (the
CPU time the process got: steadier than the wall clock on a shared machine). Random players do
almost nothing but draw, so their games cost what the rules cost (dealing, drawing, placing,
scoring, the end of the round); the default lineup's extra time is its decisions. Prints each
lineup's median ns/game, its mean game length (turns) and ns/turn, and the default lineup's time
as a multiple of the random one's (per game and per turn: random games are longer or shorter).
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("game", nargs="?", default="captain-future")
    parser.add_argument("--n", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    from simbalance.core.runner import play_chunk
    from simbalance.studies.run import plan_run

    plans = {"random": plan_run(args.game, args.n, seed=1, threads=1, players=4, strategies="random"),
             "default": plan_run(args.game, args.n, seed=1, threads=1, players=4)}
    outs = {name: np.zeros(args.n, plan.engine.record_dtype) for name, plan in plans.items()}
    for name, plan in plans.items():  # compile or load, and warm
        play_chunk(plan.engine, plan.lineup, plan.prepared, plan.seed, 0, 1000, 1, out=outs[name][:1000])
    times: dict[str, list[float]] = {name: [] for name in plans}
    for _ in range(args.rounds):
        for name, plan in plans.items():
            t = time.process_time()
            play_chunk(plan.engine, plan.lineup, plan.prepared, plan.seed, 0, args.n, 1, out=outs[name])
            times[name].append(time.process_time() - t)
    per = {}
    for name, plan in plans.items():
        game_ns = statistics.median(times[name]) * 1e9 / args.n
        turns = float(outs[name]["length"].mean())
        per[name] = (game_ns, game_ns / turns)
        lineup = ",".join(plan.lineup.slot_names[s] for s in plan.lineup.seats[0])
        print(f"{args.game} engine v{plan.engine.version}, {name} ({lineup}): {game_ns:,.0f} ns/game, "
              f"{turns:.1f} turns/game, {game_ns / turns:,.0f} ns/turn, {1e9 / game_ns:,.0f} games/s on one thread")
    print(f"the default lineup costs {per['default'][0] / per['random'][0]:.1f}x random players' time per game, "
          f"{per['default'][1] / per['random'][1]:.1f}x per turn ({args.n:,} games x {args.rounds} rounds, medians)")


if __name__ == "__main__":
    main()
