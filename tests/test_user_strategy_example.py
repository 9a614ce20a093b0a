"""The plug-in example (examples/my_strategy.py) end to end, through the API and the CLI, and the
one-line errors of plug-ins that cannot be used."""

from pathlib import Path

import numpy as np
import pytest
from tiers import everyday_first
from typer.testing import CliRunner

import simbalance
from simbalance.cli.main import app
from simbalance.core.errors import ConfigError
from simbalance.core.records import END_WIN

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = f"{ROOT / 'examples' / 'my_strategy.py'}:choose"
PLUGIN_ARGS = "hand, playable, top_background, top_character, hand_sizes, seat, direction, cards, state"


def test_example_plays_through_the_api():
    kw = dict(strategies=["plugin", "random", "random", "random"], rotate=True, strategy_file=EXAMPLE, seed=3)
    res = simbalance.simulate("lady-actions-escape", 4000, **kw)
    g = res.games
    assert len(g) == 4000 and (g["end"] == END_WIN).mean() > 0.9
    assert res.plan.lineup.slot_names == ("plugin", "random")
    # Rotation: the plug-in's slot (0) sits at every seat equally often.
    assert [(g[f"strategy_{s}"] == 0).sum() for s in range(4)] == [1000] * 4
    # The same seed gives the same games; the plug-in's games differ from all-random ones.
    again = simbalance.simulate("lady-actions-escape", 4000, **kw).games
    assert g.equals(again)
    plain = simbalance.simulate("lady-actions-escape", 4000, seed=3).games
    assert not np.array_equal(g["winner"].to_numpy(), plain["winner"].to_numpy())


def test_example_runs_from_the_command_line(tmp_path):
    out = tmp_path / "run"
    res = CliRunner().invoke(app, ["run", "lady-actions-escape", "--n", "2000", "--strategies",
                                   "plugin,random,random,random", "--rotate", "--strategy-file", EXAMPLE,
                                   "--out", str(out), "--no-games", "--quiet"])
    assert res.exit_code == 0, (res.output, res.exception)
    assert out.exists()


def _write(tmp_path, source: str) -> str:
    path = tmp_path / "plugin.py"
    path.write_text("import numpy as np\nfrom numba import njit\n\n" + source)
    return str(path)


@pytest.mark.parametrize("source, name, message", everyday_first(keep=2, cases=[
    ("@njit\ndef choose(" + PLUGIN_ARGS + "):\n    return 0\n", "missing", "defines no 'missing'"),
    ("def choose(" + PLUGIN_ARGS + "):\n    return 0\n", "choose", "must be decorated with @numba.njit"),
    ("@njit\ndef choose(hand, playable):\n    return 0\n", "choose", "expected: lady-actions-escape plug-ins"),
    ("@njit\ndef choose(" + PLUGIN_ARGS + "):\n    return 0.5\n", "choose", "not an integer card id"),
    ("@njit\ndef choose(" + PLUGIN_ARGS + "):\n    return hand.missing\n", "choose", "expected: lady-actions"),
]))
def test_unusable_plugins_fail_in_one_line(tmp_path, source, name, message):
    spec = f"{_write(tmp_path, source)}:{name}"
    res = CliRunner().invoke(app, ["run", "lady-actions-escape", "--n", "100", "--strategies", "plugin,random",
                                   "--players", "2", "--strategy-file", spec, "--out", str(tmp_path / "run")])
    assert res.exit_code == 2, (res.output, res.exception)
    text = res.output.strip()
    assert text.startswith("error:") and len(text.splitlines()) == 1, text
    assert message in text
    assert not (tmp_path / "run").exists()
    with pytest.raises(ConfigError, match=message):
        simbalance.simulate("lady-actions-escape", 10, players=2, strategies=["plugin", "random"], strategy_file=spec)


def test_a_plugin_playing_an_unplayable_card_is_a_clear_error(tmp_path):
    # The lowest card of the hand, playable or not.
    spec = _write(tmp_path, "@njit\ndef choose(" + PLUGIN_ARGS + "):\n"
                  "    c = 0\n    while not (hand >> np.uint64(c)) & np.uint64(1):\n        c += 1\n    return c\n")
    with pytest.raises(ConfigError, match=r"returned a card that is not playable in game \d+"):
        simbalance.simulate("lady-actions-escape", 200, players=2, strategies=["plugin", "random"],
                            strategy_file=f"{spec}:choose")
