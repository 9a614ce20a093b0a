"""Solve: the smallest change of a game's knobs that meets a set of balance targets, verified on
fresh games and under other players (analysis/solve.py; docs/solve.md).

1. Today's rules play ``verify_n`` games on the verification seed (``derive_seed(seed, "solve
   verify")``). If they meet every target: "no change needed", no search.
2. Stages of one changed knob, then two, ... (``max_keys``): every candidate of a stage (each knob's
   grid, today's value left out) races through rungs. Rung ``r`` plays ``start_n * 2**r`` new games
   on ``derive_seed(seed, "solve rung", r)``, the same games for every candidate of every stage
   (common random numbers), merged into the candidate's aggregate. After a rung a candidate that
   meets every target (analysis/solve.judge) leaves the race as a found change, one whose interval
   lies wholly outside a target is dropped, and the rest are halved: the better half by shortfall,
   then by size, goes on to twice the games. A stage ends when no candidate is open, when a rung
   would play more than ``verify_n`` games per candidate, or when ``answers`` found changes are
   smaller than every open one; the next stage runs only while fewer than ``answers`` are found.
3. The ``answers`` smallest found changes play ``verify_n`` games on the verification seed (today's
   games: the compare table, analysis/compare.compare_arms), and the smallest that meets every
   target there is the chosen change. It is played again under another heuristic and under the
   search player at a modest budget (``models``).

The budget bounds the search (step 2); the verification's cost is estimated from today's run and
kept aside. Ctrl-C (KeyboardInterrupt, or a ``stop`` that ends a run with RunInterrupted) keeps what
is known: the result is marked interrupted, its changes unverified where so.
"""

from __future__ import annotations

import json
import math
import re
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from simbalance.analysis.compare import compare_arms
from simbalance.analysis.findings import Finding, thresholds
from simbalance.analysis.labels import metric_label
from simbalance.analysis.solve import (
    MEETS,
    OPEN,
    Answer,
    Knob,
    Target,
    change_size,
    check_knobs,
    check_targets,
    default_knobs,
    default_targets,
    describe_change,
    extend,
    judge,
    make_knob,
    metrics_row,
    order_by_card_values,
    parse_knob,
    parse_target,
    set_line,
    solve_findings,
)
from simbalance.analysis.solve import candidates as all_candidates
from simbalance.core.aggregate import RunAggregate
from simbalance.core.config import toml_value
from simbalance.core.errors import ConfigError, RunInterrupted, SimbalanceError
from simbalance.core.execution import RunOptions
from simbalance.core.lineup import all_strategies
from simbalance.core.plan import MAX_BUDGET, check_whole
from simbalance.core.rng import derive_seed
from simbalance.core.runner import MAX_GAMES, ProgressFactory
from simbalance.studies.compare import ComparisonResult, same_games
from simbalance.studies.run import SimulationResult, play
from simbalance.studies.settings import RunSettings

STAGE_MOST = 400  # candidates of one stage at the most: a larger stage grows from the last stage's best
DEFAULT_BUDGET_S = 20 * 60


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
    today: dict  # analysis/solve.judge of today's rules on the verification games
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

    @property
    def chosen(self) -> Answer | None:
        return next((a for a in self.answers if self.verified.get(a.words) and a.judged["verdict"] == MEETS), None)

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
                              side_effects=self.side_effects(), budget_spent=self.budget_spent)

    def solution(self) -> dict:
        """solution.json: the changes ready for ``--set``, the verified metrics with their CIs, the
        other players' verdicts, the candidates tried, the seed, the budget used, interrupted."""
        chosen = self.chosen
        best = chosen or (self.answers[0] if self.answers else None)
        cols = [c for c in self.candidates.columns]
        return {
            "game": self.game, "seed": self.seed, "players": self.players,
            "targets": [{"metric": t.metric, "low": t.low, "high": t.high} for t in self.targets],
            "knobs": [{"key": k.key, "low": k.low, "high": k.high, "step": k.step, "today": k.today}
                      for k in self.knobs],
            "no_change_needed": self.no_change_needed,
            "changes": dict(best.change) if best is not None else {},
            "set": set_line(best.change) if best is not None else "",
            "words": best.words if best is not None else None,
            "verified": bool(best is not None and self.verified.get(best.words)),
            "meets": bool(chosen is not None) or self.no_change_needed,
            "metrics": best.judged["tests"] if best is not None else self.today["tests"],
            "today": self.today["tests"],
            "models": best.models if best is not None else [],
            "answers": [{"changes": a.change, "set": set_line(a.change), "words": a.words, "size": list(a.size),
                         "verified": bool(self.verified.get(a.words)), "verdict": a.judged["verdict"],
                         "metrics": a.judged["tests"]} for a in self.answers],
            "candidates": [{c: _plain(r[c]) for c in cols} for _, r in self.candidates.iterrows()],
            "verify_n": self.verify_n, "start_n": self.start_n, "budget_s": self.budget_s,
            "seconds": round(self.seconds, 1), "budget_spent": self.budget_spent, "interrupted": self.interrupted,
            "notes": self.notes,
            "findings_of_the_changed_game": self._changed_findings_json(),
        }

    def _changed_findings_json(self) -> dict | None:
        pair = self.changed_game_findings()
        if pair is None:
            return None
        today, changed = pair
        return {"today": [f.to_dict() for f in today], "changed": [f.to_dict() for f in changed]}


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


