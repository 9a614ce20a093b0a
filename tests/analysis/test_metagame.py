"""The metagame's pure functions (analysis/meta.py) on payoff tables whose answer is known exactly:
no game is played here (tests/studies/test_meta_study.py plays the planted games)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from simbalance.analysis.meta import (
    Fields,
    MetaTable,
    _gth_logs,
    alpha_rank,
    alpha_rank_logs,
    compositions,
    equilibria,
    ranks_of,
    seat_balance,
)


def duel_table(edges: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The exact two-seat payoff table of win probabilities 1/2 + edges[i, j]."""
    counts = compositions(len(edges), 2)
    u = np.full(counts.shape, np.nan)
    for c, row in enumerate(counts):
        a, b = [i for i in range(len(edges)) for _ in range(row[i])]
        u[c, a], u[c, b] = 0.5 + edges[a, b], 0.5 + edges[b, a]
    return counts, u


def rps(a: float, b: float, c: float) -> np.ndarray:
    edges = np.zeros((3, 3))
    edges[0, 1], edges[1, 2], edges[2, 0] = a, b, c
    return edges - edges.T


@pytest.mark.parametrize("margins", [(0.2, 0.1, 0.3), (0.1, 0.1, 0.1), (0.05, 0.3, 0.15)])
def test_the_equilibrium_of_rock_paper_scissors_is_the_known_one_and_the_only_one(margins):
    counts, u = duel_table(rps(*margins))
    a, b, c = margins
    known = np.array([b, c, a]) / (a + b + c)  # x_i proportional to the edge of the pair without i
    found = equilibria(Fields.of(counts), u)
    assert len(found) == 1
    assert np.allclose(found[0], known, atol=1e-4), (found[0], known)


def test_a_dominant_strategy_is_the_pure_equilibrium_and_alpha_rank_puts_it_first():
    edges = rps(0.2, 0.1, -0.3)  # alpha beats beta and gamma
    counts, u = duel_table(edges)
    found = equilibria(Fields.of(counts), u)
    assert len(found) == 1 and np.allclose(found[0], [1, 0, 0], atol=1e-6)
    mass = alpha_rank(counts, u, 2)
    assert mass[0] > 0.99 and list(ranks_of(alpha_rank_logs(counts, u, 2))) == [1, 2, 3]


def test_the_stationary_masses_keep_their_relative_precision_far_below_the_largest():
    # a birth-death chain 0 <-> 1 <-> 2: detailed balance gives pi_{i+1} / pi_i = up_i / down_i exactly,
    # here e^-700 and e^-300 (an eigenvector solver returns both as noise near 1e-17)
    log_up, log_down = np.array([-700.0 - math.log(2), -300.0 - math.log(3)]), np.array([-math.log(2), -math.log(3)])
    chain = np.full((3, 3), -np.inf)
    chain[0, 1], chain[1, 2] = log_up
    chain[1, 0], chain[2, 1] = log_down
    logs = _gth_logs(chain)
    assert np.allclose(logs - logs[0], [0.0, -700.0, -1000.0], rtol=0, atol=1e-9)


def test_alpha_rank_orders_the_strategies_it_passes_by_and_ties_only_true_equals():
    # alpha beats everything; beta and gamma are the same strategy twice (rows and columns equal) and
    # beat delta: alpha first, beta and gamma share rank 2 whatever their order, delta last
    edges = np.zeros((4, 4))
    edges[0, 1:] = 0.2
    edges[1:3, 3] = 0.1
    edges = edges - edges.T
    for order in itertools.permutations(range(4)):
        counts, u = duel_table(edges[np.ix_(order, order)])
        ranks = ranks_of(alpha_rank_logs(counts, u, 2))
        assert [int(ranks[order.index(i)]) for i in range(4)] == [1, 2, 2, 4], order


