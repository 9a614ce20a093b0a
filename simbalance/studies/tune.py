"""Tune: search a strategy's parameters (cross-entropy method on common random numbers) to
maximise its win rate against a field, then test the best against the default on fresh seeds and
alone against every strategy, its own default included (analysis/tune.py).

The candidate sits in a slot of its own, ``"<name> (tuned)"``, whose parameters are the candidate's:
the field may hold the same strategy with its default parameters (``--field builder`` while tuning
builder), which stays a slot of its own. The reported set is the best candidate rounded to
``analysis.tune.DIGITS`` significant digits, and every reported rate is of exactly that set.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

from simbalance.analysis.compare import paired_test
from simbalance.analysis.findings import Finding, p_value, thresholds
from simbalance.analysis.metrics import strategy_table
from simbalance.analysis.tune import (
    DOMINANCE_MARGIN,
    DOMINATES,
    check_margin,
    cross_entropy,
    describe_gain,
    generation_line,
    overall,
    played_value,
    rounded,
    search_space,
    standing,
    tune_findings,
)
from simbalance.core.errors import SimbalanceError, did_you_mean
from simbalance.core.execution import RunOptions
from simbalance.core.lineup import MAX_PARAMS, Lineup, StrategyInfo, all_strategies, numeric_only, param_row
from simbalance.core.plan import RunPlan, check_whole
from simbalance.core.records import seat_share
from simbalance.core.rng import derive_seed
from simbalance.core.runner import MAX_GAMES, MAX_GAMES_TEXT, ProgressFactory
from simbalance.core.study import Study, StudyParams, option, stop_requested
from simbalance.studies.run import OneDisplay, play
from simbalance.studies.settings import RunSettings, api_entry

MAX_GENERATIONS = 1000  # the cross-entropy method settles in tens of generations
MAX_POPULATION = 10_000


def tuned_name(strategy: str) -> str:
    """The candidate's slot name: distinct from ``strategy`` itself (its default copies)."""
    return f"{strategy} (tuned)"


def candidate_lineup(plan: RunPlan, infos: dict[str, StrategyInfo], strategy: str, vector: np.ndarray,
                     field_names: list[str]) -> Lineup:
    """Slot 0 is the candidate (``strategy``'s heuristic with ``vector``), then the distinct field
    names with their own parameters; every distinct seat permutation once (rotated). The field may
    name ``strategy`` too: that slot keeps the default parameters."""
    field_slots = tuple(dict.fromkeys(field_names))
    names = (tuned_name(strategy), *field_slots)
    bases = [infos[strategy].base] + [infos[f].base for f in field_slots]
    params = np.zeros((len(names), MAX_PARAMS), dtype=np.float64)
    params[0, : len(vector)] = vector
    for i, f in enumerate(field_slots, start=1):
        row = param_row(infos, plan.engine.strategies, f)
        params[i, : len(row)] = row
    seats = (0, *(1 + field_slots.index(f) for f in field_names))
    return Lineup(
        slot_names=names,
        slot_strategy=np.array([plan.engine.strategies[b] for b in bases], dtype=np.int32),
        slot_params=params,
        param_names={names[0]: tuple(infos[strategy].params), **{f: tuple(infos[f].params) for f in field_slots}},
        seats=np.array(sorted(set(itertools.permutations(seats))), dtype=np.int8),
        rotate=True,
    )


@dataclass
class TuneResult:
    game: str
    strategy: str
    field: list[str]
    params: list[str]
    default: dict[str, float]  # the strategy's own parameters (not clipped to --range)
    best: dict[str, float]  # the reported set, exactly as played in the final test and printed
    history: list[dict]
    default_win_rate: float
    best_win_rate: float
    margin: dict  # paired difference best - default on fresh seeds: diff, ci_low, ci_high, p_value
    dominance: pd.DataFrame  # best alone against each strategy: win rate with CI, edge, standing
    dominates_all: bool
    dominance_margin: float = DOMINANCE_MARGIN  # the least edge over the fair share called "dominates"
    players: int = 0
    base: str = ""  # the heuristic the strategy runs (itself, or a preset's base)
    config: dict = field(default_factory=dict)  # the resolved config (thresholds of the findings)
    n: int = 0  # games per candidate (the final test plays twice as many)
    seed: int = 0

    def findings(self) -> list[Finding]:
        """The tuned strategy dominating every strategy tested, a gain over the defaults
        (analysis/findings.py)."""
        return tune_findings(self.strategy, self.dominance, self.players, self.margin, thresholds(self.config),
                             self.dominance_margin)

    def label(self, name: str) -> str:
        """A strategy of the field or the dominance table: the tuned one's name is its defaults."""
        return f"{name} (default parameters)" if name == self.strategy else name

    def gain_text(self) -> str:
        """The best found against the defaults on fresh seeds, in one sentence with its numbers."""
        m = self.margin
        return (f"win rate on fresh seeds ({2 * self.n:,} games, the same for both): default "
                f"{self.default_win_rate:.2%}, best found {self.best_win_rate:.2%}: "
                f"{describe_gain(m['diff'], m['ci_low'], m['ci_high'], self.dominance_margin)}, "
                f"{p_value(m['p_value'])}")

    def verdict(self) -> str:
        """One sentence over the dominance table (analysis/tune.overall)."""
        return overall(self.dominance, self.dominance_margin, self.label)

    def preset(self) -> str:
        """The best found as a preset table for presets.toml: the values played."""
        return "\n".join([f"[{self.strategy}_tuned]", f'base = "{self.base}"',
                          *(f"{k} = {played_value(v)}" for k, v in self.best.items())])


