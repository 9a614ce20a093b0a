"""captain-future --validate: the invariant check catches broken states, changes no game, and a
broken game stops the run with its seed and game index."""

from __future__ import annotations

import numpy as np
import pytest
from captain_future_helpers import Table, deck_order
from typer.testing import CliRunner

import simbalance
from simbalance.api import SimulationResult, plan_run
from simbalance.cli.main import app
from simbalance.core.execution import EngineInvariantError
from simbalance.core.records import END_INVALID
from simbalance.core.rng import seed_game
from simbalance.games.captain_future import state_nb as X
from simbalance.games.captain_future import validate_nb as V
from simbalance.games.captain_future.engine import replay
from simbalance.games.captain_future.play_nb import deal_and_begin, play_on
from simbalance.games.captain_future.rules_nb import deal, scores_recomputed
from simbalance.games.captain_future.state_nb import STONE_BODY

LINEUPS = [
    dict(players=4, strategies="random"),
    dict(players=4, strategies=None),  # builder x 4
    dict(players=4, strategies=["aggressor", "random", "builder", "aggressor"], rotate=True,
         overrides={"rules.stone_start": "anywhere", "rules.events_per_turn": 2}),
    dict(players=3, strategies=["aggressor", "builder", "random"], rotate=True),
    dict(players=2, strategies=["random", "aggressor"], rotate=True),
    dict(players=3, strategies=["builder", "random", "aggressor"], overrides={"rules.reshuffle_discards": False}),
]


@pytest.mark.parametrize("setup", LINEUPS)
def test_validation_changes_no_game(setup):
    n = 2000
    plain = simbalance.simulate("captain-future", n, seed=21, **setup).records
    checked = simbalance.simulate("captain-future", n, seed=21, validate=True, **setup).records
    assert np.array_equal(plain, checked)  # every field of every game, bit for bit
    assert not (checked["end"] == END_INVALID).any()


def test_a_validated_default_run_breaks_no_invariant():
    res = simbalance.simulate("captain-future", 3000, validate=True)
    assert (res.games["end"] != END_INVALID).all() and len(res.games) == 3000


def test_run_validate_from_the_command_line(tmp_path):
    res = CliRunner().invoke(app, ["run", "captain-future", "--n", "2000", "--validate", "--seed", "4",
                                   "--out", str(tmp_path / "r"), "--quiet"])
    assert res.exit_code == 0, (res.output, res.exception)
    assert (tmp_path / "r" / "games.parquet").is_file()


# ---- the check itself, on hand-made states ---------------------------------------------------------

def dealt_table(seed: int = 1) -> Table:
    """A sound position: the deck dealt, some ships on the board, Saturn conquered."""
    t = Table()
    rng = np.zeros(1, np.uint64)
    seed_game(rng, np.uint64(seed), np.int64(0))
    deal(t.bd, t.st, deck_order(t.bd, rng))
    t.put(0, "C6", "C7", "C8", "C9", "D6")
    t.put(1, "D7", "D8")
    t.put(2, "D9", "G1")
    return t


def check(t: Table) -> int:
    return int(V.check_invariants(t.bd, t.st, np.zeros(X.WORK_SIZE, np.int64)))


def test_a_sound_position_passes():
    t = dealt_table()
    assert check(t) == X.INV_OK
    live = t.st[X.SCORE:X.SCORE + 4].copy()
    again = np.zeros(4, np.int64)
    scores_recomputed(t.bd, t.st, again)
    assert np.array_equal(live, again)


def _card_in_stack_changed(t: Table) -> None:
    t.st[X.STACK] = (t.st[X.STACK] + 1) % t.bd[X.KJ]


def _card_vanishes(t: Table) -> None:
    k = int(np.flatnonzero(t.st[X.HANDS:X.HANDS + X.MK])[0])
    t.st[X.HANDS + k] -= 1
    t.st[X.HAND_N] -= 1


def _extra_card(t: Table) -> None:
    t.give(2, t.joker)


