"""Compare: the baseline and every variant on the same seed and game indices (common random
numbers), every metric's difference tested game by game (analysis/compare.py)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from simbalance.analysis.compare import compare_arms, compare_findings
from simbalance.analysis.findings import Finding, thresholds
from simbalance.analysis.labels import metric_label
from simbalance.core.config import override_list, toml_value
from simbalance.core.errors import SimbalanceError
from simbalance.core.plan import RunPlan
from simbalance.core.runner import ProgressFactory
from simbalance.core.study import Study
from simbalance.core.variants import load_variant
from simbalance.studies.run import SimulationResult, play
from simbalance.studies.settings import RunSettings


@dataclass
class ComparisonResult:
    """Arms of a comparison and the table of their differences to the baseline."""

    baseline_name: str
    baseline: SimulationResult
    arms: dict[str, SimulationResult]
    table: pd.DataFrame
    alpha: float
    warnings: list[str] = field(default_factory=list)  # e.g. an arm that plays the baseline's games
    changes: dict[str, str] = field(default_factory=dict)  # arm name -> what it changes, in words
    same_plan: dict[str, bool] = field(default_factory=dict)  # arm -> the engine plays the baseline's games
    keys: dict[str, list[str]] = field(default_factory=dict)  # arm -> the config keys it changes, key=value

    def significant(self) -> pd.DataFrame:
        return self.table[self.table["significant"]]

    def identical(self) -> dict[str, bool]:
        """Arm -> every one of its games ended exactly as the baseline's (every field of the record)."""
        base = self.baseline.records
        return {name: base is not None and arm.records is not None and base.dtype == arm.records.dtype
                and bool(np.array_equal(base, arm.records)) for name, arm in self.arms.items()}

    def findings(self) -> list[Finding]:
        """What the page says first: arms that change no game and why, each arm's largest change, and
        the problems an arm brings that the baseline does not have (analysis/findings.py)."""
        plan = self.baseline.plan
        names = list(dict.fromkeys(plan.lineup.slot_names))
        return compare_findings(self.table, thresholds(plan.config), identical=self.identical(),
                                same_plan=self.same_plan,
                                changes={k: ", ".join(v) or self.changes.get(k, "") for k, v in self.keys.items()},
                                games=self.baseline.n_played,
                                strategies=", ".join(names), baseline=self.baseline.findings(),
                                arms={k: v.findings() for k, v in self.arms.items()}, label=metric_label)


