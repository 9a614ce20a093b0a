"""``RunSettings``: how a study's games are set up and where they are played, said once; and
``plan_run``, which turns settings into a validated run (``RunPlan``).

Every study takes the same eight settings (the game, its players, the seed, the config file, the
variants and ``--set`` overrides, the threads and the backend) plus its own parameters. They are
built once, from the CLI's shared options (cli/settings_options.py) or from the API's keywords,
checked once here, and passed down whole: a study changes one of them (a derived seed, an arm's
overrides) with ``settings.but(...)`` and plans a run with ``settings.plan(n, ...)``.

    >>> settings = RunSettings("captain-future", players=3, seed=7, overrides=("rules.pick_cap=500",))
    >>> plan = settings.plan(100_000, strategies="aggressor")

What a run *is* (the game, players, seed, config, variants, overrides) is its ``identity``: a
checkpoint stores it, so ``--resume`` plays the same games wherever and on however many threads
it is resumed.
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import math
import numbers
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from simbalance.analysis.findings import thresholds
from simbalance.core.config import (
    apply_overrides,
    check_shares,
    config_dir,
    load_config,
    override_list,
    require_int,
)
from simbalance.core.errors import ConfigError, SimbalanceError
from simbalance.core.lineup import resolve_lineup
from simbalance.core.plan import RunPlan, check_n, check_search_budgets, check_seed, check_whole
from simbalance.core.probe import probe_user_strategy, probing
from simbalance.core.runner import BACKENDS, DASK_TIMEOUT_S, MAX_CHUNK, check_threads, max_threads
from simbalance.core.variants import load_variant
from simbalance.games.registry import get_game

if TYPE_CHECKING:
    from collections.abc import Callable

    from simbalance.core.study import Study

# The settings that decide which games a run plays (the others decide only where they are played).
IDENTITY = ("game", "players", "seed", "overrides", "variants", "config")


@dataclass(frozen=True)
class RunSettings:
    """The settings every study shares; the docstring of each field says what it allows.

    - ``game``: a game id (``simbalance games``).
    - ``players``: the number of players (None: the game config's ``game.players``).
    - ``seed``: 0 to 2**64 - 1; the same seed gives the same games.
    - ``overrides``: config changes, ``key=value`` strings (the CLI's ``--set``) or a dict
      (``{"rules.pick_cap": 500}``), applied after the variants; stored as strings.
    - ``variants``: names under ``configs/<game>/variants/`` or TOML paths, applied in order.
    - ``config``: a config file used instead of the game's own ``configs/<game>.toml``.
    - ``threads``: 1 to the machine's cores (None: all of them).
    - ``backend``: ``local`` (this machine's threads) or ``dask``; with dask, ``scheduler`` is the
      address of a running scheduler (None: a local cluster) and ``dask_timeout`` the longest wait
      in seconds for a worker or the next chunk.
    """

    game: str
    players: int | None = None
    seed: int = 0
    overrides: tuple[str, ...] = ()
    variants: tuple[str, ...] = ()
    config: str | None = None
    threads: int | None = None
    backend: str = "local"
    scheduler: str | None = None
    dask_timeout: float = DASK_TIMEOUT_S

    def __post_init__(self):
        if not isinstance(self.game, str):
            raise SimbalanceError(f"game = {self.game!r}: give a game id (see `simbalance games`)")
        set_ = lambda name, value: object.__setattr__(self, name, value)  # noqa: E731 (a frozen dataclass)
        set_("game", get_game(self.game).id)
        if self.players is not None:
            if isinstance(self.players, bool) or not isinstance(self.players, numbers.Integral):
                raise SimbalanceError(f"players = {self.players!r}: expected a whole number")
            set_("players", int(self.players))
        set_("seed", check_seed(self.seed))
        set_("overrides", tuple(_override_strings(self.overrides)))
        set_("variants", tuple(_names("variants", self.variants)))
        if self.config is not None:
            if not isinstance(self.config, (str, Path)):
                raise SimbalanceError(f"config = {self.config!r}: give the path of a TOML file")
            set_("config", str(self.config))
        try:
            check_threads(self.threads)
        except SimbalanceError as exc:  # named as the user wrote it: --threads 0, or threads = 0
            raise SimbalanceError(f"{_given('threads', self.threads)}: {str(exc).split(': ', 1)[1]}") from None
        if self.backend not in BACKENDS:
            raise SimbalanceError(f"{_given('backend', self.backend)}: allowed {', '.join(BACKENDS)}")
        if self.scheduler is not None and self.backend != "dask":
            raise SimbalanceError(f"{_given('scheduler', self.scheduler)}: a scheduler is for "
                                  f"{_given('backend', 'dask')} (the run is {self.backend})")
        if (isinstance(self.dask_timeout, bool) or not isinstance(self.dask_timeout, (int, float))
                or not (self.dask_timeout > 0 and math.isfinite(self.dask_timeout))):
            raise SimbalanceError(f"{_given('dask_timeout', self.dask_timeout)}: allowed a number of seconds above "
                                  "0 (and finite)")

    @classmethod
    def of(cls, game: str | RunSettings, **settings: Any) -> RunSettings:
        """Settings from a game id and keywords (the API's way: ``compare("find-dr-evil", ...,
        seed=3)``), or given settings with some keywords changed. An unknown keyword is an error
        that names every setting allowed."""
        known = [f.name for f in dataclasses.fields(cls) if f.name != "game"]
        unknown = sorted(set(settings) - set(known))
        if unknown:
            raise SimbalanceError(f"unknown setting {', '.join(unknown)}: allowed {', '.join(known)}")
        if isinstance(game, RunSettings):
            return game.but(**settings) if settings else game
        return cls(game, **settings)

    def but(self, **changes: Any) -> RunSettings:
        """These settings with ``changes`` (checked again)."""
        return dataclasses.replace(self, **changes)

    def plan(self, n: int, **run: Any) -> RunPlan:
        """A validated run of ``n`` games with these settings; ``run`` takes plan_run's own
        keywords (strategies, rotate, chunk_size, validate, every_lineup, strategy_file, presets)."""
        return plan_run(self, n, **run)

    @property
    def identity(self) -> dict:
        """The settings that decide the games, JSON-ready (a checkpoint stores them)."""
        return {name: list(value) if isinstance(value, tuple) else value
                for name in IDENTITY for value in [getattr(self, name)]}


# How an error names a setting: as the API's keyword (``backend = 'spark'``), or inside
# ``as_options()`` as the command line's option (``--backend spark``), the way the user wrote it.
_AS_OPTIONS: contextvars.ContextVar[bool] = contextvars.ContextVar("settings_as_options", default=False)


@contextlib.contextmanager
def as_options():
    """Errors of the settings made inside name the command line's options (cli/settings_options.py)."""
    token = _AS_OPTIONS.set(True)
    try:
        yield
    finally:
        _AS_OPTIONS.reset(token)


def _given(name: str, value: Any) -> str:
    if _AS_OPTIONS.get():
        return f"--{name.replace('_', '-')} {value}"
    return f"{name} = {value!r}"


def _override_strings(overrides: Any) -> list[str]:
    if overrides is None:
        return []
    if isinstance(overrides, dict):
        if not all(isinstance(key, str) for key in overrides):
            raise SimbalanceError(f"overrides = {overrides!r}: the keys are config keys (strings)")
        return override_list(overrides)
    return _names("overrides", overrides, "key=value strings (or a dict of keys and values)")


def _names(what: str, value: Any, allowed: str = "a list of names") -> list[str]:
    if value is None:
        return []
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)) or not all(
            isinstance(item, str) for item in value):
        raise SimbalanceError(f"{what} = {value!r}: allowed {allowed}")
    return list(value)


