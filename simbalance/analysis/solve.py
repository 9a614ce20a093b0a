"""Solve: the statistics of `simbalance solve` (docs/solve.md). Targets on a run's metrics, knobs
(config keys with a range), whether a run meets every target with 95% confidence, how large a
change is, and the findings. Pure functions of aggregates and DataFrames: studies/solve.py plays.

- A target ``METRIC=LO:HI`` holds a metric of the run inside ``[LO, HI]``. A run *meets* its
  targets when every target's confidence interval lies inside its interval, Holm-adjusted across
  the targets: each target's p-value is the smallest two-sided level at which its CI still lies
  inside (``p <= 0.05``: the 95% CI lies inside), and the run meets when every Holm-adjusted
  p-value is at most ``ALPHA``. Under several player models every (model, target) test is one Holm
  family (judge_models); a kept metric (``--keep``) is a target around today's value under each.
  A run is refuted when an interval lies wholly outside at ``ALPHA / (tests × looks)``.
- The tests (``target_test``, ``judge``, ``judge_models``, balance's interval pair by pair) are
  the statistics core's (analysis/stats.py), which sweep's ``--target`` and check's ``[bounds]``
  call too: a target met here is met there on the same games.
"""

from __future__ import annotations

import itertools
import math
import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pandas as pd

from simbalance.analysis.findings import HIGH, LOW, MEDIUM, Finding, ordered
from simbalance.analysis.meta import cell_of

# the target tests are the statistics core's: sweep's --target and check's [bounds] call the same
from simbalance.analysis.stats import (  # noqa: F401  (names solve's callers import from here)
    ALPHA,
    CELL,
    FAILS,
    MEETS,
    OPEN,
    SHARE_METRICS,
    balance_test,
    is_meta,
    is_share,
    judge,
    judge_models,
    judgement,
    natural_range,
    shortfall,
    target_test,
)
from simbalance.core.config import VARIANT_KNOB, get, toml_value, unknown_key_message
from simbalance.core.errors import ConfigError, did_you_mean

if TYPE_CHECKING:
    from simbalance.core.aggregate import RunAggregate

FLOAT_STEPS = 8  # a float knob given without a step: its range in this many steps
GRID_MOST = 64  # values of one knob at the most (a float knob's grid, a whole-number range)

# metric -> (what it is, kind): "share" of all games, "decided" (over decided games), or a length
METRICS = {
    "balance": "1 - the widest gap between two seats' shares of the decided games",
    "first_player_advantage": "player 1's share of the decided games minus the fair share 1/P",
    "length_median": "the median game length",
    "length_mean": "the mean game length",
    "ties": "the share of games won by several players together",
    "timeouts": "the share of games stopped by the cap",
    "stalemates": "the share of games that ended in a stalemate",
    "win_rate_seat_K": "seat K's share of all games (K from 0: seat 0 is player 1)",
    "dominance": "the best strategy's margin over an even field of the population (points of win share per seat; "
                 "the metagame on the candidate's rules: docs/meta.md)",
}
RUN_METRICS = [m for m in METRICS if m != "dominance"]  # read from one run's aggregate (--keep takes these)


@dataclass(frozen=True)
class Target:
    metric: str
    low: float
    high: float
    keep: float | None = None  # a kept metric (``--keep METRIC=TOL``): today's value ± keep, under one model
    # a kept metric whose today is itself a sample (the search player's few games): the range a
    # refutation is judged against, every value within the tolerance of some value today's interval
    # admits (``low``..``high`` is then the range that holds whatever today's true value in it)
    wide: tuple[float, float] | None = None

    @property
    def text(self) -> str:
        return f"{self.metric}={self.low:g}:{self.high:g}"

    def words(self) -> str:
        """``balance ≥ 97%``, ``median length 55 to 65``, ``ties kept within 2 pts of today's``."""
        name = label(self.metric)
        if self.keep is not None:
            tol = f"{100 * self.keep:g} pts" if is_share(self.metric) else f"{self.keep:g}"
            return f"{name} kept within {tol} of today's"
        lo_min, hi_max = natural_range(self.metric, 6)
        fmt = (lambda v: f"{100 * v:g} pts") if self.metric == "dominance" else (
            (lambda v: f"{100 * v:g}%") if is_share(self.metric) else (lambda v: f"{v:g}"))
        if self.high >= hi_max and self.low > lo_min:
            return f"{name} ≥ {fmt(self.low)}"
        if self.low <= lo_min and self.high < hi_max:
            return f"{name} ≤ {fmt(self.high)}"
        return f"{name} {fmt(self.low)} to {fmt(self.high)}"


def label(metric: str) -> str:
    if metric.startswith(CELL):
        strategy, field = cell_of(metric)
        return f"{strategy}'s share alone in a field of {field}" if strategy != field else f"{strategy}'s mirror share"
    if metric == "dominance":
        return "dominance (the best strategy's margin over an even field)"
    if metric.startswith("win_rate_seat_"):
        return f"player {int(metric.rsplit('_', 1)[1]) + 1}'s win rate"
    return {"balance": "balance", "first_player_advantage": "player 1's advantage", "length_median": "median length",
            "length_mean": "mean length", "ties": "ties", "timeouts": "timeouts", "stalemates": "stalemates"}[metric]


def _metric_name(key: str, players: int | None, option: str = "--target") -> str:
    if option == "--keep" and key == "dominance":  # a kept metric is one run's: the metagame is a target only
        raise ConfigError(f"--keep {key}: the metagame is held by a target (--target dominance=LO:HI), not kept; "
                          f"--keep takes {', '.join(RUN_METRICS)}")
    if key in METRICS and key != "win_rate_seat_K":
        return key
    match = re.fullmatch(r"win_rate_seat_(\d+)", key)
    if match and (players is None or int(match[1]) < players):
        return key
    allowed = ", ".join(m for m in METRICS)
    if match:
        raise ConfigError(f"{option} {key}: seat {match[1]} does not play ({players} players: seats 0 to "
                          f"{players - 1}); allowed: {allowed}")
    raise ConfigError(f"{option} {key}: unknown metric{did_you_mean(key, [m for m in METRICS if 'K' not in m])}; "
                      f"allowed: {allowed}")


