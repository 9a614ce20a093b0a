"""simbalance: Monte Carlo balance analysis for tabletop game designers.

>>> import simbalance
>>> result = simbalance.simulate("find-dr-evil", 100_000, players=4, seed=7)
>>> result.games.head()        # one row per game
>>> result.summary()           # win rates with CIs, balance, lengths, ...
>>> result.win_shares().mean() # each seat's share of the wins (ties split), as in summary()
>>> simbalance.write_report(result, "reports/mine")  # the folder `simbalance run` writes

The studies (``compare``, ``sweep``, ``solve``, ``tournament``, ``skill``, ``tune``) are here too; see
``simbalance.api`` and docs/studies.md.
"""

from simbalance.core import codegen as _codegen

_codegen.install()  # before any engine compiles (core/codegen.py)

from simbalance.api import (  # noqa: E402
    RunSettings,
    SimulationResult,
    card_value,
    compare,
    simulate,
    skill,
    solve,
    sweep,
    tournament,
    tune,
    write_report,
)
from simbalance.version import __version__  # noqa: E402

__all__ = ["RunSettings", "SimulationResult", "card_value", "compare", "simulate", "skill", "solve", "sweep", "tournament", "tune", "write_report",
           "__version__"]