def test_a_coordination_game_has_several_equilibria_and_all_are_reported():
    # a seat does best matching the other (half the wins at a table of one kind, 30% at a mixed one):
    # two pure equilibria and a mixed one
    counts = compositions(2, 2)
    u = np.array([[0.5, np.nan], [0.3, 0.3], [np.nan, 0.5]])  # a mixed table is bad for both
    found = equilibria(Fields.of(counts), u)
    pure = [x for x in found if x.max() > 0.999]
    assert len(pure) == 2 and len(found) == 3  # both pure ones and the mixed one (the most even, first)
    assert np.allclose(found[0], [0.5, 0.5], atol=1e-3)


def test_the_field_payoffs_are_the_multinomial_sum_over_ordered_fields():
    rng = np.random.default_rng(3)
    k, players = 3, 4
    counts = compositions(k, players)
    u = np.where(counts > 0, rng.random(counts.shape), np.nan)
    rows = {tuple(r): c for c, r in enumerate(counts)}
    x = np.array([0.2, 0.5, 0.3])
    f = Fields.of(counts).payoffs(u, x)
    for i in range(k):
        brute = 0.0
        for others in itertools.product(range(k), repeat=players - 1):  # every ordered field
            row = np.bincount([i, *others], minlength=k)
            brute += math.prod(x[o] for o in others) * u[rows[tuple(row)], i]
        assert f[i] == pytest.approx(brute, abs=1e-12)


def reference_alpha_rank(u_pair, k: int, alpha: float, m: int) -> np.ndarray:
    """OpenSpiel's single-population α-Rank for two seats (egt/alpharank.py, _get_rho_sr, not
    constant-sum, global selection), written out loop by loop from the paper's formula."""
    def fit(me, other, mine):
        return ((mine - 1) / (m - 1) * u_pair(me, me) + (m - mine) / (m - 1) * u_pair(me, other))

    chain = np.zeros((k, k))
    for s in range(k):
        for r in range(k):
            if r == s:
                continue
            summed = 0.0
            for level in range(1, m):
                product = 1.0
                for p_r in range(1, level + 1):
                    product *= math.exp(-alpha * (fit(r, s, p_r) - fit(s, r, m - p_r)))
                summed += product
            chain[s, r] = 1 / (1 + summed) / (k - 1)
        chain[s, s] = 1 - chain[s].sum()
    values, vectors = np.linalg.eig(chain.T)
    pi = np.abs(np.real(vectors[:, np.argmin(np.abs(values - 1))]))
    return pi / pi.sum()


@pytest.mark.parametrize("alpha", [0.5, 5.0, 30.0])
def test_alpha_rank_is_openspiel_s_formula_for_two_seats(alpha):
    rng = np.random.default_rng(7)
    k = 4
    p = rng.uniform(0.2, 0.8, (k, k))
    edges = (p - p.T) / 2  # an antisymmetric table plus an uneven mirror below
    counts, u = duel_table(edges)
    mirror = rng.uniform(0.3, 0.6, k)
    for i in range(k):
        row = np.zeros(k, np.int64)
        row[i] = 2
        u[[c for c, r in enumerate(counts) if (r == row).all()][0], i] = mirror[i]

    def u_pair(me, other):
        if me == other:
            return mirror[me]
        return 0.5 + edges[me, other]

    ours = alpha_rank(counts, u, 2, alpha=alpha, population=20)
    assert np.allclose(ours, reference_alpha_rank(u_pair, k, alpha, 20), atol=1e-9)


def test_seat_balance_under_the_mix_weighs_each_lineup_by_its_probability():
    # two strategies, two seats; seat 0 always wins when it holds strategy 0, else seat 1 wins
    names, players, n = ("a", "b"), 2, 40
    counts = compositions(2, 2)
    seat_strategy = np.zeros((len(counts), n, players), np.int64)
    seat_wins = np.zeros((len(counts), n, players))
    wins = np.zeros((len(counts), 2, n))
    for c, row in enumerate(counts):
        base = [i for i in range(2) for _ in range(row[i])]
        seatings = sorted(set(itertools.permutations(base)))
        for g in range(n):
            lineup = seatings[g % len(seatings)]
            seat_strategy[c, g] = lineup
            winner = 0 if lineup[0] == 0 else 1
            seat_wins[c, g, winner] = 1
            wins[c, lineup[winner], g] += 1
    table = MetaTable(names, players, counts, wins, seat_wins, seat_strategy)
    x = np.array([0.3, 0.7])
    seats, gap, best, worst = seat_balance(table, x)
    assert seats["win_share"].tolist() == pytest.approx([0.3, 0.7])  # player 1 wins exactly when it holds a
    assert (best, worst) == (1, 0) and gap.estimate == pytest.approx(0.4)


