"""Sweep: the same games at every point of a grid over one or two config keys, the points closest
to the config's ``[targets]`` re-checked on fresh seeds (analysis/sweep.py)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from simbalance.analysis.findings import Finding, thresholds
from simbalance.analysis.sweep import (
    describe_targets,
    grid,
    parse_param,
    parse_target,
    point_rows,
    shortfall,
    sweep_findings,
    targets_of,
)
from simbalance.core.config import override_list, toml_value
from simbalance.core.plan import RunPlan
from simbalance.core.rng import derive_seed
from simbalance.studies.run import SimulationResult, plan_run


@dataclass
class SweepResult:
    """Metrics per grid point (``table``), the targets, and the best points re-checked on fresh seeds."""

    game: str
    params: list
    table: pd.DataFrame
    targets: dict
    rechecked: pd.DataFrame
    base_plan: RunPlan

    def findings(self) -> list[Finding]:
        """The best point at the grid's edge, no point meeting the targets (analysis/findings.py)."""
        keys = [p.key for p in self.params]
        return sweep_findings(self.table, keys, {p.key: list(p.values) for p in self.params},
                              thresholds(self.base_plan.config), self.targets, describe_targets, self.game)


def sweep(
    game: str,
    params: list[str],
    n: int,
    *,
    players: int | None = None,
    seed: int = 0,
    overrides: dict[str, Any] | list[str] | None = None,
    variants: list[str] | None = None,
    strategies: list[str] | str | None = None,
    rotate: bool = False,
    threads: int | None = None,
    recheck: int = 3,
    config: str | Path | None = None,
    targets: list[str] | dict[str, Any] | None = None,
    progress_factory=None,
) -> SweepResult:
    """Play ``n`` games at every point of a grid over one or two config keys (same seed at every
    point), and re-check the points closest to the config's ``[targets]`` on a fresh seed.

    ``targets`` set keys of the config's ``[targets]`` for this sweep (the others stay): ``["length_median=55:60", "balance_min=0.9"]``
    (the CLI's ``--target``) or ``{"length_median": [55, 60]}``."""
    if isinstance(targets, dict):
        targets = [f"{k}={toml_value(v)}" for k, v in targets.items()]
    base = override_list(overrides) + [parse_target(t) for t in targets or []]
    common = dict(players=players, strategies=strategies, rotate=rotate, threads=threads, variants=variants,
                  config=config)
    base_plan = plan_run(game, n, seed=seed, overrides=base, **common)
    parsed = [parse_param(p, base_plan.config) for p in params]
    points = grid(parsed)
    targets = targets_of(base_plan.config)
    plans = [plan_run(game, n, seed=seed, overrides=base + [f"{k}={toml_value(v)}" for k, v in point.items()],
                      **common) for point in points]  # validate every point before playing any

    def play(plan: RunPlan, point: dict, label: str) -> dict:
        progress = progress_factory(label) if progress_factory else None
        result = SimulationResult.from_plan(plan, progress=progress)
        if progress is not None:
            progress.close()
        return point_rows(point, result.summary())

    rows = [play(plan, point, f"{game} {point}") for plan, point in zip(plans, points, strict=True)]
    table = pd.DataFrame(rows)
    table["shortfall"] = shortfall(table, targets)
    best = table.sort_values(["shortfall", "balance"], ascending=[True, False]).head(max(0, recheck))
    fresh_seed = derive_seed(seed, "sweep re-check")
    rechecked = []
    for idx in best.index:
        point = points[idx]
        plan = plan_run(game, n, seed=fresh_seed,
                        overrides=base + [f"{k}={toml_value(v)}" for k, v in point.items()], **common)
        row = play(plan, point, f"{game} {point} (fresh seed)")
        row["seed"] = fresh_seed
        rechecked.append(row)
    rechecked_df = pd.DataFrame(rechecked)
    if len(rechecked_df):
        rechecked_df["shortfall"] = shortfall(rechecked_df, targets)
    return SweepResult(game, parsed, table, targets, rechecked_df, base_plan)

