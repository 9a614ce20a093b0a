"""Baselines and the balance regression gate (`simbalance baseline`, `simbalance check`).

A baseline file (JSON) stores how a setup was run (game, players, strategies, variants, overrides,
seed, n), the engine version and a hash of the resolved config, and every headline metric with its
standard error. `check` re-runs the setup on a fresh seed and tests each metric (see
simbalance/analysis/check.py), plus the designer bounds of the game config's ``[bounds]`` table.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from simbalance.analysis.check import (
    BOUND_OPEN,
    DEFAULT_ALPHA,
    STATUS_BETTER,
    STATUS_OK,
    STATUS_WITHIN,
    BoundCheck,
    MetricCheck,
    check_bounds,
    compare_to_baseline,
    config_hash,
    default_margin,
    format_difference,
    format_margin,
    format_value,
    headline_metrics,
    short_value,
    validate_baseline_metrics,
)
from simbalance.analysis.labels import metric_label
from simbalance.core.config import CONFIG_DIR
from simbalance.core.errors import ConfigError, SimbalanceError
from simbalance.core.owned import begun_as, file_begins_with
from simbalance.core.rng import derive_seed
from simbalance.core.runner import ProgressFactory
from simbalance.core.study import Study
from simbalance.games.registry import all_games
from simbalance.studies.run import play
from simbalance.studies.settings import RunSettings
from simbalance.version import __version__

BASELINE_DIR = CONFIG_DIR / "baselines"
FORMAT = 1


def create_baseline(game: str | RunSettings, n: int, *, strategies: str | list[str] | None = None,
                    rotate: bool = False, progress: ProgressFactory | None = None, **settings: Any) -> dict:
    """Run a setup and return the baseline (a JSON-able dict). The settings
    (studies/settings.RunSettings) and the strategies are the setup the file stores: ``config`` (a
    TOML file used instead of configs/<game>.toml), as given, only when given."""
    settings = RunSettings.of(game, **settings)
    setup = {"game": settings.game, "players": settings.players, "variants": list(settings.variants),
             "strategies": strategies if strategies is None or isinstance(strategies, str) else ",".join(strategies),
             "rotate": rotate, "overrides": list(settings.overrides)}
    if settings.config is not None:
        setup["config"] = settings.config
    seed = settings.seed
    plan = _plan(setup, n, seed, threads=settings.threads)
    result = play(plan, progress, f"baseline {settings.game}")
    setup["players"] = plan.players
    return {
        "format": FORMAT,
        "setup": setup,
        "n": n,
        "seed": seed,
        "engine_version": plan.engine.version,
        "config_hash": config_hash(plan.config),
        "simbalance_version": __version__,
        "created_utc": _now(),
        "metrics": headline_metrics(result.summary()),
        "margins": {},
    }


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _plan(setup: dict, n: int, seed: int, *, overrides: list[str] | None = None, config: str | Path | None = None,
          threads: int | None = None):
    """The run of a baseline's setup; ``overrides`` apply after the setup's own, ``config`` replaces its
    config file."""
    settings = RunSettings(setup["game"], players=setup.get("players"), seed=seed,
                           variants=tuple(setup.get("variants") or ()),
                           overrides=(*(setup.get("overrides") or []), *(overrides or [])),
                           config=config if config is not None else setup.get("config"), threads=threads)
    return settings.plan(n, strategies=setup.get("strategies"), rotate=bool(setup.get("rotate")))


def read_baseline(path: Path) -> dict:
    """A baseline file, checked for shape and types (not yet against the setup it names)."""
    if Path(path).exists() and not Path(path).is_file():  # a FIFO would block the read
        raise ConfigError(f"baseline {path}: not a regular file; give a baseline file (JSON)")
    try:
        data = json.loads(Path(path).read_text())
    except FileNotFoundError:
        raise ConfigError(f"baseline {path} does not exist") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ConfigError(f"baseline {path} cannot be read: {' '.join(str(exc).split())}") from None
    except RecursionError:  # valid JSON nested deeper than Python's parser goes (a baseline nests 4 levels)
        raise ConfigError(f"baseline {path} cannot be read: nested too deep; re-create it with `simbalance baseline`") from None
    where = f"baseline {path}"
    redo = "re-create it with `simbalance baseline`"
    if not isinstance(data, dict):
        raise ConfigError(f"{where}: the file holds {short_value(data)}, expected a JSON object; {redo}")
    if "kind" in data and data["kind"] != "baseline":  # another file of simbalance's: a manifest.json
        raise ConfigError(f"{where}: kind = {short_value(data['kind'])}: a {data['kind']} file, not a baseline; "
                          f"give a file written by `simbalance baseline`")
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
    if setup.get("config") is not None and not isinstance(setup["config"], str):
        raise ConfigError(f"{where}: setup.config = {short_value(setup['config'])}: expected the path of a config "
                          "file (TOML) or no key")
    strategies = setup.get("strategies")
    if strategies is not None and not isinstance(strategies, str):
        raise ConfigError(f"{where}: setup.strategies = {short_value(strategies)}: expected a comma-separated string or null")
    if not isinstance(setup.get("rotate", False), bool):
        raise ConfigError(f"{where}: setup.rotate = {short_value(setup['rotate'])}: expected true or false")
    for key, low in (("n", 1), ("seed", 0)):
        value = data[key]
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise ConfigError(f"{where}: {key} = {short_value(value)}: expected a whole number >= {low}")
    version = data["engine_version"]
    if isinstance(version, bool) or not isinstance(version, int) or version < 0:
        raise ConfigError(f"{where}: engine_version = {short_value(version)}: expected a whole number >= 0 (the "
                          "engine's version when the baseline was made)")
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
    bounds: list[BoundCheck]  # each holds, is VIOLATED or is not settled (a warning)
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0
    fail_on_change: bool = False  # also fail on "better" and "changed" (by default only "worse" fails)

    @property
    def failing(self) -> list[MetricCheck]:
        return [m for m in self.metrics if m.fails(self.fail_on_change)]

    @property
    def passed(self) -> bool:
        return not self.failing and all(b.ok for b in self.bounds)

    @property
    def moved(self) -> list[MetricCheck]:
        """Metrics that moved beyond their margin (better, worse or changed)."""
        return [m for m in self.metrics if m.status not in (STATUS_OK, STATUS_WITHIN)]


OVERRIDE_NOTE = "this check's setup differs from the baseline's by"


def accept_hint(result: CheckResult) -> str | None:
    """How to accept what moved (the file's --update command), or None when nothing did."""
    overridden = any(note.startswith(OVERRIDE_NOTE) for note in result.notes)
    if not (result.moved or any(not note.startswith(OVERRIDE_NOTE) for note in result.notes)):
        return None
    update = f"`simbalance baseline --update {result.path}`"
    if overridden:
        return f"the baseline is unchanged; to adopt the change, make it in the game's config and run {update}"
    return f"if the change is intended, accept it: {update}"


@dataclass
class PreparedCheck:
    """A baseline read, validated and planned: nothing played yet."""

    path: Path
    base: dict
    plan: object
    n: int
    seed: int
    notes: list[str]


def _read_for_game(path: Path, game: str | None) -> dict:
    """A baseline file whose setup names a known game, the expected one: ``game`` if given, else the
    file's name when it is a game id (configs/baselines/<game>.json)."""
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
    return base


def _setup_text(setup: dict, overrides: list[str], config: str | Path | None) -> str:
    """How a check's run differs from the baseline's setup (--config, --set), in words."""
    parts = []
    if config is not None:
        parts.append(f"--config {config} (the baseline used {setup.get('config') or 'the game config'})")
    parts += [f"--set {o}" for o in overrides]
    return ", ".join(parts)


def prepare_check(path: Path, *, n: int | None = None, seed: int | None = None, game: str | None = None,
                  overrides: list[str] | None = None, config: str | Path | None = None) -> PreparedCheck:
    """Everything a check can get wrong, found before a game is played: the file, its setup (a known
    game, the expected one), its metrics against what the re-run produces, the seed.

    The expected game is ``game`` if given, else the file's name when it is a game id
    (configs/baselines/<game>.json). ``overrides`` (``--set``) apply on top of the baseline's setup and
    ``config`` (``--config``) replaces its config file: the check then measures that change against
    the stored baseline, and says so in its notes."""
    path = Path(path)
    base = _read_for_game(path, game)
    setup = base["setup"]
    where = f"baseline {path}"
    overrides = list(overrides or [])
    n = n or base["n"]
    seed = derive_seed(base["seed"], "check") if seed is None else seed
    if seed == base["seed"]:
        raise ConfigError(f"check of {path}: seed {seed} is the baseline's own; a check needs fresh seeds")
    try:
        plan = _plan(setup, n, seed, overrides=overrides, config=config)
    except SimbalanceError as exc:
        if overrides or config is not None:
            try:  # the baseline's own setup plans: the error is in what this check adds to it
                _plan(setup, n, seed)
            except SimbalanceError:
                pass
            else:
                raise ConfigError(f"check of {path}: {exc} (from {_setup_text(setup, overrides, config)} on top "
                                  f"of the baseline's setup)") from None
        raise ConfigError(f"{where}: setup: {exc}") from None
    validate_baseline_metrics(where, base["metrics"], base.get("margins"), plan.players, plan.lineup.slot_names,
                              plan.spec.length_unit)
    notes = []
    if overrides or config is not None:
        notes.append(f"{OVERRIDE_NOTE} {_setup_text(setup, overrides, config)}: it measures that change against "
                     "the stored baseline")
    if plan.engine.version != base["engine_version"]:  # other rules' games: comparing them says nothing
        raise ConfigError(f"{where}: engine_version = {base['engine_version']}, but this simbalance plays "
                          f"{plan.spec.id}'s engine version {plan.engine.version}, whose games differ; re-record "
                          f"the baseline with `simbalance baseline --update {path}`")
    if config_hash(plan.config) != base["config_hash"]:
        notes.append(f"resolved config changed: hash {base['config_hash']} -> {config_hash(plan.config)}")
    return PreparedCheck(path, base, plan, n, seed, notes)


def prepare_checks(paths: list[Path], *, n: int | None = None, seed: int | None = None, game: str | None = None,
                   overrides: list[str] | None = None, config: str | Path | None = None) -> list[PreparedCheck]:
    """Every baseline read, validated and planned before the first game is played."""
    if config is not None:
        games = sorted({read_baseline(Path(p))["setup"]["game"] for p in paths})
        if len(games) > 1:
            raise ConfigError(f"--config {config}: a config file is one game's, but the baselines are for "
                              f"{', '.join(games)}; give the baseline files of one game")
    return [prepare_check(p, n=n, seed=seed, game=game, overrides=overrides, config=config) for p in paths]


def play_check(prepared: PreparedCheck, *, alpha: float = DEFAULT_ALPHA, progress: ProgressFactory | None = None,
               fail_on_change: bool = False) -> CheckResult:
    plan, base = prepared.plan, prepared.base
    result = play(plan, progress, f"check {prepared.path.name}")
    summary = result.summary()
    checks = compare_to_baseline(base["metrics"], headline_metrics(summary), alpha, base.get("margins"))
    bounds = check_bounds(result.aggregate, plan.config.get("bounds", {}), summary["length"]["unit"], alpha)
    notes = list(prepared.notes) + [
        f"bound not settled (a warning, not a failure): {b.bound}: measured {b.measured}; its interval reaches past "
        "the bound: more games (--n) would settle it" for b in bounds if b.status == BOUND_OPEN]
    return CheckResult(str(prepared.path), base["setup"]["game"], prepared.n, prepared.seed, checks, bounds,
                       notes, result.elapsed, fail_on_change)


def run_check(path: Path, *, n: int | None = None, seed: int | None = None, alpha: float = DEFAULT_ALPHA,
              progress: ProgressFactory | None = None, game: str | None = None, overrides: list[str] | None = None,
              config: str | Path | None = None, fail_on_change: bool = False) -> CheckResult:
    prepared = prepare_check(path, n=n, seed=seed, game=game, overrides=overrides, config=config)
    return play_check(prepared, alpha=alpha, progress=progress, fail_on_change=fail_on_change)


@dataclass
class PreparedUpdate:
    """A baseline to re-record (`simbalance baseline --update FILE`), read and planned: nothing played yet."""

    path: Path
    base: dict
    plan: object


@dataclass
class UpdateResult:
    path: Path
    data: dict  # the new baseline
    rows: list[tuple[str, str, str, str]]  # metric, old, new, difference (formatted in its unit)
    notes: list[str]


def prepare_update(path: Path) -> PreparedUpdate:
    """The file's own setup (game, players, variants, strategies, rotation, overrides, config, seed, n),
    planned with the current code; the file must be a valid baseline."""
    path = Path(path)
    base = _read_for_game(path, None)
    where = f"baseline {path}"
    try:
        plan = _plan(base["setup"], base["n"], base["seed"])
    except SimbalanceError as exc:
        raise ConfigError(f"{where}: setup: {exc}") from None
    validate_baseline_metrics(where, base["metrics"], base.get("margins"), plan.players, plan.lineup.slot_names,
                              plan.spec.length_unit)
    return PreparedUpdate(path, base, plan)


def play_update(prepared: PreparedUpdate, *, progress: ProgressFactory | None = None) -> UpdateResult:
    """Re-record a baseline: the same setup, seed and n played with the current code; the file's choice
    of metrics, its ``margins`` table and any margin set by hand in a metric are kept."""
    base, plan = prepared.base, prepared.plan
    result = play(plan, progress, f"baseline --update {prepared.path.name}")
    fresh = headline_metrics(result.summary())
    metrics, rows, notes = {}, [], []
    for name, old in base["metrics"].items():
        kind = old.get("kind", "share")
        if name not in fresh:  # balance, when no game has a winner any more
            notes.append(f"{name}: dropped, the re-run cannot measure it (was {format_value(old['value'], kind)})")
            continue
        new = dict(fresh[name])
        if not math.isclose(old["margin"], default_margin(name, old["value"]), rel_tol=1e-9, abs_tol=1e-12):
            new["margin"] = old["margin"]  # set by hand in the file: kept
        metrics[name] = new
        rows.append((name, format_value(old["value"], kind), format_value(new["value"], new["kind"]),
                     format_difference(new["value"] - old["value"], new["kind"])))
    data = dict(base)  # keys of its own a file may hold are kept
    data.update({
        "format": FORMAT,
        "setup": {**base["setup"], "players": plan.players},
        "engine_version": plan.engine.version,
        "config_hash": config_hash(plan.config),
        "simbalance_version": __version__,
        "created_utc": _now(),
        "metrics": metrics,
        "margins": base.get("margins") or {},
    })
    if plan.engine.version != base["engine_version"]:
        notes.insert(0, f"engine version {base['engine_version']} -> {plan.engine.version}")
    if config_hash(plan.config) != base["config_hash"]:
        notes.insert(0, f"resolved config changed: hash {base['config_hash']} -> {config_hash(plan.config)}")
    if base.get("simbalance_version") != __version__:
        notes.append(f"simbalance {base.get('simbalance_version', '?')} -> {__version__}")
    return UpdateResult(prepared.path, data, rows, notes)


def baseline_json(data: dict) -> str:
    """A baseline's text: its format first (what a kill's half-written file is recognised by)."""
    return json.dumps({"format": FORMAT, **data}, indent=2) + "\n"


# ---- the files `baseline` and `check` write, and only those, are replaced (issue 54) ------------
# A path given to `baseline --out`, `check --markdown` or `check --junit` is replaced only when it
# is a regular file simbalance wrote: a baseline by its own content (a file `check` reads as a
# baseline), a report by the comment it starts with. Anything else (a user's file, a FIFO, a folder,
# a link) is refused before any game (report/run_folder.hold_out_file).
WRITTEN_BY_CHECK = "<!-- written by simbalance check -->"
MARKDOWN_HEAD = WRITTEN_BY_CHECK + "\n"  # an HTML comment: valid Markdown, shown by no renderer
JUNIT_HEAD = '<?xml version="1.0" encoding="utf-8"?>\n' + WRITTEN_BY_CHECK + "\n"  # an XML comment, after the declaration
BASELINE_HEAD = '{\n  "format": 1,\n  "setup": {\n    "game": '  # baseline_json's first bytes
BASELINE_MOST_BYTES = 1 << 24  # a baseline is a few kB; a larger file is not one


def is_written_baseline(path: Path) -> bool:
    """Is ``path`` a baseline (a regular file `check` reads as one, read_baseline)? Nothing but a
    regular file of a baseline's size is opened."""
    import stat

    try:
        info = Path(path).lstat()
        if not stat.S_ISREG(info.st_mode) or info.st_size > BASELINE_MOST_BYTES:
            return False
        read_baseline(path)
    except (OSError, ConfigError):
        return False
    return True


def is_half_written_baseline(path: Path) -> bool:
    """A temporary baseline a kill left: its bytes so far are a baseline's first."""
    return begun_as(path, BASELINE_HEAD)


def is_written_markdown(path: Path) -> bool:
    return file_begins_with(path, MARKDOWN_HEAD)


def is_half_written_markdown(path: Path) -> bool:
    return begun_as(path, MARKDOWN_HEAD)


def is_written_junit(path: Path) -> bool:
    return file_begins_with(path, JUNIT_HEAD)


def is_half_written_junit(path: Path) -> bool:
    return begun_as(path, JUNIT_HEAD)


# option -> (is it simbalance's, is it a kill's leftover of one, the words for one)
OWN_FILES = {
    "--out": (is_written_baseline, is_half_written_baseline, "a baseline simbalance wrote"),
    "--update": (is_written_baseline, is_half_written_baseline, "a baseline simbalance wrote"),
    "--markdown": (is_written_markdown, is_half_written_markdown,
                   f"a Markdown report simbalance check wrote, which starts with {WRITTEN_BY_CHECK}"),
    "--junit": (is_written_junit, is_half_written_junit,
                f"a JUnit report simbalance check wrote, which holds {WRITTEN_BY_CHECK}"),
}


PROJECT_BASELINES = Path("configs") / "baselines"  # a designer's project's own, in its working directory


def project_baselines(root: Path | None = None) -> list[Path]:
    """What `simbalance check` re-runs without files: the project's own baselines,
    ``configs/baselines/*.json`` of the working directory (or ``root``), never the installed
    package's (an upgrade of simbalance must not fail a designer's CI on simbalance's own games)."""
    return sorted(((root or Path.cwd()) / PROJECT_BASELINES).glob("*.json"))


def shipped_baselines() -> list[Path]:
    """`simbalance check --shipped`: the baselines simbalance ships (its configs/baselines/*.json) and
    those each installed plug-in game keeps in its own config folder (``baselines/*.json``)."""
    own = {Path(spec.config_dir) / "baselines" for spec in all_games().values() if spec.config_dir is not None}
    return sorted(BASELINE_DIR.glob("*.json")) + [p for folder in sorted(own) for p in sorted(folder.glob("*.json"))]


def metric_row(m: MetricCheck) -> tuple[str, ...]:
    return (metric_label(m.metric), m.direction, format_value(m.baseline, m.kind), format_value(m.value, m.kind),
            format_difference(m.difference, m.kind), format_margin(m.margin, m.kind), m.status)


COLUMNS = ("metric", "direction", "baseline", "now", "difference", "margin", "status")


def verdict(r: CheckResult) -> str:
    return "pass" if r.passed else "FAIL"


def to_markdown(results: list[CheckResult]) -> str:
    lines = [WRITTEN_BY_CHECK, "# simbalance check", ""]
    for r in results:
        lines += [f"## {r.game} ({Path(r.path).name}): {verdict(r)}", "",
                  f"{r.n:,} games, seed {r.seed}. Rates in percent, differences in percentage points (pp).", ""]
        if r.notes:
            lines += [f"- note: {note}" for note in r.notes] + [""]
        lines += ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
        for m in r.metrics:
            status = f"**{m.status}**" if m.fails(r.fail_on_change) else m.status
            lines.append("| " + " | ".join((*metric_row(m)[:-1], status)) + " |")
        for b in r.bounds:
            lines.append(f"| bound: {b.bound} | | | {b.measured} | | | {b.status if b.ok else '**VIOLATED**'} |")
        hint = accept_hint(r)
        if hint:
            lines += ["", hint[0].upper() + hint[1:] + "."]
        lines.append("")
    return "\n".join(lines)


def xml_escape(text: str, entities: dict[str, str] | None = None) -> str:
    """``text`` escaped for XML (xml.sax.saxutils imported here: every command's start-up imports
    this module, and xml.sax brings urllib, http and ssl, 30 ms, for --junit alone)."""
    from xml.sax.saxutils import escape

    return escape(text, entities or {})


def _attr(text: str) -> str:
    return xml_escape(text, {'"': "&quot;"})


def to_junit(results: list[CheckResult]) -> str:
    cases = []
    failures = 0
    for r in results:
        for m in r.metrics:
            body = ""
            if m.fails(r.fail_on_change):
                failures += 1
                body = f'<failure message="{_attr(m.describe())}"/>'
            elif m.status == STATUS_BETTER:
                body = f"<system-out>{xml_escape(m.describe())}</system-out>"
            cases.append(f'<testcase classname="{_attr(r.game)}" name="{_attr(metric_label(m.metric))}" time="0">{body}</testcase>')
        for b in r.bounds:
            body = (f'<failure message="{_attr(b.bound)}: measured {_attr(b.measured)}"/>' if not b.ok
                    else f"<system-out>not settled: {xml_escape(b.measured)}</system-out>" if b.status == BOUND_OPEN
                    else "")
            failures += 0 if b.ok else 1
            cases.append(f'<testcase classname="{_attr(r.game)}" name="bound: {_attr(b.bound)}" time="0">{body}</testcase>')
    return (f'{JUNIT_HEAD}<testsuite name="simbalance check" '
            f'tests="{len(cases)}" failures="{failures}">\n' + "\n".join(cases) + "\n</testsuite>\n")


# The contract (core/study.py): the command is still written by hand (not yet on declared params).
STUDY = Study("check", rank=140, command="simbalance.cli.check_cmd:check", api=run_check, api_name="run_check")
