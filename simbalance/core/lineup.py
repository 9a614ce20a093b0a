"""Who sits where: strategy names -> the integer ids and parameter vectors a kernel reads.

A strategy name is either one of the engine's heuristics (a ``[strategies.<name>]`` table in the
game config: ``idea`` and float parameters) or a *preset*: a heuristic with other parameters,
from ``configs/<game>/presets.toml`` (``[name] base = "heuristic"``, ``idea``, the parameters it
changes), merged into the config under ``presets`` so ``--set presets.<name>.<param>=...`` works.

A parameter may also name another strategy (a string: search players' ``rollout``): it must be its
strategy's last parameter, and the kernel reads it as that strategy's id followed by its parameters
(``param_row``). The named strategy must have numeric parameters only (no chains).

A run has *slots*: the distinct names of its lineup, each with an engine strategy id and a float
parameter vector. A *lineup* gives the slot of every seat; with rotation there is one lineup per
distinct seat permutation, and a tournament plays every assignment of its strategies to the seats.
Game ``g`` uses lineup ``g % L``.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from simbalance.core.errors import ConfigError, did_you_mean

# A search player's row holds its own parameters, then its rollout strategy's id and parameters:
# mcts (5) with captain-future's aggressor (12) needs 17.
MAX_PARAMS = 20
MAX_LINEUPS = 50_000


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


@dataclass(frozen=True)
class StrategyInfo:
    name: str
    base: str  # the engine heuristic it runs
    idea: str
    params: dict[str, float | str]  # a string names another strategy (module doc)
    preset: bool
    restricts: str | None = None  # a preset that is `restricts` with one ability taken away


def strategy_table(cfg: dict, engine_strategies: dict[str, int]) -> dict[str, dict]:
    """The ``[strategies]`` table of a config, checked against the engine's strategy names."""
    table = cfg.get("strategies", {})
    for name in engine_strategies:
        if name not in table:
            raise ConfigError(f"strategies.{name}: missing from the config (every strategy needs its table)")
    for name in table:
        if name not in engine_strategies:
            raise ConfigError(f"strategies.{name}: not a heuristic of this game; known: {', '.join(engine_strategies)}")
    return table


def _numeric(where: str, table: dict, skip: tuple[str, ...]) -> dict[str, float | str]:
    """A strategy's parameters: numbers, or a string naming another strategy (checked when bound)."""
    params = {}
    for key, value in table.items():
        if key in skip:
            continue
        if isinstance(value, str):
            params[key] = value
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ConfigError(f"{where}.{key} = {value!r}: strategy parameters are numbers (or a strategy's name)")
        params[key] = float(value)
    return params


def numeric_only(info: StrategyInfo) -> bool:
    """True when no parameter of ``info`` names another strategy."""
    return not any(isinstance(v, str) for v in info.params.values())


def _allowed(names: tuple[str, ...]) -> str:
    return ", ".join(names) if names else "none"


def bind_params(where: str, given: dict[str, float], names: tuple[str, ...]) -> dict[str, float]:
    """``given`` in the engine's declared order ``names``: every name present, no other.

    Kernels read parameters by position; binding them here by name means the order of the keys in
    a config file, a preset or an override can never move a value into another parameter's place.
    """
    for key in given:
        if key not in names:
            raise ConfigError(f"{where}.{key}: unknown parameter; allowed: {_allowed(names)}")
    for key in names:
        if key not in given:
            raise ConfigError(f"{where}: missing parameter {key!r}; it needs: {_allowed(names)}")
    return {key: given[key] for key in names}


def strategy_params(cfg: dict, name: str, names: tuple[str, ...]) -> dict[str, float]:
    """The numeric parameters of heuristic ``name``, in the engine's declared order."""
    where = f"strategies.{name}"
    return bind_params(where, _numeric(where, cfg["strategies"][name], ("idea",)), names)


def check_param_names(engine_strategies: dict[str, int], param_names: dict[str, tuple[str, ...]]) -> None:
    """An engine declares the ordered parameter names of every heuristic (a programming error if not)."""
    for name in engine_strategies:
        if name not in param_names:
            raise TypeError(f"engine declares no parameter names for strategy {name!r} (STRATEGY_PARAMS)")
        if len(param_names[name]) > MAX_PARAMS:
            raise TypeError(f"strategy {name!r}: {len(param_names[name])} parameters; at most {MAX_PARAMS}")


def all_strategies(cfg: dict, engine_strategies: dict[str, int],
                   param_names: dict[str, tuple[str, ...]]) -> dict[str, StrategyInfo]:
    """Every usable strategy name of a game: its heuristics, then its presets.

    ``param_names`` is the engine's ``STRATEGY_PARAMS``: for each heuristic, its parameter names in
    the order its kernel reads them.
    """
    check_param_names(engine_strategies, param_names)
    table = strategy_table(cfg, engine_strategies)
    out = {name: StrategyInfo(name, name, str(table[name].get("idea", "")),
                              strategy_params(cfg, name, tuple(param_names[name])), False)
           for name in engine_strategies}
    for name, preset in cfg.get("presets", {}).items():
        where = f"presets.{name}"
        if not isinstance(preset, dict):
            raise ConfigError(f"{where}: expected a table with base = \"<heuristic>\"")
        base = preset.get("base")
        if base not in engine_strategies:
            raise ConfigError(f"{where}.base = {base!r}: not a heuristic of this game; known: {', '.join(engine_strategies)}")
        if name in engine_strategies:
            raise ConfigError(f"{where}: a preset cannot reuse the heuristic name {name!r}")
        params = dict(out[base].params)
        restricts = preset.get("restricts")
        if restricts is not None and restricts not in out:
            raise ConfigError(f"{where}.restricts = {restricts!r}: not a strategy of this game")
        for key, value in _numeric(where, preset, ("base", "idea", "restricts")).items():
            if key not in params:
                raise ConfigError(f"{where}.{key}: {base} has no parameter {key!r}; allowed: {_allowed(tuple(params))}")
            if isinstance(value, str) != isinstance(params[key], str):
                wanted = "a strategy's name" if isinstance(params[key], str) else "a number"
                raise ConfigError(f"{where}.{key} = {value!r}: expected {wanted} (as {base}'s {key} = {params[key]!r})")
            params[key] = value
        out[name] = StrategyInfo(name, base, str(preset.get("idea", "")), params, True, restricts)
    return out