def parse_target(text: str, players: int | None = None) -> Target:
    """``--target METRIC=LO:HI`` (``balance=0.97:1``, ``length_median=55:65``): one line naming the
    metric and what is allowed when it is unknown, not a number, or an empty or inverted range."""
    key, sep, spec = (part.strip() for part in str(text).partition("="))
    example = "e.g. --target balance=0.97:1 or --target length_median=55:65"
    if not sep or not key or not spec:
        raise ConfigError(f"--target {text!r}: expected METRIC=LO:HI; {example}")
    metric = _metric_name(key, players)
    parts = spec.split(":")
    try:
        if len(parts) != 2:
            raise ValueError
        low, high = (float(p) for p in parts)
    except ValueError:
        raise ConfigError(f"--target {text!r}: {metric} takes LO:HI, two numbers; {example}") from None
    if not (math.isfinite(low) and math.isfinite(high)):
        raise ConfigError(f"--target {text!r}: LO and HI must be finite numbers")
    if low > high:
        raise ConfigError(f"--target {text!r}: the range is inverted ({low:g} > {high:g}); give LO <= HI")
    lo_min, hi_max = natural_range(metric, players or 6)
    if metric != "first_player_advantage" and (high < lo_min or low > hi_max):
        raise ConfigError(f"--target {text!r}: {metric} lies between {lo_min:g} and {hi_max:g}: the range is empty")
    if is_share(metric) and metric != "first_player_advantage" and high > 1 and low > 1:
        raise ConfigError(f"--target {text!r}: {metric} is a share, 0 to 1 (0.97 is 97%)")
    return Target(metric, low, high)


def default_targets(cfg: dict) -> list[Target]:
    """No ``--target``: the config's ``[targets]``: ``balance_min`` as ``balance=balance_min:1``
    (0.95 without one) and ``length_median`` as ``length_median=LO:HI`` when it has one."""
    table = cfg.get("targets") if isinstance(cfg.get("targets"), dict) else {}
    balance_min = table.get("balance_min", 0.95)
    out = [Target("balance", float(balance_min), 1.0)]
    band = table.get("length_median")
    if isinstance(band, list) and len(band) == 2:
        out.append(Target("length_median", float(band[0]), float(band[1])))
    return out


def check_targets(targets: list[Target]) -> list[Target]:
    seen = [t.metric for t in targets]
    twice = sorted({m for m in seen if seen.count(m) > 1})
    if twice:
        raise ConfigError(f"--target {twice[0]} given twice: one range per metric")
    return targets


@dataclass(frozen=True)
class Keep:
    """``--keep METRIC[=TOL]``: hold a metric within ``tol`` of today's value (None: the default,
    ``KEEP_SHARE`` for a share, ``KEEP_LENGTH`` of today's value for a length)."""

    metric: str
    tol: float | None = None

    def tolerance(self, today: float) -> float:
        if self.tol is not None:
            return self.tol
        return KEEP_SHARE if is_share(self.metric) else max(KEEP_LENGTH * abs(today), 1.0)

    def target(self, today: float, players: int, today_ci: tuple[float, float] | None = None) -> Target:
        """The kept metric as a target under one player model: today's value (under that model) ±
        the tolerance, clipped to what the metric can take. ``today_ci``: today's 95% interval when
        today's value is itself a sample too few games to take as exact (the search player's): the
        candidate then meets only within the tolerance of every value that interval admits
        (``[ci_high − tol, ci_low + tol]``; empty, a point that is never met, when today's interval
        is wider than twice the tolerance) and is refuted only outside the tolerance of all of them
        (``wide``: ``[ci_low − tol, ci_high + tol]``): the difference of two samples, each with its
        interval."""
        tol = self.tolerance(today)
        lo_min, hi_max = natural_range(self.metric, players)
        if today != today:  # no decided game today: nothing to hold near
            return Target(self.metric, lo_min, hi_max, tol)
        if today_ci is None:
            return Target(self.metric, max(today - tol, lo_min), min(today + tol, hi_max), tol)
        ci_low, ci_high = today_ci
        low, high = max(ci_high - tol, lo_min), min(ci_low + tol, hi_max)
        if low > high:  # today's interval alone is wider than the range the tolerance allows
            low = high = min(max(today, lo_min), hi_max)
        return Target(self.metric, low, high, tol, (max(ci_low - tol, lo_min), min(ci_high + tol, hi_max)))


def kept_target(keep: Keep, today: RunAggregate, players: int, sampled: bool) -> Target:
    """``keep`` as a target around today's value on ``today``'s games; ``sampled``: today's value is
    itself a sample whose error is not negligible against the tolerance (the search player's few
    hundred games: its interval counts, Keep.target), else it is taken as exact (10^5 games)."""
    est = target_test(today, Target(keep.metric, 0.0, math.inf))
    return keep.target(est["value"], players, (est["ci_low"], est["ci_high"]) if sampled else None)


KEEP_SHARE = 0.02  # a kept share's default tolerance: 2 points
KEEP_LENGTH = 0.10  # a kept length's default tolerance: 10 % of today's value (at least 1)


def parse_keep(text: str, players: int | None = None) -> Keep:
    """``--keep METRIC[=TOL]`` (``ties=0.02``, ``length_median=2``, ``ties``): one line naming the
    metric and what is allowed when it is unknown or the tolerance is not a number above 0."""
    key, sep, spec = (part.strip() for part in str(text).partition("="))
    if not key:
        raise ConfigError(f"--keep {text!r}: expected METRIC or METRIC=TOL, e.g. --keep ties=0.02")
    metric = _metric_name(key, players, "--keep")
    if not sep:
        return Keep(metric)
    try:
        tol = float(spec)
    except ValueError:
        tol = math.nan
    if not (math.isfinite(tol) and tol > 0) or (is_share(metric) and tol >= 1):
        allowed = "a share above 0 and below 1 (0.02 is 2 points)" if is_share(metric) else "a number above 0"
        raise ConfigError(f"--keep {text}: the tolerance {spec!r} is not allowed; {metric} takes {allowed}")
    return Keep(metric, tol)


