"""simbalance: Monte Carlo balance analysis for tabletop game designers.

>>> import simbalance
>>> result = simbalance.simulate("find-dr-evil", 100_000, players=4, seed=7)
>>> result.games.head()        # one row per game
>>> result.summary()           # win rates with CIs, balance, lengths, ...
"""

__version__ = "0.1.0"

from simbalance.api import SimulationResult, simulate  # noqa: E402

__all__ = ["SimulationResult", "simulate", "__version__"]
