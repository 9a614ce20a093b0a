"""Write a run folder: games.parquet, summary.json, findings.json, manifest.json, PNG figures,
report.html.

The folder is built under a temporary name beside the target and renamed into place only when
everything is written, so an interrupted or failed run never leaves a half-written folder.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import shutil
import stat
import sys
import tempfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor, wait
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

import numba
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from simbalance.core import plugin_guard
from simbalance.core.aggregate import contiguous_columns
from simbalance.core.errors import SimbalanceError
from simbalance.core.faults import fault
from simbalance.core.owned import (
    RUN_FOLDER,
    WRITING,
    check_replaceable,
    files_in,
    mark,
    remove_written_folder,
)
from simbalance.report import figures
from simbalance.report.files import NAME_MAX, PATH_MAX, check_path_names
from simbalance.report.run_page import render_report
from simbalance.version import __version__

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from simbalance.studies.run import SimulationResult

DPI = 110  # a 6-inch figure is 660 pixels wide: shown at its own size, 10-point text reads as 15 pixels
RUN_MARKER = "manifest.json"  # written last into a result folder: what ran (core/owned.MARKER says whose it is)


def default_out_dir(game: str, root: Path | None = None) -> Path:
    """``reports/<game>-<time>``, with ``-2``, ``-3``... when that name is taken or held by another
    run (``claim_out_dir`` also locks the one it takes)."""
    return next(_default_names(game, root))


def _default_names(game: str, root: Path | None) -> Iterator[Path]:
    root = root or Path("reports")
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    k = 1
    while True:
        out = root / (f"{game}-{stamp}" if k == 1 else f"{game}-{stamp}-{k}")
        if not (out.exists() or partial_dir(out).exists() or lock_file(out).exists()):
            yield out
        k += 1


def partial_dir(out: Path) -> Path:
    """Where a run into ``out`` keeps its checkpoint until it finishes."""
    return out.with_name(out.name + ".partial")


def lock_file(out: Path) -> Path:
    return out.with_name(f".{out.name}.lock")


# The output folders this process holds (their absolute paths): the lock's descriptor and the
# folders made to hold it (removed again, when empty, with the lock). Every command that writes a
# folder holds it from before its first game to its last file (hold_out_dir); the CLI releases what
# is still held when the command ends (cli/main.py), the OS when the process dies.
_HELD: dict[Path, tuple[int, list[Path]]] = {}
ANOTHER_RUN = "another simbalance run is writing this folder; wait for it to finish or choose another --out"


def _lock(out: Path, option: str = "--out") -> tuple[int, list[Path]] | None:
    """An exclusive lock on ``out``'s lock file: its descriptor and the folders made for it, or None
    when another process holds it (``option``: the option that named ``out``, for the errors)."""
    blocking = next((p for p in reversed(out.parents) if p.exists() and not p.is_dir()), None)
    if blocking is not None:
        raise SimbalanceError(f"{option} {out}: {blocking} is a file, not a folder")
    made = [p for p in out.parents if not p.exists()]  # deepest first
    lock = lock_file(out)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        # never through a link (it would write into, and then remove, what the link names: qa56)
        fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK, 0o644)
    except OSError as exc:
        _remove_empty(made)
        if os.path.lexists(lock) and not os.path.islink(lock):  # a folder at the lock's name
            raise _not_a_lock(option, out, lock, "a folder") from None
        if os.path.islink(lock):
            raise SimbalanceError(f"{option} {out}: {lock} is a symbolic link, where simbalance keeps the lock of "
                                  f"{option}; simbalance never writes through it: remove the link or choose another "
                                  f"{option}") from None
        raise SimbalanceError(f"{option} {out}: cannot write there ({exc.strerror or exc})") from None
    held_before = os.read(fd, 64) if stat.S_ISREG(os.fstat(fd).st_mode) else None
    if held_before is None or not re.fullmatch(rb"(\d+\n)?", held_before):
        # a FIFO, a folder, a device, or a file of the user's at the lock's name: kept as it is
        os.close(fd)
        _remove_empty(made)
        raise _not_a_lock(option, out, lock, "it holds something else, or is not a regular file")
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    try:
        # who holds it, written into it: also the first bytes the command writes beside --out, so a
        # full disk is one line here, before any game (an empty lock file takes no space)
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
    except OSError as exc:
        _unlock(out, fd, made)
        raise SimbalanceError(f"{option} {out}: cannot write there ({exc.strerror or exc})") from None
    plugin_guard.holds_lock(lock, made)  # a guarded command's abrupt end: the guard removes it
    return fd, made


def _not_a_lock(option: str, out: Path, lock: Path, what: str) -> SimbalanceError:
    return SimbalanceError(f"{option} {out}: {lock} is not a lock simbalance wrote ({what}); simbalance keeps the lock "
                           f"of {option} there and never removes what it did not write: move it away or choose another "
                           f"{option}")


def _remove_empty(folders: list[Path]) -> None:
    for folder in folders:
        with contextlib.suppress(OSError):
            folder.rmdir()  # only when empty


def _unlock(out: Path, fd: int, made: list[Path]) -> None:
    with contextlib.suppress(OSError):
        lock_file(out).unlink()
    plugin_guard.released_lock(lock_file(out))
    os.close(fd)
    _remove_empty(made)


def _remove_leftovers(out: Path, on_leftover=None) -> None:
    """The temporary folders a killed command left beside ``out`` (``half_written``), when they hold
    simbalance's marker or nothing: no command holds them, this one has the lock."""
    for leftover in half_written(out):
        try:
            removed = remove_written_folder(leftover)
        except SimbalanceError:  # only its name is simbalance's: not ours to remove
            continue
        if removed and on_leftover is not None:
            on_leftover(leftover)


