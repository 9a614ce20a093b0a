"""Robustness: the same seats under several player models, and whether the seat conclusions hold
under all of them (analysis/robustness.py).

The models by default: all seats random, all seats one heuristic (each of the game's heuristics,
presets left out) and all seats a search player at one budget (``mcts@<budget>``, where the game has
search players). A search model plays until every seat's win-rate 95% CI half-width is below
``precision`` (core/execution's precision target, on growing chunks: about 800 games at 4 seats and
3 points), at most ``search_n`` games (its seats search at every decision: far slower); the others
play ``n``. Every model plays the same seed and game indices.

``strong_play`` is the same search model for `simbalance run GAME --robust`: a sample beside a run,
on a seed of its own, whose numbers say whether the run's seat findings hold under strong play
(analysis/robustness.strong_play_findings).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import pandas as pd

from simbalance.analysis.findings import Finding, thresholds
from simbalance.analysis.robustness import (
    MODEL_COLUMNS,
    SEAT_COLUMNS,
    StrongPlay,
    conclusions,
    model_tables,
    robustness_findings,
)
from simbalance.core.errors import SimbalanceError, did_you_mean
from simbalance.core.execution import RunOptions, precision_reached
from simbalance.core.lineup import all_strategies
from simbalance.core.plan import MAX_BUDGET, check_precision, check_whole
from simbalance.core.rng import derive_seed
from simbalance.core.runner import MAX_GAMES, ProgressFactory
from simbalance.core.study import Study, StudyParams, option
from simbalance.studies.ladder import BUDGET_PARAMS, budget_preset
from simbalance.studies.run import play
from simbalance.studies.settings import RunSettings, api_entry

SEARCH_PRECISION = 0.03  # a search model plays until every seat's 95% CI half-width is below 3 points
SEARCH_MOST = 5_000  # ... or this many games (at 4 seats about 800 games reach 3 points)


@dataclass
class RobustnessResult:
    game: str
    players: int
    models: pd.DataFrame  # MODEL_COLUMNS, one row per player model
    seats: pd.DataFrame  # SEAT_COLUMNS, one row per model and seat
    conclusions: list[dict]  # analysis/robustness.conclusions
    n: int
    search_n: int  # the most games of a search model
    seed: int
    config: dict = field(default_factory=dict)
    precision: float = SEARCH_PRECISION  # a search model plays until every seat's 95% CI half-width is below it
    capped: tuple[str, ...] = ()  # the search models the cap (search_n) stopped before the precision
    # each search model's fitted evaluation (studies/evaluation.provenance: committed or refitted for
    # these rules, its games, seed, rules digest, fit quality; None: the hand-written one; issue 53)
    evaluations: dict = field(default_factory=dict)

    def findings(self) -> list[Finding]:
        """Each seat conclusion that depends on the players, or that all of them hold."""
        return robustness_findings(self.conclusions, self.models, thresholds(self.config))


def default_models(cfg: dict, engine, search: str | None, budget: int) -> tuple[list[str], dict[str, dict]]:
    """The model names and the presets they need: random, every heuristic, ``<search>@<budget>``."""
    infos = all_strategies(cfg, engine.strategies, engine.strategy_params)
    names = [n for n, i in infos.items() if not i.preset and not engine.is_search(i.base)]
    presets = {}
    if engine.search is not None and search:
        info = infos[search]
        name = f"{search}@{budget}"
        presets[name] = budget_preset(info, BUDGET_PARAMS[info.base], budget)
        names.append(name)
    return names, presets


def at_budget(name: str, infos: dict, engine) -> dict | None:
    """The preset of a model written ``<search player>@<budget>`` (``mcts@32``, as the page names a
    search model), or None for any other name; a budget that is not a whole number in range is an error."""
    search, at, budget = name.partition("@")
    if not at or search not in infos or not engine.is_search(infos[search].base):
        return None
    if not budget.isdigit():
        raise SimbalanceError(f"--models {name}: the budget after @ is a whole number, e.g. {search}@32")
    info = infos[search]
    return budget_preset(info, BUDGET_PARAMS[info.base], check_whole(f"--models {name}: the budget", int(budget),
                                                                      1, MAX_BUDGET))


@dataclass(frozen=True)
class RobustnessParams(StudyParams):
    """The robustness study's parameters, in the order of its options; the API takes n by position."""

    models: str | tuple[str, ...] | None = option(
        None, help="Player models, comma-separated strategy names, each played at every seat (default: random, "
                   "every heuristic, and the search player at --budget).")
    search: str = option("mcts", help="The search player of the default models.")
    budget: int = option(100, kind=int, help="The search player's budget in the default models.")
    n: int = option(20_000, count=True, positional=True, shown="2e4", help="Games per player model.")
    precision: float = option(SEARCH_PRECISION, kind=float,
                              help="A search player's model plays until every seat's win-rate 95% CI half-width is "
                                   "below this (0.03: 3 points, about 800 games at 4 seats), at most --search-n "
                                   "games.")
    search_n: int = option(SEARCH_MOST, flag="--search-n", count=True, shown=str(SEARCH_MOST),
                           help="The most games of a search player's model (it searches at every seat and "
                                "decision): the cap if --precision is not reached first.")

    def check(self) -> None:
        object.__setattr__(self, "budget", check_whole("--budget", self.budget, 1, MAX_BUDGET))
        object.__setattr__(self, "precision", check_precision("--precision", self.precision))