CORRUPTIONS = {
    "a ship vanishes from supply": (lambda t: t.st.__setitem__(X.SUPPLY + 1, t.st[X.SUPPLY + 1] - 1), X.INV_SHIPS),
    "a ship too many was removed": (lambda t: t.st.__setitem__(X.REMOVED + 3, 1), X.INV_SHIPS),
    "a space held by seat 7": (lambda t: t.st.__setitem__(X.OWNER + t.space("A1"), 7), X.INV_OWNER),
    "a space changes hands without counts": (
        lambda t: t.st.__setitem__(X.OWNER + t.space("C6"), 1), X.INV_COUNTS),
    "a ship count per body": (lambda t: t.st.__setitem__(X.CNT + t.body("saturn") * X.MP + 3, 1), X.INV_COUNTS),
    "a body's filled count": (lambda t: t.st.__setitem__(X.FILLED + t.body("io"), 2), X.INV_COUNTS),
    "a majority holder": (lambda t: t.st.__setitem__(X.BHOLD + t.body("saturn"), 2), X.INV_SUMMARY),
    "a body's bonus": (lambda t: t.st.__setitem__(X.BAWA + t.body("saturn"), 7), X.INV_SUMMARY),
    "a second largest count": (lambda t: t.st.__setitem__(X.BSEC + t.body("saturn"), 0), X.INV_SUMMARY),
    "a body marked conquered that is not full": (lambda t: t.st.__setitem__(X.CONQ, 1 << t.body("io")),
                                                  X.INV_SUMMARY),
    "a live score": (lambda t: t.st.__setitem__(X.SCORE + 2, t.st[X.SCORE + 2] + 1), X.INV_SCORE),
    "the stone off the board": (lambda t: t.st.__setitem__(X.STONE_I, 12), X.INV_STONE),
    "an empty-space count": (lambda t: t.st.__setitem__(X.EMPTY_K + t.row_card("A"), 0), X.INV_EMPTY),
    "an empty-space count per line and body": (lambda t: t.st.__setitem__(X.ELB + t.row_card("A") * X.MB, 9),
                                               X.INV_EMPTY),
    "a hand above the hand size": (_extra_card, X.INV_HAND),
    "a hand size that is not its cards": (lambda t: t.st.__setitem__(X.HAND_N + 1, 9), X.INV_HAND),
    "a negative card count": (lambda t: t.give(0, t.row_card("A"), -(t.hand(0, t.row_card("A")) + 1)), X.INV_HAND),
    "a card vanishes": (_card_vanishes, X.INV_CARDS),
    "a card in the stack changes kind": (_card_in_stack_changed, X.INV_CARDS),
    "a card kind that does not exist": (lambda t: t.st.__setitem__(X.DISCARD, 200) or t.st.__setitem__(
        X.NDISC, 1), X.INV_CARDS),
    "an end seat that is no seat": (lambda t: t.st.__setitem__(X.END_SEAT, 4), X.INV_END_SEAT),
    "a turn of a seat that is no seat": (lambda t: t.st.__setitem__(X.SEAT, 4), X.INV_TURN),
    "an action slot beyond the last": (lambda t: t.st.__setitem__(X.SLOT, 2), X.INV_TURN),
    "more events left than a turn has": (lambda t: t.st.__setitem__(X.EVENTS_LEFT, 2), X.INV_TURN),
}


@pytest.mark.parametrize("name", list(CORRUPTIONS))
def test_a_broken_state_is_caught(name):
    corrupt, expected = CORRUPTIONS[name]
    t = dealt_table()
    corrupt(t)
    assert check(t) == expected, name
    assert expected in V.INVARIANTS


def test_every_game_state_passes_and_a_broken_deal_ends_the_game_invalid():
    # A whole game with the check after every step; then the same with a card that is not in the deck.
    t = Table(strategies=(0, 1, 2, 1))
    rng = np.zeros(1, np.uint64)
    seed_game(rng, np.uint64(5), np.int64(0))
    order = deck_order(t.bd, rng)
    work = np.zeros(X.WORK_SIZE, np.int64)
    prm = np.tile(np.array([0.5, 0.5, 0.6, 0.45, 0.1, 2.0, 2.0, 1.5, 3.0, 0.0]), (4, 1))

    def play(order):
        deal_and_begin(t.bd, t.st, t.fs, rng, order, STONE_BODY, 0, work)
        play_on(t.bd, t.st, t.fs, np.zeros(X.ML, np.int64), rng, prm, -1, -1, work)
        return int(t.st[X.END]), int(t.st[X.TURN])

    end, turns = play(order)
    assert end != END_INVALID and turns > 0 and work[X.W_BAD] == 0
    order[3] = order[3] + 1 if order[3] + 1 != order[4] else order[3] + 2  # one card is not the deck's
    end, turns = play(order)
    assert (end, turns) == (END_INVALID, 0) and work[X.W_BAD] == X.INV_CARDS


def test_a_broken_game_stops_the_run_with_seed_and_game_and_its_replay_says_why():
    plan = plan_run("captain-future", 50, seed=8, validate=True)
    bd = plan.prepared[0]
    bd[X.DECK + 5] = bd[X.KJ] + 10  # a card kind that does not exist: every deal breaks an invariant
    with pytest.raises(EngineInvariantError, match="game 0 of seed 8 broke an engine invariant"):
        SimulationResult.from_plan(plan)
    lines = replay(plan, 0)
    assert lines[-1] == ("Validation: in turn 0 an invariant broke: the cards in hands, stack and discard pile are not "
                         "the deck. The game stops here (end = invalid): this is a bug in the engine.")
