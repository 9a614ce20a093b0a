"""`simbalance run GAME`: its steps and its terminal view. The options, the params (one check each)
and the API entry come from the declaration (studies/run_study.STUDY, RunParams); what the run has that no
other study has is here: the checkpoint a Ctrl-C or a kill leaves and ``--resume``, games streamed to
Parquet shards, the robust sample's own checkpoint, and the run folder written last."""

from __future__ import annotations

import contextlib
import time
from dataclasses import fields, replace
from pathlib import Path

import typer
from rich.console import Console

from simbalance.analysis.findings import p_value
from simbalance.cli import interrupts
from simbalance.cli.findings_out import print_findings
from simbalance.cli.settings_options import WHERE
from simbalance.cli.study_command import command_line
from simbalance.cli.terminal import Table
from simbalance.core import plugin_guard
from simbalance.core.errors import SimbalanceError
from simbalance.core.faults import fault
from simbalance.core.paths import check_path_text
from simbalance.studies.run_study import ROBUST, RunParams
from simbalance.studies.settings import IDENTITY, RunSettings, as_options

try:  # typer >= 0.22 vendors click; older typer uses click itself
    from typer._click.core import ParameterSource
except ImportError:  # pragma: no cover
    from click.core import ParameterSource


def checkpoint_args(settings: RunSettings, params: RunParams, out: str) -> dict:
    """What a checkpoint stores of the run it holds: what decides the games (the settings'
    identity and the run's params) and its folder, so that ``--resume`` asks for exactly the same
    run again, wherever and on however many threads it is resumed."""
    return {"settings": settings.identity, **{f.name: getattr(params, f.name) for f in fields(params)}, "out": out}


def from_checkpoint_args(state: dict, where: Path, place: dict) -> tuple[RunSettings, RunParams, str]:
    """The run a checkpoint stored (settings, params, its folder), to be played where ``place``
    says (threads, backend...)."""
    known = {f.name for f in fields(RunParams)} | {"settings", "out"}
    if (not isinstance(state, dict) or not isinstance(state.get("settings"), dict)
            or set(state["settings"]) != set(IDENTITY) or set(state) - known
            or not (isinstance(state.get("out"), str) and Path(state["out"]).is_absolute())):
        raise SimbalanceError(f"--resume {where}: the checkpoint was written by another simbalance version; "
                              "run it again from the start")
    identity = dict(state["settings"])
    for key in ("overrides", "variants"):
        identity[key] = tuple(identity[key] or ())
    with as_options():  # an error names --threads, --backend ... as given with --resume
        settings = RunSettings(**identity, **place)
    own = {name: value for name, value in state.items() if name not in ("settings", "out")}
    if not own.get("robust"):  # a checkpoint of before issue 52 stored the sample's defaults without --robust
        own.update(dict.fromkeys(ROBUST))
    return settings, RunParams(**own), state["out"]


def run_steps(study, settings: RunSettings | None, game: str | None, out: Path | None, typed: dict, *,
              ctx: typer.Context, resume: Path | None, quiet: bool) -> None:
    """`simbalance run`'s steps from its options (studies/run_study.RunParams, declared) to its folder:
    the checkpoint a Ctrl-C or a kill leaves, ``--resume``, games streamed to shards, the robust
    sample's own checkpoint, the run folder (core/study.Study.steps)."""
    from simbalance.cli.study_command import params_from_options
    from simbalance.report.run_folder import claim_out_dir

    if resume is not None:
        check_path_text("--resume", resume)
        given = [flag for name, flag in result_options(study)
                 if ctx.get_parameter_source(name) == ParameterSource.COMMANDLINE]
        if given:
            raise SimbalanceError(f"--resume {resume}: {', '.join(given)} cannot change an interrupted run; "
                                  "resume it with --resume alone (and --threads, --backend, --scheduler, --dask-timeout, --quiet)")
        place = {name: ctx.params[name] for name in WHERE}
        settings, params, out_text = from_checkpoint_args(read_checkpoint_args(resume), resume, place)
        out_text = str(resumed_out(resume, Path(out_text), quiet))
    else:
        if settings is None:
            raise SimbalanceError("missing GAME (see `simbalance games`), or --resume DIR")
        params, out_text = params_from_options(study, typed), str(out) if out else None
    plan = params.plan(settings)
    if params.robust and plan.engine.search is None:
        if not quiet:  # one line, then the run as without it
            Console(stderr=True).print(f"--robust: {plan.spec.id} has no decisions (no search player), so its players "
                                       "change nothing; running without --robust", soft_wrap=True)
        params = params.without_robust()
    keep = params.keeps_records(plan)

    def left_by_a_kill(path: Path) -> None:
        if not quiet:
            Console(stderr=True).print(f"removed {path}: a half-written report a killed run left (its games "
                                       "are in the checkpoint, when it had one)")

    with claim_out_dir(Path(out_text) if out_text else None, plan.spec.id, left_by_a_kill) as target:
        state_dir = resume if resume is not None else fresh_state_dir(target, quiet)
        plugin_guard.keeps_checkpoint(state_dir)  # a guarded run's abrupt end names it (core/plugin_guard.py)
        _play_and_write(plan, settings, params, str(target), keep, state_dir, resume is not None, quiet)


