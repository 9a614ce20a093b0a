"""A validated run: everything needed to play it, nothing played yet (``studies.run.plan_run``
makes one; ``core.execution.execute`` plays it)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from simbalance.core.errors import SimbalanceError
from simbalance.core.lineup import Lineup
from simbalance.core.runner import DASK_TIMEOUT_S, MAX_GAMES, MAX_GAMES_TEXT
from simbalance.core.strategy_ids import is_search_id

if TYPE_CHECKING:
    from simbalance.core.spec import Engine, GameSpec

MAX_SEED = 2**64 - 1
# A search player's budget per decision (mcts: iterations, flat: play-outs): its tree is allocated
# up front, so 10^9 iterations ran out of memory and 10^17 play-outs never ended a decision.
MAX_BUDGET = 1_000_000


@dataclass(frozen=True)
class RunPlan:
    """A validated run: everything needed to play it, nothing played yet. Never changed once made:
    what a run did (the games it played) is in its result."""

    spec: GameSpec
    engine: Engine
    config: dict
    players: int
    n: int
    seed: int
    lineup: Lineup
    prepared: tuple
    threads: int
    chunk_size: int | None = None
    variants: list[str] = field(default_factory=list)
    kernel: object = None  # the kernel to run: the engine's, or one built around a plug-in strategy
    config_file: str | None = None  # the --config file the run read instead of configs/<game>.toml
    strategy_file: str | None = None  # the plug-in strategy, path.py:function
    backend: str = "local"  # where the chunks are played: "local" (threads) or "dask"
    scheduler: str | None = None  # dask: a running scheduler's address (None: a local cluster)
    dask_timeout: float = DASK_TIMEOUT_S  # dask: the longest wait for a worker or the next chunk
    # The fitted evaluation's weights a search seat scores a cut play-out with (studies/evaluation.py:
    # only when a search seat cuts its play-outs; None: the game's hand-written evaluate)
    search_eval: np.ndarray | None = field(default=None, compare=False)
    # where that fit came from (studies/evaluation.provenance: committed or refitted, games, seed,
    # rules digest, held-out quality): manifest.json and the run page say it
    search_eval_source: dict | None = field(default=None, compare=False)
    # A step the plan needs before its first game, made by planning and never run by it (a plan never
    # plays, writes or prints): the fitted evaluation's refit (studies/evaluation.Refit, with
    # ``description`` and ``run(progress) -> (weights, provenance)``) when no stored fit suits these rules.
    refit: object = field(default=None, compare=False)

    def ready(self, progress=None) -> RunPlan:
        """This plan with its steps done (the refit, shown by ``progress``: a progress factory); the
        plan itself when it has none. Every study plays a readied plan (studies/run.play)."""
        if self.refit is None:
            return self
        weights, source = self.refit.run(progress)
        return dataclasses.replace(self, search_eval=weights, search_eval_source=source, refit=None)

    def prepared_for(self, kernel=None) -> tuple:
        """The kernel's arguments after the common ones: ``prepared``, and for the search kernel the
        fitted evaluation's weights last (none: an empty array), which the plain kernel never takes."""
        kernel = kernel or self.kernel or self.engine.kernel_for(self.lineup)
        if self.engine.search is not None and kernel is self.engine.search.kernel:
            return (*self.prepared, self.evaluation_weights)
        return self.prepared

    @property
    def evaluation_weights(self) -> np.ndarray:
        """``search_eval`` as the search kernel takes it (float64; empty: the hand-written evaluate).
        A plan played without ``ready()`` (a study that plays its kernel itself) refits here, once:
        never the hand-written evaluate in place of a fit the rules call for."""
        if self.refit is not None:
            weights, source = self.refit.run(None)
            object.__setattr__(self, "search_eval", weights)  # frozen: filled in once
            object.__setattr__(self, "search_eval_source", source)
            object.__setattr__(self, "refit", None)
        return NO_FIT if self.search_eval is None else self.search_eval

    @property
    def trace_extra(self) -> tuple:
        """What a game's trace_search_game takes after the common arguments (the weights), when the
        run plays its search kernel; nothing for trace_game."""
        return (self.evaluation_weights,) if self.engine.searches(self.lineup) else ()


NO_FIT = np.zeros(0, np.float64)  # no fitted evaluation: a cut play-out is scored by the game's evaluate


def check_n(n: Any, written: str | None = None) -> int:
    """The number of games: a whole number from 1 to ``MAX_GAMES``, also written as a float (``1e5``,
    as on the CLI). The one check of a count: the CLI parses ``--n`` text into a number
    (``parse_count``) and hands it here with ``written``, how the user wrote it, to name in
    the error."""
    if isinstance(n, (float, np.floating)) and np.isfinite(n) and float(n).is_integer():
        n = int(n)
    label = written or f"n = {n!r}"
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise SimbalanceError(f"{label}: expected a whole number of games >= 1, e.g. 1000000, 1_000_000 or 1e6")
    if n > MAX_GAMES:
        raise SimbalanceError(f"{written or f'n = {int(n)}'}: at most {MAX_GAMES_TEXT} games per run")
    return int(n)