def check_keeps(keeps: list[Keep], targets: list[Target]) -> list[Keep]:
    seen = [k.metric for k in keeps]
    twice = sorted({m for m in seen if seen.count(m) > 1})
    if twice:
        raise ConfigError(f"--keep {twice[0]} given twice: one tolerance per metric")
    both = sorted(set(seen) & {t.metric for t in targets})
    if both:
        raise ConfigError(f"--keep {both[0]}: already a --target; a metric is either held in a range or kept near "
                          "today's")
    return keeps


# ---------------------------------------------------------------------------------------- knobs
NUMBER, CHOICE, FLAG = "number", "choice", "true/false"  # a knob's kind; the variant files: VARIANT
VARIANT = VARIANT_KNOB  # the knob over the game's variant files (``--knob variant=take-back,no-joker``)


@dataclass(frozen=True)
class Knob:
    """A config key the search may change, and its values: a number's grid from ``low`` to ``high``
    (today's value may lie outside it: ``outside`` says so), or the listed values of a choice (a
    string key), of a true/false rule, or of the game's variant files (``key`` "variant", today
    None: no variant file beyond the setup's). ``kind``: NUMBER, CHOICE, FLAG or VARIANT."""

    key: str
    low: float | None
    high: float | None
    step: float | None
    today: Any
    values: tuple
    kind: str = NUMBER
    # a float knob given without a step: ``step`` was computed (a grid of 8 steps), not the designer's
    step_computed: bool = False

    @property
    def span(self) -> float:
        return float(self.high - self.low) if self.kind == NUMBER else 1.0

    @property
    def outside(self) -> bool:
        return self.kind == NUMBER and not (self.low <= self.today <= self.high)

    def distance(self, value: Any) -> float:
        """How far ``value`` lies from today's: a number's move as a share of its range; any other
        kind's change counts as a whole knob's range (1), whichever value it takes."""
        if self.kind == NUMBER:
            return abs(float(value) - float(self.today)) / self.span
        return 0.0 if value == self.today else 1.0

    def typed(self, value: Any) -> Any:
        """A value read back from the candidates' table, typed like the knob's values."""
        if self.kind == FLAG:
            return bool(value)
        if self.kind in (CHOICE, VARIANT):
            return str(value)
        return int(value) if isinstance(self.today, int) else float(value)

    def value_text(self, value: Any) -> str:
        """A value as the command line writes it (a variant's name, a choice's word, ``true``)."""
        if value is None:
            return "none"
        return str(value) if self.kind in (CHOICE, VARIANT) else toml_value(value)

    def text(self) -> str:
        if self.kind != NUMBER:
            return f"{self.key}={','.join(self.value_text(v) for v in self.values)}"
        step = f":{self.step:g}" if self.step is not None and not self.step_computed else ""  # the step as given
        return f"{self.key}={self.low:g}:{self.high:g}{step}"

    def computed_step_words(self) -> str:
        """A step the solver computed, said as such (empty for a step given or a whole-number knob):
        ``step 0.125, computed: 8 steps; give one with rules.x=0:1:STEP``."""
        if not self.step_computed:
            return ""
        return (f"step {self.step:g}, computed: {FLOAT_STEPS} steps; give one with "
                f"{self.key}={self.low:g}:{self.high:g}:STEP")


def _num(text: str) -> int | float:
    from simbalance.core.plan import read_number

    return read_number(text)


def _today(key: str, cfg: dict, shown: str) -> Any:
    try:
        return get(cfg, key)
    except ConfigError:
        raise ConfigError(f"{shown}: {unknown_key_message(cfg, key)}") from None


def make_knob(key: str, low: Any, high: Any, step: Any, cfg: dict, shown: str) -> Knob:
    """A knob over ``key`` from ``low`` to ``high`` (``step`` for a float key; None: FLOAT_STEPS steps, said computed),
    typed like the key's value today; ``shown``: how the user wrote it, for the one-line error."""
    today = _today(key, cfg, shown)
    step_given = step
    if isinstance(today, bool) or not isinstance(today, (int, float)):
        raise ConfigError(f"{shown}: {key} = {toml_value(today)} is {_kind_words(today)}; {_values_hint(key, today)}")
    for name, v in (("low", low), ("high", high), ("step", step)):
        if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v)):
            raise ConfigError(f"{shown}: {name} = {v!r} is not a number")
    if low >= high:
        what = "empty" if low == high else "inverted"
        raise ConfigError(f"{shown}: the range is {what} ({low:g} to {high:g}); give LOW < HIGH")
    if isinstance(today, int):
        if not (float(low).is_integer() and float(high).is_integer()) or (step is not None and not
                                                                          float(step).is_integer()):
            raise ConfigError(f"{shown}: {key} takes whole numbers (today {today}); e.g. {key}={int(low)}:{int(high)}")
        step_i = int(step) if step is not None else 1
        if step_i <= 0:
            raise ConfigError(f"{shown}: the step must be above 0")
        values = tuple(range(int(low), int(high) + 1, step_i))
        low, high, step = int(low), int(high), (step_i if step is not None else None)
    else:
        step = float(step) if step is not None else (high - low) / FLOAT_STEPS
        if step <= 0:
            raise ConfigError(f"{shown}: the step must be above 0")
        count = int(math.floor((high - low) / step + 1e-9)) + 1
        if count > GRID_MOST:
            raise ConfigError(f"{shown}: {count} values; at most {GRID_MOST} (a coarser step)")
        values = tuple(round(float(low) + i * step, 10) for i in range(count))
        low, high = float(low), float(high)
    if len(values) > GRID_MOST:
        raise ConfigError(f"{shown}: {len(values)} values; at most {GRID_MOST} (a step: {key}={low}:{high}:STEP)")
    return Knob(key, low, high, step, today, values, step_computed=isinstance(today, float) and step_given is None)


def _kind_words(today: Any) -> str:
    if isinstance(today, bool):
        return "true or false"
    if isinstance(today, str):
        return "a choice"
    if isinstance(today, (int, float)):
        return "a number"
    return "not a number, a choice or true/false"


