"""A game's spec names its id and engine once: from its package (core/spec.GameSpec.of_package)."""

from simbalance.core.layout import Offsets
from simbalance.core.spec import GameSpec
from simbalance.games.registry import builtin_games


def test_a_package_names_its_game_and_engine():
    spec = GameSpec.of_package("my_plugins.trick_race", "Trick Race", summary="s", players=(2, 5),
                               length_unit="tricks")
    assert (spec.id, spec.engine) == ("trick-race", "my_plugins.trick_race.engine")
    assert (spec.min_players, spec.max_players, spec.length_unit) == (2, 5, "tricks")


def test_every_built_in_game_is_named_after_its_package():
    games = builtin_games()
    for spec in (games.values() if isinstance(games, dict) else games):
        package = spec.engine.rpartition(".")[0]
        assert package == f"simbalance.games.{spec.id.replace('-', '_')}"


def test_offsets_are_handed_out_in_order():
    table = Offsets()
    assert (table.take(1), table.take(4), table.take(1), table.n) == (0, 1, 5, 6)
