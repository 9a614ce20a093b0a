"""Parameter search for one heuristic: the cross-entropy method on common random numbers.

Each generation samples candidate parameter vectors from independent normals (clipped to their
ranges), plays every candidate on the same games (same seed: common random numbers, so candidates
differ by their play, not their luck) against the field, keeps the best quarter and refits the
normals to it. The best candidate seen is then compared with the default parameters on fresh
seeds, paired game by game.

The reported parameter set is the best candidate rounded to ``DIGITS`` significant digits
(``rounded``): the final test plays exactly those values, and the table and the preset print them,
so what a designer copies is what was measured.

Dominance: a strategy *dominates* another only when, seated alone against copies of it, its
per-seat win rate over decided games beats the fair share 1/P by at least ``DOMINANCE_MARGIN``
(2 percentage points unless told otherwise) with the lower end of its 95% interval at least that
far above too. Smaller, certain edges read "wins more than its share"; an interval across the fair
share reads "no clear difference"; one below it, "loses" (``standing``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

from simbalance.analysis.findings import Finding, ci_text, ordered, pct, severity
from simbalance.analysis.findings import pp as finding_pp  # one decimal, as every finding (pp below: two)
from simbalance.analysis.stats import APART, cleared
from simbalance.core.errors import ConfigError

ELITE_SHARE = 0.25
DIGITS = 4  # significant digits of the reported (played, printed) parameter set
DOMINANCE_MARGIN = 0.02  # 2 percentage points above the fair share: the least edge called "dominates"

DOMINATES = "dominates"
WINS_MORE = "wins more than its share"
NO_CLEAR = "no clear difference"
LOSES = "loses"
SMOOTHING = 0.7  # new mean/sd = SMOOTHING * elite + (1 - SMOOTHING) * old


@dataclass
class SearchSpace:
    names: list[str]
    low: np.ndarray
    high: np.ndarray
    start: np.ndarray


def default_range(value: float) -> tuple[float, float]:
    width = 2.0 * max(1.0, abs(value))
    return value - width, value + width


def search_space(params: dict[str, float], ranges: list[str] | None) -> SearchSpace:
    """The space around ``params`` (at least one: studies/tune refuses a strategy with none, naming
    --strategy and the strategies that have some)."""
    given = {}
    for text in ranges or []:
        m = re.fullmatch(r"\s*([\w.]+)\s*=\s*([-+0-9.eE_]+)\s*:\s*([-+0-9.eE_]+)\s*", text)
        if not m:
            raise ConfigError(f"--range {text!r}: expected name=low:high, e.g. call=0:1")
        from simbalance.core.plan import read_number

        try:  # ASCII digits only (core/plan.read_number)
            name, lo, hi = m.group(1), float(read_number(m.group(2))), float(read_number(m.group(3)))
        except ValueError:
            raise ConfigError(f"--range {text!r}: expected name=low:high, e.g. call=0:1") from None
        if name not in params:
            raise ConfigError(f"--range {name}: not a parameter; parameters: {', '.join(params)}")
        if not lo < hi:
            raise ConfigError(f"--range {text!r}: low must be below high")
        given[name] = (lo, hi)
    names = list(params)
    bounds = [given.get(k, default_range(params[k])) for k in names]
    start = np.array([params[k] for k in names])
    low, high = np.array([b[0] for b in bounds]), np.array([b[1] for b in bounds])
    return SearchSpace(names, low, high, np.clip(start, low, high))


def cross_entropy(space: SearchSpace, evaluate, generations: int, population: int, seed: int,
                  on_generation=None) -> tuple[np.ndarray, float, list[dict]]:
    """Maximise ``evaluate(vector, generation) -> fitness``; returns the best vector, its fitness
    and the history per generation (its best candidate with its fitness, the candidates' mean
    fitness, and the sampling centre for the next generation)."""
    if generations < 1 or population < 2:
        raise ConfigError("tuning needs at least 1 generation and a population of 2")
    rng = np.random.default_rng(seed)
    mean = space.start.astype(float)
    sd = (space.high - space.low) / 4.0
    best_x, best_f = mean.copy(), -np.inf
    history = []
    n_elite = max(2, int(round(ELITE_SHARE * population)))
    for gen in range(generations):
        candidates = np.clip(rng.normal(mean, sd, size=(population, len(mean))), space.low, space.high)
        if gen == 0:
            candidates[0] = space.start  # the default competes too
        fitness = np.array([evaluate(c, gen) for c in candidates])
        elite = candidates[np.argsort(fitness)[::-1][:n_elite]]
        mean = SMOOTHING * elite.mean(axis=0) + (1 - SMOOTHING) * mean
        sd = SMOOTHING * elite.std(axis=0) + (1 - SMOOTHING) * sd
        top = int(np.argmax(fitness))
        if fitness[top] > best_f:
            best_x, best_f = candidates[top].copy(), float(fitness[top])
        # "best": this generation's best candidate (the parameters behind best_fitness); "mean": the
        # centre the next generation samples around (no candidate played it)
        row = {"generation": gen, "mean_fitness": float(fitness.mean()), "best_fitness": float(fitness[top]),
               "best": {k: float(v) for k, v in zip(space.names, candidates[top], strict=True)},
               "mean": {k: float(v) for k, v in zip(space.names, mean, strict=True)}}
        history.append(row)
        if on_generation:
            on_generation(row)
    return best_x, best_f, history


def rounded(vector: np.ndarray, digits: int = DIGITS) -> np.ndarray:
    """``vector`` to ``digits`` significant digits: printing a value with ``f"{v:.{digits}g}"`` gives
    back exactly that value, so the printed set and the played set are the same numbers."""
    return np.array([float(f"{float(v):.{digits}g}") for v in vector])


def check_margin(margin: float) -> float:
    """A dominance margin: a share of the games, from 0 to below 1 (0.02 = 2 percentage points)."""
    if isinstance(margin, bool) or not isinstance(margin, (int, float, np.floating)) or not 0 <= margin < 1:
        hint = f"; for {margin:g} points write {margin / 100:g}" if isinstance(margin, (int, float)) and \
            1 <= margin < 100 else ""
        raise ConfigError(f"--margin {margin!r}: a share of the games from 0 to below 1, e.g. 0.02 for 2 "
                          f"percentage points{hint}")
    return float(margin)


def standing(ci_low: float, ci_high: float, margin: float = DOMINANCE_MARGIN) -> str:
    """How an edge over the fair share reads, from its 95% interval (``ci_low``, ``ci_high``, as
    differences): "dominates" only when the whole interval clears ``margin``."""
    if ci_low >= margin and ci_low > 0:
        return DOMINATES
    if ci_low > 0:
        return WINS_MORE
    if ci_high < 0:
        return LOSES
    return NO_CLEAR


def played_value(v: float) -> str:
    """A reported parameter exactly as played (it was rounded to DIGITS significant digits)."""
    return f"{v:.{DIGITS}g}"


def generation_line(row: dict) -> str:
    """One generation of the search (a row of ``cross_entropy``'s history), in one line."""
    best = ", ".join(f"{k}={v:.3g}" for k, v in row["best"].items())
    centre = ", ".join(f"{k}={v:.3g}" for k, v in row["mean"].items())
    return (f"generation {row['generation']}: best candidate {row['best_fitness']:.2%} ({best}); "
            f"candidates' mean {row['mean_fitness']:.2%}; next search centre {centre}")


def overall(dominance: pd.DataFrame, margin: float, label=str) -> str:
    """One sentence over the dominance table: 'dominates every strategy' only when every row does."""
    points = f"{100 * margin:g}"
    if len(dominance) and bool(dominance["dominates"].all()):
        return (f"the best found dominates every strategy tested: at least {points} points above the fair share "
                "against each, 95% CI included")
    parts = []
    for kind, words in ((DOMINATES, "dominates"), (WINS_MORE, "wins more than its share against"),
                        (NO_CLEAR, "shows no clear difference against"), (LOSES, "loses against")):
        rows = dominance[dominance["standing"] == kind]
        if len(rows):
            text = f"{words} {', '.join(label(a) for a in rows['against'])}"
            if kind == WINS_MORE:
                text += f" (not clearly by the {points}-point margin)"
            parts.append(text)
    return "the best found " + "; ".join(parts) + "."


def pp(x: float) -> str:
    """A difference of two rates in percentage points: ``+0.33 pp``."""
    return f"{100 * x:+.2f} pp"


def interval(edge: float, ci_low: float, ci_high: float) -> str:
    return f"{pp(edge)}, 95% CI {pp(ci_low)} to {pp(ci_high)}"


def describe_edge(edge: float, ci_low: float, ci_high: float, margin: float = DOMINANCE_MARGIN) -> str:
    """An edge over the fair share in words a designer reads correctly, with the numbers behind it:
    "wins more than its share (+0.33 pp, 95% CI +0.10 pp to +0.56 pp); not by the 2-point margin
    'dominates' needs"."""
    kind = standing(ci_low, ci_high, margin)
    text = f"{kind} ({interval(edge, ci_low, ci_high)})"
    if kind == WINS_MORE and margin > 0:
        text += f"; not clearly by the {100 * margin:g}-point margin 'dominates' needs"
    return text


def describe_gain(diff: float, ci_low: float, ci_high: float, margin: float = DOMINANCE_MARGIN) -> str:
    """The tuned set's paired gain over the default parameters, in the same terms."""
    numbers = interval(diff, ci_low, ci_high)
    if ci_low >= margin and ci_low > 0:
        return f"better than the default by at least {100 * margin:g} points ({numbers})"
    if ci_low > 0:
        return f"better than the default, but not clearly by {100 * margin:g} points ({numbers})"
    if ci_high < 0:
        return f"worse than the default ({numbers})"
    return f"no clear difference from the default ({numbers})"


def tune_findings(strategy: str, dominance: pd.DataFrame, players: int, margin: dict, th: dict,
                  dominance_margin: float) -> list[Finding]:
    """The tuned strategy dominating every strategy tested (a dominant strategy players will find), and
    a tuning that finds nothing better than the defaults."""
    fair = 1.0 / players
    out = []
    if len(dominance) and bool(dominance["dominates"].all()):
        worst = dominance.sort_values("edge").iloc[0]
        edge = (float(worst["ci_low"]) - fair, float(worst["ci_high"]) - fair)  # over the fair share
        out.append(Finding(
            "dominant_strategy", severity(float(worst["win_rate"]) - fair, edge, dominance_margin),
            f"The tuned {strategy} dominates every strategy tested: alone against each it wins at least "
            f"{pct(worst['win_rate'])} of its seats (against {worst['against']}, "
            f"{ci_text(worst['ci_low'], worst['ci_high'])}) where {pct(fair)} is fair. Players will find it.",
            float(worst["win_rate"]), (float(worst["ci_low"]), float(worst["ci_high"])), "#dominance",
            # each matchup's interval clear of the fair share plus the margin (``standing``'s rule)
            decided_by=tuple(cleared(float(r["win_rate"]), float(r["ci_low"]), float(r["ci_high"]),
                                     fair + max(dominance_margin, 0.0), "dominates") for _, r in dominance.iterrows())))
    better = cleared(margin["diff"], margin["ci_low"], margin["ci_high"], 0.0,
                     f"The tuned parameters beat {strategy}'s defaults")  # the paired gain's interval above 0
    if better.verdict == APART:
        out.append(Finding(
            "tuned_better", severity(margin["diff"], (margin["ci_low"], margin["ci_high"]), dominance_margin),
            f"{better.claim} by {finding_pp(margin['diff'])} "
            f"({ci_text(margin['ci_low'], margin['ci_high'], pp)}).", float(margin["diff"]),
            (float(margin["ci_low"]), float(margin["ci_high"])), "#parameters", decided_by=(better,)))
    return ordered(out)