def _values_hint(key: str, today: Any) -> str:
    """How to write a knob over ``key`` (the one-line errors' second half)."""
    if isinstance(today, bool):
        return f"give --knob {key}=true,false (or just --knob {key})"
    if isinstance(today, str):
        return f"give its values, e.g. --knob {key}={today},OTHER"
    if isinstance(today, (int, float)):
        return f"give --knob {key}=LO:HI or {key}=LO:HI:STEP"
    return "a knob is a number, a choice (a string key), true/false or variant"


def choice_knob(key: str, values: list, cfg: dict, shown: str, game: str | None = None) -> Knob:
    """A knob over listed values: a string key's choices (``rules.call_timing``), a true/false
    rule's values, or the game's variant files (``key`` "variant"). Each value is checked against
    the key's type here; whether the engine plays it is planned before any game (studies/solve)."""
    if key == VARIANT:
        from simbalance.core.variants import available_variants, variant_path

        names = list(dict.fromkeys(str(v).strip() for v in values))
        if not names:
            known = ", ".join(available_variants(game)) if game else ""
            raise ConfigError(f"{shown}: {game or 'the game'} has no variant files"
                              + (f"; known: {known}" if known else f" (configs/{game}/variants/)"))
        for name in names:
            if not name:
                raise ConfigError(f"{shown}: an empty variant name; e.g. --knob variant=NAME,NAME")
            if game is None:
                raise ConfigError(f"{shown}: variant files need the game")
            try:
                variant_path(game, name)
            except ConfigError:
                known = ", ".join(available_variants(game)) or "none"
                raise ConfigError(f"{shown}: {name!r} is not a variant of {game}; known: {known}") from None
        return Knob(VARIANT, None, None, None, None, tuple(names), VARIANT)
    today = _today(key, cfg, shown)
    if isinstance(today, bool):
        kind = FLAG
        if any(not isinstance(v, bool) for v in values):
            raise ConfigError(f"{shown}: {key} is true or false (today {toml_value(today)}); {_values_hint(key, today)}")
    elif isinstance(today, str):
        kind = CHOICE
        if any(not isinstance(v, str) or not v for v in values):
            raise ConfigError(f"{shown}: {key} is a choice (today {today!r}): its values are words; "
                              f"{_values_hint(key, today)}")
    else:
        raise ConfigError(f"{shown}: {key} = {toml_value(today)} is {_kind_words(today)}; {_values_hint(key, today)}")
    values = tuple(dict.fromkeys(values))
    if all(v == today for v in values):
        raise ConfigError(f"{shown}: no value but today's ({toml_value(today)}); give another to try")
    return Knob(key, None, None, None, today, values, kind)


def _choice_words(spec: str) -> list[str]:
    return [w.strip().strip('"').strip("'") for w in spec.split(",")]


def parse_knob(text: str, cfg: dict, game: str | None = None) -> Knob:
    """``--knob KEY=LO:HI`` or ``KEY=LO:HI:STEP`` for a number (``ships.4=24:36``,
    ``rules.x=0.5:1.5:0.25``); ``KEY=A,B`` for a choice (``rules.call_timing=after_discard,before_draw``);
    ``KEY=true,false`` or the bare ``KEY`` for a true/false rule; ``variant=NAME,NAME`` or the bare
    ``variant`` (every variant file of ``game``) for the game's variant files."""
    shown = f"--knob {text}"
    key, sep, spec = (part.strip() for part in str(text).partition("="))
    example = "e.g. --knob ships.4=24:36, --knob rules.call_timing=after_discard,before_draw or --knob variant=NAME"
    if not key or (sep and not spec):
        raise ConfigError(f"{shown}: expected KEY=LO:HI, KEY=LO:HI:STEP or KEY=A,B; {example}")
    if key == VARIANT:
        if not sep:
            from simbalance.core.variants import available_variants

            return choice_knob(VARIANT, available_variants(game) if game else [], cfg, shown, game)
        return choice_knob(VARIANT, _choice_words(spec), cfg, shown, game)
    today = _today(key, cfg, shown)
    if isinstance(today, bool):
        if not sep:
            return choice_knob(key, [False, True], cfg, shown)
        words = _choice_words(spec)
        if any(w.lower() not in ("true", "false") for w in words):
            raise ConfigError(f"{shown}: {key} is true or false (today {toml_value(today)}); {_values_hint(key, today)}")
        return choice_knob(key, [w.lower() == "true" for w in words], cfg, shown)
    if isinstance(today, str):
        if not sep:
            raise ConfigError(f"{shown}: {key} is a choice (today {today!r}); {_values_hint(key, today)}")
        return choice_knob(key, _choice_words(spec), cfg, shown)
    if not sep:
        raise ConfigError(f"{shown}: {key} is {_kind_words(today)}; {_values_hint(key, today)}")
    parts = spec.split(":")
    try:
        if len(parts) not in (2, 3):
            raise ValueError
        numbers = [_num(p) for p in parts]
    except ValueError:
        raise ConfigError(f"{shown}: {key} is {_kind_words(today)}; {_values_hint(key, today)}") from None
    return make_knob(key, numbers[0], numbers[1], numbers[2] if len(numbers) == 3 else None, cfg, shown)


def knob_from_table(key: str, spec: Any, cfg: dict, game: str | None, shown: str) -> Knob:
    """A knob of a ``[knobs]`` table (or the API's dict): ``[low, high]`` or ``[low, high, step]``
    numbers for a number key, a list of values for a choice, a true/false rule or ``variant``."""
    spec = list(spec) if isinstance(spec, (list, tuple)) else spec
    if key == VARIANT or (isinstance(spec, list) and any(isinstance(v, (str, bool)) for v in spec)):
        return choice_knob(key, spec if isinstance(spec, list) else [spec], cfg, shown, game)
    if not (isinstance(spec, list) and len(spec) in (2, 3)):
        raise ConfigError(f"{shown} = {spec!r}: expected [low, high] or [low, high, step], or a list of values")
    return make_knob(key, spec[0], spec[1], spec[2] if len(spec) == 3 else None, cfg, shown)


