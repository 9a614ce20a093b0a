"""What the runner needs to know about a game, and the contract every engine module fulfils.

A game package ``simbalance/games/<name>/`` has a light ``__init__.py`` that defines ``SPEC`` (no
numba import) and an engine module (``SPEC.engine``) that defines:

- ``ENGINE_VERSION: int``: bumped only when game behaviour changes.
- ``RECORD_DTYPE``: ``simbalance.core.records.record_dtype([...game fields...])``.
- ``STRATEGIES: dict[str, int]``: strategy name -> integer id used inside the kernel. Each name has a
  ``[strategies.<name>]`` table in the game's config: ``idea`` (one line) and its float parameters.
- ``STRATEGY_PARAMS: dict[str, tuple[str, ...]]``: per strategy name, its parameter names in the
  order the kernel reads them from the seat's parameter vector; the config binds to them by name.
- ``prepare(cfg, players, validate=False) -> tuple``: validate the resolved config (raise
  ConfigError) and return the engine's extra kernel arguments (numpy arrays and scalars, never
  Python objects). With ``validate`` the kernel checks its invariants at every step and ends a game
  that breaks one with ``end = END_INVALID`` (the runner then reports seed and game index).
- ``kernel(out, first_game, seed, lineups, slot_strategy, slot_params, *prepared)``: an
  ``@njit(parallel=True, cache=True)`` function that plays games ``first_game ..
  first_game + len(out) - 1`` and writes one record per game into ``out``. Game ``g`` seats the
  strategy slots ``lineups[g % len(lineups)]`` and draws all randomness from ``seed_game(seed, g)``.

Optional engine hooks for the report (each may also take ``config=``, the resolved config):
- ``summarize(games: DataFrame, players: int) -> dict``: game-specific metrics for summary.json.
- ``figures(games: DataFrame, summary: dict) -> dict[str, Figure]``: extra figures (file stem ->
  matplotlib Figure), pure functions of the DataFrame.
- ``card_labels(cfg)`` and ``card_masks(games, players)``: card labels and groups, and per seat the
  bit mask of the cards it had (kind -> one uint64 array per seat): the card-impact table.
- ``replay(plan, game) -> list[str]``: one game in words (``simbalance replay``).
- ``plugin_kernel(fn)`` and ``PLUGIN_DOC``: a kernel around a user's strategy function.
- ``HAS_DECISIONS = False`` for games without decisions (skill analysis says "pure luck").
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType


@dataclass(frozen=True)
class GameSpec:
    id: str  # CLI and API name, e.g. "find-dr-evil"
    title: str
    summary: str  # one line for `simbalance games`
    min_players: int
    max_players: int
    engine: str  # dotted module path of the engine module
    length_unit: str = "turns"  # what `length` counts: "picks", "turns", ...

    def load(self) -> ModuleType:
        """Import the engine module (this imports numba and may load compiled kernels)."""
        return importlib.import_module(self.engine)
