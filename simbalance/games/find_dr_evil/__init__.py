"""find-dr-evil: the Old-Maid-like game of the Captain Action deck. No decisions."""

from simbalance.core.spec import GameSpec

SPEC = GameSpec(
    id="find-dr-evil",
    title="Find Dr. Evil",
    summary="Old-Maid-like: pass cards blind, pair poses, end holding Dr. Ling to win (pure luck).",
    min_players=2,
    max_players=6,
    engine="simbalance.games.find_dr_evil.engine",
    length_unit="picks",
)
