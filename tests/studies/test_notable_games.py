"""The notable games (studies/run.notable_games) on planted records: the right games by hand, and the
same answer as the per-game loop it replaced (issue 56), ties, timeouts and stalemates included.

No game is played: the records are written here, in the engine's record layout, and handed to a
SimulationResult of a real plan (so the replay commands are the real ones).
"""

from __future__ import annotations

import numpy as np
import pytest

from simbalance.analysis.findings import amount
from simbalance.core.records import END_STALEMATE, END_TIMEOUT, END_WIN, win_shares
from simbalance.studies.run import SimulationResult, notable_games, replay_command
from simbalance.studies.settings import plan_run


def planted_result(plan, winners, length, end, slots) -> SimulationResult:
    records = np.zeros(len(winners), plan.engine.record_dtype)
    records["game"] = np.arange(len(winners))
    records["winners"] = winners
    records["length"] = length
    records["end"] = end
    records["strategy"][:, :plan.players] = slots
    return SimulationResult(plan, records, 1.0, None, records[:0], len(records))


def loop_notable_games(result: SimulationResult) -> list[dict]:
    """The implementation before issue 56 (a Python loop over the single-winner games), kept as the
    reference the vectorised one must match exactly."""
    games = result.stats_games
    plan = result.plan
    if not len(games) or plan.engine.replay is None:
        return []
    length = games["length"].to_numpy()
    end = games["end"].to_numpy()
    index = games["game"].to_numpy()
    unit = plan.spec.length_unit
    out = []
    decided = np.flatnonzero(end == END_WIN)
    if len(decided):
        median = float(np.median(length[decided]))
        pick = decided[np.argmin(np.abs(length[decided] - median))]
        out.append({"what": "a typical game", "game": int(index[pick]),
                    "why": f"{amount(length[pick], unit)}, the median of the games with a winner"})
    pick = int(np.argmax(length))
    kind = {END_TIMEOUT: " (it hit the cap)", END_STALEMATE: " (a stalemate)"}.get(int(end[pick]), "")
    out.append({"what": "the longest game", "game": int(index[pick]), "why": f"{amount(length[pick], unit)}{kind}"})
    shares = win_shares(games["winners"].to_numpy(), plan.players)
    slots = np.stack([games[f"strategy_{s}"].to_numpy() for s in range(plan.players)], axis=1)
    single = np.flatnonzero((end == END_WIN) & ((shares == 1.0).sum(axis=1) == 1))
    if len(single):
        rates = {}
        for s in range(plan.players):
            for slot in np.unique(slots[:, s]):
                rates[(s, int(slot))] = float(shares[slots[:, s] == slot, s].mean())
        winner = np.argmax(shares[single], axis=1)
        prior = np.array([rates[(int(w), int(slots[g, w]))] for g, w in zip(single, winner, strict=True)])
        order = np.lexsort((length[single], prior))
        g, w = single[order[0]], int(winner[order[0]])
        name = plan.lineup.slot_names[int(slots[g, w])]
        out.append({"what": "the most surprising win", "game": int(index[g]),
                    "why": (f"won by player {w + 1} ({name}), whose seat and strategy win {100 * prior[order[0]]:.1f}% "
                            f"of this run's games, in {amount(length[g], unit)}")})
    for item in out:
        item["command"] = replay_command(plan, item["game"])
    return out


def lineup_plan(players: int):
    """captain-action with two or three strategies rotated over the seats: several slots per seat."""
    return plan_run("captain-action", 10, players=players, seed=4, rotate=True,
                    strategies="builder,bold" + ",random" * (players - 2))


def test_the_notable_games_are_the_planted_ones():
    """Five 2-player games, player 1 builder and player 2 bold: player 1 wins games 0 and 4 alone and
    shares game 1, player 2 wins game 2 alone, game 3 times out. So player 2 wins 1.5 games of 5 and
    its win (game 2) is the surprising one; the decided games' lengths (10, 20, 14, 12) have the
    median 13, games 2 and 4 equally near it (the first is taken); the longest is the timeout."""
    plan = lineup_plan(2)
    result = planted_result(plan, winners=np.array([0b01, 0b11, 0b10, 0, 0b01], np.uint8),
                            length=np.array([10, 20, 14, 30, 12]),
                            end=np.array([END_WIN, END_WIN, END_WIN, END_TIMEOUT, END_WIN], np.int8),
                            slots=np.array([[0, 1], [0, 1], [0, 1], [0, 1], [0, 1]]))
    typical, longest, surprising = notable_games(result)
    assert typical["game"] == 2 and longest["game"] == 3 and surprising["game"] == 2
    assert longest["why"].endswith("(it hit the cap)")
    # seat 2 (bold) won game 2 alone and half of game 1: 1.5 of 5 games
    assert surprising["why"].startswith("won by player 2 (bold), whose seat and strategy win 30.0% ")
    assert surprising["command"] == replay_command(plan, 2)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_the_notable_games_match_the_loop_they_replaced(players, seed):
    """Random planted records with many equal lengths and equal rates (the tie-breaks), shared wins,
    timeouts and stalemates: the vectorised notable games equal the per-game loop's, field by field."""
    plan = lineup_plan(players)
    rng = np.random.default_rng(seed)
    n = 3000
    end = rng.choice([END_WIN, END_TIMEOUT, END_STALEMATE], size=n, p=[0.85, 0.1, 0.05]).astype(np.int8)
    winners = rng.integers(1, 1 << players, size=n).astype(np.uint8)  # often several bits: ties
    single = rng.random(n) < 0.7
    winners[single] = (1 << rng.integers(0, players, size=single.sum())).astype(np.uint8)
    winners[end != END_WIN] = 0
    length = rng.integers(5, 40, size=n)  # few values: many games of the same length
    slots = plan.lineup.seats[rng.integers(0, len(plan.lineup.seats), size=n)]
    result = planted_result(plan, winners, length, end, slots)
    found = notable_games(result)
    assert [item["what"] for item in found] == ["a typical game", "the longest game", "the most surprising win"]
    assert found == loop_notable_games(result)


def test_without_a_single_winner_there_is_no_surprising_win():
    plan = lineup_plan(3)
    result = planted_result(plan, winners=np.array([0b011, 0b110, 0], np.uint8), length=np.array([8, 9, 10]),
                            end=np.array([END_WIN, END_WIN, END_STALEMATE], np.int8),
                            slots=np.array([[0, 1, 2]] * 3))
    found = notable_games(result)
    assert found == loop_notable_games(result)
    assert [item["what"] for item in found] == ["a typical game", "the longest game"]
    assert found[1]["why"].endswith("(a stalemate)")


@pytest.mark.parametrize(("lengths", "expected"), [((10, 10, 12, 12), 0), ((10, 8, 12, 12), 1)])
def test_equally_surprising_wins_go_to_the_shorter_then_the_first_game(lengths, expected):
    """Players 1 and 2 each win 2 games of 4 alone: equally surprising. The shorter of their games
    is the surprising one; of two as short, the first."""
    plan = lineup_plan(2)
    result = planted_result(plan, winners=np.array([0b01, 0b10, 0b01, 0b10], np.uint8), length=np.array(lengths),
                            end=np.full(4, END_WIN, np.int8), slots=np.array([[0, 1]] * 4))
    found = notable_games(result)
    assert found == loop_notable_games(result)
    assert found[2]["game"] == expected and "win 50.0% " in found[2]["why"]
