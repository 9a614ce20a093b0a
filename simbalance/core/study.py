"""The study contract: what every study declares once, as ``core/spec.py`` is for a game.

A study (run, compare, skill, lengths...) is one module under ``simbalance/studies/`` that defines
``STUDY``, a :class:`Study`. The registry (``studies/registry.py``) finds it there, and from it come
the command (``simbalance <name> GAME ...``, cli/study_command.py) and the API entry
(``simbalance.api.<name>``): neither ``cli/main.py`` nor ``api.py`` lists a study.

A study declares:

- ``params``: its own parameters, a frozen dataclass whose fields are made with :func:`option`
  (the help, the command-line flag, whether it is a number of games). The command's options and the
  API's keywords both come from it, and its ``__post_init__`` (``StudyParams``) checks every value
  once, whichever way it came. The settings every study shares (game, players, seed, config, set,
  variant, threads, backend...) are not parameters: they are ``studies/settings.RunSettings``, one
  object with one check each.
- ``run(settings, params, progress)``: plays the games and returns the result.
- the result: an object with ``findings()`` (analysis/findings.Finding, each with its claim and
  figure) that a writer turns into the study's folder: ``writer`` names that function
  (``"module:function"``, taking ``(result, folder, command)``; it lives in ``report/``, which the
  studies do not import), or None for the plain folder every study gets for free
  (report/study_folder.py: ``<name>.json`` from ``result.numbers()``, the tables of
  ``result.tables()``, findings.json).
- ``example``: the cheapest arguments that run it, the game first (tests/test_study_contract.py
  plays every study with them: find-dr-evil where it will do).

A study whose command is still written by hand names it in ``command`` (``"module:function"``) and
its API function in ``api``; the contract test holds those to the same behaviour (one-line errors,
nothing written, one result whatever the threads) until they declare ``params`` too.

A study of block jobs (card-value, fit-eval) declares ``keeps_blocks``: its ``run`` also takes
``stop`` and ``checkpoints``, and its command keeps the finished blocks in simbalance's cache. A
study whose ``--out`` is one file rather than a folder (fit-eval's eval.json) names the function of
its default path in ``out_file``.

A study whose folder is not made by the common steps (run: a checkpoint that ``--resume`` finishes,
games streamed to shards, the robust sample beside it; solve: a Ctrl-C that writes what the race
knows) names its own ``steps`` (in ``cli/``); its
options, params and API entry still come from the declaration. ``resumable`` gives its command
``--resume DIR`` (GAME optional), ``quiet`` a ``--quiet`` option, ``out_after`` the place of
``--out`` among its options.

A study that declares ``stoppable`` (every declared study: tests/test_study_contract.py) plays every
run with :func:`stop_requested` as its ``stop`` (studies/run.play gives it to every run whose caller
names no other; a study that plays otherwise passes ``RunOptions(stop=...)`` itself): its command turns Ctrl-C and SIGTERM into a stop after the chunk in
play (cli/interrupts.interruptible), writes nothing and exits 130 (:class:`StudyStopped`); from
Python, ``with stopping(fn): ...`` asks ``fn`` between chunks.
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import importlib
import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from simbalance.core.errors import RunInterrupted, SimbalanceError
from simbalance.core.plan import check_n, check_whole
from simbalance.core.runner import MAX_GAMES

NAME = re.compile(r"[a-z][a-z0-9-]*")


@dataclass(frozen=True)
class Option:
    """How a parameter shows on the command line; see :func:`option`."""

    help: str
    flag: str | None = None  # default: --<field-name-with-dashes>
    count: bool = False  # a number of games: 1e5, 100_000 or 100000 on the command line
    zero: bool = False  # a count that may be 0 (written "0"): the parameter is off
    shown: str | None = None  # the default as the help shows it ("5e4")
    positional: bool = False  # an API positional argument after the game (tournament's strategies)
    kind: type = str  # the command line's type of a parameter that is not a count (int, float: typer reads it;
    # list: a repeatable option, a tuple of its texts; bool: a --flag/--no-flag)
    negatable: bool = True  # a bool: False gives --flag alone (run's --robust), no --no-flag


def option(default: Any = dataclasses.MISSING, *, help: str, flag: str | None = None,  # noqa: A002 (typer's word)
           count: bool = False, zero: bool = False, shown: str | None = None, positional: bool = False,
           kind: type = str, negatable: bool = True):
    """A study parameter: a dataclass field with its help and command-line form. ``count``: a number
    of games (checked by core/plan.check_n; with ``zero`` also 0, which turns the part off)."""
    return field(default=default, metadata={"option": Option(help, flag, count, zero, shown, positional, kind,
                                                              negatable)})


def names_of(text: str | list[str] | tuple[str, ...] | None, flag: str) -> list[str] | None:
    """A parameter that names things (strategies, cards): ``"a,b"`` as typed -> ["a", "b"], a list
    or tuple from the API as it is, None as None; an empty name is one line naming ``flag``."""
    if text is None:
        return None
    names = [s.strip() for s in text.split(",")] if isinstance(text, str) else list(text)
    if not names or not all(isinstance(n, str) and n for n in names):
        raise SimbalanceError(f"{flag} {text!r}: an empty name")
    return names


def option_of(f: dataclasses.Field) -> Option:
    return f.metadata["option"]


def flag_of(f: dataclasses.Field) -> str:
    return option_of(f).flag or "--" + f.name.replace("_", "-")


# How an error names a parameter: ``n = 0`` from the API, ``--n '0'`` (as typed) from the command line.
_WRITTEN: contextvars.ContextVar[dict[str, str] | None] = contextvars.ContextVar("study_params_written",
                                                                                   default=None)


@contextlib.contextmanager
def written_as(texts: dict[str, str]):
    """Errors of the parameters made inside name them as typed: ``{"n": "--n '0'"}``."""
    token = _WRITTEN.set(texts)
    try:
        yield
    finally:
        _WRITTEN.reset(token)


class StudyParams:
    """The base of every study's parameters: ``__post_init__`` is the one check of each value (a
    count by check_n, the rest by the study's own ``check``), wherever the value came from."""

    def __post_init__(self):
        for f in dataclasses.fields(self):
            opt = option_of(f)
            if opt.count and not (getattr(self, f.name) is None and f.default is None):  # None: the default
                value = getattr(self, f.name)
                label = (_WRITTEN.get() or {}).get(f.name)
                if opt.zero and not isinstance(value, bool) and value == 0:
                    object.__setattr__(self, f.name, 0)
                elif opt.zero and label is None:
                    object.__setattr__(self, f.name, check_whole(f.name, value, 0, MAX_GAMES))
                else:
                    object.__setattr__(self, f.name, check_n(value, label or f"{f.name} = {value!r}"))
        try:
            self.check()
        except SimbalanceError:
            raise
        except ValueError as exc:  # a study's check that raised the plain error: still one line, exit 2
            raise SimbalanceError(" ".join(str(exc).split()) or f"{type(self).__name__}: a value is not allowed") from None

    def check(self) -> None:
        """A study's own checks beyond counts (raise SimbalanceError with one line)."""

    def but(self, **changes: Any):
        return dataclasses.replace(self, **changes)


