"""Tournaments: every assignment of the strategies to the seats, a matchup matrix and ratings.

- Matchup A against B: A's per-seat win rate in the decided games whose seats hold only A and B
  (both present), with a Wilson interval clustered by game (stats.clustered_share: a game holds
  several of A's seats, which are not independent trials); the fair share is 1/P. Over decided games, like every
  comparison with 1/P (docs/metrics.md): games without a winner (timeouts, stalemates) say
  nothing about who is stronger; their share is reported beside.
- Head-to-head share of A against B, in the same games: A's per-seat win rate divided by the sum of
  A's and B's per-seat win rates, r_A / (r_A + r_B). Even strength reads 50% whatever the seat
  counts (three A seats and one B seat included), where the per-seat rate reads 1/P; A's share
  and B's add up to 100%. Its 95% interval is the delta method's over games (the games are
  independent, the seats of one game are not), clipped to [0, 1].
- Ratings: Bradley-Terry strengths from "A's seat won, B's seat did not" within the same game (ties
  count fractionally), fitted by the MM algorithm (Hunter 2004), shown on the Elo scale
  (400 log10), with 95% intervals from a Poisson bootstrap over games.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from simbalance.analysis.findings import Finding, across, ci_text, pct, seat_imbalance, severity
from simbalance.analysis.stats import (
    ALPHA,
    APART,
    BEATS_EACH,
    Comparison,
    clustered_share,
    compared,
    normal_half,
    standard_error,
)
from simbalance.core.aggregate import RunAggregate
from simbalance.core.records import seat_share

BOOTSTRAP = 200


def seat_matrix(games: pd.DataFrame, players: int) -> tuple[np.ndarray, np.ndarray]:
    """Strategy slot and win share of every seat: two (n, P) arrays."""
    slots = np.stack([games[f"strategy_{s}"].to_numpy() for s in range(players)], axis=1).astype(np.int64)
    winners = games["winners"].to_numpy()
    shares = np.stack([seat_share(winners, s) for s in range(players)], axis=1)
    return slots, shares


def head_to_head(a_wins: np.ndarray, a_seats: np.ndarray, b_wins: np.ndarray, b_seats: np.ndarray,
                 alpha: float = ALPHA) -> tuple[float, float, float]:
    """A's head-to-head share r_A / (r_A + r_B) from per-game arrays (A's win share and seat count
    in each game, B's the same), with its 95% delta-method interval over games."""
    m = len(a_wins)
    if m == 0 or a_seats.sum() == 0 or b_seats.sum() == 0:
        return float("nan"), float("nan"), float("nan")
    wa, sa, wb, sb = (float(x.mean()) for x in (a_wins, a_seats, b_wins, b_seats))
    ra, rb = wa / sa, wb / sb
    total = ra + rb
    if total == 0:
        return float("nan"), float("nan"), float("nan")
    share = ra / total
    # d share / d (mean A wins, mean A seats, mean B wins, mean B seats), applied to each game
    influence = (rb / total ** 2 * ((a_wins - wa) / sa - ra * (a_seats - sa) / sa)
                 - ra / total ** 2 * ((b_wins - wb) / sb - rb * (b_seats - sb) / sb))
    se = float(np.sqrt(influence.var(ddof=1) / m)) if m > 1 else float("inf")
    half = normal_half(se, alpha)
    return share, max(0.0, share - half), min(1.0, share + half)


def matchups(games: pd.DataFrame, players: int, names: tuple[str, ...]) -> pd.DataFrame:
    """One row per ordered pair (A, B), A != B, over the decided games whose seats hold only A and B:
    A's per-seat win rate (``win_rate``, fair 1/P) and A's head-to-head share against B
    (``h2h_share``, even 50%), each with its 95% interval."""
    slots, shares = seat_matrix(games, players)
    rows = []
    for a in range(len(names)):
        for b in range(len(names)):
            if a == b:
                continue
            only = np.isin(slots, (a, b)).all(axis=1) & (slots == a).any(axis=1) & (slots == b).any(axis=1)
            decided = only & (shares.sum(axis=1) > 0)
            a_seats, b_seats = slots[decided] == a, slots[decided] == b
            won = shares[decided]
            seat_games = int(a_seats.sum())
            wins = float(won[a_seats].sum())
            # a game holds several of A's seats: the interval is clustered by game (stats.clustered_share)
            rate = clustered_share((won * a_seats).sum(axis=1), a_seats.sum(axis=1))
            lo, hi = rate.low, rate.high
            h2h, h2h_lo, h2h_hi = head_to_head((won * a_seats).sum(axis=1), a_seats.sum(axis=1),
                                               (won * b_seats).sum(axis=1), b_seats.sum(axis=1))
            rows.append({"strategy": names[a], "opponent": names[b], "games": int(only.sum()),
                         "no_winner_share": float(1 - decided.sum() / only.sum()) if only.any() else float("nan"),
                         "seat_games": seat_games, "win_rate": wins / seat_games if seat_games else float("nan"),
                         "ci_low": float(lo), "ci_high": float(hi),
                         "h2h_share": h2h, "h2h_ci_low": h2h_lo, "h2h_ci_high": h2h_hi})
    return pd.DataFrame(rows)


