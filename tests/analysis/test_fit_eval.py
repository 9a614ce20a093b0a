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
    kernel_weights,
    log_loss,
    no_winner_share,
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
    weights, _, info = fit_logit(feats, final, l2=1e-6)
    assert info["converged"]
    np.testing.assert_allclose(weights[:-2], truth[:-2], atol=0.05, rtol=0.08)
    assert abs(weights[-2]) < 0.02  # a feature with no effect
    assert weights[-1] == 0.0  # the same for every seat: no information, no weight (it never varies within a position)


def test_a_constant_feature_gets_no_weight_and_shared_wins_fit_too():
    truth = np.array([1.0, -0.7, 0.0])
    feats, final = planted(20_000, 3, truth, seed=2, shared=0.3)
    feats[:, :, 2] = 5.0  # never varies at all
    weights, _, _ = fit_logit(feats, final, l2=1e-6)
    assert weights[2] == 0.0
    assert weights[0] > 0.7 and weights[1] < -0.4  # a shared win still points to the stronger seats


def test_the_fit_beats_uniform_on_held_out_positions_and_is_calibrated():
    truth = np.array([0.9, -0.4])
    feats, final = planted(30_000, 4, truth, seed=3)
    held = holdout_games(len(feats), seed=4)
    assert held.sum() == 6000
    weights, _, _ = fit_logit(feats[~held], final[~held])
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
    weights, _, info = fit_logit(feats, final, l2=1e-6, signs=[1, 1, -1, 0])
    assert weights[1] == 0.0 and weights[2] == 0.0  # their truth is on the other side of the bound
    assert 0.7 < weights[0] < 0.9
    free, _, _ = fit_logit(feats, final, l2=1e-6, signs=[1, -1, 1, 0])  # bounds the truth lies within change nothing
    np.testing.assert_allclose(free[:3], truth[:3], atol=0.05)


def stalling(n, players, weights, no_winner, seed):
    """Planted positions whose game may end with no winner: outcome drawn among the seats and "no
    winner" (all final shares 0) by the model with the no-winner alternative."""
    rng = np.random.default_rng(seed)
    feats = rng.normal(size=(n, players, len(weights)))
    p = softmax_shares(feats, weights, no_winner)
    final = np.zeros((n, players))
    for i in range(n):
        out = rng.choice(players + 1, p=np.append(p[i], 1.0 - p[i].sum()))
        if out < players:
            final[i, out] = 1.0
    return feats, final


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_games_with_no_winner_are_fitted_and_their_cause_is_found(seed):
    # Planted: the first feature raises a seat's chance, the seats' mean of the second feature
    # raises the chance that nobody wins (issue 53: such games were dropped, the fit saw no stall).
    truth = np.array([1.0, 0.0, 0.4])
    no_winner = {"intercept": -0.8, "weights": [0.0, 1.5, 0.0]}
    feats, final = stalling(30_000, 4, truth, no_winner, seed)
    assert 0.15 < (final.sum(axis=1) == 0).mean() < 0.6
    weights, fitted, info = fit_logit(feats, final, l2=1e-6)
    assert info["converged"] and fitted is not None
    np.testing.assert_allclose(weights, truth, atol=0.06)
    np.testing.assert_allclose(fitted["weights"], no_winner["weights"], atol=0.08)
    assert fitted["intercept"] == pytest.approx(no_winner["intercept"], abs=0.08)
    share = no_winner_share(feats, weights, fitted)
    assert share.mean() == pytest.approx((final.sum(axis=1) == 0).mean(), abs=0.01)
    # the kernel's vector holds the same model: [w, v, b], and -inf for "no such alternative"
    vector = kernel_weights(weights, fitted)
    assert vector[-1] == fitted["intercept"] and list(vector[3:6]) == fitted["weights"]
    assert kernel_weights(weights, None)[-1] == -np.inf


def test_without_a_game_with_no_winner_there_is_no_such_alternative():
    feats, final = planted(5_000, 4, np.array([0.5, 0.0]), seed=7)
    _, fitted, _ = fit_logit(feats, final)
    assert fitted is None
    np.testing.assert_allclose(softmax_shares(feats, np.array([0.5, 0.0])).sum(axis=1), 1.0)
