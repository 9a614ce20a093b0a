"""Game configs: one TOML per game under ``configs/``, overrides with ``--set key=value``.

A config is a nested dict. ``load_config`` reads a game's defaults (and the deck file it names);
``apply_overrides`` changes existing keys only, with the type of the default, so a typo or a wrong
type is a clear error that names the allowed keys instead of a silent fallback.

Where a game's files live (docs/architecture.md, "Configs"): the built-in games' folder is
``CONFIG_DIR``, ``simbalance/configs`` inside the package (in a checkout a symlink to the top-level
``configs/``, in a wheel the files themselves), or ``$SIMBALANCE_CONFIG_DIR`` when that is set. A
plug-in game carries its own folder inside its own package (``GameSpec.config_dir``); the game
registry tells this module where (``set_config_dir_lookup``), so ``config_dir(game)`` answers for
every game. A folder holds ``<game>.toml``, ``<game>/variants/*.toml``, ``<game>/presets.toml``,
``decks/*.toml`` and ``baselines/<game>.json``.
"""

from __future__ import annotations

import copy
import math
import os
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from simbalance.core.errors import ConfigError, did_you_mean
from simbalance.core.paths import check_path_text

_PACKAGE_DIR = Path(__file__).resolve().parents[1]


def _builtin_config_dir() -> Path:
    """``$SIMBALANCE_CONFIG_DIR``, else the package's ``configs`` (resolved: in a checkout the symlink
    leads to the top-level ``configs/``, whose paths are the ones to show), else a checkout's
    ``configs/`` beside the package (a clone made without symlinks)."""
    env = os.environ.get("SIMBALANCE_CONFIG_DIR")
    if env:
        return Path(env)
    inside = _PACKAGE_DIR / "configs"
    if inside.is_dir():
        return inside.resolve()
    return _PACKAGE_DIR.parent / "configs"


CONFIG_DIR = _builtin_config_dir()

# A game's seat compensation table (``[compensation]``: a kind per sub-table, a key per seat) and what
# `simbalance solve` searches by default (``[knobs]``: "config key" = [low, high(, step)], knobs_of).
COMPENSATION = "compensation"
KNOBS = "knobs"

# game id -> its own config folder (a plug-in game), or None for CONFIG_DIR. Set by the game registry
# (simbalance/games/registry.py), which is the one that knows the games: core imports no game.
_config_dir_lookup: Callable[[str], Path | None] | None = None


def set_config_dir_lookup(lookup: Callable[[str], Path | None]) -> None:
    """Install the function that names a game's own config folder (None: the built-in folder)."""
    global _config_dir_lookup
    _config_dir_lookup = lookup


def config_dir(game_id: str) -> Path:
    """The folder of ``game_id``'s config, variants and presets: its own (a plug-in's), else CONFIG_DIR."""
    own = _config_dir_lookup(game_id) if _config_dir_lookup is not None else None
    return Path(own) if own is not None else CONFIG_DIR


def deck_path(game_id: str, source: str) -> Path:
    """``decks/<source>.toml`` in the game's folder, else among the built-in decks (a plug-in may
    play the Captain Action deck)."""
    own = config_dir(game_id) / "decks" / f"{source}.toml"
    return own if own.exists() else CONFIG_DIR / "decks" / f"{source}.toml"

