"""Sweep: the same games at every point of a grid over one or two config keys, the points closest
to the config's ``[targets]`` re-checked on fresh seeds (analysis/sweep.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd

from simbalance.analysis.findings import Finding, thresholds
from simbalance.analysis.sweep import (
    MAX_POINTS,
    describe_targets,
    grid,
    judged,
    parse_param,
    parse_target,
    point_rows,
    shortfall,
    sweep_findings,
    targets_of,
)
from simbalance.core.config import toml_value
from simbalance.core.plan import RunPlan, check_whole
from simbalance.core.rng import derive_seed
from simbalance.core.runner import ProgressFactory
from simbalance.core.study import Study
from simbalance.studies.run import play
from simbalance.studies.settings import RunSettings


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
    game: str | RunSettings,
    params: list[str],
    n: int,
    *,
    strategies: list[str] | str | None = None,
    rotate: bool = False,
    recheck: int = 3,
    targets: list[str] | dict[str, Any] | None = None,
    progress: ProgressFactory | None = None,
    **settings: Any,
) -> SweepResult:
    """Play ``n`` games at every point of a grid over one or two config keys (same seed at every
    point), and re-check the points closest to the config's ``[targets]`` on a fresh seed.

    ``targets`` set keys of the config's ``[targets]`` for this sweep (the others stay): ``["length_median=55:60", "balance_min=0.9"]``
    (the CLI's ``--target``) or ``{"length_median": [55, 60]}``. The settings
    (studies/settings.RunSettings) apply at every point."""
    settings = RunSettings.of(game, **settings)
    recheck = check_whole("--recheck", recheck, 0, MAX_POINTS)  # a re-check per grid point at the most
    if isinstance(targets, dict):
        targets = [f"{k}={toml_value(v)}" for k, v in targets.items()]
    base = settings.but(overrides=settings.overrides + tuple(parse_target(t) for t in targets or []))
    run = dict(strategies=strategies, rotate=rotate)
    base_plan = base.plan(n, **run)
    parsed = [parse_param(p, base_plan.config) for p in params]
    points = grid(parsed)
    targets = targets_of(base_plan.config)

    def at(point: dict, seed: int) -> RunSettings:
        return base.but(seed=seed, overrides=base.overrides + tuple(f"{k}={toml_value(v)}" for k, v in point.items()))

    plans = [at(point, settings.seed).plan(n, **run) for point in points]  # validate every point before playing any

    def play_point(plan: RunPlan, point: dict, label: str) -> dict:
        result = play(plan, progress, label)
        return point_rows(point, result.summary()) | judged(result.aggregate, targets)

    game_id = settings.game
    rows = [play_point(plan, point, f"{game_id} {point}") for plan, point in zip(plans, points, strict=True)]
    table = pd.DataFrame(rows)
    table["shortfall"] = shortfall(table, targets)
    best = table.sort_values(["shortfall", "balance"], ascending=[True, False]).head(recheck)
    fresh_seed = derive_seed(settings.seed, "sweep re-check")
    rechecked = []
    for idx in best.index:
        point = points[idx]
        row = play_point(at(point, fresh_seed).plan(n, **run), point, f"{game_id} {point} (fresh seed)")
        row["seed"] = fresh_seed
        rechecked.append(row)
    rechecked_df = pd.DataFrame(rechecked)
    if len(rechecked_df):
        rechecked_df["shortfall"] = shortfall(rechecked_df, targets)
    return SweepResult(game_id, parsed, table, targets, rechecked_df, base_plan)


# The contract (core/study.py): the command is still written by hand (not yet on declared params).
STUDY = Study("sweep", rank=30, command="simbalance.cli.sweep_cmd:sweep", api=sweep,
              example=('find-dr-evil', '--param', 'rules.pick_cap=200:400:100', '--n', '200'))
