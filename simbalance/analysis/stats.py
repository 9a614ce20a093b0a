"""The statistics core: the intervals and decisions every study's pages state, in one place
(issue 52 item 3; docs/findings.md, "The statistics core").

- ``ALPHA``: the one default error rate of this module. Every interval it gives is a
  ``1 - ALPHA`` (95 %) interval, and every decision it makes from intervals (a gap told apart from
  0, a seat or a card told apart from the rest) is read at the same level. (The chi-square test of
  equal seats and compare's table keep ``findings.alpha``, 0.01 by default: docs/findings.md.)
- ``wilson``: one share's interval (core/aggregate's, which the aggregates already use).
- ``seat_gap``: the difference of two seats' shares of the same games, with the multinomial
  covariance of the two shares: over ``n`` games each won by one seat (a k-way tie counts 1/k),
  var(p_i - p_j) = (p_i + p_j - (p_i - p_j)^2) / n. The shares compete for the same wins, so their
  covariance is negative (-p_i p_j / n) and their difference varies more than two independent
  shares would: two Wilson half-widths combined in quadrature (the old reading, which ignored the
  covariance) are too narrow, two half-widths added outright too wide.
- ``told_apart``: whether one seat wins more (or less) than every other seat, each pairwise gap's
  interval clear of 0 after a Bonferroni adjustment over the P - 1 comparisons.
- ``standout``: the strongest and the weakest of N estimates (cards), each named only when told
  apart from every other after a multiplicity adjustment (otherwise None: "no card stands out").
- ``difference``: two independent estimates' difference, at a Bonferroni level when it is one of
  several read at once (card-value's "the table overstates it").
- ``clustered_difference``: the difference of two groups' mean outcomes when a game contributes
  several rows (its seats), with the game-clustered (sandwich) variance.

Normal quantiles come from the standard library (``statistics.NormalDist``): ``import simbalance``
stays free of scipy.stats.
"""

from __future__ import annotations

from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from simbalance.core.aggregate import wilson

__all__ = ["ALPHA", "Interval", "clustered_difference", "difference", "proportion_difference", "quantile", "seat_gap",
           "standard_error", "standout", "told_apart", "wilson"]

ALPHA = 0.05  # every interval of this module is a 95 % interval, every decision read from them at 5 %


def quantile(alpha: float = ALPHA) -> float:
    """The two-sided normal quantile of ``alpha``: 1.96 at 0.05."""
    return NormalDist().inv_cdf(1 - alpha / 2)


@dataclass(frozen=True)
class Interval:
    """An estimate with its interval (``low``, ``high``); nan throughout when there is nothing to
    estimate it from."""

    estimate: float
    low: float
    high: float

    @property
    def above_zero(self) -> bool:
        return self.low > 0

    @property
    def below_zero(self) -> bool:
        return self.high < 0

    def excludes(self, value: float) -> bool:
        return value < self.low or value > self.high

    @property
    def width(self) -> float:
        return self.high - self.low


NAN_INTERVAL = Interval(float("nan"), float("nan"), float("nan"))


def seat_gap(wins_i: float, wins_j: float, n: float, alpha: float = ALPHA) -> Interval:
    """Seat i's share of ``n`` games minus seat j's, with its interval: the normal interval of the
    difference of two multinomial shares, var = (p_i + p_j - (p_i - p_j)^2) / n. Callers pass the
    games the shares are over: for seats, the decided games (a game without a winner adds to
    neither share). nan without a game."""
    if not n:
        return NAN_INTERVAL
    p_i, p_j = wins_i / n, wins_j / n
    gap = p_i - p_j
    half = quantile(alpha) * float(np.sqrt(max(p_i + p_j - gap * gap, 0.0) / n))
    return Interval(float(gap), float(gap - half), float(gap + half))


def proportion_difference(x_a: float, n_a: float, x_b: float, n_b: float, alpha: float = ALPHA) -> Interval:
    """The share ``x_a / n_a`` minus ``x_b / n_b`` of two independent samples, with the Agresti-Caffo
    interval (one success and one failure added to each sample before the normal interval: close to
    its nominal coverage even for shares near 0 and small samples, where the plain Wald interval is
    too narrow). The estimate is the plain difference. nan when a sample is empty."""
    if not n_a or not n_b:
        return NAN_INTERVAL
    p_a, p_b = (x_a + 1) / (n_a + 2), (x_b + 1) / (n_b + 2)
    half = quantile(alpha) * float(np.sqrt(p_a * (1 - p_a) / (n_a + 2) + p_b * (1 - p_b) / (n_b + 2)))
    return Interval(float(x_a / n_a - x_b / n_b), float(p_a - p_b - half), float(p_a - p_b + half))


