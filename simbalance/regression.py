"""Baselines and the balance regression gate (`simbalance baseline`, `simbalance check`).

A baseline file (JSON) stores how a setup was run (game, players, strategies, variants, overrides,
seed, n), the engine version and a hash of the resolved config, and every headline metric with its
standard error. `check` re-runs the setup on a fresh seed and tests each metric (see
simbalance/analysis/check.py), plus the designer bounds of the game config's ``[bounds]`` table.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from xml.sax.saxutils import escape as xml_escape

import simbalance
from simbalance.analysis.check import (
    STATUS_REGRESSION,
    MetricCheck,
    check_bounds,
    compare_to_baseline,
    config_hash,
    headline_metrics,
)
from simbalance.api import SimulationResult, plan_run
from simbalance.core.config import CONFIG_DIR
from simbalance.core.errors import ConfigError

BASELINE_DIR = CONFIG_DIR / "baselines"
FORMAT = 1


def create_baseline(game: str, n: int, *, seed: int = 0, players: int | None = None,
                    variants: list[str] | None = None, strategies: str | list[str] | None = None,
                    rotate: bool = False, overrides: list[str] | None = None, progress=None) -> dict:
    setup = {"game": game, "players": players, "variants": list(variants or []),
             "strategies": strategies if strategies is None or isinstance(strategies, str) else ",".join(strategies),
             "rotate": rotate, "overrides": list(overrides or [])}
    plan = _plan(setup, n, seed)
    result = SimulationResult.from_plan(plan, progress=progress)
    setup["players"] = plan.players
    return {
        "format": FORMAT,
        "setup": setup,
        "n": n,
        "seed": seed,
        "engine_version": plan.engine.ENGINE_VERSION,
        "config_hash": config_hash(plan.config),
        "simbalance_version": simbalance.__version__,
        "created_utc": datetime.now(UTC).isoformat(timespec="seconds"),
        "metrics": headline_metrics(result.summary()),
        "margins": {},
    }


def _plan(setup: dict, n: int, seed: int):
    return plan_run(setup["game"], n, seed=seed, players=setup.get("players"), variants=setup.get("variants"),
                    strategies=setup.get("strategies"), rotate=bool(setup.get("rotate")),
                    overrides=setup.get("overrides") or [])


def read_baseline(path: Path) -> dict:
    try:
        data = json.loads(Path(path).read_text())
    except FileNotFoundError:
        raise ConfigError(f"baseline {path} does not exist") from None
    except (OSError, json.JSONDecodeError) as exc:
        raise ConfigError(f"baseline {path} cannot be read: {exc}") from None
    for key in ("setup", "n", "seed", "metrics", "engine_version", "config_hash"):
        if key not in data:
            raise ConfigError(f"baseline {path}: missing {key!r}; re-create it with `simbalance baseline`")
    return data


@dataclass
class CheckResult:
    path: str
    game: str
    n: int
    seed: int
    metrics: list[MetricCheck]
    bounds: list[tuple[str, str, bool]]
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def passed(self) -> bool:
        return all(m.status != STATUS_REGRESSION for m in self.metrics) and all(ok for _, _, ok in self.bounds)


def run_check(path: Path, *, n: int | None = None, seed: int | None = None, alpha: float = 0.05,
              progress=None) -> CheckResult:
    base = read_baseline(path)
    setup = base["setup"]
    n = n or base["n"]
    seed = base["seed"] + 1 if seed is None else seed
    if seed == base["seed"]:
        raise ConfigError(f"check of {path}: seed {seed} is the baseline's own; a check needs fresh seeds")
    plan = _plan(setup, n, seed)
    notes = []
    if plan.engine.ENGINE_VERSION != base["engine_version"]:
        notes.append(f"engine version changed: {base['engine_version']} -> {plan.engine.ENGINE_VERSION}")
    if config_hash(plan.config) != base["config_hash"]:
        notes.append(f"resolved config changed: hash {base['config_hash']} -> {config_hash(plan.config)}")
    result = SimulationResult.from_plan(plan, progress=progress)
    summary = result.summary()
    checks = compare_to_baseline(base["metrics"], headline_metrics(summary), alpha, base.get("margins"))
    bounds = check_bounds(summary, plan.config.get("bounds", {}))
    return CheckResult(str(path), setup["game"], n, seed, checks, bounds, notes, result.elapsed)


def default_baselines() -> list[Path]:
    return sorted(BASELINE_DIR.glob("*.json"))


def to_markdown(results: list[CheckResult]) -> str:
    lines = ["# simbalance check", ""]
    for r in results:
        lines += [f"## {r.game} ({Path(r.path).name}): {'pass' if r.passed else 'FAIL'}", "",
                  f"{r.n:,} games, seed {r.seed}.", ""]
        lines += [f"- note: {note}" for note in r.notes]
        lines += ["", "| metric | baseline | now | difference | margin | status |", "|---|---|---|---|---|---|"]
        for m in r.metrics:
            lines.append(f"| {m.metric} | {m.baseline:.4g} | {m.value:.4g} | {m.difference:+.4g} | {m.margin:.3g} | "
                         f"{m.status} |")
        for bound, measured, ok in r.bounds:
            lines.append(f"| bound: {bound} | | {measured} | | | {'ok' if ok else 'VIOLATED'} |")
        lines.append("")
    return "\n".join(lines)


def to_junit(results: list[CheckResult]) -> str:
    cases = []
    failures = 0
    for r in results:
        for m in r.metrics:
            body = ""
            if m.status == STATUS_REGRESSION:
                failures += 1
                body = (f"<failure message=\"{xml_escape(m.metric)} moved from {m.baseline:.4g} to {m.value:.4g}"
                        f" (margin {m.margin:.3g})\"/>")
            cases.append(f"<testcase classname=\"{xml_escape(r.game)}\" name=\"{xml_escape(m.metric)}\" "
                         f"time=\"0\">{body}</testcase>")
        for bound, measured, ok in r.bounds:
            body = "" if ok else f"<failure message=\"{xml_escape(bound)}: measured {xml_escape(measured)}\"/>"
            failures += 0 if ok else 1
            cases.append(f"<testcase classname=\"{xml_escape(r.game)}\" name=\"bound: {xml_escape(bound)}\" "
                         f"time=\"0\">{body}</testcase>")
    return (f"<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<testsuite name=\"simbalance check\" "
            f"tests=\"{len(cases)}\" failures=\"{failures}\">\n" + "\n".join(cases) + "\n</testsuite>\n")
