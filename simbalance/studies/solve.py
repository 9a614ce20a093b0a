"""Solve: the smallest change of a game's knobs that meets a set of balance targets under every
player model, verified on fresh games (analysis/solve.py; docs/solve.md).

1. Today's rules play ``verify_n`` games on the verification seed (``derive_seed(seed, "solve
   verify")``) under every heuristic player model (player_models). If they meet every target (and
   the search player's games agree: settle_costly): "no change needed", no search. The kept metrics
   (``keep``) become targets around today's value under each model.
2. Stages of one changed knob, then two, ... (``max_keys``): every candidate of a stage (each knob's
   grid, today's value left out) races (studies/race.py: successive halving whose left-behind
   candidates wait in reserve and play again while budget remains, on the same games for every
   candidate and model). A candidate that meets every target under every heuristic model
   (analysis/stats.judge_models: one Holm family across models x targets) is found; one whose
   interval lies wholly outside a target (Bonferroni over the race's looks) is refuted. The next
   stage runs only while fewer than ``answers`` are found.
3. The found changes, smallest first, play ``verify_n`` games on the verification seed under every
   heuristic model (the first model's games are today's: the compare table), then, where they meet,
   up to ``search_n`` games under the search player; the smallest that meets under every model is the
   chosen change. When none is found, the changes that hold under some models (where today's rules
   do not) and were refuted under others are played the same way, to say which and why.

A metagame target (``dominance=LO:HI``, ``target_matrix``; docs/solve.md, "The metagame") is judged
under one more player model, the metagame (MetaGame): the population's compositions played on the
candidate's rules, a payoff table (studies/meta.play_table) per block, in the same Holm family.

The budget bounds the search (step 2); the verification's cost is estimated from today's runs and
kept aside. Ctrl-C (KeyboardInterrupt, or ``core/study.stop_requested`` ending a run with RunInterrupted) keeps what
is known: the result is marked interrupted, its changes unverified where so.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from simbalance.analysis.compare import compare_arms
from simbalance.analysis.findings import Finding, thresholds
from simbalance.analysis.labels import metric_label
from simbalance.analysis.meta import MetaTable, cell_metric, needed_compositions, read_target_matrix
from simbalance.analysis.solve import (
    FAILS,
    MEETS,
    NO_TARGET,
    NUMBER,
    OPEN,
    UNPLAYED_BUDGET,
    VARIANT,
    Answer,
    Keep,
    Knob,
    Target,
    balance_test,
    change_size,
    check_keeps,
    check_knobs,
    check_targets,
    default_knobs,
    default_targets,
    describe_change,
    extend,
    judge,
    judge_models,
    kept_target,
    knob_from_table,
    label,
    order_by_card_values,
    parse_keep,
    parse_knob,
    parse_target,
    set_line,
    shortfall,
    solve_findings,
    test_words,
)
from simbalance.analysis.solve import candidates as all_candidates
from simbalance.analysis.stats import is_meta
from simbalance.core.aggregate import RunAggregate
from simbalance.core.config import toml_value
from simbalance.core.errors import ConfigError, RunInterrupted, SimbalanceError, did_you_mean
from simbalance.core.execution import RunOptions
from simbalance.core.lineup import all_strategies
from simbalance.core.plan import MAX_BUDGET, check_whole
from simbalance.core.rng import derive_seed
from simbalance.core.runner import MAX_GAMES, ProgressFactory
from simbalance.core.study import Study, StudyParams, option, stop_requested
from simbalance.studies.compare import ComparisonResult, same_games
from simbalance.studies.meta import MetaParams, composition_plan, play_table
from simbalance.studies.meta import population as meta_population
from simbalance.studies.race import Entry, Race
from simbalance.studies.run import OneDisplay, SimulationResult, play, run_command
from simbalance.studies.settings import RunSettings, api_entry

STAGE_MOST = 400  # candidates of one stage at the most: a larger stage grows from the last stage's best
SEARCH_FIRST = 200  # an expensive model's first block of games on a change (then doubling, up to search_n)
SKIPPED_SHOWN = 5  # refused candidates named in solution.json (all are counted)
DEFAULT_BUDGET_S = 20 * 60
SEARCH_PLAYER = "mcts"  # the search player of the default models (mcts@search_budget)
MARGIN = 1.25  # the verification's measured cost is kept aside with this margin (a loaded machine slows down)


@dataclass
class VerifyCosts:
    """What the verification costs, measured as it goes (docs/solve.md, "Budget"): per player model
    the seconds of one game in its latest run of many games (today's verification runs; an expensive
    model's first block, then each of its blocks), and the seconds of the latest refit of the fitted
    evaluation (a change's rules refit it before an expensive model's games). The search keeps
    ``reserve`` aside, and each step of the verification starts only when its cost fits the budget left."""

    verify_n: int
    cheap: list[str]  # the race's models: verify_n games each per answer
    costly: list[str]  # the expensive models: up to ``costly_most`` games each per answer, after a refit
    costly_most: int
    per_game: dict[str, float] = field(default_factory=dict)
    refit: float | None = None  # None: no refit measured yet (guessed: refit_guess)
    refits: bool = False  # the expensive models cut their play-outs by a fitted evaluation (a change refits it)
    racing: list[str] | None = None  # the race's models (those with a target under them); None: ``cheap``

    def measured(self, model: str, seconds: float, games: int) -> None:
        if games > 0:
            self.per_game[model] = max(seconds, 1e-6) / games

    def games(self, model: str, n: int) -> float:
        return self.per_game.get(model, 0.0) * n

    @property
    def refit_guess(self) -> float:
        """A refit's seconds: the measured one, else REFIT_GAMES games at the slowest heuristic's pace
        times 4 (recording every decision's features and fitting them)."""
        from simbalance.studies.evaluation import REFIT_GAMES

        if not self.refits:
            return 0.0
        if self.refit is not None:
            return self.refit
        return 4 * REFIT_GAMES * max((self.per_game.get(m, 0.0) for m in self.cheap), default=0.0)

    def block(self, n: int) -> float:
        """A race block of ``n`` games under every model of the race."""
        return MARGIN * sum(self.games(m, n) for m in (self.cheap if self.racing is None else self.racing))

    def answer(self, cheap_only: bool = False) -> float:
        """One answer's verification: every heuristic model's verify_n games, every expensive model's
        refit and its most games (``cheap_only``: the heuristics' part)."""
        return MARGIN * (sum(self.games(m, self.verify_n) for m in self.cheap) + (0.0 if cheap_only else sum(
            self.refit_guess + self.games(m, self.costly_most) for m in self.costly)))

    def today_left(self, played: dict[str, int]) -> float:
        """Today's rules' remaining games under the expensive models (played once, for every answer)."""
        return MARGIN * sum(self.games(m, max(self.costly_most - played.get(m, 0), 0)) for m in self.costly)

    def words(self) -> str:
        def pace(seconds: float) -> str:
            return f"{seconds:.1f} s a game" if seconds >= 1 else f"{seconds * 1000:.2f} ms a game"

        shown = [f"{m} {pace(self.per_game.get(m, 0.0))}" for m in self.cheap + self.costly]
        if self.costly and self.refits:
            shown.append(f"a refit of the fitted evaluation {self.refit_guess:.0f} s"
                         + ("" if self.refit is not None else " (guessed)"))
        return "; ".join(shown)


COMPILE_SAID = 0.1  # a compile that took this share of the budget or more is said in the notes


def parse_budget(budget: str | float | int | None) -> float:
    """``20m``, ``90s``, ``1h``, ``1h30m`` or a number of seconds."""
    if budget is None:
        return float(DEFAULT_BUDGET_S)
    if isinstance(budget, bool):
        raise SimbalanceError(f"--budget {budget!r}: give a time, e.g. 20m, 90s or 1h")
    if isinstance(budget, (int, float)):
        seconds = float(budget)
    else:
        text = str(budget).strip().lower()
        parts = re.fullmatch(r"(?:(\d+(?:\.\d+)?)h)?\s*(?:(\d+(?:\.\d+)?)m)?\s*(?:(\d+(?:\.\d+)?)s?)?", text)
        if not text or parts is None or not any(parts.groups()):
            raise SimbalanceError(f"--budget {budget}: give a time, e.g. 20m, 90s or 1h")
        h, m, s = (float(g) if g else 0.0 for g in parts.groups())
        seconds = 3600 * h + 60 * m + s
    if not (math.isfinite(seconds) and 0 < seconds <= 7 * 24 * 3600):
        raise SimbalanceError(f"--budget {budget}: allowed above 0 and at most a week")
    return seconds


@dataclass
class SolveResult:
    """What solve found: today's rules and every candidate tried, the verified answers, the chosen
    change's comparison with today's rules on the same fresh games, and how the search went."""

    game: str
    seed: int
    players: int
    targets: list[Target]
    knobs: list[Knob]
    today: dict  # analysis/stats.judge of today's rules on the verification games
    today_result: SimulationResult
    candidates: pd.DataFrame  # one row per candidate tried (keys, size, games, verdict, metrics)
    answers: list[Answer]  # the smallest found changes, verified (or not, when interrupted)
    comparison: ComparisonResult | None  # today's rules against the verified answers, the same games
    verify_n: int
    start_n: int
    budget_s: float
    seconds: float
    interrupted: bool = False
    budget_spent: bool = False  # the budget stopped the search
    verified: dict = field(default_factory=dict)  # answer words -> verified on fresh games
    notes: list[str] = field(default_factory=list)
    models: list = field(default_factory=list)  # the player models (PlayerModel) a change must meet under
    keeps: list[Keep] = field(default_factory=list)  # the metrics held near today's (--keep)
    complete: bool = True  # every change of up to max_keys knobs was raced (no stage grown from the best)
    unsettled: list = field(default_factory=list)  # the race's entries still possible when it ended
    search_n: int = 0  # the most games of an expensive (search) model on a change
    max_keys: int = 0  # the most knobs a change moves (0: no limit said)
    skipped: list[dict] = field(default_factory=list)  # candidates the engine refuses: {changes, reason}
    setup: Setup | None = None  # what the solve started from: every answer is played on it
    commands: dict[str, str] = field(default_factory=dict)  # answer words ("" today's rules) -> its run
    unheld: int = 0  # changes the search found that the budget left could not verify (docs/solve.md, "Budget")
    # plays(knob, value): does the engine play the setup with that knob at that value (studies/solve.refusal)
    plays: Any = field(default=None, repr=False, compare=False)
    metagame: dict | None = None  # the metagame's population and compositions (MetaGame.as_dict), when a target reads it

    def set_of(self, change: dict) -> str:
        """The options that play ``change`` on the setup the solve started from (its --variant and
        --set with the change's)."""
        setup = self.setup or Setup()
        return set_line(change, setup.variants, setup.overrides)

    def command_of(self, words: str) -> str | None:
        """The ``simbalance run`` that plays an answer (``""``: today's rules) as its verification
        did: read from the verification's own plan (studies/run.run_command), so it carries the
        setup the solve started from with the change."""
        return self.commands.get(words)

    @property
    def chosen(self) -> Answer | None:
        return next((a for a in self.answers if self.verified.get(a.words) and a.judged["verdict"] == MEETS), None)

    @property
    def closest_answer(self) -> Answer | None:
        """With nothing chosen, the change solution.json and the terminal name: the verified change
        that meets under the most player models, then is not refuted under the most (the one the
        findings' split names), else the first answer."""
        verified = [a for a in self.answers if self.verified.get(a.words)] or self.answers
        if not verified:
            return None
        return max(verified, key=lambda a: (sum(m["verdict"] == MEETS for m in a.models),  # the first of equals
                                            sum(m["verdict"] in (MEETS, OPEN) for m in a.models)))

    @property
    def no_change_needed(self) -> bool:
        return self.today["verdict"] == MEETS

    def side_effects(self) -> dict[str, str]:
        """Answer words -> the other metrics' significant changes against today's rules, in words."""
        out = {}
        if self.comparison is None:
            return out
        table = self.comparison.table
        for a in self.answers:
            part = table[(table["variant"] == a.words) & table["significant"]]
            part = part[~part["metric"].str.startswith("win rate seat") & (part["metric"] != "balance")]
            said = []
            for _, r in part.iterrows():
                diff = (f"{100 * r['diff']:+.1f} pts" if r["kind"] == "share" else f"{r['diff']:+.3g} {r['kind']}")
                said.append(f"{'game length' if r['metric'] == 'length' else metric_label(r['metric'])} {diff}")
            if "length" not in set(part["metric"]):
                said.insert(0, "game length unchanged")
            out[a.words] = ", ".join(said) if len(said) > 1 or len(part) else "game length unchanged, no other " \
                "metric changes significantly"
        return out

    def closest(self) -> pd.DataFrame:
        if not len(self.candidates):
            return self.candidates
        # nearest to meeting first: the worst target's Holm p, then the best measured (an estimate on
        # target from few games is not yet near), then the shortfall and the size
        table = self.candidates.assign(_fewer=-self.candidates["games"])
        return table.sort_values(["p_worst", "_fewer", "shortfall", "keys_changed", "distance"]).drop(
            columns="_fewer").head(5)

    def changed_game_findings(self) -> tuple[list[Finding], list[Finding]] | None:
        """The run's own findings (analysis/findings.py) of today's rules and of the chosen change on
        the verification's fresh games: what the changed game still shows, and what it no longer
        shows. None without a verified chosen change."""
        chosen = self.chosen
        if chosen is None or self.comparison is None or chosen.words not in self.comparison.arms:
            return None
        return self.comparison.baseline.findings(), self.comparison.arms[chosen.words].findings()

    def findings(self) -> list[Finding]:
        knobs = self.knobs
        if self.chosen is None:
            answers = [a for a in self.answers if self.verified.get(a.words)]
        else:
            answers = [self.chosen]
        return solve_findings(targets=self.targets, knobs=knobs, today=self.today, answers=answers,
                              closest=self.closest(), interrupted=self.interrupted, game=self.game,
                              side_effects=self.side_effects(), budget_spent=self.budget_spent,
                              # the models a change is judged under (not those played for the compare table only)
                              models=[m.words() for m in self.models if m.name in self.today["models"]],
                              keeps=self.keeps,
                              unsettled=len(self.unsettled), complete=self.complete, tried=self.candidates,
                              verify_n=self.verify_n, today_row=self._today_row(),
                              max_keys=self.max_keys if 0 < self.max_keys < len(self.knobs) else None,
                              unheld=self.unheld, plays=self.plays)

    def _today_row(self) -> dict:
        """Today's rules as a row of the candidates table (the targets' values under the first model,
        the favoured seat), a neighbour on every knob's grid."""
        first = self.today["tests"][0].get("model")
        row = {t["metric"]: t["value"] for t in self.today["tests"] if t.get("model") == first and t["keep"] is None}
        row.update(verdict=self.today["verdict"], keys_changed=0,
                   favoured=int(np.argmax(self.today_result.aggregate.seat_wins)))
        return row

    def solution(self) -> dict:
        """solution.json: the changes ready for ``--set``, the verified metrics with their CIs, the
        other players' verdicts, the candidates tried, the seed, the budget used, interrupted."""
        chosen = self.chosen
        best = chosen or self.closest_answer
        cols = [c for c in self.candidates.columns]
        return {
            "game": self.game, "seed": self.seed, "players": self.players,
            "targets": [{"metric": t.metric, "low": t.low, "high": t.high} for t in self.targets],
            "knobs": [{"key": k.key, "kind": k.kind, "low": k.low, "high": k.high, "step": k.step,
                       "step_computed": k.step_computed, "today": k.today,
                       "values": list(k.values)} for k in self.knobs],
            "no_change_needed": self.no_change_needed,
            "changes": dict(best.change) if best is not None else {},
            "set": self.set_of(best.change) if best is not None else self.set_of({}),
            # the run to play only for what meets (the chosen change, or today's rules when they need
            # none): a change that did not meet keeps its command in ``answers``, beside its verdict
            "command": (self.command_of(chosen.words) if chosen is not None else
                        self.command_of("") if self.no_change_needed else None),
            "setup": self.setup.as_dict() if self.setup is not None else None,
            "words": best.words if best is not None else None,
            "verified": bool(best is not None and self.verified.get(best.words)),
            "meets": bool(chosen is not None) or self.no_change_needed,
            "metrics": best.judged["tests"] if best is not None else self.today["tests"],
            "today": self.today["tests"],
            "models": best.models if best is not None else [],
            "player_models": [m.name for m in self.models],
            "keeps": [{"metric": k.metric, "tolerance": k.tol} for k in self.keeps],
            "unsettled": len(self.unsettled), "complete": self.complete,
            "answers": [{"changes": a.change, "set": self.set_of(a.change), "command": self.command_of(a.words),
                         "words": a.words, "size": list(a.size),
                         "verified": bool(self.verified.get(a.words)), "verdict": a.judged["verdict"],
                         "metrics": a.judged["tests"]} for a in self.answers],
            "candidates": [{c: _plain(r[c]) for c in cols} for _, r in self.candidates.iterrows()],
            "verify_n": self.verify_n, "start_n": self.start_n, "budget_s": self.budget_s,
            "seconds": round(self.seconds, 1), "budget_spent": self.budget_spent, "interrupted": self.interrupted,
            "notes": self.notes,
            "skipped": {"count": len(self.skipped), "first": self.skipped[:SKIPPED_SHOWN]},
            "findings_of_the_changed_game": self._changed_findings_json(),
            "metagame": self.metagame,
        }

    def _changed_findings_json(self) -> dict | None:
        pair = self.changed_game_findings()
        if pair is None:
            return None
        today, changed = pair
        return {"today": [f.to_dict() for f in today], "changed": [f.to_dict() for f in changed]}


@dataclass(frozen=True)
class Setup:
    """What a solve started from besides the game's own config: ``--config``, ``--players``,
    ``--variant``, ``--set``, ``--strategies``, ``--rotate``, and the verification's seed. Every
    candidate is played on it, so it is part of every answer: solution.json's ``set`` carries it
    (and ``command``, read from the verification's plan, plays it)."""

    config: str | None = None
    players: int | None = None
    variants: tuple[str, ...] = ()
    overrides: tuple[str, ...] = ()
    strategies: str | None = None
    rotate: bool = False
    verify_seed: int = 0

    @classmethod
    def of(cls, settings: RunSettings, strategies: list[str] | str | None, rotate: bool, verify_seed: int) -> Setup:
        names = ",".join(strategies) if isinstance(strategies, (list, tuple)) else strategies
        return cls(settings.config, settings.players, settings.variants, settings.overrides, names, bool(rotate),
                   verify_seed)

    def as_dict(self) -> dict:
        return {"config": self.config, "players": self.players, "variants": list(self.variants),
                "overrides": list(self.overrides), "strategies": self.strategies, "rotate": self.rotate,
                "verify_seed": self.verify_seed}


def _plain(v: Any) -> Any:
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, (np.floating, float)):
        return None if v != v else float(v)
    if isinstance(v, np.bool_):
        return bool(v)
    return v


def _targets(targets, cfg: dict, players: int) -> list[Target]:
    if targets is None or (not isinstance(targets, dict) and len(targets) == 0):
        return check_targets(default_targets(cfg))
    if isinstance(targets, dict):
        items = [f"{k}={v[0]}:{v[1]}" if isinstance(v, (list, tuple)) else f"{k}={v}" for k, v in targets.items()]
    else:
        items = [targets] if isinstance(targets, (str, Target)) else list(targets)
    return check_targets([t if isinstance(t, Target) else parse_target(t, players) for t in items])


def _knobs(knobs, cfg: dict, game: str) -> list[Knob]:
    if knobs is None or (not isinstance(knobs, dict) and len(knobs) == 0):
        return check_knobs(default_knobs(cfg, game))
    if isinstance(knobs, dict):
        return check_knobs([knob_from_table(k, v, cfg, game, f"knob {k}") for k, v in knobs.items()])
    items = [knobs] if isinstance(knobs, str) else list(knobs)
    return check_knobs([parse_knob(k, cfg, game) for k in items])


def refusal(setup: RunSettings, run: dict) -> str | None:
    """Why the engine refuses to play ``setup`` (the run's own planning: the config's keys and types,
    the players, the engine's ``prepare`` checks such as a deal that leaves a seat no card), or None
    when it plays. A combination of knobs each playable alone may still be refused together."""
    try:
        setup.plan(10, **run)  # planning does not depend on the number of games
    except SimbalanceError as exc:
        return str(exc)
    return None


def changed_setup(settings: RunSettings, change: dict, seed: int) -> RunSettings:
    """The setup the solve started from with ``change`` on top: the change's variant file after the
    setup's, its keys after the setup's --set (setup_args writes them in the same order)."""
    variants = settings.variants + ((change[VARIANT],) if VARIANT in change else ())
    return settings.but(seed=seed, variants=variants, overrides=settings.overrides + tuple(
        f"{k}={toml_value(v)}" for k, v in change.items() if k != VARIANT))


def plays_on(settings: RunSettings, run: dict, seed: int = 0) -> Callable[[Knob, Any], bool]:
    """``plays(knob, value)``: does the engine play the setup with ``knob`` at ``value`` alone (the
    check every knob's ends pass before the search; a suggested wider range's end passes it too)."""
    def plays(knob: Knob, value: Any) -> bool:
        return refusal(changed_setup(settings, {knob.key: value}, seed), run) is None

    return plays


def skipped_note(skipped: list[dict]) -> str:
    """The note of the candidates left out because the engine refuses them, with the first reason."""
    first = skipped[0]
    count = len(skipped)
    return (f"{count:,} candidate{'s' * (count > 1)} skipped before any game: the engine refuses "
            f"{'the combination' if count == 1 else 'these combinations'} (e.g. {first['words']}: {first['reason']})")


META_N = 2_000  # games per composition of the metagame in a verification (a cell within about 2 points)
META_COMPOSITIONS = 500  # the most compositions a candidate's metagame plays (each block plays them all)


class _Counted:
    """The race's round bar as the progress factory of a metagame block: each composition's games are
    counted on it after those of the compositions before."""

    def __init__(self, bar: dict):
        self.bar, self.base, self.done = bar, bar.get("games", 0), 0

    def __call__(self, _label: str):
        start = self.done

        def show(done: int, _total: int, _seconds: float) -> None:
            self.done = start + done
            shown = self.bar.get("shown")
            if shown is not None:
                shown(self.base + self.done, self.bar["total"], time.perf_counter() - self.bar["start"])

        return show


@dataclass(frozen=True)
class MetaGame:
    """The metagame a solve's targets read (docs/solve.md, "The metagame"): the population, the
    compositions its targets need (every one for dominance, only the cells' own for a target matrix
    alone: analysis/meta.needed_compositions), and how many games per composition a block plays:
    ``meta_n`` in a verification (where a run model plays ``verify_n``), in proportion in the race's
    smaller blocks, never fewer than the seatings of a composition (each played equally often)."""

    names: tuple[str, ...]
    presets: dict
    counts: np.ndarray
    meta_n: int
    verify_n: int
    seatings: int
    cell_targets: list[Target]

    @classmethod
    def of(cls, settings: RunSettings, targets: list[Target], population: Any, target_matrix: str | None,
           meta_n: int, verify_n: int) -> MetaGame | None:
        """None when no target reads the metagame; every input checked before any game."""
        wanted = [t.metric for t in targets if is_meta(t.metric)]
        if not wanted and target_matrix is None:
            if population is not None:
                raise ConfigError("--population: the metagame's population serves --target dominance=LO:HI or "
                                  "--target-matrix FILE; give one, or leave --population out")
            return None
        given = None
        if population is not None:
            given = [s.strip() for s in population.split(",")] if isinstance(population, str) else list(population)
            if len(given) != len(set(given)) or not all(given):
                raise ConfigError(f"--population {','.join(map(str, given))}: give distinct strategy names, "
                                  "comma-separated")
        names, presets, players, _engine = meta_population(settings, MetaParams(strategies=given), "--population")
        cells = []
        if target_matrix is not None:
            frame = read_target_matrix(str(target_matrix), tuple(names))
            cells = [Target(cell_metric(r.strategy, r.field), max(r.target - r.tolerance, 0.0),
                            min(r.target + r.tolerance, 1.0)) for r in frame.itertuples()]
        counts = needed_compositions(len(names), players, wanted + [t.metric for t in cells], tuple(names))
        if len(counts) > META_COMPOSITIONS:
            raise ConfigError(f"--population: {len(names)} strategies at {players} seats make {len(counts):,} "
                              f"compositions for dominance (at most {META_COMPOSITIONS}, each played by every "
                              "candidate); give fewer strategies")
        seatings = max(math.factorial(players) // math.prod(math.factorial(int(v)) for v in row) for row in counts)
        meta_n = check_whole("--meta-n", meta_n, seatings, MAX_GAMES)
        return cls(tuple(names), presets, counts, meta_n, verify_n, seatings, cells)

    @property
    def model(self) -> PlayerModel:
        return PlayerModel("metagame", None, False, dict(self.presets), False, self)

    def games(self, n: int) -> int:
        """Games per composition for a block of ``n`` games of a run model (``verify_n``: ``meta_n``)."""
        return max(self.seatings, math.ceil(n * self.meta_n / self.verify_n))

    def words(self) -> str:
        return f"the metagame of {', '.join(self.names)} ({len(self.counts)} compositions at the table)"

    def note(self, start_n: int) -> str:
        return (f"the metagame's targets are read from {len(self.counts)} compositions of {', '.join(self.names)} "
                f"played on each candidate's rules (seats rotated, common random numbers): {self.meta_n:,} games "
                f"per composition in a verification, {self.games(start_n):,} in the search's first block, doubling "
                f"(in proportion to the run models' {start_n:,})")

    def warm_plan(self, settings: RunSettings):
        """Two games of one composition: the population's kernels compiled before a pace is timed."""
        return composition_plan(settings, list(self.names), self.presets, self.counts[-1], 2)

    def as_dict(self) -> dict:
        from simbalance.analysis.meta import composition_label

        return {"population": list(self.names), "compositions": [composition_label(c, self.names) for c in self.counts],
                "games_per_composition": self.meta_n, "targets": [t.metric for t in self.cell_targets]}


@dataclass(frozen=True)
class PlayerModel:
    """A model of the players a change must hold under: one strategy at every seat (``builder``,
    ``mcts@32``), or the run's own lineup (``--strategies``, with ``--rotate``). ``expensive``: a
    search player, played on the survivors only (up to ``search_n`` games: settle_costly)."""

    name: str
    strategies: list[str] | None  # None: the config's default lineup
    rotate: bool = False
    presets: dict = field(default_factory=dict)
    expensive: bool = False
    meta: MetaGame | None = None  # the metagame of a population (a --target dominance or --target-matrix)

    def words(self) -> str:
        if self.meta is not None:
            return self.meta.words()
        if self.strategies is not None and len(self.strategies) == 1 and not self.rotate:
            return f"{self.name} at every seat"
        return f"the lineup {self.name}" + (" (rotated)" if self.rotate else "")


def player_models(plan, models: Any, strategies: Any, rotate: bool, search: str, search_budget: int) -> list[PlayerModel]:
    """The player models a change must meet its targets under (docs/solve.md, "--models").

    Default (``models`` None or True): each of the game's heuristics at every seat, ``random`` left
    out where the game has another (no model of real players), and its search player at
    ``search_budget`` (``mcts@32``) where it has one. ``models`` a string ``"builder,mcts@32"`` or a
    list: those strategies (heuristics, presets, ``<search>@<budget>``), each at every seat; False:
    the run's lineup alone. ``strategies`` given: the run's lineup is a model too, the first. An
    unknown name is one line."""
    from simbalance.studies.robustness import at_budget, default_models

    engine = plan.engine
    infos = all_strategies(plan.config, engine.strategies, engine.strategy_params)
    lineup = list(plan.lineup.slot_names)
    own = None
    if strategies is not None:
        names = [s.strip() for s in strategies.split(",")] if isinstance(strategies, str) else list(strategies)
        own = PlayerModel(",".join(names) if len(set(names)) > 1 else names[0], names if len(set(names)) > 1
                          else names[:1], rotate)
    elif models is False:  # the config's default lineup, as the run plays it
        own = PlayerModel(",".join(lineup), None, rotate)
    if models is False:
        return [own]
    if engine.search is not None and (search not in infos or not engine.is_search(infos[search].base)):
        raise SimbalanceError(f"--search {search!r}: not a search player of {plan.spec.id}"
                              f"{did_you_mean(search, infos)}")
    names, presets = default_models(plan.config, engine, search if engine.has_decisions else None, search_budget)
    if len(names) > 1:
        names = [n for n in names if n != "random"]
    if models is not None and models is not True:
        wanted = [m.strip() for m in models.split(",")] if isinstance(models, str) else [str(m) for m in models]
        if not wanted or any(not m for m in wanted):
            raise SimbalanceError(f"--models {models}: give strategy names, comma-separated, e.g. --models "
                                  "builder,bold,mcts@32")
        allowed = {**infos, **presets}
        for m in wanted:
            budgeted = at_budget(m, infos, engine)
            if budgeted is not None:
                presets[m] = allowed[m] = budgeted
            if m not in allowed:
                searching = " (or a search player at a budget, e.g. mcts@32)" if engine.search is not None else ""
                raise SimbalanceError(f"--models: unknown player {m!r}{did_you_mean(m, allowed)}; known: "
                                      f"{', '.join(allowed)}{searching}")
        if len(set(wanted)) != len(wanted):
            raise SimbalanceError(f"--models {','.join(wanted)}: a player named twice")
        names = wanted
    else:  # the run's own strategy first: its games are the compare table's
        names.sort(key=lambda n: n not in lineup)
    out = [PlayerModel(n, [n], False, {n: presets[n]} if n in presets else {},
                       n in presets or engine.is_search(infos[n].base)) for n in names]
    if own is not None and not any(m.strategies == own.strategies and m.rotate == own.rotate for m in out):
        out.insert(0, own)
    elif own is not None:  # the same model given twice: the run's lineup first
        out.sort(key=lambda m: not (m.strategies == own.strategies))
    return out


@dataclass(frozen=True)
class SolveParams(StudyParams):
    """What a solve searches and verifies beyond the settings every study shares
    (studies/settings.RunSettings), declared once: the command's options (cli/solve_cmd.py shows the
    result) and the API's keywords (``simbalance.api.solve``) come from these fields, in this order,
    and ``check`` is the one check of each value that needs no game (the rest, which reads the
    game's config, in ``play_solve`` before any game).

    ``targets``: ``["balance=0.97:1", "length_median=55:65"]`` (``--target``) or ``{"balance": (0.97,
    1)}``; None: the config's ``[targets]``. ``knobs``: ``["ships.4=24:36",
    "rules.call_timing=after_discard,before_draw", "rules.take_back", "variant=take-back"]``
    (``--knob``) or a ``[knobs]`` table's form (``{"ships.4": (24, 36), "variant": ["take-back"]}``);
    None: the config's ``[knobs]``. ``models``: the player models (player_models; ``"aggressor"``:
    that one alone; False: the run's lineup alone). ``keep``: ``["ties=0.02", "length_median=2"]``.
    ``budget``: the search's time (``"20m"``, seconds). ``card_values``: a card-value result of the
    game (``simbalance.card_value(...)``, its card_value.json's path or contents). ``dominance=LO:HI``
    among the targets and ``target_matrix`` read the metagame of ``population`` on each candidate's
    rules, ``meta_n`` games per composition in a verification (MetaGame; docs/solve.md)."""

    targets: list[str] | dict | None = option(None, kind=list, flag="--target", positional=True, help=(
        "METRIC=LO:HI, e.g. balance=0.97:1 or length_median=55:65 (repeatable; default: the config's \\[targets]). "
        "Metrics: balance, first_player_advantage, length_median, length_mean, ties, timeouts, stalemates, "
        "win_rate_seat_K, dominance (the best strategy's margin over an even field of --population, from the "
        "metagame on the candidate's rules)."))
    target_matrix: str | None = option(None, help=(
        "A designer's target win-rate matrix between named strategies (TAG form): a .json or .toml with strategies, "
        "target (rows: the row's strategy alone in a field of the column's; null/nan: no target) and tolerance, or a "
        "CSV strategy,field,target,tolerance. Meets when every cell's interval lies within its tolerance."))
    population: list[str] | str | None = option(None, help=(
        "The metagame's strategies for dominance and --target-matrix, comma-separated (default: the game's "
        "heuristics and presets, as `simbalance meta`)."))
    meta_n: int = option(META_N, count=True, help="Games per composition of the metagame in a verification (the "
                         "search's blocks play in proportion).")
    knobs: list[str] | dict | None = option(None, kind=list, flag="--knob", positional=True, help=(
        "What the search may change (repeatable; default: the config's \\[knobs]): a number KEY=LO:HI or "
        "KEY=LO:HI:STEP (ships.4=24:36), a choice KEY=A,B (rules.call_timing=after_discard,before_draw), a "
        "true/false rule KEY=true,false or just KEY, the game's variant files variant=NAME,NAME or just variant."))
    budget: str | float = option("20m", help="Time for the whole solve: 20m, 90s, 1h (the search stops early enough "
                                 "to leave the verification its estimated time).")
    strategies: list[str] | str | None = option(None, help="Strategy per seat, comma-separated.")
    rotate: bool = option(False, kind=bool, help="Play every seat permutation of the strategies.")
    verify_n: int = option(100_000, count=True, shown="1e5", help="Games of each verification on a fresh seed "
                           "(today's rules and each answer).")
    start_n: int = option(400, count=True, help="Games per candidate in the search's first rung (doubled at each "
                          "rung).")
    answers: int = option(3, kind=int, help="How many of the smallest changes found are verified.")
    max_keys: int = option(3, kind=int, help="Change at most this many knobs at once.")
    models: bool | str | list[str] | None = option(None, help=(
        "The player models a change must meet every target under, comma-separated, each at every seat: heuristics, "
        "presets, a search player at a budget (mcts@32). Default: each of the game's heuristics but random, and "
        "mcts@SEARCH_BUDGET. --models aggressor: that one alone."))
    keep: list[str] | str | None = option(None, kind=list, help=(
        "METRIC or METRIC=TOL: hold another metric within TOL of today's value, tested like a target (repeatable), "
        "e.g. ties=0.02 or length_median=2 (default TOL: 2 points for a share, 10% for a length)."))
    search_budget: int = option(32, kind=int, help="The search player's budget (mcts iterations) in the default "
                                "models.")
    search_n: int = option(3000, count=True, help=(
        "The most games of a search player model on a change that meets under the heuristics (and on today's "
        "rules): blocks of 200, doubling, until it is settled there."))
    card_values: Any = option(None, kind=Path, help=(
        "A card_value.json (or its folder) from `simbalance card-value GAME`: the deck knobs of the cards worth "
        "most are tried first."))

    def check(self) -> None:
        parse_budget(self.budget)
        set_ = lambda name, value: object.__setattr__(self, name, value)  # noqa: E731 (a frozen dataclass)
        set_("verify_n", check_whole("--verify-n", self.verify_n, 100, MAX_GAMES))
        set_("start_n", check_whole("--start-n", self.start_n, 10, MAX_GAMES))
        set_("answers", check_whole("--answers", self.answers, 1, 20))
        set_("max_keys", check_whole("--max-keys", self.max_keys, 1, 4))
        set_("search_n", check_whole("--search-n", self.search_n, 10, MAX_GAMES))
        set_("search_budget", check_whole("--search-budget", self.search_budget, 1, MAX_BUDGET))

    @property
    def budget_s(self) -> float:
        return parse_budget(self.budget)


def play_solve(settings: RunSettings, params: SolveParams, progress: ProgressFactory | None) -> SolveResult:
    """Search the knobs for the smallest changes that meet every target under every player model
    (module docstring), with ``settings`` applying to every run. Asks ``core/study.stop_requested``
    between chunks (the command's Ctrl-C; from Python ``with stopping(fn): ...``): a stop keeps what
    is known (``SolveResult.interrupted``), or, before today's rules are known, raises RunInterrupted."""
    started = time.perf_counter()
    targets, knobs, target_matrix, population, meta_n = (params.targets, params.knobs, params.target_matrix,
                                                         params.population, params.meta_n)
    strategies, rotate, models, keep, card_values = (params.strategies, params.rotate, params.models, params.keep,
                                                     params.card_values)
    verify_n, start_n, answers, max_keys, search_n, search_budget = (
        params.verify_n, params.start_n, params.answers, params.max_keys, params.search_n, params.search_budget)
    budget_s = params.budget_s
    search = SEARCH_PLAYER
    stop = stop_requested
    run = dict(strategies=strategies, rotate=rotate)
    verify_seed = derive_seed(settings.seed, "solve verify")
    base_plan = settings.but(seed=verify_seed).plan(verify_n, **run)
    cfg = base_plan.config
    players = base_plan.players
    # a target matrix alone is the targets: the config's [targets] stand in only when nothing is asked
    given = targets is not None and (isinstance(targets, (str, Target)) or len(targets) > 0)
    target_list = _targets(targets, cfg, players) if given or target_matrix is None else []
    keep_list = check_keeps([parse_keep(k, players) for k in ([keep] if isinstance(keep, str) else keep or [])],
                            target_list)
    meta = MetaGame.of(settings, target_list, population, target_matrix, meta_n, verify_n)
    if meta is not None:
        target_list = target_list + meta.cell_targets
    run_targets = [t for t in target_list if not is_meta(t.metric)]
    meta_targets = [t for t in target_list if is_meta(t.metric)]
    model_list = player_models(base_plan, models, strategies, rotate, search, search_budget)
    meta_notes = []
    if meta is not None and not run_targets and not keep_list:
        # no target under the run's player models: they play the verification only (the compare table,
        # the changed game's findings), and the search player, dear for no target, not at all
        dropped = [m.words() for m in model_list if m.expensive]
        model_list = [m for m in model_list if not m.expensive]
        meta_notes.append("every target is the metagame's: "
                          + ", ".join(m.words() for m in model_list) + " play each verification only, for what "
                          "else the change does (the compare table)" + (f"; {', '.join(dropped)} is not played (no "
                                                                        "target under it)" if dropped else ""))
    if meta is not None:
        model_list = model_list + [meta.model]
    knob_list = _knobs(knobs, cfg, settings.game)
    by_key = {k.key: k for k in knob_list}
    notes = [f"{k.key}: today's value {toml_value(k.today)} lies outside its range {k.low:g} to {k.high:g}; a "
             "change's size is measured from today's value" for k in knob_list if k.outside] + meta_notes
    if meta is not None:
        notes.append(meta.note(start_n))

    def with_change(change: dict, seed: int) -> RunSettings:
        return changed_setup(settings, change, seed)

    plays = plays_on(settings, run, verify_seed)

    def plan_of(change: dict, model: PlayerModel, seed: int, n: int):
        return with_change(change, seed).plan(n, strategies=model.strategies, rotate=model.rotate,
                                              presets=model.presets or None)

    today_plan = settings.but(seed=verify_seed).plan(10, **run)
    idle = []
    for k in knob_list:  # every knob's ends (every value of a choice) are playable rules: checked before any game
        same = []
        for v in (k.values[0], k.values[-1]) if k.kind == NUMBER else k.values:
            try:
                plan = with_change({k.key: v}, verify_seed).plan(10, **run)
            except SimbalanceError as exc:
                raise ConfigError(f"--knob {k.text()}: {k.key} = {k.value_text(v)} is not a playable rule: {exc}") \
                    from None
            same.append(same_games(plan, today_plan))
        if all(same):  # a key this player count never reads (ships.4 with 3 players)
            idle.append(k)
    if idle:
        notes.append(f"{', '.join(k.key for k in idle)}: change{'s' * (len(idle) == 1)} nothing with {players} "
                     "players (the engine plays today's games at both ends of the range): left out of the search")
        knob_list = [k for k in knob_list if k not in idle]
        by_key = {k.key: k for k in knob_list}
        if not knob_list:
            raise ConfigError(f"no knob changes the games with {players} players: "
                              f"{', '.join(k.key for k in idle)} {'is' if len(idle) == 1 else 'are'} not read at "
                              "this player count")
    if card_values is not None:
        from simbalance.analysis.card_value import card_priority  # the file's schema checked (issue 54)

        knob_list, said = order_by_card_values(knob_list, card_priority(card_values, settings.game))
        notes.append(said or "card values given, but no knob counts a valued card: the knobs keep their order")
    cheap = [m for m in model_list if not m.expensive] or model_list  # the race's models
    costly = [m for m in model_list if m not in cheap]  # played on the survivors only
    names = {m.name: m for m in model_list}
    options = RunOptions(stop=stop)
    kept = RunOptions(stop=stop, keep_games=True)

    def play_meta(change: dict, seed: int, n: int, label: str, display=None) -> MetaTable:
        """The metagame on ``change``'s rules: every composition its targets read, meta.games(n) games
        each on ``seed`` (the same for every candidate: common random numbers), one display for the
        table (``display``: the race's round bar, else its own)."""
        per = meta.games(n)
        shown = display
        if shown is None and progress is not None:
            shown = OneDisplay(progress, f"{label} ({len(meta.counts)} compositions x {per:,} games)",
                               len(meta.counts) * per)
        try:
            return play_table(with_change(change, seed), list(meta.names), meta.presets, meta.counts, per, shown,
                              options)
        finally:
            if shown is not None and display is None:
                shown.close()
    game_id = settings.game
    interrupted = False
    found: list[Entry] = []  # the candidates that met every target under every model of the race
    tried: list[Entry] = []
    answer_list: list[Answer] = []
    verified: dict[str, bool] = {}
    skipped: list[dict] = []  # candidates the engine refuses (studies/solve.refusal), never played

    def playable(stage: list[dict]) -> list[dict]:
        """The candidates the engine plans (each checked as a run's planning checks it, before any of
        its games); the others are counted in ``skipped``, never raced."""
        out = []
        for change in stage:
            reason = refusal(with_change(change, verify_seed), run)
            if reason is None:
                out.append(change)
            else:
                skipped.append({"changes": change, "words": describe_change(change, by_key), "reason": reason})
        return out

    comparison = None
    complete = True  # every change of up to max_keys knobs was raced (no stage grown from the best)

    # 1. today's rules on the verification games, under every model of the race
    today_runs: dict[str, SimulationResult] = {}
    compiling = [0.0]  # seconds of the budget the players' first compile took (warm_up: untimed as pace)
    today_meta = None
    meta_seconds = 0.0
    try:
        for m in cheap:  # compiled (a first compile takes minutes under load) before their pace is timed
            began = time.perf_counter()
            warm_up(plan_of({}, m, verify_seed, 2) if m.meta is None else meta.warm_plan(with_change({}, verify_seed)))
            compiling[0] += time.perf_counter() - began
        for i, m in enumerate(cheap):
            if m.meta is not None:
                began = time.perf_counter()
                today_meta = play_meta({}, verify_seed, verify_n, f"{game_id}: today's rules, {m.words()}")
                meta_seconds = time.perf_counter() - began
                continue
            today_runs[m.name] = play(plan_of({}, m, verify_seed, verify_n), progress,
                                      f"{game_id}: today's rules, {m.words()} ({verify_n:,} games)",
                                      kept if i == 0 else options)
    except RunInterrupted as stopped:  # the run's own count of the games it played
        raise RunInterrupted(stopped.games_done, verify_n) from None
    except KeyboardInterrupt:
        raise RunInterrupted(0, verify_n) from None
    today_result = today_runs[cheap[0].name]
    per_model: dict[str, list[Target]] = {}

    def targets_of(model: str, today_agg: RunAggregate) -> list[Target]:
        """The targets, and the kept metrics as targets around today's value under ``model``: the
        metagame's targets under the metagame model, the run's under every other."""
        if meta is not None and model == meta.model.name:
            return meta_targets
        sampled = model in {m.name for m in costly}  # the search player's today: a few hundred games, not exact
        return run_targets + [kept_target(k, today_agg, players, sampled) for k in keep_list]

    def judged(aggs: dict) -> dict:
        """The family of every model with a target under it (a model without one plays for the compare
        table only)."""
        return judge_models({n: a for n, a in aggs.items() if per_model.get(n)}, per_model)

    for name, r in today_runs.items():
        per_model[name] = targets_of(name, r.aggregate)
    first_aggs = {n: r.aggregate for n, r in today_runs.items()}
    if today_meta is not None:
        per_model[meta.model.name] = meta_targets
        first_aggs[meta.model.name] = today_meta
    today = judged(first_aggs)
    racing = [m for m in cheap if per_model.get(m.name)]  # the race's models: those with a target under them
    # the verification's cost, measured: today's runs (each heuristic model), then the expensive
    # models' first block on today's rules (its refit timed apart), played now to measure them
    search_first = min(SEARCH_FIRST, search_n)
    most_blocks = 1  # an expensive model's blocks on a change: search_first x (1, 2, 4...) up to search_n
    while search_first * (2 ** (most_blocks + 1) - 1) <= search_n:
        most_blocks += 1
    costs = VerifyCosts(verify_n, [m.name for m in cheap], [m.name for m in costly],
                        search_first * (2 ** most_blocks - 1))
    for name, r in today_runs.items():
        costs.measured(name, r.elapsed, verify_n)
    if today_meta is not None:  # the metagame's pace per game of a run model's (its games scale with them)
        costs.measured(meta.model.name, meta_seconds, verify_n)
    costs.racing = [m.name for m in racing]
    end = started + budget_s
    short: list[str] = []  # what the budget left could not hold of the verification, in words

    def fits(seconds: float) -> bool:
        return time.perf_counter() + seconds <= end

    today_aggs = dict(first_aggs)  # every model's, the expensive ones' as played
    today_blocks: dict[str, int] = {}
    warmed: set[str] = set()

    def search_block(change: dict, m: PlayerModel, k: int) -> RunAggregate:
        """Block ``k`` of an expensive model's games: ``search_first × 2^k`` games on the same seed for
        today's rules and every change (common random numbers); its refit and its games timed."""
        n = search_first * 2 ** k
        words = describe_change(change, by_key) if change else "today's rules"
        plan = plan_of(change, m, derive_seed(settings.seed, "solve search", k), n)
        if plan.refit is not None or plan.search_eval is not None:
            costs.refits = True  # a change's rules refit the fitted evaluation before these games
        if plan.refit is not None:
            began = time.perf_counter()
            plan = plan.ready(progress)
            costs.refit = time.perf_counter() - began
        if m.name not in warmed:  # its kernel compiled before its pace is timed
            began = time.perf_counter()
            warm_up(replace(plan, n=min(2, plan.n)))
            compiling[0] += time.perf_counter() - began
            warmed.add(m.name)
        began = time.perf_counter()
        agg = play(plan, progress, f"{game_id}: {words}, {m.words()} ({n:,} games)", options).aggregate
        costs.measured(m.name, time.perf_counter() - began, n)
        return agg

    def today_search(m: PlayerModel, blocks: int) -> None:
        """Today's rules under an expensive model, to at least ``blocks`` blocks (its kept metrics' ranges
        follow today's estimate under it)."""
        while today_blocks.get(m.name, 0) < blocks:
            k = today_blocks.get(m.name, 0)
            agg = search_block({}, m, k)
            today_aggs[m.name] = agg if k == 0 else today_aggs[m.name].merge(agg)
            today_blocks[m.name] = k + 1
        per_model[m.name] = targets_of(m.name, today_aggs[m.name])

    try:
        for m in costly:  # the first block: what the search player's games (and a refit) cost
            today_search(m, 1)
    except (KeyboardInterrupt, RunInterrupted):
        raise RunInterrupted(0, search_first) from None

    def today_played() -> dict[str, int]:
        return {m.name: search_first * (2 ** today_blocks.get(m.name, 0) - 1) for m in costly}

    # as many answers' verifications as the budget left can hold (at most ``answers``), fixed now; when
    # not one whole verification fits, as many under the heuristics alone (the search player's games
    # then stop where the budget does: the change is not settled under it, never an answer)
    one, today_rest = costs.answer(), costs.today_left(today_played())
    left = end - time.perf_counter()
    held = answers if one <= 0 else max(0, min(answers, int((left - today_rest) // one)))
    cheap_held = held or max(0, min(answers, int(left // max(costs.answer(cheap_only=True), 1e-9))))

    def reserve() -> float:
        """The verification's cost kept aside from the search: ``held`` answers and today's remaining
        expensive games (else ``cheap_held`` answers under the heuristics), at the pace measured last
        (the machine's load changes)."""
        if held:
            return held * costs.answer() + costs.today_left(today_played())
        return cheap_held * costs.answer(cheap_only=True)

    first_need = one + today_rest
    if not held:
        under = (f"is verified under {', '.join(m.name for m in cheap)} alone; not settled under "
                 f"{', '.join(m.name for m in costly)} (a longer --budget settles it)" if cheap_held else
                 "is given unverified (not even its verification under the heuristics fits)")
        short.append(f"the budget cannot hold the verification of one answer: about {first_need / 60:.1f} min "
                     f"measured ({costs.words()}), {max(left, 0) / 60:.1f} min left after today's rules; a change "
                     f"the search finds {under}")
    elif held < answers:
        short.append(f"the budget holds the verification of {held} of the {answers} answers asked (about "
                     f"{one / 60:.1f} min each, measured: {costs.words()}): the search leaves time for {held}")
    bar: dict = {}  # the round's progress bar, which every block of the round moves on

    def race_block(change: dict, model: str, block: int, n: int) -> RunAggregate | MetaTable:
        began = time.perf_counter()
        seed = derive_seed(settings.seed, "solve rung", block)
        if names[model].meta is not None:
            agg = play_meta(change, seed, n, "", display=_Counted(bar))
            bar["games"] = bar.get("games", 0) + len(meta.counts) * meta.games(n)
        else:
            agg = _block(plan_of(change, names[model], seed, n), bar, options)
        if n >= verify_n // 10:  # a block large enough to re-measure the pace (the machine's load changes)
            costs.measured(model, time.perf_counter() - began, n)
        return agg

    def block_played(n: int) -> int:
        """The games a race block of ``n`` plays under every model of the race (the metagame's: every
        composition's)."""
        return sum(n if m.meta is None else len(meta.counts) * meta.games(n) for m in racing)

    race = Race(race_block, [m.name for m in racing], per_model, start_n, verify_n, answers,
                lambda: end - reserve(), costs.block)

    def settle_costly(change: dict | None, aggs: dict[str, RunAggregate]) -> dict:
        """The expensive models on a change (None: today's rules) that meets under the others: blocks
        of ``search_first`` games, doubling, until each model is settled there (meets or refuted), the
        next block would pass ``search_n`` games, or its measured cost would pass the budget (said in
        the notes; a model whose first block could not be played leaves the change not settled).
        Returns the family's judgement."""
        judgement = judged(aggs)
        for m in costly:
            k = 0
            while True:
                n = search_first * 2 ** k
                need = costs.games(m.name, n) * ((change is not None) + (today_blocks.get(m.name, 0) <= k)) + (
                    costs.refit_guess if change is not None and k == 0 else 0.0)
                if not fits(MARGIN * need):
                    what = describe_change(change, by_key) if change else "today's rules"
                    short.append(f"{m.name} on {what}: stopped at {search_first * (2 ** k - 1):,} games, its next "
                                 f"block ({n:,} games, about {MARGIN * need:.0f} s measured) would pass the budget")
                    break
                today_search(m, k + 1)
                if change is None:
                    aggs[m.name] = today_aggs[m.name]
                else:
                    agg = search_block(change, m, k)
                    aggs[m.name] = agg if k == 0 else aggs[m.name].merge(agg)
                judgement = judged(aggs)
                k += 1
                if judgement["models"][m.name] != OPEN or search_first * (2 ** (k + 1) - 1) > search_n:
                    break
        if any(m.name not in aggs for m in costly) and judgement["verdict"] == MEETS:
            judgement = dict(judgement, verdict=OPEN)  # not played under every model: not an answer
        return judgement

    def result(**more) -> SolveResult:
        if compiling[0] >= COMPILE_SAID * budget_s:  # a first use's compile is part of the whole command's time
            notes.append(f"compiling the players' kernels (their first use in this checkout) took "
                         f"{compiling[0]:.0f} s of the {budget_s:.0f} s budget; a second solve starts at once")
        table = pd.DataFrame([race_row(e, knob_list, by_key, names, today_aggs, today["models"]) for e in tried])
        if len(table):
            table = table.sort_values(["keys_changed", "distance"], kind="stable").reset_index(drop=True)
            table["pareto"] = pareto_front(table)
        return SolveResult(game_id, settings.seed, players, target_list, knob_list, today, today_result, table,
                           answer_list, comparison, verify_n, start_n, budget_s, time.perf_counter() - started,
                           interrupted, race.budget_spent, verified, notes, models=model_list, keeps=keep_list,
                           complete=complete, unsettled=[e for e in tried if e.blocks and e.verdict == OPEN],
                           search_n=search_n, max_keys=max_keys, skipped=skipped,
                           setup=Setup.of(settings, strategies, rotate, verify_seed), plays=plays,
                           metagame=meta.as_dict() if meta is not None else None, **more)

    if today["verdict"] == MEETS and costly:
        try:
            today = settle_costly(None, dict(today_aggs))
        except (KeyboardInterrupt, RunInterrupted):
            raise RunInterrupted(0, search_n) from None
    if today["verdict"] == MEETS:
        return result(commands={"": run_command(today_result.plan)})

    # 2. the search: stages of 1, 2, ... knobs, each a race (studies/race.py) on common random numbers
    def show(rnd: int, batch: list[Entry]):
        if progress is None:
            return None
        total = sum(block_played(race.block_games(e.blocks)) for e in batch)
        left = max(end - reserve() - time.perf_counter(), 0.0)
        shown = progress(f"{game_id}: {batch[0].stage} knob{'s' * (batch[0].stage > 1)}, round {rnd + 1} "
                         f"({len(batch)} candidates x {len(racing)} model{'s' * (len(racing) > 1)}; search budget "
                         f"{left / 60:.1f} min left)")
        bar.update(shown=shown, total=total, games=0, start=time.perf_counter())
        return shown

    try:
        for keys in range(1, min(max_keys, len(knob_list)) + 1):
            stage = all_candidates(knob_list, keys)
            if keys > 1 and len(stage) > STAGE_MOST:  # too many to race: grow the last stage's best by one knob
                ranked = sorted((e for e in tried if e.stage == keys - 1), key=lambda e: (
                    e.judged["shortfall"], e.judged["shortfall_all"], e.size))
                stage = extend([e.change for e in ranked], knob_list, STAGE_MOST)
                complete = False
            stage = playable(stage)
            entries = sorted((Entry(c, change_size(c, by_key), keys) for c in stage), key=lambda e: e.size)
            tried += entries
            race.run(entries, found, show)
            if len(found) >= answers or race.budget_spent:
                break
    except (KeyboardInterrupt, RunInterrupted):
        interrupted = True
    tried = [e for e in tried if e.blocks]
    found.sort(key=lambda e: e.size)
    if skipped:
        notes.append(skipped_note(skipped))

    # 3. the answers on the verification games, today's rules beside them, under every model: the found
    # changes in order of size until ``answers`` of them meet on fresh games (at most twice as many)
    arms = {}

    def verify(entry: Entry, by_search: bool = True) -> Answer:
        """A candidate on the verification games under every model of the race, then (where it meets
        under all of them) under the expensive ones: the answer with each model's verdict and why.
        ``by_search`` False: a change played only to tell under which players it holds."""
        words = describe_change(entry.change, by_key)
        a = Answer(entry.change, entry.size, words, entry.judged, found=by_search)
        answer_list.append(a)
        runs = {}
        tables = {}
        for i, m in enumerate(cheap):
            if m.meta is not None:
                tables[m.name] = play_meta(a.change, verify_seed, verify_n, f"{game_id}: {words}, {m.words()}")
                continue
            runs[m.name] = play(plan_of(a.change, m, verify_seed, verify_n), progress,
                                f"{game_id}: {words}, {m.words()} ({verify_n:,} fresh games)", kept if i == 0 else options)
        arms[words] = runs[cheap[0].name]
        aggs = {**{n: r.aggregate for n, r in runs.items()}, **tables}
        a.judged = judged(aggs)
        unplayed = None
        if costly and a.judged["verdict"] == MEETS:  # the expensive players on the survivors only
            a.judged = settle_costly(a.change, aggs)
            unplayed = UNPLAYED_BUDGET
        a.models = model_verdicts(a.judged, aggs, today_aggs, per_model, model_list, unplayed)
        verified[a.words] = True
        return a

    unheld = 0  # found changes the budget left could not verify
    try:
        for entry in found[: 2 * answers] if not interrupted else []:
            holding = sum(1 for a in answer_list if verified.get(a.words) and a.judged["verdict"] == MEETS)
            if holding >= answers:
                break
            # each part of a verification starts only when its measured cost fits: the heuristics'
            # games here, each block of the search player's in settle_costly
            need = costs.answer(cheap_only=True)
            if not fits(need):
                unheld = sum(1 for e in found[: 2 * answers] if describe_change(e.change, by_key) not in verified)
                if not holding:
                    short.append(f"{unheld} change{'s' * (unheld > 1)} the search found could not be verified: "
                                 f"its verification needs about {need / 60:.1f} min (measured: {costs.words()}), "
                                 f"{max(end - time.perf_counter(), 0) / 60:.1f} min of the budget left")
                break
            verify(entry)
        if not found and not interrupted and len(cheap) > 1:
            # nothing held under every model: the changes that hold under some and were refuted under
            # others, nearest to meeting where they hold first, on fresh games, to say which and why
            for entry in split_candidates(tried, today["models"])[:answers]:
                if not fits(costs.answer(cheap_only=True)):
                    break
                verify(entry, by_search=False)
    except (KeyboardInterrupt, RunInterrupted):
        interrupted = True
    notes.extend(short)
    if interrupted or unheld:  # what the search found and no fresh games played yet, kept unverified
        shown = {a.words for a in answer_list}
        answer_list += [Answer(e.change, e.size, describe_change(e.change, by_key), e.judged)
                        for e in found[:answers] if describe_change(e.change, by_key) not in shown]
    if arms:
        comparison = _comparison(today_result, arms, answer_list)
    # each answer's `simbalance run`, read from the plan its verification played (or would play)
    commands = {a.words: run_command(arms[a.words].plan if a.words in arms
                                     else with_change(a.change, verify_seed).plan(verify_n, **run))
                for a in answer_list}
    if unheld:
        race.budget_spent = True
    return result(commands=commands, unheld=unheld)


def split_candidates(entries: list[Entry], today: dict[str, str]) -> list[Entry]:
    """The candidates refuted under some player model and not under another under which today's
    rules do not meet (``today``: model -> today's verdict; a change that "holds" only where today's
    rules hold already says nothing), nearest to meeting where they are not refuted first (the
    shortfall of those models' targets), then the smallest."""
    def holding(e: Entry) -> list[str]:
        return [m for m, v in e.judged["models"].items() if v != FAILS and today.get(m) != MEETS]

    def near(e: Entry) -> tuple:
        return (shortfall([t for t in e.judged["tests"] if t["model"] in holding(e) and t["keep"] is None]), e.size)

    split = [e for e in entries if e.judged is not None and FAILS in e.judged["models"].values() and holding(e)]
    return sorted(split, key=near)


def warm_up(plan) -> None:
    """Play two games of ``plan`` untimed: its kernel compiled (numba, on first use) before a pace is
    measured from it (a first compile takes minutes on a loaded machine: counted as games, it would
    make the verification look many times dearer)."""
    SimulationResult.from_plan(replace(plan, n=min(2, plan.n)), options=RunOptions())


def _block(plan, bar: dict, options: RunOptions) -> RunAggregate:
    """One block of a candidate's games under one model, shown on the round's progress bar."""
    shown = bar.get("shown")

    def each(d: int, _n: int, _s: float) -> None:
        shown(bar["games"] + d, bar["total"], time.perf_counter() - bar["start"])

    played = SimulationResult.from_plan(plan, progress=each if shown is not None else None,
                                        options=replace(options, keep_games=False))
    bar["games"] = bar.get("games", 0) + plan.n
    return played.aggregate


def model_verdicts(judged: dict, aggs: dict[str, RunAggregate], today: dict[str, RunAggregate], per_model: dict,
                   models: list[PlayerModel], unplayed: str | None = None) -> list[dict]:
    """Per player model: its verdict in the family, its games, its tests, today's beside, and why
    it fails where the numbers tell (a game length that collapses). ``unplayed``: why a model not
    played was not (default: the change did not meet under the cheaper models first)."""
    out = []
    for m in models:
        if m.name not in aggs:
            out.append({"model": m.words(), "name": m.name, "games": 0, "verdict": "not played",
                        "tests": [], "today": [], "reason": unplayed or "not played: the change did not meet "
                        "under the cheaper models first"})
            continue
        tests = [t for t in judged["tests"] if t["model"] == m.name]
        before = today.get(m.name)
        if not per_model.get(m.name):  # played for the compare table only (every target is the metagame's)
            out.append({"model": m.words(), "name": m.name, "games": int(aggs[m.name].n), "verdict": NO_TARGET,
                        "tests": [], "today": [], "reason": ""})
            continue
        out.append({"model": m.words(), "name": m.name, "games": int(aggs[m.name].n),
                    "verdict": judged["models"][m.name], "tests": tests,
                    "today": judge(before, per_model[m.name])["tests"] if before is not None else [],
                    "reason": why_not(tests, aggs[m.name], before)})
    return out


def why_not(tests: list[dict], agg: RunAggregate, today: RunAggregate | None) -> str:
    """Why a change fails under a model, where the numbers tell: the target it misses (its interval),
    and the game length collapsing against today's under the same players."""
    said = [f"{label(t['metric'])} {_side(t)}" for t in tests if not t["met"]]
    if isinstance(agg, RunAggregate) and isinstance(today, RunAggregate) and today.n and agg.n:
        before, after = today.percentile(50), agg.percentile(50)
        if before > 0 and after <= 0.5 * before:
            said.append(f"the game length collapses (median {after:g} against {before:g} today)")
    return "; ".join(said)


def _side(t: dict) -> str:
    words = test_words(t)
    if t["out"]:
        return f"misses its range: {words}"
    return f"not settled at this many games: {words}"


def pareto_front(table: pd.DataFrame) -> pd.Series:
    """The candidates no other candidate beats on every count: change size (knobs changed − 1 +
    distance), the targets' shortfall and the kept metrics' shortfall (smaller is better on each;
    a candidate equal on all three to another is on the front with it)."""
    points = np.column_stack([table["keys_changed"].to_numpy(float) - 1 + table["distance"].to_numpy(float),
                              table["shortfall"].to_numpy(float), table["kept_shortfall"].to_numpy(float)])
    front = []
    for p in points:
        dominated = np.any(np.all(points <= p, axis=1) & np.any(points < p, axis=1))
        front.append(not dominated)
    return pd.Series(front, index=table.index)


def race_row(entry: Entry, knobs: list[Knob], by_key: dict[str, Knob], models: dict[str, PlayerModel],
             today: dict[str, RunAggregate], today_verdicts: dict[str, str]) -> dict:
    """A row of the candidates table: the change, its size, its games per model, its verdict, and
    each target's (and kept metric's) value, interval and Holm p under the model where it is
    furthest from met; ``worst_model``: the model of the largest Holm p; ``meets_under`` and
    ``fails_under``: the models it meets under, and those it misses under with why (why_not);
    ``mends_under``: the models it meets under where today's rules do not."""
    row = {k.key: entry.change.get(k.key, np.nan) for k in knobs}
    judged = entry.judged
    row.update({"change": describe_change(entry.change, by_key), "set": set_line(entry.change),
                "keys_changed": entry.size[0], "distance": entry.size[1], "stage": entry.stage, "games": entry.games,
                "verdict": judged["verdict"], "shortfall": judged["shortfall"],
                "kept_shortfall": judged["kept_shortfall"], "p_worst": judged["p_worst"],
                "worst_model": max(judged["tests"], key=lambda t: t["p_holm"])["model"]})
    for metric in dict.fromkeys(t["metric"] for t in judged["tests"]):
        t = max((t for t in judged["tests"] if t["metric"] == metric), key=lambda t: t["p_holm"])
        name = f"keep_{metric}" if t["keep"] is not None else metric
        row.update({name: t["value"], f"{name}_ci_low": t["ci_low"], f"{name}_ci_high": t["ci_high"],
                    f"{name}_p_holm": t["p_holm"], f"{name}_model": t["model"]})
    verdicts = judged["models"]
    row["meets_under"] = "; ".join(models[m].words() for m in verdicts if verdicts[m] == MEETS)
    row["mends_under"] = "; ".join(models[m].words() for m in verdicts
                                   if verdicts[m] == MEETS and today_verdicts.get(m) != MEETS)
    row["fails_under"] = "; ".join(
        f"{models[m].words()}: " + why_not([t for t in judged["tests"] if t["model"] == m], entry.aggs[m], today.get(m))
        for m in verdicts if verdicts[m] == FAILS)
    runs = [a for a in entry.aggs.values() if isinstance(a, RunAggregate)]  # not the metagame's table
    worst = min(runs, key=lambda a: balance_test(a, 0.0, 1.0)["value"]) if runs else None
    if "balance" not in row:  # the balance, always (the worst model's): the candidates table's
        bal = balance_test(worst, 0.0, 1.0) if worst is not None else {"value": np.nan, "ci_low": np.nan,
                                                                         "ci_high": np.nan}
        row.update({"balance": bal["value"], "balance_ci_low": bal["ci_low"], "balance_ci_high": bal["ci_high"]})
    # the seat that wins most (a grid's neighbours may swap it); -1: no run model raced (the metagame alone)
    row["favoured"] = int(np.argmax(worst.seat_wins)) if worst is not None else -1
    return row


def _comparison(today: SimulationResult, arms: dict[str, SimulationResult], answers: list[Answer]) -> ComparisonResult:
    alpha = thresholds(today.plan.config)["alpha"]
    table = compare_arms(today, arms, alpha)
    changes = {"today": "today's rules", **{a.words: set_line(a.change) for a in answers if a.words in arms}}
    keys = {"today": [], **{a.words: [f"{k}={toml_value(v)}" for k, v in a.change.items()]
                            for a in answers if a.words in arms}}
    return ComparisonResult("today", today, arms, table, alpha, [], changes, {k: False for k in arms}, keys)


# The contract (core/study.py): the command is still written by hand (not yet on declared params).
# The contract (core/study.py): the options and the API entry come from SolveParams; the command's
# steps are its own (cli/solve_cmd.solve_steps): a Ctrl-C keeps what the race knows and writes its page.
STUDY = Study("solve", rank=40, params=SolveParams, run=play_solve, steps="simbalance.cli.solve_cmd:solve_steps",
              stoppable=True, page="solve.html", out_help="Output folder (default: reports/solve-<game>-<time>).",
              summary=(
                  "Search the game's knobs for the smallest change that meets every target with 95% confidence:\n"
                  "fewest knobs first, then the least distance from today's values; cheap evaluations first (few\n"
                  "games per candidate, more for the promising, the same games for every candidate); the few\n"
                  "smallest verified on fresh games, with every other metric's change and the findings; the chosen\n"
                  "one under other players. Ctrl-C keeps what is known."),
              example=('find-dr-evil', '--knob', 'rules.first_card_to=0:3', '--budget', '10m'))
solve = api_entry(STUDY)
