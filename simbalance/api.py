"""The Python entry point: ``simulate()`` and its result.

The CLI calls the same two steps, ``plan_run`` (validate everything, touch nothing) and
``SimulationResult.from_plan`` (play), so the API and the CLI give the same numbers for the same
seed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from simbalance.analysis.aggregate import RunAggregate
from simbalance.core.config import apply_overrides, load_config, require_int
from simbalance.core.errors import ConfigError, SimbalanceError
from simbalance.core.execution import RunOptions, execute
from simbalance.core.lineup import Lineup, resolve_lineup
from simbalance.core.records import records_to_frame
from simbalance.core.runner import MAX_GAMES, MAX_GAMES_TEXT, ProgressFn, check_threads
from simbalance.core.variants import load_variant
from simbalance.games.registry import get_game
from simbalance.games.spec import Engine, GameSpec

MAX_SEED = 2**64 - 1


@dataclass
class RunPlan:
    """A validated run: everything needed to play it, nothing played yet."""

    spec: GameSpec
    engine: Engine
    config: dict
    players: int
    n: int
    seed: int
    lineup: Lineup
    prepared: tuple
    threads: int
    chunk_size: int | None = None
    variants: list[str] = field(default_factory=list)
    kernel: object = None  # the kernel to run: the engine's, or one built around a plug-in strategy


def check_n(n: Any) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise SimbalanceError(f"n = {n!r}: the number of games must be a whole number >= 1")
    if n > MAX_GAMES:
        raise SimbalanceError(f"n = {int(n)}: at most {MAX_GAMES_TEXT} games per run")
    return int(n)


def check_seed(seed: Any) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed <= MAX_SEED:
        raise SimbalanceError(f"seed = {seed!r}: allowed a whole number from 0 to 2**64 - 1")
    return int(seed)


def plan_run(
    game: str,
    n: int,
    *,
    players: int | None = None,
    seed: int = 0,
    overrides: dict[str, Any] | list[str] | None = None,
    strategies: list[str] | str | None = None,
    rotate: bool = False,
    config: str | Path | None = None,
    threads: int | None = None,
    chunk_size: int | None = None,
    validate: bool = False,
    variants: list[str] | None = None,
    every_lineup: bool = False,
    strategy_file: str | None = None,
) -> RunPlan:
    """Validate a run completely (config, players, strategies, deck) without playing it.

    ``variants`` (names under ``configs/<game>/variants/`` or TOML paths) apply first, in order;
    then ``overrides``.
    """
    spec = get_game(game)
    n = check_n(n)
    seed = check_seed(seed)
    threads = check_threads(threads)
    if chunk_size is not None and (isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1):
        raise SimbalanceError(f"chunk_size = {chunk_size!r}: must be a whole number >= 1")
    cfg = load_config(spec.id, config)
    for name in variants or []:
        changes, _ = load_variant(spec.id, name)
        try:
            cfg = apply_overrides(cfg, changes)
        except ConfigError as exc:
            raise ConfigError(f"variant {name}: {exc}") from None
    cfg = apply_overrides(cfg, overrides)
    if players is not None:
        if isinstance(players, bool) or not isinstance(players, (int, np.integer)):
            raise SimbalanceError(f"players = {players!r}: expected a whole number")
        cfg.setdefault("game", {})["players"] = int(players)
    players = require_int(cfg, "game.players", spec.min_players, spec.max_players)
    engine = spec.load()
    lineup = resolve_lineup(cfg, engine.strategies, engine.strategy_params, players, strategies, rotate, every_lineup,
                            plugin=strategy_file is not None)
    kernel = engine.kernel
    if strategy_file is not None:
        from simbalance.core.plugins import PLUGIN_NAME, plugin_kernel

        if PLUGIN_NAME not in lineup.slot_names:
            raise SimbalanceError(f"--strategy-file: seat the function with the strategy name {PLUGIN_NAME!r}, "
                                  f"e.g. --strategies {PLUGIN_NAME},random")
        kernel = plugin_kernel(engine, spec.id, strategy_file)
    prepared = engine.prepare(cfg, players, bool(validate))
    return RunPlan(spec, engine, cfg, players, n, seed, lineup, prepared, threads, chunk_size,
                   variants=list(variants or []), kernel=kernel)


@dataclass
class SimulationResult:
    """The records of a run, as a DataFrame (``.games``) and as metrics (``.summary()``).

    A streamed run (``keep_games=False``) keeps no per-game records: only its merged statistics and
    a sample of its first games, from which the engine's own statistics are computed.
    """

    plan: RunPlan
    records: np.ndarray | None
    elapsed: float
    aggregate: RunAggregate
    sample: np.ndarray

    @classmethod
    def from_plan(cls, plan: RunPlan, progress: ProgressFn | None = None,
                  options: RunOptions | None = None) -> SimulationResult:
        outcome = execute(plan, options or RunOptions(), progress)
        plan.n = outcome.n_played  # a precision target may stop a run early
        return cls(plan, outcome.records, outcome.elapsed, outcome.aggregate, outcome.sample)

    @property
    def game(self) -> str:
        return self.plan.spec.id

    @cached_property
    def games(self) -> pd.DataFrame:
        """One row per game: ``game``, ``winner`` (-1: tie or none), ``length``, ``end``, ..."""
        if self.records is None:
            raise SimbalanceError("this run was streamed and kept no per-game records; run it with keep_games=True "
                                  "(CLI: without --stream) to get them")
        return records_to_frame(self.records, self.plan.players)

    @cached_property
    def stats_games(self) -> pd.DataFrame:
        """The games the engine's own statistics use: all of them, or a streamed run's sample."""
        if self.records is not None:
            return self.games
        return records_to_frame(self.sample, self.plan.players)

    def summary(self) -> dict:
        """Every metric of the run as a JSON-ready dict (see simbalance.analysis.metrics)."""
        return self._summary

    @cached_property
    def _summary(self) -> dict:
        from simbalance.analysis.metrics import summarize_run

        return summarize_run(self)

    @property
    def games_per_second(self) -> float:
        return self.plan.n / self.elapsed if self.elapsed > 0 else float("inf")


def simulate(
    game: str,
    n: int,
    *,
    players: int | None = None,
    seed: int = 0,
    overrides: dict[str, Any] | list[str] | None = None,
    strategies: list[str] | str | None = None,
    rotate: bool = False,
    config: str | Path | None = None,
    threads: int | None = None,
    chunk_size: int | None = None,
    validate: bool = False,
    variants: list[str] | None = None,
    strategy_file: str | None = None,
) -> SimulationResult:
    """Play ``n`` games of ``game`` and return the result.

    ``variants`` applies named rule variants (``["no-repeat-pick"]``), then ``overrides`` changes
    config keys (``{"rules.pick_cap": 500}``); ``strategies`` is one name per
    seat (or one name for all); ``rotate`` plays every seat permutation of them equally often.
    Games are keyed by ``(seed, game index)``: the same seed gives the same games. ``validate``
    checks the engine's invariants at every step (slower).
    """
    plan = plan_run(
        game, n, players=players, seed=seed, overrides=overrides, strategies=strategies, rotate=rotate,
        config=config, threads=threads, chunk_size=chunk_size, validate=validate, variants=variants,
        strategy_file=strategy_file,
    )
    return SimulationResult.from_plan(plan)


@dataclass
class ComparisonResult:
    """Arms of a comparison and the table of their differences to the baseline."""

    baseline_name: str
    baseline: SimulationResult
    arms: dict[str, SimulationResult]
    table: pd.DataFrame
    alpha: float
    warnings: list[str] = field(default_factory=list)  # e.g. an arm that plays the baseline's games

    def significant(self) -> pd.DataFrame:
        return self.table[self.table["significant"]]


def compare(
    game: str,
    variants: list[str],
    n: int,
    *,
    baseline: str | None = None,
    players: int | None = None,
    seed: int = 0,
    overrides: dict[str, Any] | list[str] | None = None,
    strategies: list[str] | str | None = None,
    rotate: bool = False,
    threads: int | None = None,
    alpha: float = 0.05,
    progress_factory=None,
) -> ComparisonResult:
    """Play the baseline (the defaults, or variant ``baseline``) and every variant on the same seed
    and game indices (common random numbers), and test every metric's difference."""
    from simbalance.analysis.compare import compare_arms

    if not variants:
        raise SimbalanceError("compare needs at least one --variant")
    if not 0 < alpha < 1:
        raise SimbalanceError(f"alpha = {alpha}: allowed between 0 and 1")
    names = [baseline or "defaults", *variants]
    if len(set(names)) != len(names):
        raise SimbalanceError(f"variants {', '.join(names)}: each arm must be different")
    common = dict(players=players, seed=seed, overrides=overrides, strategies=strategies, rotate=rotate,
                  threads=threads)
    plans = {names[0]: plan_run(game, n, variants=[baseline] if baseline else None, **common)}
    for name in variants:
        plans[name] = plan_run(game, n, variants=[name], **common)
    base_players = plans[names[0]].players
    for name, plan in plans.items():
        if plan.players != base_players:
            raise SimbalanceError(f"variant {name} plays with {plan.players} players, the baseline with "
                                  f"{base_players}: compare arms at the same player count")
    warnings = [f"variant {name} changes nothing with {base_players} players: its games are the "
                f"baseline's (same rules, same players)"
                for name, plan in plans.items() if name != names[0] and same_games(plan, plans[names[0]])]
    results = {}
    for name, plan in plans.items():
        progress = progress_factory(f"{game} [{name}]") if progress_factory else None
        results[name] = SimulationResult.from_plan(plan, progress=progress)
        if progress is not None:
            progress.close()
    base = results.pop(names[0])
    table = compare_arms(base, results, alpha)
    return ComparisonResult(names[0], base, results, table, alpha, warnings)