def result_options(study) -> list[tuple[str, str]]:
    """(name, flag) of the options that decide what a run plays or writes, in the order of --help:
    GAME, every param and --out, the shared setup (--players, --seed, --set, --variant, --config).
    The checkpoint of an interrupted run fixes them; the others say where it is played."""
    from simbalance.cli.settings_options import WHAT
    from simbalance.core.study import flag_of

    own = []
    for f in fields(study.params):
        own.append((f.name, flag_of(f)))
        if f.name == study.out_after:
            own.append(("out", "--out"))
    shared = [(name, "--" + name.rstrip("_").replace("_", "-")) for name in WHAT]
    return [("game", "GAME"), *own, *shared]


def resumed_out(state_dir: Path, asked: Path, quiet: bool) -> Path:
    """Where a resume of ``state_dir`` writes its run folder: beside the ``.partial`` it was given,
    under its name without ``.partial`` (docs/operations.md). A checkpoint moved to another folder
    finishes there, not in the folder it was first asked for (which may be gone, or hold another
    run now); a checkpoint folder renamed to a name without ``.partial`` says nothing of where its
    run goes: refused in one line naming both places."""
    from simbalance.report.run_folder import absolute_out

    given = absolute_out(Path(state_dir))
    if not given.name.endswith(".partial") or given.name == ".partial":
        raise SimbalanceError(f"--resume {state_dir}: a checkpoint folder is named after its run folder, "
                              f"<run folder>.partial (this run was asked to write {asked}); rename it to "
                              f"{asked.name}.partial, and the run finishes beside it")
    here = given.with_name(given.name.removesuffix(".partial"))
    if here != asked and not quiet:
        Console(stderr=True).print(f"--resume {state_dir}: the checkpoint was moved; the run finishes beside it, in "
                                   f"{here} (it was asked to write {asked})", soft_wrap=True)
    return here


def read_checkpoint_args(state_dir: Path) -> dict:
    from simbalance.core.execution import read_state

    return read_state(state_dir)["args"]


def fresh_state_dir(target: Path, quiet: bool) -> Path:
    """The ``.partial`` folder of a new run into ``target``. One holding a resumable run blocks the
    new run with the command that finishes it; one simbalance wrote that holds no checkpoint (a kill
    while it was being removed), or an empty one, is discarded with a line saying so. Anything else
    stops the run in one line and is never removed: a folder simbalance did not write (it has no
    marker), a finished run folder (``--out X.partial``), a checkpoint that cannot be used."""
    from simbalance.core.execution import CHECKPOINT, read_state
    from simbalance.core.owned import (
        CHECKPOINT_FOLDER,
        RUN_FOLDER,
        marker_of,
        not_ours,
        remove_checkpoint_folder,
    )
    from simbalance.report.run_folder import partial_dir

    state_dir = partial_dir(target)
    if not state_dir.exists() and not state_dir.is_symlink():
        return state_dir
    if state_dir.is_symlink() or not state_dir.is_dir():
        raise SimbalanceError(f"{state_dir}: exists and is not a folder; simbalance keeps a run's checkpoint there: "
                              "move it away or choose another --out")
    body = marker_of(state_dir)
    if body is not None and body["kind"] == RUN_FOLDER:
        raise SimbalanceError(f"{state_dir}: holds a finished run folder, not a checkpoint; simbalance does not remove "
                              "it: rename it or choose another --out")
    if any(state_dir.iterdir()) and (body is None or body["kind"] != CHECKPOINT_FOLDER):
        raise not_ours(state_dir)
    if (state_dir / CHECKPOINT).exists() or (state_dir / CHECKPOINT).is_symlink():
        try:
            read_state(state_dir)
        except SimbalanceError as exc:
            raise SimbalanceError(f"{state_dir} holds a checkpoint that cannot be resumed ({exc}); simbalance "
                                  "does not remove it: delete that folder to start again") from None
        raise SimbalanceError(f"{state_dir} holds an interrupted run: finish it with "
                              f"simbalance run --resume {state_dir}, or delete that folder to start again")
    foreign = remove_checkpoint_folder(state_dir)
    if foreign:
        raise not_ours(state_dir)
    if not quiet:
        Console(stderr=True).print(f"discarded {state_dir}: it held no run that can be resumed")
    return state_dir


