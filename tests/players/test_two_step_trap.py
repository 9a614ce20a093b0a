"""Stronger than one-step look-ahead where the game rewards it (issue 53 item 2), on the planted game
tests/planted/two_step_trap: the leader plays safe (a coin for the round's point) or attacks, and
an attack loses the round to the one reply the round's card shows, wins it to any other.

The right answers are known: against a seat that reads the card, attacking loses the round for
sure and playing safe wins it half the time, so a two-step player never attacks; ``flat`` (one step,
its play-outs replying at random: an attack wins 3/4 of them) attacks nearly always. A player that
never attacks against one that always does wins 0.9375 of 6 rounds (``never_attacks_share``)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

pytest.importorskip("numba")
from planted.plugins import installed  # noqa: E402

import simbalance  # noqa: E402
from simbalance.core.records import win_shares  # noqa: E402

GAME = "two-step-trap"
ROUNDS = 6


@pytest.fixture(scope="module", autouse=True)
def trap_game():
    with installed("two_step_trap"):
        yield


def never_attacks_share(rounds: int = ROUNDS) -> Fraction:
    """The exact win share (ties shared) of a seat that plays safe against one that always attacks
    (and is refuted): it wins every round the other leads, and a fair coin in each of its own."""
    own = rounds // 2
    other = rounds - own
    share = Fraction(0)
    for heads in range(own + 1):  # its own rounds won on the coin
        p = Fraction(math.comb(own, heads), 2 ** own)
        mine, theirs = other + heads, own - heads
        share += p * (1 if mine > theirs else Fraction(1, 2) if mine == theirs else 0)
    return share


def test_the_exact_share():
    assert never_attacks_share() == Fraction(15, 16)


@pytest.mark.parametrize("mcts_seat", [0, 1])
def test_mcts_beats_flat_at_equal_budget_where_one_step_is_fooled(mcts_seat):
    """``mcts`` (256 iterations) against ``flat`` (256 play-outs a decision), 400 games: ``flat``
    attacks in more than 80 % of its leads (fooled), ``mcts`` in fewer than 30 %, and ``mcts``
    takes more than 0.85 of the pair's wins (a perfect two-step player: 15/16; ``flat`` against
    ``flat``: 1/2), from either seat."""
    lineup = ["flat", "flat"]
    lineup[mcts_seat] = "mcts"
    records = simbalance.simulate(GAME, 400, players=2, seed=5, strategies=lineup, threads=1).records
    shares = win_shares(records["winners"], 2).mean(axis=0)
    leads = ROUNDS // 2
    attacks = records["attacks"][:, :2].mean(axis=0) / leads
    assert attacks[1 - mcts_seat] > 0.8 and attacks[mcts_seat] < 0.3, attacks
    assert shares[mcts_seat] > 0.85, shares
    assert shares[mcts_seat] <= float(never_attacks_share()) + 3 * np.sqrt(0.06 / 400), shares
