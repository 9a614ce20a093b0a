"""Fuzzing: random configs and CLI arguments, valid and invalid.

Valid ones run; invalid ones fail with one clear line (a SimbalanceError, exit code 2); nothing
crashes with a traceback and nothing hangs (small n, every game capped).
"""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from simbalance.api import plan_run, simulate
from simbalance.cli.main import app
from simbalance.core.config import flat_keys, load_config
from simbalance.core.errors import SimbalanceError
from simbalance.games.registry import all_games

GAMES = sorted(all_games())
SKIP = ("strategies.", "presets.", "deck.source", "targets.", "bounds.")  # not rules: other tests cover them

values = st.one_of(
    st.integers(-3, 12), st.integers(-10**6, 10**6), st.floats(-5, 5, allow_nan=False), st.booleans(),
    st.sampled_from(["", "x", "wild", "removed", "before_draw", "all"]), st.lists(st.integers(-2, 60), max_size=3),
)


def plausible(default):
    """Values of the default's type near it: most of them valid, some just past a limit."""
    if isinstance(default, bool):
        return st.booleans()
    if isinstance(default, int):
        return st.integers(max(-1, default - 3), default + 3)
    if isinstance(default, float):
        return st.floats(default - 1, default + 1, allow_nan=False)
    if isinstance(default, list):
        return st.just(list(default))
    return st.sampled_from([default, "wild", "removed", "dr_evil", "before_draw", "after_discard", "all",
                            "last_drawer"])


@st.composite
def overrides(draw, game):
    cfg = load_config(game)
    keys = [k for k in flat_keys(cfg) if not k.startswith(SKIP)]
    chosen = draw(st.lists(st.sampled_from(keys), min_size=1, max_size=3, unique=True))
    out = {}
    for key in chosen:
        default = cfg
        for part in key.split("."):
            default = default[part]
        out[key] = draw(st.one_of(plausible(default), plausible(default), values))
    return out


def _caps(game):
    cfg = load_config(game)
    return {k: 400 for k in flat_keys(cfg) if k.endswith("_cap")}


@pytest.mark.parametrize("game", GAMES)
def test_random_configs_run_or_fail_clearly(game):
    @settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
    @given(overrides(game), st.integers(2, 6))
    def check(changes, players):
        changes = {**_caps(game), **changes}
        try:
            plan_run(game, 3, players=players, overrides=changes)
        except SimbalanceError as exc:
            assert "\n" not in str(exc) and str(exc)
            return
        res = simulate(game, 3, players=players, overrides=changes, seed=1)
        assert len(res.games) == 3

    check()


vocabulary = st.lists(st.one_of(
    st.sampled_from(["run", "games", "find-dr-evil", "lady-actions-escape", "nope", "--n", "--players", "--seed",
                     "--set", "--strategies", "--rotate", "--threads", "--variant", "--precision", "--quiet",
                     "--no-games", "--stream", "--chunk-size", "--robust-budget", "--robust-precision", "--robust-n"]),
    st.sampled_from(["0", "-1", "3", "1e2", "1_0", "abc", "2.5", "rules.pick_cap=5", "x=1", "random",
                     "no-repeat-pick", "random,random", "0.01", ""]),
), min_size=1, max_size=7)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(vocabulary)
def test_random_command_lines_run_or_fail_in_one_line(tmp_path_factory, argv):
    out = tmp_path_factory.mktemp("fuzz") / "run"
    if argv[0] == "run":
        argv = [*argv, "--out", str(out)]
    res = CliRunner().invoke(app, argv)
    assert res.exit_code in (0, 2), (argv, res.output, res.exception)
    if res.exit_code == 2 and res.output.strip().startswith("error:"):
        assert len(res.output.strip().splitlines()) == 1, res.output
        assert not out.exists()