def run_robustness(settings: RunSettings, params: RobustnessParams,
                   progress: ProgressFactory | None = None) -> RobustnessResult:
    """Play every player model (``models``: strategy names, default ``default_models``) at every
    seat and check the seat conclusions across them: a heuristic model ``n`` games, a search model
    until every seat's 95% CI half-width is below ``precision``, at most ``search_n`` games."""
    n, models, search, budget, search_n, precision = (params.n, params.models, params.search, params.budget,
                                                      params.search_n, params.precision)
    base = settings.plan(1)
    engine, p = base.engine, base.players
    infos = all_strategies(base.config, engine.strategies, engine.strategy_params)
    if engine.search is not None and search not in infos:
        searching = [n for n, i in infos.items() if engine.is_search(i.base)]
        raise SimbalanceError(f"--search {search!r}: not a strategy of {base.spec.id}{did_you_mean(search, infos)}; "
                              f"search players: {', '.join(searching)}")
    if engine.search is not None and not engine.is_search(infos[search].base):
        raise SimbalanceError(f"--search {search!r}: a heuristic, not a search player (mcts, flat or their presets)")
    names, presets = default_models(base.config, engine, search, budget)
    if models is not None:
        wanted = [m.strip() for m in models.split(",")] if isinstance(models, str) else list(models)
        allowed = {**infos, **presets}
        for m in wanted:
            budgeted = at_budget(m, infos, engine)  # the page's own spelling: mcts@32 without --budget 32
            if budgeted is not None:
                presets[m] = allowed[m] = budgeted
            if m not in allowed:
                raise SimbalanceError(f"--models: unknown strategy {m!r}{did_you_mean(m, allowed)}; known: "
                                      f"{', '.join(allowed)}")
        if len(wanted) < 2 or len(set(wanted)) != len(wanted):
            raise SimbalanceError(f"--models {','.join(wanted)}: give at least two different player models")
        names = wanted
    if len(names) < 2:  # a game whose players have no decisions (find-dr-evil): nothing to compare (qa53)
        raise SimbalanceError(f"robustness {base.spec.id}: one player model only ({', '.join(names)}): the game gives "
                              "its players no decisions to play differently, so no conclusion can depend on them")
    seat_frames, rows, capped, searched, evaluations = [], [], [], [], {}
    for name in names:
        is_search = name in presets or engine.is_search(infos[name].base)
        if is_search:
            searched.append(name)
        plan = settings.but(players=p, seed=derive_seed(settings.seed, "robustness")).plan(
            search_n if is_search else n, presets=presets, strategies=[name])
        if is_search:
            result = play(plan, progress, search_label(base.spec.id, name, precision, search_n),
                          RunOptions(precision=precision))
            if not precision_reached(result.aggregate, precision):
                capped.append(name)
            evaluations[name] = result.plan.search_eval_source  # the readied plan's: a refit is known once it ran
        else:
            result = play(plan, progress, f"{base.spec.id}: all {name}")
        seats, row = model_tables(name, result.aggregate)
        seat_frames.append(seats)
        rows.append(row)
    table = pd.DataFrame(rows, columns=MODEL_COLUMNS)
    seats = pd.concat(seat_frames, ignore_index=True)[SEAT_COLUMNS]
    return RobustnessResult(base.spec.id, p, table, seats, conclusions(table, seats, tuple(searched)), n, search_n,
                            settings.seed, base.config, precision, tuple(capped), evaluations)