def _play_and_write(plan, settings: RunSettings, params: RunParams, out: str, keep: bool, state_dir: Path,
                    resuming: bool, quiet: bool) -> None:
    from simbalance.cli.terminal import RichProgress
    from simbalance.core.errors import CheckpointError, RunInterrupted
    from simbalance.core.execution import RunOptions
    from simbalance.report.run_folder import write_run_folder
    from simbalance.studies.run import SimulationResult

    target = Path(out)
    err = Console(stderr=True)
    if not keep and not quiet:
        err.print(f"streaming {plan.n:,} games: statistics are merged chunk by chunk; engine statistics and card "
                  "impact use the first 200,000 games")
    plan = plan.ready(None if quiet else RichProgress)  # the plan's steps (a refit) before its games
    progress = None if quiet else RichProgress(plan.spec.id)
    with interrupts.interruptible() as stop:
        # keep_checkpoint: the checkpoint, with every game, stays until the folder is in place
        options = RunOptions(keep_games=keep, precision=params.precision, state_dir=state_dir, resume=resuming,
                             args=checkpoint_args(settings, params, out), stop=stop, shards=not keep and params.games_file,
                             keep_checkpoint=True, compiling=False if quiet else None)  # None: the spinner
        try:
            result = SimulationResult.from_plan(plan, progress=progress, options=options)
            if progress is not None:
                progress.close()
            if params.robust:
                result = replace(result, strong_play=_play_strong(settings, params, state_dir, resuming, stop, quiet))
        except (RunInterrupted, CheckpointError):  # a checkpoint that cannot be used is never resumed from
            raise
        except Exception as exc:  # a failure, not a stop or a kill: keep only what can be resumed
            kept = _discard_unless_resumable(state_dir)
            if isinstance(exc, OSError):  # a full disk, an I/O error, a refused permission
                exc = SimbalanceError(f"writing the checkpoint: {exc.strerror or exc} ({exc.filename or state_dir})"
                                      + ("" if kept else "; no game was kept: run the same command again"))
            if kept and isinstance(exc, SimbalanceError):
                raise SimbalanceError(f"{exc}; the finished chunks are kept: once fixed, resume with "
                                      f"simbalance run --resume {state_dir}") from None
            if isinstance(exc, SimbalanceError):
                raise exc from None
            raise
        finally:
            if progress is not None:
                progress.close()
    command = command_line()
    report_start = time.perf_counter()
    try:
        folder = write_run_folder(result, target, command=command, write_games=params.games_file,
                                  shards=state_dir / "games")
    except OSError as exc:  # disk full, no permission...: every game is in the checkpoint
        where = exc.filename or target
        raise SimbalanceError(f"writing the report into {target}: {exc.strerror or exc} ({where}); every game is "
                              f"kept: once fixed, finish with simbalance run --resume {state_dir}") from None
    report_seconds = time.perf_counter() - report_start
    foreign = remove_own_checkpoint(state_dir)  # only now: a kill up to here resumes from it
    fault("after the checkpoint's removal")
    if foreign and not quiet:
        err.print(f"kept {state_dir}: it holds {foreign[0]!r}, which simbalance did not write")
    if quiet:
        print(folder)
        return
    if params.precision is not None:
        reached = "reached" if result.n_played < plan.n else "checked"
        err.print(f"precision {params.precision} {reached} after {result.n_played:,} games")
    console = Console()
    print_summary(console, result.summary(), plan, result, report_seconds)
    if result.strong_play is not None:
        print_strong_play(console, result)
    print_findings(console, result.report_findings(), page=str(folder / "report.html"))
    err.print(f"report: {folder / 'report.html'} (written in {report_seconds:.1f} s)")


ROBUST_DIR = "robust"  # the search sample's checkpoint, inside the run's own checkpoint folder


def _play_strong(settings: RunSettings, params: RunParams, state_dir: Path, resuming: bool, stop, quiet: bool):
    """``--robust``'s search sample (studies/robustness.strong_play), checkpointed in
    ``state_dir/robust`` beside the run's own checkpoint: a run killed while it plays resumes it from
    there (the run's own games, all played, are not played again), and the whole folder goes only once
    the report is in place."""
    from simbalance.cli.terminal import RichProgress
    from simbalance.core.errors import RunInterrupted
    from simbalance.core.execution import CHECKPOINT, RunOptions
    from simbalance.studies.robustness import strong_play

    folder = state_dir / ROBUST_DIR
    options = RunOptions(keep_games=False, state_dir=folder, resume=resuming and (folder / CHECKPOINT).exists(),
                         args={"robust_sample_of": str(state_dir)}, stop=stop, keep_checkpoint=True,
                         compiling=False if quiet else None)
    try:
        return strong_play(settings, "mcts", params.robust_budget, precision=params.robust_precision,
                           most=params.robust_n, progress=None if quiet else RichProgress, options=options)
    except RunInterrupted as exc:  # resumed from the run's folder, not the sample's
        raise RunInterrupted(exc.games_done, exc.n, state_dir) from None


