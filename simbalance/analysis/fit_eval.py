"""The fitted evaluation's statistics (``simbalance fit-eval``; docs/strategies.md, "The fitted
evaluation"): a conditional logit shared by the seats, fitted by maximum likelihood to each seat's
final share of the win, and how well it (and the game's hand-written evaluation) predicts held-out
games.

The model: at a position, seat s's utility is u_s = w . f_s (f_s: its features), and its predicted
share of the win p_s = exp(u_s) / sum_q exp(u_q). The data: for every recorded position, every
seat's features and its final share y_s (1 for a win, 1/k for a k-way shared win, 0; the shares of
a position sum to 1: games with no winner are left out before). The log-likelihood
sum_positions sum_s y_s log p_s is concave in w; with a small L2 penalty it has one maximum, which
L-BFGS finds from w = 0 with the analytic gradient sum_s (y_s - p_s) f_s.

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

L2 = 1e-3  # penalty on the standardized weights, per position: (L2 / 2) |w|^2 against the mean log-likelihood
PROB_FLOOR = 1e-6  # a predicted share is taken as at least this in the log-loss (a hand-written 0 stays finite)
CALIBRATION_BINS = 10


def softmax_shares(feats: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Predicted shares (positions, seats) of features (positions, seats, features) under ``weights``
    (the kernel's players/common_nb.fitted_shares, in numpy)."""
    u = feats @ weights
    u = u - u.max(axis=1, keepdims=True)
    e = np.exp(u)
    return e / e.sum(axis=1, keepdims=True)


def fit_logit(feats: np.ndarray, final: np.ndarray, l2: float = L2, signs=None) -> tuple[np.ndarray, dict]:
    """The weights (raw features' units) that maximize the penalized mean log-likelihood of the
    final shares ``final`` (positions, seats; each row summing to 1) given ``feats`` (positions,
    seats, features), each weight of the sign ``signs`` allows (1: at least 0, -1: at most 0, 0 or
    None: either); and what the optimizer said (iterations, converged)."""
    n, _, k = feats.shape
    if n == 0:
        raise ValueError("no position to fit")
    # Only the differences between the seats of a position count: scale by their spread, and a
    # feature that never differs between seats (the turn, say) gets no weight.
    sd = (feats - feats.mean(axis=1, keepdims=True)).reshape(-1, k).std(axis=0)
    scale = np.where(sd > 1e-12, sd, 1.0)
    z = feats / scale
    varies = sd > 1e-12

    def loss(w):
        w = np.where(varies, w, 0.0)
        u = z @ w
        u = u - u.max(axis=1, keepdims=True)
        log_p = u - np.log(np.exp(u).sum(axis=1, keepdims=True))
        p = np.exp(log_p)
        value = -(final * log_p).sum() / n + 0.5 * l2 * w @ w
        grad = -np.einsum("ns,nsk->k", final - p * final.sum(axis=1, keepdims=True), z) / n + l2 * w
        return value, np.where(varies, grad, 0.0)

    signs = np.zeros(k, int) if signs is None else np.asarray(signs)
    bounds = [(0.0, None) if sign > 0 else ((None, 0.0) if sign < 0 else (None, None)) for sign in signs]
    from scipy.optimize import minimize  # imported here: every command imports this module, few fit

    res = minimize(loss, np.zeros(k), jac=True, method="L-BFGS-B", bounds=bounds,
                   options={"maxiter": 500, "gtol": 1e-8})
    weights = np.where(varies, res.x / scale, 0.0)
    return weights, {"iterations": int(res.nit), "converged": bool(res.success)}


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
