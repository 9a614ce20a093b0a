"""find-dr-evil: the Old-Maid-like game of the Captain Action deck. No decisions."""

from simbalance.core.spec import GameSpec

SPEC = GameSpec.of_package(__name__, "Find Dr. Evil", players=(2, 6), length_unit="picks",
                           summary="Old-Maid-like: pass cards blind, pair poses, end holding Dr. Ling to win (pure luck).")
