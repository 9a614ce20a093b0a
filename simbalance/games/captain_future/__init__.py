"""captain-future: land ships on planets and moons, win majorities, attack, play the four events."""

from simbalance.core.spec import GameSpec

SPEC = GameSpec.of_package(__name__, "Captain Future", players=(2, 4),
                           summary="Area control on a 12x12 board of planets: land, take majorities, attack, events (2-4 players).")
