"""One run: ``plan_run`` (validate everything, touch nothing), ``SimulationResult.from_plan`` (play)
and ``play`` (both, shown): every study is made of runs and plays them here. The run study itself
(``simbalance run``, ``simulate``: its params and its STUDY) is studies/run_study.py; the API and the
CLI play the same plan, so they give the same numbers for the same seed.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np
import pandas as pd

from simbalance.analysis.findings import Finding, amount, run_findings, thresholds
from simbalance.analysis.metrics import json_records, jsonable
from simbalance.analysis.robustness import StrongPlay, strong_play_findings
from simbalance.core.aggregate import RunAggregate, contiguous_columns
from simbalance.core.config import apply_overrides, flat_keys, get, load_config, toml_value
from simbalance.core.errors import ConfigError, RunInterrupted, SimbalanceError
from simbalance.core.execution import RunOptions, execute
from simbalance.core.plan import RunPlan
from simbalance.core.records import END_STALEMATE, END_TIMEOUT, END_WIN, records_to_frame, win_shares
from simbalance.core.runner import ProgressFactory, ProgressFn
from simbalance.core.study import count_played, stop_requested
from simbalance.core.variants import load_variant
from simbalance.studies.cards import card_table
from simbalance.studies.settings import plan_run  # noqa: F401 (a run's first step, imported from here too)


@dataclass(repr=False)
class SimulationResult:
    """The records of a run, as a DataFrame (``.games``) and as metrics (``.summary()``).

    A streamed run (``keep_games=False``) keeps no per-game records: only its merged statistics and
    a sample of its first games, from which the engine's own statistics are computed.

    In a notebook the result shows as a table of the players' win rates (``_repr_html_``); its
    ``repr`` is one line.
    """

    plan: RunPlan
    records: np.ndarray | None
    elapsed: float
    aggregate: RunAggregate
    sample: np.ndarray
    n_played: int  # the games played: plan.n, or fewer when a precision target stopped the run
    compile_seconds: float = 0.0  # compiling or loading the kernel (not in ``elapsed``)
    # `run --robust`: the search sample beside the run (studies/robustness.strong_play), which the
    # run's own page and terminal check the seat finding and the first-player effect against
    strong_play: StrongPlay | None = None
    write_games: bool = True  # whether its folder holds the games (``run --no-games``: False)

    @classmethod
    def from_plan(cls, plan: RunPlan, progress: ProgressFn | None = None,
                  options: RunOptions | None = None) -> SimulationResult:
        outcome = execute(plan, options or RunOptions(), progress)
        return cls(plan, outcome.records, outcome.elapsed, outcome.aggregate, outcome.sample, outcome.n_played,
                   outcome.compile_seconds)

    @property
    def game(self) -> str:
        return self.plan.spec.id

    @cached_property
    def games(self) -> pd.DataFrame:
        """One row per game: ``game``, ``winner`` (-1: tie or none), ``length``, ``end``, each seat's
        strategy slot and name (``strategy_<seat>``, ``strategy_name_<seat>``), ..."""
        return records_to_frame(self._kept_records(), self.plan.players, self.plan.lineup.slot_names)

    def _kept_records(self) -> np.ndarray:
        if self.records is None:
            raise SimbalanceError("this run was streamed and kept no per-game records; run it with keep_games=True "
                                  "(CLI: without --stream) to get them")
        return self.records

    def win_shares(self) -> pd.DataFrame:
        """Per game (rows) and seat (columns ``seat_0`` ...), the seat's share of the win: 1 for a win,
        1/k for each of k tied winners, 0 otherwise. Its column means are ``summary()``'s seat win
        rates (over all games); ``games.winner`` is -1 for a shared win, so counting winners would
        leave the ties out."""
        shares = win_shares(self._kept_records()["winners"], self.plan.players)
        return pd.DataFrame(shares, columns=[f"seat_{s}" for s in range(self.plan.players)])

    def __repr__(self) -> str:
        return (f"<SimulationResult {self.game}: {self.n_played:,} games, {self.plan.players} players, seed "
                f"{self.plan.seed}, {self.elapsed:.1f} s ({self.games_per_second:,.0f} games/s)>")

    def _repr_html_(self) -> str:
        """A notebook's view: each player's win rate with its 95 % interval, then ties, timeouts and
        the median length (players numbered from 1, as at the table), then what the run found."""
        import html

        summary = self.summary()
        rows = "".join(
            f"<tr><td>player {seat['seat'] + 1}</td><td>{100 * seat['win_rate']:.1f} %</td>"
            f"<td>{100 * seat['ci_low']:.1f} to {100 * seat['ci_high']:.1f} %</td></tr>"
            for seat in summary["seats"])
        outcomes, length = summary["outcomes"], summary["length"]
        caption = html.escape(f"{self.game}: {self.n_played:,} games, seed {self.plan.seed}")
        said = "".join(f"<li>{html.escape(f.severity)}: {html.escape(f.text)}</li>" for f in self.findings())
        return (f"<table><caption>{caption}</caption><tr><th></th><th>wins (all games)</th><th>95 % CI</th></tr>"
                f"{rows}</table><p>ties {100 * outcomes['ties']:.1f} %, timeouts {100 * outcomes['timeouts']:.1f} %, "
                f"median length {html.escape(amount(length['p50'], str(length['unit'])))}</p>"
                + (f"<p>What the run found:</p><ul>{said}</ul>" if said else ""))

    @cached_property
    def stats_games(self) -> pd.DataFrame:
        """The games the engine's own statistics use: all of them, or a streamed run's sample."""
        if self.records is not None:
            return self.games
        return records_to_frame(self.sample, self.plan.players, self.plan.lineup.slot_names)

    def summary(self) -> dict:
        """Every metric of the run as a JSON-ready dict (see simbalance.analysis.metrics)."""
        return self._summary

    @cached_property
    def _summary(self) -> dict:
        return summarize_run(self)

    @property
    def games_per_second(self) -> float:
        return self.n_played / self.elapsed if self.elapsed > 0 else float("inf")

    def notable_games(self) -> list[dict]:
        """A typical game, the longest game and the most surprising win, each with the command that
        replays it (``notable_games``)."""
        return notable_games(self)

    def findings(self) -> list[Finding]:
        """What the run's page says first (analysis/findings.py), thresholds from the config."""
        return run_result_findings(self)

    def report_findings(self) -> list[Finding]:
        """The findings as the run's own page, findings.json and terminal say them: the seat finding
        checked under strong play (``strong_play``: its verdict by effect size, holds, smaller,
        larger, reversed or not settled, its severity that of the gap under strong play, with the
        ``robustness`` object), or, in a game with decisions, naming the players that measured it and
        the command that checks it (analysis/robustness.strong_play_findings). A study that repeats
        a run's findings (compare, tournament) takes ``findings()``."""
        plan = self.plan
        command = robust_command(plan) if plan.engine.search is not None else None
        return strong_play_findings(self.findings(), self.summary(), self.strong_play, measured_with(plan), command,
                                    thresholds(plan.config))