def default_knobs(cfg: dict, game: str | None = None) -> list[Knob]:
    """The config's ``[knobs]`` table (core/config.knobs_of checks it): ``"key" = [low, high]`` or
    ``[low, high, step]`` for a number, ``["a", "b"]`` for a choice, ``[true, false]`` for a
    true/false rule, ``variant = ["NAME", ...]`` for the game's variant files."""
    from simbalance.core.config import knobs_of

    return [knob_from_table(key, spec, cfg, game, f"knobs.{key!r}") for key, spec in knobs_of(cfg).items()]


def check_knobs(knobs: list[Knob]) -> list[Knob]:
    keys = [k.key for k in knobs]
    twice = sorted({k for k in keys if keys.count(k) > 1})
    if twice:
        raise ConfigError(f"--knob {twice[0]} given twice: one range per key")
    if not knobs:
        raise ConfigError("no knobs to turn: give --knob KEY=LO:HI (e.g. --knob ships.4=24:36) or a [knobs] table "
                          "in the game's config")
    return knobs


# ----------------------------------------------------------------------------------- candidates
def candidates(knobs: list[Knob], keys: int) -> list[dict]:
    """Every change of exactly ``keys`` knobs to other values on their grids (today's left out)."""
    out = []
    for chosen in itertools.combinations(knobs, keys):
        grids = [[v for v in k.values if v != k.today] for k in chosen]
        for combo in itertools.product(*grids):
            out.append({k.key: v for k, v in zip(chosen, combo, strict=True)})
    return out


def extend(parents: list[dict], knobs: list[Knob], most: int) -> list[dict]:
    """The changes of one more knob grown from ``parents`` (best first): each parent with every other
    knob at each of its values but today's, until ``most`` distinct changes (a stage too large to
    enumerate grows from the previous stage's best candidates)."""
    out, seen = [], set()
    for parent in parents:
        for k in knobs:
            if k.key in parent:
                continue
            for v in k.values:
                if v == k.today:
                    continue
                child = {**parent, k.key: v}
                child = {kn.key: child[kn.key] for kn in knobs if kn.key in child}  # the knobs' own order
                ident = tuple(sorted(child.items()))
                if ident in seen:
                    continue
                seen.add(ident)
                out.append(child)
                if len(out) >= most:
                    return out
    return out


def change_size(change: dict, knobs: dict[str, Knob]) -> tuple[int, float]:
    """How large a change is: keys changed, then the distance from today's values, each key's move
    as a share of its range, summed."""
    distance = sum(knobs[k].distance(v) for k, v in change.items())
    return len(change), round(distance, 12)


def describe_change(change: dict, knobs: dict[str, Knob] | None = None, today: dict | None = None) -> str:
    """A change in words: ``give player 1 two more ships, ships.4 from 30 to 28``."""
    if not change:
        return "no change"
    parts = []
    for key, value in change.items():
        if key == VARIANT:
            parts.append(f"the variant {value}")
            continue
        before = knobs[key].today if knobs else (today or {}).get(key)
        match = re.fullmatch(r"compensation\.([a-z_]+)\.(\d+)", key)
        if match and before is not None:
            diff = value - before
            what = match[1].replace("_", " ")
            word = ("more" if diff > 0 else "fewer") if what.endswith("s") else ("more" if diff > 0 else "less")
            if abs(diff) == 1 and what.endswith("s"):
                what = what[:-1]
            parts.append(f"give player {match[2]} {_count(abs(diff))} {word} {what}")
        elif key == "compensation.later_seat_points" and before is not None:
            parts.append(f"give player k (k − 1) × {toml_value(value)} starting points "
                         f"(compensation.later_seat_points from {toml_value(before)} to {toml_value(value)})")
        elif before is not None:
            parts.append(f"{key} from {toml_value(before)} to {toml_value(value)}")
        else:
            parts.append(f"{key} = {toml_value(value)}")
    text = ", ".join(parts)
    return text[0].upper() + text[1:] if text.startswith("give") else text


def _count(value: float) -> str:
    words = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine"}
    if float(value).is_integer() and int(value) in words:
        return words[int(value)]
    return f"{value:g}"


def setup_args(change: dict, variants: tuple[str, ...] = (), overrides: tuple[str, ...] = ()) -> list[str]:
    """The options that play ``change`` on a setup of ``variants`` and ``--set`` ``overrides`` (the
    ones the solve started from), in the order a run applies them: the variants (the setup's, then
    the change's), then the overrides (the setup's, then the change's). A setup's override of a key
    the change sets is left out: the change's value is the one played."""
    changed = {k for k in change if k != VARIANT}
    args = [a for v in variants for a in ("--variant", v)]
    if VARIANT in change:
        args += ["--variant", str(change[VARIANT])]
    args += [a for o in overrides if o.partition("=")[0].strip() not in changed for a in ("--set", o)]
    args += [a for k, v in change.items() if k != VARIANT for a in ("--set", f"{k}={toml_value(v)}")]
    return args


def set_line(change: dict, variants: tuple[str, ...] = (), overrides: tuple[str, ...] = ()) -> str:
    """The options that play the change (``--set KEY=VALUE``, ``--variant NAME``) as one shell line,
    the setup's own ``variants`` and ``overrides`` with them (setup_args)."""
    return " ".join(shlex.quote(a) for a in setup_args(change, variants, overrides))


# ------------------------------------------------------------------------------------- findings
@dataclass
class Answer:
    """A change verified on fresh games: its metrics under the targets, and the other models."""

    change: dict
    size: tuple[int, float]
    words: str
    judged: dict
    models: list[dict] = field(default_factory=list)  # {model, games, verdict, tests}
    # False: verified only to say under which players it holds (it met under some models and was
    # refuted under others in the search), not an answer the search found
    found: bool = True


def targets_words(targets: list[Target]) -> str:
    return ", ".join(t.words() for t in targets)


def _metric_value(metric: str, v: float) -> str:
    if metric == "first_player_advantage":
        return f"{100 * v:+.1f} pts"
    if metric == "dominance":  # a margin of win share, in points
        return f"{100 * v:.1f} pts"
    if is_share(metric):
        return f"{100 * v:.1f}%"
    return f"{v:.1f}"


