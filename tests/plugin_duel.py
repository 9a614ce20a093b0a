"""A dice duel made on the spot as a plug-in game (as tests/test_plugin_games.py makes them): the
planted games of tests/studies/test_solve.py and test_solve_inputs.py, whose right answers are known
by construction. Each player rolls one die of ``die`` faces and adds its ``bonus``; the higher total
wins, equal totals share the win. A game's own ``prepare`` (written by its test) returns
``(bonus, die)``: the bonus of each seat (an int64 array of 6) and the die."""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import tempfile
from pathlib import Path

from simbalance.games import registry

# Where the made plug-ins live: one folder per content, shared by every test, worker and run that
# makes the same plug-in, so its kernel compiles once into the numba cache beside it (a folder per
# test compiled it in every test: about a second each, in some 40 tests). A plug-in is never edited
# in place: other content is another folder.
SHARED_SITES = Path(tempfile.gettempdir()) / "simbalance-test-plugins"

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


def plugin_game(monkeypatch, game: str, package: str, spec: str, engine: str, config: str,
                variants: dict[str, str] | None = None):
    """Make ``package`` (its ``__init__.py`` the ``spec``, its ``engine.py`` the ``engine``, its
    ``configs/<game>.toml`` the ``config``, its variant files ``variants``: name -> TOML) importable
    and registered as the plug-in ``game``; yields the game id, then forgets it (a fixture's body:
    ``yield from plugin_game(...)``)."""
    files = {f"{package}/__init__.py": spec, f"{package}/engine.py": engine, f"{package}/configs/{game}.toml": config}
    for name, text in (variants or {}).items():
        files[f"{package}/configs/{game}/variants/{name}.toml"] = text
    dist = package.replace("_", "")
    files[f"{dist}-0.1.dist-info/METADATA"] = f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.1\n"
    files[f"{dist}-0.1.dist-info/entry_points.txt"] = f"[simbalance.games]\n{game} = {package}\n"
    site = shared_site(files)
    monkeypatch.syspath_prepend(str(site))
    # A planted game is simbalance's own test code, trusted as the built-in games are: not probed in
    # a child (about a second a test, in some 40 tests). The probe has tests of its own
    # (tests/test_plugin_games.py, tests/cli/test_hostile_plugins.py).
    monkeypatch.setattr(registry, "probe_plugin_game", lambda game_id, package, *, own_error: None)
    registry.rescan()
    yield game
    registry.rescan()
    for name in [m for m in sys.modules if m == package or m.startswith(f"{package}.")]:
        del sys.modules[name]


def shared_site(files: dict[str, str]) -> Path:
    """A folder holding ``files`` (path -> text), the same folder for the same files: made once under
    a temporary name and renamed into place (workers that make it at once: the first rename wins)."""
    digest = hashlib.sha256(repr(sorted(files.items())).encode()).hexdigest()[:16]
    site = SHARED_SITES / digest
    if not site.is_dir():
        SHARED_SITES.mkdir(parents=True, exist_ok=True)
        draft = Path(tempfile.mkdtemp(dir=SHARED_SITES, prefix=f".{digest}-"))
        for name, text in files.items():
            (draft / name).parent.mkdir(parents=True, exist_ok=True)
            (draft / name).write_text(text)
        try:
            os.rename(draft, site)
        except OSError:  # another worker's is in place: the same files
            shutil.rmtree(draft, ignore_errors=True)
    return site