def play(plan: RunPlan, progress: ProgressFactory | None, label: str,
         options: RunOptions | None = None) -> SimulationResult:
    """Play ``plan``, shown as ``label`` by ``progress`` when one is given: every study's one way
    to play a run and show it (``progress(label)`` makes the display of one run: a callable
    ``(games done, total, seconds)`` with an optional ``close()``, as cli/terminal.RichProgress).
    ``options``: how it is played (a precision target, checkpoints: core/execution.RunOptions); its
    ``stop`` is the study's Ctrl-C and SIGTERM (core/study.stop_requested) unless the caller gives one,
    so that every study that plays through here stops after the chunk in play (Study.stoppable)."""
    if options is None or options.stop is None:
        options = replace(options or RunOptions(), stop=stop_requested)
    plan = plan.ready(progress)  # the plan's steps first (a refit of the fitted evaluation), shown
    shown = progress(label) if progress is not None else None
    try:
        result = SimulationResult.from_plan(plan, progress=shown, options=options)
    except RunInterrupted as stopped:  # the study's message names the run it was stopped in
        stopped.label = label
        raise
    else:
        count_played(result.n_played)
        return result
    finally:
        if shown is not None and hasattr(shown, "close"):
            shown.close()


class OneDisplay:
    """Many runs shown as one display: a study that plays a table of small runs (meta's
    compositions) shows one bar for the whole table, not one per run. It is the progress factory
    given to ``play`` for each run; every run's games are added to those of the runs before it and
    shown as ``label``, out of ``total`` games, by the one display ``progress(label)`` made here.
    Ready a plan with the study's own factory first (``plan.ready(progress)``): a refit has its own
    display and its own count. ``close()`` when the table is done or stopped."""

    def __init__(self, progress: ProgressFactory, label: str, total: int):
        self.shown = progress(label)
        self.total = total
        self.before = 0  # the games of the runs already over
        self.current = 0  # the games done of the run in play, as its last report said
        self.begin = time.perf_counter()

    def __call__(self, _label: str) -> ProgressFn:
        self.before += self.current  # a new run: the one before it is over
        self.current = 0

        def show(done: int, _run_total: int, _seconds: float) -> None:
            self.current = done
            if self.shown is not None:  # (a factory may give no display)
                self.shown(self.before + done, self.total, time.perf_counter() - self.begin)

        return show

    def close(self) -> None:
        if hasattr(self.shown, "close"):
            self.shown.close()