def range_words(t: dict) -> str:
    """A test's range as its metric is shown elsewhere: ``0.0% to 4.0%`` for a share (a kept
    range's raw ``0 to 0.04018`` read as a fraction), ``4 to 99`` for a length."""
    m = t["metric"]
    if m == "first_player_advantage" or is_share(m):
        return f"{_metric_value(m, t['low'])} to {_metric_value(m, t['high'])}"
    return f"{t['low']:g} to {t['high']:g}"


def test_words(t: dict) -> str:
    """``balance 97.8% (95% CI 97.1% to 98.4%)``."""
    m = t["metric"]
    return (f"{label(m)} {_metric_value(m, t['value'])} (95% CI {_metric_value(m, t['ci_low'])} to "
            f"{_metric_value(m, t['ci_high'])})")


# why a player model was not played on a change that met under the others: the budget left could not
# hold its games (studies/solve.settle_costly); the change is then not settled, never refuted
UNPLAYED_BUDGET = "not played: the budget left could not hold its games"
# a run model's verdict when every target is the metagame's: it plays the verification for the compare
# table only (studies/solve.model_verdicts), neither meeting nor failing anything
NO_TARGET = "played for the compare table (no target under it)"


def _held_back(answers: list[Answer]) -> list[str]:
    """The player models the budget kept from the given changes' verification (not played there)."""
    names = [m["model"] for a in answers for m in a.models or []
             if m["verdict"] == "not played" and m.get("reason") == UNPLAYED_BUDGET]
    return list(dict.fromkeys(names))