def param_row(known: dict[str, StrategyInfo], engine_strategies: dict[str, int], name: str) -> list[float]:
    """The parameter vector the kernel reads for strategy ``name``: its numbers in declared order; a
    parameter naming another strategy (only the last may) becomes that strategy's id followed by
    its own parameters."""
    info = known[name]
    row: list[float] = []
    items = list(info.params.items())
    for k, (key, value) in enumerate(items):
        if not isinstance(value, str):
            row.append(float(value))
            continue
        where = f"strategies.{info.base}.{key}" if not info.preset else f"presets.{name}.{key}"
        if k != len(items) - 1:
            raise ConfigError(f"{where} = {value!r}: only a strategy's last parameter may name a strategy")
        ref = known.get(value)
        if ref is None:
            raise ConfigError(f"{where} = {value!r}: not a strategy of this game{did_you_mean(value, known)}; "
                              f"known: {', '.join(n for n, i in known.items() if numeric_only(i))}")
        if not numeric_only(ref) or ref.base not in engine_strategies:
            raise ConfigError(f"{where} = {value!r}: names a strategy that itself names one; "
                              "name a heuristic or a preset of one")
        row += [float(engine_strategies[ref.base]), *(float(v) for v in ref.params.values())]
    if len(row) > MAX_PARAMS:
        raise ConfigError(f"strategy {name!r}: {len(row)} parameters with the one it names; at most {MAX_PARAMS}")
    return row


def resolve_lineup(
    cfg: dict,
    engine_strategies: dict[str, int],
    param_names: dict[str, tuple[str, ...]],
    players: int,
    names: list[str] | str | None = None,
    rotate: bool = False,
    every_lineup: bool = False,
    user_strategy: bool = False,
) -> Lineup:
    """Seat strategies: one name for every seat, or one per seat; ``None`` takes the config default.

    ``rotate`` plays every distinct permutation of the given seats; ``every_lineup`` (tournaments)
    plays every assignment of the distinct names to the seats, repetitions included.
    """
    known = all_strategies(cfg, engine_strategies, param_names)
    if user_strategy:  # the user's own function, seated by the name "plugin" (core/user_strategy.py)
        from simbalance.core.user_strategy import USER_STRATEGY_ID, USER_STRATEGY_SEAT

        known[USER_STRATEGY_SEAT] = StrategyInfo(USER_STRATEGY_SEAT, USER_STRATEGY_SEAT, "the --strategy-file function",
                                                 {}, False)
        engine_strategies = {**engine_strategies, USER_STRATEGY_SEAT: USER_STRATEGY_ID}
    key = "--strategies"  # the option's name (the API's keyword is the same word), or the config's key
    if names is None:
        names, key = cfg.get("game", {}).get("strategies", ["random"]), "game.strategies"
    if isinstance(names, str):
        names = [n.strip() for n in names.split(",")]
    names = list(names)
    for name in names:
        if name not in known:
            raise ConfigError(f"{key}: unknown strategy {name!r}{did_you_mean(name, known)}; known: {', '.join(known)}")
    if every_lineup:
        slot_names = tuple(dict.fromkeys(names))
        if len(slot_names) ** players > MAX_LINEUPS:
            raise ConfigError(f"{len(slot_names)} strategies at {players} seats make too many lineups; fewer strategies")
        rows = list(itertools.product(range(len(slot_names)), repeat=players))
    else:
        if len(names) == 1:
            names = names * players
        if len(names) != players:
            raise ConfigError(
                f"strategies = {','.join(names)}: {len(names)} names for {players} players; give one name or one per seat"
            )
        slot_names = tuple(dict.fromkeys(names))
        slot_of = {name: i for i, name in enumerate(slot_names)}
        base = tuple(slot_of[n] for n in names)
        rows = sorted(set(itertools.permutations(base))) if rotate else [base]
    # Always MAX_PARAMS wide, in each strategy's declared order (bound by name above); the padding
    # is 0 and no heuristic reads past its own names.
    slot_params = np.zeros((len(slot_names), MAX_PARAMS), dtype=np.float64)
    for i, name in enumerate(slot_names):
        row = param_row(known, engine_strategies, name)
        slot_params[i, : len(row)] = row
    return Lineup(
        slot_names=slot_names,
        slot_strategy=np.array([engine_strategies[known[n].base] for n in slot_names], dtype=np.int32),
        slot_params=slot_params,
        param_names={n: tuple(known[n].params) for n in slot_names},
        seats=np.array(rows, dtype=np.int8),
        rotate=rotate,
    )
