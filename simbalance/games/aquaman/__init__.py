"""aquaman: the board-and-card game of eight suits, eight powers and three missions."""

from simbalance.core.spec import GameSpec

SPEC = GameSpec.of_package(__name__, "Aquaman", players=(2, 4),
                           summary="Swim an 8x8 board of cards, use suit powers, fight for cards; first to 3 eight-suit missions wins.")
