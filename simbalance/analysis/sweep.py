"""Parameter sweeps: metrics over a grid of one or two config keys, and the settings closest to the
designer's targets.

Every grid point plays the same seed and game indices (common random numbers), so neighbouring
points differ by the rule change, not by luck. Targets come from the game config's ``[targets]``
table (``balance_min``, ``length_median``); the best points are re-checked on fresh seeds.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from simbalance.analysis.findings import HIGH, MEDIUM, Finding, _list, ordered, pct, severity
from simbalance.analysis.stats import (
    APART,
    MEETS,
    OPEN,
    Comparison,
    judge,
    judgement,
    normal_half,
    ranked,
    standard_error,
    words,
)
from simbalance.analysis.stats import shortfall as stats_shortfall
from simbalance.core.config import OPTIONAL_TABLES, get
from simbalance.core.errors import ConfigError, did_you_mean

MAX_POINTS = 400


@dataclass(frozen=True)
class SweepParam:
    key: str
    values: tuple


def _number(text: str) -> int | float:
    from simbalance.core.plan import read_number

    return read_number(text)


def parse_param(text: str, cfg: dict) -> SweepParam:
    """``key=start:stop:step`` (stop included) or ``key=a,b,c``, typed like the key's default."""
    key, sep, spec = (part.strip() for part in text.partition("="))
    if not sep or not key or not spec:
        raise ConfigError(f"--param {text!r}: expected key=start:stop:step or key=a,b,c, e.g. rules.pick_cap=10:50:10")
    try:
        default = get(cfg, key)
    except ConfigError:
        from simbalance.core.config import unknown_key_message

        raise ConfigError(unknown_key_message(cfg, key)) from None
    try:
        if ":" in spec:
            parts = [_number(p) for p in spec.split(":")]
            if len(parts) != 3 or parts[2] == 0:
                raise ValueError
            if not all(np.isfinite(float(p)) for p in parts):
                raise ConfigError(f"--param {text!r}: start, stop and step must be finite numbers")
            start, stop, step = parts
            count = int(np.floor((stop - start) / step + 1e-9)) + 1
            if count < 1:
                raise ValueError
            # The count first: a huge range fails here, before any of its values is made.
            if count > MAX_POINTS:
                raise ConfigError(f"--param {text!r}: {count} values; at most {MAX_POINTS}")
            values = [start + i * step for i in range(count)]
            if all(isinstance(p, int) for p in parts):
                values = [int(v) for v in values]
            else:
                values = [round(float(v), 10) for v in values]
        else:
            values = [_parse_scalar(p.strip()) for p in spec.split(",")]
    except (ValueError, OverflowError):
        raise ConfigError(f"--param {text!r}: expected key=start:stop:step or key=a,b,c") from None
    if isinstance(default, bool) and not all(isinstance(v, bool) for v in values):
        raise ConfigError(f"--param {key}: expected true or false values")
    if isinstance(default, int) and not isinstance(default, bool) and not all(
            isinstance(v, int) and not isinstance(v, bool) for v in values):
        as_on_paper = re.fullmatch(r"\s*(-?[0-9]+)\s*-\s*(-?[0-9]+)\s*", spec)  # 4-16
        hint = ""
        if as_on_paper:
            hint = f" (a range is start:stop:step, e.g. {key}={as_on_paper[1]}:{as_on_paper[2]}:1)"
        raise ConfigError(f"--param {key}={spec}: {key} takes whole numbers{hint}")
    if isinstance(default, float):
        values = [float(v) for v in values]
    if len(values) > MAX_POINTS:
        raise ConfigError(f"--param {text!r}: {len(values)} values; at most {MAX_POINTS}")
    return SweepParam(key, tuple(values))


def _parse_scalar(text: str) -> Any:
    if text in ("true", "false"):
        return text == "true"
    try:
        return _number(text)
    except ValueError:
        return text.strip('"')


