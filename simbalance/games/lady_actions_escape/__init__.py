"""lady-actions-escape: the shedding game of the Captain Action deck (Lady Action's Escape)."""

from simbalance.core.spec import GameSpec

SPEC = GameSpec.of_package(__name__, "Lady Action's Escape", players=(2, 6),
                           summary="Shedding: match background or character; Lady Action reverses, Dr. Evil makes the others draw 2.")