def solve_findings(*, targets: list[Target], knobs: list[Knob], today: dict, answers: list[Answer],
                   closest: pd.DataFrame | None, interrupted: bool, game: str, side_effects: dict[str, str],
                   budget_spent: bool = False, models: list[str] | None = None, keeps: list | None = None,
                   unsettled: int = 0, complete: bool = True, tried: pd.DataFrame | None = None,
                   verify_n: int | None = None, today_row: dict | None = None,
                   max_keys: int | None = None, unheld: int = 0,
                   plays: Callable[[Knob, Any], bool] | None = None) -> list[Finding]:
    """What the page says first: no change needed, the chosen change (in words, with its verified
    metrics under every player model and its side effects), a change that holds under some models
    and not others (which, and why where the numbers tell), or no change meeting the targets: "no
    change within these knobs meets" only when every candidate is refuted by its interval (and every
    change of the knobs was tried), else "none found within the budget" with how many are unsettled
    and the closest on the targets' own metrics with their CIs; a knob at the edge of its range, or a
    coarse grid whose neighbours straddle a target, gets a hint. ``unheld``: changes that met in the
    search whose verification the budget could not hold (said so, never "none found"). ``plays(knob,
    value)``: does the engine play the setup with ``knob`` at ``value`` (a wider range is suggested
    only up to an end it plays: wider_end)."""
    out: list[Finding] = []
    goal = targets_words(targets) + "".join(f", {k.metric} kept near today's" for k in keeps or [])
    under = f" under {_and(models)}" if models else ""
    if today["verdict"] == MEETS:
        said = "; ".join(test_words(t) for t in today["tests"])
        return [Finding("no_change_needed", LOW, f"No change needed: today's rules already meet {goal}{under} "
                        f"({said}).", None, None, "#today", decided_by=(judgement(today, "already meet"),))]
    chosen = next((a for a in answers if a.judged["verdict"] == MEETS), None)
    if chosen is not None:
        tests = chosen.judged["tests"]
        first = tests[0].get("model")
        own = [t for t in tests if t.get("model") == first]
        bal = next((t for t in own if t["metric"] == "balance"), own[0])
        others = "; ".join(test_words(t) for t in own if t is not bal)
        rest = sorted({t.get("model") for t in tests} - {first}, key=str)
        more = "".join(f"; under {m}: " + ", ".join(test_words(t) for t in tests if t.get("model") == m) for m in rest)
        effect = side_effects.get(chosen.words) or "no other metric changes significantly"
        out.append(Finding(
            "solution", MEDIUM,
            f"{chosen.words}: {test_words(bal)}{'; ' + others if others else ''}{more}; {effect} (verified on "
            f"fresh games{under}).",
            float(bal["value"]), (float(bal["ci_low"]), float(bal["ci_high"])), "#chosen",
            decided_by=(judgement(chosen.judged, "verified on fresh games"),)))
        return ordered(out)
    # the smallest verified change refuted under some player models and not under others (where it
    # meets first): which, and why; an answer only when it holds under every one
    split = sorted((a for a in answers if a.models and any(m["verdict"] == FAILS for m in a.models)
                    and any(m["verdict"] in (MEETS, OPEN) for m in a.models)),
                   key=lambda a: -sum(m["verdict"] == MEETS for m in a.models))
    for a in split[:1]:
        holds = [m["model"] for m in a.models if m["verdict"] == MEETS]
        maybe = [m for m in a.models if m["verdict"] == OPEN]
        fails = [m for m in a.models if m["verdict"] == FAILS]  # a model not played says nothing
        said = ([f"holds under {_and(holds)}"] if holds else []) + (
            [f"is not settled under {_and([m['model'] for m in maybe])} at {maybe[0]['games']:,} games"]
            if maybe else [])
        why = "; ".join(f"under {m['model']}" + (f": {m['reason']}" if m.get("reason") else "") for m in fails)
        out.append(Finding("solution_split", HIGH,
                           f"{a.words} {' and '.join(said)} but does not meet {goal} under "
                           f"{_and([m['model'] for m in fails])} ({why}): no answer, since a change must hold "
                           "under every player model.", None, None, "#players",
                           decided_by=(judgement(a.judged),) if a.judged.get("tests") else ()))
    if not split and tried is not None and len(tried) and "mends_under" in tried:
        # a candidate of the search that met under some player models where today's rules do not, and
        # was refuted under others
        some = tried[(tried["mends_under"] != "") & (tried["fails_under"] != "")]
        if len(some):
            r = some.sort_values(["keys_changed", "distance"], kind="stable").iloc[0]
            out.append(Finding("solution_split", HIGH,
                               f"{r['change']} meets {goal} under {r['meets_under']} but does not meet it under "
                               f"{r['fails_under']} "
                               f"(the search's {int(r['games']):,} games per model): no answer, since a change must "
                               "hold under every player model.", None, None, "#candidates"))
            split = [r]
    split_only = [a for a in answers if not a.found]
    answers = [a for a in answers if a.found]
    if answers and not split:  # candidates that met the targets in the search but not on fresh games
        # not settled is no failure: say which, and the models the budget kept from them
        held = _held_back(answers)
        verb = ("are not settled on fresh games" if all(a.judged["verdict"] == OPEN for a in answers)
                else f"did not meet {goal} on fresh games")
        out.append(Finding("solution_not_verified", HIGH,
                           f"The search's best changes {verb}{under}: "
                           + "; ".join(f"{a.words} ({a.judged['verdict']})" for a in answers)
                           + (f"; not played under {_and(held)}: the budget left could not hold its games" if held
                              else "") + ".",
                           None, None, "#verified", decided_by=tuple(judgement(a.judged) for a in answers if a.judged.get("tests"))))
    unsettled += sum(1 for a in answers + split_only if a.judged["verdict"] == OPEN)  # still possible on fresh games
    refuted_all = unsettled == 0 and not budget_spent and not interrupted
    if interrupted:
        what = f"interrupted before any change met {goal}{under}"
    elif unheld and not answers:
        what = (f"{unheld} change{'s' * (unheld > 1)} met {goal} in the search, but the budget could not hold "
                f"{'its' if unheld == 1 else 'their'} verification on fresh games{under} (the notes say what it "
                "needs; a longer --budget verifies them)")
    elif answers and refuted_all:
        what = f"none of the search's changes held on fresh games for {goal}{under}"
    elif refuted_all and complete:
        these = f"of at most {max_keys} of these knobs" if max_keys else "within these knobs"
        what = f"no change {these} meets {goal}{under} (every one is refuted by its 95% interval)"
    elif refuted_all:
        what = (f"none of the {len(tried) if tried is not None else 0} changes tried meets {goal}{under} (each is "
                "refuted by its 95% interval; not every combination of the knobs was tried)")
    elif budget_spent and not unsettled:  # the budget ran out with nothing open: say what was and was not tried
        n = len(tried) if tried is not None else 0
        what = (f"none found within the budget for {goal}{under}: "
                + ("the budget ran out before any change was tried (the notes say what today's rules and the "
                   "verification need; a longer --budget searches)" if not n else
                   f"the {n} change{'s' * (n != 1)} tried {'is' if n == 1 else 'are each'} refuted by "
                   "its 95% interval, and the budget ran out before the search went further"))
    else:
        held = _held_back([a for a in answers + split_only if a.judged["verdict"] == OPEN])
        why = "the budget ran out" if budget_spent else (
            f"the budget left could not hold their games under {_and(held)}: a longer --budget settles them"
            if held else
            # the cap is on one block (--verify-n), not on a candidate's games: those add up to almost twice it
            f"their blocks reached {verify_n:,} games, --verify-n's: a larger --verify-n plays more" if verify_n
            else "they reached the most games a candidate plays")
        what = (f"none found within the budget for {goal}{under}: {unsettled} change{'s' * (unsettled != 1)} "
                f"still possible, not settled ({why})")
    text = f"No change found: {what}."
    number = None
    if closest is not None and len(closest):
        best = closest.iloc[0]
        change = {k: best[k] for k in best.index if k in {kn.key for kn in knobs} and best[k] == best[k]}
        change = {k: knob_of(knobs, k).typed(v) for k, v in change.items()}
        said = []
        for t in targets + [Target(k.metric, 0, 0, 0.0) for k in keeps or []]:
            name = f"keep_{t.metric}" if t.keep is not None else t.metric
            if name in best.index and best[name] == best[name]:
                shown = {"metric": t.metric, "value": best[name], "ci_low": best[f"{name}_ci_low"],
                         "ci_high": best[f"{name}_ci_high"]}
                model = best.get(f"{name}_model")
                said.append(test_words(shown) + (f" under {model}" if models and len(models) > 1 and model else ""))
        if best["verdict"] == MEETS:  # met in the race (its models only), not on fresh games under every model
            where = best.get("meets_under") or "the search's models"
            state = f"met in the search under {where} after {int(best['games']):,} games"
        else:
            state = f"{best['verdict']} after {int(best['games']):,} games per player model"
        text += f" The closest: {describe_change(change, {k.key: k for k in knobs})} ({state}): {'; '.join(said)}."
        number = float(best["shortfall"])
        edges = [k for k in knobs if k.kind == NUMBER and k.key in change and change[k.key] in (k.low, k.high)
                 and best["verdict"] != MEETS]  # a closest that met where it was played needs no wider range
        for k in edges:
            side = "top" if change[k.key] == k.high else "bottom"
            end = wider_end(k, side, plays)
            if end is None:
                continue  # nothing beyond this end the engine plays
            step = f":{k.step:g}" if k.step is not None else ""  # the step as given
            wider = f"{k.key}={k.low:g}:{end:g}{step}" if side == "top" else f"{k.key}={end:g}:{k.high:g}{step}"
            text += (f" {k.key} sits at the {side} of its range ({k.low:g} to {k.high:g}): try a wider one, "
                     f"--knob {wider}.")
    if tried is not None and len(tried):
        text += "".join(f" {hint}" for hint in grid_hints(tried, knobs, targets, today_row))
    # the changes verified on fresh games keep their judgements; the closest of the search's race is
    # read from its table (the race's own test, stats.judge_models on the candidate's games so far)
    out.append(Finding("no_solution", HIGH, text, number, None, "#candidates",
                       decided_by=tuple(judgement(a.judged) for a in answers + split_only if a.judged.get("tests"))))
    return ordered(out)


