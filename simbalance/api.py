"""The Python entry point: every study simbalance runs, as functions returning typed results.

    >>> from simbalance.api import simulate, compare, sweep, solve, tournament, skill, tune
    >>> result = simulate("captain-future", 100_000, seed=1)
    >>> write_report(result, "reports/first")      # the same folder as `simbalance run`
    >>> settings = RunSettings("captain-future", players=3, seed=1)   # or the same keywords, to any study
    >>> compare(settings, ["short-game"], 100_000)
    >>> solve("captain-future", ["balance=0.97:1"], ["ships.4=24:36"], budget="5m")   # the smallest change
    >>> checked = dataclasses.replace(result, strong_play=strong_play(settings))   # `run --robust`
    >>> checked.report_findings()                  # the seat finding, checked under strong play
    >>> card_value("captain-action", states=500).value("Captain Action wildcard 0")   # causal card value

The studies live in ``simbalance/studies/`` (one module each, with its result type and its
``STUDY``: core/study.py); this module gathers every entry from the registry (studies/registry.py),
so a new study is here without an edit: ``simbalance.api.lengths``, ``ladder``, ``robustness``,
``fit_eval``, ``run_check``... (``STUDIES`` lists them). The CLI calls the same functions, so the API and the CLI give the same numbers
for the same seed.
"""

from __future__ import annotations

from pathlib import Path

from simbalance.core.errors import ConfigError, SimbalanceError
from simbalance.core.plan import MAX_SEED, RunPlan, check_n, check_seed
from simbalance.studies.card_value import CardValueResult, card_value
from simbalance.studies.compare import ComparisonResult, compare, same_games
from simbalance.studies.registry import all_studies, entry_of
from simbalance.studies.robustness import strong_play
from simbalance.studies.run import SimulationResult, summarize_run
from simbalance.studies.run_study import simulate
from simbalance.studies.settings import RunSettings, plan_run
from simbalance.studies.skill import SkillResult, skill
from simbalance.studies.solve import SolveResult, solve
from simbalance.studies.sweep import SweepResult, sweep
from simbalance.studies.tournament import TournamentResult, tournament
from simbalance.studies.tune import TuneResult, tune

# Every study's API entry, by its entry name (core/study.Study.entry_name), found not listed.
STUDIES = {study.entry_name: entry_of(study) for study in all_studies()}
globals().update(STUDIES)


def write_report(result: SimulationResult, out: str | Path | None = None) -> Path:
    """Write ``result``'s run folder (report.html, summary.json, the figures, games.parquet) exactly
    as ``simbalance run`` does, into ``out`` (default: a new ``reports/<game>-<time>``); returns
    its path. A function of the API, not a method of the result: the report is drawn from
    results, so results do not know the report (and ``simbalance.report`` is the report package)."""
    from simbalance.report.run_folder import claim_out_dir, write_run_folder

    with claim_out_dir(Path(out) if out is not None else None, result.game) as target:
        return write_run_folder(result, target, command="simbalance.write_report() from Python",
                                write_games=result.write_games)


__all__ = [
    "MAX_SEED", "CardValueResult", "ComparisonResult", "ConfigError", "RunPlan", "RunSettings", "SimbalanceError", "SimulationResult", "SkillResult", "SolveResult",
    "SweepResult", "TournamentResult", "TuneResult", "card_value", "check_n", "check_seed", "compare", "plan_run", "same_games",
    "simulate", "skill", "solve", "strong_play", "summarize_run", "sweep", "tournament", "tune", "write_report",
]
__all__ += sorted(set(STUDIES) - set(__all__))