def plan_run(
    game: str | RunSettings,
    n: int,
    *,
    strategies: list[str] | str | None = None,
    rotate: bool = False,
    chunk_size: int | None = None,
    validate: bool = False,
    every_lineup: bool = False,
    strategy_file: str | None = None,
    presets: dict[str, dict] | None = None,
    **settings: Any,
) -> RunPlan:
    """Validate a run completely (config, players, strategies, deck) without playing it: pure, it
    never plays, writes or prints (a refit of the fitted evaluation is the plan's ``refit`` step,
    which ``RunPlan.ready`` runs before the first game).

    ``game``: a game id with the settings as keywords (``players``, ``seed``, ``overrides``,
    ``variants``, ``config``, ``threads``, ``backend``...: studies/settings.RunSettings), or a
    ``RunSettings``. Variants apply first, in order; then overrides. ``strategies`` is one name per
    seat (or one name for all); ``rotate`` plays every seat permutation of them equally often;
    ``every_lineup`` every assignment of them to the seats. ``presets``: more named presets (as in
    presets.toml: ``base``, ``idea``, the parameters they change), the studies' own players such as
    the ladder's budgets.
    """
    settings = RunSettings.of(game, **settings)
    spec = get_game(settings.game)  # a plug-in game has played a few games in a process of its own there
    n = check_n(n)
    threads = max_threads() if settings.threads is None else settings.threads  # checked by RunSettings
    if chunk_size is not None:
        check_whole("chunk_size =", chunk_size, 1, MAX_CHUNK)
    cfg = load_config(spec.id, settings.config)
    for name in settings.variants:
        changes, _ = load_variant(spec.id, name)
        try:
            cfg = apply_overrides(cfg, changes)
        except ConfigError as exc:
            raise ConfigError(f"variant {name}: {exc}") from None
    cfg = apply_overrides(cfg, list(settings.overrides))
    if presets:
        cfg = {**cfg, "presets": {**cfg.get("presets", {}), **presets}}
    with config_file_named(settings, spec.id):  # an error in a --config file's config names the file
        thresholds(cfg)  # a broken [findings] table is an error before any game, not after
        check_shares(cfg)  # ... and so is a percent written where a share is meant
        if settings.players is not None:
            cfg.setdefault("game", {})["players"] = settings.players
        players = require_int(cfg, "game.players", spec.min_players, spec.max_players)
        engine = spec.load()
        lineup = resolve_lineup(cfg, engine.strategies, engine.strategy_params, players, strategies, rotate, every_lineup,
                                user_strategy=strategy_file is not None)
        check_search_budgets(lineup, engine.strategies)
        kernel = engine.kernel_for(lineup)
        if strategy_file is not None:
            from simbalance.core.user_strategy import USER_STRATEGY_SEAT, user_strategy_kernel

            if engine.searches(lineup):
                raise SimbalanceError("--strategy-file: a plug-in and search players (mcts, flat) cannot share a run yet")
            if USER_STRATEGY_SEAT not in lineup.slot_names:
                raise SimbalanceError(f"--strategy-file: seat the function with the strategy name {USER_STRATEGY_SEAT!r}, "
                                      f"e.g. --strategies {USER_STRATEGY_SEAT},random")
            if not probing():  # the user's file plays a few games in a process of its own first
                probe_user_strategy(spec.id, strategy_file, players)
            kernel = user_strategy_kernel(engine, spec.id, strategy_file)
        prepared = engine.prepare(cfg, players, bool(validate))
    # the fit a search seat's cut play-outs use
    from simbalance.studies.evaluation import Refit, evaluation_fit

    # A probe (core/probe.py) plays a heuristic instead of a search seat, as Python: a refit there
    # would play its games as Python too, far past the probe's limit.
    fit = None if probing() else evaluation_fit(spec.id, engine, cfg, players, lineup)
    refit = fit if isinstance(fit, Refit) else None  # a step of the plan, run by RunPlan.ready
    search_eval, search_eval_source = fit if isinstance(fit, tuple) else (None, None)
    return RunPlan(spec, engine, cfg, players, n, settings.seed, lineup, prepared, threads, chunk_size,
                   variants=list(settings.variants), kernel=kernel, config_file=settings.config,
                   strategy_file=strategy_file, backend=settings.backend, scheduler=settings.scheduler,
                   dask_timeout=settings.dask_timeout, search_eval=search_eval,
                   search_eval_source=search_eval_source, refit=refit)


