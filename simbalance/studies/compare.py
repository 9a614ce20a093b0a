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
from simbalance.core.execution import RunOptions
from simbalance.core.plan import RunPlan
from simbalance.core.runner import ProgressFactory
from simbalance.core.study import Study, StudyParams, option, stop_requested
from simbalance.core.variants import load_variant, parse_arm
from simbalance.studies.run import SimulationResult, play
from simbalance.studies.settings import RunSettings, api_entry


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


@dataclass(frozen=True)
class CompareParams(StudyParams):
    """compare's parameters, in the order of its options; the API takes ``variants`` and ``n`` by
    position (``compare(game, ["short-game"], 1e5, arms={"big-hand": {"rules.hand_size": 12}})``).

    An arm is a variant (a name under ``configs/<game>/variants/`` or a TOML path) or an inline one
    in ``arms``: a name and its overrides (``{"big-hand": {"rules.hand_size": 12}}``, or the
    ``NAME:key=value`` texts of ``--arm big-hand:rules.hand_size=12``), applied on top of the
    baseline. ``alpha`` is the page's one significance level (Holm-corrected across each arm's
    metrics): the table's and the forest plot's "significant" and the findings' alike; by default
    the config's ``findings.alpha`` (docs/findings.md), and given, it is that key for every arm."""

    variants: tuple[str, ...] | None = option(None, flag="--variant", kind=list, positional=True,
                                              help="A variant to compare (name or TOML path); repeatable.")
    arms: Any = option(None, flag="--arm", kind=list,
                       help="An arm without a file: NAME:key=value[,key=value...], e.g. big-hand:rules.hand_size=12; "
                            "repeatable, mixes with --variant.")
    baseline: str | None = option(None, help="Compare against this variant instead of the defaults.")
    n: int = option(100_000, shown="1e5", count=True, positional=True, help="Games per arm: 1e5, 100_000 or 100000.")
    strategies: str | None = option(None, help="Strategy per seat, comma-separated.")
    rotate: bool = option(False, kind=bool, help="Play every seat permutation of the strategies.")
    alpha: float | None = option(None, kind=float,
                                 help="Significance level after Holm's correction, for the table, the forest plot and "
                                      "the findings alike (default: the config's findings.alpha, 0.05).")

    def check(self) -> None:
        object.__setattr__(self, "variants", tuple(self.variants or ()))
        object.__setattr__(self, "arms", inline_arms(self.arms))
        alpha = self.alpha
        if alpha is not None and (isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or not 0 < alpha < 1):
            raise SimbalanceError(f"alpha = {alpha}: allowed between 0 and 1")
        if not self.variants and not self.arms:
            raise SimbalanceError("compare needs at least one arm: --variant NAME or --arm NAME:key=value")
        names = self.names
        if len(set(names)) != len(names):
            twice = sorted({x for x in names if names.count(x) > 1})
            raise SimbalanceError(f"arm {', '.join(twice)} is given twice (arms: {', '.join(names)}): each arm needs "
                                  "its own name")

    @property
    def names(self) -> list[str]:
        """The baseline's name, then every arm's, in the order given."""
        return [self.baseline or "defaults", *self.variants, *(name for name, _ in self.arms)]


def inline_arms(arms) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The inline arms as (name, its ``key=value`` overrides): from the API's dict (name -> a dict
    of values or a list of ``key=value``) or the command line's ``NAME:key=value`` texts."""
    if not arms:
        return ()
    if isinstance(arms, dict):
        pairs = [(name, override_list(overrides)) for name, overrides in arms.items()]
    else:
        pairs, seen = [], set()
        for item in arms:
            name, overrides = (item[0], list(item[1])) if isinstance(item, tuple) else parse_arm(item)
            if name in seen:
                raise SimbalanceError(f"--arm {name}: given twice; each arm needs its own name")
            seen.add(name)
            pairs.append((name, overrides))
    for name, overrides in pairs:
        if not overrides:
            raise SimbalanceError(f"arm {name}: changes no key; give key=value pairs")
    return tuple((name, tuple(overrides)) for name, overrides in pairs)


def plan_compare(settings: RunSettings, params: CompareParams) -> tuple[dict[str, RunPlan], dict, dict]:
    """Every arm's plan, the baseline's first (what each arm changes, in words and as ``key=value``):
    validated and read, no game played. The settings' own ``variants`` come before each arm's; the
    alpha given is the config's ``findings.alpha`` for every arm."""
    if params.alpha is not None:
        settings = settings.but(overrides=settings.overrides + (f"findings.alpha={float(params.alpha)!r}",))
    names = params.names
    run = dict(strategies=params.strategies, rotate=params.rotate)
    baseline, n = params.baseline, params.n
    base = settings.but(variants=settings.variants + ((baseline,) if baseline else ()))
    plans = {names[0]: base.plan(n, **run)}
    game_id = settings.game
    changes = {names[0]: describe_variant(game_id, baseline) if baseline else "the game's defaults"}
    keys = {names[0]: variant_keys(game_id, baseline) if baseline else []}
    for name in params.variants:
        plans[name] = settings.but(variants=settings.variants + (name,)).plan(n, **run)
        changes[name] = describe_variant(game_id, name)
        keys[name] = variant_keys(game_id, name)
    for name, arm_overrides in params.arms:
        try:
            plans[name] = base.but(overrides=base.overrides + arm_overrides).plan(n, **run)
        except SimbalanceError as exc:
            raise type(exc)(f"arm {name}: {exc}") from None
        changes[name] = ", ".join(arm_overrides)
        keys[name] = list(arm_overrides)
    base_players = plans[names[0]].players
    for name, plan in plans.items():
        if plan.players != base_players:
            raise SimbalanceError(f"variant {name} plays with {plan.players} players, the baseline with "
                                  f"{base_players}: compare arms at the same player count")
    return plans, changes, keys


def run_compare(settings: RunSettings, params: CompareParams,
                progress: ProgressFactory | None = None) -> ComparisonResult:
    """Play the baseline (the defaults, or variant ``baseline``) and every arm on the same seed and
    game indices (common random numbers), and test every metric's difference (analysis/compare.py).
    Stopped (Ctrl-C on the command line, core/study.stopping from Python): after the chunk in play,
    RunInterrupted, nothing kept (a comparison is of whole arms)."""
    plans, changes, keys = plan_compare(settings, params)
    names = list(plans)
    base_players = plans[names[0]].players
    same_plan = {name: same_games(plan, plans[names[0]]) for name, plan in plans.items() if name != names[0]}
    warnings = [f"variant {name} changes nothing with {base_players} players: its games are the "
                f"baseline's (same rules, same players)" for name, same in same_plan.items() if same]
    results = {name: play(plan, progress, f"{settings.game} [{name}]", RunOptions(stop=stop_requested))
               for name, plan in plans.items()}
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


STUDY = Study(
    "compare", rank=20, params=CompareParams, run=run_compare, stoppable=True,
    summary="""Run the baseline and each arm (a --variant file or an --arm written inline) on the same seeds
    and report every metric's difference with a 95% CI and a Holm-corrected p-value; writes
    compare.html with a forest plot. --seed, --set and --config apply to every arm (one seed: common
    random numbers).""",
    writer="simbalance.report.compare_page:write_compare_folder", page="compare.html",
    view="simbalance.cli.compare_cmd:show",
    out_help="Output folder (default: reports/compare-<game>-<time>).",
    example=("find-dr-evil", "--arm", "cap:rules.pick_cap=5", "--n", "200"),
)
compare = api_entry(STUDY)  # the API function, made from the params
