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

from simbalance.analysis.check import (
    STATUS_REGRESSION,
    MetricCheck,
    check_bounds,
    compare_to_baseline,
    config_hash,
    headline_metrics,
    short_value,
    validate_baseline_metrics,
)
from simbalance.core.config import CONFIG_DIR
from simbalance.core.errors import ConfigError, SimbalanceError
from simbalance.core.rng import derive_seed
from simbalance.games.registry import all_games
from simbalance.studies.run import SimulationResult, plan_run
from simbalance.version import __version__

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
        "engine_version": plan.engine.version,
        "config_hash": config_hash(plan.config),
        "simbalance_version": __version__,
        "created_utc": datetime.now(UTC).isoformat(timespec="seconds"),
        "metrics": headline_metrics(result.summary()),
        "margins": {},
    }


def _plan(setup: dict, n: int, seed: int):
    return plan_run(setup["game"], n, seed=seed, players=setup.get("players"), variants=setup.get("variants"),
                    strategies=setup.get("strategies"), rotate=bool(setup.get("rotate")),
                    overrides=setup.get("overrides") or [])


def read_baseline(path: Path) -> dict:
    """A baseline file, checked for shape and types (not yet against the setup it names)."""
    try:
        data = json.loads(Path(path).read_text())
    except FileNotFoundError:
        raise ConfigError(f"baseline {path} does not exist") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ConfigError(f"baseline {path} cannot be read: {' '.join(str(exc).split())}") from None
    where = f"baseline {path}"
    redo = "re-create it with `simbalance baseline`"
    if not isinstance(data, dict):
        raise ConfigError(f"{where}: the file holds {short_value(data)}, expected a JSON object; {redo}")
    for key in ("setup", "n", "seed", "metrics", "engine_version", "config_hash"):
        if key not in data:
            raise ConfigError(f"{where}: missing {key!r}; {redo}")
    if data.get("format", FORMAT) != FORMAT:
        raise ConfigError(f"{where}: format = {short_value(data['format'])}: this simbalance reads format {FORMAT}; {redo}")
    setup = data["setup"]
    if not isinstance(setup, dict):
        raise ConfigError(f"{where}: setup = {short_value(setup)}: expected a table with game, players, variants, "
                          f"strategies, rotate, overrides")
    if not isinstance(setup.get("game"), str):
        raise ConfigError(f"{where}: setup.game = {short_value(setup.get('game'))}: expected a game id "
                          "(see `simbalance games`)")
    players = setup.get("players")
    if players is not None and (isinstance(players, bool) or not isinstance(players, int)):
        raise ConfigError(f"{where}: setup.players = {short_value(players)}: expected a whole number or null")
    for key in ("variants", "overrides"):
        value = setup.get(key) or []
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{where}: setup.{key} = {short_value(value)}: expected a list of strings")
    strategies = setup.get("strategies")
    if strategies is not None and not isinstance(strategies, str):
        raise ConfigError(f"{where}: setup.strategies = {short_value(strategies)}: expected a comma-separated string or null")
    if not isinstance(setup.get("rotate", False), bool):
        raise ConfigError(f"{where}: setup.rotate = {short_value(setup['rotate'])}: expected true or false")
    for key, low in (("n", 1), ("seed", 0)):
        value = data[key]
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise ConfigError(f"{where}: {key} = {short_value(value)}: expected a whole number >= {low}")
    if isinstance(data["engine_version"], bool) or not isinstance(data["engine_version"], (int, str)):
        raise ConfigError(f"{where}: engine_version = {short_value(data['engine_version'])}: expected a number")
    if not isinstance(data["config_hash"], str):
        raise ConfigError(f"{where}: config_hash = {short_value(data['config_hash'])}: expected a hash string")
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


@dataclass
class PreparedCheck:
    """A baseline read, validated and planned: nothing played yet."""

    path: Path
    base: dict
    plan: object
    n: int
    seed: int
    notes: list[str]


def prepare_check(path: Path, *, n: int | None = None, seed: int | None = None,
                  game: str | None = None) -> PreparedCheck:
    """Everything a check can get wrong, found before a game is played: the file, its setup (a known
    game, the expected one), its metrics against what the re-run produces, the seed.

    The expected game is ``game`` if given, else the file's name when it is a game id
    (configs/baselines/<game>.json)."""
    path = Path(path)
    base = read_baseline(path)
    setup = base["setup"]
    where = f"baseline {path}"
    known_games = all_games()
    if setup["game"] not in known_games:
        raise ConfigError(f"{where}: setup.game = {setup['game']!r}: unknown game; known games: "
                          f"{', '.join(known_games)}")
    expected = game if game is not None else (path.stem if path.stem in known_games else None)
    if expected is not None and setup["game"] != expected:
        why = "--game" if game is not None else "its file name"
        raise ConfigError(f"{where}: setup.game = {setup['game']!r}, but {why} expects {expected!r}; "
                          f"check the file, or re-create it with `simbalance baseline {expected}`")
    n = n or base["n"]
    seed = derive_seed(base["seed"], "check") if seed is None else seed
    if seed == base["seed"]:
        raise ConfigError(f"check of {path}: seed {seed} is the baseline's own; a check needs fresh seeds")
    try:
        plan = _plan(setup, n, seed)
    except SimbalanceError as exc:
        raise ConfigError(f"{where}: setup: {exc}") from None
    validate_baseline_metrics(where, base["metrics"], base.get("margins"), plan.players, plan.lineup.slot_names)
    notes = []
    if plan.engine.version != base["engine_version"]:
        notes.append(f"engine version changed: {base['engine_version']} -> {plan.engine.version}")
    if config_hash(plan.config) != base["config_hash"]:
        notes.append(f"resolved config changed: hash {base['config_hash']} -> {config_hash(plan.config)}")
    return PreparedCheck(path, base, plan, n, seed, notes)


def play_check(prepared: PreparedCheck, *, alpha: float = 0.05, progress=None) -> CheckResult:
    plan, base = prepared.plan, prepared.base
    result = SimulationResult.from_plan(plan, progress=progress)
    summary = result.summary()
    checks = compare_to_baseline(base["metrics"], headline_metrics(summary), alpha, base.get("margins"))
    bounds = check_bounds(summary, plan.config.get("bounds", {}))
    return CheckResult(str(prepared.path), base["setup"]["game"], prepared.n, prepared.seed, checks, bounds,
                       list(prepared.notes), result.elapsed)


def run_check(path: Path, *, n: int | None = None, seed: int | None = None, alpha: float = 0.05,
              progress=None, game: str | None = None) -> CheckResult:
    return play_check(prepare_check(path, n=n, seed=seed, game=game), alpha=alpha, progress=progress)


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
