"""The fitted evaluation's statistics (``simbalance fit-eval``; docs/strategies.md, "The fitted
evaluation"): a conditional logit shared by the seats, fitted by maximum likelihood to each seat's
final share of the win, and how well it (and the game's hand-written evaluation) predicts held-out
games.

The model: at a position, seat s's utility is u_s = w . f_s (f_s: its features), and its predicted
share of the win p_s = exp(u_s) / sum_q exp(u_q). The data: for every recorded position, every
seat's features and its final share y_s (1 for a win, 1/k for a k-way shared win, 0; the shares of
a position sum to 1, or to 0 for a game with no winner). A game with no winner (a stalemate, a
timeout) is the outcome of a "no winner" alternative with utility u_0 = b + v . (the seats' mean
features), so p_s = exp(u_s) / (exp(u_0) + sum_q exp(u_q)): since issue 53 such games are fitted,
not dropped, and a search scoring its cut play-outs by the fit sees a stall coming. The
log-likelihood sum_positions (sum_s y_s log p_s + y_0 log p_0) is concave in (w, v, b); with a
small L2 penalty (not on b) it has one maximum, which L-BFGS finds from 0 with the analytic
gradient.

The features are standardized for the fit (each divided by the standard deviation of its
differences between the seats of a position: anything the same for every seat of a position cancels
in the softmax), so that one penalty suits features of any scale and the optimizer sees a round
problem; the weights are then divided back, so the kernel multiplies raw features. A feature that
never differs between the seats of a position gets weight 0.

**Signs.** A game may bound a weight's sign (``search_nb.FEATURE_SIGNS``): a feature the rules make
good for its seat (points, majorities, missions) may not get a negative weight. Fitted to
heuristic games without them, captain-future's evaluation weighed ships on the board negatively
at equal bonuses (a correlation: more ships for the same bonuses are worse-placed ones), a lever for
a search that maximizes the evaluation to hold its ships back (it played far worse); the bounds
cost the fit little likelihood (the held-out log-loss in eval.json) and take such levers away.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import minimize

L2 = 1e-3  # penalty on the standardized weights, per position: (L2 / 2) |w|^2 against the mean log-likelihood
PROB_FLOOR = 1e-6  # a predicted share is taken as at least this in the log-loss (a hand-written 0 stays finite)
CALIBRATION_BINS = 10


def softmax_shares(feats: np.ndarray, weights: np.ndarray, no_winner: dict | None = None) -> np.ndarray:
    """Predicted shares (positions, seats) of features (positions, seats, features) under ``weights``
    (the kernel's players/common_nb.fitted_shares, in numpy). With ``no_winner`` (``{"intercept": b,
    "weights": v}``) the "no winner" alternative u_0 = b + v . (the seats' mean features) takes its
    share too, and the seats' shares sum to 1 minus it (``no_winner_share``)."""
    u = feats @ weights
    u0 = _no_winner_utility(feats, no_winner)
    top = np.maximum(u.max(axis=1), u0)
    e = np.exp(u - top[:, None])
    return e / (e.sum(axis=1) + np.exp(u0 - top))[:, None]


def no_winner_share(feats: np.ndarray, weights: np.ndarray, no_winner: dict | None) -> np.ndarray:
    """The predicted chance (per position) that the game ends with no winner: 1 minus the seats' shares."""
    return 1.0 - softmax_shares(feats, weights, no_winner).sum(axis=1)


def _no_winner_utility(feats: np.ndarray, no_winner: dict | None) -> np.ndarray:
    if no_winner is None:
        return np.full(len(feats), -np.inf)
    return no_winner["intercept"] + feats.mean(axis=1) @ np.asarray(no_winner["weights"], np.float64)


def kernel_weights(weights, no_winner: dict | None) -> np.ndarray:
    """The vector the search kernel takes (players/common_nb.fitted_shares): ``[w, v, b]``, the
    seats' weights, the "no winner" weights on the seats' mean features and its intercept (b =
    -inf and v = 0 when the fit has no such alternative: the seats' shares then sum to 1)."""
    w = np.asarray(weights, np.float64)
    if no_winner is None:
        return np.concatenate([w, np.zeros_like(w), [-np.inf]])
    return np.concatenate([w, np.asarray(no_winner["weights"], np.float64), [float(no_winner["intercept"])]])


def fit_logit(feats: np.ndarray, final: np.ndarray, l2: float = L2, signs=None) -> tuple[np.ndarray, dict | None, dict]:
    """The weights (raw features' units) that maximize the penalized mean log-likelihood of the
    final shares ``final`` (positions, seats) given ``feats`` (positions, seats, features), each
    weight of the sign ``signs`` allows (1: at least 0, -1: at most 0, 0 or None: either); the "no
    winner" alternative (None when every position's game had a winner); and what the optimizer said
    (iterations, converged).

    A row of ``final`` that sums to 0 is a game that ended with no winner (a stalemate, a
    timeout): its position is fitted as the "no winner" alternative's, whose utility is u_0 = b +
    v . (the seats' mean features). Leaving such games out (as before issue 53) taught the evaluation
    nothing about what stalls a game, and a search maximizing it walked into stalemates."""
    n, _, k = feats.shape
    if n == 0:
        raise ValueError("no position to fit")
    # Only the differences between the seats of a position count: scale by their spread, and a
    # feature that never differs between seats (the turn, say) gets no weight.
    sd = (feats - feats.mean(axis=1, keepdims=True)).reshape(-1, k).std(axis=0)
    scale = np.where(sd > 1e-12, sd, 1.0)
    z = feats / scale
    varies = sd > 1e-12
    # The "no winner" alternative reads the seats' mean features: they differ between positions.
    stalled = (final.sum(axis=1) <= 0).astype(np.float64)
    with_none = bool(stalled.any())
    mean = feats.mean(axis=1)
    mean_sd = mean.std(axis=0)
    mean_scale = np.where(mean_sd > 1e-12, mean_sd, 1.0)
    zm = (mean - mean.mean(axis=0)) / mean_scale  # centred: the intercept is the typical position's
    mean_varies = (mean_sd > 1e-12) & with_none

    def loss(theta):
        w = np.where(varies, theta[:k], 0.0)
        v = np.where(mean_varies, theta[k:2 * k], 0.0)
        u = z @ w
        u0 = (theta[2 * k] + zm @ v) if with_none else np.full(n, -np.inf)
        top = np.maximum(u.max(axis=1), u0)
        log_total = top + np.log(np.exp(u - top[:, None]).sum(axis=1) + np.exp(u0 - top))
        log_p = u - log_total[:, None]
        p = np.exp(log_p)
        stalls = (stalled * (u0 - log_total)).sum() if with_none else 0.0  # (0 x -inf is not 0 in numpy)
        value = -((final * log_p).sum() + stalls) / n + 0.5 * l2 * (w @ w + v @ v)
        weight = final.sum(axis=1) + stalled  # each position's outcomes weigh 1 in all
        grad_w = -np.einsum("ns,nsk->k", final - p * weight[:, None], z) / n + l2 * w
        grad = np.zeros_like(theta)
        grad[:k] = np.where(varies, grad_w, 0.0)
        if with_none:
            p0 = np.exp(u0 - log_total)
            resid = stalled - p0 * weight
            grad[k:2 * k] = np.where(mean_varies, -(resid @ zm) / n + l2 * v, 0.0)
            grad[2 * k] = -resid.sum() / n
        return value, grad

    signs = np.zeros(k, int) if signs is None else np.asarray(signs)
    bounds = [(0.0, None) if sign > 0 else ((None, 0.0) if sign < 0 else (None, None)) for sign in signs]
    bounds += [(None, None)] * k + ([(None, None)] if with_none else [(0.0, 0.0)])
    res = minimize(loss, np.zeros(2 * k + 1), jac=True, method="L-BFGS-B", bounds=bounds,
                   options={"maxiter": 1000, "gtol": 1e-8})
    weights = np.where(varies, res.x[:k] / scale, 0.0)
    no_winner = None
    if with_none:
        v = np.where(mean_varies, res.x[k:2 * k] / mean_scale, 0.0)
        no_winner = {"intercept": float(res.x[2 * k] - mean.mean(axis=0) @ v), "weights": [float(x) for x in v]}
    return weights, no_winner, {"iterations": int(res.nit), "converged": bool(res.success)}


def log_loss(pred: np.ndarray, final: np.ndarray) -> float:
    """Mean over positions of -sum_s y_s log p_s (nats; ``PROB_FLOOR`` keeps a predicted 0 finite)."""
    return float(-(final * np.log(np.maximum(pred, PROB_FLOOR))).sum(axis=1).mean())


def accuracy(pred: np.ndarray, final: np.ndarray) -> float:
    """The share of positions whose predicted leader (the largest predicted share; ties: the first)
    is among the game's winners."""
    leader = pred.argmax(axis=1)
    won = final[np.arange(len(final)), leader] > 0
    return float(won.mean())


def calibration(pred: np.ndarray, final: np.ndarray, players: np.ndarray | None = None,
                bins: int = CALIBRATION_BINS) -> list[dict]:
    """Predicted against observed share of the win, in deciles of the prediction (every seat of
    every position one prediction; ``players``: per position, its seats in use): per bin, the
    predictions' range, their mean, the mean final share, and how many predictions."""
    p = pred.reshape(-1) if players is None else np.concatenate([pred[i, :m] for i, m in enumerate(players)])
    y = final.reshape(-1) if players is None else np.concatenate([final[i, :m] for i, m in enumerate(players)])
    order = np.argsort(p, kind="stable")
    rows = []
    for part in np.array_split(order, bins):
        if len(part) == 0:
            continue
        rows.append({"low": float(p[part].min()), "high": float(p[part].max()), "predicted": float(p[part].mean()),
                     "observed": float(y[part].mean()), "n": int(len(part))})
    return rows


def holdout_games(n_games: int, seed: int, share: float = 0.2) -> np.ndarray:
    """Which games (a boolean per game) are held out: ``share`` of them, drawn by ``seed``."""
    rng = np.random.default_rng(seed)
    held = np.zeros(n_games, bool)
    held[rng.permutation(n_games)[: int(round(share * n_games))]] = True
    return held
