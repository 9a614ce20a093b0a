"""``simbalance fit-eval``: play heuristic games, record and fit the evaluation a search seat scores
its cut play-outs with (docs/strategies.md, "The fitted evaluation"); the recording, the fit and the
rule that no run uses a stale fit are studies/evaluation.py's."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from simbalance.core.blocks import BlockSettings
from simbalance.core.errors import SimbalanceError
from simbalance.core.plan import check_whole
from simbalance.core.runner import ProgressFactory
from simbalance.core.study import Study
from simbalance.studies.evaluation import (
    FIT_GAMES,
    MAX_FIT_GAMES,
    FitEvalResult,
    default_strategies,
    record_and_fit,
    seated,
)
from simbalance.studies.settings import RunSettings, plan_run


def fit_eval(game: str | RunSettings, games: int = FIT_GAMES, strategies: list[str] | str | None = None, *,
             progress: ProgressFactory | None = None, stop: Callable[[], bool] | None = None,
             checkpoints: str | Path | None = None, **settings) -> FitEvalResult:
    """Play ``games`` games of heuristics (``strategies``, seats rotated; default:
    ``default_strategies``), record, fit and score (module doc). The settings (seed, players,
    overrides, variants, config, threads, backend) are a run's: the games play on its threads or
    backend (core/blocks.py), the same games on any. ``stop``: asked between blocks (Ctrl-C:
    RunInterrupted); ``checkpoints``: a folder where the finished blocks are kept, so that the same
    call after a stop plays only the rest."""
    settings = RunSettings.of(game, **settings)
    games = check_whole("--games", games, 10, MAX_FIT_GAMES)
    from simbalance.games.registry import get_game

    spec = get_game(settings.game)
    engine = spec.load()
    if engine.search is None:
        raise SimbalanceError(f"{spec.id} has no search players (no decisions): there is no evaluation to fit")
    names = [strategies] if isinstance(strategies, str) else list(strategies or [])
    searching = [name for name in names if name in engine.strategies and engine.is_search(name)]
    if searching:
        raise SimbalanceError(f"fit-eval plays heuristics; {searching[0]} is a search player (the fit is for its "
                              "play-outs, which heuristics play)")
    if not names:  # the default: every heuristic but random, in turn on the seats
        players = plan_run(settings, 1, strategies=default_strategies(engine)[0]).players
        names = seated(default_strategies(engine), players)
    plan = plan_run(settings, games, strategies=names if len(names) > 1 else names[0], rotate=len(set(names)) > 1)
    if engine.searches(plan.lineup):  # a preset of a search player
        raise SimbalanceError("fit-eval plays heuristics; a search player's preset is among --strategies")
    how = BlockSettings.of(plan, stop, checkpoints)
    result = record_and_fit(spec.id, engine, plan.config, plan.players, plan.lineup, plan.prepared, games,
                            settings.seed, progress, how)
    how.finish()  # fitted: the recorded blocks kept for a Ctrl-C are not needed any more
    return result


# The contract (core/study.py): the command is still written by hand (not yet on declared params).
STUDY = Study("fit-eval", rank=110, command="simbalance.cli.fit_eval_cmd:fit_eval", api=fit_eval,
              example=('captain-action', '--games', '20'))
