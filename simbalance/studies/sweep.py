"""Sweep: the same games at every point of a grid over one or two config keys, the points closest
to the config's ``[targets]`` re-checked on fresh seeds (analysis/sweep.py)."""

from __future__ import annotations

from dataclasses import dataclass, field
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
    sweep_table,
    targets_of,
)
from simbalance.core.config import toml_value
from simbalance.core.execution import RunOptions
from simbalance.core.plan import RunPlan, check_whole
from simbalance.core.rng import derive_seed
from simbalance.core.runner import ProgressFactory
from simbalance.core.study import Study, StudyParams, option, stop_requested
from simbalance.studies.run import play
from simbalance.studies.settings import RunSettings, api_entry


@dataclass
class SweepResult:
    """Metrics per grid point (``table``), the targets, and the best points re-checked on fresh seeds."""

    game: str
    params: list
    table: pd.DataFrame
    targets: dict
    rechecked: pd.DataFrame
    base_plan: RunPlan
    judgements: list = field(default_factory=list)  # each point's stats.judgement, in the table's order

    def findings(self) -> list[Finding]:
        """The best point at the grid's edge, no point meeting the targets (analysis/findings.py)."""
        keys = [p.key for p in self.params]
        return sweep_findings(self.table, keys, {p.key: list(p.values) for p in self.params},
                              thresholds(self.base_plan.config), self.targets, describe_targets, self.game,
                              self.judgements)


@dataclass(frozen=True)
class SweepParams(StudyParams):
    """sweep's parameters, in the order of its options; the API takes ``params`` and ``n`` by position
    (``sweep(game, ["rules.pick_cap=200:400:100"], 1e5)``). ``targets`` set keys of the config's
    ``[targets]`` for this sweep (the others stay): ``["length_median=55:60", "balance_min=0.9"]``
    (the command line's ``--target``) or ``{"length_median": [55, 60]}``."""

    params: tuple[str, ...] = option(flag="--param", kind=list, positional=True,
                                     help="key=start:stop:step (stop included) or key=a,b,c; one or two.")
    n: int = option(100_000, shown="1e5", count=True, positional=True,
                    help="Games per grid point: 1e5, 100_000 or 100000.")
    strategies: str | None = option(None, help="Strategy per seat, comma-separated.")
    rotate: bool = option(False, kind=bool, help="Play every seat permutation of the strategies.")
    targets: Any = option(None, flag="--target", kind=list,
                          help="Aim for this (replaces that key of the config's \\[targets]): length_median=55:60 or "
                               "balance_min=0.9 (repeatable).")
    recheck: int = option(3, kind=int, help="Re-check this many best points on a fresh seed.")

    def check(self) -> None:
        object.__setattr__(self, "params", (self.params,) if isinstance(self.params, str) else tuple(self.params))
        targets = self.targets
        if isinstance(targets, dict):
            targets = [f"{k}={toml_value(v)}" for k, v in targets.items()]
        object.__setattr__(self, "targets", tuple(parse_target(t) for t in targets or ()))  # as --set overrides
        # a re-check per grid point at the most
        object.__setattr__(self, "recheck", check_whole("--recheck", self.recheck, 0, MAX_POINTS))


def plan_sweep(settings: RunSettings, params: SweepParams) -> tuple[RunSettings, RunPlan, list, list[dict], list[RunPlan]]:
    """The sweep's settings (the targets given as overrides), its base plan, the keys swept, the grid
    and every point's plan: validated and read, no game played."""
    base = settings.but(overrides=settings.overrides + params.targets)
    base_plan = base.plan(params.n, strategies=params.strategies, rotate=params.rotate)
    parsed = [parse_param(p, base_plan.config) for p in params.params]
    points = grid(parsed)
    plans = [point_settings(base, point, settings.seed).plan(params.n, strategies=params.strategies,
                                                            rotate=params.rotate) for point in points]
    return base, base_plan, parsed, points, plans


def point_settings(base: RunSettings, point: dict, seed: int) -> RunSettings:
    """The settings of one grid point on ``seed``: the point's keys as overrides."""
    return base.but(seed=seed, overrides=base.overrides + tuple(f"{k}={toml_value(v)}" for k, v in point.items()))


def run_sweep(settings: RunSettings, params: SweepParams, progress: ProgressFactory | None = None) -> SweepResult:
    """Play ``n`` games at every point of a grid over one or two config keys (same seed at every
    point), and re-check the points closest to the config's ``[targets]`` on a fresh seed. The
    settings (studies/settings.RunSettings) apply at every point. Stopped (Ctrl-C on the command
    line, core/study.stopping from Python): after the chunk in play, RunInterrupted, nothing kept
    (the closest points are chosen from the whole grid)."""
    base, base_plan, parsed, points, plans = plan_sweep(settings, params)  # every point valid before any plays
    targets = targets_of(base_plan.config)

    def play_point(plan: RunPlan, point: dict, label: str) -> dict:
        result = play(plan, progress, label, RunOptions(stop=stop_requested))
        return point_rows(point, result.summary()) | judged(result.aggregate, targets)

    game_id = settings.game
    rows = [play_point(plan, point, f"{game_id} {point}") for plan, point in zip(plans, points, strict=True)]
    table, judgements = sweep_table(rows)
    table["shortfall"] = shortfall(table, targets)
    best = table.sort_values(["shortfall", "balance"], ascending=[True, False]).head(params.recheck)
    fresh_seed = derive_seed(settings.seed, "sweep re-check")
    rechecked = []
    for idx in best.index:
        point = points[idx]
        plan = point_settings(base, point, fresh_seed).plan(params.n, strategies=params.strategies,
                                                            rotate=params.rotate)
        row = play_point(plan, point, f"{game_id} {point} (fresh seed)")
        row["seed"] = fresh_seed
        rechecked.append(row)
    rechecked_df = sweep_table(rechecked)[0]
    if len(rechecked_df):
        rechecked_df["shortfall"] = shortfall(rechecked_df, targets)
    return SweepResult(game_id, parsed, table, targets, rechecked_df, base_plan, judgements)


STUDY = Study(
    "sweep", rank=30, params=SweepParams, run=run_sweep, stoppable=True,
    summary="""Sweep one or two config keys (rules, deck counts, caps...): metrics with CI bands per point,
    the points closest to the config's \\[targets] pointed out and re-checked on fresh seeds.""",
    writer="simbalance.report.sweep_page:write_sweep_folder", page="sweep.html",
    view="simbalance.cli.sweep_cmd:show",
    out_help="Output folder (default: reports/sweep-<game>-<time>).",
    example=("find-dr-evil", "--param", "rules.pick_cap=200:400:100", "--n", "200"),
)
sweep = api_entry(STUDY)  # the API function, made from the params
