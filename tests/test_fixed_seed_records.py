"""Same seed, same games, also across code changes: every engine's records for a fixed seed are
pinned by a digest. A speed-up must leave them alone; a change of the rules, of a strategy or of the
order of random draws changes them on purpose: say so in the commit (with a test that the headline
metrics keep their distribution, where the games should only be reshuffled) and pin the new digest
printed by the failing test."""

import hashlib

import pytest

import simbalance
from simbalance.games.registry import builtin_games, get_game

# Per game: how many games are pinned, and per player count (2 and 4) the digest of the records of
# simulate(game, games, players=..., seed=11, **lineup(...)). Every game of the registry needs one.
PINNED = {
    "find-dr-evil": (20000, {2: "fcf36204e229854e", 4: "4afd0fa394eb931c"}),
    "captain-action": (20000, {2: "6bb8aa4cf3119672", 4: "c6300f4e64ac7ed7"}),
    "lady-actions-escape": (5000, {2: "edc6b07e7f04cbe1", 4: "d7a9039bffb0a8f2"}),
    "aquaman": (2000, {2: "4a0129f75382abf8", 4: "9292784534277b18"}),
    "captain-future": (2000, {2: "0575b4682a1a18f1", 4: "17fec272427a92f1"}),
}


def lineup(game: str, players: int) -> dict:
    """The game's heuristics (not its search players) in turn on the seats, every seat permutation
    equally often."""
    names = get_game(game).load().heuristics
    if len(names) == 1:
        return {}
    return {"strategies": [names[s % len(names)] for s in range(players)], "rotate": True}


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("game", sorted(builtin_games()))  # a plug-in pins its own
def test_records_for_a_fixed_seed_are_pinned(game, players):
    assert game in PINNED, f"{game}: no pinned digest; add the game to PINNED (the failing run prints it)"
    n, digests = PINNED[game]
    records = simbalance.simulate(game, n, players=players, seed=11, **lineup(game, players)).records
    digest = hashlib.sha256(records.tobytes()).hexdigest()[:16]
    assert digest == digests.get(players), (
        f"{game}, {players} players: the games for seed 11 changed (digest now {digest}); "
        "if that is intended, say why in the commit and pin the new digest")
