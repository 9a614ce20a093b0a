"""Balance regression gate: compare a fresh run with a stored baseline.

Each headline metric of the baseline is stored with its standard error. A re-run on fresh seeds
flags a metric only when its change is *significantly larger than a margin*: the one-sided test of
|difference| > margin, Bonferroni-corrected across the metrics of one baseline. Noise therefore
passes (the false-alarm rate is at most alpha per baseline), a change within the margin is only
reported, and a real shift of a few points at the default n is caught.

Every metric declares a direction (``DIRECTIONS``, the one table of them): balance is better higher,
timeouts lower, and the rest (seat and strategy win rates, mean length, ties) are two-sided. A flagged
change is then "better" or "worse", or "changed" for a two-sided metric. Only "worse" fails the gate;
"changed" and "better" fail it only when asked (``fail_on_change``). Seats drifting apart is not
lost: that is balance's job (the largest gap between seats grows: balance is worse). Designer bounds from the game
config's ``[bounds]`` table (e.g. no seat below 20%) are checked on the fresh run as well.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from simbalance.analysis.labels import metric_label
from simbalance.analysis.stats import ALPHA, cleared, normal_half, seat_gap, standard_error
from simbalance.core.config import play_config
from simbalance.core.errors import ConfigError

DEFAULT_ALPHA = ALPHA  # the statistics core's one level (analysis/stats.py)
RATE_MARGIN = 0.01  # 1 percentage point for win rates, balance, shares
LENGTH_MARGIN = 0.05  # 5% of the baseline's mean length

HIGHER_IS_BETTER = "higher is better"
LOWER_IS_BETTER = "lower is better"
TWO_SIDED = "two-sided"

# The direction each metric declares: the one place it is decided. Metrics not named here (the win
# rate of every seat and strategy) are two-sided: a seat or strategy moving is neither better nor
# worse by itself ("changed"); seats moving apart shows as worse balance.
DIRECTIONS = {
    "balance": HIGHER_IS_BETTER,
    "timeouts": LOWER_IS_BETTER,
    "ties": TWO_SIDED,  # whether a shared win is good is the game's own design
    "mean length": TWO_SIDED,
}

STATUS_OK = "ok"  # no significant change
STATUS_WITHIN = "within margin"  # a significant change, smaller than the margin: reported, never failed
STATUS_BETTER = "better"  # significantly beyond the margin, in the metric's good direction
STATUS_WORSE = "worse"  # significantly beyond the margin, in the bad direction (or no longer measurable)
STATUS_CHANGED = "changed"  # a two-sided metric significantly beyond its margin, either way

FAILING = (STATUS_WORSE,)  # what fails the gate by default: the "fails only on worse"
FAILING_ON_CHANGE = (STATUS_WORSE, STATUS_CHANGED, STATUS_BETTER)  # with fail_on_change (--fail-on-change)


def metric_direction(name: str) -> str:
    return DIRECTIONS.get(name, TWO_SIDED)


def fails(status: str, fail_on_change: bool = False) -> bool:
    """Whether a metric's status fails the gate."""
    return status in (FAILING_ON_CHANGE if fail_on_change else FAILING)


def is_rate(kind: str) -> bool:
    return kind == "share"


def format_value(value: float, kind: str) -> str:
    """A metric's value in its unit: a rate as a percent (``52.09%``), a length with its unit."""
    if value is None or not math.isfinite(value):
        return "n/a"
    return f"{value:.2%}" if is_rate(kind) else f"{value:.2f} {kind}"


def format_difference(value: float, kind: str) -> str:
    """A change: percentage points for a rate (``+1.20 pp``), the unit for a length."""
    if value is None or not math.isfinite(value):
        return "n/a"
    return f"{value * 100:+.2f} pp" if is_rate(kind) else f"{value:+.2f} {kind}"


def format_margin(value: float, kind: str) -> str:
    return f"{value * 100:.2f} pp" if is_rate(kind) else f"{value:.2f} {kind}"


def default_margin(name: str, value: float) -> float:
    """The margin headline_metrics() gives a metric of this value."""
    return LENGTH_MARGIN * max(value, 1e-9) if name == "mean length" else RATE_MARGIN


def config_hash(cfg: dict) -> str:
    """The digest of what changes the games (core.config.play_config: not [knobs], not a compensation of 0s)."""
    return hashlib.sha256(json.dumps(play_config(cfg), sort_keys=True, default=str).encode()).hexdigest()[:16]


