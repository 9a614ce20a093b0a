"""Skill against luck, and the parameter tuner."""

import numpy as np
import pytest

import simbalance
from simbalance.analysis.tune import cross_entropy, search_space
from simbalance.api import skill, tune
from simbalance.core.errors import ConfigError, SimbalanceError


def test_find_dr_evil_comes_out_as_pure_luck():
    res = skill("find-dr-evil", 2000)
    assert not res.has_decisions and res.verdict.startswith("Pure luck")


def test_lady_actions_escape_rewards_skill():
    res = skill("lady-actions-escape", 4000, seed=1)
    assert not res.agency.empty and (res.agency["ci_low"] > 0.25).any()
    assert not res.verdict.startswith(("Pure luck", "Luck"))
    blunt = res.restricted.set_index("strategy").loc["blunt"]
    # Over decided games (a third of these games time out): the blocker that never holds its weapons
    # back wins at least its share. Over all games the timeouts pulled it below 1/4, which read as
    # "holding weapons back is worth it" (issue 17).
    assert blunt["against"] == "blocker" and blunt["ci_high"] > 0.25
    direct = simbalance.simulate("lady-actions-escape", 4000, seed=1, strategies=["blunt"] + ["blocker"] * 3,
                                 rotate=True).summary()["strategies"]
    assert blunt["win_rate"] == next(r["win_rate_decided"] for r in direct if r["strategy"] == "blunt")


def test_cross_entropy_finds_the_maximum_of_a_known_function():
    space = search_space({"x": 0.0, "y": 0.0}, ["x=-5:5", "y=-5:5"])
    best, value, history = cross_entropy(space, lambda v, g: -((v[0] - 2) ** 2) - (v[1] + 1) ** 2, 12, 24, seed=1)
    assert np.allclose(best, [2, -1], atol=0.3) and len(history) == 12


def test_tuner_improves_a_deliberately_bad_parameter_set():
    # flexible with large positive weights plays its rarest kinds: clearly worse than random.
    bad = ["strategies.flexible.bg_weight=3", "strategies.flexible.char_weight=3"]
    res = tune("lady-actions-escape", "flexible", 1500, generations=2, population=6, seed=2, overrides=bad,
               ranges=["bg_weight=-3:3", "char_weight=-3:3", "wild_hold=0:20"])
    assert res.margin["ci_low"] > 0 and res.best_win_rate > res.default_win_rate
    assert set(res.dominance["against"]) >= {"random", "blocker"}


@pytest.mark.parametrize("kwargs, message", [
    ({"strategy": "nope"}, "unknown strategy 'nope'"),
    ({"strategy": "random", "field": "blocker"}, "no parameters to tune"),
    ({"strategy": "flexible", "ranges": ["bg_weight=3:1"]}, "low must be below high"),
    ({"strategy": "flexible", "ranges": ["speed=0:1"]}, "not a parameter"),
    ({"strategy": "flexible", "field": "nope"}, "--field: unknown strategy 'nope'"),
    ({"strategy": "flexible", "field": "random,random"}, "give one name or 3 names"),
    ({"strategy": "flexible", "margin": 2}, "for 2 points write 0.02"),
    ({"strategy": "flexible", "margin": -0.01}, "from 0 to below 1"),
])
def test_bad_tuning_requests(kwargs, message):
    with pytest.raises((SimbalanceError, ConfigError), match=message):
        tune("lady-actions-escape", n=100, generations=1, population=2, **kwargs)


def test_tune_shows_its_whole_search_as_one_display_counted_up_to_its_total():
    """tune's runs are one display (studies/run.OneDisplay, as meta's compositions): one label, the
    games counted up across the runs, never backwards, to the search's total of games."""
    labels, updates = [], []

    def progress(label):
        labels.append(label)
        return lambda done, total, seconds: updates.append((done, total))

    tune("lady-actions-escape", "flexible", 100, generations=1, population=2, seed=3,
         ranges=["bg_weight=-1:1"], progress=progress)
    assert labels == ["tune lady-actions-escape"]
    done = [d for d, _ in updates]
    assert done == sorted(done) and len({t for _, t in updates}) == 1
    assert done[-1] == updates[-1][1]  # every game of the search counted: the bar ends full
