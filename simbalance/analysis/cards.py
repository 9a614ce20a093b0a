"""Card impact, as designers know it from draft statistics (17lands' GIH WR and IWD).

For every card and every way a seat can have it (dealt, drawn, held at the end: the engine says
which through its ``card_masks`` hook), compare the win rate of the seat-games that had the card
with those that did not. "Held at the end" and "drawn" favour cards seen in long games (survivor
bias: a long game shows more cards to everyone), so each difference is also given stratified by
game-length quintile: the within-stratum differences, weighted by stratum size.

The sums are gathered by one jitted pass over the seat-games; everything else is arithmetic on
those sums.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from numba import njit

from simbalance.analysis.stats import normal_half
from simbalance.core.records import seat_share

N_STRATA = 5


@njit(cache=True)
def _subject_sums(masks, won, stratum, subjects, n_strata, players):
    """Per stratum and subject: seat-games having it, and the sum and sum of squares of their wins;
    per stratum: the same over all seat-games. And per subject the game-level sums the clustered
    variance needs (``clustered_var``): over games, with u the game's wins of the seats having the
    subject, v their number and t the game's wins of all seats, the sums of u^2, v^2, uv, ut, vt;
    and over games the count and the sums of t and t^2. Seat-game ``i`` is seat ``i % players`` of
    game ``i // players``."""
    k = subjects.shape[0]
    n1 = np.zeros((n_strata, k))
    s1 = np.zeros((n_strata, k))
    q1 = np.zeros((n_strata, k))
    n = np.zeros(n_strata)
    s = np.zeros(n_strata)
    q = np.zeros(n_strata)
    cluster = np.zeros((5, k))  # uu, vv, uv, ut, vt
    games = np.zeros(3)  # count, sum t, sum t^2
    u = np.zeros(k)
    v = np.zeros(k)
    for g in range(masks.shape[0] // players):
        u[:] = 0.0
        v[:] = 0.0
        t = 0.0
        for i in range(g * players, (g + 1) * players):
            st = stratum[i]
            w = won[i]
            t += w
            n[st] += 1.0
            s[st] += w
            q[st] += w * w
            m = masks[i]
            if m == 0:
                continue
            for j in range(k):
                if m & subjects[j]:
                    n1[st, j] += 1.0
                    s1[st, j] += w
                    q1[st, j] += w * w
                    u[j] += w
                    v[j] += 1.0
        games[0] += 1.0
        games[1] += t
        games[2] += t * t
        for j in range(k):
            cluster[0, j] += u[j] * u[j]
            cluster[1, j] += v[j] * v[j]
            cluster[2, j] += u[j] * v[j]
            cluster[3, j] += u[j] * t
            cluster[4, j] += v[j] * t
    return n1, s1, q1, n, s, q, cluster, games


def _rates(n1, s1, q1, n, s, q):
    """Rate with, rate without, difference and its variance (seat-games as independent rows), from
    sums (arrays over subjects)."""
    n0, s0, q0 = n - n1, s - s1, q - q1
    with np.errstate(invalid="ignore", divide="ignore"):
        r1, r0 = s1 / n1, s0 / n0
        v1 = (q1 - n1 * r1 * r1) / (n1 - 1)
        v0 = (q0 - n0 * r0 * r0) / (n0 - 1)
        var = v1 / n1 + v0 / n0
    return r1, r0, r1 - r0, var


def clustered_var(n1, s1, n, r1, r0, cluster, games, players):
    """The game-clustered variance of the difference r1 - r0 (arrays over subjects): the sum over
    games of each game's squared influence x = (u - r1 v) / n1 - ((t - u) - r0 (P - v)) / n0 (u, v:
    its wins and number of seats having the subject, t: its wins of all P seats), the same as
    analysis/stats.clustered_difference, from ``_subject_sums``' sums: x = a u + b v + c t + d."""
    n0 = n - n1
    uu, vv, uv, ut, vt = cluster
    count, t1, tt = games
    with np.errstate(invalid="ignore", divide="ignore"):
        a = 1 / n1 + 1 / n0
        b = -(r1 / n1 + r0 / n0)
        c = -1 / n0
        d = r0 * players / n0
        var = (a * a * uu + b * b * vv + c * c * tt + d * d * count + 2 * a * b * uv + 2 * a * c * ut
               + 2 * a * d * s1 + 2 * b * c * vt + 2 * b * d * n1 + 2 * c * d * t1)
    return np.maximum(var, 0.0)


SLICE = 1 << 20  # games summed at a time: bounds memory on 10^7-game runs


def card_impact(games: pd.DataFrame, players: int, masks: dict[str, np.ndarray], labels: list[str],
                groups: dict[str, list[int]] | None = None) -> pd.DataFrame:
    """One row per (kind, card or group): win rate with and without it, the difference with a 95% CI
    (clustered by game: a game's seat-games are not independent), and the length-stratified
    difference.

    Cards with the same label are copies of one card (a deck's four identical wildcards): they make
    one row, ``copies`` of them, and "with" means holding at least one copy."""
    winners = games["winners"].to_numpy()
    length = games["length"].to_numpy()
    edges = np.unique(np.quantile(length, np.linspace(0, 1, N_STRATA + 1)[1:-1]))
    n_strata = len(edges) + 1
    faces: dict[str, list[int]] = {}
    for c, label in enumerate(labels):
        faces.setdefault(label, []).append(c)
    names = list(faces) + list(groups or {})
    levels = ["card"] * len(faces) + ["group"] * len(groups or {})
    copies = [len(bits) for bits in faces.values()] + [len(bits) for bits in (groups or {}).values()]
    subjects = np.array([sum(1 << c for c in bits) for bits in faces.values()]
                        + [sum(1 << c for c in cards) for cards in (groups or {}).values()], dtype=np.uint64)
    rows = []
    for kind, mask in masks.items():
        k = len(subjects)
        n1, s1, q1 = np.zeros((n_strata, k)), np.zeros((n_strata, k)), np.zeros((n_strata, k))
        n, s, q = np.zeros(n_strata), np.zeros(n_strata), np.zeros(n_strata)
        cluster, per_game = np.zeros((5, k)), np.zeros(3)
        for lo in range(0, len(games), SLICE):
            hi = min(len(games), lo + SLICE)
            won = np.stack([seat_share(winners[lo:hi], p) for p in range(players)], axis=1).ravel()
            strata = np.searchsorted(edges, length[lo:hi], side="right").astype(np.int64)
            part = (np.stack([m[lo:hi] for m in mask], axis=1) if isinstance(mask, (list, tuple))
                    else np.asarray(mask[lo:hi])[:, :players])
            flat = np.ascontiguousarray(part, dtype=np.uint64).ravel()
            parts = _subject_sums(flat, won, np.repeat(strata, players), subjects, n_strata, players)
            for total, part in zip((n1, s1, q1, n, s, q, cluster, per_game), parts, strict=True):
                total += part
        r1, r0, diff, _ = _rates(n1.sum(0), s1.sum(0), q1.sum(0), n.sum(), s.sum(), q.sum())
        # a game's seats are not independent rows (one seat's win is another's loss; a tie moves
        # them together): the CI is clustered by game
        var = clustered_var(n1.sum(0), s1.sum(0), n.sum(), r1, r0, cluster, per_game, players)
        _, _, d_st, _ = _rates(n1, s1, q1, n[:, None], s[:, None], q[:, None])
        weights = np.where(np.isfinite(d_st), n[:, None], 0.0)
        with np.errstate(invalid="ignore", divide="ignore"):
            adjusted = np.nansum(np.nan_to_num(d_st) * weights, axis=0) / weights.sum(axis=0)
        half = normal_half(np.sqrt(var))
        for j, name in enumerate(names):
            rows.append({
                "kind": kind, "subject": name, "level": levels[j], "copies": copies[j],
                "seat_games_with": int(n1[:, j].sum()),
                "win_rate_with": r1[j], "win_rate_without": r0[j], "difference": diff[j],
                "ci_low": diff[j] - half[j], "ci_high": diff[j] + half[j],
                "difference_length_adjusted": adjusted[j],
            })
    return pd.DataFrame(rows)
