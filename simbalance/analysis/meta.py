"""The metagame (issue 55; docs/meta.md): pure functions over a heuristic payoff table, no plays.

The table (``MetaTable``) holds, for every *composition* of the population at the table (which
strategies sit down together: a multiset of the table size) and every game index ``g``, the win
share each strategy's seats took (summed over its seats) and each seat's own share. Every
composition plays the same game indices on the same seed (common random numbers), so the row of
game ``g`` in one composition and in another share their deal: a difference between two
compositions is read game by game, and every interval here is clustered by game index (a game
index contributes several rows: its seats, and the same deal in every composition).

- ``payoff``: a strategy's win share *per seat* in a composition (over all games: a game without a
  winner is a loss for every seat), with stats.clustered_share's interval.
- ``field_matrix``: the one-against-the-field matrix, strategy ``i`` in one seat, ``j`` in all the
  others.
- The symmetric game: each seat draws its strategy from a mix ``x``; ``f_i(x)`` is the expected
  per-seat share of a seat playing ``i`` against ``P - 1`` seats drawn from ``x`` (a multinomial
  sum over the table's compositions). An equilibrium is a mix against which no strategy does better
  than the mix itself: every ``gain_i = f_i(x) - x . f(x)`` at most 0.
- ``equilibria``: replicator dynamics (in log coordinates) from several starts, each trajectory's
  time average polished to the nearest equilibrium of the estimated table (SLSQP on Nash's
  function); distinct results are all kept (the set), the most even named as such.
- ``alpha_rank``: Omidshafiei et al. (2019), single population: a Markov chain over the
  monomorphic populations, a mutant ``r`` fixing in a population of ``s`` with the Moran process's
  probability under Fermi selection (intensity ``ALPHA_RANK``, population ``POPULATION``); a focal
  agent's fitness is its expected share when the other ``P - 1`` seats are drawn without
  replacement from the rest of the population. For two seats this is OpenSpiel's
  ``egt.alpharank`` (single population, not constant-sum) exactly. The stationary distribution
  is solved in logs (``_gth_logs``), so the tiny masses of the strategies it passes by are ordered
  by their values, not by float noise; ``ranks_of`` ties only masses equal to a relative 1e-9.
- ``bootstrap``: the game indices resampled (Poisson weights, the same weight for a game index in
  every composition, keeping the common random numbers), the equilibrium and α-Rank computed again
  on each resample: percentile intervals of the weights, masses and ranks.
- Dominance, likeness, beats and cycles: differences of two cells read game by game, each with its
  normal interval at ``ALPHA`` (a claim over many such differences holds only if every one does: an
  intersection-union test, which needs no multiplicity adjustment).
- ``seat_balance``: each seat draws its strategy from the equilibrium mix game by game; every game
  of every composition weighs in by the probability of its lineup.
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from simbalance.analysis.findings import Finding, ci_text, ordered, pct, pp, severity
from simbalance.analysis.stats import (
    ALPHA,
    CELL,
    Interval,
    cleared,
    clustered_share,
    interval_test,
    normal_half,
)
from simbalance.core.errors import SimbalanceError

BOOTSTRAP = 200  # resamples of the game indices
ALPHA_RANK = 100.0  # α-Rank's selection intensity (OpenSpiel's example value) for win shares in [0, 1]
POPULATION = 50  # α-Rank's population size m (OpenSpiel's default)
EQUILIBRIUM_TOL = 1e-5  # a mix is an equilibrium of the estimated table when no gain exceeds this
DISTINCT = 0.02  # equilibria further apart than this (half the L1 distance) are different ones
UNUSED = 1e-3  # a weight below this: the equilibrium does not use the strategy
COPY_WITHIN = 0.10  # a copy is also bounded: every switch's interval within +-10 points (``copies_of``)
LESS_THAN_THE_MIX = "wins less per seat than the mix itself"  # a gain against the mix cleared below 0


# ---------------------------------------------------------------------------- the table


def game_sums(rows: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """``rows @ weights.T``: each row (R, n) summed over the last axis with each set of weights (B, n)
    or the one (n,), in one fixed order: numpy's own einsum loop, not BLAS. A BLAS product splits its
    sums by its thread count, which is not ours to fix (OpenBLAS's threads differ between a plain run
    and one whose Dask workers were started from it): the same seed must give the same numbers to the
    last digit on every backend (issue 55 QA: meta.json differed at the 10th digit under Dask)."""
    if weights.ndim == 1:
        return np.einsum("rn,n->r", rows, weights, optimize=False)
    return np.einsum("rn,bn->rb", rows, weights, optimize=False)


def compositions(k: int, players: int) -> np.ndarray:
    """Every multiset of ``players`` strategies out of ``k``, as counts (C, k), in the order of
    itertools.combinations_with_replacement."""
    rows = []
    for combo in itertools.combinations_with_replacement(range(k), players):
        rows.append(np.bincount(combo, minlength=k))
    return np.array(rows, dtype=np.int64)


def composition_label(counts: np.ndarray, names: tuple[str, ...]) -> str:
    """``bold x2, builder, random``: the strategies at the table, most seats first."""
    order = sorted((i for i in range(len(names)) if counts[i]), key=lambda i: (-counts[i], i))
    return ", ".join(names[i] + (f" x{counts[i]}" if counts[i] > 1 else "") for i in order)


@dataclass(frozen=True)
class MetaTable:
    """The played compositions (module doc). ``wins[c, i, g]``: the win shares of strategy ``i``'s
    seats in game ``g`` of composition ``c``, summed; ``seat_wins[c, g, s]`` and
    ``seat_strategy[c, g, s]``: seat ``s``'s share and strategy (population index)."""

    names: tuple[str, ...]
    players: int
    counts: np.ndarray  # int (C, K)
    wins: np.ndarray  # float (C, K, n)
    seat_wins: np.ndarray  # float (C, n, P)
    seat_strategy: np.ndarray  # int (C, n, P)

    def target_test(self, target) -> dict:
        """A solve target on a metagame metric, judged on this table (stats.target_test asks it)."""
        return meta_test(self, target)

    @property
    def k(self) -> int:
        return len(self.names)

    @property
    def n(self) -> int:
        return self.wins.shape[2]

    def row(self, counts) -> int:
        return self._rows[tuple(int(v) for v in counts)]

    @functools.cached_property  # built once: ``row`` is asked thousands of times on a large table (issue 56)
    def _rows(self) -> dict:
        return {tuple(int(v) for v in row): c for c, row in enumerate(self.counts)}

    def per_seat(self) -> np.ndarray:
        """(C * K, n): each cell's per-seat share game by game (0 where the strategy is absent)."""
        seats = np.where(self.counts > 0, self.counts, 1)[:, :, None]
        return (self.wins / seats).reshape(-1, self.n)

    def merge(self, other: MetaTable) -> MetaTable:
        """This table's games and ``other``'s (the same compositions, further game indices: a solver's
        next block on its own seed), as one table."""
        if self.names != other.names or not np.array_equal(self.counts, other.counts):
            raise ValueError("merging tables of different compositions")
        return MetaTable(self.names, self.players, self.counts, np.concatenate([self.wins, other.wins], axis=2),
                         np.concatenate([self.seat_wins, other.seat_wins], axis=1),
                         np.concatenate([self.seat_strategy, other.seat_strategy], axis=1))

    def without(self, drop: list[int]) -> MetaTable:
        """The table of the population less the strategies ``drop``: the compositions none of them sit
        in (every composition of the smaller population is one of them: nothing is estimated), the
        seats' strategies renumbered."""
        keep = [i for i in range(self.k) if i not in set(drop)]
        rows = np.flatnonzero((self.counts[:, list(drop)] == 0).all(axis=1)) if drop else np.arange(len(self.counts))
        renumber = np.full(self.k, -1, np.int64)
        renumber[keep] = np.arange(len(keep))
        return MetaTable(tuple(self.names[i] for i in keep), self.players, self.counts[rows][:, keep],
                         self.wins[rows][:, keep], self.seat_wins[rows], renumber[self.seat_strategy[rows]])

    def payoffs(self, weights: np.ndarray | None = None) -> np.ndarray:
        """(C, K): each strategy's per-seat share in each composition (nan where absent); with
        ``weights`` (per game index), the weighted mean (a bootstrap resample)."""
        per_seat = self.per_seat()
        mean = per_seat.mean(axis=1) if weights is None else game_sums(per_seat, weights) / weights.sum()
        out = mean.reshape(self.counts.shape)
        return np.where(self.counts > 0, out, np.nan)