# When a page's findings speak up (simbalance/analysis/findings.py, docs/findings.md): the defaults
# of every game; a config's ``[findings]`` table or ``--set findings.KEY=...`` changes one. Shares are
# shares of the games (0.01 = 1%), lengths in the game's unit (turns, rounds, picks).
FINDINGS_DEFAULTS: dict[str, Any] = {
    "alpha": 0.05,               # the one level of every decision a page states (analysis/stats.ALPHA)
    "seat_gap_min": 0.03,        # seat imbalance: largest gap between two players' shares of decided games
    "length_median_min": 2.0,    # degenerate length: a median at or below this
    "length_over_target": 2.0,   # far too long: a median above this times the top of targets.length_median
    "timeouts_max": 0.01,        # runaway games: a share of timeouts at or above this
    "stalemates_max": 0.01,      # ... and of stalemates
    "ties_max": 0.05,            # ties: a share of tied games at or above this
    "card_effect_min": 0.05,     # a card that moves its holder's win rate this much (CI clear of 0)
    "card_null_max": 0.005,      # a card whose whole 95% CI lies within +- this never matters
    "dominance_margin": 0.02,    # a strategy beating the fair share (or even 50%) by this, CI included
    "leader_wins_max": 0.8,      # decided early: the leader after round k wins at least this share
    "comeback_min": 0.05,        # no comebacks: wins by a player who trailed, below this share
    "ladder_gain_min": 0.05,     # the ladder: the smallest gain over an even 50% worth a budget step
    "change_min": 0.03,          # compare: a change worth a look: 3 points of a rate, 3% of a length
}

# The designer's own aims, which a game's config may or may not hold: what `sweep` aims for
# (``[targets]``), what `check` enforces on every re-run (``[bounds]``) and when findings speak up
# (``[findings]``). ``--set targets.KEY=...`` works whether or not the config has the table; each key
# is typed by the example value here (for ``findings``, its default).
OPTIONAL_TABLES: dict[str, dict[str, Any]] = {
    "targets": {"balance_min": 0.95, "length_median": [15.0, 25.0]},
    "bounds": {"seat_win_rate_min": 0.2, "seat_win_rate_max": 0.3, "balance_min": 0.9,
               "length_median": [15.0, 25.0], "timeouts_max": 0.01, "first_player_advantage_max": 0.02},
    "findings": FINDINGS_DEFAULTS,
}

# The keys of those tables that are shares of the games (0.05 is 5%), so a value above 1 is a
# percent written where a share was meant (`--set findings.ties_max=10` would silence the ties
# finding for good). The others are lengths in the game's unit or factors.
NOT_SHARES = {"findings.length_median_min", "findings.length_over_target", "targets.length_median",
              "bounds.length_median"}
SHARE_KEYS = {f"{name}.{key}" for name, table in OPTIONAL_TABLES.items() for key in table} - NOT_SHARES


def check_shares(cfg: dict) -> None:
    """Every share of the ``[findings]``, ``[targets]`` and ``[bounds]`` tables lies between 0 and 1;
    one above 1 is an error naming the share it probably meant (10 -> 0.1, 10%)."""
    for key in sorted(SHARE_KEYS):
        name, leaf = key.split(".")
        table = cfg.get(name)
        value = table.get(leaf) if isinstance(table, dict) else None
        if isinstance(value, bool) or not isinstance(value, (int, float)) or 0 <= value <= 1:
            continue  # a wrong type is its table's own check
        if value > 1:
            raise ConfigError(f"{key} = {value:g}: a share, allowed 0 to 1 (0.05 is 5%); for "
                              f"{value:g}% write {key}={value / 100:g}")
        raise ConfigError(f"{key} = {value:g}: a share, allowed 0 to 1 (0.05 is 5%)")


# The TOML files parsed, by path: (the file's bytes when read, what they parsed to).
_PARSED: dict[str, tuple[bytes, dict]] = {}


def read_toml(path: Path) -> dict:
    """Read one TOML file; a missing or malformed file is a ConfigError naming it.

    The same bytes at the same path are parsed once, and each caller gets its own copy (it may
    change it): every plan reads the game's config, its deck and its presets, and a solve plans each
    candidate twice (issue 52's A/B: tomllib, pure Python, takes a third of a millisecond a file,
    about 5% of a small solve; reading the bytes and copying the result, a tenth of that)."""
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
        kept = _PARSED.get(os.fspath(path))
        if kept is None or kept[0] != raw:
            kept = _PARSED[os.fspath(path)] = (raw, tomllib.loads(raw.decode()))
        return copy.deepcopy(kept[1])
    except FileNotFoundError:
        raise ConfigError(f"config file {path} does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"config file {path} cannot be read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"config file {path} is not valid TOML: {exc}") from None
    except RecursionError:
        raise ConfigError(f"config file {path}: arrays or tables nested too deeply to read (a config nests a "
                          "few levels)") from None