@dataclass(frozen=True)
class TuneParams(StudyParams):
    """tune's parameters, in the order of its options; the API takes ``strategy`` and ``n`` by position
    (``tune(game, "builder", 2e4, field="random")``). ``field``: one name, or one name per other
    seat; it may name ``strategy`` itself, played with its default parameters. ``margin``: the
    least edge over the fair share that counts as dominating."""

    strategy: str = option(positional=True, help="The heuristic or preset whose parameters are searched.")
    n: int = option(20_000, shown="2e4", count=True, positional=True,
                    help="Games per candidate: 2e4, 20_000 or 20000.")
    field: str | tuple[str, ...] = option(
        "random", help="Opponents: one name for every other seat, or one per seat. It may name the tuned strategy "
                       "itself: those seats play its default parameters.")
    generations: int = option(6, kind=int, help="Cross-entropy generations.")
    population: int = option(12, kind=int, help="Candidates per generation.")
    ranges: tuple[str, ...] | None = option(None, flag="--range", kind=list,
                                            help="Search range name=low:high (repeatable).")
    margin: float = option(DOMINANCE_MARGIN, kind=float,
                           help="The least edge over the fair share called 'dominates', as a share of the games "
                                "(0.02 = 2 percentage points); the 95% CI's lower end must clear it too.")

    def check(self) -> None:
        object.__setattr__(self, "margin", check_margin(self.margin))
        object.__setattr__(self, "generations", check_whole("--generations", self.generations, 1, MAX_GENERATIONS))
        object.__setattr__(self, "population", check_whole("--population", self.population, 2, MAX_POPULATION))
        object.__setattr__(self, "ranges", tuple(self.ranges or ()))