def _knobs(knobs, cfg: dict) -> list[Knob]:
    if knobs is None or (not isinstance(knobs, dict) and len(knobs) == 0):
        return check_knobs(default_knobs(cfg))
    if isinstance(knobs, dict):
        return check_knobs([make_knob(k, v[0], v[1], v[2] if len(v) > 2 else None, cfg, f"knob {k}")
                            for k, v in knobs.items()])
    items = [knobs] if isinstance(knobs, str) else list(knobs)
    return check_knobs([parse_knob(k, cfg) for k in items])


def other_heuristic(plan) -> str | None:
    """Another heuristic of the game than the run's players: the first of the config's strategies
    that no seat plays (random last), or None."""
    engine = plan.engine
    infos = all_strategies(plan.config, engine.strategies, engine.strategy_params)
    playing = set(plan.lineup.slot_names)
    names = [n for n, i in infos.items() if not i.preset and not engine.is_search(i.base) and n not in playing]
    names.sort(key=lambda n: n == "random")
    return names[0] if names else None


def solve(
    game: str | RunSettings,
    targets: list[str] | dict | None = None,
    knobs: list[str] | dict | None = None,
    *,
    budget: str | float | None = None,
    strategies: list[str] | str | None = None,
    rotate: bool = False,
    verify_n: int = 100_000,
    start_n: int = 400,
    answers: int = 3,
    max_keys: int = 3,
    models: bool = True,
    model_n: int = 20_000,
    search: str = "mcts",
    search_budget: int = 32,
    search_n: int = 200,
    card_values: Any = None,
    stop=None,
    progress: ProgressFactory | None = None,
    **settings: Any,
) -> SolveResult:
    """Search the knobs for the smallest changes that meet every target (module docstring).

    ``targets``: ``["balance=0.97:1", "length_median=55:65"]`` (the CLI's ``--target``) or
    ``{"balance": (0.97, 1)}``; None: the config's ``[targets]``. ``knobs``: ``["ships.4=24:36"]``
    (``--knob``) or ``{"ships.4": (24, 36)}``; None: the config's ``[knobs]``. ``budget``: the
    search's time (``"20m"``, seconds). ``card_values``: a card-value result of the game
    (``simbalance.card_value(...)``, its card_value.json's path or contents): the deck knobs of the
    cards worth most are tried first (analysis/solve.order_by_card_values). ``stop``: a callable asked between chunks (the CLI's Ctrl-C).
    The settings (studies/settings.RunSettings) apply to every run."""
    started = time.perf_counter()
    settings = RunSettings.of(game, **settings)
    budget_s = parse_budget(budget)
    verify_n = check_whole("--verify-n", verify_n, 100, MAX_GAMES)
    start_n = check_whole("--start-n", start_n, 10, MAX_GAMES)
    answers = check_whole("--answers", answers, 1, 20)
    max_keys = check_whole("--max-keys", max_keys, 1, 4)
    model_n = check_whole("--model-n", model_n, 100, MAX_GAMES)
    search_n = check_whole("--search-n", search_n, 10, MAX_GAMES)
    search_budget = check_whole("--search-budget", search_budget, 1, MAX_BUDGET)
    run = dict(strategies=strategies, rotate=rotate)
    verify_seed = derive_seed(settings.seed, "solve verify")
    base_plan = settings.but(seed=verify_seed).plan(verify_n, **run)
    cfg = base_plan.config
    players = base_plan.players
    target_list = _targets(targets, cfg, players)
    knob_list = _knobs(knobs, cfg)
    by_key = {k.key: k for k in knob_list}
    notes = [f"{k.key}: today's value {toml_value(k.today)} lies outside its range {k.low:g} to {k.high:g}; a "
             "change's size is measured from today's value" for k in knob_list if k.outside]

    def with_change(change: dict, seed: int) -> RunSettings:
        return settings.but(seed=seed, overrides=settings.overrides + tuple(f"{k}={toml_value(v)}"
                                                                            for k, v in change.items()))

    today_plan = settings.but(seed=verify_seed).plan(10, **run)
    idle = []
    for k in knob_list:  # every knob's ends are playable rules: checked before any game
        same = []
        for v in (k.values[0], k.values[-1]):
            try:
                plan = with_change({k.key: v}, verify_seed).plan(10, **run)
            except SimbalanceError as exc:
                raise ConfigError(f"--knob {k.text()}: {k.key} = {toml_value(v)} is not a playable rule: {exc}") \
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
    engine = base_plan.engine
    heuristic = other_heuristic(base_plan) if models else None
    search_preset = None
    if models and engine.search is not None:
        from simbalance.studies.ladder import BUDGET_PARAMS, budget_preset

        infos = all_strategies(cfg, engine.strategies, engine.strategy_params)
        if search not in infos or not engine.is_search(infos[search].base):
            raise SimbalanceError(f"--search {search!r}: not a search player of {base_plan.spec.id}")
        search_preset = (f"{search}@{search_budget}",
                         budget_preset(infos[search], BUDGET_PARAMS[infos[search].base], search_budget))
    if models and heuristic is None and search_preset is None:
        notes.append("no other players to check a change under: the game has no other heuristic and no search "
                     "player")
    options = RunOptions(stop=stop)
    kept = RunOptions(stop=stop, keep_games=True)
    game_id = settings.game
    interrupted = False
    budget_spent = False
    rows: list[dict] = []
    found: list[tuple[tuple, dict, RunAggregate]] = []  # (size, change, aggregate) that met every target
    answer_list: list[Answer] = []
    verified: dict[str, bool] = {}
    comparison = None

    # 1. today's rules on the verification games
    try:
        today_result = play(base_plan, progress, f"{game_id}: today's rules ({verify_n:,} games)", kept)
    except (KeyboardInterrupt, RunInterrupted):
        raise RunInterrupted(0, verify_n) from None
    today = judge(today_result.aggregate, target_list)
    seconds_per_verify = max(today_result.elapsed, 0.01)
    reserve = seconds_per_verify * (answers + (2 * model_n / verify_n if heuristic else 0))
    deadline = started + budget_s - reserve

    def result(**more) -> SolveResult:
        table = pd.DataFrame(rows)
        if len(table):
            table = table.sort_values(["keys_changed", "distance"], kind="stable").reset_index(drop=True)
        return SolveResult(game_id, settings.seed, players, target_list, knob_list, today, today_result, table,
                           answer_list, comparison, verify_n, start_n, budget_s, time.perf_counter() - started,
                           interrupted, budget_spent, verified, notes, **more)

    if today["verdict"] == MEETS:
        return result()

    def record(stage: list[dict], aggs: dict, keys: int) -> None:
        """A row per candidate of a stage that played: its change, size, games, verdict, metrics."""
        for i, c in enumerate(stage):
            if aggs[i] is not None:
                row = {k.key: c.get(k.key, np.nan) for k in knob_list}
                size = change_size(c, by_key)
                row.update({"change": describe_change(c, by_key), "set": set_line(c), "keys_changed": size[0],
                            "distance": size[1], "stage": keys, **metrics_row(aggs[i], target_list)})
                rows.append(row)

    # 2. the search: stages of 1, 2, ... knobs, each a race through rungs on common random numbers
    in_play = None
    ranked: list[dict] = []  # the last stage's candidates, best first (by shortfall, then size)
    try:
        for keys in range(1, min(max_keys, len(knob_list)) + 1):
            stage = all_candidates(knob_list, keys)
            if keys > 1 and len(stage) > STAGE_MOST:  # too many to race: grow the last stage's best by one knob
                stage = extend(ranked, knob_list, STAGE_MOST)
            stage.sort(key=lambda c: change_size(c, by_key))
            aggs = {i: None for i in range(len(stage))}
            in_play = (stage, aggs, keys)
            alive = list(range(len(stage)))
            judged: dict[int, dict] = {}
            rung = 0
            while alive:
                n_r = start_n * 2 ** rung
                if n_r > verify_n or time.perf_counter() > deadline:
                    budget_spent = budget_spent or time.perf_counter() > deadline
                    break
                rung_seed = derive_seed(settings.seed, "solve rung", rung)
                total = n_r * len(alive)
                left = max(deadline - time.perf_counter(), 0.0)
                shown = progress(f"{game_id}: {keys} knob{'s' * (keys > 1)}, rung {rung + 1} ({len(alive)} "
                                 f"candidates x {n_r:,} games; search budget {left / 60:.1f} min left)"
                                 ) if progress is not None else None
                done = {"games": 0, "start": time.perf_counter()}

                def each(d: int, _n: int, _s: float, done=done, shown=shown, total=total) -> None:
                    shown(done["games"] + d, total, time.perf_counter() - done["start"])

                try:
                    for i in alive:
                        if time.perf_counter() > deadline:
                            budget_spent = True
                            break
                        plan = with_change(stage[i], rung_seed).plan(n_r, **run)
                        played = SimulationResult.from_plan(plan, progress=each if shown is not None else None,
                                                            options=replace(options, keep_games=False))
                        done["games"] += n_r
                        aggs[i] = played.aggregate if aggs[i] is None else aggs[i].merge(played.aggregate)
                        judged[i] = judge(aggs[i], target_list)
                finally:
                    if shown is not None and hasattr(shown, "close"):
                        shown.close()
                if budget_spent:
                    break
                met = [i for i in alive if judged[i]["verdict"] == MEETS]
                for i in met:
                    found.append((change_size(stage[i], by_key), stage[i], aggs[i]))
                open_ = [i for i in alive if judged[i]["verdict"] == OPEN]
                # the better half goes on: nearest to meeting with its games counted (the worst target's
                # Holm p: an estimate on target from as many games as the others, but further inside),
                # then the shortfall, then the size
                open_.sort(key=lambda i: (max(t["p_holm"] for t in judged[i]["tests"]), judged[i]["shortfall"],
                                          change_size(stage[i], by_key)))
                alive = open_[: max(1, math.ceil(len(open_) / 2))] if len(open_) > 1 else open_
                found.sort(key=lambda f: f[0])
                if len(found) >= answers and all(change_size(stage[i], by_key) > found[answers - 1][0] for i in alive):
                    break
                rung += 1
            record(stage, aggs, keys)
            in_play = None
            played = [i for i in aggs if aggs[i] is not None]
            played.sort(key=lambda i: (judged[i]["shortfall"], change_size(stage[i], by_key)))
            ranked = [stage[i] for i in played]
            if len(found) >= answers or budget_spent:
                break
    except (KeyboardInterrupt, RunInterrupted):
        interrupted = True
        if in_play is not None:  # the stage in play: what its candidates have played so far
            record(*in_play)
    found.sort(key=lambda f: f[0])

    # 3. the answers on the verification games, today's rules beside them: the found changes in order
    # of size until ``answers`` of them meet on fresh games (at most twice as many verified)
    arms = {}
    try:
        for size, change, agg in found[: 2 * answers] if not interrupted else []:
            holding = sum(1 for a in answer_list if verified.get(a.words) and a.judged["verdict"] == MEETS)
            if holding >= answers or (len(answer_list) >= answers and time.perf_counter() > started + budget_s):
                break
            a = Answer(change, size, describe_change(change, by_key), judge(agg, target_list))
            answer_list.append(a)
            played = play(with_change(a.change, verify_seed).plan(verify_n, **run), progress,
                          f"{game_id}: {a.words} ({verify_n:,} fresh games)", kept)
            a.judged = judge(played.aggregate, target_list)
            verified[a.words] = True
            arms[a.words] = played  # the smallest that holds on fresh games is the chosen change
        chosen = next((a for a in answer_list if verified.get(a.words) and a.judged["verdict"] == MEETS), None)
        if chosen is not None and models:
            chosen.models = _other_players(chosen, heuristic, search_preset, with_change, run, target_list,
                                           derive_seed(settings.seed, "solve model"), model_n, search_n, progress,
                                           kept, game_id)
    except (KeyboardInterrupt, RunInterrupted):
        interrupted = True
    if interrupted:  # what the search found and no fresh games played yet, kept unverified
        shown = {a.words for a in answer_list}
        answer_list += [Answer(change, size, describe_change(change, by_key), judge(agg, target_list))
                        for size, change, agg in found[:answers] if describe_change(change, by_key) not in shown]
    if arms:
        comparison = _comparison(today_result, arms, answer_list)
    return result()