def _rate(value: float, n: float) -> dict:
    se = math.sqrt(max(value * (1 - value), 0.0) / n) if n > 0 else float("nan")
    return {"value": value, "se": se, "margin": RATE_MARGIN, "kind": "share"}


def metric_names(players: int, strategy_names: tuple[str, ...] | list[str]) -> list[str]:
    """Every metric headline_metrics() can produce for a run of this many seats and these strategies
    (balance only when some game has a winner)."""
    names = [f"win rate seat {seat}" for seat in range(players)]
    if len(strategy_names) > 1:
        names += [f"win rate {name}" for name in strategy_names]
    return names + ["balance", "mean length", "timeouts", "ties"]


def _finite(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def validate_baseline_metrics(where: str, metrics, margins, players: int,
                              strategy_names: tuple[str, ...] | list[str], length_unit: str | None = None) -> None:
    """A baseline's metrics and margins, before anything is played: every key is one the re-run
    produces, every seat's win rate is there, and each metric has a finite value, se, margin and a kind."""
    known = metric_names(players, strategy_names)
    allowed = f"known: {', '.join(repr(k) for k in known)}"
    if not isinstance(metrics, dict):
        raise ConfigError(f"{where}: metrics = {short_value(metrics)}: expected a table of metric name -> "
                          f"{{value, se, margin, kind}}; re-create it with `simbalance baseline`")
    if not metrics:
        raise ConfigError(f"{where}: metrics = {{}}: a baseline must check at least the seat win rates; {allowed}")
    for name, metric in metrics.items():
        if name not in known:
            raise ConfigError(f"{where}: metrics.{name!r}: unknown metric for this setup; {allowed}")
        if not isinstance(metric, dict):
            raise ConfigError(f"{where}: metrics.{name!r} = {short_value(metric)}: expected a table with "
                              "value, se, margin and kind")
        for key in ("value", "se", "margin"):
            if key not in metric:
                raise ConfigError(f"{where}: metrics.{name!r}: missing {key!r}; each metric needs value, se, "
                                  "margin and kind")
            if not _finite(metric[key]):
                raise ConfigError(f"{where}: metrics.{name!r}.{key} = {short_value(metric[key])}: expected a finite number")
            if key != "value" and metric[key] < 0:
                raise ConfigError(f"{where}: metrics.{name!r}.{key} = {metric[key]!r}: must be >= 0")
        if not isinstance(metric.get("kind"), str) or not metric["kind"]:
            raise ConfigError(f"{where}: metrics.{name!r}.kind = {short_value(metric.get('kind'))}: expected a unit name "
                              "such as 'share' or 'turns'")
        expected = (length_unit if name == "mean length" else "share") if length_unit is not None else None
        if expected is not None and metric["kind"] != expected:  # the kind decides how a change is tested
            raise ConfigError(f"{where}: metrics.{name!r}.kind = {short_value(metric['kind'])}: this metric is "
                              f"measured in {expected!r}; re-create it with `simbalance baseline`")
    missing = [k for k in known[:players] if k not in metrics]
    if missing:
        raise ConfigError(f"{where}: metrics: missing {', '.join(repr(k) for k in missing)}; a baseline must "
                          f"hold the win rate of every one of its {players} seats")
    if margins is None:
        return
    if not isinstance(margins, dict):
        raise ConfigError(f"{where}: margins = {short_value(margins)}: expected a table of metric name -> margin")
    for name, margin in margins.items():
        if name not in metrics:
            raise ConfigError(f"{where}: margins.{name!r}: not a metric of this baseline; known: "
                              f"{', '.join(repr(k) for k in metrics)}")
        if not _finite(margin) or margin < 0:
            raise ConfigError(f"{where}: margins.{name!r} = {short_value(margin)}: expected a finite number >= 0")


def short_value(value) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def headline_metrics(summary: dict) -> dict[str, dict]:
    """The metrics a baseline stores, each with its standard error and default margin."""
    n = summary["n_games"]
    out: dict[str, dict] = {}
    seats = summary["seats"]
    for seat in seats:
        out[f"win rate seat {seat['seat']}"] = _rate(seat["win_rate"], n)
    if len(summary["strategies"]) > 1:
        for strat in summary["strategies"]:
            out[f"win rate {strat['strategy']}"] = _rate(strat["win_rate"], strat["seat_games"])
    if summary["balance"] is not None:  # over decided games, like the summary's
        decided = seats[0]["decided_games"]
        rates = [s["win_rate_decided"] for s in seats]
        hi, lo = int(np.argmax(rates)), int(np.argmin(rates))
        # the widest gap's standard error as the statistics core has it (stats.seat_gap: two seats'
        # shares of the same games move against each other, their covariance counted), not two
        # independent shares' (which overstates it: captain-action 0.0095 against 0.0082)
        gap = seat_gap(rates[hi] * decided, rates[lo] * decided, decided)
        se_gap = float(standard_error(gap.low, gap.high))
        out["balance"] = {"value": summary["balance"], "se": se_gap, "margin": RATE_MARGIN, "kind": "share"}
    length = summary["length"]
    out["mean length"] = {"value": length["mean"], "se": length["sd"] / math.sqrt(n),
                          "margin": default_margin("mean length", length["mean"]), "kind": length["unit"]}
    out["timeouts"] = _rate(summary["outcomes"]["timeouts"], n)
    out["ties"] = _rate(summary["outcomes"]["ties"], n)
    for m in out.values():
        m["ci_low"] = m["value"] - normal_half(m["se"])
        m["ci_high"] = m["value"] + normal_half(m["se"])
    return out


@dataclass
class MetricCheck:
    metric: str
    baseline: float
    value: float
    difference: float
    margin: float
    z: float  # (|difference| - margin) / se of the difference
    status: str
    kind: str = "share"  # the unit: "share" (a rate, shown in percent) or a length's unit
    direction: str = TWO_SIDED
    # the comparison "beyond the margin" is read from (stats.cleared: the difference's interval at
    # alpha / metrics, wholly past the margin on its side); None when the fresh run lacks the metric
    decided_by: Any = None

    def fails(self, fail_on_change: bool = False) -> bool:
        return fails(self.status, fail_on_change)

    def describe(self) -> str:
        """One line: ``balance worse: 87.71% -> 82.00% (-5.71 pp, margin 1.00 pp, higher is better)``."""
        return (f"{metric_label(self.metric)} {self.status}: {format_value(self.baseline, self.kind)} -> "
                f"{format_value(self.value, self.kind)} ({format_difference(self.difference, self.kind)}, "
                f"margin {format_margin(self.margin, self.kind)}, {self.direction})")


def _status(direction: str, diff: float, beyond_margin: bool, significant: bool) -> str:
    if beyond_margin:
        if direction == TWO_SIDED:
            return STATUS_CHANGED
        good = diff > 0 if direction == HIGHER_IS_BETTER else diff < 0
        return STATUS_BETTER if good else STATUS_WORSE
    return STATUS_WITHIN if significant else STATUS_OK


def compare_to_baseline(base: dict[str, dict], fresh: dict[str, dict], alpha: float = DEFAULT_ALPHA,
                        margins: dict[str, float] | None = None) -> list[MetricCheck]:
    """Each metric of the baseline against the fresh run: ok, within margin, better, worse or changed."""
    if not base:
        raise ConfigError("baseline metrics: none to check; a baseline must hold at least the seat win rates")
    from scipy import stats  # here, not at the top: scipy.stats takes 0.6 s to import, and a run needs none

    names = list(base)
    z_crit = stats.norm.isf(alpha / len(names))
    out = []
    for name in names:
        b = base[name]
        margin = (margins or {}).get(name, b["margin"])
        kind = b.get("kind", "share")
        direction = metric_direction(name)
        if name not in fresh:
            # e.g. balance when no game of the re-run had a winner: a change the gate must not pass over
            out.append(MetricCheck(name, b["value"], math.nan, math.nan, margin, math.inf, STATUS_WORSE, kind,
                                   direction))
            continue
        f = fresh[name]
        diff = f["value"] - b["value"]
        se = math.hypot(b["se"], f["se"])
        if se == 0 or not math.isfinite(se):
            z = math.inf if abs(diff) > margin else -math.inf
            beyond, significant = abs(diff) > margin, diff != 0
        else:
            z = (abs(diff) - margin) / se
            beyond, significant = z > z_crit, abs(diff) / se > z_crit
        half = z_crit * se if se > 0 and math.isfinite(se) else 0.0
        up = diff >= 0
        decided = cleared(diff, diff - half, diff + half, margin if up else -margin,
                          f"{metric_label(name)} moved beyond its margin", "above" if up else "below")
        out.append(MetricCheck(name, b["value"], f["value"], diff, margin, z,
                               _status(direction, diff, beyond, significant), kind, direction, decided))
    return out


BOUND_HOLDS, BOUND_VIOLATED, BOUND_OPEN = "holds", "VIOLATED", "not settled"


class BoundCheck(NamedTuple):
    """One designer bound on a run: the bound, what was measured (with its 95% interval) and its
    status: ``holds`` (every interval inside the bound), ``VIOLATED`` (some interval wholly
    outside) or ``not settled`` (the games cannot tell: a warning, never a failure; docs/ci.md)."""

    bound: str
    measured: str
    status: str
    decided_by: Any = None  # the stats.judgement its status is read from (the core makes it again: recheck)

    @property
    def ok(self) -> bool:
        """Whether the bound lets the gate pass: only a bound the games show violated fails it."""
        return self.status != BOUND_VIOLATED


def _bound_targets(key: str, value, players: int) -> tuple[str, list]:
    """A ``[bounds]`` key as the statistics core's targets (solve's Target), with its words."""
    from simbalance.analysis.solve import Target  # solve imports the core; its Target is the one target type

    if key == "seat_win_rate_min":
        return f"every seat wins >= {value:.2%}", [Target(f"win_rate_seat_{s}", value, 1.0) for s in range(players)]
    if key == "seat_win_rate_max":
        return f"every seat wins <= {value:.2%}", [Target(f"win_rate_seat_{s}", 0.0, value) for s in range(players)]
    if key == "balance_min":
        return f"balance >= {value:.2%}", [Target("balance", value, 1.0)]
    if key == "timeouts_max":
        return f"timeouts <= {value:.2%}", [Target("timeouts", 0.0, value)]
    if key == "first_player_advantage_max":
        return f"|first-player advantage| <= {value:.2%}", [Target("first_player_advantage", -value, value)]
    return f"median length in [{value[0]}, {value[1]}]", [Target("length_median", float(value[0]), float(value[1]))]


def _measured(tests: list[dict], key: str, unit: str) -> str:
    """What the bound's tests measured: the one that decides (the lowest seat for a minimum, the
    highest for a maximum), with its 95% interval."""
    if key == "seat_win_rate_min":
        t, word = min(tests, key=lambda t: t["value"]), "lowest "
    elif key == "seat_win_rate_max":
        t, word = max(tests, key=lambda t: t["value"]), "highest "
    else:
        t, word = tests[0], ""
    if t["value"] != t["value"]:
        return "n/a (no winner)"
    if key == "length_median":
        return f"{t['value']:g} {unit} (95% CI {t['ci_low']:.4g} to {t['ci_high']:.4g})"
    return f"{word}{t['value']:.2%} (95% CI {t['ci_low']:.2%} to {t['ci_high']:.2%})"


def check_bounds(agg, bounds: dict, unit: str = "", alpha: float = DEFAULT_ALPHA) -> list[BoundCheck]:
    """Designer bounds on a run, judged by their intervals as solve judges its targets and sweep its
    ``--target`` (stats.judge: Holm across every bound's tests at ``alpha``): a bound holds when its
    intervals lie inside it, is violated when one lies wholly outside, and is not settled otherwise.
    ``agg``: the run's RunAggregate; ``unit``: the game's length unit."""
    from simbalance.analysis.stats import FAILS, MEETS, OPEN, judge, judgement

    allowed = {"seat_win_rate_min", "seat_win_rate_max", "balance_min", "length_median", "timeouts_max",
               "first_player_advantage_max"}
    words, families = [], []
    for key, value in bounds.items():
        if key not in allowed:
            raise ConfigError(f"bounds.{key}: unknown bound; allowed: {', '.join(sorted(allowed))}")
        if key != "length_median" and not _finite(value):
            raise ConfigError(f"bounds.{key} = {short_value(value)}: expected a number (a share: 0.2 is 20%)")
        if key == "length_median" and not (isinstance(value, list) and len(value) == 2):
            raise ConfigError(f"bounds.length_median = {value!r}: expected [low, high]")
        text, targets = _bound_targets(key, value, agg.players)
        words.append((key, text + (f" {unit}" if key == "length_median" and unit else "")))
        families.append(targets)
    if not families:
        return []
    result = judge(agg, [t for f in families for t in f], alpha)
    tests = result["tests"]
    out, at = [], 0
    for (key, text), targets in zip(words, families, strict=True):
        mine = list(range(at, at + len(targets)))  # this bound's tests in the one Holm family
        at += len(targets)
        decided = judgement(result, of=mine)
        status = {MEETS: BOUND_HOLDS, FAILS: BOUND_VIOLATED, OPEN: BOUND_OPEN}[decided.verdict]
        out.append(BoundCheck(text, _measured([tests[j] for j in mine], key, unit), status, decided))
    return out
