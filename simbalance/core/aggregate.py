"""Mergeable run statistics: what every summary is computed from.

A ``RunAggregate`` holds sums and histograms only (wins per seat and strategy, outcome counts, a
histogram of game lengths, the whole-game metrics' sums, stalemates by reason), so chunks of a run
can be reduced as they finish and merged in any order: a 10^9-game run needs no per-game memory.
Percentiles come exactly from the length histogram, with numpy's linear interpolation. The in-memory
path uses the same class, so both give the same numbers. Every sum is an integer: a per-game ratio
(a game's drama, its decisiveness) is rounded to millionths per game first (``MICRO``), so the sums
are the same to the last bit whatever the chunking or the merge order.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from numba import njit

from simbalance.core.records import END_STALEMATE, END_TIMEOUT, END_WIN, MAX_REASONS

Z95 = 1.959963984540054
LENGTH_PERCENTILES = (5, 25, 50, 75, 95)
# Wins are counted in whole units: a win shared by k seats gives each 60 / k units (60 is the least
# common multiple of 1..6, the most seats), so sums are exact integers and a run's statistics are
# the same to the last bit whatever its chunking or merge order.
WIN_UNITS = 60
MICRO = 1_000_000  # per-game ratios are summed in millionths (exact integer sums)
ROUNDS_KEPT = 3  # core/whole_game.ROUNDS_KEPT: rounds whose leader and margin the records hold
NO_ROUND = -2  # core/whole_game.NO_ROUND

# The whole-game metrics' sums (RunAggregate.lead_sums), in this order; per round k (1..ROUNDS_KEPT)
# four more: games that reached round k, the sum of their margins after it, the decided games with
# a sole leader after it, and that leader's wins in them (WIN_UNITS per win).
LEAD_SUMS = (
    "tracked_games",  # games whose records hold the whole-game metrics (checkpoints > 0)
    "lead_changes",  # sum of lead_changes
    "set_change_games",  # games with at least two checkpoints
    "set_change_rate",  # sum over them of leader_set_changes / (checkpoints - 1), in MICRO
    "margin_mean",  # sum over tracked games of margin_sum / checkpoints, in MICRO
    "single_winner_games",  # decided games with one winner
    "decisiveness",  # sum over them of led_from / length, in MICRO (0 for a game of length 0)
    "comebacks",  # ... of which the winner was last at some checkpoint
    "drama",  # sum over them of winner_deficit / checkpoints, in MICRO
    "final_margin",  # sum over them of final_margin
    "never_behind",  # ... of which the winner was never behind (winner_deficit 0: led or shared the lead throughout)
)
N_LEAD_BASE = len(LEAD_SUMS)
N_LEAD_SUMS = N_LEAD_BASE + 4 * ROUNDS_KEPT
L = {name: k for k, name in enumerate(LEAD_SUMS)}


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


@njit(cache=True, inline="always")
def _micro(x):
    """A per-game ratio (never negative) in whole millionths, rounded to the nearest (a truncation,
    not a call to rint: three per game cost more than the rest of the sums)."""
    return np.int64(x * MICRO + 0.5)


@njit(cache=True)
def _chunk_sums(winners, slots, end, length, players, n_slots, hist_size, p, has_progress):
    """One pass over a chunk's games: win shares by seat and by strategy slot, seat-games by slot,
    outcome counts, the length histograms (all games; games without a winner) and, with
    ``has_progress``, the whole-game metrics' sums (LEAD_SUMS) and the stalemates by reason. ``p``:
    the record fields of core/whole_game.PROGRESS_FIELDS in _PROGRESS_COLUMNS' order (empty arrays
    without them).

    One pass: a chunk of records larger than the caches is read from memory once (a second pass
    for the whole-game sums cost as much as the sums). The tuple is unpacked before the loop and
    the loop calls no helper with arrays: numba would count references to every array at every
    game (10 to 30 times slower)."""
    (checks_a, changes, set_changes, led_from, comeback, deficit, margin_sum, final_margin, leader_1, leader_2,
     leader_3, margin_1, margin_2, margin_3, reason) = p
    seat_wins = np.zeros(players, np.int64)
    slot_wins = np.zeros(n_slots, np.int64)
    slot_games = np.zeros(n_slots, np.int64)
    slot_decided = np.zeros(n_slots, np.int64)
    outcomes = np.zeros(4, np.int64)
    hist = np.zeros(hist_size, np.int64)
    undecided = np.zeros(hist_size, np.int64)
    lead = np.zeros(N_LEAD_SUMS, np.int64)
    reasons = np.zeros(MAX_REASONS, np.int64)
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
        if not has_progress:
            continue
        # ---- the whole-game metrics (LEAD_SUMS, in that order) and the stalemates by reason
        if e == END_STALEMATE:
            reasons[min(max(np.int64(reason[g]), 0), MAX_REASONS - 1)] += 1
        c = np.int64(checks_a[g])
        if c <= 0:
            continue
        lead[0] += 1  # tracked_games
        lead[1] += changes[g]
        if c >= 2:
            lead[2] += 1
            lead[3] += _micro(set_changes[g] / (c - 1))
        lead[4] += _micro(margin_sum[g] / c)
        # whether round r's sole leader won is a coin flip: counted without a branch
        won_share = WIN_UNITS // max(k, 1) if e == END_WIN else 0
        for r in range(ROUNDS_KEPT):
            leader = np.int64(leader_1[g] if r == 0 else (leader_2[g] if r == 1 else leader_3[g]))
            if leader != NO_ROUND:
                at = N_LEAD_BASE + 4 * r
                lead[at] += 1
                lead[at + 1] += margin_1[g] if r == 0 else (margin_2[g] if r == 1 else margin_3[g])
                led = e == END_WIN and leader >= 0
                lead[at + 2] += led
                lead[at + 3] += ((mask >> max(leader, 0)) & 1) * won_share if led else 0
        if e != END_WIN or k != 1:
            continue
        lead[5] += 1  # single_winner_games
        n = np.int64(length[g])
        if n > 0:
            lead[6] += _micro(led_from[g] / n)
        lead[7] += comeback[g] == 1
        lead[8] += _micro(deficit[g] / c)
        lead[9] += final_margin[g]
        lead[10] += deficit[g] == 0
    return seat_wins, slot_wins, slot_games, slot_decided, outcomes, hist, undecided, lead, reasons


_PROGRESS_COLUMNS = ("checkpoints", "lead_changes", "leader_set_changes", "led_from", "comeback", "winner_deficit",
                     "margin_sum", "final_margin", "leader_round_1", "leader_round_2", "leader_round_3",
                     "margin_round_1", "margin_round_2", "margin_round_3", "stalemate_reason")


_PROGRESS_TYPES = (np.int32, np.int32, np.int32, np.int32, np.int8, np.int32, np.int32, np.int32, np.int8, np.int8,
                   np.int8, np.int32, np.int32, np.int32, np.int8)  # core/whole_game.PROGRESS_FIELDS'


def _progress_columns(progress) -> tuple:
    """The whole-game fields as arrays (views of the records: no copy), in _PROGRESS_COLUMNS' order;
    empty ones without them."""
    if progress is None:
        return tuple(np.zeros(0, dtype) for dtype in _PROGRESS_TYPES)
    return tuple(np.asarray(progress[name]) for name in _PROGRESS_COLUMNS)


def lead_sums(winners, end, length, progress) -> np.ndarray:
    """The whole-game metrics' sums of some games (LEAD_SUMS): ``progress`` maps the record fields of
    core/whole_game.PROGRESS_FIELDS to one array each (a records array or a games DataFrame)."""
    winners = np.asarray(winners)
    n = len(winners)
    length = np.asarray(length)
    top = int(length.max()) + 1 if n else 1
    return _chunk_sums(winners, np.zeros((n, 1), np.int64), np.asarray(end), length, 1, 1, top,
                       _progress_columns(progress), True)[7]


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
    lead_sums: np.ndarray = field(default=None)  # the whole-game metrics' sums (LEAD_SUMS)
    stalemate_reasons: np.ndarray = field(default=None)  # stalemates by reason code

    def __post_init__(self):
        for name, size, dtype in (("seat_win_units", self.players, np.int64), ("slot_win_units", self.n_slots, np.int64),
                                  ("slot_seat_games", self.n_slots, np.int64), ("outcomes", 4, np.int64),
                                  ("length_hist", 1, np.int64), ("undecided_hist", 1, np.int64),
                                  ("slot_decided_games", self.n_slots, np.int64), ("lead_sums", N_LEAD_SUMS, np.int64),
                                  ("stalemate_reasons", MAX_REASONS, np.int64)):
            if getattr(self, name) is None:
                setattr(self, name, np.zeros(size, dtype))

    # -- building -----------------------------------------------------------------------------
    def add(self, winners: np.ndarray, slots: np.ndarray, end: np.ndarray, length: np.ndarray,
            progress=None) -> RunAggregate:
        """Add games: winners bit masks, (n, P) strategy slots, end codes and lengths; ``progress``:
        the records' whole-game fields (core/whole_game.PROGRESS_FIELDS), by name, when they have them."""
        winners = np.asarray(winners)
        n = len(winners)
        if n == 0:
            return self
        length = np.asarray(length)
        top = int(length.max()) + 1
        seat_wins, slot_wins, slot_games, slot_decided, outcomes, hist, undecided, lead, reasons = _chunk_sums(
            winners, np.asarray(slots), np.asarray(end), length, self.players, self.n_slots, top,
            _progress_columns(progress), progress is not None)
        self.lead_sums += lead
        self.stalemate_reasons += reasons
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
        progress = records if "checkpoints" in (records.dtype.names or ()) else None
        return cls(players, n_slots).add(records["winners"], records["strategy"][:, :players], records["end"],
                                         records["length"], progress)

    @classmethod
    def from_games(cls, games: pd.DataFrame, players: int, n_slots: int) -> RunAggregate:
        slots = np.stack([games[f"strategy_{s}"].to_numpy() for s in range(players)], axis=1)
        progress = games if "checkpoints" in games.columns else None
        return cls(players, n_slots).add(games["winners"].to_numpy(), slots, games["end"].to_numpy(),
                                         games["length"].to_numpy(), progress)

    def merge(self, other: RunAggregate) -> RunAggregate:
        size = max(len(self.length_hist), len(other.length_hist))
        out = RunAggregate(self.players, self.n_slots, self.n + other.n, self.seat_win_units + other.seat_win_units,
                           self.slot_win_units + other.slot_win_units, self.slot_seat_games + other.slot_seat_games,
                           self.outcomes + other.outcomes,
                           _grow(self.length_hist, size) + _grow(other.length_hist, size),
                           _grow(self.undecided_hist, size) + _grow(other.undecided_hist, size),
                           self.slot_decided_games + other.slot_decided_games, self.lead_sums + other.lead_sums,
                           self.stalemate_reasons + other.stalemate_reasons)
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

    def lead(self, progress: str | None = None) -> dict | None:
        """The whole-game metrics (docs/metrics.md, "Whole-game metrics"); None when no game tracked
        its progress. ``progress``: what the engine's progress measure is, in words."""
        sums = {name: int(self.lead_sums[k]) for k, name in enumerate(LEAD_SUMS)}
        tracked = sums["tracked_games"]
        if tracked == 0:
            return None
        single = sums["single_winner_games"]

        def per(total: int, games: int, scale: int = 1):
            return total / scale / games if games else None

        rounds = []
        for k in range(ROUNDS_KEPT):
            at = N_LEAD_BASE + 4 * k
            reached, margins, led, units = (int(v) for v in self.lead_sums[at:at + 4])
            wins = units / WIN_UNITS
            lo, hi = wilson(wins, led) if led else (None, None)
            rounds.append({"round": k + 1, "games": reached, "mean_margin": per(margins, reached),
                           "decided_with_sole_leader": led, "leader_wins": per(units, led, WIN_UNITS),
                           "ci_low": None if lo is None else float(lo), "ci_high": None if hi is None else float(hi),
                           "fair_share": 1.0 / self.players})
        return {
            "progress": progress,
            "games": tracked,
            "lead_changes_mean": per(sums["lead_changes"], tracked),
            "lead_change_rate": per(sums["set_change_rate"], sums["set_change_games"], MICRO),
            "mean_margin": per(sums["margin_mean"], tracked, MICRO),
            "single_winner_games": single,
            "decisiveness": per(sums["decisiveness"], single, MICRO),
            "never_behind": per(sums["never_behind"], single),
            "comeback_wins": per(sums["comebacks"], single),
            "drama": per(sums["drama"], single, MICRO),
            "final_margin": per(sums["final_margin"], single),
            "rounds": rounds,
        }

    def stalemates(self, reasons=None) -> list[dict]:
        """Stalemates by reason, most frequent first: code, name, what happened, games, share of all
        games. ``reasons``: the engine's ``stalemate_reasons`` (code -> (name, description))."""
        reasons = reasons or {}
        rows = []
        for code in np.flatnonzero(self.stalemate_reasons):
            name, text = reasons.get(int(code), ("unspecified", "the engine gave no reason"))
            games = int(self.stalemate_reasons[code])
            rows.append({"code": int(code), "reason": name, "description": text, "games": games,
                         "share": games / self.n})
        return sorted(rows, key=lambda row: (-row["games"], row["code"]))

    def summary(self, slot_names: tuple[str, ...], length_unit: str = "turns", progress: str | None = None,
                reasons=None) -> dict:
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
            "stalemates": self.stalemates(reasons),
            "lead": self.lead(progress),
        }


