"""A/B of one engine's kernel and chunk aggregation against another checkout, in CPU seconds.

    git worktree add /tmp/before <commit>
    python -m benchmarks.ab_kernel /tmp/before GAME N [--rounds 15] [--strategies S] [--set key=value ...]
                                   [--both key=value ...]

Two persistent processes, one per checkout (each imports only its own tree, as benchmarks/ab.py),
play the same N games of seed 1 on one thread in turn, A B A B ..., ``--rounds`` times; each round
times the kernel (``core.runner.play_chunk``) and ``RunAggregate.from_records`` on the chunk with
``time.process_time`` (the CPU time the process got: on a shared machine far steadier than the wall
clock). Prints the medians per game of both, the ratio of the medians and the median of the
round-by-round ratios, and games/s of kernel + aggregation. ``--set`` applies to this checkout only
(keys the other may not have, e.g. ``rules.stalemate_window=0``); ``--both`` to both (an all-search table:
``--strategies mcts --both strategies.mcts.iterations=100``). Each kernel round also hashes the
chunk's records: the output says whether both checkouts played the same records in every round
(a speed-up that keeps the games). ``--simulate``: each round times
``simbalance.simulate(GAME, N, seed=1)`` whole instead (all threads, wall seconds: what a designer's
games/s is made of; "kernel" in the output is then that, and the aggregation 0).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys

THIS_TREE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORKER = r'''
import hashlib, sys, time, numpy as np
from simbalance.studies.run import plan_run
from simbalance.core.runner import play_chunk
from simbalance.core.aggregate import RunAggregate
game, n, tree, strategies, overrides, whole = (sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5],
                                               sys.argv[6] == "1")
import simbalance
assert simbalance.__file__.startswith(tree), f"{simbalance.__file__} is not from {tree}"
kw = {}
if strategies:
    kw["strategies"] = strategies
if overrides:
    kw["overrides"] = overrides.split(";")
plan = plan_run(game, n, seed=1, threads=1, **kw).ready()
prepared = plan.prepared_for()  # with search players, the fitted evaluation's weights too
out = np.zeros(n, plan.engine.record_dtype)
warm = min(n, 1000)
play_chunk(plan.engine, plan.lineup, prepared, plan.seed, 0, warm, 1, out=out[:warm])
RunAggregate.from_records(out[:warm], plan.players, len(plan.lineup.slot_names))
if whole:  # the run as simulate() plays it (all threads, chunks, aggregation): wall seconds
    simbalance.simulate(game, warm, seed=1, **kw)
print("ready", flush=True)
for line in sys.stdin:
    if whole:
        t = time.perf_counter()
        simbalance.simulate(game, n, seed=1, **kw)
        print(time.perf_counter() - t, 0.0, "-", flush=True)
        continue
    t = time.process_time()
    play_chunk(plan.engine, plan.lineup, prepared, plan.seed, 0, n, 1, out=out)
    k = time.process_time() - t
    t = time.process_time()
    RunAggregate.from_records(out, plan.players, len(plan.lineup.slot_names))
    print(k, time.process_time() - t, hashlib.sha256(out.tobytes()).hexdigest()[:16], flush=True)
'''


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("before", help="the other checkout (e.g. a git worktree of the commit before)")
    parser.add_argument("game")
    parser.add_argument("n", type=int)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--strategies", default="")
    parser.add_argument("--set", dest="overrides", action="append", default=[])
    parser.add_argument("--both", action="append", default=[], help="key=value for both checkouts")
    parser.add_argument("--now", default=THIS_TREE,
                        help="the checkout timed as 'now' (default: this one; a copy of it compares like with like)")
    parser.add_argument("--simulate", action="store_true",
                        help="time simulate(GAME, N) whole (all threads, wall seconds) instead of the kernel")
    args = parser.parse_args()
    procs = {}
    for name, tree in (("before", os.path.abspath(args.before)), ("now", os.path.abspath(args.now))):
        overrides = ";".join(args.both + (args.overrides if name == "now" else []))
        proc = subprocess.Popen([sys.executable, "-P", "-c", WORKER, args.game, str(args.n), tree, args.strategies,
                                 overrides, "1" if args.simulate else "0"], env=dict(os.environ, PYTHONPATH=tree), stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, text=True)
        if proc.stdout.readline().strip() != "ready":
            raise SystemExit(f"{name}: the worker did not start")
        procs[name] = proc
    times: dict[str, list[tuple[float, float]]] = {"before": [], "now": []}
    digests: dict[str, list[str]] = {"before": [], "now": []}
    for _ in range(args.rounds):
        for name, proc in procs.items():
            proc.stdin.write("go\n")
            proc.stdin.flush()
            kernel, aggregate, digest = proc.stdout.readline().split()
            times[name].append((float(kernel), float(aggregate)))
            digests[name].append(digest)
    for proc in procs.values():
        proc.stdin.close()
        proc.wait()
    n = args.n
    med = {name: (statistics.median(k for k, _ in rows), statistics.median(a for _, a in rows),
                  statistics.median(k + a for k, a in rows)) for name, rows in times.items()}
    pairs = statistics.median(now[0] / before[0] for now, before in zip(times["now"], times["before"], strict=True))
    (kb, ab, tb), (kn, an, tn) = med["before"], med["now"]
    print(f"{args.game} (n {n:,}, {args.rounds} rounds{', ' + ' '.join(args.overrides) if args.overrides else ''}): "
          f"kernel {kb * 1e9 / n:,.0f} -> {kn * 1e9 / n:,.0f} ns/game (ratio of medians {kn / kb:.3f}, median of "
          f"round ratios {pairs:.3f}); aggregation {ab * 1e9 / n:.1f} -> {an * 1e9 / n:.1f} ns/game; kernel + "
          f"aggregation {n / tb:,.0f} -> {n / tn:,.0f} games/s ({tb / tn:.3f} of the games/s before: "
          f"{100 * (tn / tb - 1):+.1f}% time)")
    if not args.simulate:
        same = digests["now"] == digests["before"]
        print(f"records: {'the same' if same else 'DIFFERENT'} in every round (sha256 {digests['now'][0]}"
              f"{'' if same else ' against ' + digests['before'][0]})")


if __name__ == "__main__":
    main()
