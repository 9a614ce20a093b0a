"""Tune: search a strategy's parameters (cross-entropy method on common random numbers) to
maximise its win rate against a field, then test the best against the default on fresh seeds and
alone against every other strategy (analysis/tuning.py)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from simbalance.analysis.compare import paired_test
from simbalance.analysis.metrics import strategy_table
from simbalance.analysis.tuning import cross_entropy, search_space
from simbalance.core.errors import SimbalanceError, did_you_mean
from simbalance.core.lineup import all_strategies
from simbalance.core.records import seat_share
from simbalance.core.rng import derive_seed
from simbalance.studies.run import SimulationResult, plan_run


@dataclass
class TuneResult:
    game: str
    strategy: str
    field: list[str]
    params: list[str]
    default: dict[str, float]
    best: dict[str, float]
    history: list[dict]
    default_win_rate: float
    best_win_rate: float
    margin: dict  # paired difference best - default on fresh seeds: diff, ci_low, ci_high, p_value
    dominance: pd.DataFrame  # best alone against each other strategy: win rate with CI, dominates?
    dominates_all: bool


def tune(
    game: str,
    strategy: str,
    n: int,
    *,
    field: list[str] | str = "random",
    generations: int = 6,
    population: int = 12,
    ranges: list[str] | None = None,
    players: int | None = None,
    seed: int = 0,
    overrides: list[str] | None = None,
    variants: list[str] | None = None,
    threads: int | None = None,
    on_generation=None,
) -> TuneResult:
    """Search ``strategy``'s parameters (cross-entropy method on common random numbers) to maximise
    its win rate alone against ``field`` (one name, or one name per other seat), seats rotated.
    Then: the best against the default on fresh seeds (paired), and against every other strategy."""
    base_plan = plan_run(game, 1, players=players, overrides=overrides, variants=variants)
    p = base_plan.players
    infos = all_strategies(base_plan.config, base_plan.engine.strategies, base_plan.engine.strategy_params)
    if strategy not in infos:
        raise SimbalanceError(f"unknown strategy {strategy!r}{did_you_mean(strategy, infos)}; known: "
                              f"{', '.join(infos)}")
    field_names = [f.strip() for f in field.split(",")] if isinstance(field, str) else list(field)
    if len(field_names) == 1:
        field_names = field_names * (p - 1)
    if len(field_names) != p - 1:
        raise SimbalanceError(f"--field: give one name or {p - 1} names (one per other seat)")
    if strategy in field_names:
        raise SimbalanceError(f"--field {','.join(field_names)}: the tuned strategy cannot also be in the field")
    info = infos[strategy]
    space = search_space(info.params, ranges)
    prefix = f"presets.{strategy}" if info.preset else f"strategies.{strategy}"

    def keys_for(vector) -> list[str]:
        return [f"{prefix}.{k}={float(v)!r}" for k, v in zip(space.names, vector, strict=True)]

    def per_game_share(vector, run_seed, count, field_list):
        plan = plan_run(game, count, players=p, seed=run_seed, variants=variants, threads=threads,
                        overrides=list(overrides or []) + keys_for(vector), strategies=[strategy] + field_list,
                        rotate=True)
        result = SimulationResult.from_plan(plan)
        slot = plan.lineup.slot_names.index(strategy)
        winners = result.games["winners"].to_numpy()
        share = np.zeros(count)
        for s in range(p):
            share += np.where(result.games[f"strategy_{s}"].to_numpy() == slot, seat_share(winners, s), 0.0)
        return share, result, plan

    def evaluate(vector, generation):
        share, _, _ = per_game_share(vector, derive_seed(seed, "tune generation", generation), n, field_names)
        return float(share.mean())

    best, _, history = cross_entropy(space, evaluate, generations, population, derive_seed(seed, "tune search"),
                                     on_generation)
    fresh = derive_seed(seed, "tune final")
    final_n = 2 * n
    default_share, _, _ = per_game_share(space.start, fresh, final_n, field_names)
    best_share, _, _ = per_game_share(best, fresh, final_n, field_names)
    margin = paired_test(default_share, best_share)
    rows = []
    for other in infos:
        if other == strategy:
            continue
        _, result, plan = per_game_share(best, derive_seed(seed, "tune dominance"), n, [other] * (p - 1))
        row = strategy_table(result.games, p, plan.lineup.slot_names).set_index("strategy").loc[strategy]
        rows.append({"against": other, "win_rate": float(row["win_rate"]), "ci_low": float(row["ci_low"]),
                     "ci_high": float(row["ci_high"]), "dominates": bool(row["ci_low"] > 1.0 / p)})
    dominance = pd.DataFrame(rows, columns=["against", "win_rate", "ci_low", "ci_high", "dominates"])
    return TuneResult(game, strategy, field_names, space.names, dict(zip(space.names, space.start.tolist(), strict=True)),
                      dict(zip(space.names, best.tolist(), strict=True)), history, float(default_share.mean()),
                      float(best_share.mean()), margin, dominance, bool(dominance["dominates"].all()))