def load_config(game_id: str, path: str | Path | None = None) -> dict:
    """The resolved defaults of ``game_id``: ``<config_dir(game_id)>/<game_id>.toml`` or ``path``.

    A ``[deck]`` table with ``source = "NAME"`` is filled from ``decks/NAME.toml`` (``deck_path``) so
    the deck's keys can be overridden like any other (``--set deck.wildcards.captain_action=6``).
    Named strategy presets (``<game>/presets.toml``) land under ``presets``.
    """
    folder = config_dir(game_id)
    cfg_path = Path(path) if path is not None else folder / f"{game_id}.toml"
    if path is not None:
        check_path_text("--config", cfg_path)
    if path is not None and cfg_path.exists() and not cfg_path.is_file():  # a FIFO would block the read
        raise ConfigError(f"--config {cfg_path}: not a regular file; give a TOML file")
    cfg = read_toml(cfg_path)
    if path is not None:  # a designer's own file: only the tables the game knows
        known = read_toml(folder / f"{game_id}.toml")
        unknown = [name for name in cfg if name not in known and name != "presets"]
        if unknown:
            raise ConfigError(f"config file {cfg_path}: unknown table or key {unknown[0]!r}"
                              f"{did_you_mean(unknown[0], known)}; the game's config has {', '.join(known)}")
    deck = cfg.get("deck")
    if isinstance(deck, dict) and "source" in deck:
        source = deck["source"]
        found = deck_path(game_id, source) if isinstance(source, str) else None
        if found is None or not found.exists():
            where = f"config file {cfg_path}: " if path is not None else ""
            raise ConfigError(f"{where}deck.source = {source!r}: no deck file {found or CONFIG_DIR / 'decks'}")
        merged = read_toml(found)
        merged.update({k: v for k, v in deck.items()})
        cfg["deck"] = merged
    presets = folder / game_id / "presets.toml"
    if path is None and presets.exists() and "presets" not in cfg:
        cfg["presets"] = read_toml(presets)
    if path is not None:
        refuse_unknown_keys(cfg, load_config(game_id), f"config file {cfg_path}")
    return cfg


# A designer's config file may hold keys the game's own config does not: its own named presets, the
# knobs `solve` searches (checked by knobs_of), and a [deck] that names its deck file.
FREE_TABLES = ("presets", KNOBS)


def refuse_unknown_keys(cfg: dict, known: dict, where: str) -> None:
    """Refuse a key of a designer's config file that the game's config does not have, inside a table
    it has (``pick_kap = 5`` under ``[rules]``), as ``--set rules.pick_kap=5`` is refused: one line
    with the closest key and the table's keys. The optional tables take the keys of their schema."""

    def walk(node: dict, reference: dict, prefix: str) -> None:
        for key, value in node.items():
            dotted = f"{prefix}{key}"
            if not prefix and (key in FREE_TABLES or key in OPTIONAL_TABLES):
                if key in OPTIONAL_TABLES and isinstance(value, dict):
                    unknown = [k for k in value if k not in OPTIONAL_TABLES[key]]
                    if unknown:
                        allowed = [f"{key}.{k}" for k in OPTIONAL_TABLES[key]]
                        raise ConfigError(f"{where}: unknown config key '{key}.{unknown[0]}'"
                                          f"{did_you_mean(f'{key}.{unknown[0]}', allowed)}; allowed keys: "
                                          f"{', '.join(allowed)}")
                continue
            if dotted == "deck.source":
                continue
            if key not in reference:
                raise ConfigError(f"{where}: {unknown_key_message(known, dotted)}")
            if isinstance(value, dict) and isinstance(reference[key], dict):
                walk(value, reference[key], dotted + ".")

    walk(cfg, known, "")


