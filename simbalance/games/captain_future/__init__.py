"""captain-future: land ships on planets and moons, win majorities, attack, play the four events."""

from simbalance.core.spec import GameSpec

SPEC = GameSpec(
    id="captain-future",
    title="Captain Future",
    summary="Area control on a 12x12 board of planets: land, take majorities, attack, events (2-4 players).",
    min_players=2,
    max_players=4,
    engine="simbalance.games.captain_future.engine",
    length_unit="turns",
)