def same_games(a: RunPlan, b: RunPlan) -> bool:
    """Whether two plans play identical games: the same kernel arguments (what the engine made of
    the config for this player count) and the same seats. A variant can change a config key that
    this player count never reads (captain-future's ships.4 with 2 players)."""
    def equal(x, y) -> bool:
        if isinstance(x, np.ndarray) or isinstance(y, np.ndarray):
            return (isinstance(x, np.ndarray) and isinstance(y, np.ndarray) and x.dtype == y.dtype
                    and x.shape == y.shape and bool(np.array_equal(x, y)))
        if isinstance(x, tuple) and isinstance(y, tuple):
            return len(x) == len(y) and all(equal(u, v) for u, v in zip(x, y, strict=True))
        return type(x) is type(y) and x == y

    la, lb = a.lineup, b.lineup
    return (a.kernel is b.kernel and a.players == b.players and equal(a.prepared, b.prepared)
            and la.slot_names == lb.slot_names and equal(la.slot_strategy, lb.slot_strategy)
            and equal(la.slot_params, lb.slot_params) and equal(la.seats, lb.seats))


@dataclass
class SweepResult:
    """Metrics per grid point (``table``), the targets, and the best points re-checked on fresh seeds."""

    game: str
    params: list
    table: pd.DataFrame
    targets: dict
    rechecked: pd.DataFrame
    base_plan: RunPlan


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace('"', '\\"') + '"'
    return repr(value)