def flat_keys(cfg: dict, prefix: str = "") -> list[str]:
    """Every leaf key of a nested config, dotted (``rules.pick_cap``); not the ``[knobs]`` table
    (what `solve` searches, not a key of the game: ``knobs_of``)."""
    keys = []
    for k, v in cfg.items():
        if not prefix and k == KNOBS:
            continue
        dotted = f"{prefix}{k}"
        if isinstance(v, dict):
            keys.extend(flat_keys(v, dotted + "."))
        else:
            keys.append(dotted)
    return keys


def unknown_key_message(cfg: dict, key: str) -> str:
    """Name the allowed keys next to the typo: those of the deepest table that exists."""
    parts = key.split(".")
    node, prefix = cfg, ""
    for part in parts[:-1]:
        if not isinstance(node.get(part), dict):
            break
        node, prefix = node[part], f"{prefix}{part}."
    allowed = [f"{prefix}{k}" + (".*" if isinstance(v, dict) else "") for k, v in node.items()
               if prefix or k != KNOBS]
    return f"unknown config key {key!r}{did_you_mean(key, flat_keys(cfg))}; allowed keys: {', '.join(allowed)}"


def _parse_value(text: str) -> Any:
    """A TOML value (``12``, ``0.5``, ``true``, ``"x"``, ``[1, 2]``); a bare word is a string."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def toml_value(value: Any) -> str:
    """``value`` written as TOML, as ``--set key=VALUE`` reads it back."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace('"', '\\"') + '"'
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return repr(value)


def override_list(overrides: dict[str, Any] | list[str] | None) -> list[str]:
    """``key=value`` strings, from the CLI's list or the API's dict (values written as TOML), so
    that overrides from both can be joined."""
    if not overrides:
        return []
    if isinstance(overrides, dict):
        return [f"{key}={toml_value(value)}" for key, value in overrides.items()]
    return list(overrides)


def _type_name(value: Any) -> str:
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    return type(value).__name__


def _check(key: str, value: Any, default: Any, shown: str, label: str = "default") -> Any:
    """``value`` if it has the type of ``default`` (an int is a fine float), else a ConfigError."""
    if isinstance(default, bool):
        ok = isinstance(value, bool)
    elif isinstance(default, int):
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif isinstance(default, float):
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        value = float(value) if ok else value
    elif isinstance(default, list):
        ok = isinstance(value, list)
    else:
        ok = type(value) is type(default)
    if not ok:
        raise ConfigError(f"{key}={shown}: expected {_type_name(default)} ({label} {default!r})")
    return value


def apply_overrides(cfg: dict, overrides: dict[str, Any] | list[str] | None) -> dict:
    """A copy of ``cfg`` with overrides applied.

    ``overrides`` is a list of ``"key=value"`` strings (the CLI's ``--set``; values are read as
    TOML, a bare word as a string) or a dict of dotted keys to Python values (the API). Only
    existing keys can be set, and only with the default's type.
    """
    out = copy.deepcopy(cfg)
    if not overrides:
        return out
    items: list[tuple[str, Any, str]] = []
    if isinstance(overrides, dict):
        items = [(k, v, repr(v)) for k, v in overrides.items()]
    else:
        for item in overrides:
            key, sep, text = (part.strip() for part in item.partition("="))
            if not sep or not key or not text:
                raise ConfigError(f"--set {item!r}: expected key=value, e.g. rules.pick_cap=500")
            items.append((key, _parse_value(text), text))
    for key, value, shown in items:
        if key == "deck.source":  # read when the config loads: setting it later would change nothing
            raise ConfigError(f"deck.source = {shown}: the deck file is read when the config loads, so it cannot "
                              "be set afterwards; use --config with a config whose [deck] has source = \"NAME\"")
        *parents, leaf = key.split(".")
        if parents and parents[0] == KNOBS:
            raise ConfigError(f"--set {key}: [knobs] is what `simbalance solve` searches, not a key of the game; "
                              "name a knob with `solve --knob KEY=LOW:HIGH`")
        if len(parents) == 1 and parents[0] in OPTIONAL_TABLES:
            out[parents[0]] = _set_optional(out.get(parents[0]), parents[0], leaf, value, shown)
            continue
        node: Any = out
        for part in parents:
            node = node.get(part) if isinstance(node, dict) else None
        if not isinstance(node, dict) or leaf not in node or isinstance(node[leaf], dict):
            raise ConfigError(unknown_key_message(cfg, key))
        default = node[leaf]
        if isinstance(default, str) and not isinstance(value, str):
            value = shown  # a string key takes the text as written
        node[leaf] = _check(key, value, default, shown)
    return out