def wider_end(knob: Knob, side: str, plays: Callable[[Knob, Any], bool] | None = None) -> int | float | None:
    """The end of a wider range to suggest for a number knob whose closest change sits at its
    ``side`` ("top" or "bottom"): the range's width beyond it (a count stays at 0 or above), shrunk
    step by step (the knob's step; 1 for a whole number; a quarter of the width otherwise) to the
    widest end the engine plays (``plays(knob, value)``: the solve's own refusal check on the setup
    it started from, e.g. no 0 actions a turn) whose grid the solve still takes (at most GRID_MOST
    values on the knob's step: captain-action's -20:20 widened to -20:60 would be 81), or None when no
    value beyond the end does."""
    width = knob.high - knob.low
    whole = isinstance(knob.today, int)
    unit = knob.step if knob.step else (1 if whole else width / 4)
    grid = knob.step or 1  # the widened range's step, as make_knob counts its values
    floor = 0 if knob.low >= 0 else -math.inf  # a count stays a count
    edge = knob.high if side == "top" else knob.low
    sign = 1 if side == "top" else -1
    far = edge + sign * width if side == "top" else max(edge - width, floor)
    steps = max(int(math.floor(abs(far - edge) / unit + 1e-9)), 0)
    for j in range(steps, 0, -1):  # the widest first
        value = edge + sign * j * unit
        value = int(round(value)) if whole and float(value).is_integer() else value
        if math.floor((abs(value - edge) + width) / grid + 1e-9) + 1 > GRID_MOST:
            continue  # the solve refuses a grid this long
        if plays is None or plays(knob, value):
            return value
    return None


def _and(items: list[str]) -> str:
    items = [str(i) for i in items]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1] if items else ""


def grid_hints(tried: pd.DataFrame, knobs: list[Knob], targets: list[Target], today: dict | None = None) -> list[str]:
    """A coarse grid whose neighbouring values straddle a target: for a knob with a step (a float
    knob, or a whole-number knob stepping by more than 1), two neighbouring values (one-knob
    candidates, or today's rules: ``today``, a row of the same columns), both short of the targets,
    on either side of a target's range (or, for balance, favouring different players): a finer
    step between them may meet."""
    hints = []
    one = tried[tried["keys_changed"] == 1]
    for k in knobs:
        if k.kind != NUMBER:
            continue  # a choice's words, a true/false rule or a variant file have no value between two others
        whole = isinstance(k.today, int)
        if whole and (k.step is None or k.step <= 1):
            continue  # no value between two neighbours to try
        rows = one[one[k.key] == one[k.key]]
        if today is not None:
            rows = pd.concat([rows, pd.DataFrame([{**today, k.key: k.today}])], ignore_index=True)
        rows = rows.sort_values(k.key)
        rows = rows[rows["verdict"] != MEETS]
        for (_, a), (_, b) in zip(rows.iloc[:-1].iterrows(), rows.iloc[1:].iterrows(), strict=True):
            for t in targets:
                if t.metric == "balance":
                    crosses = "favoured" in a.index and a["favoured"] != b["favoured"]
                else:
                    va, vb = a.get(t.metric), b.get(t.metric)
                    crosses = va == va and vb == vb and ((va < t.low and vb > t.high) or (va > t.high and vb < t.low))
                if crosses:
                    lo, hi = ((int(a[k.key]), int(b[k.key])) if whole else (float(a[k.key]), float(b[k.key])))
                    finer = 1 if whole else k.step / 4
                    hints.append(f"{k.key}: between {lo:g} and {hi:g} {label(t.metric)} crosses its target on a step "
                                 f"of {k.step:g}: a finer step may meet, --knob {k.key}={lo:g}:{hi:g}:{finer:g}.")
                    break
    return hints


def _models_text(text: str, model: dict) -> str:
    said = "; ".join(test_words(t) for t in model.get("tests", []))
    return f"{text}: {said}." if said else f"{text}."


def knob_of(knobs: list[Knob], key: str) -> Knob:
    return next(k for k in knobs if k.key == key)


# --- card values for the deck knobs (issue 40 item 5) ------------------------------------------------

_GENERIC_WORDS = {"cards", "card", "deck", "count", "counts"}


def _words(text: str) -> list[str]:
    """Lower-case words, a plural's ``s`` dropped (``wildcards`` -> ``wildcard``)."""
    out = []
    for w in re.findall(r"[a-z0-9]+", text.lower()):
        out.append(w[:-1] if len(w) > 3 and w.endswith("s") else w)
    return out


def knob_cards(key: str, cards: list[str]) -> list[str]:
    """The cards a deck knob counts, by name: every word of the key past its table (``cards.joker``:
    joker; ``deck.wildcards.captain_action``: wildcard captain action; generic words such as
    ``cards`` and ``deck`` left out) is a word of the card's name. A rule key names no card."""
    parts = key.split(".")
    if parts[0] in ("rules", "compensation", "scoring", "ships", "dice", "targets", "findings", "bounds", VARIANT):
        return []
    wanted = {w for part in parts for w in _words(part)} - _GENERIC_WORDS
    if not wanted:
        return []
    return [c for c in cards if wanted <= set(_words(c))]


def order_by_card_values(knobs: list[Knob], priority: list[dict]) -> tuple[list[Knob], str | None]:
    """The knobs with the deck knobs whose cards have the largest values (card-value's ``priority``:
    the cards by |value|, largest first) first, in that order; every other knob after them, in its
    own order. The order is the order a stage plays its candidates of equal size and grows a stage
    too large to enumerate: the counts of the cards that matter most are tried first. Returns the
    knobs and a note saying the order (None when no knob counts a valued card)."""
    size = {p["card"]: abs(float(p["value"])) for p in priority if p.get("value") is not None}
    value = {p["card"]: float(p["value"]) for p in priority if p.get("value") is not None}
    matched = []
    for i, k in enumerate(knobs):
        cards = knob_cards(k.key, list(size))
        if cards:
            best = max(cards, key=lambda c: size[c])
            matched.append((size[best], i, k, best))
    if not matched:
        return knobs, None
    matched.sort(key=lambda m: (-m[0], m[1]))
    first = [m[2] for m in matched]
    rest = [k for k in knobs if k not in first]
    said = ", ".join(f"{m[2].key} ({m[3]}: {100 * value[m[3]]:+.1f} pts)" for m in matched)
    return first + rest, f"deck knobs tried first, by their cards' values (card-value): {said}"