def payoff_records(table: MetaTable) -> pd.DataFrame:
    """One row per composition and strategy at it: its seats, its per-seat win share over all games
    and the share's interval clustered by game (stats.clustered_share)."""
    rows = []
    for c, counts in enumerate(table.counts):
        label = composition_label(counts, table.names)
        for i in np.flatnonzero(counts):
            share = clustered_share(table.wins[c, i], np.full(table.n, counts[i]))
            rows.append({"composition": c, "table": label, "strategy": table.names[i], "seats": int(counts[i]),
                         "games": table.n, "win_share": share.estimate, "ci_low": share.low, "ci_high": share.high})
    return pd.DataFrame(rows)


def field_matrix(table: MetaTable) -> pd.DataFrame:
    """The one-against-the-field matrix: strategy ``i`` in one seat, ``j`` in every other seat
    (``i == j``: the mirror, all seats ``i``), ``i``'s per-seat share with its interval."""
    rows = []
    p = table.players
    for i, j in itertools.product(range(table.k), repeat=2):
        counts = np.zeros(table.k, np.int64)
        counts[i] += 1
        counts[j] += p - 1
        c = table.row(counts)
        share = clustered_share(table.wins[c, i], np.full(table.n, counts[i]))
        rows.append({"strategy": table.names[i], "field": table.names[j], "win_share": share.estimate,
                     "ci_low": share.low, "ci_high": share.high})
    return pd.DataFrame(rows)


def differences(table: MetaTable, first: list[tuple[int, int]], second: list[tuple[int, int]],
                alpha: float = ALPHA) -> list[Interval]:
    """Cell ``first[m]`` minus cell ``second[m]`` (``(composition, strategy)`` pairs), read game by
    game (the same deals: common random numbers), each with its normal interval."""
    per_seat = table.per_seat()
    a = np.array([c * table.k + i for c, i in first], dtype=np.int64)
    b = np.array([c * table.k + i for c, i in second], dtype=np.int64)
    est, sd = np.empty(len(a)), np.empty(len(a))
    for lo in range(0, len(a), 256):  # a few hundred differences at a time: (rows, n) arrays stay small
        diff = per_seat[a[lo:lo + 256]] - per_seat[b[lo:lo + 256]]
        est[lo:lo + 256], sd[lo:lo + 256] = diff.mean(axis=1), diff.std(axis=1, ddof=1)
    half = normal_half(sd / math.sqrt(table.n), alpha)
    return [Interval(float(e), float(e - h), float(e + h)) for e, h in zip(est, half, strict=True)]


def linear_interval(table: MetaTable, coef: np.ndarray, alpha: float = ALPHA) -> Interval:
    """A linear function ``sum coef[c, i] u[c, i]`` of the payoffs, read game by game, with its
    normal interval (clustered by game index: the compositions share their deals)."""
    values = game_sums(table.per_seat().T, coef.reshape(-1))
    est = float(values.mean())
    half = float(normal_half(values.std(ddof=1) / math.sqrt(table.n), alpha))
    return Interval(est, est - half, est + half)


# ---------------------------------------------------------------------------- the symmetric game


