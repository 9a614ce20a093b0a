"""lady-actions-escape: the shedding game of the Captain Action deck (Lady Action's Escape)."""

from simbalance.core.spec import GameSpec

SPEC = GameSpec(
    id="lady-actions-escape",
    title="Lady Action's Escape",
    summary="Shedding: match background or character; Lady Action reverses, Dr. Evil makes the others draw 2.",
    min_players=2,
    max_players=6,
    engine="simbalance.games.lady_actions_escape.engine",
    length_unit="turns",
)
