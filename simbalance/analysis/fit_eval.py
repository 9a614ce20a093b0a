"""The fitted evaluation's statistics (``simbalance fit-eval``; docs/strategies.md, "The fitted
evaluation"): a conditional logit shared by the seats, fitted by maximum likelihood to each seat's
final share of the win, and how well it (and the game's hand-written evaluation) predicts held-out
games.

The model: at a position, seat s's utility is u_s = w . f_s (f_s: its features), and its predicted
share of the win p_s = exp(u_s) / sum_q exp(u_q). The data: for every recorded position, every
seat's features and its final share y_s (1 for a win, 1/k for a k-way shared win, 0; the shares of
a position sum to 1, or to 0 for a game with no winner). The log-likelihood
sum_positions sum_s y_s log p_s over the games with a winner is concave in w; with a small L2
penalty it has one maximum, which L-BFGS finds from w = 0 with the analytic gradient
sum_s (y_s - p_s) f_s.

**No winner** (issue 53). A game that ends with no winner (a stalemate, a timeout: every seat's
result 0) is not dropped: a logistic regression of "no winner" on the seats' mean features, fitted
on every position, gives its chance q, and each seat's predicted share is (1 - q) p_s. So a search
scoring its cut play-outs by the fit sees a stall coming, as it sees one at a play-out's end, and
the seats' part (who wins, given that someone does) is the fit it was before. (Tried first: "no
winner" as one more alternative of the softmax. Its positions then pulled the seats' weights too,
and lady-actions-escape's mcts-100 won 22.4% (17.6-28.1%) of its decided games against three
blocker, 31.5% (26.0-37.7%) with the fit before, 300 games each.)

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


def softmax_shares(feats: np.ndarray, weights: np.ndarray, no_winner: dict | None = None) -> np.ndarray:
    """Predicted shares (positions, seats) of features (positions, seats, features) under ``weights``
    (the kernel's players/common_nb.fitted_shares, in numpy). With ``no_winner`` (``{"intercept": b,
    "weights": v}``) each share is multiplied by the chance that anyone wins, 1 - q, q = 1 / (1 +
    exp(-(b + v . the seats' mean features))): the shares sum to 1 - q (``no_winner_share``)."""
    u = feats @ weights
    u = u - u.max(axis=1, keepdims=True)
    e = np.exp(u)
    return e / e.sum(axis=1, keepdims=True) * (1.0 - no_winner_share(feats, weights, no_winner))[:, None]


def no_winner_share(feats: np.ndarray, weights: np.ndarray, no_winner: dict | None) -> np.ndarray:
    """The predicted chance (per position) that the game ends with no winner."""
    from scipy.special import expit  # imported here: every command imports this module, few fit

    if no_winner is None:
        return np.zeros(len(feats))
    u0 = no_winner["intercept"] + feats.mean(axis=1) @ np.asarray(no_winner["weights"], np.float64)
    return expit(u0)


def kernel_weights(weights, no_winner: dict | None) -> np.ndarray:
    """The vector the search kernel takes (players/common_nb.fitted_shares): ``[w, v, b]``, the
    seats' weights, the "no winner" weights on the seats' mean features and its intercept (b =
    -inf and v = 0 when the fit has no such part: the seats' shares then sum to 1)."""
    w = np.asarray(weights, np.float64)
    if no_winner is None:
        return np.concatenate([w, np.zeros_like(w), [-np.inf]])
    return np.concatenate([w, np.asarray(no_winner["weights"], np.float64), [float(no_winner["intercept"])]])


def fit_logit(feats: np.ndarray, final: np.ndarray, l2: float = L2, signs=None) -> tuple[np.ndarray, dict | None, dict]:
    """The fit (module doc): the seats' weights (raw features' units) that maximize the penalized
    mean log-likelihood of the final shares ``final`` (positions, seats) given ``feats`` (positions,
    seats, features) over the positions whose game had a winner, each weight of the sign ``signs``
    allows (1: at least 0, -1: at most 0, 0 or None: either); the "no winner" part, fitted on every
    position (a row of ``final`` summing to 0 is a game that ended with no winner: a stalemate, a
    timeout), None when every game had a winner; and what the optimizer said (iterations, converged)."""
    n, _, k = feats.shape
    if n == 0:
        raise ValueError("no position to fit")
    stalled = final.sum(axis=1) <= 0
    if stalled.all():
        raise ValueError("no position of a game with a winner to fit")
    weights, info = _fit_seats(feats[~stalled], final[~stalled], l2, signs)
    no_winner = _fit_no_winner(feats.mean(axis=1), stalled.astype(np.float64), l2) if stalled.any() else None
    return weights, no_winner, info


def _fit_seats(feats: np.ndarray, final: np.ndarray, l2: float, signs) -> tuple[np.ndarray, dict]:
    """Who wins, given that someone does: the conditional logit shared by the seats."""
    n, _, k = feats.shape
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


def _fit_no_winner(mean: np.ndarray, stalled: np.ndarray, l2: float) -> dict:
    """Whether anyone wins: a logistic regression of "no winner" on the seats' mean features
    (standardized and centred for the fit, the penalty on the weights, not the intercept)."""
    from scipy.optimize import minimize  # imported here: every command imports this module, few fit
    from scipy.special import expit

    n, k = mean.shape
    sd = mean.std(axis=0)
    scale = np.where(sd > 1e-12, sd, 1.0)
    varies = sd > 1e-12
    centre = mean.mean(axis=0)
    z = (mean - centre) / scale

    def loss(theta):
        v = np.where(varies, theta[:k], 0.0)
        u = theta[k] + z @ v
        q = expit(u)
        value = -(stalled * -np.logaddexp(0.0, -u) + (1 - stalled) * -np.logaddexp(0.0, u)).sum() / n + 0.5 * l2 * v @ v
        resid = stalled - q
        grad = np.append(np.where(varies, -(resid @ z) / n + l2 * v, 0.0), -resid.sum() / n)
        return value, grad

    res = minimize(loss, np.zeros(k + 1), jac=True, method="L-BFGS-B", options={"maxiter": 500, "gtol": 1e-8})
    v = np.where(varies, res.x[:k] / scale, 0.0)
    return {"intercept": float(res.x[k] - centre @ v), "weights": [float(x) for x in v]}


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