def grid(params: list[SweepParam]) -> list[dict[str, Any]]:
    if not 1 <= len(params) <= 2:
        raise ConfigError(f"sweep takes one or two --param; got {len(params)}")
    if len(params) == 2 and params[0].key == params[1].key:
        raise ConfigError(f"--param {params[0].key} given twice")
    size = int(np.prod([len(p.values) for p in params], dtype=object))  # before any point is made
    if size > MAX_POINTS:
        raise ConfigError(f"the grid has {size} points; at most {MAX_POINTS}")
    return [dict(zip([p.key for p in params], combo, strict=True))
            for combo in itertools.product(*[p.values for p in params])]


def point_rows(point: dict, summary: dict) -> dict:
    """The metrics of one grid point, flat, with CIs."""
    row = dict(point)
    for seat in summary["seats"]:
        s = seat["seat"]
        row[f"win_rate_seat_{s}"] = seat["win_rate"]
        row[f"win_rate_seat_{s}_ci_low"] = seat["ci_low"]
        row[f"win_rate_seat_{s}_ci_high"] = seat["ci_high"]
    for strat in summary["strategies"] if len(summary["strategies"]) > 1 else []:
        row[f"win_rate_{strat['strategy']}"] = strat["win_rate"]
    length = summary["length"]
    half = normal_half(length["sd"] / np.sqrt(summary["n_games"]))
    row.update({
        "balance": np.nan if summary["balance"] is None else summary["balance"],
        "first_player_advantage": (np.nan if summary["first_player_advantage"]["value"] is None
                                   else summary["first_player_advantage"]["value"]),
        "length_mean": length["mean"], "length_mean_ci_low": length["mean"] - half,
        "length_mean_ci_high": length["mean"] + half, "length_median": length["p50"],
        "timeouts": summary["outcomes"]["timeouts"], "ties": summary["outcomes"]["ties"],
        "equal_seats_p": summary["equal_seats_chi_square"]["p_value"],
    })
    return row


def parse_target(text: str) -> str:
    """``--target length_median=55:60`` or ``--target balance_min=0.9``: the ``--set`` override
    (``targets.length_median=[55, 60]``) that puts it in the config's ``[targets]``."""
    key, sep, spec = (part.strip() for part in text.partition("="))
    allowed = ", ".join(OPTIONAL_TABLES["targets"])
    example = "e.g. --target length_median=55:60 or --target balance_min=0.9"
    if not sep or not key or not spec:
        raise ConfigError(f"--target {text!r}: expected name=value; {example}")
    if key not in OPTIONAL_TABLES["targets"]:
        raise ConfigError(f"--target {key}: unknown target{did_you_mean(key, OPTIONAL_TABLES['targets'])}; "
                          f"allowed: {allowed}")
    try:
        if isinstance(OPTIONAL_TABLES["targets"][key], list):
            low, high = (float(v) for v in re.split(r"\s*[:,]\s*", spec.strip("[] ")))
            if not (np.isfinite(low) and np.isfinite(high) and low <= high):
                raise ValueError
            return f"targets.{key}=[{low!r}, {high!r}]"
        value = float(spec)
        if not np.isfinite(value):
            raise ValueError
        return f"targets.{key}={value!r}"
    except ValueError:
        form = "low:high with low <= high" if isinstance(OPTIONAL_TABLES["targets"][key], list) else "a number"
        raise ConfigError(f"--target {text!r}: {key} takes {form}; {example}") from None


def targets_of(cfg: dict) -> dict:
    """The ``[targets]`` table, validated; without one, the target is the best seat balance."""
    table = cfg.get("targets", {})
    allowed = set(OPTIONAL_TABLES["targets"])
    for key in table:
        if key not in allowed:
            raise ConfigError(f"targets.{key}: unknown target; allowed: {', '.join(sorted(allowed))}")
    balance_min = table.get("balance_min", 1.0)
    if isinstance(balance_min, bool) or not isinstance(balance_min, (int, float)) or not 0 <= balance_min <= 1:
        raise ConfigError(f"targets.balance_min = {balance_min!r}: allowed 0 to 1 (1 - the largest gap between seats)")
    out = {"balance_min": float(balance_min)}
    band = table.get("length_median")
    if band is not None:
        if not (isinstance(band, list) and len(band) == 2 and band[0] <= band[1]):
            raise ConfigError(f"targets.length_median = {band!r}: expected [low, high]")
        out["length_median"] = [float(band[0]), float(band[1])]
    return out


