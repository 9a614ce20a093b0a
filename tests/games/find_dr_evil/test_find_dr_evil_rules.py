"""find-dr-evil rules on scripted deals with exact outcomes.

Scripted games use a small deck: ``POSE`` gives each card's pose; the last pose is Dr. Ling's own.
``order_for(hands)`` arranges the deck so the deal (card k to seat (k + 1) % P) gives those hands.
"""

import numpy as np
import pytest

from simbalance.api import simulate
from simbalance.core.errors import ConfigError
from simbalance.core.records import END_TIMEOUT, END_WIN
from simbalance.games.find_dr_evil.engine import RECORD_DTYPE
from simbalance.games.find_dr_evil.play_nb import play_scripted, scripted_rules

A1, A2, B1, B2, C1, C2, LING, A3, A4 = range(9)
POSE = np.array([0, 0, 1, 1, 2, 2, 3, 0, 0], dtype=np.int64)  # poses A, B, C; Dr. Ling is pose 3


def order_for(hands: list[list[int]]) -> np.ndarray:
    players = len(hands)
    queues = [list(h) for h in hands]
    order = []
    k = 0
    while any(queues):
        seat = (k + 1) % players
        if not queues[seat]:
            raise ValueError("hands do not match the dealing order")
        order.append(queues[seat].pop(0))
        k += 1
    return np.array(order, dtype=np.int64)


def play(hands, seed=0, game=0, cap=10_000, repeat=True, repeat_min=3):
    out = np.zeros(1, RECORD_DTYPE)
    rules = scripted_rules(cap, repeat, repeat_min)
    play_scripted(order_for(hands), POSE, np.int64(LING), np.int64(len(hands)), rules,
                  np.uint64(seed), np.int64(game), out)
    return out[0]


def test_deal_that_leaves_only_dr_ling_is_won_at_once():
    rec = play([[A1, A2], [LING, B1, B2]])
    assert rec["end"] == END_WIN and rec["length"] == 0 and rec["winner"] == 1
    assert rec["kept"][0] == 0 and rec["kept"][1] == 1


def test_a_deck_of_dr_ling_alone_is_refused_and_one_pair_more_plays():
    """Issue 42 item 6: with Dr. Ling alone every deal ends the game before the first pick, won by the
    seat dealt Dr. Ling (runs played such games of length 0, player 2 winning all); with one pair
    more (cards 1 and 2, one pose) games are played."""
    with pytest.raises(ConfigError, match="Dr. Ling alone .* no game can be played"):
        simulate("find-dr-evil", 10, overrides={"deck.removed": list(range(1, 49))})
    one_pair = simulate("find-dr-evil", 200, players=2, overrides={"deck.removed": list(range(3, 49))})
    assert one_pair.games["length"].max() > 0


def test_three_of_a_pose_leaves_one_card():
    rec = play([[A1, A2, A3, B1], [A4, B2, LING, C1, C2]])
    assert rec["kept"][0] == 2 and rec["kept"][1] == 3  # seat 0 keeps A3 and B1; seat 1 drops the C pair


def test_forced_two_player_game():
    # Seat 0 offers its only card (A) to seat 1, who pairs it and keeps Dr. Ling.
    rec = play([[A1], [A2, LING]])
    assert rec["end"] == END_WIN and rec["winner"] == 1 and rec["length"] == 1
    assert rec["winners"] == 0b10 and rec["ling_dealt"] == 1


def test_a_pair_lets_the_picker_pick_again_from_the_same_offerer():
    # Seat 1 picks from seat 0 twice in a row (each pick pairs, three seats hold cards), seat 0 is
    # out, then seat 2 picks C from seat 1 and is left with Dr. Ling: 3 picks, seat 2 wins.
    for seed in range(20):
        rec = play([[A1, B1], [A2, B2, C1], [LING, C2]], seed=seed)
        assert (rec["end"], rec["winner"], rec["length"]) == (END_WIN, 2, 3)


def test_variant_without_repeat_picks_passes_the_turn_after_a_pair():
    # The deal of the repeat-pick test: with the rule it always takes 3 picks; without it seat 1
    # offers to seat 2 after its first pair, and no game can end before the 4th pick.
    lengths = {int(play([[A1, B1], [A2, B2, C1], [LING, C2]], seed=s, repeat=False)["length"]) for s in range(40)}
    assert min(lengths) == 4 and len(lengths) > 1


def test_two_players_do_not_pick_again_after_a_pair():
    # Seat 1 picks from seat 0 and pairs; with two players the turn passes: seat 1 offers next.
    # Seat 1 then holds B2 + Ling; seat 0 holds B1 and picks one of them.
    lengths, winners = set(), set()
    for seed in range(200):
        rec = play([[A1, B1], [A2, B2, LING]], seed=seed)
        lengths.add(int(rec["length"]))
        winners.add(int(rec["winner"]))
    assert min(lengths) == 2  # pick A or B (pair), then seat 0 picks the other pose (pair): Ling stays
    assert winners == {0, 1}


def test_pick_cap_ends_as_timeout():
    rec = play([[A1, B1], [A2, B2, LING]], cap=1)
    assert rec["end"] == END_TIMEOUT and rec["winner"] == -1 and rec["winners"] == 0 and rec["length"] == 1


@pytest.mark.parametrize("seed", range(3))
def test_dealt_mask_records_the_deal(seed):
    hands = [[A1, C2], [A2, B2, LING], [B1, C1]]
    rec = play(hands, seed=seed)
    for s, hand in enumerate(hands):
        assert rec["dealt_mask"][s] == sum(1 << c for c in hand)


def test_replay_tells_the_game_the_run_played():
    from simbalance.api import plan_run, simulate
    from simbalance.games.find_dr_evil.replay import replay

    games = simulate("find-dr-evil", 50, seed=11, players=3).games
    for index in (0, 17, 49):
        lines = replay(plan_run("find-dr-evil", 50, seed=11, players=3), index)
        row = games.iloc[index]
        assert lines[-1] == f"Only Dr. Ling is left: player {int(row['winner']) + 1} holds him and wins after {int(row['length'])} picks."
        assert sum(line.startswith("Pick ") for line in lines) == row["length"]