def hold_out_dir(out: Path, on_leftover=None) -> Path:
    """Check ``out`` (check_out_dir), then hold it for this process until ``release_out_dir``: an
    exclusive lock on ``.<name>.lock`` beside it, taken on its absolute path, so that a second
    command into the same folder, from any working directory, stops at once with one line instead
    of replacing the first's result; a folder that cannot be written (a read-only mount, no
    permission) is refused here, before any game. The temporary folders a killed command left are
    removed (``on_leftover`` is told each). Holding a folder this process holds already is a no-op.
    Returns the absolute path."""
    check_out_dir(out)
    out = absolute_out(out)
    if out not in _HELD:
        got = _lock(out)
        if got is None:
            raise SimbalanceError(f"--out {out}: {ANOTHER_RUN}")
        _HELD[out] = got
        _remove_leftovers(out, on_leftover)
    return out


def hold_out_file(out: Path, ours, half_ours, what: str, option: str = "--out") -> Path:
    """``hold_out_dir`` for an output that is one file (fit-eval's eval.json, a baseline, check's
    --markdown and --junit): refused, before any game, when it is a link, a folder or anything but
    a regular file simbalance wrote (``ours``: is it one of simbalance's, which opens nothing but a
    regular file; ``what``: the words for one); locked on ``.<name>.lock`` beside it for this
    command; the temporary files a killed command left (``.<name>.writing-XXXXXXXX`` whose bytes
    ``half_ours`` recognises) are removed. Returns the absolute path."""
    from simbalance.report.files import check_report_path, not_ours_file

    check_path_names(option, out)
    if out.is_symlink():  # replaced, the link would go, not the file it names
        raise SimbalanceError(f"{option} {out}: a symbolic link (to {os.readlink(out)}); give the file itself, "
                              f"{option} {out.resolve()}, or choose another {option}")
    check_report_path(option, out)  # a folder: "is a directory; give a file name"
    if out.exists() and not ours(out):
        raise not_ours_file(out, what, option)
    out = absolute_out(out)
    if out not in _HELD:
        got = _lock(out, option)
        if got is None:
            raise SimbalanceError(f"{option} {out}: another simbalance command is writing this file; wait for it "
                                  f"to finish or choose another {option}")
        _HELD[out] = got
        pattern = re.compile(re.escape(_writing_prefix(out)) + r"[a-z0-9_]{8}")
        for leftover in sorted(out.parent.iterdir()):
            if (pattern.fullmatch(leftover.name) and leftover.is_file() and not leftover.is_symlink()
                    and half_ours(leftover)):
                leftover.unlink(missing_ok=True)
    return out


