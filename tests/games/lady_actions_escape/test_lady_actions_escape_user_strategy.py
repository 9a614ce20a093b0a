"""lady-actions-escape plug-ins: the plug-in seats, and only they, decide with the user's function."""

from pathlib import Path

import numpy as np
import pytest

import simbalance
from simbalance.api import plan_run
from simbalance.games.lady_actions_escape.replay import trace

EXAMPLE = str(Path(__file__).resolve().parents[3] / "examples" / "my_strategy.py") + ":choose"

# The built-in `random` rule, written as a plug-in: the k-th playable card, k uniform.
RANDOM_PLUGIN = '''
import numpy as np
from numba import njit
from simbalance.core.rng import randint


@njit
def choose(hand, playable, top_background, top_character, hand_sizes, seat, direction, cards, state):
    n = 0
    for c in range(cards.shape[0]):
        if (playable >> np.uint64(c)) & np.uint64(1):
            n += 1
    k = randint(state, n)
    for c in range(cards.shape[0]):
        if (playable >> np.uint64(c)) & np.uint64(1):
            if k == 0:
                return c
            k -= 1
    return -1
'''


@pytest.mark.exhaustive
def test_a_plugin_with_randoms_rule_plays_randoms_games(tmp_path):
    # Without wildcards (which plug-ins name by the built-in majority rule, random names at random)
    # the plug-in draws from the same random stream at the same steps: the very same games.
    path = tmp_path / "random_plugin.py"
    path.write_text(RANDOM_PLUGIN)
    kw = dict(seed=21, overrides={"rules.wildcards": False}, rotate=True)
    mine = simbalance.simulate("lady-actions-escape", 500, strategies=["plugin", "random", "random", "random"],
                               strategy_file=f"{path}:choose", **kw).games
    plain = simbalance.simulate("lady-actions-escape", 500, strategies=["random"], **kw).games
    cols = [c for c in plain.columns if not c.startswith("strategy")]
    assert mine[cols].equals(plain[cols])


@pytest.mark.exhaustive
def test_plugin_games_replay_exactly():
    setup = dict(seed=8, strategies=["plugin", "blocker", "random"], rotate=True, players=3)
    res = simbalance.simulate("lady-actions-escape", 40, strategy_file=EXAMPLE, **setup)
    plan = plan_run("lady-actions-escape", 40, strategy_file=EXAMPLE, **setup)
    for game in (0, 5, 39):
        out, _ = trace(plan, game)
        assert out[0] == res.records[game]
    # ... and they are the plug-in's games: another strategy in its seats plays other games.
    assert not np.array_equal(res.games["winner"], simbalance.simulate(
        "lady-actions-escape", 40, **{**setup, "strategies": ["random", "blocker", "random"]}).games["winner"])


@pytest.mark.exhaustive
def test_plugins_with_the_same_code_but_other_constants_are_compiled_apart(tmp_path):
    source = '''
import numpy as np
from numba import njit

COLUMN = {column}


@njit
def choose(hand, playable, top_background, top_character, hand_sizes, seat, direction, cards, state):
    best = -1
    for c in range(cards.shape[0]):
        if (playable >> np.uint64(c)) & np.uint64(1) and (best < 0 or cards[c, COLUMN] > cards[best, COLUMN]):
            best = c
    return best
'''
    games = []
    for column in (0, 4):  # highest background index, highest printed number
        (tmp_path / f"p{column}").mkdir()
        path = tmp_path / f"p{column}" / "plugin.py"
        path.write_text(source.replace("{column}", str(column)))
        games.append(simbalance.simulate("lady-actions-escape", 300, seed=2, strategies=["plugin"],
                                         strategy_file=f"{path}:choose").games)
    assert not games[0].equals(games[1])
