"""lady-actions-escape heuristics on chosen positions: ties broken uniformly at random from the game's
own stream; and two readings of the rules: the first leader, and Lady Action with two players."""

import numpy as np
import pytest

import simbalance
from simbalance.api import plan_run
from simbalance.core.config import load_config
from simbalance.core.errors import ConfigError
from simbalance.core.rng import seed_game
from simbalance.games.lady_actions_escape.deck import game_deck
from simbalance.games.lady_actions_escape.engine import RECORD_DTYPE, STRATEGY_PARAMS, prepare
from simbalance.games.lady_actions_escape.state_nb import (
    BLOCKER,
    EV_PLAY,
    EV_TURN,
    FLEXIBLE,
    P_BG_WEIGHT,
    P_CH_WEIGHT,
    P_DANGER,
    P_WEAPON_HOLD,
    P_WILD_HOLD,
)
from simbalance.games.lady_actions_escape.strategies_nb import (
    choose_card,
    name_background,
    name_character,
)

CFG = load_config("lady-actions-escape")
DECK = game_deck(CFG)
CARD_INFO, MATCH, KIND_CARDS, GAME_RULES, _ = prepare(CFG, 4)
N_BG = len(DECK.backgrounds)
ID = {int(DECK.number[c]): c for c in range(DECK.size) if DECK.number[c] > 0}
PERIWINKLE, CRIMSON = 0, 1
CAPTAIN, BOY = 0, 1


def params(name):
    p = np.zeros(16)
    for k, key in enumerate(STRATEGY_PARAMS[name]):
        p[k] = CFG["strategies"][name][key]
    return p


def mask(numbers):
    m = 0
    for n in numbers:
        m |= 1 << ID[n]
    return np.uint64(m)


def test_parameter_constants_follow_the_declared_names():
    names = STRATEGY_PARAMS["blocker"]
    assert [names.index(k) for k in ("bg_weight", "char_weight", "wild_hold", "danger", "weapon_hold")] == [
        P_BG_WEIGHT, P_CH_WEIGHT, P_WILD_HOLD, P_DANGER, P_WEAPON_HOLD]


@pytest.mark.parametrize("name, sid", [("flexible", FLEXIBLE), ("steer", FLEXIBLE), ("blocker", BLOCKER)])
def test_equal_cards_are_played_uniformly_at_random(name, sid):
    # Periwinkle Captain Action (1) and crimson Action Boy (6): each the only card of its background
    # and of its character in the hand, neither a wildcard nor a weapon: the same value for every
    # heuristic. The old scan always played the lower card id (1).
    hand = mask([1, 6])
    state = np.zeros(1, np.uint64)
    chosen = []
    for game in range(2000):
        seed_game(state, 7, game)
        chosen.append(choose_card(sid, params(name), state, 0, hand, hand, 2, CARD_INFO, KIND_CARDS, N_BG, 5, 5))
    chosen = np.array(chosen)
    assert set(chosen.tolist()) == {ID[1], ID[6]}
    assert abs((chosen == ID[1]).mean() - 0.5) < 0.04  # 2000 streams: the standard error is 0.011


def test_a_better_card_is_still_played_every_time():
    # flexible plays the card whose kinds it holds least of: 6 (crimson, Action Boy) next to 1 and 17
    # (periwinkle Captain Actions) is alone in both.
    hand = mask([1, 17, 6])
    state = np.zeros(1, np.uint64)
    for game in range(200):
        seed_game(state, 8, game)
        assert choose_card(FLEXIBLE, params("flexible"), state, 0, hand, hand, 3, CARD_INFO, KIND_CARDS, N_BG, 5,
                           5) == ID[6]


def test_a_wildcard_names_equally_held_kinds_uniformly_at_random():
    # One periwinkle Captain Action and one crimson Action Boy: periwinkle and crimson are held once
    # each (gold and emerald never), Captain Action and Action Boy once each. The old scan named the
    # first in deck order (periwinkle, Captain Action).
    hand = mask([1, 6])
    state = np.zeros(1, np.uint64)
    bgs, chs = [], []
    for game in range(2000):
        seed_game(state, 9, game)
        bgs.append(name_background(FLEXIBLE, params("flexible"), state, 0, hand, KIND_CARDS, N_BG))
        chs.append(name_character(FLEXIBLE, params("flexible"), state, 0, hand, KIND_CARDS, N_BG))
    bgs, chs = np.array(bgs), np.array(chs)
    assert set(bgs.tolist()) == {PERIWINKLE, CRIMSON} and set(chs.tolist()) == {CAPTAIN, BOY}
    assert abs((bgs == PERIWINKLE).mean() - 0.5) < 0.04 and abs((chs == CAPTAIN).mean() - 0.5) < 0.04


