"""Tournament: every assignment of the strategies to the seats equally often, then matchups,
Bradley-Terry ratings and per-strategy win rates (analysis/tournament.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd

from simbalance.analysis.findings import Finding, elsewhere, ordered, thresholds
from simbalance.analysis.metrics import strategy_table
from simbalance.analysis.tournament import matchups, ratings, seats_by_lineup, tournament_findings
from simbalance.core.errors import SimbalanceError
from simbalance.core.rng import derive_seed
from simbalance.core.runner import ProgressFactory
from simbalance.studies.run import SimulationResult, play
from simbalance.studies.settings import RunSettings


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
        th = thresholds(plan.config)
        own = tournament_findings(self.matchups, list(plan.lineup.slot_names), th)
        pooled = []
        for f in self.result.findings():
            if f.kind == "seat_imbalance":  # which seat wins depends on where each strategy sits
                pooled.append(seats_by_lineup(f, self.result.games, plan.players, plan.lineup.seats,
                                              plan.lineup.slot_names, th))
            elif f.kind != "dominant_strategy":
                pooled.append(elsewhere(f))
        return ordered(own + pooled)


def tournament(
    game: str | RunSettings,
    strategies: list[str] | str,
    n: int,
    *,
    progress: ProgressFactory | None = None,
    **settings: Any,
) -> TournamentResult:
    """Play every assignment of ``strategies`` to the seats equally often (game ``g`` takes lineup
    ``g % L``), then the matchup matrix (per-seat win rates and head-to-head shares), Bradley-Terry
    ratings and per-strategy win rates. The settings: studies/settings.RunSettings."""
    settings = RunSettings.of(game, **settings)
    names = [s.strip() for s in strategies.split(",")] if isinstance(strategies, str) else list(strategies)
    if len(set(names)) < 2 or len(set(names)) != len(names):
        raise SimbalanceError(f"tournament strategies = {','.join(names)}: give at least two different names")
    plan = settings.plan(n, strategies=names, every_lineup=True)
    lineups = len(plan.lineup.seats)
    if n < lineups:  # some lineup would not be played: the comparison would not be a tournament
        raise SimbalanceError(f"--n {n:,}: {len(names)} strategies on {plan.players} seats make {lineups:,} lineups, "
                              f"each played equally often; give at least {lineups:,} games (e.g. --n {100 * lineups})")
    result = play(plan, progress, f"{settings.game}: tournament")
    slot_names = plan.lineup.slot_names
    return TournamentResult(result, matchups(result.games, plan.players, slot_names),
                            ratings(result.games, plan.players, slot_names, derive_seed(settings.seed, "tournament ratings")),
                            strategy_table(result.games, plan.players, slot_names))