def sweep(
    game: str,
    params: list[str],
    n: int,
    *,
    players: int | None = None,
    seed: int = 0,
    overrides: list[str] | None = None,
    variants: list[str] | None = None,
    strategies: list[str] | str | None = None,
    rotate: bool = False,
    threads: int | None = None,
    recheck: int = 3,
    progress_factory=None,
) -> SweepResult:
    """Play ``n`` games at every point of a grid over one or two config keys (same seed at every
    point), and re-check the points closest to the config's ``[targets]`` on a fresh seed."""
    from simbalance.analysis.sweep import grid, parse_param, point_rows, shortfall, targets_of

    base = list(overrides or [])
    common = dict(players=players, strategies=strategies, rotate=rotate, threads=threads, variants=variants)
    base_plan = plan_run(game, n, seed=seed, overrides=base, **common)
    parsed = [parse_param(p, base_plan.config) for p in params]
    points = grid(parsed)
    targets = targets_of(base_plan.config)
    plans = [plan_run(game, n, seed=seed, overrides=base + [f"{k}={_toml_value(v)}" for k, v in point.items()],
                      **common) for point in points]  # validate every point before playing any

    def play(plan: RunPlan, point: dict, label: str) -> dict:
        progress = progress_factory(label) if progress_factory else None
        result = SimulationResult.from_plan(plan, progress=progress)
        if progress is not None:
            progress.close()
        return point_rows(point, result.summary())

    rows = [play(plan, point, f"{game} {point}") for plan, point in zip(plans, points, strict=True)]
    table = pd.DataFrame(rows)
    table["shortfall"] = shortfall(table, targets)
    best = table.sort_values(["shortfall", "balance"], ascending=[True, False]).head(max(0, recheck))
    fresh_seed = (seed + 1_000_003) % (MAX_SEED + 1)
    rechecked = []
    for idx in best.index:
        point = points[idx]
        plan = plan_run(game, n, seed=fresh_seed,
                        overrides=base + [f"{k}={_toml_value(v)}" for k, v in point.items()], **common)
        row = play(plan, point, f"{game} {point} (fresh seed)")
        row["seed"] = fresh_seed
        rechecked.append(row)
    rechecked_df = pd.DataFrame(rechecked)
    if len(rechecked_df):
        rechecked_df["shortfall"] = shortfall(rechecked_df, targets)
    return SweepResult(game, parsed, table, targets, rechecked_df, base_plan)