_STOP: contextvars.ContextVar[Callable[[], bool] | None] = contextvars.ContextVar("study_stop", default=None)
# The games the study's finished runs played (studies/run.play adds each run's): an interrupted study
# says how far the study got, not only the run it was stopped in (one arm of a compare).
_PLAYED: contextvars.ContextVar[list[int] | None] = contextvars.ContextVar("study_played", default=None)


@contextlib.contextmanager
def stopping(stop: Callable[[], bool]):
    """Inside, a stoppable study asks ``stop()`` between the chunks it plays (Ctrl-C, SIGTERM), and
    its finished runs' games are counted (``games_played``)."""
    token, played = _STOP.set(stop), _PLAYED.set([0])
    try:
        yield
    finally:
        _STOP.reset(token)
        _PLAYED.reset(played)


def count_played(games: int) -> None:
    """A run of the study in play finished after ``games`` games (studies/run.play)."""
    tally = _PLAYED.get()
    if tally is not None:
        tally[0] += games


def games_played() -> int:
    """The games of the study's runs that finished so far (0 outside ``stopping``)."""
    tally = _PLAYED.get()
    return 0 if tally is None else tally[0]


def stop_requested() -> bool:
    """Whether the study in play was asked to stop (Ctrl-C or SIGTERM on the command line)."""
    stop = _STOP.get()
    return bool(stop is not None and stop())


class StudyStopped(RunInterrupted):
    """A stoppable study stopped by Ctrl-C or SIGTERM: nothing written (a study's folder is whole or
    absent); the command line prints the message and exits 130."""

    def __init__(self, message: str):  # RunInterrupted formats a run's message: skip its __init__
        Exception.__init__(self, message)


def resolve(dotted: str) -> Callable:
    """``"package.module:function"`` -> the function (imported now, so a study never imports the
    report or the CLI that sit above it)."""
    module, _, name = dotted.partition(":")
    return getattr(importlib.import_module(module), name)


