"""Tests import engine modules directly, not only through ``GameSpec.load``: check every game's
compiled kernels against their sources first, as loading a game does."""

from simbalance.games.registry import all_games


def pytest_sessionstart(session):
    for spec in all_games().values():
        spec.check_cache()
