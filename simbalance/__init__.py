"""simbalance: Monte Carlo balance analysis for tabletop game designers.

>>> import simbalance
>>> result = simbalance.simulate("find-dr-evil", 100_000, players=4, seed=7)
>>> result.games.head()        # one row per game
>>> result.summary()           # win rates with CIs, balance, lengths, ...
"""

from simbalance.api import SimulationResult, simulate
from simbalance.version import __version__

__all__ = ["SimulationResult", "simulate", "__version__"]