@dataclass(frozen=True)
class Study:
    """One study, declared once (module docstring). ``rank`` orders the commands in ``simbalance
    --help``; ``summary`` is the command's help; ``out_help`` its ``--out`` option's."""

    name: str
    rank: int
    summary: str = ""
    params: type | None = None
    run: Callable | None = None
    writer: str | None = None  # "module:function" writing the folder; None: report/study_folder.py
    page: str = ""  # the file a user opens, inside the folder ("skill.html")
    out_help: str = ""
    example: tuple[str, ...] = ()  # the cheapest arguments that run it, GAME first
    command: str | None = None  # a hand-written command, "module:function" (not yet on params)
    api: Callable | None = None  # its hand-written API function
    view: str | None = None  # "module:function(result, console)" showing its tables (default: result.tables())
    api_name: str | None = None  # default: name with "-" as "_"
    plays: bool = True  # whether it plays games (the contract test runs it on 1 and 2 threads)
    stoppable: bool = False  # its runs ask stop_requested() between chunks (Ctrl-C, SIGTERM: exit 130)
    # its run plays block jobs (core/blocks.py) and also takes ``stop`` and ``checkpoints`` (a folder
    # for the finished blocks): its command gives it simbalance's cache, so that the same command
    # after a Ctrl-C plays only the blocks not yet kept (card-value, fit-eval; stoppable too)
    keeps_blocks: bool = False
    # "module:function(game) -> Path": the study writes one file, not a folder (fit-eval's eval.json);
    # its --out names that file and this gives the default; its last line is "wrote <file> (<brief>)",
    # result.brief() saying what the file holds
    out_file: str | None = None
    # "module:function(study, settings, game, out, typed, **command_options)": the study's own steps
    # from the options' text to its folder, where the common ones (check --out, run, write, show) do
    # not fit; its options, params and API entry still come from the declaration (run: a checkpoint,
    # --resume, streamed shards, its robust sample). The steps make the params (params_from_options).
    steps: str | None = None
    # its command keeps a checkpoint and gains --resume DIR (with it GAME may be left out, and an
    # option that decides the result is an error: the checkpoint fixes them); its steps get
    # ``resume`` and the click context (which options were typed). Only with ``steps``.
    resumable: bool = False
    quiet: str = ""  # the help of a --quiet option its steps take ("" : none)
    out_after: str | None = None  # the parameter after which --out shows in --help (None: after all)

    @property
    def entry_name(self) -> str:
        return self.api_name or self.name.replace("-", "_")

    @property
    def declared(self) -> bool:
        """Whether the study is on the contract's parameters (else a hand-written command)."""
        return self.params is not None


def check_study(study: Study) -> None:
    """Raise SimbalanceError naming what ``study`` lacks: the contract a registry entry must meet."""
    def fail(what: str):
        raise SimbalanceError(f"study {study.name!r}: {what}")

    if not NAME.fullmatch(study.name):
        fail("the name is lowercase words joined by '-'")
    if study.plays and not study.example and study.params is not None:
        fail("give example, the cheapest arguments that run it (GAME first)")
    if study.params is None:
        if study.command is None or study.api is None:
            fail("declare params and run, or name a hand-written command and api")
        return
    if study.run is None:
        fail("declare run(settings, params, progress)")
    if not (dataclasses.is_dataclass(study.params) and study.params.__dataclass_params__.frozen):
        fail("params must be a frozen dataclass (the parameters are declared once and never changed)")
    if not issubclass(study.params, StudyParams):
        fail("params must derive from core.study.StudyParams (its __post_init__ is the one check)")
    for f in dataclasses.fields(study.params):
        if "option" not in f.metadata or not option_of(f).help:
            fail(f"parameter {f.name}: declare it with core.study.option(help=...)")
    if (study.resumable or study.quiet) and study.steps is None:
        fail("a resumable or quiet study names its steps (resume and --quiet are theirs)")
    if study.out_after is not None and study.out_after not in {f.name for f in dataclasses.fields(study.params)}:
        fail(f"out_after {study.out_after!r}: name one of the params")
    if study.keeps_blocks and not {"stop", "checkpoints"} <= set(inspect.signature(study.run).parameters):
        fail("a study that keeps its blocks takes run(settings, params, progress, *, stop, checkpoints)")
    if not study.summary or not study.out_help or not study.page:
        fail("give summary, out_help and page (the command's help, its --out help, the file to open)")