def summarize_run(result: SimulationResult) -> dict:
    """The generic metrics plus the engine's own (``Engine.summarize``) under ``"game"``, and the
    card-impact table under ``"cards"``: every metric of a run as a JSON-ready dict."""
    plan = result.plan
    summary = jsonable(result.aggregate.summary(plan.lineup.slot_names, plan.spec.length_unit, plan.engine.progress,
                                                plan.engine.stalemate_reasons))
    if plan.engine.summarize is not None:
        summary["game"] = jsonable(plan.engine.summarize(result.stats_games, plan.players, plan.config))
    if result.records is None:
        summary["sampled_games"] = int(len(result.sample))  # engine statistics and card impact use these
    table = card_table(plan, result.stats_games)
    if table is not None:
        summary["cards"] = json_records(table)
    return summary


def replay_command(plan: RunPlan, game: int) -> str:
    """The command that replays game ``game`` of the run ``plan`` move by move: its seed, players,
    variants, strategies and every config key it changed (``--set``), read from the plan itself."""
    import shlex

    parts = ["simbalance", "replay", plan.spec.id, "--seed", str(plan.seed), "--game", str(int(game))]
    return " ".join(shlex.quote(p) for p in parts + _plan_arguments(plan))


def run_command(plan: RunPlan) -> str:
    """The ``simbalance run`` that plays the run ``plan`` again, the same games: its n, seed, config
    file, variants, players, strategies and every config key it changed (``--set``)."""
    import shlex

    parts = ["simbalance", "run", plan.spec.id, "--n", str(plan.n), "--seed", str(plan.seed)]
    return " ".join(shlex.quote(p) for p in parts + _plan_arguments(plan))


def robust_command(plan: RunPlan) -> str:
    """The command that plays the run ``plan`` again, the same games, with its seat findings checked
    under strong play (``--robust``)."""
    return run_command(plan) + " --robust"


def measured_with(plan: RunPlan) -> str:
    """Which players a run's figures were measured with, in words: "heuristics: builder at every
    seat", "random players: random at every seat", "these players: mcts-100, builder, builder (seats
    rotated)"."""
    from simbalance.core.strategy_ids import is_search_id

    lineup = plan.lineup
    names = [lineup.slot_names[slot] for slot in lineup.seats[0]]
    what = f"{names[0]} at every seat" if len(set(names)) == 1 else ", ".join(names)
    if lineup.rotate and len(set(names)) > 1:
        what += " (seats rotated)"
    # random play is no heuristic: "the heuristics overstate it" misnamed it (qa53)
    kind = ("these players" if any(is_search_id(int(i)) for i in lineup.slot_strategy)
            else "random players" if set(lineup.slot_names) == {"random"} else "heuristics")
    return f"{kind}: {what}"


def _plan_arguments(plan: RunPlan) -> list[str]:
    """The options after the seed that make another command play ``plan``'s games: its config file,
    variants, players, strategies and every config key it changed."""
    parts: list[str] = []
    if plan.config_file:
        parts += ["--config", plan.config_file]
    for name in plan.variants:
        parts += ["--variant", name]
    base = load_config(plan.spec.id, plan.config_file)
    for name in plan.variants:
        base = apply_overrides(base, load_variant(plan.spec.id, name)[0])
    if base.get("game", {}).get("players") != plan.players:
        parts += ["--players", str(plan.players)]
    lineup = plan.lineup
    names = [lineup.slot_names[slot] for slot in lineup.seats[0]]
    default = base.get("game", {}).get("strategies")
    if isinstance(default, list) and len(default) == 1:
        default = default * plan.players
    if names != default or lineup.rotate:
        parts += ["--strategies", names[0] if len(set(names)) == 1 else ",".join(names)]
    if lineup.rotate:
        parts.append("--rotate")
    if plan.strategy_file:
        parts += ["--strategy-file", plan.strategy_file]
    for key in flat_keys(plan.config):
        if key == "game.players" or key.startswith("presets."):
            continue
        try:
            before = get(base, key)
        except ConfigError:
            before = None
        value = get(plan.config, key)
        if value != before:
            parts += ["--set", f"{key}={toml_value(value)}"]
    return parts


