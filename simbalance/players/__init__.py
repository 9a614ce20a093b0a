"""Search players: ``mcts`` (single-observer information-set MCTS) and ``flat`` (one-step lookahead),
written once for every game (docs/strategies.md).

The search is generic: it takes a game's resumable functions (``to_move``, ``legal_options``,
``apply_option``, ``play_out``) and its search hooks (``determinize``, ``outcome``, ``evaluate``)
as first-class arguments, and numba compiles it once per game, inside the game's kernel
(``search_nb.search``). A seat whose strategy id is a search id makes the game's ``play_out`` stop
before its decision; the kernel then asks the search for the option and plays on.

This module stays light (no numba): the engines' contracts and the studies read the ids here.
"""

from __future__ import annotations

from simbalance.core.strategy_ids import FLAT, MCTS, SEARCH_IDS, SEARCH_MAX_ID, is_search_id  # noqa: F401

# Each search player's parameters in the order the kernel reads them. ``rollout`` names the
# strategy (a heuristic or a preset) that plays the search seats in the play-outs: the lineup
# writes it as that strategy's id followed by its parameters (core/lineup.param_row).
SEARCH_PARAMS = {
    "mcts": ("iterations", "uct", "depth", "confidence", "halving", "widening", "rollout"),
    "flat": ("playouts", "depth", "confidence", "per_decision", "rollout"),
}
SEARCH_STRATEGIES = {"mcts": MCTS, "flat": FLAT}

