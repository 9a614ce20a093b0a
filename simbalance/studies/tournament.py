"""Tournament: every assignment of the strategies to the seats equally often, then matchups,
Bradley-Terry ratings and per-strategy win rates (analysis/tournament.py)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from simbalance.analysis.findings import Finding, elsewhere, ordered, thresholds
from simbalance.analysis.metrics import strategy_table
from simbalance.analysis.tournament import matchups, ratings, tournament_findings
from simbalance.core.errors import SimbalanceError
from simbalance.core.rng import derive_seed
from simbalance.studies.run import SimulationResult, plan_run


@dataclass
class TournamentResult:
    """Every lineup of the strategies played; matchups and ratings computed from it."""

    result: SimulationResult
    matchups: pd.DataFrame
    ratings: pd.DataFrame
    strategies: pd.DataFrame

    def findings(self) -> list[Finding]:
        """A strategy that beats every other head to head, and the run's own findings (timeouts,
        ties, seats...) over every lineup (analysis/findings.py)."""
        plan = self.result.plan
        own = tournament_findings(self.matchups, list(plan.lineup.slot_names), thresholds(plan.config))
        return ordered(own + [elsewhere(f) for f in self.result.findings() if f.kind != "dominant_strategy"])


def tournament(
    game: str,
    strategies: list[str] | str,
    n: int,
    *,
    players: int | None = None,
    seed: int = 0,
    overrides: list[str] | dict | None = None,
    variants: list[str] | None = None,
    config: str | Path | None = None,
    threads: int | None = None,
    progress=None,
) -> TournamentResult:
    """Play every assignment of ``strategies`` to the seats equally often (game ``g`` takes lineup
    ``g % L``), then the matchup matrix (per-seat win rates and head-to-head shares), Bradley-Terry
    ratings and per-strategy win rates. ``config``: a config file instead of configs/<game>.toml."""
    names = [s.strip() for s in strategies.split(",")] if isinstance(strategies, str) else list(strategies)
    if len(set(names)) < 2 or len(set(names)) != len(names):
        raise SimbalanceError(f"tournament strategies = {','.join(names)}: give at least two different names")
    plan = plan_run(game, n, players=players, seed=seed, overrides=overrides, variants=variants, strategies=names,
                    config=config, threads=threads, every_lineup=True)
    result = SimulationResult.from_plan(plan, progress=progress)
    slot_names = plan.lineup.slot_names
    return TournamentResult(result, matchups(result.games, plan.players, slot_names),
                            ratings(result.games, plan.players, slot_names, derive_seed(seed, "tournament ratings")),
                            strategy_table(result.games, plan.players, slot_names))
