"""The fitted evaluation's statistics (analysis/fit_eval.py): the conditional logit recovers
planted weights, and the held-out measures say what they should."""

from __future__ import annotations

import numpy as np
import pytest

from simbalance.analysis.fit_eval import (
    accuracy,
    calibration,
    fit_logit,
    holdout_games,
    log_loss,
    softmax_shares,
)


def planted(n: int, players: int, weights: np.ndarray, seed: int, scales=None, shared: float = 0.0):
    """Positions of planted conditional-logit data: features at very different scales (and one the
    same for every seat of a position: it cancels), the winner drawn from the softmax; with
    ``shared``, that share of the positions is a two-way shared win of the two likeliest seats."""
    rng = np.random.default_rng(seed)
    k = len(weights)
    scales = np.ones(k) if scales is None else np.asarray(scales)
    feats = rng.normal(size=(n, players, k)) * scales
    feats[:, :, -1] = rng.normal(size=(n, 1)) * scales[-1]  # the same for every seat: no information
    p = softmax_shares(feats, weights)
    final = np.zeros((n, players))
    for i in range(n):
        final[i, rng.choice(players, p=p[i])] = 1.0
        if rng.random() < shared:
            two = np.argsort(-p[i])[:2]
            final[i] = 0.0
            final[i, two] = 0.5
    return feats, final


def test_the_fit_recovers_planted_weights():
    truth = np.array([0.8, -0.5, 0.02, 0.0, 0.3])
    scales = [1.0, 2.0, 50.0, 1.0, 10.0]  # standardized inside the fit, given back in the features' units
    feats, final = planted(40_000, 4, np.append(truth[:-1], 0.0), seed=1, scales=scales)
    weights, info = fit_logit(feats, final, l2=1e-6)
    assert info["converged"]
    np.testing.assert_allclose(weights[:-2], truth[:-2], atol=0.05, rtol=0.08)
    assert abs(weights[-2]) < 0.02  # a feature with no effect
    assert weights[-1] == 0.0  # the same for every seat: no information, no weight (it never varies within a position)


def test_a_constant_feature_gets_no_weight_and_shared_wins_fit_too():
    truth = np.array([1.0, -0.7, 0.0])
    feats, final = planted(20_000, 3, truth, seed=2, shared=0.3)
    feats[:, :, 2] = 5.0  # never varies at all
    weights, _ = fit_logit(feats, final, l2=1e-6)
    assert weights[2] == 0.0
    assert weights[0] > 0.7 and weights[1] < -0.4  # a shared win still points to the stronger seats


def test_the_fit_beats_uniform_on_held_out_positions_and_is_calibrated():
    truth = np.array([0.9, -0.4])
    feats, final = planted(30_000, 4, truth, seed=3)
    held = holdout_games(len(feats), seed=4)
    assert held.sum() == 6000
    weights, _ = fit_logit(feats[~held], final[~held])
    pred = softmax_shares(feats[held], weights)
    np.testing.assert_allclose(pred.sum(axis=1), 1.0)
    assert log_loss(pred, final[held]) < np.log(4) - 0.05
    assert accuracy(pred, final[held]) > 0.3
    rows = calibration(pred, final[held])
    assert len(rows) == 10 and sum(r["n"] for r in rows) == pred.size
    for r in rows:  # planted data: observed within a few points of predicted in every decile
        assert abs(r["observed"] - r["predicted"]) < 0.04, r


def test_measures_on_a_hand_made_case():
    pred = np.array([[0.7, 0.2, 0.1], [0.2, 0.5, 0.3], [0.0, 1.0, 0.0]])
    final = np.array([[1.0, 0.0, 0.0], [0.5, 0.0, 0.5], [1.0, 0.0, 0.0]])
    assert accuracy(pred, final) == pytest.approx(1 / 3)
    # a predicted 0 for the winner costs -log(PROB_FLOOR), not infinity
    assert np.isfinite(log_loss(pred, final))
    assert log_loss(pred[:1], final[:1]) == pytest.approx(-np.log(0.7))


def test_no_position_is_an_error():
    with pytest.raises(ValueError, match="no position"):
        fit_logit(np.zeros((0, 3, 2)), np.zeros((0, 3)))


def test_a_sign_bound_holds_and_leaves_the_free_weights_near_the_truth():
    truth = np.array([0.8, -0.5, 0.3, 0.0])  # (planted's last feature is the same for every seat)
    feats, final = planted(30_000, 4, truth, seed=6)
    weights, info = fit_logit(feats, final, l2=1e-6, signs=[1, 1, -1, 0])
    assert weights[1] == 0.0 and weights[2] == 0.0  # their truth is on the other side of the bound
    assert 0.7 < weights[0] < 0.9
    free, _ = fit_logit(feats, final, l2=1e-6, signs=[1, -1, 1, 0])  # bounds the truth lies within change nothing
    np.testing.assert_allclose(free[:3], truth[:3], atol=0.05)