def run_tune(settings: RunSettings, params: TuneParams, progress: ProgressFactory | None = None) -> TuneResult:
    """Search ``strategy``'s parameters (cross-entropy method on common random numbers) to maximise
    its win rate alone against ``field``, seats rotated. Then: the best against the default on
    fresh seeds (paired), and alone against every strategy. The whole tuning (every candidate, the
    final test, the dominance table) is one display of ``progress``; each generation's line goes to
    the display's ``note`` where it has one (cli/terminal.RichProgress prints it). Stopped (Ctrl-C
    on the command line, core/study.stopping from Python): after the chunk in play, RunInterrupted."""
    strategy, n, field, generations, population, ranges, margin = (
        params.strategy, params.n, params.field, params.generations, params.population, params.ranges, params.margin)
    base_plan = settings.plan(1)
    p = base_plan.players
    settings = settings.but(players=p)
    game = settings.game
    infos = all_strategies(base_plan.config, base_plan.engine.strategies, base_plan.engine.strategy_params)
    if strategy not in infos:
        raise SimbalanceError(f"--strategy: unknown strategy {strategy!r}{did_you_mean(strategy, infos)}; known: "
                              f"{', '.join(infos)}")
    field_names = [f.strip() for f in field.split(",")] if isinstance(field, str) else list(field)
    if len(field_names) == 1:
        field_names = field_names * (p - 1)
    if len(field_names) != p - 1:
        raise SimbalanceError(f"--field {','.join(field_names)}: give one name or {p - 1} names (one per other seat)")
    for name in field_names:
        if name not in infos:
            raise SimbalanceError(f"--field: unknown strategy {name!r}{did_you_mean(name, infos)}; known: "
                                  f"{', '.join(infos)}")
    info = infos[strategy]
    if not numeric_only(info):
        raise SimbalanceError(f"--strategy {strategy}: its parameters name another strategy (a search player's rollout); "
                              "only strategies with numeric parameters can be tuned")
    if not info.params:
        tunable = [n for n, i in infos.items() if i.params and numeric_only(i)]
        raise SimbalanceError(f"--strategy {strategy}: this strategy has no parameters to tune; "
                              + (f"strategies with parameters: {', '.join(tunable)}" if tunable else "this game's have none"))
    space = search_space(info.params, ranges)
    default = np.array(list(info.params.values()), dtype=np.float64)
    # The dominance table plays the tuned set against every heuristic and preset, not the search
    # players (a search seat plays thousands of times slower: ladder and tournament measure them).
    opponents = [name for name, i in infos.items() if not base_plan.engine.is_search(i.base)]
    total = generations * population * n + 2 * (2 * n) + len(opponents) * n
    if total > MAX_GAMES:
        raise SimbalanceError(f"tune: {generations:,} generations of {population:,} candidates at {n:,} games each "
                              f"are {total:,} games; at most {MAX_GAMES_TEXT}")
    # the whole search is one display: every run's games added to those of the runs before it
    shown = OneDisplay(progress, f"tune {game}", total) if progress is not None else None
    note = getattr(shown.shown, "note", None) if shown is not None else None

    try:
        def per_game_share(vector, run_seed, count, field_list, label):
            plan = settings.but(seed=run_seed).plan(count, strategies=[strategy] + field_list)
            plan = replace(plan, lineup=candidate_lineup(plan, infos, strategy, vector, field_list))
            # studies/run.play, as compare's and sweep's runs: a stop names the run in play (``label``) and
            # counts the study's games (it said "interrupted after 0 of 4,000 games", one candidate's, qa54b)
            result = play(plan.ready(progress), shown, label, RunOptions(stop=stop_requested))
            winners = result.games["winners"].to_numpy()
            share = np.zeros(count)
            for s in range(p):
                share += np.where(result.games[f"strategy_{s}"].to_numpy() == 0, seat_share(winners, s), 0.0)
            return share, result, plan

        def evaluate(vector, generation):
            share, _, _ = per_game_share(vector, derive_seed(settings.seed, "tune generation", generation), n, field_names,
                                         f"a candidate of generation {generation}")
            return float(share.mean())

        found, _, history = cross_entropy(space, evaluate, generations, population,
                                          derive_seed(settings.seed, "tune search"),
                                          (lambda row: note(generation_line(row))) if note is not None else None)
        best = rounded(found)  # the set reported, printed and played below: the same numbers
        fresh = derive_seed(settings.seed, "tune final")
        final_n = 2 * n
        default_share, _, _ = per_game_share(default, fresh, final_n, field_names, "the defaults on fresh games")
        best_share, _, _ = per_game_share(best, fresh, final_n, field_names, "the tuned set on fresh games")
        gain = paired_test(default_share, best_share)
        fair = 1.0 / p
        rows = []
        for other in opponents:  # the strategy itself too: the tuned set against its own default copies
            _, result, plan = per_game_share(best, derive_seed(settings.seed, "tune dominance"), n, [other] * (p - 1),
                                             f"the tuned set against {other}")
            row = strategy_table(result.games, p, plan.lineup.slot_names).iloc[0]
            rate, lo, hi = (float(row[k]) for k in ("win_rate_decided", "decided_ci_low", "decided_ci_high"))
            kind = standing(lo - fair, hi - fair, margin)
            rows.append({"against": other, "win_rate": rate, "ci_low": lo, "ci_high": hi, "edge": rate - fair,
                         "edge_ci_low": lo - fair, "edge_ci_high": hi - fair, "standing": kind,
                         "dominates": kind == DOMINATES, "seat_games": int(row["decided_seat_games"])})
        dominance = pd.DataFrame(rows, columns=["against", "win_rate", "ci_low", "ci_high", "edge", "edge_ci_low",
                                                "edge_ci_high", "standing", "dominates", "seat_games"])
    finally:
        if shown is not None:
            shown.close()
    return TuneResult(game, strategy, field_names, space.names, dict(zip(space.names, default.tolist(), strict=True)),
                      dict(zip(space.names, best.tolist(), strict=True)), history, float(default_share.mean()),
                      float(best_share.mean()), gain, dominance, bool(dominance["dominates"].all()), margin, p,
                      info.base, base_plan.config, n, settings.seed)


STUDY = Study(
    "tune", rank=70, params=TuneParams, run=run_tune, stoppable=True,
    summary="""Search a strategy's parameters (cross-entropy method, common random numbers) to maximise its
    win rate against the field; report the best found (the exact values played and printed), its
    gain over the defaults with a CI on fresh seeds, and how it fares alone against every strategy
    ('dominates' only by at least --margin above the fair share, CI included).""",
    writer="simbalance.report.tune_page:write_tune_folder", page="tune.html",
    view="simbalance.cli.tune_cmd:show",
    out_help="Output folder: tune.html, tune.json, findings.json (default: reports/tune-<game>-<time>).",
    example=("captain-action", "--strategy", "builder", "--n", "100", "--generations", "1"),
)
tune = api_entry(STUDY)  # the API function, made from the params
