"""A dice duel made on the spot as a plug-in game (as tests/test_plugin_games.py makes them): the
planted games of tests/studies/test_solve.py and test_solve_inputs.py, whose right answers are known
by construction. Each player rolls one die of ``die`` faces and adds its ``bonus``; the higher total
wins, equal totals share the win. A game's own ``prepare`` (written by its test) returns
``(bonus, die)``: the bonus of each seat (an int64 array of 6) and the die."""

from __future__ import annotations

import sys

from simbalance.games import registry

DUEL_KERNEL = '''
import numpy as np
from numba import njit

from simbalance.core.records import END_WIN, record_dtype
from simbalance.core.rng import randint, seed_game
from simbalance.core.spec import Engine


@njit(nogil=True)
def kernel(out, lo, hi, first_game, seed, lineups, slot_strategy, slot_params, bonus, die):
    state = np.zeros(1, np.uint64)
    players = lineups.shape[1]
    for i in range(lo, hi):
        game = first_game + i
        seed_game(state, seed, game)
        out[i].game = game
        lineup = lineups[game % lineups.shape[0]]
        best = np.int64(-1)
        mask = np.int64(0)
        for s in range(players):
            out[i].strategy[s] = lineup[s]
            score = np.int64(randint(state, die)) + bonus[s]
            if score > best:
                best = score
                mask = np.int64(1) << s
            elif score == best:
                mask |= np.int64(1) << s
        out[i].winners = mask
        out[i].winner = -1
        for s in range(players):
            if mask == (np.int64(1) << s):
                out[i].winner = s
        out[i].length = 1
        out[i].end = END_WIN


ENGINE = Engine(version=1, record_dtype=record_dtype([]), strategies={"random": 0}, strategy_params={"random": ()},
                prepare=prepare, kernel=kernel, module=__name__, has_decisions=False)
'''


def plugin_game(tmp_path, monkeypatch, game: str, package: str, spec: str, engine: str, config: str,
                variants: dict[str, str] | None = None):
    """Make ``package`` (its ``__init__.py`` the ``spec``, its ``engine.py`` the ``engine``, its
    ``configs/<game>.toml`` the ``config``, its variant files ``variants``: name -> TOML) importable
    and registered as the plug-in ``game``; yields the game id, then forgets it (a fixture's body:
    ``yield from plugin_game(...)``)."""
    site = tmp_path / "site"
    folder = site / package
    (folder / "configs" / game / "variants").mkdir(parents=True)
    (folder / "__init__.py").write_text(spec)
    (folder / "engine.py").write_text(engine)
    (folder / "configs" / f"{game}.toml").write_text(config)
    for name, text in (variants or {}).items():
        (folder / "configs" / game / "variants" / f"{name}.toml").write_text(text)
    dist = package.replace("_", "")
    info = site / f"{dist}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[simbalance.games]\n{game} = {package}\n")
    monkeypatch.syspath_prepend(str(site))
    registry.rescan()
    yield game
    registry.rescan()
    for name in [m for m in sys.modules if m == package or m.startswith(f"{package}.")]:
        del sys.modules[name]