@contextlib.contextmanager
def config_file_named(settings: RunSettings, game_id: str):
    """A ConfigError about the config of a run from a ``--config`` file names that file (it said
    "config key 'game.players' is missing" of a file that had only a [rules] table, naming nothing);
    with the variants and ``--set`` keys that changed it, which may be where the value came from."""
    try:
        yield
    except ConfigError as exc:
        if settings.config is None or str(settings.config) in str(exc):
            raise
        changed = [f"--variant {v}" for v in settings.variants] + [f"--set {o}" for o in settings.overrides]
        given = f" (with {', '.join(changed)})" if changed else ""
        own = config_dir(game_id) / f"{game_id}.toml"
        whole = ("; a --config file is the game's whole config, not changes to it: start from a copy of the game's "
                 f"own, {own}" if "is missing" in str(exc) else "")
        raise ConfigError(f"config file {settings.config}{given}: {exc}{whole}") from None


def api_entry(study: Study) -> Callable:
    """``simbalance.api.<name>(game, <positional params>, *, <params>, progress=None, **settings)``:
    the study's parameters as keywords (checked once by ``params``), the settings as
    studies/settings.RunSettings takes them."""
    import inspect

    from simbalance.core.study import option_of

    fields = dataclasses.fields(study.params)
    positional = [f for f in fields if option_of(f).positional or f.default is dataclasses.MISSING]

    def entry(game, *args, progress=None, **keywords):
        if len(args) > len(positional):
            raise SimbalanceError(f"{study.entry_name}() takes {len(positional)} argument(s) after the game")
        given = {f.name: value for f, value in zip(positional, args, strict=False)}
        names = {f.name for f in fields}
        given.update({key: keywords.pop(key) for key in list(keywords) if key in names})
        params = study.params(**given)
        stopping = {key: keywords.pop(key) for key in ("stop", "checkpoints") if key in keywords} if study.keeps_blocks else {}
        return study.run(RunSettings.of(game, **keywords), params, progress, **stopping)

    P = inspect.Parameter
    parameters = [P("game", P.POSITIONAL_OR_KEYWORD)]
    parameters += [P(f.name, P.POSITIONAL_OR_KEYWORD) if f.default is dataclasses.MISSING
                   else P(f.name, P.POSITIONAL_OR_KEYWORD, default=f.default) for f in positional]
    parameters += [P(f.name, P.KEYWORD_ONLY, default=f.default) for f in fields if f not in positional]
    parameters += [P("progress", P.KEYWORD_ONLY, default=None)]
    if study.keeps_blocks:  # a study of block jobs: core/study.Study.keeps_blocks
        parameters += [P("stop", P.KEYWORD_ONLY, default=None), P("checkpoints", P.KEYWORD_ONLY, default=None)]
    parameters += [P("settings", P.VAR_KEYWORD)]
    entry.__signature__ = inspect.Signature(parameters)
    entry.__name__ = entry.__qualname__ = study.entry_name
    entry.__doc__ = (f"{study.summary}\n\nThe parameters: {study.params.__module__}.{study.params.__name__}; "
                     "the settings: studies/settings.RunSettings.")
    return entry