def _set_optional(table: Any, name: str, leaf: str, value: Any, shown: str) -> dict:
    """``table`` (a config's ``[targets]`` or ``[bounds]``, or None) with ``leaf`` set: any key the
    table may hold, present or not, with the type of its example."""
    schema = OPTIONAL_TABLES[name]
    if leaf not in schema:
        allowed = [f"{name}.{k}" for k in schema]
        raise ConfigError(f"unknown config key '{name}.{leaf}'{did_you_mean(f'{name}.{leaf}', allowed)}; "
                          f"allowed keys: {', '.join(allowed)}")
    example = schema[leaf]
    value = _check(f"{name}.{leaf}", value, example, shown, label="e.g.")
    if isinstance(example, list):
        if not (len(value) == 2 and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)
                and value[0] <= value[1]):
            raise ConfigError(f"{name}.{leaf}={shown}: expected [low, high], two numbers with low <= high")
        value = [float(v) for v in value]
    table = dict(table) if isinstance(table, dict) else {}
    table[leaf] = value
    return table


def get(cfg: dict, key: str) -> Any:
    """``cfg['a']['b']`` for ``key='a.b'``; a missing key is a ConfigError."""
    node: Any = cfg
    for part in key.split("."):
        if not isinstance(node, dict) or part not in node:
            raise ConfigError(f"config key {key!r} is missing")
        node = node[part]
    return node


def _range_text(lo: float | None, hi: float | None) -> str:
    def end(value: float | None, missing: str) -> str:
        return missing if value is None else f"{value:g}" if isinstance(value, float) else str(value)

    return f"{end(lo, '-inf')} to {end(hi, 'inf')}"


def require_int(cfg: dict, key: str, lo: int | None = None, hi: int | None = None) -> int:
    """An integer config value within ``[lo, hi]``, or a ConfigError naming key, value and range."""
    value = get(cfg, key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f"{key} = {value!r}: expected an integer")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise ConfigError(f"{key} = {value}: allowed {_range_text(lo, hi)}")
    return value


