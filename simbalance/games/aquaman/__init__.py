"""aquaman: the board-and-card game of eight suits, eight powers and three missions."""

from simbalance.core.spec import GameSpec

SPEC = GameSpec(
    id="aquaman",
    title="Aquaman",
    summary="Swim an 8x8 board of cards, use suit powers, fight for cards; first to 3 eight-suit missions wins.",
    min_players=2,
    max_players=4,
    engine="simbalance.games.aquaman.engine",
    length_unit="turns",
)
