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



def game_kernel(own, generic, steps: dict):
    """A generic study kernel (players/card_value_nb.py, players/fit_eval_nb.py) for one engine:
    ``own``, the game's entry point that calls ``generic`` with the game's steps named once (numba
    caches it, so a warm process loads it instead of compiling), when every step it names is the
    engine's (``steps``: parameter name -> the engine's function); otherwise ``generic`` with
    ``steps`` bound, which numba compiles in every process that calls it (a game without the entry
    point, or a test that replaced a step). Both play the same code: the same results."""
    import functools

    names = getattr(getattr(own, "py_func", None), "__globals__", {})
    if own is not None and all(names.get(name) is step for name, step in steps.items()):
        return own
    return functools.partial(generic, *steps.values())