# Rows copied at a time by ``contiguous_columns``: a block of records (about 200 bytes a game in the
# larger engines) stays in the CPU's cache while each of its columns is copied out of it.
COLUMN_BLOCK = 4096


def contiguous_columns(games: pd.DataFrame, names: list[str] | None = None) -> dict[str, np.ndarray]:
    """The frame's numeric columns ``names`` (default: every column that is not categorical) as
    contiguous arrays, copied block by block of rows.

    A run's columns are strided views into its records (core/records.records_to_frame), so each
    pass over one column reads a cache line per game: at 10^6 games, copying a hundred columns one
    after the other reads the records a hundred times over (0.4 s), and an operation on a strided
    column costs several times its cost on a contiguous one. Copying all of them block by block
    reads the records once. The values are the same; only their layout differs."""
    if names is None:
        names = [c for c in games.columns if not isinstance(games[c].dtype, pd.CategoricalDtype)]
    sources = [games[c].to_numpy() for c in names]
    out = [np.empty(len(s), dtype=s.dtype) for s in sources]
    for start in range(0, len(games), COLUMN_BLOCK):
        stop = start + COLUMN_BLOCK
        for source, target in zip(sources, out, strict=True):
            target[start:stop] = source[start:stop]
    return dict(zip(names, out, strict=True))