def search_label(game: str, model: str, precision: float, most: int) -> str:
    """The progress label of a search model's games: the target it plays to, and its cap (the bar's
    total is the cap: the run stops as soon as the target is met)."""
    return f"{game}: all {model} (until ±{100 * precision:g} pts, at most {most:,})"


def strong_play(
    settings: RunSettings,
    search: str = "mcts",
    budget: int = 100,
    *,
    precision: float = SEARCH_PRECISION,
    most: int = SEARCH_MOST,
    progress: ProgressFactory | None = None,
    options: RunOptions | None = None,
) -> StrongPlay | None:
    """The sample of `simbalance run GAME --robust`: every seat ``<search>@<budget>``, played as
    robustness plays its search model (until every seat's 95% CI half-width is below ``precision``,
    at most ``most`` games), on its own seed (``derive_seed(seed, "robust")``: the run's own games
    stay the same with and without it). None for a game without decisions (no search player: the
    players change nothing). ``options``: checkpoints, a stop (core/execution.RunOptions)."""
    budget = check_whole("--robust-budget", budget, 1, MAX_BUDGET)
    precision = check_precision("--robust-precision", precision)
    most = check_whole("--robust-n", most, 1, MAX_GAMES)
    base = settings.plan(1)
    engine = base.engine
    if engine.search is None:
        return None
    infos = all_strategies(base.config, engine.strategies, engine.strategy_params)
    if search not in infos or not engine.is_search(infos[search].base):
        raise SimbalanceError(f"--robust {search!r}: not a search player of {base.spec.id}")
    name = f"{search}@{budget}"
    presets = {name: budget_preset(infos[search], BUDGET_PARAMS[infos[search].base], budget)}
    seed = derive_seed(settings.seed, "robust")
    plan = settings.but(seed=seed).plan(most, presets=presets, strategies=[name])
    result = play(plan, progress, search_label(base.spec.id, name, precision, most),
                  replace(options or RunOptions(), precision=precision))
    # the readied plan's (a refit, when these rules needed one, is known only once it ran)
    return replace(StrongPlay.of(name, result.aggregate, precision, most, seed),
                   evaluation=result.plan.search_eval_source)


STUDY = Study(
    "robustness", rank=90, params=RobustnessParams, run=run_robustness, stoppable=True,
    summary="""Balance under several player models: the same seats played by all random, each heuristic and a
    search player; says whether the seat ranking and the first-player effect hold under all of them;
    writes robustness.html.""",
    writer="simbalance.report.robustness_page:write_robustness_folder", page="robustness.html",
    view="simbalance.cli.robustness_cmd:show",
    out_help="Output folder: robustness.html, robustness.json, findings.json (default: "
             "reports/robustness-<game>-<time>).",
    example=("captain-action", "--n", "10"),
)
robustness = api_entry(STUDY)