def target_list(targets: dict) -> list:
    """The targets as the statistics core judges them (solve's Target): ``balance_min`` as balance in
    [balance_min, 1], ``length_median`` as the median length in its band."""
    from simbalance.analysis.solve import Target  # solve's targets module imports this one's findings

    out = [Target("balance", targets["balance_min"], 1.0)]
    if "length_median" in targets:
        out.append(Target("length_median", *targets["length_median"]))
    return out


def judged(agg, targets: dict) -> dict:
    """One point's targets judged by their intervals, as solve and check judge them
    (stats.judge, Holm across the targets): ``verdict`` (meets, does not meet, not settled) and the
    balance's 95% interval."""
    result = judge(agg, target_list(targets))
    balance = result["tests"][0]
    return {"verdict": result["verdict"], "balance_ci_low": balance["ci_low"], "balance_ci_high": balance["ci_high"],
            JUDGEMENT: judgement(result)}


JUDGEMENT = "judgement"  # a point's row keeps its stats.judgement until the table is made (sweep_table)


def sweep_table(rows: list[dict]) -> tuple[pd.DataFrame, list]:
    """The points' rows as a table, and each point's judgement apart (a Comparison is no column)."""
    return pd.DataFrame([{k: v for k, v in r.items() if k != JUDGEMENT} for r in rows]), [r.get(JUDGEMENT) for r in rows]


def shortfall(df: pd.DataFrame, targets: dict) -> pd.Series:
    """How far each point misses the targets (0 = on target), by the rule solve uses
    (stats.shortfall: each miss relative to the edge it misses, so a range's far edge does not shrink
    a miss of its near one; inf where no game had a winner)."""
    def point(row) -> float:
        tests = [{"value": float(row["balance"]), "low": targets["balance_min"], "high": 1.0}]
        if "length_median" in targets:
            lo, hi = targets["length_median"]
            tests.append({"value": float(row["length_median"]), "low": lo, "high": hi})
        return stats_shortfall(tests)

    return df.apply(point, axis=1).astype(float) if len(df) else pd.Series(dtype=float)


def describe_targets(targets: dict) -> str:
    """The targets in a designer's words: ``balance at least 95.00%, median length 15 to 25``."""
    parts = [f"balance at least {targets['balance_min']:.2%}" if targets["balance_min"] < 1
             else "the best balance"]
    if "length_median" in targets:
        low, high = targets["length_median"]
        parts.append(f"median length {low:g} to {high:g}")
    return ", ".join(parts)


