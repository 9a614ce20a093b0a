"""Mergeable run statistics: what every summary is computed from.

A ``RunAggregate`` holds sums and histograms only (wins per seat and strategy, outcome counts, a
histogram of game lengths), so chunks of a run can be reduced as they finish and merged in any
order: a 10^9-game run needs no per-game memory. Percentiles come exactly from the length
histogram, with numpy's linear interpolation. The in-memory path uses the same class, so both give
the same numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from numba import njit

from simbalance.core.records import END_STALEMATE, END_TIMEOUT, END_WIN

Z95 = 1.959963984540054
LENGTH_PERCENTILES = (5, 25, 50, 75, 95)
# Wins are counted in whole units: a win shared by k seats gives each 60 / k units (60 is the least
# common multiple of 1..6, the most seats), so sums are exact integers and a run's statistics are
# the same to the last bit whatever its chunking or merge order.
WIN_UNITS = 60


def wilson(successes: float | np.ndarray, n: float | np.ndarray, z: float = Z95):
    """Wilson score interval for a proportion (successes may be fractional: shared wins)."""
    successes = np.asarray(successes, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = successes / n
        denom = 1.0 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return centre - half, centre + half


@njit(cache=True)
def _chunk_sums(winners, slots, end, length, players, n_slots, hist_size):
    """One pass over a chunk's games: win shares by seat and by strategy slot, seat-games by slot,
    outcome counts, and the length histograms (all games; games without a winner)."""
    seat_wins = np.zeros(players, np.int64)
    slot_wins = np.zeros(n_slots, np.int64)
    slot_games = np.zeros(n_slots, np.int64)
    slot_decided = np.zeros(n_slots, np.int64)
    outcomes = np.zeros(4, np.int64)
    hist = np.zeros(hist_size, np.int64)
    undecided = np.zeros(hist_size, np.int64)
    for g in range(winners.shape[0]):
        mask = np.int64(winners[g])
        k = 0
        for s in range(players):
            k += (mask >> s) & 1
        for s in range(players):
            slot = slots[g, s]
            slot_games[slot] += 1
            slot_decided[slot] += end[g] == END_WIN
            if (mask >> s) & 1:
                share = WIN_UNITS // k
                seat_wins[s] += share
                slot_wins[slot] += share
        e = end[g]
        if e == END_WIN:
            outcomes[0] += 1
            if k > 1:
                outcomes[1] += 1
        else:
            undecided[length[g]] += 1
            if e == END_TIMEOUT:
                outcomes[2] += 1
            elif e == END_STALEMATE:
                outcomes[3] += 1
        hist[length[g]] += 1
    return seat_wins, slot_wins, slot_games, slot_decided, outcomes, hist, undecided


def _grow(hist: np.ndarray, size: int) -> np.ndarray:
    return hist if len(hist) >= size else np.concatenate([hist, np.zeros(size - len(hist), hist.dtype)])


@dataclass
class RunAggregate:
    players: int
    n_slots: int
    n: int = 0
    seat_win_units: np.ndarray = field(default=None)  # wins by seat, in WIN_UNITS per win
    slot_win_units: np.ndarray = field(default=None)  # wins by strategy slot, in WIN_UNITS per win
    slot_seat_games: np.ndarray = field(default=None)
    outcomes: np.ndarray = field(default=None)  # decided, ties, timeouts, stalemates
    length_hist: np.ndarray = field(default=None)  # games by length
    undecided_hist: np.ndarray = field(default=None)  # games without a winner, by length
    slot_decided_games: np.ndarray = field(default=None)  # seat-games of each slot in decided games

    def __post_init__(self):
        for name, size, dtype in (("seat_win_units", self.players, np.int64), ("slot_win_units", self.n_slots, np.int64),
                                  ("slot_seat_games", self.n_slots, np.int64), ("outcomes", 4, np.int64),
                                  ("length_hist", 1, np.int64), ("undecided_hist", 1, np.int64),
                                  ("slot_decided_games", self.n_slots, np.int64)):
            if getattr(self, name) is None:
                setattr(self, name, np.zeros(size, dtype))

    # -- building -----------------------------------------------------------------------------
    def add(self, winners: np.ndarray, slots: np.ndarray, end: np.ndarray, length: np.ndarray) -> RunAggregate:
        """Add games: winners bit masks, (n, P) strategy slots, end codes and lengths."""
        winners = np.asarray(winners)
        n = len(winners)
        if n == 0:
            return self
        length = np.asarray(length)
        top = int(length.max()) + 1
        seat_wins, slot_wins, slot_games, slot_decided, outcomes, hist, undecided = _chunk_sums(
            winners, np.asarray(slots), np.asarray(end), length, self.players, self.n_slots, top)
        self.n += n
        self.seat_win_units += seat_wins
        self.slot_win_units += slot_wins
        self.slot_seat_games += slot_games
        self.slot_decided_games += slot_decided
        self.outcomes += outcomes
        self.length_hist = _grow(self.length_hist, top)
        self.undecided_hist = _grow(self.undecided_hist, top)
        self.length_hist[:top] += hist
        self.undecided_hist[:top] += undecided
        return self

    @classmethod
    def from_records(cls, records: np.ndarray, players: int, n_slots: int) -> RunAggregate:
        return cls(players, n_slots).add(records["winners"], records["strategy"][:, :players], records["end"],
                                         records["length"])

    @classmethod
    def from_games(cls, games: pd.DataFrame, players: int, n_slots: int) -> RunAggregate:
        slots = np.stack([games[f"strategy_{s}"].to_numpy() for s in range(players)], axis=1)
        return cls(players, n_slots).add(games["winners"].to_numpy(), slots, games["end"].to_numpy(),
                                         games["length"].to_numpy())

    def merge(self, other: RunAggregate) -> RunAggregate:
        size = max(len(self.length_hist), len(other.length_hist))
        out = RunAggregate(self.players, self.n_slots, self.n + other.n, self.seat_win_units + other.seat_win_units,
                           self.slot_win_units + other.slot_win_units, self.slot_seat_games + other.slot_seat_games,
                           self.outcomes + other.outcomes,
                           _grow(self.length_hist, size) + _grow(other.length_hist, size),
                           _grow(self.undecided_hist, size) + _grow(other.undecided_hist, size),
                           self.slot_decided_games + other.slot_decided_games)
        return out

    # -- metrics ------------------------------------------------------------------------------
    @property
    def decided(self) -> int:
        """Games with a winner (ties included: their shares add up to one win)."""
        return int(self.outcomes[0])

    @property
    def seat_wins(self) -> np.ndarray:
        """Wins by seat (a win shared by k seats counts 1/k)."""
        return self.seat_win_units / WIN_UNITS

    @property
    def slot_wins(self) -> np.ndarray:
        """Wins by strategy slot, summed over the seats it occupied."""
        return self.slot_win_units / WIN_UNITS

    def seat_table(self) -> pd.DataFrame:
        """Per seat: win rate over all games (timeouts count 0 for everyone) and over decided games."""
        lo, hi = wilson(self.seat_wins, self.n)
        with np.errstate(invalid="ignore", divide="ignore"):
            decided_rate = self.seat_wins / self.decided
        return pd.DataFrame({"seat": np.arange(self.players), "wins": self.seat_wins, "games": self.n,
                             "win_rate": self.seat_wins / self.n, "ci_low": lo, "ci_high": hi,
                             "decided_games": self.decided, "win_rate_decided": decided_rate})

    def strategy_table(self, slot_names: tuple[str, ...]) -> pd.DataFrame:
        """Per strategy: win rate per seat played, over all its seat-games and over those in
        decided games (the one to hold against the fair share 1/P), each with a Wilson interval."""
        lo, hi = wilson(self.slot_wins, self.slot_seat_games)
        dlo, dhi = wilson(self.slot_wins, self.slot_decided_games)
        with np.errstate(invalid="ignore", divide="ignore"):
            rate = self.slot_wins / self.slot_seat_games
            decided_rate = self.slot_wins / self.slot_decided_games
        return pd.DataFrame({"strategy": list(slot_names), "wins": self.slot_wins,
                             "seat_games": self.slot_seat_games, "win_rate": rate, "ci_low": lo, "ci_high": hi,
                             "decided_seat_games": self.slot_decided_games, "win_rate_decided": decided_rate,
                             "decided_ci_low": dlo, "decided_ci_high": dhi})

    def percentile(self, q: float) -> float:
        """numpy's default (linear) percentile of the lengths, from the histogram."""
        cum = np.cumsum(self.length_hist)
        pos = q / 100.0 * (self.n - 1)
        lo = int(np.floor(pos))
        frac = pos - lo
        v_lo = int(np.searchsorted(cum, lo + 1))
        v_hi = int(np.searchsorted(cum, min(lo + 2, self.n)))
        return float(v_lo + frac * (v_hi - v_lo))

    def length_stats(self) -> dict:
        values = np.arange(len(self.length_hist), dtype=np.float64)
        mean = float((values * self.length_hist).sum() / self.n)
        var = float(((values - mean) ** 2 * self.length_hist).sum() / (self.n - 1)) if self.n > 1 else 0.0
        nonzero = np.flatnonzero(self.length_hist)
        out = {"mean": mean, "sd": var ** 0.5, "min": float(nonzero[0]), "max": float(nonzero[-1])}
        for q in LENGTH_PERCENTILES:
            out[f"p{q}"] = self.percentile(q)
        return out

    def outcome_shares(self) -> dict:
        decided, ties, timeouts, stalemates = (self.outcomes / self.n).tolist()
        return {"decided": decided, "ties": ties, "timeouts": timeouts, "stalemates": stalemates}

    def length_histogram(self) -> pd.DataFrame:
        """Games by length, and those of them without a winner: what the length figure draws."""
        return pd.DataFrame({"length": np.arange(len(self.length_hist)), "games": self.length_hist,
                             "undecided": _grow(self.undecided_hist, len(self.length_hist))})

    def first_player_advantage(self) -> dict:
        """Seat 0's share of the decided games minus the fair share 1/P, with a Wilson 95% CI.

        Over decided games, not all games: a timeout has no winner, so over all games every seat's
        rate shrinks with the timeouts and "seat 0 minus 1/P" turns negative for a seat that wins
        more than its share of the games that end (docs/metrics.md)."""
        fair = 1.0 / self.players
        if self.decided == 0:
            return {"value": None, "ci_low": None, "ci_high": None, "fair_share": fair, "over": "decided games",
                    "decided_games": 0}
        lo, hi = wilson(self.seat_wins[0], self.decided)
        return {"value": float(self.seat_wins[0] / self.decided - fair), "ci_low": float(lo - fair),
                "ci_high": float(hi - fair), "fair_share": fair, "over": "decided games",
                "decided_games": self.decided}

    def balance(self) -> float | None:
        """1 minus the largest gap between two seats' shares of the decided games (None: none)."""
        if self.decided == 0:
            return None
        rates = self.seat_wins / self.decided
        return float(1.0 - (rates.max() - rates.min()))

    def summary(self, slot_names: tuple[str, ...], length_unit: str = "turns") -> dict:
        seats = self.seat_table()
        wins = seats["wins"].to_numpy()
        if wins.sum() > 0 and self.players > 1:
            # The chi-square test by hand on scipy.special: scipy.stats costs 0.65 s at start-up,
            # a third of a small run's time budget (tests check it against scipy.stats.chisquare).
            from scipy.special import chdtrc

            expected = wins.sum() / self.players
            statistic = float(((wins - expected) ** 2 / expected).sum())
            chi = {"statistic": statistic, "p_value": float(chdtrc(self.players - 1, statistic)),
                   "dof": self.players - 1}
        else:
            chi = {"statistic": None, "p_value": None, "dof": self.players - 1}
        return {
            "n_games": int(self.n),
            "players": self.players,
            "seats": seats.to_dict(orient="records"),
            "strategies": self.strategy_table(slot_names).to_dict(orient="records"),
            "first_player_advantage": self.first_player_advantage(),
            "balance": self.balance(),
            "equal_seats_chi_square": chi,
            "length": {"unit": length_unit, **self.length_stats()},
            "outcomes": self.outcome_shares(),
        }