@dataclass
class TournamentResult:
    """Every lineup of the strategies played; matchups and ratings computed from it."""

    result: SimulationResult
    matchups: pd.DataFrame
    ratings: pd.DataFrame
    strategies: pd.DataFrame


def tournament(
    game: str,
    strategies: list[str] | str,
    n: int,
    *,
    players: int | None = None,
    seed: int = 0,
    overrides: list[str] | dict | None = None,
    variants: list[str] | None = None,
    threads: int | None = None,
    progress=None,
) -> TournamentResult:
    """Play every assignment of ``strategies`` to the seats equally often (game ``g`` takes lineup
    ``g % L``), then the matchup matrix, Bradley-Terry ratings and per-strategy win rates."""
    from simbalance.analysis.metrics import strategy_table
    from simbalance.analysis.tournament import matchups, ratings

    names = [s.strip() for s in strategies.split(",")] if isinstance(strategies, str) else list(strategies)
    if len(set(names)) < 2 or len(set(names)) != len(names):
        raise SimbalanceError(f"tournament strategies = {','.join(names)}: give at least two different names")
    plan = plan_run(game, n, players=players, seed=seed, overrides=overrides, variants=variants, strategies=names,
                    threads=threads, every_lineup=True)
    result = SimulationResult.from_plan(plan, progress=progress)
    slot_names = plan.lineup.slot_names
    return TournamentResult(result, matchups(result.games, plan.players, slot_names),
                            ratings(result.games, plan.players, slot_names, seed),
                            strategy_table(result.games, plan.players, slot_names))


@dataclass
class SkillResult:
    game: str
    players: int
    has_decisions: bool
    agency: pd.DataFrame  # strategy, win_rate, ci_low, ci_high against random players
    restricted: pd.DataFrame  # preset, restricts, win_rate, ci against the full strategy
    verdict: str


def skill(
    game: str,
    n: int,
    *,
    players: int | None = None,
    seed: int = 0,
    overrides: list[str] | dict | None = None,
    variants: list[str] | None = None,
    threads: int | None = None,
    progress_factory=None,
) -> SkillResult:
    """Agency of every heuristic and preset against random players, restricted play of every
    preset marked ``restricts``, and a verdict from the measured numbers."""
    from simbalance.analysis.metrics import strategy_table
    from simbalance.analysis.skill import verdict
    from simbalance.core.lineup import all_strategies

    base = plan_run(game, 1, players=players, overrides=overrides, variants=variants)
    p = base.players
    infos = all_strategies(base.config, base.engine.strategies, base.engine.strategy_params)
    has_decisions = base.engine.has_decisions

    def alone_against(name: str, field_name: str) -> dict:
        plan = plan_run(game, n, players=p, seed=seed, overrides=overrides, variants=variants, threads=threads,
                        strategies=[name] + [field_name] * (p - 1), rotate=True)
        progress = progress_factory(f"{game}: {name} vs {field_name}") if progress_factory else None
        result = SimulationResult.from_plan(plan, progress=progress)
        if progress is not None:
            progress.close()
        # over decided games: held against the fair share 1/P, a timeout must not count as a loss
        row = strategy_table(result.games, p, plan.lineup.slot_names).set_index("strategy").loc[name]
        return {"strategy": name, "against": field_name, "win_rate": float(row["win_rate_decided"]),
                "ci_low": float(row["decided_ci_low"]), "ci_high": float(row["decided_ci_high"]),
                "seat_games": int(row["decided_seat_games"])}

    agency = pd.DataFrame([alone_against(name, "random") for name in infos if name != "random"]
                          if has_decisions and "random" in infos else [],
                          columns=["strategy", "against", "win_rate", "ci_low", "ci_high", "seat_games"])
    restricted = pd.DataFrame([alone_against(name, info.restricts) for name, info in infos.items() if info.restricts],
                              columns=["strategy", "against", "win_rate", "ci_low", "ci_high", "seat_games"])
    return SkillResult(base.spec.id, p, has_decisions, agency, restricted, verdict(has_decisions, agency, p))