def compare(
    game: str | RunSettings,
    variants: list[str] | None,
    n: int,
    *,
    arms: dict[str, dict[str, Any] | list[str]] | None = None,
    baseline: str | None = None,
    strategies: list[str] | str | None = None,
    rotate: bool = False,
    alpha: float | None = None,
    progress: ProgressFactory | None = None,
    **settings: Any,
) -> ComparisonResult:
    """Play the baseline (the defaults, or variant ``baseline``) and every arm on the same seed and
    game indices (common random numbers), and test every metric's difference.

    An arm is a variant (a name under ``configs/<game>/variants/`` or a TOML path) or an inline one
    in ``arms``: a name and its overrides (``{"big-hand": {"rules.hand_size": 12}}``, or the
    ``key=value`` strings of ``--arm big-hand:rules.hand_size=12``), applied on top of the baseline.
    The settings (studies/settings.RunSettings: ``overrides``, ``config``, ``seed`` ...) apply to
    every arm; their own ``variants`` come before each arm's.

    ``alpha`` is the page's one significance level (Holm-corrected across each arm's metrics): the
    table's and the forest plot's "significant" and the findings' alike; by default the config's
    ``findings.alpha`` (docs/findings.md), and given, it is that key for every arm."""
    settings = RunSettings.of(game, **settings)
    if alpha is not None:
        if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or not 0 < alpha < 1:
            raise SimbalanceError(f"alpha = {alpha}: allowed between 0 and 1")
        settings = settings.but(overrides=settings.overrides + (f"findings.alpha={float(alpha)!r}",))
    variants = list(variants or [])
    arms = dict(arms or {})
    if not variants and not arms:
        raise SimbalanceError("compare needs at least one arm: --variant NAME or --arm NAME:key=value")
    names = [baseline or "defaults", *variants, *arms]
    if len(set(names)) != len(names):
        twice = sorted({x for x in names if names.count(x) > 1})
        raise SimbalanceError(f"arm {', '.join(twice)} is given twice (arms: {', '.join(names)}): each arm needs "
                              "its own name")
    run = dict(strategies=strategies, rotate=rotate)
    base = settings.but(variants=settings.variants + ((baseline,) if baseline else ()))
    plans = {names[0]: base.plan(n, **run)}
    game_id = settings.game
    changes = {names[0]: describe_variant(game_id, baseline) if baseline else "the game's defaults"}
    keys = {names[0]: variant_keys(game_id, baseline) if baseline else []}
    for name in variants:
        plans[name] = settings.but(variants=settings.variants + (name,)).plan(n, **run)
        changes[name] = describe_variant(game_id, name)
        keys[name] = variant_keys(game_id, name)
    for name, arm in arms.items():
        arm_overrides = override_list(arm)
        if not arm_overrides:
            raise SimbalanceError(f"arm {name}: changes no key; give key=value pairs")
        try:
            plans[name] = base.but(overrides=base.overrides + tuple(arm_overrides)).plan(n, **run)
        except SimbalanceError as exc:
            raise type(exc)(f"arm {name}: {exc}") from None
        changes[name] = ", ".join(arm_overrides)
        keys[name] = list(arm_overrides)
    base_players = plans[names[0]].players
    for name, plan in plans.items():
        if plan.players != base_players:
            raise SimbalanceError(f"variant {name} plays with {plan.players} players, the baseline with "
                                  f"{base_players}: compare arms at the same player count")
    same_plan = {name: same_games(plan, plans[names[0]]) for name, plan in plans.items() if name != names[0]}
    warnings = [f"variant {name} changes nothing with {base_players} players: its games are the "
                f"baseline's (same rules, same players)" for name, same in same_plan.items() if same]
    results = {name: play(plan, progress, f"{game_id} [{name}]") for name, plan in plans.items()}
    base = results.pop(names[0])
    alpha = thresholds(base.plan.config)["alpha"]  # the findings' own, so one level rules the whole page
    table = compare_arms(base, results, alpha)
    return ComparisonResult(names[0], base, results, table, alpha, warnings, changes, same_plan, keys)


def describe_variant(game_id: str, name: str) -> str:
    """A variant's description, or the keys it changes when it has none."""
    changes, description = load_variant(game_id, name)
    keys = ", ".join(f"{k}={toml_value(v)}" for k, v in changes.items())
    return f"{description} ({keys})" if description else keys


def variant_keys(game_id: str, name: str) -> list[str]:
    """The keys a variant changes, as ``key=value``."""
    changes, _ = load_variant(game_id, name)
    return [f"{k}={toml_value(v)}" for k, v in changes.items()]


def same_games(a: RunPlan, b: RunPlan) -> bool:
    """Whether two plans play identical games: the same kernel arguments (what the engine made of
    the config for this player count) and the same seats. A variant can change a config key that
    this player count never reads (captain-future's ships.4 with 2 players)."""
    def equal(x, y) -> bool:
        if isinstance(x, np.ndarray) or isinstance(y, np.ndarray):
            return (isinstance(x, np.ndarray) and isinstance(y, np.ndarray) and x.dtype == y.dtype
                    and x.shape == y.shape and bool(np.array_equal(x, y)))
        if isinstance(x, tuple) and isinstance(y, tuple):
            return len(x) == len(y) and all(equal(u, v) for u, v in zip(x, y, strict=True))
        return type(x) is type(y) and x == y

    la, lb = a.lineup, b.lineup
    return (a.kernel is b.kernel and a.players == b.players and equal(a.prepared_for(), b.prepared_for())
            and la.slot_names == lb.slot_names and equal(la.slot_strategy, lb.slot_strategy)
            and equal(la.slot_params, lb.slot_params) and equal(la.seats, lb.seats))


# The contract (core/study.py): the command is still written by hand (not yet on declared params).
STUDY = Study("compare", rank=20, command="simbalance.cli.compare_cmd:compare", api=compare,
              example=('find-dr-evil', '--arm', 'cap:rules.pick_cap=5', '--n', '200'))
