"""Hostile game: a planted plug-in game that misbehaves from game 3000 on, after the probe's few
games have passed (issue 54 item 5; tests/cli/test_hostile_plugins.py).

It plays find-dr-evil (its engine and a copy of its config) and then, when the environment's
``HOSTILE_DOES`` says so and a block of games reaches game ``FROM_GAME``:

- ``exit``: ``os._exit(0)``, the process ends at once (exit 0, nothing written);
- ``raise``: a ValueError;
- ``loop``: a compiled loop that never ends (it holds its thread, as a kernel stuck in a game would);
- ``garbage``: writes a length of 2^31 - 1 into its records (the aggregate's histogram would take 16 GB).
"""

from simbalance.core.spec import GameSpec

SPEC = GameSpec(id="hostile-game", title="Hostile game", summary="find-dr-evil, misbehaving from game 3000",
                min_players=2, max_players=6, engine="hostile_game.engine", length_unit="picks")
