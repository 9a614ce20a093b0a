"""The search players on the planted games of tests/planted (docs/strategies.md, "Hidden moves"):

    python benchmarks/planted_search.py signs PLAYERS N [--set KEY=VALUE ...]
        face-down-signs: mcts, then flat, on each seat in turn among `lean` players: its win share
        (ties shared) and standard error;
    python benchmarks/planted_search.py trap N [--set KEY=VALUE ...]
        two-step-trap: mcts against flat (both seats), and each against random: the shares and the
        attacks a game.

Seed 1, one thread. Run from the checkout (the planted games are made plug-ins on the spot)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from planted.plugins import installed  # noqa: E402

import simbalance  # noqa: E402
from simbalance.core.records import win_shares  # noqa: E402


def signs(players: int, n: int, overrides: list[str]) -> None:
    with installed("face_down_signs"):
        for player in ("mcts", "flat"):
            for seat in range(players):
                lineup = ["lean"] * players
                lineup[seat] = player
                t = time.time()
                r = simbalance.simulate("face-down-signs", n, players=players, seed=1, strategies=lineup, threads=1,
                                        overrides=overrides)
                s = win_shares(r.records["winners"], players)[:, seat]
                print(f"{player} seat {seat + 1}: {s.mean():.3f} +- {s.std(ddof=1) / np.sqrt(n):.3f} "
                      f"({time.time() - t:.1f} s)", flush=True)


def trap(n: int, overrides: list[str]) -> None:
    with installed("two_step_trap"):
        for lineup in (["mcts", "flat"], ["flat", "mcts"], ["flat", "random"], ["mcts", "random"]):
            t = time.time()
            r = simbalance.simulate("two-step-trap", n, players=2, seed=1, strategies=lineup, threads=1,
                                    overrides=overrides)
            shares = win_shares(r.records["winners"], 2).mean(axis=0)
            attacks = r.records["attacks"][:, :2].mean(axis=0)
            print(f"{lineup}: shares {shares.round(3)}, attacks a game {attacks.round(2)} ({time.time() - t:.1f} s)",
                  flush=True)


if __name__ == "__main__":
    args = sys.argv[1:]
    sets = args[args.index("--set") + 1:] if "--set" in args else []
    args = args[:args.index("--set")] if "--set" in args else args
    if args[0] == "signs":
        signs(int(args[1]), int(args[2]), sets)
    else:
        trap(int(args[1]), sets)