def release_out_dir(out: Path) -> None:
    out = absolute_out(out)
    held = _HELD.pop(out, None)
    if held is not None:
        _unlock(out, *held)


def release_out_dirs() -> None:
    """Release every folder this process still holds (the CLI, when a command ends)."""
    for out in list(_HELD):
        release_out_dir(out)


@contextmanager
def claim_out_dir(out: Path | None, game: str, on_leftover=None) -> Iterator[Path]:
    """Hold the run's folder (and its ``.partial``) for the whole run (``hold_out_dir``). Without
    ``out``: a fresh ``reports/<game>-<time>``, never one that exists or that another run holds (two
    runs started in the same second get two folders). The lock file goes when the run ends."""
    if out is not None:
        target = hold_out_dir(out, on_leftover)
    else:
        for target in _default_names(game, absolute_out(Path("reports"))):
            got = _lock(target)
            if got is not None and not (target.exists() or partial_dir(target).exists()):
                _HELD[target] = got
                _remove_leftovers(target, on_leftover)
                break
            if got is not None:  # taken between the look and the lock
                _unlock(target, *got)
    try:
        yield target
    finally:
        release_out_dir(target)


def absolute_out(out: Path) -> Path:
    """``out`` as an absolute path, its folder's symbolic links resolved (not its own name's): what
    a checkpoint stores and what the lock is taken on, so that ``--resume`` from another working
    directory writes to the same place and meets the same lock."""
    out = Path(out)
    return out.parent.resolve() / out.name


def _writing_prefix(out: Path) -> str:
    return f".{out.name}.writing-"


def half_written(out: Path) -> list[Path]:
    """The temporary folders a killed run left beside ``out``: ``atomic_folder``'s
    ``.<name>.writing-XXXXXXXX`` (mkdtemp's eight characters), never another output's; removed only
    when they hold simbalance's marker (or nothing): core/owned.remove_written_folder."""
    if not out.parent.is_dir():
        return []
    pattern = re.compile(re.escape(_writing_prefix(out)) + r"[a-z0-9_]{8}")
    return sorted(p for p in out.parent.iterdir() if pattern.fullmatch(p.name) and p.is_dir())


def check_out_dir(out: Path) -> None:
    """Refuse to replace a folder that is not a simbalance run folder (recognised by its marker,
    never by a file name: core/owned.py) or that holds a file simbalance did not write, or a name
    the file system cannot hold (before any game runs)."""
    check_path_names("--out", out)
    if out.name in ("", ".."):  # '', '.', '/', '..': the folder is written beside its place, then renamed into it
        raise SimbalanceError(f"--out {str(out)!r}: give the run folder a name of its own, e.g. --out reports/mine")
    check_out_room(out)
    if out.is_symlink():  # replaced whole, the link would go, not the folder it names: neither is ours
        raise SimbalanceError(f"--out {out}: a symbolic link (to {os.readlink(out)}); simbalance writes a run folder "
                              f"whole and would replace the link: give the folder itself, --out {out.resolve()}")
    if out.exists() and not out.is_dir():
        raise SimbalanceError(f"--out {out}: exists and is not a folder")
    check_replaceable(out)


# What simbalance adds to --out's name beside it (``.NAME.writing-XXXXXXXX``, the longest: a lock,
# ``NAME.partial``, ``.NAME.partial.new`` are shorter) and to its path below it (that folder, then
# ``games/part-000001.parquet``, a temporary file's ``.tmp``): a path that fits the file system
# must leave room for them, or the play ends in "File name too long" (a 4,096-byte --out did).
OUT_NAME_ROOM = len(".") + len(".writing-XXXXXXXX")
OUT_PATH_ROOM = 64


