"""Parameter search for one heuristic: the cross-entropy method on common random numbers.

Each generation samples candidate parameter vectors from independent normals (clipped to their
ranges), plays every candidate on the same games (same seed: common random numbers, so candidates
differ by their play, not their luck) against the field, keeps the best quarter and refits the
normals to it. The best candidate seen is then compared with the default parameters on fresh
seeds, paired game by game.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from simbalance.core.errors import ConfigError

ELITE_SHARE = 0.25
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
    if not params:
        raise ConfigError("this strategy has no parameters to tune")
    given = {}
    for text in ranges or []:
        m = re.fullmatch(r"\s*([\w.]+)\s*=\s*([-+\d.eE]+)\s*:\s*([-+\d.eE]+)\s*", text)
        if not m:
            raise ConfigError(f"--range {text!r}: expected name=low:high, e.g. call=0:1")
        name, lo, hi = m.group(1), float(m.group(2)), float(m.group(3))
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
    and the history per generation."""
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
        row = {"generation": gen, "mean_fitness": float(fitness.mean()), "best_fitness": float(fitness[top]),
               **{f"mean_{k}": float(v) for k, v in zip(space.names, mean, strict=True)}}
        history.append(row)
        if on_generation:
            on_generation(row)
    return best_x, best_f, history