def test_the_kind_held_most_is_named_every_time():
    hand = mask([1, 5, 6])  # periwinkle twice, Action Boy twice
    state = np.zeros(1, np.uint64)
    for game in range(200):
        seed_game(state, 10, game)
        assert name_background(FLEXIBLE, params("flexible"), state, 0, hand, KIND_CARDS, N_BG) == PERIWINKLE
        assert name_character(FLEXIBLE, params("flexible"), state, 0, hand, KIND_CARDS, N_BG) == BOY


@pytest.mark.parametrize("players", [2, 3, 4])
def test_rotating_leader_leads_game_g_from_seat_g_mod_players(players):
    plan = plan_run("lady-actions-escape", 12, players=players, seed=3, variants=["rotating-leader"])
    for game in range(12):
        _, events = plan.engine.trace(plan, game)
        first_turn = next(int(b) for ev, a, b, c in events.tolist() if ev == EV_TURN)
        first_play = next((int(a), int(c)) for ev, a, b, c in events.tolist() if ev == EV_PLAY)
        assert first_turn == game % players
        assert first_play == (game % players, 1)  # the leader leads (c = 1)


def test_rotating_leader_with_rotated_lineups_leads_every_lineup_from_every_seat():
    # g % players would pair lineup g % 4 with leader g % 4: the blocker (seat g % 4 of lineup g % 4)
    # would lead every game. Seat (g // lineups) % players leads instead.
    plan = plan_run("lady-actions-escape", 16, players=4, seed=3, strategies=["blocker", "random", "random", "random"],
                    rotate=True, variants=["rotating-leader"])
    n_lineups = len(plan.lineup.seats)
    assert n_lineups == 4
    pairs = set()
    for game in range(16):
        _, events = plan.engine.trace(plan, game)
        leader = next(int(b) for ev, a, b, c in events.tolist() if ev == EV_TURN)
        assert leader == (game // n_lineups) % 4
        pairs.add((game % n_lineups, leader))
    assert len(pairs) == 16  # every (lineup, leader) pair once


def test_default_leader_is_seat_0_and_random_leader_is_uniform():
    for variant, expect in ((None, "seat0"), ("random", "random")):
        overrides = {} if variant is None else {"rules.first_leader": variant}
        plan = plan_run("lady-actions-escape", 400, players=4, seed=4, overrides=overrides)
        leaders = [next(int(b) for ev, a, b, c in plan.engine.trace(plan, g)[1].tolist() if ev == EV_TURN)
                   for g in range(400)]
        counts = np.bincount(leaders, minlength=4)
        if expect == "seat0":
            assert counts.tolist() == [400, 0, 0, 0]
        else:
            assert counts.min() > 70, counts  # 100 expected per seat; sd about 8.7


def test_rotating_leader_evens_out_the_leader_s_edge():
    # Two random players: seat 0 leads every game by default, half of them with a rotating leader.
    def seat0(**kw):
        return simbalance.simulate("lady-actions-escape", 20000, seed=5, players=2, **kw).summary()["seats"][0]

    default, rotated = seat0(), seat0(variants=["rotating-leader"])
    assert default["ci_low"] > 0.5
    assert rotated["ci_low"] < 0.5 < rotated["ci_high"]


def test_an_unknown_first_leader_is_a_one_line_error():
    with pytest.raises(ConfigError, match="rules.first_leader"):
        simbalance.simulate("lady-actions-escape", 10, overrides={"rules.first_leader": "youngest"})


def test_with_two_players_lady_action_changes_nothing_but_the_count():
    # Reversing the direction of play at a table of two still passes the turn to the other player.
    kw = dict(players=2, seed=6, strategies=["blocker", "random"], rotate=True)
    on = simbalance.simulate("lady-actions-escape", 3000, **kw).records
    off = simbalance.simulate("lady-actions-escape", 3000, overrides={"rules.reverse": False}, **kw).records
    assert (on["reversals"] > 0).mean() > 0.5 and (off["reversals"] == 0).all()
    fields = [f for f in RECORD_DTYPE.names if f != "reversals"]
    for f in fields:
        assert np.array_equal(on[f], off[f]), f
