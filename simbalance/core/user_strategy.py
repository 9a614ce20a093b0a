"""Strategies written by the user in their own file, used without changing simbalance.

Words: a *user strategy* is a function from ``--strategy-file``; a *plug-in* is a whole game
installed as its own package (games/registry.py). The one place the word "plugin" stays for a
strategy is the seat name on the command line, ``--strategies plugin,random``: users' commands
and scripts say it, so it is kept.

``--strategy-file path.py:name`` loads ``name`` from ``path.py``: an ``@njit`` function with the
decision signature the engine documents (``Engine.user_strategy.doc``). It plays every seat given the
strategy name ``plugin``. The engine builds a kernel around it (``Engine.user_strategy.kernel(fn)``); that
kernel is compiled once per run, since numba cannot cache code that takes a user's function.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from simbalance.core.errors import ConfigError

USER_STRATEGY_SEAT = "plugin"  # the strategy name that seats the user's function
USER_STRATEGY_ID = -1  # its strategy id inside kernels


def load_user_strategy(spec: str):
    """The numba dispatcher named by ``path.py:name``, or a one-line error."""
    path_text, sep, name = spec.rpartition(":")
    if not sep or not path_text or not name:
        raise ConfigError(f"--strategy-file {spec!r}: expected path.py:function_name")
    path = Path(path_text)
    if not path.is_file():
        raise ConfigError(f"--strategy-file {spec}: no file {path}")
    module_name = f"simbalance_plugin_{abs(hash(path.resolve()))}"
    loader = importlib.util.spec_from_file_location(module_name, path)
    if loader is None or loader.loader is None:
        raise ConfigError(f"--strategy-file {spec}: {path} is not a Python file")
    module = importlib.util.module_from_spec(loader)
    sys.modules[module_name] = module
    # Python's bytecode cache of the user's file would be written beside it (__pycache__/): simbalance
    # writes nothing into a user's folder (issue 54); its import reads the source each time.
    writes_bytecode, sys.dont_write_bytecode = sys.dont_write_bytecode, True
    try:
        loader.loader.exec_module(module)
    except SystemExit as exc:  # a file that exits while loading would end the run with its code
        raise ConfigError(f"--strategy-file {spec}: importing {path} called sys.exit({exc.code!r})") from None
    except Exception as exc:  # the user's file: any error in it is theirs to see, in one line
        raise ConfigError(f"--strategy-file {spec}: importing {path} failed: {type(exc).__name__}: {exc}") from None
    finally:
        sys.dont_write_bytecode = writes_bytecode
    fn = getattr(module, name, None)
    if fn is None:
        raise ConfigError(f"--strategy-file {spec}: {path} defines no {name!r}")
    import numba

    jitted = hasattr(fn, "py_func") and hasattr(fn, "compile")
    if not jitted and not (numba.config.DISABLE_JIT and callable(fn)):  # the probe runs with numba off
        raise ConfigError(f"--strategy-file {spec}: {name} must be decorated with @numba.njit")
    return fn


def user_strategy_kernel(engine, game: str, spec: str):
    """The engine's kernel with the user's function deciding for the ``plugin`` seats."""
    if engine.user_strategy is None:
        raise ConfigError(f"{game}: this engine does not take plug-in strategies yet")
    from simbalance.core import plugin_guard

    fn = load_user_strategy(spec)
    # The probe game is a whole game of the user's code, played here: the guard's watchdog covers it as
    # a chunk (a function that loops once hands are small, which the probe's sample never reaches,
    # hung here with SIGTERM ignored; its compile counts too, far below the limit).
    plugin_guard.chunk_started(0, 1)
    try:
        kernel = engine.user_strategy.kernel(fn)  # compiles it and plays a probe game
    except ConfigError:
        raise
    except (SystemExit, Exception) as exc:  # the user's code raised while playing the probe game
        raise ConfigError(_raised(spec, exc)) from None
    finally:
        plugin_guard.chunk_ended()
    return _guarded(kernel, spec)


def _raised(spec: str, exc: BaseException) -> str:
    message = str(exc).splitlines()[0] if str(exc) else "no message"
    return f"--strategy-file {spec}: the function raised {type(exc).__name__}: {message}"


def _guarded(kernel, spec: str):
    """The plug-in kernel, with an exception raised inside the user's function (numba surfaces it
    as SystemError or as the exception itself) turned into one line naming the file."""

    def run(*args):
        try:
            return kernel(*args)
        except ConfigError:
            raise
        except (SystemExit, Exception) as exc:  # the user's code, compiled into the kernel
            raise ConfigError(_raised(spec, exc)) from None

    run.__dict__.update(getattr(kernel, "__dict__", {}))  # e.g. the kernel's own replay (trace_game)
    return run


def read_only_problem(fn, arg_types: tuple, read_only: dict[int, str]) -> str | None:
    """The name of the first argument ``fn`` writes into among ``read_only`` (position -> name: the
    game's state it may read but not change), or None. Each is checked by compiling ``fn`` with that
    argument typed as a read-only array: numba refuses any write into one (``a[i] = v``, a callee that
    writes it) when it types the function, wherever the write is, so a write that only some games
    reach is found before the first game (issue 54: a strategy that wrote into ``hand_sizes`` changed
    the game's win rates)."""
    from numba import types as nt
    from numba.core.errors import NumbaError

    for position, name in read_only.items():
        kind = arg_types[position]
        frozen = nt.Array(kind.dtype, kind.ndim, kind.layout, readonly=True)
        try:
            fn.compile(tuple(frozen if i == position else t for i, t in enumerate(arg_types)))
        except NumbaError as exc:
            if "readonly" in str(exc) or "read-only" in str(exc):
                return name
            raise
    return None


def writes_into(who: str, name: str) -> str:
    """The one line for a strategy that writes into state it may only read."""
    return (f"{who} writes into {name}, which the game lends it to read only (writing would change the game for "
            f"every seat); work on a copy: {name}.copy()")

