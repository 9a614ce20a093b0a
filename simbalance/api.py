"""The Python entry point: every study simbalance runs, as functions returning typed results.

    >>> from simbalance.api import simulate, compare, sweep, tournament, skill, tune
    >>> result = simulate("captain-future", 100_000, seed=1)

The studies live in ``simbalance/studies/`` (one module each, with its result type); this module
only gathers them. The CLI calls the same functions, so the API and the CLI give the same numbers
for the same seed.
"""

from __future__ import annotations

from simbalance.core.errors import ConfigError, SimbalanceError
from simbalance.core.plan import MAX_SEED, RunPlan, check_n, check_seed
from simbalance.studies.compare import ComparisonResult, compare, same_games
from simbalance.studies.run import SimulationResult, plan_run, simulate, summarize_run
from simbalance.studies.skill import SkillResult, skill
from simbalance.studies.sweep import SweepResult, sweep
from simbalance.studies.tournament import TournamentResult, tournament
from simbalance.studies.tune import TuneResult, tune

__all__ = [
    "MAX_SEED", "ComparisonResult", "ConfigError", "RunPlan", "SimbalanceError", "SimulationResult", "SkillResult",
    "SweepResult", "TournamentResult", "TuneResult", "check_n", "check_seed", "compare", "plan_run", "same_games",
    "simulate", "skill", "summarize_run", "sweep", "tournament", "tune",
]