def _number_within(label: str, value: Any, lo: float | None, hi: float | None) -> float:
    """``value`` as a float when it is a finite number within ``[lo, hi]`` (an integer is a fine
    float); otherwise a ConfigError ``LABEL = VALUE: ...`` saying what is allowed."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ConfigError(f"{label} = {value!r}: expected a number, allowed {_range_text(lo, hi)}")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise ConfigError(f"{label} = {value:g}: allowed {_range_text(lo, hi)}")
    return float(value)


def require_float(cfg: dict, key: str, lo: float | None = None, hi: float | None = None) -> float:
    """A number config value within ``[lo, hi]``, as a float (``1`` is read as ``1.0``); otherwise a
    ConfigError naming key, value and range (true/false, a string, NaN or an infinity are not a
    rule's number). For a rule that is not a whole number, beside ``require_int``."""
    return _number_within(key, get(cfg, key), lo, hi)


def require_param(cfg: dict, strategy: str, param: str, lo: float | None = None, hi: float | None = None) -> None:
    """Heuristic ``strategy``'s parameter ``param`` within ``[lo, hi]``: in its ``[strategies.NAME]``
    table and in every preset built on it (``presets.NAME`` with ``base = "NAME"``, whose value
    replaces it); otherwise a ConfigError naming the table, the value and the range. Which parameters
    a strategy has is checked by name wherever a lineup binds them (core/lineup.bind_params: a
    missing or unknown one is an error); this checks their values, from an engine's ``prepare``."""
    tables = [(f"strategies.{strategy}", cfg.get("strategies", {}).get(strategy, {}))]
    tables += [(f"presets.{name}", preset) for name, preset in cfg.get("presets", {}).items()
               if isinstance(preset, dict) and preset.get("base") == strategy]
    for where, table in tables:
        if isinstance(table, dict) and param in table:
            _number_within(f"{where}.{param}", table[param], lo, hi)


def require_bool(cfg: dict, key: str) -> bool:
    value = get(cfg, key)
    if not isinstance(value, bool):
        raise ConfigError(f"{key} = {value!r}: expected true or false")
    return value


def require_choice(cfg: dict, key: str, choices: list[str]) -> str:
    value = get(cfg, key)
    if value not in choices:
        raise ConfigError(f"{key} = {value!r}: allowed {', '.join(map(repr, choices))}")
    return value


# ---- seat compensation and knobs (issue 39; docs/solve.md, docs/rules/<game>.md "Seat compensation") ----


def seat_compensation(cfg: dict, kind: str, players: int, lo: int, hi: int) -> list[int]:
    """``compensation.<kind>.1 .. <players>`` as whole numbers within ``[lo, hi]`` (a one-line
    ConfigError naming the key otherwise), seat 1 first. A config without the table or the kind (a
    designer's own file written before compensation existed) gives every seat 0: the rules as printed."""
    table = cfg.get(COMPENSATION)
    if not isinstance(table, dict) or kind not in table:
        return [0] * players
    if not isinstance(table[kind], dict):
        raise ConfigError(f"{COMPENSATION}.{kind} = {table[kind]!r}: expected a table of seat number -> value")
    out = []
    for seat in range(1, players + 1):
        key = f"{COMPENSATION}.{kind}.{seat}"
        out.append(require_int(cfg, key, lo, hi) if str(seat) in table[kind] else 0)
    return out


def compensation_value(cfg: dict, key: str, lo: int, hi: int) -> int:
    """A one-key compensation (``compensation.<key>``, e.g. a bonus graded by seat order) within
    ``[lo, hi]``; 0 when the config has none."""
    table = cfg.get(COMPENSATION)
    if not isinstance(table, dict) or key not in table:
        return 0
    return require_int(cfg, f"{COMPENSATION}.{key}", lo, hi)


def seat_points(cfg: dict, players: int) -> list[int]:
    """Each seat's points compensation, seat 1 first: ``compensation.points.K`` plus seat k's share
    of the graded bonus ``compensation.later_seat_points`` ((k - 1) x it), as every game that scores
    points reads them."""
    later = compensation_value(cfg, "later_seat_points", -100, 100)
    return [pts + seat * later for seat, pts in enumerate(seat_compensation(cfg, "points", players, -1000, 1000))]


def _all_zero(node: Any) -> bool:
    if isinstance(node, dict):
        return all(_all_zero(v) for v in node.values())
    return isinstance(node, (int, float)) and not isinstance(node, bool) and node == 0


def play_config(cfg: dict) -> dict:
    """``cfg`` without what does not change the games: the ``[knobs]`` table (what `solve` may
    change) and a ``[compensation]`` table whose every value is 0 (the rules as printed, the same
    games as a config without it). The config hashes (a baseline's, a fit's rules digest) read this,
    so shipping the tables left every stored hash true."""
    out = {k: v for k, v in cfg.items() if k != KNOBS}
    if COMPENSATION in out and _all_zero(out[COMPENSATION]):
        del out[COMPENSATION]
    return out


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


VARIANT_KNOB = "variant"  # a [knobs] entry over the game's variant files, not a config key


def knobs_of(cfg: dict) -> dict[str, tuple]:
    """The config's ``[knobs]`` table checked: config key -> (low, high, step or None) for a
    number; the values to try for a choice (a string key: ``["after_discard", "before_draw"]``), a
    true/false rule (``[true, false]``) or ``variant`` (the game's variant files by name).

    ``"KEY" = [low, high]`` for a whole-number key (every value from low to high: step None),
    ``[low, high, step]`` for a float key (a float range needs its step: a solver cannot enumerate
    the values otherwise) or a whole-number key searched by steps. Errors (one line each, naming the
    knob): a key the config does not have, a key whose value is not a number, a range that is not
    two or three numbers, low > high, a step not above 0 (or not whole for a whole-number key),
    whole-number bounds for a whole-number key, and today's value outside the range."""
    table = cfg.get(KNOBS, {})
    if not isinstance(table, dict):
        raise ConfigError(f"knobs = {table!r}: expected a table of \"config key\" = [low, high] or [low, high, step]")
    out: dict[str, tuple] = {}
    for key, rng in table.items():
        where = f"knobs.{key!r}"
        if key.split(".")[0] == KNOBS:
            raise ConfigError(f"{where}: a knob names a key of the game, not of [knobs]")
        if key == VARIANT_KNOB:  # the game's variant files, by name (analysis/solve.choice_knob checks they exist)
            if not (isinstance(rng, list) and rng and all(isinstance(v, str) and v for v in rng)):
                raise ConfigError(f"{where} = {rng!r}: expected a list of the game's variant names, e.g. "
                                  '["take-back", "no-joker"]')
            out[key] = tuple(rng)
            continue
        try:
            value = get(cfg, key)
        except ConfigError:
            raise ConfigError(f"{where}: not a key of the config{did_you_mean(key, flat_keys(cfg))}") from None
        if isinstance(value, (bool, str)):  # a true/false rule or a choice: the values to try, listed
            kind, example = (bool, "[true, false]") if isinstance(value, bool) else (str, f'["{value}", "OTHER"]')
            if not (isinstance(rng, list) and rng and all(type(v) is kind for v in rng)):
                raise ConfigError(f"{where} = {rng!r}: {key} is {'true or false' if kind is bool else 'a choice'} "
                                  f"(today {value!r}); give the values to try, e.g. {example}")
            out[key] = tuple(rng)
            continue
        if not _number(value):
            raise ConfigError(f"{where}: the key's value {value!r} is not a number, a choice or true/false; a knob is "
                              "one of these (or variant)")
        if not isinstance(rng, list) or len(rng) not in (2, 3) or not all(_number(v) for v in rng):
            raise ConfigError(f"{where} = {rng!r}: expected [low, high] or [low, high, step], numbers")
        low, high = rng[0], rng[1]
        step = rng[2] if len(rng) == 3 else None
        if low > high:
            raise ConfigError(f"{where} = {rng!r}: low {low} is above high {high}")
        if isinstance(value, int):
            if not all(isinstance(v, int) for v in rng):
                raise ConfigError(f"{where} = {rng!r}: {key} is a whole number ({value}); give whole-number bounds")
        elif step is None:
            raise ConfigError(f"{where} = {rng!r}: {key} is a float ({value}); give [low, high, step]")
        if step is not None and step <= 0:
            raise ConfigError(f"{where} = {rng!r}: the step {step} must be above 0")
        if not low <= value <= high:
            raise ConfigError(f"{where} = {rng!r}: today's value {value} lies outside [{low}, {high}]")
        out[key] = (low, high, step)
    return out
