"""Named rule variants: ``configs/<game>/variants/<name>.toml`` holds only the keys it changes (a
plug-in game's live in its own config folder: ``core/config.config_dir``).

A variant is applied like a set of ``--set`` overrides (same validation: only existing keys, with
the default's type), so a variant file with a typo fails with the list of allowed keys. A variant
may carry a top-level ``description``. ``--variant`` also takes a path to a TOML file.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from simbalance.core.config import config_dir, read_toml
from simbalance.core.errors import ConfigError
from simbalance.core.paths import check_path_text


def variants_dir(game_id: str) -> Path:
    return config_dir(game_id) / game_id / "variants"


def available_variants(game_id: str) -> list[str]:
    folder = variants_dir(game_id)
    return sorted(p.stem for p in folder.glob("*.toml")) if folder.is_dir() else []


def variant_path(game_id: str, name: str) -> Path:
    check_path_text("--variant", name)
    if name.endswith(".toml"):
        path = Path(name)
        if path.exists() and not path.is_file():  # a folder, or a FIFO (refused unread: it would block)
            raise ConfigError(f"--variant {name}: not a regular file; give a TOML file")
        if not path.is_file():
            raise ConfigError(f"--variant {name}: no such file")
        return path
    path = variants_dir(game_id) / f"{name}.toml"
    if not path.is_file():
        known = ", ".join(available_variants(game_id)) or "none"
        raise ConfigError(f"--variant {name!r}: unknown variant of {game_id}; known: {known}")
    return path


def _flatten(table: dict, prefix: str = "") -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for key, value in table.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, dict):
            flat.update(_flatten(value, dotted + "."))
        else:
            flat[dotted] = value
    return flat


def load_variant(game_id: str, name: str) -> tuple[dict[str, Any], str]:
    """The dotted overrides of a variant and its description."""
    table = read_toml(variant_path(game_id, name))
    description = table.pop("description", "")
    if not isinstance(description, str):
        raise ConfigError(f"variant {name}: description must be a string")
    overrides = _flatten(table)
    if not overrides:
        raise ConfigError(f"variant {name}: changes no key")
    return overrides, description


ARM_EXAMPLE = "e.g. --arm big-hand:rules.hand_size=12,rules.draw=2"


def parse_arm(text: str) -> tuple[str, list[str]]:
    """``NAME:key=value,key=value``: a variant written on the command line, as its name and its
    ``--set`` overrides. A comma starts a new override only before ``key=``, so list values
    (``targets.length_median=[55,60]``) keep theirs."""
    name, sep, body = (part.strip() for part in text.partition(":"))
    if not sep or not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.+-]*", name) or not body:
        raise ConfigError(f"--arm {text!r}: expected NAME:key=value[,key=value...] with a name of letters, digits, "
                          f"'-', '_' or '.'; {ARM_EXAMPLE}")
    overrides = [item.strip() for item in re.split(r",(?=\s*[A-Za-z_][\w.]*\s*=)", body)]
    seen = set()
    for item in overrides:
        key, eq, value = (part.strip() for part in item.partition("="))
        if not eq or not key or not value:
            raise ConfigError(f"--arm {text!r}: {item!r} is not key=value; {ARM_EXAMPLE}")
        if key in seen:  # which value would the arm mean?
            raise ConfigError(f"--arm {text!r}: {key} is given twice; give each key once")
        seen.add(key)
    return name, overrides