# Numbers as a designer types them: ASCII digits, an underscore only between two digits (1_000),
# a decimal point, an exponent. Python's int() and float() also take full-width and Arabic-Indic
# digits and underscores anywhere but the ends ("1_000_" failed only there; "２,3" was read as 2,3):
# every number of the command line and its values is read through these (issue 54, qa54b).
WHOLE_TEXT = re.compile(r"[+-]?[0-9]+(?:_[0-9]+)*", re.ASCII)
EXPONENT_TEXT = re.compile(r"[0-9]+(?:_[0-9]+)*(?:\.[0-9]+)?[eE]\+?[0-9]+", re.ASCII)
DECIMAL_TEXT = re.compile(r"[+-]?(?:[0-9]+(?:_[0-9]+)*(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?", re.ASCII)
NOT_FINITE = ("inf", "+inf", "-inf", "infinity", "+infinity", "-infinity", "nan", "+nan", "-nan")


def read_number(text: str) -> int | float:
    """A number typed as a value (a sweep's ``--param`` values, a knob's or a range's bounds): a whole
    number is an int, anything else a float; ``inf``/``nan`` are read (their own checks name them).
    ValueError for anything not written in ASCII digits (``DECIMAL_TEXT``)."""
    text = text.strip()
    if WHOLE_TEXT.fullmatch(text):
        return int(text)
    if DECIMAL_TEXT.fullmatch(text) or text.lower() in NOT_FINITE:
        return float(text)
    raise ValueError(f"not a number in ASCII digits: {text!r}")


def read_count(text: str) -> Any:
    """A count as typed, read as a number: ``1e6``, ``1_000_000`` and ``1000000`` all mean one
    million; text that is no count gives None, and a count past ``MAX_GAMES`` gives one more, so
    that ``check_n`` names either as typed."""
    text = text.strip()
    if not WHOLE_TEXT.fullmatch(text) and not EXPONENT_TEXT.fullmatch(text):
        return None  # (an underscore only between digits, as in Python's own literals: "1_000_" is no count)
    cleaned = text.replace("_", "")
    value: object = None
    too_many = MAX_GAMES + 1
    if re.fullmatch(r"[0-9]+", cleaned):  # far too many digits: no huge int, just too many
        value = int(cleaned) if len(cleaned.lstrip("0")) <= len(str(MAX_GAMES)) else too_many
    elif re.fullmatch(r"[0-9]+(\.[0-9]+)?[eE]\+?[0-9]+", cleaned):
        value = float(cleaned)  # exact for whole numbers up to MAX_GAMES; inf for huge exponents
        value = too_many if value > MAX_GAMES else value
    return value


def parse_count(text: str, option: str = "--n") -> int:
    """A count typed on the command line, read (``read_count``) and checked by the one check of a
    count (``check_n``, which names ``option`` and the text)."""
    check_count_text(text, option)
    return check_n(read_count(text), f"{option} {text!r}")


def check_count_text(text: str, option: str = "--n", examples: str = "1000000, 1_000_000 or 1e6") -> None:
    """ASCII digits only, nothing around them: Python's int() and re's \\d also take " 10 ", "10\\n",
    full-width and Arabic-Indic digits, which a designer did not mean to type (issue 54). Every
    number of the command line goes through it (cli/main.py: the whole-number and decimal options)."""
    if not text.isascii() or any(ch.isspace() for ch in text):
        raise SimbalanceError(f"{option} {text!r}: write the number in the digits 0-9 with nothing around it, "
                              f"e.g. {examples}")


def check_whole(name: str, value: Any, low: int, high: int) -> int:
    """Every whole-number input of a study (a budget, games, generations, a population...) checked
    the same way: a whole number from ``low`` to ``high``, else one line naming it as given."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not low <= value <= high:
        if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
            shown = str(int(value)) if abs(int(value)) < 10**15 else f"{int(value):.3e}"
        else:
            shown = repr(value)
        raise SimbalanceError(f"{name} {shown}: allowed a whole number from {low:,} to {high:,}")
    return int(value)


def check_precision(name: str, value: Any) -> float:
    """A precision target (``--precision``, ``--robust-precision``): the 95% CI half-width a run plays
    until, a share strictly between 0 and 0.5 (0.03 is 3 points), else one line naming it as given."""
    if (isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating))
            or not 0 < float(value) < 0.5):
        raise SimbalanceError(f"{name} {value!r}: allowed between 0 and 0.5 (a 95% CI half-width as a share: "
                              "0.03 is 3 points)")
    return float(value)


def check_search_budgets(lineup: Lineup, strategies: Mapping[str, int]) -> None:
    """The budget of every seated search player (its first parameter, ``iterations`` or ``playouts``,
    from the config or a preset) a whole number from 1 to ``MAX_BUDGET``, named by its config key.
    ``strategies``: the engine's heuristic names (a slot of another name is a preset)."""
    for name, strategy_id, row in zip(lineup.slot_names, lineup.slot_strategy, lineup.slot_params, strict=True):
        if not is_search_id(strategy_id):
            continue
        budget = float(row[0])
        table = "strategies" if name in strategies else "presets"
        check_whole(f"{table}.{name}.{lineup.param_names[name][0]} =", int(budget) if budget.is_integer() else budget,
                    1, MAX_BUDGET)


def check_seed(seed: Any) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed <= MAX_SEED:
        raise SimbalanceError(f"seed = {seed!r}: allowed a whole number from 0 to 2**64 - 1")
    return int(seed)