def check_out_room(out: Path) -> None:
    """Refuse an ``--out`` whose name, or absolute path, leaves no room for the names simbalance
    adds to it, in one line saying how long it may be."""
    name = len(os.fsencode(out.name))
    if name + OUT_NAME_ROOM > NAME_MAX:
        raise SimbalanceError(f"--out {out.name[:40]}...: a name of {name:,} bytes; simbalance writes "
                              f"'.<name>.writing-XXXXXXXX' beside it, and a name may have at most {NAME_MAX} bytes: "
                              f"give one of at most {NAME_MAX - OUT_NAME_ROOM}")
    whole = len(os.fsencode(str(absolute_out(out))))
    if whole + OUT_PATH_ROOM > PATH_MAX - 1:
        raise SimbalanceError(f"--out: a path of {whole:,} bytes (from /); simbalance writes files up to "
                              f"{OUT_PATH_ROOM} bytes deeper, and a path may have at most {PATH_MAX - 1:,}: give one "
                              f"of at most {PATH_MAX - 1 - OUT_PATH_ROOM:,}")


def manifest(result: SimulationResult, command: str | None) -> dict:
    plan = result.plan
    return {
        "game": plan.spec.id,
        "game_origin": plan.spec.origin,  # "built-in", or "plug-in <distribution> <version>"
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
        # the fitted evaluation a search seat scored its cut play-outs with (null: none;
        # docs/strategies.md, "The fitted evaluation"): its weights and where it came from (a
        # refit or a new eval.json plays other games)
        "search_evaluation": search_evaluation(plan),
        # `--robust`'s sample: the fit its search seats scored with (studies/evaluation.provenance)
        **({"strong_play_evaluation": result.strong_play.evaluation}
           if getattr(result, "strong_play", None) is not None else {}),
        "command": command or " ".join(sys.argv),
        "threads": plan.threads,
        "numba_version": numba.__version__,
        "python": sys.version.split()[0],
        "created_utc": datetime.now(UTC).isoformat(timespec="seconds"),
        "elapsed_s": result.elapsed,
        "games_per_s": result.games_per_second,
    }


def search_evaluation(plan) -> dict | None:
    """manifest.json's ``search_evaluation``: the features, the seats' weights, the "no winner"
    alternative's (null: the fit has none) and the fit's provenance."""
    if plan.search_eval is None:
        return None
    k = len(plan.engine.search.feature_names)
    vector = [float(w) for w in plan.search_eval]
    no_winner = None if vector[2 * k] == float("-inf") else {"intercept": vector[2 * k], "weights": vector[k:2 * k]}
    return {"features": list(plan.engine.search.feature_names), "weights": vector[:k], "no_winner": no_winner,
            "provenance": getattr(plan, "search_eval_source", None)}


