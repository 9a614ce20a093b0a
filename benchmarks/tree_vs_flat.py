"""Does the tree beat one-step look-ahead? One ``mcts`` seat (a preset, with ``--set``-style
changes) and one ``flat`` seat at the same budget per decision (``per_decision``, the same depth,
confidence and rollout), the others the game's default heuristic, seats rotated: the share of the
pair's wins among the games either won, with its Wilson 95 % CI (issue 53 item 2).

    python benchmarks/tree_vs_flat.py GAME PRESET N SEED [KEY=VALUE ...]

e.g. ``python benchmarks/tree_vs_flat.py captain-future mcts-100 150 1 widening=0.0001``: KEY=VALUE
pairs change ``strategies.mcts.KEY``, which the preset takes when it does not set KEY itself. One thread."""

from __future__ import annotations

import sys
import time

import numpy as np
from scipy.stats import binomtest

import simbalance
from simbalance.api import plan_run


def main(game: str, preset: str, n: int, seed: int, changes: list[str]) -> None:
    config = plan_run(game, 1, players=4).config
    heuristic = config["game"]["strategies"][0]
    params = {**config["strategies"]["mcts"], **config.get("presets", {}).get(preset, {})}
    flat = [f"strategies.flat.{k}={params[k]}" for k in ("depth", "confidence", "rollout")]
    flat += [f"strategies.flat.playouts={params['iterations']}", "strategies.flat.per_decision=1"]
    overrides = flat + [f"strategies.mcts.{c}" for c in changes]  # the preset takes what it does not set from mcts
    t = time.time()
    res = simbalance.simulate(game, n, players=4, seed=seed, strategies=[preset, "flat", heuristic, heuristic],
                              rotate=True, threads=1, overrides=overrides)
    seats = res.records["strategy"][:, :4]
    winners = res.records["winners"].astype(np.int64)
    won = {}
    for slot in (0, 1):  # the lineup's slots: 0 the mcts preset, 1 flat
        at = np.argmax(seats == slot, axis=1)
        won[slot] = ((winners >> at) & 1).astype(bool)
    either = won[0] | won[1]
    k, m = int((won[0] & ~won[1]).sum() + 0.5 * (won[0] & won[1]).sum()), int(either.sum())
    ci = binomtest(k, m).proportion_ci(method="wilson") if m else None
    print(f"{game} {preset} {' '.join(changes) or '(as is)'} vs flat@{params['iterations']:.0f}/decision, "
          f"{n} games, seed {seed}: mcts {k} of {m} games either won = {k / max(m, 1):.1%} "
          f"(95% CI {ci.low:.1%} to {ci.high:.1%}); {time.time() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5:])
