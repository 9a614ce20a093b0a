"""Every shipped config, variant and preset loads and validates; every game is registered."""

import pytest

from simbalance.api import plan_run
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