def run_figures(result: SimulationResult, summary: dict) -> dict[str, Figure]:
    plan = result.plan
    fair = 1.0 / plan.players
    seats = pd.DataFrame(summary["seats"]).assign(player=lambda t: [f"player {s + 1}" for s in t["seat"]])
    out = {
        "seat_win_rates": figures.win_rates(seats, "player", fair, "Win rate by player"),
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


def seat_strategies(result: SimulationResult) -> list[str] | None:
    """Each player's strategy, or None when the seats rotate through several lineups."""
    lineup = result.plan.lineup
    if len(lineup.seats) != 1:
        return None
    return [lineup.slot_names[slot] for slot in lineup.seats[0]]


@contextmanager
def atomic_folder(out: Path):
    """Build a result folder under a temporary name beside ``out``; rename it into place only when
    the block finishes, and remove it if the block fails: never a half-written folder."""
    out = Path(out)
    held_before = absolute_out(out) in _HELD
    hold_out_dir(out)  # the command's own hold, or one for the time of the writing
    try:
        with _naming_the_folder(out), _temporary_folder(out) as tmp:
            yield tmp
    finally:
        if not held_before:
            release_out_dir(out)


@contextmanager
def _naming_the_folder(out: Path):
    """An OSError of the writing that names no file (a full disk: ``write`` says only ENOSPC) names
    the output folder, so that its one line says where."""
    try:
        yield
    except OSError as exc:
        if not exc.filename:
            exc.filename = str(out)
        raise


@contextmanager
def _temporary_folder(out: Path):
    """``.<name>.writing-XXXXXXXX`` beside ``out``, marked as simbalance's from its first instant;
    renamed into ``out`` (replacing the run folder there) when the block ends, removed if it fails."""
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=_writing_prefix(out), dir=out.parent))
    try:
        mark(tmp, WRITING)  # the next start may remove it if a kill leaves it
        yield tmp
        mark(tmp, RUN_FOLDER, [name for name in files_in(tmp) if not name.startswith(".simbalance")])
        tmp.chmod(0o755)  # mkdtemp makes it private; a report folder is for sharing
        old = None
        if out.exists():
            check_replaceable(out)  # again: a file may have been added while the games were played
            # moved aside whole (a rename onto an empty folder), not removed in place: a kill now
            # leaves it under a leftover's name, marker and all, for the next start to remove
            old = Path(tempfile.mkdtemp(prefix=_writing_prefix(out), dir=out.parent))
            os.rename(out, old)
        fault("before the folder's rename")  # every study's folder, whole, not yet in place (tests: a kill here)
        tmp.rename(out)
        if old is not None:
            shutil.rmtree(old)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def fit_titles(fig: Figure) -> None:
    """Break each axes' title onto more lines where it is wider than its axes: a title is read whole
    or not at all ("... countdown out or timeou" was cut at the figure's edge)."""
    import textwrap

    for ax in fig.axes:
        title = ax.get_title()
        if not title or "\n" in title:
            continue
        size = ax.title.get_fontsize()
        width_pt = fig.get_figwidth() * ax.get_position().width * 72
        fits = max(20, int(width_pt / (0.55 * size)))  # about 0.55 em per character in the default font
        if len(title) > fits:
            ax.set_title(textwrap.fill(title, fits))


def save_figures(folder: Path, figs: dict[str, Figure]) -> dict[str, bytes]:
    """Each figure as ``<name>.png`` in ``folder``; returns the PNG bytes for embedding."""
    images = {}
    for name, fig in figs.items():
        path = folder / f"{name}.png"
        if fig.get_layout_engine() is None:  # an engine's figure: lay it out so no label is cut off
            fig.set_layout_engine("constrained")
        fit_titles(fig)
        fig.savefig(path, dpi=DPI)
        images[name] = path.read_bytes()
    return images


def base_manifest(kind: str, plan, command: str, **fields) -> dict:
    return {"kind": kind, "game": plan.spec.id, "game_origin": plan.spec.origin, "engine_version": plan.engine.version,
            "simbalance_version": __version__, "n": plan.n, "seed": plan.seed, "players": plan.players,
            **fields, "command": command, "created_utc": datetime.now(UTC).isoformat(timespec="seconds")}


def write_json(path: Path, data: dict) -> None:
    path.write_text(json.dumps(data, indent=2, default=_json_default) + "\n", encoding="utf-8")