def notable_games(result: SimulationResult) -> list[dict]:
    """Games worth watching: a typical game (a decided game of the median length), the longest game,
    and the most surprising win (won by the seat and strategy that win least often in this run;
    the shortest such game). Each: ``what``, ``game`` (its index), ``why``, ``command`` (replay).
    Drawn from the kept games, or a streamed run's first games."""
    games = result.stats_games
    plan = result.plan
    if not len(games) or plan.engine.replay is None:
        return []
    # the columns read whole, copied out of the records in one pass (each pass over a strided column
    # reads a cache line per game: most of this function's time at 10^6 games before)
    seat_slots = [f"strategy_{s}" for s in range(plan.players)]
    columns = contiguous_columns(games, ["length", "end", "winners", *seat_slots])
    length, end, winners = columns["length"], columns["end"], columns["winners"]
    index = games["game"].to_numpy()
    unit = plan.spec.length_unit
    out = []
    decided = np.flatnonzero(end == END_WIN)
    if len(decided):
        median = float(np.median(length[decided]))
        pick = decided[np.argmin(np.abs(length[decided] - median))]
        out.append({"what": "a typical game", "game": int(index[pick]),
                    "why": f"{amount(length[pick], unit)}, the median of the games with a winner"})
    pick = int(np.argmax(length))
    kind = {END_TIMEOUT: " (it hit the cap)", END_STALEMATE: " (a stalemate)"}.get(int(end[pick]), "")
    out.append({"what": "the longest game", "game": int(index[pick]), "why": f"{amount(length[pick], unit)}{kind}"})
    shares = win_shares(winners, plan.players)
    slots = np.stack([columns[name] for name in seat_slots], axis=1)
    # Vectorised (issue 56: a loop over the games cost about half a second at 10^6 games). A single
    # winner is one bit of the winners mask, at a seat of this table; its seat is the bits below it.
    single = np.flatnonzero((end == END_WIN) & (np.bitwise_count(winners) == 1) & (winners < (1 << plan.players)))
    if len(single):
        # each seat and strategy slot's win rate over all games, then looked up for every single winner
        rates = np.full((plan.players, int(slots.max()) + 1), np.nan)
        for s in range(plan.players):
            for slot in np.unique(slots[:, s]):
                rates[s, slot] = shares[slots[:, s] == slot, s].mean()
        winner = np.bitwise_count(winners[single] - np.uint8(1)).astype(np.intp)
        prior = rates[winner, slots[single, winner]]
        # the least likely winner, then the shortest of its games, then the first (a stable sort's first)
        least = np.flatnonzero(prior == prior.min())
        first = least[np.argmin(length[single[least]])]
        g, w = single[first], int(winner[first])
        name = plan.lineup.slot_names[int(slots[g, w])]
        out.append({"what": "the most surprising win", "game": int(index[g]),
                    "why": (f"won by player {w + 1} ({name}), whose seat and strategy win {100 * prior[first]:.1f}% "
                            f"of this run's games, in {amount(length[g], unit)}")})
    for item in out:
        item["command"] = replay_command(plan, item["game"])
    return out


def _example(games: pd.DataFrame, mask: np.ndarray) -> int | None:
    hits = np.flatnonzero(mask)
    return int(games["game"].iloc[hits[0]]) if len(hits) else None


def run_result_findings(result: SimulationResult) -> list[Finding]:
    """A run's findings, each kind of game with a replay command of one such game."""
    plan = result.plan
    th = thresholds(plan.config)
    games = result.stats_games
    examples = {}
    if len(games) and plan.engine.replay is not None:
        end = games["end"].to_numpy()
        length = games["length"].to_numpy()
        winners = games["winners"].to_numpy()
        for kind, mask in (("timeouts", end == END_TIMEOUT), ("stalemates", end == END_STALEMATE),
                           ("ties", (end == END_WIN) & (np.bitwise_count(winners) > 1)),
                           ("short_games", length <= np.median(length))):
            found = _example(games, mask)
            if found is not None:
                examples[kind] = replay_command(plan, found)
    targets = plan.config.get("targets") if isinstance(plan.config.get("targets"), dict) else None
    return run_findings(result.summary(), th, plan.players, targets=targets,
                        hist=result.aggregate.length_histogram(), examples=examples)
