"""Config loading and --set overrides: typed, validated, never a silent fallback."""

import re

import pytest

from simbalance.core.config import apply_overrides, load_config, read_toml
from simbalance.core.errors import ConfigError

CFG = {"game": {"players": 4}, "rules": {"cap": 100, "rate": 0.5, "flag": True, "name": "x"}}


def test_overrides_are_typed():
    out = apply_overrides(CFG, ["rules.cap=7", "rules.rate=1", "rules.flag=false", "rules.name=abc"])
    assert out["rules"] == {"cap": 7, "rate": 1.0, "flag": False, "name": "abc"}
    assert CFG["rules"]["cap"] == 100  # the defaults are not touched


def test_api_overrides_are_typed():
    assert apply_overrides(CFG, {"rules.cap": 9})["rules"]["cap"] == 9
    with pytest.raises(ConfigError, match="expected an integer"):
        apply_overrides(CFG, {"rules.cap": 1.5})


@pytest.mark.parametrize(
    "item, message",
    [
        ("rules.cap=abc", "expected an integer"),
        ("rules.cap=1.5", "expected an integer"),
        ("rules.flag=3", "expected true or false"),
        ("rules.rate=fast", "expected a number"),
        ("rules.zzz=1", "allowed keys: rules.cap, rules.rate, rules.flag, rules.name"),
        ("rulez.cap=1", "unknown config key 'rulez.cap' (did you mean rules.cap?); allowed keys: game.*, rules.*"),
        ("rules=1", "unknown config key 'rules'"),
        ("rules.cap", "expected key=value"),
        ("=3", "expected key=value"),
    ],
)
def test_bad_overrides_name_the_problem(item, message):
    with pytest.raises(ConfigError, match=re.escape(message)):
        apply_overrides(CFG, [item])


def test_unreadable_and_malformed_files(tmp_path):
    with pytest.raises(ConfigError, match="does not exist"):
        read_toml(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[rules\ncap = ")
    with pytest.raises(ConfigError, match="not valid TOML"):
        read_toml(bad)


def test_a_file_read_again_is_what_it_holds_now_and_each_reader_its_own_copy(tmp_path):
    """read_toml parses the same bytes once (a solve plans each candidate twice): a file rewritten
    at once with as many bytes (the same size, within the clock's tick) reads as rewritten, a file
    made bad since is refused, and what one caller changes in its copy no other reader sees."""
    path = tmp_path / "rules.toml"
    path.write_text("[rules]\ncap = 500\nlist = [1, 2]\n")
    first = read_toml(path)
    first["rules"]["cap"] = 7
    first["rules"]["list"].append(3)
    assert read_toml(path) == {"rules": {"cap": 500, "list": [1, 2]}}
    path.write_text("[rules]\ncap = 600\nlist = [1, 2]\n")
    assert read_toml(path) == {"rules": {"cap": 600, "list": [1, 2]}}
    path.write_text("[rules]\ncap = 6\nlist = [1, 2\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        read_toml(path)
    path.unlink()
    with pytest.raises(ConfigError, match="does not exist"):
        read_toml(path)


def test_deck_is_merged_into_the_game_config():
    cfg = load_config("find-dr-evil")
    assert cfg["deck"]["source"] == "captain-action"
    assert cfg["deck"]["wildcards"] == {"captain_action": 4, "dr_ling": 1}
    out = apply_overrides(cfg, ['deck.poses.2.character="Lady Action"'])
    assert out["deck"]["poses"]["2"]["character"] == "Lady Action"


# ---- reading a designer's rules: require_float, require_param (issue 51 item 7; docs/your-game.md) ----


@pytest.mark.parametrize("value, lo, hi, expected", [(0.5, 0.0, 1.0, 0.5), (1, 0.0, 1.0, 1.0), (-3.5, None, 0, -3.5)])
def test_require_float_reads_a_number_in_range(value, lo, hi, expected):
    from simbalance.core.config import require_float

    got = require_float({"rules": {"rate": value}}, "rules.rate", lo, hi)
    assert got == expected and isinstance(got, float)


@pytest.mark.parametrize("value, lo, hi, message", [
    (1.5, 0.0, 1.0, "rules.rate = 1.5: allowed 0 to 1"),
    (-0.25, 0.0, None, "rules.rate = -0.25: allowed 0 to inf"),
    (True, 0.0, 1.0, "rules.rate = True: expected a number, allowed 0 to 1"),
    ("fast", None, None, "rules.rate = 'fast': expected a number, allowed -inf to inf"),
    (float("nan"), 0.0, 1.0, "rules.rate = nan: expected a number, allowed 0 to 1"),
    (float("inf"), None, None, "rules.rate = inf: expected a number"),
])
def test_require_float_names_key_value_and_range(value, lo, hi, message):
    from simbalance.core.config import require_float

    with pytest.raises(ConfigError, match="^" + re.escape(message)):
        require_float({"rules": {"rate": value}}, "rules.rate", lo, hi)


def test_require_param_checks_the_strategy_and_every_preset_built_on_it():
    from simbalance.core.config import require_param

    cfg = {"strategies": {"greedy": {"idea": "g", "lead": 0.5}, "other": {"lead": -9.0}},
           "presets": {"timid": {"base": "greedy", "lead": 0.25}, "bare": {"base": "greedy"}}}
    require_param(cfg, "greedy", "lead", 0.0, 1.0)  # the other strategy's lead is not greedy's
    with pytest.raises(ConfigError, match=r"^strategies\.greedy\.lead = 2: allowed 0 to 1$"):
        require_param(apply_overrides(cfg, ["strategies.greedy.lead=2"]), "greedy", "lead", 0.0, 1.0)
    with pytest.raises(ConfigError, match=r"^presets\.timid\.lead = -1: allowed 0 to 1$"):
        require_param(apply_overrides(cfg, ["presets.timid.lead=-1"]), "greedy", "lead", 0.0, 1.0)
    with pytest.raises(ConfigError, match=r"^strategies\.other\.lead = -9: allowed 0 to inf$"):
        require_param(cfg, "other", "lead", 0.0)
