"""Every shipped config, variant and preset loads and validates; every game is registered."""

import pytest
from typer.testing import CliRunner

from simbalance.api import plan_run
from simbalance.cli.main import app
from simbalance.core.errors import ConfigError
from simbalance.core.variants import available_variants
from simbalance.games.registry import all_games

GAMES = list(all_games())


def test_all_five_games_are_registered():
    assert set(GAMES) >= {"find-dr-evil", "captain-action", "lady-actions-escape", "aquaman", "captain-future"}


@pytest.mark.parametrize("game", GAMES)
def test_defaults_validate_at_every_player_count(game):
    spec = all_games()[game]
    for players in range(spec.min_players, spec.max_players + 1):
        try:
            plan_run(game, 1, players=players)
        except ConfigError as exc:  # only a deck too small for the deal may refuse a player count
            assert game == "captain-action" and players == 6 and "cards" in str(exc), exc


@pytest.mark.parametrize("game", GAMES)
def test_every_variant_applies(game):
    names = available_variants(game)
    assert len(names) >= 3, f"{game} needs at least three named variants"
    for name in names:
        plan_run(game, 1, variants=[name])


# ---- seat compensation and knobs (issue 39; docs/solve.md, docs/rules/<game>.md "Seat compensation") ----

BUILTIN = ["aquaman", "captain-action", "captain-future", "find-dr-evil", "lady-actions-escape"]


@pytest.mark.parametrize("game", BUILTIN)
def test_every_compensation_kind_has_a_key_per_seat_and_0_is_the_default(game):
    from simbalance.core.config import load_config

    spec = all_games()[game]
    table = load_config(game)["compensation"]
    kinds = {name: keys for name, keys in table.items() if isinstance(keys, dict)}
    assert kinds, f"{game}: no per-seat compensation kind"
    for name, keys in kinds.items():
        assert list(keys) == [str(s) for s in range(1, spec.max_players + 1)], (game, name)
    assert all(v == 0 for keys in kinds.values() for v in keys.values())
    assert all(v == 0 for v in table.values() if not isinstance(v, dict))


@pytest.mark.parametrize("game", BUILTIN)
def test_every_shipped_knob_is_valid_and_playable_at_both_ends(game):
    """knobs_of accepts the table; each knob names today's value, every seat's compensation of the
    default player count is a knob, and a short run plays at the low and the high end of each."""
    import simbalance
    from simbalance.core.config import knobs_of, load_config

    cfg = load_config(game)
    knobs = knobs_of(cfg)
    players = cfg["game"]["players"]
    for kind, keys in cfg["compensation"].items():
        if isinstance(keys, dict):
            assert {f"compensation.{kind}.{s}" for s in range(1, players + 1)} <= set(knobs), (game, kind)
    for key, (low, high, step) in knobs.items():
        assert step is None or step > 0
        for value in (low, high):
            games = simbalance.simulate(game, 8, seed=1, overrides={key: value}).games
            assert len(games) == 8, (key, value)


@pytest.mark.parametrize(("knobs", "message"), [
    ({"rules.nope": [1, 2]}, r"^knobs.'rules.nope': not a key of the config"),
    ({"game.strategies": [1, 2]}, r"^knobs.'game.strategies': the key's value .* is not a number"),
    ({"rules.pick_cap": [20000, 100]}, r"^knobs.'rules.pick_cap' = \[20000, 100\]: low 20000 is above high 100$"),
    ({"rules.pick_cap": [1, 5000]}, r"^knobs.'rules.pick_cap' = \[1, 5000\]: today's value 10000 lies outside"),
    ({"rules.pick_cap": [1.5, 20000]}, r"give whole-number bounds$"),
    ({"rules.pick_cap": [1]}, r"expected \[low, high\] or \[low, high, step\], numbers$"),
    ({"rules.pick_cap": [1, 20000, 0]}, r"the step 0 must be above 0$"),
    ({"targets.balance_min": [0.9, 1.0]}, r"is a float \(0.95\); give \[low, high, step\]$"),
])
def test_a_bad_knob_is_a_one_line_error(knobs, message):
    from simbalance.core.config import knobs_of, load_config

    cfg = load_config("find-dr-evil")
    cfg["knobs"] = knobs
    with pytest.raises(ConfigError, match=message):
        knobs_of(cfg)