def _pair_events(slots: np.ndarray, shares: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per (game, seat pair): flat index a*k+b and weight of "a's seat beat b's seat"."""
    n, players = slots.shape
    idx, weight, game = [], [], []
    for s in range(players):
        for t in range(players):
            if s == t:
                continue
            w = np.where((shares[:, t] == 0) & (slots[:, s] != slots[:, t]), shares[:, s], 0.0)
            idx.append(slots[:, s] * k + slots[:, t])
            weight.append(w)
            game.append(np.arange(n))
    return np.concatenate(idx), np.concatenate(weight), np.concatenate(game)


def bradley_terry(wins: np.ndarray, iterations: int = 500) -> np.ndarray:
    """Strengths (geometric mean 1) from a matrix of wins[i, j] = i beat j."""
    k = wins.shape[0]
    total = wins + wins.T
    p = np.ones(k)
    w = wins.sum(axis=1) + 1e-9  # a strategy that never won keeps a tiny strength
    for _ in range(iterations):
        denom = (total / (p[:, None] + p[None, :])).sum(axis=1)
        new = w / np.where(denom > 0, denom, 1.0)
        new /= np.exp(np.mean(np.log(new)))
        if np.allclose(new, p, rtol=1e-10):
            p = new
            break
        p = new
    return p


def ratings(games: pd.DataFrame, players: int, names: tuple[str, ...], seed: int = 0) -> pd.DataFrame:
    slots, shares = seat_matrix(games, players)
    k = len(names)
    idx, weight, game = _pair_events(slots, shares, k)
    wins = np.bincount(idx, weights=weight, minlength=k * k).reshape(k, k)
    elo = 400 * np.log10(bradley_terry(wins))
    rng = np.random.default_rng(seed)
    boot = np.empty((BOOTSTRAP, k))
    for r in range(BOOTSTRAP):
        game_weight = rng.poisson(1.0, len(games)).astype(np.float64)
        w = np.bincount(idx, weights=weight * game_weight[game], minlength=k * k).reshape(k, k)
        boot[r] = 400 * np.log10(bradley_terry(w, 200))
    lo, hi = np.percentile(boot, [2.5, 97.5], axis=0)
    return pd.DataFrame({"strategy": names, "elo": elo, "ci_low": lo, "ci_high": hi,
                         "wins_over_others": wins.sum(axis=1)}).sort_values("elo", ascending=False)


def tournament_findings(matchups: pd.DataFrame, names: list[str], th: dict, command: str | None = None) -> list[Finding]:
    """A strategy whose head-to-head share is above an even 50% against every other strategy, told
    apart after the multiplicity rule of "the strongest of N" (``strongest``)."""
    out = []
    for name in names:
        rows = matchups[matchups["strategy"] == name]
        others = [o for o in names if o != name]
        if len(others) == 0 or len(rows) < len(others):
            continue
        apart = beats_everyone(matchups, name, names)
        if strongest(matchups, names) == name:
            worst = rows.sort_values("h2h_share").iloc[0]
            edge = (float(worst["h2h_ci_low"]) - 0.5, float(worst["h2h_ci_high"]) - 0.5)  # over an even share
            out.append(Finding(
                "dominant_strategy", severity(float(worst["h2h_share"]) - 0.5, edge, th["dominance_margin"]),
                f"{name} beats every other strategy head to head: its share of the wins is above an even 50% "
                f"against each, the lowest {pct(worst['h2h_share'])} against {worst['opponent']} "
                f"({ci_text(worst['h2h_ci_low'], worst['h2h_ci_high'])}).",
                float(worst["h2h_share"]), (float(worst["h2h_ci_low"]), float(worst["h2h_ci_high"])),
                "#matchups", decided_by=(apart,)))
    return out


def strongest(matchups: pd.DataFrame, names: list[str], alpha: float = ALPHA) -> str | None:
    """The strategy told apart as the strongest: its head-to-head share above an even 50% against
    each of the N - 1 others at the two-sided Bonferroni level ``alpha / (N - 1)`` (stats.standout's
    rule: with N strategies of equal strength, one is named with probability at most ``alpha``);
    None when none is ("no strategy stands out")."""
    for name in names:
        if beats_everyone(matchups, name, names, alpha).verdict == APART:
            return name
    return None


def beats_everyone(matchups: pd.DataFrame, name: str, names: list[str], alpha: float = ALPHA) -> Comparison:
    """Whether ``name``'s head-to-head shares are above an even 50% against each of the others
    (stats.beats_each), as the Comparison a finding keeps; not told apart when a matchup is missing."""
    rows = matchups[matchups["strategy"] == name]
    complete = len(names) > 1 and len(rows) >= len(names) - 1
    shares = rows["h2h_share"].to_numpy(float) if complete else np.zeros(0)
    errors = np.asarray(standard_error(rows["h2h_ci_low"], rows["h2h_ci_high"]), dtype=float) if complete else shares
    return compared(BEATS_EACH, {"shares": [float(v) for v in shares], "errors": [float(v) for v in errors],
                                 "even": 0.5, "alpha": alpha}, "strategy",
                    claim=f"{name} beats every other strategy head to head")


def seats_by_lineup(f: Finding, games: pd.DataFrame, players: int, lineups: np.ndarray, names: tuple[str, ...],
                    th: dict) -> Finding:
    """The run's seat finding ``f`` over every lineup together, said only as far as each lineup's own
    games agree: which seat a lineup favours is mostly where its strongest strategy sits, so "player
    1 wins the most" over all of them together may be false of every lineup but half."""
    slots = np.stack([games[f"strategy_{s}"].to_numpy() for s in range(players)], axis=1)
    parts = {}
    for row in lineups:
        mine = games[(slots == row).all(axis=1)]
        summary = RunAggregate.from_games(mine, players, len(names)).summary(names)
        parts[f"in lineup {', '.join(names[s] for s in row)}"] = seat_imbalance(summary, th)
    return across(f, parts, "over every lineup together", "in every lineup", name_others=True)