def sweep_findings(table: pd.DataFrame, keys: list[str], values: dict[str, list], th: dict, targets: dict,
                   describe_targets: Callable[[dict], str], game: str | None = None,
                   judgements: list | None = None) -> list[Finding]:
    """The best point at the grid's edge (the best may lie beyond: the command sweeps on past it), and
    no point meeting the targets. A point meets the targets when its intervals do (``verdict``, as
    solve and check judge them; ``judgements``: each point's stats.judgement, kept on the finding
    that says no point meets); a point on target by its estimates alone is not settled."""
    if not len(table):
        return []
    out = []
    if "timeouts" in table:
        runaway = table[table["timeouts"] >= max(th["timeouts_max"], 1e-12)]
        if len(runaway):
            worst = runaway.sort_values("timeouts", ascending=False).iloc[0]
            where = _list((_setting(table, i, keys) for i in runaway.index), most=3)
            out.append(Finding(
                "timeouts", severity(float(worst["timeouts"]), None, th["timeouts_max"]),
                f"Games never end at {len(runaway)} of {len(table)} points ({where}): up to {pct(worst['timeouts'])} "
                "of games hit the cap.", float(worst["timeouts"]), None, "#every-point"))
    table = table.assign(shortfall=table["shortfall"].fillna(np.inf))  # no decided game: no balance to meet
    if not np.isfinite(table["shortfall"]).any():
        out.append(Finding("no_point_on_target", HIGH, "No point of the grid has a game with a winner: the "
                           "targets cannot be judged.", None, None, "#every-point"))
        return ordered(out)
    best_index = table.sort_values(["shortfall", "balance"], ascending=[True, False]).index[0]
    best = table.loc[best_index]
    setting = _setting(table, best_index, keys)
    met = table["verdict"] == MEETS if "verdict" in table else table["shortfall"] == 0
    if not met.any():
        unsettled = table[(table["shortfall"] == 0) & (table.get("verdict", OPEN) == OPEN)]
        open_points = int((table["verdict"] == OPEN).sum()) if "verdict" in table else 0
        if float(best["shortfall"]) > 0:
            # the closest by its estimates; points whose intervals still reach the targets are not settled
            unsure = (f" {open_points} of {len(table)} points are not settled (their 95% intervals reach the "
                      "targets): more games (--n) may settle them; else widen the grid or sweep another key."
                      if open_points else " Widen the grid or sweep another key.")
            text = (f"No point of the grid meets the targets ({describe_targets(targets)}). The closest by its "
                    f"estimates, {setting}, has balance {pct(best['balance'])} and median length "
                    f"{best['length_median']:g} (shortfall {best['shortfall']:.3f}).{unsure}")
        else:
            text = (f"No point of the grid is shown to meet the targets ({describe_targets(targets)}): "
                    f"{len(unsettled)} of {len(table)} points are on target by their estimates, but their 95% "
                    f"intervals reach past a target (not settled), e.g. {setting} with balance {pct(best['balance'])} "
                    f"(95% CI {pct(best['balance_ci_low'])} to {pct(best['balance_ci_high'])}). More games (--n) "
                    "would settle it.")
        out.append(Finding("no_point_on_target", HIGH, text, float(best["shortfall"]), None, "#every-point",
                           decided_by=tuple(j for j in judgements or () if j is not None)))
    for k in keys:
        vals = list(values[k])
        numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in vals)
        if len(vals) < 3 or not numeric:
            continue
        lo, hi = min(vals), max(vals)
        here = table.at[best_index, k]
        if here in (lo, hi):
            side = "top" if here == hi else "bottom"
            step = sorted(vals)[1] - sorted(vals)[0]
            beyond = (f"{hi}:{hi + 4 * step:g}:{step:g}" if side == "top" else f"{max(lo - 4 * step, 0):g}:{lo}:{step:g}")
            others = "".join(f" --param {o}={','.join(str(v) for v in values[o])}" for o in keys if o != k)
            said, rank = _best_words(table, best_index)
            out.append(Finding(
                "best_at_edge", MEDIUM,
                f"{said}, {setting}, is at the {side} edge of the grid for {k} ({lo} to "
                f"{hi}): the best setting may lie beyond it.", float(here), None,
                f"simbalance sweep {game or 'GAME'} --param {k}={beyond}{others}",
                decided_by=(rank,) if rank else ()))
    return ordered(out)


def _best_words(table: pd.DataFrame, best_index) -> tuple[str, Comparison | None]:
    """How the closest point is named, and the comparison that decides it: "the best point" only
    when its balance is told apart from every other point's (stats.standout, the multiplicity rule of
    a best of N); otherwise "the point closest to the targets by its estimates", which noise may have
    picked among equals."""
    if "balance_ci_low" not in table:
        return "The best point", None
    rows = table.reset_index(drop=True)
    where = list(table.index).index(best_index)
    errors = standard_error(rows["balance_ci_low"], rows["balance_ci_high"])
    rank = ranked(rows["balance"].to_numpy(float), errors, where, "most", "point", claim="The best point")
    if rank.verdict == APART:
        return words(rank), rank
    return f"The point closest to the targets by its estimates (its balance {words(rank)} point's)", rank


def _setting(table: pd.DataFrame, index, keys: list[str]) -> str:
    """``key = value`` of one grid point, each value as its column holds it (an int stays an int)."""
    return ", ".join(f"{k} = {table.at[index, k]}" for k in keys)