def write_run_folder(result: SimulationResult, out: Path, command: str | None = None,
                     write_games: bool = True, shards: Path | None = None) -> Path:
    """Write the whole run folder atomically and return its path. ``shards``: a streamed run's
    folder of Parquet shards (in its checkpoint), linked into the run folder as ``games/`` before
    the rename, so that the checkpoint keeps them until the folder is in place."""
    with atomic_folder(out) as tmp:
        if shards is not None and shards.is_dir():
            _link_tree(shards, tmp / "games")
            fault("after the shards")
        # games.parquet is written on a thread of its own while the figures are drawn: Arrow
        # compresses and writes without the GIL (a third of the report's time at 10^6 games)
        games_writer = None
        if write_games and result.records is not None:
            games = result.games  # made here, read only by the writer
            games_writer = _PARQUET_POOL.submit(write_games_parquet, games, tmp / "games.parquet")
        try:
            summary = result.summary()
            man = manifest(result, command)
            write_json(tmp / "summary.json", summary)
            fault("after summary.json")
            found = result.report_findings()
            strong = strong_play_json(result, summary)
            write_json(tmp / "findings.json", {"findings": [f.to_dict() for f in found],
                                               **({"strong_play": strong} if strong else {})})
            fault("after findings.json")
            images = save_figures(tmp, run_figures(result, summary))
            fault("after the figures")
            (tmp / "report.html").write_text(render_report(man, summary, images, found, result.notable_games(),
                                                           seat_strategies(result), strong), encoding="utf-8")
            fault("after report.html")
        finally:
            if games_writer is not None:
                wait([games_writer])  # never leave it writing into a folder that is being removed
        if games_writer is not None:
            games_writer.result()  # its error, if any, fails the folder
            fault("after games.parquet")
        write_json(tmp / RUN_MARKER, man)  # last: its presence marks a complete folder
        fault("before the rename")
    fault("after the rename")
    return Path(out)


def strong_play_json(result: SimulationResult, summary: dict) -> dict | None:
    """`run --robust`'s search sample in findings.json (``strong_play``): the sample (model, games,
    the precision and whether it was reached, each seat's share of the decided games with its CI)
    and the first-player effect's ``robustness`` object (``first_player``); None without it."""
    from simbalance.analysis.robustness import first_player_robustness

    sample = result.strong_play
    if sample is None:
        return None
    return {**sample.to_dict(), "first_player": first_player_robustness(summary, sample)}


def _link_tree(source: Path, target: Path) -> None:
    """``target`` with every file of ``source`` as a hard link (a copy where the file system has
    none): instant, and ``source`` keeps its files."""
    target.mkdir()
    for path in sorted(source.iterdir()):
        if path.is_file():
            try:
                os.link(path, target / path.name)
            except OSError:
                shutil.copy2(path, target / path.name)


_PARQUET_POOL = ThreadPoolExecutor(max_workers=1, thread_name_prefix="simbalance-parquet")


PARQUET_SLICE = 1 << 20  # rows converted to Arrow at a time: bounds memory on 10^7-game runs


def write_games_parquet(games: pd.DataFrame, path: Path) -> None:
    """One row per game, written slice by slice so memory stays flat. Each slice's columns are
    first copied out of the records in one cache-friendly pass (core/aggregate.contiguous_columns):
    Arrow converts strided columns one at a time, which took two thirds of the write at 10^6 games."""
    schema = pa.Schema.from_pandas(games.iloc[:0], preserve_index=False)
    with pq.ParquetWriter(path, schema, compression="zstd") as writer:
        for start in range(0, len(games), PARQUET_SLICE):
            part = games.iloc[start : start + PARQUET_SLICE]
            copied = contiguous_columns(part)
            part = pd.DataFrame({c: copied[c] if c in copied else part[c].array for c in part.columns}, copy=False)
            writer.write_table(pa.Table.from_pandas(part, schema=schema, preserve_index=False))


def _json_default(value):
    if hasattr(value, "item"):
        return value.item()
    if hasattr(value, "tolist"):
        return value.tolist()
    raise TypeError(f"not JSON serialisable: {type(value).__name__}")


def study_manifest(kind: str, game: str, players: int, n: int, seed: int, command: str, **fields) -> dict:
    """A study folder's manifest.json (skill, tune, ladder, robustness): what ran, with which seed."""
    return {"kind": kind, "game": game, "simbalance_version": __version__, "n": n, "seed": seed, "players": players,
            **fields, "command": command, "created_utc": datetime.now(UTC).isoformat(timespec="seconds")}
