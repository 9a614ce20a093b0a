"""Write a run folder: games.parquet, summary.json, manifest.json, PNG figures, report.html.

The folder is built under a temporary name beside the target and renamed into place only when
everything is written, so an interrupted or failed run never leaves a half-written folder.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

import numba
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from simbalance.core.errors import SimbalanceError
from simbalance.report import figures
from simbalance.report.html import render_report
from simbalance.version import __version__

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from simbalance.api import SimulationResult

RUN_MARKER = "manifest.json"  # a folder holding this is a simbalance run folder and may be replaced


def default_out_dir(game: str, root: Path | None = None) -> Path:
    root = root or Path("reports")
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    out = root / f"{game}-{stamp}"
    k = 1
    while out.exists():
        k += 1
        out = root / f"{game}-{stamp}-{k}"
    return out


def check_out_dir(out: Path) -> None:
    """Refuse to replace a folder that is not a simbalance run folder (before any game runs)."""
    if out.exists() and not out.is_dir():
        raise SimbalanceError(f"--out {out}: exists and is not a folder")
    if out.is_dir() and any(out.iterdir()) and not (out / RUN_MARKER).exists():
        raise SimbalanceError(f"--out {out}: folder exists, is not empty and is not a simbalance run folder")


def manifest(result: SimulationResult, command: str | None) -> dict:
    plan = result.plan
    return {
        "game": plan.spec.id,
        "engine_version": plan.engine.version,
        "simbalance_version": __version__,
        "n": result.n_played,
        "seed": plan.seed,
        "players": plan.players,
        "variants": plan.variants,
        "strategies": {
            "slots": list(plan.lineup.slot_names),
            "lineups": plan.lineup.describe(),
            "rotate": plan.lineup.rotate,
            "params": {name: dict(zip(plan.lineup.param_names[name], plan.lineup.slot_params[i].tolist(), strict=False))
                       for i, name in enumerate(plan.lineup.slot_names)},
        },
        "config": plan.config,
        "command": command or " ".join(sys.argv),
        "threads": plan.threads,
        "numba_version": numba.__version__,
        "python": sys.version.split()[0],
        "created_utc": datetime.now(UTC).isoformat(timespec="seconds"),
        "elapsed_s": result.elapsed,
        "games_per_s": result.games_per_second,
    }


def run_figures(result: SimulationResult, summary: dict) -> dict[str, Figure]:
    plan = result.plan
    fair = 1.0 / plan.players
    out = {
        "seat_win_rates": figures.win_rates(pd.DataFrame(summary["seats"]), "seat", fair, "Win rate by seat"),
        "length_histogram": figures.length_histogram(result.aggregate.length_histogram(), plan.spec.length_unit),
    }
    if len(plan.lineup.slot_names) > 1:
        out["strategy_win_rates"] = figures.win_rates(
            pd.DataFrame(summary["strategies"]), "strategy", fair, "Win rate by strategy (per seat played)"
        )
    if summary.get("cards"):
        cards = pd.DataFrame(summary["cards"])
        for kind in dict.fromkeys(cards["kind"]):
            out[f"card_impact_{kind.replace(' ', '_')}"] = figures.card_impact_bars(
                cards, kind, f"Card impact: win rate when {kind} vs not")
    if plan.engine.figures is not None:
        out.update(plan.engine.figures(result.stats_games, plan.players, plan.config, summary))
    return out


@contextmanager
def atomic_folder(out: Path):
    """Build a result folder under a temporary name beside ``out``; rename it into place only when
    the block finishes, and remove it if the block fails: never a half-written folder."""
    out = Path(out)
    check_out_dir(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        yield tmp
        if out.exists():
            shutil.rmtree(out)
        tmp.chmod(0o755)  # mkdtemp makes it private; a report folder is for sharing
        tmp.rename(out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def save_figures(folder: Path, figs: dict[str, Figure]) -> dict[str, bytes]:
    """Each figure as ``<name>.png`` in ``folder``; returns the PNG bytes for embedding."""
    images = {}
    for name, fig in figs.items():
        path = folder / f"{name}.png"
        fig.savefig(path, dpi=110)
        images[name] = path.read_bytes()
    return images


def base_manifest(kind: str, plan, command: str, **fields) -> dict:
    return {"kind": kind, "game": plan.spec.id, "engine_version": plan.engine.version,
            "simbalance_version": __version__, "n": plan.n, "seed": plan.seed, "players": plan.players,
            **fields, "command": command, "created_utc": datetime.now(UTC).isoformat(timespec="seconds")}


def write_json(path: Path, data: dict) -> None:
    path.write_text(json.dumps(data, indent=2, default=_json_default) + "\n", encoding="utf-8")


def write_run_folder(result: SimulationResult, out: Path, command: str | None = None,
                     write_games: bool = True) -> Path:
    """Write the whole run folder atomically and return its path."""
    with atomic_folder(out) as tmp:
        summary = result.summary()
        man = manifest(result, command)
        if write_games and result.records is not None:
            write_games_parquet(result.games, tmp / "games.parquet")
        write_json(tmp / "summary.json", summary)
        images = save_figures(tmp, run_figures(result, summary))
        (tmp / "report.html").write_text(render_report(man, summary, images), encoding="utf-8")
        write_json(tmp / RUN_MARKER, man)  # last: its presence marks a complete folder
    return Path(out)


PARQUET_SLICE = 1 << 20  # rows converted to Arrow at a time: bounds memory on 10^7-game runs


def write_games_parquet(games: pd.DataFrame, path: Path) -> None:
    """One row per game, written slice by slice so memory stays flat."""
    schema = pa.Schema.from_pandas(games.iloc[:0], preserve_index=False)
    with pq.ParquetWriter(path, schema, compression="zstd") as writer:
        for start in range(0, len(games), PARQUET_SLICE):
            part = games.iloc[start : start + PARQUET_SLICE]
            writer.write_table(pa.Table.from_pandas(part, schema=schema, preserve_index=False))


def _json_default(value):
    if hasattr(value, "item"):
        return value.item()
    if hasattr(value, "tolist"):
        return value.tolist()
    raise TypeError(f"not JSON serialisable: {type(value).__name__}")