def told_apart(wins: np.ndarray | list[float], n: float, seat: int, most: bool, alpha: float = ALPHA) -> bool:
    """Whether ``seat`` wins more (``most``) or less than every other seat of the same ``n`` games:
    each of its P - 1 gaps (``seat_gap``) clear of 0 on that side at the Bonferroni level
    ``alpha / (P - 1)``."""
    wins = np.asarray(wins, dtype=float)
    others = [s for s in range(len(wins)) if s != seat]
    if not n or not others:
        return False
    level = alpha / len(others)
    for other in others:
        gap = seat_gap(wins[seat], wins[other], n, level)
        if not (gap.above_zero if most else gap.below_zero):
            return False
    return True


def standout(estimates: np.ndarray | list[float], errors: np.ndarray | list[float],
             alpha: float = ALPHA) -> tuple[int | None, int | None]:
    """The indices of the strongest and the weakest of N independent estimates (standard errors
    ``errors``), each only when told apart from every other: its difference with each of the N - 1
    others clear of 0 at the two-sided Bonferroni level ``alpha / (N - 1)``. With N interchangeable
    estimates the chance of naming any one is at most ``alpha`` each way (N tests, each at most
    ``alpha / (2 (N - 1))``). Estimates that are not finite are left out. (None, None) when nothing
    stands out; never the same index for both."""
    est = np.asarray(estimates, dtype=float)
    err = np.asarray(errors, dtype=float)
    keep = np.flatnonzero(np.isfinite(est) & np.isfinite(err))
    if len(keep) < 2:
        return None, None
    z = quantile(alpha / (len(keep) - 1))

    def apart(top: int, sign: int) -> int | None:
        rest = keep[keep != top]
        margin = z * np.sqrt(err[top] ** 2 + err[rest] ** 2)
        return int(top) if np.all(sign * (est[top] - est[rest]) > margin) else None

    best = apart(keep[np.argmax(est[keep])], +1)
    worst = apart(keep[np.argmin(est[keep])], -1)
    return best, worst


def standard_error(low: float | np.ndarray, high: float | np.ndarray, alpha: float = ALPHA) -> float | np.ndarray:
    """The standard error behind a symmetric ``1 - alpha`` interval (a normal or Student one from
    enough rows): its half-width over the normal quantile."""
    return (np.asarray(high, dtype=float) - np.asarray(low, dtype=float)) / (2 * quantile(alpha))


def difference(a: Interval, b: Interval, comparisons: int = 1, alpha: float = ALPHA) -> Interval:
    """``a - b`` for two independent estimates given by their symmetric 95% intervals, with its
    interval at the Bonferroni level ``alpha / comparisons`` (one of several such differences
    read at once: the rows of a table)."""
    se = float(np.hypot(standard_error(a.low, a.high), standard_error(b.low, b.high)))
    half = quantile(alpha / max(comparisons, 1)) * se
    d = a.estimate - b.estimate
    return Interval(float(d), float(d - half), float(d + half))


def clustered_difference(outcome: np.ndarray, member: np.ndarray, cluster: np.ndarray,
                         alpha: float = ALPHA) -> Interval:
    """The mean ``outcome`` of the rows with ``member`` minus that of the rows without, with the
    interval of its game-clustered (sandwich) variance: rows of one ``cluster`` (a game's seats)
    are not independent. The variance is the sum over clusters of the squared influence of each
    cluster, (S1 - m1 r1) / n1 - (S0 - m0 r0) / n0 (S: its rows' outcomes with and without
    membership, m: their counts), which is what card impact computes from its sums at scale
    (analysis/cards.py)."""
    outcome = np.asarray(outcome, dtype=float)
    member = np.asarray(member, dtype=bool)
    n1, n0 = member.sum(), (~member).sum()
    if not n1 or not n0:
        return NAN_INTERVAL
    r1, r0 = outcome[member].mean(), outcome[~member].mean()
    _, index = np.unique(cluster, return_inverse=True)
    influence = (np.bincount(index, np.where(member, outcome - r1, 0.0)) / n1
                 - np.bincount(index, np.where(member, 0.0, outcome - r0)) / n0)
    half = quantile(alpha) * float(np.sqrt(np.sum(influence ** 2)))
    return Interval(float(r1 - r0), float(r1 - r0 - half), float(r1 - r0 + half))
