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


def test_deck_is_merged_into_the_game_config():
    cfg = load_config("find-dr-evil")
    assert cfg["deck"]["source"] == "captain-action"
    assert cfg["deck"]["wildcards"] == {"captain_action": 4, "dr_ling": 1}
    out = apply_overrides(cfg, ['deck.poses.2.character="Lady Action"'])
    assert out["deck"]["poses"]["2"]["character"] == "Lady Action"
