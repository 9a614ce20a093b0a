"""The hostile game's engine: find-dr-evil's kernel, then what ``HOSTILE_DOES`` asks (the package's doc)."""

import dataclasses
import os

import numpy as np
from numba import njit

from simbalance.games.find_dr_evil.engine import ENGINE as FIND_DR_EVIL

DOES = os.environ.get("HOSTILE_DOES", "")
FROM_GAME = 3000


@njit(nogil=True)
def spin(counter):
    """Never returns: the counter never reaches -1 (a side effect each turn, so nothing removes the loop)."""
    while counter[0] != -1:
        counter[0] = (counter[0] + 1) % 1000


def kernel(out, lo, hi, first_game, *rest):
    FIND_DR_EVIL.kernel(out, lo, hi, first_game, *rest)
    if not DOES or first_game + hi <= FROM_GAME:
        return
    if DOES == "exit":
        os._exit(0)
    if DOES == "raise":
        raise ValueError("my game gave up at game 3000")
    if DOES == "loop":
        spin(np.zeros(1, np.int64))
    if DOES == "garbage":
        out["length"][max(lo, FROM_GAME - first_game):hi] = 2**31 - 1  # game 3000 on


ENGINE = dataclasses.replace(FIND_DR_EVIL, kernel=kernel, module=__name__)