def _card_priority(card_values: Any, game: str) -> list[dict]:
    """card-value's ``priority`` from its result, its card_value.json's path, or that file's contents;
    a file of another game, or one that is no card-value file, is one line."""
    if hasattr(card_values, "priority") and callable(card_values.priority):
        data = {"game": card_values.game, "priority": card_values.priority()}
    elif isinstance(card_values, dict):
        data = card_values
    else:
        path = Path(card_values)
        if path.is_dir():
            path = path / "card_value.json"
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else "not JSON"
            raise ConfigError(f"--card-values {card_values}: cannot read it ({reason}); expected the card_value.json "
                              "that `simbalance card-value` writes") from None
    if not isinstance(data, dict) or not isinstance(data.get("priority"), list):
        raise ConfigError(f"--card-values {card_values}: no card values in it; expected the card_value.json that "
                          "`simbalance card-value` writes")
    if data.get("game") != game:
        raise ConfigError(f"--card-values {card_values}: the card values of {data.get('game')!r}, not of {game!r}")
    return data["priority"]


def _other_players(chosen: Answer, heuristic: str | None, search_preset, with_change, run, targets, seed: int,
                   model_n: int, search_n: int, progress, options, game_id: str) -> list[dict]:
    """The chosen change under another heuristic at every seat and under the search player at a
    modest budget: meets, does not meet, or not settled at that many games; today's rules beside."""
    out = []
    cases = []
    if heuristic is not None:
        cases.append((heuristic, model_n, {}))
    if search_preset is not None:
        name, preset = search_preset
        cases.append((name, search_n, {name: preset}))
    for name, n, presets in cases:
        changed = play(with_change(chosen.change, seed).plan(n, presets=presets, strategies=[name]), progress,
                       f"{game_id}: {chosen.words}, all {name} ({n:,} games)", replace(options, keep_games=False))
        before = play(with_change({}, seed).plan(n, presets=presets, strategies=[name]), progress,
                      f"{game_id}: today's rules, all {name} ({n:,} games)", replace(options, keep_games=False))
        j = judge(changed.aggregate, targets)
        out.append({"model": f"{name} at every seat", "games": int(changed.n_played), "verdict": j["verdict"],
                    "tests": j["tests"], "today": judge(before.aggregate, targets)["tests"]})
    return out


def _comparison(today: SimulationResult, arms: dict[str, SimulationResult], answers: list[Answer]) -> ComparisonResult:
    alpha = thresholds(today.plan.config)["alpha"]
    table = compare_arms(today, arms, alpha)
    changes = {"today": "today's rules", **{a.words: set_line(a.change) for a in answers if a.words in arms}}
    keys = {"today": [], **{a.words: [f"{k}={toml_value(v)}" for k, v in a.change.items()]
                            for a in answers if a.words in arms}}
    return ComparisonResult("today", today, arms, table, alpha, [], changes, {k: False for k in arms}, keys)
