"""The block loop of simbalance/testing.no_winner_excess itself (qa56c, issue 56), on planted games:
its play_chunk and the heuristic table's simulate are replaced by games whose endings are known, so
the loop (its blocks, where it stops, what it returns and what check_search_makes_no_stalemates
says) is what is checked, with no kernel played. tests/players/test_no_winner_check.py checks
settled_above with a loop of its own: a slip in this one would pass there."""

from __future__ import annotations

import re

import numpy as np
import pytest

import simbalance.testing as testing
from simbalance.core.aggregate import RunAggregate
from simbalance.core.records import END_STALEMATE, END_TIMEOUT, END_WIN
from simbalance.testing import STALL_BLOCK, STALL_GAMES, STALL_HEURISTIC_GAMES, stall_excess

GAME = "lady-actions-escape"  # a game with search players; its plan readies without a refit
HEURISTIC = (64, 732)  # blocker's timeouts and stalemates in 4,000 games at seed 23


def heuristic_table() -> RunAggregate:
    agg = RunAggregate(players=4, n_slots=1, n=STALL_HEURISTIC_GAMES)
    agg.outcomes[:] = [STALL_HEURISTIC_GAMES - sum(HEURISTIC), 0, *HEURISTIC]
    return agg


@pytest.fixture
def planted(monkeypatch):
    """Plant the all-search table's endings (an array of END_ codes, one per game): the chunks the
    loop asks for are recorded."""
    asked: list[tuple[int, int]] = []
    state = {}

    def play_chunk(engine, lineup, prepared, seed, first, size, threads, kernel=None, out=None, on_games=None):
        asked.append((first, size))
        records = np.zeros(size, engine.record_dtype)
        records["game"] = np.arange(first, first + size)
        records["end"] = state["ends"][first:first + size]
        records["winners"] = np.where(records["end"] == END_WIN, 1, 0)
        records["length"] = 10
        return records

    class Heuristic:
        aggregate = heuristic_table()

    monkeypatch.setattr(testing, "play_chunk", play_chunk)
    monkeypatch.setattr(testing, "simulate", lambda *args, **kwargs: Heuristic)

    def plant(ends: np.ndarray) -> list[tuple[int, int]]:
        state["ends"] = ends
        asked.clear()
        return asked

    return plant


def above(counts: np.ndarray, played: int) -> set[str]:
    agg = RunAggregate(players=4, n_slots=1, n=played)
    agg.outcomes[:] = [counts[END_WIN], 0, counts[END_TIMEOUT], counts[END_STALEMATE]]
    return {name for name, e in stall_excess(agg, heuristic_table()).items() if e.low > 0}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_loop_stops_only_on_a_failure_and_plays_all_the_games_of_a_pass(planted, seed):
    rng = np.random.default_rng(seed)
    codes = np.array([END_WIN, END_TIMEOUT, END_STALEMATE])
    for shares in ([0.78, 0.10, 0.12], [0.801, 0.016, 0.183], [0.80, 0.03, 0.17]):
        ends = rng.choice(codes, size=STALL_GAMES, p=shares)
        for order in (ends, np.sort(ends), np.sort(ends)[::-1]):  # the no-winner games first or last
            whole = above(np.bincount(order, minlength=3), STALL_GAMES)
            asked = planted(order.copy())
            excess, rollout, played, settled = testing.no_winner_excess(GAME, stop_when_settled=True)
            assert asked == [(first, min(STALL_BLOCK, played - first)) for first in range(0, played, STALL_BLOCK)]
            assert bool(whole) == (played < STALL_GAMES or bool(settled)), (shares, played, settled, whole)
            assert set(settled) <= whole
            if not whole:
                assert played == STALL_GAMES and not settled
            assert excess == stall_excess(_played(order, played), heuristic_table())
            asked = planted(order.copy())
            excess, _, played_all, _ = testing.no_winner_excess(GAME, stop_when_settled=False)
            assert asked == [(0, STALL_GAMES)] and played_all == STALL_GAMES
            assert {name for name, e in excess.items() if e.low > 0} == whole


def _played(ends: np.ndarray, played: int) -> RunAggregate:
    agg = RunAggregate(players=4, n_slots=1, n=played)
    counts = np.bincount(ends[:played], minlength=3)
    agg.outcomes[:] = [counts[END_WIN], 0, counts[END_TIMEOUT], counts[END_STALEMATE]]
    return agg


def test_the_failure_stopped_early_says_the_games_played_and_the_least_excess_at_all_of_them(planted):
    """The old search's shares, its no-winner games first: the check stops early, and its line gives
    the games played, the excess in them, and at STALL_GAMES the least excess however the rest end
    (every game not played won) with its interval."""
    ends = np.full(STALL_GAMES, END_WIN)
    ends[:90], ends[90:190] = END_TIMEOUT, END_STALEMATE
    planted(ends)
    with pytest.raises(AssertionError) as failed:
        testing.check_search_makes_no_stalemates(GAME)
    said = str(failed.value)
    played = int(re.search(r"in the first (\d+) games", said).group(1))
    assert played < STALL_GAMES and f"{played} of {STALL_GAMES} games played" in said, said
    least = stall_excess(_played(np.where(np.arange(STALL_GAMES) < played, ends, END_WIN), STALL_GAMES),
                         heuristic_table())
    name = "timeout (ran into the cap)"
    e = least[name]
    assert (f"{name}: " in said and f"at {STALL_GAMES} games at least {100 * e.estimate:+.1f} "
            f"(CI {100 * e.low:+.1f} to {100 * e.high:+.1f})") in said, said