def print_strong_play(console: Console, result) -> None:
    """`run --robust`: the search sample in one line, then the verdicts by effect size on the run's
    seat gap and its first-player effect (analysis/robustness)."""
    from simbalance.analysis.robustness import (
        first_player_robustness,
        seat_robustness,
        strong_play_words,
        who_played,
    )
    from simbalance.studies.run import measured_with

    sample = result.strong_play
    console.print(f"under strong play: {sample.games:,} games, every seat {sample.model} (seed {sample.seed}), "
                  f"{sample.stopped()}")
    who = who_played(measured_with(result.plan))
    for what, check in (("seat gap", seat_robustness(result.summary(), sample)),
                        ("first-player effect", first_player_robustness(result.summary(), sample))):
        console.print(f"{what}: {strong_play_words(check, sample, who)}", highlight=False)


def _discard_unless_resumable(state_dir: Path) -> bool:
    """After a failed run: keep a checkpoint that holds games (``--resume`` continues it: True),
    remove a folder that holds none, so nothing blocks the same command run again (False)."""
    from simbalance.core.execution import read_state
    from simbalance.core.owned import remove_written_folder

    try:
        if read_state(state_dir)["games_done"] > 0:
            return True
    except SimbalanceError:
        pass
    remove_own_checkpoint(state_dir)
    with contextlib.suppress(SimbalanceError, OSError):
        remove_written_folder(state_dir.with_name(f".{state_dir.name}.new"))  # a first commit's staging
    return False


def remove_own_checkpoint(state_dir: Path) -> list[str]:
    """Remove a checkpoint folder's own files (core/owned.remove_checkpoint_folder); the files in it
    that simbalance did not write stay, and are returned. A folder that is not simbalance's at all
    (``--resume`` of one) is left whole."""
    from simbalance.core.owned import remove_checkpoint_folder

    try:
        return remove_checkpoint_folder(state_dir)
    except SimbalanceError:
        return [p.name for p in state_dir.iterdir()]


def print_summary(console: Console, summary: dict, plan, result, report_seconds: float) -> None:
    # games/s is over the play alone (from the first game to the last chunk merged, compiling not
    # included); the report is written after the play, so its time is said apart, never mixed in.
    console.print(
        f"[bold]{plan.spec.id}[/]: {result.n_played:,} games, {plan.players} players, seed {plan.seed}, "
        f"{result.elapsed:.2f} s of play ({result.games_per_second:,.0f} games/s)"
        + (f", {result.compile_seconds:.1f} s compiling the engine first" if result.compile_seconds >= 1 else "")
        + f", {report_seconds:.1f} s writing the report"
    )
    seats = Table(title="win rate by player (95% Wilson CI; player 1 starts)")
    for col in ("player", "strategy", "win rate", "95% CI"):
        seats.add_column(col, justify="right")
    single_lineup = len(plan.lineup.seats) == 1
    for row in summary["seats"]:
        name = plan.lineup.slot_names[plan.lineup.seats[0][row["seat"]]] if single_lineup else "rotated"
        seats.add_row(str(row["seat"] + 1), name, f"{row['win_rate']:.2%}",
                      f"{row['ci_low']:.2%} - {row['ci_high']:.2%}")
    console.print(seats)
    if len(plan.lineup.slot_names) > 1:
        strat = Table(title="win rate by strategy (per seat played)")
        for col in ("strategy", "win rate", "95% CI"):
            strat.add_column(col, justify="right")
        for row in summary["strategies"]:
            strat.add_row(row["strategy"], f"{row['win_rate']:.2%}", f"{row['ci_low']:.2%} - {row['ci_high']:.2%}")
        console.print(strat)
    fpa = summary["first_player_advantage"]
    chi = summary["equal_seats_chi_square"]
    length = summary["length"]
    outc = summary["outcomes"]
    # the first-player advantage is a difference of shares: percentage points, not percent
    advantage = ("n/a (no game had a winner)" if fpa["value"] is None else
                 f"{100 * fpa['value']:+.2f} pp ({100 * fpa['ci_low']:+.2f} to {100 * fpa['ci_high']:+.2f} pp)")
    balance = "n/a" if summary["balance"] is None else f"{summary['balance']:.2%}"
    console.print(
        f"over decided games: first-player advantage {advantage} · balance {balance} · all seats equal: {p_value(chi['p_value'])}\n"
        f"length ({length['unit']}): mean {length['mean']:.1f}, standard deviation {length['sd']:.1f}, median {length['p50']:g}, "
        f"p5-p95 {length['p5']:g}-{length['p95']:g} · timeouts {outc['timeouts']:.2%} · ties {outc['ties']:.2%}"
    )
