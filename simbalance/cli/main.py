"""`simbalance`: the command-line entry point.

Every problem with the user's input ends as one line on stderr, ``error: ...``, and exit code 2
(click's usage errors included): no traceback, no usage dump.
"""

from __future__ import annotations

import sys
from pathlib import Path

import typer
from typer.core import TyperGroup

try:  # typer >= 0.22 vendors click; older typer uses click itself
    from typer._click import exceptions as click_exc
except ImportError:  # pragma: no cover
    from click import exceptions as click_exc

from simbalance.core.errors import RunInterrupted, SimbalanceError, caused_by_ctrl_c


class OneLineErrors(TyperGroup):
    """A command group that turns input errors into one line and exit code 2."""

    def main(self, *args, **kwargs):
        kwargs["standalone_mode"] = False
        try:
            self._main_one_line(*args, **kwargs)
        finally:  # the output folders a command held (report/run_folder.hold_out_dir), however it ended
            writer = sys.modules.get("simbalance.report.run_folder")  # loaded only by a command that writes
            if writer is not None:
                writer.release_out_dirs()

    def _main_one_line(self, *args, **kwargs):
        from simbalance.cli import terminal
        from simbalance.core.runner import announcing_compiles

        _numbers_in_ascii(self)

        try:
            # every command shows a spinner while an engine compiles
            with announcing_compiles(terminal.compile_notice):
                code = super().main(*args, **kwargs)
        except SimbalanceError as exc:
            typer.echo(f"error: {one_line(str(exc))}", err=True)
            sys.exit(2)
        except click_exc.NoArgsIsHelpError as exc:
            typer.echo(exc.ctx.get_help() if exc.ctx else str(exc))
            sys.exit(2)
        except click_exc.ClickException as exc:
            message = " ".join(exc.format_message().split())
            typer.echo(f"error: {message} (see --help)", err=True)
            sys.exit(exc.exit_code)
        except typer.Abort:
            typer.echo("aborted", err=True)
            sys.exit(130)
        except RunInterrupted as exc:
            typer.echo(str(exc), err=True)
            sys.exit(130)
        except SystemError as exc:  # Ctrl-C inside a compiled kernel: numba's dispatcher wraps it
            if not caused_by_ctrl_c(exc):  # (core/errors.ctrl_c_kept: the executors raise it again)
                raise
            typer.echo("aborted", err=True)
            sys.exit(130)
        except OSError as exc:  # the last net: a path the commands did not check first, in one line
            where = f" ({exc.filename})" if exc.filename else ""
            typer.echo(f"error: {one_line(f'{exc.strerror or exc}{where}')}", err=True)
            sys.exit(2)
        sys.exit(code if isinstance(code, int) else 0)


def one_line(message: str) -> str:
    """An error's line with the control characters a value brought into it written as escapes: a
    newline in ``--set 'rules.pick_cap=5\nerror: all fine'`` split the line in two (issue 54, qa54c)."""
    return "".join(ch if ch.isprintable() or ch == " " else ch.encode("unicode_escape").decode("ascii")
                   for ch in message)


NUMBER_EXAMPLES = {int: "8, 1000 or 1_000", float: "0.03, 2.5 or 1e-3"}


def _numbers_in_ascii(group) -> None:
    """Every whole-number and decimal option of every command reads ASCII digits only, nothing
    around them (core/plan.check_count_text, the rule of --n): Python's int() and float() also take
    " 7 ", "7\\n", full-width and Arabic-Indic digits (issue 54)."""
    from simbalance.core.plan import check_count_text

    for command in getattr(group, "commands", {}).values():
        for param in getattr(command, "params", []):
            kind = getattr(getattr(param, "type_descriptor", None), "annotation", None)
            if kind is Path and not getattr(param, "_ascii_checked", False):
                _empty_path_refused(param)
                continue
            if kind not in NUMBER_EXAMPLES or getattr(param, "_ascii_checked", False):
                continue

            def checked(ctx, value, _process=param.process_value, _param=param, _kind=kind):
                for text in value if isinstance(value, list | tuple) else [value]:
                    if isinstance(text, str):
                        check_count_text(text, (_param.opts or [_param.name])[0], NUMBER_EXAMPLES[_kind])
                return _process(ctx, value)

            param.process_value = checked
            param._ascii_checked = True
        _numbers_in_ascii(command)


def _empty_path_refused(param) -> None:
    """A path option given as '' is refused as typed: typer reads it as Path('.'), and the line said
    "--out '.'", a name the user did not type (qa54b)."""
    from simbalance.core.errors import SimbalanceError

    def checked(ctx, value, _process=param.process_value, _param=param):
        for text in value if isinstance(value, list | tuple) else [value]:
            if isinstance(text, str) and not text.strip():
                flag = (_param.opts or [_param.name])[0]
                raise SimbalanceError(f"{flag} {text!r}: empty; give it a name of its own, e.g. {flag} reports/mine"
                                      if flag == "--out" else f"{flag} {text!r}: empty; give a file or folder name")
        return _process(ctx, value)

    param.process_value = checked
    param._ascii_checked = True


app = typer.Typer(
    cls=OneLineErrors,
    help="Monte Carlo balance analysis for tabletop games: who wins how often, from which seat, "
    "with which strategy, and whether a change is real or noise.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)


def _register() -> None:
    """Every study's command (studies/registry.py: a module under simbalance/studies/ with a STUDY)
    and every other command (a module under simbalance/cli/ with COMMANDS), in rank order: nothing
    here lists them."""
    import importlib
    import pkgutil

    import simbalance.cli as cli_pkg
    from simbalance.cli.study_command import study_command
    from simbalance.studies.registry import all_studies

    commands = [(study.rank, study.name, study_command(study)) for study in all_studies()]
    for info in pkgutil.iter_modules(cli_pkg.__path__):
        module = importlib.import_module(f"{cli_pkg.__name__}.{info.name}")
        commands += [(rank, name, fn) for name, (rank, fn) in getattr(module, "COMMANDS", {}).items()]
    for _, name, fn in sorted(commands, key=lambda c: c[0]):
        app.command(name)(fn)


_register()


def main() -> None:
    from simbalance.core import plugin_guard

    if plugin_guard.wanted(sys.argv[1:]):  # plays code from outside simbalance: run it guarded (issue 54)
        _exit_now(plugin_guard.supervise(sys.argv[1:]))
    plugin_guard.start_guarded_child()
    try:
        app()
    except SystemExit as done:
        code = done.code
    else:
        code = 0
    _exit_now(code)


def _exit_now(code) -> None:
    """Leave without tearing the interpreter down.

    Unloading numba's compiled code, LLVM and matplotlib at exit costs 0.3 s, a sixth of a small
    run. Every file is closed and renamed into place by now; what remains is to run the atexit
    hooks (logging, Dask) and flush the terminal, which is all a normal exit would add.
    """
    import atexit
    import os

    if code is None:
        status = 0
    elif isinstance(code, int):
        status = code
    else:  # sys.exit("message") prints the message and exits 1, as Python does
        print(code, file=sys.stderr)
        status = 1
    atexit._run_exitfuncs()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)


if __name__ == "__main__":
    main()
