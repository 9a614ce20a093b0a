"""``simbalance fit-eval``: play heuristic games, record and fit the evaluation a search seat scores
its cut play-outs with (docs/strategies.md, "The fitted evaluation"); the recording, the fit and the
rule that no run uses a stale fit are studies/evaluation.py's.

Its ``--out`` is one file, eval.json (default: the game's own ``configs/<game>/eval.json``, which
runs read), not a folder: the study declares ``out_file`` (core/study.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from simbalance.core.blocks import BlockSettings, check_not_stopped
from simbalance.core.errors import SimbalanceError
from simbalance.core.plan import check_whole
from simbalance.core.runner import ProgressFactory
from simbalance.core.study import Study, StudyParams, names_of, option, stop_requested
from simbalance.studies.evaluation import (
    FIT_GAMES,
    MAX_FIT_GAMES,
    FitEvalResult,
    default_strategies,
    record_and_fit,
    seated,
)
from simbalance.studies.settings import RunSettings, api_entry, plan_run


@dataclass(frozen=True)
class FitEvalParams(StudyParams):
    """fit-eval's parameters; the API takes both by position after the game, as it always has."""

    games: int = option(FIT_GAMES, flag="--games", count=True, positional=True,
                        help="Games of heuristics to record (a fifth held out for the accuracy): 20000, 2e4 or "
                             "20_000.")
    strategies: str | tuple[str, ...] | None = option(
        None, positional=True, help="Heuristics, comma-separated, one per seat or one for all (seats rotated; "
                                    "default: every heuristic but random, in turn).")

    def check(self) -> None:
        check_whole("--games", self.games, 10, MAX_FIT_GAMES)
        names_of(self.strategies, "--strategies")


def run_fit_eval(settings: RunSettings, params: FitEvalParams, progress: ProgressFactory | None = None, *,
                 stop: Callable[[], bool] | None = None, checkpoints: str | Path | None = None) -> FitEvalResult:
    """Play ``games`` games of heuristics (``strategies``, seats rotated; default:
    ``default_strategies``), record, fit and score (module doc). The settings (seed, players,
    overrides, variants, config, threads, backend) are a run's: the games play on its threads or
    backend (core/blocks.py), the same games on any. ``stop``: asked between blocks and once more
    when every game is recorded (Ctrl-C: RunInterrupted, the blocks kept); ``checkpoints``: a folder
    where the finished blocks are kept, so that the same call after a stop plays only the rest."""
    from simbalance.games.registry import get_game

    games = params.games
    spec = get_game(settings.game)
    engine = spec.load()
    if engine.search is None:
        raise SimbalanceError(f"{spec.id} has no search players (no decisions): there is no evaluation to fit")
    names = names_of(params.strategies, "--strategies") or []
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
    stop = stop if stop is not None else stop_requested  # the command's Ctrl-C (core/study.stopping)
    how = BlockSettings.of(plan, stop, checkpoints)
    result = record_and_fit(spec.id, engine, plan.config, plan.players, plan.lineup, plan.prepared, games,
                            settings.seed, progress, how)
    check_not_stopped(stop, games, "games", checkpoints)  # a Ctrl-C as the last block finished: never ignored
    how.finish()  # fitted: the recorded blocks kept for a Ctrl-C are not needed any more
    return result


def default_eval_file(game: str) -> Path:
    """fit-eval's ``--out`` when none is given: the game's committed fit, which runs read."""
    from simbalance.studies.evaluation import eval_path

    return eval_path(game)


STUDY = Study(
    "fit-eval", rank=110, params=FitEvalParams, run=run_fit_eval, stoppable=True, keeps_blocks=True,
    summary="""Play heuristic games, record each seat's features at cuts spread over every game and its final
    share of the win, fit a conditional logit (held-out log-loss, accuracy and calibration beside
    the game's hand-written evaluation) and write eval.json: what a search seat with depth > 0 then
    scores a cut play-out with.""",
    writer="simbalance.studies.evaluation:write_eval_file", page="eval.json",
    out_file="simbalance.studies.fit_eval:default_eval_file",
    view="simbalance.cli.fit_eval_cmd:show",
    out_help="The file to write (default: configs/<game>/eval.json, which runs read).",
    example=("captain-action", "--games", "20"),
)
fit_eval = api_entry(STUDY)
