"""The run study (``simbalance run``, ``simbalance.api.simulate``): its parameters, declared once
(``RunParams``), the API's run (``play_run``) and its ``STUDY`` (core/study.py). A module of its own
above studies/run.py, which every study plays through: the run's robust sample is robustness's, and
robustness plays through studies/run.py (tests/test_imports.py: no circle).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from simbalance.core.errors import SimbalanceError
from simbalance.core.execution import RunOptions
from simbalance.core.plan import MAX_BUDGET, RunPlan, check_precision, check_whole
from simbalance.core.runner import ProgressFactory
from simbalance.core.study import Study, StudyParams, option
from simbalance.studies.robustness import SEARCH_MOST, SEARCH_PRECISION, strong_play
from simbalance.studies.run import SimulationResult, play
from simbalance.studies.settings import RunSettings, api_entry, plan_run

MEMORY_SHARE = 0.4  # keep per-game records only while they fit comfortably in memory
ROBUST_BUDGET = 100  # --robust alone: mcts@100, the search player at 100 iterations a decision
ROBUST = ("robust_budget", "robust_precision", "robust_n")  # the search sample's settings: only with robust


@dataclass(frozen=True)
class RunParams(StudyParams):
    """What a run plays and keeps beyond the settings every study shares (studies/settings.RunSettings):
    the one object of a run's own options, checked once (``__post_init__``), from the command line,
    the API (``simulate``) or a checkpoint (``run --resume``). A checkpoint stores them with the
    settings' identity, so that ``--resume`` asks for exactly the same run again."""

    n: int = option(100_000, count=True, shown="1e5", positional=True,
                    help="Number of games: 1e6, 1_000_000 or 1000000 (the most, with --precision).")
    strategies: str | None = option(None, help="Strategy per seat, comma-separated (one name: every seat).")
    rotate: bool = option(False, kind=bool, help="Play every seat permutation of the strategies equally often.")
    strategy_file: str | None = option(None, help="Your own @njit strategy, path.py:function; seat it as 'plugin' in "
                                                  "--strategies (see examples/).")
    chunk_size: int | None = option(None, kind=int,
                                    help="Games per chunk (progress and checkpoints; no effect on results).")
    games_file: bool = option(True, flag="--games", kind=bool, help="Write the games (one row per game) as Parquet.")
    stream: bool | None = option(None, kind=bool, help="Keep no per-game records in memory (default: only when they "
                                 "would not fit); games go to Parquet shards as chunks finish.")
    precision: float | None = option(None, kind=float, help="Stop once every win-rate 95% CI half-width is below "
                                     "this (--n is the most).")
    # robust: a search sample beside the run (studies/robustness.strong_play), every seat
    # mcts@robust_budget, until every seat's 95% CI half-width is below robust_precision, at most
    # robust_n games; its seed is derived from the run's, so the run's own games do not change
    robust: bool = option(False, kind=bool, negatable=False, help=(
        "Check the seat finding and the first-player effect under strong play: beside the run, play every seat "
        "mcts@100 (a search player) until each seat's 95% CI half-width is below 3 points, at most 5,000 games, on "
        "a seed of its own (the run's games stay the same), and say whether each holds there."))
    robust_budget: int | None = option(None, kind=int, help="With --robust: the search player's iterations per "
                                       "decision (default 100).")
    robust_precision: float | None = option(None, kind=float, help="With --robust: play until every seat's 95% CI "
                                            "half-width is below this (default 0.03).")
    robust_n: int | None = option(None, count=True, flag="--robust-n",
                                  help="With --robust: the most games of the search sample (default 5000).")
    validate: bool = option(False, kind=bool, help="Check the engine's invariants at every step (slower).")

    def __post_init__(self):
        # first, as before any value: a setting of the sample without --robust is an error, not ignored
        given = [f"--{name.replace('_', '-')}" for name in ROBUST if getattr(self, name) is not None]
        if given and not self.robust:
            raise SimbalanceError(f"{given[0]}: only with --robust (it sets the search sample --robust plays)")
        super().__post_init__()

    def check(self) -> None:
        set_ = lambda name, value: object.__setattr__(self, name, value)  # noqa: E731 (a frozen dataclass)
        if self.precision is not None:
            set_("precision", check_precision("--precision", self.precision))
        if self.robust:  # the sample's defaults, once: robustness's own search model
            set_("robust_budget", ROBUST_BUDGET if self.robust_budget is None
                 else check_whole("--robust-budget", self.robust_budget, 1, MAX_BUDGET))
            set_("robust_precision", SEARCH_PRECISION if self.robust_precision is None
                 else check_precision("--robust-precision", self.robust_precision))
            set_("robust_n", SEARCH_MOST if self.robust_n is None else self.robust_n)

    def plan(self, settings: RunSettings) -> RunPlan:
        """The validated run of these params with ``settings`` (plan_run: pure)."""
        return plan_run(settings, self.n, strategies=self.strategies, rotate=self.rotate, chunk_size=self.chunk_size,
                        validate=self.validate, strategy_file=self.strategy_file)

    def without_robust(self) -> RunParams:
        return self.but(robust=False, **dict.fromkeys(ROBUST))

    def keeps_records(self, plan: RunPlan) -> bool:
        """Whether the run keeps every game's record in memory (else it streams): ``stream`` as
        asked, and by default only while they fit; ``--no-stream`` past the memory is an error."""
        fits = records_fit(plan.n, plan.engine.record_dtype.itemsize)
        if self.stream is False and not fits:
            raise SimbalanceError(f"--n {plan.n:,} --no-stream: the records would not fit in memory; drop --no-stream")
        return self.stream is False or (self.stream is None and fits)


def records_fit(n: int, record_bytes: int) -> bool:
    """Whether keeping every record (plus the DataFrame and Parquet buffers) fits in memory."""
    import os

    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return True
    return n * record_bytes * 2 <= MEMORY_SHARE * total


def play_run(settings: RunSettings, params: RunParams, progress: ProgressFactory | None) -> SimulationResult:
    """The API's run (``simulate``): the plan, its games (kept or streamed as ``params`` say, to a
    precision target if one is given), and with ``robust`` the search sample beside them. The
    command plays the same plan through its own steps (cli/run_cmd.py: a checkpoint, --resume)."""
    plan = params.plan(settings)
    if params.robust and plan.engine.search is None:
        raise SimbalanceError(f"robust = True: {plan.spec.id} has no decisions (no search player), so its players "
                              "change nothing")
    options = RunOptions(keep_games=params.keeps_records(plan), precision=params.precision)
    result = replace(play(plan, progress, plan.spec.id, options), write_games=params.games_file)
    if params.robust:
        result = replace(result, strong_play=strong_play(settings, "mcts", params.robust_budget,
                                                         precision=params.robust_precision, most=params.robust_n,
                                                         progress=progress))
    return result


# The contract (core/study.py): the options and the API entry come from RunParams; the command's
# steps are its own (cli/run_cmd.run_steps: the checkpoint, --resume, streamed shards, the robust
# sample's checkpoint, the run folder).
STUDY = Study("run", rank=10, params=RunParams, run=play_run, api_name="simulate", steps="simbalance.cli.run_cmd:run_steps",
              resumable=True, out_after="n", quiet="Print only the run folder's path.", stoppable=True,
              summary="Play N games of GAME, print the summary and write a run folder with the report.",
              out_help="Run folder (default: reports/<game>-<time>).", page="report.html",
              example=('find-dr-evil', '--n', '200'))
simulate = api_entry(STUDY)
