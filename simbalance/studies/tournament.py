"""Tournament: every assignment of the strategies to the seats equally often, then matchups,
Bradley-Terry ratings and per-strategy win rates (analysis/tournament.py)."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from simbalance.analysis.findings import Finding, elsewhere, ordered, thresholds
from simbalance.analysis.metrics import strategy_table
from simbalance.analysis.tournament import matchups, ratings, seats_by_lineup, tournament_findings
from simbalance.core.errors import SimbalanceError
from simbalance.core.rng import derive_seed
from simbalance.core.runner import ProgressFactory
from simbalance.core.study import Study, StudyParams, option
from simbalance.studies.run import SimulationResult, play
from simbalance.studies.settings import RunSettings, api_entry


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


@dataclass(frozen=True)
class TournamentParams(StudyParams):
    strategies: tuple[str, ...] | str = option(positional=True,
                                               help="Two or more strategies or presets, comma-separated.")
    n: int = option(100_000, shown="1e5", count=True, positional=True, help="Games in all: 1e5, 100_000 or 100000.")

    def check(self) -> None:
        given = self.strategies
        names = [s.strip() for s in given.split(",")] if isinstance(given, str) else list(given)
        if len(set(names)) < 2 or len(set(names)) != len(names):
            raise SimbalanceError(f"--strategies {','.join(map(str, names))}: give at least two different names")
        object.__setattr__(self, "strategies", tuple(names))


def run_tournament(settings: RunSettings, params: TournamentParams,
                   progress: ProgressFactory | None = None) -> TournamentResult:
    """Play every assignment of ``strategies`` to the seats equally often (game ``g`` takes lineup
    ``g % L``), then the matchup matrix (per-seat win rates and head-to-head shares), Bradley-Terry
    ratings and per-strategy win rates."""
    plan = settings.plan(params.n, strategies=list(params.strategies), every_lineup=True)
    lineups = len(plan.lineup.seats)
    if params.n < lineups:  # some lineup would not be played: the comparison would not be a tournament
        raise SimbalanceError(f"--n {params.n:,}: {len(params.strategies)} strategies on {plan.players} seats make "
                              f"{lineups:,} lineups, each played equally often; give at least {lineups:,} games "
                              f"(e.g. --n {100 * lineups})")
    result = play(plan, progress, f"{settings.game}: tournament")
    slot_names = plan.lineup.slot_names
    return TournamentResult(result, matchups(result.games, plan.players, slot_names),
                            ratings(result.games, plan.players, slot_names, derive_seed(settings.seed, "tournament ratings")),
                            strategy_table(result.games, plan.players, slot_names))


STUDY = Study(
    "tournament", rank=50, params=TournamentParams, run=run_tournament, stoppable=True,
    summary="""Play every assignment of the strategies to the seats equally often; report the matchups (A
    against B: A's per-seat win rate, fair 1/P, and A's head-to-head share, even 50%, with CIs),
    Bradley-Terry ratings with CIs and heatmaps.""",
    writer="simbalance.report.tournament_page:write_tournament_folder", page="tournament.html",
    view="simbalance.cli.tournament_cmd:show",
    out_help="Output folder (default: reports/tournament-<game>-<time>).",
    example=("captain-action", "--strategies", "random,builder", "--n", "200"),
)
tournament = api_entry(STUDY)  # the API function, made from the params
