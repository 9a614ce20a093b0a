"""The decisions of find-dr-evil's built-in strategies: there is one, since every pick is blind."""

from __future__ import annotations

from numba import njit

from simbalance.core.rng import randint


@njit(cache=True, forceinline=True, _nrt=False)
def random_pick(rng, offered):
    """The ``random`` strategy: a slot of the offerer's hand (of ``offered`` cards), uniform at
    random with one draw of the game's stream. The picker sees only the backs of the cards, so no
    strategy could do better or worse."""
    return randint(rng, offered)
