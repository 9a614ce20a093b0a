"""The metagame (issue 55; docs/meta.md): is there a strategy that beats everything, what do players
who adapt converge to, and is the game fair when they do.

Every composition of the population at the table (a multiset of strategies of the table size: 6
strategies at 4 seats make 126) plays ``n`` games, its seats rotated (every seating of it equally
often) and on the same seed and game indices as every other composition (common random numbers:
game ``g`` is dealt alike in all of them). The games give the heuristic payoff table
(analysis/meta.MetaTable); everything else is computed from it (analysis/meta.py).

The default population is every heuristic and every preset of the game that is not a search player
(``simbalance strategies GAME``). A search player costs a hundred to a thousand times a
heuristic's game, so it joins only when asked: ``--search mcts@32`` adds ``mcts`` (or any search
preset) at that budget, named ``mcts@32`` as the ladder names its budgets.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from simbalance.analysis.findings import Finding, thresholds
from simbalance.analysis.meta import (
    MetaAnswer,
    MetaTable,
    analyse,
    composition_label,
    compositions,
    dominance,
    field_matrix,
    judge_matrix,
    meta_findings,
    payoff_records,
    read_target_matrix,
)
from simbalance.core.blocks import BlockCheckpoint, cache_root
from simbalance.core.errors import RunInterrupted, SimbalanceError, did_you_mean
from simbalance.core.execution import RunOptions
from simbalance.core.lineup import all_strategies
from simbalance.core.plan import MAX_BUDGET
from simbalance.core.records import win_shares
from simbalance.core.rng import derive_seed
from simbalance.core.runner import ProgressFactory
from simbalance.core.study import Study, StudyParams, option
from simbalance.studies.ladder import BUDGET_PARAMS, budget_preset
from simbalance.studies.run import OneDisplay, play
from simbalance.studies.settings import RunSettings, api_entry

MAX_COMPOSITIONS = 2_000  # beyond this the table is too large to play whole: fewer strategies


@dataclass
class MetaResult:
    """The played table and what was computed from it."""

    game: str
    players: int
    n: int  # games per composition
    seed: int
    table: MetaTable
    answer: MetaAnswer
    config: dict = field(default_factory=dict)
    seconds: float = 0.0
    search: str | None = None
    dominance: tuple | None = None  # (the best strategy, its margin over an even field: analysis/meta.dominance)
    target_matrix: pd.DataFrame | None = None  # the designer's target cells, judged (analysis/meta.judge_matrix)

    @property
    def names(self) -> tuple[str, ...]:
        return self.table.names

    @property
    def measured_with(self) -> str:
        copies = self.answer.copies
        counted = ("" if copies is None or copies.empty else
                   "; " + ", ".join(f"{r.copy} counted as {r.plays_as}" for r in copies.itertuples()))
        return f"the population {', '.join(self.names)} at {self.players} seats{counted}"

    def payoffs(self) -> pd.DataFrame:
        return payoff_records(self.table)

    def field(self) -> pd.DataFrame:
        return field_matrix(self.table)

    def findings(self) -> list[Finding]:
        """A dominant strategy, the equilibrium, strategies no equilibrium uses, cycles, strategies
        that play alike, the seats under the equilibrium (analysis/meta.meta_findings)."""
        return meta_findings(self.answer, thresholds(self.config), self.measured_with, self.target_matrix)

    def tables(self) -> list[tuple[str, pd.DataFrame]]:
        return [("equilibrium and α-Rank", self.answer.weights),
                ("one against the field (per-seat win share)", self.field()),
                ("seats under the equilibrium", self.answer.seats)]

    def numbers(self) -> dict:
        """meta.json: what ran and everything computed, JSON-ready."""
        a = self.answer
        return {"game": self.game, "players": self.players, "population": list(self.names),
                "games_per_composition": self.n, "compositions": len(self.table.counts), "seed": self.seed,
                "search": self.search,
                "equilibria": [dict(zip(a.names, map(float, e), strict=True)) for e in a.equilibria],
                "copies": [] if a.copies is None else a.copies.to_dict(orient="records"),
                "reported_equilibrium": "the only one found" if len(a.equilibria) == 1 else "the most even found",
                "strategies": a.weights.to_dict(orient="records"),
                "dominant": a.dominant, "alike": [list(p) for p in a.alike], "cycles": [list(c) for c in a.cycles],
                "beats": a.edges.to_dict(orient="records"),
                "seats_under_equilibrium": a.seats.to_dict(orient="records"),
                "seat_gap": {"gap": a.seat_gap.estimate, "ci_low": a.seat_gap.low, "ci_high": a.seat_gap.high,
                             "best_seat": a.best_seat, "worst_seat": a.worst_seat},
                "dominance": None if self.dominance is None else {
                    "strategy": self.dominance[0], "margin_over_even_field": self.dominance[1].estimate,
                    "ci_low": self.dominance[1].low, "ci_high": self.dominance[1].high},
                "target_matrix": None if self.target_matrix is None else self.target_matrix.to_dict(orient="records"),
                "elapsed_s": self.seconds}


def parse_search(text: str, infos: dict, engine, game: str) -> tuple[str, dict]:
    """``mcts@32`` -> the name and the preset of the search player at that budget (as the ladder's)."""
    name, sep, budget = text.partition("@")
    searches = [n for n, info in infos.items() if engine.is_search(info.base)]
    if not searches:
        raise SimbalanceError(f"--search {text}: {game} has no search players")
    if name not in searches or not sep:
        raise SimbalanceError(f"--search {text}: give a search player and its budget, e.g. {searches[0]}@32"
                              f"{did_you_mean(name, searches)}; known: {', '.join(searches)}")
    try:
        value = int(budget)
    except ValueError:
        value = 0
    if not 1 <= value <= MAX_BUDGET:
        raise SimbalanceError(f"--search {text}: the budget must be a whole number from 1 to {MAX_BUDGET:,}")
    info = infos[name]
    return f"{name}@{value}", budget_preset(info, BUDGET_PARAMS[info.base], value)


@dataclass(frozen=True)
class MetaParams(StudyParams):
    strategies: tuple[str, ...] | str | None = option(
        None, help="The population, comma-separated (default: every heuristic and preset of the game that is not a "
                   "search player).")
    n: int = option(5_000, shown="5e3", count=True, help="Games per composition of the population at the table.")
    search: str | None = option(None, help="Add a search player at one budget to the population, e.g. mcts@32 "
                                           "(default: none; a search seat costs 100-1000x a heuristic's).")
    target_matrix: str | None = option(None, help="A target win-rate matrix: a .json or .toml (strategies, target: "
                                                  "rows of the row's strategy alone in a field of the column's, "
                                                  "tolerance) or a CSV strategy,field,target,tolerance: judged by "
                                                  "each cell's interval.")
    bootstrap: int = option(200, kind=int, help="Resamples of the games for the intervals of the equilibrium "
                                                "weights and ranks (0: none).")

    def check(self) -> None:
        given = self.strategies
        if given is not None:
            names = [s.strip() for s in given.split(",")] if isinstance(given, str) else list(given)
            if len(names) != len(set(names)):
                raise SimbalanceError(f"--strategies {','.join(map(str, names))}: a strategy is named twice")
            object.__setattr__(self, "strategies", tuple(names))
        if isinstance(self.bootstrap, bool) or not isinstance(self.bootstrap, int) or not 0 <= self.bootstrap <= 10_000:
            raise SimbalanceError(f"--bootstrap {self.bootstrap}: allowed a whole number from 0 to 10,000")


def population(settings: RunSettings, params: MetaParams, option: str = "--strategies") -> tuple[list[str], dict, int, object]:
    """The population's names, the presets made for it (a search budget), the table size and the
    engine; every name checked before any game (``option``: the option that named them, for the
    error's line: solve's ``--population``)."""
    base = settings.plan(1)
    engine, game = base.engine, base.spec.id
    infos = all_strategies(base.config, engine.strategies, engine.strategy_params)
    if params.strategies is None:
        names = [name for name, info in infos.items() if not engine.is_search(info.base)]
    else:
        names = list(params.strategies)
        for name in names:
            if name not in infos:
                raise SimbalanceError(f"{option}: unknown strategy {name!r}{did_you_mean(name, infos)}; "
                                      f"known: {', '.join(infos)}")
    presets = {}
    if params.search is not None:
        name, preset = parse_search(params.search, infos, engine, game)
        if name in names:
            raise SimbalanceError(f"--search {params.search}: {name} is in the population already")
        names.append(name)
        presets[name] = preset
    if len(names) < 2:
        raise SimbalanceError(f"{option} {','.join(names)}: a population of one has no metagame; give at least "
                              "two strategies")
    return names, presets, base.players, engine


def composition_plan(settings: RunSettings, names: list[str], presets: dict, row: np.ndarray, n: int):
    """The run of one composition: its strategies at the table, every seating equally often (rotated),
    on ``settings``' seed (the same for every composition: common random numbers)."""
    lineup = [names[i] for i in range(len(names)) for _ in range(int(row[i]))]
    return settings.plan(n, presets=presets, strategies=lineup, rotate=True)


def play_composition(plan, names: list[str], progress: ProgressFactory | None, shown, label: str,
                     options: RunOptions | None = None) -> dict:
    """One composition's games: each seat's win share and its strategy (population index), game by
    game. ``progress`` readies the plan (a refit shows on its own display); ``shown``: the display its
    games are counted on."""
    plan = plan.ready(progress)
    records = play(plan, shown, label, options).records
    slot_to_population = np.array([names.index(s) for s in plan.lineup.slot_names], np.int64)
    return {"shares": win_shares(records["winners"], plan.players),
            "seats": slot_to_population[records["strategy"][:, :plan.players].astype(np.int64)]}


def fill(wins: np.ndarray, seat_wins: np.ndarray, seat_strategy: np.ndarray, played: dict) -> None:
    """A composition's rows of a MetaTable from its games (play_composition)."""
    shares, seats = played["shares"], played["seats"]
    seat_wins[:], seat_strategy[:] = shares, seats
    for s in range(shares.shape[1]):
        np.add.at(wins, (seats[:, s], np.arange(len(shares))), shares[:, s])


def play_table(settings: RunSettings, names: list[str], presets: dict, counts: np.ndarray, n: int,
               shown=None, options: RunOptions | None = None) -> MetaTable:
    """Every composition of ``counts`` played ``n`` games on ``settings``' seed (common random
    numbers), as a MetaTable: the solver's metagame on a candidate's rules (studies/solve.py). No
    checkpoint: the solver's blocks are short, and its Ctrl-C keeps what its race judged."""
    k, players = len(names), int(counts[0].sum())
    wins = np.zeros((len(counts), k, n))
    seat_wins = np.zeros((len(counts), n, players))
    seat_strategy = np.zeros((len(counts), n, players), np.int64)
    for c, row in enumerate(counts):
        plan = composition_plan(settings, names, presets, row, n)
        fill(wins[c], seat_wins[c], seat_strategy[c],
             play_composition(plan, names, None, shown, composition_label(row, tuple(names)), options))
    return MetaTable(tuple(names), players, counts, wins, seat_wins, seat_strategy)


def run_meta(settings: RunSettings, params: MetaParams, progress: ProgressFactory | None = None) -> MetaResult:
    """Play every composition of the population at the table (module doc), then analyse the table."""
    names, presets, players, engine = population(settings, params)
    counts = compositions(len(names), players)
    if len(counts) > MAX_COMPOSITIONS:
        raise SimbalanceError(f"--strategies: {len(names)} strategies at {players} seats make {len(counts):,} "
                              f"compositions (at most {MAX_COMPOSITIONS:,}); give fewer strategies")
    seatings = max(math.factorial(players) // math.prod(math.factorial(int(v)) for v in row) for row in counts)
    if params.n < seatings:
        raise SimbalanceError(f"--n {params.n:,}: a composition of {players} different strategies has {seatings} "
                              f"seatings, each played equally often; give at least {seatings} games (e.g. --n "
                              f"{100 * seatings})")
    targets = read_target_matrix(params.target_matrix, tuple(names)) if params.target_matrix is not None else None
    seed = derive_seed(settings.seed, "meta")  # one seed for every composition: common random numbers
    k, n = len(names), params.n
    wins = np.zeros((len(counts), k, n))
    seat_wins = np.zeros((len(counts), n, players))
    seat_strategy = np.zeros((len(counts), n, players), np.int64)
    begin = time.perf_counter()
    # What is known survives a Ctrl-C: each finished composition is kept in simbalance's cache, keyed
    # by everything that decides its games, and the same study asked again plays only the rest.
    kept = BlockCheckpoint(cache_root() / "blocks", "meta", {
        **settings.identity, "engine_version": engine.version, "population": names, "presets": presets, "n": n})
    done = kept.load()
    plan = None
    # One display for the whole table (the games still to play), not one per composition.
    kept_note = f", {len(done)} kept from before" if done else ""
    shown = (OneDisplay(progress, f"{settings.game}: meta, {len(counts)} compositions x {n:,} games{kept_note}",
                        (len(counts) - len(done)) * n) if progress is not None and len(done) < len(counts) else None)
    try:
        for c, row in enumerate(counts):
            plan = composition_plan(settings.but(seed=seed), names, presets, row, n)
            if c >= len(done):
                done.append(play_composition(plan, names, progress, shown, composition_label(row, tuple(names))))
                kept.save(done)
            fill(wins[c], seat_wins[c], seat_strategy[c], done[c])
    except (KeyboardInterrupt, RunInterrupted):
        raise RunInterrupted(len(done), len(counts), unit="compositions",
                             resume="the finished ones are kept: the same command goes on from them") from None
    finally:
        if shown is not None:
            shown.close()
    table = MetaTable(tuple(names), players, counts, wins, seat_wins, seat_strategy)
    answer = analyse(table, params.bootstrap, derive_seed(settings.seed, "meta bootstrap") % (2 ** 32))
    kept.remove()  # the table is whole: its parts are no longer needed
    judged = judge_matrix(field_matrix(table), targets) if targets is not None else None
    return MetaResult(plan.spec.id, players, n, settings.seed, table, answer, plan.config,
                      time.perf_counter() - begin, params.search, dominance(table), judged)


STUDY = Study(
    "meta", rank=55, params=MetaParams, run=run_meta, stoppable=True,
    summary="""The metagame: every composition of the strategies at the table played on the same deals; the
    one-against-the-field matrix, the equilibria of the symmetric game, α-Rank, bootstrap intervals, a
    dominant strategy, cycles and the seats under the equilibrium; writes meta.html.""",
    writer="simbalance.report.meta_page:write_meta_folder", page="meta.html",
    out_help="Output folder: meta.html, meta.json, payoffs.parquet, findings.json (default: reports/meta-<game>-<time>).",
    example=("captain-action", "--strategies", "random,builder,bold", "--n", "100", "--bootstrap", "20"),
)
meta = api_entry(STUDY)
