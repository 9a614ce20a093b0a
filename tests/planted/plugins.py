"""The planted games as plug-ins, for a test module: ``installed(*games)`` puts this folder on
``sys.path`` with a ``*.dist-info`` per game in a temporary folder beside it (all that
importlib.metadata reads: tests/test_plugin_games.py), and forgets them afterwards."""

from __future__ import annotations

import contextlib
import sys
import tempfile
from pathlib import Path

from simbalance.games import registry

HERE = Path(__file__).parent


@contextlib.contextmanager
def installed(*packages: str):
    with tempfile.TemporaryDirectory() as site:
        for package in packages:
            game_id = package.replace("_", "-")
            info = Path(site) / f"{package}-0.1.dist-info"
            info.mkdir()
            (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {game_id}\nVersion: 0.1\n")
            (info / "entry_points.txt").write_text(f"[simbalance.games]\n{game_id} = {package}\n")
        sys.path[:0] = [site, str(HERE)]
        registry.rescan()
        try:
            yield
        finally:
            sys.path.remove(site)
            sys.path.remove(str(HERE))
            registry.rescan()