@pytest.mark.parametrize("rare", [0.5, 0.7])
def test_three_seats_a_style_that_pays_when_rare_settles_where_both_pay_alike(rare):
    # two styles at three seats; a style alone at the table earns ``rare``, two of a kind 0.25 each,
    # three of a kind nothing: no pure equilibrium, one mixed one where both styles earn alike
    counts = compositions(2, 3)  # (3, 0), (2, 1), (1, 2), (0, 3)
    u = np.array([[0.0, np.nan], [0.25, rare], [rare, 0.25], [np.nan, 0.0]])
    found = equilibria(Fields.of(counts), u)
    assert len(found) == 1
    a = found[0][0]
    # f_a = 2 a b 0.25 + b^2 rare and f_b = a^2 rare + 2 a b 0.25 are equal exactly at a = 1/2
    assert a == pytest.approx(0.5, abs=1e-4)
    f = Fields.of(counts).payoffs(u, found[0])
    assert f[0] == pytest.approx(f[1], abs=1e-6)


@pytest.mark.parametrize(("k", "players"), [(3, 2), (3, 4), (8, 2), (9, 3)])
def test_a_mix_s_numbers_are_the_same_to_the_last_digit_alone_or_among_other_rows(k, players):
    """The solver moves the bootstrap's resamples (and the starts) together as rows (issue 56): a
    row's replicator average, gains and Nash value must be those it gets alone, bit for bit, or a
    resample's answer would depend on the others. At 8 strategies and more numpy sums a row
    pairwise only when it lies contiguous (a transposed ``by_strategy`` once moved SLSQP's path)."""
    from simbalance.analysis.meta import _replicator_averages

    rng = np.random.default_rng(k * 10 + players)
    counts = compositions(k, players)
    fields = Fields.of(counts)
    tables = np.where(counts > 0, rng.random((6, *counts.shape)), np.nan)
    values = fields.values(tables)
    starts = rng.dirichlet(np.ones(k), 6)
    together = _replicator_averages(fields, values, starts, 50, 2.0)
    for r in range(6):
        alone = _replicator_averages(fields, fields.values(tables[r]), starts[r][None], 50, 2.0)[0]
        assert np.array_equal(together[r], alone)
        assert np.array_equal(fields.gains_of(values, starts)[r], fields.gains(tables[r], starts[r]))
        assert np.array_equal(fields.nash(values, starts)[r], fields.nash(values[r], starts[r]))


@pytest.mark.parametrize("k", [3, 8])
def test_the_polish_s_gradient_is_the_one_slsqp_took_by_itself(k):
    """``_polish`` hands SLSQP its own forward differences (scipy's approx_derivative, '2-point',
    the absolute step ``eps``, stepping back at the bound 1), computed in one call: the same numbers
    to the last digit, so SLSQP's path and the support it finds are those it found alone."""
    from scipy.optimize._numdiff import approx_derivative

    from simbalance.analysis.meta import SLSQP_STEP, _forward_differences

    rng = np.random.default_rng(k)
    counts = compositions(k, 2)
    fields = Fields.of(counts)
    values = fields.values(np.where(counts > 0, rng.random(counts.shape), np.nan))
    points = [rng.dirichlet(np.ones(k)) for _ in range(5)] + [np.eye(k)[0], np.full(k, 1 / k)]
    points[0][0] = 1 - SLSQP_STEP / 2  # a step up would cross 1: the difference steps back
    for x in points:
        moved, dx = _forward_differences(x)
        ours = (fields.nash(values, moved) - fields.nash(values, x)) / dx
        theirs = approx_derivative(lambda y: float(fields.nash(values, y)), x, method="2-point",
                                   abs_step=SLSQP_STEP, bounds=(np.zeros(k), np.ones(k)))
        assert np.array_equal(ours, theirs)