def test_knobs_of_reads_whole_and_float_ranges_and_a_config_without_knobs():
    from simbalance.core.config import knobs_of, load_config

    cfg = load_config("find-dr-evil")
    cfg["knobs"] = {"rules.pick_cap": [100, 20000], "targets.balance_min": [0.9, 1.0, 0.01],
                    "compensation.cards.2": [-2, 2, 2]}
    assert knobs_of(cfg) == {"rules.pick_cap": (100, 20000, None), "targets.balance_min": (0.9, 1.0, 0.01),
                             "compensation.cards.2": (-2, 2, 2)}
    del cfg["knobs"]
    assert knobs_of(cfg) == {}


def test_knobs_are_not_keys_of_the_game():
    """`--set` refuses [knobs] (it is what solve searches), the allowed keys leave it out, and the
    config hashes (a baseline's, a fit's) ignore it and an all-zero compensation."""
    from simbalance.analysis.check import config_hash
    from simbalance.core.config import apply_overrides, flat_keys, load_config, unknown_key_message
    from simbalance.studies.evaluation import rules_digest

    cfg = load_config("captain-future")
    with pytest.raises(ConfigError, match=r"^--set knobs.x: \[knobs\] is what `simbalance solve` searches"):
        apply_overrides(cfg, ["knobs.x=1"])
    assert not [k for k in flat_keys(cfg) if k.startswith("knobs")]
    assert "knobs" not in unknown_key_message(cfg, "nope")
    bare = {k: v for k, v in cfg.items() if k not in ("knobs", "compensation")}
    assert config_hash(cfg) == config_hash(bare) and rules_digest(cfg) == rules_digest(bare)
    moved = apply_overrides(cfg, ["compensation.points.4=-1"])
    assert config_hash(moved) != config_hash(cfg) and rules_digest(moved) != rules_digest(cfg)


# Per game: a run with seat compensation (validated), and a bad value with the words its one line has.
COMPENSATION_ON_THE_COMMAND_LINE = {
    "aquaman": (["--n", "100", "--set", "compensation.hand_limit.1=-1"], "compensation.cards.2=-4",
                "compensation.cards.2 = -4: allowed -3 to 52"),
    "captain-action": (["--n", "300", "--set", "compensation.points.1=-3"], "compensation.points.2=1001",
                       "compensation.points.2 = 1001"),
    "captain-future": (["--n", "200", "--seed", "1", "--set", "compensation.points.4=-1", "--set",
                        "compensation.ships.1=2"], "compensation.ships.4=-30",
                       "compensation.ships.4 = -30: allowed -29 to 90"),
    "find-dr-evil": (["--n", "300", "--set", "compensation.cards.4=-1"], "compensation.cards.2=-10",
                     "compensation.cards.2 = -10"),
    "lady-actions-escape": (["--n", "200", "--set", "compensation.cards.1=1"], "compensation.cards.2=-5",
                            "compensation.cards.2 = -5: allowed -4 to 33"),
}


@pytest.mark.parametrize("game", sorted(COMPENSATION_ON_THE_COMMAND_LINE))
def test_compensation_on_the_command_line(game, tmp_path):
    """Seat compensation is a key like any other on the command line: a validated run plays it, a
    value the game cannot deal or score is one line, exit 2."""
    good, bad_set, words = COMPENSATION_ON_THE_COMMAND_LINE[game]
    runner = CliRunner()
    res = runner.invoke(app, ["run", game, *good, "--quiet", "--validate", "--out", str(tmp_path / "r")])
    assert res.exit_code == 0, res.output
    bad = runner.invoke(app, ["run", game, "--n", "10", "--set", bad_set, "--out", str(tmp_path / "bad")])
    lines = [ln for ln in bad.output.splitlines() if ln.strip()]
    assert bad.exit_code == 2 and len(lines) == 1 and words in lines[0], bad.output
