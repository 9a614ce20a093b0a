"""Who sits where: strategy names -> the integer ids and parameter vectors a kernel reads.

A run has *slots*: the distinct strategy names of its lineup, each with the engine's strategy id and
a float parameter vector from the game config (``[strategies.<name>]``). A *lineup* gives the slot of
every seat; with rotation there is one lineup per distinct seat permutation and game ``g`` uses
lineup ``g % L``, so seat and strategy effects separate.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from simbalance.core.errors import ConfigError

MAX_PARAMS = 16


@dataclass(frozen=True)
class Lineup:
    slot_names: tuple[str, ...]
    slot_strategy: np.ndarray  # int32[S]: engine strategy id per slot
    slot_params: np.ndarray  # float64[S, K]: parameters per slot, padded with 0
    param_names: dict[str, tuple[str, ...]]
    seats: np.ndarray  # int8[L, P]: slot of every seat, one row per lineup
    rotate: bool

    def describe(self) -> list[str]:
        return [",".join(self.slot_names[s] for s in row) for row in self.seats]


def strategy_table(cfg: dict, engine_strategies: dict[str, int]) -> dict[str, dict]:
    """The ``[strategies]`` table of a config, checked against the engine's strategy names."""
    table = cfg.get("strategies", {})
    for name in engine_strategies:
        if name not in table:
            raise ConfigError(f"strategies.{name}: missing from the config (every strategy needs its table)")
    return table


def strategy_params(cfg: dict, name: str) -> dict[str, float]:
    """The numeric parameters of strategy ``name``, in config order."""
    params = {}
    for key, value in cfg["strategies"][name].items():
        if key == "idea":
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ConfigError(f"strategies.{name}.{key} = {value!r}: strategy parameters are numbers")
        params[key] = float(value)
    if len(params) > MAX_PARAMS:
        raise ConfigError(f"strategies.{name}: {len(params)} parameters; at most {MAX_PARAMS}")
    return params


def resolve_lineup(
    cfg: dict,
    engine_strategies: dict[str, int],
    players: int,
    names: list[str] | str | None = None,
    rotate: bool = False,
) -> Lineup:
    """Seat strategies: one name for every seat, or one per seat; ``None`` takes the config default."""
    strategy_table(cfg, engine_strategies)
    if names is None:
        names = cfg.get("game", {}).get("strategies", ["random"])
    if isinstance(names, str):
        names = [n.strip() for n in names.split(",")]
    names = list(names)
    known = ", ".join(engine_strategies)
    for name in names:
        if name not in engine_strategies:
            raise ConfigError(f"unknown strategy {name!r}; known: {known}")
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise ConfigError(
            f"strategies = {','.join(names)}: {len(names)} names for {players} players; give one name or one per seat"
        )
    slot_names = tuple(dict.fromkeys(names))
    slot_of = {name: i for i, name in enumerate(slot_names)}
    base = [slot_of[n] for n in names]
    if rotate:
        rows = sorted(set(itertools.permutations(base)))
    else:
        rows = [tuple(base)]
    params = {name: strategy_params(cfg, name) for name in slot_names}
    width = max([1] + [len(p) for p in params.values()])
    slot_params = np.zeros((len(slot_names), width), dtype=np.float64)
    for i, name in enumerate(slot_names):
        slot_params[i, : len(params[name])] = list(params[name].values())
    return Lineup(
        slot_names=slot_names,
        slot_strategy=np.array([engine_strategies[n] for n in slot_names], dtype=np.int32),
        slot_params=slot_params,
        param_names={n: tuple(p) for n, p in params.items()},
        seats=np.array(rows, dtype=np.int8),
        rotate=rotate,
    )