@dataclass
class TuneResult:
    game: str
    strategy: str
    field: list[str]
    params: list[str]
    default: dict[str, float]
    best: dict[str, float]
    history: list[dict]
    default_win_rate: float
    best_win_rate: float
    margin: dict  # paired difference best - default on fresh seeds: diff, ci_low, ci_high, p_value
    dominance: pd.DataFrame  # best alone against each other strategy: win rate with CI, dominates?
    dominates_all: bool


def tune(
    game: str,
    strategy: str,
    n: int,
    *,
    field: list[str] | str = "random",
    generations: int = 6,
    population: int = 12,
    ranges: list[str] | None = None,
    players: int | None = None,
    seed: int = 0,
    overrides: list[str] | None = None,
    variants: list[str] | None = None,
    threads: int | None = None,
    on_generation=None,
) -> TuneResult:
    """Search ``strategy``'s parameters (cross-entropy method on common random numbers) to maximise
    its win rate alone against ``field`` (one name, or one name per other seat), seats rotated.
    Then: the best against the default on fresh seeds (paired), and against every other strategy."""
    from simbalance.analysis.compare import paired_test
    from simbalance.analysis.metrics import strategy_table
    from simbalance.analysis.tuning import cross_entropy, search_space
    from simbalance.core.lineup import all_strategies
    from simbalance.core.records import seat_share

    base_plan = plan_run(game, 1, players=players, overrides=overrides, variants=variants)
    p = base_plan.players
    infos = all_strategies(base_plan.config, base_plan.engine.strategies, base_plan.engine.strategy_params)
    if strategy not in infos:
        raise SimbalanceError(f"unknown strategy {strategy!r}; known: {', '.join(infos)}")
    field_names = [f.strip() for f in field.split(",")] if isinstance(field, str) else list(field)
    if len(field_names) == 1:
        field_names = field_names * (p - 1)
    if len(field_names) != p - 1:
        raise SimbalanceError(f"--field: give one name or {p - 1} names (one per other seat)")
    if strategy in field_names:
        raise SimbalanceError(f"--field {','.join(field_names)}: the tuned strategy cannot also be in the field")
    info = infos[strategy]
    space = search_space(info.params, ranges)
    prefix = f"presets.{strategy}" if info.preset else f"strategies.{strategy}"

    def keys_for(vector) -> list[str]:
        return [f"{prefix}.{k}={float(v)!r}" for k, v in zip(space.names, vector, strict=True)]

    def per_game_share(vector, run_seed, count, field_list):
        plan = plan_run(game, count, players=p, seed=run_seed, variants=variants, threads=threads,
                        overrides=list(overrides or []) + keys_for(vector), strategies=[strategy] + field_list,
                        rotate=True)
        result = SimulationResult.from_plan(plan)
        slot = plan.lineup.slot_names.index(strategy)
        winners = result.games["winners"].to_numpy()
        share = np.zeros(count)
        for s in range(p):
            share += np.where(result.games[f"strategy_{s}"].to_numpy() == slot, seat_share(winners, s), 0.0)
        return share, result, plan

    def evaluate(vector, generation):
        share, _, _ = per_game_share(vector, seed + generation, n, field_names)
        return float(share.mean())

    best, _, history = cross_entropy(space, evaluate, generations, population, seed, on_generation)
    fresh = (seed + 7_777_777) % (MAX_SEED + 1)
    final_n = 2 * n
    default_share, _, _ = per_game_share(space.start, fresh, final_n, field_names)
    best_share, _, _ = per_game_share(best, fresh, final_n, field_names)
    margin = paired_test(default_share, best_share)
    rows = []
    for other in infos:
        if other == strategy:
            continue
        _, result, plan = per_game_share(best, fresh + 1, n, [other] * (p - 1))
        row = strategy_table(result.games, p, plan.lineup.slot_names).set_index("strategy").loc[strategy]
        rows.append({"against": other, "win_rate": float(row["win_rate"]), "ci_low": float(row["ci_low"]),
                     "ci_high": float(row["ci_high"]), "dominates": bool(row["ci_low"] > 1.0 / p)})
    dominance = pd.DataFrame(rows, columns=["against", "win_rate", "ci_low", "ci_high", "dominates"])
    return TuneResult(game, strategy, field_names, space.names, dict(zip(space.names, space.start.tolist(), strict=True)),
                      dict(zip(space.names, best.tolist(), strict=True)), history, float(default_share.mean()),
                      float(best_share.mean()), margin, dominance, bool(dominance["dominates"].all()))