@dataclass(frozen=True)
class Fields:
    """The terms of ``f_i(x)``: for each cell ``(c, i)`` with ``i`` at the table, the multinomial
    probability that ``P - 1`` seats drawn from ``x`` are composition ``c`` less one ``i``:
    ``coef * prod(x ** power)``.

    Each method takes one mix ``x`` (K,) or a stack of them, one a row (R, K), with the table's cell
    payoffs (``values``: one (T,) for every row, or one row each, (R, T)). The solver moves the
    bootstrap's resamples (and ``equilibria``'s starts) together, one numpy call for all of them a
    step, where one Python step per mix cost ~95% of its time (issue 56). A row's numbers do not
    depend on the rows beside it, to the last digit: the arithmetic is elementwise (numpy's own exp
    and power, the functions the one-mix code always used) and every sum runs in one fixed order,
    with no BLAS (``game_sums``)."""

    cell_c: np.ndarray
    cell_i: np.ndarray
    coef: np.ndarray
    power: np.ndarray  # (T, K)
    k: int
    lowered: np.ndarray  # (K, T, K): ``power`` with column j lowered by 1 (not below 0) in slice j (``jacobian``)
    strategy_cells: np.ndarray  # (K, L): strategy i's terms, 1 + their index in cell order, padded with 0 (``by_strategy``)
    power_values: np.ndarray  # 0., 1., ..., P - 1.: every power a term raises a weight to (``probabilities``)
    power_index: np.ndarray  # (T, K): ``power`` as indices into ``power_values``

    @classmethod
    def of(cls, counts: np.ndarray) -> Fields:
        cs, is_, coefs, powers = [], [], [], []
        for c, row in enumerate(counts):
            for i in np.flatnonzero(row):
                others = row.copy()
                others[i] -= 1
                coef = math.factorial(int(others.sum()))
                for v in others:
                    coef //= math.factorial(int(v))
                cs.append(c)
                is_.append(i)
                coefs.append(float(coef))
                powers.append(others)
        k = counts.shape[1]
        power = np.array(powers, dtype=np.float64)
        lowered = np.repeat(power[None], k, axis=0)
        for j in range(k):  # d/dx_j x_j^p = p x_j^(p - 1); a term without x_j: 0 (its p)
            lowered[j, :, j] = np.maximum(power[:, j] - 1, 0)
        cell_i = np.array(is_)
        mine = [np.flatnonzero(cell_i == i) + 1 for i in range(k)]
        strategy_cells = np.zeros((k, 1 + max(len(m) for m in mine)), np.int64)
        for i, m in enumerate(mine):
            strategy_cells[i, 1:1 + len(m)] = m
        return cls(np.array(cs), cell_i, np.array(coefs), power, k, lowered, strategy_cells,
                   np.arange(counts.sum(axis=1).max(), dtype=np.float64), power.astype(np.int64))

    def values(self, u: np.ndarray) -> np.ndarray:
        """Each term's cell payoff ``u[cell_c, cell_i]``: (T,) from one table (C, K), (B, T) from B."""
        return u[..., self.cell_c, self.cell_i]

    def by_strategy(self, terms: np.ndarray) -> np.ndarray:
        """Each strategy's terms summed, (..., T) to (..., K): added one by one in cell order from 0,
        the order np.bincount added them in when this took one mix (a running sum along each
        strategy's cells, its padding adding zeros, which change nothing). In C order: numpy sums a
        row of 8 or more pairwise only when the row lies contiguous (as one mix's did)."""
        padded = np.concatenate([np.zeros((*terms.shape[:-1], 1)), terms], axis=-1)
        return np.cumsum(padded[..., self.strategy_cells], axis=-1)[..., -1].copy(order="C")

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        # Each x_j ** p once (p from 0 to P - 1), then every term's product of them, multiplied in
        # strategy order as np.prod(x ** power) multiplied them: the same numbers, a T-th of the powers.
        table = np.power(x[..., :, None], self.power_values)  # (..., K, P)
        product = table[..., 0, self.power_index[:, 0]]
        for j in range(1, self.k):
            product = product * table[..., j, self.power_index[:, j]]
        return self.coef * product

    def payoffs(self, u: np.ndarray, x: np.ndarray) -> np.ndarray:
        """``f(x)``: each strategy's expected per-seat share against a field drawn from ``x``."""
        return self.payoffs_of(self.values(u), x)

    def payoffs_of(self, values: np.ndarray, x: np.ndarray) -> np.ndarray:
        return self.by_strategy(self.probabilities(x) * values)

    def jacobian(self, u: np.ndarray, x: np.ndarray) -> np.ndarray:
        """(K, K): the derivative of ``f_i(x)`` in ``x_j`` (``_on_support``'s Newton steps)."""
        terms = self.coef * self.power.T * np.prod(np.power(x, self.lowered), axis=-1)  # row j: in x_j
        return np.ascontiguousarray(self.by_strategy(terms * self.values(u)).T)  # [i, j], as it was built

    def gains(self, u: np.ndarray, x: np.ndarray) -> np.ndarray:
        return self.gains_of(self.values(u), x)

    def gains_of(self, values: np.ndarray, x: np.ndarray) -> np.ndarray:
        f = self.payoffs_of(values, x)
        return f - np.sum(x * f, axis=-1, keepdims=True)  # not BLAS: game_sums

    def nash(self, values: np.ndarray, x: np.ndarray) -> np.ndarray:
        """Nash's function ``sum max(0, gain)^2`` (times 1e4), zero exactly at an equilibrium
        (``_polish``), of each mix (``x`` clipped into [0, 1])."""
        return np.sum(np.maximum(self.gains_of(values, np.clip(x, 0, 1)), 0.0) ** 2, axis=-1) * 1e4

    def gain_coefficients(self, x: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
        """(K, C, K): ``gain_i(x)`` as a linear function of the payoff table (``linear_interval``)."""
        prob = self.probabilities(x)
        f_coef = np.zeros((self.k, *shape))
        f_coef[self.cell_i, self.cell_c, self.cell_i] = prob
        mix = np.einsum("k,kcj->cj", x, f_coef, optimize=False)  # not BLAS: game_sums
        return f_coef - mix[None]


TERMS_AT_ONCE = 1 << 21  # rows x terms x strategies the replicator moves in one block: a step's arrays a few MB
STEPS = 1500  # the replicator's Euler steps from each of equilibria's starts
RESAMPLE_STEPS = 600  # and from a bootstrap resample's start, near the reported mix
STEP = 2.0  # the Euler step's length


def _replicator_averages(fields: Fields, values: np.ndarray, starts: np.ndarray, steps: int,
                         step: float) -> np.ndarray:
    """The time average of the replicator dynamics from each row of ``starts`` (R, K), on the cell
    payoffs ``values`` (one (T,) for all, or a row each), (R, K): Euler steps in log coordinates,
    d log x_i / dt = gain_i(x); around a cycle (rock, paper, scissors) the trajectory orbits the
    equilibrium and its average converges to it. The rows move together (``Fields``), in blocks
    that keep a step's arrays small on a large table."""
    block = max(1, TERMS_AT_ONCE // fields.power.size)
    out = np.empty(starts.shape)
    for lo in range(0, len(starts), block):
        mine = values if values.ndim == 1 else values[lo:lo + block]
        z = np.log(np.clip(starts[lo:lo + block], 1e-12, None))
        total = np.zeros_like(z)
        for _ in range(steps):
            x = np.exp(z - z.max(axis=1, keepdims=True))
            x /= x.sum(axis=1, keepdims=True)
            total += x
            z = z + step * fields.gains_of(mine, x)
        out[lo:lo + block] = total / steps
    return out


SLSQP_STEP = 2.0 ** -26  # scipy's SLSQP default ``eps``: its finite-difference step, the root of float64's epsilon


def _forward_differences(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The points and steps of the forward differences SLSQP takes when given no gradient (scipy's
    approx_derivative, '2-point' with the absolute step ``eps``, stepping back where the step would
    cross the bound 1): row i is ``x`` with ``x_i`` moved; the steps as the floats took them."""
    h = np.where(x + SLSQP_STEP > 1.0, -SLSQP_STEP, SLSQP_STEP)
    moved = np.empty((len(x), len(x)))
    moved[:] = x
    np.fill_diagonal(moved, x + h)
    return moved, (x + h) - x


def _polish(fields: Fields, u: np.ndarray, x0: np.ndarray) -> np.ndarray:
    """The equilibrium of the estimated table nearest ``x0``: Nash's function sum max(0, gain)^2,
    zero exactly at an equilibrium, minimised over the simplex (SLSQP)."""
    k = len(x0)
    values = fields.values(u)

    def nash(x):
        return float(fields.nash(values, x))

    # The gradients are SLSQP's own forward differences, computed here with the K moved mixes in one
    # call: the same numbers to the last digit (its path, and the support it lands on, follow them),
    # at a fraction of scipy's cost per difference. That includes the constraint's: an exact
    # gradient of sum(x) (all ones) would move SLSQP's last digits.
    def nash_gradient(x):
        moved, dx = _forward_differences(x)
        at = fields.nash(values, np.vstack([x, moved]))  # nash(x) and the K moved mixes' in one call
        return (at[1:] - at[0]) / dx

    def total_gradient(x):
        x = np.clip(x, 0.0, 1.0)
        moved, dx = _forward_differences(x)
        return ((moved.sum(axis=1) - 1.0) - (x.sum() - 1.0)) / dx

    from scipy.optimize import minimize  # here: `import simbalance` stays free of scipy.optimize (0.35 s)

    done = minimize(nash, x0, jac=nash_gradient, method="SLSQP", bounds=[(0.0, 1.0)] * k,
                    constraints=[{"type": "eq", "fun": lambda x: x.sum() - 1.0, "jac": total_gradient}],
                    options={"ftol": 1e-16, "maxiter": 500})
    x = np.clip(done.x, 0.0, None)
    x[x < UNUSED / 10] = 0.0
    x /= x.sum()
    exact = _on_support(fields, u, x0, np.flatnonzero(x))
    return exact if exact is not None else x


def _on_support(fields: Fields, u: np.ndarray, x0: np.ndarray, support: np.ndarray, steps: int = 60) -> np.ndarray | None:
    """The equilibrium on SLSQP's support, solved again by Newton's method from ``x0`` (every seat's
    payoff on the support equal, the weights summing to 1), or None when that does not land on an
    equilibrium. Why: SLSQP's last digits follow the BLAS thread count (scipy's SLSQP calls BLAS,
    whose sums split by threads), so the same table gave weights differing at the 10th digit in a
    plain run and one that had started Dask workers; Newton from the replicator's average (computed
    alike everywhere) in numpy's elementwise arithmetic lands on the same digits every time."""
    x = np.zeros_like(x0)
    if len(support) == 1:
        x[support] = 1.0
        return x
    x[support] = x0[support] / x0[support].sum()
    first, rest = support[0], support[1:]
    for _ in range(steps):
        f, jac = fields.payoffs(u, x), fields.jacobian(u, x)
        residual = np.append(f[rest] - f[first], x[support].sum() - 1.0)
        matrix = np.vstack([jac[rest][:, support] - jac[first][support], np.ones(len(support))])
        try:
            step = np.linalg.solve(matrix, -residual)
        except np.linalg.LinAlgError:  # a flat direction (two strategies alike): SLSQP's answer stands
            return None
        x[support] += step
        if not np.isfinite(x).all() or x.min() < 0:
            return None
        if np.abs(step).max() < 1e-15:
            break
    return x if fields.gains(u, x).max() <= EQUILIBRIUM_TOL else None


def _starts(k: int, seed: int, extra: int = 4) -> list[np.ndarray]:
    """The uniform mix, each strategy leaning (half the weight on it), and a few random mixes."""
    out = [np.full(k, 1 / k)]
    for i in range(k):
        x = np.full(k, 0.5 / max(k - 1, 1))
        x[i] = 0.5
        out.append(x / x.sum())
    rng = np.random.default_rng(seed)
    out += list(rng.dirichlet(np.ones(k), extra))
    return out


def solve(fields: Fields, u: np.ndarray, start: np.ndarray, steps: int = STEPS, step: float = STEP) -> np.ndarray | None:
    """One equilibrium from ``start`` (replicator average, polished), or None when the polish ends
    elsewhere than an equilibrium."""
    return _polished(fields, u, _replicator_averages(fields, fields.values(u), start[None], steps, step)[0])


def _polished(fields: Fields, u: np.ndarray, average: np.ndarray) -> np.ndarray | None:
    """``solve`` from the replicator's average."""
    x = _polish(fields, u, average)
    return x if fields.gains(u, x).max() <= EQUILIBRIUM_TOL else None


def equilibria(fields: Fields, u: np.ndarray, seed: int = 0) -> list[np.ndarray]:
    """Every distinct equilibrium found from ``_starts`` (module doc), the most even first."""
    found: list[np.ndarray] = []
    starts = np.array(_starts(len(u[0]), seed))
    for average in _replicator_averages(fields, fields.values(u), starts, STEPS, STEP):  # solve() from each start
        x = _polished(fields, u, average)
        if x is not None and all(0.5 * np.abs(x - y).sum() > DISTINCT for y in found):
            found.append(x)
    return sorted(found, key=entropy, reverse=True)


def entropy(x: np.ndarray) -> float:
    x = x[x > 0]
    return float(-(x * np.log(x)).sum())


# ---------------------------------------------------------------------------- α-Rank


def alpha_rank(table_counts: np.ndarray, u: np.ndarray, players: int, alpha: float = ALPHA_RANK,
               population: int = POPULATION) -> np.ndarray:
    """α-Rank's stationary distribution over the strategies (module doc)."""
    return masses_of(alpha_rank_logs(table_counts, u, players, alpha, population))


def masses_of(logs: np.ndarray) -> np.ndarray:
    """The masses (summing to 1) whose logs, unnormalised, are ``logs``."""
    return np.exp(logs - np.logaddexp.reduce(logs))


def alpha_rank_logs(table_counts: np.ndarray, u: np.ndarray, players: int, alpha: float = ALPHA_RANK,
                    population: int = POPULATION) -> np.ndarray:
    """The logarithms of α-Rank's stationary masses (unnormalised), exact to a few ulps of each log.

    The masses of strategies α-Rank passes by are tiny (1e-40 and far below at α = 100); an
    eigenvector solver gets them to 1e-16 of the largest only, so their order was float noise
    (qa55). The chain's entries are computed in logs, and the stationary distribution by the
    Grassmann-Taksar-Heyman elimination, also in logs: it never subtracts, so every mass keeps its
    own relative precision, and ``ranks_of`` orders real differences only."""
    rows = {tuple(int(v) for v in row): c for c, row in enumerate(table_counts)}
    k, m = u.shape[1], population
    # hyper[mine - 1, t]: a focal agent among ``mine`` of its kind (itself included) and m - mine of the
    # other kind meets t of its own kind among the P - 1 others, drawn without replacement
    hyper = np.array([[math.comb(mine - 1, t) * math.comb(m - mine, players - 1 - t) / math.comb(m - 1, players - 1)
                       for t in range(players)] for mine in range(1, m + 1)])
    fitness = np.zeros((k, k, m))  # fitness[me, other, mine - 1]
    for me, other in itertools.permutations(range(k), 2):
        at = np.zeros(players)
        for t in range(players):
            counts = np.zeros(k, np.int64)
            counts[me] += 1 + t
            counts[other] += players - 1 - t
            at[t] = u[rows[tuple(int(v) for v in counts)], me]
        fitness[me, other] = hyper @ at
    levels = np.arange(1, m)
    log_chain = np.full((k, k), -np.inf)  # the off-diagonal moves only: GTH never reads the diagonal
    for s, r in itertools.permutations(range(k), 2):
        # the Moran process's fixation probability of one r among m - 1 s (OpenSpiel's _get_rho_sr):
        # 1 / (1 + sum_l prod_{j <= l} exp(-alpha (f_r(j) - f_s(m - j)))), summed in logs
        steps = -alpha * (fitness[r, s, levels - 1] - fitness[s, r, m - levels - 1])
        log_chain[s, r] = -np.logaddexp(0.0, np.logaddexp.reduce(np.cumsum(steps))) - math.log(k - 1)
    return _gth_logs(log_chain)


def _gth_logs(log_chain: np.ndarray) -> np.ndarray:
    """The stationary distribution's logs (unnormalised) of the chain whose off-diagonal move
    probabilities have the logs ``log_chain`` (Grassmann, Taksar and Heyman 1985: fold the last state
    into the others, one at a time, then unfold)."""
    a = log_chain.copy()
    k = len(a)
    for n in range(k - 1, 0, -1):
        leave = np.logaddexp.reduce(a[n, :n])  # the probability of moving from n to a state before it
        a[:n, n] -= leave
        a[:n, :n] = np.logaddexp(a[:n, :n], a[:n, n][:, None] + a[n, :n][None, :])
    logs = np.zeros(k)
    for n in range(1, k):
        logs[n] = np.logaddexp.reduce(logs[:n] + a[:n, n])
    return logs


RANK_TIE = 1e-9  # masses whose logs differ by less than this (a relative 1e-9) are a tie


def ranks_of(logs: np.ndarray) -> np.ndarray:
    """Rank 1 for the largest mass, from the masses' logs (``alpha_rank_logs``); masses equal to a
    relative 1e-9 share the best rank of their group (1, 2, 2, 4): strategies alike by symmetry are
    not ordered by the last bits of their sums."""
    x = np.asarray(logs, np.float64)
    return 1 + (x[None, :] > x[:, None] + RANK_TIE).sum(axis=1).astype(np.int64)


# ---------------------------------------------------------------------------- the bootstrap


@dataclass(frozen=True)
class Bootstrap:
    weights: np.ndarray  # (B, K): the reported equilibrium, solved again from it on each resample
    mass: np.ndarray  # (B, K): α-Rank
    ranks: np.ndarray  # (B, K): α-Rank's ranks


def bootstrap(table: MetaTable, fields: Fields, equilibrium: np.ndarray, resamples: int = BOOTSTRAP,
              seed: int = 0) -> Bootstrap:
    """The game indices resampled ``resamples`` times (module doc)."""
    rng = np.random.default_rng(seed)
    per_seat = table.per_seat()
    weights = rng.poisson(1.0, (resamples, table.n)).astype(np.float64)
    means = game_sums(per_seat, weights) / weights.sum(axis=1)  # (C * K, B)
    start = 0.9 * equilibrium + 0.1 / table.k
    eq, mass = np.full((resamples, table.k), np.nan), np.empty((resamples, table.k))
    ranks = np.empty((resamples, table.k), np.int64)
    tables = np.where(table.counts > 0, means.T.reshape(resamples, *table.counts.shape), np.nan)  # (B, C, K)
    # solve() on each resample from ``start``, the replicator's B trajectories moved together
    averages = _replicator_averages(fields, fields.values(tables), np.tile(start, (resamples, 1)), RESAMPLE_STEPS, STEP)
    for b, u in enumerate(tables):
        x = _polished(fields, u, averages[b])
        if x is not None:
            eq[b] = x
        logs = alpha_rank_logs(table.counts, u, table.players)
        mass[b], ranks[b] = masses_of(logs), ranks_of(logs)
    return Bootstrap(eq, mass, ranks)


def percentile_interval(samples: np.ndarray, alpha: float = ALPHA) -> tuple[np.ndarray, np.ndarray]:
    """The bootstrap's percentile interval of each column (resamples where it failed left out)."""
    return (np.nanpercentile(samples, 100 * alpha / 2, axis=0), np.nanpercentile(samples, 100 * (1 - alpha / 2), axis=0))


# ---------------------------------------------------------------------------- dominance, targets


def dominance(table: MetaTable, alpha: float = ALPHA) -> tuple[str, Interval]:
    """How far the best strategy stands above the rest: its margin over an even field, the largest
    ``gain_i`` at the uniform mix (a seat's per-seat share playing ``i`` against ``P - 1`` seats each
    drawing uniformly from the population, minus the mix's own), with its interval read game by
    game. 0 when every strategy does as well as the average against an even field; a dominant style
    stands out by points of win share. Chosen over the best strategy's share against the
    *equilibrium* field (every strategy the equilibrium uses gains exactly 0 there, whatever the
    rules) and over the equilibrium's largest weight (which jumps between 0 and 1 as a rule moves):
    it is linear in the table and moves smoothly with the rules, so a solver can aim at it. Read on
    the table with its copies left out (``merged``), as the equilibrium is. The best is picked by
    its estimate (the maximum of several estimates leans high: a target's upper
    end is the side that matters)."""
    table = merged(table, alpha)[0]  # a copy would count its style twice in the even field
    fields = Fields.of(table.counts)
    uniform = np.full(table.k, 1 / table.k)
    gains = fields.gains(table.payoffs(), uniform)
    best = int(np.argmax(gains))
    return table.names[best], linear_interval(table, fields.gain_coefficients(uniform, table.counts.shape)[best], alpha)


MATRIX_COLUMNS = ("strategy", "field", "target", "tolerance")
MATRIX_KEYS = ("strategies", "target", "tolerance")


def read_target_matrix(path: str, names: tuple[str, ...], option: str = "--target-matrix") -> pd.DataFrame:
    """A designer's target win-rate matrix between named strategies (the TAG balancing competition's
    form), read into one row per target cell (``strategy,field,target,tolerance``: ``strategy``
    alone in a field of ``field``, ``field == strategy`` the mirror; its target per-seat win share and
    the tolerance either side). Two forms, by the file's suffix:

    - ``.json`` / ``.toml``: the matrix itself, ``strategies = ["a", "b", "c"]``, ``target`` a list
      of one row per strategy (the row's strategy alone in a field of the column's), each a list of
      one share per strategy (``null`` in JSON, ``nan`` in TOML: no target for that cell), and
      ``tolerance`` one share for every cell or a matrix of the same shape;
    - any other suffix: a CSV with the columns above, one cell a row.

    Every problem (a malformed file, a name not in ``names``, a matrix of the wrong shape, a share
    outside 0 to 1, a cell given twice) is one line naming it."""
    where = f"{option} {path}"
    from pathlib import Path

    if not Path(path).exists():
        raise SimbalanceError(f"{where}: no such file")
    if not Path(path).is_file():  # a folder, or a FIFO that would block the read
        raise SimbalanceError(f"{where}: not a regular file; give a .json, .toml or .csv file")
    suffix = str(path).lower().rsplit(".", 1)[-1] if "." in str(path) else ""
    if suffix in ("json", "toml"):
        frame = _matrix_cells(_read_matrix_file(path, suffix, where), where)
    else:
        try:
            frame = pd.read_csv(path, dtype={"strategy": str, "field": str}, skipinitialspace=True)
        except FileNotFoundError:
            raise SimbalanceError(f"{where}: no such file") from None
        except (OSError, ValueError, pd.errors.ParserError) as exc:
            raise SimbalanceError(f"{where}: not a CSV table ({' '.join(str(exc).split())})") from None
        if tuple(frame.columns) != MATRIX_COLUMNS:
            raise SimbalanceError(f"{where}: the columns are {','.join(map(str, frame.columns))}; expected "
                                  f"{','.join(MATRIX_COLUMNS)}")
    if frame.empty:
        raise SimbalanceError(f"{where}: no cell; give at least one row")
    for column in ("strategy", "field"):
        unknown = sorted(set(frame[column]) - set(names))
        if unknown:
            raise SimbalanceError(f"{where}: {column} {', '.join(map(repr, unknown))} not in the population "
                                  f"({', '.join(names)})")
    twice = frame[frame.duplicated(["strategy", "field"])]
    if len(twice):
        r = twice.iloc[0]
        raise SimbalanceError(f"{where}: the cell {r['strategy']} against {r['field']} is given twice")
    for column, low, high in (("target", 0.0, 1.0), ("tolerance", 0.0, 1.0)):
        values = pd.to_numeric(frame[column], errors="coerce")
        bad = frame[~values.between(low, high)]
        if len(bad):
            r = bad.iloc[0]
            raise SimbalanceError(f"{where}: {column} {r[column]} of the cell {r['strategy']} against {r['field']}: "
                                  f"allowed a share from {low:g} to {high:g} (0.3 is 30%)")
        frame[column] = values.astype(float)
    return frame.reset_index(drop=True)


def _read_matrix_file(path: str, suffix: str, where: str) -> dict:
    """A JSON or TOML file's top-level table, or one line saying why not."""
    import json
    import tomllib

    try:
        with open(path, "rb") as handle:
            data = json.loads(handle.read()) if suffix == "json" else tomllib.load(handle)
    except FileNotFoundError:
        raise SimbalanceError(f"{where}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SimbalanceError(f"{where}: cannot be read ({' '.join(str(exc).split())})") from None
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as exc:
        raise SimbalanceError(f"{where}: not valid {suffix.upper()} ({' '.join(str(exc).split())})") from None
    if not isinstance(data, dict):
        raise SimbalanceError(f"{where}: expected a table with the keys {', '.join(MATRIX_KEYS)}")
    return data


def _matrix_cells(data: dict, where: str) -> pd.DataFrame:
    """The matrix form's cells (read_target_matrix), its shape checked."""
    keys = set(data)
    if keys != set(MATRIX_KEYS):
        extra, missing = sorted(keys - set(MATRIX_KEYS)), sorted(set(MATRIX_KEYS) - keys)
        said = "; ".join(([f"unknown key {', '.join(map(repr, extra))}"] if extra else [])
                         + ([f"missing {', '.join(missing)}"] if missing else []))
        raise SimbalanceError(f"{where}: {said}; allowed exactly: {', '.join(MATRIX_KEYS)}")
    names = data["strategies"]
    if not (isinstance(names, list) and names and all(isinstance(n, str) for n in names)):
        raise SimbalanceError(f"{where}: strategies {names!r}: give a list of strategy names")
    if len(set(names)) != len(names):
        raise SimbalanceError(f"{where}: strategies {names!r}: a strategy is named twice")
    k = len(names)

    def square(key: str, value) -> list[list]:
        if not (isinstance(value, list) and len(value) == k and all(isinstance(r, list) and len(r) == k
                                                                     for r in value)):
            rows = len(value) if isinstance(value, list) else "not a list of"
            raise SimbalanceError(f"{where}: {key} must be {k} rows of {k} shares (one per strategy of "
                                  f"{', '.join(names)}); got {rows} rows"
                                  + ("" if not isinstance(value, list) else " of lengths "
                                     + ",".join(str(len(r)) if isinstance(r, list) else "-" for r in value)))
        return value

    def share(key: str, value, a: str, b: str) -> float | None:
        if value is None or (isinstance(value, float) and value != value):
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise SimbalanceError(f"{where}: {key} {value!r} of the cell {a} against {b}: allowed a share from 0 to 1 "
                                  "(0.3 is 30%), or null for no target")
        return float(value)

    targets = square("target", data["target"])
    tol = data["tolerance"]
    tolerances = square("tolerance", tol) if isinstance(tol, list) else [[tol] * k for _ in range(k)]
    rows = []
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            target = share("target", targets[i][j], a, b)
            if target is None:
                continue
            tolerance = share("tolerance", tolerances[i][j], a, b)
            if tolerance is None:
                raise SimbalanceError(f"{where}: the cell {a} against {b} has a target but no tolerance")
            rows.append({"strategy": a, "field": b, "target": target, "tolerance": tolerance})
    return pd.DataFrame(rows, columns=list(MATRIX_COLUMNS))


def field_composition(k: int, players: int, strategy: int, field: int) -> np.ndarray:
    """The composition of a field cell: ``strategy`` in one seat, ``field`` in all the others."""
    counts = np.zeros(k, np.int64)
    counts[strategy] += 1
    counts[field] += players - 1
    return counts


def field_cell(table: MetaTable, strategy: str, field: str, alpha: float = ALPHA) -> Interval:
    """One cell of the field matrix: ``strategy`` alone in a field of ``field``, its per-seat share."""
    i, j = table.names.index(strategy), table.names.index(field)
    counts = field_composition(table.k, table.players, i, j)
    c = table.row(counts)
    return clustered_share(table.wins[c, i], np.full(table.n, counts[i]), alpha)


def cell_metric(strategy: str, field: str) -> str:
    """A target matrix's cell as a solve target's metric (analysis/stats.is_meta)."""
    return f"{CELL}{strategy}|{field}"


def cell_of(metric: str) -> tuple[str, str]:
    strategy, _, field = metric[len(CELL):].partition("|")
    return strategy, field


def needed_compositions(k: int, players: int, metrics: list[str], names: tuple[str, ...]) -> np.ndarray:
    """The compositions a solve's metagame targets read: every one for ``dominance`` (the even field
    draws every composition), else only the cells' own (one seat of a strategy in a field of
    another: at most k x k of them, however many seats), in the order of ``compositions``."""
    every = compositions(k, players)
    if "dominance" in metrics:
        return every
    wanted = {tuple(int(v) for v in field_composition(k, players, names.index(a), names.index(b)))
              for a, b in (cell_of(m) for m in metrics)}
    return np.array([row for row in every if tuple(int(v) for v in row) in wanted], dtype=np.int64)


def meta_test(table: MetaTable, target) -> dict:
    """A solve target on a metagame metric (analysis/stats.target_test): ``dominance`` (the best
    strategy's margin over an even field, ``dominance``) or a target matrix's cell (``field_cell``),
    each with its interval read game by game, tested like every other target (stats.interval_test).
    ``strategy``: the strategy the value is about (dominance: the best)."""
    if target.metric == "dominance":
        about, estimate = dominance(table)
    else:
        about = cell_of(target.metric)[0]
        estimate = field_cell(table, *cell_of(target.metric))
    out = interval_test(estimate, target.low, target.high, 0.0, 1.0)
    return dict(out, games=int(table.n), strategy=about)


def judge_matrix(field: pd.DataFrame, targets: pd.DataFrame) -> pd.DataFrame:
    """Each target cell against the field matrix's cell: ``meets`` when its whole interval lies within
    target +- tolerance, ``misses`` when it lies wholly outside, else ``not settled``."""
    cells = targets.merge(field, on=["strategy", "field"], how="left")
    low, high = cells["target"] - cells["tolerance"], cells["target"] + cells["tolerance"]
    inside = (cells["ci_low"] >= low) & (cells["ci_high"] <= high)
    outside = (cells["ci_high"] < low) | (cells["ci_low"] > high)
    cells["verdict"] = np.where(inside, "meets", np.where(outside, "misses", "not settled"))
    return cells


# ---------------------------------------------------------------------------- who beats whom


def fields_of(k: int, size: int) -> list[np.ndarray]:
    """Every field of ``size`` seats (a multiset of strategies), as counts."""
    return list(compositions(k, size)) if size > 0 else [np.zeros(k, np.int64)]


def switch_gains(table: MetaTable, alpha: float = ALPHA) -> pd.DataFrame:
    """For every ordered pair (a, b) and every field of the other ``P - 1`` seats: what a seat gains
    by playing ``a`` instead of ``b`` there, u_a(field + a) - u_b(field + b), read game by game."""
    first, second, rows = [], [], []
    for field in fields_of(table.k, table.players - 1):
        label = composition_label(field, table.names) if field.sum() else "(no other seat)"
        for a, b in itertools.permutations(range(table.k), 2):
            with_a, with_b = field.copy(), field.copy()
            with_a[a] += 1
            with_b[b] += 1
            first.append((table.row(with_a), a))
            second.append((table.row(with_b), b))
            rows.append({"strategy": table.names[a], "instead_of": table.names[b], "field": label})
    found = differences(table, first, second, alpha)
    out = pd.DataFrame(rows)
    out["gain"] = [d.estimate for d in found]
    out["ci_low"] = [d.low for d in found]
    out["ci_high"] = [d.high for d in found]
    return out


def dominant(gains: pd.DataFrame, names: tuple[str, ...]) -> str | None:
    """The strategy that does better than every other in its place against every field (each gain
    told apart above 0), or None."""
    for name in names:
        mine = gains[gains["strategy"] == name]
        if len(mine) and bool((mine["ci_low"] > 0).all()):
            return name
    return None


def alike(gains: pd.DataFrame, names: tuple[str, ...]) -> list[tuple[str, str]]:
    """Pairs of strategies whose payoffs are equal within their intervals against every field."""
    out = []
    for a, b in itertools.combinations(names, 2):
        pair = gains[(gains["strategy"] == a) & (gains["instead_of"] == b)]
        if len(pair) and bool(((pair["ci_low"] <= 0) & (pair["ci_high"] >= 0)).all()):
            out.append((a, b))
    return out


def copies_of(gains: pd.DataFrame, names: tuple[str, ...], within: float = COPY_WITHIN) -> dict[str, str]:
    """The strategies that are copies of an earlier one (``{copy: original}``): their payoff rows
    equal within their intervals, no switch between the two told apart from 0 against any field
    (``gains``: ``copy_gains``), and every such interval within +-``within``: a pair the games can
    neither tell apart nor bound that close (a few dozen games: every interval is wide) is not merged,
    only said alike. A copy joins the earliest strategy it copies, and only if it copies every
    strategy already merged into that one (being alike is not transitive)."""
    apart = gains[(gains["ci_low"] > 0) | (gains["ci_high"] < 0)
                  | (gains["ci_low"] < -within) | (gains["ci_high"] > within)]
    differ = set(zip(apart["strategy"], apart["instead_of"], strict=True))
    groups: dict[str, list[str]] = {}
    out: dict[str, str] = {}
    for name in names:
        for original, members in groups.items():
            if all((name, m) not in differ and (m, name) not in differ for m in members):
                members.append(name)
                out[name] = original
                break
        else:
            groups[name] = [name]
    return out if len(groups) > 1 else {}  # all copies of one: no metagame left to merge into; said alike


def copy_gains(table: MetaTable, alpha: float = ALPHA) -> pd.DataFrame:
    """``switch_gains`` with each interval at ``alpha`` over the number of fields (Bonferroni): "some
    field tells the two apart" is one claim over all the fields, so a true copy is not split off by
    the one field in twenty whose 95% interval misses 0 by chance."""
    return switch_gains(table, alpha / len(fields_of(table.k, table.players - 1)))


def copy_records(gains: pd.DataFrame, copies: dict[str, str]) -> pd.DataFrame:
    """One row per copy: the strategy it plays as, and the largest switch between them (its gain and
    interval, which covers 0: how far apart the two could still be)."""
    rows = []
    for copy, original in copies.items():
        pair = gains[(gains["strategy"] == copy) & (gains["instead_of"] == original)]
        far = pair.loc[pair[["ci_low", "ci_high"]].abs().max(axis=1).idxmax()]
        rows.append({"copy": copy, "plays_as": original, "largest_difference": float(far["gain"]),
                     "ci_low": float(far["ci_low"]), "ci_high": float(far["ci_high"]), "field": far["field"]})
    return pd.DataFrame(rows, columns=["copy", "plays_as", "largest_difference", "ci_low", "ci_high", "field"])


def merged(table: MetaTable, alpha: float = ALPHA) -> tuple[MetaTable, dict[str, str]]:
    """The table with every copy (``copies_of``) left out, and the copies: what the equilibrium,
    α-Rank, dominance and the cycles are computed on, so that a copy neither splits a style's weight
    nor counts a style twice in an even field."""
    copies = copies_of(copy_gains(table, alpha), table.names)
    if not copies:
        return table, copies
    return table.without([table.names.index(c) for c in copies]), copies


def beats(table: MetaTable, alpha: float = ALPHA) -> pd.DataFrame:
    """For every ordered pair: ``a`` alone in a field of ``b``, a's per-seat share minus each b
    seat's in the same games; ``beats`` when its interval is above 0."""
    first, second, rows = [], [], []
    for a, b in itertools.permutations(range(table.k), 2):
        counts = np.zeros(table.k, np.int64)
        counts[a] += 1
        counts[b] += table.players - 1
        c = table.row(counts)
        first.append((c, a))
        second.append((c, b))
        rows.append({"strategy": table.names[a], "field": table.names[b]})
    found = differences(table, first, second, alpha)
    out = pd.DataFrame(rows)
    out["margin"] = [d.estimate for d in found]
    out["ci_low"] = [d.low for d in found]
    out["ci_high"] = [d.high for d in found]
    out["beats"] = out["ci_low"] > 0
    return out


def cycles(edges: pd.DataFrame) -> list[tuple[str, str, str]]:
    """Every A beats B beats C beats A (each cycle once, from its first strategy in the order given)."""
    won = {(r.strategy, r.field) for r in edges.itertuples() if r.beats}
    names = list(dict.fromkeys(edges["strategy"]))
    out = []
    for a, b, c in itertools.permutations(names, 3):
        if names.index(a) < min(names.index(b), names.index(c)) and {(a, b), (b, c), (c, a)} <= won:
            out.append((a, b, c))
    return out


# ---------------------------------------------------------------------------- seats under the mix


def seat_balance(table: MetaTable, x: np.ndarray, alpha: float = ALPHA) -> tuple[pd.DataFrame, Interval, int, int]:
    """Each seat's win share when every seat draws its strategy from ``x`` game by game: each game
    of each composition weighs in by its lineup's probability over the games that played that
    lineup; summed by game index (independent across indices), so the intervals are clustered by
    game. Returns the seats' table, and the gap between the best and the worst seat with its
    interval (Bonferroni over the seat pairs, the pair being picked after the fact) and the two
    seats."""
    p, k = table.players, table.k
    totals = np.zeros((table.n, p))
    for c in range(len(table.counts)):
        lineups = table.seat_strategy[c]
        prob = np.prod(x[lineups], axis=1)
        if not prob.any():
            continue
        code = (lineups * (k ** np.arange(p))).sum(axis=1)
        _, inverse, counts = np.unique(code, return_inverse=True, return_counts=True)
        totals += (prob / counts[inverse])[:, None] * table.seat_wins[c]
    rate = totals.sum(axis=0)
    se = np.sqrt(table.n * totals.var(axis=0, ddof=1))
    half = normal_half(se, alpha)
    seats = pd.DataFrame({"player": np.arange(1, p + 1), "win_share": rate, "ci_low": rate - half, "ci_high": rate + half})
    best, worst = int(np.argmax(rate)), int(np.argmin(rate))
    diff = totals[:, best] - totals[:, worst]
    pairs = max(p * (p - 1) // 2, 1)
    gap_half = float(normal_half(math.sqrt(table.n * diff.var(ddof=1)), alpha / pairs))
    gap = float(rate[best] - rate[worst])
    return seats, Interval(gap, gap - gap_half, gap + gap_half), best, worst


# ---------------------------------------------------------------------------- findings


def _mix(names, x, low=None, high=None) -> str:
    parts = []
    for i in np.argsort(-x, kind="stable"):
        if x[i] < UNUSED:
            continue
        ci = f" ({ci_text(low[i], high[i])})" if low is not None else ""
        parts.append(f"{names[i]} {pct(x[i])}{ci}")
    return ", ".join(parts)


@dataclass(frozen=True)
class MetaAnswer:
    """What the analysis found on one table, for the findings and the page."""

    names: tuple[str, ...]
    players: int
    equilibria: list  # every distinct equilibrium found, the most even first (the reported one)
    weights: pd.DataFrame  # strategy, weight, ci_low, ci_high, gain, gain_ci_low, gain_ci_high, mass, ..., rank...
    gains: pd.DataFrame  # switch_gains
    edges: pd.DataFrame  # beats
    seats: pd.DataFrame
    seat_gap: Interval
    best_seat: int
    worst_seat: int
    dominant: str | None
    alike: list  # pairs not told apart, not shown to be copies: said, not merged
    cycles: list
    starts: int
    copies: pd.DataFrame | None = None  # copy_records: left out of everything above (``merged``)
    far_fit: tuple | None = None  # also_fitting: (mix, distance, gains) of a mix far from the reported one the games fit


PINNED = 0.25  # another mix that fits the games further than this (half the L1 distance) from the reported one


def also_fitting(table: MetaTable, fields: Fields, x: np.ndarray, found: list) -> tuple | None:
    """The mix furthest from ``x`` (beyond PINNED) that these games do not refute as an equilibrium:
    against it no strategy is told apart as doing better than the mix (every gain's 95% interval
    reaches 0 or below), with its distance and those gains' intervals, or None. The equilibria of
    the estimated table are points, but the game's own may be a set (two strategies alike where
    they meet: any mix of them is one); the bootstrap,
    solved again near the reported mix, cannot see that. Candidates: each pure strategy, the midway
    mix from ``x`` to each, each even pair, and the other equilibria found."""
    k = table.k
    eye = np.eye(k)
    candidates = [*eye, *((x + e) / 2 for e in eye), *((eye[i] + eye[j]) / 2 for i in range(k) for j in range(i + 1, k)),
                  *found[1:]]
    best = None
    for y in candidates:
        distance = 0.5 * float(np.abs(y - x).sum())
        if distance <= PINNED or (best is not None and distance <= best[1]):
            continue
        coef = fields.gain_coefficients(y, table.counts.shape)
        gains = [linear_interval(table, coef[i]) for i in range(k)]
        if all(g.low <= 0 for g in gains):
            best = (y, distance, gains)
    return best


def analyse(table: MetaTable, resamples: int = BOOTSTRAP, seed: int = 0) -> MetaAnswer:
    """Everything the page says, from the table alone (module doc), with every copy left out
    (``merged``: the answer is the one the population without its copies gives)."""
    whole = copy_gains(table)
    found_copies = copies_of(whole, table.names)
    copies = copy_records(whole, found_copies)
    if found_copies:
        table = table.without([table.names.index(c) for c in found_copies])
    fields = Fields.of(table.counts)
    u = table.payoffs()
    found = equilibria(fields, u, seed)
    starts = len(_starts(table.k, seed))
    if not found:  # never seen: the table's own uniform mix keeps the page whole, and the finding says so
        found = [np.full(table.k, 1 / table.k)]
    x = found[0]
    coef = fields.gain_coefficients(x, table.counts.shape)
    gain = [linear_interval(table, coef[i]) for i in range(table.k)]
    boot = bootstrap(table, fields, x, resamples, seed) if resamples else None
    logs = alpha_rank_logs(table.counts, u, table.players)
    mass = masses_of(logs)
    frame = pd.DataFrame({"strategy": table.names, "weight": x,
                          "gain": [g.estimate for g in gain], "gain_ci_low": [g.low for g in gain],
                          "gain_ci_high": [g.high for g in gain], "alpha_rank_mass": mass,
                          "alpha_rank": ranks_of(logs)})
    if boot is not None:
        lo, hi = percentile_interval(boot.weights)
        frame["ci_low"], frame["ci_high"] = np.minimum(lo, x), np.maximum(hi, x)  # the estimate always inside
        lo, hi = percentile_interval(boot.mass)
        frame["mass_ci_low"], frame["mass_ci_high"] = np.minimum(lo, mass), np.maximum(hi, mass)
        lo, hi = percentile_interval(boot.ranks)
        frame["rank_low"], frame["rank_high"] = np.floor(lo).astype(int), np.ceil(hi).astype(int)
        frame["resamples_solved"] = int(np.isfinite(boot.weights[:, 0]).sum())
    gains = switch_gains(table)
    edges = beats(table)
    seats, gap, best, worst = seat_balance(table, x)
    return MetaAnswer(table.names, table.players, found, frame, gains, edges, seats, gap, best, worst,
                      dominant(gains, table.names), alike(gains, table.names), cycles(edges), starts, copies,
                      also_fitting(table, fields, x, found))


def matrix_finding(cells: pd.DataFrame, measured: str) -> Finding:
    """How the table stands against the designer's target matrix: the cells that meet, miss or are
    not settled; the furthest miss (or unsettled cell) named with its interval."""
    counts = cells["verdict"].value_counts()
    meets, misses, open_ = (int(counts.get(v, 0)) for v in ("meets", "misses", "not settled"))
    said = f"{meets} of {len(cells)} cells of the target matrix meet their targets, {misses} miss, {open_} not settled"
    worst = cells[cells["verdict"] != "meets"]
    if worst.empty:
        r = cells.iloc[0]
        return Finding("target_matrix", "low", f"{said}. Measured with {measured}.", float(r["win_share"]),
                       (float(r["ci_low"]), float(r["ci_high"])), "#targets")
    far = worst.loc[(worst["win_share"] - worst["target"]).abs().idxmax()]
    ci = (float(far["ci_low"]), float(far["ci_high"]))
    return Finding(
        "target_matrix", "high" if misses else "medium",
        f"{said}: the furthest, {far['strategy']} alone in a field of {far['field']}, wins {pct(far['win_share'])} "
        f"({ci_text(*ci)}) for a target of {pct(far['target'])} +- {pct(far['tolerance'])}. Measured with {measured}.",
        float(far["win_share"]), ci, "#targets")


def meta_findings(answer: MetaAnswer, th: dict, measured: str, cells: pd.DataFrame | None = None) -> list[Finding]:
    """The metagame in plain words (docs/meta.md, "Findings"); each sentence from its numbers."""
    out = [] if cells is None else [matrix_finding(cells, measured)]
    names, p = answer.names, answer.players
    w = answer.weights.set_index("strategy")
    margin = th["dominance_margin"]
    if answer.dominant is not None:
        d = answer.dominant
        mine = answer.gains[answer.gains["strategy"] == d]
        worst = mine.sort_values("gain").iloc[0]
        ci = (float(worst["ci_low"]), float(worst["ci_high"]))
        out.append(Finding(
            "dominant_strategy", severity(float(worst["gain"]), ci, margin),
            f"{d} is the best choice whatever the others play: against every field of the other {p - 1} "
            f"seat{'s' if p > 2 else ''} a seat wins more playing {d} than playing any other strategy, by at least "
            f"{pp(worst['gain'])} ({ci_text(*ci, fmt=pp)}, instead of {worst['instead_of']} against "
            f"{worst['field']}); every other strategy is dominated by it. Measured with {measured}.",
            float(worst["gain"]), ci, "#field"))
    x = answer.equilibria[0]
    has_ci = "ci_low" in w.columns
    top = int(np.argmax(x))
    ci = (float(w["ci_low"].iloc[top]), float(w["ci_high"].iloc[top])) if has_ci else None
    evens = sum(entropy(e) > entropy(x) - 1e-9 for e in answer.equilibria)  # as even as the first
    kind = (f"the only equilibrium found from {answer.starts} starts" if len(answer.equilibria) == 1 else
            f"the most even of {len(answer.equilibria)} equilibria found" if evens == 1 else
            f"the first found of {evens} equally even equilibria, of {len(answer.equilibria)} found")
    mix = _mix(names, x, w["ci_low"].to_numpy() if has_ci else None, w["ci_high"].to_numpy() if has_ci else None)
    out.append(Finding(
        "equilibrium", "medium" if x.max() > 1 - UNUSED else "low",
        f"Players who adapt settle on {mix} ({kind}"
        f"{'; intervals from resampled games' if has_ci else ''}). Measured with {measured}.", float(x[top]), ci, "#equilibrium"))
    better = [(names[i], float(w["gain"].iloc[i]), float(w["gain_ci_low"].iloc[i]), float(w["gain_ci_high"].iloc[i]))
              for i in range(len(names)) if w["gain_ci_low"].iloc[i] > 0]
    if better:
        name, g, lo, hi = max(better, key=lambda b: b[1])
        out.append(Finding(
            "equilibrium_not_confirmed", "medium",
            f"The mix found is not confirmed as an equilibrium: {name} does better against it than the mix itself, "
            f"by {pp(g)} ({ci_text(lo, hi, fmt=pp)}).", g, (lo, hi), "#equilibrium"))
    if answer.far_fit is not None:
        y, distance, fit_gains = answer.far_fit
        out.append(Finding(
            "equilibrium_not_pinned", "low",
            f"These games do not pin the mix down: {_mix(names, y)} fits them as an equilibrium too (against it no "
            f"strategy is told apart as doing better than the mix: each gain's 95% CI reaches 0), "
            f"{100 * distance:.0f} points of weight away from the mix found. Players who adapt may settle anywhere "
            f"between them: the game's equilibria may form a set (strategies alike where they meet), or more games "
            f"would narrow it. Measured with {measured}.", distance, None, "#equilibrium",
            # each strategy's gain against that mix: none clear of 0 (the claim each would allow is not made)
            decided_by=tuple(cleared(g.estimate, g.low, g.high, 0.0, f"{names[i]} does better against it than the mix")
                             for i, g in enumerate(fit_gains))))
    if len(answer.equilibria) > 1:
        listed = "; ".join(_mix(names, e) for e in answer.equilibria)
        out.append(Finding(
            "equilibria_not_unique", "low",
            f"The equilibrium is not unique: {len(answer.equilibria)} found ({listed}); the page reports the first "
            "of them, the most even (the highest entropy), not one start's pick.", float(len(answer.equilibria)), None, "#equilibrium"))
    never = [i for i in range(len(names)) if all(e[i] < UNUSED for e in answer.equilibria)]
    unused = [i for i in never if w["gain_ci_high"].iloc[i] < 0]
    # An unused strategy whose gain against the mix is not told apart from 0 (nor above it: that is
    # "not confirmed") is a near tie: "settle on bold 100%" must not read as if it were out.
    close = [i for i in never if w["gain_ci_low"].iloc[i] <= 0 <= w["gain_ci_high"].iloc[i]]
    if close:
        said = []
        for i in close:
            weight = (f", its weight {pct(w['weight'].iloc[i])} ({ci_text(w['ci_low'].iloc[i], w['ci_high'].iloc[i])})"
                      if has_ci else "")
            said.append(f"for {names[i]} gains {pp(w['gain'].iloc[i])} "
                        f"({ci_text(w['gain_ci_low'].iloc[i], w['gain_ci_high'].iloc[i], fmt=pp)}, across 0){weight}")
        nearest = max(close, key=lambda i: w["gain"].iloc[i])
        ci = (float(w["gain_ci_low"].iloc[nearest]), float(w["gain_ci_high"].iloc[nearest]))
        listed = ", ".join(names[i] for i in close)
        one = len(close) == 1
        out.append(Finding(
            "unused_not_told_apart", "low",
            f"No equilibrium found uses {listed}, yet {'it is' if one else 'none is'} not told apart from the mix: "
            f"a seat that leaves the mix {'; '.join(said)}. The mix found does not rule {'it' if one else 'them'} out: players who adapt may play "
            f"{'it' if one else 'them'} as well, at no cost these games can see. Measured with {measured}.",
            float(w["gain"].iloc[nearest]), ci, "#equilibrium",
            decided_by=tuple(cleared(float(w["gain"].iloc[i]), float(w["gain_ci_low"].iloc[i]),
                                     float(w["gain_ci_high"].iloc[i]), 0.0, LESS_THAN_THE_MIX, side="below")
                             for i in close)))
    if unused:
        nearest = max(unused, key=lambda i: w["gain"].iloc[i])
        ci = (float(w["gain_ci_low"].iloc[nearest]), float(w["gain_ci_high"].iloc[nearest]))
        listed = ", ".join(names[i] for i in unused)
        by = f" (each dominated by {answer.dominant})" if answer.dominant is not None else ""
        out.append(Finding(
            "dominated_strategies", severity(float(w["gain"].iloc[nearest]), ci, margin),
            f"No equilibrium uses {listed}{by}: against the equilibrium mix each {LESS_THAN_THE_MIX}; a seat that "
            f"leaves the mix for the nearest, {names[nearest]}, gains {pp(w['gain'].iloc[nearest])} "
            f"({ci_text(*ci, fmt=pp)}). Measured with {measured}.", float(w["gain"].iloc[nearest]), ci, "#equilibrium",
            decided_by=tuple(cleared(float(w["gain"].iloc[i]), float(w["gain_ci_low"].iloc[i]),
                                     float(w["gain_ci_high"].iloc[i]), 0.0, LESS_THAN_THE_MIX, side="below")
                             for i in unused)))
    edges = answer.edges.set_index(["strategy", "field"])
    twins = {b for _, b in answer.alike}  # a cycle through a copy of a strategy is the same cycle again
    for a, b, c in [cyc for cyc in answer.cycles if not twins & set(cyc)][:3]:
        links = [edges.loc[(a, b)], edges.loc[(b, c)], edges.loc[(c, a)]]
        weakest = min(links, key=lambda r: r["margin"])
        ci = (float(weakest["ci_low"]), float(weakest["ci_high"]))
        said = "; ".join(f"{s} by {pp(r['margin'])} ({ci_text(r['ci_low'], r['ci_high'], fmt=pp)})"
                         for s, r in zip((a, b, c), links, strict=True))
        out.append(Finding(
            "cycle", "low",
            f"{a} beats {b} beats {c} beats {a}: alone at a table of the next, each wins more per seat than the "
            f"others' seats ({said}). No style is best against every other: a healthy cycle. Measured with {measured}.",
            float(weakest["margin"]), ci, "#field",
            decided_by=tuple(cleared(float(r["margin"]), float(r["ci_low"]), float(r["ci_high"]), 0.0, "beats")
                             for r in links)))
    copies = answer.copies if answer.copies is not None else pd.DataFrame(columns=["copy"])
    for r in copies.itertuples():
        ci = (r.ci_low, r.ci_high)
        out.append(Finding(
            "copies_merged", "low",
            f"{r.copy} plays as {r.plays_as} (payoff rows equal within their intervals: no field tells a seat's "
            f"switch between them apart from 0, each within {100 * COPY_WITHIN:.0f} points either way, the widest "
            f"{pp(r.largest_difference)}, {ci_text(*ci, fmt=pp)} against {r.field}): counted once, as {r.plays_as}; the equilibrium, α-Rank, dominance and the cycles "
            f"are those of {', '.join(names)}. Measured with {measured}.",
            r.largest_difference, ci, "#payoffs"))
    for a, b in answer.alike:
        pair = answer.gains[(answer.gains["strategy"] == a) & (answer.gains["instead_of"] == b)]
        far = pair.loc[pair["gain"].abs().idxmax()]
        ci = (float(far["ci_low"]), float(far["ci_high"]))
        out.append(Finding(
            "alike_strategies", "low",
            f"{a} and {b} play alike as far as these games tell: against every field their win shares agree "
            f"within their intervals (the largest difference {pp(far['gain'])}, {ci_text(*ci, fmt=pp)}); the "
            f"equilibrium may trade weight between them. Measured with {measured}.",
            float(far["gain"]), ci, "#payoffs"))
    gap = answer.seat_gap
    b, wst = answer.best_seat, answer.worst_seat
    seats = answer.seats
    rate = seats["win_share"].to_numpy()
    if gap.low > 0:
        text = (f"Under the equilibrium mix (each seat drawing its strategy from it game by game) player {b + 1} "
                f"wins {pct(rate[b])} ({ci_text(seats['ci_low'][b], seats['ci_high'][b])}) and player {wst + 1} "
                f"{pct(rate[wst])}: a gap of {pp(gap.estimate)} ({ci_text(gap.low, gap.high, fmt=pp)}). This is the "
                f"seat finding to believe when players adapt. Measured with {measured}.")
    elif b == wst:  # every seat's share the same to the last digit: no pair to name (QA: "player 1 over player 1")
        text = (f"Under the equilibrium mix (each seat drawing its strategy from it game by game) every seat wins "
                f"{pct(rate[b])} of the games: the seats are even, a gap of {pp(gap.estimate)} "
                f"({ci_text(gap.low, gap.high, fmt=pp)}). Measured with {measured}.")
    else:
        text = (f"Under the equilibrium mix (each seat drawing its strategy from it game by game) the seats are "
                f"even within the intervals: the widest gap, player {b + 1} over player {wst + 1}, is "
                f"{pp(gap.estimate)} ({ci_text(gap.low, gap.high, fmt=pp)}). Measured with {measured}.")
    out.append(Finding("seat_balance_equilibrium", severity(gap.estimate, (gap.low, gap.high), th["seat_gap_min"]),
                       text, gap.estimate, (gap.low, gap.high), "#seats"))
    return ordered(out)


__all__ = ["ALPHA_RANK", "BOOTSTRAP", "POPULATION", "Bootstrap", "Fields", "MetaTable", "alike", "alpha_rank", "alpha_rank_logs",
           "beats", "bootstrap", "composition_label", "compositions", "copies_of", "copy_records", "cycles", "merged", "differences", "dominant", "entropy",
           "equilibria", "analyse", "meta_findings", "MetaAnswer", "field_matrix", "linear_interval", "payoff_records", "percentile_interval",
           "dominance", "judge_matrix", "meta_test", "needed_compositions", "field_cell", "cell_metric",
           "cell_of", "field_composition", "matrix_finding", "read_target_matrix", "ranks_of", "seat_balance", "solve", "switch_gains"]
